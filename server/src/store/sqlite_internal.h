/*
 * What the SQLite backend's files share: its database handle, its read connections and the
 * writer's statements. Not for use outside the sqlite*.c files (and the SQLite tests).
 */
#ifndef SERVER_STORE_SQLITE_INTERNAL_H
#define SERVER_STORE_SQLITE_INTERNAL_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>

#include "store/backend.h"
#include "store/sqlite.h"
#include "util/strmap.h"

/* How long a connection waits for another's lock (nodes of a site share the file) before
 * SQLITE_BUSY. */
#define SQLITE_STORE_BUSY_TIMEOUT_MS 5000

/* The writer's prepared statements (writer thread only, after session_open). */
struct writer_stmts {
    sqlite3_stmt *begin, *commit, *rollback; /* prepared once: parsing them cost 8,000
                                                instructions a transaction */
    sqlite3_stmt *player, *token, *game, *move, *unlog, *set_clock, *archive, *game_end, *rating,
        *chat, *reg, *revoke, *import_game, *import_move, *bot_count, *bot_player, *bot_token,
        *bot_find, *bot_revoke;
    /* accounts: passwords, sessions, deletion */
    sqlite3_stmt *password_set, *revoke_others, *revoke_session, *token_seen, *delete_check,
        *delete_live, *delete_chat, *delete_white, *delete_black, *delete_tokens, *delete_ratings,
        *delete_players;
    /* personal API access tokens */
    sqlite3_stmt *api_token_count, *api_token_add, *api_token_revoke, *api_token_used,
        *delete_api_tokens;
    /* the HTTP API's bot account upgrade */
    sqlite3_stmt *bot_upgrade;
    /* player settings: an account's, and a deleted account's removed */
    sqlite3_stmt *settings_set, *delete_settings;
    /* computer analysis of finished games: a request's checks, a request, a position, the end */
    sqlite3_stmt *analysis_check, *analysis_add, *analysis_ply, *analysis_done;
    /* node leases (sqlite_lease.c): this node's renewed, another node's taken with its games
     * and its arenas not finished */
    sqlite3_stmt *lease_renew, *lease_take_over, *games_take_over, *arenas_take_over;
};

/* Where a live game's moves sit in live_moves: rowid[ply - 1] (writer thread only). */
struct live_rows {
    char id[STORE_ID_MAX + 1];
    int64_t *rowid;
    int count, cap;
};

/* The backend's handle (struct store_db first). */
struct sqlite_db {
    struct store_db base;
    struct store_sqlite_options opt; /* with the defaults filled in */
    const char *node_id;             /* "" for a single server; the config's string */
    bool leases;                     /* the node holds a lease (sqlite_lease.c) */
    int64_t lease_generation;        /* the generation it took */
    char path[4096];                 /* the database file */
    int lock_fd;
    sqlite3 *wdb;           /* the writer's connection (opened first: checks, migrations) */
    struct writer_stmts ws; /* on wdb */
    struct strmap live;     /* game id -> struct live_rows: the writer's, as committed */
    int wal_frames;         /* the WAL's size in pages after the last commit (wal hook) */
    int wal_bound;          /* truncate the WAL past this many pages (maintain) */

    /* The checkpoint thread (sqlite.c), with its own connection. */
    pthread_mutex_t lock;
    pthread_cond_t checkpoint_cond;
    bool lock_ready;
    sqlite3 *cdb;
    pthread_t checkpointer;
    bool checkpointer_running;
    /* Guarded by lock. */
    bool stopping;
    bool checkpoint_due; /* the WAL has grown past CHECKPOINT_FRAMES since the last checkpoint */
    uint64_t checkpoints;
    uint64_t wal_truncations;
};

/* A read-only connection and its statements, prepared on first use (sqlite_read.c). One owner
 * thread. */
struct sqlite_reader {
    struct store_reader base;
    struct sqlite_db *db;
    sqlite3 *conn;
    struct sqlite_reads *rs;
};

static inline struct sqlite_db *sqlite_db_of(struct store_db *db) {
    return (struct sqlite_db *)(void *)db;
}

/* Sets a connection's pragmas (synchronous, foreign keys, busy timeout). Returns 0 or
 * -STORE_ERR_IO (err filled). */
int sqlite_configure_connection(sqlite3 *conn, bool sync_normal, char *err, size_t errlen);

/* sqlite.c: the data directory's checks (exists or can be created, a directory, writable:
 * 0 or -LOCATION), its lock for db_path (one per node; *fd receives it, to be closed by the
 * caller even on failure: 0, -LOCATION or -LOCKED), and the status of an error from opening or
 * checking a file (CORRUPT, LOCATION or IO; err receives what: the message). */
int sqlite_check_dir(const char *dir, char *err, size_t errlen);
int sqlite_take_lock(const char *db_path, const char *node_id, int *fd, char *err, size_t errlen);
int sqlite_open_error(sqlite3 *conn, int rc, const char *what, char *err, size_t errlen);
/* Runs an integrity check (check_sql: "PRAGMA quick_check(1)" or "PRAGMA integrity_check(1)").
 * Returns 0, -CORRUPT or another status of sqlite_open_error, with err filled. */
int sqlite_verify(sqlite3 *conn, const char *check_sql, char *err, size_t errlen);

/* sqlite_backup.c: backups (VACUUM INTO) and restores (backend.h). */
int sqlite_backup(struct store_db *db, const char *path, bool (*cancelled)(void *ctx), void *ctx,
                  char *err, size_t errlen);
int sqlite_restore(const struct store_config *cfg, const char *source, int *version, char *err,
                   size_t errlen);

/* sqlite_write.c: the write session, begin/apply/commit/rollback, the WAL's hard bound. */
int sqlite_session_open(struct store_db *db);
void sqlite_session_close(struct store_db *db);
int sqlite_begin(struct store_db *db);
int sqlite_apply(struct store_db *db, const struct store_op *op, int *op_status);
int sqlite_commit(struct store_db *db);
void sqlite_rollback(struct store_db *db);
void sqlite_maintain(struct store_db *db);

/* sqlite_read.c: read connections and the queries (backend.h). */
int sqlite_reader_open(struct store_db *db, struct store_reader **out, char *err, size_t errlen);
void sqlite_reader_close(struct store_reader *reader);
int sqlite_find_token(struct store_reader *reader, const uint8_t hash[STORE_HASH_LEN],
                      struct store_identity *out);
int sqlite_find_account(struct store_reader *reader, const char *username,
                        struct store_identity *out, char password_hash[STORE_PWHASH_MAX]);
int sqlite_find_player(struct store_reader *reader, const char *player_id,
                       struct store_identity *out);
int sqlite_find_username(struct store_reader *reader, const char *username,
                         struct store_identity *out);
int sqlite_read_game(struct store_reader *reader, const char *id, struct store_game *out);
int sqlite_player_games(struct store_reader *reader, const char *player_id, int page, int per_page,
                        struct store_game *out, int *count, bool *more);
int sqlite_each_player_game(struct store_reader *reader, const char *player_id,
                            const struct store_game_cursor *after, int limit,
                            int (*fn)(void *ctx, const struct store_game *game), void *ctx);
int sqlite_each_arena_game(struct store_reader *reader, const char *arena_id,
                           const struct store_game_cursor *after, int limit,
                           int (*fn)(void *ctx, const struct store_game *game), void *ctx);
int sqlite_load_live(struct store_reader *reader,
                     int (*fn)(void *ctx, const struct store_game *game,
                               const struct store_identity players[2]),
                     void *ctx);
int sqlite_owned_bots(struct store_reader *reader, const char *owner_id, int max,
                      struct store_bot *out, int *count);
int sqlite_leaderboard(struct store_reader *reader, int category, int limit, int64_t now_ms,
                       struct store_leader *out, int *count);
int sqlite_account_password(struct store_reader *reader, const char *player_id,
                            char password_hash[STORE_PWHASH_MAX]);
int sqlite_rating_history(struct store_reader *reader, const char *player_id, int max,
                          struct store_rating_point *out, int *count);
int sqlite_sessions(struct store_reader *reader, const char *player_id, int max,
                    struct store_session *out, int *count);
int sqlite_find_api_token(struct store_reader *reader, const uint8_t hash[STORE_HASH_LEN],
                          struct store_identity *out, char scopes[STORE_SCOPES_MAX],
                          int64_t *created_at);
int sqlite_api_tokens(struct store_reader *reader, const char *player_id, int max,
                      struct store_api_token *out, int *count);
int sqlite_player_settings(struct store_reader *reader, const char *player_id,
                           char out[STORE_SETTINGS_MAX + 1]);
int sqlite_read_analysis(struct store_reader *reader, const char *game_id,
                         struct store_analysis *out);
int sqlite_pending_analyses(struct store_reader *reader,
                            int (*fn)(void *ctx, const struct store_analysis *analysis), void *ctx);

/* sqlite_admin.c: the operator's tools, on the file beside a running server (backend.h). */
int sqlite_reset_password(const struct store_config *cfg, const char *username,
                          const char *password_hash, int64_t at, int *revoked, char *err,
                          size_t errlen);

/* sqlite_moderation.c: moderation reads and writes (docs/moderation.md). */
int sqlite_blocks(struct store_reader *reader, const char *player_id, int max,
                  struct store_named *out, int *count);
int sqlite_reports(struct store_reader *reader, bool closed, int max, struct store_report *out,
                   int *count);
int sqlite_mod_log(struct store_reader *reader, const char *target_id, int max,
                   struct store_mod_entry *out, int *count);
/* Applies a MODERATE, BLOCK or REPORT operation inside the writer's transaction: 0, a positive
 * status failing this operation alone, or -STORE_ERR_IO. */
int sqlite_put_moderation(struct sqlite_db *d, const struct store_op *op);

/* sqlite_lease.c: node leases (backend.h's lease_take); the lease's renewal inside the writer's
 * transaction (0, -FENCED when another node took it, or -IO); a TAKEOVER operation (0, a
 * positive status failing it alone, or -IO). */
int sqlite_lease_take(struct store_db *db, char *err, size_t errlen);
int sqlite_lease_renew(struct sqlite_db *d);
int sqlite_takeover(struct sqlite_db *d, const struct store_op *op);

/* ---- sqlite_arena.c: arena tournaments (docs/tournaments.md) ---- */

/* ARENA, ARENA_PLAYER, GAME_ARENA and BERSERK: 0, or -STORE_ERR_IO. */
int sqlite_put_arena(struct sqlite_db *d, const struct store_op *op);
int sqlite_load_arenas(struct store_reader *reader, int finished_max,
                       const struct store_arena_visitor *visitor);

#endif
