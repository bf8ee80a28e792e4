/*
 * Transposition table tests: store and probe round trips, negative and mate scores, keeping the
 * move of a position, replacement within a full bucket, generations and hashfull, clearing,
 * tiny tables, and two threads hammering one table without ever reading a torn entry.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"

#include <chess/tt.h>

#include <pthread.h>

static void test_round_trip(void) {
    struct chess_tt *tt = chess_tt_create(1 << 20);
    if (!CHECK(tt != NULL)) return;
    CHECK(chess_tt_size(tt) <= (1 << 20) && chess_tt_size(tt) >= (1 << 19));
    struct chess_tt_entry e;
    CHECK(!chess_tt_probe(tt, 0x1234, &e));
    chess_tt_store(tt, 0x1234, 0x0ABC, -31990, 57, 12, CHESS_TT_LOWER);
    CHECK(chess_tt_probe(tt, 0x1234, &e));
    CHECK_EQ_INT(e.move, 0x0ABC);
    CHECK_EQ_INT(e.score, -31990);
    CHECK_EQ_INT(e.eval, 57);
    CHECK_EQ_INT(e.depth, 12);
    CHECK_EQ_INT(e.bound, CHESS_TT_LOWER);
    CHECK(!chess_tt_probe(tt, 0x1235, &e));

    /* Quiescence depths and a missing evaluation survive the packing. */
    chess_tt_store(tt, 0x99, 0, 5, CHESS_TT_NO_EVAL, CHESS_TT_DEPTH_MIN, CHESS_TT_UPPER);
    CHECK(chess_tt_probe(tt, 0x99, &e));
    CHECK_EQ_INT(e.depth, CHESS_TT_DEPTH_MIN);
    CHECK_EQ_INT(e.eval, CHESS_TT_NO_EVAL);
    CHECK_EQ_INT(e.move, 0);

    /* Clamped depth. */
    chess_tt_store(tt, 0x77, 1, 0, 0, 1000, CHESS_TT_EXACT);
    CHECK(chess_tt_probe(tt, 0x77, &e));
    CHECK_EQ_INT(e.depth, 255 + CHESS_TT_DEPTH_MIN);

    chess_tt_clear(tt);
    CHECK(!chess_tt_probe(tt, 0x1234, &e));
    chess_tt_destroy(tt);
    chess_tt_destroy(NULL);
}

static void test_keeps_move(void) {
    struct chess_tt *tt = chess_tt_create(1 << 16);
    if (!CHECK(tt != NULL)) return;
    struct chess_tt_entry e;
    chess_tt_store(tt, 42, 0x123, 10, 0, 5, CHESS_TT_EXACT);
    chess_tt_store(tt, 42, 0, 20, 0, 6, CHESS_TT_UPPER);
    CHECK(chess_tt_probe(tt, 42, &e));
    CHECK_EQ_INT(e.move, 0x123);
    CHECK_EQ_INT(e.score, 20);
    /* A much shallower non-exact result of the same search does not overwrite a deep one. */
    chess_tt_store(tt, 42, 0x456, 30, 0, 1, CHESS_TT_LOWER);
    CHECK(chess_tt_probe(tt, 42, &e));
    CHECK_EQ_INT(e.depth, 6);
    chess_tt_destroy(tt);
}

static void test_replacement(void) {
    /* One bucket: every key lands in it. */
    struct chess_tt *tt = chess_tt_create(64);
    if (!CHECK(tt != NULL)) return;
    struct chess_tt_entry e;
    for (uint64_t k = 1; k <= 4; k++) chess_tt_store(tt, k, 1, 0, 0, (int)k * 10, CHESS_TT_EXACT);
    for (uint64_t k = 1; k <= 4; k++) CHECK(chess_tt_probe(tt, k, &e));
    chess_tt_store(tt, 5, 1, 0, 0, 7, CHESS_TT_EXACT);
    CHECK(!chess_tt_probe(tt, 1, &e)); /* the shallowest went */
    CHECK(chess_tt_probe(tt, 5, &e));
    CHECK(chess_tt_probe(tt, 4, &e));

    /* Entries from an older generation count as shallower: new shallow ones replace them. */
    chess_tt_set_generation(tt, 9);
    chess_tt_store(tt, 6, 1, 0, 0, 1, CHESS_TT_EXACT);
    chess_tt_store(tt, 7, 1, 0, 0, 1, CHESS_TT_EXACT);
    CHECK(chess_tt_probe(tt, 6, &e));
    CHECK(chess_tt_probe(tt, 7, &e));
    CHECK(!chess_tt_probe(tt, 5, &e));
    CHECK(!chess_tt_probe(tt, 2, &e));
    CHECK(chess_tt_probe(tt, 4, &e));
    chess_tt_destroy(tt);
}

static void test_hashfull(void) {
    struct chess_tt *tt = chess_tt_create(1 << 16);
    if (!CHECK(tt != NULL)) return;
    CHECK_EQ_INT(chess_tt_hashfull(tt), 0);
    chess_tt_set_generation(tt, 3);
    uint64_t key = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 100000; i++) {
        chess_tt_store(tt, key, 1, 0, 0, 3, CHESS_TT_EXACT);
        key = key * 6364136223846793005ull + 1442695040888963407ull;
    }
    CHECK(chess_tt_hashfull(tt) > 900);
    chess_tt_set_generation(tt, 4);
    CHECK_EQ_INT(chess_tt_hashfull(tt), 0);
    chess_tt_destroy(tt);
}

struct hammer {
    struct chess_tt *tt;
    uint64_t seed;
    int torn;
};

/* Stores entries whose contents derive from the key, and checks every hit is consistent. */
static void *hammer_main(void *arg) {
    struct hammer *h = arg;
    uint64_t s = h->seed;
    for (int i = 0; i < 200000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t key = (s >> 20) % 5000 + 1;
        struct chess_tt_entry e;
        if (chess_tt_probe(h->tt, key, &e) &&
            (e.move != (chess_move)(key & 0xFFF) || e.score != (int16_t)(key % 3000) ||
             e.depth != (int)(key % 50)))
            h->torn++;
        chess_tt_store(h->tt, key, (chess_move)(key & 0xFFF), (int)(key % 3000), 0, (int)(key % 50),
                       CHESS_TT_EXACT);
    }
    return NULL;
}

static void test_concurrent(void) {
    struct chess_tt *tt = chess_tt_create(4096);
    if (!CHECK(tt != NULL)) return;
    struct hammer h[2] = {{tt, 1, 0}, {tt, 2, 0}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++) CHECK(pthread_create(&t[i], NULL, hammer_main, &h[i]) == 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    CHECK_EQ_INT(h[0].torn + h[1].torn, 0);
    chess_tt_destroy(tt);
}

int main(void) {
    RUN(test_round_trip);
    RUN(test_keeps_move);
    RUN(test_replacement);
    RUN(test_hashfull);
    RUN(test_concurrent);
    return check_finish();
}
