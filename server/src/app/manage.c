/*
 * An account owner's requests as small state machines: each waits in a list under a cookie (in a
 * range of its own, so the store's and the password thread's results for accounts.c and bots.c
 * pass by) and moves on when the result for that cookie comes back.
 *
 *   password_change: read the account's hash -> verify -> hash the new one -> PASSWORD_SET
 *                    write -> "password_changed"; the other sessions' connections end
 *   account_delete:  read the hash and the bots -> verify -> cancel the seeks -> ACCOUNT_DELETE
 *                    write -> "account_deleted"; every connection of the account and its bots
 *                    ends, and the world forgets the account's token and name
 *   session_revoke, sessions_revoke_all: the write -> the reply; the sessions' connections end
 *   sessions_list:   a read -> "sessions"
 *
 * A request goes on when its connection closes meanwhile (what was asked is done); only the
 * reply is dropped.
 */
#include "app/manage.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "app/accounts.h"
#include "app/auth.h"
#include "app/bots.h"
#include "app/internal.h"
#include "app/persist.h"
#include "app/reads.h"
#include "app/waiting.h"
#include "proto/encode.h"
#include "store/read.h"
#include "util/log.h"
#include "util/now.h"
#include "util/str.h"

#define COOKIE_BASE (3ULL << 60) /* accounts.c counts from 1, bots.c from 1 << 62 */
#define PENDING_MAX 64

_Static_assert(AUTH_TOKEN_HASH_LEN == STORE_HASH_LEN, "token hashes as stored");
_Static_assert(AUTH_SESSION_BYTES == STORE_SESSION_ID_BYTES, "session ids as stored");
_Static_assert(sizeof(((struct conn *)0)->session_hash) == STORE_HASH_LEN, "a token's hash");

struct manage_pending {
    struct waiting w; /* first */
    enum proto_msg msg;
    struct player *player;
    uint8_t keep[STORE_HASH_LEN];                  /* the asker's session, which stays */
    char session[AUTH_SESSION_ID_LEN + 1];         /* session_revoke */
    char *new_password;                            /* password_change, until hashed (wiped) */
    char bots[BOTS_PER_ACCOUNT][STORE_ID_MAX + 1]; /* account_delete: the bots it owns */
    int bot_count;
};

struct manage {
    struct waiting_list waiting;
};

static void wipe_free(char *secret) {
    if (!secret) return;
    sodium_memzero(secret, strlen(secret));
    free(secret);
}

static void pending_release(struct waiting *w) {
    struct manage_pending *p = (struct manage_pending *)(void *)w;
    if (p->player) p->player->refs--;
    wipe_free(p->new_password);
    free(p);
}

struct manage *manage_create(void) {
    struct manage *m = calloc(1, sizeof *m);
    if (m) waiting_init(&m->waiting, COOKIE_BASE, PENDING_MAX, pending_release);
    return m;
}

void manage_free(struct manage *m) {
    if (!m) return;
    waiting_clear(&m->waiting);
    free(m);
}

void manage_conn_gone(struct server *srv, struct conn *c) {
    if (srv->manage) waiting_conn_gone(&srv->manage->waiting, c);
}

/* A request of c's waiting in m, or NULL with *rc the error (too many waiting, memory). */
static struct manage_pending *pending_add(struct manage *m, struct conn *c,
                                          const struct proto_request *req, int *rc) {
    struct manage_pending *p = calloc(1, sizeof *p);
    *rc = p ? waiting_add(&m->waiting, &p->w, c, req->id) : -PROTO_ERR_INTERNAL;
    if (*rc < 0) {
        free(p);
        return NULL;
    }
    p->msg = req->msg;
    p->player = c->player;
    p->player->refs++; /* not forgotten while the request waits (world.h) */
    memcpy(p->keep, c->session_hash, sizeof p->keep);
    return p;
}

static struct manage_pending *pending_find(struct manage *m, uint64_t cookie) {
    return m ? (struct manage_pending *)(void *)waiting_find(&m->waiting, cookie) : NULL;
}

static void pending_remove(struct manage *m, struct manage_pending *p) {
    waiting_done(&m->waiting, &p->w);
}

/* Replies to the asker (msg consumed) or, with msg NULL, sends it the error code. */
static void reply(struct manage_pending *p, json_t *msg, int code) {
    waiting_reply(&p->w, msg, code);
}

/* reply(), and the request is done. */
static void finish(struct server *srv, struct manage_pending *p, json_t *msg, int code) {
    reply(p, msg, code);
    pending_remove(srv->manage, p);
}

/* ---- ending sessions on this node ---- */

/* Which of an account's connections a change ends. */
struct ending {
    struct player *player;             /* the account */
    const uint8_t *keep;               /* all its sessions but this one; NULL: see session */
    const char *session;               /* only the one with this id; NULL with keep NULL: all */
    const struct manage_pending *bots; /* and every connection of these bots (deletion) */
};

static bool is_bot_of(const struct ending *e, const struct player *pl) {
    for (int i = 0; e->bots && i < e->bots->bot_count; i++)
        if (strcmp(pl->id, e->bots->bots[i]) == 0) return true;
    return false;
}

static bool session_ends(const struct ending *e, const uint8_t hash[STORE_HASH_LEN]) {
    if (e->keep) return memcmp(hash, e->keep, STORE_HASH_LEN) != 0;
    if (!e->session) return true;
    char id[AUTH_SESSION_ID_LEN + 1];
    auth_session_id(hash, id);
    return strcmp(id, e->session) == 0;
}

/*
 * The connections whose session ended get BAD_TOKEN and close (1008), except asker, which has its
 * reply and closes after it when its own session ended. The world forgets the account's token
 * when it is one that ended (a later hello with it goes to the database, which refuses it).
 */
static void end_sessions(struct server *srv, const struct ending *e, struct conn *asker) {
    for (struct conn *c = srv->conns; c; c = c->all_next) {
        const struct player *pl = c->player;
        if (!pl || !c->has_session) continue;
        bool ends = pl == e->player ? session_ends(e, c->session_hash) : is_bot_of(e, pl);
        if (!ends) continue;
        if (c != asker) conn_send_error(c, -PROTO_ERR_BAD_TOKEN, NULL, NULL);
        conn_close(c, NET_CLOSE_POLICY_VIOLATION, "session revoked");
    }
    if (e->player->token[0]) {
        uint8_t hash[STORE_HASH_LEN];
        auth_token_hash(e->player->token, hash);
        if (session_ends(e, hash)) world_player_forget_token(srv->world, e->player);
        sodium_memzero(hash, sizeof hash);
    }
}

/* ---- reads ---- */

/* The account's password hash (and for a deletion its bots), read for a pending request. */
struct secret_read {
    struct db_read base; /* first */
    uint64_t cookie;
    bool want_bots;
    char player_id[STORE_ID_MAX + 1];
    char *password; /* to verify (wiped) */
    char hash[STORE_PWHASH_MAX];
    struct store_bot bots[BOTS_PER_ACCOUNT];
    int bot_count;
};

static void secret_run(struct store_reader *reader, struct db_read *rd) {
    struct secret_read *r = (struct secret_read *)(void *)rd;
    rd->status = store_account_password(reader, r->player_id, r->hash);
    if (rd->status == 0 && r->want_bots)
        rd->status =
            store_owned_bots(reader, r->player_id, BOTS_PER_ACCOUNT, r->bots, &r->bot_count);
}

static void secret_release(struct db_read *rd) {
    struct secret_read *r = (struct secret_read *)(void *)rd;
    wipe_free(r->password);
    sodium_memzero(r->hash, sizeof r->hash);
}

static bool secret_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)c;
    (void)call;
    struct secret_read *r = (struct secret_read *)(void *)rd;
    struct server *srv = rd->srv;
    struct manage_pending *p = pending_find(srv->manage, r->cookie);
    if (!p) return false;
    if (rd->status < 0) {
        /* No password: the account was deleted meanwhile. */
        finish(srv, p, NULL,
               rd->status == -STORE_ERR_NOT_FOUND ? -PROTO_ERR_ACCOUNT_REQUIRED
                                                  : -PROTO_ERR_STORE_UNAVAILABLE);
        return false;
    }
    for (int i = 0; i < r->bot_count; i++)
        str_copy(p->bots[i], sizeof p->bots[i], r->bots[i].player_id);
    p->bot_count = r->bot_count;
    if (password_verify(persist_passwords(srv), r->password, r->hash, p->w.cookie) < 0)
        finish(srv, p, NULL, -PROTO_ERR_INTERNAL);
    return false;
}

/* password_change and account_delete: the password is checked first. */
static int start_checked(struct conn *c, const struct proto_request *req, int64_t now_ms) {
    struct manage *m = c->srv->manage;
    struct player *pl = c->player;
    bool change = req->msg == PROTO_MSG_PASSWORD_CHANGE;
    if (change && auth_password_check(req->new_password) < 0) return -PROTO_ERR_PASSWORD_INVALID;
    if (!change && pl->game_count > 0) return -PROTO_ERR_ACCOUNT_IN_GAME;
    if (!accounts_password_attempt(c, pl->name, now_ms)) return -PROTO_ERR_LOGIN_RATE_LIMITED;
    int rc;
    struct manage_pending *p = pending_add(m, c, req, &rc);
    if (!p) return rc;
    struct secret_read *r = calloc(1, sizeof *r);
    if (!r || (change && !(p->new_password = strdup(req->new_password))) ||
        !(r->password = strdup(change ? req->current : req->password))) {
        free(r);
        pending_remove(m, p);
        return -PROTO_ERR_INTERNAL;
    }
    r->base.run = secret_run;
    r->base.answer = secret_answer;
    r->base.release = secret_release;
    r->cookie = p->w.cookie;
    r->want_bots = !change;
    str_copy(r->player_id, sizeof r->player_id, pl->id);
    rc = reads_submit_conn(c, &r->base); /* frees r on failure */
    if (rc < 0) pending_remove(m, p);
    return rc;
}

/* sessions_list: a read, answered to the connection. */
struct sessions_read {
    struct db_read base; /* first */
    char player_id[STORE_ID_MAX + 1];
    struct store_session sessions[MANAGE_SESSIONS_SHOWN];
    int count;
};

static void sessions_run(struct store_reader *reader, struct db_read *rd) {
    struct sessions_read *r = (struct sessions_read *)(void *)rd;
    rd->status =
        store_sessions(reader, r->player_id, MANAGE_SESSIONS_SHOWN, r->sessions, &r->count);
}

static json_t *session_json(const struct store_session *s, const struct conn *c) {
    char id[AUTH_SESSION_ID_LEN + 1];
    auth_session_id(s->hash, id);
    json_t *seen = s->last_seen_at ? json_integer(s->last_seen_at) : json_null();
    return json_pack("{s:s,s:I,s:o,s:b}", "id", id, "created_at", (json_int_t)s->created_at,
                     "last_seen_at", seen, "current",
                     c->has_session && memcmp(s->hash, c->session_hash, STORE_HASH_LEN) == 0);
}

static bool sessions_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)call;
    struct sessions_read *r = (struct sessions_read *)(void *)rd;
    json_t *list = c && rd->status == 0 ? json_array() : NULL;
    for (int i = 0; list && i < r->count; i++)
        json_array_append_new(list, session_json(&r->sessions[i], c));
    reads_reply_list(rd, c, "sessions", "sessions", list);
    return false;
}

static int list_sessions(struct conn *c, const struct proto_request *req) {
    struct sessions_read *r = calloc(1, sizeof *r);
    if (!r) return -PROTO_ERR_INTERNAL;
    r->base.run = sessions_run;
    r->base.answer = sessions_answer;
    r->base.req_id = req->id ? json_deep_copy(req->id) : NULL;
    str_copy(r->player_id, sizeof r->player_id, c->player->id);
    return reads_submit_conn(c, &r->base);
}

/* ---- writes ---- */

static struct store_op account_op(const struct manage_pending *p, enum store_op_type type) {
    struct store_op op = {.type = type, .cookie = p->w.cookie, .want_result = true};
    str_copy(op.player_id, sizeof op.player_id, p->player->id);
    op.u.account.at = now_wall_ms();
    return op;
}

/* Submits op for p; on failure p is answered with STORE_UNAVAILABLE. */
static void submit(struct server *srv, struct manage_pending *p, struct store_op *op) {
    if (store_submit(persist_store(srv), op) == 0)
        finish(srv, p, NULL, -PROTO_ERR_STORE_UNAVAILABLE);
}

/* session_revoke and sessions_revoke_all: straight to the writer. */
static int start_revoke(struct conn *c, const struct proto_request *req) {
    struct manage *m = c->srv->manage;
    bool one = req->msg == PROTO_MSG_SESSION_REVOKE;
    uint8_t prefix[AUTH_SESSION_BYTES];
    if (one && auth_session_parse(req->session, prefix) < 0) return -PROTO_ERR_SESSION_NOT_FOUND;
    if (!one && !c->has_session) return -PROTO_ERR_BAD_TOKEN;
    int rc;
    struct manage_pending *p = pending_add(m, c, req, &rc);
    if (!p) return rc;
    struct store_op op = account_op(p, one ? STORE_OP_SESSION_REVOKE : STORE_OP_SESSIONS_REVOKE);
    if (one) {
        memcpy(op.u.account.session, prefix, sizeof prefix);
        auth_session_id(op.u.account.session, p->session); /* lower case, as listed */
    } else {
        op.u.account.has_keep = true;
        memcpy(op.u.account.keep, p->keep, sizeof op.u.account.keep);
    }
    if (store_submit(persist_store(c->srv), &op) == 0) {
        pending_remove(m, p);
        return -PROTO_ERR_STORE_UNAVAILABLE;
    }
    return 0;
}

/* The verified password's next step: the new one hashed, or the deletion written. */
static void password_verified(struct server *srv, struct manage_pending *p) {
    if (p->msg == PROTO_MSG_PASSWORD_CHANGE) {
        int rc = password_hash(persist_passwords(srv), p->new_password, p->w.cookie);
        wipe_free(p->new_password);
        p->new_password = NULL;
        if (rc < 0) finish(srv, p, NULL, -PROTO_ERR_INTERNAL);
        return;
    }
    /* Deletion: nobody may start a game with the account or its bots from here on. */
    struct player *owners[1 + BOTS_PER_ACCOUNT];
    int n = 0;
    owners[n++] = p->player;
    for (int i = 0; i < p->bot_count; i++) {
        struct player *bot = world_player_by_id(srv->world, p->bots[i]);
        if (bot) owners[n++] = bot;
    }
    for (int i = 0; i < n; i++) {
        if (owners[i]->game_count > 0) {
            finish(srv, p, NULL, -PROTO_ERR_ACCOUNT_IN_GAME);
            return;
        }
    }
    int64_t now = now_mono_ms();
    for (struct seek *s = world_seek_first(srv->world), *next; s; s = next) {
        next = s->next;
        for (int i = 0; i < n; i++) {
            if (s->owner != owners[i]) continue;
            struct core_cmd cancel = {.type = s->is_challenge ? CORE_CMD_CHALLENGE_CANCEL
                                                              : CORE_CMD_SEEK_CANCEL,
                                      .target = s->id};
            if (world_apply(srv->world, owners[i], &cancel, now, &srv->events) < 0)
                LOGW("manage", "seek=%s of player=%s not cancelled", s->id, owners[i]->id);
            dispatch_events(srv, &srv->events, NULL, NULL);
            break;
        }
    }
    struct store_op op = account_op(p, STORE_OP_ACCOUNT_DELETE);
    submit(srv, p, &op);
}

void manage_on_password(struct server *srv, const struct password_result *r) {
    struct manage_pending *p = pending_find(srv->manage, r->cookie);
    if (!p) return;
    if (r->kind == PASSWORD_RESULT_VERIFY) {
        if (r->status == -PASSWORD_ERR_MISMATCH)
            finish(srv, p, NULL, -PROTO_ERR_PASSWORD_MISMATCH);
        else if (r->status < 0)
            finish(srv, p, NULL, -PROTO_ERR_INTERNAL);
        else
            password_verified(srv, p);
        return;
    }
    if (r->status < 0) {
        finish(srv, p, NULL, -PROTO_ERR_INTERNAL);
        return;
    }
    struct store_op op = account_op(p, STORE_OP_PASSWORD_SET);
    str_copy(op.u.account.password_hash, sizeof op.u.account.password_hash, r->hash);
    op.u.account.has_keep = true;
    memcpy(op.u.account.keep, p->keep, sizeof op.u.account.keep);
    submit(srv, p, &op);
    sodium_memzero(op.u.account.password_hash, sizeof op.u.account.password_hash);
}

/* The deletion is committed (and the connections ended): the world forgets the account and its
 * bots, renamed in the games it keeps. */
static void forget_account(struct server *srv, struct manage_pending *p) {
    for (int i = -1; i < p->bot_count; i++) {
        struct player *pl = i < 0 ? p->player : world_player_by_id(srv->world, p->bots[i]);
        if (!pl) continue;
        world_player_forget_token(srv->world, pl);
        str_copy(pl->name, sizeof pl->name, STORE_DELETED_NAME);
        pl->registered = false; /* a nameless guest now, forgotten once away */
        if (pl->game_count > 0)
            LOGW("manage", "player=%s deleted with a game that started meanwhile", pl->id);
    }
    LOGI("manage", "player=%s deleted its account (and %d bot(s))", p->player->id, p->bot_count);
}

static int error_for(int status, int not_found) {
    switch (status) {
        case -STORE_ERR_NOT_FOUND: return not_found;
        case -STORE_ERR_CONFLICT: return -PROTO_ERR_ACCOUNT_IN_GAME;
        default: return -PROTO_ERR_INTERNAL;
    }
}

void manage_on_result(struct server *srv, const struct store_result *r) {
    struct manage_pending *p = pending_find(srv->manage, r->cookie);
    if (!p) return;
    if (r->status < 0) {
        int not_found = p->msg == PROTO_MSG_SESSION_REVOKE ? -PROTO_ERR_SESSION_NOT_FOUND
                                                           : -PROTO_ERR_ACCOUNT_REQUIRED;
        finish(srv, p, NULL, error_for(r->status, not_found));
        return;
    }
    struct ending e = {.player = p->player};
    json_t *msg;
    switch (p->msg) {
        case PROTO_MSG_PASSWORD_CHANGE:
            LOGI("manage", "player=%s changed its password", p->player->id);
            msg = json_pack("{s:s}", "type", "password_changed");
            e.keep = p->keep;
            break;
        case PROTO_MSG_SESSION_REVOKE:
            msg = json_pack("{s:s,s:s}", "type", "session_revoked", "session", p->session);
            e.session = p->session;
            break;
        case PROTO_MSG_SESSIONS_REVOKE_ALL:
            msg = json_pack("{s:s}", "type", "sessions_revoked");
            e.keep = p->keep;
            break;
        default: /* account_delete: every session, and the bots */
            msg = json_pack("{s:s}", "type", "account_deleted");
            e.bots = p;
            break;
    }
    reply(p, msg, -PROTO_ERR_INTERNAL); /* before the asker's own session may end */
    end_sessions(srv, &e, p->w.conn);
    if (p->msg == PROTO_MSG_ACCOUNT_DELETE) {
        forget_account(srv, p);
        httpapi_forget_tokens(srv); /* its API tokens and its bots' */
    }
    pending_remove(srv->manage, p);
}

/* ---- requests ---- */

int manage_handle(struct conn *c, const struct proto_request *req, int64_t now_ms) {
    if (!c->srv->manage || !persist_store(c->srv)) return -PROTO_ERR_STORE_UNAVAILABLE;
    const struct player *pl = c->player;
    if (!pl->registered || pl->bot) return -PROTO_ERR_ACCOUNT_REQUIRED;
    switch (req->msg) {
        case PROTO_MSG_PASSWORD_CHANGE:
        case PROTO_MSG_ACCOUNT_DELETE: return start_checked(c, req, now_ms);
        case PROTO_MSG_SESSIONS_LIST: return list_sessions(c, req);
        case PROTO_MSG_SESSION_REVOKE:
        case PROTO_MSG_SESSIONS_REVOKE_ALL: return start_revoke(c, req);
        default: return -PROTO_ERR_UNKNOWN_TYPE;
    }
}

void manage_session_seen(struct conn *c) {
    const struct player *pl = c->player;
    struct store *store = persist_store(c->srv);
    if (!store || !pl || !pl->registered || pl->bot || !c->has_session) return;
    struct store_op op = {.type = STORE_OP_TOKEN_SEEN};
    memcpy(op.u.token.hash, c->session_hash, sizeof op.u.token.hash);
    op.u.token.at = now_wall_ms();
    if (store_submit(store, &op) == 0)
        LOGW("manage", "conn=%llu: when the session was seen is not written",
             (unsigned long long)c->id);
}
