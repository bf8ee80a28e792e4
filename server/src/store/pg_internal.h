/*
 * What the PostgreSQL backend's files share: its handle, its read connections, parameters
 * and result helpers. Not for use outside the pg*.c files (and the store's tests).
 */
#ifndef SERVER_STORE_PG_INTERNAL_H
#define SERVER_STORE_PG_INTERNAL_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/backend.h"
#include "store/pg.h"
#include "store/sqlite_migrate.h" /* struct store_migration */
#include "util/strmap.h"

/* The advisory lock keys' first half (two 32-bit keys): "CHSS" for a node's lock, and one
 * more for migrations (held for their transaction only). */
#define PG_LOCK_NODE    1128813395
#define PG_LOCK_MIGRATE 1128813396

/* Most statements in flight in the pipeline before the writer reads their results (so neither
 * side's socket buffer fills while the other waits). */
#define PG_PIPELINE_DEPTH 1024

/* A live game as the writer knows it (as committed, plus the open transaction): its moves. */
struct pg_live {
    char id[STORE_ID_MAX + 1];
    int plies;
};

/* A text being built (an array literal of the move batch). */
struct pg_text {
    char *data;
    size_t len, cap;
    bool failed; /* an allocation failed: the text is incomplete */
};

/* The moves of the open transaction not sent yet, one array literal per column of live_moves:
 * sent as one INSERT ... SELECT FROM unnest(...) before any other statement and at the commit
 * (pg_write.c). */
enum { PG_MOVE_COLUMNS = 7 };
struct pg_move_batch {
    struct pg_text column[PG_MOVE_COLUMNS];
    int count;
};

/* The backend's handle (struct store_db first). */
struct pg_db {
    struct store_db base;
    const char *url;          /* the config's string */
    const char *node_id;      /* "" for a single server */
    bool leases;              /* the node holds a lease (pg_lease.c) */
    int64_t lease_generation; /* the generation it took */
    PGconn *wconn;            /* the writer's connection (opened first: the lock, migrations) */
    struct strmap live;       /* game id -> struct pg_live (writer thread) */
    bool pipelined;           /* the connection is in pipeline mode */
    int in_flight;            /* statements sent and not read yet */
    bool careful;             /* the last transaction failed: the next runs each statement alone */
    bool must_change[PG_PIPELINE_DEPTH + 2]; /* of each statement in flight (pg_run) */
    struct pg_move_batch moves;
};

/* A read connection (one owner thread). */
struct pg_reader {
    struct store_reader base;
    struct pg_db *db;
    PGconn *conn;
};

static inline struct pg_db *pg_db_of(struct store_db *db) {
    return (struct pg_db *)(void *)db;
}

static inline struct pg_reader *pg_reader_of(struct store_reader *reader) {
    return (struct pg_reader *)(void *)reader;
}

/* ---- pg_util.c: parameters and results ---- */

#define PG_PARAMS_MAX 16

/* A statement's parameters: text, except byte strings (binary). Integers are formatted into
 * the struct itself, so it must outlive the call that sends it. */
struct pg_params {
    int n;
    const char *value[PG_PARAMS_MAX];
    int length[PG_PARAMS_MAX];
    int format[PG_PARAMS_MAX];
    char num[PG_PARAMS_MAX][24];
};

void pg_text(struct pg_params *p, const char *text);         /* "" is an empty string */
void pg_text_or_null(struct pg_params *p, const char *text); /* NULL or "": NULL */
void pg_int(struct pg_params *p, int64_t value);
void pg_opt_int(struct pg_params *p, bool present, int64_t value); /* absent: NULL */
void pg_double(struct pg_params *p, double value);
void pg_bool(struct pg_params *p, bool value);
void pg_bytes(struct pg_params *p, const uint8_t *data, int len);

/* A column of row of a result: as text into out (NULL: ""), or a number (NULL: 0). */
void pg_col_text(const PGresult *r, int row, int col, char *out, size_t size);
int64_t pg_col_i64(const PGresult *r, int row, int col);
double pg_col_double(const PGresult *r, int row, int col);
bool pg_col_null(const PGresult *r, int row, int col);
/* A BIGINT column of a result in binary format (NULL: 0). */
int64_t pg_col_be64(const PGresult *r, int row, int col);

/* Runs a query on conn with p's parameters (p may be NULL): the result when it succeeded
 * (PQclear it), or NULL with the failure logged (what: for the log). */
PGresult *pg_query(PGconn *conn, const char *sql, const struct pg_params *p, const char *what);

/* The status a statement's failure means: CONFLICT (a unique key), NOT_FOUND (another
 * constraint or bad data: this operation alone fails), or -STORE_ERR_IO. */
int pg_error_status(const PGresult *r);

/* Connects to url, with the session's settings (synchronous_commit on, no notices; read-only
 * transactions when read_only). NULL with err filled when it cannot. */
PGconn *pg_connect(const char *url, bool read_only, char *err, size_t errlen);

/* A connection that was lost (its server restarted, the network cut) made anew, with the same
 * settings: true when it is usable again. */
bool pg_reconnect(PGconn *conn, bool read_only);

/* pg_query() on a reader's connection: a query that fails because the connection was lost,
 * outside a transaction, runs once more on a new connection. */
PGresult *pg_read_query(PGconn *conn, const char *sql, const struct pg_params *p, const char *what);

/* ---- pg.c ---- */

/* Takes the node's advisory lock on the writer's connection: 0, -STORE_ERR_LOCKED (another
 * server holds it) or -STORE_ERR_IO, with err filled. */
int pg_take_lock(struct pg_db *d, char *err, size_t errlen);

/* ---- pg_migrate.c ---- */

int pg_migrate(struct store_db *db, int *applied, int *version, char *err, size_t errlen);
/* Applies migrations[i] for every version above the database's (numbered 1..count in order),
 * all in one transaction: 0, -STORE_ERR_TOO_NEW or -STORE_ERR_MIGRATION (err filled).
 * *applied (may be NULL) receives how many ran. */
int pg_migrate_apply(PGconn *conn, const struct store_migration *migrations, int count,
                     int *applied, char *err, size_t errlen);

/* ---- pg_write.c: the write session ---- */

int pg_session_open(struct store_db *db);
void pg_session_close(struct store_db *db);
int pg_begin(struct store_db *db);
int pg_apply(struct store_db *db, const struct store_op *op, int *op_status);
int pg_commit(struct store_db *db);
void pg_rollback(struct store_db *db);
bool pg_reachable(struct store_db *db);

/*
 * Runs one of the writer's statements (pg_write.c's table, by index) in the open transaction:
 * pipelined (0; its outcome is checked at the next flush) or, in careful mode, at once: 0, a
 * positive status failing this operation alone (its error; or `none` when must_change and it
 * changed no row), or -STORE_ERR_IO.
 */
int pg_run(struct pg_db *d, int stmt, const struct pg_params *p, bool must_change, int none);

/* ---- pg_lease.c: node leases ---- */

/* The renewal of the node's lease, first in every transaction, with pg_lease_params()'s
 * parameters: fails with SQLSTATE CH001 once another node took it. */
#define PG_LEASE_RENEW_SQL "SELECT chess_lease_renew($1, $2)"

/* backend.h's lease_take. */
int pg_lease_take(struct store_db *db, char *err, size_t errlen);
/* PG_LEASE_RENEW_SQL's parameters: the node and its generation. */
void pg_lease_params(const struct pg_db *d, struct pg_params *p);
/* The renewal, answered at once (careful mode): 0, -STORE_ERR_FENCED or -STORE_ERR_IO. */
int pg_lease_renew(struct pg_db *d);
/* A TAKEOVER operation, alone in careful mode: 0, a positive status failing it alone, or
 * -STORE_ERR_IO. */
int pg_takeover(struct pg_db *d, const struct store_op *op);

/* ---- pg_moderation.c ---- */

/* Fills id's moderation fields (admin, banned, closed, muted, blocks) on conn. */
int pg_load_moderation(PGconn *conn, struct store_identity *id);
int pg_blocks(struct store_reader *reader, const char *player_id, int max, struct store_named *out,
              int *count);
int pg_reports(struct store_reader *reader, bool closed, int max, struct store_report *out,
               int *count);
int pg_mod_log(struct store_reader *reader, const char *target_id, int max,
               struct store_mod_entry *out, int *count);
/* A MODERATE, BLOCK or REPORT operation, run alone (careful mode) on the writer's connection:
 * 0, a positive status failing it alone, or -STORE_ERR_IO. */
int pg_put_moderation(struct pg_db *d, const struct store_op *op);

/* ---- pg_arena.c: arena tournaments (docs/tournaments.md) ---- */

/* ARENA, ARENA_PLAYER, GAME_ARENA and BERSERK, alone on the writer's connection. */
int pg_put_arena(struct pg_db *d, const struct store_op *op);
int pg_load_arenas(struct store_reader *reader, int finished_max,
                   const struct store_arena_visitor *visitor);
int pg_scheduled_arenas(struct store_reader *reader,
                        int (*fn)(void *ctx, const char *name, int64_t starts_at), void *ctx);

/* ---- pg_read.c ---- */

int pg_reader_open(struct store_db *db, struct store_reader **out, char *err, size_t errlen);
void pg_reader_close(struct store_reader *reader);
int pg_find_token(struct store_reader *reader, const uint8_t hash[STORE_HASH_LEN],
                  struct store_identity *out);
int pg_find_account(struct store_reader *reader, const char *username, struct store_identity *out,
                    char password_hash[STORE_PWHASH_MAX]);
int pg_find_player(struct store_reader *reader, const char *player_id, struct store_identity *out);
int pg_find_username(struct store_reader *reader, const char *username, struct store_identity *out);
int pg_read_game(struct store_reader *reader, const char *id, struct store_game *out);
int pg_player_games(struct store_reader *reader, const char *player_id, int page, int per_page,
                    struct store_game *out, int *count, bool *more);
int pg_each_player_game(struct store_reader *reader, const char *player_id,
                        const struct store_game_cursor *after, int limit,
                        int (*fn)(void *ctx, const struct store_game *game), void *ctx);
int pg_each_arena_game(struct store_reader *reader, const char *arena_id,
                       const struct store_game_cursor *after, int limit,
                       int (*fn)(void *ctx, const struct store_game *game), void *ctx);
int pg_load_live(struct store_reader *reader,
                 int (*fn)(void *ctx, const struct store_game *game,
                           const struct store_identity players[2]),
                 void *ctx);
int pg_owned_bots(struct store_reader *reader, const char *owner_id, int max, struct store_bot *out,
                  int *count);
int pg_leaderboard(struct store_reader *reader, int category, int limit, int64_t now_ms,
                   struct store_leader *out, int *count);
int pg_account_password(struct store_reader *reader, const char *player_id,
                        char password_hash[STORE_PWHASH_MAX]);
int pg_rating_history(struct store_reader *reader, const char *player_id, int max,
                      struct store_rating_point *out, int *count);
int pg_sessions(struct store_reader *reader, const char *player_id, int max,
                struct store_session *out, int *count);
int pg_find_api_token(struct store_reader *reader, const uint8_t hash[STORE_HASH_LEN],
                      struct store_identity *out, char scopes[STORE_SCOPES_MAX],
                      int64_t *created_at);
int pg_api_tokens(struct store_reader *reader, const char *player_id, int max,
                  struct store_api_token *out, int *count);
int pg_player_settings(struct store_reader *reader, const char *player_id,
                       char out[STORE_SETTINGS_MAX + 1]);
int pg_read_analysis(struct store_reader *reader, const char *game_id, struct store_analysis *out);
int pg_pending_analyses(struct store_reader *reader,
                        int (*fn)(void *ctx, const struct store_analysis *analysis), void *ctx);

/* ---- pg_admin.c: the operator's tools, beside a running server (backend.h) ---- */

int pg_reset_password(const struct store_config *cfg, const char *username,
                      const char *password_hash, int64_t at, int *revoked, char *err,
                      size_t errlen);

#endif
