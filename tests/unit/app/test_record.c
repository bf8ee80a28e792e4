/*
 * Tests of recording the world's events into the store: a real world plays a game (seek,
 * moves, takeback, chat, resignation) and every batch of events goes through
 * store_record_events(); what the database then holds is checked, including rated games'
 * ratings (in the database and on the players in memory) and games that are not rated.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/auth.h"
#include "app/record.h"
#include "check.h"
#include "store/read.h"
#include "testrand.h"
#include "tmpdir.h"

static uint64_t seed = 99;

static char dir[512];
static struct core_events ev;
static struct store *store;
static struct world *world;

/* Applies a command and records its events, like the network layer does. */
static int act(struct player *p, enum core_cmd_type type, const char *target, const char *text,
               struct time_control tc, int64_t now) {
    struct core_cmd cmd = {.type = type,
                           .target = target,
                           .text = text,
                           .tc = tc,
                           .color = COLOR_CHOICE_WHITE,
                           .expected_ply = -1,
                           .room = CHAT_ROOM_AUTO};
    int rc = world_apply(world, p, &cmd, now, &ev);
    uint64_t seq;
    CHECK_EQ_INT(store_record_events(store, &ev, 1700000000000LL + now, &seq), 0);
    return rc;
}

static void settle(void) {
    for (int i = 0; i < 10000 && store_committed(store) != store_submitted(store); i++) {
        store_poll(store, NULL, NULL);
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    CHECK(store_committed(store) == store_submitted(store));
}

/* Starts a game with a as White; returns its id (static buffer). */
static const char *start(struct player *a, struct player *b, struct time_control tc) {
    static char id[GAME_ID_LEN + 1];
    CHECK_EQ_INT(act(a, CORE_CMD_SEEK_CREATE, NULL, NULL, tc, 0), 0);
    char seek[CHALLENGE_ID_LEN + 1];
    snprintf(seek, sizeof seek, "%s", ev.items[0].seek.id);
    CHECK_EQ_INT(act(b, CORE_CMD_SEEK_ACCEPT, seek, NULL, tc, 0), 0);
    snprintf(id, sizeof id, "%s", ev.items[0].game->id);
    return id;
}

static void setup(void) {
    tmpdir_make(dir, sizeof dir);
    int status;
    char err[256];
    struct store_config cfg = {.location = dir};
    store = store_open(&cfg, &status, err, sizeof err);
    if (!store || store_start(store, NULL, NULL) < 0) {
        printf("store: %s\n", err);
        exit(1);
    }
    struct world_config wc;
    world_config_defaults(&wc);
    wc.random = test_random;
    wc.random_ctx = &seed;
    world = world_create(&wc);
    world_set_wall_offset(world, 1700000000000LL);
}

static void test_casual_game(void) {
    struct player *a = world_player_create(world, "Ann", 0);
    struct player *b = world_player_create(world, "Ben", 0);
    struct time_control tc = {.initial_ms = 300000, .increment_ms = 2000};
    const char *id = start(a, b, tc);
    char gid[GAME_ID_LEN + 1];
    snprintf(gid, sizeof gid, "%s", id);
    CHECK(a->stored && b->stored);
    const char *moves[] = {"e4", "e5", "Nf3", "Nc6"};
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(act(i % 2 ? b : a, CORE_CMD_MOVE, gid, moves[i], tc, 1000 * (i + 1)), 0);
    /* Ann proposes a takeback of Nf3; Ben accepts: two plies go. */
    CHECK_EQ_INT(act(a, CORE_CMD_TAKEBACK_OFFER, gid, NULL, tc, 5000), 0);
    CHECK_EQ_INT(act(b, CORE_CMD_TAKEBACK_ACCEPT, gid, NULL, tc, 5100), 0);
    CHECK_EQ_INT(act(a, CORE_CMD_MOVE, gid, "d4", tc, 6000), 0);
    CHECK_EQ_INT(act(b, CORE_CMD_CHAT, gid, "well played", tc, 6500), 0);
    CHECK_EQ_INT(act(b, CORE_CMD_RESIGN, gid, NULL, tc, 7000), 0);
    settle();
    struct store_game g;
    CHECK_EQ_INT(store_read_game(store_startup_reader(store), gid, &g), 0);
    CHECK_EQ_STR(g.status, "ended");
    CHECK_EQ_STR(g.result, "1-0");
    CHECK_EQ_STR(g.termination, "resignation");
    CHECK(!g.rated);
    CHECK_EQ_INT(g.ply_count, 3);
    if (g.ply_count == 3) {
        CHECK_EQ_STR(g.moves[0].san, "e4");
        CHECK_EQ_STR(g.moves[1].uci, "e7e5");
        CHECK_EQ_STR(g.moves[2].san, "d4");
        CHECK(g.moves[2].timed);
    }
    CHECK_EQ_STR(g.name[0], "Ann");
    CHECK_EQ_INT(g.created_at, 1700000000000LL);
    store_game_free(&g);
    /* The guest's token finds it. */
    uint8_t h[STORE_HASH_LEN];
    struct store_identity id_a;
    auth_token_hash(a->token, h);
    CHECK_EQ_INT(store_find_token(store_startup_reader(store), h, &id_a), 0);
    CHECK_EQ_STR(id_a.player_id, a->id);
}

static void test_rated_game(void) {
    struct player *a = world_player_create(world, "Cat", 0);
    struct player *b = world_player_create(world, "Dan", 0);
    a->registered = b->registered = true;
    b->ratings[RATING_BLITZ].rating = 1700;
    struct time_control tc = {.initial_ms = 180000};
    struct time_control unlimited = {.unlimited = true};
    CHECK(world_rated_pairing(a, b, &tc, false));
    CHECK(!world_rated_pairing(a, b, &unlimited, false));
    b->bot = true;
    CHECK(!world_rated_pairing(a, b, &tc, false));
    CHECK(world_rated_pairing(a, b, &tc, true));
    b->bot = false;
    const char *id = start(a, b, tc);
    char gid[GAME_ID_LEN + 1];
    snprintf(gid, sizeof gid, "%s", id);
    struct game *live = world_game(world, gid);
    CHECK(live && live->rated);
    CHECK_EQ_INT(live ? live->rating[1] : 0, 1700);
    const char *moves[] = {"f3", "e5", "g4", "Qh4#"};
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(act(i % 2 ? b : a, CORE_CMD_MOVE, gid, moves[i], tc, 100 * (i + 1)), 0);
    settle();
    CHECK(a->ratings[RATING_BLITZ].rating < 1500);
    CHECK(b->ratings[RATING_BLITZ].rating > 1700);
    CHECK_EQ_INT(a->ratings[RATING_BLITZ].games, 1);
    struct store_game g;
    CHECK_EQ_INT(store_read_game(store_startup_reader(store), gid, &g), 0);
    CHECK_EQ_STR(g.result, "0-1");
    CHECK_EQ_STR(g.termination, "checkmate");
    CHECK(g.rated && g.has_ratings);
    CHECK_EQ_INT(g.rating[0], 1500);
    CHECK_EQ_INT(g.rating[1], 1700);
    CHECK(g.rating_diff[0] < 0 && g.rating_diff[1] > 0);
    CHECK_EQ_INT(g.category, RATING_BLITZ);
    store_game_free(&g);
    struct store_identity stored;
    CHECK_EQ_INT(store_find_player(store_startup_reader(store), b->id, &stored), 0);
    CHECK(stored.ratings[RATING_BLITZ].rating > 1700);
    CHECK_EQ_INT(stored.ratings[RATING_BLITZ].games, 1);
}

int main(void) {
    setup();
    RUN(test_casual_game);
    RUN(test_rated_game);
    core_events_free(&ev);
    world_destroy(world);
    store_close(store);
    tmpdir_remove(dir);
    return check_finish();
}
