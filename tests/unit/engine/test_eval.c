/*
 * Evaluation tests: colour symmetry over random positions (with the tuned weights and, term by
 * term, with arbitrary ones), sane values for the start, material up and dead-drawn positions,
 * the tuner's trace agreeing with the evaluation, and the newer terms counted where they apply.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "eval_internal.h"
#include "test_mirror.h"

#include <chess/eval.h>
#include <chess/fen.h>
#include <chess/movegen.h>

#include <ctype.h>
#include <string.h>

static uint64_t rng_next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/*
 * A position after up to max_plies random moves from the start, with its FEN (CHESS_FEN_MAX
 * bytes) and its mirror image; -1 when the mirror could not be built.
 */
static int random_mirrored_pair(uint64_t *seed, int max_plies, struct chess_position *pos,
                                struct chess_position *mirror, char *fen) {
    chess_position_startpos(pos);
    int plies = (int)(rng_next(seed) % (uint64_t)max_plies);
    for (int i = 0; i < plies; i++) {
        struct chess_move_list list;
        if (chess_generate_moves(pos, CHESS_GEN_ALL, &list) == 0) break;
        chess_position_make_move(pos, list.moves[rng_next(seed) % (uint64_t)list.count]);
    }
    char mirrored[CHESS_FEN_MAX];
    if (chess_fen_write(pos, CHESS_FEN_XFEN, fen, CHESS_FEN_MAX) < 0 ||
        mirror_fen(fen, mirrored, sizeof mirrored) < 0 || chess_fen_parse(mirror, mirrored) < 0)
        return -1;
    return 0;
}

static void test_symmetry(void) {
    uint64_t seed = 99;
    int asymmetric = 0, bad_trace = 0;
    static struct eval_trace trace;
    for (int g = 0; g < 300; g++) {
        struct chess_position pos, other;
        char fen[CHESS_FEN_MAX];
        if (random_mirrored_pair(&seed, 100, &pos, &other, fen) < 0) {
            asymmetric++;
            continue;
        }
        int a = chess_evaluate(&pos), b = chess_evaluate(&other);
        if (a != b) {
            asymmetric++;
            printf("     %s: %d, mirrored %d\n", fen, a, b);
        }
        int white_view = pos.side == CHESS_WHITE ? a : -a;
        if (eval_trace_position(&pos, eval_weights, &trace) != white_view) bad_trace++;
        CHECK(a > -20000 && a < 20000);
    }
    CHECK_EQ_INT(asymmetric, 0);
    CHECK_EQ_INT(bad_trace, 0);
}

/*
 * With arbitrary weights (every weight a random pair, king danger positive) the trace of the
 * mirrored position must be the exact negation: every term, including those the fitted table
 * happens to weigh at zero, treats both colours alike. The danger counts swap kings.
 */
static void test_trace_symmetry(void) {
    static struct eval_weight weights[EVAL_PARAM_COUNT];
    static struct eval_trace trace, mirrored_trace;
    uint64_t seed = 7;
    for (int i = 0; i < EVAL_PARAM_COUNT; i++) {
        int range = i >= EVAL_KS_FIRST ? 40 : 200, low = i >= EVAL_KS_FIRST ? 0 : -100;
        weights[i].mg = low + (int)(rng_next(&seed) % (uint64_t)range);
        weights[i].eg = low + (int)(rng_next(&seed) % (uint64_t)range);
    }
    int asymmetric = 0;
    for (int g = 0; g < 300; g++) {
        struct chess_position pos, other;
        char fen[CHESS_FEN_MAX];
        if (!CHECK(random_mirrored_pair(&seed, 120, &pos, &other, fen) == 0)) continue;
        int a = eval_trace_position(&pos, weights, &trace);
        int b = eval_trace_position(&other, weights, &mirrored_trace);
        bool same = a == -b && trace.phase == mirrored_trace.phase;
        for (int i = 0; i < EVAL_PARAM_COUNT; i++)
            same = same && trace.coef[i] == -mirrored_trace.coef[i];
        for (int i = 0; i < EVAL_PARAM_COUNT - EVAL_KS_FIRST; i++)
            same = same && trace.ks[0][i] == mirrored_trace.ks[1][i] &&
                   trace.ks[1][i] == mirrored_trace.ks[0][i];
        if (!same) {
            asymmetric++;
            printf("     %s: %d, mirrored %d\n", fen, a, b);
        }
    }
    CHECK_EQ_INT(asymmetric, 0);
}

/* The trace's count (white minus black) of one weight in a position. */
static int coef(const char *fen, int index) {
    static struct eval_trace trace;
    struct chess_position pos;
    if (!CHECK(chess_fen_parse(&pos, fen) == 0)) return -999;
    eval_trace_position(&pos, eval_weights, &trace);
    return trace.coef[index];
}

static void test_terms(void) {
    /* Long diagonal: past a knight, not past a pawn. */
    CHECK_EQ_INT(coef("4k3/8/8/8/3n4/8/1B6/4K3 w - - 0 1", EVAL_LONG_DIAGONAL_BISHOP), 1);
    CHECK_EQ_INT(coef("4k3/8/8/8/8/2P5/1B6/4K3 w - - 0 1", EVAL_LONG_DIAGONAL_BISHOP), 0);
    /* Trapped rook: white's h1 rook behind its king on f1 without castling rights, black's h8
     * rook behind an uncastled king that may still castle. */
    const char *trapped = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w kq - 0 1";
    CHECK_EQ_INT(coef(trapped, EVAL_TRAPPED_ROOK + 1), 1);
    CHECK_EQ_INT(coef(trapped, EVAL_TRAPPED_ROOK), -1);
    /* Weak queen: one knight between the queen and a rook; two pieces between are no pin. */
    CHECK_EQ_INT(coef("4k3/8/8/8/4r3/8/4N3/4QK2 w - - 0 1", EVAL_WEAK_QUEEN), 1);
    CHECK_EQ_INT(coef("4k3/8/8/8/4r3/4N3/4N3/4QK2 w - - 0 1", EVAL_WEAK_QUEEN), 0);
    /* Unstoppable passer: the square rule, counting the double step and the side to move. */
    CHECK_EQ_INT(coef("7k/8/8/8/8/8/P7/K7 b - - 0 1", EVAL_UNSTOPPABLE_PASSER), 1);
    CHECK_EQ_INT(coef("6k1/8/8/8/8/8/P7/K7 b - - 0 1", EVAL_UNSTOPPABLE_PASSER), 0);
    CHECK_EQ_INT(coef("6k1/8/8/8/8/8/P7/K7 w - - 0 1", EVAL_UNSTOPPABLE_PASSER), 1);
    /* Not when the defender has a piece, nor when something stands in the pawn's path. */
    CHECK_EQ_INT(coef("7k/8/8/8/8/8/P7/K6n b - - 0 1", EVAL_UNSTOPPABLE_PASSER), 0);
    CHECK_EQ_INT(coef("7k/8/8/8/K7/8/P7/8 b - - 0 1", EVAL_UNSTOPPABLE_PASSER), 0);
    CHECK_EQ_INT(coef("k7/6p1/8/8/8/8/8/K7 b - - 0 1", EVAL_UNSTOPPABLE_PASSER), -1);
}

static int eval_fen(const char *fen) {
    struct chess_position pos;
    if (!CHECK(chess_fen_parse(&pos, fen) == 0)) return 0;
    return chess_evaluate(&pos);
}

static void test_values(void) {
    int start = eval_fen(CHESS_FEN_STARTPOS);
    CHECK(start > -60 && start < 60);
    /* White a queen up; black to move sees it too. */
    CHECK(eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") > 600);
    CHECK(eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1") < -600);
    /* Dead draws score zero however the pieces stand. */
    CHECK_EQ_INT(eval_fen("8/8/4k3/8/8/3BK3/8/8 w - - 0 1"), 0);
    CHECK_EQ_INT(eval_fen("8/8/4k3/8/8/3NK3/8/8 b - - 0 1"), 0);
    CHECK_EQ_INT(eval_fen("8/8/4k3/8/8/4K3/8/8 w - - 0 1"), 0);
    /* A far advanced passed pawn counts for more than a pawn on its start square. */
    int advanced = eval_fen("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1");
    int home = eval_fen("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1");
    CHECK(advanced > home);
}

int main(void) {
    RUN(test_symmetry);
    RUN(test_trace_symmetry);
    RUN(test_terms);
    RUN(test_values);
    return check_finish();
}
