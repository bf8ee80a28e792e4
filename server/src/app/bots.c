/*
 * Bot account requests wait (app/waiting.h, under cookies of their own) until the writer
 * reports their commit.
 */
#include "app/bots.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app/auth.h"
#include "app/internal.h"
#include "app/persist.h"
#include "app/waiting.h"
#include "proto/encode.h"
#include "util/ids.h"
#include "util/log.h"
#include "util/now.h"
#include "util/str.h"

#define COOKIE_BASE (1ULL << 62) /* accounts.c counts from 1 */
#define PENDING_MAX 64

struct bot_pending {
    struct waiting w; /* first */
    enum proto_msg msg;
    char bot_id[PLAYER_ID_LEN + 1];
    char name[STORE_NAME_MAX + 1];
    char token[PLAYER_TOKEN_LEN + 1];
};

struct bots {
    struct waiting_list waiting;
};

static void pending_release(struct waiting *w) {
    struct bot_pending *p = (struct bot_pending *)(void *)w;
    explicit_bzero(p->token, sizeof p->token);
    free(p);
}

struct bots *bots_create(void) {
    struct bots *b = calloc(1, sizeof *b);
    if (b) waiting_init(&b->waiting, COOKIE_BASE, PENDING_MAX, pending_release);
    return b;
}

void bots_free(struct bots *b) {
    if (!b) return;
    waiting_clear(&b->waiting);
    free(b);
}

void bots_conn_gone(struct bots *b, struct conn *c) {
    if (b) waiting_conn_gone(&b->waiting, c);
}

/* A fresh id no player of the world has (the database's primary key catches the rest). */
static int new_bot_id(struct server *srv, char id[PLAYER_ID_LEN + 1]) {
    for (int attempt = 0; attempt < 8; attempt++) {
        if (ids_random_text(id, PLAYER_ID_LEN) < 0) return -1;
        if (!world_player_by_id(srv->world, id)) return 0;
    }
    return -1;
}

int bots_handle(struct bots *b, struct conn *c, const struct proto_request *req) {
    struct store *store = persist_store(c->srv);
    if (!store || !b) return -PROTO_ERR_STORE_UNAVAILABLE;
    const struct player *owner = c->player;
    if (!owner->registered || owner->bot) return -PROTO_ERR_ACCOUNT_REQUIRED;
    char lower[STORE_USERNAME_MAX + 1];
    if (auth_username_check(req->username, lower) < 0)
        return req->msg == PROTO_MSG_BOT_CREATE ? -PROTO_ERR_USERNAME_INVALID
                                                : -PROTO_ERR_BOT_NOT_FOUND;
    struct bot_pending *p = calloc(1, sizeof *p);
    if (!p) return -PROTO_ERR_INTERNAL;
    int rc = waiting_add(&b->waiting, &p->w, c, req->id);
    if (rc < 0) {
        free(p);
        return rc;
    }
    p->msg = req->msg;
    str_copy(p->name, sizeof p->name, req->username);

    struct store_op op = {.cookie = p->w.cookie, .want_result = true};
    str_copy(op.player_id, sizeof op.player_id, owner->id);
    str_copy(op.u.bot.username, sizeof op.u.bot.username, lower);
    op.u.bot.at = now_wall_ms();
    switch (req->msg) {
        case PROTO_MSG_BOT_CREATE:
            op.type = STORE_OP_BOT_CREATE;
            if (new_bot_id(c->srv, p->bot_id) < 0) rc = -PROTO_ERR_INTERNAL;
            str_copy(op.u.bot.bot_id, sizeof op.u.bot.bot_id, p->bot_id);
            str_copy(op.u.bot.name, sizeof op.u.bot.name, req->username);
            op.u.bot.max_bots = BOTS_PER_ACCOUNT;
            break;
        case PROTO_MSG_BOT_TOKEN_CREATE: op.type = STORE_OP_BOT_TOKEN; break;
        default: op.type = STORE_OP_BOT_REVOKE; break;
    }
    if (rc == 0 && op.type != STORE_OP_BOT_REVOKE) {
        if (ids_random_text(p->token, PLAYER_TOKEN_LEN) < 0) rc = -PROTO_ERR_INTERNAL;
        auth_token_hash(p->token, op.u.bot.token_hash);
    }
    if (rc == 0 && store_submit(store, &op) == 0) rc = -PROTO_ERR_STORE_UNAVAILABLE;
    if (rc < 0) waiting_done(&b->waiting, &p->w);
    return rc;
}

/* Closes the connections of a bot whose tokens were revoked (its name is its username). */
static void disconnect_bot(struct server *srv, const char *username) {
    for (struct conn *c = srv->conns; c; c = c->all_next) {
        const struct player *pl = c->player;
        if (!pl || !pl->bot || strcasecmp(pl->name, username) != 0) continue;
        conn_send_error(c, -PROTO_ERR_BAD_TOKEN, NULL, NULL);
        conn_close(c, NET_CLOSE_POLICY_VIOLATION, "bot token revoked");
    }
}

static json_t *success(struct server *srv, const struct bot_pending *p) {
    switch (p->msg) {
        case PROTO_MSG_BOT_CREATE:
            LOGI("bots", "bot=%s created as %s", p->bot_id, p->name);
            return json_pack("{s:s,s:{s:s,s:s,s:b,s:b},s:s}", "type", "bot_created", "bot", "id",
                             p->bot_id, "name", p->name, "registered", 1, "bot", 1, "token",
                             p->token);
        case PROTO_MSG_BOT_TOKEN_CREATE:
            return json_pack("{s:s,s:s,s:s}", "type", "bot_token", "username", p->name, "token",
                             p->token);
        default:
            LOGI("bots", "tokens of bot %s revoked", p->name);
            httpapi_forget_tokens(srv);
            disconnect_bot(srv, p->name);
            return json_pack("{s:s,s:s}", "type", "bot_token_revoked", "username", p->name);
    }
}

static int error_for(int status) {
    switch (status) {
        case -STORE_ERR_CONFLICT: return -PROTO_ERR_USERNAME_TAKEN;
        case -STORE_ERR_LIMIT: return -PROTO_ERR_TOO_MANY_BOTS;
        case -STORE_ERR_NOT_FOUND: return -PROTO_ERR_BOT_NOT_FOUND;
        default: return -PROTO_ERR_INTERNAL;
    }
}

void bots_on_result(struct bots *b, struct server *srv, const struct store_result *r) {
    struct waiting *w = b ? waiting_find(&b->waiting, r->cookie) : NULL;
    if (!w) return;
    struct bot_pending *p = (struct bot_pending *)(void *)w;
    json_t *msg = r->status < 0 ? NULL : success(srv, p);
    waiting_reply(w, msg, r->status < 0 ? error_for(r->status) : -PROTO_ERR_INTERNAL);
    waiting_done(&b->waiting, w);
}
