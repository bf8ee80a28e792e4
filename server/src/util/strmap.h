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

/* Removes the entry; returns its value, or NULL when absent. */
void *strmap_remove(struct strmap *map, const char *key);

/* Iteration: for (size_t i = 0; strmap_next(m, &i, &k, &v);) ... Do not modify the map while
 * iterating. Returns 1 while there is an entry, 0 at the end. */
int strmap_next(const struct strmap *map, size_t *cursor, const char **key, void **value);

#endif
