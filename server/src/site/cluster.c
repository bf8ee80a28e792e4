/*
 * The site on the network side (cluster.h, docs/scaling.md): the bus's lifecycle and its
 * messages' routing, the other nodes (announcements with their counts and newest live games;
 * restarts, reconnections and losses), the lobby's seeks from every node, the site's figures,
 * and the publishing helpers relay.c (games across nodes) uses.
 *
 * Messages (JSON objects with a type "t"; relay.c has the games'):
 *   site channel:  node   {n, i, u, c, p, g, l, a} every second: incarnation (start time), times
 *                         on the bus, connections, players connected to it, live games, newest
 *                         live games, its arenas (arena_relay_announced)
 *                  lobby? {n}        "send me your open seeks"
 *   node channel:  seeks  {n, s}     the answer: the node's open seeks
 */
#include "site/cluster.h"

#include <stdlib.h>
#include <string.h>

#include "app/adopt.h"
#include "app/internal.h"
#include "app/persist.h"
#include "proto/encode.h"
#include "pubsub/bus.h"
#include "site/internal.h"
#include "util/log.h"
#include "util/now.h"

#define PEER_ALIVE_MS    5000
#define ANNOUNCE_MS      1000
#define ANNOUNCED_GAMES  20 /* newest live games in each announcement, for live_games */
#define REPORT_SETTLE_MS (2 * ANNOUNCE_MS) /* on the bus before reporting the site's figures */
/*
 * Taking a dead node's games over (docs/scaling.md, "When a node dies"). A node not heard from
 * for TAKEOVER_SILENCE_MS (it announces itself every second) is presumed dead, and the adopter
 * (the node with the lowest id among those heard from, or after TAKEOVER_ANYONE_MS any node)
 * asks the store to take its lease if the lease was not renewed for LEASE_EXPIRY_MS (every
 * node renews its own every second): the store decides, so a node that is only cut off from
 * Redis but still writes keeps its games. Tried again every TAKEOVER_RETRY_MS while the node
 * stays silent.
 */
#define TAKEOVER_SILENCE_MS 2500
#define LEASE_EXPIRY_MS     3000
#define TAKEOVER_RETRY_MS   500
#define TAKEOVER_ANYONE_MS  10000

struct peer {
    char id[BUS_NODE_ID_MAX + 1];
    int64_t incarnation;
    int64_t seen_ms;
    int64_t epoch; /* how many times it came (back) onto the bus */
    bool lost;     /* not heard from for PEER_ALIVE_MS: its players were detached */
    bool adopted;  /* its games were taken over since it was last heard from */
    int64_t next_takeover_ms;
    int connections, players_online, games_live;
    json_t *live;   /* its newest live games: [[created wall ms, summary], ...] */
    json_t *arenas; /* its arenas: arena_list's summaries */
};

struct cluster *cluster_of(const struct server *srv) {
    return srv->cluster;
}

/* ---- publishing ---- */

/* A publication waiting for the commit of what it announces. */
struct publication {
    char node[BUS_NODE_ID_MAX + 1]; /* "" for the site channel */
    char dir_key[48];               /* a directory entry to write first, or "" */
    char *text;
    size_t len;
};

static void publish_now(struct server *srv, void *arg) {
    struct publication *pub = arg;
    struct cluster *cl = cluster_of(srv);
    if (cl && cl->bus) {
        if (pub->dir_key[0]) bus_set(cl->bus, pub->dir_key, cl->node, DIRECTORY_TTL_S);
        /* Lost while the bus is down: the other nodes resynchronise when it is back. */
        if (pub->text)
            bus_publish(cl->bus, pub->node[0] ? pub->node : NULL, pub->text, pub->len, NULL, NULL);
    }
    free(pub->text);
    free(pub);
}

/* Publishes msg (consumed) once everything stored so far is committed, in order with the
 * messages held for local clients. node NULL: the site channel. */
void cluster_publish_json(struct server *srv, const char *node, json_t *msg, const char *dir_key) {
    if (!msg && !dir_key) return;
    struct publication *pub = calloc(1, sizeof *pub);
    char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
    json_decref(msg);
    if (!pub || (msg && !text)) {
        free(pub);
        free(text);
        return;
    }
    snprintf(pub->node, sizeof pub->node, "%s", node ? node : "");
    snprintf(pub->dir_key, sizeof pub->dir_key, "%s", dir_key ? dir_key : "");
    pub->text = text;
    pub->len = text ? strlen(text) : 0;
    if (persist_after_commit(srv, publish_now, pub) < 0) publish_now(srv, pub);
}

/* Publishes msg (consumed) at once: nothing it says waits for the disk. fn as bus_publish. */
int cluster_publish_direct(struct cluster *cl, const char *node, json_t *msg, bus_published_fn fn,
                           void *arg) {
    char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
    json_decref(msg);
    if (!text) return -1;
    int rc = bus_publish(cl->bus, node, text, strlen(text), fn, arg);
    free(text);
    return rc;
}

/* ---- remote games and seeks ---- */

struct remote *cluster_remote_get(struct cluster *cl, const char *id, const char *owner) {
    struct remote *r = strmap_get(&cl->remotes, id);
    if (r || !owner) {
        if (r && owner && strcmp(r->owner, owner) != 0) {
            snprintf(r->owner, sizeof r->owner, "%s", owner);
            r->has_version = false;
        }
        return r;
    }
    r = calloc(1, sizeof *r);
    if (!r) return NULL;
    snprintf(r->id, sizeof r->id, "%s", id);
    snprintf(r->owner, sizeof r->owner, "%s", owner);
    if (strmap_put(&cl->remotes, r->id, r) < 0) {
        free(r);
        return NULL;
    }
    return r;
}

void cluster_remote_drop(struct cluster *cl, const char *id) {
    struct remote *r = strmap_remove(&cl->remotes, id);
    if (!r) return;
    json_decref(r->seek);
    free(r);
}

/* ---- the other nodes' seeks (lobby) ---- */

/* Sends a lobby message (consumed) to this node's lobby subscribers. */
static void lobby_tell(struct cluster *cl, json_t *msg) {
    if (!msg) return;
    struct remote_delivery rd = {.kind = CORE_TO_LOBBY, .msg = msg};
    dispatch_deliver_remote(cl->srv, &rd);
    json_decref(msg);
}

/* Forgets node's seeks that are not in keep (an array of seek objects, or NULL), telling the
 * lobby subscribers here. */
static void forget_seeks_of(struct cluster *cl, const char *node, const json_t *keep) {
    size_t n = 0, cap = 0;
    char(*ids)[32] = NULL;
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->remotes, &i, &key, &value);) {
        const struct remote *r = value;
        if (!r->seek || strcmp(r->owner, node) != 0) continue;
        bool kept = false;
        for (size_t k = 0; !kept && k < json_array_size(keep); k++) {
            const char *id = json_string_value(json_object_get(json_array_get(keep, k), "id"));
            kept = id && strcmp(id, r->id) == 0;
        }
        if (kept) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char(*grown)[32] = realloc(ids, sizeof *ids * cap);
            if (!grown) break;
            ids = grown;
        }
        snprintf(ids[n++], sizeof ids[0], "%s", r->id);
    }
    for (size_t i = 0; i < n; i++) { /* the map cannot change while it is iterated */
        cluster_remote_drop(cl, ids[i]);
        lobby_tell(cl, json_pack("{s:s,s:s}", "type", "seek_removed", "seek", ids[i]));
    }
    free(ids);
}

/* A node's open seeks, answering "lobby?": the list replaces what this node knew of them. */
static void on_seeks(struct cluster *cl, const json_t *msg) {
    const char *node = json_string_value(json_object_get(msg, "n"));
    const json_t *seeks = json_object_get(msg, "s");
    if (!node || !json_is_array(seeks)) return;
    forget_seeks_of(cl, node, seeks);
    for (size_t k = 0; k < json_array_size(seeks); k++) {
        json_t *seek = json_array_get(seeks, k);
        const char *id = json_string_value(json_object_get(seek, "id"));
        struct remote *r = id ? cluster_remote_get(cl, id, node) : NULL;
        if (!r || r->seek) continue;
        r->seek = json_incref(seek);
        lobby_tell(cl, json_pack("{s:s,s:O}", "type", "seek_added", "seek", seek));
    }
}

/* Another node (starting, or back on the bus) asks for the open seeks. */
static void owner_lobby(struct cluster *cl, const json_t *msg) {
    const char *from = json_string_value(json_object_get(msg, "n"));
    json_t *seeks = proto_encode_seeks(cl->srv->world);
    json_t *list = json_object_get(seeks, "seeks");
    if (from && list)
        cluster_publish_direct(cl, from,
                               json_pack("{s:s,s:s,s:O}", "t", "seeks", "n", cl->node, "s", list),
                               NULL, NULL);
    json_decref(seeks);
}

static void ask_for_seeks(struct cluster *cl) {
    cluster_publish_direct(cl, NULL, json_pack("{s:s,s:s}", "t", "lobby?", "n", cl->node), NULL,
                           NULL);
}

static void on_peer(struct cluster *cl, const json_t *msg) {
    const char *id = json_string_value(json_object_get(msg, "n"));
    if (!id || !bus_node_id_valid(id) || strcmp(id, cl->node) == 0) return;
    struct peer *peer = strmap_get_or_add(&cl->peers, id, sizeof *peer, offsetof(struct peer, id),
                                          sizeof peer->id, NULL);
    if (!peer) return;
    int64_t incarnation = json_integer_value(json_object_get(msg, "i"));
    int64_t epoch = json_integer_value(json_object_get(msg, "u"));
    bool restarted = peer->incarnation != 0 && peer->incarnation != incarnation;
    /* It was cut off from Redis (maybe alone): what it published meanwhile was lost. */
    bool reconnected = !restarted && peer->epoch != 0 && peer->epoch != epoch;
    peer->incarnation = incarnation;
    peer->epoch = epoch;
    peer->seen_ms = now_mono_ms();
    peer->lost = false;
    peer->adopted = false;
    json_t *live = json_object_get(msg, "l");
    json_decref(peer->live);
    peer->live = json_is_array(live) ? json_incref(live) : NULL;
    json_t *arenas = json_object_get(msg, "a");
    json_decref(peer->arenas);
    peer->arenas = json_is_array(arenas) ? json_incref(arenas) : NULL;
    peer->connections = (int)json_integer_value(json_object_get(msg, "c"));
    peer->players_online = (int)json_integer_value(json_object_get(msg, "p"));
    peer->games_live = (int)json_integer_value(json_object_get(msg, "g"));
    if (!restarted && !reconnected) return;
    /* The owner came back from its database (its games' versions start again, and the
     * connections of players it had here are gone), or back onto the bus. */
    LOGI("cluster", "node=%s %s: resynchronising its games", id,
         restarted ? "restarted" : "reconnected to Redis");
    if (restarted) {
        relay_detach_players_via(cl, id);
        forget_seeks_of(cl, id, NULL); /* seeks do not survive a restart */
    } else {
        ask_for_seeks(cl); /* seek events it published while cut off went nowhere */
    }
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->remotes, &i, &key, &value);) {
        struct remote *r = value;
        if (strcmp(r->owner, id) == 0) relay_resync(cl, r);
    }
}

static void on_message(void *ctx, bool to_me, const char *data, size_t len) {
    struct cluster *cl = ctx;
    json_t *msg = json_loadb(data, len, 0, NULL);
    const char *t = json_string_value(json_object_get(msg, "t"));
    const char *from = json_string_value(json_object_get(msg, "n"));
    if (!t) {
        LOGW("cluster", "unreadable bus message (%zu bytes) dropped", len);
        json_decref(msg);
        return;
    }
    bool mine = from && strcmp(from, cl->node) == 0;
    if (!to_me && mine) {
        /* Our own publications on the site channel. */
    } else if (relay_on_message(cl, t, to_me, msg)) {
        /* games: commands, states, answers, events */
    } else if (arena_relay_on_message(cl, t, to_me, msg)) {
        /* arenas' standings */
    } else if (to_me && strcmp(t, "seeks") == 0) {
        on_seeks(cl, msg);
    } else if (!to_me && strcmp(t, "node") == 0) {
        on_peer(cl, msg);
    } else if (!to_me && strcmp(t, "lobby?") == 0) {
        owner_lobby(cl, msg);
    }
    json_decref(msg);
}

/* Directory entries of what this node owns (they may have expired, or Redis restarted empty). */
static void publish_directory(struct cluster *cl) {
    struct world *w = cl->srv->world;
    for (struct game *g = world_live_first(w); g; g = world_live_next(g)) {
        char key[48];
        snprintf(key, sizeof key, "game:%s", g->id);
        bus_set(cl->bus, key, cl->node, DIRECTORY_TTL_S);
    }
    for (struct seek *s = world_seek_first(w); s; s = s->next) {
        char key[48];
        snprintf(key, sizeof key, "seek:%s", s->id);
        bus_set(cl->bus, key, cl->node, DIRECTORY_TTL_S);
    }
}

static void on_state(void *ctx, bool up) {
    struct cluster *cl = ctx;
    if (!up) return;
    cl->up_since_ms = now_mono_ms();
    cl->epoch++;
    publish_directory(cl);
    cl->next_announce_ms = 0;
    ask_for_seeks(cl); /* the seeks opened elsewhere before this node joined, or meanwhile */
    if (!cl->ever_up) {
        cl->ever_up = true;
        return;
    }
    /* Anything may have been missed while the bus was down. */
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->remotes, &i, &key, &value);) relay_resync(cl, value);
}

/* ---- lifecycle, housekeeping, figures ---- */

static const struct site_ops cluster_ops = {
    .forward = cluster_forward,
    .publish_event = cluster_publish_event,
    .publish_to_game = cluster_publish_to_game,
    .add_remote_seeks = cluster_add_remote_seeks,
    .add_remote_arenas = cluster_add_remote_arenas,
    .schedules_arenas = cluster_schedules_arenas,
    .my_games = cluster_my_games,
    .arena_announced = cluster_arena_announced,
    .arena_elsewhere = arena_relay_elsewhere,
    .arena_get = arena_relay_get,
    .live_games = cluster_live_games,
    .player_hello = cluster_player_hello,
    .player_gone = cluster_player_gone,
    .player_moderated = cluster_player_moderated,
    .player_settings = cluster_player_settings,
    .game_players = relay_game_players,
    .report_spectators = relay_report_spectators,
    .spectators_elsewhere = relay_spectators_elsewhere,
    .conn_gone = cluster_conn_gone,
    .tick = cluster_tick,
    .health = cluster_health,
    .add_stats = cluster_add_site_stats,
    .detach = cluster_detach,
    .release = cluster_free,
};

int cluster_attach(struct server *srv, const struct cluster_config *cfg) {
    struct cluster *cl = calloc(1, sizeof *cl);
    if (!cl) return -1;
    cl->srv = srv;
    snprintf(cl->node, sizeof cl->node, "%s", cfg->node_id);
    cl->incarnation = now_wall_ms();
    cl->adopt = cfg->adopt;
    srv->cluster = cl;
    site_attach(srv, &cluster_ops); /* from here on the application frees it (site_release) */
    struct bus_config bc = {cfg->redis_host, cfg->redis_port, cfg->node_id, cfg->redis_password};
    struct bus_events be = {.state = on_state, .message = on_message};
    cl->bus = bus_create(net_loop(srv->net), &bc, &be, cl);
    if (!cl->bus) {
        LOGE("cluster", "cannot start the Redis links (node id \"%s\" valid?)", cfg->node_id);
        return -1;
    }
    LOGI("cluster", "node=%s joining the site through Redis %s:%d", cl->node, cfg->redis_host,
         cfg->redis_port);
    return 0;
}

/* ---- dead nodes' games ---- */

static void on_adopted(struct server *srv, const char *node, int status, const char *const *games,
                       int count) {
    struct cluster *cl = cluster_of(srv);
    if (!cl) return;
    struct peer *peer = strmap_get(&cl->peers, node);
    if (status == -STORE_ERR_CONFLICT) {
        LOGD("cluster", "node=%s is silent but holds its lease", node);
        return;
    }
    if (status < 0) {
        LOGW("cluster", "node=%s: taking its games over failed (%s)", node,
             store_status_name(status));
        return;
    }
    if (peer) peer->adopted = true;
    relay_adopted(cl, node, games, count);
}

/* The lowest node id among this node and the peers heard from less than within_ms ago: the one
 * node that runs something for the site (the pools, an adoption). */
static const char *lowest_node(struct cluster *cl, int64_t now, int64_t within_ms) {
    const char *lowest = cl->node;
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->peers, &i, &key, &value);) {
        const struct peer *p = value;
        if (now - p->seen_ms < within_ms && strcmp(p->id, lowest) < 0) lowest = p->id;
    }
    return lowest;
}

/* Whether this node adopts a silent peer's games now: the lowest id among the nodes heard from
 * lately; any node once the peer has been silent for TAKEOVER_ANYONE_MS (the adopter may be cut
 * off from the database). */
static bool adopter_for(struct cluster *cl, const struct peer *silent, int64_t now) {
    return now - silent->seen_ms >= TAKEOVER_ANYONE_MS ||
           lowest_node(cl, now, TAKEOVER_SILENCE_MS) == cl->node;
}

static void consider_takeovers(struct cluster *cl, int64_t now) {
    /* Silence means something only while this node hears the bus (for long enough to have
     * heard every announcement). */
    if (!cl->adopt || cl->srv->stopping || !bus_up(cl->bus) ||
        now - cl->up_since_ms < TAKEOVER_SILENCE_MS || adopt_busy(cl->srv))
        return;
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->peers, &i, &key, &value);) {
        struct peer *p = value;
        if (p->adopted || now - p->seen_ms < TAKEOVER_SILENCE_MS || now < p->next_takeover_ms ||
            !adopter_for(cl, p, now))
            continue;
        p->next_takeover_ms = now + TAKEOVER_RETRY_MS;
        if (adopt_start(cl->srv, p->id, LEASE_EXPIRY_MS, on_adopted) == 0) return;
    }
}

void cluster_tick(struct server *srv, int64_t now) {
    struct cluster *cl = cluster_of(srv);
    if (!cl || !cl->bus) return;
    relay_tick(cl, now);
    arena_relay_tick(cl, now);
    consider_takeovers(cl, now);
    if (now >= cl->next_lease_ms) {
        /* The lease is renewed whether the bus is up or not: a node cut off from Redis still
         * serves its own games. */
        cl->next_lease_ms = now + ANNOUNCE_MS;
        persist_renew_lease(srv);
    }
    if (now < cl->next_announce_ms || !bus_up(cl->bus)) return;
    cl->next_announce_ms = now + ANNOUNCE_MS;
    /* Resyncs that reached nobody (the owner not back yet) are tried again every second. */
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->remotes, &i, &key, &value);) {
        struct remote *r = value;
        if (r->needs_resync && !r->resyncing) relay_resync(cl, r);
    }
    for (size_t i = 0; strmap_next(&cl->peers, &i, &key, &value);) {
        struct peer *peer = value;
        if (peer->lost || now - peer->seen_ms <= PEER_ALIVE_MS) continue;
        peer->lost = true;
        LOGW("cluster", "node=%s not heard from for %d s: its players are away", peer->id,
             PEER_ALIVE_MS / 1000);
        relay_detach_players_via(cl, peer->id);
        forget_seeks_of(cl, peer->id, NULL);
    }
    struct site_stats own;
    site_node_stats(srv, &own);
    json_t *live = json_array();
    int n = 0;
    for (const struct game *g = world_live_first(srv->world); g && live && n < ANNOUNCED_GAMES;
         g = world_live_next(g), n++)
        json_array_append_new(live, json_pack("[I,o]", (json_int_t)g->created_wall_ms,
                                              proto_encode_game_summary(g, now)));
    cluster_publish_direct(cl, NULL,
                           json_pack("{s:s,s:s,s:I,s:I,s:i,s:i,s:i,s:o*,s:o*}", "t", "node", "n",
                                     cl->node, "i", (json_int_t)cl->incarnation, "u",
                                     (json_int_t)cl->epoch, "c", own.connections, "p",
                                     own.players_online, "g", own.games_live, "l", live, "a",
                                     arena_relay_announced(srv)),
                           NULL, NULL);
}

/* The reporting node (docs/scaling.md) is the one with the lowest id among the nodes heard from
 * in the last PEER_ALIVE_MS, on the bus for REPORT_SETTLE_MS at least (time to hear every
 * node's announcement): one at a time while the site is whole, and a node cut off from Redis
 * never reports. A joining node with a lower id takes over without an overlap (the reporter
 * stops on its first announcement, it starts a second later); when the reporter goes, the next
 * takes over once it is lost (PEER_ALIVE_MS). */
void cluster_add_site_stats(struct server *srv, struct site_stats *out) {
    struct cluster *cl = cluster_of(srv);
    if (!cl) return;
    int64_t now = now_mono_ms();
    out->bus_up = bus_up(cl->bus);
    out->reporter = out->bus_up && now - cl->up_since_ms >= REPORT_SETTLE_MS;
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->peers, &i, &key, &value);) {
        const struct peer *p = value;
        if (now - p->seen_ms > PEER_ALIVE_MS) continue;
        out->nodes++;
        out->connections += p->connections;
        out->players_online += p->players_online;
        out->games_live += p->games_live;
        if (strcmp(p->id, cl->node) < 0) out->reporter = false;
    }
}

const char *cluster_pool_host(struct cluster *cl) {
    return lowest_node(cl, now_mono_ms(), PEER_ALIVE_MS + 1);
}

bool cluster_health(struct server *srv, json_t *body) {
    struct cluster *cl = cluster_of(srv);
    if (!cl) return false;
    struct site_stats s;
    site_stats(srv, &s);
    json_object_set_new(body, "node", json_string(cl->node));
    json_object_set_new(body, "redis", json_string(s.bus_up ? "up" : "down"));
    json_object_set_new(body, "site",
                        json_pack("{s:i,s:i,s:i,s:i}", "nodes", s.nodes, "connections",
                                  s.connections, "players_online", s.players_online, "games",
                                  s.games_live));
    return !s.bus_up;
}

void cluster_add_remote_seeks(struct server *srv, json_t *seeks_msg) {
    struct cluster *cl = cluster_of(srv);
    json_t *list = json_object_get(seeks_msg, "seeks");
    if (!cl || !json_is_array(list)) return;
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->remotes, &i, &key, &value);) {
        const struct remote *r = value;
        if (r->seek) json_array_append(list, r->seek);
    }
}

static int live_cmp(const void *a, const void *b) {
    json_int_t x = json_integer_value(json_array_get(*(json_t *const *)a, 0));
    json_int_t y = json_integer_value(json_array_get(*(json_t *const *)b, 0));
    return x < y ? 1 : x > y ? -1 : 0; /* newest first */
}

json_t *cluster_live_games(struct server *srv, int limit, int64_t now_ms) {
    struct cluster *cl = cluster_of(srv);
    if (!cl) return proto_encode_live_games(srv->world, limit, now_ms);
    /* Every live game of this node and the newest ones of the others, newest first. */
    json_t *all = json_array(); /* [[created wall ms, summary], ...] */
    json_t *msg = proto_encode_simple("live_games");
    json_t *list = json_array();
    json_t **items = NULL;
    if (!all || !msg || !list) goto fail;
    int n = 0;
    for (const struct game *g = world_live_first(srv->world); g && n < limit;
         g = world_live_next(g), n++) {
        if (json_array_append_new(all, json_pack("[I,o]", (json_int_t)g->created_wall_ms,
                                                 proto_encode_game_summary(g, now_ms))) < 0)
            goto fail;
    }
    int64_t now = now_mono_ms();
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->peers, &i, &key, &value);) {
        const struct peer *peer = value;
        if (now - peer->seen_ms <= PEER_ALIVE_MS && peer->live &&
            json_array_extend(all, peer->live) < 0)
            goto fail;
    }
    size_t count = json_array_size(all);
    items = malloc(sizeof *items * (count ? count : 1));
    if (!items) goto fail;
    for (size_t i = 0; i < count; i++) items[i] = json_array_get(all, i);
    qsort(items, count, sizeof *items, live_cmp);
    for (size_t i = 0; i < count && (int)i < limit; i++)
        json_array_append(list, json_array_get(items[i], 1));
    free(items);
    json_decref(all);
    json_object_set_new(msg, "games", list);
    return msg;
fail:
    free(items);
    json_decref(all);
    json_decref(list);
    json_decref(msg);
    return NULL;
}

/* ---- the other nodes' arenas ---- */

/* Whether peer's announcement speaks for it now: heard lately, and its games not taken over. */
static bool peer_current(const struct peer *peer, int64_t now) {
    return now - peer->seen_ms <= PEER_ALIVE_MS && !peer->adopted;
}

static bool lists_arena(const struct peer *peer, const char *id) {
    for (size_t k = 0; k < json_array_size(peer->arenas); k++) {
        const char *a = json_string_value(json_object_get(json_array_get(peer->arenas, k), "id"));
        if (a && strcmp(a, id) == 0) return true;
    }
    return false;
}

const char *cluster_arena_owner(struct cluster *cl, const char *id) {
    int64_t now = now_mono_ms();
    const struct peer *owner = NULL;
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->peers, &i, &key, &value);) {
        const struct peer *peer = value;
        if (peer_current(peer, now) && (!owner || peer->seen_ms > owner->seen_ms) &&
            lists_arena(peer, id))
            owner = peer; /* an adopter lists it too until the dead node is heard no more */
    }
    return owner ? owner->id : NULL;
}

int cluster_live_peers(struct cluster *cl) {
    int64_t now = now_mono_ms();
    int n = 0;
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->peers, &i, &key, &value);)
        n += now - ((const struct peer *)value)->seen_ms <= PEER_ALIVE_MS;
    return n;
}

bool cluster_schedules_arenas(struct server *srv) {
    struct cluster *cl = cluster_of(srv);
    return cl && bus_up(cl->bus) && now_mono_ms() - cl->up_since_ms >= REPORT_SETTLE_MS &&
           strcmp(cluster_pool_host(cl), cl->node) == 0;
}

bool cluster_arena_announced(struct server *srv, const char *name, int64_t starts_wall_ms) {
    struct cluster *cl = cluster_of(srv);
    int64_t now = now_mono_ms();
    const char *key;
    void *value;
    for (size_t i = 0; cl && strmap_next(&cl->peers, &i, &key, &value);) {
        const struct peer *peer = value;
        for (size_t k = 0; peer_current(peer, now) && k < json_array_size(peer->arenas); k++) {
            const json_t *a = json_array_get(peer->arenas, k);
            const char *n = json_string_value(json_object_get(a, "name"));
            if (json_is_null(json_object_get(a, "creator")) && n && strcmp(n, name) == 0 &&
                json_integer_value(json_object_get(a, "starts")) == starts_wall_ms)
                return true;
        }
    }
    return false;
}

void cluster_add_remote_arenas(struct server *srv, json_t *list_msg) {
    struct cluster *cl = cluster_of(srv);
    json_t *list = json_object_get(list_msg, "arenas");
    if (!cl || !json_is_array(list)) return;
    int64_t now = now_mono_ms();
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->peers, &i, &key, &value);) {
        const struct peer *peer = value;
        if (!peer_current(peer, now)) continue;
        for (size_t k = 0; k < json_array_size(peer->arenas); k++) {
            json_t *a = json_array_get(peer->arenas, k);
            const char *id = json_string_value(json_object_get(a, "id"));
            if (id && !world_arena(srv->world, id) && cluster_arena_owner(cl, id) == peer->id)
                json_array_append(list, a);
        }
    }
}

void cluster_detach(struct server *srv) {
    struct cluster *cl = cluster_of(srv);
    if (!cl || !cl->bus) return;
    struct bus *bus = cl->bus;
    cl->bus = NULL;
    bus_destroy(bus);
}

void cluster_free(struct server *srv) {
    struct cluster *cl = cluster_of(srv);
    if (!cl) return;
    cluster_detach(srv);
    relay_free(cl);
    arena_relay_free(cl);
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->remotes, &i, &key, &value);) {
        struct remote *r = value;
        json_decref(r->seek);
        free(r);
    }
    strmap_free(&cl->remotes);
    for (size_t i = 0; strmap_next(&cl->peers, &i, &key, &value);) {
        struct peer *peer = value;
        json_decref(peer->live);
        json_decref(peer->arenas);
        free(peer);
    }
    strmap_free(&cl->peers);
    free(cl);
    srv->cluster = NULL;
}
