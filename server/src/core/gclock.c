/*
 * The game clock's arithmetic. Time is charged only when a side stops (a move, a stop); in between,
 * remaining time is computed from started_at_ms.
 */
#include "core/gclock.h"

void gclock_init(struct gclock *clock, bool unlimited, int64_t initial_ms, int64_t increment_ms,
                 int64_t lag_comp_ms) {
    *clock = (struct gclock){
        .unlimited = unlimited,
        .increment_ms = unlimited ? 0 : increment_ms,
        .lag_comp_ms = lag_comp_ms,
        .remaining_ms = {unlimited ? 0 : initial_ms, unlimited ? 0 : initial_ms},
        .running = -1,
    };
}

void gclock_start(struct gclock *clock, int color, int64_t now_ms) {
    if (clock->unlimited) return;
    clock->running = color;
    clock->started_at_ms = now_ms;
}

/* Time the running side is charged for the period up to now: elapsed minus the allowance. */
static int64_t charge(const struct gclock *clock, int64_t now_ms) {
    int64_t elapsed = now_ms - clock->started_at_ms;
    if (elapsed <= 0) return 0;
    return elapsed > clock->lag_comp_ms ? elapsed - clock->lag_comp_ms : 0;
}

void gclock_stop(struct gclock *clock, int64_t now_ms) {
    if (clock->running < 0) return;
    int64_t left = clock->remaining_ms[clock->running] - charge(clock, now_ms);
    clock->remaining_ms[clock->running] = left > 0 ? left : 0;
    clock->running = -1;
}

int64_t gclock_remaining(const struct gclock *clock, int color, int64_t now_ms) {
    int64_t left = clock->remaining_ms[color];
    if (clock->running == color) {
        /* Players see the raw elapsed time; the allowance only forgives at the end. */
        int64_t elapsed = now_ms - clock->started_at_ms;
        if (elapsed > 0) left -= elapsed;
    }
    return left > 0 ? left : 0;
}

bool gclock_flagged(const struct gclock *clock, int64_t now_ms) {
    return clock->running >= 0 && now_ms >= gclock_deadline(clock);
}

int64_t gclock_press(struct gclock *clock, int64_t now_ms) {
    if (clock->running < 0) return 0;
    int color = clock->running;
    int64_t charged = charge(clock, now_ms);
    int64_t left = clock->remaining_ms[color] - charged;
    clock->remaining_ms[color] = (left > 0 ? left : 0) + clock->increment_ms;
    gclock_start(clock, !color, now_ms);
    return charged;
}

int64_t gclock_deadline(const struct gclock *clock) {
    if (clock->running < 0) return GCLOCK_NEVER;
    return clock->started_at_ms + clock->remaining_ms[clock->running] + clock->lag_comp_ms;
}
