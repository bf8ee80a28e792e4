/*
 * Level tests: every lobby level answers quickly with a legal move, low levels vary their
 * choices with the seed yet never play a random-looking blunder in a simple position, level 8
 * is the full engine, and out-of-range levels are refused.
 */
#include "check.h"

#include <chess/fen.h>
#include <chess/level.h>

static struct chess_tt *tt;

static struct chess_search_result play(const struct chess_position *pos, int level, uint64_t seed) {
    struct chess_search_request req;
    chess_search_request_init(&req, pos);
    struct chess_search_result res = {0};
    if (!CHECK(chess_level_apply(level, &req) == 0)) return res;
    req.seed = seed;
    CHECK(chess_search(&req, tt, &res) == 0);
    return res;
}

static void test_levels_legal_and_fast(void) {
    struct chess_position pos;
    if (!CHECK(chess_fen_parse(&pos, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w "
                                     "KQkq - 4 4") == 0))
        return;
    for (int level = CHESS_LEVEL_MIN; level <= CHESS_LEVEL_MAX; level++) {
        const struct chess_level *l = chess_level_get(level);
        if (!CHECK(l != NULL)) continue;
        struct chess_search_result res = play(&pos, level, 7);
        CHECK(chess_position_is_legal(&pos, res.best));
        /* The level's time limit ends the search: the bound is loose so that a loaded machine
         * (or a sanitizer build) cannot fail it, yet a search ignoring the limit would. */
        CHECK(res.time_ms <= l->movetime_ms + 3000);
    }
    CHECK(chess_level_get(0) == NULL);
    CHECK(chess_level_get(CHESS_LEVEL_MAX + 1) == NULL);
    struct chess_search_request req;
    chess_search_request_init(&req, &pos);
    CHECK(chess_level_apply(9, &req) < 0);
    CHECK_EQ_INT(chess_level_get(CHESS_LEVEL_MAX)->skill, CHESS_SKILL_MAX);
}

static void test_low_level_varies_but_takes_a_free_queen(void) {
    struct chess_position pos;
    chess_position_startpos(&pos);
    chess_move first = CHESS_MOVE_NONE;
    bool varied = false;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        struct chess_search_result res = play(&pos, 1, seed);
        if (seed == 1) first = res.best;
        varied = varied || res.best != first;
    }
    CHECK(varied);
    /* A queen hanging to a pawn: even level 1 takes it. */
    if (!CHECK(chess_fen_parse(&pos, "rnb1kbnr/pppp1ppp/8/4p3/3q4/2P5/PP1PPPPP/RNBQKBNR w KQkq - 0 "
                                     "3") == 0))
        return;
    int took = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        struct chess_search_result res = play(&pos, 1, seed);
        took += chess_position_is_capture(&pos, res.best) && chess_move_to(res.best) == 27;
    }
    CHECK(took >= 8);
}

int main(void) {
    tt = chess_tt_create(4u << 20);
    if (!tt) return 1;
    RUN(test_levels_legal_and_fast);
    RUN(test_low_level_varies_but_takes_a_free_queen);
    chess_tt_destroy(tt);
    return check_finish();
}
