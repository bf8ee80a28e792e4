/*
 * Tests of the per-game state machine: turns, clocks starting with Black's first move, the
 * first-move timeout, flags (and a flag against bare material), offers, takebacks, abort, claims.
 */
#include "check.h"
#include "chess/fen.h"
#include "core/errors.h"
#include "core/game.h"

static const struct time_control blitz = {.initial_ms = 60000, .increment_ms = 1000};

static void setup(struct game *g, const struct time_control *tc) {
    CHECK_EQ_INT(game_init(g, "g1", NULL, NULL, tc, NULL, 100, 30000, 0, 1700000000000), 0);
}

static int play(struct game *g, const char *moves[], int n, int64_t *now) {
    struct game_move_info info;
    for (int i = 0; i < n; i++) {
        int rc = game_move(g, game_turn(g), moves[i], -1, NULL, *now, 0, &info);
        if (rc < 0) return rc;
        *now += 1000;
    }
    return 0;
}

static void test_turns_and_errors(void) {
    struct game g;
    setup(&g, &blitz);
    struct game_move_info info;
    CHECK_EQ_INT(game_move(&g, CHESS_BLACK, "e7e5", -1, NULL, 0, 0, &info),
                 -CORE_ERR_NOT_YOUR_TURN);
    CHECK_EQ_INT(game_move(&g, CHESS_WHITE, "e2e5", -1, NULL, 0, 0, &info), -CORE_ERR_ILLEGAL_MOVE);
    CHECK_EQ_INT(game_move(&g, CHESS_WHITE, "hello", -1, NULL, 0, 0, &info), -CORE_ERR_MOVE_SYNTAX);
    CHECK_EQ_INT(game_move(&g, CHESS_WHITE, "e4", 3, NULL, 0, 0, &info), -CORE_ERR_STALE_PLY);
    CHECK_EQ_INT(game_move(&g, CHESS_WHITE, "e4", 0, NULL, 0, 0, &info), 0);
    CHECK_EQ_STR(info.uci, "e2e4");
    CHECK_EQ_STR(info.san, "e4");
    CHECK_EQ_INT(info.ply, 1);
    CHECK_EQ_INT(game_move(&g, CHESS_BLACK, "g8f6", -1, NULL, 0, 0, &info), 0);
    CHECK_EQ_STR(info.san, "Nf6");
    CHECK_EQ_INT(game_ply(&g), 2);
    game_free(&g);
}

static void test_clock_starts_at_black_first_move(void) {
    struct game g;
    setup(&g, &blitz);
    struct game_move_info info;
    CHECK_EQ_INT(game_deadline(&g), 30000); /* first-move timer */
    CHECK_EQ_INT(game_move(&g, CHESS_WHITE, "e4", -1, NULL, 5000, 0, &info), 0);
    CHECK_EQ_INT(info.clock_ms[0], 60000); /* not charged */
    CHECK_EQ_INT(game_deadline(&g), 35000);
    CHECK_EQ_INT(game_move(&g, CHESS_BLACK, "e5", -1, NULL, 9000, 0, &info), 0);
    CHECK_EQ_INT(info.clock_ms[1], 60000);
    CHECK_EQ_INT(g.clock.running, CHESS_WHITE);
    /* 1+1 (estimated 100 s): the quota forgives up to 500 ms a move (core/gclock.h). */
    CHECK_EQ_INT(game_deadline(&g), 9000 + 60000 + 500);
    CHECK_EQ_INT(game_move(&g, CHESS_WHITE, "Nf3", -1, NULL, 12000, 0, &info), 0);
    /* 3000 elapsed - 100 assumed lag + 1000 increment. */
    CHECK_EQ_INT(info.clock_ms[0], 60000 - 2900 + 1000);
    CHECK_EQ_INT(g.clock_after[2], 58100);
    /* Black reports 40 ms of lag: that is what is forgiven. */
    struct gclock_report lag40 = {.lag_ms = 40};
    CHECK_EQ_INT(game_move(&g, CHESS_BLACK, "Nc6", -1, &lag40, 14000, 0, &info), 0);
    CHECK_EQ_INT(info.clock_ms[1], 60000 - 1960 + 1000);
    game_free(&g);
}

static void test_first_move_timeout(void) {
    struct game g;
    setup(&g, &blitz);
    CHECK(!game_on_deadline(&g, 29999, 0));
    CHECK(game_on_deadline(&g, 30000, 0));
    CHECK(g.ended);
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_ABORTED);
    CHECK_EQ_INT(g.chess.result, CHESS_RESULT_NONE);
    game_free(&g);
}

static void test_flag(void) {
    struct game g;
    setup(&g, &blitz);
    int64_t now = 0;
    const char *moves[] = {"e4", "e5"};
    CHECK_EQ_INT(play(&g, moves, 2, &now), 0);
    int64_t deadline = game_deadline(&g);
    CHECK(!game_on_deadline(&g, deadline - 1, 0));
    CHECK(game_on_deadline(&g, deadline, 0));
    CHECK_EQ_INT(g.chess.result, CHESS_RESULT_BLACK_WINS);
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_TIMEOUT);
    CHECK_EQ_INT(gclock_remaining(&g.clock, CHESS_WHITE, deadline), 0);
    game_free(&g);
}

static void test_flag_against_bare_king(void) {
    struct game g;
    setup(&g, &blitz);
    /* White: king and pawn; Black: king only. If White flags, Black cannot mate: a draw. */
    struct chess_position pos;
    CHECK_EQ_INT(chess_fen_parse(&pos, "8/8/4k3/8/8/4K3/4P3/8 w - - 0 40"), 0);
    chess_game_free(&g.chess);
    CHECK_EQ_INT(chess_game_init(&g.chess, &pos), 0);
    int64_t now = 0;
    const char *moves[] = {"Kd3", "Kd5"};
    CHECK_EQ_INT(play(&g, moves, 2, &now), 0);
    CHECK(game_on_deadline(&g, game_deadline(&g), 0));
    CHECK_EQ_INT(g.chess.result, CHESS_RESULT_DRAW);
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_TIMEOUT_VS_INSUFFICIENT);
    game_free(&g);
}

static void test_late_move_is_a_flag(void) {
    struct game g;
    setup(&g, &blitz);
    int64_t now = 0;
    const char *moves[] = {"e4", "e5"};
    CHECK_EQ_INT(play(&g, moves, 2, &now), 0);
    int64_t started = g.clock.started_at_ms;
    struct game_move_info info;
    /* 200 ms past White's time, before the deadline (500 ms of quota): a reported 50 ms of lag
     * does not cover it, so the move comes too late and the game ends on time, unchanged. */
    struct gclock_report lag50 = {.lag_ms = 50};
    CHECK(started + 60000 + 200 < game_deadline(&g));
    CHECK_EQ_INT(game_move(&g, CHESS_WHITE, "Nf3", -1, &lag50, started + 60200, 0, &info),
                 -CORE_ERR_GAME_OVER);
    CHECK(g.ended);
    CHECK_EQ_INT(game_ply(&g), 2);
    CHECK_EQ_INT(g.chess.result, CHESS_RESULT_BLACK_WINS);
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_TIMEOUT);
    game_free(&g);
    /* The same move reported with 300 ms of lag is in time. */
    setup(&g, &blitz);
    now = 0;
    CHECK_EQ_INT(play(&g, moves, 2, &now), 0);
    started = g.clock.started_at_ms;
    struct gclock_report lag300 = {.lag_ms = 300};
    CHECK_EQ_INT(game_move(&g, CHESS_WHITE, "Nf3", -1, &lag300, started + 60200, 0, &info), 0);
    CHECK(!g.ended);
    CHECK_EQ_INT(g.clock.remaining_ms[CHESS_WHITE], 100 + 1000);
    game_free(&g);
}

static void test_checkmate(void) {
    struct game g;
    setup(&g, &blitz);
    int64_t now = 0;
    const char *moves[] = {"f3", "e5", "g4", "Qh4#"};
    CHECK_EQ_INT(play(&g, moves, 4, &now), 0);
    CHECK(g.ended);
    CHECK_EQ_INT(g.chess.result, CHESS_RESULT_BLACK_WINS);
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_CHECKMATE);
    CHECK_EQ_INT(g.clock.running, -1);
    CHECK_EQ_INT(game_deadline(&g), GCLOCK_NEVER);
    struct game_move_info info;
    CHECK_EQ_INT(game_move(&g, CHESS_WHITE, "e4", -1, NULL, now, 0, &info), -CORE_ERR_GAME_OVER);
    CHECK_EQ_INT(game_resign(&g, CHESS_WHITE, now, 0), -CORE_ERR_GAME_OVER);
    game_free(&g);
}

static void test_draw_offers(void) {
    struct game g;
    setup(&g, &blitz);
    int undone;
    CHECK_EQ_INT(game_accept(&g, GAME_OFFER_DRAW, CHESS_BLACK, 0, 0, &undone), -CORE_ERR_NO_OFFER);
    CHECK_EQ_INT(game_offer(&g, GAME_OFFER_DRAW, CHESS_WHITE), 0);
    CHECK_EQ_INT(game_offer(&g, GAME_OFFER_DRAW, CHESS_WHITE), -CORE_ERR_OFFER_PENDING);
    CHECK_EQ_INT(game_accept(&g, GAME_OFFER_DRAW, CHESS_WHITE, 0, 0, &undone), -CORE_ERR_NO_OFFER);
    CHECK_EQ_INT(game_decline(&g, GAME_OFFER_DRAW, CHESS_BLACK), 0);
    CHECK_EQ_INT(game_offer_by(&g, GAME_OFFER_DRAW), -1);
    /* The offer survives the offerer's own move; the opponent's move declines it. */
    int64_t now = 0;
    CHECK_EQ_INT(game_offer(&g, GAME_OFFER_DRAW, CHESS_WHITE), 0);
    const char *w[] = {"e4"};
    CHECK_EQ_INT(play(&g, w, 1, &now), 0);
    CHECK_EQ_INT(game_offer_by(&g, GAME_OFFER_DRAW), CHESS_WHITE);
    const char *b[] = {"e5"};
    CHECK_EQ_INT(play(&g, b, 1, &now), 0);
    CHECK_EQ_INT(game_offer_by(&g, GAME_OFFER_DRAW), -1);
    CHECK_EQ_INT(game_offer(&g, GAME_OFFER_DRAW, CHESS_BLACK), 0);
    CHECK_EQ_INT(game_accept(&g, GAME_OFFER_DRAW, CHESS_WHITE, now, 0, &undone), 0);
    CHECK(g.ended);
    CHECK_EQ_INT(g.chess.result, CHESS_RESULT_DRAW);
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_AGREEMENT);
    CHECK_EQ_INT(game_offer(&g, GAME_OFFER_DRAW, CHESS_WHITE), -CORE_ERR_GAME_OVER);
    CHECK_EQ_INT(game_offer(&g, GAME_OFFER_REMATCH, CHESS_WHITE), 0);
    game_free(&g);
}

static void test_takeback(void) {
    struct game g;
    setup(&g, &blitz);
    int64_t now = 0;
    int undone;
    CHECK_EQ_INT(game_offer(&g, GAME_OFFER_TAKEBACK, CHESS_WHITE), -CORE_ERR_NOTHING_TO_TAKE_BACK);
    const char *moves[] = {"e4", "e5", "Nf3"};
    CHECK_EQ_INT(play(&g, moves, 3, &now), 0);
    /* White just moved: one ply back. */
    CHECK_EQ_INT(game_offer(&g, GAME_OFFER_TAKEBACK, CHESS_WHITE), 0);
    CHECK_EQ_INT(game_accept(&g, GAME_OFFER_TAKEBACK, CHESS_BLACK, now, 0, &undone), 0);
    CHECK_EQ_INT(undone, 1);
    CHECK_EQ_INT(game_ply(&g), 2);
    CHECK_EQ_INT(game_turn(&g), CHESS_WHITE);
    CHECK_EQ_INT(g.clock.running, CHESS_WHITE);
    /* Black asks on White's turn: Black's move and nothing after it... White has not replied,
     * so only e5 goes, then the clocks stop (back before Black's first move). */
    CHECK_EQ_INT(game_offer(&g, GAME_OFFER_TAKEBACK, CHESS_BLACK), 0);
    CHECK_EQ_INT(game_accept(&g, GAME_OFFER_TAKEBACK, CHESS_WHITE, now, 0, &undone), 0);
    CHECK_EQ_INT(undone, 1);
    CHECK_EQ_INT(game_ply(&g), 1);
    CHECK_EQ_INT(g.clock.running, -1);
    CHECK_EQ_INT(game_deadline(&g), now + 30000);
    /* White asks on White's... now Black's turn after e4: White takes back e4. Then play
     * e4 e5 Nf3 and let Black ask on Black's turn: e5 and Nf3 both go. */
    const char *more[] = {"e5", "Nf3"};
    CHECK_EQ_INT(play(&g, more, 2, &now), 0);
    CHECK_EQ_INT(game_offer(&g, GAME_OFFER_TAKEBACK, CHESS_BLACK), 0);
    /* A move clears a pending takeback. */
    const char *reply[] = {"Nc6"};
    CHECK_EQ_INT(play(&g, reply, 1, &now), 0);
    CHECK_EQ_INT(game_offer_by(&g, GAME_OFFER_TAKEBACK), -1);
    const char *w2[] = {"Bb5"};
    CHECK_EQ_INT(play(&g, w2, 1, &now), 0);
    CHECK_EQ_INT(game_offer(&g, GAME_OFFER_TAKEBACK, CHESS_BLACK), 0);
    CHECK_EQ_INT(game_accept(&g, GAME_OFFER_TAKEBACK, CHESS_WHITE, now, 0, &undone), 0);
    CHECK_EQ_INT(undone, 2);
    CHECK_EQ_INT(game_ply(&g), 3);
    CHECK_EQ_INT(game_turn(&g), CHESS_BLACK);
    game_free(&g);
}

static void test_abort_and_claims(void) {
    struct game g;
    setup(&g, &blitz);
    int64_t now = 0;
    const char *first[] = {"Nf3"};
    CHECK_EQ_INT(play(&g, first, 1, &now), 0);
    CHECK_EQ_INT(game_claim_draw(&g, now, 0), -CORE_ERR_NO_DRAW_TO_CLAIM);
    const char *moves[] = {"Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"};
    CHECK_EQ_INT(play(&g, moves, 7, &now), 0);
    CHECK_EQ_INT(game_abort(&g, now, 0), -CORE_ERR_TOO_LATE_TO_ABORT);
    CHECK_EQ_INT(game_claim_draw(&g, now, 0), 0);
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_THREEFOLD_REPETITION);
    CHECK_EQ_INT(g.chess.result, CHESS_RESULT_DRAW);
    game_free(&g);

    setup(&g, &blitz);
    CHECK_EQ_INT(play(&g, first, 1, &now), 0);
    CHECK_EQ_INT(game_abort(&g, now, 0), 0);
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_ABORTED);
    CHECK_EQ_INT(game_abort(&g, now, 0), -CORE_ERR_GAME_OVER);
    game_free(&g);
}

static void test_unlimited(void) {
    struct game g;
    struct time_control tc = {.unlimited = true};
    CHECK_EQ_INT(game_init(&g, "g2", NULL, NULL, &tc, NULL, 100, 0, 0, 0), 0);
    CHECK_EQ_INT(game_deadline(&g), GCLOCK_NEVER);
    int64_t now = 0;
    const char *moves[] = {"e4", "e5", "Nf3"};
    CHECK_EQ_INT(play(&g, moves, 3, &now), 0);
    CHECK_EQ_INT(game_deadline(&g), GCLOCK_NEVER);
    CHECK(!game_on_deadline(&g, 1000000000, 0));
    game_free(&g);
}

int main(void) {
    RUN(test_turns_and_errors);
    RUN(test_clock_starts_at_black_first_move);
    RUN(test_first_move_timeout);
    RUN(test_flag);
    RUN(test_flag_against_bare_king);
    RUN(test_late_move_is_a_flag);
    RUN(test_checkmate);
    RUN(test_draw_offers);
    RUN(test_takeback);
    RUN(test_abort_and_claims);
    RUN(test_unlimited);
    return check_finish();
}
