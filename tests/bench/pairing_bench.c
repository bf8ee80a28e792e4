/*
 * Quick pairing's cost (core/pool.h): the time pool_pair() takes for one wave of N players
 * waiting in one pool (default 10,000), their ratings spread like a site's (a normal
 * distribution around 1500, deviation 300) and their waits up to 30 s. Prints the median and
 * worst of RUNS waves, and how many pairs a wave makes. A benchmark: it prints and never fails.
 *
 *   build/release/tests/bench/pairing_bench [N] [RUNS]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/pool.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A reproducible normal deviate (Box-Muller on a linear congruential generator). */
static double normal(unsigned long long *state) {
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    double u1 = ((double)(*state >> 11) + 1.0) / 9007199254740993.0;
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    double u2 = (double)(*state >> 11) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    int runs = argc > 2 ? atoi(argv[2]) : 21;
    if (n < 2 || runs < 1) {
        fprintf(stderr, "usage: pairing_bench [N >= 2] [RUNS >= 1]\n");
        return 2;
    }
    struct pool_candidate *c = calloc((size_t)n, sizeof *c);
    struct pool_pair *out = calloc((size_t)n / 2 + 1, sizeof *out);
    char(*ids)[16] = calloc((size_t)n, sizeof *ids);
    double *times = calloc((size_t)runs, sizeof *times);
    if (!c || !out || !ids || !times) return 1;
    unsigned long long state = 42;
    const int64_t now = 30000;
    for (int i = 0; i < n; i++) {
        snprintf(ids[i], sizeof ids[i], "p%d", i);
        state = state * 6364136223846793005ULL + 1;
        c[i] = (struct pool_candidate){.id = ids[i],
                                       .rating = (int)lround(1500 + 300 * normal(&state)),
                                       .joined_ms = (int64_t)(state >> 33) % 30000,
                                       .last_opponent = ""};
    }
    int pairs = 0;
    for (int r = 0; r < runs; r++) {
        double t0 = now_ms();
        pairs = pool_pair(c, n, now, false, out);
        times[r] = now_ms() - t0;
    }
    qsort(times, (size_t)runs, sizeof *times, by_value);
    printf("pairing %d waiting players: %d pairs a wave; %.2f ms median, %.2f ms worst of %d "
           "waves\n",
           n, pairs, times[runs / 2], times[runs - 1], runs);
    free(c);
    free(out);
    free(ids);
    free(times);
    return pairs < 0;
}
