/*
 * The PostgreSQL backend's moderation (docs/moderation.md): a player's blocks and flags for
 * its identity, reports and the moderation log for moderators, and the writes of MODERATE,
 * BLOCK and REPORT, which always run alone on the writer's connection (pg_write.c: their
 * outcome varies, so they are answered one statement at a time). The same statements as
 * sqlite_moderation.c, in PostgreSQL's spelling.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg_internal.h"
#include "util/log.h"

/* ---- reads ---- */

static int each_block(PGconn *conn, const char *player_id, int max, struct store_named *named,
                      char (*ids)[STORE_ID_MAX + 1], int *count) {
    *count = 0;
    struct pg_params p = {0};
    pg_text(&p, player_id);
    pg_int(&p, max);
    PGresult *r = pg_read_query(conn,
                                "SELECT b.blocked_id, p.name FROM blocks b JOIN players p ON "
                                "p.id = b.blocked_id WHERE b.player_id = $1 "
                                "ORDER BY b.created_at, b.blocked_id LIMIT $2",
                                &p, "reading blocks");
    if (!r) return -STORE_ERR_IO;
    for (int i = 0; i < PQntuples(r) && *count < max; i++, (*count)++) {
        if (named) {
            pg_col_text(r, i, 0, named[*count].id, sizeof named[*count].id);
            pg_col_text(r, i, 1, named[*count].name, sizeof named[*count].name);
        } else {
            pg_col_text(r, i, 0, ids[*count], sizeof ids[*count]);
        }
    }
    PQclear(r);
    return 0;
}

int pg_load_moderation(PGconn *conn, struct store_identity *id) {
    struct pg_params p = {0};
    pg_text(&p, id->player_id);
    PGresult *r = pg_read_query(
        conn, "SELECT is_admin, muted_at, banned_at, closed_at FROM players WHERE id = $1", &p,
        "reading moderation");
    if (!r) return -STORE_ERR_IO;
    if (PQntuples(r) == 1) {
        id->admin = pg_col_i64(r, 0, 0) != 0;
        id->muted = !pg_col_null(r, 0, 1);
        id->closed = !pg_col_null(r, 0, 3);
        id->banned = id->closed || !pg_col_null(r, 0, 2);
    }
    PQclear(r);
    return each_block(conn, id->player_id, STORE_BLOCKS_MAX, NULL, id->blocks, &id->block_count);
}

int pg_blocks(struct store_reader *reader, const char *player_id, int max, struct store_named *out,
              int *count) {
    return each_block(pg_reader_of(reader)->conn, player_id, max, out, NULL, count);
}

static int parse_word(const char *word, const char *(*name)(int), int count) {
    for (int i = 0; i < count; i++)
        if (word && strcmp(word, name(i)) == 0) return i;
    return -1;
}

int pg_reports(struct store_reader *reader, bool closed, int max, struct store_report *out,
               int *count) {
    *count = 0;
    struct pg_params p = {0};
    pg_bool(&p, closed);
    pg_int(&p, max);
    PGresult *r = pg_read_query(
        pg_reader_of(reader)->conn,
        "SELECT r.id, r.reporter_id, a.name, r.target_id, t.name, r.kind, r.game_id, r.text, "
        "r.created_at, r.closed_at, r.closed_by, m.name, r.note FROM reports r "
        "JOIN players a ON a.id = r.reporter_id JOIN players t ON t.id = r.target_id "
        "LEFT JOIN players m ON m.id = r.closed_by "
        "WHERE (r.closed_at IS NOT NULL) = $1 ORDER BY r.id DESC LIMIT $2",
        &p, "reading reports");
    if (!r) return -STORE_ERR_IO;
    for (int i = 0; i < PQntuples(r) && *count < max; i++) {
        struct store_report *o = &out[(*count)++];
        memset(o, 0, sizeof *o);
        o->id = pg_col_i64(r, i, 0);
        pg_col_text(r, i, 1, o->reporter.id, sizeof o->reporter.id);
        pg_col_text(r, i, 2, o->reporter.name, sizeof o->reporter.name);
        pg_col_text(r, i, 3, o->target.id, sizeof o->target.id);
        pg_col_text(r, i, 4, o->target.name, sizeof o->target.name);
        int kind = parse_word(PQgetvalue(r, i, 5), store_report_kind_name, STORE_REPORT_KIND_COUNT);
        o->kind = kind < 0 ? STORE_REPORT_OTHER : (enum store_report_kind)kind;
        pg_col_text(r, i, 6, o->game_id, sizeof o->game_id);
        pg_col_text(r, i, 7, o->text, sizeof o->text);
        o->created_at = pg_col_i64(r, i, 8);
        o->closed_at = pg_col_i64(r, i, 9);
        pg_col_text(r, i, 10, o->closed_by.id, sizeof o->closed_by.id);
        pg_col_text(r, i, 11, o->closed_by.name, sizeof o->closed_by.name);
        pg_col_text(r, i, 12, o->note, sizeof o->note);
    }
    PQclear(r);
    return 0;
}

int pg_mod_log(struct store_reader *reader, const char *target_id, int max,
               struct store_mod_entry *out, int *count) {
    *count = 0;
    struct pg_params p = {0};
    pg_text_or_null(&p, target_id);
    pg_int(&p, max);
    PGresult *r =
        pg_read_query(pg_reader_of(reader)->conn,
                      "SELECT l.id, l.at, l.moderator_id, m.name, l.action, l.target_id, "
                      "t.name, l.report_id, l.note FROM mod_log l "
                      "LEFT JOIN players m ON m.id = l.moderator_id "
                      "LEFT JOIN players t ON t.id = l.target_id "
                      "WHERE $1::text IS NULL OR l.target_id = $1 ORDER BY l.id DESC LIMIT $2",
                      &p, "reading the moderation log");
    if (!r) return -STORE_ERR_IO;
    for (int i = 0; i < PQntuples(r) && *count < max; i++) {
        struct store_mod_entry *o = &out[(*count)++];
        memset(o, 0, sizeof *o);
        o->id = pg_col_i64(r, i, 0);
        o->at = pg_col_i64(r, i, 1);
        pg_col_text(r, i, 2, o->moderator.id, sizeof o->moderator.id);
        pg_col_text(r, i, 3, o->moderator.name, sizeof o->moderator.name);
        int action = parse_word(PQgetvalue(r, i, 4), store_mod_action_name, STORE_MOD_ACTION_COUNT);
        o->action = action < 0 ? STORE_MOD_RESOLVE : (enum store_mod_action)action;
        pg_col_text(r, i, 5, o->target.id, sizeof o->target.id);
        pg_col_text(r, i, 6, o->target.name, sizeof o->target.name);
        o->report_id = pg_col_i64(r, i, 7);
        pg_col_text(r, i, 8, o->note, sizeof o->note);
    }
    PQclear(r);
    return 0;
}

/* ---- writes (the writer's transaction, each statement answered at once) ---- */

/*
 * Runs one statement of a write: 0, a positive status that fails only this operation (a
 * constraint: NOT_FOUND, as a missing player), or -STORE_ERR_IO. *changed (when not NULL)
 * receives the rows it changed.
 */
static int run_write(struct pg_db *d, const char *sql, const struct pg_params *p, int *changed) {
    PGresult *r = PQexecParams(d->wconn, sql, p->n, NULL, p->value, p->length, p->format, 0);
    ExecStatusType st = PQresultStatus(r);
    int rc = 0;
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
        if (changed) *changed = atoi(PQcmdTuples(r));
    } else {
        rc = pg_error_status(r);
        if (rc == STORE_ERR_CONFLICT) rc = STORE_ERR_NOT_FOUND;
        if (rc < 0) LOGE("store", "moderation write failed: %s", PQerrorMessage(d->wconn));
    }
    PQclear(r);
    return rc;
}

/* One statement that must change a row: none changed is NOT_FOUND. */
static int write_one(struct pg_db *d, const char *sql, const struct pg_params *p) {
    int changed = 0;
    int rc = run_write(d, sql, p, &changed);
    return rc == 0 && changed == 0 ? STORE_ERR_NOT_FOUND : rc;
}

/* 1 when the row exists, 0 when not, or -STORE_ERR_IO. */
static int exists(struct pg_db *d, const char *sql, const struct pg_params *p) {
    PGresult *r = pg_query(d->wconn, sql, p, "a moderation check");
    if (!r) return -STORE_ERR_IO;
    int found = PQntuples(r) > 0 && strcmp(PQgetvalue(r, 0, 0), "1") == 0;
    PQclear(r);
    return found;
}

/* The player-row change of an action on a player ("" for RESOLVE). */
static const char *player_sql(enum store_mod_action action) {
    switch (action) {
        case STORE_MOD_MUTE:
            return "UPDATE players SET muted_at = COALESCE(muted_at, $2) WHERE id = $1";
        case STORE_MOD_UNMUTE: return "UPDATE players SET muted_at = NULL WHERE id = $1";
        case STORE_MOD_BAN:
            return "UPDATE players SET banned_at = COALESCE(banned_at, $2) WHERE id = $1";
        case STORE_MOD_UNBAN: return "UPDATE players SET banned_at = NULL WHERE id = $1";
        case STORE_MOD_CLOSE:
            return "UPDATE players SET closed_at = COALESCE(closed_at, $2) WHERE id = $1 "
                   "AND username IS NOT NULL";
        case STORE_MOD_REOPEN: return "UPDATE players SET closed_at = NULL WHERE id = $1";
        case STORE_MOD_GRANT:
            /* $2: only when the site has no admin yet (the first account). */
            return "UPDATE players SET is_admin = 1 WHERE (id = $1 OR username = $3) "
                   "AND username IS NOT NULL AND is_bot = 0 AND is_admin = 0 AND ($2 = 0 OR NOT "
                   "EXISTS (SELECT 1 FROM players WHERE is_admin = 1))";
        default: return "";
    }
}

static bool takes_time(enum store_mod_action action) {
    return action == STORE_MOD_MUTE || action == STORE_MOD_BAN || action == STORE_MOD_CLOSE;
}

static int put_moderate(struct pg_db *d, const struct store_op *o) {
    if (o->player_id[0]) {
        struct pg_params a = {0};
        pg_text(&a, o->player_id);
        int admin = exists(d, "SELECT is_admin FROM players WHERE id = $1", &a);
        if (admin < 0) return admin;
        if (!admin) return STORE_ERR_DENIED;
    }
    struct pg_params p = {0};
    int rc;
    if (o->u.mod.action == STORE_MOD_RESOLVE) {
        pg_int(&p, o->u.mod.report_id);
        pg_int(&p, o->u.mod.at);
        pg_text(&p, o->player_id);
        pg_text(&p, o->u.mod.note);
        rc = write_one(d,
                       "UPDATE reports SET closed_at = $2, closed_by = $3, note = $4 "
                       "WHERE id = $1 AND closed_at IS NULL",
                       &p);
    } else {
        pg_text(&p, o->u.mod.target_id);
        /* PostgreSQL takes exactly the parameters a statement uses. */
        if (takes_time(o->u.mod.action)) pg_int(&p, o->u.mod.at);
        if (o->u.mod.action == STORE_MOD_GRANT) {
            pg_int(&p, o->u.mod.first_only ? 1 : 0);
            pg_text_or_null(&p, o->u.mod.username);
        }
        rc = write_one(d, player_sql(o->u.mod.action), &p);
    }
    if (rc != 0) return rc;
    struct pg_params l = {0};
    pg_int(&l, o->u.mod.at);
    pg_text_or_null(&l, o->player_id);
    pg_text(&l, store_mod_action_name(o->u.mod.action));
    pg_text_or_null(&l, o->u.mod.target_id);
    pg_opt_int(&l, o->u.mod.report_id > 0, o->u.mod.report_id);
    pg_text(&l, o->u.mod.note);
    pg_text_or_null(&l, o->u.mod.username);
    return run_write(d,
                     "INSERT INTO mod_log (at, moderator_id, action, target_id, report_id, note) "
                     "VALUES ($1, $2, $3, COALESCE($4, (SELECT id FROM players WHERE username = "
                     "$7)), $5, $6)",
                     &l, NULL);
}

static int put_block(struct pg_db *d, const struct store_op *op) {
    struct pg_params p = {0};
    pg_text(&p, op->player_id);
    pg_text(&p, op->u.block.target_id);
    if (!op->u.block.on)
        return run_write(d, "DELETE FROM blocks WHERE player_id = $1 AND blocked_id = $2", &p,
                         NULL);
    struct pg_params b = p;
    b.n = 2;
    pg_int(&b, op->u.block.at);
    pg_int(&b, STORE_BLOCKS_MAX);
    int changed = 0;
    int rc = run_write(d,
                       "INSERT INTO blocks (player_id, blocked_id, created_at) "
                       "SELECT $1, $2, $3::bigint "
                       "WHERE (SELECT count(*) FROM blocks WHERE player_id = $1) < $4 "
                       "ON CONFLICT (player_id, blocked_id) DO NOTHING",
                       &b, &changed);
    if (rc != 0 || changed) return rc;
    /* Nothing inserted: already blocked (fine), or the list is full. */
    int found = exists(d, "SELECT 1 FROM blocks WHERE player_id = $1 AND blocked_id = $2", &p);
    if (found < 0) return found;
    return found ? 0 : STORE_ERR_LIMIT;
}

static int put_report(struct pg_db *d, const struct store_op *op) {
    struct pg_params p = {0};
    pg_text(&p, op->player_id);
    pg_text(&p, op->u.report.target_id);
    pg_text(&p, store_report_kind_name(op->u.report.kind));
    pg_text(&p, op->u.report.text);
    pg_text_or_null(&p, op->u.report.game_id);
    pg_int(&p, op->u.report.at);
    return run_write(d,
                     "INSERT INTO reports (reporter_id, target_id, kind, text, game_id, "
                     "created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (reporter_id, "
                     "target_id) WHERE closed_at IS NULL DO UPDATE SET kind = excluded.kind, "
                     "text = excluded.text, game_id = excluded.game_id, created_at = "
                     "excluded.created_at",
                     &p, NULL);
}

int pg_put_moderation(struct pg_db *d, const struct store_op *op) {
    switch (op->type) {
        case STORE_OP_MODERATE: return put_moderate(d, op);
        case STORE_OP_BLOCK: return put_block(d, op);
        case STORE_OP_REPORT: return put_report(d, op);
        default: return STORE_ERR_NOT_FOUND;
    }
}
