/*
 * Evaluation tests: colour symmetry over random positions, sane values for the start, material
 * up and dead-drawn positions, and the tuner's trace agreeing with the evaluation.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "eval_internal.h"

#include <chess/eval.h>
#include <chess/fen.h>
#include <chess/movegen.h>

#include <ctype.h>
#include <string.h>

/* The same position with colours swapped and the board flipped top to bottom. */
static int mirror_fen(const char *fen, char *out, size_t size) {
    char board[100], side[4], castling[8], ep[4];
    int half = 0, full = 1;
    if (sscanf(fen, "%99s %3s %7s %3s %d %d", board, side, castling, ep, &half, &full) < 4)
        return -1;
    char ranks[8][16];
    int n = 0;
    for (char *save = NULL, *r = strtok_r(board, "/", &save); r && n < 8;
         r = strtok_r(NULL, "/", &save))
        snprintf(ranks[n++], sizeof ranks[0], "%s", r);
    if (n != 8) return -1;
    char flipped[100] = "";
    for (int i = 7; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            *c = isupper((unsigned char)*c) ? (char)tolower(*c) : (char)toupper(*c);
        strcat(flipped, ranks[i]);
        if (i) strcat(flipped, "/");
    }
    char rights[8] = "";
    const char *order = "KQkq";
    for (int i = 0; i < 4; i++) {
        char want = order[i];
        char from = isupper((unsigned char)want) ? (char)tolower(want) : (char)toupper(want);
        if (strchr(castling, from)) strncat(rights, &want, 1);
    }
    if (!rights[0]) strcpy(rights, "-");
    if (ep[0] != '-') ep[1] = ep[1] == '3' ? '6' : '3';
    int len = snprintf(out, size, "%s %s %s %s %d %d", flipped, side[0] == 'w' ? "b" : "w", rights,
                       ep, half, full);
    return len > 0 && (size_t)len < size ? 0 : -1;
}

static uint64_t rng_next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void test_symmetry(void) {
    uint64_t seed = 99;
    int asymmetric = 0, bad_trace = 0;
    static struct eval_trace trace;
    for (int g = 0; g < 300; g++) {
        struct chess_position pos;
        chess_position_startpos(&pos);
        int plies = (int)(rng_next(&seed) % 100);
        for (int i = 0; i < plies; i++) {
            struct chess_move_list list;
            if (chess_generate_moves(&pos, CHESS_GEN_ALL, &list) == 0) break;
            chess_position_make_move(&pos, list.moves[rng_next(&seed) % (uint64_t)list.count]);
        }
        char fen[CHESS_FEN_MAX], mirrored[CHESS_FEN_MAX];
        struct chess_position other;
        if (chess_fen_write(&pos, CHESS_FEN_XFEN, fen, sizeof fen) < 0 ||
            mirror_fen(fen, mirrored, sizeof mirrored) < 0 ||
            chess_fen_parse(&other, mirrored) < 0) {
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
    RUN(test_values);
    return check_finish();
}
