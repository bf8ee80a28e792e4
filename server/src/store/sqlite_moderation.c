/*
 * The SQLite backend's moderation: the reports and the moderation log, and the writes of
 * moderation operations (each logged in mod_log in the operation's own transaction). These run
 * rarely, so each statement is prepared when it runs rather than kept. A player's moderation
 * state and blocks load with every identity: those queries are sqlite_read.c's, prepared once.
 */
#include <stdio.h>
#include <string.h>

#include "store/sqlite_internal.h"
#include "util/log.h"

/* ---- statements ---- */

/* Prepares sql on conn: the statement, or NULL (logged). */
static sqlite3_stmt *prepare(sqlite3 *conn, const char *sql) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(conn, sql, -1, &st, NULL) != SQLITE_OK) {
        LOGE("store", "cannot prepare a moderation statement: %s", sqlite3_errmsg(conn));
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *text) {
    if (text && *text)
        sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

static void col_text(sqlite3_stmt *st, int i, char *out, size_t size) {
    const unsigned char *t = sqlite3_column_text(st, i);
    snprintf(out, size, "%s", t ? (const char *)t : "");
}

static int read_failed(sqlite3 *conn, int rc) {
    LOGE("store", "moderation read failed: %s (%d)", sqlite3_errmsg(conn), rc);
    return (rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB ? -STORE_ERR_CORRUPT
                                                                         : -STORE_ERR_IO;
}

/* ---- reads ---- */

static int parse_word(const char *word, const char *(*name)(int), int count) {
    for (int i = 0; i < count; i++)
        if (word && strcmp(word, name(i)) == 0) return i;
    return -1;
}

int sqlite_reports(struct store_reader *reader, bool closed, int max, struct store_report *out,
                   int *count) {
    struct sqlite_reader *r = (struct sqlite_reader *)(void *)reader;
    *count = 0;
    sqlite3_stmt *st = prepare(
        r->conn,
        "SELECT r.id, r.reporter_id, a.name, r.target_id, t.name, r.kind, r.game_id, r.text, "
        "r.created_at, r.closed_at, r.closed_by, m.name, r.note FROM reports r "
        "JOIN players a ON a.id = r.reporter_id JOIN players t ON t.id = r.target_id "
        "LEFT JOIN players m ON m.id = r.closed_by "
        "WHERE (r.closed_at IS NOT NULL) = ?1 ORDER BY r.id DESC LIMIT ?2");
    if (!st) return -STORE_ERR_IO;
    sqlite3_bind_int(st, 1, closed ? 1 : 0);
    sqlite3_bind_int(st, 2, max);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && *count < max) {
        struct store_report *o = &out[(*count)++];
        memset(o, 0, sizeof *o);
        o->id = sqlite3_column_int64(st, 0);
        col_text(st, 1, o->reporter.id, sizeof o->reporter.id);
        col_text(st, 2, o->reporter.name, sizeof o->reporter.name);
        col_text(st, 3, o->target.id, sizeof o->target.id);
        col_text(st, 4, o->target.name, sizeof o->target.name);
        int kind = parse_word((const char *)sqlite3_column_text(st, 5), store_report_kind_name,
                              STORE_REPORT_KIND_COUNT);
        o->kind = kind < 0 ? STORE_REPORT_OTHER : (enum store_report_kind)kind;
        col_text(st, 6, o->game_id, sizeof o->game_id);
        col_text(st, 7, o->text, sizeof o->text);
        o->created_at = sqlite3_column_int64(st, 8);
        o->closed_at = sqlite3_column_int64(st, 9);
        col_text(st, 10, o->closed_by.id, sizeof o->closed_by.id);
        col_text(st, 11, o->closed_by.name, sizeof o->closed_by.name);
        col_text(st, 12, o->note, sizeof o->note);
    }
    int status = rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : read_failed(r->conn, rc);
    sqlite3_finalize(st);
    return status;
}

int sqlite_mod_log(struct store_reader *reader, const char *target_id, int max,
                   struct store_mod_entry *out, int *count) {
    struct sqlite_reader *r = (struct sqlite_reader *)(void *)reader;
    *count = 0;
    sqlite3_stmt *st = prepare(
        r->conn, "SELECT l.id, l.at, l.moderator_id, m.name, l.action, l.target_id, t.name, "
                 "l.report_id, l.note FROM mod_log l "
                 "LEFT JOIN players m ON m.id = l.moderator_id "
                 "LEFT JOIN players t ON t.id = l.target_id "
                 "WHERE ?1 IS NULL OR l.target_id = ?1 ORDER BY l.id DESC LIMIT ?2");
    if (!st) return -STORE_ERR_IO;
    bind_text_or_null(st, 1, target_id);
    sqlite3_bind_int(st, 2, max);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && *count < max) {
        struct store_mod_entry *o = &out[(*count)++];
        memset(o, 0, sizeof *o);
        o->id = sqlite3_column_int64(st, 0);
        o->at = sqlite3_column_int64(st, 1);
        col_text(st, 2, o->moderator.id, sizeof o->moderator.id);
        col_text(st, 3, o->moderator.name, sizeof o->moderator.name);
        int action = parse_word((const char *)sqlite3_column_text(st, 4), store_mod_action_name,
                                STORE_MOD_ACTION_COUNT);
        o->action = action < 0 ? STORE_MOD_RESOLVE : (enum store_mod_action)action;
        col_text(st, 5, o->target.id, sizeof o->target.id);
        col_text(st, 6, o->target.name, sizeof o->target.name);
        o->report_id = sqlite3_column_int64(st, 7);
        col_text(st, 8, o->note, sizeof o->note);
    }
    int status = rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : read_failed(r->conn, rc);
    sqlite3_finalize(st);
    return status;
}

/* ---- writes (the writer thread, inside its transaction) ---- */

/*
 * Runs one prepared statement of a write: 0, a positive status that fails only this operation
 * (a missing row: NOT_FOUND), or -STORE_ERR_IO. *changed receives the rows it changed.
 */
static int run_write(struct sqlite_db *d, sqlite3_stmt *st, int *changed) {
    if (!st) return -STORE_ERR_IO;
    int rc = sqlite3_step(st);
    if (changed) *changed = sqlite3_changes(d->wdb);
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE) return 0;
    if ((rc & 0xff) == SQLITE_CONSTRAINT) return STORE_ERR_NOT_FOUND; /* a missing player */
    LOGE("store", "moderation write failed: %s (%d)", sqlite3_errmsg(d->wdb), rc);
    return -STORE_ERR_IO;
}

/* One statement that must change a row: none changed is NOT_FOUND. */
static int write_one(struct sqlite_db *d, sqlite3_stmt *st) {
    int changed = 0;
    int rc = run_write(d, st, &changed);
    return rc == 0 && changed == 0 ? STORE_ERR_NOT_FOUND : rc;
}

static int is_admin(struct sqlite_db *d, const char *player_id) {
    sqlite3_stmt *st = prepare(d->wdb, "SELECT is_admin FROM players WHERE id = ?1");
    if (!st) return -STORE_ERR_IO;
    sqlite3_bind_text(st, 1, player_id, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    int admin = rc == SQLITE_ROW && sqlite3_column_int(st, 0) != 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return -STORE_ERR_IO;
    return admin;
}

/* The player-row change of an action on a player ("" for RESOLVE). */
static const char *player_sql(enum store_mod_action action) {
    switch (action) {
        case STORE_MOD_MUTE:
            return "UPDATE players SET muted_at = COALESCE(muted_at, ?3) WHERE id = ?1";
        case STORE_MOD_UNMUTE: return "UPDATE players SET muted_at = NULL WHERE id = ?1";
        case STORE_MOD_BAN:
            return "UPDATE players SET banned_at = COALESCE(banned_at, ?3) WHERE id = ?1";
        case STORE_MOD_UNBAN: return "UPDATE players SET banned_at = NULL WHERE id = ?1";
        case STORE_MOD_CLOSE:
            return "UPDATE players SET closed_at = COALESCE(closed_at, ?3) WHERE id = ?1 "
                   "AND username IS NOT NULL";
        case STORE_MOD_REOPEN: return "UPDATE players SET closed_at = NULL WHERE id = ?1";
        case STORE_MOD_GRANT:
            /* ?4: only when the site has no admin yet (the first account). */
            return "UPDATE players SET is_admin = 1 WHERE (id = ?1 OR username = ?5) "
                   "AND username IS NOT NULL AND is_bot = 0 AND is_admin = 0 AND (?4 = 0 OR NOT "
                   "EXISTS (SELECT 1 FROM players WHERE is_admin = 1))";
        default: return "";
    }
}

static int put_moderate(struct sqlite_db *d, const struct store_op *o) {
    if (o->player_id[0]) {
        int admin = is_admin(d, o->player_id);
        if (admin < 0) return admin;
        if (!admin) return STORE_ERR_DENIED;
    }
    int rc;
    sqlite3_stmt *st;
    if (o->u.mod.action == STORE_MOD_RESOLVE) {
        st = prepare(d->wdb, "UPDATE reports SET closed_at = ?2, closed_by = ?3, note = ?4 "
                             "WHERE id = ?1 AND closed_at IS NULL");
        if (st) {
            sqlite3_bind_int64(st, 1, o->u.mod.report_id);
            sqlite3_bind_int64(st, 2, o->u.mod.at);
            sqlite3_bind_text(st, 3, o->player_id, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 4, o->u.mod.note, -1, SQLITE_STATIC);
        }
    } else {
        st = prepare(d->wdb, player_sql(o->u.mod.action));
        if (st) {
            sqlite3_bind_text(st, 1, o->u.mod.target_id, -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 3, o->u.mod.at);
            if (o->u.mod.action == STORE_MOD_GRANT) {
                sqlite3_bind_int(st, 4, o->u.mod.first_only ? 1 : 0);
                bind_text_or_null(st, 5, o->u.mod.username);
            }
        }
    }
    if ((rc = write_one(d, st)) != 0) return rc;
    st = prepare(d->wdb, "INSERT INTO mod_log (at, moderator_id, action, target_id, report_id, "
                         "note) VALUES (?1, ?2, ?3, "
                         "COALESCE(?4, (SELECT id FROM players WHERE username = ?7)), ?5, ?6)");
    if (!st) return -STORE_ERR_IO;
    sqlite3_bind_int64(st, 1, o->u.mod.at);
    bind_text_or_null(st, 2, o->player_id);
    sqlite3_bind_text(st, 3, store_mod_action_name(o->u.mod.action), -1, SQLITE_STATIC);
    bind_text_or_null(st, 4, o->u.mod.target_id);
    if (o->u.mod.report_id > 0)
        sqlite3_bind_int64(st, 5, o->u.mod.report_id);
    else
        sqlite3_bind_null(st, 5);
    sqlite3_bind_text(st, 6, o->u.mod.note, -1, SQLITE_STATIC);
    bind_text_or_null(st, 7, o->u.mod.username);
    return run_write(d, st, NULL);
}

static int put_block(struct sqlite_db *d, const struct store_op *op) {
    if (!op->u.block.on) {
        sqlite3_stmt *st =
            prepare(d->wdb, "DELETE FROM blocks WHERE player_id = ?1 AND blocked_id = ?2");
        if (!st) return -STORE_ERR_IO;
        sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, op->u.block.target_id, -1, SQLITE_STATIC);
        return run_write(d, st, NULL);
    }
    sqlite3_stmt *st =
        prepare(d->wdb, "INSERT INTO blocks (player_id, blocked_id, created_at) SELECT ?1, ?2, ?3 "
                        "WHERE (SELECT count(*) FROM blocks WHERE player_id = ?1) < ?4 "
                        "ON CONFLICT (player_id, blocked_id) DO NOTHING");
    if (!st) return -STORE_ERR_IO;
    sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, op->u.block.target_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, op->u.block.at);
    sqlite3_bind_int(st, 4, STORE_BLOCKS_MAX);
    int changed = 0;
    int rc = run_write(d, st, &changed);
    if (rc != 0 || changed) return rc;
    /* Nothing inserted: already blocked (fine), or the list is full. */
    st = prepare(d->wdb, "SELECT 1 FROM blocks WHERE player_id = ?1 AND blocked_id = ?2");
    if (!st) return -STORE_ERR_IO;
    sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, op->u.block.target_id, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    sqlite3_finalize(st);
    if (step == SQLITE_ROW) return 0;
    return step == SQLITE_DONE ? STORE_ERR_LIMIT : -STORE_ERR_IO;
}

static int put_report(struct sqlite_db *d, const struct store_op *op) {
    sqlite3_stmt *st = prepare(
        d->wdb, "INSERT INTO reports (reporter_id, target_id, kind, text, game_id, created_at) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (reporter_id, target_id) WHERE "
                "closed_at IS NULL DO UPDATE SET kind = excluded.kind, text = excluded.text, "
                "game_id = excluded.game_id, created_at = excluded.created_at");
    if (!st) return -STORE_ERR_IO;
    sqlite3_bind_text(st, 1, op->player_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, op->u.report.target_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, store_report_kind_name(op->u.report.kind), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, op->u.report.text, -1, SQLITE_STATIC);
    bind_text_or_null(st, 5, op->u.report.game_id);
    sqlite3_bind_int64(st, 6, op->u.report.at);
    return run_write(d, st, NULL);
}

int sqlite_put_moderation(struct sqlite_db *d, const struct store_op *op) {
    switch (op->type) {
        case STORE_OP_MODERATE: return put_moderate(d, op);
        case STORE_OP_BLOCK: return put_block(d, op);
        case STORE_OP_REPORT: return put_report(d, op);
        default: return STORE_ERR_NOT_FOUND;
    }
}
