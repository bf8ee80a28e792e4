/*
 * Register, login and logout as small state machines: each request waits in a list under a
 * cookie while the password thread hashes or verifies and the writer commits, and moves on when
 * the result for that cookie comes back (accounts_on_password, accounts_on_result).
 *
 *   register: read account (taken?) -> hash password -> REGISTER write -> "registered"
 *   login:    read account -> verify (or hash, for an unknown name: same cost) -> TOKEN_ADD
 *             write -> "session"
 * (the reads on a reader thread, reads.h).
 *   logout:   TOKEN_REVOKE write (the connection's session) -> "logged_out"
 */
#include "app/accounts.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "app/auth.h"
#include "app/internal.h"
#include "app/moderation.h"
#include "app/password.h"
#include "app/persist.h"
#include "app/reads.h"
#include "app/waiting.h"
#include "core/ratelimit.h"
#include "proto/encode.h"
#include "store/read.h"
#include "util/ids.h"
#include "util/log.h"
#include "util/now.h"
#include "util/str.h"
#include "util/strmap.h"

/* Login attempts: per username and per client address, a burst then one every few seconds. */
#define LOGIN_BURST_PER_NAME   5
#define LOGIN_EVERY_S_PER_NAME 20.0
#define LOGIN_BURST_PER_ADDR   20
#define LOGIN_EVERY_S_PER_ADDR 3.0
#define LIMIT_TABLE_MAX        10000 /* entries per table before it is cleared */
/* Requests waiting for the password thread (Argon2id takes tens of milliseconds and 64 MiB each):
 * beyond this, more are refused rather than queued. */
#define PENDING_MAX 64

enum pending_kind { PENDING_REGISTER, PENDING_LOGIN, PENDING_LOGOUT };

struct pending {
    struct waiting w; /* first */
    enum pending_kind kind;
    bool unknown_user; /* login: the hash of a name that does not exist (answered LOGIN_FAILED) */
    struct player *player;
    struct store_identity account; /* login */
    char username[STORE_USERNAME_MAX + 1];
    char name[STORE_NAME_MAX + 1];
    char token[PLAYER_TOKEN_LEN + 1];     /* login: the new token */
    uint8_t session[AUTH_TOKEN_HASH_LEN]; /* logout: the connection's session, revoked */
};

struct limit_entry {
    char key[72];
    struct ratelimit limit;
};

struct accounts {
    struct waiting_list waiting;
    struct strmap by_name, by_addr; /* key -> struct limit_entry */
};

static void pending_release(struct waiting *w) {
    struct pending *p = (struct pending *)(void *)w;
    if (p->player) p->player->refs--;
    free(p);
}

struct accounts *accounts_create(void) {
    struct accounts *a = calloc(1, sizeof *a);
    if (a) waiting_init(&a->waiting, 0, PENDING_MAX, pending_release);
    return a;
}

static void free_limits(struct strmap *map) {
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(map, &i, &key, &value);) free(value);
    strmap_free(map);
}

void accounts_free(struct accounts *a) {
    if (!a) return;
    waiting_clear(&a->waiting);
    free_limits(&a->by_name);
    free_limits(&a->by_addr);
    free(a);
}

/* True when the attempt is allowed (one token taken from key's bucket). */
static bool take(struct strmap *map, const char *key, double burst, double every_s, int64_t now) {
    char bounded[sizeof((struct limit_entry *)0)->key]; /* a longer key is cut, as it counts */
    str_copy(bounded, sizeof bounded, key);
    if (!strmap_get(map, bounded) && map->count >= LIMIT_TABLE_MAX)
        free_limits(map); /* forget old attempts */
    int created;
    struct limit_entry *e = strmap_get_or_add(
        map, bounded, sizeof *e, offsetof(struct limit_entry, key), sizeof e->key, &created);
    if (!e) return false;
    if (created) ratelimit_init(&e->limit, burst, 1.0 / every_s, now);
    return ratelimit_take(&e->limit, 1, now);
}

static struct accounts *accounts_of(struct server *srv) {
    return srv->accounts;
}

/* A request of c's waiting in a, or NULL with *rc the error (too many waiting, memory). */
static struct pending *add_pending(struct accounts *a, enum pending_kind kind, struct conn *c,
                                   const json_t *id, int *rc) {
    struct pending *p = calloc(1, sizeof *p);
    *rc = p ? waiting_add(&a->waiting, &p->w, c, id) : -PROTO_ERR_INTERNAL;
    if (*rc < 0) {
        free(p);
        return NULL;
    }
    p->kind = kind;
    p->player = c->player;
    if (p->player) p->player->refs++; /* not forgotten while the request waits (world.h) */
    return p;
}

static void remove_pending(struct accounts *a, struct pending *p) {
    waiting_done(&a->waiting, &p->w);
}

void accounts_conn_gone(struct server *srv, struct conn *c) {
    struct accounts *a = accounts_of(srv);
    if (a) waiting_conn_gone(&a->waiting, c);
}

/* ---- replies ---- */

static json_t *player_json(const struct player *pl) {
    return json_pack("{s:s,s:s,s:b,s:b}", "id", pl->id, "name", pl->name, "registered",
                     pl->registered, "bot", pl->bot);
}

static void reply(struct pending *p, json_t *msg) {
    if (msg) waiting_reply(&p->w, msg, 0);
}

static void reply_error(struct pending *p, int code) {
    waiting_reply(&p->w, NULL, code);
}

/* ---- requests ---- */

/*
 * The account lookups of register and login run on a reader thread (reads.h): the request
 * waits with a copy of the password (wiped when freed); the connection's later messages wait
 * for the answer.
 */
struct account_read {
    struct db_read base; /* first */
    enum pending_kind kind;
    uint64_t cookie;                       /* login: its pending request */
    char username[STORE_USERNAME_MAX + 1]; /* lower case */
    char name[STORE_NAME_MAX + 1];         /* register: as typed */
    char *password;
    struct store_identity account;
    char hash[STORE_PWHASH_MAX];
};

static void account_run(struct store_reader *reader, struct db_read *rd) {
    struct account_read *r = (struct account_read *)(void *)rd;
    rd->status = store_find_account(reader, r->username, &r->account, r->hash);
}

static void account_release(struct db_read *rd) {
    struct account_read *r = (struct account_read *)(void *)rd;
    if (r->password) {
        sodium_memzero(r->password, strlen(r->password));
        free(r->password);
    }
    sodium_memzero(r->hash, sizeof r->hash);
}

static struct pending *find_pending(struct accounts *a, uint64_t cookie) {
    return a ? (struct pending *)(void *)waiting_find(&a->waiting, cookie) : NULL;
}

static void register_found(struct account_read *r, struct conn *c, struct store *store) {
    struct accounts *a = accounts_of(c->srv);
    const json_t *id = r->base.req_id;
    if (r->base.status == 0) { /* early; the unique index decides */
        conn_send_error(c, -PROTO_ERR_USERNAME_TAKEN, id, NULL);
        return;
    }
    if (r->base.status != -STORE_ERR_NOT_FOUND || !store) {
        conn_send_error(c, -PROTO_ERR_STORE_UNAVAILABLE, id, NULL);
        return;
    }
    if (!c->player || c->player->registered) {
        conn_send_error(c, -PROTO_ERR_ALREADY_REGISTERED, id, NULL);
        return;
    }
    int rc;
    struct pending *p = add_pending(a, PENDING_REGISTER, c, id, &rc);
    if (!p) {
        conn_send_error(c, rc, id, NULL);
        return;
    }
    str_copy(p->username, sizeof p->username, r->username);
    str_copy(p->name, sizeof p->name, r->name);
    if (password_hash(persist_passwords(c->srv), r->password, p->w.cookie) < 0) {
        remove_pending(a, p);
        conn_send_error(c, -PROTO_ERR_INTERNAL, id, NULL);
    }
}

static void login_found(struct account_read *r, struct server *srv, struct store *store) {
    struct accounts *a = accounts_of(srv);
    struct pending *p = find_pending(a, r->cookie);
    if (!p) return;
    int rc;
    if (!p->w.conn || !store) {
        rc = -1; /* gone: no reply */
    } else if (r->base.status == 0) {
        p->account = r->account;
        rc = password_verify(persist_passwords(srv), r->password, r->hash, p->w.cookie);
    } else if (r->base.status == -STORE_ERR_NOT_FOUND) {
        /* No such account: spend what a verification costs, then refuse. */
        p->unknown_user = true;
        rc = password_hash(persist_passwords(srv), r->password, p->w.cookie);
    } else {
        reply_error(p, -PROTO_ERR_STORE_UNAVAILABLE);
        remove_pending(a, p);
        return;
    }
    if (rc < 0) {
        reply_error(p, -PROTO_ERR_INTERNAL);
        remove_pending(a, p);
    }
}

static bool account_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)call;
    struct account_read *r = (struct account_read *)(void *)rd;
    struct store *store = persist_store(rd->srv);
    if (r->kind == PENDING_LOGIN)
        login_found(r, rd->srv, store); /* its pending request knows whether c is gone */
    else if (c)
        register_found(r, c, store);
    return false;
}

/* Looks up an account for register or login; the answer goes on. Returns 0 or an error. */
static int find_account(struct conn *c, enum pending_kind kind, const char *lower,
                        const struct proto_request *req, uint64_t cookie) {
    struct account_read *r = calloc(1, sizeof *r);
    if (!r) return -PROTO_ERR_INTERNAL;
    r->base.run = account_run;
    r->base.answer = account_answer;
    r->base.release = account_release;
    r->base.req_id = req->id ? json_deep_copy(req->id) : NULL;
    r->kind = kind;
    r->cookie = cookie;
    str_copy(r->username, sizeof r->username, lower);
    str_copy(r->name, sizeof r->name, req->username);
    r->password = strdup(req->password);
    if (!r->password) {
        json_decref(r->base.req_id);
        free(r);
        return -PROTO_ERR_INTERNAL;
    }
    return reads_submit_conn(c, &r->base);
}

static int start_register(struct conn *c, const struct proto_request *req, struct store *store) {
    (void)store;
    struct player *pl = c->player;
    char lower[STORE_USERNAME_MAX + 1];
    if (pl->registered) return -PROTO_ERR_ALREADY_REGISTERED;
    if (auth_username_check(req->username, lower) < 0) return -PROTO_ERR_USERNAME_INVALID;
    if (auth_password_check(req->password) < 0) return -PROTO_ERR_PASSWORD_INVALID;
    return find_account(c, PENDING_REGISTER, lower, req, 0);
}

/* A password attempt for name (lower: its login form, "?" when malformed) from c's address:
 * true when both limits allow it. */
static bool attempt(struct conn *c, const char *name, const char *lower, int64_t now) {
    struct accounts *a = accounts_of(c->srv);
    if (take(&a->by_addr, c->addr, LOGIN_BURST_PER_ADDR, LOGIN_EVERY_S_PER_ADDR, now) &&
        take(&a->by_name, lower, LOGIN_BURST_PER_NAME, LOGIN_EVERY_S_PER_NAME, now))
        return true;
    char safe[64];
    LOGW("accounts", "conn=%llu password attempts limited (user=%s addr=%s)",
         (unsigned long long)c->id, log_sanitize(name, safe, sizeof safe), c->addr);
    return false;
}

bool accounts_password_attempt(struct conn *c, const char *name, int64_t now_ms) {
    char lower[STORE_USERNAME_MAX + 1];
    if (!accounts_of(c->srv)) return false;
    if (auth_username_check(name, lower) < 0) str_copy(lower, sizeof lower, "?");
    return attempt(c, name, lower, now_ms);
}

static int start_login(struct conn *c, const struct proto_request *req, int64_t now) {
    char lower[STORE_USERNAME_MAX + 1];
    bool valid = auth_username_check(req->username, lower) == 0;
    if (!valid) str_copy(lower, sizeof lower, "?"); /* one bucket for malformed names */
    struct accounts *a = accounts_of(c->srv);
    if (!attempt(c, req->username, lower, now)) return -PROTO_ERR_LOGIN_RATE_LIMITED;
    int rc;
    struct pending *p = add_pending(a, PENDING_LOGIN, c, req->id, &rc);
    if (!p) return rc;
    if (valid) {
        rc = find_account(c, PENDING_LOGIN, lower, req, p->w.cookie);
        if (rc < 0) remove_pending(a, p);
        return rc;
    }
    /* A malformed name cannot exist: spend what a verification costs, then refuse. */
    p->unknown_user = true;
    rc = password_hash(persist_passwords(c->srv), req->password, p->w.cookie);
    if (rc < 0) {
        remove_pending(a, p);
        return -PROTO_ERR_INTERNAL;
    }
    return 0;
}

static int start_logout(struct conn *c, const struct proto_request *req, struct store *store) {
    struct accounts *a = accounts_of(c->srv);
    if (!c->has_session) return -PROTO_ERR_BAD_TOKEN;
    int rc;
    struct pending *p = add_pending(a, PENDING_LOGOUT, c, req->id, &rc);
    if (!p) return rc;
    memcpy(p->session, c->session_hash, sizeof p->session);
    struct store_op op = {
        .type = STORE_OP_TOKEN_REVOKE, .cookie = p->w.cookie, .want_result = true};
    memcpy(op.u.token.hash, p->session, sizeof op.u.token.hash);
    op.u.token.at = now_wall_ms();
    if (store_submit(store, &op) == 0) {
        remove_pending(a, p);
        return -PROTO_ERR_STORE_UNAVAILABLE;
    }
    return 0;
}

int accounts_handle(struct conn *c, const struct proto_request *req, int64_t now_ms) {
    struct store *store = persist_store(c->srv);
    if (!store || !accounts_of(c->srv)) return -PROTO_ERR_STORE_UNAVAILABLE;
    switch (req->msg) {
        case PROTO_MSG_REGISTER: return start_register(c, req, store);
        case PROTO_MSG_LOGIN: return start_login(c, req, now_ms);
        case PROTO_MSG_LOGOUT: return start_logout(c, req, store);
        default: return -PROTO_ERR_UNKNOWN_TYPE;
    }
}

/* ---- results ---- */

static void register_hashed(struct server *srv, struct pending *p,
                            const struct password_result *r) {
    struct player *pl = p->player;
    struct store_op op = {.type = STORE_OP_REGISTER, .cookie = p->w.cookie, .want_result = true};
    str_copy(op.player_id, sizeof op.player_id, pl->id);
    str_copy(op.u.reg.name, sizeof op.u.reg.name, p->name);
    str_copy(op.u.reg.username, sizeof op.u.reg.username, p->username);
    str_copy(op.u.reg.password_hash, sizeof op.u.reg.password_hash, r->hash);
    op.u.reg.at = now_wall_ms();
    if (pl->token[0]) {
        op.u.reg.has_token = true;
        auth_token_hash(pl->token, op.u.reg.token_hash);
    }
    if (r->status < 0 || store_submit(persist_store(srv), &op) == 0) {
        reply_error(p, -PROTO_ERR_INTERNAL);
        remove_pending(accounts_of(srv), p);
    }
}

static void register_done(struct server *srv, struct pending *p, int status) {
    struct player *pl = p->player;
    if (status == -STORE_ERR_CONFLICT) {
        reply_error(p, -PROTO_ERR_USERNAME_TAKEN);
    } else if (status < 0) {
        reply_error(p, -PROTO_ERR_INTERNAL);
    } else {
        pl->registered = true;
        pl->stored = true;
        str_copy(pl->name, sizeof pl->name, p->name);
        LOGI("accounts", "player=%s registered as %s", pl->id, p->username);
        json_t *msg = json_pack("{s:s,s:o}", "type", "registered", "player", player_json(pl));
        reply(p, msg);
        moderation_registered(srv, pl, p->username);
    }
    remove_pending(accounts_of(srv), p);
}

static void login_checked(struct server *srv, struct pending *p, const struct password_result *r) {
    if (p->unknown_user || r->status < 0 || ids_random_text(p->token, PLAYER_TOKEN_LEN) < 0) {
        reply_error(p, -PROTO_ERR_LOGIN_FAILED);
        remove_pending(accounts_of(srv), p);
        return;
    }
    if (p->account.banned) {
        /* Told only to someone who knows the password. */
        reply_error(p, p->account.closed ? -PROTO_ERR_ACCOUNT_CLOSED : -PROTO_ERR_BANNED);
        remove_pending(accounts_of(srv), p);
        return;
    }
    struct store_op op = {.type = STORE_OP_TOKEN_ADD, .cookie = p->w.cookie, .want_result = true};
    str_copy(op.player_id, sizeof op.player_id, p->account.player_id);
    auth_token_hash(p->token, op.u.token.hash);
    op.u.token.kind = STORE_TOKEN_SESSION;
    op.u.token.at = now_wall_ms();
    if (store_submit(persist_store(srv), &op) == 0) {
        reply_error(p, -PROTO_ERR_STORE_UNAVAILABLE);
        remove_pending(accounts_of(srv), p);
    }
}

static void login_done(struct server *srv, struct pending *p, int status) {
    if (status < 0) {
        reply_error(p, -PROTO_ERR_INTERNAL);
    } else {
        const struct store_identity *id = &p->account;
        json_t *player = json_pack("{s:s,s:s,s:b,s:b}", "id", id->player_id, "name", id->name,
                                   "registered", 1, "bot", id->bot);
        reply(p,
              json_pack("{s:s,s:s,s:o}", "type", "session", "token", p->token, "player", player));
    }
    remove_pending(accounts_of(srv), p);
}

static void logout_done(struct server *srv, struct pending *p, int status) {
    struct player *pl = p->player;
    /* Already revoked counts as done. */
    if (status < 0 && status != -STORE_ERR_NOT_FOUND) {
        reply_error(p, -PROTO_ERR_INTERNAL);
    } else {
        uint8_t mapped[AUTH_TOKEN_HASH_LEN];
        if (pl->token[0]) {
            auth_token_hash(pl->token, mapped);
            if (memcmp(mapped, p->session, sizeof mapped) == 0)
                world_player_forget_token(srv->world, pl);
        }
        reply(p, json_pack("{s:s}", "type", "logged_out"));
    }
    remove_pending(accounts_of(srv), p);
}

void accounts_on_result(struct server *srv, const struct store_result *r) {
    struct pending *p = find_pending(accounts_of(srv), r->cookie);
    if (!p) return;
    switch (p->kind) {
        case PENDING_REGISTER: register_done(srv, p, r->status); return;
        case PENDING_LOGIN: login_done(srv, p, r->status); return;
        case PENDING_LOGOUT: logout_done(srv, p, r->status); return;
    }
}

void accounts_on_password(struct server *srv, const struct password_result *r) {
    struct pending *p = find_pending(accounts_of(srv), r->cookie);
    if (!p) return;
    if (p->kind == PENDING_REGISTER)
        register_hashed(srv, p, r);
    else if (p->kind == PENDING_LOGIN)
        login_checked(srv, p, r);
}
