/*
 * Player settings: a change waits (app/waiting.h, under cookies of its own) until the writer
 * reports its commit; the settings sent after a welcome are a read (app/reads.h).
 */
#include "app/settings.h"

#include <stdlib.h>
#include <string.h>

#include "app/internal.h"
#include "app/persist.h"
#include "app/prefs.h"
#include "app/reads.h"
#include "app/site.h"
#include "app/waiting.h"
#include "store/read.h"
#include "util/log.h"
#include "util/now.h"
#include "util/str.h"

#define COOKIE_BASE                                                                                \
    (3ULL << 62) /* accounts.c from 1, moderation.c 2^61, manage.c 3 * 2^60, bots.c 2^62,          \
                    tokens.c 2^63 */
#define PENDING_MAX 64

_Static_assert(PREFS_MAX_BYTES == STORE_SETTINGS_MAX, "settings as stored");

struct settings_pending {
    struct waiting w; /* first */
    char player_id[STORE_ID_MAX + 1];
    json_t *settings; /* what is stored once committed */
};

struct settings {
    struct waiting_list waiting;
};

static void pending_release(struct waiting *w) {
    struct settings_pending *p = (struct settings_pending *)(void *)w;
    json_decref(p->settings);
    free(p);
}

struct settings *settings_create(void) {
    struct settings *s = calloc(1, sizeof *s);
    if (s) waiting_init(&s->waiting, COOKIE_BASE, PENDING_MAX, pending_release);
    return s;
}

void settings_free(struct settings *s) {
    if (!s) return;
    waiting_clear(&s->waiting);
    free(s);
}

void settings_conn_gone(struct server *srv, struct conn *c) {
    if (srv->settings) waiting_conn_gone(&srv->settings->waiting, c);
}

/* {"type": "settings", "settings": settings} (settings consumed), or NULL. */
static json_t *settings_message(json_t *settings) {
    return settings ? json_pack("{s:s,s:o}", "type", "settings", "settings", settings) : NULL;
}

static bool is_account(const struct player *pl) {
    return pl && pl->registered && !pl->bot;
}

/* ---- after a welcome: a read ---- */

struct hello_read {
    struct db_read base; /* first */
    char player_id[STORE_ID_MAX + 1];
    char text[STORE_SETTINGS_MAX + 1];
};

static void hello_run(struct store_reader *reader, struct db_read *rd) {
    struct hello_read *r = (struct hello_read *)(void *)rd;
    rd->status = store_player_settings(reader, r->player_id, r->text);
}

static bool hello_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)call;
    struct hello_read *r = (struct hello_read *)(void *)rd;
    if (!c) return false;
    if (rd->status < 0) {
        /* The page keeps the browser's settings; a later change is still saved. */
        LOGW("settings", "conn=%llu player=%s: settings not read (%s)", (unsigned long long)c->id,
             r->player_id, store_status_name(rd->status));
        return false;
    }
    json_t *msg = settings_message(prefs_parse(r->text));
    if (msg) conn_send_json(c, msg);
    return false;
}

void settings_hello(struct conn *c) {
    if (!c->srv->settings || !persist_store(c->srv) || !is_account(c->player)) return;
    struct hello_read *r = calloc(1, sizeof *r);
    if (!r) return;
    r->base.run = hello_run;
    r->base.answer = hello_answer;
    str_copy(r->player_id, sizeof r->player_id, c->player->id);
    if (reads_submit_conn(c, &r->base) < 0) /* frees r */
        LOGW("settings", "conn=%llu: settings not read (the readers are busy)",
             (unsigned long long)c->id);
}

/* ---- settings_set: a write ---- */

int settings_handle(struct conn *c, const struct proto_request *req) {
    struct settings *s = c->srv->settings;
    if (!s || !persist_store(c->srv)) return -PROTO_ERR_STORE_UNAVAILABLE;
    if (!is_account(c->player)) return -PROTO_ERR_ACCOUNT_REQUIRED;
    char *text = NULL;
    const char *field = NULL;
    int rc = prefs_check(req->settings, &text, &field);
    if (rc == -1) {
        conn_send_error(c, -PROTO_ERR_BAD_SETTINGS, req->id, field);
        return 0;
    }
    if (rc < 0) return -PROTO_ERR_INTERNAL;
    struct settings_pending *p = calloc(1, sizeof *p);
    p->settings = p ? prefs_parse(text) : NULL;
    rc = p && p->settings ? waiting_add(&s->waiting, &p->w, c, req->id) : -PROTO_ERR_INTERNAL;
    if (rc < 0) {
        if (p) json_decref(p->settings);
        free(p);
        free(text);
        return rc;
    }
    str_copy(p->player_id, sizeof p->player_id, c->player->id);
    struct store_op op = {
        .type = STORE_OP_SETTINGS_SET, .cookie = p->w.cookie, .want_result = true};
    str_copy(op.player_id, sizeof op.player_id, c->player->id);
    op.u.settings.json = text; /* the store's now, whatever happens */
    op.u.settings.at = now_wall_ms();
    if (store_submit(persist_store(c->srv), &op) == 0) {
        waiting_done(&s->waiting, &p->w);
        return -PROTO_ERR_STORE_UNAVAILABLE;
    }
    return 0;
}

/* The account's pages on this node but the asker (which gets the reply) take the change. */
static void tell_pages_here(struct server *srv, const char *player_id, const struct conn *asker,
                            const json_t *msg) {
    const struct player *pl = msg ? world_player_by_id(srv->world, player_id) : NULL;
    for (struct conn *c = pl ? pl->net_conns : NULL; c; c = c->player_next) {
        if (c != asker) conn_send_json(c, json_deep_copy(msg));
    }
}

void settings_push(struct server *srv, const char *player_id, const json_t *settings) {
    json_t *msg = json_is_object(settings) ? settings_message(json_deep_copy(settings)) : NULL;
    tell_pages_here(srv, player_id, NULL, msg);
    json_decref(msg);
}

void settings_on_result(struct server *srv, const struct store_result *r) {
    struct waiting *w = srv->settings ? waiting_find(&srv->settings->waiting, r->cookie) : NULL;
    if (!w) return;
    struct settings_pending *p = (struct settings_pending *)(void *)w;
    json_t *msg = NULL;
    int code = -PROTO_ERR_INTERNAL;
    if (r->status == 0) {
        LOGD("settings", "player=%s saved its settings", p->player_id);
        msg = settings_message(p->settings);
        p->settings = NULL; /* consumed */
        /* The account's other pages take it at once, here and on the site's other nodes. */
        tell_pages_here(srv, p->player_id, w->conn, msg);
        if (msg) site_player_settings(srv, p->player_id, json_object_get(msg, "settings"));
    } else if (r->status == -STORE_ERR_NOT_FOUND) {
        code = -PROTO_ERR_ACCOUNT_REQUIRED; /* the account went away meanwhile (deleted) */
    }
    waiting_reply(w, msg, code);
    waiting_done(&srv->settings->waiting, w);
}
