/* Deterministic randomness for engine tests: xorshift64, the state seeded by the test (non-zero).
 */
#ifndef TEST_ENGINE_TEST_RANDOM_H
#define TEST_ENGINE_TEST_RANDOM_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

#endif
