/*
 * The PostgreSQL backend's small helpers: statement parameters (text, byte strings in binary),
 * reading columns of results, running one query with its failure logged, what a failure's
 * SQLSTATE means for the store, and connecting with the session's settings.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg_internal.h"
#include "util/log.h"

static void push(struct pg_params *p, const char *value, int length, int format) {
    if (p->n >= PG_PARAMS_MAX) return; /* a programming error: the statement fails */
    p->value[p->n] = value;
    p->length[p->n] = length;
    p->format[p->n] = format;
    p->n++;
}

void pg_text(struct pg_params *p, const char *text) {
    push(p, text ? text : "", 0, 0);
}

void pg_text_or_null(struct pg_params *p, const char *text) {
    push(p, text && *text ? text : NULL, 0, 0);
}

void pg_int(struct pg_params *p, int64_t value) {
    if (p->n >= PG_PARAMS_MAX) return;
    snprintf(p->num[p->n], sizeof p->num[p->n], "%" PRId64, value);
    push(p, p->num[p->n], 0, 0);
}

void pg_opt_int(struct pg_params *p, bool present, int64_t value) {
    if (present)
        pg_int(p, value);
    else
        push(p, NULL, 0, 0);
}

void pg_double(struct pg_params *p, double value) {
    if (p->n >= PG_PARAMS_MAX) return;
    snprintf(p->num[p->n], sizeof p->num[p->n], "%.17g", value);
    push(p, p->num[p->n], 0, 0);
}

void pg_bool(struct pg_params *p, bool value) {
    push(p, value ? "t" : "f", 0, 0);
}

void pg_bytes(struct pg_params *p, const uint8_t *data, int len) {
    push(p, (const char *)data, len, 1);
}

void pg_col_text(const PGresult *r, int row, int col, char *out, size_t size) {
    snprintf(out, size, "%s", PQgetisnull(r, row, col) ? "" : PQgetvalue(r, row, col));
}

int64_t pg_col_i64(const PGresult *r, int row, int col) {
    return PQgetisnull(r, row, col) ? 0 : strtoll(PQgetvalue(r, row, col), NULL, 10);
}

double pg_col_double(const PGresult *r, int row, int col) {
    return PQgetisnull(r, row, col) ? 0 : strtod(PQgetvalue(r, row, col), NULL);
}

bool pg_col_null(const PGresult *r, int row, int col) {
    return PQgetisnull(r, row, col) != 0;
}

PGresult *pg_query(PGconn *conn, const char *sql, const struct pg_params *p, const char *what) {
    PGresult *r = PQexecParams(conn, sql, p ? p->n : 0, NULL, p ? p->value : NULL,
                               p ? p->length : NULL, p ? p->format : NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) return r;
    LOGE("store", "%s failed: %s", what, r ? PQresultErrorMessage(r) : PQerrorMessage(conn));
    PQclear(r);
    return NULL;
}

int pg_error_status(const PGresult *r) {
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (!state) return -STORE_ERR_IO;
    if (strcmp(state, "23505") == 0) return STORE_ERR_CONFLICT; /* unique_violation */
    if (strcmp(state, "CH001") == 0) return -STORE_ERR_FENCED;  /* chess_lease_renew */
    /* Class 23 (other constraints: a missing player, a check) and 22 (bad data). */
    if (strncmp(state, "23", 2) == 0 || strncmp(state, "22", 2) == 0) return STORE_ERR_NOT_FOUND;
    return -STORE_ERR_IO;
}

/*
 * The session's settings. Returns true when they are set. A node whose link to the database is
 * cut must not hold the database's locks for long (the lease's row lock inside a transaction,
 * the node's advisory lock): the server ends a session idle inside a transaction after 5 s and
 * probes an idle connection's peer after 10 s (docs/scaling.md, "When a node dies").
 */
static bool configure(PGconn *conn, bool read_only) {
    const char *settings = read_only
                               ? "SET synchronous_commit = on; SET client_min_messages = warning; "
                                 "SET default_transaction_read_only = on"
                               : "SET synchronous_commit = on; SET client_min_messages = warning; "
                                 "SET idle_in_transaction_session_timeout = '5s'; "
                                 "SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 2; "
                                 "SET tcp_keepalives_count = 3; SET tcp_user_timeout = 10000";
    PGresult *r = PQexec(conn, settings);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    return ok;
}

PGconn *pg_connect(const char *url, bool read_only, char *err, size_t errlen) {
    /* Our side's limits on a link that goes silent (a connection is given up rather than waited
     * on for TCP's minutes), before the URL, whose own settings win. */
    const char *const keys[] = {"connect_timeout",
                                "keepalives_idle",
                                "keepalives_interval",
                                "keepalives_count",
                                "tcp_user_timeout",
                                "dbname",
                                NULL};
    const char *const values[] = {"3", "5", "2", "2", "10000", url, NULL};
    PGconn *conn = PQconnectdbParams(keys, values, 1);
    if (!conn) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (PQstatus(conn) != CONNECTION_OK) {
        const char *msg = PQerrorMessage(conn);
        snprintf(err, errlen, "cannot connect to PostgreSQL: %.*s", (int)strcspn(msg, "\n"), msg);
        PQfinish(conn);
        return NULL;
    }
    if (!configure(conn, read_only)) {
        snprintf(err, errlen, "cannot configure the connection: %s", PQerrorMessage(conn));
        PQfinish(conn);
        return NULL;
    }
    return conn;
}

bool pg_reconnect(PGconn *conn, bool read_only) {
    PQreset(conn);
    if (PQstatus(conn) != CONNECTION_OK) {
        const char *msg = PQerrorMessage(conn);
        LOGW("store", "cannot reconnect to PostgreSQL: %.*s", (int)strcspn(msg, "\n"), msg);
        return false;
    }
    if (!configure(conn, read_only)) return false;
    LOGI("store", "reconnected to PostgreSQL (%s connection)",
         read_only ? "a reader's" : "the writer's");
    return true;
}

PGresult *pg_read_query(PGconn *conn, const char *sql, const struct pg_params *p,
                        const char *what) {
    /* Lost before (a reconnection that failed while the server was down): try again first. */
    if (PQstatus(conn) == CONNECTION_BAD) pg_reconnect(conn, true);
    bool idle = PQtransactionStatus(conn) == PQTRANS_IDLE;
    PGresult *r = pg_query(conn, sql, p, what);
    if (r || !idle || PQstatus(conn) != CONNECTION_BAD || !pg_reconnect(conn, true)) return r;
    return pg_query(conn, sql, p, what);
}

int64_t pg_col_be64(const PGresult *r, int row, int col) {
    if (PQgetisnull(r, row, col) || PQgetlength(r, row, col) != 8) return 0;
    const unsigned char *v = (const unsigned char *)PQgetvalue(r, row, col);
    uint64_t x = 0;
    for (int i = 0; i < 8; i++) x = x << 8 | v[i];
    return (int64_t)x;
}
