/*
 * Open addressing with linear probing; the table doubles at 50% load. Removal shifts later
 * entries of the same probe run back, so lookups never see tombstones.
 */
#include "util/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a, 64-bit. */
static size_t hash_string(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return (size_t)(h ^ (h >> 32));
}

void strmap_free(struct strmap *map) {
    free(map->slots);
    *map = (struct strmap){0};
}

static struct strmap_entry *find_slot(const struct strmap *map, const char *key, size_t hash) {
    size_t mask = map->capacity - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        struct strmap_entry *e = &map->slots[i];
        if (!e->key || (e->hash == hash && strcmp(e->key, key) == 0)) return e;
    }
}

void *strmap_get(const struct strmap *map, const char *key) {
    if (map->count == 0) return NULL;
    struct strmap_entry *e = find_slot(map, key, hash_string(key));
    return e->key ? e->value : NULL;
}

static int grow(struct strmap *map) {
    size_t capacity = map->capacity ? map->capacity * 2 : 16;
    struct strmap_entry *slots = calloc(capacity, sizeof *slots);
    if (!slots) return -1;
    struct strmap bigger = {.slots = slots, .capacity = capacity, .count = map->count};
    for (size_t i = 0; i < map->capacity; i++) {
        struct strmap_entry *old = &map->slots[i];
        if (old->key) *find_slot(&bigger, old->key, old->hash) = *old;
    }
    free(map->slots);
    *map = bigger;
    return 0;
}

int strmap_put(struct strmap *map, const char *key, void *value) {
    if ((map->count + 1) * 2 > map->capacity && grow(map) < 0) return -1;
    size_t hash = hash_string(key);
    struct strmap_entry *e = find_slot(map, key, hash);
    if (!e->key) map->count++;
    *e = (struct strmap_entry){.key = key, .value = value, .hash = hash};
    return 0;
}

void *strmap_get_or_add(struct strmap *map, const char *key, size_t size, size_t key_offset,
                        size_t key_size, int *created) {
    if (created) *created = 0;
    void *value = strmap_get(map, key);
    if (value) return value;
    size_t len = strlen(key);
    if (len >= key_size || key_offset + key_size > size) return NULL;
    unsigned char *block = calloc(1, size);
    if (!block) return NULL;
    memcpy(block + key_offset, key, len + 1);
    if (strmap_put(map, (const char *)block + key_offset, block) < 0) {
        free(block);
        return NULL;
    }
    if (created) *created = 1;
    return block;
}

void *strmap_remove(struct strmap *map, const char *key) {
    if (map->count == 0) return NULL;
    struct strmap_entry *e = find_slot(map, key, hash_string(key));
    if (!e->key) return NULL;
    void *value = e->value;
    size_t mask = map->capacity - 1;
    size_t hole = (size_t)(e - map->slots);
    for (size_t i = (hole + 1) & mask; map->slots[i].key; i = (i + 1) & mask) {
        size_t home = map->slots[i].hash & mask;
        /* Move the entry back when its home is not within (hole, i] cyclically. */
        int between = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
        if (!between) {
            map->slots[hole] = map->slots[i];
            hole = i;
        }
    }
    map->slots[hole] = (struct strmap_entry){0};
    map->count--;
    return value;
}

int strmap_next(const struct strmap *map, size_t *cursor, const char **key, void **value) {
    for (; *cursor < map->capacity; (*cursor)++) {
        struct strmap_entry *e = &map->slots[*cursor];
        if (e->key) {
            if (key) *key = e->key;
            if (value) *value = e->value;
            (*cursor)++;
            return 1;
        }
    }
    return 0;
}
