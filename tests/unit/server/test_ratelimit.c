/* Tests of the token bucket. */
#include "check.h"
#include "core/ratelimit.h"

static void test_bucket(void) {
    struct ratelimit r;
    ratelimit_init(&r, 3, 2, 0); /* burst 3, 2 per second */
    CHECK(ratelimit_take(&r, 1, 0));
    CHECK(ratelimit_take(&r, 1, 0));
    CHECK(ratelimit_take(&r, 1, 0));
    CHECK(!ratelimit_take(&r, 1, 0));
    CHECK(!ratelimit_take(&r, 1, 499));
    CHECK(ratelimit_take(&r, 1, 500));
    /* A long pause refills only up to the burst. */
    for (int i = 0; i < 3; i++) CHECK(ratelimit_take(&r, 1, 100000));
    CHECK(!ratelimit_take(&r, 1, 100000));
    /* Time going backwards changes nothing. */
    CHECK(!ratelimit_take(&r, 1, 50000));
}

int main(void) {
    RUN(test_bucket);
    return check_finish();
}
