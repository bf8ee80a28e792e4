/*
 * Variant tests: names, three-check's FEN forms (python-chess's checks remaining and lichess's
 * checks given) and their errors, the checks in the position and its key, and the games' endings
 * by a king on the centre and by a third check, with takebacks and the rules that change; the
 * search takes a win by the variant's rule in one move and does not allow one in reply.
 */
#include <chess/fen.h>
#include <chess/game.h>
#include <chess/movegen.h>
#include <chess/search.h>
#include <chess/tt.h>
#include <string.h>

#include "check.h"
#include "eval_internal.h"

static void test_names(void) {
    for (int v = 0; v < CHESS_VARIANT_COUNT; v++) {
        CHECK_EQ_INT(chess_variant_from_name(chess_variant_name(v)), v);
    }
    CHECK_EQ_STR(chess_variant_name(CHESS_VARIANT_KING_OF_THE_HILL), "kingOfTheHill");
    CHECK_EQ_STR(chess_variant_name(CHESS_VARIANT_THREE_CHECK), "threeCheck");
    CHECK_EQ_STR(chess_variant_name(CHESS_VARIANT_COUNT), "unknown");
    CHECK_EQ_INT(chess_variant_from_name("threecheck"), -1);
    CHECK_EQ_INT(chess_variant_from_name(NULL), -1);
    CHECK_EQ_STR(chess_termination_name(CHESS_TERM_KING_OF_THE_HILL), "king_of_the_hill");
    CHECK_EQ_STR(chess_termination_name(CHESS_TERM_THREE_CHECK), "three_check");
    CHECK_EQ_STR(chess_error_name(-CHESS_ERR_FEN_CHECKS), "FEN_CHECKS");
}

static void test_three_check_fen(void) {
    struct chess_position pos, lichess, plain;
    char out[CHESS_FEN_MAX];
    const char *fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+1 0 1";
    CHECK_EQ_INT(chess_fen_parse_variant(&pos, fen, CHESS_VARIANT_THREE_CHECK), 0);
    CHECK_EQ_INT(pos.variant, CHESS_VARIANT_THREE_CHECK);
    CHECK_EQ_INT(pos.checks[CHESS_WHITE], 1);
    CHECK_EQ_INT(pos.checks[CHESS_BLACK], 2);
    CHECK(chess_fen_write(&pos, CHESS_FEN_XFEN, out, sizeof out) > 0);
    CHECK_EQ_STR(out, fen);
    CHECK_EQ_INT(pos.key, chess_position_compute_key(&pos));
    /* lichess's form gives the checks given, after the clocks. */
    CHECK_EQ_INT(chess_fen_parse_variant(&lichess,
                                         "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 "
                                         "+1+2",
                                         CHESS_VARIANT_THREE_CHECK),
                 0);
    CHECK_EQ_INT(lichess.key, pos.key);
    CHECK_EQ_INT(lichess.checks[CHESS_BLACK], 2);
    /* No field: no checks given. Each variant's key differs from the others' for one placement,
     * and set_variant() moves a standard position's key to the variant's. */
    CHECK_EQ_INT(chess_fen_parse_variant(&pos, CHESS_FEN_STARTPOS, CHESS_VARIANT_THREE_CHECK), 0);
    CHECK_EQ_INT(chess_fen_parse(&plain, CHESS_FEN_STARTPOS), 0);
    CHECK(pos.key != plain.key);
    CHECK(pos.key != lichess.key);
    struct chess_position hill = plain;
    CHECK_EQ_INT(chess_position_set_variant(&hill, CHESS_VARIANT_KING_OF_THE_HILL), 0);
    CHECK(hill.key != plain.key && hill.key != pos.key);
    CHECK_EQ_INT(hill.key, chess_position_compute_key(&hill));
    CHECK_EQ_INT(chess_position_set_variant(&hill, CHESS_VARIANT_THREE_CHECK), 0);
    CHECK_EQ_INT(hill.key, pos.key);
    CHECK_EQ_INT(chess_position_set_variant(&hill, CHESS_VARIANT_STANDARD), 0);
    CHECK_EQ_INT(hill.key, plain.key);
    CHECK(chess_fen_write(&pos, CHESS_FEN_XFEN, out, sizeof out) > 0);
    CHECK_EQ_STR(out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1");
    CHECK_EQ_INT(chess_position_set_variant(&pos, CHESS_VARIANT_COUNT), -CHESS_ERR_FEN_FIELDS);
    CHECK_EQ_INT(chess_position_set_variant(&pos, CHESS_VARIANT_STANDARD), 0);
    CHECK(chess_fen_write(&pos, CHESS_FEN_XFEN, out, sizeof out) > 0);
    CHECK_EQ_STR(out, CHESS_FEN_STARTPOS);
}

static void test_fen_errors(void) {
    static const struct {
        const char *fen;
        int variant, error;
    } cases[] = {
        {"4k3/8/8/8/8/8/8/4K3 w - - 4+3 0 1", CHESS_VARIANT_THREE_CHECK, CHESS_ERR_FEN_CHECKS},
        {"4k3/8/8/8/8/8/8/4K3 w - - 3+ 0 1", CHESS_VARIANT_THREE_CHECK, CHESS_ERR_FEN_CHECKS},
        {"4k3/8/8/8/8/8/8/4K3 w - - a+b 0 1", CHESS_VARIANT_THREE_CHECK, CHESS_ERR_FEN_CHECKS},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 +1+x", CHESS_VARIANT_THREE_CHECK, CHESS_ERR_FEN_CHECKS},
        {"4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1 +0+0", CHESS_VARIANT_THREE_CHECK, CHESS_ERR_FEN_FIELDS},
        /* Other variants have no checks field. */
        {"4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1", CHESS_VARIANT_KING_OF_THE_HILL, CHESS_ERR_FEN_FIELDS},
        {"4k3/8/8/8/8/8/8/4K3 w - - 3+3 0", CHESS_VARIANT_STANDARD, CHESS_ERR_FEN_CLOCKS},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_VARIANT_COUNT, CHESS_ERR_FEN_FIELDS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct chess_position pos;
        chess_position_startpos(&pos);
        uint64_t key = pos.key;
        int rc = chess_fen_parse_variant(&pos, cases[i].fen, cases[i].variant);
        if (rc != -cases[i].error) printf("     %s\n", cases[i].fen);
        CHECK_EQ_INT(rc, -cases[i].error);
        CHECK_EQ_INT(pos.key, key);
    }
}

static void test_checks_counted_in_key(void) {
    struct chess_position pos, before;
    CHECK_EQ_INT(
        chess_fen_parse_variant(&pos, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", CHESS_VARIANT_THREE_CHECK),
        0);
    /* Ra8+ Kd7 Ra1 Ke8: the placement comes back with a check given. */
    static const char *const moves[] = {"a1a8", "e8d7", "a8a1", "d7e8"};
    before = pos;
    for (int i = 0; i < 4; i++) {
        struct chess_move_list list;
        chess_generate_moves(&pos, CHESS_GEN_ALL, &list);
        chess_move m = CHESS_MOVE_NONE;
        for (int j = 0; j < list.count; j++) {
            char uci[CHESS_UCI_MAX];
            chess_move_to_uci(&pos, list.moves[j], uci);
            if (strcmp(uci, moves[i]) == 0) m = list.moves[j];
        }
        CHECK(m != CHESS_MOVE_NONE);
        chess_position_make_move(&pos, m);
        CHECK_EQ_INT(pos.key, chess_position_compute_key(&pos));
    }
    CHECK_EQ_INT(pos.checks[CHESS_WHITE], 1);
    CHECK_EQ_INT(pos.checks[CHESS_BLACK], 0);
    CHECK(pos.key != before.key);
    /* The same placement, rights and side with the checks as counted, and with none. */
    struct chess_position same;
    CHECK_EQ_INT(chess_fen_parse_variant(&same, "4k3/8/8/8/8/8/8/R3K3 w - - 2+3 4 3",
                                         CHESS_VARIANT_THREE_CHECK),
                 0);
    CHECK_EQ_INT(same.key, pos.key);
    CHECK_EQ_INT(chess_fen_parse_variant(&same, "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 4 3",
                                         CHESS_VARIANT_THREE_CHECK),
                 0);
    CHECK(same.key != pos.key);
}

static void start_from(struct chess_game *game, const char *fen, int variant) {
    struct chess_position pos;
    CHECK_EQ_INT(chess_fen_parse_variant(&pos, fen, variant), 0);
    CHECK_EQ_INT(chess_game_init(game, &pos), 0);
}

static void test_king_of_the_hill_game(void) {
    struct chess_game game;
    start_from(&game, "8/8/3k4/8/8/3K4/8/8 w - - 0 1", CHESS_VARIANT_KING_OF_THE_HILL);
    /* Bare kings are no draw: they can walk to the centre. */
    CHECK_EQ_INT(game.result, CHESS_RESULT_NONE);
    CHECK_EQ_INT(chess_game_play_text(&game, "Kc4", NULL), 0);
    CHECK_EQ_INT(game.result, CHESS_RESULT_NONE);
    struct chess_move_record record;
    CHECK_EQ_INT(chess_game_play_record(&game, "Ke5", &record), 0);
    CHECK_EQ_STR(record.san, "Ke5");
    CHECK_EQ_INT(game.result, CHESS_RESULT_BLACK_WINS);
    CHECK_EQ_INT(game.termination, CHESS_TERM_KING_OF_THE_HILL);
    CHECK_EQ_INT(game.legal.count, 0);
    CHECK_EQ_INT(chess_game_play_text(&game, "Kb4", NULL), -CHESS_ERR_GAME_OVER);
    CHECK_EQ_INT(chess_game_undo(&game), 0);
    CHECK_EQ_INT(game.result, CHESS_RESULT_NONE);
    CHECK_EQ_INT(game.legal.count, 6);
    chess_game_free(&game);

    /* The same moves in standard chess end nothing. */
    start_from(&game, "8/8/3k4/8/8/3K4/8/8 w - - 0 1", CHESS_VARIANT_STANDARD);
    CHECK_EQ_INT(game.result, CHESS_RESULT_NONE);
    chess_game_free(&game);
}

static void test_three_check_game(void) {
    struct chess_game game;
    start_from(&game, "4k3/8/8/8/8/8/8/R3K3 w Q - 2+3 0 1", CHESS_VARIANT_THREE_CHECK);
    struct chess_move_record record;
    CHECK_EQ_INT(chess_game_play_record(&game, "Ra8", &record), 0);
    CHECK_EQ_STR(record.san, "Ra8+");
    CHECK_EQ_INT(game.result, CHESS_RESULT_NONE);
    CHECK_EQ_INT(chess_game_play_text(&game, "Kd7", NULL), 0);
    CHECK_EQ_INT(chess_game_play_record(&game, "Ra7", &record), 0);
    /* The third check: a check, not a mate, though no move follows. */
    CHECK_EQ_STR(record.san, "Ra7+");
    CHECK_EQ_INT(game.result, CHESS_RESULT_WHITE_WINS);
    CHECK_EQ_INT(game.termination, CHESS_TERM_THREE_CHECK);
    CHECK_EQ_INT(game.legal.count, 0);
    char fen[CHESS_FEN_MAX];
    CHECK(chess_fen_write(&game.current, CHESS_FEN_XFEN, fen, sizeof fen) > 0);
    CHECK_EQ_STR(fen, "8/R2k4/8/8/8/8/8/4K3 b - - 0+3 3 2");
    chess_game_free(&game);

    /* A bare king each is a draw; a king and a knight can still check. */
    start_from(&game, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", CHESS_VARIANT_THREE_CHECK);
    CHECK_EQ_INT(chess_game_play_text(&game, "Ke2", NULL), 0);
    CHECK_EQ_INT(game.result, CHESS_RESULT_NONE);
    chess_game_free(&game);
    start_from(&game, "4k3/8/8/8/8/8/8/4K1n1 w - - 0 1", CHESS_VARIANT_THREE_CHECK);
    CHECK_EQ_INT(chess_game_play_text(&game, "Kf2", NULL), 0);
    CHECK_EQ_INT(chess_game_play_text(&game, "Kd7", NULL), 0);
    CHECK_EQ_INT(chess_game_play_text(&game, "Kxg1", NULL), 0);
    CHECK_EQ_INT(game.result, CHESS_RESULT_DRAW);
    CHECK_EQ_INT(game.termination, CHESS_TERM_INSUFFICIENT_MATERIAL);
    chess_game_free(&game);
}

/* Searches the position of a variant's FEN to a depth with a fresh table. */
static struct chess_search_result search_variant(const char *fen, int variant, int depth,
                                                 struct chess_position *pos) {
    struct chess_search_result res = {0};
    if (!CHECK(chess_fen_parse_variant(pos, fen, variant) == 0)) return res;
    struct chess_tt *tt = chess_tt_create(4u << 20);
    if (!CHECK(tt != NULL)) return res;
    struct chess_search_request req;
    chess_search_request_init(&req, pos);
    req.limits.depth = depth;
    CHECK_EQ_INT(chess_search(&req, tt, &res), 0);
    chess_tt_destroy(tt);
    return res;
}

static void expect_win_in_one(const char *fen, int variant, const char *uci) {
    struct chess_position pos;
    struct chess_search_result res = search_variant(fen, variant, 6, &pos);
    CHECK_EQ_INT(res.score, CHESS_MATE - 1);
    if (uci) {
        char text[CHESS_UCI_MAX];
        chess_move_to_uci(&pos, res.best, text);
        CHECK_EQ_STR(text, uci);
    }
    struct chess_position next = pos;
    chess_position_make_move(&next, res.best);
    CHECK_EQ_INT(chess_position_variant_winner(&next), pos.side);
}

static void test_search_wins_in_one(void) {
    /* King to the centre rather than taking the queen (which standard chess would do). */
    expect_win_in_one("4k3/8/8/8/8/1qK5/8/8 w - - 0 1", CHESS_VARIANT_KING_OF_THE_HILL, "c3d4");
    /* Any check is the third: rather than taking the queen. */
    expect_win_in_one("4k3/8/8/8/3q4/8/3R4/4K2R w K - 1+3 0 1", CHESS_VARIANT_THREE_CHECK, NULL);
}

/* After the search's move, the opponent has no move that ends the game by the variant's rule. */
static void expect_defence(const char *fen, int variant) {
    struct chess_position pos;
    struct chess_search_result res = search_variant(fen, variant, 6, &pos);
    CHECK(res.score > -CHESS_MATE_BOUND);
    if (!CHECK(chess_position_is_legal(&pos, res.best))) return;
    struct chess_position next = pos;
    chess_position_make_move(&next, res.best);
    struct chess_move_list replies;
    chess_generate_moves(&next, CHESS_GEN_ALL, &replies);
    CHECK(replies.count > 0);
    for (int i = 0; i < replies.count; i++) {
        struct chess_position after = next;
        chess_position_make_move(&after, replies.moves[i]);
        CHECK_EQ_INT(chess_position_variant_winner(&after), -1);
    }
}

static void test_search_defends(void) {
    /* Only Rd8 and Ra4 keep the white king off d4 (python-chess: 2 of 15 moves). */
    expect_defence("r3k3/8/8/8/8/2K5/8/8 b - - 0 1", CHESS_VARIANT_KING_OF_THE_HILL);
    /* White has a check left: only Kf8 leaves no check (python-chess: 1 of 8 moves). */
    expect_defence("3rk3/3ppp2/8/7B/8/8/8/4K3 b - - 1+3 0 1", CHESS_VARIANT_THREE_CHECK);
}

static int variant_term(const char *fen, int variant) {
    struct chess_position pos;
    CHECK_EQ_INT(chess_fen_parse_variant(&pos, fen, variant), 0);
    return eval_variant(&pos);
}

static void test_evaluation_terms(void) {
    const char *hill = "7k/8/8/8/8/3K4/8/8 w - - 0 1";
    CHECK_EQ_INT(variant_term(hill, CHESS_VARIANT_STANDARD), 0);
    CHECK_EQ_INT(variant_term(hill, CHESS_VARIANT_THREE_CHECK), 0);
    /* One step from the centre against three (h8): 220 - 35, halved against a queen. */
    CHECK_EQ_INT(variant_term(hill, CHESS_VARIANT_KING_OF_THE_HILL), 185);
    CHECK_EQ_INT(variant_term("7k/8/8/8/8/3K4/8/8 b - - 0 1", CHESS_VARIANT_KING_OF_THE_HILL),
                 -185);
    CHECK_EQ_INT(variant_term("q6k/8/8/8/8/3K4/8/8 w - - 0 1", CHESS_VARIANT_KING_OF_THE_HILL),
                 110 - 35);
    const char *checks = "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1";
    CHECK_EQ_INT(variant_term(checks, CHESS_VARIANT_THREE_CHECK), 280);
    CHECK_EQ_INT(variant_term("4k3/8/8/8/8/8/8/R3K3 b - - 2+1 0 1", CHESS_VARIANT_THREE_CHECK),
                 280 - 90);
}

int main(void) {
    RUN(test_names);
    RUN(test_three_check_fen);
    RUN(test_fen_errors);
    RUN(test_checks_counted_in_key);
    RUN(test_king_of_the_hill_game);
    RUN(test_three_check_game);
    RUN(test_evaluation_terms);
    RUN(test_search_wins_in_one);
    RUN(test_search_defends);
    return check_finish();
}
