/*
 * The PostgreSQL backend's node leases (migrations/postgresql/012_node_leases.sql, docs/scaling.md
 * "When a node dies"): taking the node's lease at start, renewing it first in every transaction
 * of the writer (chess_lease_renew, which fails the transaction once the lease was taken), and
 * taking another node's lease with its games in progress and its arenas not finished (in the
 * writer's transaction: all of it or nothing). Times are the database server's clock, so the
 * nodes' own clocks never matter. The lease's row lock orders a takeover and the holder's
 * transactions: a takeover waits for the holder's transaction under way and then sees its
 * renewal; the holder's next transaction finds the generation changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg_internal.h"
#include "util/log.h"

#define NOW_MS "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"

int pg_lease_take(struct store_db *db, char *err, size_t errlen) {
    struct pg_db *d = pg_db_of(db);
    struct pg_params p = {0};
    pg_text(&p, d->node_id);
    PGresult *r = pg_query(d->wconn,
                           "INSERT INTO node_leases (node, generation, renewed_at) "
                           "VALUES ($1, 1, " NOW_MS ") ON CONFLICT (node) DO UPDATE SET "
                           "generation = node_leases.generation + 1, "
                           "renewed_at = excluded.renewed_at, taken_by = NULL "
                           "RETURNING generation",
                           &p, "taking the node's lease");
    if (!r || PQntuples(r) != 1) {
        snprintf(err, errlen, "cannot take the node's lease: %s", PQerrorMessage(d->wconn));
        PQclear(r);
        return -STORE_ERR_IO;
    }
    d->lease_generation = pg_col_i64(r, 0, 0);
    PQclear(r);
    d->leases = true;
    LOGI("store", "node=%s holds its lease, generation %lld", d->node_id,
         (long long)d->lease_generation);
    return 0;
}

void pg_lease_params(const struct pg_db *d, struct pg_params *p) {
    pg_text(p, d->node_id);
    pg_int(p, d->lease_generation);
}

int pg_lease_renew(struct pg_db *d) {
    if (!d->leases) return 0;
    struct pg_params p = {0};
    pg_lease_params(d, &p);
    PGresult *r =
        PQexecParams(d->wconn, PG_LEASE_RENEW_SQL, p.n, NULL, p.value, p.length, p.format, 0);
    int rc = PQresultStatus(r) == PGRES_TUPLES_OK ? 0 : pg_error_status(r);
    if (rc != 0 && rc != -STORE_ERR_FENCED)
        LOGE("store", "renewing the lease failed: %s", PQerrorMessage(d->wconn));
    PQclear(r);
    return rc > 0 ? -STORE_ERR_IO : rc;
}

/* Runs one statement of a takeover (careful mode): 0 with *changed, or -STORE_ERR_IO. */
static int takeover_run(struct pg_db *d, const char *sql, const struct pg_params *p, int *changed) {
    PGresult *r = pg_query(d->wconn, sql, p, "taking over a lease");
    if (!r) return -STORE_ERR_IO;
    *changed = atoi(PQcmdTuples(r));
    PQclear(r);
    return 0;
}

int pg_takeover(struct pg_db *d, const struct store_op *op) {
    const char *node = op->u.takeover.node;
    if (!d->leases || !*node || strcmp(node, d->node_id) == 0) return STORE_ERR_CONFLICT;
    struct pg_params p = {0};
    pg_text(&p, node);
    pg_int(&p, op->u.takeover.expiry_ms);
    pg_text(&p, d->node_id);
    int leases = 0, games = 0, arenas = 0;
    int rc = takeover_run(d,
                          "UPDATE node_leases SET generation = generation + 1, "
                          "renewed_at = " NOW_MS ", taken_by = $3 "
                          "WHERE node = $1 AND renewed_at < " NOW_MS " - $2",
                          &p, &leases);
    if (rc < 0) return rc;
    if (leases == 0) return STORE_ERR_CONFLICT; /* held, or never taken */
    struct pg_params g = {0};
    pg_text(&g, node);
    pg_text(&g, d->node_id);
    rc = takeover_run(d, "UPDATE games SET node = $2 WHERE node = $1 AND status = 'live'", &g,
                      &games);
    if (rc < 0) return rc;
    /* Its arenas not finished go with their games (docs/tournaments.md, "Several nodes"). */
    rc = takeover_run(d, "UPDATE arenas SET node = $2 WHERE node = $1 AND status <> 'finished'", &g,
                      &arenas);
    if (rc < 0) return rc;
    LOGW("store", "took the lease of node=%s, its %d game(s) in progress and %d arena(s)", node,
         games, arenas);
    return 0;
}
