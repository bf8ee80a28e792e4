/*
 * Several nodes, one site (docs/scaling.md): the site's side of the Redis bus
 * (pubsub/bus.h). Without --redis none of this runs and the server behaves as a single node.
 *
 * - Every node announces itself on the site channel every second with its own counts
 *   (connections, players connected to it, live games); /healthz adds up the nodes heard from
 *   recently, and one node at a time (the lowest id heard from) exports that sum in /metrics.
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
#ifndef SERVER_SITE_CLUSTER_H
#define SERVER_SITE_CLUSTER_H

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
    bool adopt;                 /* takes over the games of nodes that die (docs/scaling.md) */
};

/* Joins the site: plugs the site into the application (app/site.h). Returns 0 or -1 (logged).
 * Call before server_run(). */
int cluster_attach(struct server *srv, const struct cluster_config *cfg);

#endif
