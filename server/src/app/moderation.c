/*
 * Moderation requests. Writes wait (app/waiting.h, under cookies of their own) until the writer
 * reports them; reads are struct db_read jobs (reads.h).
 */
#include "app/moderation.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app/auth.h"
#include "app/internal.h"
#include "app/persist.h"
#include "app/reads.h"
#include "app/site.h"
#include "app/waiting.h"
#include "proto/encode.h"
#include "util/log.h"
#include "util/now.h"
#include "util/str.h"

#define COOKIE_BASE        (1ULL << 61) /* accounts.c counts from 1, bots.c from 2^62 */
#define PENDING_MAX        64
#define REPORTS_OPEN_MAX   100 /* open reports listed, newest first */
#define REPORTS_CLOSED_MAX 50  /* and the latest closed ones */
#define LOG_MAX            100 /* log entries listed, newest first */

struct mod_pending {
    struct waiting w;             /* first; no connection for the server's own grants */
    enum proto_msg msg;           /* PROTO_MSG_COUNT: a grant the server made itself */
    int action;                   /* MOD_ACTION: enum store_mod_action */
    char actor[STORE_ID_MAX + 1]; /* who asked ("" for the server) */
    char target[STORE_ID_MAX + 1];
    int64_t report;
};

struct moderation {
    struct waiting_list waiting;
};

static void pending_release(struct waiting *w) {
    free(w);
}

struct moderation *moderation_create(void) {
    struct moderation *m = calloc(1, sizeof *m);
    if (m) waiting_init(&m->waiting, COOKIE_BASE, PENDING_MAX, pending_release);
    return m;
}

void moderation_free(struct moderation *m) {
    if (!m) return;
    waiting_clear(&m->waiting);
    free(m);
}

void moderation_conn_gone(struct server *srv, struct conn *c) {
    if (srv->moderation) waiting_conn_gone(&srv->moderation->waiting, c);
}

/* ---- admins ---- */

/* Queues a write for p (a request of c, or of nobody), which waits for its result. Returns 0
 * or an error code (p is freed then). */
static int submit(struct server *srv, struct mod_pending *p, struct conn *c, const json_t *id,
                  struct store_op *op) {
    struct moderation *m = srv->moderation;
    struct store *store = persist_store(srv);
    int rc = store && m ? waiting_add(&m->waiting, &p->w, c, id) : -PROTO_ERR_STORE_UNAVAILABLE;
    if (rc < 0) {
        free(p);
        return rc;
    }
    op->cookie = p->w.cookie;
    op->want_result = true;
    if (store_submit(store, op) > 0) return 0;
    waiting_done(&m->waiting, &p->w);
    return -PROTO_ERR_STORE_UNAVAILABLE;
}

/* A grant by the server itself: of the account target_id, or of username. */
static void grant(struct server *srv, const char *target_id, const char *username,
                  bool first_only) {
    struct mod_pending *p = calloc(1, sizeof *p);
    if (!p) return;
    p->msg = PROTO_MSG_COUNT;
    p->action = STORE_MOD_GRANT;
    str_copy(p->target, sizeof p->target, target_id ? target_id : "");
    struct store_op op = {.type = STORE_OP_MODERATE};
    op.u.mod.action = STORE_MOD_GRANT;
    str_copy(op.u.mod.target_id, sizeof op.u.mod.target_id, p->target);
    str_copy(op.u.mod.username, sizeof op.u.mod.username, username ? username : "");
    op.u.mod.first_only = first_only;
    str_copy(op.u.mod.note, sizeof op.u.mod.note,
             first_only ? "the site's first account" : "named by --admin");
    op.u.mod.at = now_wall_ms();
    if (submit(srv, p, NULL, NULL, &op) < 0)
        LOGW("moderation", "an admin grant could not be queued");
}

static int grant_listed(void *ctx, const char *name) {
    char lower[AUTH_USERNAME_MAX + 1];
    if (auth_username_check(name, lower) == 0) grant(ctx, NULL, lower, false);
    return 0;
}

void moderation_start(struct server *srv) {
    server_config_each_admin(&srv->cfg, grant_listed, srv);
}

void moderation_registered(struct server *srv, struct player *pl, const char *username) {
    bool listed_mode = srv->cfg.admins && *srv->cfg.admins;
    if (listed_mode && !server_config_admin_listed(&srv->cfg, username)) return;
    grant(srv, pl->id, NULL, !listed_mode);
}

/* ---- writes ---- */

static struct mod_pending *pending_new(const struct conn *c, const struct proto_request *req,
                                       const char *target) {
    struct mod_pending *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->msg = req->msg;
    str_copy(p->actor, sizeof p->actor, c->player->id);
    str_copy(p->target, sizeof p->target, target ? target : "");
    return p;
}

static int handle_report(struct conn *c, const struct proto_request *req) {
    struct mod_pending *p = pending_new(c, req, req->player);
    if (!p) return -PROTO_ERR_INTERNAL;
    struct store_op op = {.type = STORE_OP_REPORT};
    str_copy(op.player_id, sizeof op.player_id, c->player->id);
    str_copy(op.u.report.target_id, sizeof op.u.report.target_id, req->player);
    op.u.report.kind = (enum store_report_kind)req->kind;
    str_copy(op.u.report.text, sizeof op.u.report.text, req->cmd.text ? req->cmd.text : "");
    str_copy(op.u.report.game_id, sizeof op.u.report.game_id, req->game ? req->game : "");
    op.u.report.at = now_wall_ms();
    return submit(c->srv, p, c, req->id, &op);
}

static int handle_block(struct conn *c, const struct proto_request *req, bool on) {
    struct mod_pending *p = pending_new(c, req, req->player);
    if (!p) return -PROTO_ERR_INTERNAL;
    struct store_op op = {.type = STORE_OP_BLOCK};
    str_copy(op.player_id, sizeof op.player_id, c->player->id);
    str_copy(op.u.block.target_id, sizeof op.u.block.target_id, req->player);
    op.u.block.on = on;
    op.u.block.at = now_wall_ms();
    return submit(c->srv, p, c, req->id, &op);
}

static int handle_action(struct conn *c, const struct proto_request *req) {
    bool resolve = req->msg == PROTO_MSG_REPORT_RESOLVE;
    struct mod_pending *p = pending_new(c, req, resolve ? NULL : req->player);
    if (!p) return -PROTO_ERR_INTERNAL;
    p->action = resolve ? STORE_MOD_RESOLVE : req->action;
    p->report = resolve ? req->report : 0;
    struct store_op op = {.type = STORE_OP_MODERATE};
    str_copy(op.player_id, sizeof op.player_id, c->player->id);
    op.u.mod.action = (enum store_mod_action)p->action;
    str_copy(op.u.mod.target_id, sizeof op.u.mod.target_id, p->target);
    op.u.mod.report_id = p->report;
    str_copy(op.u.mod.note, sizeof op.u.mod.note, req->cmd.text);
    op.u.mod.at = now_wall_ms();
    return submit(c->srv, p, c, req->id, &op);
}

/* Every connection of pl gets the error, then closes. */
static void disconnect(struct player *pl, int code) {
    for (struct conn *c = pl->net_conns, *next; c; c = next) {
        next = c->player_next;
        conn_send_error(c, code, NULL, NULL);
        conn_close(c, NET_CLOSE_POLICY_VIOLATION, "banned");
    }
}

/* What a committed action changes in memory: the player of this node, when it has it. Other
 * nodes of a site read the new state when the player next connects to them. */
static void apply_action(struct server *srv, int action, const char *target_id) {
    struct player *pl = world_player_by_id(srv->world, target_id);
    if (!pl) return;
    switch (action) {
        case STORE_MOD_MUTE: pl->muted = true; return;
        case STORE_MOD_UNMUTE: pl->muted = false; return;
        case STORE_MOD_UNBAN: pl->banned = false; return;
        case STORE_MOD_REOPEN: pl->closed = false; return;
        case STORE_MOD_GRANT: pl->admin = true; return;
        case STORE_MOD_BAN:
        case STORE_MOD_CLOSE:
            if (action == STORE_MOD_BAN) pl->banned = true;
            if (action == STORE_MOD_CLOSE) pl->closed = true;
            world_player_ban(srv->world, pl, now_mono_ms(), &srv->events);
            dispatch_events(srv, &srv->events, NULL, NULL);
            disconnect(pl,
                       action == STORE_MOD_CLOSE ? -PROTO_ERR_ACCOUNT_CLOSED : -PROTO_ERR_BANNED);
            return;
        default: return;
    }
}

void moderation_apply(struct server *srv, const char *player_id, const char *change,
                      const char *other_id) {
    bool block = strcmp(change, "block") == 0;
    if (block || strcmp(change, "unblock") == 0) {
        struct player *pl = world_player_by_id(srv->world, player_id);
        if (pl && other_id && *other_id && world_player_block(srv->world, pl, other_id, block) < 0)
            LOGW("moderation", "player=%s: out of memory for a block", pl->id);
        return;
    }
    for (int a = 0; a < STORE_MOD_ACTION_COUNT; a++)
        if (strcmp(change, store_mod_action_name(a)) == 0) apply_action(srv, a, player_id);
}

static json_t *mod_done(int action, const char *target, int64_t report) {
    json_t *msg =
        json_pack("{s:s,s:s}", "type", "mod_done", "action", store_mod_action_name(action));
    if (msg && target && *target) json_object_set_new(msg, "player", json_string(target));
    if (msg && report > 0) json_object_set_new(msg, "report", json_integer(report));
    return msg;
}

/* The reply to a committed write. */
static json_t *success(struct server *srv, const struct mod_pending *p) {
    switch (p->msg) {
        case PROTO_MSG_REPORT:
            LOGI("moderation", "a report on player=%s", p->target);
            return json_pack("{s:s,s:s}", "type", "report_received", "player", p->target);
        case PROTO_MSG_BLOCK:
        case PROTO_MSG_UNBLOCK: {
            bool on = p->msg == PROTO_MSG_BLOCK;
            /* Applied even when the asker's connection has closed: the player may have others. */
            moderation_apply(srv, p->actor, on ? "block" : "unblock", p->target);
            site_player_moderated(srv, p->actor, on ? "block" : "unblock", p->target);
            return json_pack("{s:s,s:s,s:b}", "type", "block_set", "player", p->target, "blocked",
                             on);
        }
        default:
            LOGI("moderation", "%s player=%s report=%lld by %s", store_mod_action_name(p->action),
                 p->target, (long long)p->report, p->actor[0] ? p->actor : "the server");
            if (p->action != STORE_MOD_RESOLVE) {
                apply_action(srv, p->action, p->target);
                site_player_moderated(srv, p->target, store_mod_action_name(p->action), NULL);
            }
            return mod_done(p->action, p->target, p->report);
    }
}

static int error_for(const struct mod_pending *p, int status) {
    switch (status) {
        case -STORE_ERR_DENIED: return -PROTO_ERR_NOT_ADMIN;
        case -STORE_ERR_LIMIT: return -PROTO_ERR_TOO_MANY_BLOCKS;
        case -STORE_ERR_NOT_FOUND:
            return p->action == STORE_MOD_RESOLVE && p->msg == PROTO_MSG_REPORT_RESOLVE
                       ? -PROTO_ERR_REPORT_NOT_FOUND
                       : -PROTO_ERR_PLAYER_NOT_FOUND;
        default: return -PROTO_ERR_INTERNAL;
    }
}

/* A grant the server made: the new admin's connections are told, so their client shows the
 * moderation page. NOT_FOUND: nobody to grant (not registered yet, or an admin exists). */
static void granted(struct server *srv, const struct mod_pending *p, int status) {
    if (status < 0) return;
    apply_action(srv, STORE_MOD_GRANT, p->target);
    if (p->target[0]) site_player_moderated(srv, p->target, "grant", NULL);
    const struct player *pl = world_player_by_id(srv->world, p->target);
    if (pl) LOGI("moderation", "player=%s is an admin", pl->id);
    for (struct conn *c = pl ? pl->net_conns : NULL; c; c = c->player_next)
        conn_send_json(c, mod_done(STORE_MOD_GRANT, p->target, 0));
}

void moderation_on_result(struct server *srv, const struct store_result *r) {
    struct moderation *m = srv->moderation;
    struct waiting *w = m ? waiting_find(&m->waiting, r->cookie) : NULL;
    if (!w) return;
    struct mod_pending *p = (struct mod_pending *)(void *)w;
    if (p->msg == PROTO_MSG_COUNT)
        granted(srv, p, r->status);
    else if (r->status < 0)
        waiting_reply(w, NULL, error_for(p, r->status));
    else
        waiting_reply(w, success(srv, p), -PROTO_ERR_INTERNAL);
    waiting_done(&m->waiting, w);
}

/* ---- reads ---- */

struct mod_read {
    struct db_read base; /* first */
    enum proto_msg msg;
    char player_id[STORE_ID_MAX + 1]; /* blocks_list: whose; mod_log: about whom, or "" */
    struct store_named *blocks;       /* STORE_BLOCKS_MAX */
    struct store_report *reports;     /* REPORTS_OPEN_MAX + REPORTS_CLOSED_MAX */
    struct store_mod_entry *entries;  /* LOG_MAX */
    int count;
};

static void mod_read_release(struct db_read *rd) {
    struct mod_read *r = (struct mod_read *)(void *)rd;
    free(r->blocks);
    free(r->reports);
    free(r->entries);
}

static void mod_read_run(struct store_reader *reader, struct db_read *rd) {
    struct mod_read *r = (struct mod_read *)(void *)rd;
    int open = 0, closed = 0;
    switch (r->msg) {
        case PROTO_MSG_BLOCKS_LIST:
            rd->status = store_blocks(reader, r->player_id, STORE_BLOCKS_MAX, r->blocks, &r->count);
            return;
        case PROTO_MSG_MOD_REPORTS:
            rd->status = store_reports(reader, false, REPORTS_OPEN_MAX, r->reports, &open);
            if (rd->status == 0)
                rd->status =
                    store_reports(reader, true, REPORTS_CLOSED_MAX, r->reports + open, &closed);
            r->count = open + closed;
            return;
        default:
            rd->status = store_mod_log(reader, r->player_id[0] ? r->player_id : NULL, LOG_MAX,
                                       r->entries, &r->count);
            return;
    }
}

static json_t *named_json(const struct store_named *n) {
    return n->id[0] ? json_pack("{s:s,s:s}", "id", n->id, "name", n->name) : json_null();
}

static json_t *report_json(const struct store_report *r) {
    json_t *o = json_pack("{s:I,s:o,s:o,s:s,s:s,s:I}", "id", (json_int_t)r->id, "reporter",
                          named_json(&r->reporter), "player", named_json(&r->target), "kind",
                          store_report_kind_name(r->kind), "text", r->text, "created_at",
                          (json_int_t)r->created_at);
    if (o && r->game_id[0]) json_object_set_new(o, "game", json_string(r->game_id));
    if (o && r->closed_at) {
        json_object_set_new(o, "closed_at", json_integer(r->closed_at));
        json_object_set_new(o, "closed_by", named_json(&r->closed_by));
        json_object_set_new(o, "note", json_string(r->note));
    }
    return o;
}

static json_t *entry_json(const struct store_mod_entry *e) {
    json_t *o = json_pack("{s:I,s:I,s:o,s:s,s:o,s:s}", "id", (json_int_t)e->id, "at",
                          (json_int_t)e->at, "moderator", named_json(&e->moderator), "action",
                          store_mod_action_name(e->action), "player", named_json(&e->target),
                          "note", e->note);
    if (o && e->report_id) json_object_set_new(o, "report", json_integer(e->report_id));
    return o;
}

static json_t *list_json(const struct mod_read *r) {
    json_t *list = json_array();
    for (int i = 0; list && i < r->count; i++) {
        json_t *item = r->msg == PROTO_MSG_BLOCKS_LIST   ? named_json(&r->blocks[i])
                       : r->msg == PROTO_MSG_MOD_REPORTS ? report_json(&r->reports[i])
                                                         : entry_json(&r->entries[i]);
        if (json_array_append_new(list, item) < 0) {
            json_decref(list);
            return NULL;
        }
    }
    if (!list) return NULL;
    if (r->msg == PROTO_MSG_BLOCKS_LIST)
        return json_pack("{s:s,s:o}", "type", "blocks", "players", list);
    if (r->msg == PROTO_MSG_MOD_REPORTS)
        return json_pack("{s:s,s:o}", "type", "mod_reports", "reports", list);
    return json_pack("{s:s,s:o}", "type", "mod_log", "entries", list);
}

static bool mod_read_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)call;
    struct mod_read *r = (struct mod_read *)(void *)rd;
    if (!c) return false;
    json_t *msg = rd->status == 0 ? list_json(r) : NULL;
    if (!msg) {
        conn_send_error(c, -PROTO_ERR_STORE_UNAVAILABLE, rd->req_id, NULL);
        return false;
    }
    proto_set_id(msg, rd->req_id);
    conn_send_json(c, msg);
    return false;
}

static int submit_read(struct conn *c, const struct proto_request *req) {
    struct mod_read *r = calloc(1, sizeof *r);
    if (!r) return -PROTO_ERR_INTERNAL;
    r->msg = req->msg;
    r->base.run = mod_read_run;
    r->base.answer = mod_read_answer;
    r->base.release = mod_read_release;
    r->base.req_id = req->id ? json_deep_copy(req->id) : NULL;
    if (req->msg == PROTO_MSG_BLOCKS_LIST) {
        str_copy(r->player_id, sizeof r->player_id, c->player->id);
        r->blocks = calloc(STORE_BLOCKS_MAX, sizeof *r->blocks);
    } else if (req->msg == PROTO_MSG_MOD_REPORTS) {
        r->reports = calloc(REPORTS_OPEN_MAX + REPORTS_CLOSED_MAX, sizeof *r->reports);
    } else {
        str_copy(r->player_id, sizeof r->player_id, req->player ? req->player : "");
        r->entries = calloc(LOG_MAX, sizeof *r->entries);
    }
    if (!r->blocks && !r->reports && !r->entries) {
        reads_discard(&r->base);
        return -PROTO_ERR_INTERNAL;
    }
    return reads_submit_conn(c, &r->base);
}

/* ---- the messages ---- */

int moderation_handle(struct conn *c, const struct proto_request *req) {
    if (!persist_store(c->srv)) return -PROTO_ERR_STORE_UNAVAILABLE;
    const struct player *self = c->player;
    bool about_player = req->msg != PROTO_MSG_BLOCKS_LIST && req->msg != PROTO_MSG_MOD_REPORTS &&
                        req->msg != PROTO_MSG_REPORT_RESOLVE && req->msg != PROTO_MSG_MOD_LOG;
    if (about_player && strcmp(req->player, self->id) == 0) return -PROTO_ERR_SELF_TARGET;
    switch (req->msg) {
        case PROTO_MSG_REPORT: return handle_report(c, req);
        case PROTO_MSG_BLOCK: return handle_block(c, req, true);
        case PROTO_MSG_UNBLOCK: return handle_block(c, req, false);
        case PROTO_MSG_BLOCKS_LIST: return submit_read(c, req);
        default: break;
    }
    /* The rest is for admins; the writer checks again in the database. */
    if (!self->admin) return -PROTO_ERR_NOT_ADMIN;
    if (req->msg == PROTO_MSG_MOD_ACTION || req->msg == PROTO_MSG_REPORT_RESOLVE)
        return handle_action(c, req);
    return submit_read(c, req);
}
