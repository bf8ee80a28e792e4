/*
 * Endgame rule tests: which positions count as a bare king against mating material; the score
 * is a known win for the winner and its negation for the loser, the same for the mirrored
 * position, 0 for a stalemated lone king, and larger with the lone king on the edge (the
 * bishop's corner for bishop and knight) and the kings close; a search does not hang the rook to
 * the lone king; and the search mates from K+R, K+Q and K+B+N against K, with the network and
 * with the hand-written evaluation, within the fifty-move rule.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "endgame.h"
#include "test_mirror.h"

#include <chess/fen.h>
#include <chess/move.h>
#include <chess/movegen.h>
#include <chess/nnue.h>
#include <chess/search.h>
#include <chess/tt.h>

static struct chess_tt *tt;

static bool rule_score(const char *fen, int *score) {
    struct chess_position pos;
    if (!CHECK(chess_fen_parse(&pos, fen) == 0)) return false;
    return endgame_evaluate(&pos, score);
}

/* The rule's score of a position it applies to (CHECKs that it does). */
static int score_of(const char *fen) {
    int score = 0;
    CHECK(rule_score(fen, &score));
    return score;
}

static void test_which_positions(void) {
    static const struct {
        const char *fen;
        bool applies;
    } cases[] = {
        {"8/8/8/4k3/8/8/8/3RK3 w - - 0 1", true},
        {"8/8/8/4k3/8/8/8/3QK3 b - - 0 1", true},
        {"8/8/8/3k4/8/8/8/2BNK3 w - - 0 1", true},
        {"8/8/8/3k4/8/8/8/2B1KB2 w - - 0 1", true}, /* bishops on both colours */
        {"8/8/8/3k4/8/8/4P3/R3K3 w - - 0 1", true},
        {"3rk3/8/8/8/8/8/8/4K3 w - - 0 1", true}, /* black wins */
        {"8/8/8/3k4/8/8/8/1N2KN2 w - - 0 1", false},
        {"8/8/8/3k4/8/8/4P3/2B1K3 w - - 0 1", false},
        {"8/8/8/3k4/8/8/4P3/4K3 w - - 0 1", false},
        {"8/8/8/3k4/4p3/8/8/R3K3 w - - 0 1", false}, /* the king is not bare */
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int score;
        CHECK_EQ_INT(rule_score(cases[i].fen, &score), cases[i].applies);
    }
}

static void test_scores_are_symmetric(void) {
    static const char *const fens[] = {
        "8/8/8/4k3/8/8/8/3RK3 w - - 0 1",
        "8/8/8/3k4/8/8/8/2BNK3 w - - 0 1",
        "8/1k6/8/8/8/8/2Q5/6K1 b - - 0 1",
        "3rk3/8/8/8/8/8/8/4K3 w - - 0 1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        int score = score_of(fens[i]);
        CHECK(score >= ENDGAME_KNOWN_WIN || score <= -ENDGAME_KNOWN_WIN);
        CHECK(score < CHESS_MATE_BOUND && score > -CHESS_MATE_BOUND);
        char mirrored[128];
        if (!CHECK(mirror_fen(fens[i], mirrored, sizeof mirrored) == 0)) continue;
        CHECK_EQ_INT(score_of(mirrored), score);
    }
    CHECK(score_of("8/8/8/4k3/8/8/8/3RK3 w - - 0 1") >= ENDGAME_KNOWN_WIN);
    CHECK_EQ_INT(score_of("8/8/8/4k3/8/8/8/3RK3 b - - 0 1"),
                 -score_of("8/8/8/4k3/8/8/8/3RK3 w - - 0 1"));
    CHECK(score_of("3rk3/8/8/8/8/8/8/4K3 w - - 0 1") <= -ENDGAME_KNOWN_WIN);
    /* More material, more score: the search prefers promoting to keeping a pawn. */
    CHECK(score_of("8/8/8/4k3/8/8/8/2QRK3 w - - 0 1") > score_of("8/8/8/4k3/8/8/8/3RK3 w - - 0 1"));
}

static void test_stalemate_is_a_draw(void) {
    CHECK_EQ_INT(score_of("7k/8/6Q1/8/8/8/8/K7 b - - 0 1"), 0);
    CHECK(score_of("7k/8/6Q1/8/8/8/8/K7 w - - 0 1") >= ENDGAME_KNOWN_WIN);
}

static void test_mop_up_order(void) {
    /* With the kings as far apart: the lone king on the edge, then in a corner, beats the centre;
     * and with it on the edge, the winning king close beats far. */
    int centre = score_of("7R/8/8/3k4/8/2K5/8/8 w - - 0 1");
    int edge = score_of("7R/8/8/k7/8/2K5/8/8 w - - 0 1");
    int corner = score_of("7R/8/8/8/8/2K5/8/k7 w - - 0 1");
    CHECK(edge > centre);
    CHECK(corner > edge);
    CHECK(edge > score_of("7R/8/8/k7/8/8/8/6K1 w - - 0 1"));
    /* Bishop and knight: the corners of the bishop's colour (dark: a1 and h8) beat the others. */
    int right = score_of("7k/8/8/8/8/8/8/2BNK3 w - - 0 1");
    int wrong = score_of("k7/8/8/8/8/8/8/2BNK3 w - - 0 1");
    CHECK(right > wrong);
    CHECK(score_of("8/6k1/8/8/8/8/8/2BNK3 w - - 0 1") > wrong);
}

/* A search of the FEN to a depth with the network or the hand-written evaluation. */
static struct chess_search_result search(const struct chess_position *pos, bool nnue, int depth,
                                         uint64_t nodes) {
    struct chess_search_request req;
    struct chess_search_result res = {0};
    chess_search_request_init(&req, pos);
    req.nnue = nnue ? chess_nnue_builtin() : NULL;
    req.limits.depth = depth;
    req.limits.nodes = nodes;
    CHECK(chess_search(&req, tt, &res) == 0);
    return res;
}

/* With the rook attacked by the lone king, every depth keeps it and the score stays a known win:
 * the rule's score must not hide that the lone king can take the rook. */
static void test_rook_not_left_hanging(void) {
    struct chess_position pos;
    if (!CHECK(chess_fen_parse(&pos, "8/8/8/4k3/3R4/8/8/7K w - - 0 1") == 0)) return;
    for (int depth = 1; depth <= 6; depth++) {
        chess_tt_clear(tt);
        struct chess_search_result res = search(&pos, true, depth, 0);
        CHECK(res.score >= ENDGAME_KNOWN_WIN);
        struct chess_position after = pos;
        chess_position_make_move(&after, res.best);
        chess_tt_clear(tt);
        CHECK(search(&after, true, 1, 0).score <= -ENDGAME_KNOWN_WIN);
    }
}

/* Both sides played by the search at a node budget: true when the winner mates within the
 * fifty-move rule (no capture or pawn move can reset it here). */
static bool mates(const char *fen, bool nnue) {
    struct chess_position pos;
    if (!CHECK(chess_fen_parse(&pos, fen) == 0)) return false;
    chess_tt_clear(tt);
    for (int ply = 0; ply < 100; ply++) {
        if (chess_count_legal_moves(&pos) == 0) return chess_position_in_check(&pos);
        struct chess_search_result res = search(&pos, nnue, 0, 20000);
        if (!CHECK(res.best != CHESS_MOVE_NONE)) return false;
        chess_position_make_move(&pos, res.best);
    }
    return false;
}

static void test_mates(void) {
    static const char *const fens[] = {
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/4k3/8/8/8/8/Q3K3 w - - 0 1",
        "8/8/8/3k4/8/8/8/2BNK3 w - - 0 1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        CHECK(mates(fens[i], true));
        CHECK(mates(fens[i], false));
    }
}

int main(void) {
    tt = chess_tt_create(8u << 20);
    if (!tt) return 1;
    RUN(test_which_positions);
    RUN(test_scores_are_symmetric);
    RUN(test_stalemate_is_a_draw);
    RUN(test_mop_up_order);
    RUN(test_rook_not_left_hanging);
    RUN(test_mates);
    chess_tt_destroy(tt);
    return check_finish();
}
