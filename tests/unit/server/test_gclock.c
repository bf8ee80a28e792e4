/* Tests of the game clock: charging, increment, lag allowance, flag deadline, stop. */
#include "check.h"
#include "core/gclock.h"

static void test_press_and_increment(void) {
    struct gclock c;
    gclock_init(&c, false, 60000, 2000, 100);
    CHECK_EQ_INT(gclock_deadline(&c), GCLOCK_NEVER);
    gclock_start(&c, 0, 1000);
    CHECK_EQ_INT(gclock_remaining(&c, 0, 4000), 57000);
    CHECK_EQ_INT(gclock_remaining(&c, 1, 4000), 60000);
    /* 3000 ms elapsed, 100 ms allowance: 2900 charged, 2000 added. */
    CHECK_EQ_INT(gclock_press(&c, 4000), 2900);
    CHECK_EQ_INT(c.remaining_ms[0], 59100);
    CHECK_EQ_INT(c.running, 1);
    CHECK_EQ_INT(gclock_deadline(&c), 4000 + 60000 + 100);
    /* A quick move inside the allowance is free. */
    CHECK_EQ_INT(gclock_press(&c, 4050), 0);
    CHECK_EQ_INT(c.remaining_ms[1], 62000);
}

static void test_flag(void) {
    struct gclock c;
    gclock_init(&c, false, 1000, 0, 100);
    gclock_start(&c, 1, 0);
    CHECK(!gclock_flagged(&c, 1099));
    CHECK(gclock_flagged(&c, 1100));
    CHECK_EQ_INT(gclock_remaining(&c, 1, 5000), 0);
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
    CHECK_EQ_INT(gclock_press(&c, 100000), 0);
}

int main(void) {
    RUN(test_press_and_increment);
    RUN(test_flag);
    RUN(test_unlimited);
    return check_finish();
}
