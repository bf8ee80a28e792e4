/* Tests of the protocol decoder: every message kind decodes, and every mistake gets its code. */
#include <string.h>

#include "check.h"
#include "proto/proto.h"
#include "proto_describe.h"

static int decode(const char *text, struct proto_request *req) {
    return proto_decode(text, strlen(text), req);
}

/* Decodes, checks the result code (0 or a negative error) and the field on BAD_FIELD. */
static void expect(const char *text, int code, const char *field) {
    struct proto_request req;
    int rc = decode(text, &req);
    if (!check_record(rc == code, text, __FILE__, __LINE__))
        printf("     got %s (%d), expected %s\n", proto_error_name(rc), rc, proto_error_name(code));
    if (field) CHECK_EQ_STR(req.field, field);
    proto_request_clear(&req);
}

static void test_errors(void) {
    expect("{", -PROTO_ERR_BAD_JSON, NULL);
    expect("", -PROTO_ERR_BAD_JSON, NULL);
    expect("[1,2]", -PROTO_ERR_BAD_MESSAGE, NULL);
    expect("{\"id\":1}", -PROTO_ERR_BAD_MESSAGE, NULL);
    expect("{\"type\":5}", -PROTO_ERR_BAD_MESSAGE, NULL);
    expect("{\"type\":\"fly\"}", -PROTO_ERR_UNKNOWN_TYPE, NULL);
    expect("{\"type\":\"ping\",\"type\":\"ping\"}", -PROTO_ERR_BAD_JSON, NULL);
    expect("{\"type\":\"ping\",\"id\":[1]}", -PROTO_ERR_BAD_FIELD, "id");
    expect("{\"type\":\"ping\",\"id\":1.5}", -PROTO_ERR_BAD_FIELD, "id");
    expect("{\"type\":\"move\",\"game\":\"abc\"}", -PROTO_ERR_BAD_FIELD, "move");
    expect("{\"type\":\"move\",\"move\":\"e4\"}", -PROTO_ERR_BAD_FIELD, "game");
    expect("{\"type\":\"move\",\"game\":\"a-b\",\"move\":\"e4\"}", -PROTO_ERR_BAD_FIELD, "game");
    expect("{\"type\":\"move\",\"game\":\"ab\",\"move\":\"e4\",\"ply\":-1}", -PROTO_ERR_BAD_FIELD,
           "ply");
    expect("{\"type\":\"move\",\"game\":\"ab\",\"move\":\"\"}", -PROTO_ERR_BAD_FIELD, "move");
    expect("{\"type\":\"seek_create\"}", -PROTO_ERR_BAD_FIELD, "time");
    expect("{\"type\":\"seek_create\",\"time\":{\"minutes\":0,\"increment\":0}}",
           -PROTO_ERR_BAD_FIELD, "time");
    expect("{\"type\":\"seek_create\",\"time\":{\"minutes\":5,\"increment\":1.5}}",
           -PROTO_ERR_BAD_FIELD, "time");
    expect("{\"type\":\"seek_create\",\"time\":{\"minutes\":500,\"increment\":0}}",
           -PROTO_ERR_BAD_FIELD, "time");
    expect("{\"type\":\"seek_create\",\"time\":\"forever\"}", -PROTO_ERR_BAD_FIELD, "time");
    /* The increment is checked in seconds: scaled first, a huge one overflowed (fuzz_proto). */
    expect("{\"type\":\"seek_create\",\"time\":{\"minutes\":3,\"increment\":180}}", 0, NULL);
    expect("{\"type\":\"seek_create\",\"time\":{\"minutes\":3,\"increment\":181}}",
           -PROTO_ERR_BAD_FIELD, "time");
    expect("{\"type\":\"seek_create\",\"time\":{\"minutes\":3,\"increment\":"
           "9223372036854775807}}",
           -PROTO_ERR_BAD_FIELD, "time");
    expect("{\"type\":\"seek_create\",\"time\":{\"minutes\":3,\"increment\":"
           "10000000000000000}}",
           -PROTO_ERR_BAD_FIELD, "time");
    expect("{\"type\":\"seek_create\",\"time\":\"unlimited\",\"color\":\"green\"}",
           -PROTO_ERR_BAD_FIELD, "color");
    expect("{\"type\":\"computer_play\",\"level\":9,\"time\":\"unlimited\"}", -PROTO_ERR_BAD_FIELD,
           "level");
    expect("{\"type\":\"abandon_claim\",\"game\":\"ab\",\"result\":\"lose\"}", -PROTO_ERR_BAD_FIELD,
           "result");
    expect("{\"type\":\"hello\"}", -PROTO_ERR_BAD_FIELD, "protocol");
    expect("{\"type\":\"hello\",\"protocol\":1,\"name\":\"a b\"}", -PROTO_ERR_BAD_FIELD, "name");
    expect("{\"type\":\"chat\",\"game\":\"ab\",\"text\":\"x\",\"room\":\"all\"}",
           -PROTO_ERR_BAD_FIELD, "room");
    expect("{\"type\":\"live_games\",\"limit\":1000}", -PROTO_ERR_BAD_FIELD, "limit");
    /* A string with an embedded NUL is refused, not cut. */
    expect("{\"type\":\"move\",\"game\":\"ab\",\"move\":\"e4\\u0000x\"}", -PROTO_ERR_BAD_JSON,
           NULL);
    /* Invalid UTF-8 is refused too. */
    expect("{\"type\":\"chat\",\"game\":\"ab\",\"text\":\"\xff\"}", -PROTO_ERR_BAD_JSON, NULL);
}

static void test_id_kept_on_error(void) {
    struct proto_request req;
    CHECK_EQ_INT(decode("{\"type\":\"fly\",\"id\":\"r1\"}", &req), -PROTO_ERR_UNKNOWN_TYPE);
    CHECK(req.id && strcmp(json_string_value(req.id), "r1") == 0);
    proto_request_clear(&req);
}

static void test_decode_commands(void) {
    struct proto_request req;
    CHECK_EQ_INT(
        decode("{\"type\":\"move\",\"id\":7,\"game\":\"Ab12\",\"move\":\"Nf3\",\"ply\":4}", &req),
        0);
    CHECK_EQ_INT(req.msg, PROTO_MSG_MOVE);
    CHECK_EQ_INT(req.cmd.type, CORE_CMD_MOVE);
    CHECK_EQ_STR(req.cmd.target, "Ab12");
    CHECK_EQ_STR(req.cmd.text, "Nf3");
    CHECK_EQ_INT(req.cmd.expected_ply, 4);
    CHECK_EQ_INT(json_integer_value(req.id), 7);
    proto_request_clear(&req);

    CHECK_EQ_INT(decode("{\"type\":\"seek_create\",\"time\":{\"minutes\":0.5,\"increment\":2},"
                        "\"color\":\"black\"}",
                        &req),
                 0);
    CHECK_EQ_INT(req.cmd.type, CORE_CMD_SEEK_CREATE);
    CHECK_EQ_INT(req.cmd.tc.initial_ms, 30000);
    CHECK_EQ_INT(req.cmd.tc.increment_ms, 2000);
    CHECK(!req.cmd.tc.unlimited);
    CHECK(!req.cmd.casual && !req.cmd.rated_required); /* rated when it can be */
    CHECK_EQ_INT(req.cmd.color, COLOR_CHOICE_BLACK);
    proto_request_clear(&req);

    CHECK_EQ_INT(decode("{\"type\":\"challenge_create\",\"time\":\"unlimited\"}", &req), 0);
    CHECK(req.cmd.tc.unlimited);
    CHECK_EQ_INT(req.cmd.color, COLOR_CHOICE_RANDOM);
    proto_request_clear(&req);

    CHECK_EQ_INT(
        decode("{\"type\":\"hello\",\"protocol\":1,\"token\":\"abc\",\"name\":\"Al_1\"}", &req), 0);
    CHECK_EQ_INT(req.msg, PROTO_MSG_HELLO);
    CHECK_EQ_INT(req.protocol, 1);
    CHECK_EQ_STR(req.token, "abc");
    CHECK_EQ_STR(req.name, "Al_1");
    proto_request_clear(&req);

    CHECK_EQ_INT(decode("{\"type\":\"abandon_claim\",\"game\":\"g\",\"result\":\"win\"}", &req), 0);
    CHECK(req.cmd.claim_win);
    proto_request_clear(&req);

    CHECK_EQ_INT(decode("{\"type\":\"chat\",\"game\":\"g\",\"text\":\"hi\"}", &req), 0);
    CHECK_EQ_INT(req.cmd.room, CHAT_ROOM_AUTO);
    proto_request_clear(&req);

    CHECK_EQ_INT(decode("{\"type\":\"live_games\"}", &req), 0);
    CHECK_EQ_INT(req.limit, 20);
    proto_request_clear(&req);
}

/* "rated": false asks for a casual game, true for a rated one or none; anything else is bad. */
static void test_rated_field(void) {
    struct proto_request req;
    const char *casual = "{\"type\":\"seek_create\",\"time\":{\"minutes\":3,\"increment\":2},"
                         "\"rated\":false}";
    CHECK_EQ_INT(decode(casual, &req), 0);
    CHECK(req.cmd.casual && !req.cmd.rated_required);
    proto_request_clear(&req);
    const char *rated = "{\"type\":\"challenge_create\",\"time\":{\"minutes\":3,\"increment\":"
                        "2},\"rated\":true}";
    CHECK_EQ_INT(decode(rated, &req), 0);
    CHECK(!req.cmd.casual && req.cmd.rated_required);
    proto_request_clear(&req);
    expect("{\"type\":\"seek_create\",\"time\":{\"minutes\":3,\"increment\":2},\"rated\":1}",
           -PROTO_ERR_BAD_FIELD, "rated");
}

static void test_table_and_names(void) {
    for (int i = 0; i < PROTO_MSG_COUNT; i++) {
        CHECK(proto_messages[i].type != NULL);
        CHECK_EQ_INT(proto_messages[i].msg, i);
        CHECK(proto_messages[i].handler && proto_messages[i].handler[0]);
        for (int k = 0; k < PROTO_FIELD_COUNT; k++)
            CHECK(proto_messages[i].use[k] <= PROTO_REQUIRED);
        CHECK_EQ_INT(proto_messages[i].use[PROTO_FIELD_COUNT], PROTO_UNUSED);
        for (int j = 0; j < i; j++) CHECK(strcmp(proto_messages[i].type, proto_messages[j].type));
        /* Only these may come before hello. */
        bool anytime = i == PROTO_MSG_HELLO || i == PROTO_MSG_PING || i == PROTO_MSG_LOGIN;
        CHECK_EQ_INT(proto_messages[i].needs_hello, !anytime);
    }
    CHECK_EQ_STR(proto_error_name(-CORE_ERR_ILLEGAL_MOVE), "ILLEGAL_MOVE");
    CHECK_EQ_STR(proto_error_name(-PROTO_ERR_RATE_LIMITED), "RATE_LIMITED");
    CHECK_EQ_STR(proto_error_name(12345), "INTERNAL");
    CHECK(strlen(proto_error_message(-PROTO_ERR_BAD_JSON)) > 0);
}

/* The columns of the declaration: core commands, the words of word fields, server messages. */
static void test_table_columns(void) {
    int seen[CORE_CMD_COUNT] = {0};
    for (int i = 0; i < PROTO_MSG_COUNT; i++) {
        int core = proto_core_command((enum proto_msg)i);
        if (core == PROTO_NO_CMD) continue;
        CHECK(core >= 0 && core < CORE_CMD_COUNT);
        if (core >= 0 && core < CORE_CMD_COUNT) seen[core]++;
    }
    for (int c = 0; c < CORE_CMD_COUNT; c++) CHECK_EQ_INT(seen[c], 1);
    CHECK_EQ_INT(proto_core_command(PROTO_MSG_MOVE), CORE_CMD_MOVE);
    CHECK_EQ_INT(proto_core_command(PROTO_MSG_TAKEBACK_PROPOSE), CORE_CMD_TAKEBACK_OFFER);
    CHECK_EQ_INT(proto_core_command(PROTO_MSG_CHALLENGE_DECLINE), CORE_CMD_CHALLENGE_DECLINE);
    CHECK_EQ_INT(proto_core_command(PROTO_MSG_HELLO), PROTO_NO_CMD);
    CHECK_EQ_INT(proto_core_command(PROTO_MSG_COUNT), PROTO_NO_CMD);
    CHECK(proto_messages[PROTO_MSG_MOVE].writes && !proto_messages[PROTO_MSG_PING].writes);
    CHECK_EQ_STR(proto_messages[PROTO_MSG_HELLO].handler, "handle_hello");

    /* Word fields give the index into a core enum. */
    CHECK_EQ_INT(proto_fields[PROTO_FIELD_REASON].words.count, CHALLENGE_DECLINE_COUNT);
    CHECK_EQ_STR(proto_word(PROTO_FIELD_REASON, CHALLENGE_DECLINE_TOO_MANY_GAMES),
                 "too_many_games");
    CHECK_EQ_INT(proto_fields[PROTO_FIELD_CATEGORY].words.count, RATING_CATEGORY_COUNT);
    for (int c = 0; c < RATING_CATEGORY_COUNT; c++)
        CHECK_EQ_STR(proto_word(PROTO_FIELD_CATEGORY, c), rating_category_name(c));
    CHECK_EQ_INT(proto_fields[PROTO_FIELD_COLOR].words.count, 3);
    CHECK_EQ_STR(proto_word(PROTO_FIELD_COLOR, COLOR_CHOICE_WHITE), "white");
    CHECK_EQ_STR(proto_word(PROTO_FIELD_COLOR, COLOR_CHOICE_RANDOM), "random");
    CHECK_EQ_STR(proto_word(PROTO_FIELD_ROOM, CHAT_ROOM_SPECTATORS), "spectators");
    CHECK_EQ_STR(proto_word(PROTO_FIELD_RESULT, 1), "win");
    CHECK_EQ_STR(proto_word(PROTO_FIELD_COLOR, 3), "");
    CHECK_EQ_STR(proto_word(PROTO_FIELD_GAME, 0), "");
    for (int k = 0; k < PROTO_FIELD_COUNT; k++) {
        const struct proto_field_spec *f = &proto_fields[k];
        CHECK(f->key && f->ts && f->min <= f->max);
        CHECK_EQ_INT(f->check == PROTO_CHECK_WORD, f->words.count > 0);
    }

    /* Server messages: each type once, each key once, never "type" or "id". */
    for (int i = 0; i < PROTO_OUT_COUNT; i++) {
        const struct proto_server_spec *m = &proto_server_messages[i];
        CHECK(proto_server_find(m->type) == m);
        for (int k = 0; k < m->key_count; k++) {
            CHECK(strcmp(m->keys[k].key, "type") && strcmp(m->keys[k].key, "id"));
            for (int j = 0; j < k; j++) CHECK(strcmp(m->keys[k].key, m->keys[j].key));
        }
    }
    CHECK(proto_server_find("fly") == NULL);
    CHECK_EQ_INT(proto_server_messages[PROTO_OUT_PONG].key_count, 0);
    CHECK_EQ_INT(proto_server_messages[PROTO_OUT_MOVE].key_count, 10); /* with dests */
}

/* proto_server_check() tells an undeclared key from a missing one. */
static void test_server_check(void) {
    const char *key;
    json_t *msg =
        json_pack("{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:n,s:i}", "type", "move", "game", "ab", "v", 3,
                  "uci", "e2e4", "san", "e4", "fen", "x", "turn", "black", "clock", "id", 7);
    CHECK_EQ_INT(proto_server_check(msg, &key), -3); /* no ply */
    CHECK_EQ_STR(key, "ply");
    json_object_set_new(msg, "ply", json_integer(1));
    CHECK_EQ_INT(proto_server_check(msg, &key), 0);
    json_object_set_new(msg, "legal_moves", json_array()); /* optional */
    CHECK_EQ_INT(proto_server_check(msg, &key), 0);
    json_object_set_new(msg, "dests", json_object()); /* optional */
    CHECK_EQ_INT(proto_server_check(msg, &key), 0);
    json_object_set_new(msg, "colour", json_string("white"));
    CHECK_EQ_INT(proto_server_check(msg, &key), -2);
    CHECK_EQ_STR(key, "colour");
    json_object_set_new(msg, "type", json_string("fly"));
    CHECK_EQ_INT(proto_server_check(msg, &key), -1);
    json_decref(msg);
}

/* ---- the flat reader against jansson ---- */

/* Decodes text both ways; every outcome and every decoded field must be the same. */
static bool both_ways(const char *text, size_t len, bool *was_flat) {
    struct proto_request a, b;
    int ra = proto_decode(text, len, &a);
    int rb = proto_decode_general(text, len, &b);
    struct proto_description da = {0}, db = {0};
    const char *ta = proto_describe(&da, ra, &a), *tb = proto_describe(&db, rb, &b);
    bool same = ta && tb && strcmp(ta, tb) == 0;
    if (!same) printf("     flat:    %s\n     jansson: %s\n", ta ? ta : "?", tb ? tb : "?");
    if (was_flat) *was_flat = a.flat;
    free(da.text);
    free(db.text);
    proto_request_clear(&a);
    proto_request_clear(&b);
    return same;
}

static void test_flat_reader_agrees(void) {
    static const char *const seeds[] = {
        "{\"type\":\"move\",\"game\":\"Ab3dE5fG\",\"move\":\"e2e4\",\"id\":12}",
        "{\"type\":\"move\",\"game\":\"Ab3dE5fG\",\"move\":\"Nf3\",\"ply\":4,\"id\":\"m-4\"}",
        " { \"type\" : \"hello\" , \"protocol\" : 1 , \"name\" : \"Ann_1\" } ",
        "{\"type\":\"hello\",\"protocol\":1,\"token\":\"X8QTZchnGgXQ0kpS5tdo9HMtcZyGwDW2\"}",
        "{\"type\":\"chat\",\"game\":\"ab\",\"text\":\"good game!\",\"room\":\"spectators\"}",
        "{\"type\":\"seek_create\",\"time\":\"unlimited\",\"color\":\"black\"}",
        "{\"type\":\"seek_create\",\"time\":{\"minutes\":3,\"increment\":2},\"rated\":true}",
        "{\"type\":\"computer_play\",\"level\":8,\"time\":\"unlimited\",\"id\":-0}",
        "{\"type\":\"live_games\",\"limit\":100,\"id\":999999999999999999}",
        "{\"type\":\"games_list\",\"player\":\"abc\",\"page\":2}",
        "{\"type\":\"abandon_claim\",\"game\":\"ab\",\"result\":\"win\"}",
        "{\"type\":\"challenge_decline\",\"challenge\":\"KlO1TQIKBahY\",\"reason\":\"later\"}",
        "{\"type\":\"analyse\",\"fen\":\"8/8/8/8/8/8/8/K6k w - - 0 1\",\"moves\":[\"a1a2\"]}",
        "{\"type\":\"ping\",\"type\":\"ping\"}",
        "{\"type\":\"ping\",\"id\":1.0}",
        "{\"type\":\"ping\",\"id\":01}",
        "{\"type\":\"ping\",\"id\":\"caf\\u00e9\"}",
        "{}",
        "[]",
    };
    uint64_t rng = 0x2545f4914f6cdd1dull;
    const char alphabet[] = "{}[]\",:0123456789-.eE tfnrul\\ab\x01\x7f\xc3";
    int flat_seen = 0, total = 0;
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        bool flat;
        CHECK(both_ways(seeds[i], strlen(seeds[i]), &flat));
        flat_seen += flat;
        for (int m = 0; m < 3000; m++) {
            char buf[320];
            size_t len = strlen(seeds[i]);
            memcpy(buf, seeds[i], len);
            int edits = 1 + (int)(rng % 3);
            for (int e = 0; e < edits; e++) {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                size_t at = (size_t)(rng >> 8) % (len + 1);
                char c = alphabet[(rng >> 40) % (sizeof alphabet - 1)];
                switch ((rng >> 60) % 3) {
                    case 0: /* replace */
                        if (at < len) buf[at] = c;
                        break;
                    case 1: /* insert */
                        if (len < sizeof buf - 1) {
                            memmove(buf + at + 1, buf + at, len - at);
                            buf[at] = c;
                            len++;
                        }
                        break;
                    default: /* delete */
                        if (at < len) memmove(buf + at, buf + at + 1, len - at - 1), len--;
                }
            }
            bool mutated_flat;
            bool same = both_ways(buf, len, &mutated_flat);
            if (!check_record(same, "flat reader and jansson agree", __FILE__, __LINE__))
                printf("     on: %.*s\n", (int)len, buf);
            flat_seen += mutated_flat;
            total++;
        }
    }
    /* The fast path was taken often enough for the comparison to mean something. */
    CHECK(flat_seen > total / 10);
    bool flat;
    CHECK(both_ways(seeds[0], strlen(seeds[0]), &flat) && flat);
}

int main(void) {
    RUN(test_errors);
    RUN(test_id_kept_on_error);
    RUN(test_decode_commands);
    RUN(test_rated_field);
    RUN(test_table_and_names);
    RUN(test_table_columns);
    RUN(test_server_check);
    RUN(test_flat_reader_agrees);
    return check_finish();
}
