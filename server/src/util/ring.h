/*
 * A FIFO ring of fixed-size elements that doubles when full (the outbound queue of a
 * connection, the messages held for a commit, the times of pending Redis commands).
 *
 * One owner; not thread-safe. The reading side is inline (it runs for every message sent).
 */
#ifndef SERVER_UTIL_RING_H
#define SERVER_UTIL_RING_H

#include <stddef.h>
#include <string.h>

struct ring {
    unsigned char *items;
    size_t elem; /* bytes per element */
    size_t head, count, cap;
};

/* An empty ring of elements of elem bytes (no memory until the first push). */
void ring_init(struct ring *r, size_t elem);

/* Appends a copy of *item, growing to at least first elements and then doubling. Returns 0, or
 * -1 when memory runs out or the ring would grow beyond max elements (0: no limit); the ring is
 * unchanged then. */
int ring_push(struct ring *r, const void *item, size_t first, size_t max);

/* The i-th element from the front (i < count), to read or change in place. */
static inline void *ring_at(const struct ring *r, size_t i) {
    return r->items + ((r->head + i) % r->cap) * r->elem;
}

/* Removes the front element, copying it to *out when out is not NULL. Returns 0, or -1 when the
 * ring is empty. */
static inline int ring_pop(struct ring *r, void *out) {
    if (r->count == 0) return -1;
    if (out) memcpy(out, ring_at(r, 0), r->elem);
    r->head = (r->head + 1) % r->cap;
    r->count--;
    return 0;
}

/* Removes the newest element (the undo of a push). Returns 0, or -1 when the ring is empty. */
int ring_pop_back(struct ring *r);

/* Empties the ring, keeping its memory. */
void ring_clear(struct ring *r);

/* Frees the elements' memory (not what they point to). */
void ring_free(struct ring *r);

#endif
