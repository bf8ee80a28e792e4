/*
 * A game clock: two remaining times, increment, and which side's time is running since when.
 * All times are monotonic milliseconds passed in by the caller.
 *
 * Lag compensation: each move is charged the time since the mover's clock started minus an
 * allowance of up to lag_comp_ms (default 100 ms in the server), for the network and the
 * server's own queueing. A side flags once its remaining time plus the allowance has passed, and
 * gclock_deadline() is that instant, so the flag timer and move arrival agree.
 *
 * Owned by the game that embeds it (loop thread).
 */
#ifndef SERVER_CORE_GCLOCK_H
#define SERVER_CORE_GCLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define GCLOCK_NEVER INT64_MAX

struct gclock {
    bool unlimited;          /* no time limit: nothing runs, nothing flags */
    int64_t increment_ms;    /* added to the mover after each charged move */
    int64_t lag_comp_ms;     /* allowance per move, see above */
    int64_t remaining_ms[2]; /* by enum chess_color, as of started_at_ms for the running side */
    int running;             /* colour whose time runs, or -1 when stopped */
    int64_t started_at_ms;   /* when the running side's time started */
};

void gclock_init(struct gclock *clock, bool unlimited, int64_t initial_ms, int64_t increment_ms,
                 int64_t lag_comp_ms);

/* Starts (or restarts) the given side's time at now; the other side's time does not run. */
void gclock_start(struct gclock *clock, int color, int64_t now_ms);

/* Stops the running side, charging it the time used up to now (without increment). */
void gclock_stop(struct gclock *clock, int64_t now_ms);

/* The side's remaining time at now, never below 0 (what players see). */
int64_t gclock_remaining(const struct gclock *clock, int color, int64_t now_ms);

/* True when the running side has used its time and the allowance by now. */
bool gclock_flagged(const struct gclock *clock, int64_t now_ms);

/*
 * Charges the running side for a move made at now (with the lag allowance), adds the increment,
 * and starts the other side. Returns the milliseconds charged. Call gclock_flagged() first: a
 * flagged side must not move.
 */
int64_t gclock_press(struct gclock *clock, int64_t now_ms);

/* When the running side flags; GCLOCK_NEVER when nothing runs. */
int64_t gclock_deadline(const struct gclock *clock);

#endif
