/*
 * Fuzz target: the protocol decoder (proto_decode), which reads every client message. Any bytes
 * must give either a request within the documented limits or one of the decoder's error codes,
 * and the flat reader (the fast path) must agree with jansson (proto_decode_general) on every
 * input: the same code, the same id and the same decoded fields. The id a request carries is
 * echoed in replies, so it is also written back both ways the server writes it and read again.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/chat.h"
#include "fuzz.h"
#include "proto/encode.h"
#include "proto/proto.h"
#include "proto_describe.h"

/* The id read back from a reply the server would send (text, len), checked equal to id. */
static void check_id_echoed(const unsigned char *text, size_t len, const json_t *id) {
    json_error_t error;
    json_t *reply = json_loadb((const char *)text, len, JSON_REJECT_DUPLICATES, &error);
    FUZZ_ASSERT(reply && json_is_object(reply));
    FUZZ_ASSERT(json_equal(json_object_get(reply, "id"), id));
    json_decref(reply);
}

static void check_id_replies(const json_t *id) {
    static const unsigned char pong[] = "{\"type\":\"pong\"}";
    size_t len;
    unsigned char *text = proto_dump_with_id(pong, sizeof pong - 1, id, 16, &len);
    FUZZ_ASSERT(text);
    check_id_echoed(text + 16, len, id);
    free(text);

    json_t *error = proto_encode_error(-PROTO_ERR_BAD_FIELD, "move");
    FUZZ_ASSERT(error && proto_set_id(error, id) == 0);
    text = proto_dump(error, 0, &len);
    FUZZ_ASSERT(text);
    check_id_echoed(text, len, id);
    free(text);
    json_decref(error);
}

static bool is_id(const char *s, size_t max) {
    size_t len = strlen(s);
    if (len == 0 || len > max) return false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
            return false;
    }
    return true;
}

static bool fits(const char *s, size_t max) {
    return !s || (strlen(s) >= 1 && strlen(s) <= max);
}

/* What proto.h and docs/protocol.md promise about a decoded request. */
static void check_request(const struct proto_request *req) {
    const struct core_cmd *c = &req->cmd;
    FUZZ_ASSERT(req->msg >= 0 && req->msg < PROTO_MSG_COUNT);
    FUZZ_ASSERT(req->spec == &proto_messages[req->msg] && !req->field);
    if (proto_core_command(req->msg) != PROTO_NO_CMD)
        FUZZ_ASSERT((int)c->type == proto_core_command(req->msg));
    FUZZ_ASSERT(!req->game || is_id(req->game, 16));
    FUZZ_ASSERT(!c->target || is_id(c->target, 16));
    FUZZ_ASSERT(!req->player || is_id(req->player, 16));
    FUZZ_ASSERT(!req->token || is_id(req->token, 64));
    FUZZ_ASSERT(fits(c->text, CHAT_MAX_BYTES * 2) && fits(req->username, 64));
    FUZZ_ASSERT(fits(req->password, 256) && fits(req->fen, 100) && fits(req->pgn, 1 << 20));
    FUZZ_ASSERT(!req->name || (strlen(req->name) >= 2 && strlen(req->name) <= 20));
    FUZZ_ASSERT(c->tc.unlimited || c->tc.initial_ms == 0 ||
                (c->tc.initial_ms >= TC_MIN_INITIAL_MS && c->tc.initial_ms <= TC_MAX_INITIAL_MS));
    FUZZ_ASSERT(c->tc.increment_ms >= 0 && c->tc.increment_ms <= TC_MAX_INCREMENT_MS);
    FUZZ_ASSERT(c->level >= 0 && c->level <= 8);
    FUZZ_ASSERT(c->expected_ply >= -1 && c->expected_ply <= CHESS_GAME_MAX_PLIES);
    FUZZ_ASSERT(!(c->casual && c->rated_required));
    FUZZ_ASSERT((int)c->decline_reason >= 0 && (int)c->decline_reason < CHALLENGE_DECLINE_COUNT);
    FUZZ_ASSERT(req->limit >= 1 && req->limit <= 100 && req->page >= 1 && req->page <= 100000);
    FUZZ_ASSERT(req->category >= 0 && req->category < RATING_CATEGORY_COUNT);
    FUZZ_ASSERT(req->depth >= 0 && req->depth <= 60 && req->multipv >= 1 && req->multipv <= 5);
    FUZZ_ASSERT(req->movetime_ms == 0 || (req->movetime_ms >= 10 && req->movetime_ms <= 3600000));
    FUZZ_ASSERT(req->analysis >= 0 && req->protocol >= 0);
    if (req->moves) {
        FUZZ_ASSERT(json_is_array(req->moves) && json_array_size(req->moves) <= 600);
        for (size_t i = 0; i < json_array_size(req->moves); i++) {
            const json_t *m = json_array_get(req->moves, i);
            FUZZ_ASSERT(json_is_string(m) && fits(json_string_value(m), 16));
        }
    }
}

/* The decoder's own codes: the rest (HELLO_REQUIRED, ...) belong to the handlers. */
static void check_error(int rc, const struct proto_request *req) {
    FUZZ_ASSERT(rc == -PROTO_ERR_BAD_JSON || rc == -PROTO_ERR_BAD_MESSAGE ||
                rc == -PROTO_ERR_UNKNOWN_TYPE || rc == -PROTO_ERR_BAD_FIELD);
    FUZZ_ASSERT((rc == -PROTO_ERR_BAD_FIELD) == (req->field != NULL));
    FUZZ_ASSERT(rc != -PROTO_ERR_UNKNOWN_TYPE || !req->spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    struct proto_request fast, general;
    int rc_fast = proto_decode(text, size, &fast);
    int rc_general = proto_decode_general(text, size, &general);

    struct proto_description a = {0}, b = {0};
    const char *da = proto_describe(&a, rc_fast, &fast);
    const char *db = proto_describe(&b, rc_general, &general);
    FUZZ_ASSERT(da && db);
    if (strcmp(da, db) != 0) {
        fprintf(stderr, "%s reader: %s\njansson:     %s\n", fast.flat ? "flat" : "general", da, db);
        FUZZ_ASSERT(!"the flat reader and jansson agree");
    }
    free(a.text);
    free(b.text);

    if (rc_fast == 0)
        check_request(&fast);
    else
        check_error(rc_fast, &fast);
    if (fast.id) {
        FUZZ_ASSERT(json_is_integer(fast.id) ||
                    (json_is_string(fast.id) && json_string_length(fast.id) <= PROTO_ID_MAX));
        check_id_replies(fast.id);
    }
    proto_request_clear(&fast);
    proto_request_clear(&general);
    return 0;
}
