/*
 * The game clock's arithmetic. Time is charged only when a side stops (a move, a stop); in between,
 * remaining time is computed from started_at_ms.
 */
#include "core/gclock.h"

#include <stddef.h>

static int64_t min64(int64_t a, int64_t b) {
    return a < b ? a : b;
}

void gclock_init(struct gclock *clock, bool unlimited, int64_t initial_ms, int64_t increment_ms,
                 int64_t lag_comp_ms) {
    int64_t estimated_s = (initial_ms + 40 * increment_ms) / 1000;
    int64_t gain = min64(500, 50 + 2 * estimated_s);
    *clock = (struct gclock){
        .unlimited = unlimited,
        .increment_ms = unlimited ? 0 : increment_ms,
        .lag_comp_ms = lag_comp_ms,
        .remaining_ms = {unlimited ? 0 : initial_ms, unlimited ? 0 : initial_ms},
        .running = -1,
        .quota_ms = {3 * gain, 3 * gain},
        .quota_gain_ms = gain,
        .quota_max_ms = 7 * gain,
        .move_cap_ms = 2 * gain,
    };
}

void gclock_berserk(struct gclock *clock, int color) {
    if (clock->unlimited || clock->per_move_ms > 0) return;
    clock->remaining_ms[color] = clock->remaining_ms[color] / 2 / 1000 * 1000;
    clock->no_increment[color] = true;
}

void gclock_init_daily(struct gclock *clock, int64_t per_move_ms) {
    *clock = (struct gclock){
        .remaining_ms = {per_move_ms, per_move_ms},
        .running = -1,
        .per_move_ms = per_move_ms,
    };
}

void gclock_give(struct gclock *clock, int color, int64_t ms) {
    if (!clock->unlimited) clock->remaining_ms[color] += ms;
}

void gclock_start(struct gclock *clock, int color, int64_t now_ms) {
    if (clock->unlimited) return;
    clock->running = color;
    clock->started_at_ms = now_ms;
}

/* The most the running side's quota forgives on its next move. */
static int64_t allowance(const struct gclock *clock) {
    return min64(clock->quota_ms[clock->running], clock->move_cap_ms);
}

/* The compensation for the running side's period up to now. */
static int64_t compensation(const struct gclock *clock, int64_t elapsed,
                            const struct gclock_report *report) {
    int64_t lag = clock->lag_comp_ms;
    if (report && report->premove)
        lag = elapsed;
    else if (report && report->lag_ms >= 0)
        lag = report->lag_ms;
    int64_t comp = min64(min64(lag, allowance(clock)), elapsed);
    return comp > 0 ? comp : 0;
}

void gclock_stop(struct gclock *clock, int64_t now_ms) {
    if (clock->running < 0) return;
    int64_t elapsed = now_ms - clock->started_at_ms;
    if (elapsed < 0) elapsed = 0;
    int64_t left =
        clock->remaining_ms[clock->running] - (elapsed - compensation(clock, elapsed, NULL));
    clock->remaining_ms[clock->running] = left > 0 ? left : 0;
    clock->running = -1;
}

int64_t gclock_remaining(const struct gclock *clock, int color, int64_t now_ms) {
    int64_t left = clock->remaining_ms[color];
    if (clock->running == color) {
        /* Players see the raw elapsed time; the compensation only forgives at the move. */
        int64_t elapsed = now_ms - clock->started_at_ms;
        if (elapsed > 0) left -= elapsed;
    }
    return left > 0 ? left : 0;
}

bool gclock_flagged(const struct gclock *clock, int64_t now_ms) {
    return clock->running >= 0 && now_ms >= gclock_deadline(clock);
}

/* The running side's time left after a move at now (negative: too late), with the compensation
 * it gets in *comp. */
static int64_t left_after(const struct gclock *clock, int64_t now_ms,
                          const struct gclock_report *report, int64_t *comp) {
    int64_t elapsed = now_ms - clock->started_at_ms;
    if (elapsed < 0) elapsed = 0;
    *comp = compensation(clock, elapsed, report);
    return clock->remaining_ms[clock->running] - (elapsed - *comp);
}

bool gclock_in_time(const struct gclock *clock, int64_t now_ms,
                    const struct gclock_report *report) {
    int64_t comp;
    return clock->running < 0 || left_after(clock, now_ms, report, &comp) >= 0;
}

int64_t gclock_press(struct gclock *clock, int64_t now_ms, const struct gclock_report *report) {
    if (clock->running < 0) return 0;
    int color = clock->running;
    int64_t comp;
    int64_t left = left_after(clock, now_ms, report, &comp);
    if (left < 0) return -1;
    int64_t charged = clock->remaining_ms[color] - left;
    clock->remaining_ms[color] = clock->per_move_ms > 0       ? clock->per_move_ms
                                 : clock->no_increment[color] ? left
                                                              : left + clock->increment_ms;
    clock->quota_ms[color] =
        min64(clock->quota_ms[color] + clock->quota_gain_ms - comp, clock->quota_max_ms);
    gclock_start(clock, !color, now_ms);
    return charged;
}

int64_t gclock_deadline(const struct gclock *clock) {
    if (clock->running < 0) return GCLOCK_NEVER;
    return clock->started_at_ms + clock->remaining_ms[clock->running] + allowance(clock);
}
