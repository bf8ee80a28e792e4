/*
 * The server's messages against their declaration (server/src/proto/messages.def): a sample of
 * every message proto/encode.c writes, from a world played through every event, is checked key
 * by key (proto_server_check(): no key the declaration does not list, every key it says the
 * message always has), and every declared key must turn up in some sample. Every declared
 * message is either sampled here or named in built_elsewhere[], so a new message cannot go
 * unchecked. Each event is encoded once (proto_encode_event_once()): its text and its object
 * must be the same message.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "proto/encode.h"
#include "proto/proto.h"

/* Messages net/ builds with jansson itself (accounts.c, archive.c, bots.c, engine.c); the
 * integration tests check every message they receive against the declaration (harness.py). */
static const char *const built_elsewhere[] = {
    "analysis_started",
    "analysis_done",
    "registered",
    "session",
    "logged_out",
    "bot_created",
    "bot_token",
    "bots",
    "player",
    "bot_token_revoked",
    "games",
    "game_record",
    "leaderboard",
    "imported",
    "report_received",
    "block_set",
    "blocks",
    "mod_done",
    "mod_reports",
    "mod_log",
    /* app/manage.c */
    "password_changed",
    "sessions",
    "session_revoked",
    "sessions_revoked",
    "account_deleted",
    /* app/tokens.c */
    "api_token_created",
    "api_tokens",
    "api_token_revoked",
    /* app/settings.c */
    "settings",
    /* app/review.c */
    "game_analysis",
    "game_analysis_progress",
};

static bool sampled[PROTO_OUT_COUNT];
static bool key_seen[PROTO_OUT_COUNT][32];

/* Deterministic randomness for the world. */
static int counter_random(void *ctx, void *buf, unsigned n) {
    unsigned *c = ctx;
    unsigned char *out = buf;
    for (unsigned i = 0; i < n; i++) out[i] = (unsigned char)((*c)++ * 37u + 11u);
    return 0;
}

static unsigned counter;
static struct core_events ev = {.reply = -1};

/* Checks one message against its declaration and notes its keys; takes the reference. */
static void check_message(json_t *msg, const char *what, const char *file, int line) {
    if (!check_record(msg != NULL, what, file, line)) return;
    const char *key = NULL;
    int rc = proto_server_check(msg, &key);
    if (!check_record(rc == 0, what, file, line)) {
        char *text = json_dumps(msg, JSON_COMPACT);
        printf("     %s \"%s\" in %s\n",
               rc == -1   ? "no declared type"
               : rc == -2 ? "undeclared key"
                          : "missing key",
               key ? key : "?", text ? text : "?");
        free(text);
    }
    const struct proto_server_spec *spec =
        proto_server_find(json_string_value(json_object_get(msg, "type")));
    if (spec) {
        int i = (int)(spec - proto_server_messages);
        sampled[i] = true;
        for (int k = 0; k < spec->key_count && k < 32; k++)
            if (json_object_get(msg, spec->keys[k].key)) key_seen[i][k] = true;
    }
    json_decref(msg);
}

#define CHECK_MESSAGE(msg) check_message((msg), #msg, __FILE__, __LINE__)

/* Every event of the last world call: its one encoding, text and object alike, checked. */
static void check_events(int64_t now) {
    for (int i = 0; i < ev.count; i++) {
        if (ev.items[i].type == CORE_EV_ARENA_STATUS) continue; /* told by arena_standings */
        size_t len;
        json_t *msg = NULL;
        unsigned char *text = proto_encode_event_once(&ev.items[i], now, 8, &len, &msg);
        CHECK(text != NULL && msg != NULL);
        if (!text || !msg) {
            free(text);
            json_decref(msg);
            continue;
        }
        json_t *parsed = json_loadb((const char *)text + 8, len, 0, NULL);
        CHECK(parsed && json_equal(parsed, msg));
        json_t *object = proto_encode_event(&ev.items[i], now);
        CHECK(object && json_equal(object, msg));
        json_decref(object);
        json_decref(parsed);
        free(text);
        check_message(msg, json_string_value(json_object_get(msg, "type")), __FILE__, __LINE__);
    }
}

static int apply(struct world *w, struct player *p, struct core_cmd cmd, int64_t now) {
    int rc = world_apply(w, p, &cmd, now, &ev);
    check_events(now);
    return rc;
}

static int apply_to(struct world *w, struct player *p, enum core_cmd_type type, const char *target,
                    const char *text, int64_t now) {
    return apply(
        w, p, (struct core_cmd){.type = type, .target = target, .text = text, .expected_ply = -1},
        now);
}

/* The id of the seek or challenge the last call created (its reply), copied into id. */
static void created(char id[CHALLENGE_ID_LEN + 1]) {
    snprintf(id, CHALLENGE_ID_LEN + 1, "%s", ev.reply >= 0 ? ev.items[ev.reply].seek.id : "");
}

/* The game the last call started, or NULL. */
static struct game *started(void) {
    for (int i = 0; i < ev.count; i++)
        if (ev.items[i].type == CORE_EV_GAME_STARTED) return ev.items[i].game;
    return NULL;
}

static const struct time_control blitz = {.initial_ms = 180000, .increment_ms = 2000};

/* Two accounts play a rated game through every game event. */
static void sample_game_events(struct world *w, struct player *a, struct player *b) {
    char id[CHALLENGE_ID_LEN + 1];
    struct core_cmd seek = {.type = CORE_CMD_SEEK_CREATE, .tc = blitz, .color = COLOR_CHOICE_WHITE};
    CHECK_EQ_INT(apply(w, a, seek, 0), 0);
    created(id);
    CHECK_EQ_INT(apply_to(w, b, CORE_CMD_SEEK_ACCEPT, id, NULL, 0), 0);
    struct game *g = started();
    CHECK(g && g->rated);
    if (!g) return;
    char game[GAME_ID_LEN + 1];
    snprintf(game, sizeof game, "%s", g->id);
    CHECK_EQ_INT(apply_to(w, a, CORE_CMD_MOVE, game, "e4", 1000), 0);
    CHECK_EQ_INT(apply_to(w, b, CORE_CMD_MOVE, game, "e5", 2000), 0);
    CHECK_EQ_INT(apply_to(w, a, CORE_CMD_GIVE_TIME, game, NULL, 2500), 0);
    CHECK_EQ_INT(apply_to(w, a, CORE_CMD_DRAW_OFFER, game, NULL, 3000), 0);
    CHECK_EQ_INT(apply_to(w, b, CORE_CMD_DRAW_DECLINE, game, NULL, 3000), 0);
    CHECK_EQ_INT(apply_to(w, a, CORE_CMD_TAKEBACK_OFFER, game, NULL, 4000), 0);
    CHECK_EQ_INT(apply_to(w, b, CORE_CMD_TAKEBACK_ACCEPT, game, NULL, 4000), 0);
    CHECK_EQ_INT(
        apply(w, a, (struct core_cmd){.type = CORE_CMD_CHAT, .target = game, .text = "gl"}, 5000),
        0);
    world_player_detach(w, b, 6000, &ev);
    check_events(6000);
    world_player_attach(w, b, 7000, &ev);
    check_events(7000);
    CHECK_EQ_INT(apply_to(w, b, CORE_CMD_RESIGN, game, NULL, 8000), 0);
    CHECK_EQ_INT(apply_to(w, a, CORE_CMD_REMATCH_OFFER, game, NULL, 9000), 0);
    CHECK_EQ_INT(apply_to(w, b, CORE_CMD_REMATCH_OFFER, game, NULL, 9000), 0);
    CHECK_MESSAGE(
        proto_encode_game_message("game", world_game(w, game), 9000, PROTO_VIEWER_SPECTATOR));
    CHECK_MESSAGE(proto_encode_spectators(game, 3));
    CHECK_MESSAGE(proto_encode_my_games(a, 9000)); /* the rematch */
}

/* Quick pairing: joined (the reply), left, joined again by both and paired by a wave. */
static void sample_pools(struct world *w, struct player *a, struct player *b) {
    struct core_cmd join = {.type = CORE_CMD_POOL_JOIN, .tc = blitz, .rated_required = true};
    CHECK_EQ_INT(apply(w, a, join, 20000), 0);
    CHECK_EQ_INT(apply(w, a, (struct core_cmd){.type = CORE_CMD_POOL_LEAVE}, 20000), 0);
    CHECK_EQ_INT(apply(w, a, join, 20000), 0);
    CHECK_EQ_INT(apply(w, b, join, 20000), 0);
    world_tick(w, world_next_deadline(w), &ev);
    check_events(22000);
}

/* An arena: created, joined by both, started and paired by a tick, a berserk, the game's end and
 * the finish with its podium; the standings with and without the viewer's place, the list. */
static void sample_arenas(struct world *w, struct player *a, struct player *b) {
    struct core_cmd create = {
        .type = CORE_CMD_ARENA_CREATE, .name = "Hourly Blitz Arena", .tc = blitz, .minutes = 1};
    CHECK_EQ_INT(apply(w, a, create, 30000), 0);
    struct world_arena *arena = ev.reply >= 0 ? ev.items[ev.reply].arena : NULL;
    CHECK(arena != NULL);
    if (!arena) return;
    char id[ARENA_ID_LEN + 1];
    snprintf(id, sizeof id, "%s", arena->id);
    CHECK_EQ_INT(apply_to(w, a, CORE_CMD_ARENA_JOIN, id, NULL, 30000), 0);
    CHECK_EQ_INT(apply_to(w, b, CORE_CMD_ARENA_JOIN, id, NULL, 30000), 0);
    world_tick(w, 30000, &ev);
    check_events(30000);
    struct game *g = started();
    CHECK(g != NULL);
    if (!g) return;
    char game[GAME_ID_LEN + 1];
    snprintf(game, sizeof game, "%s", g->id);
    CHECK_EQ_INT(apply(w, g->players[CHESS_WHITE],
                       (struct core_cmd){.type = CORE_CMD_ARENA_BERSERK, .target = game}, 31000),
                 0);
    CHECK_MESSAGE(proto_encode_arena_standings(arena, a));
    CHECK_EQ_INT(apply_to(w, g->players[CHESS_BLACK], CORE_CMD_RESIGN, game, NULL, 32000), 0);
    CHECK_EQ_INT(apply_to(w, b, CORE_CMD_ARENA_WITHDRAW, id, NULL, 32000), 0);
    world_tick(w, 30000 + 60000, &ev);
    check_events(90000);
    CHECK_EQ_INT(arena->status, WORLD_ARENA_FINISHED);
    CHECK_MESSAGE(proto_encode_arena_standings(arena, NULL));
    CHECK_MESSAGE(proto_encode_arena(arena, a));
    CHECK_MESSAGE(proto_encode_arena_list(w));
}

/* Challenges by link and to a bot, declined and cancelled; a game with the bot, whose turn
 * brings the legal moves. */
static void sample_challenges(struct world *w, struct player *a, struct player *bot) {
    char id[CHALLENGE_ID_LEN + 1];
    struct core_cmd link = {.type = CORE_CMD_CHALLENGE_CREATE, .tc = blitz};
    CHECK_EQ_INT(apply(w, a, link, 10000), 0);
    created(id);
    const struct seek *s = world_seek(w, id);
    CHECK(s != NULL);
    if (s) CHECK_MESSAGE(proto_encode_challenge(s));
    CHECK_EQ_INT(apply_to(w, a, CORE_CMD_CHALLENGE_CANCEL, id, NULL, 10000), 0);

    struct core_cmd direct = {.type = CORE_CMD_CHALLENGE_CREATE,
                              .tc = {.unlimited = true},
                              .color = COLOR_CHOICE_WHITE,
                              .opponent = bot->id};
    CHECK_EQ_INT(apply(w, a, direct, 11000), 0);
    created(id);
    CHECK_EQ_INT(apply(w, bot,
                       (struct core_cmd){.type = CORE_CMD_CHALLENGE_DECLINE,
                                         .target = id,
                                         .decline_reason = CHALLENGE_DECLINE_LATER},
                       11000),
                 0);
    CHECK_EQ_INT(apply(w, a, direct, 12000), 0);
    created(id);
    CHECK_EQ_INT(apply_to(w, bot, CORE_CMD_CHALLENGE_ACCEPT, id, NULL, 12000), 0);
    struct game *g = started();
    CHECK(g != NULL);
    if (!g) return;
    char game[GAME_ID_LEN + 1];
    snprintf(game, sizeof game, "%s", g->id);
    CHECK_EQ_INT(apply_to(w, a, CORE_CMD_MOVE, game, "d4", 13000), 0); /* the bot to move */
    CHECK_EQ_INT(apply_to(w, bot, CORE_CMD_MOVE, game, "d5", 14000), 0);
    CHECK_EQ_INT(apply_to(w, bot, CORE_CMD_TAKEBACK_OFFER, game, NULL, 15000), 0);
    CHECK_EQ_INT(apply_to(w, a, CORE_CMD_TAKEBACK_ACCEPT, game, NULL, 15000), 0); /* bot again */
    CHECK_MESSAGE(proto_encode_thinking(world_game(w, game), true));
}

/* The connection's messages, lists, errors and the engine's lines. */
static void sample_replies(struct world *w, struct player *a, struct player *bot) {
    CHECK_MESSAGE(proto_encode_welcome(a, 20000));
    CHECK_MESSAGE(proto_encode_welcome(bot, 20000)); /* no token */
    a->admin = true;                                 /* a moderator's welcome says so */
    CHECK_MESSAGE(proto_encode_welcome(a, 20000));
    a->admin = false;
    CHECK_MESSAGE(proto_encode_simple("pong"));
    CHECK_MESSAGE(proto_encode_simple("ok"));
    struct opening najdorf = {"B90", "Sicilian: Najdorf", 10};
    CHECK_MESSAGE(proto_encode_opening(&najdorf));
    CHECK_MESSAGE(proto_encode_opening(NULL));
    CHECK_MESSAGE(proto_encode_error(-CORE_ERR_NOT_YOUR_TURN, NULL));
    CHECK_MESSAGE(proto_encode_error(-PROTO_ERR_BAD_FIELD, "ply"));
    struct core_cmd seek = {.type = CORE_CMD_SEEK_CREATE, .tc = blitz};
    CHECK_EQ_INT(apply(w, a, seek, 20000), 0);
    CHECK_MESSAGE(proto_encode_seeks(w));
    CHECK_MESSAGE(proto_encode_live_games(w, 20, 20000));

    /* net/engine.c adds the game and ply, or the analysis id, to a search line. */
    struct chess_position root;
    chess_position_startpos(&root);
    chess_move pv[1];
    CHECK_EQ_INT(chess_move_from_uci(&root, "e2e4", &pv[0]), 0);
    struct chess_search_info info = {.depth = 9,
                                     .seldepth = 12,
                                     .multipv = 1,
                                     .score = 31,
                                     .lowerbound = true,
                                     .nodes = 400000,
                                     .nps = 1500000,
                                     .time_ms = 260,
                                     .pv_length = 1,
                                     .pv = pv};
    json_t *line = proto_encode_search_line("computer_analysis", &root, &info);
    if (line) {
        json_object_set_new(line, "game", json_string("Ab3dE5fG"));
        json_object_set_new(line, "ply", json_integer(0));
    }
    CHECK_MESSAGE(line);
    line = proto_encode_search_line("analysis", &root, &info);
    if (line) json_object_set_new(line, "analysis", json_integer(17));
    CHECK_MESSAGE(line);
}

static void test_every_message(void) {
    struct world_config cfg;
    world_config_defaults(&cfg);
    cfg.random = counter_random;
    cfg.random_ctx = &counter;
    struct world *w = world_create(&cfg);
    struct player *a = world_player_create(w, "Ann", 0);
    struct player *b = world_player_create(w, "Bob", 0);
    struct player *bot = world_player_create(w, "RandBot", 0);
    CHECK(w && a && b && bot);
    if (!w || !a || !b || !bot) return;
    a->registered = b->registered = bot->registered = bot->bot = true;
    world_player_attach(w, a, 0, &ev);
    world_player_attach(w, b, 0, &ev);
    world_player_attach(w, bot, 0, &ev);
    sample_game_events(w, a, b);
    sample_pools(w, a, b);
    sample_arenas(w, a, b);
    sample_challenges(w, a, bot);
    sample_replies(w, a, bot);
    world_destroy(w);
}

/* Each declared message was sampled, with every key it declares, or is built elsewhere. */
static void test_coverage(void) {
    for (int i = 0; i < PROTO_OUT_COUNT; i++) {
        const struct proto_server_spec *m = &proto_server_messages[i];
        bool elsewhere = false;
        for (size_t j = 0; j < sizeof built_elsewhere / sizeof built_elsewhere[0]; j++)
            elsewhere = elsewhere || strcmp(built_elsewhere[j], m->type) == 0;
        if (!check_record(sampled[i] != elsewhere, m->type, __FILE__, __LINE__)) {
            printf("     %s\n", sampled[i] ? "is encoded by proto/: take it off built_elsewhere[]"
                                           : "is declared but no sample of it was checked");
            continue;
        }
        for (int k = 0; sampled[i] && k < m->key_count; k++) {
            if (!check_record(key_seen[i][k], m->type, __FILE__, __LINE__))
                printf("     no sample has its key \"%s\"\n", m->keys[k].key);
        }
    }
    for (size_t j = 0; j < sizeof built_elsewhere / sizeof built_elsewhere[0]; j++)
        CHECK(proto_server_find(built_elsewhere[j]) != NULL);
}

int main(void) {
    RUN(test_every_message);
    RUN(test_coverage);
    core_events_free(&ev);
    return check_finish();
}
