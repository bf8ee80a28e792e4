/*
 * Adopting the games of a node of the site that died (docs/scaling.md, "When a node dies"). The
 * site (site/cluster.c) decides when a node is gone and which node adopts; this takes the dead
 * node's lease in the store (STORE_OP_TAKEOVER: its games in progress and its arenas not
 * finished become this node's in the same transaction, and the dead node can never write again),
 * reads those arenas and games on a reader thread, and restores them into the world as a restart
 * would: the arenas first (players, standings replayed, then pairing on as their own node
 * would), then the games, tagged with their arena; the side to move's clock starts again now, so
 * the time the owner was gone is charged to nobody. One adoption at a time.
 *
 * Loop thread.
 */
#ifndef SERVER_APP_ADOPT_H
#define SERVER_APP_ADOPT_H

#include <stdbool.h>
#include <stdint.h>

struct server;
struct store_result;

/*
 * The end of an adoption: status 0 with the ids of the games now restored here (count, borrowed
 * for the call), -STORE_ERR_CONFLICT when the node's lease is held (it is alive, or another node
 * took it first), or another negative store status.
 */
typedef void (*adopt_done_fn)(struct server *srv, const char *node, int status,
                              const char *const *games, int count);

/*
 * Takes node's lease if it was not renewed for expiry_ms, and its games. done is called once,
 * later. Returns 0, or -1 when an adoption is under way already or there is no store with
 * leases (done is not called).
 */
int adopt_start(struct server *srv, const char *node, int64_t expiry_ms, adopt_done_fn done);

/* Whether an adoption is under way. */
bool adopt_busy(const struct server *srv);

/* A store result (routed to every module: takes only its own). */
void adopt_on_result(struct server *srv, const struct store_result *r);

/* Frees what an adoption under way holds (the server is going). */
void adopt_free(struct server *srv);

#endif
