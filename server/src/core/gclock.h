/*
 * A game clock: two remaining times, increment, and which side's time is running since when.
 * All times are monotonic milliseconds passed in by the caller.
 *
 * Lag compensation, in the manner of lichess: each side has a quota of compensation. A move is
 * charged the time since the mover's clock started minus a compensation: the network lag the
 * mover's client reports (struct gclock_report; lag_comp_ms, --lag-compensation-ms, when it
 * reports none), or for a premove the whole wait (the client moved the moment the opponent's
 * move arrived: that time was the round trip), never more than the mover's quota nor the cap per
 * move. The quota refills by quota_gain_ms with every move, up to quota_max_ms. The gain, and so
 * the cap, grow with the game's estimated duration (initial + 40 increments):
 *
 *   gain = min(500, 50 + 2 * estimated seconds) ms; cap per move = 2 * gain;
 *   quota = 3 * gain at the start, at most 7 * gain
 *
 * (1+0: gain 170 ms, cap 340 ms; 3+0: 410 ms, 820 ms; 5+0 and longer: 500 ms, 1 s). A lying
 * client gains at most the gain per move on average, however large the lag it claims.
 *
 * A side flags once its remaining time plus what its quota can still forgive (the cap, or the
 * quota if smaller) has passed; gclock_deadline() is that instant, so the flag timer and move
 * arrival agree. A move that arrives before the deadline but whose compensation does not cover
 * the overrun is a flag too (gclock_press refuses it).
 *
 * A daily (correspondence) clock, gclock_init_daily(): each side has the same time for every move
 * (days per move): a move resets the mover's time to it, so its opponent's fresh period starts
 * at once; no increment, no compensation (a day does not need a lag allowance).
 *
 * Owned by the game that embeds it (loop thread).
 */
#ifndef SERVER_CORE_GCLOCK_H
#define SERVER_CORE_GCLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define GCLOCK_NEVER INT64_MAX

/* What a mover's client says about the move's timing. */
struct gclock_report {
    int64_t lag_ms; /* the client's measured one-way network lag; < 0: not measured */
    bool premove;   /* played by the client the moment the opponent's move arrived */
};

struct gclock {
    bool unlimited;          /* no time limit: nothing runs, nothing flags */
    int64_t increment_ms;    /* added to the mover after each charged move */
    int64_t lag_comp_ms;     /* the lag assumed when a client reports none */
    int64_t remaining_ms[2]; /* by enum chess_color, as of started_at_ms for the running side */
    int running;             /* colour whose time runs, or -1 when stopped */
    int64_t started_at_ms;   /* when the running side's time started */
    int64_t quota_ms[2];     /* compensation each side may still receive */
    int64_t quota_gain_ms;   /* added to the mover's quota with each move */
    int64_t quota_max_ms;
    int64_t move_cap_ms;  /* most compensation for one move */
    int64_t per_move_ms;  /* daily clocks: the time for every move; 0 for a clock with a total */
    bool no_increment[2]; /* by colour: a berserk side gets no increment (gclock_berserk) */
};

void gclock_init(struct gclock *clock, bool unlimited, int64_t initial_ms, int64_t increment_ms,
                 int64_t lag_comp_ms);

/* Arena berserk (core/arena.h) for colour, before its first move: half its time (rounded down to
 * the second, as lichess), no increment from now on. */
void gclock_berserk(struct gclock *clock, int color);

/* A daily clock: per_move_ms for each move, stopped. */
void gclock_init_daily(struct gclock *clock, int64_t per_move_ms);

/* Starts (or restarts) the given side's time at now; the other side's time does not run. */
void gclock_start(struct gclock *clock, int color, int64_t now_ms);

/* Stops the running side, charging it the time used up to now (without increment). */
void gclock_stop(struct gclock *clock, int64_t now_ms);

/* The side's remaining time at now, never below 0 (what players see). */
int64_t gclock_remaining(const struct gclock *clock, int color, int64_t now_ms);

/* True when the running side has used its time and what its quota can forgive by now. */
bool gclock_flagged(const struct gclock *clock, int64_t now_ms);

/* Whether a move at now with this report would be in time (gclock_press would take it); true
 * when nothing runs. */
bool gclock_in_time(const struct gclock *clock, int64_t now_ms, const struct gclock_report *report);

/*
 * Charges the running side for a move made at now (report: NULL when the client said nothing),
 * adds the increment, refills the mover's quota and starts the other side. Returns the
 * milliseconds charged, or -1 when the compensation does not cover the mover's overrun: its time
 * is up (nothing changed; the caller ends the game on time).
 */
int64_t gclock_press(struct gclock *clock, int64_t now_ms, const struct gclock_report *report);

/* Adds ms to the side's remaining time (given by its opponent), running or not. */
void gclock_give(struct gclock *clock, int color, int64_t ms);

/* When the running side flags; GCLOCK_NEVER when nothing runs. */
int64_t gclock_deadline(const struct gclock *clock);

#endif
