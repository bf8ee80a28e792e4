/*
 * The PostgreSQL backend's migrations: the files of migrations/postgresql/ (embedded at build
 * time, numbered like migrations/), applied in order, all pending ones in one transaction with
 * the version in the one-row table schema_version. Nodes starting together take turns: the
 * transaction first takes an advisory lock of its own. A schema newer than the binary knows is
 * refused (TOO_NEW), a failing migration rolls everything back (MIGRATION).
 */
#include <stdio.h>
#include <stdlib.h>

#include "store/pg_internal.h"

extern const struct store_migration store_pg_migrations[];
extern const int store_pg_migrations_count;

/* Runs sql (one or more statements, no parameters): 0, or -1 with err filled. */
static int exec(PGconn *conn, const char *sql, const char *what, char *err, size_t errlen) {
    PGresult *r = PQexec(conn, sql);
    ExecStatusType st = PQresultStatus(r);
    int rc = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? 0 : -1;
    if (rc < 0) snprintf(err, errlen, "%s: %s", what, PQerrorMessage(conn));
    PQclear(r);
    return rc;
}

/* The schema's version (0: a new database, whose schema_version gets its row). */
static int read_version(PGconn *conn, int *version, char *err, size_t errlen) {
    if (exec(conn,
             "SELECT pg_advisory_xact_lock(1128813396, 0); "
             "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
             "cannot read the schema version", err, errlen) < 0)
        return -1;
    PGresult *r = PQexec(conn, "SELECT version FROM schema_version");
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) > 1) {
        snprintf(err, errlen, "cannot read the schema version: %s", PQerrorMessage(conn));
        PQclear(r);
        return -1;
    }
    bool fresh = PQntuples(r) == 0;
    *version = fresh ? 0 : atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    if (fresh && exec(conn, "INSERT INTO schema_version (version) VALUES (0)",
                      "cannot read the schema version", err, errlen) < 0)
        return -1;
    return 0;
}

int pg_migrate(struct store_db *db, int *applied, int *version, char *err, size_t errlen) {
    *version = store_pg_migrations_count;
    return pg_migrate_apply(pg_db_of(db)->wconn, store_pg_migrations, store_pg_migrations_count,
                            applied, err, errlen);
}

int pg_migrate_apply(PGconn *conn, const struct store_migration *m, int count, int *applied,
                     char *err, size_t errlen) {
    if (applied) *applied = 0;
    int current = 0;
    if (exec(conn, "BEGIN", "cannot start the migrations", err, errlen) < 0) return -STORE_ERR_IO;
    if (read_version(conn, &current, err, errlen) < 0) goto fail;
    if (current > count) {
        snprintf(err, errlen,
                 "the database has schema version %d but this server knows only up to %d: "
                 "run a newer server (or restore a backup)",
                 current, count);
        exec(conn, "ROLLBACK", "rollback", err + 0, 0);
        return -STORE_ERR_TOO_NEW;
    }
    int done = 0;
    for (int i = current; i < count; i++) {
        char what[160], set_version[64];
        if (m[i].version != i + 1) {
            snprintf(err, errlen, "migration %s is numbered %d, expected %d", m[i].name,
                     m[i].version, i + 1);
            goto fail;
        }
        snprintf(what, sizeof what, "migration %s failed", m[i].name);
        snprintf(set_version, sizeof set_version, "UPDATE schema_version SET version = %d",
                 m[i].version);
        if (exec(conn, m[i].sql, what, err, errlen) < 0 ||
            exec(conn, set_version, what, err, errlen) < 0)
            goto fail;
        done++;
    }
    if (exec(conn, "COMMIT", "cannot commit the migrations", err, errlen) < 0) goto fail;
    if (applied) *applied = done;
    return 0;
fail:
    exec(conn, "ROLLBACK", "rollback", err + 0, 0);
    return -STORE_ERR_MIGRATION;
}
