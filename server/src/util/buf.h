/*
 * A growing byte buffer for text built piece by piece (JSON written by hand, JSON dumped by
 * jansson, Prometheus text), with room left free at its front (`front`) for a header the
 * caller fills later (the transport's message header and lws's headroom).
 *
 * On allocation failure the buffer stops growing and marks itself failed; the pieces after that
 * are dropped, and buf_finish() frees the block and returns NULL, so callers check once at the
 * end. The checks on the hot path are inline.
 *
 * One owner; not thread-safe.
 */
#ifndef SERVER_UTIL_BUF_H
#define SERVER_UTIL_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct buf {
    unsigned char *data;
    size_t len; /* including the free front */
    size_t cap;
    bool failed;
};

/* Starts a buffer with front free bytes and room for hint more. Returns false when memory runs
 * out (nothing to free then). */
bool buf_init(struct buf *b, size_t front, size_t hint);

/* Grows to hold more bytes beyond len (doubling). Returns false, marking the buffer failed,
 * when memory runs out. Use buf_reserve(). */
bool buf_grow(struct buf *b, size_t more);

/* Room for more bytes beyond len: true, or false when the buffer failed. */
static inline bool buf_reserve(struct buf *b, size_t more) {
    if (b->failed) return false;
    return b->len + more <= b->cap || buf_grow(b, more);
}

/* Appends n bytes. */
static inline void buf_put(struct buf *b, const void *s, size_t n) {
    if (!buf_reserve(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

/* Appends formatted text (printf). */
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The block (the caller's to free), with *len the bytes after the front; or NULL, the block
 * freed, when the buffer failed. */
unsigned char *buf_finish(struct buf *b, size_t front, size_t *len);

#endif
