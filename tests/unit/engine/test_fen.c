/*
 * FEN tests: round trips (also of every position of random games, the board field against a
 * square-by-square writing), X-FEN and Shredder-FEN castling, en passant normalisation, and
 * every class of malformed or impossible FEN, each with its error code and the position
 * untouched.
 */
#include <chess/fen.h>
#include <chess/move.h>
#include <chess/movegen.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "test_random.h"

static void check_round_trip(const char *fen, int flags) {
    struct chess_position pos;
    char out[CHESS_FEN_MAX];
    CHECK_EQ_INT(chess_fen_parse(&pos, fen), 0);
    CHECK(chess_fen_write(&pos, flags, out, sizeof out) > 0);
    CHECK_EQ_STR(out, fen);
    CHECK_EQ_INT(pos.key, chess_position_compute_key(&pos));
}

static void test_round_trips(void) {
    check_round_trip(CHESS_FEN_STARTPOS, CHESS_FEN_XFEN);
    check_round_trip("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                     CHESS_FEN_XFEN);
    check_round_trip("rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 2",
                     CHESS_FEN_XFEN);
    check_round_trip("8/8/8/8/8/8/8/K6k b - - 99 180", CHESS_FEN_XFEN);
    check_round_trip("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                     CHESS_FEN_SHREDDER);
    check_round_trip("k7/8/8/8/8/8/8/7K b - - 9999 65535", CHESS_FEN_XFEN);
    check_round_trip("7k/8/8/8/8/8/8/K7 w - - 10 100", CHESS_FEN_XFEN);
    check_round_trip("kqqqqqqq/qqqqqqqq/8/8/8/8/8/QQQQQQQK w - - 0 1", CHESS_FEN_XFEN);
}

/* The board field written the plain way, square by square. */
static void board_field(const struct chess_position *pos, char *out) {
    static const char letters[] = " PNBRQK  pnbrqk";
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            int piece = pos->board[CHESS_SQUARE(file, rank)];
            if (piece == CHESS_NO_PIECE) {
                empty++;
                continue;
            }
            if (empty) *out++ = (char)('0' + empty);
            empty = 0;
            *out++ = letters[piece];
        }
        if (empty) *out++ = (char)('0' + empty);
        if (rank) *out++ = '/';
    }
    *out = '\0';
}

static void test_random_positions_round_trip(void) {
    uint64_t rng = 0xfe11ULL;
    int positions = 0;
    for (int game = 0; game < 40; game++) {
        struct chess_position pos;
        chess_position_startpos(&pos);
        for (int ply = 0; ply < 400; ply++) {
            char fen[CHESS_FEN_MAX], again[CHESS_FEN_MAX], board[80];
            int len = chess_fen_write(&pos, CHESS_FEN_XFEN, fen, sizeof fen);
            CHECK_EQ_INT(len, (int)strlen(fen));
            board_field(&pos, board);
            CHECK(strncmp(fen, board, strlen(board)) == 0 && fen[strlen(board)] == ' ');
            char clocks[24];
            snprintf(clocks, sizeof clocks, " %u %u", (unsigned)pos.halfmove_clock,
                     (unsigned)pos.fullmove_number);
            CHECK(len > (int)strlen(clocks) &&
                  strcmp(fen + len - (int)strlen(clocks), clocks) == 0);
            struct chess_position back;
            CHECK_EQ_INT(chess_fen_parse(&back, fen), 0);
            CHECK_EQ_INT(back.key, pos.key);
            CHECK(chess_fen_write(&back, CHESS_FEN_XFEN, again, sizeof again) > 0);
            CHECK_EQ_STR(again, fen);
            positions++;
            struct chess_move_list list;
            if (chess_generate_moves(&pos, CHESS_GEN_ALL, &list) == 0) break;
            chess_position_make_move(&pos, list.moves[rng_next(&rng) % (uint64_t)list.count]);
        }
    }
    CHECK(positions > 5000);
}

static void test_startpos_matches_fen(void) {
    struct chess_position a, b;
    chess_position_startpos(&a);
    CHECK_EQ_INT(chess_fen_parse(&b, CHESS_FEN_STARTPOS), 0);
    CHECK_EQ_INT(a.key, b.key);
    CHECK(!b.chess960);
    char out[CHESS_FEN_MAX];
    CHECK(chess_fen_write(&a, CHESS_FEN_XFEN, out, sizeof out) > 0);
    CHECK_EQ_STR(out, CHESS_FEN_STARTPOS);
    CHECK(chess_fen_write(&a, CHESS_FEN_XFEN, out, 10) == -CHESS_ERR_BUFFER);
}

static void test_castling_notations(void) {
    struct chess_position x, s;
    char out[CHESS_FEN_MAX];
    /* Shredder letters for a standard position read as the standard rights. */
    CHECK_EQ_INT(chess_fen_parse(&s, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"),
                 0);
    CHECK_EQ_INT(chess_fen_parse(&x, CHESS_FEN_STARTPOS), 0);
    CHECK_EQ_INT(s.castling, x.castling);
    CHECK_EQ_INT(s.key, x.key);
    CHECK(chess_fen_write(&x, CHESS_FEN_SHREDDER, out, sizeof out) > 0);
    CHECK_EQ_STR(out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");

    /* X-FEN: a letter names the inner rook when two rooks share a side of the king. */
    const char *inner = "4k3/8/8/8/8/8/8/R1R1K2R w KC - 0 1";
    CHECK_EQ_INT(chess_fen_parse(&x, inner), 0);
    CHECK(x.chess960);
    CHECK_EQ_INT(x.castle_rook[1], CHESS_SQUARE(2, 0));
    CHECK(chess_fen_write(&x, CHESS_FEN_XFEN, out, sizeof out) > 0);
    CHECK_EQ_STR(out, inner);

    /* Q with two rooks on the queen side is the outermost one. */
    CHECK_EQ_INT(chess_fen_parse(&x, "4k3/8/8/8/8/8/8/R1R1K3 w Q - 0 1"), 0);
    CHECK_EQ_INT(x.castle_rook[1], CHESS_SQUARE(0, 0));
}

static void test_en_passant_normalised(void) {
    struct chess_position pos;
    char out[CHESS_FEN_MAX];
    /* After 1.e4 the square e3 is given, but no black pawn can capture: it is dropped. */
    CHECK_EQ_INT(
        chess_fen_parse(&pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"), 0);
    CHECK_EQ_INT(pos.ep_square, CHESS_NO_SQUARE);
    CHECK(chess_fen_write(&pos, CHESS_FEN_XFEN, out, sizeof out) > 0);
    CHECK_EQ_STR(out, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /* The same position reached by the move has the same key. */
    struct chess_position start;
    chess_position_startpos(&start);
    chess_move m;
    CHECK_EQ_INT(chess_move_from_uci(&start, "e2e4", &m), 0);
    chess_position_make_move(&start, m);
    CHECK_EQ_INT(start.key, pos.key);
    /* A pinned capturer cannot take en passant, so the square is dropped too. */
    CHECK_EQ_INT(chess_fen_parse(&pos, "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1"), 0);
    CHECK_EQ_INT(pos.ep_square, CHESS_NO_SQUARE);
}

static void test_clock_fields_optional(void) {
    struct chess_position pos;
    CHECK_EQ_INT(chess_fen_parse(&pos, "4k3/8/8/8/8/8/8/4K3 w - -"), 0);
    CHECK_EQ_INT(pos.halfmove_clock, 0);
    CHECK_EQ_INT(pos.fullmove_number, 1);
    CHECK_EQ_INT(chess_fen_parse(&pos, "  4k3/8/8/8/8/8/8/4K3   b  -  -  7  12  "), 0);
    CHECK_EQ_INT(pos.halfmove_clock, 7);
    CHECK_EQ_INT(pos.fullmove_number, 12);
}

static const struct {
    const char *fen;
    int error;
} bad[] = {
    {"", CHESS_ERR_FEN_FIELDS},
    {"8/8/8/8/8/8/8/8", CHESS_ERR_FEN_FIELDS},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", CHESS_ERR_FEN_FIELDS},
    {"4k3/8/8/8/8/8/8/4X3 w - - 0 1", CHESS_ERR_FEN_PIECE},
    {"4k3/8/8/8/8/8/8/4K3# w - - 0 1", CHESS_ERR_FEN_PIECE},
    {"4k3/8/8/8/8/8/8/4K4 w - - 0 1", CHESS_ERR_FEN_RANK},
    {"4k3/8/8/8/8/8/8/4K2 w - - 0 1", CHESS_ERR_FEN_RANK},
    {"4k3/8/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_RANK},
    {"4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_RANK},
    {"4k3/8/8/8/8/8/8/4K3/ w - - 0 1", CHESS_ERR_FEN_RANK},
    {"4k3/8/8/8/8/8/8/9 w - - 0 1", CHESS_ERR_FEN_RANK},
    {"8/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_KINGS},
    {"4k3/8/8/8/8/8/8/8 w - - 0 1", CHESS_ERR_FEN_KINGS},
    {"4k3/8/8/8/8/8/8/3KK3 w - - 0 1", CHESS_ERR_FEN_KINGS},
    {"4k2P/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_PAWN_RANK},
    {"4k3/8/8/8/8/8/8/4K2p w - - 0 1", CHESS_ERR_FEN_PAWN_RANK},
    {"4k3/8/8/8/8/PPPPPPPP/P7/4K3 w - - 0 1", CHESS_ERR_FEN_TOO_MANY},
    {"4k3/8/8/8/8/8/8/4K3 x - - 0 1", CHESS_ERR_FEN_SIDE},
    {"4k3/8/8/8/8/8/8/4K3 white - - 0 1", CHESS_ERR_FEN_SIDE},
    {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", CHESS_ERR_FEN_CASTLING},
    {"4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CHESS_ERR_FEN_CASTLING},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KKkq - 0 1", CHESS_ERR_FEN_CASTLING},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1", CHESS_ERR_FEN_CASTLING},
    {"r3k2r/8/8/8/8/8/4K3/R6R w KQ - 0 1", CHESS_ERR_FEN_CASTLING},
    {"r3k2r/8/8/8/8/8/8/R3K2R w B - 0 1", CHESS_ERR_FEN_CASTLING},
    {"4k3/8/8/8/8/8/8/4K3 w - e4 0 1", CHESS_ERR_FEN_EN_PASSANT},
    {"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", CHESS_ERR_FEN_EN_PASSANT},
    {"4k3/8/8/3pP3/8/8/8/4K3 w - e6 0 1", CHESS_ERR_FEN_EN_PASSANT},
    {"4k3/8/8/3pP3/8/8/8/4K3 b - d6 0 1", CHESS_ERR_FEN_EN_PASSANT},
    {"4k3/8/8/3pP3/8/8/8/4K3 w - z6 0 1", CHESS_ERR_FEN_EN_PASSANT},
    {"4k3/8/8/8/8/8/8/4K3 w - - x 1", CHESS_ERR_FEN_CLOCKS},
    {"4k3/8/8/8/8/8/8/4K3 w - - -1 1", CHESS_ERR_FEN_CLOCKS},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999", CHESS_ERR_FEN_CLOCKS},
    {"4k3/8/8/8/8/8/8/4K2r b - - 0 1", CHESS_ERR_FEN_OPPONENT_CHECK},
    {"4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1", CHESS_ERR_FEN_CHECKERS},
    {"4k3/8/8/8/8/2bn4/6n1/r3K3 w - - 0 1", CHESS_ERR_FEN_CHECKERS},
};

static void test_bad_fens(void) {
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct chess_position pos;
        chess_position_startpos(&pos);
        uint64_t key = pos.key;
        int rc = chess_fen_parse(&pos, bad[i].fen);
        if (rc != -bad[i].error)
            printf("     FEN: \"%s\" gave %s\n", bad[i].fen, chess_error_name(rc));
        CHECK_EQ_INT(rc, -bad[i].error);
        CHECK_EQ_INT(pos.key, key); /* untouched */
        CHECK(chess_error_message(rc)[0] != '\0');
    }
    struct chess_position pos;
    CHECK_EQ_INT(chess_fen_parse(&pos, NULL), -CHESS_ERR_FEN_FIELDS);
}

static void test_error_names(void) {
    CHECK_EQ_STR(chess_error_name(-CHESS_ERR_FEN_KINGS), "FEN_KINGS");
    CHECK_EQ_STR(chess_error_name(CHESS_ERR_MOVE_ILLEGAL), "MOVE_ILLEGAL");
    CHECK_EQ_STR(chess_error_name(9999), "UNKNOWN");
    for (int code = 0; code < CHESS_ERR_COUNT; code++) {
        CHECK(chess_error_name(code) != NULL && chess_error_message(code) != NULL);
    }
}

int main(void) {
    RUN(test_round_trips);
    RUN(test_random_positions_round_trip);
    RUN(test_startpos_matches_fen);
    RUN(test_castling_notations);
    RUN(test_en_passant_normalised);
    RUN(test_clock_fields_optional);
    RUN(test_bad_fens);
    RUN(test_error_names);
    return check_finish();
}
