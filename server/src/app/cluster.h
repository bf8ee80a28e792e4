/*
 * Several nodes, one site (docs/scaling.md): the application's side of the Redis bus
 * (pubsub/bus.h). Without --redis none of this runs and the server behaves as a single node.
 *
 * - Every node announces itself on the site channel every second with its counts (connections,
 *   players online, live games); /healthz and /metrics add up the nodes heard from recently.
 * - Each game, seek and challenge is owned by the node that created it; its id is written to
 *   the directory in Redis ("chess:game:<id>", "chess:seek:<id>" -> node id).
 * - A client's command about a game, seek or challenge this node does not have is forwarded to
 *   its owner, which applies it for the player and answers; the owner publishes every event of
 *   its games and lobby on the site channel after the event is committed, and each node
 *   delivers it to its own connections (players, spectators, lobby subscribers).
 * - Each node follows the version of every remote game its connections care about; a gap (or
 *   the bus coming back after an outage, or the owner restarting) makes it fetch the full state
 *   from the owner and push it to those connections as a "game" message.
 *
 * Loop thread only.
 */
#ifndef SERVER_APP_CLUSTER_H
#define SERVER_APP_CLUSTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/proto.h"

struct server;
struct conn;
struct core_event;
struct player;

struct cluster_config {
    const char *redis_host;
    int redis_port;
    const char *node_id; /* stable across restarts: the node's games in the database carry it */
    const char *redis_password; /* AUTH, or NULL */
};

/* Joins the site (libuv loop only). Returns 0 or -1 (logged). Call before server_run(). */
int cluster_attach(struct server *srv, const struct cluster_config *cfg);

bool cluster_enabled(const struct server *srv);

/* Housekeeping (every 100 ms): the node's announcement, request deadlines. */
void cluster_tick(struct server *srv, int64_t now_ms);

/* Adds the site's state to /healthz's body; returns true when the node is degraded (the bus is
 * down: it serves its own games only). */
bool cluster_health(struct server *srv, json_t *body);

/* Site-wide figures for /metrics (this node's own when alone). */
struct cluster_site_stats {
    int nodes; /* nodes heard from in the last 5 s, this one included */
    int connections;
    int players_online;
    int games_live;
    bool bus_up;
};
void cluster_site_stats(struct server *srv, struct cluster_site_stats *out);

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

/* Leaves the site: closes the Redis links (inside the loop, at shutdown). */
void cluster_detach(struct server *srv);

/* Frees what is left (after the loop ended). */
void cluster_free(struct server *srv);

#endif
