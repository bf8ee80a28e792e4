/*
 * The game clock: charging, increment, flags, and lag compensation by quota (core/gclock.h),
 * with figures worked out by hand from the header's formulas.
 */
#include "check.h"
#include "core/gclock.h"

static void test_press_and_increment(void) {
    struct gclock c;
    /* 1+2: estimated 60 + 80 = 140 s, gain 50 + 280 = 330 ms, cap 660, quota 990 */
    gclock_init(&c, false, 60000, 2000, 100);
    CHECK_EQ_INT(c.quota_gain_ms, 330);
    CHECK_EQ_INT(c.move_cap_ms, 660);
    CHECK_EQ_INT(c.quota_ms[0], 990);
    CHECK_EQ_INT(c.quota_max_ms, 2310);
    CHECK_EQ_INT(gclock_deadline(&c), GCLOCK_NEVER);
    gclock_start(&c, 0, 1000);
    CHECK_EQ_INT(gclock_remaining(&c, 0, 4000), 57000);
    CHECK_EQ_INT(gclock_remaining(&c, 1, 4000), 60000);
    /* No report: the assumed 100 ms lag is forgiven. */
    CHECK_EQ_INT(gclock_press(&c, 4000, NULL), 2900);
    CHECK_EQ_INT(c.remaining_ms[0], 57100 + 2000);
    CHECK_EQ_INT(c.quota_ms[0], 990 + 330 - 100);
    CHECK_EQ_INT(c.running, 1);
    /* Black's deadline: its time plus what its quota forgives (the cap). */
    CHECK_EQ_INT(gclock_deadline(&c), 4000 + 60000 + 660);
    /* A reported lag of 30 ms: only that is forgiven. */
    CHECK_EQ_INT(gclock_press(&c, 5000, &(struct gclock_report){.lag_ms = 30}), 970);
    CHECK_EQ_INT(c.quota_ms[1], 990 + 330 - 30);
}

static void test_quota_limits_a_large_lag(void) {
    struct gclock c;
    gclock_init(&c, false, 60000, 2000, 100); /* gain 330, cap 660, quota 990, max 2310 */
    struct gclock_report big = {.lag_ms = 5000};
    int64_t now = 0;
    gclock_start(&c, 0, now);
    /* The cap per move: 660 of the claimed 5 s. */
    now += 3000;
    CHECK_EQ_INT(gclock_press(&c, now, &big), 3000 - 660);
    CHECK_EQ_INT(c.quota_ms[0], 990 + 330 - 660); /* 660 */
    now += 100;
    CHECK_EQ_INT(gclock_press(&c, now, NULL), 0); /* Black's reply, 100 ms: all forgiven */
    /* Then the quota: 660 left, cap 660. */
    now += 3000;
    CHECK_EQ_INT(gclock_press(&c, now, &big), 3000 - 660);
    CHECK_EQ_INT(c.quota_ms[0], 330); /* 660 + 330 - 660 */
    now += 100;
    CHECK_EQ_INT(gclock_press(&c, now, NULL), 0);
    /* And from then on the gain per move, however large the claim. */
    now += 3000;
    CHECK_EQ_INT(gclock_press(&c, now, &big), 3000 - 330);
    CHECK_EQ_INT(c.quota_ms[0], 330);
    /* Never more than the time the move took. */
    now += 100;
    CHECK_EQ_INT(gclock_press(&c, now, &big), 0);
}

static void test_premove_is_charged_nothing_for_the_round_trip(void) {
    struct gclock c;
    gclock_init(&c, false, 60000, 0, 100); /* 1+0: gain 170, cap 340, quota 510 */
    CHECK_EQ_INT(c.move_cap_ms, 340);
    gclock_start(&c, 0, 0);
    /* A premove 250 ms after the turn began: the whole wait was the round trip. */
    CHECK_EQ_INT(gclock_press(&c, 250, &(struct gclock_report){.lag_ms = 20, .premove = true}), 0);
    CHECK_EQ_INT(c.remaining_ms[0], 60000);
    CHECK_EQ_INT(c.quota_ms[0], 510 + 170 - 250);
    /* Not beyond the cap: 500 ms waited, 340 forgiven. */
    gclock_start(&c, 0, 1000);
    CHECK_EQ_INT(gclock_press(&c, 1500, &(struct gclock_report){.lag_ms = -1, .premove = true}),
                 160);
}

static void test_flag(void) {
    struct gclock c;
    gclock_init(&c, false, 1000, 0, 100); /* estimated 1 s: gain 52, cap 104, quota 156 */
    gclock_start(&c, 1, 0);
    CHECK(!gclock_flagged(&c, 1103));
    CHECK(gclock_flagged(&c, 1104));
    CHECK_EQ_INT(gclock_remaining(&c, 1, 5000), 0);
    /* Before the deadline, a move whose own lag does not cover the overrun is too late (and
     * changes nothing); the assumed 100 ms does. */
    CHECK_EQ_INT(gclock_press(&c, 1050, &(struct gclock_report){.lag_ms = 10}), -1);
    CHECK_EQ_INT(c.running, 1);
    CHECK_EQ_INT(c.remaining_ms[1], 1000);
    CHECK_EQ_INT(gclock_press(&c, 1050, NULL), 950);
    gclock_start(&c, 1, 2000);
    gclock_stop(&c, 5000);
    CHECK_EQ_INT(c.remaining_ms[1], 0);
    CHECK_EQ_INT(c.running, -1);
    CHECK(!gclock_flagged(&c, 9000));
}

static void test_unlimited(void) {
    struct gclock c;
    gclock_init(&c, true, 0, 0, 100);
    gclock_start(&c, 0, 0);
    CHECK_EQ_INT(c.running, -1);
    CHECK_EQ_INT(gclock_deadline(&c), GCLOCK_NEVER);
    CHECK_EQ_INT(gclock_press(&c, 100000, NULL), 0);
}

int main(void) {
    RUN(test_press_and_increment);
    RUN(test_quota_limits_a_large_lag);
    RUN(test_premove_is_charged_nothing_for_the_round_trip);
    RUN(test_flag);
    RUN(test_unlimited);
    return check_finish();
}
