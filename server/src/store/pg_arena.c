/*
 * The PostgreSQL backend's arena tournaments (docs/tournaments.md): the writes of ARENA,
 * ARENA_PLAYER, GAME_ARENA and BERSERK, which run alone on the writer's connection (pg_write.c:
 * they are not pipelined), the read of this node's arenas with their players and games (at
 * startup, and after a takeover), and of the operator's arenas of every node (the schedule's).
 * The same statements as sqlite_arena.c, in PostgreSQL's spelling.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg_internal.h"
#include "util/log.h"

/* ---- writes ---- */

static int run_write(struct pg_db *d, const char *sql, const struct pg_params *p) {
    PGresult *r = PQexecParams(d->wconn, sql, p->n, NULL, p->value, p->length, p->format, 0);
    int rc = 0;
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        rc = pg_error_status(r);
        if (rc == STORE_ERR_CONFLICT) rc = STORE_ERR_NOT_FOUND;
        if (rc < 0) LOGE("store", "arena write failed: %s", PQerrorMessage(d->wconn));
    }
    PQclear(r);
    return rc;
}

int pg_put_arena(struct pg_db *d, const struct store_op *op) {
    struct pg_params p = {0};
    switch (op->type) {
        case STORE_OP_ARENA:
            pg_text(&p, op->u.arena.id);
            pg_text(&p, op->u.arena.name);
            pg_text_or_null(&p, op->player_id);
            pg_text(&p, d->node_id);
            pg_int(&p, op->u.arena.initial_ms);
            pg_int(&p, op->u.arena.increment_ms);
            pg_int(&p, op->u.arena.rated ? 1 : 0);
            pg_int(&p, op->u.arena.starts_at);
            pg_int(&p, op->u.arena.minutes);
            pg_text(&p, op->u.arena.status);
            pg_int(&p, op->u.arena.created_at);
            return run_write(d,
                             "INSERT INTO arenas (id, name, creator, node, initial_ms, "
                             "increment_ms, rated, starts_at, minutes, status, created_at) VALUES "
                             "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO "
                             "UPDATE SET status = excluded.status",
                             &p);
        case STORE_OP_ARENA_PLAYER:
            pg_text(&p, op->u.arena_player.arena_id);
            pg_text(&p, op->player_id);
            pg_text(&p, op->u.arena_player.name);
            pg_int(&p, op->u.arena_player.rating);
            pg_int(&p, op->u.arena_player.seq);
            pg_int(&p, op->u.arena_player.paused ? 1 : 0);
            pg_int(&p, op->u.arena_player.at);
            return run_write(d,
                             "INSERT INTO arena_players (arena_id, player_id, name, rating, seq, "
                             "paused, joined_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT "
                             "(arena_id, player_id) DO UPDATE SET paused = excluded.paused",
                             &p);
        case STORE_OP_GAME_ARENA:
            pg_text(&p, op->game_id);
            pg_text(&p, op->u.game_arena.arena_id);
            return run_write(d, "UPDATE games SET arena_id = $2 WHERE id = $1", &p);
        case STORE_OP_BERSERK:
            pg_text(&p, op->game_id);
            return run_write(d,
                             op->u.berserk.color
                                 ? "UPDATE games SET berserk_black = 1 WHERE id = $1"
                                 : "UPDATE games SET berserk_white = 1 WHERE id = $1",
                             &p);
        default: return STORE_ERR_NOT_FOUND;
    }
}

/* ---- the startup read ---- */

static int load_one(PGconn *conn, const struct store_arena *a,
                    const struct store_arena_visitor *v) {
    struct pg_params p = {0};
    pg_text(&p, a->id);
    PGresult *r = pg_read_query(conn,
                                "SELECT player_id, name, rating, paused FROM arena_players "
                                "WHERE arena_id = $1 ORDER BY seq, player_id",
                                &p, "reading an arena's players");
    if (!r) return -STORE_ERR_IO;
    int result = 0;
    for (int i = 0; result == 0 && i < PQntuples(r); i++) {
        struct store_arena_player pl = {0};
        pg_col_text(r, i, 0, pl.player_id, sizeof pl.player_id);
        pg_col_text(r, i, 1, pl.name, sizeof pl.name);
        pl.rating = (int)pg_col_i64(r, i, 2);
        pl.paused = pg_col_i64(r, i, 3) != 0;
        result = v->player(v->ctx, a, &pl);
    }
    PQclear(r);
    if (result != 0) return result;
    r = pg_read_query(conn,
                      "SELECT id, white_id, black_id, status, result, berserk_white, "
                      "berserk_black, COALESCE(ply_count, 0) FROM games WHERE arena_id = $1 AND "
                      "status IN ('live', 'ended') ORDER BY status = 'ended', ended_at, "
                      "id COLLATE \"C\"",
                      &p, "reading an arena's games");
    if (!r) return -STORE_ERR_IO;
    for (int i = 0; result == 0 && i < PQntuples(r); i++) {
        struct store_arena_game g = {0};
        char status[12];
        pg_col_text(r, i, 0, g.id, sizeof g.id);
        pg_col_text(r, i, 1, g.player_id[0], sizeof g.player_id[0]);
        pg_col_text(r, i, 2, g.player_id[1], sizeof g.player_id[1]);
        pg_col_text(r, i, 3, status, sizeof status);
        g.live = strcmp(status, "live") == 0;
        pg_col_text(r, i, 4, g.result, sizeof g.result);
        g.berserk[0] = pg_col_i64(r, i, 5) != 0;
        g.berserk[1] = pg_col_i64(r, i, 6) != 0;
        g.ply_count = (int)pg_col_i64(r, i, 7);
        result = v->game(v->ctx, a, &g);
    }
    PQclear(r);
    return result;
}

int pg_load_arenas(struct store_reader *reader, int finished_max,
                   const struct store_arena_visitor *v) {
    struct pg_reader *rd = pg_reader_of(reader);
    struct pg_params p = {0};
    pg_text(&p, rd->db->node_id);
    pg_int(&p, finished_max);
    PGresult *r = pg_read_query(
        rd->conn,
        "SELECT id, name, COALESCE(creator, ''), initial_ms, increment_ms, rated, starts_at, "
        "minutes, status FROM arenas WHERE node = $1 AND (status <> 'finished' OR id IN (SELECT "
        "id FROM arenas WHERE node = $1 AND status = 'finished' ORDER BY created_at DESC LIMIT "
        "$2)) ORDER BY created_at, id COLLATE \"C\"",
        &p, "reading the arenas");
    if (!r) return -STORE_ERR_IO;
    int result = 0;
    for (int i = 0; result == 0 && i < PQntuples(r); i++) {
        struct store_arena a = {0};
        pg_col_text(r, i, 0, a.id, sizeof a.id);
        pg_col_text(r, i, 1, a.name, sizeof a.name);
        pg_col_text(r, i, 2, a.creator, sizeof a.creator);
        a.initial_ms = pg_col_i64(r, i, 3);
        a.increment_ms = pg_col_i64(r, i, 4);
        a.rated = pg_col_i64(r, i, 5) != 0;
        a.starts_at = pg_col_i64(r, i, 6);
        a.minutes = (int)pg_col_i64(r, i, 7);
        pg_col_text(r, i, 8, a.status, sizeof a.status);
        result = v->arena(v->ctx, &a);
        if (result == 0) result = load_one(rd->conn, &a, v);
    }
    PQclear(r);
    return result;
}

int pg_scheduled_arenas(struct store_reader *reader,
                        int (*fn)(void *ctx, const char *name, int64_t starts_at), void *ctx) {
    struct pg_reader *rd = pg_reader_of(reader);
    struct pg_params p = {0};
    PGresult *r = pg_read_query(rd->conn,
                                "SELECT name, starts_at FROM arenas WHERE creator IS NULL AND "
                                "status <> 'finished' ORDER BY starts_at, id COLLATE \"C\"",
                                &p, "reading the scheduled arenas");
    if (!r) return -STORE_ERR_IO;
    int result = 0;
    for (int i = 0; result == 0 && i < PQntuples(r); i++) {
        char name[STORE_ARENA_NAME_MAX + 1];
        pg_col_text(r, i, 0, name, sizeof name);
        result = fn(ctx, name, pg_col_i64(r, i, 1));
    }
    PQclear(r);
    return result;
}
