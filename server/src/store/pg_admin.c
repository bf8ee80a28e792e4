/*
 * The PostgreSQL backend's tools for operators (store.h, backend.h): changes made from the
 * command line on the database, beside servers that may be running on it. They take neither a
 * node's lock nor the schema's migrations: one connection of their own and one short
 * transaction, on a database whose schema this binary knows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg_internal.h"

extern const int store_pg_migrations_count;

/* Connects and checks the schema: 0, or a negative status with err filled (*out set either
 * way: NULL or a connection to finish). */
static int open_existing(const struct store_config *cfg, PGconn **out, char *err, size_t errlen) {
    *out = pg_connect(cfg->location ? cfg->location : "", false, err, errlen);
    if (!*out) return -STORE_ERR_UNREACHABLE;
    PGresult *r = PQexec(*out, "SELECT version FROM schema_version");
    int version =
        PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 ? atoi(PQgetvalue(r, 0, 0)) : 0;
    PQclear(r);
    if (version < 1) {
        snprintf(err, errlen, "the database holds no chess server data");
        return -STORE_ERR_LOCATION;
    }
    if (version > store_pg_migrations_count) {
        snprintf(err, errlen, "the database has schema version %d, newer than this binary's %d",
                 version, store_pg_migrations_count);
        return -STORE_ERR_TOO_NEW;
    }
    return 0;
}

/* Runs sql with p: the rows it changed, or -1 with err filled. */
static int run(PGconn *conn, const char *sql, const struct pg_params *p, char *err, size_t errlen) {
    PGresult *r = PQexecParams(conn, sql, p ? p->n : 0, NULL, p ? p->value : NULL,
                               p ? p->length : NULL, p ? p->format : NULL, 0);
    int changed = PQresultStatus(r) == PGRES_COMMAND_OK ? atoi(PQcmdTuples(r)) : -1;
    if (changed < 0) snprintf(err, errlen, "cannot change the database: %s", PQerrorMessage(conn));
    PQclear(r);
    return changed;
}

int pg_reset_password(const struct store_config *cfg, const char *username,
                      const char *password_hash, int64_t at, int *revoked, char *err,
                      size_t errlen) {
    PGconn *conn = NULL;
    *revoked = 0;
    int status = open_existing(cfg, &conn, err, errlen);
    if (status < 0) goto done;
    status = -STORE_ERR_IO;
    if (run(conn, "BEGIN", NULL, err, errlen) < 0) goto done;
    /* An account that can log in: guests, bots and deleted accounts have no password. */
    struct pg_params p = {0};
    pg_text(&p, username);
    pg_text(&p, password_hash);
    int changed = run(conn,
                      "UPDATE players SET password_hash = $2 WHERE username = $1 "
                      "AND password_hash IS NOT NULL",
                      &p, err, errlen);
    if (changed == 0) {
        snprintf(err, errlen, "no account named %s", username);
        status = -STORE_ERR_NOT_FOUND;
    }
    if (changed <= 0) goto rollback;
    struct pg_params t = {0};
    pg_text(&t, username);
    pg_int(&t, at);
    int n = run(conn,
                "UPDATE tokens SET revoked_at = $2 WHERE kind = 'session' AND revoked_at IS NULL "
                "AND player_id = (SELECT id FROM players WHERE username = $1)",
                &t, err, errlen);
    if (n < 0 || run(conn, "COMMIT", NULL, err, errlen) < 0) goto rollback;
    *revoked = n;
    status = 0;
    goto done;
rollback:
    PQclear(PQexec(conn, "ROLLBACK"));
done:
    if (conn) PQfinish(conn);
    return status;
}
