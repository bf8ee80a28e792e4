/* Deterministic randomness for worlds in store tests (a linear congruential generator). */
#ifndef TEST_STORE_TESTRAND_H
#define TEST_STORE_TESTRAND_H

#include <stdint.h>

static int test_random(void *ctx, void *buf, unsigned n) {
    uint64_t *state = ctx;
    unsigned char *out = buf;
    for (unsigned i = 0; i < n; i++) {
        *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
        out[i] = (unsigned char)(*state >> 56);
    }
    return 0;
}

#endif
