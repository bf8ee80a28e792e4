/*
 * PGN tests: exact output for a known game, round trips (standard, from a FEN, Chess960),
 * reading what real PGN files contain (NAGs, nested variations, comments of both kinds, move
 * numbers glued to moves, escape lines, several games), and every error with its offset.
 */
#include <chess/fen.h>
#include <chess/pgn.h>
#include <stdlib.h>

#include "check.h"

static const char scholars_mate[] =
    "[Event \"Casual game\"]\n"
    "[Site \"http://localhost:8080/g/abc\"]\n"
    "[Date \"2026.11.21\"]\n"
    "[Round \"-\"]\n"
    "[White \"Alice \\\"the quick\\\"\"]\n"
    "[Black \"Bob\"]\n"
    "[Result \"1-0\"]\n"
    "[TimeControl \"180+2\"]\n"
    "[Termination \"Normal\"]\n"
    "\n"
    "1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Bc4 Nc6 3. Qh5 Nf6\n"
    "4. Qxf7# 1-0\n";

static void build_scholars_mate(struct chess_pgn *pgn) {
    CHECK_EQ_INT(chess_pgn_init(pgn, NULL), 0);
    CHECK_EQ_INT(chess_pgn_set_tag(pgn, "Event", "Casual game"), 0);
    CHECK_EQ_INT(chess_pgn_set_tag(pgn, "Site", "http://localhost:8080/g/abc"), 0);
    CHECK_EQ_INT(chess_pgn_set_tag(pgn, "Date", "2026.11.21"), 0);
    CHECK_EQ_INT(chess_pgn_set_tag(pgn, "Round", "-"), 0);
    CHECK_EQ_INT(chess_pgn_set_tag(pgn, "White", "Alice \"the quick\""), 0);
    CHECK_EQ_INT(chess_pgn_set_tag(pgn, "Black", "Bob"), 0);
    CHECK_EQ_INT(chess_pgn_set_tag(pgn, "TimeControl", "180+2"), 0);
    CHECK_EQ_INT(chess_pgn_set_tag(pgn, "Termination", "Normal"), 0);
    const char *moves[] = {"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"};
    for (int i = 0; i < 7; i++) CHECK_EQ_INT(chess_game_play_text(&pgn->game, moves[i], NULL), 0);
    CHECK_EQ_INT(chess_pgn_set_comment(pgn, 1, "[%clk 0:03:00]"), 0);
    CHECK_EQ_INT(chess_pgn_set_comment(pgn, 2, "[%clk 0:03:00]"), 0);
}

static void test_write_exact(void) {
    struct chess_pgn pgn;
    build_scholars_mate(&pgn);
    CHECK_EQ_INT(chess_pgn_set_comment(&pgn, 8, "too far"), -CHESS_ERR_MOVE_ILLEGAL);
    char *text = NULL;
    long len = chess_pgn_write(&pgn, &text);
    CHECK(len > 0);
    CHECK_EQ_STR(text, scholars_mate);
    free(text);
    chess_pgn_free(&pgn);
}

/* NAGs and variations as analyses write them: the variation replaces the move from the position
 * before it, and the next move is numbered again. */
static void test_annotations(void) {
    struct chess_pgn pgn;
    build_scholars_mate(&pgn);
    struct chess_position pos;
    CHECK_EQ_INT(chess_game_position_at(&pgn.game, 5, &pos), 0); /* before 3... Nf6 */
    chess_move line[2];
    CHECK_EQ_INT(chess_move_from_uci(&pos, "g7g6", &line[0]), 0);
    chess_position_make_move(&pos, line[0]);
    CHECK_EQ_INT(chess_move_from_uci(&pos, "h5f3", &line[1]), 0);
    CHECK_EQ_INT(chess_pgn_annotate(&pgn, 6, 4, line, 2), 0);
    CHECK_EQ_INT(chess_pgn_annotate(&pgn, 3, 6, NULL, 0), 0);
    CHECK_EQ_INT(chess_pgn_set_comment(&pgn, 6, "[%eval #1]"), 0);
    /* Errors: a ply not played, a NAG out of range, a line illegal from the position before. */
    CHECK_EQ_INT(chess_pgn_annotate(&pgn, 8, 2, NULL, 0), -CHESS_ERR_MOVE_ILLEGAL);
    CHECK_EQ_INT(chess_pgn_annotate(&pgn, 0, 2, NULL, 0), -CHESS_ERR_MOVE_ILLEGAL);
    CHECK_EQ_INT(chess_pgn_annotate(&pgn, 2, 256, NULL, 0), -CHESS_ERR_MOVE_ILLEGAL);
    CHECK_EQ_INT(chess_pgn_annotate(&pgn, 5, 0, line, 1), -CHESS_ERR_MOVE_ILLEGAL);
    char *text = NULL;
    CHECK(chess_pgn_write(&pgn, &text) > 0);
    const char *movetext = text ? strstr(text, "\n\n") : NULL;
    CHECK_EQ_STR(movetext ? movetext + 2 : "",
                 "1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Bc4 $6 Nc6 3. Qh5 Nf6 $4\n"
                 "{ [%eval #1] } (3... g6 4. Qf3) 4. Qxf7# 1-0\n");
    /* Read back: the same moves (annotations are skipped). */
    struct chess_pgn again;
    size_t consumed = 0;
    CHECK_EQ_INT(chess_pgn_read(text, strlen(text), &consumed, &again), 0);
    CHECK_EQ_INT(again.game.ply_count, 7);
    chess_pgn_free(&again);
    free(text);
    chess_pgn_free(&pgn);
}

static void test_read_back(void) {
    struct chess_pgn pgn;
    size_t consumed = 0;
    CHECK_EQ_INT(chess_pgn_read(scholars_mate, strlen(scholars_mate), &consumed, &pgn), 0);
    CHECK_EQ_INT(consumed, strlen(scholars_mate));
    CHECK_EQ_INT(pgn.game.ply_count, 7);
    CHECK_EQ_INT(pgn.result, CHESS_RESULT_WHITE_WINS);
    CHECK_EQ_INT(pgn.game.termination, CHESS_TERM_CHECKMATE);
    CHECK_EQ_STR(chess_pgn_tag(&pgn, "White"), "Alice \"the quick\"");
    CHECK_EQ_STR(chess_pgn_tag(&pgn, "TimeControl"), "180+2");
    CHECK(chess_pgn_tag(&pgn, "Nope") == NULL);
    CHECK_EQ_STR(pgn.comments[1], "[%clk 0:03:00]");
    char *text = NULL;
    CHECK(chess_pgn_write(&pgn, &text) > 0);
    CHECK_EQ_STR(text, scholars_mate);
    free(text);
    chess_pgn_free(&pgn);
}

static void round_trip(struct chess_pgn *pgn) {
    char *first = NULL, *second = NULL;
    CHECK(chess_pgn_write(pgn, &first) > 0);
    struct chess_pgn back;
    size_t consumed;
    CHECK_EQ_INT(chess_pgn_read(first, strlen(first), &consumed, &back), 0);
    CHECK_EQ_INT(back.game.ply_count, pgn->game.ply_count);
    CHECK_EQ_INT(back.game.current.key, pgn->game.current.key);
    CHECK(chess_pgn_write(&back, &second) > 0);
    CHECK_EQ_STR(second, first);
    free(first);
    free(second);
    chess_pgn_free(&back);
}

static void test_round_trip_from_fen(void) {
    struct chess_position start;
    struct chess_pgn pgn;
    CHECK_EQ_INT(chess_fen_parse(&start, "4k3/8/8/8/8/8/4P3/4K3 b - - 5 40"), 0);
    CHECK_EQ_INT(chess_pgn_init(&pgn, &start), 0);
    const char *moves[] = {"Kd7", "e4", "Ke6", "Ke2"};
    for (int i = 0; i < 4; i++) CHECK_EQ_INT(chess_game_play_text(&pgn.game, moves[i], NULL), 0);
    CHECK_EQ_INT(chess_pgn_set_comment(&pgn, 0, "from a study"), 0);
    char *text = NULL;
    CHECK(chess_pgn_write(&pgn, &text) > 0);
    CHECK(strstr(text, "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 5 40\"]\n") != NULL);
    CHECK(strstr(text, "{ from a study } 40... Kd7 41. e4 Ke6 42. Ke2 *\n") != NULL);
    free(text);
    round_trip(&pgn);
    chess_pgn_free(&pgn);

    /* Chess960 with rooks on b and g: castling on both sides. */
    CHECK_EQ_INT(chess_fen_parse(&start, "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1"),
                 0);
    CHECK(start.chess960);
    CHECK_EQ_INT(chess_pgn_init(&pgn, &start), 0);
    const char *moves960[] = {"O-O", "O-O-O", "d4", "d5"};
    for (int i = 0; i < 4; i++) CHECK_EQ_INT(chess_game_play_text(&pgn.game, moves960[i], NULL), 0);
    CHECK_EQ_INT(chess_pgn_write(&pgn, &text) > 0, 1);
    CHECK(strstr(text, "[Variant \"Chess960\"]\n") != NULL);
    free(text);
    round_trip(&pgn);
    chess_pgn_free(&pgn);
}

/* Three-check and King of the Hill: the Variant tag is read (lichess's names and others), the
 * game ends by the variant's rule, and the tag is written back without SetUp for the usual
 * array; a position with checks given keeps them in its FEN. */
static void test_variants(void) {
    static const char three_check[] = "[Variant \"Three-check\"]\n\n"
                                      "1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 4. Bc4+ d5 5. Bxd5+ 1-0\n";
    struct chess_pgn pgn;
    size_t consumed;
    CHECK_EQ_INT(chess_pgn_read(three_check, strlen(three_check), &consumed, &pgn), 0);
    CHECK_EQ_INT(pgn.game.start.variant, CHESS_VARIANT_THREE_CHECK);
    CHECK_EQ_INT(pgn.game.result, CHESS_RESULT_WHITE_WINS);
    CHECK_EQ_INT(pgn.game.termination, CHESS_TERM_THREE_CHECK);
    char *text = NULL;
    CHECK(chess_pgn_write(&pgn, &text) > 0);
    CHECK(text && strstr(text, "[Variant \"Three-check\"]\n") != NULL);
    CHECK(text && strstr(text, "SetUp") == NULL);
    CHECK(text && strstr(strstr(text, "[Variant") + 1, "[Variant") == NULL); /* written once */
    free(text);
    round_trip(&pgn);
    chess_pgn_free(&pgn);

#define HILL_MOVES "1. e4 d5 2. Ke2 dxe4 3. Ke3 Kd7 4. Kxe4 1-0\n"
    static const char hill[] = "[Variant \"kingOfTheHill\"]\n\n" HILL_MOVES;
    CHECK_EQ_INT(chess_pgn_read(hill, strlen(hill), &consumed, &pgn), 0);
    CHECK_EQ_INT(pgn.game.start.variant, CHESS_VARIANT_KING_OF_THE_HILL);
    CHECK_EQ_INT(pgn.game.termination, CHESS_TERM_KING_OF_THE_HILL);
    chess_pgn_free(&pgn);
    /* The same moves as standard chess: the game goes on. */
    CHECK_EQ_INT(chess_pgn_read(HILL_MOVES, strlen(HILL_MOVES), &consumed, &pgn), 0);
    CHECK_EQ_INT(pgn.game.result, CHESS_RESULT_NONE);
    chess_pgn_free(&pgn);

    static const char checked[] = "[Variant \"Three-check\"]\n[SetUp \"1\"]\n"
                                  "[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 +2+0\"]\n\n1. Ra8+ 1-0\n";
    CHECK_EQ_INT(chess_pgn_read(checked, strlen(checked), &consumed, &pgn), 0);
    CHECK_EQ_INT(pgn.game.start.checks[CHESS_WHITE], 2);
    CHECK_EQ_INT(pgn.game.termination, CHESS_TERM_THREE_CHECK);
    CHECK(chess_pgn_write(&pgn, &text) > 0);
    /* Written with the checks remaining, as python-chess writes them (both forms are read). */
    CHECK(text && strstr(text, "[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 1+3 0 1\"]") != NULL);
    free(text);
    chess_pgn_free(&pgn);
}

static const char messy[] = "% an escape line, ignored\n"
                            "[Event \"One\"]\n"
                            "[Result \"*\"]\n"
                            "\n"
                            "1.e4 $1 e5!? 2.Nf3 (2.f4 exf4 (2...d5 3.exd5) 3.Nf3) 2...Nc6 ; rest "
                            "of line (ignored\n"
                            "3.Bb5 {a comment (with parens)} a6 *\n"
                            "\n"
                            "[Event \"Two\"]\n"
                            "1. d4 d5 1/2-1/2\n"
                            "\n"
                            "1. c4 e5 0-1\n";

static void test_read_messy_and_several(void) {
    struct chess_pgn pgn;
    size_t offset = 0, consumed = 0;
    int games = 0;
    const int plies[] = {6, 2, 2};
    const enum chess_result results[] = {CHESS_RESULT_NONE, CHESS_RESULT_DRAW,
                                         CHESS_RESULT_BLACK_WINS};
    for (;;) {
        int rc = chess_pgn_read(messy + offset, strlen(messy) - offset, &consumed, &pgn);
        if (rc == -CHESS_ERR_PGN_EMPTY) break;
        CHECK_EQ_INT(rc, 0);
        if (rc < 0 || games >= 3) break;
        CHECK_EQ_INT(pgn.game.ply_count, plies[games]);
        CHECK_EQ_INT(pgn.result, results[games]);
        if (games == 0) CHECK_EQ_STR(pgn.comments[5], "a comment (with parens)");
        if (games == 1) CHECK_EQ_STR(chess_pgn_tag(&pgn, "Event"), "Two");
        chess_pgn_free(&pgn);
        offset += consumed;
        games++;
    }
    CHECK_EQ_INT(games, 3);
}

static void check_bad(const char *text, int error, size_t offset) {
    struct chess_pgn pgn;
    size_t consumed = 12345;
    int rc = chess_pgn_read(text, strlen(text), &consumed, &pgn);
    if (rc != -error) printf("     \"%s\" gave %s\n", text, chess_error_name(rc));
    CHECK_EQ_INT(rc, -error);
    CHECK_EQ_INT(consumed, offset);
}

static void test_errors(void) {
    check_bad("", CHESS_ERR_PGN_EMPTY, 0);
    check_bad("  \n\n ", CHESS_ERR_PGN_EMPTY, 5);
    check_bad("1. e4 e5 2. Ke3 *", CHESS_ERR_MOVE_ILLEGAL, 12);
    check_bad("1. e4 e5 2. Zz9 *", CHESS_ERR_MOVE_SYNTAX, 12);
    check_bad("1. e4 {never closed", CHESS_ERR_PGN_SYNTAX, 6);
    check_bad("1. e4 (e3 *", CHESS_ERR_PGN_SYNTAX, 6);
    check_bad("1. e4 ) *", CHESS_ERR_PGN_SYNTAX, 6);
    check_bad("[Event \"unterminated]\n1. e4 *", CHESS_ERR_PGN_SYNTAX, 0);
    check_bad("[Event]\n1. e4 *", CHESS_ERR_PGN_SYNTAX, 0);
    check_bad("[ \"x\"]\n1. e4 *", CHESS_ERR_PGN_SYNTAX, 0);
    check_bad("[Event \"x\"\n1. e4 *", CHESS_ERR_PGN_SYNTAX, 0);
    check_bad("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4 *", CHESS_ERR_FEN_KINGS, 34);
    check_bad("1. e4 123 *", CHESS_ERR_PGN_SYNTAX, 6);
    check_bad("1. e4 e5 Qh4#Qh5 *", CHESS_ERR_MOVE_SYNTAX, 9);
}

int main(void) {
    RUN(test_write_exact);
    RUN(test_annotations);
    RUN(test_read_back);
    RUN(test_round_trip_from_fen);
    RUN(test_variants);
    RUN(test_read_messy_and_several);
    RUN(test_errors);
    return check_finish();
}
