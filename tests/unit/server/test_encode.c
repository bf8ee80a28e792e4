/* Tests of message encoding: move events with both clocks, full game state, legal destinations
 * (dests), errors, ids, and serialisation with a free front. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "core/errors.h"
#include "proto/encode.h"
#include "proto/proto.h"

static int counter_random(void *ctx, void *buf, unsigned n) {
    unsigned *c = ctx;
    unsigned char *out = buf;
    for (unsigned i = 0; i < n; i++) out[i] = (unsigned char)((*c)++ * 37u);
    return 0;
}

static unsigned counter;
static struct core_events ev = {.reply = -1};

static const char *str(const json_t *obj, const char *key) {
    return json_string_value(json_object_get(obj, key));
}

/* A world with Alice and Bob, and Alice's seek (5+3, white) in ev. */
static struct world *world_with_seek(struct player **a, struct player **b) {
    struct world_config cfg;
    world_config_defaults(&cfg);
    cfg.random = counter_random;
    cfg.random_ctx = &counter;
    struct world *w = world_create(&cfg);
    *a = world_player_create(w, "Alice", 0);
    *b = world_player_create(w, "Bob", 0);
    struct core_cmd seek = {.type = CORE_CMD_SEEK_CREATE,
                            .tc = {.initial_ms = 300000, .increment_ms = 3000},
                            .color = COLOR_CHOICE_WHITE};
    CHECK_EQ_INT(world_apply(w, *a, &seek, 0, &ev), 0);
    return w;
}

static void test_game_events(void) {
    struct player *a, *b;
    struct world *w = world_with_seek(&a, &b);
    json_t *added = proto_encode_event(&ev.items[0], 0);
    CHECK_EQ_STR(str(added, "type"), "seek_added");
    json_t *s = json_object_get(added, "seek");
    CHECK_EQ_STR(str(json_object_get(s, "player"), "name"), "Alice");
    CHECK_EQ_INT(json_integer_value(json_object_get(json_object_get(s, "time"), "minutes")), 5);
    char seek_id[CHALLENGE_ID_LEN + 1];
    strcpy(seek_id, ev.items[0].seek.id);
    json_decref(added);

    struct core_cmd accept = {.type = CORE_CMD_SEEK_ACCEPT, .target = seek_id};
    CHECK_EQ_INT(world_apply(w, b, &accept, 0, &ev), 0);
    json_t *started = proto_encode_event(&ev.items[ev.reply], 0);
    CHECK_EQ_STR(str(started, "type"), "game_started");
    json_t *game = json_object_get(started, "game");
    CHECK_EQ_STR(str(json_object_get(game, "white"), "name"), "Alice");
    CHECK_EQ_STR(str(game, "status"), "playing");
    CHECK_EQ_STR(str(game, "turn"), "white");
    char game_id[GAME_ID_LEN + 1];
    strcpy(game_id, str(game, "id"));
    json_decref(started);

    const char *moves[] = {"e4", "e5", "Nf3"};
    for (int i = 0; i < 3; i++) {
        struct core_cmd mv = {
            .type = CORE_CMD_MOVE, .target = game_id, .text = moves[i], .expected_ply = -1};
        CHECK_EQ_INT(world_apply(w, i % 2 ? b : a, &mv, 1000 * (i + 1), &ev), 0);
    }
    json_t *move = proto_encode_event(&ev.items[0], 3000);
    CHECK_EQ_STR(str(move, "type"), "move");
    CHECK_EQ_STR(str(move, "uci"), "g1f3");
    CHECK_EQ_STR(str(move, "san"), "Nf3");
    CHECK_EQ_STR(str(move, "turn"), "black");
    CHECK_EQ_INT(json_integer_value(json_object_get(move, "ply")), 3);
    json_t *clock = json_object_get(move, "clock");
    /* White moved 1000 ms after Black's first move: 900 charged after the allowance, +3 s. */
    CHECK_EQ_INT(json_integer_value(json_object_get(clock, "white")), 300000 - 900 + 3000);
    CHECK_EQ_INT(json_integer_value(json_object_get(clock, "black")), 300000);
    CHECK_EQ_STR(str(move, "fen"),
                 "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");

    /* On the network the move is written directly: the same message, in this order. */
    size_t len;
    unsigned char *buf = proto_dump_event(&ev.items[0], 3000, 32, &len);
    CHECK(buf != NULL);
    char expected[512];
    snprintf(
        expected, sizeof expected,
        "{\"type\":\"move\",\"game\":\"%s\",\"v\":%u,\"ply\":3,\"uci\":\"g1f3\","
        "\"san\":\"Nf3\",\"fen\":\"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 "
        "2\",\"turn\":\"black\",\"clock\":{\"white\":302100,\"black\":300000},"
        "\"dests\":{\"a7\":[\"a5\",\"a6\"],\"b7\":[\"b5\",\"b6\"],\"c7\":[\"c5\",\"c6\"],"
        "\"d7\":[\"d5\",\"d6\"],\"f7\":[\"f5\",\"f6\"],\"g7\":[\"g5\",\"g6\"],"
        "\"h7\":[\"h5\",\"h6\"],\"b8\":[\"a6\",\"c6\"],\"d8\":[\"h4\",\"g5\",\"f6\",\"e7\"],"
        "\"e8\":[\"e7\"],\"f8\":[\"a3\",\"b4\",\"c5\",\"d6\",\"e7\"],"
        "\"g8\":[\"f6\",\"h6\",\"e7\"]}}",
        game_id, (unsigned)ev.items[0].version);
    if (buf) {
        CHECK_EQ_INT((int)len, (int)strlen(expected));
        CHECK(memcmp(buf + 32, expected, len) == 0);
        free(buf);
    }

    /* The id goes on a copy for the requester; serialising leaves the front free. */
    json_t *id = json_string("m3");
    CHECK_EQ_INT(proto_set_id(move, id), 0);
    json_decref(id);
    buf = proto_dump(move, 32, &len);
    CHECK(buf != NULL);
    if (buf) {
        CHECK(len > 0 && buf[32] == '{' && buf[32 + len - 1] == '}');
        char *text = strndup((char *)buf + 32, len);
        CHECK(text && strstr(text, "\"id\":\"m3\"") != NULL);
        free(text);
        free(buf);
    }
    json_decref(move);

    struct core_cmd resign = {.type = CORE_CMD_RESIGN, .target = game_id};
    CHECK_EQ_INT(world_apply(w, b, &resign, 4000, &ev), 0);
    json_t *end = proto_encode_event(&ev.items[0], 4000);
    CHECK_EQ_STR(str(end, "type"), "game_end");
    CHECK_EQ_STR(str(end, "result"), "1-0");
    CHECK_EQ_STR(str(end, "reason"), "resignation");
    CHECK_EQ_STR(str(end, "winner"), "white");
    json_decref(end);

    json_t *full = proto_encode_game(world_game(w, game_id), 5000, PROTO_VIEWER_SPECTATOR);
    CHECK_EQ_INT(json_array_size(json_object_get(full, "moves")), 3);
    CHECK_EQ_STR(json_string_value(json_array_get(json_object_get(full, "san"), 2)), "Nf3");
    CHECK_EQ_STR(str(full, "status"), "ended");
    CHECK_EQ_STR(str(full, "reason"), "resignation");
    json_decref(full);
    world_destroy(w);
}

/* The dests of a position read from a FEN under a variant. */
static void dests_of(const char *fen, int variant, char text[PROTO_DESTS_MAX],
                     struct chess_position *pos) {
    CHECK_EQ_INT(chess_fen_parse_variant(pos, fen, variant), 0);
    struct chess_move_list legal;
    chess_generate_moves(pos, CHESS_GEN_ALL, &legal);
    int n = proto_write_dests(&legal, text);
    CHECK_EQ_INT(n, (int)strlen(text));
    json_t *obj = json_loads(text, 0, NULL);
    CHECK(json_is_object(obj)); /* valid JSON */
    /* Every origin-destination pair, sent as UCI, is a legal move; every legal move is one. */
    const char *from;
    json_t *tos;
    int pairs = 0;
    json_object_foreach(obj, from, tos) {
        size_t i;
        json_t *to;
        json_array_foreach(tos, i, to) {
            char uci[CHESS_UCI_MAX];
            snprintf(uci, sizeof uci, "%s%s", from, json_string_value(to));
            chess_move m;
            int rc = chess_move_from_uci(pos, uci, &m);
            if (rc < 0) { /* a promotion: the client asks for the piece */
                strcat(uci, "q");
                rc = chess_move_from_uci(pos, uci, &m);
            }
            CHECK_EQ_INT(rc, 0);
            pairs++;
        }
    }
    CHECK(pairs >= legal.count - 3 * (int)json_object_size(obj)); /* promotions count once */
    json_decref(obj);
}

static void test_dests(void) {
    char text[PROTO_DESTS_MAX];
    struct chess_position pos;
    /* Chess960, king e1, rooks b1 and g1: castling by the rook's square and by the king's own
     * destination (c1; g1 is both). */
    dests_of("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", CHESS_VARIANT_STANDARD, text, &pos);
    CHECK(pos.chess960);
    CHECK(strstr(text, "\"e1\":[\"b1\",\"c1\",\"d1\",\"f1\",\"g1\",\"d2\",\"e2\",\"f2\"]"));
    chess_move m;
    CHECK_EQ_INT(chess_move_from_uci(&pos, "e1c1", &m), 0);
    CHECK_EQ_INT(chess_move_kind(m), CHESS_MOVE_CASTLING);
    CHECK_EQ_INT(chess_move_from_uci(&pos, "e1b1", &m), 0);
    CHECK_EQ_INT(chess_move_kind(m), CHESS_MOVE_CASTLING);
    /* King f1, rook h1: g1 is the king's step (listed once), castling is onto h1. */
    dests_of("4k3/8/8/8/8/8/8/5K1R w H - 0 1", CHESS_VARIANT_STANDARD, text, &pos);
    CHECK(strstr(text, "\"f1\":[\"e1\",\"g1\",\"h1\",\"e2\",\"f2\",\"g2\"]"));
    CHECK_EQ_INT(chess_move_from_uci(&pos, "f1g1", &m), 0);
    CHECK_EQ_INT(chess_move_kind(m), CHESS_MOVE_NORMAL);
    /* Standard chess: the king's two squares and its rook alike. */
    dests_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CHESS_VARIANT_STANDARD, text, &pos);
    CHECK(strstr(text, "\"e1\":[\"a1\",\"c1\",\"d1\",\"f1\",\"g1\",\"h1\",\"d2\",\"e2\",\"f2\"]"));
    /* Three-check: in check, only the evasions; after the third check given, nothing. */
    const char *checked = "rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3 +1+0";
    dests_of(checked, CHESS_VARIANT_THREE_CHECK, text, &pos);
    CHECK_EQ_STR(text, "{\"c7\":[\"c6\"],\"b8\":[\"c6\",\"d7\"],\"c8\":[\"d7\"],"
                       "\"d8\":[\"d7\"],\"e8\":[\"e7\"]}");
    dests_of("rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3 +3+0",
             CHESS_VARIANT_THREE_CHECK, text, &pos);
    CHECK_EQ_STR(text, "{}");
    /* A promotion's four moves give one destination. */
    dests_of("8/P6k/8/8/8/8/8/K7 w - - 0 1", CHESS_VARIANT_STANDARD, text, &pos);
    CHECK(strstr(text, "\"a7\":[\"a8\"]"));
}

/* A live game's state and move events carry dests; a mated game's do not. */
static void test_dests_in_events(void) {
    struct player *a, *b;
    struct world *w = world_with_seek(&a, &b);
    char seek_id[CHALLENGE_ID_LEN + 1];
    strcpy(seek_id, ev.items[0].seek.id);
    struct core_cmd accept = {.type = CORE_CMD_SEEK_ACCEPT, .target = seek_id};
    CHECK_EQ_INT(world_apply(w, b, &accept, 0, &ev), 0);
    json_t *started = proto_encode_event(&ev.items[ev.reply], 0);
    json_t *game = json_object_get(started, "game");
    char game_id[GAME_ID_LEN + 1];
    strcpy(game_id, str(game, "id"));
    json_t *dests = json_object_get(game, "dests");
    CHECK_EQ_INT((int)json_object_size(dests), 10); /* eight pawns, two knights */
    CHECK_EQ_INT((int)json_array_size(json_object_get(dests, "g1")), 2);
    json_decref(started);
    const char *moves[] = {"f3", "e5", "g4", "Qh4#"};
    for (int i = 0; i < 4; i++) {
        struct core_cmd mv = {
            .type = CORE_CMD_MOVE, .target = game_id, .text = moves[i], .expected_ply = -1};
        CHECK_EQ_INT(world_apply(w, i % 2 ? b : a, &mv, 1000 * (i + 1), &ev), 0);
        json_t *move = proto_encode_event(&ev.items[0], 1000 * (i + 1));
        CHECK_EQ_STR(str(move, "type"), "move");
        dests = json_object_get(move, "dests");
        if (i == 2) /* Black after 1. f3 e5 2. g4: the queen reaches h4 */
            CHECK(json_array_size(json_object_get(dests, "d8")) == 4);
        CHECK(i == 3 ? dests == NULL : json_object_size(dests) > 0);
        json_decref(move);
    }
    json_t *full = proto_encode_game(world_game(w, game_id), 5000, PROTO_VIEWER_PLAYER);
    CHECK_EQ_STR(str(full, "reason"), "checkmate");
    CHECK(json_object_get(full, "dests") == NULL);
    json_decref(full);
    world_destroy(w);
}

/* A daily game through the world: guests refused, {"days": N} and the deadline in the game
 * state and the move event, the one timer at the deadline ending it on time. */
static void test_daily_game(void) {
    const long long wall0 = 1700000000000LL, day = 24LL * 3600 * 1000;
    struct world_config cfg;
    world_config_defaults(&cfg);
    cfg.random = counter_random;
    cfg.random_ctx = &counter;
    struct world *w = world_create(&cfg);
    world_set_wall_offset(w, wall0);
    struct player *a = world_player_create(w, "Alice", 0);
    struct player *b = world_player_create(w, "Bob", 0);
    struct core_cmd seek = {
        .type = CORE_CMD_SEEK_CREATE, .tc = {.days = 2}, .color = COLOR_CHOICE_WHITE};
    CHECK_EQ_INT(world_apply(w, a, &seek, 0, &ev), -CORE_ERR_DAILY_NEEDS_ACCOUNT);
    a->registered = true;
    CHECK_EQ_INT(world_apply(w, a, &seek, 0, &ev), 0);
    char seek_id[CHALLENGE_ID_LEN + 1];
    strcpy(seek_id, ev.items[0].seek.id);
    struct core_cmd accept = {.type = CORE_CMD_SEEK_ACCEPT, .target = seek_id};
    CHECK_EQ_INT(world_apply(w, b, &accept, 0, &ev), -CORE_ERR_DAILY_NEEDS_ACCOUNT);
    b->registered = true;
    CHECK_EQ_INT(world_apply(w, b, &accept, 0, &ev), 0);
    json_t *started = proto_encode_event(&ev.items[ev.reply], 0);
    json_t *game = json_object_get(started, "game");
    CHECK_EQ_INT(json_integer_value(json_object_get(json_object_get(game, "time"), "days")), 2);
    char game_id[GAME_ID_LEN + 1];
    strcpy(game_id, str(game, "id"));
    json_decref(started);
    /* The only timer: a day for both sides to move. */
    CHECK_EQ_INT(world_next_deadline(w), day);
    const char *moves[] = {"e4", "e5"};
    for (int i = 0; i < 2; i++) {
        struct core_cmd mv = {
            .type = CORE_CMD_MOVE, .target = game_id, .text = moves[i], .expected_ply = -1};
        CHECK_EQ_INT(world_apply(w, i % 2 ? b : a, &mv, 1000 * (i + 1), &ev), 0);
    }
    size_t len;
    unsigned char *buf = proto_dump_event(&ev.items[0], 2000, 0, &len);
    CHECK(buf != NULL);
    if (buf) {
        char *text = strndup((char *)buf, len);
        char expected[96];
        snprintf(expected, sizeof expected,
                 "\"clock\":{\"white\":%lld,\"black\":%lld,\"deadline\":%lld}", 2 * day, 2 * day,
                 wall0 + 2000 + 2 * day);
        CHECK(text && strstr(text, expected) != NULL);
        free(text);
        free(buf);
    }
    json_t *full = proto_encode_game(world_game(w, game_id), 3000, PROTO_VIEWER_SPECTATOR);
    json_t *clock = json_object_get(full, "clock");
    CHECK_EQ_INT(json_integer_value(json_object_get(clock, "deadline")), wall0 + 2000 + 2 * day);
    CHECK_EQ_INT(json_integer_value(json_object_get(clock, "white")), 2 * day - 1000);
    json_decref(full);
    CHECK_EQ_INT(world_next_deadline(w), 2000 + 2 * day);
    world_tick(w, 2000 + 2 * day - 1, &ev);
    CHECK_EQ_INT(ev.count, 0);
    world_tick(w, 2000 + 2 * day, &ev);
    CHECK(ev.count >= 1);
    json_t *end = proto_encode_event(&ev.items[0], 2000 + 2 * day);
    CHECK_EQ_STR(str(end, "type"), "game_end");
    CHECK_EQ_STR(str(end, "reason"), "timeout");
    CHECK_EQ_STR(str(end, "winner"), "black");
    json_decref(end);
    world_destroy(w);
}

static void test_error(void) {
    json_t *err = proto_encode_error(-CORE_ERR_NOT_YOUR_TURN, NULL);
    CHECK_EQ_STR(str(err, "type"), "error");
    CHECK_EQ_STR(str(err, "code"), "NOT_YOUR_TURN");
    CHECK(str(err, "message") != NULL);
    CHECK(json_object_get(err, "field") == NULL);
    json_decref(err);
    err = proto_encode_error(-PROTO_ERR_BAD_FIELD, "ply");
    CHECK_EQ_STR(str(err, "field"), "ply");
    json_decref(err);
}

/* The id added to serialised text round-trips through a JSON parser, whatever it holds. */
static void check_with_id(const char *object, json_t *id) {
    size_t len;
    unsigned char *buf =
        proto_dump_with_id((const unsigned char *)object, strlen(object), id, 16, &len);
    CHECK(buf != NULL);
    if (buf) {
        json_error_t error;
        json_t *parsed = json_loadb((const char *)buf + 16, len, JSON_ALLOW_NUL, &error);
        CHECK(parsed != NULL);
        CHECK(json_equal(json_object_get(parsed, "id"), id));
        json_t *original = json_loads(object, 0, NULL);
        json_object_del(parsed, "id");
        CHECK(json_equal(parsed, original));
        json_decref(original);
        json_decref(parsed);
        free(buf);
    }
    json_decref(id);
}

static void test_with_id(void) {
    check_with_id("{\"type\":\"move\",\"v\":3}", json_integer(-9007199254740993LL));
    check_with_id("{\"type\":\"ok\"}", json_integer(0));
    /* Every digit count, both ends of the range. */
    for (int64_t n = 1, i = 0; i < 18; n *= 10, i++) {
        check_with_id("{\"type\":\"ok\"}", json_integer(n - 1));
        check_with_id("{\"type\":\"ok\"}", json_integer(n));
        check_with_id("{\"type\":\"ok\"}", json_integer(-n - 7));
    }
    check_with_id("{\"type\":\"ok\"}", json_integer(INT64_MAX));
    check_with_id("{\"type\":\"ok\"}", json_integer(INT64_MIN));
    check_with_id("{}", json_string("a"));
    check_with_id("{\"type\":\"ok\"}", json_string("quote\" backslash\\ tab\t nl\n \x01 \x1f"));
    check_with_id("{\"type\":\"ok\"}", json_string("caf\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x98\x80 /"));
    check_with_id("{\"type\":\"ok\"}", json_stringn("nul\0inside", 11));
    /* Not an object, or an id proto_decode() would have refused: nothing. */
    size_t len;
    json_t *id = json_integer(1);
    CHECK(proto_dump_with_id((const unsigned char *)"[1]", 3, id, 0, &len) == NULL);
    CHECK(proto_dump_with_id((const unsigned char *)"{", 1, id, 0, &len) == NULL);
    json_decref(id);
    json_t *obj = json_object();
    CHECK(proto_dump_with_id((const unsigned char *)"{}", 2, obj, 0, &len) == NULL);
    json_decref(obj);
}

int main(void) {
    RUN(test_game_events);
    RUN(test_dests);
    RUN(test_dests_in_events);
    RUN(test_daily_game);
    RUN(test_with_id);
    RUN(test_error);
    core_events_free(&ev);
    return check_finish();
}
