/*
 * The SQLite backend's node leases (migrations/012_node_leases.sql, docs/scaling.md "When a node
 * dies"): taking the node's lease at start, renewing it at the start of every transaction of the
 * writer, and taking another node's lease with its games in progress and its arenas not finished
 * (one transaction: the writer's, which rolls back whole when a statement fails). The nodes sharing
 * an SQLite file run on one host, so the lease's time is that host's wall clock. BEGIN IMMEDIATE
 * serialises the nodes' transactions, so a takeover and the old holder's next transaction never
 * overlap: the holder's transaction either commits before the takeover reads its lease, or finds it
 * taken.
 */
#include <stdio.h>
#include <string.h>

#include "store/sqlite_internal.h"
#include "util/log.h"
#include "util/now.h"

int sqlite_lease_take(struct store_db *db, char *err, size_t errlen) {
    struct sqlite_db *d = sqlite_db_of(db);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(
        d->wdb,
        "INSERT INTO node_leases (node, generation, renewed_at) VALUES (?1, 1, ?2) "
        "ON CONFLICT (node) DO UPDATE SET generation = generation + 1, "
        "renewed_at = excluded.renewed_at, taken_by = NULL RETURNING generation",
        -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, d->node_id, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, now_wall_ms());
        rc = sqlite3_step(st);
    }
    if (rc == SQLITE_ROW) {
        d->lease_generation = sqlite3_column_int64(st, 0);
        rc = sqlite3_step(st);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE || d->lease_generation <= 0) {
        snprintf(err, errlen, "cannot take the node's lease: %s", sqlite3_errmsg(d->wdb));
        return -STORE_ERR_IO;
    }
    d->leases = true;
    LOGI("store", "node=%s holds its lease, generation %lld", d->node_id,
         (long long)d->lease_generation);
    return 0;
}

int sqlite_lease_renew(struct sqlite_db *d) {
    if (!d->leases) return 0;
    sqlite3_stmt *st = d->ws.lease_renew;
    sqlite3_bind_int64(st, 1, now_wall_ms());
    sqlite3_bind_text(st, 2, d->node_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, d->lease_generation);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        LOGE("store", "renewing the lease failed: %s", sqlite3_errmsg(d->wdb));
        return -STORE_ERR_IO;
    }
    return sqlite3_changes(d->wdb) == 1 ? 0 : -STORE_ERR_FENCED;
}

/* Runs one statement of a takeover: a positive store status fails the operation alone. */
static int takeover_step(struct sqlite_db *d, sqlite3_stmt *st, int *changed) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        LOGE("store", "taking over a lease failed: %s", sqlite3_errmsg(d->wdb));
        return -STORE_ERR_IO;
    }
    *changed = sqlite3_changes(d->wdb);
    return 0;
}

int sqlite_takeover(struct sqlite_db *d, const struct store_op *op) {
    const char *node = op->u.takeover.node;
    if (!d->leases || !*node || strcmp(node, d->node_id) == 0) return STORE_ERR_CONFLICT;
    int64_t now = now_wall_ms();
    sqlite3_stmt *st = d->ws.lease_take_over;
    sqlite3_bind_text(st, 1, node, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, now);
    sqlite3_bind_int64(st, 3, now - op->u.takeover.expiry_ms);
    sqlite3_bind_text(st, 4, d->node_id, -1, SQLITE_STATIC);
    int leases = 0, games = 0, arenas = 0;
    int rc = takeover_step(d, st, &leases);
    if (rc < 0) return rc;
    if (leases == 0) return STORE_ERR_CONFLICT; /* held, or never taken */
    st = d->ws.games_take_over;
    sqlite3_bind_text(st, 1, node, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, d->node_id, -1, SQLITE_STATIC);
    if ((rc = takeover_step(d, st, &games)) < 0) return rc;
    st = d->ws.arenas_take_over;
    sqlite3_bind_text(st, 1, node, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, d->node_id, -1, SQLITE_STATIC);
    if ((rc = takeover_step(d, st, &arenas)) < 0) return rc;
    LOGW("store", "took the lease of node=%s, its %d game(s) in progress and %d arena(s)", node,
         games, arenas);
    return 0;
}
