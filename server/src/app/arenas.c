/*
 * Arena watch lists: the server's map from an arena's id to its watching connections, with the
 * version last pushed to them; each connection keeps the ids it watches (for its close).
 */
#include "app/arenas.h"

#include <stdlib.h>
#include <string.h>

#include "app/internal.h"
#include "app/site.h"
#include "proto/encode.h"
#include "proto/proto.h"
#include "store/read.h"
#include "util/log.h"
#include "util/now.h"
#include "util/vec.h"

_Static_assert(ARENAS_WATCH_MAX == sizeof((struct conn *)0)->arenas_watched / (ARENA_ID_LEN + 1),
               "a connection keeps room for the arenas it may watch");

struct arena_watch {
    char id[ARENA_ID_LEN + 1];
    struct conn **conns;
    int count;
    size_t cap;
    uint32_t pushed;      /* the arena's version last pushed (or sent in a full state) */
    int64_t next_push_ms; /* not before */
    bool remote;          /* another node's arena: its node pushes (arenas_deliver) */
};

static int watched_index(const struct conn *c, const char *id) {
    for (int i = 0; i < c->arena_watch_count; i++)
        if (strcmp(c->arenas_watched[i], id) == 0) return i;
    return -1;
}

/* Adds c to the watchers of the arena id (a: this node's, or NULL for another node's). */
static int add_watcher(struct conn *c, const char *id, const struct world_arena *a) {
    struct server *srv = c->srv;
    if (strlen(id) > ARENA_ID_LEN) return -CORE_ERR_ARENA_NOT_FOUND;
    if (watched_index(c, id) >= 0) return 0;
    if (c->arena_watch_count >= ARENAS_WATCH_MAX) return -PROTO_ERR_TOO_MANY_WATCHED;
    struct arena_watch *w = strmap_get_or_add(&srv->arena_watchers, id, sizeof *w,
                                              offsetof(struct arena_watch, id), sizeof w->id, NULL);
    if (!w) return -PROTO_ERR_INTERNAL;
    if (vec_reserve((void **)&w->conns, &w->cap, (size_t)w->count + 1, sizeof *w->conns, 4) < 0)
        return -PROTO_ERR_INTERNAL;
    if (w->count == 0 && a) w->pushed = a->version; /* the full state that follows is current */
    w->remote = !a;
    w->conns[w->count++] = c;
    snprintf(c->arenas_watched[c->arena_watch_count++], sizeof c->arenas_watched[0], "%s", id);
    return 0;
}

int arenas_watch(struct conn *c, const char *id) {
    const struct world_arena *a = world_arena(c->srv->world, id);
    if (!a) return -CORE_ERR_ARENA_NOT_FOUND;
    return add_watcher(c, id, a);
}

int arenas_watch_remote(struct conn *c, const char *id) {
    return add_watcher(c, id, NULL);
}

void arenas_each_remote(struct server *srv, void (*fn)(void *ctx, const char *id), void *ctx) {
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&srv->arena_watchers, &i, &key, &value);) {
        const struct arena_watch *w = value;
        if (w->remote && w->count > 0) fn(ctx, w->id);
    }
}

int arenas_deliver(struct server *srv, const char *id, const json_t *standings,
                   const json_t *places) {
    struct arena_watch *w = strmap_get(&srv->arena_watchers, id);
    if (!w || !w->remote || !json_is_object(standings)) return 0;
    struct net_msg *shared = outmsg_create(standings);
    for (int i = 0; i < w->count; i++) {
        struct conn *c = w->conns[i];
        const json_t *place = c->player ? json_object_get(places, c->player->id) : NULL;
        if (place) { /* its own place and game added to a copy */
            json_t *own = json_copy((json_t *)standings);
            if (own && json_object_update(own, (json_t *)place) == 0) {
                conn_send_json(c, own);
                continue;
            }
            json_decref(own);
        }
        if (shared) conn_send(c, shared);
    }
    net_msg_release(shared);
    return w->count;
}

void arenas_unwatch(struct conn *c, const char *id) {
    int i = watched_index(c, id);
    if (i < 0) return;
    struct arena_watch *w = strmap_get(&c->srv->arena_watchers, id);
    for (int k = 0; w && k < w->count; k++) {
        if (w->conns[k] == c) {
            w->conns[k] = w->conns[--w->count];
            break;
        }
    }
    memmove(&c->arenas_watched[i], &c->arenas_watched[i + 1],
            sizeof c->arenas_watched[0] * (size_t)(c->arena_watch_count - i - 1));
    c->arena_watch_count--;
}

void arenas_conn_gone(struct conn *c) {
    while (c->arena_watch_count > 0) arenas_unwatch(c, c->arenas_watched[c->arena_watch_count - 1]);
}

/* One push: the shared standings to every watcher, and a copy with its own place to each one
 * who plays in the arena. */
static void push(struct arena_watch *w, const struct world_arena *a) {
    json_t *shared = proto_encode_arena_standings(a, NULL);
    struct net_msg *m = shared ? outmsg_create(shared) : NULL;
    json_decref(shared);
    for (int i = 0; i < w->count; i++) {
        struct conn *c = w->conns[i];
        if (c->player && arena_find((struct arena *)&a->arena, c->player->id))
            conn_send_json(c, proto_encode_arena_standings(a, c->player));
        else if (m)
            conn_send(c, m);
    }
    net_msg_release(m);
}

void arenas_push(struct server *srv, int64_t now_ms) {
    const char *key;
    void *value;
    struct arena_watch **gone = NULL;
    size_t gone_count = 0, gone_cap = 0;
    for (size_t i = 0; strmap_next(&srv->arena_watchers, &i, &key, &value);) {
        struct arena_watch *w = value;
        const struct world_arena *a = world_arena(srv->world, w->id);
        if (a) w->remote = false; /* another node's arena is this node's now (adopted) */
        if (w->count == 0 || (!a && !w->remote)) {
            if (vec_reserve((void **)&gone, &gone_cap, gone_count + 1, sizeof *gone, 8) == 0)
                gone[gone_count++] = w; /* out of memory: left for a later pass */
            continue;
        }
        if (!a || a->version == w->pushed || now_ms < w->next_push_ms) continue;
        w->pushed = a->version;
        w->next_push_ms = now_ms + 1000;
        push(w, a);
    }
    for (size_t k = 0; k < gone_count; k++) {
        struct arena_watch *w = gone[k];
        /* A vanished arena's watchers keep its id on their own list until they unwatch. */
        while (w->count > 0) arenas_unwatch(w->conns[w->count - 1], w->id);
        strmap_remove(&srv->arena_watchers, w->id);
        free(w->conns);
        free(w);
    }
    free(gone);
}

void arenas_free(struct server *srv) {
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&srv->arena_watchers, &i, &key, &value);) {
        struct arena_watch *w = value;
        free(w->conns);
        free(w);
    }
    strmap_free(&srv->arena_watchers);
}

/* ---- the operator's schedule ---- */

/* Whether the site has the operator's arena of this name starting then (this node's world, or
 * another node's announcement: the node that scheduled it before this one, or adopted it). */
static bool scheduled(struct server *srv, const char *name, int64_t starts_wall_ms) {
    for (const struct world_arena *a = world_arena_first(srv->world); a; a = a->next)
        if (!a->creator[0] && a->starts_wall_ms == starts_wall_ms && strcmp(a->name, name) == 0)
            return true;
    return site_arena_announced(srv, name, starts_wall_ms);
}

void arenas_schedule(struct server *srv, int64_t now_ms) {
    if (srv->cfg.arena_schedule_count == 0 || now_ms < srv->arena_schedule_next_ms) return;
    if (!site_schedules_arenas(srv)) return;
    srv->arena_schedule_next_ms = now_ms + 1000;
    int64_t wall = now_wall_ms();
    for (int i = 0; i < srv->cfg.arena_schedule_count; i++) {
        const struct server_arena_schedule *e = &srv->cfg.arena_schedule[i];
        /* The next start at or after now. */
        int64_t start = (wall - e->offset_ms) / e->period_ms * e->period_ms + e->offset_ms;
        if (start < wall) start += e->period_ms;
        if (start - wall > ARENAS_SCHEDULE_AHEAD_MS || scheduled(srv, e->name, start)) continue;
        struct world_arena_spec spec = {.name = e->name,
                                        .tc = e->tc,
                                        .rated = true,
                                        .starts_wall_ms = start,
                                        .minutes = e->minutes};
        struct world_arena *a = NULL;
        int rc = world_arena_create(srv->world, NULL, &spec, now_ms, &srv->events, &a);
        if (rc < 0) {
            LOGE("arena", "scheduled arena \"%s\" not created (%s)", e->name, proto_error_name(rc));
            continue;
        }
        LOGI("arena", "arena=%s scheduled: \"%s\" at %lld", a->id, a->name, (long long)start);
        dispatch_events(srv, &srv->events, NULL, NULL);
    }
}

/* ---- restoring (startup, and a dead node's arenas adopted) ---- */

/* A live arena game noted by arenas_restore() for arenas_restore_game(). */
struct live_note {
    char game[STORE_ID_MAX + 1];
    char arena[STORE_ID_MAX + 1];
    bool berserk[2];
};

static enum world_arena_status status_of(const char *text) {
    if (strcmp(text, "finished") == 0) return WORLD_ARENA_FINISHED;
    return strcmp(text, "started") == 0 ? WORLD_ARENA_STARTED : WORLD_ARENA_CREATED;
}

static enum chess_result result_of(const char *text) {
    if (strcmp(text, "1-0") == 0) return CHESS_RESULT_WHITE_WINS;
    if (strcmp(text, "0-1") == 0) return CHESS_RESULT_BLACK_WINS;
    if (strcmp(text, "1/2-1/2") == 0) return CHESS_RESULT_DRAW;
    return CHESS_RESULT_NONE;
}

/* One arena as read, with its players and games (the reader's rows are copied: a reader thread
 * reads them, the loop restores them). */
struct read_arena {
    struct store_arena arena;
    struct store_arena_player *players;
    size_t player_count, player_cap;
    struct store_arena_game *games;
    size_t game_count, game_cap;
};

struct arenas_snapshot {
    struct read_arena *arenas;
    size_t count, cap;
};

static struct read_arena *last_read(struct arenas_snapshot *r) {
    return &r->arenas[r->count - 1];
}

static int keep_arena(void *ctx, const struct store_arena *a) {
    struct arenas_snapshot *r = ctx;
    if (vec_reserve((void **)&r->arenas, &r->cap, r->count + 1, sizeof *r->arenas, 4) < 0)
        return -STORE_ERR_NO_MEMORY;
    r->arenas[r->count++] = (struct read_arena){.arena = *a};
    return 0;
}

static int keep_player(void *ctx, const struct store_arena *a, const struct store_arena_player *p) {
    (void)a; /* the last one kept */
    struct read_arena *ra = last_read(ctx);
    if (vec_reserve((void **)&ra->players, &ra->player_cap, ra->player_count + 1,
                    sizeof *ra->players, 16) < 0)
        return -STORE_ERR_NO_MEMORY;
    ra->players[ra->player_count++] = *p;
    return 0;
}

static int keep_game(void *ctx, const struct store_arena *a, const struct store_arena_game *g) {
    (void)a; /* the last one kept */
    struct read_arena *ra = last_read(ctx);
    if (vec_reserve((void **)&ra->games, &ra->game_cap, ra->game_count + 1, sizeof *ra->games, 16) <
        0)
        return -STORE_ERR_NO_MEMORY;
    ra->games[ra->game_count++] = *g;
    return 0;
}

void arenas_snapshot_free(struct arenas_snapshot *r) {
    if (!r) return;
    for (size_t i = 0; i < r->count; i++) {
        free(r->arenas[i].players);
        free(r->arenas[i].games);
    }
    free(r->arenas);
    free(r);
}

int arenas_read(struct store_reader *reader, int finished_max, struct arenas_snapshot **out) {
    *out = NULL;
    struct arenas_snapshot *r = calloc(1, sizeof *r);
    if (!r) return -STORE_ERR_NO_MEMORY;
    struct store_arena_visitor v = {keep_arena, keep_player, keep_game, r};
    int rc = store_load_arenas(reader, finished_max, &v);
    if (rc != 0) {
        arenas_snapshot_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

/* Notes a live arena game for arenas_restore_game(). */
static int note_live_game(struct server *srv, const char *arena, const struct store_arena_game *g) {
    struct live_note *n = calloc(1, sizeof *n);
    if (!n) return -STORE_ERR_NO_MEMORY;
    snprintf(n->game, sizeof n->game, "%s", g->id);
    snprintf(n->arena, sizeof n->arena, "%s", arena);
    n->berserk[0] = g->berserk[0];
    n->berserk[1] = g->berserk[1];
    if (strmap_put(&srv->arena_live_notes, n->game, n) < 0) {
        free(n);
        return -STORE_ERR_NO_MEMORY;
    }
    return 0;
}

/* One arena read into the world: the arena, its players, its finished games replayed in the
 * order they ended, its live games noted. */
static int restore_arena(struct server *srv, const struct read_arena *ra) {
    const struct store_arena *a = &ra->arena;
    int64_t now = now_mono_ms();
    struct world_arena_spec spec = {
        .id = a->id,
        .name = a->name,
        .creator = a->creator,
        .tc = {.initial_ms = a->initial_ms, .increment_ms = a->increment_ms},
        .rated = a->rated,
        .starts_wall_ms = a->starts_at,
        .minutes = a->minutes};
    if (world_arena_restore(srv->world, &spec, status_of(a->status), now, NULL) < 0) {
        LOGE("arena", "arena=%s cannot be restored", a->id);
        return -STORE_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < ra->player_count; i++) {
        const struct store_arena_player *p = &ra->players[i];
        int rc = world_arena_restore_player(srv->world, a->id, p->player_id, p->name, p->rating,
                                            p->paused, now);
        if (rc == -CORE_ERR_NO_MEMORY) return -STORE_ERR_NO_MEMORY;
        if (rc < 0) LOGW("arena", "arena=%s: player %s not restored", a->id, p->player_id);
    }
    for (size_t i = 0; i < ra->game_count; i++) {
        const struct store_arena_game *g = &ra->games[i];
        if (g->live) {
            if (note_live_game(srv, a->id, g) < 0) return -STORE_ERR_NO_MEMORY;
        } else if (world_arena_restore_result(srv->world, a->id, g->player_id[0], g->player_id[1],
                                              result_of(g->result), g->berserk, g->ply_count,
                                              now) == -CORE_ERR_NO_MEMORY) {
            return -STORE_ERR_NO_MEMORY;
        }
    }
    return 0;
}

int arenas_restore(struct server *srv, const struct arenas_snapshot *r) {
    int restored = 0;
    for (size_t i = 0; i < r->count; i++) {
        if (world_arena(srv->world, r->arenas[i].arena.id)) continue; /* held here already */
        int rc = restore_arena(srv, &r->arenas[i]);
        if (rc < 0) return rc;
        restored++;
    }
    return restored;
}

int arenas_load(struct server *srv, struct store_reader *reader) {
    struct arenas_snapshot *r;
    int rc = arenas_read(reader, srv->cfg.world.max_finished_arenas, &r);
    if (rc == 0) {
        rc = arenas_restore(srv, r);
        arenas_snapshot_free(r);
    }
    if (rc < 0) {
        LOGE("arena", "restoring the arenas failed (%s)", store_status_name(rc));
        return rc;
    }
    LOGI("arena", "restored %d arena(s)", rc);
    return 0;
}

void arenas_restore_game(struct server *srv, struct game *g) {
    struct live_note *n = strmap_get(&srv->arena_live_notes, g->id);
    const struct world_arena *a = n ? world_arena(srv->world, n->arena) : NULL;
    if (!a) return;
    snprintf(g->arena_id, sizeof g->arena_id, "%s", a->id);
    snprintf(g->arena_name, sizeof g->arena_name, "%s", a->name);
    for (int c = 0; c < 2; c++)
        if (n->berserk[c]) game_restore_berserk(g, c);
}

void arenas_loaded(struct server *srv) {
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&srv->arena_live_notes, &i, &key, &value);) free(value);
    strmap_free(&srv->arena_live_notes);
}
