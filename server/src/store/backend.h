/*
 * What a database backend implements for the store. The store's generic part (store.c,
 * writer.c, reader.c) owns the threads, the queues and the sequence numbers; a backend only
 * talks to its database: it opens and checks it, migrates its schema, runs one transaction of
 * operations at a time for the writer thread, and answers the read queries on connections of
 * its own. SQLite's is in sqlite*.c (sqlite.h); another backend is another set of files
 * defining a struct store_backend, and one line in store.c's backend_for().
 *
 * Threads: open, migrate, start and close run on the thread that opens and closes the store.
 * The write session (session_open to session_close) is opened by store_start() before the
 * writer thread exists and used by that thread alone afterwards. A reader belongs to one thread
 * at a time (a reader thread, or the main thread for the startup reader). backup runs on the
 * store's backup thread beside the writer and the readers; restore needs no open store.
 *
 * Functions return 0 or a negative enum store_status unless said otherwise. Optional ones
 * (start, stop, stats, maintain, backup, restore) may be NULL.
 */
#ifndef SERVER_STORE_BACKEND_H
#define SERVER_STORE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/read.h"
#include "store/types.h"

struct store_backend;

/* The counts an ANALYSIS_REQUEST is checked against (types.h), in the order of its refusals:
 * the game's rows that may be analysed (not live), the game's analyses, the player's analyses
 * under way, and all analyses under way on the site. */
enum {
    STORE_ANALYSIS_GAME,
    STORE_ANALYSIS_EXISTS,
    STORE_ANALYSIS_MINE,
    STORE_ANALYSIS_QUEUE,
    STORE_ANALYSIS_COUNTS
};

/* What those counts make of an ANALYSIS_REQUEST: 0, or the positive status refusing it. */
static inline int store_analysis_refusal(const int64_t counts[STORE_ANALYSIS_COUNTS],
                                         int max_queue) {
    if (counts[STORE_ANALYSIS_GAME] == 0) return STORE_ERR_NOT_FOUND;
    if (counts[STORE_ANALYSIS_EXISTS] > 0) return STORE_ERR_CONFLICT;
    if (counts[STORE_ANALYSIS_MINE] > 0) return STORE_ERR_LIMIT;
    if (counts[STORE_ANALYSIS_QUEUE] >= max_queue) return STORE_ERR_BUSY;
    return 0;
}

/* The first member of a backend's database handle (the backend casts to its own type). */
struct store_db {
    const struct store_backend *backend;
};

/* The first member of a backend's read connection. */
struct store_reader {
    const struct store_backend *backend;
};

struct store_backend {
    const char *name; /* "sqlite": for logs */

    /* ---- lifetime ---- */

    /*
     * Opens (creating when missing) the store at cfg->location with cfg->options, and takes it
     * for this server (or this node of a site, cfg->node_id). *out receives the handle. On
     * failure returns LOCATION, LOCKED, CORRUPT, IO or NO_MEMORY with a message in err, leaves
     * what is stored as it was and *out NULL. cfg and its options are read during open only;
     * its strings (location, node_id) outlive the handle.
     */
    int (*open)(const struct store_config *cfg, struct store_db **out, char *err, size_t errlen);
    /*
     * Brings the schema up to date, all pending migrations at once or none. *applied receives
     * how many ran and *version the schema version now. Returns 0, TOO_NEW, CORRUPT or MIGRATION
     * (err filled).
     */
    int (*migrate)(struct store_db *db, int *applied, int *version, char *err, size_t errlen);
    /* Starts the backend's own background work (SQLite: the checkpoint thread), after the
     * write session is open. Returns 0 or IO. */
    int (*start)(struct store_db *db);
    /* Stops it, once the writer thread has ended; called whenever start was (even failed). */
    void (*stop)(struct store_db *db);
    /*
     * Takes the node's lease (store_config.leases): a new generation of it, renewed now; from
     * then on begin renews it first in every transaction and fails with FENCED once another
     * node took it. On the opening thread, after migrate. Returns 0 or IO (err filled).
     * Optional: NULL where the backend has no leases.
     */
    int (*lease_take)(struct store_db *db, char *err, size_t errlen);
    /* Releases everything (after session_close and every reader's close). NULL is ignored. */
    void (*close)(struct store_db *db);
    /* Fills the backend's counters of out (checkpoints, log_truncations). Any thread. */
    void (*stats)(struct store_db *db, struct store_stats *out);

    /* ---- the write session (the writer thread) ---- */

    /* Prepares what writing needs. Returns 0 or IO (session_close still follows). */
    int (*session_open)(struct store_db *db);
    /* Releases it; also after a failed or missing session_open. */
    void (*session_close)(struct store_db *db);
    /* Starts a transaction (renewing the node's lease first, when it holds one). Returns 0, IO
     * (logged) or FENCED (the lease was taken: the writer stops). A pipelining backend may
     * find FENCED only at the commit, or at the retry after it. */
    int (*begin)(struct store_db *db);
    /*
     * Applies one operation inside the transaction. Returns 0 with *op_status set (0, or the
     * negative status of this operation alone, e.g. -CONFLICT: nothing of it is written and the
     * transaction goes on), or a negative status when the whole transaction fails (logged).
     */
    int (*apply)(struct store_db *db, const struct store_op *op, int *op_status);
    /* Commits: durable when it returns 0. Returns 0, IO or FENCED (logged); then rollback
     * follows. */
    int (*commit)(struct store_db *db);
    /* Rolls back a failed transaction, leaving the session as it was after the last commit. */
    void (*rollback)(struct store_db *db);
    /* After a rollback: false when the database cannot be reached (its connection was lost and
     * could not be made again), and the writer keeps retrying for as long as that lasts.
     * Optional: NULL for a database that is always reachable (a file). */
    bool (*reachable)(struct store_db *db);
    /* Between transactions (after each commit or failure): housekeeping the writer must do
     * itself (SQLite: truncating a WAL past its hard bound). */
    void (*maintain)(struct store_db *db);

    /* ---- backups and restores (store.h; optional: NULL where the backend cannot) ---- */

    /* A backup file's name ends with this (".db"). */
    const char *backup_suffix;
    /*
     * Writes a copy of the whole store, as committed at one instant, into a new file at path
     * while writes go on (the writer is never held up), and closes it; the store syncs and
     * renames it. Polls cancelled(ctx) as it goes and stops with FAILED when it says so. On
     * the store's backup thread, with connections of its own. Returns 0, FAILED or IO (err
     * filled); a failure may leave a partial file at path, which the store deletes.
     */
    int (*backup)(struct store_db *db, const char *path, bool (*cancelled)(void *ctx), void *ctx,
                  char *err, size_t errlen);
    /* store_restore() for this backend, with its contract. */
    int (*restore)(const struct store_config *cfg, const char *source, int *version, char *err,
                   size_t errlen);

    /* ---- reads (read.h; each on the reader's own thread) ---- */

    /* Opens a read connection: *out, or NULL with a status and err. */
    int (*reader_open)(struct store_db *db, struct store_reader **out, char *err, size_t errlen);
    /* Closes it. NULL is ignored. */
    void (*reader_close)(struct store_reader *reader);
    /* The queries, with the contracts of the functions of the same names in read.h. */
    int (*find_token)(struct store_reader *reader, const uint8_t hash[STORE_HASH_LEN],
                      struct store_identity *out);
    int (*find_account)(struct store_reader *reader, const char *username,
                        struct store_identity *out, char password_hash[STORE_PWHASH_MAX]);
    int (*find_player)(struct store_reader *reader, const char *player_id,
                       struct store_identity *out);
    int (*find_username)(struct store_reader *reader, const char *username,
                         struct store_identity *out);
    int (*read_game)(struct store_reader *reader, const char *id, struct store_game *out);
    int (*player_games)(struct store_reader *reader, const char *player_id, int page, int per_page,
                        struct store_game *out, int *count, bool *more);
    int (*each_player_game)(struct store_reader *reader, const char *player_id,
                            const struct store_game_cursor *after, int limit,
                            int (*fn)(void *ctx, const struct store_game *game), void *ctx);
    int (*each_arena_game)(struct store_reader *reader, const char *arena_id,
                           const struct store_game_cursor *after, int limit,
                           int (*fn)(void *ctx, const struct store_game *game), void *ctx);
    int (*load_live)(struct store_reader *reader,
                     int (*fn)(void *ctx, const struct store_game *game,
                               const struct store_identity players[2]),
                     void *ctx);
    /* store_load_arenas() (read.h). */
    int (*load_arenas)(struct store_reader *reader, int finished_max,
                       const struct store_arena_visitor *visitor);
    /* store_scheduled_arenas() (read.h). */
    int (*scheduled_arenas)(struct store_reader *reader,
                            int (*fn)(void *ctx, const char *name, int64_t starts_at), void *ctx);
    int (*owned_bots)(struct store_reader *reader, const char *owner_id, int max,
                      struct store_bot *out, int *count);
    int (*leaderboard)(struct store_reader *reader, int category, int limit, int64_t now_ms,
                       struct store_leader *out, int *count);
    int (*rating_history)(struct store_reader *reader, const char *player_id, int max,
                          struct store_rating_point *out, int *count);
    int (*blocks)(struct store_reader *reader, const char *player_id, int max,
                  struct store_named *out, int *count);
    int (*reports)(struct store_reader *reader, bool closed, int max, struct store_report *out,
                   int *count);
    int (*mod_log)(struct store_reader *reader, const char *target_id, int max,
                   struct store_mod_entry *out, int *count);
    int (*account_password)(struct store_reader *reader, const char *player_id,
                            char password_hash[STORE_PWHASH_MAX]);
    int (*sessions)(struct store_reader *reader, const char *player_id, int max,
                    struct store_session *out, int *count);
    int (*find_api_token)(struct store_reader *reader, const uint8_t hash[STORE_HASH_LEN],
                          struct store_identity *out, char scopes[STORE_SCOPES_MAX],
                          int64_t *created_at);
    int (*api_tokens)(struct store_reader *reader, const char *player_id, int max,
                      struct store_api_token *out, int *count);
    int (*player_settings)(struct store_reader *reader, const char *player_id,
                           char out[STORE_SETTINGS_MAX + 1]);
    int (*read_analysis)(struct store_reader *reader, const char *game_id,
                         struct store_analysis *out);
    int (*pending_analyses)(struct store_reader *reader,
                            int (*fn)(void *ctx, const struct store_analysis *analysis), void *ctx);

    /* ---- the operator's tools (store.h), without a store handle ---- */

    /* store_reset_password(), on the store at cfg->location. */
    int (*reset_password)(const struct store_config *cfg, const char *username,
                          const char *password_hash, int64_t at, int *revoked, char *err,
                          size_t errlen);
};

#endif
