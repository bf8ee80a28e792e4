/*
 * The SQLite backend's arena tournaments (docs/tournaments.md): the writes of ARENA,
 * ARENA_PLAYER, GAME_ARENA and BERSERK, the read of this node's arenas with their players and
 * games (at startup, and after a takeover), and of the operator's arenas of every node (the
 * schedule's). Arenas change rarely next to moves, so each statement is prepared when it
 * runs rather than kept.
 */
#include <stdio.h>
#include <string.h>

#include "store/sqlite_internal.h"
#include "util/log.h"

static sqlite3_stmt *prepare(sqlite3 *conn, const char *sql) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(conn, sql, -1, &st, NULL) != SQLITE_OK) {
        LOGE("store", "cannot prepare an arena statement: %s", sqlite3_errmsg(conn));
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

static void bind_text(sqlite3_stmt *st, int i, const char *text) {
    sqlite3_bind_text(st, i, text, -1, SQLITE_STATIC);
}

static void col_text(sqlite3_stmt *st, int i, char *out, size_t size) {
    const unsigned char *t = sqlite3_column_text(st, i);
    snprintf(out, size, "%s", t ? (const char *)t : "");
}

/* ---- writes ---- */

/* Runs a prepared write (finalized here): 0, or -STORE_ERR_IO (logged). */
static int run(struct sqlite_db *d, sqlite3_stmt *st) {
    if (!st) return -STORE_ERR_IO;
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE) return 0;
    LOGE("store", "arena write failed: %s (%d)", sqlite3_errmsg(d->wdb), rc);
    return -STORE_ERR_IO;
}

static int put_arena(struct sqlite_db *d, const struct store_op *op) {
    sqlite3_stmt *st = prepare(
        d->wdb, "INSERT INTO arenas (id, name, creator, node, initial_ms, increment_ms, rated, "
                "starts_at, minutes, status, created_at) VALUES (?1, ?2, NULLIF(?3, ''), ?4, ?5, "
                "?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (id) DO UPDATE SET status = "
                "excluded.status");
    if (!st) return -STORE_ERR_IO;
    bind_text(st, 1, op->u.arena.id);
    bind_text(st, 2, op->u.arena.name);
    bind_text(st, 3, op->player_id);
    bind_text(st, 4, d->node_id);
    sqlite3_bind_int64(st, 5, op->u.arena.initial_ms);
    sqlite3_bind_int64(st, 6, op->u.arena.increment_ms);
    sqlite3_bind_int(st, 7, op->u.arena.rated ? 1 : 0);
    sqlite3_bind_int64(st, 8, op->u.arena.starts_at);
    sqlite3_bind_int(st, 9, op->u.arena.minutes);
    bind_text(st, 10, op->u.arena.status);
    sqlite3_bind_int64(st, 11, op->u.arena.created_at);
    return run(d, st);
}

static int put_arena_player(struct sqlite_db *d, const struct store_op *op) {
    sqlite3_stmt *st = prepare(
        d->wdb, "INSERT INTO arena_players (arena_id, player_id, name, rating, seq, paused, "
                "joined_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (arena_id, "
                "player_id) DO UPDATE SET paused = excluded.paused");
    if (!st) return -STORE_ERR_IO;
    bind_text(st, 1, op->u.arena_player.arena_id);
    bind_text(st, 2, op->player_id);
    bind_text(st, 3, op->u.arena_player.name);
    sqlite3_bind_int(st, 4, op->u.arena_player.rating);
    sqlite3_bind_int(st, 5, op->u.arena_player.seq);
    sqlite3_bind_int(st, 6, op->u.arena_player.paused ? 1 : 0);
    sqlite3_bind_int64(st, 7, op->u.arena_player.at);
    return run(d, st);
}

int sqlite_put_arena(struct sqlite_db *d, const struct store_op *op) {
    sqlite3_stmt *st;
    switch (op->type) {
        case STORE_OP_ARENA: return put_arena(d, op);
        case STORE_OP_ARENA_PLAYER: return put_arena_player(d, op);
        case STORE_OP_GAME_ARENA:
            if ((st = prepare(d->wdb, "UPDATE games SET arena_id = ?2 WHERE id = ?1"))) {
                bind_text(st, 1, op->game_id);
                bind_text(st, 2, op->u.game_arena.arena_id);
            }
            return run(d, st);
        case STORE_OP_BERSERK:
            st = prepare(d->wdb, op->u.berserk.color ? "UPDATE games SET berserk_black = 1 "
                                                       "WHERE id = ?1"
                                                     : "UPDATE games SET berserk_white = 1 "
                                                       "WHERE id = ?1");
            if (st) bind_text(st, 1, op->game_id);
            return run(d, st);
        default: return STORE_ERR_NOT_FOUND;
    }
}

/* ---- the startup read ---- */

static int read_failed(sqlite3 *conn, int rc) {
    LOGE("store", "arena read failed: %s (%d)", sqlite3_errmsg(conn), rc);
    return (rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB ? -STORE_ERR_CORRUPT
                                                                         : -STORE_ERR_IO;
}

/* An arena's players (joining order), then its games: live first, then ended by end time. */
static int load_one(sqlite3 *conn, const struct store_arena *a,
                    const struct store_arena_visitor *v) {
    sqlite3_stmt *st = prepare(conn, "SELECT player_id, name, rating, paused FROM arena_players "
                                     "WHERE arena_id = ?1 ORDER BY seq, player_id");
    if (!st) return -STORE_ERR_IO;
    bind_text(st, 1, a->id);
    int rc, result = 0;
    while (result == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_arena_player p = {0};
        col_text(st, 0, p.player_id, sizeof p.player_id);
        col_text(st, 1, p.name, sizeof p.name);
        p.rating = sqlite3_column_int(st, 2);
        p.paused = sqlite3_column_int(st, 3) != 0;
        result = v->player(v->ctx, a, &p);
    }
    if (result == 0 && rc != SQLITE_DONE) result = read_failed(conn, rc);
    sqlite3_finalize(st);
    if (result != 0) return result;
    st = prepare(conn, "SELECT id, white_id, black_id, status, result, berserk_white, "
                       "berserk_black, COALESCE(ply_count, 0) FROM games WHERE arena_id = ?1 AND "
                       "status IN ('live', 'ended') "
                       "ORDER BY status = 'ended', ended_at, id");
    if (!st) return -STORE_ERR_IO;
    bind_text(st, 1, a->id);
    while (result == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_arena_game g = {0};
        col_text(st, 0, g.id, sizeof g.id);
        col_text(st, 1, g.player_id[0], sizeof g.player_id[0]);
        col_text(st, 2, g.player_id[1], sizeof g.player_id[1]);
        const unsigned char *status = sqlite3_column_text(st, 3);
        g.live = status && strcmp((const char *)status, "live") == 0;
        col_text(st, 4, g.result, sizeof g.result);
        g.berserk[0] = sqlite3_column_int(st, 5) != 0;
        g.berserk[1] = sqlite3_column_int(st, 6) != 0;
        g.ply_count = sqlite3_column_int(st, 7);
        result = v->game(v->ctx, a, &g);
    }
    if (result == 0 && rc != SQLITE_DONE) result = read_failed(conn, rc);
    sqlite3_finalize(st);
    return result;
}

int sqlite_load_arenas(struct store_reader *reader, int finished_max,
                       const struct store_arena_visitor *v) {
    struct sqlite_reader *r = (struct sqlite_reader *)(void *)reader;
    sqlite3_stmt *st =
        prepare(r->conn, "SELECT id, name, COALESCE(creator, ''), initial_ms, increment_ms, rated, "
                         "starts_at, minutes, status FROM arenas WHERE node = ?1 AND (status <> "
                         "'finished' OR id IN (SELECT id FROM arenas WHERE node = ?1 AND status = "
                         "'finished' ORDER BY created_at DESC LIMIT ?2)) ORDER BY created_at, id");
    if (!st) return -STORE_ERR_IO;
    bind_text(st, 1, r->db->node_id);
    sqlite3_bind_int(st, 2, finished_max);
    int rc, result = 0;
    while (result == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_arena a = {0};
        col_text(st, 0, a.id, sizeof a.id);
        col_text(st, 1, a.name, sizeof a.name);
        col_text(st, 2, a.creator, sizeof a.creator);
        a.initial_ms = sqlite3_column_int64(st, 3);
        a.increment_ms = sqlite3_column_int64(st, 4);
        a.rated = sqlite3_column_int(st, 5) != 0;
        a.starts_at = sqlite3_column_int64(st, 6);
        a.minutes = sqlite3_column_int(st, 7);
        col_text(st, 8, a.status, sizeof a.status);
        result = v->arena(v->ctx, &a);
        if (result == 0) result = load_one(r->conn, &a, v);
    }
    if (result == 0 && rc != SQLITE_DONE) result = read_failed(r->conn, rc);
    sqlite3_finalize(st);
    return result;
}

int sqlite_scheduled_arenas(struct store_reader *reader,
                            int (*fn)(void *ctx, const char *name, int64_t starts_at), void *ctx) {
    struct sqlite_reader *r = (struct sqlite_reader *)(void *)reader;
    sqlite3_stmt *st = prepare(r->conn, "SELECT name, starts_at FROM arenas WHERE creator IS NULL "
                                        "AND status <> 'finished' ORDER BY starts_at, id");
    if (!st) return -STORE_ERR_IO;
    int rc, result = 0;
    while (result == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        char name[STORE_ARENA_NAME_MAX + 1];
        col_text(st, 0, name, sizeof name);
        result = fn(ctx, name, sqlite3_column_int64(st, 1));
    }
    if (result == 0 && rc != SQLITE_DONE) result = read_failed(r->conn, rc);
    sqlite3_finalize(st);
    return result;
}
