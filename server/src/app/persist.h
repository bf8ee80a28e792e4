/*
 * The application's side of persistence, the commit gate (docs/persistence.md): nothing about a
 * change reaches a client before the change is committed.
 *
 * - Every batch of world events is recorded (store_record_events) before it is delivered.
 * - While writes are waiting for the disk, every outbound WebSocket message (events, replies)
 *   is held in one FIFO with the sequence number of the last write submitted before it, and
 *   released, in order, once the store reports that number committed. When nothing is waiting,
 *   messages go straight out; so do pongs and errors on a connection with nothing held
 *   (conn_send_plain). A connection's close waits for its held messages.
 * - Commit reports arrive from the store's threads through server_post() (a coalesced wake-up);
 *   the loop never waits for the disk.
 * - At attach, the games that were in progress are restored into the world.
 * - A hello with a token the world does not know is looked up in the database (the token's
 *   hash) on a reader thread (reads.h), bringing back players from before a restart.
 * - Account messages (register, login, logout), bot accounts (bot_create, bot_token_*) and
 *   archive messages are handled in accounts.c, bots.c and archive.c on top of this.
 *
 * Loop thread, except the store's wake callback.
 */
#ifndef SERVER_APP_PERSIST_H
#define SERVER_APP_PERSIST_H

#include <stdbool.h>

#include "proto/proto.h"
#include "store/store.h"

struct server;
struct conn;
struct net_msg;
struct core_events;
struct player;

/*
 * Restores the live games of the database into the world, then starts the store's threads with
 * the loop's wake-up. Call after server_create(), before server_run(). The store stays owned by
 * the caller, who closes it after server_run() returns. Returns 0, or -1 (logged).
 */
int persist_attach(struct server *srv, struct store *store);

/* Records events before delivery. Returns 0, or -1 when they must not be delivered (the
 * store refused them: the server is stopping). */
int persist_record(struct server *srv, struct core_events *events);

/* conn_send(): true when the message was held for a later commit (a reference was taken). */
bool persist_hold(struct conn *c, struct net_msg *m);

/*
 * Runs after(srv, arg) on the loop once everything submitted so far is committed, in order with
 * the held messages (the cluster publishes events for other nodes this way). Returns 0, or -1
 * when nothing waits for the disk (or memory ran out): the caller runs it at once.
 */
int persist_after_commit(struct server *srv, void (*after)(struct server *srv, void *arg),
                         void *arg);

/*
 * Releases the held messages whose writes the writer has committed, without waiting for its
 * wake-up: a loop busy with many sockets reaches that wake-up only after all of them, so the
 * server calls this after each client message (a lock-free check when nothing is ready).
 */
void persist_release_committed(struct server *srv);

/* A connection closed: its held messages and pending requests are dropped. */
void persist_conn_gone(struct conn *c);

/* A new guest: stored with its token's hash (the welcome that carries the token waits for the
 * commit, so a token a client holds always survives a restart). */
void persist_player_created(struct server *srv, struct player *player);

/*
 * A hello with a token the world does not know: looks it up in the database off the loop; the
 * answer finishes the hello (dispatch_hello_player) or sends BAD_TOKEN / STORE_UNAVAILABLE with
 * the request's id (bearer: the token came with the upgrade request; a failure also closes the
 * connection). The connection's later messages wait meanwhile. Returns 0 (answer later) or an
 * error code.
 */
int persist_hello_by_token(struct conn *c, const char *token, const json_t *id, bool bearer);

/* The world's player for an identity read from the store (brought back into the world when it
 * is not there; no token is mapped to it). NULL when memory runs out. */
struct store_identity;
struct player *persist_player_for(struct server *srv, const struct store_identity *id);

/*
 * Restores one game in progress read from the store into the world, as at start (docs/
 * persistence.md: the side to move's clock starts again now); a game its last stored move ended,
 * or whose moves do not replay, is ended and stored instead. Returns 0, or -1 (logged). Arm the
 * world's timer after (server_arm_world_timer).
 */
struct store_game;
int persist_restore_game(struct server *srv, const struct store_game *game,
                         const struct store_identity *players);

/* Renews the node's lease (a node of a site, store_config.leases): a transaction, at least every
 * second. */
void persist_renew_lease(struct server *srv);

/* True while the store's writer waits for a database it cannot reach (/healthz). */
bool persist_database_down(struct server *srv);

/* The store, the password thread and the reads waiting on it (NULL without a database). */
struct store *persist_store(struct server *srv);
struct passwords *persist_passwords(struct server *srv);
struct reads *persist_reads(struct server *srv);

/* The store's queue lengths and counters for /metrics (nothing without a database). */
struct metrics_gauges;
void persist_fill_gauges(struct server *srv, struct metrics_gauges *g);

/* Stops wake-ups from the store (the loop is ending). */
void persist_detach(struct server *srv);

/* Frees what the application kept (held messages, pending requests). */
void persist_free(struct server *srv);

#endif
