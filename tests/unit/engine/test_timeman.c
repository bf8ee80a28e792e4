/*
 * Time management (engine/src/timeman.c): the limits it sets for a move, whatever the clock.
 *
 * - soft never exceeds hard, hard never exceeds three fifths of what is left after the move
 *   overhead, and both are at least 1 ms;
 * - a whole game in which every move takes its hard limit (the worst the search can do) never
 *   runs the clock out, at bullet, blitz and classical time controls, with or without increment
 *   and with moves to go;
 * - the early stop between iterations: never before the soft limit's share, and a position with
 *   one legal move answers at once;
 * - the plan's constants (search params tm_*) move the soft limit, and their most time-hungry
 *   values keep the same guarantees;
 * - the virtual clock (nodestime): time is nodes / nodestime, the limits are those of the wall
 *   clock, so the search stops after the same number of milliseconds times nodestime nodes.
 */
#include "check.h"
#include "search_internal.h"

#include <stdio.h>

static struct chess_search_limits clock_limits(int64_t time_ms, int64_t inc_ms, int movestogo) {
    struct chess_search_limits l = {0};
    l.time_ms[CHESS_WHITE] = l.time_ms[CHESS_BLACK] = time_ms;
    l.inc_ms[CHESS_WHITE] = l.inc_ms[CHESS_BLACK] = inc_ms;
    l.movestogo = movestogo;
    return l;
}

static void check_limits(int64_t time_ms, int64_t inc_ms, int movestogo, int64_t overhead,
                         const struct chess_search_params *params) {
    struct chess_search_limits l = clock_limits(time_ms, inc_ms, movestogo);
    struct timeman tm;
    timeman_init(&tm, &l, CHESS_WHITE, overhead, 0, 1000, params);
    int64_t left = time_ms - overhead > 1 ? time_ms - overhead : 1;
    CHECK(tm.soft >= 1);
    CHECK(tm.soft <= tm.hard);
    /* The last move before a time control may use four fifths. */
    int64_t most = movestogo == 1 ? left * 4 / 5 : left * 3 / 5;
    CHECK(tm.hard <= (most > 1 ? most : 1));
}

/* The latest the early stop ends a search (an unsettled one whose score is dropping), found
 * from the rule itself by bisection; at most the hard limit. */
static int64_t longest_early_stop(const struct timeman *tm) {
    int64_t lo = 0, hi = tm->hard;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (timeman_should_stop(tm, tm->start + mid, 0, 100, false))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/*
 * Plays `moves` moves of one side, each taking the overhead plus the most the search may use:
 * every hard_every-th move its hard limit, the others the longest the early stop allows.
 * Returns the lowest clock.
 */
static int64_t worst_case_game(int64_t base_ms, int64_t inc_ms, int period, int moves,
                               int hard_every, int64_t overhead,
                               const struct chess_search_params *params) {
    int64_t clock = base_ms, lowest = base_ms;
    for (int i = 0; i < moves; i++) {
        int togo = period > 0 ? period - i % period : 0;
        struct chess_search_limits l = clock_limits(clock, inc_ms, togo);
        struct timeman tm;
        timeman_init(&tm, &l, CHESS_WHITE, overhead, 0, 0, params);
        int64_t longest = longest_early_stop(&tm);
        clock -= (i % hard_every == hard_every - 1 ? tm.hard : longest) + overhead;
        if (clock < lowest) lowest = clock;
        if (clock <= 0) return clock;
        clock += inc_ms;
        if (period > 0 && togo == 1) clock += base_ms;
    }
    return lowest;
}

static void test_limits_hold(void) {
    const int64_t times[] = {1, 40, 100, 500, 1000, 3000, 10000, 60000, 600000, 5400000};
    const int64_t incs[] = {0, 10, 100, 1000, 30000};
    const int togo[] = {0, 1, 2, 10, 40, 80};
    for (size_t a = 0; a < sizeof times / sizeof *times; a++)
        for (size_t b = 0; b < sizeof incs / sizeof *incs; b++)
            for (size_t c = 0; c < sizeof togo / sizeof *togo; c++) {
                check_limits(times[a], incs[b], togo[c], 50, NULL);
                check_limits(times[a], incs[b], togo[c], 0, NULL);
            }
}

/* With an increment every move may take its hard limit; without one, every fifth. A clock with
 * no increment must last a long game (80 moves in 1+0: 50 ms of overhead alone is 4 s). */
static void test_worst_case_games_keep_time(void) {
    CHECK(worst_case_game(10000, 100, 0, 150, 1, 50, NULL) > 0);     /* 10+0.1 */
    CHECK(worst_case_game(180000, 2000, 0, 150, 1, 50, NULL) > 0);   /* 3+2 */
    CHECK(worst_case_game(5400000, 30000, 0, 150, 1, 50, NULL) > 0); /* 90+30 */
    CHECK(worst_case_game(60000, 0, 0, 80, 5, 50, NULL) > 0);        /* 1+0 */
    CHECK(worst_case_game(300000, 0, 0, 100, 5, 50, NULL) > 0);      /* 5+0 */
    CHECK(worst_case_game(300000, 0, 40, 150, 5, 50, NULL) > 0);     /* 40 moves in 5 minutes */
}

/* An increment no larger than the move overhead sustains nothing: such clocks must last as long
 * as sudden death does (80 moves of worst-case searches), and one just above the overhead too.
 * Planning with them as increments ran 10+0.01 out of time within 80 moves. */
static void test_small_increments_keep_time(void) {
    const int64_t bases[] = {60000, 180000, 600000};
    const int64_t incs[] = {10, 20, 50, 60, 80};
    for (size_t a = 0; a < sizeof bases / sizeof *bases; a++)
        for (size_t b = 0; b < sizeof incs / sizeof *incs; b++) {
            int64_t lowest = worst_case_game(bases[a], incs[b], 0, 80, 5, 50, NULL);
            if (lowest <= 0)
                fprintf(stderr, "%lld+%lld ms: clock reached %lld ms\n", (long long)bases[a],
                        (long long)incs[b], (long long)lowest);
            CHECK(lowest > 0);
        }
}

/*
 * The plan's constants (tm_* in chess/search_params.h): a shorter plan gives a longer soft
 * limit, and even the most time-hungry settings in their ranges keep the hard limit's bounds
 * and never run the clock out, since the hard limit does not follow the plan past its caps.
 */
static void test_plan_constants(void) {
    struct chess_search_params hungry;
    chess_search_params_default(&hungry);
    struct chess_search_limits l = clock_limits(10000, 100, 0);
    struct timeman plain, shorter;
    timeman_init(&plain, &l, CHESS_WHITE, 50, 0, 0, NULL);
    CHECK_EQ_INT(chess_search_params_set(&hungry, "tm_plan_inc", 20), 0);
    timeman_init(&shorter, &l, CHESS_WHITE, 50, 0, 0, &hungry);
    CHECK_EQ_INT(plain.soft, 9950 / 25 + 50);
    CHECK_EQ_INT(shorter.soft, 9950 / 20 + 50);
    CHECK_EQ_INT(chess_search_params_set(&hungry, "tm_plan_inc", 9), -1); /* out of range */
    CHECK_EQ_INT(chess_search_params_set(&hungry, "tm_plan_inc", 10), 0);
    CHECK_EQ_INT(chess_search_params_set(&hungry, "tm_inc_share", 90), 0);
    CHECK_EQ_INT(chess_search_params_set(&hungry, "tm_stop_inc", 100), 0);
    const int64_t times[] = {1, 100, 1000, 10000, 600000};
    const int64_t incs[] = {0, 10, 100, 1000, 30000};
    for (size_t a = 0; a < sizeof times / sizeof *times; a++)
        for (size_t b = 0; b < sizeof incs / sizeof *incs; b++)
            check_limits(times[a], incs[b], 0, 50, &hungry);
    CHECK(worst_case_game(10000, 100, 0, 150, 1, 50, &hungry) > 0);   /* 10+0.1 */
    CHECK(worst_case_game(4000, 40, 0, 150, 1, 20, &hungry) > 0);     /* 4+0.04, 20 ms overhead */
    CHECK(worst_case_game(180000, 2000, 0, 150, 1, 50, &hungry) > 0); /* 3+2 */
    CHECK(worst_case_game(60000, 10, 0, 80, 5, 50, &hungry) > 0);     /* 1+0.01: no increment */
}

static void test_early_stop(void) {
    struct chess_search_limits l = clock_limits(10000, 100, 0);
    struct timeman tm;
    timeman_init(&tm, &l, CHESS_WHITE, 50, 0, 0, NULL);
    CHECK(!timeman_should_stop(&tm, 0, 0, 0, false));
    CHECK(!timeman_should_stop(&tm, tm.soft / 4, 7, 0, false)); /* too early even when settled */
    CHECK(timeman_should_stop(&tm, tm.hard, 0, 0, false));    /* by the hard limit at the latest */
    CHECK(timeman_should_stop(&tm, tm.soft / 8, 0, 0, true)); /* one legal move */
    /* Settled searches stop sooner than unsettled ones, and a dropping score buys time. */
    int64_t settled = 0, unsettled = 0, dropping = 0;
    while (!timeman_should_stop(&tm, settled, 7, 0, false)) settled++;
    while (!timeman_should_stop(&tm, unsettled, 0, 0, false)) unsettled++;
    while (!timeman_should_stop(&tm, dropping, 0, 100, false)) dropping++;
    CHECK(settled < unsettled);
    CHECK(unsettled < dropping);
    /* movetime is used in full, and no clock means no early stop. */
    struct chess_search_limits fixed = {.movetime_ms = 500};
    timeman_init(&tm, &fixed, CHESS_WHITE, 50, 0, 0, NULL);
    CHECK(tm.soft == 450 && tm.hard == 450);
    CHECK(!timeman_should_stop(&tm, 100000, 7, 0, false));
    struct chess_search_limits none = {0};
    timeman_init(&tm, &none, CHESS_WHITE, 50, 0, 0, NULL);
    CHECK(!timeman_should_stop(&tm, 100000, 7, 0, false));
}

/* The first node count at which a settled search on the virtual clock stops between iterations. */
static uint64_t virtual_stop_nodes(const struct timeman *tm, int stable) {
    uint64_t nodes = 0;
    while (!timeman_should_stop(tm, timeman_now(tm, nodes), stable, 0, false)) nodes++;
    return nodes;
}

static void test_virtual_clock(void) {
    struct chess_search_limits l = clock_limits(10000, 100, 0);
    struct timeman wall, virt;
    timeman_init(&wall, &l, CHESS_WHITE, 50, 0, 0, NULL);
    timeman_init(&virt, &l, CHESS_WHITE, 50, 600, 0, NULL);
    CHECK_EQ_INT(virt.nodestime, 600);
    CHECK_EQ_INT(virt.soft, wall.soft);
    CHECK_EQ_INT(virt.hard, wall.hard);
    CHECK_EQ_INT(timeman_now(&virt, 0), 0);
    CHECK_EQ_INT(timeman_now(&virt, 599), 0);
    CHECK_EQ_INT(timeman_now(&virt, 600), 1);
    CHECK_EQ_INT(timeman_now(&virt, 6000000), 10000);
    /* The early stop comes at exactly the wall clock's millisecond, times 600 nodes. */
    int64_t settled_ms = 0;
    while (!timeman_should_stop(&wall, settled_ms, 7, 0, false)) settled_ms++;
    CHECK_EQ_INT(virtual_stop_nodes(&virt, 7), settled_ms * 600);
    CHECK(virtual_stop_nodes(&virt, 0) > virtual_stop_nodes(&virt, 7));
    /* Without nodestime the nodes do not matter: it is the wall clock. */
    int64_t before = timeman_wall_ms();
    int64_t now = timeman_now(&wall, 600000000);
    CHECK(now >= before && now <= timeman_wall_ms());
    /* A negative nodestime is the wall clock. */
    timeman_init(&virt, &l, CHESS_WHITE, 50, -5, 0, NULL);
    CHECK_EQ_INT(virt.nodestime, 0);
}

int main(void) {
    RUN(test_limits_hold);
    RUN(test_worst_case_games_keep_time);
    RUN(test_small_increments_keep_time);
    RUN(test_plan_constants);
    RUN(test_early_stop);
    RUN(test_virtual_clock);
    return check_finish();
}
