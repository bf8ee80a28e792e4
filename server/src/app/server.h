/*
 * The application server: the world (the pure core) and everything around it (dispatch, the
 * commit gate, accounts, bots, the archive, analysis, the HTTP API, the site), on one event loop
 * that the transport (net/net.h) runs: lws on libuv, serving the WebSocket endpoint /ws, the
 * HTTP endpoints and the static client on one port. See docs/architecture.md for the loop and
 * data flow.
 *
 * server_create() binds the port; server_run() runs the loop until a stop was requested and the
 * shutdown finished (close frames sent, connections gone or timed out).
 */
#ifndef SERVER_APP_SERVER_H
#define SERVER_APP_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/world.h"
#include "util/mailbox.h"
#include "util/netaddr.h"

struct server_config {
    const char *listen_addr; /* IPv4/IPv6 address, or NULL / "0.0.0.0" for every address */
    int port;
    const char *static_dir; /* the web client's files (index.html fallback for client routes) */
    size_t max_message;     /* largest client message in bytes */
    int max_connections;
    int out_queue_max;     /* messages waiting per connection before it is closed as too slow */
    double rate_per_s;     /* client messages per second per connection (token bucket) */
    double rate_burst;     /* and the burst */
    double bot_rate_per_s; /* the same for a bot's connections (many games at once) */
    double bot_rate_burst;
    int abuse_limit;       /* refused messages in a row (rate, size) before the connection closes */
    int max_watch;         /* games one connection may watch */
    int ping_interval_s;   /* idle time before a ping */
    int idle_timeout_s;    /* idle time (no pong or data) before the connection is dropped */
    int shutdown_grace_ms; /* how long shutdown waits for clients to take their close frames */
    struct netaddr_list trusted_proxies; /* whose X-Forwarded-For names the client */
    struct world_config world;
};

/* Defaults for everything (port 8080, 16 KiB messages, ...). */
void server_config_defaults(struct server_config *cfg);

/* Creates the world and the transport and binds the port. Returns NULL (after logging why) on
 * failure. */
struct server *server_create(const struct server_config *cfg);

/* Runs the loop until the server has shut down. Returns 0 after a clean shutdown. */
int server_run(struct server *srv);

struct server;

/*
 * A result computed on another thread (an engine move, a database commit), applied on the loop
 * thread. The producer fills `apply`, which runs on the loop, owns the result from then on and
 * must free it. Results should carry the game id and version they were computed for, and drop
 * themselves when the game has moved on.
 */
struct server_result {
    struct mailbox_item link; /* first */
    void (*apply)(struct server *srv, struct server_result *result);
};

/* Any thread: hands a result to the loop and wakes it (wake-ups coalesce). Producers must stop
 * posting before server_run() returns; results posted later are never applied. */
void server_post(struct server *srv, struct server_result *result);

/* Asks for a graceful shutdown. Async-signal-safe: only sets a flag the loop polls. */
void server_request_stop(struct server *srv);

void server_destroy(struct server *srv);

#endif
