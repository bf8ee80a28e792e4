/* Tests of game starts (core/start.h): variant keys both ways, the checks of a FEN a player
 * gives (legal, not over, rewritten), Chess960 numbers and their arrays, and stored starts read
 * back. */
#include <string.h>

#include "check.h"
#include "chess/fen.h"
#include "core/errors.h"
#include "core/start.h"

static void test_keys(void) {
    for (int v = 0; v < GAME_VARIANT_COUNT; v++) {
        CHECK(game_variant_key((enum game_variant)v) != NULL);
        CHECK_EQ_INT(game_variant_parse(game_variant_key((enum game_variant)v)), v);
    }
    CHECK_EQ_STR(game_variant_key(GAME_VARIANT_FROM_POSITION), "fromPosition");
    CHECK_EQ_STR(game_variant_name(GAME_VARIANT_THREE_CHECK), "Three-check");
    CHECK_EQ_INT(game_variant_parse("Chess960"), -1); /* keys are case-sensitive, as lichess's */
    CHECK_EQ_INT(game_variant_parse(""), -1);
    CHECK_EQ_INT(game_variant_parse(NULL), -1);
    CHECK(game_variant_key(GAME_VARIANT_COUNT) == NULL);
}

static void test_from_position(void) {
    struct game_start s = {.variant = GAME_VARIANT_FROM_POSITION};
    /* Rewritten as the engine writes it (extra spaces, clocks left out). */
    strcpy(s.fen, "4k3/8/8/8/8/8/4P3/4K3   w - -");
    CHECK_EQ_INT(game_start_check(&s), 0);
    CHECK_EQ_STR(s.fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    struct chess_position pos;
    CHECK_EQ_INT(game_start_position(&s, &pos), 0);
    CHECK(!pos.chess960 && pos.side == CHESS_WHITE);
    CHECK(game_start_ratable(&s) == false);
    /* Refused: not a position, an illegal one, one already over. */
    const char *bad[] = {"", "hello", "8/8/8/8/8/8/8/8 w - - 0 1",
                         "4k3/8/8/8/8/8/8/4K3 w K - 0 1" /* a castling right without its rook */};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        strcpy(s.fen, bad[i]);
        CHECK_EQ_INT(game_start_check(&s), -CORE_ERR_BAD_POSITION);
    }
    strcpy(s.fen, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"); /* stalemate */
    CHECK_EQ_INT(game_start_check(&s), -CORE_ERR_POSITION_OVER);
    strcpy(s.fen, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"); /* checkmate */
    CHECK_EQ_INT(game_start_check(&s), -CORE_ERR_POSITION_OVER);
    strcpy(s.fen, "7k/8/6K1/8/8/8/8/8 w - - 0 1"); /* bare kings */
    CHECK_EQ_INT(game_start_check(&s), -CORE_ERR_POSITION_OVER);
}

static void test_chess960(void) {
    struct game_start s = {.variant = GAME_VARIANT_CHESS960, .chess960 = 0};
    CHECK_EQ_INT(game_start_check(&s), 0);
    struct chess_position pos;
    CHECK_EQ_INT(game_start_position(&s, &pos), 0);
    char fen[CHESS_FEN_MAX];
    CHECK(chess_fen_write(&pos, CHESS_FEN_XFEN, fen, sizeof fen) >= 0);
    CHECK_EQ_STR(fen, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    CHECK(pos.chess960);
    /* Read back from the stored FEN: the same number. */
    struct game_start back;
    CHECK_EQ_INT(game_start_restore("chess960", fen, &back), 0);
    CHECK_EQ_INT(back.variant, GAME_VARIANT_CHESS960);
    CHECK_EQ_INT(back.chess960, 0);
    /* 518 is the usual array, stored as "" or as its FEN. */
    CHECK_EQ_INT(game_start_restore("chess960", "", &back), 0);
    CHECK_EQ_INT(back.chess960, GAME_CHESS960_STANDARD);
    CHECK_EQ_INT(game_start_restore("chess960", CHESS_FEN_STARTPOS, &back), 0);
    CHECK_EQ_INT(back.chess960, GAME_CHESS960_STANDARD);
    s.chess960 = 960;
    CHECK_EQ_INT(game_start_check(&s), -CORE_ERR_BAD_POSITION);
    s.chess960 = -2;
    CHECK_EQ_INT(game_start_check(&s), -CORE_ERR_BAD_POSITION);
    CHECK_EQ_INT(game_start_restore("chess960", "not a start", &back), -CORE_ERR_BAD_POSITION);
}

static void test_variants_rules(void) {
    struct chess_position pos;
    struct game_start s = {.variant = GAME_VARIANT_THREE_CHECK};
    CHECK_EQ_INT(game_start_position(&s, &pos), 0);
    CHECK_EQ_INT(pos.variant, CHESS_VARIANT_THREE_CHECK);
    s.variant = GAME_VARIANT_KING_OF_THE_HILL;
    CHECK_EQ_INT(game_start_position(&s, &pos), 0);
    CHECK_EQ_INT(pos.variant, CHESS_VARIANT_KING_OF_THE_HILL);
    s = game_start_standard();
    CHECK_EQ_INT(game_start_position(&s, &pos), 0);
    CHECK(pos.variant == CHESS_VARIANT_STANDARD && !pos.chess960);
    CHECK(game_start_ratable(&s));
    /* Stored games: no variant (older rows) is standard; a standard game with a FEN (an
     * import) is fromPosition; an unknown key is refused. */
    struct game_start back;
    CHECK_EQ_INT(game_start_restore("", "", &back), 0);
    CHECK_EQ_INT(back.variant, GAME_VARIANT_STANDARD);
    CHECK_EQ_INT(game_start_restore("standard", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", &back), 0);
    CHECK_EQ_INT(back.variant, GAME_VARIANT_FROM_POSITION);
    CHECK_EQ_INT(game_start_restore("crazyhouse", "", &back), -CORE_ERR_BAD_POSITION);
    CHECK_EQ_INT(game_start_restore("kingOfTheHill", "", &back), 0);
    CHECK_EQ_INT(back.variant, GAME_VARIANT_KING_OF_THE_HILL);
    /* An imported Three-check game from a position with checks given keeps them. */
    CHECK_EQ_INT(game_start_restore("threeCheck", "4k3/8/8/8/8/8/8/R3K3 w Q - 1+3 0 1", &back), 0);
    CHECK_EQ_INT(back.variant, GAME_VARIANT_THREE_CHECK);
    CHECK_EQ_INT(game_start_position(&back, &pos), 0);
    CHECK(pos.variant == CHESS_VARIANT_THREE_CHECK && pos.checks[CHESS_WHITE] == 2);
    CHECK_EQ_INT(game_start_restore("threeCheck", "not a position", &back), -CORE_ERR_BAD_POSITION);
}

int main(void) {
    RUN(test_keys);
    RUN(test_from_position);
    RUN(test_chess960);
    RUN(test_variants_rules);
    return check_finish();
}
