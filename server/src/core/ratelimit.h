/*
 * A token bucket: up to `burst` tokens, refilled at `per_second` tokens per second. Time comes in
 * as monotonic milliseconds. Used per connection (messages) and per player (chat).
 *
 * Owned by whatever embeds it (loop thread).
 */
#ifndef SERVER_CORE_RATELIMIT_H
#define SERVER_CORE_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

struct ratelimit {
    double tokens;
    double burst;
    double per_ms;
    int64_t last_ms;
};

/* A full bucket at now. */
void ratelimit_init(struct ratelimit *limit, double burst, double per_second, int64_t now_ms);

/* Takes `cost` tokens when available: returns true, or false (and takes nothing). */
bool ratelimit_take(struct ratelimit *limit, double cost, int64_t now_ms);

#endif
