/*
 * Tests of the world's arena tournaments (core/world.h over core/arena.h): creating (its
 * limits and errors), joining and withdrawing, the start and the pairing waves by the timers,
 * games started rated with the arena's id, berserk (half the clock, no increment, only before
 * the first move), game ends scored and paired again, absent players left out, the end (no
 * pairing, the last game finishes it), the PGN's Event, and a restore replaying the results.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/pgn.h"
#include "core/world.h"
#include "splitmix.h"

static uint64_t seed = 7;
static struct core_events ev = {.reply = -1};

static const struct time_control bullet = {.initial_ms = 60000, .increment_ms = 0};
static const struct time_control blitz = {.initial_ms = 180000, .increment_ms = 2000};

static struct world *make_world(void) {
    struct world_config cfg;
    world_config_defaults(&cfg);
    cfg.random = splitmix_random;
    cfg.random_ctx = &seed;
    return world_create(&cfg);
}

/* An account, connected. */
static struct player *account(struct world *w, const char *name) {
    struct player *p = world_player_create(w, name, 0);
    if (!p) return NULL;
    p->registered = true;
    world_player_attach(w, p, 0, &ev);
    return p;
}

static int cmd(struct world *w, struct player *p, enum core_cmd_type type, const char *target,
               const char *text, int64_t now) {
    struct core_cmd c = {.type = type, .target = target, .text = text, .expected_ply = -1};
    return world_apply(w, p, &c, now, &ev);
}

static int create(struct world *w, struct player *p, const char *name, struct time_control tc,
                  int minutes, int64_t starts_in_ms, int64_t now) {
    struct core_cmd c = {.type = CORE_CMD_ARENA_CREATE,
                         .name = name,
                         .tc = tc,
                         .minutes = minutes,
                         .starts_in_ms = starts_in_ms};
    return world_apply(w, p, &c, now, &ev);
}

static struct world_arena *created(void) {
    return ev.reply >= 0 && ev.items[ev.reply].type == CORE_EV_ARENA_CREATED
               ? ev.items[ev.reply].arena
               : NULL;
}

static int count_events(enum core_event_type type) {
    int n = 0;
    for (int i = 0; i < ev.count; i++) n += ev.items[i].type == type;
    return n;
}

static void test_create_errors(void) {
    struct world *w = make_world();
    struct player *guest = world_player_create(w, "Guest", 0);
    struct player *ann = account(w, "Ann");
    CHECK(w && guest && ann);
    if (!w || !guest || !ann) return;
    CHECK_EQ_INT(create(w, guest, "Guests Arena", bullet, 30, 0, 0), -CORE_ERR_ARENA_NEEDS_ACCOUNT);
    CHECK_EQ_INT(create(w, ann, "A", bullet, 30, 0, 0), -CORE_ERR_ARENA_BAD_SETTINGS);
    CHECK_EQ_INT(create(w, ann, "A name longer than thirty bytes", bullet, 30, 0, 0),
                 -CORE_ERR_ARENA_BAD_SETTINGS);
    CHECK_EQ_INT(create(w, ann, "Bad\tname", bullet, 30, 0, 0), -CORE_ERR_ARENA_BAD_SETTINGS);
    CHECK_EQ_INT(create(w, ann, "Unlimited", (struct time_control){.unlimited = true}, 30, 0, 0),
                 -CORE_ERR_ARENA_BAD_SETTINGS);
    CHECK_EQ_INT(create(w, ann, "Daily", (struct time_control){.days = 1}, 30, 0, 0),
                 -CORE_ERR_ARENA_BAD_SETTINGS);
    CHECK_EQ_INT(create(w, ann, "Too long", bullet, 721, 0, 0), -CORE_ERR_ARENA_BAD_SETTINGS);
    CHECK_EQ_INT(create(w, ann, "Too late", bullet, 30, WORLD_ARENA_STARTS_IN_MAX + 1, 0),
                 -CORE_ERR_ARENA_BAD_SETTINGS);
    CHECK_EQ_INT(create(w, ann, "Past", bullet, 30, -1, 0), -CORE_ERR_ARENA_BAD_SETTINGS);
    CHECK(world_arena_first(w) == NULL); /* nothing created by a refusal */
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_INT(create(w, ann, "Ann's Arena", bullet, 30, 60000, 0), 0);
        CHECK(created() != NULL && ev.items[ev.reply].player == ann);
    }
    CHECK_EQ_INT(create(w, ann, "One too many", bullet, 30, 60000, 0), -CORE_ERR_TOO_MANY_ARENAS);
    /* The operator's arenas count for nobody. */
    struct world_arena *op = NULL;
    struct world_arena_spec spec = {
        .name = "Hourly Bullet Arena", .tc = bullet, .rated = true, .minutes = 57};
    CHECK_EQ_INT(world_arena_create(w, NULL, &spec, 0, &ev, &op), 0);
    CHECK(op && op->creator[0] == '\0' && op->status == WORLD_ARENA_CREATED);
    world_destroy(w);
}

static void test_join_errors(void) {
    struct world *w = make_world();
    struct player *guest = world_player_create(w, "Guest", 0);
    struct player *ann = account(w, "Ann");
    CHECK(w && guest && ann);
    if (!w || !guest || !ann) return;
    CHECK_EQ_INT(cmd(w, ann, CORE_CMD_ARENA_JOIN, "nosuchid", NULL, 0), -CORE_ERR_ARENA_NOT_FOUND);
    CHECK_EQ_INT(create(w, ann, "Test Arena", bullet, 5, 0, 0), 0);
    struct world_arena *a = created();
    CHECK(a != NULL);
    if (!a) return;
    char id[ARENA_ID_LEN + 1];
    strcpy(id, a->id);
    CHECK_EQ_INT(cmd(w, guest, CORE_CMD_ARENA_JOIN, id, NULL, 0), -CORE_ERR_ARENA_NEEDS_ACCOUNT);
    CHECK_EQ_INT(cmd(w, ann, CORE_CMD_ARENA_WITHDRAW, id, NULL, 0), -CORE_ERR_ARENA_NOT_JOINED);
    CHECK_EQ_INT(cmd(w, ann, CORE_CMD_ARENA_WITHDRAW, "nosuchid", NULL, 0),
                 -CORE_ERR_ARENA_NOT_FOUND);
    CHECK_EQ_INT(cmd(w, ann, CORE_CMD_ARENA_JOIN, id, NULL, 0), 0);
    CHECK(ev.reply >= 0 && ev.items[ev.reply].type == CORE_EV_ARENA_PLAYER &&
          ev.items[ev.reply].player == ann);
    CHECK_EQ_INT(cmd(w, ann, CORE_CMD_ARENA_WITHDRAW, id, NULL, 1000), 0);
    CHECK(arena_find(&a->arena, ann->id)->paused);
    CHECK_EQ_INT(cmd(w, ann, CORE_CMD_ARENA_JOIN, id, NULL, 2000), 0); /* back */
    CHECK(!arena_find(&a->arena, ann->id)->paused);
    CHECK_EQ_INT(a->arena.count, 1);
    /* Past the end: finished (nobody plays, so it finishes at its end). */
    world_tick(w, 5 * 60000, &ev);
    CHECK_EQ_INT(a->status, WORLD_ARENA_FINISHED);
    CHECK_EQ_INT(cmd(w, ann, CORE_CMD_ARENA_JOIN, id, NULL, 5 * 60000), -CORE_ERR_ARENA_FINISHED);
    CHECK_EQ_INT(cmd(w, ann, CORE_CMD_ARENA_WITHDRAW, id, NULL, 5 * 60000),
                 -CORE_ERR_ARENA_FINISHED);
    world_destroy(w);
}

/* The game a player plays in the arena, or NULL. */
static struct game *game_of(struct world *w, struct world_arena *a, struct player *p) {
    return world_arena_game_of(w, a, p);
}

static void test_pairing_and_scoring(void) {
    struct world *w = make_world();
    struct player *p[5];
    const char *names[5] = {"Ann", "Bob", "Cid", "Dee", "Eve"};
    for (int i = 0; i < 5; i++) p[i] = account(w, names[i]);
    CHECK(w && p[4]);
    if (!w || !p[4]) return;
    CHECK_EQ_INT(create(w, p[0], "Hourly Bullet Arena", bullet, 10, 10000, 0), 0);
    struct world_arena *a = created();
    CHECK(a != NULL);
    if (!a) return;
    char id[ARENA_ID_LEN + 1];
    strcpy(id, a->id);
    for (int i = 0; i < 5; i++) CHECK_EQ_INT(cmd(w, p[i], CORE_CMD_ARENA_JOIN, id, NULL, 0), 0);
    world_player_detach(w, p[4], 0, &ev); /* Eve is away: joined, not paired */
    CHECK_EQ_INT(world_next_deadline(w), 10000);
    world_tick(w, 9999, &ev);
    CHECK_EQ_INT(count_events(CORE_EV_GAME_STARTED), 0);
    world_tick(w, 10000, &ev);
    CHECK_EQ_INT(a->status, WORLD_ARENA_STARTED);
    CHECK_EQ_INT(count_events(CORE_EV_ARENA_STATUS), 1);
    CHECK_EQ_INT(count_events(CORE_EV_GAME_STARTED), 2);
    CHECK_EQ_INT(a->games_playing, 2);
    CHECK(game_of(w, a, p[4]) == NULL);
    struct game *g = game_of(w, a, p[0]);
    CHECK(g != NULL);
    if (!g) return;
    CHECK(g->rated);
    CHECK_EQ_STR(g->arena_id, id);
    CHECK_EQ_STR(g->arena_name, "Hourly Bullet Arena");
    char *pgn = NULL;
    CHECK(game_write_pgn(g, "https://example.org", &pgn) > 0);
    CHECK(pgn && strstr(pgn, "[Event \"Hourly Bullet Arena\"]") != NULL);
    free(pgn);
    /* Berserk: not for a spectator, once, only before one's first move; half the clock, and no
     * increment (none here anyway: 1+0). */
    struct player *white = g->players[CHESS_WHITE], *black = g->players[CHESS_BLACK];
    char gid[GAME_ID_LEN + 1];
    strcpy(gid, g->id);
    struct player *stranger = NULL;
    for (int i = 0; i < 4; i++)
        if (p[i] != white && p[i] != black) stranger = p[i];
    CHECK_EQ_INT(cmd(w, stranger, CORE_CMD_ARENA_BERSERK, gid, NULL, 10100),
                 -CORE_ERR_NOT_A_PLAYER);
    CHECK_EQ_INT(cmd(w, white, CORE_CMD_ARENA_BERSERK, gid, NULL, 10100), 0);
    CHECK(ev.reply >= 0 && ev.items[ev.reply].type == CORE_EV_BERSERK &&
          ev.items[ev.reply].color == CHESS_WHITE && ev.items[ev.reply].target == CORE_TO_GAME);
    CHECK_EQ_INT(g->clock.remaining_ms[CHESS_WHITE], 30000);
    CHECK_EQ_INT(g->clock.remaining_ms[CHESS_BLACK], 60000);
    CHECK_EQ_INT(cmd(w, white, CORE_CMD_ARENA_BERSERK, gid, NULL, 10100),
                 -CORE_ERR_BERSERK_NOT_ALLOWED);
    CHECK_EQ_INT(cmd(w, white, CORE_CMD_MOVE, gid, "e4", 10200), 0);
    CHECK_EQ_INT(cmd(w, black, CORE_CMD_MOVE, gid, "e5", 10300), 0);
    CHECK_EQ_INT(cmd(w, black, CORE_CMD_ARENA_BERSERK, gid, NULL, 10400),
                 -CORE_ERR_BERSERK_NOT_ALLOWED); /* moved already */
    /* White wins: 2 points, and its pair waits for the next wave, which comes at once. */
    CHECK_EQ_INT(cmd(w, black, CORE_CMD_RESIGN, gid, NULL, 11000), 0);
    CHECK_EQ_INT(arena_find(&a->arena, white->id)->score, 2);
    CHECK_EQ_INT(arena_find(&a->arena, black->id)->score, 0);
    CHECK(arena_find(&a->arena, white->id)->sheet[0].berserk);
    CHECK_EQ_INT(a->games_playing, 1);
    CHECK_EQ_INT(world_next_deadline(w), 11000);
    world_tick(w, 11000, &ev);
    /* Two waiting: the two of the ended game (Eve is away) play again. */
    CHECK_EQ_INT(count_events(CORE_EV_GAME_STARTED), 1);
    CHECK(game_of(w, a, white) != NULL && game_of(w, a, white) == game_of(w, a, black));
    /* Eve comes back: paired in a wave once someone else waits. */
    world_player_attach(w, p[4], 11000, &ev);
    struct game *g2 = game_of(w, a, white);
    CHECK_EQ_INT(cmd(w, g2->players[CHESS_WHITE], CORE_CMD_MOVE, g2->id, "d4", 11500), 0);
    CHECK_EQ_INT(cmd(w, g2->players[CHESS_BLACK], CORE_CMD_DRAW_OFFER, g2->id, NULL, 11600), 0);
    CHECK_EQ_INT(cmd(w, g2->players[CHESS_WHITE], CORE_CMD_DRAW_ACCEPT, g2->id, NULL, 11700), 0);
    CHECK_EQ_INT(arena_find(&a->arena, white->id)->score, 3); /* a draw: 1 */
    world_tick(w, 11700, &ev);
    CHECK(game_of(w, a, p[4]) != NULL);
    world_destroy(w);
}

/* A blitz arena of `minutes` created by ann at 0, joined by both and started: their game. */
static struct game *paired_arena(struct world *w, struct player *ann, struct player *bob,
                                 int minutes, struct world_arena **arena) {
    CHECK(w && ann && bob);
    if (!w || !ann || !bob) return NULL;
    CHECK_EQ_INT(create(w, ann, "Blitz Arena", blitz, minutes, 0, 0), 0);
    struct world_arena *a = *arena = created();
    CHECK(a != NULL);
    if (!a) return NULL;
    CHECK_EQ_INT(cmd(w, ann, CORE_CMD_ARENA_JOIN, a->id, NULL, 0), 0);
    CHECK_EQ_INT(cmd(w, bob, CORE_CMD_ARENA_JOIN, a->id, NULL, 0), 0);
    world_tick(w, 0, &ev);
    struct game *g = world_arena_game_of(w, a, ann);
    CHECK(g != NULL);
    return g;
}

/* At the end pairing stops; the game still running ends the tournament when it ends. */
static void test_end(void) {
    struct world *w = make_world();
    struct player *ann = account(w, "Ann"), *bob = account(w, "Bob"), *cid = account(w, "Cid");
    struct world_arena *a = NULL;
    struct game *g = paired_arena(w, ann, bob, 1, &a);
    if (!g || !cid) return;
    CHECK_EQ_INT(cmd(w, g->players[CHESS_WHITE], CORE_CMD_MOVE, g->id, "e4", 5000), 0);
    CHECK_EQ_INT(cmd(w, g->players[CHESS_BLACK], CORE_CMD_MOVE, g->id, "e5", 8000), 0);
    CHECK_EQ_INT(cmd(w, cid, CORE_CMD_ARENA_JOIN, a->id, NULL, 59000), 0);
    world_tick(w, 60000, &ev);
    CHECK_EQ_INT(count_events(CORE_EV_GAME_STARTED), 0); /* Cid waits alone, then the end */
    CHECK_EQ_INT(a->status, WORLD_ARENA_STARTED);
    CHECK_EQ_INT(cmd(w, cid, CORE_CMD_ARENA_JOIN, a->id, NULL, 60000), -CORE_ERR_ARENA_FINISHED);
    CHECK_EQ_INT(cmd(w, ann, CORE_CMD_RESIGN, g->id, NULL, 70000), 0);
    CHECK_EQ_INT(world_next_deadline(w), 60000); /* due: it finishes */
    world_tick(w, 70000, &ev);
    CHECK_EQ_INT(count_events(CORE_EV_GAME_STARTED), 0);
    CHECK_EQ_INT(count_events(CORE_EV_ARENA_STATUS), 1);
    CHECK_EQ_INT(a->status, WORLD_ARENA_FINISHED);
    CHECK_EQ_INT(arena_find(&a->arena, bob->id)->score, 2);
    CHECK_EQ_INT(world_next_deadline(w), GCLOCK_NEVER);
    world_destroy(w);
}

/* An aborted arena game scores nothing; the side that did not move is withdrawn. */
static void test_abort_withdraws(void) {
    struct world *w = make_world();
    struct player *ann = account(w, "Ann"), *bob = account(w, "Bob");
    struct world_arena *a = NULL;
    struct game *g = paired_arena(w, ann, bob, 30, &a);
    if (!g) return;
    struct player *white = g->players[CHESS_WHITE];
    /* White never moves: the first-move timer aborts the game. */
    world_tick(w, 40000, &ev);
    CHECK_EQ_INT(count_events(CORE_EV_GAME_ENDED), 1);
    CHECK_EQ_INT(g->chess.result, CHESS_RESULT_NONE);
    /* White is told (and the store records) that it is withdrawn. */
    CHECK_EQ_INT(count_events(CORE_EV_ARENA_PLAYER), 1);
    const struct core_event *told = NULL;
    for (int i = 0; i < ev.count; i++)
        if (ev.items[i].type == CORE_EV_ARENA_PLAYER) told = &ev.items[i];
    CHECK(told && told->player == white && told->arena == a);
    CHECK(arena_find(&a->arena, white->id)->paused);
    CHECK(!arena_find(&a->arena, g->players[CHESS_BLACK]->id)->paused);
    CHECK_EQ_INT(arena_find(&a->arena, white->id)->games, 0);
    CHECK_EQ_INT(a->games_playing, 0);
    world_destroy(w);
}

/* A finished game, as the archive keeps it for a restore. */
struct result {
    char white[PLAYER_ID_LEN + 1], black[PLAYER_ID_LEN + 1];
    enum chess_result result;
    bool berserk[2];
    int plies;
};

/* The restore replays the stored results in their order: the same scores, sheets and places. */
static void test_restore_replays(void) {
    struct world *w = make_world(), *w2 = make_world();
    struct player *p[4];
    const char *names[4] = {"Ann", "Bob", "Cid", "Dee"};
    for (int i = 0; i < 4; i++) p[i] = account(w, names[i]);
    CHECK(w && w2 && p[3]);
    if (!w || !w2 || !p[3]) return;
    CHECK_EQ_INT(create(w, p[0], "Restored Arena", blitz, 60, 0, 0), 0);
    struct world_arena *a = created();
    for (int i = 0; i < 4; i++) CHECK_EQ_INT(cmd(w, p[i], CORE_CMD_ARENA_JOIN, a->id, NULL, i), 0);
    struct result results[40];
    int n = 0;
    int64_t now = 10;
    while (n < 40) {
        world_tick(w, now, &ev);
        struct game *g = NULL;
        for (int i = 0; i < 4 && !g; i++) g = world_arena_game_of(w, a, p[(n + i) % 4]);
        CHECK(g != NULL);
        if (!g) break;
        struct player *white = g->players[CHESS_WHITE], *black = g->players[CHESS_BLACK];
        if (n % 3 == 0) CHECK_EQ_INT(cmd(w, white, CORE_CMD_ARENA_BERSERK, g->id, NULL, now), 0);
        const char *line[] = {"e4", "e5",   "Nf3",  "Nc6",  "Bc4", "Bc5",   "c3",   "Nf6",
                              "d4", "exd4", "cxd4", "Bb4+", "Bd2", "Bxd2+", "Nbxd2"};
        int plies = n % 2 ? 15 : 4;
        for (int k = 0; k < plies; k++)
            CHECK_EQ_INT(cmd(w, k % 2 ? black : white, CORE_CMD_MOVE, g->id, line[k], now), 0);
        struct result *r = &results[n++];
        strcpy(r->white, white->id);
        strcpy(r->black, black->id);
        r->berserk[0] = g->berserk[0];
        r->berserk[1] = g->berserk[1];
        r->plies = plies;
        /* Black resigns most games, White some; a few draws. */
        if (n % 5 == 0) {
            CHECK_EQ_INT(cmd(w, white, CORE_CMD_DRAW_OFFER, g->id, NULL, now), 0);
            CHECK_EQ_INT(cmd(w, black, CORE_CMD_DRAW_ACCEPT, g->id, NULL, now), 0);
        } else {
            CHECK_EQ_INT(cmd(w, n % 4 ? black : white, CORE_CMD_RESIGN, g->id, NULL, now), 0);
        }
        r->result = g->chess.result;
        now += 10;
    }
    /* The second world: the arena, its players in joining order, the results in order. */
    struct world_arena_spec spec = {.id = a->id,
                                    .name = a->name,
                                    .creator = a->creator,
                                    .tc = a->tc,
                                    .rated = a->rated,
                                    .starts_wall_ms = a->starts_wall_ms,
                                    .minutes = a->minutes};
    struct world_arena *b = NULL;
    CHECK_EQ_INT(world_arena_restore(w2, &spec, WORLD_ARENA_STARTED, now, &b), 0);
    CHECK_EQ_INT(world_arena_restore(w2, &spec, WORLD_ARENA_STARTED, now, NULL),
                 -CORE_ERR_NO_MEMORY); /* its id is taken */
    if (!b) return;
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(world_arena_restore_player(w2, b->id, p[i]->id, p[i]->name,
                                                a->arena.players[i].rating, false, now),
                     0);
    for (int k = 0; k < n; k++)
        CHECK_EQ_INT(world_arena_restore_result(w2, b->id, results[k].white, results[k].black,
                                                results[k].result, results[k].berserk,
                                                results[k].plies, now),
                     0);
    CHECK_EQ_INT(world_arena_restore_result(w2, "nosuchid", p[0]->id, p[1]->id, CHESS_RESULT_DRAW,
                                            results[0].berserk, 10, now),
                 -CORE_ERR_ARENA_NOT_FOUND);
    int rank_a[4], rank_b[4];
    arena_standings(&a->arena, rank_a);
    arena_standings(&b->arena, rank_b);
    int total = 0;
    for (int r = 0; r < 4; r++) {
        const struct arena_player *x = &a->arena.players[rank_a[r]];
        const struct arena_player *y = &b->arena.players[rank_b[r]];
        CHECK_EQ_STR(x->id, y->id);
        CHECK_EQ_INT(x->score, y->score);
        CHECK_EQ_INT(x->sheet_len, y->sheet_len);
        CHECK(memcmp(x->sheet, y->sheet, sizeof x->sheet[0] * (size_t)x->sheet_len) == 0);
        total += x->score;
    }
    CHECK(total > 2 * n); /* streaks and berserks counted */
    world_destroy(w);
    world_destroy(w2);
}

int main(void) {
    RUN(test_create_errors);
    RUN(test_join_errors);
    RUN(test_pairing_and_scoring);
    RUN(test_end);
    RUN(test_abort_withdraws);
    RUN(test_restore_replays);
    core_events_free(&ev);
    return check_finish();
}
