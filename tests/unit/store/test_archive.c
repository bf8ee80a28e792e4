/*
 * Tests of the archive's formats: PGN of a stored game (standard tags, names, ratings, %clk
 * comments, the stored result), the FEN after any ply, and importing PGN text (which must
 * read back to the same moves).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "store/archive.h"
#include "store/store.h"

static struct store_move_row moves[] = {
    {1, "e2e4", "e4", true, 300000, 0, 0},     {2, "e7e5", "e5", true, 300000, 0, 0},
    {3, "g1f3", "Nf3", true, 295400, 6600, 0}, {4, "b8c6", "Nc6", true, 3599000, 0, 0},
    {5, "f1b5", "Bb5", true, 290000, 7400, 0},
};

static struct store_game sample(void) {
    struct store_game g = {.id = "abcd1234",
                           .status = "ended",
                           .player_id = {"pa", "pb"},
                           .name = {"alice", "Guest12345"},
                           .initial_ms = 300000,
                           .increment_ms = 2000,
                           .rated = true,
                           .category = RATING_BLITZ,
                           .has_ratings = true,
                           .rating = {1612, 1498},
                           .rating_diff = {-7, 8},
                           .result = "0-1",
                           .termination = "resignation",
                           .created_at = 1700000000000LL,
                           .ply_count = 5,
                           .moves = moves};
    return g;
}

static void test_pgn_export(void) {
    struct store_game g = sample();
    char *text = NULL;
    long n = store_game_pgn(&g, "http://localhost:8080", NULL, &text);
    CHECK(n > 0 && text != NULL);
    if (!text) return;
    CHECK(strstr(text, "[Event \"Rated Blitz game\"]") != NULL);
    CHECK(strstr(text, "[Site \"http://localhost:8080\"]") != NULL);
    CHECK(strstr(text, "[Date \"2023.11.14\"]") != NULL);
    CHECK(strstr(text, "[White \"alice\"]") != NULL);
    CHECK(strstr(text, "[Black \"Guest12345\"]") != NULL);
    CHECK(strstr(text, "[Result \"0-1\"]") != NULL);
    CHECK(strstr(text, "[WhiteElo \"1612\"]") != NULL);
    CHECK(strstr(text, "[BlackRatingDiff \"+8\"]") != NULL);
    CHECK(strstr(text, "[WhiteRatingDiff \"-7\"]") != NULL);
    CHECK(strstr(text, "[TimeControl \"300+2\"]") != NULL);
    CHECK(strstr(text, "[Termination \"Normal\"]") != NULL);
    CHECK(strstr(text, "[UTCTime \"22:13:20\"]") != NULL);
    CHECK(strstr(text,
                 "1. e4 { [%clk 0:05:00] } 1... e5 { [%clk 0:05:00] } 2. Nf3 { [%clk 0:04:56] }") !=
          NULL);
    CHECK(strstr(text, "Nc6 { [%clk 0:59:59] }") != NULL);
    CHECK(strstr(text, "0-1") != NULL);
    /* It reads back as the same game. */
    struct store_op op;
    char err[128];
    CHECK_EQ_INT(store_import_pgn(text, (size_t)n, "imp00001", 5, &op, err, sizeof err), 0);
    CHECK_EQ_INT(op.u.import.count, 5);
    CHECK_EQ_STR(op.u.import.moves[4].san, "Bb5");
    CHECK_EQ_STR(op.u.import.moves[4].uci, "f1b5");
    CHECK_EQ_STR(op.u.import.white, "alice");
    CHECK_EQ_STR(op.u.import.result, "0-1");
    CHECK_EQ_STR(op.u.import.initial_fen, "");
    CHECK_EQ_STR(op.game_id, "imp00001");
    free(op.u.import.moves);
    free(op.u.import.pgn);
    free(text);
    /* A live, casual, untimed game: no ratings, no clocks, "*". */
    g.status[0] = '\0';
    strcpy(g.status, "live");
    g.result[0] = '\0';
    g.rated = g.has_ratings = false;
    g.unlimited = true;
    g.category = RATING_NONE;
    n = store_game_pgn(&g, "s", NULL, &text);
    CHECK(n > 0 && text);
    if (!text) return;
    CHECK(strstr(text, "[Event \"Casual Correspondence game\"]") != NULL);
    CHECK(strstr(text, "[Result \"*\"]") != NULL);
    CHECK(strstr(text, "[ECO ") == NULL); /* no opening given: no tags */
    free(text);
    /* With its opening (looked up by the caller): lichess's two tags. */
    struct opening spanish = {"C60", "Spanish (Ruy Lopez)", 5};
    n = store_game_pgn(&g, "s", &spanish, &text);
    CHECK(n > 0 && text);
    if (!text) return;
    CHECK(strstr(text, "[ECO \"C60\"]") != NULL);
    CHECK(strstr(text, "[Opening \"Spanish (Ruy Lopez)\"]") != NULL);
    CHECK(strstr(text, "%clk") == NULL);
    CHECK(strstr(text, "Elo") == NULL);
    CHECK(strstr(text, "[TimeControl \"-\"]") != NULL);
    free(text);
}

static void test_fen_at(void) {
    struct store_game g = sample();
    char fen[STORE_FEN_MAX + 1];
    CHECK_EQ_INT(store_game_fen(&g, 0, fen), 0);
    CHECK_EQ_STR(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    CHECK_EQ_INT(store_game_fen(&g, 3, fen), 0);
    CHECK_EQ_STR(fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    CHECK_EQ_INT(store_game_fen(&g, 6, fen), -STORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(store_game_fen(&g, -1, fen), -STORE_ERR_NOT_FOUND);
    struct store_move_row bad[] = {{1, "e2e5", "?", false, 0, 0, 0}};
    g.moves = bad;
    g.ply_count = 1;
    CHECK_EQ_INT(store_game_fen(&g, 1, fen), -STORE_ERR_CORRUPT);
    char *text = NULL;
    CHECK_EQ_INT(store_game_pgn(&g, "s", NULL, &text), -STORE_ERR_CORRUPT);
}

static void test_import(void) {
    const char *text = "[Event \"Casual\"]\n[White \"Morphy\"]\n[Black \"Duke\"]\n"
                       "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 {a comment} 1-0\n\n"
                       "[Event \"Second\"]\n\n1. d4 *\n";
    struct store_op op;
    char err[128];
    CHECK_EQ_INT(store_import_pgn(text, strlen(text), "x", 7, &op, err, sizeof err), 0);
    CHECK_EQ_INT(op.type, STORE_OP_IMPORT);
    CHECK_EQ_INT(op.u.import.count, 6);
    CHECK_EQ_STR(op.u.import.black, "Duke");
    CHECK_EQ_STR(op.u.import.moves[5].san, "Bg4");
    CHECK_EQ_STR(op.u.import.result, "1-0");
    CHECK(strstr(op.u.import.pgn, "Second") == NULL); /* only the first game */
    free(op.u.import.moves);
    free(op.u.import.pgn);
    /* From a position, without names. */
    const char *fen_game = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 *";
    CHECK_EQ_INT(store_import_pgn(fen_game, strlen(fen_game), "y", 7, &op, err, sizeof err), 0);
    CHECK_EQ_STR(op.u.import.white, "?");
    CHECK_EQ_STR(op.u.import.initial_fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    CHECK_EQ_STR(op.u.import.result, "*");
    free(op.u.import.moves);
    free(op.u.import.pgn);
    /* Long names are cut between UTF-8 characters (Å is 2 bytes: 1 + 2 * 12 > 24), control
     * characters become spaces, as the export writes them (fuzz_import). */
    const char *names =
        "[White \"a\xc3\x85\xc3\x85\xc3\x85\xc3\x85\xc3\x85\xc3\x85\xc3\x85"
        "\xc3\x85\xc3\x85\xc3\x85\xc3\x85\xc3\x85\"]\n[Black \"B\x1b\tC\"]\n\n1. e4 *";
    CHECK_EQ_INT(store_import_pgn(names, strlen(names), "n", 7, &op, err, sizeof err), 0);
    CHECK_EQ_STR(op.u.import.white, "a\xc3\x85\xc3\x85\xc3\x85\xc3\x85\xc3\x85\xc3\x85\xc3\x85"
                                    "\xc3\x85\xc3\x85\xc3\x85\xc3\x85");
    CHECK_EQ_STR(op.u.import.black, "B  C");
    store_op_release(&op);
    /* Not UTF-8 (no JSON string carries it): never an empty name. */
    char bytes[] = "[White \"\x8a\x8a\x8a\x8a\x8a\x8a\x8a\x8a\x8a\x8a\x8a\x8a\x8a\x8a\x8a\x8a\x8a"
                   "\x8a\x8a\x8a\x8a\x8a\x8a\x8a\x8a\x8a\"]\n\n1. e4 *";
    CHECK_EQ_INT(store_import_pgn(bytes, strlen(bytes), "n", 7, &op, err, sizeof err), 0);
    CHECK_EQ_STR(op.u.import.white, "?");
    store_op_release(&op);
    /* Illegal moves and garbage are refused with a reason. */
    const char *illegal = "1. e4 e5 2. Ke3 *";
    CHECK_EQ_INT(store_import_pgn(illegal, strlen(illegal), "z", 7, &op, err, sizeof err), -1);
    CHECK(err[0] != '\0');
    CHECK_EQ_INT(store_import_pgn("", 0, "z", 7, &op, err, sizeof err), -1);
}

int main(void) {
    RUN(test_pgn_export);
    RUN(test_fen_at);
    RUN(test_import);
    return check_finish();
}
