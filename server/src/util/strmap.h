/*
 * A hash map from NUL-terminated strings to pointers: open addressing with linear probing and
 * backward-shift deletion (no tombstones). The map does not copy keys: a key must stay valid and
 * unchanged while its entry exists (usually it lives inside the value).
 *
 * Not thread-safe: one owner.
 */
#ifndef SERVER_UTIL_STRMAP_H
#define SERVER_UTIL_STRMAP_H

#include <stddef.h>

struct strmap_entry {
    const char *key; /* NULL: empty slot */
    void *value;
    size_t hash;
};

struct strmap {
    struct strmap_entry *slots;
    size_t capacity; /* a power of two, or 0 before the first insertion */
    size_t count;
};

/* An empty map needs no allocation: struct strmap m = {0}. */
void strmap_free(struct strmap *map);

/* Returns the value stored under key, or NULL. */
void *strmap_get(const struct strmap *map, const char *key);

/* Inserts or replaces. Returns 0, or -1 when memory runs out (the map is unchanged). */
int strmap_put(struct strmap *map, const char *key, void *value);

/*
 * The value under key, created when absent: a zeroed block of size bytes whose key (a char array
 * of key_size bytes at key_offset, where the map finds it) is set to key. Returns NULL when
 * memory runs out or key does not fit (the map is unchanged). *created (may be NULL) says
 * whether it is new. For values that keep their own key:
 *   strmap_get_or_add(&m, id, sizeof(struct peer), offsetof(struct peer, id),
 *                     sizeof((struct peer *)0)->id, NULL)
 */
void *strmap_get_or_add(struct strmap *map, const char *key, size_t size, size_t key_offset,
                        size_t key_size, int *created);

/* Removes the entry; returns its value, or NULL when absent. */
void *strmap_remove(struct strmap *map, const char *key);

/* Iteration: for (size_t i = 0; strmap_next(m, &i, &k, &v);) ... Do not modify the map while
 * iterating. Returns 1 while there is an entry, 0 at the end. */
int strmap_next(const struct strmap *map, size_t *cursor, const char **key, void **value);

#endif
