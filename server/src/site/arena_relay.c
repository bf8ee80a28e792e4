/*
 * Arenas across nodes (docs/tournaments.md, "Several nodes"): an arena lives on one node; the
 * others learn of it from that node's announcements (arena_list shows every node's), forward
 * its commands to it (relay.c: arena_join and arena_withdraw as commands, arena_watch as
 * "awatch"), and get its standings pushed for their watchers. This file is the pushing side and
 * the receiving side of those standings.
 *
 * Messages (relay.c forwards the commands; cluster.c carries the lists in "node"):
 *   node channel:  astand {n, a, m, pl}  arena a's standings m (arena_standings without a
 *                                         viewer's place) and the places of its players
 *                                         connected through the receiving node (pl: {player
 *                                         id: {me, game?}}), from its node n, at most once a
 *                                         second while it changes (to the site channel when
 *                                         more than FOLLOWERS_MAX nodes follow it)
 *                  aunfollow {n, a}      node n has no watcher of arena a any more
 *                  awatch {n, q: 0, g}   every REFOLLOW_MS, for each arena watched here: "I
 *                                         still follow it" (not answered; relay.c answers the
 *                                         first awatch), so that a node that restarted, or
 *                                         took the arena over, pushes here too
 *                  aget {n, r, a?, x, p, nb, s}  an HTTP API read from node n (request r), x
 *                                         an enum apitourney_read (app/apitourney.h): arena a
 *                                         with page p of its standings, or its results (nb
 *                                         players at most, s: with their sheets); or, to every
 *                                         node (site channel, no a), the node's list, or its
 *                                         arenas that player c created
 *                  agot {r, st, b}       the answer to node n's request r: HTTP status st and
 *                                         body b (404: the arena is not here)
 */
#include <stdlib.h>
#include <string.h>

#include "app/apitourney.h"
#include "app/arenas.h"
#include "app/httpapi.h"
#include "app/internal.h"
#include "proto/encode.h"
#include "site/internal.h"
#include "util/log.h"

#define FOLLOWERS_MAX 16 /* nodes named per arena; beyond, its pushes go to every node */
#define PUSH_EVERY_MS 1000
#define REFOLLOW_MS   5000

/* One of this node's arenas that other nodes' connections watch. */
struct followed {
    char arena[ARENA_ID_LEN + 1];
    int count;
    bool everyone;
    char nodes[FOLLOWERS_MAX][BUS_NODE_ID_MAX + 1];
    uint32_t pushed; /* the arena's version last pushed */
    int64_t next_push_ms;
};

/* This node's arenas for its announcement: those not finished, then the newest finished. */
json_t *arena_relay_announced(struct server *srv) {
    json_t *list_msg = proto_encode_arena_list(srv->world);
    json_t *all = json_object_get(list_msg, "arenas");
    json_t *out = json_array();
    size_t n = json_array_size(all);
    int finished = 0;
    for (size_t i = n; out && i-- > 0 && json_array_size(out) < ARENA_RELAY_ANNOUNCED_MAX;) {
        json_t *a = json_array_get(all, i); /* newest first, to keep the newest finished */
        const char *status = json_string_value(json_object_get(a, "status"));
        if (status && strcmp(status, "finished") == 0 && ++finished > ARENA_RELAY_FINISHED)
            continue;
        json_array_insert(out, 0, a); /* back in creation order */
    }
    json_decref(list_msg);
    return out;
}

void arena_relay_follow(struct cluster *cl, const struct world_arena *a, const char *node,
                        bool answered) {
    struct followed *f = strmap_get_or_add(&cl->arena_followers, a->id, sizeof *f,
                                           offsetof(struct followed, arena), sizeof f->arena, NULL);
    if (!f) return;
    if (f->everyone) return; /* every node gets its pushes */
    for (int i = 0; i < f->count; i++)
        if (strcmp(f->nodes[i], node) == 0) return;
    /* A new follower: its answer is current; a reminder's node has missed what changed since
     * this node last knew of it (it restarted, or took the arena over): pushed at once. */
    if (!answered)
        f->pushed = a->version - 1;
    else if (f->count == 0)
        f->pushed = a->version;
    if (f->count == FOLLOWERS_MAX) {
        f->everyone = true;
        return;
    }
    snprintf(f->nodes[f->count++], sizeof f->nodes[0], "%s", node);
}

/* The places of a's players connected through node (every remote player's when node is NULL). */
static json_t *places_via(struct cluster *cl, const struct world_arena *a, const char *node) {
    const struct player **viewers =
        malloc(sizeof *viewers * (size_t)(a->arena.count ? a->arena.count : 1));
    if (!viewers) return NULL;
    int n = 0;
    for (int i = 0; i < a->arena.count; i++) {
        const char *id = a->arena.players[i].id;
        const char *via = relay_player_node(cl, id);
        if (!via || (node && strcmp(via, node) != 0)) continue;
        const struct player *p = world_player_by_id(cl->srv->world, id);
        if (p) viewers[n++] = p;
    }
    json_t *places = proto_encode_arena_places(a, viewers, n);
    free(viewers);
    return places;
}

static void push(struct cluster *cl, const struct world_arena *a, const struct followed *f) {
    json_t *standings = proto_encode_arena_standings(a, NULL);
    if (!standings) return;
    int targets = f->everyone ? 1 : f->count;
    for (int i = 0; i < targets; i++) {
        const char *node = f->everyone ? NULL : f->nodes[i];
        json_t *msg = json_pack("{s:s,s:s,s:s,s:O,s:o*}", "t", "astand", "n", cl->node, "a", a->id,
                                "m", standings, "pl", places_via(cl, a, node));
        if (msg) cluster_publish_json(cl->srv, node, msg, NULL);
    }
    json_decref(standings);
}

static void refollow(void *ctx, const char *id) {
    struct cluster *cl = ctx;
    const char *owner = cluster_arena_owner(cl, id);
    if (owner)
        cluster_publish_direct(
            cl, owner,
            json_pack("{s:s,s:s,s:i,s:s}", "t", "awatch", "n", cl->node, "q", 0, "g", id), NULL,
            NULL);
}

void arena_relay_tick(struct cluster *cl, int64_t now) {
    if (now >= cl->next_refollow_ms && bus_up(cl->bus)) {
        cl->next_refollow_ms = now + REFOLLOW_MS;
        arenas_each_remote(cl->srv, refollow, cl);
    }
    const char *key;
    void *value;
    char(*gone)[ARENA_ID_LEN + 1] = NULL;
    size_t gone_count = 0;
    for (size_t i = 0; strmap_next(&cl->arena_followers, &i, &key, &value);) {
        struct followed *f = value;
        const struct world_arena *a = world_arena(cl->srv->world, f->arena);
        if (!a) { /* dropped from memory (finished long ago) or never here */
            char(*grown)[ARENA_ID_LEN + 1] = realloc(gone, sizeof *gone * (gone_count + 1));
            if (!grown) continue;
            gone = grown;
            memcpy(gone[gone_count++], f->arena, sizeof f->arena);
            continue;
        }
        if (a->version == f->pushed || now < f->next_push_ms) continue;
        f->pushed = a->version;
        f->next_push_ms = now + PUSH_EVERY_MS;
        push(cl, a, f);
    }
    for (size_t k = 0; k < gone_count; k++) free(strmap_remove(&cl->arena_followers, gone[k]));
    free(gone);
}

/* astand: another node's push of one of its arenas. When nobody here watches it any more, that
 * node is told to stop. */
static void on_standings(struct cluster *cl, const json_t *msg) {
    const char *owner = json_string_value(json_object_get(msg, "n"));
    const char *arena = json_string_value(json_object_get(msg, "a"));
    if (!owner || !arena || strcmp(owner, cl->node) == 0) return;
    if (arenas_deliver(cl->srv, arena, json_object_get(msg, "m"), json_object_get(msg, "pl")) > 0)
        return;
    cluster_publish_direct(cl, owner,
                           json_pack("{s:s,s:s,s:s}", "t", "aunfollow", "n", cl->node, "a", arena),
                           NULL, NULL);
}

/* aunfollow: node n watches arena a no more (every node gets its pushes once there are more
 * than FOLLOWERS_MAX: then it stays). */
static void on_unfollow(struct cluster *cl, const json_t *msg) {
    const char *node = json_string_value(json_object_get(msg, "n"));
    const char *arena = json_string_value(json_object_get(msg, "a"));
    struct followed *f = arena ? strmap_get(&cl->arena_followers, arena) : NULL;
    if (!node || !f || f->everyone) return;
    for (int i = 0; i < f->count; i++) {
        if (strcmp(f->nodes[i], node) != 0) continue;
        memmove(f->nodes[i], f->nodes[i + 1], sizeof f->nodes[0] * (size_t)(f->count - i - 1));
        f->count--;
        break;
    }
    if (f->count == 0) free(strmap_remove(&cl->arena_followers, arena));
}

bool arena_relay_elsewhere(struct server *srv, const char *arena) {
    struct cluster *cl = cluster_of(srv);
    const char *owner = cl ? cluster_arena_owner(cl, arena) : NULL;
    return owner && strcmp(owner, cl->node) != 0;
}

int arena_relay_get(struct server *srv, const char *arena, uint64_t request,
                    const struct apitourney_query *q) {
    struct cluster *cl = cluster_of(srv);
    if (!cl) return 0;
    /* One arena: its node. The list: every node heard from lately. */
    int asked = arena ? arena_relay_elsewhere(srv, arena) : cluster_live_peers(cl);
    if (asked == 0 || !bus_up(cl->bus)) return 0;
    json_t *msg = json_pack("{s:s,s:s,s:I,s:s?,s:i,s:i,s:I,s:b,s:s?}", "t", "aget", "n", cl->node,
                            "r", (json_int_t)request, "a", arena, "x", (int)q->read, "p", q->page,
                            "nb", (json_int_t)q->nb, "s", q->sheet, "c", q->creator);
    const char *to = arena ? cluster_arena_owner(cl, arena) : NULL;
    return cluster_publish_direct(cl, to, msg, NULL, NULL) < 0 ? -1 : asked;
}

/* aget: another node's HTTP API read of one of this node's arenas, or of its list, answered at
 * once. */
static void on_get(struct cluster *cl, const json_t *msg) {
    const char *node = json_string_value(json_object_get(msg, "n"));
    const char *arena = json_string_value(json_object_get(msg, "a"));
    json_t *request = json_object_get(msg, "r");
    json_int_t read = json_integer_value(json_object_get(msg, "x"));
    const char *creator = json_string_value(json_object_get(msg, "c"));
    bool listed = read == APITOURNEY_LIST || read == APITOURNEY_CREATED;
    if (!node || strcmp(node, cl->node) == 0 || !json_is_integer(request) || read < 0 ||
        read > APITOURNEY_CREATED || (!arena && !listed) ||
        (read == APITOURNEY_CREATED && !creator))
        return;
    const struct world_arena *a = arena ? world_arena(cl->srv->world, arena) : NULL;
    struct apitourney_query q = {
        .read = (enum apitourney_read)read,
        .page = (int)json_integer_value(json_object_get(msg, "p")),
        .nb = (long)json_integer_value(json_object_get(msg, "nb")),
        .sheet = json_is_true(json_object_get(msg, "s")),
        .creator = creator,
    };
    if (q.page < 1 || q.page > 200) q.page = 1;
    const char *type;
    bool found = a || listed;
    char *body = found ? apitourney_render(cl->srv->world, a, &q, &type) : NULL;
    int status = !found ? 404 : body ? 200 : 503;
    cluster_publish_direct(cl, node,
                           json_pack("{s:s,s:O,s:i,s:s}", "t", "agot", "r", request, "st", status,
                                     "b", body ? body : ""),
                           NULL, NULL);
    free(body);
}

/* agot: the answer to one of this node's aget. */
static void on_got(struct cluster *cl, const json_t *msg) {
    json_t *body = json_object_get(msg, "b");
    json_t *request = json_object_get(msg, "r");
    if (!json_is_string(body) || !json_is_integer(request)) return;
    httpapi_remote_answer(cl->srv, (uint64_t)json_integer_value(request),
                          (int)json_integer_value(json_object_get(msg, "st")),
                          json_string_value(body), json_string_length(body));
}

bool arena_relay_on_message(struct cluster *cl, const char *t, bool to_me, const json_t *msg) {
    if (strcmp(t, "astand") == 0)
        on_standings(cl, msg); /* to this node, or to every node */
    else if (to_me && strcmp(t, "aunfollow") == 0)
        on_unfollow(cl, msg);
    else if (strcmp(t, "aget") == 0)
        on_get(cl, msg); /* to this node (an arena), or to every node (the list) */
    else if (to_me && strcmp(t, "agot") == 0)
        on_got(cl, msg);
    else
        return false;
    return true;
}

bool arena_relay_plays_here(const struct server *srv, const char *player) {
    for (struct world_arena *a = world_arena_first(srv->world); a; a = a->next)
        if (a->status != WORLD_ARENA_FINISHED && arena_find(&a->arena, player)) return true;
    return false;
}

void arena_relay_free(struct cluster *cl) {
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->arena_followers, &i, &key, &value);) free(value);
    strmap_free(&cl->arena_followers);
}
