/*
 * Tests of the protocol decoder (test_proto, fuzz_proto): one text that names every outcome of
 * a decoding (the code, the message, the id, every decoded field), so that two decodings of one
 * message (the flat reader and jansson) are compared by comparing two texts, and a difference
 * is printed whole. Bytes outside printable ASCII are written as \xNN.
 */
#ifndef TEST_PROTO_DESCRIBE_H
#define TEST_PROTO_DESCRIBE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto.h"

/* A growing text; `failed` once memory ran out (the text is then unusable). */
struct proto_description {
    char *text;
    size_t len, cap;
    int failed;
};

static inline void describe_printf(struct proto_description *d, const char *format, ...) {
    for (int attempt = 0; attempt < 2 && !d->failed; attempt++) {
        va_list args;
        va_start(args, format);
        int n = vsnprintf(d->text ? d->text + d->len : NULL, d->text ? d->cap - d->len : 0, format,
                          args);
        va_end(args);
        if (n < 0) d->failed = 1;
        if (n < 0 || (d->text && (size_t)n < d->cap - d->len)) {
            if (n >= 0) d->len += (size_t)n;
            return;
        }
        size_t cap = (d->cap + (size_t)n + 1) * 2;
        char *grown = realloc(d->text, cap);
        if (!grown) {
            d->failed = 1;
            return;
        }
        d->text = grown;
        d->cap = cap;
    }
}

static inline void describe_string(struct proto_description *d, const char *name, const char *s) {
    if (!s) return;
    describe_printf(d, " %s=\"", name);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x20 && *p < 0x7f && *p != '\\')
            describe_printf(d, "%c", *p);
        else
            describe_printf(d, "\\x%02x", *p);
    }
    describe_printf(d, "\"");
}

static inline void describe_json(struct proto_description *d, const char *name, const json_t *v) {
    if (!v) return;
    char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_ENSURE_ASCII);
    if (!text) {
        d->failed = 1;
        return;
    }
    describe_string(d, name, text);
    free(text);
}

/*
 * Describes a decoding that returned rc into *d (start from {0}; free d->text). Returns d->text,
 * or NULL when memory ran out.
 */
static inline const char *proto_describe(struct proto_description *d, int rc,
                                         const struct proto_request *req) {
    const struct core_cmd *c = &req->cmd;
    describe_printf(d, "%s msg=%d", rc == 0 ? "OK" : proto_error_name(rc), (int)req->msg);
    describe_string(d, "type", req->spec ? req->spec->type : NULL);
    describe_string(d, "field", req->field);
    describe_json(d, "id", req->id);
    describe_printf(d, " cmd=%d", (int)c->type);
    describe_string(d, "target", c->target);
    describe_string(d, "text", c->text);
    describe_printf(d, " tc=%d/%lld/%lld color=%d level=%d ply=%d room=%d claim_win=%d",
                    (int)c->tc.unlimited, (long long)c->tc.initial_ms,
                    (long long)c->tc.increment_ms, (int)c->color, c->level, c->expected_ply,
                    (int)c->room, (int)c->claim_win);
    describe_string(d, "opponent", c->opponent);
    describe_printf(d, " casual=%d rated_required=%d decline=%d", (int)c->casual,
                    (int)c->rated_required, (int)c->decline_reason);
    describe_string(d, "game", req->game);
    describe_string(d, "token", req->token);
    describe_string(d, "name", req->name);
    describe_printf(d, " protocol=%d limit=%d", req->protocol, req->limit);
    describe_string(d, "username", req->username);
    describe_string(d, "password", req->password);
    describe_string(d, "player", req->player);
    describe_printf(d, " page=%d category=%d", req->page, req->category);
    describe_string(d, "pgn", req->pgn);
    describe_string(d, "fen", req->fen);
    describe_json(d, "moves", req->moves);
    describe_printf(d, " depth=%d movetime=%d multipv=%d analysis=%d", req->depth, req->movetime_ms,
                    req->multipv, req->analysis);
    return d->failed ? NULL : d->text;
}

#endif
