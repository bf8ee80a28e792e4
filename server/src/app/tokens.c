/*
 * API token requests: a creation or a revocation waits (app/waiting.h, under cookies of its
 * own) until the writer reports its commit; the list is a read (app/reads.h).
 */
#include "app/tokens.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "app/auth.h"
#include "app/internal.h"
#include "app/persist.h"
#include "app/reads.h"
#include "app/waiting.h"
#include "proto/encode.h"
#include "store/read.h"
#include "util/ids.h"
#include "util/log.h"
#include "util/now.h"
#include "util/str.h"

#define COOKIE_BASE                                                                                \
    (1ULL << 63) /* accounts.c from 1, moderation.c 2^61, manage.c 3 * 2^60,                       \
                    bots.c 2^62 */
#define PENDING_MAX 64

_Static_assert(AUTH_SCOPES_TEXT_MAX == STORE_SCOPES_MAX, "scopes as stored");
_Static_assert(AUTH_SESSION_BYTES == STORE_SESSION_ID_BYTES, "token ids as stored");

struct token_pending {
    struct waiting w; /* first */
    enum proto_msg msg;
    char player_id[STORE_ID_MAX + 1]; /* the account's, for the log */
    char token[PLAYER_TOKEN_LEN + 1]; /* create: the text, wiped */
    uint8_t hash[STORE_HASH_LEN];     /* create */
    char id[AUTH_SESSION_ID_LEN + 1]; /* revoke: lower case, as listed */
    char description[STORE_DESCRIPTION_MAX + 1];
    char scopes[STORE_SCOPES_MAX];
    int64_t created_at;
};

struct tokens {
    struct waiting_list waiting;
};

static void pending_release(struct waiting *w) {
    struct token_pending *p = (struct token_pending *)(void *)w;
    sodium_memzero(p->token, sizeof p->token);
    free(p);
}

struct tokens *tokens_create(void) {
    struct tokens *t = calloc(1, sizeof *t);
    if (t) waiting_init(&t->waiting, COOKIE_BASE, PENDING_MAX, pending_release);
    return t;
}

void tokens_free(struct tokens *t) {
    if (!t) return;
    waiting_clear(&t->waiting);
    free(t);
}

void tokens_conn_gone(struct server *srv, struct conn *c) {
    if (srv->tokens) waiting_conn_gone(&srv->tokens->waiting, c);
}

/* A token's info as api_tokens_list and api_token_created show it. */
static json_t *info_json(const uint8_t hash[STORE_HASH_LEN], const char *description,
                         const char *scopes, int64_t created_at, int64_t last_used_at) {
    char id[AUTH_SESSION_ID_LEN + 1];
    auth_session_id(hash, id);
    json_t *used = last_used_at ? json_integer(last_used_at) : json_null();
    return json_pack("{s:s,s:s,s:s,s:I,s:o}", "id", id, "description", description, "scopes",
                     scopes, "created_at", (json_int_t)created_at, "last_used_at", used);
}

/* ---- the list: a read ---- */

struct list_read {
    struct db_read base; /* first */
    char player_id[STORE_ID_MAX + 1];
    struct store_api_token tokens[API_TOKENS_PER_ACCOUNT];
    int count;
};

static void list_run(struct store_reader *reader, struct db_read *rd) {
    struct list_read *r = (struct list_read *)(void *)rd;
    rd->status =
        store_api_tokens(reader, r->player_id, API_TOKENS_PER_ACCOUNT, r->tokens, &r->count);
}

static bool list_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)call;
    struct list_read *r = (struct list_read *)(void *)rd;
    json_t *list = c && rd->status == 0 ? json_array() : NULL;
    for (int i = 0; list && i < r->count; i++) {
        const struct store_api_token *t = &r->tokens[i];
        json_array_append_new(
            list, info_json(t->hash, t->description, t->scopes, t->created_at, t->last_used_at));
    }
    reads_reply_list(rd, c, "api_tokens", "tokens", list);
    return false;
}

static int list_tokens(struct conn *c, const struct proto_request *req) {
    struct list_read *r = calloc(1, sizeof *r);
    if (!r) return -PROTO_ERR_INTERNAL;
    r->base.run = list_run;
    r->base.answer = list_answer;
    r->base.req_id = req->id ? json_deep_copy(req->id) : NULL;
    str_copy(r->player_id, sizeof r->player_id, c->player->id);
    return reads_submit_conn(c, &r->base); /* frees r on failure */
}

/* ---- creation and revocation: writes ---- */

/* The description as stored: control characters become spaces, and spaces around it go.
 * Returns its length. */
static size_t clean_description(const char *text, char out[STORE_DESCRIPTION_MAX + 1]) {
    while (*text == ' ' || ((unsigned char)*text < 0x20 && *text)) text++;
    size_t len = 0;
    for (; text[len] && len < STORE_DESCRIPTION_MAX; len++) {
        unsigned char b = (unsigned char)text[len];
        out[len] = b < 0x20 || b == 0x7f ? ' ' : (char)b;
    }
    while (len > 0 && out[len - 1] == ' ') len--;
    out[len] = '\0';
    return len;
}

/* Fills op and p for api_token_create; 0 or an error code. */
static int prepare_create(const struct proto_request *req, struct token_pending *p,
                          struct store_op *op) {
    unsigned mask;
    if (auth_scopes_parse(req->scopes, &mask) < 0) return -PROTO_ERR_BAD_SCOPES;
    if (auth_scopes_format(mask, p->scopes, sizeof p->scopes) < 0) return -PROTO_ERR_INTERNAL;
    if (ids_random_text(p->token, PLAYER_TOKEN_LEN) < 0) return -PROTO_ERR_INTERNAL;
    auth_token_hash(p->token, p->hash);
    p->created_at = now_wall_ms();
    op->type = STORE_OP_API_TOKEN_CREATE;
    memcpy(op->u.api_token.hash, p->hash, sizeof op->u.api_token.hash);
    memcpy(op->u.api_token.description, p->description, sizeof op->u.api_token.description);
    memcpy(op->u.api_token.scopes, p->scopes, sizeof op->u.api_token.scopes);
    op->u.api_token.max_tokens = API_TOKENS_PER_ACCOUNT;
    op->u.api_token.at = p->created_at;
    return 0;
}

static int start_write(struct conn *c, const struct proto_request *req) {
    struct tokens *t = c->srv->tokens;
    bool create = req->msg == PROTO_MSG_API_TOKEN_CREATE;
    uint8_t prefix[AUTH_SESSION_BYTES];
    if (!create && auth_session_parse(req->token_id, prefix) < 0) return -PROTO_ERR_TOKEN_NOT_FOUND;
    struct token_pending *p = calloc(1, sizeof *p);
    if (!p) return -PROTO_ERR_INTERNAL;
    if (create && clean_description(req->description, p->description) == 0) {
        free(p);
        conn_send_error(c, -PROTO_ERR_BAD_FIELD, req->id, "description"); /* only spaces */
        return 0;
    }
    int rc = waiting_add(&t->waiting, &p->w, c, req->id);
    if (rc < 0) {
        free(p);
        return rc;
    }
    p->msg = req->msg;
    str_copy(p->player_id, sizeof p->player_id, c->player->id);
    struct store_op op = {.cookie = p->w.cookie, .want_result = true};
    str_copy(op.player_id, sizeof op.player_id, c->player->id);
    if (create) {
        rc = prepare_create(req, p, &op);
    } else {
        op.type = STORE_OP_API_TOKEN_REVOKE;
        memcpy(op.u.api_token.id, prefix, sizeof prefix);
        op.u.api_token.at = now_wall_ms();
        auth_session_id(prefix, p->id); /* lower case, as listed */
    }
    if (rc == 0 && store_submit(persist_store(c->srv), &op) == 0) rc = -PROTO_ERR_STORE_UNAVAILABLE;
    sodium_memzero(op.u.api_token.hash, sizeof op.u.api_token.hash);
    if (rc < 0) waiting_done(&t->waiting, &p->w);
    return rc;
}

int tokens_handle(struct conn *c, const struct proto_request *req) {
    if (!c->srv->tokens || !persist_store(c->srv)) return -PROTO_ERR_STORE_UNAVAILABLE;
    const struct player *pl = c->player;
    if (!pl->registered || pl->bot) return -PROTO_ERR_ACCOUNT_REQUIRED;
    switch (req->msg) {
        case PROTO_MSG_API_TOKENS_LIST: return list_tokens(c, req);
        case PROTO_MSG_API_TOKEN_CREATE:
        case PROTO_MSG_API_TOKEN_REVOKE: return start_write(c, req);
        default: return -PROTO_ERR_UNKNOWN_TYPE;
    }
}

static int error_for(const struct token_pending *p, int status) {
    switch (status) {
        case -STORE_ERR_NOT_FOUND:
            /* A creation's account went away meanwhile (deleted). */
            return p->msg == PROTO_MSG_API_TOKEN_CREATE ? -PROTO_ERR_ACCOUNT_REQUIRED
                                                        : -PROTO_ERR_TOKEN_NOT_FOUND;
        case -STORE_ERR_LIMIT: return -PROTO_ERR_TOO_MANY_TOKENS;
        default: return -PROTO_ERR_INTERNAL;
    }
}

static json_t *success(struct server *srv, const struct token_pending *p) {
    if (p->msg == PROTO_MSG_API_TOKEN_REVOKE) {
        LOGI("tokens", "player=%s revoked its API token %s", p->player_id, p->id);
        httpapi_forget_tokens(srv);
        return json_pack("{s:s,s:s}", "type", "api_token_revoked", "token_id", p->id);
    }
    json_t *info = info_json(p->hash, p->description, p->scopes, p->created_at, 0);
    char id[AUTH_SESSION_ID_LEN + 1];
    auth_session_id(p->hash, id);
    LOGI("tokens", "player=%s created the API token %s (%s)", p->player_id, id,
         p->scopes[0] ? p->scopes : "no scopes");
    if (!info) return NULL;
    return json_pack("{s:s,s:s,s:o}", "type", "api_token_created", "token", p->token, "info", info);
}

void tokens_on_result(struct server *srv, const struct store_result *r) {
    struct waiting *w = srv->tokens ? waiting_find(&srv->tokens->waiting, r->cookie) : NULL;
    if (!w) return;
    struct token_pending *p = (struct token_pending *)(void *)w;
    json_t *msg = r->status < 0 ? NULL : success(srv, p);
    waiting_reply(w, msg, r->status < 0 ? error_for(p, r->status) : -PROTO_ERR_INTERNAL);
    waiting_done(&srv->tokens->waiting, w);
}
