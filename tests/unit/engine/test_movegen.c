/*
 * Move generator tests: the well-known published perft positions and counts, Chess960 start
 * positions (counts cross-checked with Stockfish 15.1's "go perft" in Chess960 mode), and the
 * generator's own invariants: captures + quiets = all, disjoint; counting = generating; the
 * incremental key equals a recomputed one; is_legal agrees with the generator.
 */
#include <chess/fen.h>
#include <chess/move.h>
#include <chess/movegen.h>

#include "check.h"

struct perft_case {
    const char *name;
    const char *fen;
    int depth;
    uint64_t nodes;
};

/* Depths kept modest: this also runs under ASan. The shared suites go deeper. */
static const struct perft_case published[] = {
    {"start", CHESS_FEN_STARTPOS, 5, 4865609},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4,
     4085603},
    {"position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624},
    {"position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333},
    {"position 4 mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 4,
     422333},
    {"position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2103487},
    {"position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4,
     3894594},
    /* En passant that would expose the king along the rank is illegal. */
    {"ep rank pin", "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1", 1, 6},
    {"ep after c7c5", "8/8/3p4/KPp4r/1R3p1k/8/4P1P1/8 w - c6 0 2", 3, 2883},
    /* Promotions to all four pieces, with and without capture. */
    {"promotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 4, 182838},
    {"castling through check", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 3, 13744},
};

static const struct {
    int number;
    uint64_t depth5;
} chess960[] = {{0, 4975808},   {1, 4863733},   {100, 4958510},
                {518, 4865609}, {777, 3916372}, {959, 4973573}};

static void test_published_perft(void) {
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        struct chess_position pos;
        int rc = chess_fen_parse(&pos, published[i].fen);
        CHECK_EQ_INT(rc, 0);
        if (rc < 0) continue;
        uint64_t nodes = chess_perft(&pos, published[i].depth);
        if (nodes != published[i].nodes) printf("     position: %s\n", published[i].name);
        CHECK_EQ_INT(nodes, published[i].nodes);
    }
}

static void test_chess960_start_positions(void) {
    for (size_t i = 0; i < sizeof chess960 / sizeof chess960[0]; i++) {
        struct chess_position pos;
        CHECK_EQ_INT(chess_position_chess960(&pos, chess960[i].number), 0);
        CHECK_EQ_INT(chess_perft(&pos, 5), chess960[i].depth5);
    }
    struct chess_position pos;
    CHECK(chess_position_chess960(&pos, 960) < 0);
    CHECK(chess_position_chess960(&pos, -1) < 0);
}

static bool list_has(const struct chess_move_list *list, chess_move m) {
    for (int i = 0; i < list->count; i++) {
        if (list->moves[i] == m) return true;
    }
    return false;
}

/* Walks the tree checking every invariant at every node. */
static void check_invariants(const struct chess_position *pos, int depth) {
    struct chess_move_list all, captures, quiets;
    chess_generate_moves(pos, CHESS_GEN_ALL, &all);
    chess_generate_moves(pos, CHESS_GEN_CAPTURES, &captures);
    chess_generate_moves(pos, CHESS_GEN_QUIETS, &quiets);
    CHECK_EQ_INT(captures.count + quiets.count, all.count);
    CHECK_EQ_INT(chess_count_legal_moves(pos), all.count);
    CHECK_EQ_INT(pos->key, chess_position_compute_key(pos));
    for (int i = 0; i < captures.count; i++) {
        chess_move m = captures.moves[i];
        CHECK(list_has(&all, m) && !list_has(&quiets, m));
        CHECK(chess_position_is_capture(pos, m) || chess_move_kind(m) == CHESS_MOVE_PROMOTION);
    }
    for (int i = 0; i < quiets.count; i++) {
        CHECK(!chess_position_is_capture(pos, quiets.moves[i]));
        CHECK(chess_move_kind(quiets.moves[i]) != CHESS_MOVE_PROMOTION);
    }
    if (depth == 0) return;
    for (int i = 0; i < all.count; i++) {
        CHECK(chess_position_is_legal(pos, all.moves[i]));
        struct chess_position child = *pos;
        chess_position_make_move(&child, all.moves[i]);
        CHECK_EQ_INT(chess_position_gives_check(pos, all.moves[i]), child.checkers != 0);
        check_invariants(&child, depth - 1);
    }
}

static void test_generator_invariants(void) {
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        struct chess_position pos;
        if (chess_fen_parse(&pos, published[i].fen) < 0) continue;
        check_invariants(&pos, 2);
    }
    struct chess_position pos;
    CHECK_EQ_INT(chess_position_chess960(&pos, 0), 0);
    check_invariants(&pos, 2);
}

static void test_is_legal_rejects_garbage(void) {
    struct chess_position pos;
    chess_position_startpos(&pos);
    int legal = 0;
    for (int m = 0; m < 65536; m++) legal += chess_position_is_legal(&pos, (chess_move)m);
    CHECK_EQ_INT(legal, 20);
    CHECK(!chess_position_is_legal(&pos, CHESS_MOVE_NONE));
    CHECK(!chess_position_is_legal(&pos, CHESS_MOVE_NULL));
}

/* The position after one move, in Shredder-FEN (castling rights by rook file). */
static void expect_after(const char *fen, const char *uci, const char *after) {
    struct chess_position pos;
    chess_move m;
    char out[CHESS_FEN_MAX];
    if (!CHECK(chess_fen_parse(&pos, fen) == 0) || !CHECK(chess_move_from_uci(&pos, uci, &m) == 0))
        return;
    chess_position_make_move(&pos, m);
    CHECK(chess_fen_write(&pos, CHESS_FEN_SHREDDER, out, sizeof out) > 0);
    CHECK_EQ_STR(out, after);
}

static void test_chess960_castling(void) {
    /* King b1 and rook a1 castle queen side: king to c1, rook to d1, in one move. */
    struct chess_position pos;
    CHECK_EQ_INT(chess_fen_parse(&pos, "1r2k3/8/8/8/8/8/8/RK6 w A - 0 1"), 0);
    CHECK(pos.chess960);
    chess_move castle =
        chess_move_make_kind(CHESS_SQUARE(1, 0), CHESS_SQUARE(0, 0), CHESS_MOVE_CASTLING);
    /* The rook on b8 gives check: no castling out of check. */
    CHECK(pos.checkers != 0);
    CHECK(!chess_position_is_legal(&pos, castle));
    CHECK_EQ_INT(chess_move_from_uci(&pos, "b1a1", &castle), -CHESS_ERR_MOVE_ILLEGAL);
    /* Without the check it is legal, written king-takes-rook. */
    CHECK_EQ_INT(chess_fen_parse(&pos, "4k3/8/8/8/8/8/8/RK6 w A - 0 1"), 0);
    CHECK_EQ_INT(chess_move_from_uci(&pos, "b1a1", &castle), 0);
    CHECK_EQ_INT(chess_move_kind(castle), CHESS_MOVE_CASTLING);

    /* The castling rook shields c1 from a queen on a1's rank: after castling the king is hit. */
    CHECK_EQ_INT(chess_fen_parse(&pos, "4k3/8/8/8/8/8/8/qRK5 w B - 0 1"), 0);
    chess_move m;
    CHECK_EQ_INT(chess_move_from_uci(&pos, "c1b1", &m), -CHESS_ERR_MOVE_ILLEGAL);

    /* King already on its castling square (g1) with the rook on h1: castling moves only the rook.
     */
    CHECK_EQ_INT(chess_fen_parse(&pos, "6k1/8/8/8/8/8/8/6KR w H - 0 1"), 0);
    CHECK_EQ_INT(chess_move_from_uci(&pos, "g1h1", &m), 0);
    chess_position_make_move(&pos, m);
    CHECK_EQ_INT(pos.board[CHESS_SQUARE(6, 0)], CHESS_PIECE(CHESS_WHITE, CHESS_KING));
    CHECK_EQ_INT(pos.board[CHESS_SQUARE(5, 0)], CHESS_PIECE(CHESS_WHITE, CHESS_ROOK));
    CHECK_EQ_INT(pos.board[CHESS_SQUARE(7, 0)], CHESS_NO_PIECE);
    CHECK_EQ_INT(pos.castling, 0);

    /* The rook already on its castling square (f1, d1): castling moves only the king. */
    expect_after("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "e1f1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    expect_after("4k3/8/8/8/8/8/8/3RK3 w D - 0 1", "e1d1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
    /* Castling rights with rooks on b and g: a rook that moves loses its side's right only, a
     * rook taken on its square loses the opponent's, a king move loses both of its side's. */
    const char *rooks = "1r1k2r1/8/8/8/8/8/8/1R1K2R1 w GBgb - 0 1";
    expect_after(rooks, "g1g2", "1r1k2r1/8/8/8/8/8/6R1/1R1K4 b Bgb - 1 1");
    expect_after(rooks, "b1b8", "1R1k2r1/8/8/8/8/8/8/3K2R1 b Gg - 0 1");
    expect_after(rooks, "d1d2", "1r1k2r1/8/8/8/8/8/3K4/1R4R1 b gb - 1 1");
}

int main(void) {
    RUN(test_published_perft);
    RUN(test_chess960_start_positions);
    RUN(test_generator_invariants);
    RUN(test_is_legal_rejects_garbage);
    RUN(test_chess960_castling);
    return check_finish();
}
