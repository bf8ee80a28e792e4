/*
 * Level tests: every lobby level answers quickly with a legal move, low levels vary their
 * choices with the seed yet never play a random-looking blunder in a simple position, level 8
 * is the full engine, every level plays every variant, and out-of-range levels are refused.
 */
#include "check.h"

#include <chess/fen.h>
#include <chess/level.h>
#include <chess/move.h>

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

/* Every level plays every variant: a legal move in Chess960 with both castlings open, and in
 * King of the Hill and Three-check, where the full engine (level 8) takes the variant's win in
 * one (the king onto d4; any check, the third, rather than the queen). */
static void test_levels_play_the_variants(void) {
    static const struct {
        const char *fen;
        int variant;
        const char *win; /* level 8's move, or NULL */
    } cases[] = {
        {"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1", CHESS_VARIANT_STANDARD, NULL},
        {"4k3/8/8/8/8/1qK5/8/8 w - - 0 1", CHESS_VARIANT_KING_OF_THE_HILL, "c3d4"},
        {"4k3/8/8/8/3q4/8/3R4/4K2R w K - 1+3 0 1", CHESS_VARIANT_THREE_CHECK, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct chess_position pos;
        if (!CHECK(chess_fen_parse_variant(&pos, cases[i].fen, cases[i].variant) == 0)) continue;
        for (int level = CHESS_LEVEL_MIN; level <= CHESS_LEVEL_MAX; level++) {
            struct chess_search_result res = play(&pos, level, 11);
            if (!CHECK(chess_position_is_legal(&pos, res.best))) continue;
            if (level != CHESS_LEVEL_MAX || cases[i].variant == CHESS_VARIANT_STANDARD) continue;
            struct chess_position next = pos;
            chess_position_make_move(&next, res.best);
            CHECK_EQ_INT(chess_position_variant_winner(&next), pos.side);
            char uci[CHESS_UCI_MAX];
            chess_move_to_uci(&pos, res.best, uci);
            if (cases[i].win) CHECK_EQ_STR(uci, cases[i].win);
        }
    }
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
    RUN(test_levels_play_the_variants);
    chess_tt_destroy(tt);
    return check_finish();
}
