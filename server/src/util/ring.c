/*
 * The ring: elements live at (head + i) % cap; growing copies them, in order, to the front of a
 * new array twice the size.
 */
#include "util/ring.h"

#include <stdlib.h>
#include <string.h>

void ring_init(struct ring *r, size_t elem) {
    *r = (struct ring){.elem = elem};
}

static int grow(struct ring *r, size_t first, size_t max) {
    size_t cap = r->cap ? r->cap * 2 : first;
    if (max && r->cap >= max) return -1;
    if (max && cap > max) cap = max;
    unsigned char *items = malloc(cap * r->elem);
    if (!items) return -1;
    for (size_t i = 0; i < r->count; i++) memcpy(items + i * r->elem, ring_at(r, i), r->elem);
    free(r->items);
    r->items = items;
    r->head = 0;
    r->cap = cap;
    return 0;
}

int ring_push(struct ring *r, const void *item, size_t first, size_t max) {
    if (r->count == r->cap && grow(r, first ? first : 8, max) < 0) return -1;
    memcpy(r->items + ((r->head + r->count) % r->cap) * r->elem, item, r->elem);
    r->count++;
    return 0;
}

int ring_pop_back(struct ring *r) {
    if (r->count == 0) return -1;
    r->count--;
    return 0;
}

void ring_clear(struct ring *r) {
    r->head = 0;
    r->count = 0;
}

void ring_free(struct ring *r) {
    free(r->items);
    ring_init(r, r->elem);
}
