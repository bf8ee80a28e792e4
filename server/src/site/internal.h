/*
 * What site/cluster.c (the site: the bus, the other nodes, the lobby, the counts) and
 * site/relay.c (games across nodes: commands forwarded to owners, owners' events delivered,
 * resynchronisation) share. Not for use outside those two files. Loop thread only.
 */
#ifndef SERVER_SITE_INTERNAL_H
#define SERVER_SITE_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "app/site.h"
#include "core/types.h"
#include "proto/proto.h"
#include "pubsub/bus.h"
#include "util/strmap.h"

struct server;
struct pending;
struct conn;
struct world_arena;
struct apitourney_query;

#define DIRECTORY_TTL_S 86400 /* directory entries ("chess:game:<id>" -> node) */

/* A game or seek of another node. */
struct remote {
    char id[32];
    char owner[BUS_NODE_ID_MAX + 1];
    uint32_t version;
    bool has_version;
    bool resyncing;            /* a state request is on its way */
    bool needs_resync;         /* until a state answer arrives (retried from the tick) */
    json_t *seek;              /* a lobby seek: its encoded form, for lobby_subscribe */
    char white[32], black[32]; /* a game's players' ids, once an event or state named them */
};

struct cluster {
    struct server *srv;
    struct bus *bus;
    char node[BUS_NODE_ID_MAX + 1];
    int64_t incarnation;
    int64_t next_announce_ms;
    int64_t next_lease_ms; /* the next renewal of the node's lease (app/persist.h) */
    bool adopt;            /* takes over the games of nodes that die (--adopt-games) */
    uint64_t next_rid;
    struct pending *pending;   /* relay.c: requests waiting for an owner */
    struct strmap remotes;     /* id -> struct remote */
    struct strmap peers;       /* node id -> struct peer (cluster.c) */
    struct strmap remote_seen; /* relay.c: player id -> struct seen */
    struct strmap interest;    /* relay.c: game id -> struct interest (nodes following it) */
    struct strmap pooled; /* relay.c: player id -> struct pooled (joined another node's pool) */
    struct strmap arena_followers; /* arena_relay.c: our arena id -> the nodes watching it */
    /* While applying a forwarded command: who asked (its answer rides on the reply event). */
    const char *asking_node;
    uint64_t asking_rid;
    bool answered;
    bool ever_up;
    int64_t epoch; /* how many times the bus came up: peers resync our games when it changes */
    int64_t up_since_ms;      /* when the bus last came up (monotonic) */
    int64_t next_refollow_ms; /* arena_relay.c: the next reminder to the arenas' nodes */
};

/* ---- cluster.c ---- */

struct cluster *cluster_of(const struct server *srv);

/* Publishes msg (consumed) once everything stored so far is committed, in order with the
 * messages held for local clients. node NULL: the site channel. dir_key: a directory entry
 * ("game:<id>") to point at this node first, or NULL; msg may be NULL to write only that. */
void cluster_publish_json(struct server *srv, const char *node, json_t *msg, const char *dir_key);

/* Publishes msg (consumed) at once: nothing it says waits for the disk. fn as bus_publish.
 * Returns 0 or -1 (fn not called). */
int cluster_publish_direct(struct cluster *cl, const char *node, json_t *msg, bus_published_fn fn,
                           void *arg);

/* The remote game or seek id (created with owner when missing and owner is not NULL; a new
 * owner resets the version). NULL when unknown and owner is NULL, or out of memory. */
struct remote *cluster_remote_get(struct cluster *cl, const char *id, const char *owner);
void cluster_remote_drop(struct cluster *cl, const char *id);

/* The node that runs quick pairing for the site: the lowest id among this node and the nodes
 * heard from in the last PEER_ALIVE_MS. */
const char *cluster_pool_host(struct cluster *cl);

/* ---- relay.c ---- */

/* site_ops: another node's game's players; this node's spectators of it, for its owner; one of
 * this node's games' spectators on the other nodes. */
bool relay_game_players(struct server *srv, const char *game, const char **white,
                        const char **black);
void relay_report_spectators(struct server *srv, const char *game, int count);
int relay_spectators_elsewhere(struct server *srv, const char *game);

/* Handles a bus message about games (commands, states, answers, events, players' presence).
 * Returns false when t is not one of those. */
bool relay_on_message(struct cluster *cl, const char *t, bool to_me, const json_t *msg);

/* Asks r's owner for the full state (again every second until it comes). */
void relay_resync(struct cluster *cl, struct remote *r);

/* The players counted as connected through node are away now (it stopped or restarted). */
void relay_detach_players_via(struct cluster *cl, const char *node);

/* This node adopted games of node `from`, which died (app/adopt.h): the directory says so, its
 * own players and spectators of them get their state, and every other node is told (site
 * channel "adopt" {n, o, g: [[id, white, black], ...]}), so that those following one of them,
 * or having one of its players, ask this node for its state. */
void relay_adopted(struct cluster *cl, const char *from, const char *const *games, int count);

/* Request deadlines and repeated directory reads. */
void relay_tick(struct cluster *cl, int64_t now);

/* Frees pending requests and remote players' records. */
void relay_free(struct cluster *cl);

/* The node through which a remote player this node counts as connected is connected, or NULL
 * (not a remote player). */
const char *relay_player_node(struct cluster *cl, const char *player);

/* ---- arena_relay.c ---- */

/* What a node's announcement lists of its arenas ("a"): those not finished and the newest
 * ARENA_RELAY_FINISHED finished ones, at most ARENA_RELAY_ANNOUNCED_MAX, in creation order
 * (arena_list's summaries). NULL when memory runs out. */
#define ARENA_RELAY_FINISHED      20
#define ARENA_RELAY_ANNOUNCED_MAX 200
json_t *arena_relay_announced(struct server *srv);

/* node watches one of this node's arenas (a forwarded arena_watch, answered with its state, or
 * a reminder, not answered): the arena's standings are pushed there while they change (at once
 * after an unanswered one), until it says nobody watches any more. */
void arena_relay_follow(struct cluster *cl, const struct world_arena *a, const char *node,
                        bool answered);

/* Housekeeping: pushes the standings of the followed arenas that changed, at most once a
 * second each; forgets the arenas that are gone. */
void arena_relay_tick(struct cluster *cl, int64_t now);

/* Handles astand and aunfollow; false for other messages. */
bool arena_relay_on_message(struct cluster *cl, const char *t, bool to_me, const json_t *msg);

/* site_arena_elsewhere() and site_arena_get() (app/site.h): "aget" to the arena's node, which
 * answers "agot" with the body apitourney_render() makes. */
bool arena_relay_elsewhere(struct server *srv, const char *arena);
int arena_relay_get(struct server *srv, const char *arena, uint64_t request,
                    const struct apitourney_query *q);

/* Whether player plays in one of this node's arenas that has not finished. */
bool arena_relay_plays_here(const struct server *srv, const char *player);

void arena_relay_free(struct cluster *cl);

/* The node that announced arena id lately (the most recently heard one), or NULL. */
const char *cluster_arena_owner(struct cluster *cl, const char *id);

/* arena_list's reply: adds the other nodes' arenas (from their announcements) to its "arenas"
 * (msg borrowed), those this node holds excepted. */
void cluster_add_remote_arenas(struct server *srv, json_t *list_msg);

/* site_ops.my_games (app/site.h). */
int cluster_my_games(struct conn *c, const json_t *req_id, json_t *msg);

/* The other nodes heard from in the last PEER_ALIVE_MS. */
int cluster_live_peers(struct cluster *cl);

/* site_ops.schedules_arenas and .arena_announced (app/site.h). */
bool cluster_schedules_arenas(struct server *srv);
bool cluster_arena_announced(struct server *srv, const char *name, int64_t starts_wall_ms);

/* ---- the site's functions, plugged into the application (app/site.h) ---- */

/* Housekeeping (every 100 ms): the node's announcement, request deadlines. */
void cluster_tick(struct server *srv, int64_t now_ms);

/* Adds the site's state to /healthz's body; returns true when the node is degraded (the bus is
 * down: it serves its own games only). */
bool cluster_health(struct server *srv, json_t *body);

/* Adds the other nodes' figures (from their announcements) to this node's in out, and says
 * whether this node is the one that reports the site's figures in /metrics. */
void cluster_add_site_stats(struct server *srv, struct site_stats *out);

/*
 * A client's core command (see proto_core_command()) or watch whose game, seek or
 * challenge is not on this node. Returns 1 when it was taken over (the answer comes later, or an
 * error was sent), 0 when the caller should handle it locally (no cluster, or the target is
 * here or unknown to the site), never an error. A direct challenge to a player not connected
 * here makes the connection wait (conn_wait) while the site is asked where the player is; then
 * the message runs again (located: the site was asked already).
 */
int cluster_forward(struct conn *c, const struct proto_request *req, const char *text, size_t len,
                    bool located);

/* dispatch_events: one encoded event (msg borrowed) is about to be delivered locally; the owner
 * publishes it (after the commit) for the other nodes. */
void cluster_publish_event(struct server *srv, const struct core_event *ev, const json_t *msg,
                           bool is_reply);

/* dispatch_to_game: a message about a game that is not an event (the computer thinking, its
 * analysis lines) goes to the other nodes' players and spectators of it too (msg borrowed). */
void cluster_publish_to_game(struct server *srv, const struct game *g, const json_t *msg,
                             bool players, bool spectators);

/* lobby_subscribe's reply: adds the other nodes' seeks to the list (msg borrowed). */
void cluster_add_remote_seeks(struct server *srv, json_t *seeks_msg);

/* A player said hello here: the nodes holding its games send their state, which is pushed to
 * the player's connections here as "game" messages after the welcome. */
void cluster_player_hello(struct server *srv, const struct player *p);

/* live_games's reply: this node's games and the newest of every other node (from their
 * announcements, at most a second old), newest first. NULL when memory runs out. */
json_t *cluster_live_games(struct server *srv, int limit, int64_t now_ms);

/* A connection closes: its pending forwarded requests are forgotten. */
void cluster_conn_gone(struct conn *c);

/* A player's last connection on this node closed: the owners of its games are told. */
void cluster_player_gone(struct server *srv, const struct player *p);

/* site_ops.player_settings: tells the other nodes (pset on the site channel). */
void cluster_player_settings(struct server *srv, const char *player_id, const json_t *settings);

/* site_ops.player_moderated: tells the other nodes (pmod on the site channel). */
void cluster_player_moderated(struct server *srv, const char *player_id, const char *change,
                              const char *other_id);

/* Leaves the site: closes the Redis links (inside the loop, at shutdown). */
void cluster_detach(struct server *srv);

/* Frees what is left (after the loop ended). */
void cluster_free(struct server *srv);

#endif
