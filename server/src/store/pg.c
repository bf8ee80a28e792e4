/*
 * The PostgreSQL backend's lifetime: connecting (a URL that cannot be used is LOCATION, a
 * server that cannot be reached UNREACHABLE), the node's advisory lock, and the backend's
 * table of functions (the writer is in pg_write.c, the queries in pg_read.c and
 * pg_moderation.c, migrations in pg_migrate.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg_internal.h"
#include "util/log.h"

static void backend_close(struct store_db *db) {
    struct pg_db *d = pg_db_of(db);
    if (!d) return;
    /* Closing the connection releases the node's advisory lock. */
    if (d->wconn) PQfinish(d->wconn);
    free(d);
}

/*
 * One server per node id: a session advisory lock on (PG_LOCK_NODE, hashtext(node id)), held by
 * the writer's connection while the store is open. "" is a single server's id. A server that
 * has just closed its store may hold it for a moment more (its session ends after its
 * connection): the lock is waited for up to PG_LOCK_WAIT before LOCKED.
 */
#define PG_LOCK_WAIT "1s"

int pg_take_lock(struct pg_db *d, char *err, size_t errlen) {
    struct pg_params p = {0};
    pg_text(&p, d->node_id);
    PGresult *r = PQexec(d->wconn, "SET lock_timeout = '" PG_LOCK_WAIT "'");
    bool set = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    r = PQexecParams(d->wconn, "SELECT pg_advisory_lock(1128813395, hashtext($1))", p.n, NULL,
                     p.value, p.length, p.format, 0);
    ExecStatusType st = PQresultStatus(r);
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    bool busy = state && strcmp(state, "55P03") == 0; /* lock_not_available */
    PQclear(r);
    r = PQexec(d->wconn, "SET lock_timeout = 0");
    set = set && PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (busy) {
        snprintf(err, errlen, "the database is in use by another server with node id \"%s\"",
                 d->node_id);
        return -STORE_ERR_LOCKED;
    }
    if (st != PGRES_TUPLES_OK || !set) {
        snprintf(err, errlen, "cannot take the node's lock: %s", PQerrorMessage(d->wconn));
        return -STORE_ERR_IO;
    }
    return 0;
}

static int backend_open(const struct store_config *cfg, struct store_db **out, char *err,
                        size_t errlen) {
    int rc = -STORE_ERR_NO_MEMORY;
    snprintf(err, errlen, "out of memory");
    *out = NULL;
    struct pg_db *d = calloc(1, sizeof *d);
    if (!d) goto fail;
    d->base.backend = &store_pg_backend;
    d->url = cfg->location ? cfg->location : "";
    d->node_id = cfg->node_id ? cfg->node_id : "";
    char *parse_err = NULL;
    PQconninfoOption *opts = PQconninfoParse(d->url, &parse_err);
    bool parsed = opts != NULL;
    if (opts) PQconninfoFree(opts);
    if (!parsed || !*d->url) {
        snprintf(err, errlen, "bad database URL: %s",
                 parse_err ? parse_err : "empty (postgresql://user@host:port/database)");
        PQfreemem(parse_err);
        rc = -STORE_ERR_LOCATION;
        goto fail;
    }
    if (!(d->wconn = pg_connect(d->url, false, err, errlen))) {
        rc = -STORE_ERR_UNREACHABLE;
        goto fail;
    }
    if (PQserverVersion(d->wconn) < 140000) {
        snprintf(err, errlen, "PostgreSQL %d is too old (14 or newer is needed)",
                 PQserverVersion(d->wconn) / 10000);
        rc = -STORE_ERR_LOCATION;
        goto fail;
    }
    if ((rc = pg_take_lock(d, err, errlen)) < 0) goto fail;
    *out = &d->base;
    err[0] = '\0';
    return 0;
fail:
    backend_close(d ? &d->base : NULL);
    return rc;
}

static int backend_restore(const struct store_config *cfg, const char *source, int *version,
                           char *err, size_t errlen) {
    (void)cfg;
    (void)source;
    *version = 0;
    snprintf(err, errlen,
             "the PostgreSQL store is restored with pg_restore or psql (docs/self-hosting.md)");
    return -STORE_ERR_UNSUPPORTED;
}

const struct store_backend store_pg_backend = {
    .name = "postgresql",
    .open = backend_open,
    .migrate = pg_migrate,
    .close = backend_close,
    .lease_take = pg_lease_take,
    .session_open = pg_session_open,
    .session_close = pg_session_close,
    .begin = pg_begin,
    .apply = pg_apply,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .reachable = pg_reachable,
    /* No online backups of the store's own (store_backup_setup refuses --backup-dir as
     * UNSUPPORTED): pg_dump takes them (docs/self-hosting.md). */
    .backup_suffix = ".dump",
    .backup = NULL,
    .restore = backend_restore,
    .reader_open = pg_reader_open,
    .reader_close = pg_reader_close,
    .find_token = pg_find_token,
    .find_account = pg_find_account,
    .find_player = pg_find_player,
    .find_username = pg_find_username,
    .read_game = pg_read_game,
    .player_games = pg_player_games,
    .each_player_game = pg_each_player_game,
    .each_arena_game = pg_each_arena_game,
    .load_live = pg_load_live,
    .load_arenas = pg_load_arenas,
    .scheduled_arenas = pg_scheduled_arenas,
    .owned_bots = pg_owned_bots,
    .leaderboard = pg_leaderboard,
    .rating_history = pg_rating_history,
    .blocks = pg_blocks,
    .reports = pg_reports,
    .mod_log = pg_mod_log,
    .account_password = pg_account_password,
    .sessions = pg_sessions,
    .find_api_token = pg_find_api_token,
    .api_tokens = pg_api_tokens,
    .player_settings = pg_player_settings,
    .read_analysis = pg_read_analysis,
    .pending_analyses = pg_pending_analyses,
    .reset_password = pg_reset_password,
};
