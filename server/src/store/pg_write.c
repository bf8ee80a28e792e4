/*
 * The PostgreSQL backend's write session: one prepared statement per kind of row, every value
 * a parameter, and group commit over libpq's pipeline mode. A transaction's statements are sent
 * one after another without waiting for their answers (BEGIN, the batch, COMMIT), and the writer
 * reads the answers at the commit, or every PG_PIPELINE_DEPTH statements: one round trip to the
 * server per batch instead of one per statement.
 *
 * A pipelined statement's own failure (a constraint, bad data) aborts the whole transaction in
 * PostgreSQL, where SQLite fails only that operation. So the hot operations are written so that
 * they cannot fail on their data (a move is checked against the writer's memory of live games,
 * a player or token already stored is left alone), and when one does fail anyway the
 * transaction is rolled back and the writer's retry runs in careful mode: each operation alone,
 * inside a savepoint, its statements answered one by one, so a failing operation is reported
 * and skipped exactly as SQLite does. Operations that can fail in normal use (a taken username,
 * a moderator's action, a bot's limit) always run that way, after the statements before them
 * are answered.
 *
 * Outside careful mode, the moves of a transaction (most of what it writes) are not sent one
 * INSERT each: they are gathered into one array per column and sent as a single INSERT of them
 * all (unnest), before the next statement of another kind and at the commit, so their order
 * with the other statements is kept. One statement per batch instead of one per move saves the
 * server most of its work per move (its executor's start and end for each).
 *
 * Moves of live games are rows of live_moves keyed by (game_id, ply). The writer remembers each
 * live game's number of moves (struct pg_live): a move is stored only for a game the memory
 * holds and only as its next ply, as in SQLite (sqlite_write.c). That memory mirrors the
 * committed tables: it is rebuilt from them at start and after any rolled-back transaction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg_internal.h"
#include "util/log.h"

enum {
    W_PLAYER,
    W_TOKEN,
    W_GAME,
    W_MOVE,
    W_UNLOG_AFTER,
    W_SET_CLOCK,
    W_ARCHIVE,
    W_UNLOG_GAME,
    W_GAME_END,
    W_RATING,
    W_CHAT,
    W_REG,
    W_REVOKE,
    W_IMPORT_GAME,
    W_IMPORT_MOVE,
    W_BOT_COUNT,
    W_BOT_PLAYER,
    W_BOT_TOKEN,
    W_BOT_FIND,
    W_BOT_REVOKE,
    W_MOVES,
    W_PASSWORD_SET,
    W_REVOKE_OTHERS,
    W_REVOKE_SESSION,
    W_TOKEN_SEEN,
    W_DELETE_CHECK,
    W_DELETE_LIVE,
    W_DELETE_CHAT,
    W_DELETE_WHITE,
    W_DELETE_BLACK,
    W_DELETE_TOKENS,
    W_DELETE_RATINGS,
    W_DELETE_PLAYERS,
    W_API_TOKEN_COUNT,
    W_API_TOKEN_ADD,
    W_API_TOKEN_REVOKE,
    W_API_TOKEN_USED,
    W_DELETE_API_TOKENS,
    W_BOT_UPGRADE,
    W_SETTINGS_SET,
    W_DELETE_SETTINGS,
    W_ANALYSIS_CHECK,
    W_ANALYSIS_ADD,
    W_ANALYSIS_PLY,
    W_ANALYSIS_DONE,
    W_COUNT
};

/* An account ($1) and the bots it owns. */
#define OWNED_PLAYERS_SQL "(SELECT id FROM players WHERE id = $1 OR owner_id = $1)"

static const char *const sql_text[W_COUNT] = {
    [W_PLAYER] = "INSERT INTO players (id, name, created_at) VALUES ($1, $2, $3) "
                 "ON CONFLICT (id) DO NOTHING",
    [W_TOKEN] = "INSERT INTO tokens (hash, player_id, kind, label, created_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (hash) DO NOTHING",
    [W_GAME] = "INSERT INTO games (id, initial_fen, white_id, black_id, white_name, black_name, "
               "initial_ms, increment_ms, category, rated, status, created_at, white_rating, "
               "black_rating, node, variant, days) "
               "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'live', $11, $12, $13, $14, "
               "COALESCE($15, 'standard'), $16)",
    [W_MOVE] = "INSERT INTO live_moves (game_id, ply, uci, san, clock_ms, spent_ms, played_at) "
               "VALUES ($1, $2, $3, $4, $5, $6, $7)",
    [W_UNLOG_AFTER] = "DELETE FROM live_moves WHERE game_id = $1 AND ply > $2",
    [W_SET_CLOCK] = "UPDATE live_moves SET clock_ms = $3 WHERE game_id = $1 AND ply = $2",
    [W_ARCHIVE] = "INSERT INTO moves (game_id, ply, uci, san, clock_ms, spent_ms, played_at) "
                  "SELECT game_id, ply, uci, san, clock_ms, spent_ms, played_at FROM live_moves "
                  "WHERE game_id = $1",
    [W_UNLOG_GAME] = "DELETE FROM live_moves WHERE game_id = $1",
    [W_GAME_END] = "UPDATE games SET status = 'ended', result = $2, termination = $3, "
                   "ply_count = $4, ended_at = $5, white_rating_diff = $6, black_rating_diff = $7 "
                   "WHERE id = $1 AND status = 'live'",
    [W_RATING] = "INSERT INTO ratings (player_id, category, rating, deviation, volatility, games, "
                 "updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (player_id, "
                 "category) DO UPDATE SET rating = excluded.rating, deviation = "
                 "excluded.deviation, volatility = excluded.volatility, games = excluded.games, "
                 "updated_at = excluded.updated_at",
    [W_CHAT] = "INSERT INTO chat (game_id, room, player_id, name, text, sent_at) "
               "VALUES ($1, $2, $3, $4, $5, $6)",
    [W_REG] = "INSERT INTO players (id, name, username, password_hash, created_at, registered_at) "
              "VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (id) DO UPDATE SET name = "
              "excluded.name, username = excluded.username, password_hash = "
              "excluded.password_hash, registered_at = excluded.registered_at "
              "WHERE players.username IS NULL",
    [W_REVOKE] = "UPDATE tokens SET revoked_at = $2 WHERE hash = $1 AND revoked_at IS NULL",
    [W_IMPORT_GAME] = "INSERT INTO games (id, initial_fen, white_name, black_name, status, "
                      "result, termination, ply_count, created_at, ended_at, pgn, variant) "
                      "VALUES ($1, $2, $3, $4, 'imported', $5, 'none', $6, $7, $7, $8, "
                      "COALESCE($9, 'standard'))",
    [W_IMPORT_MOVE] = "INSERT INTO moves (game_id, ply, uci, san, clock_ms, spent_ms, played_at) "
                      "VALUES ($1, $2, $3, $4, $5, $6, $7)",
    [W_BOT_COUNT] = "SELECT count(*) FROM players WHERE owner_id = $1",
    [W_BOT_PLAYER] = "INSERT INTO players (id, name, username, is_bot, owner_id, created_at, "
                     "registered_at) VALUES ($1, $2, $3, 1, $4, $5, $5)",
    [W_BOT_TOKEN] = "INSERT INTO tokens (hash, player_id, kind, created_at) "
                    "SELECT $1::bytea, id, 'bot', $3::bigint FROM players "
                    "WHERE username = $2 AND owner_id = $4 AND is_bot = 1",
    [W_BOT_FIND] = "SELECT id FROM players WHERE username = $1 AND owner_id = $2 AND is_bot = 1",
    [W_BOT_REVOKE] = "UPDATE tokens SET revoked_at = $3 WHERE kind = 'bot' AND revoked_at IS NULL "
                     "AND player_id IN (SELECT id FROM players WHERE username = $1 AND "
                     "owner_id = $2 AND is_bot = 1)",
    [W_MOVES] = "INSERT INTO live_moves (game_id, ply, uci, san, clock_ms, spent_ms, played_at) "
                "SELECT * FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[], "
                "$5::bigint[], $6::bigint[], $7::bigint[])",
    /* accounts: an account that can log in (not a bot, not deleted) */
    [W_PASSWORD_SET] = "UPDATE players SET password_hash = $2 WHERE id = $1 AND password_hash IS "
                       "NOT NULL AND deleted_at IS NULL",
    /* every session but $2 (NULL: all) */
    [W_REVOKE_OTHERS] = "UPDATE tokens SET revoked_at = $3 WHERE player_id = $1 AND kind = "
                        "'session' AND revoked_at IS NULL AND hash IS DISTINCT FROM $2::bytea",
    /* by its id, the first STORE_SESSION_ID_BYTES of its hash */
    [W_REVOKE_SESSION] = "UPDATE tokens SET revoked_at = $3 WHERE player_id = $1 AND kind = "
                         "'session' AND revoked_at IS NULL AND substring(hash from 1 for "
                         "length($2::bytea)) = $2::bytea",
    [W_TOKEN_SEEN] = "UPDATE tokens SET last_seen_at = $2 WHERE hash = $1 AND kind = 'session'",
    [W_DELETE_CHECK] = "SELECT count(*) FROM players WHERE id = $1 AND password_hash IS NOT NULL "
                       "AND deleted_at IS NULL",
    [W_DELETE_LIVE] = "SELECT count(*) FROM games g JOIN players p ON p.id = g.white_id OR p.id = "
                      "g.black_id WHERE g.status = 'live' AND (p.id = $1 OR p.owner_id = $1)",
    [W_DELETE_CHAT] = "UPDATE chat SET player_id = '', name = $2 WHERE player_id IN "
                      "" OWNED_PLAYERS_SQL,
    [W_DELETE_WHITE] = "UPDATE games SET white_id = NULL, white_name = $2 WHERE white_id IN "
                       "" OWNED_PLAYERS_SQL,
    [W_DELETE_BLACK] = "UPDATE games SET black_id = NULL, black_name = $2 WHERE black_id IN "
                       "" OWNED_PLAYERS_SQL,
    [W_DELETE_TOKENS] = "UPDATE tokens SET revoked_at = $2 WHERE revoked_at IS NULL AND "
                        "player_id IN " OWNED_PLAYERS_SQL,
    [W_DELETE_RATINGS] = "DELETE FROM ratings WHERE player_id IN " OWNED_PLAYERS_SQL,
    /* tombstones; the usernames stay, reserved */
    [W_DELETE_PLAYERS] = "UPDATE players SET name = $2, password_hash = NULL, deleted_at = $3 "
                         "WHERE id = $1 OR owner_id = $1",
    /* personal API access tokens: an account's working ones, a new one, one revoked by its id
     * (the first STORE_SESSION_ID_BYTES of its hash), one used, all of a deleted account's */
    [W_API_TOKEN_COUNT] = "SELECT count(*) FROM api_tokens WHERE player_id = $1 AND revoked_at IS "
                          "NULL",
    [W_API_TOKEN_ADD] = "INSERT INTO api_tokens (hash, player_id, description, scopes, "
                        "created_at) VALUES ($1, $2, $3, $4, $5)",
    [W_API_TOKEN_REVOKE] = "UPDATE api_tokens SET revoked_at = $3 WHERE player_id = $1 AND "
                           "revoked_at IS NULL AND substring(hash from 1 for length($2::bytea)) "
                           "= $2::bytea",
    [W_API_TOKEN_USED] = "UPDATE api_tokens SET last_used_at = $2 WHERE hash = $1",
    [W_BOT_UPGRADE] = "UPDATE players SET is_bot = 1 WHERE id = $1 AND password_hash IS NOT NULL "
                      "AND deleted_at IS NULL AND is_bot = 0 AND owner_id IS NULL AND NOT EXISTS "
                      "(SELECT 1 FROM games WHERE white_id = $1 OR black_id = $1)",
    [W_DELETE_API_TOKENS] = "UPDATE api_tokens SET revoked_at = $2 WHERE revoked_at IS NULL AND "
                            "player_id = $1",
    /* player settings: an account's (not a bot's, not a deleted one's), replaced whole; a
     * deleted account's removed */
    [W_SETTINGS_SET] = "INSERT INTO player_settings (player_id, settings, updated_at) SELECT id, "
                       "$2, $3 FROM players WHERE id = $1 AND password_hash IS NOT NULL AND "
                       "deleted_at IS NULL AND is_bot = 0 ON CONFLICT (player_id) DO UPDATE SET "
                       "settings = excluded.settings, updated_at = excluded.updated_at",
    [W_DELETE_SETTINGS] = "DELETE FROM player_settings WHERE player_id = $1",
    /* computer analysis of finished games: what may refuse a request (store_analysis_refusal's
     * counts), a request, a position of one under way (written again after a restart), its end */
    [W_ANALYSIS_CHECK] = "SELECT (SELECT count(*) FROM games WHERE id = $1 AND status <> 'live'), "
                         "(SELECT count(*) FROM game_analyses WHERE game_id = $1), "
                         "(SELECT count(*) FROM game_analyses WHERE done_at IS NULL AND "
                         "requested_by = $2), "
                         "(SELECT count(*) FROM game_analyses WHERE done_at IS NULL)",
    [W_ANALYSIS_ADD] = "INSERT INTO game_analyses (game_id, requested_by, node, positions, nodes, "
                       "requested_at) VALUES ($1, $2, $3, $4, $5, $6)",
    [W_ANALYSIS_PLY] = "INSERT INTO analysis_plies (game_id, ply, score, depth, nodes, pv) "
                       "SELECT game_id, $2::bigint, $3::bigint, $4::bigint, $5::bigint, $6::text "
                       "FROM game_analyses WHERE game_id = $1 AND done_at IS NULL "
                       "ON CONFLICT (game_id, ply) DO UPDATE SET score = excluded.score, "
                       "depth = excluded.depth, nodes = excluded.nodes, pv = excluded.pv",
    [W_ANALYSIS_DONE] = "UPDATE game_analyses SET done_at = $2 WHERE game_id = $1 AND "
                        "done_at IS NULL",
};

/* A prepared statement's name: "w" and its index (0..W_COUNT-1). */
static void stmt_name(int stmt, char out[8]) {
    snprintf(out, 8, "w%u", (unsigned)stmt % 1000u);
}

/* ---- the memory of live games ---- */

static void live_clear(struct pg_db *d) {
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&d->live, &i, &key, &value);) free(value);
    strmap_free(&d->live);
}

static struct pg_live *live_get(struct pg_db *d, const char *game_id, bool create) {
    struct pg_live *g = strmap_get(&d->live, game_id);
    if (g || !create) return g;
    if (!(g = calloc(1, sizeof *g))) return NULL;
    snprintf(g->id, sizeof g->id, "%s", game_id);
    if (strmap_put(&d->live, g->id, g) < 0) {
        free(g);
        return NULL;
    }
    return g;
}

static void live_drop(struct pg_db *d, const char *game_id) {
    free(strmap_remove(&d->live, game_id));
}

/* Rebuilds the memory from the tables (as committed): every node's live games (as a foreign
 * key would, any stored game may get moves) and their moves. */
static int live_load(struct pg_db *d) {
    live_clear(d);
    PGresult *r = pg_query(d->wconn,
                           "SELECT g.id, (SELECT count(*) FROM live_moves m WHERE m.game_id = "
                           "g.id), (SELECT COALESCE(max(ply), 0) FROM live_moves m WHERE "
                           "m.game_id = g.id) FROM games g WHERE g.status = 'live'",
                           NULL, "loading the live games");
    if (!r) return -STORE_ERR_IO;
    int rc = 0;
    for (int i = 0; i < PQntuples(r) && rc == 0; i++) {
        struct pg_live *g = live_get(d, PQgetvalue(r, i, 0), true);
        int count = (int)pg_col_i64(r, i, 1);
        if (!g || count != pg_col_i64(r, i, 2)) {
            LOGE("store", "live_moves: game=%s has rows out of order or memory ran out",
                 PQgetvalue(r, i, 0));
            rc = -STORE_ERR_IO;
            break;
        }
        g->plies = count;
    }
    PQclear(r);
    return rc;
}

/* ---- the batch of moves ---- */

static void text_put(struct pg_text *t, const char *s, size_t n) {
    if (t->failed) return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap < t->len + n + 1) cap *= 2;
        char *grown = realloc(t->data, cap);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->data = grown;
        t->cap = cap;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

/* Appends one element to an array literal: quoted text (NULL: the literal NULL). */
static void text_element(struct pg_text *t, const char *value, bool first) {
    text_put(t, first ? "{" : ",", 1);
    if (!value) {
        text_put(t, "NULL", 4);
        return;
    }
    text_put(t, "\"", 1);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\') text_put(t, "\\", 1);
        text_put(t, c, 1);
    }
    text_put(t, "\"", 1);
}

static void batch_add(struct pg_move_batch *b, const char *game_id,
                      const struct store_move_row *m) {
    char num[5][24];
    snprintf(num[0], sizeof num[0], "%d", m->ply);
    snprintf(num[1], sizeof num[1], "%lld", (long long)m->clock_ms);
    snprintf(num[2], sizeof num[2], "%lld", (long long)m->spent_ms);
    snprintf(num[3], sizeof num[3], "%lld", (long long)m->played_at);
    const char *values[PG_MOVE_COLUMNS] = {
        game_id, num[0], m->uci, m->san, m->timed ? num[1] : NULL, m->timed ? num[2] : NULL,
        num[3]};
    for (int c = 0; c < PG_MOVE_COLUMNS; c++) text_element(&b->column[c], values[c], b->count == 0);
    b->count++;
}

static void batch_reset(struct pg_move_batch *b) {
    for (int c = 0; c < PG_MOVE_COLUMNS; c++) {
        b->column[c].len = 0;
        b->column[c].failed = false;
    }
    b->count = 0;
}

static void batch_free(struct pg_move_batch *b) {
    for (int c = 0; c < PG_MOVE_COLUMNS; c++) free(b->column[c].data);
    *b = (struct pg_move_batch){0};
}

static int send_prepared(struct pg_db *d, int stmt, const struct pg_params *p, bool must_change);

/* Sends the gathered moves as one statement (pipelined). */
static int batch_send(struct pg_db *d) {
    struct pg_move_batch *b = &d->moves;
    if (b->count == 0) return 0;
    struct pg_params p = {0};
    bool failed = false;
    for (int c = 0; c < PG_MOVE_COLUMNS; c++) {
        text_put(&b->column[c], "}", 1);
        failed |= b->column[c].failed;
        pg_text(&p, b->column[c].data);
    }
    int rc = failed ? -STORE_ERR_IO : send_prepared(d, W_MOVES, &p, false);
    if (failed) LOGE("store", "out of memory gathering moves");
    batch_reset(b);
    return rc;
}

/* ---- the pipeline ---- */

/*
 * Reads the answers of everything sent since the last sync, after a sync of its own. Returns 0,
 * or -STORE_ERR_IO when one failed (the transaction is aborted; its rollback follows) or the
 * connection did. A failure sends the next attempt into careful mode.
 */
static int pipeline_flush(struct pg_db *d) {
    if (!d->pipelined) return 0;
    if (PQpipelineSync(d->wconn) != 1) {
        LOGE("store", "cannot send to PostgreSQL: %s", PQerrorMessage(d->wconn));
        return -STORE_ERR_IO;
    }
    int rc = 0, at = 0; /* at: the statement whose answers come (each ends with a NULL) */
    for (;;) {
        PGresult *r = PQgetResult(d->wconn);
        if (!r) {
            /* The end of one statement's answers; a broken connection gives only these. */
            if (PQstatus(d->wconn) != CONNECTION_OK) {
                LOGE("store", "lost the connection to PostgreSQL: %s", PQerrorMessage(d->wconn));
                rc = -STORE_ERR_IO;
                break;
            }
            at++;
            continue;
        }
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            break;
        }
        if (st == PGRES_FATAL_ERROR) {
            LOGW("store", "a pipelined statement failed: %s", PQresultErrorMessage(r));
            rc = -STORE_ERR_IO;
        } else if (st == PGRES_COMMAND_OK && at < d->in_flight && d->must_change[at] &&
                   atoi(PQcmdTuples(r)) == 0) {
            /* Its operation fails alone, in careful mode. */
            LOGD("store", "a pipelined statement changed nothing: retrying carefully");
            rc = -STORE_ERR_IO;
        } else if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK &&
                   st != PGRES_PIPELINE_ABORTED) {
            rc = -STORE_ERR_IO;
        }
        PQclear(r);
    }
    d->in_flight = 0;
    if (rc < 0) d->careful = true;
    return rc;
}

static int pipeline_enter(struct pg_db *d) {
    if (d->pipelined) return 0;
    if (PQenterPipelineMode(d->wconn) != 1) {
        LOGE("store", "cannot enter pipeline mode: %s", PQerrorMessage(d->wconn));
        return -STORE_ERR_IO;
    }
    d->pipelined = true;
    return 0;
}

/* Reads what is in flight and leaves pipeline mode (for a statement answered at once). */
static int pipeline_leave(struct pg_db *d) {
    if (!d->pipelined) return 0;
    int rc = batch_send(d);
    int flushed = pipeline_flush(d);
    if (rc == 0) rc = flushed;
    if (PQexitPipelineMode(d->wconn) != 1) {
        LOGE("store", "cannot leave pipeline mode: %s", PQerrorMessage(d->wconn));
        return -STORE_ERR_IO;
    }
    d->pipelined = false;
    return rc;
}

/* Sends a statement into the pipeline (its answer is read at the next flush, which fails the
 * transaction when a must_change statement changed no row). */
static int send_prepared(struct pg_db *d, int stmt, const struct pg_params *p, bool must_change) {
    char name[8];
    stmt_name(stmt, name);
    if (PQsendQueryPrepared(d->wconn, name, p->n, p->value, p->length, p->format, 0) != 1) {
        LOGE("store", "cannot send a statement: %s", PQerrorMessage(d->wconn));
        return -STORE_ERR_IO;
    }
    d->must_change[d->in_flight] = must_change;
    if (++d->in_flight >= PG_PIPELINE_DEPTH) return pipeline_flush(d);
    return 0;
}

/* Sends BEGIN or COMMIT (p NULL), or another unprepared statement, into the pipeline. */
static int send_control(struct pg_db *d, const char *sql, const struct pg_params *p) {
    if (PQsendQueryParams(d->wconn, sql, p ? p->n : 0, NULL, p ? p->value : NULL,
                          p ? p->length : NULL, p ? p->format : NULL, 0) != 1) {
        LOGE("store", "%s failed: %s", sql, PQerrorMessage(d->wconn));
        return -STORE_ERR_IO;
    }
    d->must_change[d->in_flight++] = false;
    return 0;
}

int pg_run(struct pg_db *d, int stmt, const struct pg_params *p, bool must_change, int none) {
    char name[8];
    stmt_name(stmt, name);
    if (d->pipelined) {
        /* A must_change statement's "no row" is checked at the flush. The moves gathered so
         * far go first, in order. */
        int rc = batch_send(d);
        return rc < 0 ? rc : send_prepared(d, stmt, p, must_change);
    }
    PGresult *r = PQexecPrepared(d->wconn, name, p->n, p->value, p->length, p->format, 0);
    ExecStatusType st = PQresultStatus(r);
    int rc = 0;
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
        if (must_change && atoi(PQcmdTuples(r)) == 0) rc = none;
    } else {
        rc = pg_error_status(r);
        if (rc > 0)
            LOGW("store", "statement refused: %s", PQresultErrorMessage(r));
        else
            LOGE("store", "write failed: %s", r ? PQresultErrorMessage(r) : "out of memory");
    }
    PQclear(r);
    return rc;
}

/* A query of the writer's (careful mode) whose first n columns of its one row are integers:
 * values, or `none` without a row. */
static int select_ints(struct pg_db *d, int stmt, const struct pg_params *p, int none,
                       int64_t *values, int n) {
    char name[8];
    stmt_name(stmt, name);
    PGresult *r = PQexecPrepared(d->wconn, name, p->n, p->value, p->length, p->format, 0);
    int rc;
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        LOGE("store", "read in a write failed: %s", PQerrorMessage(d->wconn));
        rc = -STORE_ERR_IO;
    } else if (PQntuples(r) == 0) {
        rc = none;
    } else {
        for (int i = 0; i < n; i++) values[i] = pg_col_i64(r, 0, i);
        rc = 0;
    }
    PQclear(r);
    return rc;
}

/* select_ints() of one column. */
static int select_int(struct pg_db *d, int stmt, const struct pg_params *p, int none,
                      int64_t *value) {
    return select_ints(d, stmt, p, none, value, 1);
}

/* ---- the session ---- */

/* The writer's statements, prepared on its connection. Returns 0 or -STORE_ERR_IO. */
static int prepare_all(struct pg_db *d) {
    for (int i = 0; i < W_COUNT; i++) {
        char name[8];
        stmt_name(i, name);
        PGresult *r = PQprepare(d->wconn, name, sql_text[i], 0, NULL);
        bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        if (!ok) {
            LOGE("store", "cannot prepare statement %d: %s", i, PQerrorMessage(d->wconn));
            return -STORE_ERR_IO;
        }
    }
    return 0;
}

int pg_session_open(struct store_db *db) {
    struct pg_db *d = pg_db_of(db);
    if (live_load(d) < 0) return -STORE_ERR_IO;
    return prepare_all(d);
}

/* The writer's connection was lost (PostgreSQL restarted, the network cut): a new one, with the
 * node's lock and the statements again. The transaction in flight was lost with it: the writer
 * retries it. Returns true when the connection is usable again. */
static bool writer_reconnect(struct pg_db *d) {
    char err[256];
    d->pipelined = false;
    d->in_flight = 0;
    if (!pg_reconnect(d->wconn, false)) return false;
    int rc = pg_take_lock(d, err, sizeof err);
    if (rc < 0) {
        LOGW("store", "after reconnecting: %s", err);
        PQreset(d->wconn); /* so that the next attempt starts over */
        return false;
    }
    d->careful = true; /* the retried transaction runs its statements one by one */
    return prepare_all(d) == 0;
}

void pg_session_close(struct store_db *db) {
    struct pg_db *d = pg_db_of(db);
    live_clear(d);
    batch_free(&d->moves);
}

/* ---- operations ---- */

static int put_token(struct pg_db *d, const char *player_id, const uint8_t *hash,
                     enum store_token_kind kind, const char *label, int64_t at) {
    struct pg_params p = {0};
    pg_bytes(&p, hash, STORE_HASH_LEN);
    pg_text(&p, player_id);
    pg_text(&p, kind == STORE_TOKEN_BOT ? "bot" : "session");
    pg_text_or_null(&p, label);
    pg_int(&p, at);
    return pg_run(d, W_TOKEN, &p, false, 0);
}

static void params_move(struct pg_params *p, const char *game_id, const struct store_move_row *m) {
    pg_text(p, game_id);
    pg_int(p, m->ply);
    pg_text(p, m->uci);
    pg_text(p, m->san);
    pg_opt_int(p, m->timed, m->clock_ms);
    pg_opt_int(p, m->timed, m->spent_ms);
    pg_int(p, m->played_at);
}

static int put_move(struct pg_db *d, const char *game_id, const struct store_move_row *m) {
    struct pg_live *g = live_get(d, game_id, false);
    if (!g) {
        LOGW("store", "game=%s: move for a game that is not stored", game_id);
        return STORE_ERR_NOT_FOUND;
    }
    if (m->ply != g->plies + 1) {
        LOGW("store", "game=%s: move for ply %d, expected %d", game_id, m->ply, g->plies + 1);
        return STORE_ERR_CONFLICT;
    }
    int rc = 0;
    if (d->pipelined) {
        batch_add(&d->moves, game_id, m);
    } else {
        struct pg_params p = {0};
        params_move(&p, game_id, m);
        rc = pg_run(d, W_MOVE, &p, false, 0);
    }
    if (rc == 0) g->plies++;
    return rc;
}

static int put_game(struct pg_db *d, const struct store_op *op) {
    bool timed = !op->u.start.unlimited; /* a daily game stores 0 and 0 */
    struct pg_params p = {0};
    pg_text(&p, op->game_id);
    pg_text_or_null(&p, op->u.start.initial_fen);
    for (int c = 0; c < 2; c++) pg_text_or_null(&p, op->u.start.player_id[c]);
    for (int c = 0; c < 2; c++) pg_text(&p, op->u.start.name[c]);
    pg_opt_int(&p, timed, op->u.start.initial_ms);
    pg_opt_int(&p, timed, op->u.start.increment_ms);
    pg_text_or_null(&p, op->u.start.category);
    pg_int(&p, op->u.start.rated ? 1 : 0);
    pg_int(&p, op->u.start.created_at);
    pg_opt_int(&p, op->u.start.rated, op->u.start.rating[0]);
    pg_opt_int(&p, op->u.start.rated, op->u.start.rating[1]);
    pg_text(&p, d->node_id);
    pg_text_or_null(&p, op->u.start.variant); /* "": NULL, stored as 'standard' */
    pg_opt_int(&p, op->u.start.days > 0, op->u.start.days);
    int rc = pg_run(d, W_GAME, &p, false, 0);
    if (rc == 0 && !live_get(d, op->game_id, true)) return -STORE_ERR_IO;
    return rc;
}

static int put_takeback(struct pg_db *d, const struct store_op *op) {
    struct pg_live *g = live_get(d, op->game_id, false);
    if (!g) return 0;
    int left = g->plies < op->u.takeback.ply ? g->plies : op->u.takeback.ply;
    struct pg_params p = {0};
    pg_text(&p, op->game_id);
    pg_int(&p, left);
    int rc = g->plies > left ? pg_run(d, W_UNLOG_AFTER, &p, false, 0) : 0;
    /* The clocks as they are now go on each side's last remaining move. */
    for (int back = 0; rc == 0 && op->u.takeback.timed && back < 2; back++) {
        int ply = left - back;
        if (ply < 1) break;
        int mover = (ply - 1) % 2; /* White makes odd plies */
        struct pg_params c = {0};
        pg_text(&c, op->game_id);
        pg_int(&c, ply);
        pg_int(&c, op->u.takeback.clock_ms[mover]);
        rc = pg_run(d, W_SET_CLOCK, &c, false, 0);
    }
    if (rc == 0) g->plies = left;
    return rc;
}

static int put_rating(struct pg_db *d, const char *player_id, int category, const struct rating *r,
                      int64_t at) {
    struct pg_params p = {0};
    pg_text(&p, player_id);
    pg_text(&p, rating_category_name(category));
    pg_double(&p, r->rating);
    pg_double(&p, r->deviation);
    pg_double(&p, r->volatility);
    pg_int(&p, r->games);
    pg_int(&p, at);
    return pg_run(d, W_RATING, &p, false, 0);
}

static int put_end(struct pg_db *d, const struct store_op *op) {
    /* Pipelined, a game that is not live fails the transaction (the flush finds the UPDATE
     * changed nothing) and the careful retry reports NOT_FOUND for this operation alone. */
    struct pg_params p = {0};
    pg_text(&p, op->game_id);
    pg_text(&p, op->u.end.result);
    pg_text(&p, op->u.end.termination);
    pg_int(&p, op->u.end.ply_count);
    pg_int(&p, op->u.end.ended_at);
    pg_opt_int(&p, op->u.end.rated, op->u.end.diff[0]);
    pg_opt_int(&p, op->u.end.rated, op->u.end.diff[1]);
    int rc = pg_run(d, W_GAME_END, &p, true, STORE_ERR_NOT_FOUND);
    for (int c = 0; rc == 0 && op->u.end.rated && c < 2; c++)
        rc = put_rating(d, op->u.end.player_id[c], op->u.end.category, &op->u.end.after[c],
                        op->u.end.ended_at);
    /* The moves go to the archive. */
    struct pg_params g = {0};
    pg_text(&g, op->game_id);
    if (rc == 0 && live_get(d, op->game_id, false)) {
        rc = pg_run(d, W_ARCHIVE, &g, false, 0);
        if (rc == 0) rc = pg_run(d, W_UNLOG_GAME, &g, false, 0);
    }
    if (rc == 0) live_drop(d, op->game_id);
    return rc;
}

static int put_register(struct pg_db *d, const struct store_op *op) {
    struct pg_params p = {0};
    pg_text(&p, op->player_id);
    pg_text(&p, op->u.reg.name);
    pg_text(&p, op->u.reg.username);
    pg_text(&p, op->u.reg.password_hash);
    pg_int(&p, op->u.reg.at);
    int rc = pg_run(d, W_REG, &p, true, STORE_ERR_CONFLICT);
    if (rc == 0 && op->u.reg.has_token)
        rc = put_token(d, op->player_id, op->u.reg.token_hash, STORE_TOKEN_SESSION, NULL,
                       op->u.reg.at);
    return rc;
}

static int put_import(struct pg_db *d, const struct store_op *op) {
    struct pg_params p = {0};
    pg_text(&p, op->game_id);
    pg_text_or_null(&p, op->u.import.initial_fen);
    pg_text(&p, op->u.import.white);
    pg_text(&p, op->u.import.black);
    pg_text(&p, op->u.import.result);
    pg_int(&p, op->u.import.count);
    pg_int(&p, op->u.import.at);
    pg_text_or_null(&p, op->u.import.pgn);
    pg_text_or_null(&p, op->u.import.variant);
    int rc = pg_run(d, W_IMPORT_GAME, &p, false, 0);
    for (int i = 0; rc == 0 && i < op->u.import.count; i++) {
        struct pg_params m = {0};
        params_move(&m, op->game_id, &op->u.import.moves[i]);
        rc = pg_run(d, W_IMPORT_MOVE, &m, false, 0);
    }
    return rc;
}

static int put_bot(struct pg_db *d, const struct store_op *op) {
    int64_t owned = 0;
    struct pg_params p = {0};
    pg_text(&p, op->player_id);
    int rc = select_int(d, W_BOT_COUNT, &p, STORE_ERR_NOT_FOUND, &owned);
    if (rc == 0 && owned >= op->u.bot.max_bots) rc = STORE_ERR_LIMIT;
    if (rc != 0) return rc;
    struct pg_params b = {0};
    pg_text(&b, op->u.bot.bot_id);
    pg_text(&b, op->u.bot.name);
    pg_text(&b, op->u.bot.username);
    pg_text(&b, op->player_id);
    pg_int(&b, op->u.bot.at);
    rc = pg_run(d, W_BOT_PLAYER, &b, false, 0);
    if (rc == 0)
        rc = put_token(d, op->u.bot.bot_id, op->u.bot.token_hash, STORE_TOKEN_BOT, NULL,
                       op->u.bot.at);
    return rc;
}

/* BOT_TOKEN and BOT_REVOKE: the bot is named by its username and must be the player's. */
static int put_bot_token(struct pg_db *d, const struct store_op *op) {
    struct pg_params p = {0};
    if (op->type == STORE_OP_BOT_TOKEN) {
        pg_bytes(&p, op->u.bot.token_hash, STORE_HASH_LEN);
        pg_text(&p, op->u.bot.username);
        pg_int(&p, op->u.bot.at);
        pg_text(&p, op->player_id);
        return pg_run(d, W_BOT_TOKEN, &p, true, STORE_ERR_NOT_FOUND);
    }
    int64_t unused;
    pg_text(&p, op->u.bot.username);
    pg_text(&p, op->player_id);
    int rc = select_int(d, W_BOT_FIND, &p, STORE_ERR_NOT_FOUND, &unused);
    if (rc != 0) return rc;
    pg_int(&p, op->u.bot.at);
    return pg_run(d, W_BOT_REVOKE, &p, false, 0); /* no token left to revoke is fine */
}

/* ---- accounts ---- */

/* PASSWORD_SET and SESSIONS_REVOKE: the sessions but the kept one go; a new password first. */
static int put_password(struct pg_db *d, const struct store_op *op) {
    int rc = 0;
    if (op->type == STORE_OP_PASSWORD_SET) {
        struct pg_params p = {0};
        pg_text(&p, op->player_id);
        pg_text(&p, op->u.account.password_hash);
        rc = pg_run(d, W_PASSWORD_SET, &p, true, STORE_ERR_NOT_FOUND);
    }
    if (rc != 0) return rc;
    struct pg_params r = {0};
    pg_text(&r, op->player_id);
    if (op->u.account.has_keep)
        pg_bytes(&r, op->u.account.keep, STORE_HASH_LEN);
    else
        pg_text_or_null(&r, NULL);
    pg_int(&r, op->u.account.at);
    return pg_run(d, W_REVOKE_OTHERS, &r, false, 0);
}

/* The account in id ($1) exists (it has a password and is not deleted: not a bot) and the
 * count(*) statement `count` of it is below limit: 0, NOT_FOUND, `over`, or an error. */
static int account_below(struct pg_db *d, const struct pg_params *id, int count, int64_t limit,
                         int over) {
    int64_t n = 0;
    int rc = select_int(d, W_DELETE_CHECK, id, STORE_ERR_NOT_FOUND, &n);
    if (rc == 0 && n == 0) rc = STORE_ERR_NOT_FOUND;
    if (rc == 0) rc = select_int(d, count, id, STORE_ERR_NOT_FOUND, &n);
    return rc == 0 && n >= limit ? over : rc;
}

static int put_account_delete(struct pg_db *d, const struct store_op *op) {
    int64_t at = op->u.account.at;
    struct pg_params id = {0};
    pg_text(&id, op->player_id);
    /* no game of the account or its bots in progress */
    int rc = account_below(d, &id, W_DELETE_LIVE, 1, STORE_ERR_CONFLICT);
    /* Everything that points to the players first, then the players themselves. */
    struct pg_params named = id, timed = id, both = id;
    pg_text(&named, STORE_DELETED_NAME);
    pg_int(&timed, at);
    pg_text(&both, STORE_DELETED_NAME);
    pg_int(&both, at);
    static const int anonymise[] = {W_DELETE_CHAT, W_DELETE_WHITE, W_DELETE_BLACK};
    for (size_t i = 0; rc == 0 && i < sizeof anonymise / sizeof anonymise[0]; i++)
        rc = pg_run(d, anonymise[i], &named, false, 0);
    if (rc == 0) rc = pg_run(d, W_DELETE_TOKENS, &timed, false, 0);
    if (rc == 0) rc = pg_run(d, W_DELETE_API_TOKENS, &timed, false, 0);
    if (rc == 0) rc = pg_run(d, W_DELETE_RATINGS, &id, false, 0);
    if (rc == 0) rc = pg_run(d, W_DELETE_SETTINGS, &id, false, 0);
    if (rc == 0) rc = pg_run(d, W_DELETE_PLAYERS, &both, false, 0);
    return rc;
}

/* ---- personal API access tokens ---- */

/* CREATE: an account (not a bot, not deleted) with fewer than max_tokens working tokens. */
static int put_api_token(struct pg_db *d, const struct store_op *op) {
    struct pg_params id = {0};
    pg_text(&id, op->player_id);
    int rc = account_below(d, &id, W_API_TOKEN_COUNT, op->u.api_token.max_tokens, STORE_ERR_LIMIT);
    if (rc != 0) return rc;
    struct pg_params p = {0};
    pg_bytes(&p, op->u.api_token.hash, STORE_HASH_LEN);
    pg_text(&p, op->player_id);
    pg_text(&p, op->u.api_token.description);
    pg_text(&p, op->u.api_token.scopes);
    pg_int(&p, op->u.api_token.at);
    return pg_run(d, W_API_TOKEN_ADD, &p, false, 0);
}

/* ---- computer analysis of finished games ---- */

/* REQUEST (careful mode): checked (store_analysis_refusal), then stored as this node's. */
static int put_analysis_request(struct pg_db *d, const struct store_op *op) {
    int64_t counts[STORE_ANALYSIS_COUNTS] = {0};
    struct pg_params p = {0};
    pg_text(&p, op->game_id);
    pg_text(&p, op->player_id);
    int rc = select_ints(d, W_ANALYSIS_CHECK, &p, -STORE_ERR_IO, counts, STORE_ANALYSIS_COUNTS);
    if (rc == 0) rc = store_analysis_refusal(counts, op->u.analysis.max_queue);
    if (rc != 0) return rc;
    pg_text(&p, d->node_id);
    pg_int(&p, op->u.analysis.positions);
    pg_int(&p, (int64_t)op->u.analysis.nodes);
    pg_int(&p, op->u.analysis.at);
    return pg_run(d, W_ANALYSIS_ADD, &p, false, 0);
}

/* PLY (pipelined: only a race with the analysis' end makes it fail, and then the careful retry
 * reports NOT_FOUND for it alone): written (again) while under way; the last one ends it. */
static int put_analysis_ply(struct pg_db *d, const struct store_op *op) {
    const struct store_analysis_ply *a = &op->u.analysis_ply;
    struct pg_params p = {0};
    pg_text(&p, op->game_id);
    pg_int(&p, a->ply);
    pg_int(&p, a->score);
    pg_int(&p, a->depth);
    pg_int(&p, (int64_t)a->nodes);
    pg_text(&p, a->pv);
    int rc = pg_run(d, W_ANALYSIS_PLY, &p, true, STORE_ERR_NOT_FOUND);
    if (rc != 0 || !a->last) return rc;
    struct pg_params done = {0};
    pg_text(&done, op->game_id);
    pg_int(&done, a->at);
    return pg_run(d, W_ANALYSIS_DONE, &done, false, 0);
}

/* A TAKEOVER: the games it made ours are live games the writer must know (they may have
 * started after this node's writer loaded its memory). */
static int take_over(struct pg_db *d, const struct store_op *op) {
    int rc = pg_takeover(d, op);
    if (rc == 0 && live_load(d) < 0) return -STORE_ERR_IO;
    return rc;
}

static int apply_op(struct pg_db *d, const struct store_op *op) {
    struct pg_params p = {0};
    int rc;
    switch (op->type) {
        case STORE_OP_PLAYER:
            pg_text(&p, op->player_id);
            pg_text(&p, op->u.player.name);
            pg_int(&p, op->u.player.created_at);
            rc = pg_run(d, W_PLAYER, &p, false, 0);
            if (rc == 0 && op->u.player.has_token)
                rc = put_token(d, op->player_id, op->u.player.token_hash, STORE_TOKEN_SESSION, NULL,
                               op->u.player.created_at);
            return rc;
        case STORE_OP_GAME_START: return put_game(d, op);
        case STORE_OP_MOVE: return put_move(d, op->game_id, &op->u.move);
        case STORE_OP_TAKEBACK: return put_takeback(d, op);
        case STORE_OP_GAME_END: return put_end(d, op);
        case STORE_OP_CHAT:
            pg_text(&p, op->game_id);
            pg_text(&p, op->u.chat.room == 0 ? "players" : "spectators");
            pg_text(&p, op->player_id);
            pg_text(&p, op->u.chat.name);
            pg_text(&p, op->u.chat.text ? op->u.chat.text : "");
            pg_int(&p, op->u.chat.sent_at);
            return pg_run(d, W_CHAT, &p, false, 0);
        case STORE_OP_REGISTER: return put_register(d, op);
        case STORE_OP_TOKEN_ADD:
            return put_token(d, op->player_id, op->u.token.hash, op->u.token.kind,
                             op->u.token.label, op->u.token.at);
        case STORE_OP_TOKEN_REVOKE:
            pg_bytes(&p, op->u.token.hash, STORE_HASH_LEN);
            pg_int(&p, op->u.token.at);
            return pg_run(d, W_REVOKE, &p, true, STORE_ERR_NOT_FOUND);
        case STORE_OP_IMPORT: return put_import(d, op);
        case STORE_OP_BOT_CREATE: return put_bot(d, op);
        case STORE_OP_BOT_TOKEN:
        case STORE_OP_BOT_REVOKE: return put_bot_token(d, op);
        case STORE_OP_MODERATE:
        case STORE_OP_BLOCK:
        case STORE_OP_REPORT: return pg_put_moderation(d, op);
        case STORE_OP_PASSWORD_SET:
        case STORE_OP_SESSIONS_REVOKE: return put_password(d, op);
        case STORE_OP_SESSION_REVOKE:
            pg_text(&p, op->player_id);
            pg_bytes(&p, op->u.account.session, STORE_SESSION_ID_BYTES);
            pg_int(&p, op->u.account.at);
            return pg_run(d, W_REVOKE_SESSION, &p, true, STORE_ERR_NOT_FOUND);
        case STORE_OP_TOKEN_SEEN:
            pg_bytes(&p, op->u.token.hash, STORE_HASH_LEN);
            pg_int(&p, op->u.token.at);
            return pg_run(d, W_TOKEN_SEEN, &p, false, 0);
        case STORE_OP_ACCOUNT_DELETE: return put_account_delete(d, op);
        case STORE_OP_API_TOKEN_CREATE: return put_api_token(d, op);
        case STORE_OP_API_TOKEN_REVOKE:
            pg_text(&p, op->player_id);
            pg_bytes(&p, op->u.api_token.id, STORE_SESSION_ID_BYTES);
            pg_int(&p, op->u.api_token.at);
            return pg_run(d, W_API_TOKEN_REVOKE, &p, true, STORE_ERR_NOT_FOUND);
        case STORE_OP_API_TOKEN_USED:
            pg_bytes(&p, op->u.api_token.hash, STORE_HASH_LEN);
            pg_int(&p, op->u.api_token.at);
            return pg_run(d, W_API_TOKEN_USED, &p, false, 0);
        case STORE_OP_BOT_UPGRADE:
            pg_text(&p, op->player_id);
            return pg_run(d, W_BOT_UPGRADE, &p, true, STORE_ERR_CONFLICT);
        case STORE_OP_SETTINGS_SET:
            pg_text(&p, op->player_id);
            pg_text(&p, op->u.settings.json ? op->u.settings.json : "{}");
            pg_int(&p, op->u.settings.at);
            return pg_run(d, W_SETTINGS_SET, &p, true, STORE_ERR_NOT_FOUND);
        case STORE_OP_ANALYSIS_REQUEST: return put_analysis_request(d, op);
        case STORE_OP_ANALYSIS_PLY: return put_analysis_ply(d, op);
        case STORE_OP_LEASE: return 0; /* the transaction renewed the lease */
        case STORE_OP_TAKEOVER: return take_over(d, op);
        case STORE_OP_ARENA:
        case STORE_OP_ARENA_PLAYER:
        case STORE_OP_GAME_ARENA:
        case STORE_OP_BERSERK: return pg_put_arena(d, op);
    }
    return STORE_ERR_NOT_FOUND;
}

/* Operations pipelined outside careful mode: those that cannot fail on their data in normal
 * use. The others (their outcome is expected to vary) always run alone. */
static bool pipelinable(enum store_op_type type) {
    switch (type) {
        case STORE_OP_PLAYER:
        case STORE_OP_GAME_START:
        case STORE_OP_MOVE:
        case STORE_OP_TAKEBACK:
        case STORE_OP_GAME_END:
        case STORE_OP_CHAT:
        case STORE_OP_TOKEN_ADD:
        case STORE_OP_TOKEN_SEEN:
        case STORE_OP_API_TOKEN_USED:
        case STORE_OP_ANALYSIS_PLY:
        case STORE_OP_LEASE:
        case STORE_OP_IMPORT: return true;
        default: return false;
    }
}

/* Runs sql (no parameters, no rows) at once: true when it succeeded. */
static bool exec_now(struct pg_db *d, const char *sql) {
    PGresult *r = PQexec(d->wconn, sql);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok) LOGE("store", "%s failed: %s", sql, PQerrorMessage(d->wconn));
    PQclear(r);
    return ok;
}

/* One operation alone, inside a savepoint: a failing statement undoes its operation only. */
static int apply_alone(struct pg_db *d, const struct store_op *op) {
    if (!exec_now(d, "SAVEPOINT op")) return -STORE_ERR_IO;
    int rc = apply_op(d, op);
    if (rc > 0) {
        /* Its memory changes are undone by the writer's rollback only; an operation that
         * fails changes no memory before its last statement (put_* update it at the end). */
        if (!exec_now(d, "ROLLBACK TO SAVEPOINT op")) return -STORE_ERR_IO;
    }
    if (rc >= 0 && !exec_now(d, "RELEASE SAVEPOINT op")) return -STORE_ERR_IO;
    return rc;
}

/* The node's lease is renewed first in every transaction (pg_lease.c): pipelined, a taken lease
 * fails the transaction at the commit, and the careful retry finds FENCED. */
int pg_begin(struct store_db *db) {
    struct pg_db *d = pg_db_of(db);
    if (d->careful) return exec_now(d, "BEGIN") ? pg_lease_renew(d) : -STORE_ERR_IO;
    if (pipeline_enter(d) < 0) return -STORE_ERR_IO;
    int rc = send_control(d, "BEGIN", NULL);
    if (rc < 0 || !d->leases) return rc;
    struct pg_params p = {0};
    pg_lease_params(d, &p);
    return send_control(d, PG_LEASE_RENEW_SQL, &p);
}

int pg_apply(struct store_db *db, const struct store_op *op, int *op_status) {
    struct pg_db *d = pg_db_of(db);
    int r;
    if (d->pipelined && pipelinable(op->type)) {
        r = apply_op(d, op);
    } else {
        /* Everything sent before is answered first, then this operation runs alone. */
        if (pipeline_leave(d) < 0) return -STORE_ERR_IO;
        r = apply_alone(d, op);
        if (r >= 0 && !d->careful && pipeline_enter(d) < 0) return -STORE_ERR_IO;
    }
    if (r < 0) return r;
    *op_status = -r;
    return 0;
}

int pg_commit(struct store_db *db) {
    struct pg_db *d = pg_db_of(db);
    int rc;
    if (d->pipelined) {
        if (batch_send(d) < 0 || send_control(d, "COMMIT", NULL) < 0) return -STORE_ERR_IO;
        rc = pipeline_flush(d);
    } else {
        rc = exec_now(d, "COMMIT") ? 0 : -STORE_ERR_IO;
    }
    if (rc == 0 && PQtransactionStatus(d->wconn) != PQTRANS_IDLE) {
        /* A COMMIT of a failed transaction answers ROLLBACK without an error. */
        rc = -STORE_ERR_IO;
    }
    if (rc == 0) d->careful = false;
    return rc;
}

bool pg_reachable(struct store_db *db) {
    return PQstatus(pg_db_of(db)->wconn) == CONNECTION_OK;
}

void pg_rollback(struct store_db *db) {
    struct pg_db *d = pg_db_of(db);
    batch_reset(&d->moves);
    if (PQstatus(d->wconn) == CONNECTION_BAD) {
        if (writer_reconnect(d) && live_load(d) < 0) LOGE("store", "cannot reload the live games");
        return;
    }
    if (d->pipelined) {
        pipeline_flush(d);
        if (PQexitPipelineMode(d->wconn) == 1) d->pipelined = false;
    }
    PGTransactionStatusType ts = PQtransactionStatus(d->wconn);
    if ((ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR) && !exec_now(d, "ROLLBACK"))
        LOGE("store", "rollback failed");
    /* The memory of live games changed with the transaction: back to what is committed. */
    if (live_load(d) < 0) LOGE("store", "cannot reload the live games");
}
