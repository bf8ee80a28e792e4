/*
 * Deterministic randomness for the world's tests (its core_random_fn): splitmix64 over a
 * uint64_t seed the caller owns (ctx).
 */
#ifndef TESTS_HARNESS_SPLITMIX_H
#define TESTS_HARNESS_SPLITMIX_H

#include <stdint.h>

static inline int splitmix_random(void *ctx, void *buf, unsigned n) {
    uint64_t *state = ctx;
    unsigned char *out = buf;
    for (unsigned i = 0; i < n; i++) {
        uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        out[i] = (unsigned char)(z ^ (z >> 31));
    }
    return 0;
}

#endif
