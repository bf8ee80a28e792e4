/*
 * SAN and UCI move text tests: writing with minimal disambiguation and check/mate suffixes,
 * reading the common variants, and every kind of bad move text.
 */
#include <chess/fen.h>
#include <chess/move.h>
#include <chess/movegen.h>
#include <chess/san.h>

#include "check.h"

static chess_move uci(const struct chess_position *pos, const char *text) {
    chess_move m = CHESS_MOVE_NONE;
    int rc = chess_move_from_uci(pos, text, &m);
    if (rc < 0) printf("     cannot read UCI move %s: %s\n", text, chess_error_name(rc));
    return m;
}

static void check_san(const char *fen, const char *uci_text, const char *expected) {
    struct chess_position pos;
    char san[CHESS_SAN_MAX];
    CHECK_EQ_INT(chess_fen_parse(&pos, fen), 0);
    chess_move m = uci(&pos, uci_text);
    CHECK_EQ_INT(chess_san_write(&pos, m, san), (int)strlen(expected));
    CHECK_EQ_STR(san, expected);
    chess_move back = CHESS_MOVE_NONE;
    CHECK_EQ_INT(chess_san_parse(&pos, san, &back), 0);
    CHECK_EQ_INT(back, m);
}

static void test_write(void) {
    check_san(CHESS_FEN_STARTPOS, "e2e4", "e4");
    check_san(CHESS_FEN_STARTPOS, "g1f3", "Nf3");
    /* Disambiguation: by file, by rank, and by both. */
    check_san("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "a1d1", "Rd1"); /* h1 rook is blocked */
    check_san("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1");
    check_san("4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a2", "R1a2");
    check_san("4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "a3b2", "Qa3b2");
    /* A pinned knight does not make the other one ambiguous. */
    check_san("4k3/4r3/8/8/8/8/2N1N3/4K3 w - - 0 1", "c2d4", "Nd4");
    /* Captures, en passant, promotion, check and mate. */
    check_san("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "d5e6",
              "dxe6");
    check_san("rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 2", "d5c6", "dxc6");
    check_san("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+");
    check_san("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b8=N");
    check_san("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#");
    check_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O");
    check_san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O");
    check_san("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O");
    check_san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+");
}

static void test_read_variants(void) {
    struct chess_position pos;
    chess_move m, expected;
    CHECK_EQ_INT(chess_fen_parse(&pos, "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1"), 0);
    expected = uci(&pos, "b7b8q");
    const char *queen_promotions[] = {"b8=Q", "b8Q", "b8=Q+", "b8q", "b8=Q!", "b8=Q?!"};
    for (size_t i = 0; i < sizeof queen_promotions / sizeof *queen_promotions; i++) {
        CHECK_EQ_INT(chess_san_parse(&pos, queen_promotions[i], &m), 0);
        CHECK_EQ_INT(m, expected);
    }
    expected = uci(&pos, "b7a8r");
    CHECK_EQ_INT(chess_san_parse(&pos, "bxa8=R", &m), 0);
    CHECK_EQ_INT(m, expected);
    expected = uci(&pos, "e1g1");
    const char *castles[] = {"O-O", "0-0", "O-O+", "o-o"};
    for (size_t i = 0; i < sizeof castles / sizeof *castles; i++) {
        CHECK_EQ_INT(chess_san_parse(&pos, castles[i], &m), 0);
        CHECK_EQ_INT(m, expected);
    }
    expected = uci(&pos, "e1c1");
    CHECK_EQ_INT(chess_san_parse(&pos, "0-0-0", &m), 0);
    CHECK_EQ_INT(m, expected);
    /* Over-specified but unique is fine; a missing 'x' too. */
    expected = uci(&pos, "a1a7");
    CHECK_EQ_INT(chess_san_parse(&pos, "Ra1a7", &m), 0);
    CHECK_EQ_INT(m, expected);
    CHECK_EQ_INT(chess_move_parse(&pos, "Ra7", &m), 0);
    CHECK_EQ_INT(chess_move_parse(&pos, "a1a7", &m), 0);
    CHECK_EQ_INT(m, expected);
    /* The mate sign, with or without an annotation, or left out. */
    CHECK_EQ_INT(
        chess_fen_parse(&pos, "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"), 0);
    expected = uci(&pos, "d8h4");
    const char *mates[] = {"Qh4#", "Qh4", "Qh4#!", "Qd8h4#"};
    for (size_t i = 0; i < sizeof mates / sizeof *mates; i++) {
        CHECK_EQ_INT(chess_san_parse(&pos, mates[i], &m), 0);
        CHECK_EQ_INT(m, expected);
    }
}

static void test_read_errors(void) {
    struct chess_position pos;
    chess_move m = CHESS_MOVE_NONE;
    CHECK_EQ_INT(chess_fen_parse(&pos, "4k3/1P6/8/8/8/8/8/R3K2R w K - 0 1"), 0);
    const char *syntax[] = {
        "", "+", "Zf3", "e9", "i4", "Nf", "e8=K", "Nf3=Q", "xx", "e4e4e4e4e4e4e4e4", "O-O-O-O"};
    for (size_t i = 0; i < sizeof syntax / sizeof *syntax; i++) {
        int rc = chess_san_parse(&pos, syntax[i], &m);
        if (rc != -CHESS_ERR_MOVE_SYNTAX)
            printf("     \"%s\" gave %s\n", syntax[i], chess_error_name(rc));
        CHECK_EQ_INT(rc, -CHESS_ERR_MOVE_SYNTAX);
    }
    const char *illegal[] = {"e4", "Nf3", "O-O-O", "b8", "Ke3", "Rb2", "Kf1f1"};
    for (size_t i = 0; i < sizeof illegal / sizeof *illegal; i++) {
        int rc = chess_san_parse(&pos, illegal[i], &m);
        if (rc != -CHESS_ERR_MOVE_ILLEGAL)
            printf("     \"%s\" gave %s\n", illegal[i], chess_error_name(rc));
        CHECK_EQ_INT(rc, -CHESS_ERR_MOVE_ILLEGAL);
    }
    CHECK_EQ_INT(chess_san_parse(&pos, "Rd1", &m), 0);
    CHECK_EQ_INT(chess_san_parse(&pos, "Rf1", &m), 0);
    CHECK_EQ_INT(chess_fen_parse(&pos, "4k3/8/8/8/8/8/4K3/R6R w - - 0 1"), 0);
    CHECK_EQ_INT(chess_san_parse(&pos, "Rd1", &m), -CHESS_ERR_MOVE_AMBIGUOUS);
    CHECK_EQ_INT(chess_san_parse(&pos, NULL, &m), -CHESS_ERR_MOVE_SYNTAX);
    CHECK_EQ_INT(chess_move_parse(&pos, NULL, &m), -CHESS_ERR_MOVE_SYNTAX);

    const char *bad_uci[] = {"", "e2", "e2e", "e2e4qq", "e2e9", "i2e4", "e7e8k", "e7e8x"};
    for (size_t i = 0; i < sizeof bad_uci / sizeof *bad_uci; i++) {
        CHECK_EQ_INT(chess_move_from_uci(&pos, bad_uci[i], &m), -CHESS_ERR_MOVE_SYNTAX);
    }
    CHECK_EQ_INT(chess_move_from_uci(&pos, NULL, &m), -CHESS_ERR_MOVE_SYNTAX);
    CHECK_EQ_INT(chess_move_from_uci(&pos, "e2e4", &m), -CHESS_ERR_MOVE_ILLEGAL);
    CHECK_EQ_INT(chess_move_from_uci(&pos, "e8e7", &m), -CHESS_ERR_MOVE_ILLEGAL);
}

static void test_uci_text(void) {
    struct chess_position pos;
    char text[CHESS_UCI_MAX];
    CHECK_EQ_INT(chess_fen_parse(&pos, "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1"), 0);
    chess_move castle = uci(&pos, "e1g1");
    CHECK_EQ_INT(uci(&pos, "e1h1"), castle); /* king takes rook is read in standard chess too */
    chess_move_to_uci(&pos, castle, text);
    CHECK_EQ_STR(text, "e1g1");
    chess_move_to_uci(&pos, uci(&pos, "b7a8n"), text);
    CHECK_EQ_STR(text, "b7a8n");
    chess_move_to_uci(&pos, CHESS_MOVE_NONE, text);
    CHECK_EQ_STR(text, "0000");
    /* In Chess960 castling is written king takes rook; the king's own square is read too where
     * nothing else reads the same. */
    pos.chess960 = true;
    chess_move_to_uci(&pos, castle, text);
    CHECK_EQ_STR(text, "e1h1");
    chess_move m;
    CHECK_EQ_INT(chess_move_from_uci(&pos, "e1g1", &m), 0);
    CHECK_EQ_INT(m, castle);
    CHECK_EQ_INT(chess_move_from_uci(&pos, "e1c1", &m), 0);
    CHECK_EQ_INT(m, uci(&pos, "e1a1"));
    /* King on f1, rook on h1: f1g1 is the king's step; castling only as f1h1. */
    CHECK_EQ_INT(chess_fen_parse(&pos, "4k3/8/8/8/8/8/8/5K1R w H - 0 1"), 0);
    CHECK(pos.chess960);
    chess_move step = uci(&pos, "f1g1");
    CHECK_EQ_INT(chess_move_kind(step), CHESS_MOVE_NORMAL);
    CHECK_EQ_INT(chess_move_kind(uci(&pos, "f1h1")), CHESS_MOVE_CASTLING);
}

/* Every legal move of many positions survives SAN and UCI round trips. */
static void round_trip_tree(const struct chess_position *pos, int depth) {
    struct chess_move_list list;
    chess_generate_moves(pos, CHESS_GEN_ALL, &list);
    for (int i = 0; i < list.count; i++) {
        char san[CHESS_SAN_MAX], text[CHESS_UCI_MAX];
        chess_move back = CHESS_MOVE_NONE, back_uci = CHESS_MOVE_NONE;
        chess_san_write(pos, list.moves[i], san);
        chess_move_to_uci(pos, list.moves[i], text);
        CHECK(chess_san_parse(pos, san, &back) == 0 && back == list.moves[i]);
        CHECK(chess_move_from_uci(pos, text, &back_uci) == 0 && back_uci == list.moves[i]);
        if (depth > 1) {
            struct chess_position child = *pos;
            chess_position_make_move(&child, list.moves[i]);
            round_trip_tree(&child, depth - 1);
        }
    }
}

static void test_round_trip_trees(void) {
    const char *fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    };
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        struct chess_position pos;
        CHECK_EQ_INT(chess_fen_parse(&pos, fens[i]), 0);
        round_trip_tree(&pos, 2);
    }
}

int main(void) {
    RUN(test_write);
    RUN(test_read_variants);
    RUN(test_read_errors);
    RUN(test_uci_text);
    RUN(test_round_trip_trees);
    return check_finish();
}
