/*
 * Arena watch lists: the server's map from an arena's id to its watching connections, with the
 * version last pushed to them; each connection keeps the ids it watches (for its close).
 */
#include "app/arenas.h"

#include <stdlib.h>
#include <string.h>

#include "app/internal.h"
#include "proto/encode.h"
#include "proto/proto.h"
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
};

static int watched_index(const struct conn *c, const char *id) {
    for (int i = 0; i < c->arena_watch_count; i++)
        if (strcmp(c->arenas_watched[i], id) == 0) return i;
    return -1;
}

int arenas_watch(struct conn *c, const char *id) {
    struct server *srv = c->srv;
    const struct world_arena *a = world_arena(srv->world, id);
    if (!a) return -CORE_ERR_ARENA_NOT_FOUND;
    if (watched_index(c, id) >= 0) return 0;
    if (c->arena_watch_count >= ARENAS_WATCH_MAX) return -PROTO_ERR_TOO_MANY_WATCHED;
    struct arena_watch *w = strmap_get_or_add(&srv->arena_watchers, a->id, sizeof *w,
                                              offsetof(struct arena_watch, id), sizeof w->id, NULL);
    if (!w) return -PROTO_ERR_INTERNAL;
    if (vec_reserve((void **)&w->conns, &w->cap, (size_t)w->count + 1, sizeof *w->conns, 4) < 0)
        return -PROTO_ERR_INTERNAL;
    if (w->count == 0) w->pushed = a->version; /* the full state that follows is current */
    w->conns[w->count++] = c;
    memcpy(c->arenas_watched[c->arena_watch_count++], a->id, sizeof a->id);
    return 0;
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
        if (!a || w->count == 0) {
            if (vec_reserve((void **)&gone, &gone_cap, gone_count + 1, sizeof *gone, 8) == 0)
                gone[gone_count++] = w; /* out of memory: left for a later pass */
            continue;
        }
        if (a->version == w->pushed || now_ms < w->next_push_ms) continue;
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
