/* The growing byte buffer: doubling growth, printf through vsnprintf into the free room. */
#include "util/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

bool buf_init(struct buf *b, size_t front, size_t hint) {
    *b = (struct buf){.cap = front + (hint ? hint : 64), .len = front};
    b->data = malloc(b->cap);
    if (!b->data) b->failed = true;
    return b->data != NULL;
}

bool buf_grow(struct buf *b, size_t more) {
    if (b->failed) return false;
    size_t cap = b->cap ? b->cap * 2 : 64;
    while (cap < b->len + more) cap *= 2;
    unsigned char *grown = realloc(b->data, cap);
    if (!grown) {
        b->failed = true;
        return false;
    }
    b->data = grown;
    b->cap = cap;
    return true;
}

void buf_printf(struct buf *b, const char *fmt, ...) {
    for (;;) {
        if (b->failed) return;
        size_t room = b->cap - b->len;
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf((char *)b->data + b->len, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = true;
            return;
        }
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        if (!buf_grow(b, (size_t)n + 1)) return;
    }
}

unsigned char *buf_finish(struct buf *b, size_t front, size_t *len) {
    if (b->failed) {
        free(b->data);
        b->data = NULL;
        return NULL;
    }
    *len = b->len - front;
    return b->data;
}
