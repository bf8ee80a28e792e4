/*
 * Time management. From the clock, increment and moves to go, each move gets a soft limit (the
 * time it should normally use: a share of the remaining time plus a share of the increment, the
 * shares with an increment set by the search constants tm_*) and a hard limit (a few soft limits,
 * but never more than a safe fraction of what is left, so the engine never loses on time while it
 * has time). Between iterations the search stops early once the soft limit, scaled by how stable
 * the best move and score are, has passed; inside an iteration the hard limit stops it.
 *
 * The clock is the wall clock (CLOCK_MONOTONIC), or with nodestime a virtual one on which the
 * search's nodes / nodestime is the elapsed time in milliseconds: the same decisions, but
 * independent of the machine's speed and load, so that one thread's clock-limited search is
 * deterministic and a match charging the same virtual time measures time management, not the
 * scheduler.
 */
#define _POSIX_C_SOURCE 200809L

#include "search_internal.h"

#include <time.h>

int64_t timeman_wall_ms(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t timeman_now(const struct timeman *tm, uint64_t nodes) {
    return tm->nodestime > 0 ? (int64_t)(nodes / (uint64_t)tm->nodestime) : timeman_wall_ms();
}

static int64_t max64(int64_t a, int64_t b) {
    return a > b ? a : b;
}

static int64_t min64(int64_t a, int64_t b) {
    return a < b ? a : b;
}

void timeman_init(struct timeman *tm, const struct chess_search_limits *limits, int side,
                  int64_t overhead, int64_t nodestime, int64_t now,
                  const struct chess_search_params *params) {
    struct chess_search_params defaults;
    if (!params) {
        chess_search_params_default(&defaults);
        params = &defaults;
    }
    tm->nodestime = nodestime > 0 ? nodestime : 0;
    tm->start = tm->clock_start = now;
    tm->soft = tm->hard = 0;
    tm->stop_share = 60;
    tm->fixed = limits->movetime_ms > 0;
    if (tm->fixed) {
        tm->soft = tm->hard = max64(1, limits->movetime_ms - overhead);
        return;
    }
    int64_t time = limits->time_ms[side], inc = limits->inc_ms[side];
    if (time == 0 && inc == 0) return; /* no clock */
    int64_t left = max64(1, time - overhead);
    /* An increment the move overhead eats (1+0.01 with 50 ms) sustains nothing: plan as if it
     * were sudden death, or long games run the clock out. */
    if (inc <= overhead) inc = 0;
    if (limits->movestogo == 1) {
        tm->soft = left / 2;
        tm->hard = left * 4 / 5;
    } else {
        /* With an increment the clock cannot drain below what the increments sustain, so plan
         * for fewer moves and let iterations start later; without one it must last the game. */
        int plan = inc > 0 ? params->tm_plan_inc : 40;
        int mtg = limits->movestogo > 0 && limits->movestogo < plan ? limits->movestogo : plan;
        tm->soft = left / mtg + inc * params->tm_inc_share / 100;
        tm->stop_share = inc > 0 ? params->tm_stop_inc : 60;
        tm->hard = min64(tm->soft * 5, left / 3 + inc / 2);
        /* Keep two fifths in reserve: a loaded machine may not run us for a while. */
        tm->hard = min64(tm->hard, left * 3 / 5);
    }
    tm->hard = max64(1, tm->hard);
    tm->soft = max64(1, min64(tm->soft, tm->hard));
}

bool timeman_should_stop(const struct timeman *tm, int64_t now, int stable_iterations,
                         int score_drop, bool single_move) {
    if (tm->soft == 0 || tm->fixed) return false;
    if (single_move) return now - tm->clock_start >= tm->soft / 8;
    /* 140% of the soft limit when the best move just changed, down to 70% when it stays put. */
    int stability = stable_iterations > 7 ? 7 : stable_iterations;
    int64_t scaled = tm->soft * (140 - 10 * stability) / 100;
    /* Up to 50% more when the score is dropping. */
    if (score_drop > 0) scaled += scaled * (score_drop > 100 ? 100 : score_drop) / 200;
    /* An iteration takes about twice the previous one: do not start one that cannot finish. */
    return now - tm->start >= scaled * tm->stop_share / 100;
}
