/* Thin wrappers over clock_gettime(). */
#include "util/now.h"

#include <time.h>

static int64_t read_clock(clockid_t id, int64_t per_sec) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * per_sec + (int64_t)ts.tv_nsec / (1000000000 / per_sec);
}

int64_t now_mono_ms(void) {
    return read_clock(CLOCK_MONOTONIC, 1000);
}

int64_t now_mono_us(void) {
    return read_clock(CLOCK_MONOTONIC, 1000000);
}

int64_t now_wall_ms(void) {
    return read_clock(CLOCK_REALTIME, 1000);
}
