/* Tests of quick pairing (core/pool.h): the pairing of a wave on scripted waiting lists, and
 * the pools' lists. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/gclock.h"
#include "core/player.h"
#include "core/pool.h"

static struct pool_candidate cand(const char *id, int rating, int64_t joined) {
    return (struct pool_candidate){
        .id = id, .rating = rating, .joined_ms = joined, .last_opponent = ""};
}

/* Whether pairs hold {a, b} in either order (and the first's colour when white >= 0). */
static bool paired(const struct pool_pair *pairs, int n, int a, int b) {
    for (int i = 0; i < n; i++)
        if ((pairs[i].white == a && pairs[i].black == b) ||
            (pairs[i].white == b && pairs[i].black == a))
            return true;
    return false;
}

static void test_range_widens(void) {
    CHECK_EQ_INT(pool_range(0), POOL_RANGE_BASE);
    CHECK_EQ_INT(pool_range(4000), POOL_RANGE_BASE + 4 * POOL_RANGE_PER_S);
    CHECK_EQ_INT(pool_range(3600000), POOL_RANGE_MAX);
    CHECK_EQ_INT(pool_range(-5), POOL_RANGE_BASE);
}

static void test_closest_ratings(void) {
    /* 1500 with 1520 and 1800 with 1790, not across; 2400 waits (nobody near). */
    struct pool_candidate c[5] = {cand("a", 1500, 0), cand("b", 1800, 0), cand("c", 1520, 0),
                                  cand("d", 2400, 0), cand("e", 1790, 0)};
    struct pool_pair out[3];
    int n = pool_pair(c, 5, 0, false, out);
    CHECK_EQ_INT(n, 2);
    CHECK(paired(out, n, 0, 2));
    CHECK(paired(out, n, 1, 4));
}

static void test_waiting_widens_the_range(void) {
    struct pool_candidate c[2] = {cand("a", 1500, 0), cand("b", 1800, 0)};
    struct pool_pair out[1];
    CHECK_EQ_INT(pool_pair(c, 2, 0, false, out), 0);    /* 300 apart: not at once */
    CHECK_EQ_INT(pool_pair(c, 2, 3000, false, out), 0); /* 250 each after 3 s */
    CHECK_EQ_INT(pool_pair(c, 2, 4000, false, out), 1); /* 300 after 4 s */
    /* Both must accept: one who just came still has the narrow range. */
    c[1].joined_ms = 4000;
    CHECK_EQ_INT(pool_pair(c, 2, 4000, false, out), 0);
}

static void test_no_immediate_rematch(void) {
    /* a and b just played each other: with c waiting, a is paired with c instead. */
    struct pool_candidate c[3] = {cand("a", 1500, 0), cand("b", 1510, 0), cand("c", 1530, 0)};
    c[0].last_opponent = "b";
    c[1].last_opponent = "a";
    struct pool_pair out[1];
    int n = pool_pair(c, 3, 0, false, out);
    CHECK_EQ_INT(n, 1);
    CHECK(!paired(out, n, 0, 1));
    /* Alone, they play again. */
    CHECK_EQ_INT(pool_pair(c, 2, 0, false, out), 1);
}

static void test_bots_with_bots(void) {
    struct pool_candidate c[4] = {cand("h1", 1500, 0), cand("b1", 1505, 0), cand("h2", 1510, 0),
                                  cand("b2", 1515, 0)};
    c[1].bot = c[3].bot = true;
    struct pool_pair out[2];
    int n = pool_pair(c, 4, 0, false, out);
    CHECK_EQ_INT(n, 2);
    CHECK(paired(out, n, 0, 2) && paired(out, n, 1, 3));
    /* Allowed to mix: the nearest ratings. */
    n = pool_pair(c, 4, 0, true, out);
    CHECK(n == 2 && paired(out, n, 0, 1) && paired(out, n, 2, 3));
}

static void test_colours_balance(void) {
    struct pool_candidate c[2] = {cand("a", 1500, 0), cand("b", 1500, 0)};
    struct pool_pair out[1];
    c[0].color_bias = 2; /* a had White more often lately */
    CHECK_EQ_INT(pool_pair(c, 2, 0, false, out), 1);
    CHECK(out[0].white == 1 && out[0].black == 0);
    c[0].color_bias = -1;
    CHECK_EQ_INT(pool_pair(c, 2, 0, false, out), 1);
    CHECK(out[0].white == 0);
    /* A tie: who waited longer is White. */
    c[0].color_bias = 0;
    c[0].joined_ms = 500;
    CHECK_EQ_INT(pool_pair(c, 2, 1000, false, out), 1);
    CHECK(out[0].white == 1);
}

static void test_many_waiting(void) {
    /* 200 players spread over 1000 points, all waiting 5 s: everyone paired at once. */
    struct pool_candidate c[200];
    char ids[200][16];
    for (int i = 0; i < 200; i++) {
        snprintf(ids[i], sizeof ids[i], "p%d", i);
        c[i] = cand(ids[i], 1000 + (i * 37) % 1000, 0);
    }
    struct pool_pair out[100];
    int n = pool_pair(c, 200, 5000, false, out);
    CHECK_EQ_INT(n, 100);
    bool seen[200] = {false};
    for (int i = 0; i < n; i++) {
        CHECK(!seen[out[i].white] && !seen[out[i].black]);
        seen[out[i].white] = seen[out[i].black] = true;
        int diff = c[out[i].white].rating - c[out[i].black].rating;
        CHECK(diff <= pool_range(5000) && diff >= -pool_range(5000));
    }
}

static void test_lists(void) {
    struct pools pools;
    pools_init(&pools);
    struct time_control three_two = {.initial_ms = 180000, .increment_ms = 2000};
    struct time_control odd = {.initial_ms = 240000, .increment_ms = 0};
    struct pool *casual = pools_find(&pools, &three_two, false);
    struct pool *rated = pools_find(&pools, &three_two, true);
    CHECK(casual && rated && casual != rated && rated->rated && !casual->rated);
    CHECK(pools_find(&pools, &odd, false) == NULL);
    struct time_control unlimited = {.unlimited = true};
    CHECK(pools_find(&pools, &unlimited, false) == NULL);
    struct player a = {.id = "a"}, b = {.id = "b"};
    CHECK_EQ_INT(pools_next_wave(&pools), GCLOCK_NEVER);
    CHECK_EQ_INT(pool_add(casual, &a, 1000), 0);
    CHECK(pools_of(&pools, &a) == casual && a.pooled);
    CHECK_EQ_INT(pools_next_wave(&pools), GCLOCK_NEVER); /* one alone waits for another */
    CHECK_EQ_INT(pool_add(casual, &b, 1500), 0);
    CHECK_EQ_INT(pools_next_wave(&pools), 1500 + POOL_WAVE_MS);
    CHECK(pools_remove(&pools, &a) && !a.pooled);
    CHECK(!pools_remove(&pools, &a));
    CHECK_EQ_INT(casual->count, 1);
    CHECK(casual->members[0].player == &b);
    CHECK_EQ_INT(pools_next_wave(&pools), GCLOCK_NEVER);
    pools_free(&pools);
}

int main(void) {
    RUN(test_range_widens);
    RUN(test_closest_ratings);
    RUN(test_waiting_widens_the_range);
    RUN(test_no_immediate_rematch);
    RUN(test_bots_with_bots);
    RUN(test_colours_balance);
    RUN(test_many_waiting);
    RUN(test_lists);
    return check_finish();
}
