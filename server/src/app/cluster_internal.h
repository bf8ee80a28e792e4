/*
 * What app/cluster.c (the site: the bus, the other nodes, the lobby, the counts) and
 * app/relay.c (games across nodes: commands forwarded to owners, owners' events delivered,
 * resynchronisation) share. Not for use outside those two files. Loop thread only.
 */
#ifndef SERVER_APP_CLUSTER_INTERNAL_H
#define SERVER_APP_CLUSTER_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/types.h"
#include "pubsub/bus.h"
#include "util/strmap.h"

struct server;
struct pending;
struct conn;

#define DIRECTORY_TTL_S 86400 /* directory entries ("chess:game:<id>" -> node) */

/* A game or seek of another node. */
struct remote {
    char id[32];
    char owner[BUS_NODE_ID_MAX + 1];
    uint32_t version;
    bool has_version;
    bool resyncing;    /* a state request is on its way */
    bool needs_resync; /* until a state answer arrives (retried from the tick) */
    json_t *seek;      /* a lobby seek: its encoded form, for lobby_subscribe */
};

struct cluster {
    struct server *srv;
    struct bus *bus;
    char node[BUS_NODE_ID_MAX + 1];
    int64_t incarnation;
    int64_t next_announce_ms;
    uint64_t next_rid;
    struct pending *pending;   /* relay.c: requests waiting for an owner */
    struct strmap remotes;     /* id -> struct remote */
    struct strmap peers;       /* node id -> struct peer (cluster.c) */
    struct strmap remote_seen; /* relay.c: player id -> struct seen */
    struct strmap interest;    /* relay.c: game id -> struct interest (nodes following it) */
    /* While applying a forwarded command: who asked (its answer rides on the reply event). */
    const char *asking_node;
    uint64_t asking_rid;
    bool answered;
    bool ever_up;
    int64_t epoch; /* how many times the bus came up: peers resync our games when it changes */
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

/* ---- relay.c ---- */

/* Handles a bus message about games (commands, states, answers, events, players' presence).
 * Returns false when t is not one of those. */
bool relay_on_message(struct cluster *cl, const char *t, bool to_me, const json_t *msg);

/* Asks r's owner for the full state (again every second until it comes). */
void relay_resync(struct cluster *cl, struct remote *r);

/* The players counted as connected through node are away now (it stopped or restarted). */
void relay_detach_players_via(struct cluster *cl, const char *node);

/* Request deadlines and repeated directory reads. */
void relay_tick(struct cluster *cl, int64_t now);

/* Frees pending requests and remote players' records. */
void relay_free(struct cluster *cl);

#endif
