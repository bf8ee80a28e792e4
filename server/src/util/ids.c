/*
 * Base62 identifiers from getrandom(2). Rejection sampling keeps every character uniform.
 */
#include "util/ids.h"

#include <errno.h>
#include <sys/random.h>

static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

int ids_random_bytes(void *buf, size_t n) {
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

int ids_random_text(char *out, size_t len) {
    unsigned char pool[64];
    size_t used = sizeof pool, i = 0;
    while (i < len) {
        if (used == sizeof pool) {
            if (ids_random_bytes(pool, sizeof pool) < 0) return -1;
            used = 0;
        }
        unsigned char b = pool[used++];
        if (b >= 248) continue; /* 248 = 4 * 62: keeps the distribution uniform */
        out[i++] = alphabet[b % 62];
    }
    out[len] = '\0';
    return 0;
}

int ids_random_u64(uint64_t *out) {
    return ids_random_bytes(out, sizeof *out);
}
