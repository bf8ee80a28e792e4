/* Tests of the ring: order across growth and wrap-around, the size limit, pop_back, clear. */
#include <stdint.h>

#include "check.h"
#include "util/ring.h"

static void test_order_across_growth_and_wrap(void) {
    struct ring r;
    ring_init(&r, sizeof(int64_t));
    int64_t next_in = 0, next_out = 0, v;
    /* Interleaved pushes and pops move the head around, so every growth copies a wrapped ring. */
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 3; i++, next_in++) CHECK_EQ_INT(ring_push(&r, &next_in, 4, 0), 0);
        CHECK_EQ_INT(ring_pop(&r, &v), 0);
        CHECK(v == next_out++);
    }
    CHECK_EQ_INT((int)r.count, 400);
    for (size_t i = 0; i < r.count; i++) CHECK(*(int64_t *)ring_at(&r, i) == next_out + (int64_t)i);
    while (ring_pop(&r, &v) == 0) CHECK(v == next_out++);
    CHECK(next_out == next_in);
    CHECK_EQ_INT(ring_pop(&r, NULL), -1);
    ring_free(&r);
}

static void test_limit(void) {
    struct ring r;
    ring_init(&r, sizeof(int));
    int pushed = 0;
    for (int i = 0; i < 100; i++) {
        if (ring_push(&r, &i, 8, 20) < 0) break;
        pushed++;
    }
    CHECK_EQ_INT(pushed, 20); /* 8, 16, then 20: no further */
    CHECK_EQ_INT((int)r.count, 20);
    int v;
    CHECK_EQ_INT(ring_pop(&r, &v), 0);
    CHECK_EQ_INT(v, 0);
    ring_free(&r);
}

static void test_pop_back_and_clear(void) {
    struct ring r;
    ring_init(&r, sizeof(int));
    for (int i = 0; i < 5; i++) CHECK_EQ_INT(ring_push(&r, &i, 2, 0), 0);
    CHECK_EQ_INT(ring_pop_back(&r), 0);
    CHECK_EQ_INT((int)r.count, 4);
    CHECK_EQ_INT(*(int *)ring_at(&r, 3), 3);
    ring_clear(&r);
    CHECK_EQ_INT((int)r.count, 0);
    CHECK_EQ_INT(ring_pop_back(&r), -1);
    int seven = 7;
    CHECK_EQ_INT(ring_push(&r, &seven, 2, 0), 0);
    CHECK_EQ_INT(*(int *)ring_at(&r, 0), 7);
    ring_free(&r);
}

int main(void) {
    RUN(test_order_across_growth_and_wrap);
    RUN(test_limit);
    RUN(test_pop_back_and_clear);
    return check_finish();
}
