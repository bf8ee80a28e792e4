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

#include "app/config.h"
#include "app/wake.h"

struct server;

/* Creates the world and the transport and binds the port. Returns NULL (after logging why) on
 * failure. */
struct server *server_create(const struct server_config *cfg);

/* Runs the loop until the server has shut down. Returns 0 after a clean shutdown. */
int server_run(struct server *srv);

/* Asks for a graceful shutdown. Async-signal-safe: only sets a flag the loop polls. */
void server_request_stop(struct server *srv);

void server_destroy(struct server *srv);

#endif
