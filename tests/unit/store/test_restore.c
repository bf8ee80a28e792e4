/*
 * Tests of rebuilding games in progress (core/restore.h) and putting them back into the world:
 * positions, clocks (time while the server was down is not charged), first-move timers, a game
 * the last stored move ended, damaged records, and returning players' tokens.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/restore.h"
#include "core/world.h"
#include "testrand.h"

static uint64_t seed = 7;

static struct world *new_world(void) {
    struct world_config cfg;
    world_config_defaults(&cfg);
    cfg.random = test_random;
    cfg.random_ctx = &seed;
    return world_create(&cfg);
}

static const struct time_control blitz = {.initial_ms = 300000, .increment_ms = 2000};

static void test_clocks_and_position(void) {
    struct world *w = new_world();
    struct player *a = world_player_restore(w, "playerA00001", "Ann", NULL, 0);
    struct player *b = world_player_restore(w, "playerB00001", "Ben", "tokenB", 0);
    CHECK(a && b);
    CHECK(a->stored && b->stored);
    CHECK_EQ_INT((int)a->ratings[0].rating, 1500);
    CHECK(world_player_by_token(w, "tokenB") == b);
    CHECK(world_player_restore(w, "playerA00001", "Again", NULL, 0) == NULL);
    const struct game_restore_move moves[] = {
        {"e2e4", true, 300000}, {"e7e5", true, 300000}, {"g1f3", true, 295500}};
    struct game_record rec = {.id = "gameAAAA",
                              .tc = blitz,
                              .created_wall_ms = 123,
                              .moves = moves,
                              .count = 3,
                              .rated = true,
                              .rating = {1510, 1490}};
    struct game *g = malloc(sizeof *g);
    CHECK_EQ_INT(game_restore(g, &rec, a, b, 100, 30000, 50000, 999), 0);
    CHECK_EQ_INT(game_ply(g), 3);
    CHECK(!g->ended);
    CHECK(g->rated);
    CHECK_EQ_INT(g->rating[1], 1490);
    CHECK_EQ_INT(g->created_wall_ms, 123);
    CHECK_EQ_INT(game_turn(g), CHESS_BLACK);
    /* White's clock from its last move, Black's from its own; Black's runs from now. */
    CHECK_EQ_INT(g->clock.remaining_ms[CHESS_WHITE], 295500);
    CHECK_EQ_INT(g->clock.remaining_ms[CHESS_BLACK], 300000);
    CHECK_EQ_INT(g->clock.running, CHESS_BLACK);
    CHECK_EQ_INT(g->clock.started_at_ms, 50000);
    CHECK_EQ_INT(g->clock_after[2], 295500);
    /* 5+2: the quota's cap per move is 1 s (core/gclock.h) */
    CHECK_EQ_INT(game_deadline(g), 50000 + 300000 + 1000);
    CHECK_EQ_INT(world_restore_game(w, g), 0);
    CHECK(world_game(w, "gameAAAA") == g);
    CHECK(world_live_first(w) == g);
    CHECK_EQ_INT(a->game_count, 1);
    CHECK_EQ_INT(b->refs, 1);
    CHECK_EQ_INT(world_next_deadline(w), 50000 + 300000 + 1000);
    /* Play goes on through the world as usual. */
    struct core_events ev = {0};
    struct core_cmd cmd = {
        .type = CORE_CMD_MOVE, .target = "gameAAAA", .text = "Nc6", .expected_ply = 3};
    CHECK_EQ_INT(world_apply(w, b, &cmd, 52000, &ev), 0);
    CHECK_EQ_INT(game_ply(g), 4);
    /* Black thought 2000 ms (100 forgiven) from the restore, not from before it. */
    CHECK_EQ_INT(g->clock.remaining_ms[CHESS_BLACK], 300000 - 1900 + 2000);
    /* A second game with the same id is refused. */
    struct game *dup = malloc(sizeof *dup);
    CHECK_EQ_INT(game_restore(dup, &rec, a, b, 100, 30000, 50000, 999), 0);
    CHECK(world_restore_game(w, dup) < 0);
    game_free(dup);
    free(dup);
    core_events_free(&ev);
    world_destroy(w);
}

static void test_first_moves(void) {
    struct world *w = new_world();
    struct player *a = world_player_restore(w, "pa", "Ann", NULL, 0);
    struct player *b = world_player_restore(w, "pb", "Ben", NULL, 0);
    const struct game_restore_move one[] = {{"d2d4", true, 300000}};
    struct game_record rec = {.id = "g1", .tc = blitz, .moves = one, .count = 1};
    struct game g;
    CHECK_EQ_INT(game_restore(&g, &rec, a, b, 100, 30000, 7000, 0), 0);
    CHECK_EQ_INT(g.clock.running, -1);
    CHECK_EQ_INT(g.first_move_deadline, 37000);
    game_free(&g);
    /* No moves at all, unlimited. */
    rec = (struct game_record){.id = "g2", .tc = {.unlimited = true}};
    CHECK_EQ_INT(game_restore(&g, &rec, a, b, 100, 0, 7000, 0), 0);
    CHECK_EQ_INT(game_ply(&g), 0);
    CHECK_EQ_INT(game_deadline(&g), GCLOCK_NEVER);
    game_free(&g);
    world_destroy(w);
}

static void test_ended_by_last_move(void) {
    struct world *w = new_world();
    struct player *a = world_player_restore(w, "pa", "Ann", NULL, 0);
    struct player *b = world_player_restore(w, "pb", "Ben", NULL, 0);
    const struct game_restore_move mate[] = {
        {"f2f3", true, 1}, {"e7e5", true, 1}, {"g2g4", true, 1}, {"d8h4", true, 1}};
    struct game_record rec = {.id = "g1", .tc = blitz, .moves = mate, .count = 4};
    struct game g;
    CHECK_EQ_INT(game_restore(&g, &rec, a, b, 100, 30000, 7000, 5555), 0);
    CHECK(g.ended);
    CHECK_EQ_INT(g.chess.result, CHESS_RESULT_BLACK_WINS);
    CHECK_EQ_INT(g.chess.termination, CHESS_TERM_CHECKMATE);
    CHECK_EQ_INT(g.ended_wall_ms, 5555);
    game_free(&g);
    world_destroy(w);
}

static void test_damaged_records(void) {
    struct world *w = new_world();
    struct player *a = world_player_restore(w, "pa", "Ann", NULL, 0);
    struct player *b = world_player_restore(w, "pb", "Ben", NULL, 0);
    const struct game_restore_move bad[] = {{"e2e4", true, 1}, {"e2e4", true, 1}};
    struct game_record rec = {.id = "g1", .tc = blitz, .moves = bad, .count = 2};
    struct game g;
    CHECK_EQ_INT(game_restore(&g, &rec, a, b, 100, 0, 0, 0), -CORE_ERR_ILLEGAL_MOVE);
    rec = (struct game_record){.id = "g1", .tc = blitz, .initial_fen = "not a fen"};
    CHECK_EQ_INT(game_restore(&g, &rec, a, b, 100, 0, 0, 0), -CORE_ERR_ILLEGAL_MOVE);
    /* Moves after a finished game do not replay either. */
    const struct game_restore_move after[] = {{"f2f3", true, 1},
                                              {"e7e5", true, 1},
                                              {"g2g4", true, 1},
                                              {"d8h4", true, 1},
                                              {"e1f2", true, 1}};
    rec = (struct game_record){.id = "g1", .tc = blitz, .moves = after, .count = 5};
    CHECK_EQ_INT(game_restore(&g, &rec, a, b, 100, 0, 0, 0), -CORE_ERR_ILLEGAL_MOVE);
    /* From a FEN: Black to move. */
    const struct game_restore_move from_fen[] = {{"e7e5", true, 1000}, {"g1f3", true, 2000}};
    rec = (struct game_record){.id = "g2",
                               .tc = blitz,
                               .initial_fen =
                                   "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                               .moves = from_fen,
                               .count = 2};
    CHECK_EQ_INT(game_restore(&g, &rec, a, b, 100, 0, 0, 0), 0);
    CHECK_EQ_INT(g.clock.remaining_ms[CHESS_BLACK], 1000);
    CHECK_EQ_INT(g.clock.remaining_ms[CHESS_WHITE], 2000);
    CHECK_EQ_INT(game_turn(&g), CHESS_BLACK);
    game_free(&g);
    world_destroy(w);
}

static void test_tokens(void) {
    struct world *w = new_world();
    struct player *p = world_player_create(w, NULL, 0);
    char first[PLAYER_TOKEN_LEN + 1];
    memcpy(first, p->token, sizeof first);
    CHECK_EQ_INT(world_player_set_token(w, p, "anotherToken"), 0);
    CHECK(world_player_by_token(w, "anotherToken") == p);
    CHECK(world_player_by_token(w, first) == NULL);
    struct player *q = world_player_create(w, NULL, 0);
    CHECK(world_player_set_token(w, q, "anotherToken") < 0);
    world_player_forget_token(w, p);
    CHECK(world_player_by_token(w, "anotherToken") == NULL);
    CHECK_EQ_STR(p->token, "");
    world_destroy(w);
}

int main(void) {
    RUN(test_clocks_and_position);
    RUN(test_first_moves);
    RUN(test_ended_by_last_move);
    RUN(test_damaged_records);
    RUN(test_tokens);
    return check_finish();
}
