/*
 * The SQLite backend's write session: one prepared statement per kind of row, every value bound
 * as a parameter, and prepared BEGIN IMMEDIATE / COMMIT / ROLLBACK. A statement that fails
 * because of its own data (a constraint, a type) fails only its operation, which is reported
 * and skipped; anything else (I/O, a full disk, a lock) fails the transaction, which the
 * writer thread (writer.c) rolls back and retries, so a move is never reported committed
 * unless it is.
 *
 * Moves of live games are appended to live_moves; the writer remembers each live game's rowids
 * (struct live_rows) so a takeback or the game's end touches exactly its rows without an index.
 * That memory mirrors the committed tables: it is rebuilt from them at start and after any
 * rolled-back transaction. It also stands in for a foreign key: a move is stored only for a
 * game the memory holds (stored by a GAME_START, or live at start), which costs a hash lookup
 * where the key cost SQLite an index search per move (migrations/004_live_moves_without_fk.sql).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_internal.h"
#include "util/log.h"

/* An account (?1) and the bots it owns. */
#define OWNED_PLAYERS_SQL    "(SELECT id FROM players WHERE id = ?1 OR owner_id = ?1)"
#define SESSION_ID_BYTES_SQL "8"
_Static_assert(STORE_SESSION_ID_BYTES == 8, "SESSION_ID_BYTES_SQL is STORE_SESSION_ID_BYTES");

static const char *const sql_text[] = {
    "BEGIN IMMEDIATE",
    "COMMIT",
    "ROLLBACK",
    /* player */
    "INSERT INTO players (id, name, created_at) VALUES (?1, ?2, ?3) ON CONFLICT (id) DO NOTHING",
    /* token */
    "INSERT INTO tokens (hash, player_id, kind, label, created_at) VALUES (?1, ?2, ?3, ?4, ?5) "
    "ON CONFLICT (hash) DO NOTHING",
    /* game */
    "INSERT INTO games (id, initial_fen, white_id, black_id, white_name, black_name, initial_ms, "
    "increment_ms, category, rated, status, created_at, white_rating, black_rating, node, "
    "variant, days) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'live', ?11, ?12, ?13, ?14, "
    "COALESCE(?15, 'standard'), ?16)",
    /* move */
    "INSERT INTO live_moves (game_id, ply, uci, san, clock_ms, spent_ms, played_at) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    /* unlog */
    "DELETE FROM live_moves WHERE id = ?1",
    /* set_clock */
    "UPDATE live_moves SET clock_ms = ?2 WHERE id = ?1",
    /* archive */
    "INSERT INTO moves (game_id, ply, uci, san, clock_ms, spent_ms, played_at) "
    "SELECT game_id, ply, uci, san, clock_ms, spent_ms, played_at FROM live_moves WHERE id = ?1",
    /* game_end */
    "UPDATE games SET status = 'ended', result = ?2, termination = ?3, ply_count = ?4, "
    "ended_at = ?5, white_rating_diff = ?6, black_rating_diff = ?7 "
    "WHERE id = ?1 AND status = 'live'",
    /* rating */
    "INSERT INTO ratings (player_id, category, rating, deviation, volatility, games, updated_at) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (player_id, category) DO UPDATE SET "
    "rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, "
    "games = excluded.games, updated_at = excluded.updated_at",
    /* chat */
    "INSERT INTO chat (game_id, room, player_id, name, text, sent_at) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    /* reg: a guest row becomes an account; a row that is already one is left alone */
    "INSERT INTO players (id, name, username, password_hash, created_at, registered_at) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?5) ON CONFLICT (id) DO UPDATE SET name = excluded.name, "
    "username = excluded.username, password_hash = excluded.password_hash, "
    "registered_at = excluded.registered_at WHERE players.username IS NULL",
    /* revoke */
    "UPDATE tokens SET revoked_at = ?2 WHERE hash = ?1 AND revoked_at IS NULL",
    /* import_game */
    "INSERT INTO games (id, initial_fen, white_name, black_name, status, result, termination, "
    "ply_count, created_at, ended_at, pgn, variant) "
    "VALUES (?1, ?2, ?3, ?4, 'imported', ?5, 'none', ?6, ?7, ?7, ?8, COALESCE(?9, 'standard'))",
    /* import_move */
    "INSERT INTO moves (game_id, ply, uci, san, clock_ms, spent_ms, played_at) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    /* bot_count */
    "SELECT count(*) FROM players WHERE owner_id = ?1",
    /* bot_player: no password, so nobody logs in as a bot; its tokens identify it */
    "INSERT INTO players (id, name, username, is_bot, owner_id, created_at, registered_at) "
    "VALUES (?1, ?2, ?3, 1, ?4, ?5, ?5)",
    /* bot_token */
    "INSERT INTO tokens (hash, player_id, kind, created_at) SELECT ?1, id, 'bot', ?3 "
    "FROM players WHERE username = ?2 AND owner_id = ?4 AND is_bot = 1",
    /* bot_find */
    "SELECT id FROM players WHERE username = ?1 AND owner_id = ?2 AND is_bot = 1",
    /* bot_revoke */
    "UPDATE tokens SET revoked_at = ?3 WHERE kind = 'bot' AND revoked_at IS NULL "
    "AND player_id IN (SELECT id FROM players WHERE username = ?1 AND owner_id = ?2 AND is_bot = "
    "1)",
    /* password_set: an account that can log in (not a bot, not deleted) */
    "UPDATE players SET password_hash = ?2 WHERE id = ?1 AND password_hash IS NOT NULL "
    "AND deleted_at IS NULL",
    /* revoke_others: every session but ?2 (NULL: all) */
    "UPDATE tokens SET revoked_at = ?3 WHERE player_id = ?1 AND kind = 'session' "
    "AND revoked_at IS NULL AND hash IS NOT ?2",
    /* revoke_session: by its id, the first bytes of its hash */
    "UPDATE tokens SET revoked_at = ?3 WHERE player_id = ?1 AND kind = 'session' "
    "AND revoked_at IS NULL AND substr(hash, 1, " SESSION_ID_BYTES_SQL ") = ?2",
    /* token_seen */
    "UPDATE tokens SET last_seen_at = ?2 WHERE hash = ?1 AND kind = 'session'",
    /* delete_check: the account exists */
    "SELECT count(*) FROM players WHERE id = ?1 AND password_hash IS NOT NULL "
    "AND deleted_at IS NULL",
    /* delete_live: games in progress of the account or its bots */
    "SELECT count(*) FROM games g JOIN players p ON p.id = g.white_id OR p.id = g.black_id "
    "WHERE g.status = 'live' AND (p.id = ?1 OR p.owner_id = ?1)",
    /* delete_chat, delete_white, delete_black: the account's and its bots' lines and games */
    "UPDATE chat SET player_id = '', name = ?2 WHERE player_id IN " OWNED_PLAYERS_SQL,
    "UPDATE games SET white_id = NULL, white_name = ?2 WHERE white_id IN " OWNED_PLAYERS_SQL,
    "UPDATE games SET black_id = NULL, black_name = ?2 WHERE black_id IN " OWNED_PLAYERS_SQL,
    /* delete_tokens, delete_ratings */
    "UPDATE tokens SET revoked_at = ?2 WHERE revoked_at IS NULL AND player_id "
    "IN " OWNED_PLAYERS_SQL,
    "DELETE FROM ratings WHERE player_id IN " OWNED_PLAYERS_SQL,
    /* delete_players: tombstones; the usernames stay, reserved */
    "UPDATE players SET name = ?2, password_hash = NULL, deleted_at = ?3 "
    "WHERE id = ?1 OR owner_id = ?1",
    /* api_token_count: an account's working API tokens */
    "SELECT count(*) FROM api_tokens WHERE player_id = ?1 AND revoked_at IS NULL",
    /* api_token_add */
    "INSERT INTO api_tokens (hash, player_id, description, scopes, created_at) "
    "VALUES (?1, ?2, ?3, ?4, ?5)",
    /* api_token_revoke: by its id, the first bytes of its hash */
    "UPDATE api_tokens SET revoked_at = ?3 WHERE player_id = ?1 AND revoked_at IS NULL "
    "AND substr(hash, 1, " SESSION_ID_BYTES_SQL ") = ?2",
    /* api_token_used */
    "UPDATE api_tokens SET last_used_at = ?2 WHERE hash = ?1",
    /* delete_api_tokens: the account's (bots have none) */
    "UPDATE api_tokens SET revoked_at = ?2 WHERE revoked_at IS NULL AND player_id = ?1",
    /* bot_upgrade: an account of its own (not a bot, not owned) that has played no game */
    "UPDATE players SET is_bot = 1 WHERE id = ?1 AND password_hash IS NOT NULL "
    "AND deleted_at IS NULL AND is_bot = 0 AND owner_id IS NULL "
    "AND NOT EXISTS (SELECT 1 FROM games WHERE white_id = ?1 OR black_id = ?1)",
    /* settings_set: an account's (not a bot's, not a deleted one's), replaced whole ("WHERE
     * true": an upsert's SELECT needs a WHERE before ON CONFLICT) */
    "INSERT INTO player_settings (player_id, settings, updated_at) SELECT id, ?2, ?3 "
    "FROM players WHERE id = ?1 AND password_hash IS NOT NULL AND deleted_at IS NULL "
    "AND is_bot = 0 AND true ON CONFLICT (player_id) DO UPDATE SET settings = excluded.settings, "
    "updated_at = excluded.updated_at",
    /* delete_settings */
    "DELETE FROM player_settings WHERE player_id = ?1",
    /* analysis_check: what may refuse a request (store_analysis_refusal's counts) */
    "SELECT (SELECT count(*) FROM games WHERE id = ?1 AND status <> 'live'), "
    "(SELECT count(*) FROM game_analyses WHERE game_id = ?1), "
    "(SELECT count(*) FROM game_analyses WHERE done_at IS NULL AND requested_by = ?2), "
    "(SELECT count(*) FROM game_analyses WHERE done_at IS NULL)",
    /* analysis_add */
    "INSERT INTO game_analyses (game_id, requested_by, node, positions, nodes, requested_at) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    /* analysis_ply: a position of an analysis under way, written again after a restart */
    "INSERT INTO analysis_plies (game_id, ply, score, depth, nodes, pv) "
    "SELECT game_id, ?2, ?3, ?4, ?5, ?6 FROM game_analyses WHERE game_id = ?1 "
    "AND done_at IS NULL ON CONFLICT (game_id, ply) DO UPDATE SET score = excluded.score, "
    "depth = excluded.depth, nodes = excluded.nodes, pv = excluded.pv",
    /* analysis_done */
    "UPDATE game_analyses SET done_at = ?2 WHERE game_id = ?1 AND done_at IS NULL",
    /* lease_renew: ?1 now, only while the generation is still this node's */
    "UPDATE node_leases SET renewed_at = ?1 WHERE node = ?2 AND generation = ?3",
    /* lease_take_over: node ?1's lease, not renewed since ?3, taken by ?4 at ?2 */
    "UPDATE node_leases SET generation = generation + 1, renewed_at = ?2, taken_by = ?4 "
    "WHERE node = ?1 AND renewed_at < ?3",
    /* games_take_over: node ?1's games in progress become ?2's */
    "UPDATE games SET node = ?2 WHERE node = ?1 AND status = 'live'",
    /* arenas_take_over: node ?1's arenas not finished become ?2's (docs/tournaments.md) */
    "UPDATE arenas SET node = ?2 WHERE node = ?1 AND status <> 'finished'",
};

#define STMT_COUNT (sizeof(struct writer_stmts) / sizeof(sqlite3_stmt *))
_Static_assert(STMT_COUNT == sizeof sql_text / sizeof sql_text[0], "one SQL text per statement");

static sqlite3_stmt **stmt_array(struct writer_stmts *ws) {
    return (sqlite3_stmt **)(void *)ws;
}

/* ---- live games' rows ---- */

static void live_clear(struct sqlite_db *d) {
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&d->live, &i, &key, &value);) {
        struct live_rows *rows = value;
        free(rows->rowid);
        free(rows);
    }
    strmap_free(&d->live);
}

static struct live_rows *live_get(struct sqlite_db *d, const char *game_id, bool create) {
    struct live_rows *rows = strmap_get(&d->live, game_id);
    if (rows || !create) return rows;
    rows = calloc(1, sizeof *rows);
    if (!rows) return NULL;
    snprintf(rows->id, sizeof rows->id, "%s", game_id);
    if (strmap_put(&d->live, rows->id, rows) < 0) {
        free(rows);
        return NULL;
    }
    return rows;
}

static void live_drop(struct sqlite_db *d, const char *game_id) {
    struct live_rows *rows = strmap_remove(&d->live, game_id);
    if (!rows) return;
    free(rows->rowid);
    free(rows);
}

static int live_push(struct live_rows *rows, int64_t rowid) {
    if (rows->count == rows->cap) {
        int cap = rows->cap ? rows->cap * 2 : 64;
        int64_t *grown = realloc(rows->rowid, sizeof *grown * (size_t)cap);
        if (!grown) return -1;
        rows->rowid = grown;
        rows->cap = cap;
    }
    rows->rowid[rows->count++] = rowid;
    return 0;
}

/* The games in progress, every node's (as a foreign key would, any stored game may get
 * moves), each with no rows yet. Returns an SQLite code. */
static int live_load_games(struct sqlite_db *d) {
    sqlite3_stmt *st = NULL;
    int rc =
        sqlite3_prepare_v2(d->wdb, "SELECT id FROM games WHERE status = 'live'", -1, &st, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *game = (const char *)sqlite3_column_text(st, 0);
        if (!live_get(d, game ? game : "", true)) {
            LOGE("store", "out of memory loading the live games");
            rc = SQLITE_NOMEM;
            break;
        }
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Rebuilds the memory of live games and their rows from the tables (as committed). */
static int live_load(struct sqlite_db *d) {
    live_clear(d);
    sqlite3_stmt *st = NULL;
    int rc = live_load_games(d);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(d->wdb, "SELECT id, game_id, ply FROM live_moves ORDER BY id", -1,
                                &st, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *game = (const char *)sqlite3_column_text(st, 1);
        struct live_rows *rows = live_get(d, game ? game : "", true);
        if (!rows || sqlite3_column_int(st, 2) != rows->count + 1 ||
            live_push(rows, sqlite3_column_int64(st, 0)) < 0) {
            LOGE("store", "live_moves: game=%s has rows out of order or memory ran out",
                 game ? game : "?");
            rc = SQLITE_ERROR;
            break;
        }
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE || rc == SQLITE_OK ? 0 : -STORE_ERR_IO;
}

int sqlite_session_open(struct store_db *db) {
    struct sqlite_db *d = sqlite_db_of(db);
    if (live_load(d) < 0) return -STORE_ERR_IO;
    sqlite3_stmt **st = stmt_array(&d->ws);
    for (size_t i = 0; i < STMT_COUNT; i++) {
        if (sqlite3_prepare_v3(d->wdb, sql_text[i], -1, SQLITE_PREPARE_PERSISTENT, &st[i], NULL) !=
            SQLITE_OK) {
            LOGE("store", "cannot prepare statement %zu: %s", i, sqlite3_errmsg(d->wdb));
            return -STORE_ERR_IO;
        }
    }
    return 0;
}

void sqlite_session_close(struct store_db *db) {
    struct sqlite_db *d = sqlite_db_of(db);
    live_clear(d);
    sqlite3_stmt **st = stmt_array(&d->ws);
    for (size_t i = 0; i < STMT_COUNT; i++) {
        sqlite3_finalize(st[i]);
        st[i] = NULL;
    }
}

/* ---- binding ---- */

static void bind_text(sqlite3_stmt *st, int i, const char *text) {
    if (text && *text)
        sqlite3_bind_text(st, i, text, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static void bind_opt_int(sqlite3_stmt *st, int i, bool present, int64_t value) {
    if (present)
        sqlite3_bind_int64(st, i, value);
    else
        sqlite3_bind_null(st, i);
}

/*
 * Outcome of one statement: 0, a positive store status that fails only this operation, or
 * -STORE_ERR_IO for a failure of the whole transaction.
 */
enum { OP_OK = 0 };

static int step(struct sqlite_db *d, sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE) return OP_OK;
    switch (rc & 0xff) {
        case SQLITE_CONSTRAINT:
            if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
                return STORE_ERR_CONFLICT;
            /* fall through */
        case SQLITE_MISMATCH:
        case SQLITE_TOOBIG:
        case SQLITE_RANGE:
            LOGW("store", "statement refused: %s", sqlite3_errmsg(d->wdb));
            return STORE_ERR_NOT_FOUND;
        default:
            LOGE("store", "write failed: %s (%d)", sqlite3_errmsg(d->wdb), rc);
            return -STORE_ERR_IO;
    }
}

/* A statement that must change a row: none changed is `none`. */
static int step_changed(struct sqlite_db *d, sqlite3_stmt *st, int none) {
    int rc = step(d, st);
    if (rc == OP_OK && sqlite3_changes(d->wdb) == 0) return none;
    return rc;
}

static int put_token(struct sqlite_db *d, const char *player_id, const uint8_t *hash,
                     enum store_token_kind kind, const char *label, int64_t at) {
    sqlite3_stmt *st = d->ws.token;
    sqlite3_bind_blob(st, 1, hash, STORE_HASH_LEN, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, player_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, kind == STORE_TOKEN_BOT ? "bot" : "session", -1, SQLITE_STATIC);
    bind_text(st, 4, label);
    sqlite3_bind_int64(st, 5, at);
    return step(d, st);
}

static void bind_move(sqlite3_stmt *st, const char *game_id, const struct store_move_row *m) {
    sqlite3_bind_text(st, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, m->ply);
    sqlite3_bind_text(st, 3, m->uci, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, m->san, -1, SQLITE_STATIC);
    bind_opt_int(st, 5, m->timed, m->clock_ms);
    bind_opt_int(st, 6, m->timed, m->spent_ms);
    sqlite3_bind_int64(st, 7, m->played_at);
}

/* A live game's move: appended to live_moves; the game must be stored, the move its next
 * ply. */
static int put_move(struct sqlite_db *d, const char *game_id, const struct store_move_row *m) {
    struct live_rows *rows = live_get(d, game_id, false);
    if (!rows) {
        LOGW("store", "game=%s: move for a game that is not stored", game_id);
        return STORE_ERR_NOT_FOUND;
    }
    if (m->ply != rows->count + 1) {
        LOGW("store", "game=%s: move for ply %d, expected %d", game_id, m->ply, rows->count + 1);
        return STORE_ERR_CONFLICT;
    }
    bind_move(d->ws.move, game_id, m);
    int rc = step(d, d->ws.move);
    if (rc == OP_OK && live_push(rows, sqlite3_last_insert_rowid(d->wdb)) < 0) return -STORE_ERR_IO;
    return rc;
}

static int run_id(struct sqlite_db *d, sqlite3_stmt *st, int64_t rowid) {
    sqlite3_bind_int64(st, 1, rowid);
    return step(d, st);
}

static int put_game(struct sqlite_db *d, const struct store_op *op) {
    sqlite3_stmt *st = d->ws.game;
    bool timed = !op->u.start.unlimited; /* a daily game stores 0 and 0 */
    sqlite3_bind_text(st, 1, op->game_id, -1, SQLITE_STATIC);
    bind_text(st, 2, op->u.start.initial_fen);
    for (int c = 0; c < 2; c++) {
        bind_text(st, 3 + c, op->u.start.player_id[c]);
        sqlite3_bind_text(st, 5 + c, op->u.start.name[c], -1, SQLITE_STATIC);
    }
    bind_opt_int(st, 7, timed, op->u.start.initial_ms);
    bind_opt_int(st, 8, timed, op->u.start.increment_ms);
    bind_text(st, 9, op->u.start.category); /* "": NULL */
    sqlite3_bind_int(st, 10, op->u.start.rated);
    sqlite3_bind_int64(st, 11, op->u.start.created_at);
    bind_opt_int(st, 12, op->u.start.rated, op->u.start.rating[0]);
    bind_opt_int(st, 13, op->u.start.rated, op->u.start.rating[1]);
    sqlite3_bind_text(st, 14, d->node_id, -1, SQLITE_STATIC);
    bind_text(st, 15, op->u.start.variant); /* "": NULL, stored as 'standard' */
    bind_opt_int(st, 16, op->u.start.days > 0, op->u.start.days);
    int rc = step(d, st);
    /* Out of memory: the transaction is retried, then the writer gives up. */
    if (rc == OP_OK && !live_get(d, op->game_id, true)) return -STORE_ERR_IO;
    return rc;
}

static int put_takeback(struct sqlite_db *d, const struct store_op *op) {
    struct live_rows *rows = live_get(d, op->game_id, false);
    int rc = OP_OK;
    while (rc == OP_OK && rows && rows->count > op->u.takeback.ply) {
        rc = run_id(d, d->ws.unlog, rows->rowid[rows->count - 1]);
        if (rc == OP_OK) rows->count--;
    }
    /* The clocks as they are now go on each side's last remaining move. */
    for (int back = 0; rc == OP_OK && rows && op->u.takeback.timed && back < 2; back++) {
        int ply = rows->count - back;
        if (ply < 1) break;
        int mover = (ply - 1) % 2; /* White makes odd plies */
        sqlite3_stmt *st = d->ws.set_clock;
        sqlite3_bind_int64(st, 1, rows->rowid[ply - 1]);
        sqlite3_bind_int64(st, 2, op->u.takeback.clock_ms[mover]);
        rc = step(d, st);
    }
    return rc;
}

static int put_rating(struct sqlite_db *d, const char *player_id, int category,
                      const struct rating *r, int64_t at) {
    sqlite3_stmt *st = d->ws.rating;
    sqlite3_bind_text(st, 1, player_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, rating_category_name(category), -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 3, r->rating);
    sqlite3_bind_double(st, 4, r->deviation);
    sqlite3_bind_double(st, 5, r->volatility);
    sqlite3_bind_int(st, 6, r->games);
    sqlite3_bind_int64(st, 7, at);
    return step(d, st);
}

static int put_end(struct sqlite_db *d, const struct store_op *op) {
    sqlite3_stmt *st = d->ws.game_end;
    sqlite3_bind_text(st, 1, op->game_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, op->u.end.result, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, op->u.end.termination, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, op->u.end.ply_count);
    sqlite3_bind_int64(st, 5, op->u.end.ended_at);
    bind_opt_int(st, 6, op->u.end.rated, op->u.end.diff[0]);
    bind_opt_int(st, 7, op->u.end.rated, op->u.end.diff[1]);
    int rc = step_changed(d, st, STORE_ERR_NOT_FOUND);
    for (int c = 0; rc == OP_OK && op->u.end.rated && c < 2; c++)
        rc = put_rating(d, op->u.end.player_id[c], op->u.end.category, &op->u.end.after[c],
                        op->u.end.ended_at);
    /* The moves go to the archive, ordered by game. */
    struct live_rows *rows = live_get(d, op->game_id, false);
    for (int i = 0; rc == OP_OK && rows && i < rows->count; i++) {
        rc = run_id(d, d->ws.archive, rows->rowid[i]);
        if (rc == OP_OK) rc = run_id(d, d->ws.unlog, rows->rowid[i]);
    }
    if (rc == OP_OK) live_drop(d, op->game_id);
    return rc;
}

static int put_register(struct sqlite_db *d, const struct store_op *op) {
    sqlite3_stmt *st = d->ws.reg;
    sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, op->u.reg.name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, op->u.reg.username, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, op->u.reg.password_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, op->u.reg.at);
    int rc = step_changed(d, st, STORE_ERR_CONFLICT);
    if (rc == OP_OK && op->u.reg.has_token)
        rc = put_token(d, op->player_id, op->u.reg.token_hash, STORE_TOKEN_SESSION, NULL,
                       op->u.reg.at);
    return rc;
}

static int put_import(struct sqlite_db *d, const struct store_op *op) {
    sqlite3_stmt *st = d->ws.import_game;
    sqlite3_bind_text(st, 1, op->game_id, -1, SQLITE_STATIC);
    bind_text(st, 2, op->u.import.initial_fen);
    sqlite3_bind_text(st, 3, op->u.import.white, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, op->u.import.black, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, op->u.import.result, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 6, op->u.import.count);
    sqlite3_bind_int64(st, 7, op->u.import.at);
    bind_text(st, 8, op->u.import.pgn);
    bind_text(st, 9, op->u.import.variant);
    int rc = step(d, st);
    for (int i = 0; rc == OP_OK && i < op->u.import.count; i++) {
        bind_move(d->ws.import_move, op->game_id, &op->u.import.moves[i]);
        rc = step(d, d->ws.import_move);
    }
    return rc;
}

/* A query of one row of n integer columns: values, or `none` when there is no row. */
static int select_ints(struct sqlite_db *d, sqlite3_stmt *st, int none, int64_t *values, int n) {
    int rc = sqlite3_step(st);
    for (int i = 0; rc == SQLITE_ROW && i < n; i++) values[i] = sqlite3_column_int64(st, i);
    sqlite3_reset(st);
    if (rc == SQLITE_ROW) return OP_OK;
    if (rc == SQLITE_DONE) return none;
    LOGE("store", "read in a write failed: %s (%d)", sqlite3_errmsg(d->wdb), rc);
    return -STORE_ERR_IO;
}

/* A query of one row and one integer column: *value, or `none` when there is no row. */
static int select_int(struct sqlite_db *d, sqlite3_stmt *st, int none, int64_t *value) {
    return select_ints(d, st, none, value, 1);
}

static int put_bot(struct sqlite_db *d, const struct store_op *op) {
    int64_t owned = 0;
    sqlite3_stmt *st = d->ws.bot_count;
    sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
    int rc = select_int(d, st, STORE_ERR_NOT_FOUND, &owned);
    if (rc == OP_OK && owned >= op->u.bot.max_bots) rc = STORE_ERR_LIMIT;
    if (rc != OP_OK) return rc;
    st = d->ws.bot_player;
    sqlite3_bind_text(st, 1, op->u.bot.bot_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, op->u.bot.name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, op->u.bot.username, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, op->player_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, op->u.bot.at);
    rc = step(d, st);
    if (rc == OP_OK)
        rc = put_token(d, op->u.bot.bot_id, op->u.bot.token_hash, STORE_TOKEN_BOT, NULL,
                       op->u.bot.at);
    return rc;
}

/* BOT_TOKEN and BOT_REVOKE: the bot is named by its username and must be the player's. */
static int put_bot_token(struct sqlite_db *d, const struct store_op *op) {
    sqlite3_stmt *st;
    if (op->type == STORE_OP_BOT_TOKEN) {
        st = d->ws.bot_token;
        sqlite3_bind_blob(st, 1, op->u.bot.token_hash, STORE_HASH_LEN, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, op->u.bot.username, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, op->u.bot.at);
        sqlite3_bind_text(st, 4, op->player_id, -1, SQLITE_STATIC);
        return step_changed(d, st, STORE_ERR_NOT_FOUND);
    }
    int64_t unused;
    st = d->ws.bot_find;
    sqlite3_bind_text(st, 1, op->u.bot.username, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, op->player_id, -1, SQLITE_STATIC);
    int rc = select_int(d, st, STORE_ERR_NOT_FOUND, &unused);
    if (rc != OP_OK) return rc;
    st = d->ws.bot_revoke;
    sqlite3_bind_text(st, 1, op->u.bot.username, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, op->player_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, op->u.bot.at);
    return step(d, st); /* no token left to revoke is fine */
}

/* ---- accounts ---- */

/* Binds the player id (?1) and the blob (?2, NULL when absent), and the time (?3). */
static void bind_account(sqlite3_stmt *st, const struct store_op *op, const uint8_t *blob,
                         int blob_len) {
    sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
    if (blob)
        sqlite3_bind_blob(st, 2, blob, blob_len, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 2);
    sqlite3_bind_int64(st, 3, op->u.account.at);
}

/* PASSWORD_SET and SESSIONS_REVOKE: the sessions but the kept one go; a new password first. */
static int put_password(struct sqlite_db *d, const struct store_op *op) {
    int rc = OP_OK;
    if (op->type == STORE_OP_PASSWORD_SET) {
        sqlite3_stmt *st = d->ws.password_set;
        sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, op->u.account.password_hash, -1, SQLITE_STATIC);
        rc = step_changed(d, st, STORE_ERR_NOT_FOUND);
    }
    if (rc != OP_OK) return rc;
    bind_account(d->ws.revoke_others, op, op->u.account.has_keep ? op->u.account.keep : NULL,
                 STORE_HASH_LEN);
    return step(d, d->ws.revoke_others);
}

/* Runs one of the deletion's statements on the account (?1) with ?2 and, when at >= 0, ?3. */
static int delete_step(struct sqlite_db *d, sqlite3_stmt *st, const struct store_op *op,
                       const char *text, int64_t at) {
    sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
    if (text) sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
    if (at >= 0) sqlite3_bind_int64(st, text ? 3 : 2, at);
    return step(d, st);
}

/* The account player_id exists (it has a password and is not deleted: not a bot) and the
 * count(*) statement `count` of it (?1) is below limit: OP_OK, NOT_FOUND, `over`, or an error. */
static int account_below(struct sqlite_db *d, const char *player_id, sqlite3_stmt *count,
                         int64_t limit, int over) {
    int64_t n = 0;
    sqlite3_bind_text(d->ws.delete_check, 1, player_id, -1, SQLITE_STATIC);
    int rc = select_int(d, d->ws.delete_check, STORE_ERR_NOT_FOUND, &n);
    if (rc == OP_OK && n == 0) rc = STORE_ERR_NOT_FOUND;
    if (rc != OP_OK) return rc;
    sqlite3_bind_text(count, 1, player_id, -1, SQLITE_STATIC);
    rc = select_int(d, count, STORE_ERR_NOT_FOUND, &n);
    return rc == OP_OK && n >= limit ? over : rc;
}

static int put_account_delete(struct sqlite_db *d, const struct store_op *op) {
    int64_t at = op->u.account.at;
    /* no game of the account or its bots in progress */
    int rc = account_below(d, op->player_id, d->ws.delete_live, 1, STORE_ERR_CONFLICT);
    /* Everything that points to the players first, then the players themselves. */
    sqlite3_stmt *const anonymise[] = {d->ws.delete_chat, d->ws.delete_white, d->ws.delete_black};
    for (size_t i = 0; rc == OP_OK && i < sizeof anonymise / sizeof anonymise[0]; i++)
        rc = delete_step(d, anonymise[i], op, STORE_DELETED_NAME, -1);
    if (rc == OP_OK) rc = delete_step(d, d->ws.delete_tokens, op, NULL, at);
    if (rc == OP_OK) rc = delete_step(d, d->ws.delete_api_tokens, op, NULL, at);
    if (rc == OP_OK) rc = delete_step(d, d->ws.delete_ratings, op, NULL, -1);
    if (rc == OP_OK) rc = delete_step(d, d->ws.delete_settings, op, NULL, -1);
    if (rc == OP_OK) rc = delete_step(d, d->ws.delete_players, op, STORE_DELETED_NAME, at);
    return rc;
}

/* ---- personal API access tokens ---- */

/* CREATE: an account (not a bot, not deleted) with fewer than max_tokens working tokens. */
static int put_api_token(struct sqlite_db *d, const struct store_op *op) {
    int rc = account_below(d, op->player_id, d->ws.api_token_count, op->u.api_token.max_tokens,
                           STORE_ERR_LIMIT);
    if (rc != OP_OK) return rc;
    sqlite3_stmt *st = d->ws.api_token_add;
    sqlite3_bind_blob(st, 1, op->u.api_token.hash, STORE_HASH_LEN, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, op->player_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, op->u.api_token.description, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, op->u.api_token.scopes, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, op->u.api_token.at);
    return step(d, st);
}

/* ---- computer analysis of finished games ---- */

/* REQUEST: checked (store_analysis_refusal), then stored as this node's. */
static int put_analysis_request(struct sqlite_db *d, const struct store_op *op) {
    int64_t counts[STORE_ANALYSIS_COUNTS] = {0};
    sqlite3_stmt *st = d->ws.analysis_check;
    sqlite3_bind_text(st, 1, op->game_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, op->player_id, -1, SQLITE_STATIC);
    int rc = select_ints(d, st, -STORE_ERR_IO, counts, STORE_ANALYSIS_COUNTS);
    if (rc == OP_OK) rc = store_analysis_refusal(counts, op->u.analysis.max_queue);
    if (rc != OP_OK) return rc;
    st = d->ws.analysis_add;
    sqlite3_bind_text(st, 1, op->game_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, op->player_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, d->node_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, op->u.analysis.positions);
    sqlite3_bind_int64(st, 5, (int64_t)op->u.analysis.nodes);
    sqlite3_bind_int64(st, 6, op->u.analysis.at);
    return step(d, st);
}

/* PLY: written (again) while the analysis is under way; the last one ends it. */
static int put_analysis_ply(struct sqlite_db *d, const struct store_op *op) {
    const struct store_analysis_ply *p = &op->u.analysis_ply;
    sqlite3_stmt *st = d->ws.analysis_ply;
    sqlite3_bind_text(st, 1, op->game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, p->ply);
    sqlite3_bind_int(st, 3, p->score);
    sqlite3_bind_int(st, 4, p->depth);
    sqlite3_bind_int64(st, 5, (int64_t)p->nodes);
    sqlite3_bind_text(st, 6, p->pv, -1, SQLITE_STATIC);
    int rc = step_changed(d, st, STORE_ERR_NOT_FOUND);
    if (rc != OP_OK || !p->last) return rc;
    st = d->ws.analysis_done;
    sqlite3_bind_text(st, 1, op->game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, p->at);
    return step(d, st);
}

/* A TAKEOVER: the games it made ours are live games the writer must know (they may have
 * started after this node's writer loaded its memory). */
static int take_over(struct sqlite_db *d, const struct store_op *op) {
    int rc = sqlite_takeover(d, op);
    if (rc == OP_OK && live_load(d) < 0) return -STORE_ERR_IO;
    return rc;
}

static int apply_op(struct sqlite_db *d, const struct store_op *op) {
    sqlite3_stmt *st;
    int rc;
    switch (op->type) {
        case STORE_OP_PLAYER:
            st = d->ws.player;
            sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 2, op->u.player.name, -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 3, op->u.player.created_at);
            rc = step(d, st);
            if (rc == OP_OK && op->u.player.has_token)
                rc = put_token(d, op->player_id, op->u.player.token_hash, STORE_TOKEN_SESSION, NULL,
                               op->u.player.created_at);
            return rc;
        case STORE_OP_GAME_START: return put_game(d, op);
        case STORE_OP_MOVE: return put_move(d, op->game_id, &op->u.move);
        case STORE_OP_TAKEBACK: return put_takeback(d, op);
        case STORE_OP_GAME_END: return put_end(d, op);
        case STORE_OP_CHAT:
            st = d->ws.chat;
            sqlite3_bind_text(st, 1, op->game_id, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 2, op->u.chat.room == 0 ? "players" : "spectators", -1,
                              SQLITE_STATIC);
            sqlite3_bind_text(st, 3, op->player_id, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 4, op->u.chat.name, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 5, op->u.chat.text ? op->u.chat.text : "", -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 6, op->u.chat.sent_at);
            return step(d, st);
        case STORE_OP_REGISTER: return put_register(d, op);
        case STORE_OP_TOKEN_ADD:
            return put_token(d, op->player_id, op->u.token.hash, op->u.token.kind,
                             op->u.token.label, op->u.token.at);
        case STORE_OP_TOKEN_REVOKE:
            st = d->ws.revoke;
            sqlite3_bind_blob(st, 1, op->u.token.hash, STORE_HASH_LEN, SQLITE_STATIC);
            sqlite3_bind_int64(st, 2, op->u.token.at);
            return step_changed(d, st, STORE_ERR_NOT_FOUND);
        case STORE_OP_IMPORT: return put_import(d, op);
        case STORE_OP_BOT_CREATE: return put_bot(d, op);
        case STORE_OP_BOT_TOKEN:
        case STORE_OP_BOT_REVOKE: return put_bot_token(d, op);
        case STORE_OP_MODERATE:
        case STORE_OP_BLOCK:
        case STORE_OP_REPORT: return sqlite_put_moderation(d, op);
        case STORE_OP_PASSWORD_SET:
        case STORE_OP_SESSIONS_REVOKE: return put_password(d, op);
        case STORE_OP_SESSION_REVOKE:
            bind_account(d->ws.revoke_session, op, op->u.account.session, STORE_SESSION_ID_BYTES);
            return step_changed(d, d->ws.revoke_session, STORE_ERR_NOT_FOUND);
        case STORE_OP_TOKEN_SEEN:
            st = d->ws.token_seen;
            sqlite3_bind_blob(st, 1, op->u.token.hash, STORE_HASH_LEN, SQLITE_STATIC);
            sqlite3_bind_int64(st, 2, op->u.token.at);
            return step(d, st);
        case STORE_OP_ACCOUNT_DELETE: return put_account_delete(d, op);
        case STORE_OP_API_TOKEN_CREATE: return put_api_token(d, op);
        case STORE_OP_API_TOKEN_REVOKE:
            st = d->ws.api_token_revoke;
            sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
            sqlite3_bind_blob(st, 2, op->u.api_token.id, STORE_SESSION_ID_BYTES, SQLITE_STATIC);
            sqlite3_bind_int64(st, 3, op->u.api_token.at);
            return step_changed(d, st, STORE_ERR_NOT_FOUND);
        case STORE_OP_API_TOKEN_USED:
            st = d->ws.api_token_used;
            sqlite3_bind_blob(st, 1, op->u.api_token.hash, STORE_HASH_LEN, SQLITE_STATIC);
            sqlite3_bind_int64(st, 2, op->u.api_token.at);
            return step(d, st);
        case STORE_OP_BOT_UPGRADE:
            st = d->ws.bot_upgrade;
            sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
            return step_changed(d, st, STORE_ERR_CONFLICT);
        case STORE_OP_SETTINGS_SET:
            st = d->ws.settings_set;
            sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 2, op->u.settings.json ? op->u.settings.json : "{}", -1,
                              SQLITE_STATIC);
            sqlite3_bind_int64(st, 3, op->u.settings.at);
            return step_changed(d, st, STORE_ERR_NOT_FOUND);
        case STORE_OP_ANALYSIS_REQUEST: return put_analysis_request(d, op);
        case STORE_OP_ANALYSIS_PLY: return put_analysis_ply(d, op);
        case STORE_OP_LEASE: return OP_OK; /* the transaction renewed the lease */
        case STORE_OP_TAKEOVER: return take_over(d, op);
        case STORE_OP_ARENA:
        case STORE_OP_ARENA_PLAYER:
        case STORE_OP_GAME_ARENA:
        case STORE_OP_BERSERK: return sqlite_put_arena(d, op);
    }
    return STORE_ERR_NOT_FOUND;
}

/* BEGIN, COMMIT or ROLLBACK. Returns true when it succeeded. */
static bool run_control(sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE;
}

int sqlite_begin(struct store_db *db) {
    struct sqlite_db *d = sqlite_db_of(db);
    if (!run_control(d->ws.begin)) {
        LOGE("store", "BEGIN failed: %s", sqlite3_errmsg(d->wdb));
        return -STORE_ERR_IO;
    }
    return sqlite_lease_renew(d); /* first, so that a fenced node writes nothing */
}

int sqlite_apply(struct store_db *db, const struct store_op *op, int *op_status) {
    int r = apply_op(sqlite_db_of(db), op);
    if (r < 0) return r;
    *op_status = -r;
    return 0;
}

int sqlite_commit(struct store_db *db) {
    struct sqlite_db *d = sqlite_db_of(db);
    if (run_control(d->ws.commit)) return 0;
    LOGE("store", "COMMIT failed: %s", sqlite3_errmsg(d->wdb));
    return -STORE_ERR_IO;
}

void sqlite_rollback(struct store_db *db) {
    struct sqlite_db *d = sqlite_db_of(db);
    if (!sqlite3_get_autocommit(d->wdb) && !run_control(d->ws.rollback))
        LOGE("store", "rollback failed: %s", sqlite3_errmsg(d->wdb));
    /* The memory of live rows changed with the transaction: back to what is committed. */
    if (live_load(d) < 0) LOGE("store", "cannot reload live_moves");
}

/*
 * The WAL's hard bound. The checkpoint thread's catch-up checkpoints normally let the WAL start
 * again (sqlite.c, on_wal_commit), but nothing guarantees it: commits that follow each other
 * without a pause can keep it from ever starting again. Past the bound the writer truncates the
 * WAL itself (a TRUNCATE checkpoint waits for readers and copies what is left). Commits, and the
 * messages held for them, wait meanwhile; the loop does not. If it cannot (a reader stayed too
 * long), the next try waits for another quarter of the bound. Writer thread.
 */
void sqlite_maintain(struct store_db *db) {
    struct sqlite_db *d = sqlite_db_of(db);
    if (d->wal_frames < d->wal_bound) return;
    int log = 0, done = 0;
    int rc = sqlite3_wal_checkpoint_v2(d->wdb, NULL, SQLITE_CHECKPOINT_TRUNCATE, &log, &done);
    if (rc != SQLITE_OK) {
        LOGW("store", "the WAL has %d pages and could not be truncated: %s", d->wal_frames,
             sqlite3_errmsg(d->wdb));
        d->wal_bound = d->wal_frames + d->opt.wal_limit_frames / 4;
        return;
    }
    LOGW("store", "the WAL reached %d pages (checkpoints fell behind): truncated", d->wal_frames);
    d->wal_frames = 0;
    d->wal_bound = d->opt.wal_limit_frames;
    pthread_mutex_lock(&d->lock);
    d->wal_truncations++;
    pthread_mutex_unlock(&d->lock);
}
