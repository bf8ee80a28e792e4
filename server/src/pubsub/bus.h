/*
 * The node's view of the site bus (docs/scaling.md): two Redis links (pubsub/redis.h), one for
 * commands and publishing, one subscribed to the site channel "chess:all" and to this node's
 * own channel "chess:node:<id>"; and keys with an expiry for the directory.
 *
 * The bus is up when both links are up. Liveness of the subscriber: every second the bus
 * publishes a heartbeat on its own channel and expects it back within 3 s (a PING on a subscribed
 * connection never answers in hiredis 0.14); when it does not come back, the subscriber is
 * reconnected. Redis pub/sub is at-most-once: every time the bus comes up again the owner of the
 * bus is told (state callback) and must resynchronise what it follows.
 *
 * Payloads are opaque bytes. Loop thread only.
 */
#ifndef SERVER_PUBSUB_BUS_H
#define SERVER_PUBSUB_BUS_H

#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

#define BUS_NODE_ID_MAX 32

struct bus_config {
    const char *host; /* Redis host name or address */
    int port;
    const char *node_id;  /* 1..BUS_NODE_ID_MAX letters, digits, '-', '_', '.' */
    const char *password; /* Redis AUTH, or NULL */
};

/* Splits "host:port" or "[v6]:port" (port 6379 when left out) into host (at most host_len - 1
 * bytes) and port. Returns 0, or -1 for anything else (empty, bad port, host too long). */
int bus_parse_address(const char *text, char *host, size_t host_len, int *port);

/* Checks a node id's syntax. */
bool bus_node_id_valid(const char *id);

struct bus_events {
    /* The bus came up (both links, subscriptions confirmed) or went down. */
    void (*state)(void *ctx, bool up);
    /* A message on the site channel (to_me false) or this node's channel (to_me true). */
    void (*message)(void *ctx, bool to_me, const char *data, size_t len);
};

/* A publish's result: the number of subscribers that received it, or -1 (not sent). */
typedef void (*bus_published_fn)(void *arg, long long receivers);
/* A key's value (NULL when absent), or status -1 when the read failed. */
typedef void (*bus_value_fn)(void *arg, int status, const char *value, size_t len);

struct bus;

/* Starts connecting. Returns NULL when memory runs out or the config is invalid. */
struct bus *bus_create(uv_loop_t *loop, const struct bus_config *cfg,
                       const struct bus_events *events, void *ctx);

bool bus_up(const struct bus *bus);

/* Publishes on the site channel (node NULL) or on a node's channel. fn (may be NULL) is called
 * once, later. Returns 0, or -1 when the bus is down (fn not called). */
int bus_publish(struct bus *bus, const char *node, const char *data, size_t len,
                bus_published_fn fn, void *arg);

/* Sets "chess:<key>" to value with an expiry in seconds (fire and forget). Returns 0 or -1. */
int bus_set(struct bus *bus, const char *key, const char *value, int ttl_s);

/* Reads "chess:<key>". fn is called once, later. Returns 0, or -1 when the bus is down. */
int bus_get(struct bus *bus, const char *key, bus_value_fn fn, void *arg);

/* Closes both links (see redis_link_destroy). NULL is ignored. */
void bus_destroy(struct bus *bus);

#endif
