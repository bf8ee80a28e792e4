/*
 * Tests of daily (correspondence) games in the core: each move gives the opponent a fresh
 * period, the deadline in wall-clock time, running out (a loss, or a draw against bare
 * material), the day without moves that aborts a game, no time given, the days allowed, and a
 * restore that keeps the exact wall-clock deadline whatever the monotonic clock says.
 */
#include "check.h"
#include "chess/fen.h"
#include "core/errors.h"
#include "core/game.h"
#include "core/restore.h"

#define WALL0 1700000000000LL /* wall ms at monotonic 0 */

static const struct time_control daily2 = {.days = 2};

static void setup(struct game *g) {
    CHECK_EQ_INT(game_init(g, "d1", NULL, NULL, &daily2, NULL, 100, 30000, 0, WALL0), 0);
}

static int move_at(struct game *g, const char *text, int64_t now, struct game_move_info *info) {
    return game_move(g, game_turn(g), text, -1, NULL, now, WALL0 + now, info);
}

static void test_days_allowed(void) {
    const int ok[] = {1, 2, 3, 5, 7, 14};
    for (unsigned i = 0; i < sizeof ok / sizeof ok[0]; i++) CHECK(game_daily_days_valid(ok[i]));
    const int bad[] = {-1, 0, 4, 6, 8, 10, 15, 30};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) CHECK(!game_daily_days_valid(bad[i]));
}

static void test_fresh_period_each_move(void) {
    struct game g;
    setup(&g);
    struct game_move_info info;
    /* No 30 s first-move timer: a day for both sides to move, then the game is aborted. */
    CHECK_EQ_INT(game_deadline(&g), GAME_DAILY_UNPLAYED_MS);
    CHECK_EQ_INT(g.deadline_wall_ms, 0);
    CHECK_EQ_INT(move_at(&g, "e4", 3600000, &info), 0);
    CHECK_EQ_INT(game_deadline(&g), GAME_DAILY_UNPLAYED_MS);
    CHECK_EQ_INT(info.clock_ms[0], 2 * GAME_DAY_MS);
    CHECK_EQ_INT(info.deadline_wall_ms, 0);
    int64_t t = 20 * 3600000LL;
    CHECK_EQ_INT(move_at(&g, "e5", t, &info), 0);
    /* White's period runs from Black's move: two days, in both clocks. */
    CHECK_EQ_INT(game_deadline(&g), t + 2 * GAME_DAY_MS);
    CHECK_EQ_INT(info.deadline_wall_ms, WALL0 + t + 2 * GAME_DAY_MS);
    CHECK_EQ_INT(g.deadline_wall_ms, WALL0 + t + 2 * GAME_DAY_MS);
    /* White thinks a day and a half: Black then has two full days, not more, not less. */
    int64_t t2 = t + GAME_DAY_MS + GAME_DAY_MS / 2;
    int64_t clocks[2];
    game_clocks(&g, t2, clocks);
    CHECK_EQ_INT(clocks[CHESS_WHITE], GAME_DAY_MS / 2);
    CHECK_EQ_INT(clocks[CHESS_BLACK], 2 * GAME_DAY_MS);
    CHECK_EQ_INT(move_at(&g, "Nf3", t2, &info), 0);
    CHECK_EQ_INT(info.clock_ms[CHESS_WHITE], 2 * GAME_DAY_MS); /* no increment, no carry-over */
    CHECK_EQ_INT(info.clock_ms[CHESS_BLACK], 2 * GAME_DAY_MS);
    CHECK_EQ_INT(game_deadline(&g), t2 + 2 * GAME_DAY_MS);
    CHECK_EQ_INT(g.deadline_wall_ms, WALL0 + t2 + 2 * GAME_DAY_MS);
    /* What White had left when it moved is its record (PGN comments leave it out). */
    CHECK_EQ_INT(g.clock_after[2], GAME_DAY_MS / 2);
    CHECK_EQ_INT(game_give_time(&g, CHESS_WHITE), -CORE_ERR_CANNOT_GIVE_TIME);
    game_free(&g);
}

static void test_unplayed_abort(void) {
    struct game g;
    setup(&g);
    struct game_move_info info;
    CHECK_EQ_INT(move_at(&g, "e4", 1000, &info), 0);
    CHECK(!game_on_deadline(&g, GAME_DAILY_UNPLAYED_MS - 1, WALL0));
    CHECK(game_on_deadline(&g, GAME_DAILY_UNPLAYED_MS, WALL0));
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_ABORTED);
    CHECK_EQ_INT(g.chess.result, CHESS_RESULT_NONE);
    game_free(&g);
}

static void test_running_out(void) {
    struct game g;
    setup(&g);
    struct game_move_info info;
    CHECK_EQ_INT(move_at(&g, "e4", 0, &info), 0);
    CHECK_EQ_INT(move_at(&g, "e5", 1000, &info), 0);
    int64_t deadline = game_deadline(&g);
    CHECK_EQ_INT(deadline, 1000 + 2 * GAME_DAY_MS);
    /* A move after the deadline is a loss on time, not a move. */
    CHECK(!game_on_deadline(&g, deadline - 1, WALL0 + deadline - 1));
    CHECK(game_on_deadline(&g, deadline, WALL0 + deadline));
    CHECK_EQ_INT(g.chess.result, CHESS_RESULT_BLACK_WINS);
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_TIMEOUT);
    CHECK_EQ_INT(g.deadline_wall_ms, 0);
    game_free(&g);

    setup(&g);
    CHECK_EQ_INT(move_at(&g, "e4", 0, &info), 0);
    CHECK_EQ_INT(move_at(&g, "e5", 1000, &info), 0);
    CHECK_EQ_INT(move_at(&g, "Nf3", 1001 + 2 * GAME_DAY_MS, &info), -CORE_ERR_GAME_OVER);
    CHECK(g.ended);
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_TIMEOUT);
    game_free(&g);
}

static void test_running_out_against_bare_king(void) {
    struct game g;
    setup(&g);
    struct chess_position pos;
    CHECK_EQ_INT(chess_fen_parse(&pos, "8/8/4k3/8/8/4K3/4P3/8 w - - 0 40"), 0);
    chess_game_free(&g.chess);
    CHECK_EQ_INT(chess_game_init(&g.chess, &pos), 0);
    struct game_move_info info;
    CHECK_EQ_INT(move_at(&g, "Kd3", 0, &info), 0);
    CHECK_EQ_INT(move_at(&g, "Kd5", 0, &info), 0);
    CHECK(game_on_deadline(&g, game_deadline(&g), WALL0));
    CHECK_EQ_INT(g.chess.result, CHESS_RESULT_DRAW);
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_TIMEOUT_VS_INSUFFICIENT);
    game_free(&g);
}

static void test_restore_keeps_wall_deadline(void) {
    /* Black's reply stored White's deadline; the server comes back 20 hours later with a
     * monotonic clock that started again near zero. */
    int64_t deadline = WALL0 + 5000 + 2 * GAME_DAY_MS;
    struct game_restore_move moves[] = {
        {"e2e4", true, WALL0 + 1000 + 2 * GAME_DAY_MS},
        {"e7e5", true, deadline},
        {"g1f3", true, 0}, /* replaced below */
    };
    struct game_record rec = {
        .id = "d2", .tc = daily2, .created_wall_ms = WALL0, .moves = moves, .count = 2};
    struct game g;
    int64_t now = 77, wall = WALL0 + 20 * 3600000LL;
    CHECK_EQ_INT(game_restore(&g, &rec, NULL, NULL, 100, 30000, now, wall), 0);
    CHECK_EQ_INT(g.deadline_wall_ms, deadline);
    CHECK_EQ_INT(game_deadline(&g), now + (deadline - wall));
    int64_t clocks[2];
    game_clocks(&g, now, clocks);
    CHECK_EQ_INT(clocks[CHESS_WHITE], deadline - wall);
    CHECK_EQ_INT(clocks[CHESS_BLACK], 2 * GAME_DAY_MS);
    game_free(&g);

    /* Down past the deadline: it falls at once. */
    CHECK_EQ_INT(game_restore(&g, &rec, NULL, NULL, 100, 30000, now, deadline + 1), 0);
    CHECK(game_deadline(&g) <= now);
    CHECK(game_on_deadline(&g, now, deadline + 1));
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_TIMEOUT);
    game_free(&g);

    /* One move only, restored 30 hours after the start: its day without moves has passed. */
    rec.count = 1;
    CHECK_EQ_INT(game_restore(&g, &rec, NULL, NULL, 100, 30000, now, WALL0 + 30 * 3600000LL), 0);
    CHECK_EQ_INT(game_deadline(&g), now - 6 * 3600000LL);
    CHECK(game_on_deadline(&g, now, WALL0 + 30 * 3600000LL));
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_ABORTED);
    game_free(&g);
}

static void test_takeback_keeps_running_period(void) {
    struct game g;
    setup(&g);
    struct game_move_info info;
    CHECK_EQ_INT(move_at(&g, "e4", 0, &info), 0);
    CHECK_EQ_INT(move_at(&g, "e5", 0, &info), 0);
    CHECK_EQ_INT(move_at(&g, "Nf3", GAME_DAY_MS, &info), 0);
    /* White takes back at once; Black accepts a day later: White's move is undone and White,
     * whose period restarted fresh at its move, has its two days from the acceptance. */
    CHECK_EQ_INT(game_offer(&g, GAME_OFFER_TAKEBACK, CHESS_WHITE), 0);
    int undone = 0;
    int64_t t = 2 * GAME_DAY_MS;
    CHECK_EQ_INT(game_accept(&g, GAME_OFFER_TAKEBACK, CHESS_BLACK, t, WALL0 + t, &undone), 0);
    CHECK_EQ_INT(undone, 1);
    CHECK_EQ_INT(game_deadline(&g), t + 2 * GAME_DAY_MS);
    CHECK_EQ_INT(g.deadline_wall_ms, WALL0 + t + 2 * GAME_DAY_MS);
    game_free(&g);
}

int main(void) {
    RUN(test_days_allowed);
    RUN(test_fresh_period_each_move);
    RUN(test_unplayed_abort);
    RUN(test_running_out);
    RUN(test_running_out_against_bare_king);
    RUN(test_restore_keeps_wall_deadline);
    RUN(test_takeback_keeps_running_period);
    return check_finish();
}
