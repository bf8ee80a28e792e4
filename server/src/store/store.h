/*
 * The store: everything that must outlive the server (players, tokens, ratings, games, moves,
 * chat), in the application's terms. What it is kept in is a backend's business (backend.h;
 * the default is sqlite.h); docs/persistence.md has the schema and the durability rules.
 *
 * - Writes: the loop submits operations (store_submit: plain copied records, never pointers into
 *   the world), each numbered by a sequence number. The writer thread takes everything queued,
 *   applies it in one transaction and commits (group commit: a burst of moves shares one sync),
 *   then reports "committed up to sequence number N" back. store_submitted() and
 *   store_committed() tell the loop what is still waiting for the disk.
 * - Reads (read.h): a small pool of reader threads, each with its own connection, runs the
 *   reads the loop asks for while serving (store_read_submit).
 * - Results (an operation's own status, a commit's figures, finished reads) come back through
 *   one locked queue; the store calls the configured wake function (from its threads) when the
 *   queue goes from empty to non-empty, and the loop drains it with store_poll(). Wake-ups
 *   coalesce: one poll may return many results.
 *
 * Startup: store_open() opens the backend's storage (checking it, taking it for this server)
 * and brings its schema up to date (or fails without changing anything); the caller then reads
 * what it needs to restore (store_load_live) and calls store_start().
 *
 * Functions return 0 or a negative enum store_status unless said otherwise.
 */
#ifndef SERVER_STORE_STORE_H
#define SERVER_STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/types.h"

struct store;

/*
 * Opens the configured backend's store (creating it when missing) and brings its schema up to
 * date. On failure returns NULL with *status set (a negative enum store_status: LOCATION,
 * LOCKED, CORRUPT, TOO_NEW, MIGRATION, IO, NO_MEMORY) and a one-line explanation in err (errlen
 * bytes); the stored data is left as it was. Main thread, before any loop runs.
 */
struct store *store_open(const struct store_config *cfg, int *status, char *err, size_t errlen);

/* Called from store threads when results wait for store_poll(); must be thread-safe and cheap
 * (e.g. lws_cancel_service). */
typedef void (*store_wake_fn)(void *ctx);

/* Starts the writer and reader threads (and the backend's own, if any). Returns 0 or
 * -STORE_ERR_IO / -NO_MEMORY. */
int store_start(struct store *store, store_wake_fn wake, void *wake_ctx);

/*
 * Stops the threads after everything submitted has been committed (or the writer failed), and
 * closes the store. Results not polled are dropped. NULL is ignored.
 */
void store_close(struct store *store);

/*
 * The operator's password reset (chess_server --reset-password, docs/self-hosting.md): sets the
 * password hash of the account with this (lower-case) username and revokes every session token
 * of it, in one transaction, on the store cfg names, without taking the store: a server may be
 * running on it (its connections open at that moment stay open; every later hello with a revoked
 * token is refused). *revoked receives how many sessions were revoked. Returns 0, -NOT_FOUND
 * (no account by that name: a guest, a bot or a deleted account have no password), -LOCATION
 * (no store there), -TOO_NEW, or -IO (busy beyond the backend's timeout, or a failure), with a
 * message in err. Main thread, outside the server.
 */
int store_reset_password(const struct store_config *cfg, const char *username,
                         const char *password_hash, int64_t at, int *revoked, char *err,
                         size_t errlen);

/* ---- writes (loop thread) ---- */

/*
 * Queues an operation for the writer. Takes ownership of the op's heap pointers (chat text,
 * import PGN and moves, settings JSON) whatever the outcome. Returns its sequence number (> 0,
 * increasing), or 0 when memory runs out or the writer has failed (the op is dropped). Loop thread.
 */
uint64_t store_submit(struct store *store, struct store_op *op);

/* Frees an op's heap pointers (chat text, import PGN and moves): for an op never submitted. */
void store_op_release(struct store_op *op);

/*
 * Queues ops[0..count) to be committed together, in one transaction (e.g. a move and the end of
 * the game it ended). Ownership as store_submit(). Returns the last op's sequence number, or 0
 * (nothing queued). Loop thread.
 */
uint64_t store_submit_group(struct store *store, struct store_op *ops, size_t count);

/* The sequence number of the last submitted op, and of the last committed one. When they are
 * equal nothing is waiting for the disk. Loop thread. */
uint64_t store_submitted(const struct store *store);
uint64_t store_committed(const struct store *store);

/* The last committed sequence number as the writer has it now, read without the lock and
 * without waiting for its wake-up; store_committed() stays as of the last store_poll(), which
 * also delivers the results. Loop thread. */
uint64_t store_committed_now(const struct store *store);

/* Loop thread (takes the store's lock briefly). */
void store_get_stats(struct store *store, struct store_stats *out);

/* True once the writer gave up after repeated failures: nothing more will be committed. */
bool store_failed(const struct store *store);

/* True once the writer stopped because another node took this node's lease
 * (store_config.leases): store_failed() is true too, and nothing more will ever be committed
 * by this store. As of the last store_poll(). */
bool store_fenced(const struct store *store);

/* ---- backups and restores (docs/self-hosting.md) ---- */

/*
 * Online backups are taken on a thread of the store's while writes go on. Each is a file
 * dir/chess-YYYYMMDDTHHMMSS.mmmZ<suffix> (".db" for SQLite) named by the UTC instant it copies:
 * everything committed before that instant is in it. It is written under a temporary name (the
 * same + ".partial"), synced, made readable by its owner and group only, and renamed when
 * complete, so a file with a final name is always whole; then only the newest `keep` stay.
 */

/*
 * Sets backups up: creates dir when missing (one level), checks that a file can be created in
 * it, deletes the partial files a stopped backup left there, and gives the time of the newest
 * backup in it (*newest_ms: Unix ms, 0 when none). keep >= 1; dir must outlive the store.
 * Main thread, after store_open() and before store_start(). Returns 0, -STORE_ERR_UNSUPPORTED
 * (the backend cannot back itself up while running) or -STORE_ERR_LOCATION, with err filled.
 */
int store_backup_setup(struct store *store, const char *dir, int keep, int64_t *newest_ms,
                       char *err, size_t errlen);

/*
 * Asks for a backup now. The backup thread logs its outcome and reports it through
 * store_poll() as a STORE_RESULT_BACKUP. Returns 0, -STORE_ERR_BUSY (the last one has not
 * ended: nothing more is asked) or -STORE_ERR_FAILED (backups are not set up, or the store is
 * closing). Loop thread. A backup under way when the store closes is abandoned (its partial
 * file deleted).
 */
int store_backup_request(struct store *store);

/*
 * Installs a backup file as the store at cfg->location, with no server running on it (the
 * offline `chess_server --restore`). The file is checked first (intact, a store of this kind,
 * a schema version this binary knows: *version receives it; a server opening the store later
 * brings an older one up to date), and the location must hold no store yet: nothing there is
 * ever overwritten. Returns 0, or with err filled: -STORE_ERR_NOT_FOUND (the file cannot be
 * read), -CORRUPT (damaged, or not a store), -TOO_NEW, -LOCATION, -LOCKED (a server uses the
 * location), -EXISTS (it holds a store), -UNSUPPORTED or -IO. Main thread, no store open.
 */
int store_restore(const struct store_config *cfg, const char *source, int *version, char *err,
                  size_t errlen);

/* ---- results (loop thread) ---- */

/*
 * Takes what the threads reported: advances store_committed(), calls fn (may be NULL) for each
 * result, in order, then the done callback of each finished read job (read.h). Returns the
 * number of results and jobs. Loop thread.
 */
int store_poll(struct store *store, store_result_fn fn, void *ctx);

#endif
