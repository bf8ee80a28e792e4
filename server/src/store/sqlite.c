/*
 * The SQLite backend's lifetime: opening (directory checks, the lock file, WAL mode and the
 * connection settings, the integrity check), migrations, the checkpoint thread, and the
 * backend's table of functions (the writer's statements are in sqlite_write.c, the queries in
 * sqlite_read.c).
 */
#include "store/sqlite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/sqlite_internal.h"
#include "store/sqlite_migrate.h"
#include "util/log.h"

/*
 * SQLite's process-wide settings, before it initialises (its first connection). By default it
 * counts every allocation under a global mutex (SQLITE_CONFIG_MEMSTATUS) for
 * sqlite3_memory_used(), which the server never asks: off, it saves a lock and an unlock per
 * allocation, about 500 instructions per stored move. When something in the process has
 * initialised SQLite already, the setting is refused and the counting stays: slower, not wrong.
 */
static void configure_sqlite(void) {
    int rc = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    if (rc != SQLITE_OK)
        LOGD("store", "SQLite was initialised already: allocation statistics stay on (%s)",
             sqlite3_errstr(rc));
}

int sqlite_configure_connection(sqlite3 *conn, bool sync_normal, char *err, size_t errlen) {
    const char *sql = sync_normal ? "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
                                  : "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;";
    char *msg = NULL;
    if (sqlite3_busy_timeout(conn, SQLITE_STORE_BUSY_TIMEOUT_MS) != SQLITE_OK ||
        sqlite3_exec(conn, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "cannot configure the connection: %s",
                 msg ? msg : sqlite3_errmsg(conn));
        sqlite3_free(msg);
        return -STORE_ERR_IO;
    }
    return 0;
}

int sqlite_check_dir(const char *dir, char *err, size_t errlen) {
    struct stat st;
    if (stat(dir, &st) != 0 && (errno != ENOENT || mkdir(dir, 0750) != 0)) {
        snprintf(err, errlen, "data directory %s cannot be created: %s", dir, strerror(errno));
        return -STORE_ERR_LOCATION;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "data directory %s is not a directory", dir);
        return -STORE_ERR_LOCATION;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        snprintf(err, errlen, "data directory %s is not writable: %s", dir, strerror(errno));
        return -STORE_ERR_LOCATION;
    }
    return 0;
}

/* One server per data directory: a POSIX lock on data_dir/chess.db.lock, held while open; the
 * nodes of a site share the directory with one lock each (chess.db.<node>.lock), so the same
 * node cannot run twice. */
int sqlite_take_lock(const char *db_path, const char *node_id, int *fd, char *err, size_t errlen) {
    char path[4096 + 48];
    if (node_id[0])
        snprintf(path, sizeof path, "%s.%.32s.lock", db_path, node_id);
    else
        snprintf(path, sizeof path, "%s.lock", db_path);
    *fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0640);
    if (*fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return -STORE_ERR_LOCATION;
    }
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fcntl(*fd, F_SETLK, &fl) != 0) {
        snprintf(err, errlen, "%s is in use by another server (lock %s: %s)", db_path, path,
                 strerror(errno));
        return -STORE_ERR_LOCKED;
    }
    return 0;
}

int sqlite_open_error(sqlite3 *conn, int rc, const char *what, char *err, size_t errlen) {
    int primary = rc & 0xff;
    snprintf(err, errlen, "%s: %s", what, conn ? sqlite3_errmsg(conn) : sqlite3_errstr(rc));
    if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT) return -STORE_ERR_CORRUPT;
    if (primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY || primary == SQLITE_PERM)
        return -STORE_ERR_LOCATION;
    return -STORE_ERR_IO;
}

int sqlite_verify(sqlite3 *conn, const char *check_sql, char *err, size_t errlen) {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(conn, check_sql, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        rc = sqlite_open_error(conn, rc, "integrity check failed", err, errlen);
    } else {
        const char *verdict = (const char *)sqlite3_column_text(st, 0);
        rc = verdict && strcmp(verdict, "ok") == 0 ? 0 : -STORE_ERR_CORRUPT;
        if (rc < 0) snprintf(err, errlen, "integrity check failed: %s", verdict ? verdict : "?");
    }
    sqlite3_finalize(st);
    return rc;
}

/* Switches the file to WAL mode, leaving the statement on its result row. Nodes of a site that
 * share a new file (docs/scaling.md) start together: the switch takes an exclusive lock, and
 * SQLite answers a lock upgrade that could deadlock with SQLITE_BUSY at once, without the busy
 * handler, so a busy answer is retried for as long as the busy timeout. */
static int switch_to_wal(sqlite3 *conn, sqlite3_stmt **st) {
    int rc = SQLITE_BUSY;
    for (int waited_ms = 0; waited_ms <= SQLITE_STORE_BUSY_TIMEOUT_MS; waited_ms += 20) {
        rc = sqlite3_prepare_v2(conn, "PRAGMA journal_mode=WAL", -1, st, NULL);
        if (rc == SQLITE_OK) rc = sqlite3_step(*st);
        if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) return rc;
        sqlite3_finalize(*st);
        *st = NULL;
        struct timespec pause = {0, 20 * 1000000L};
        nanosleep(&pause, NULL);
    }
    return rc;
}

/* WAL mode (persistent in the file) and the integrity check. */
static int check_database(struct sqlite_db *d, char *err, size_t errlen) {
    sqlite3_stmt *st = NULL;
    int rc = switch_to_wal(d->wdb, &st);
    if (rc != SQLITE_ROW) {
        rc = sqlite_open_error(d->wdb, rc, "cannot read the database", err, errlen);
        sqlite3_finalize(st);
        return rc;
    }
    const char *mode = (const char *)sqlite3_column_text(st, 0);
    bool wal = mode && strcmp(mode, "wal") == 0;
    sqlite3_finalize(st);
    if (!wal) {
        snprintf(err, errlen, "cannot switch %s to WAL mode", d->path);
        return -STORE_ERR_IO;
    }
    rc = sqlite_configure_connection(d->wdb, d->opt.sync_normal, err, errlen);
    if (rc < 0) return rc;
    /* quick_check reads every page once: a damaged file stops the start here, not mid-game. */
    return sqlite_verify(d->wdb, "PRAGMA quick_check(1)", err, errlen);
}

static void backend_close(struct store_db *db) {
    struct sqlite_db *d = sqlite_db_of(db);
    if (!d) return;
    if (d->wdb && sqlite3_close(d->wdb) != SQLITE_OK)
        LOGW("store", "write connection did not close cleanly");
    if (d->lock_fd >= 0) close(d->lock_fd);
    if (d->lock_ready) {
        pthread_cond_destroy(&d->checkpoint_cond);
        pthread_mutex_destroy(&d->lock);
    }
    free(d);
}

static int backend_open(const struct store_config *cfg, struct store_db **out, char *err,
                        size_t errlen) {
    int rc = -STORE_ERR_NO_MEMORY;
    snprintf(err, errlen, "out of memory");
    *out = NULL;
    struct sqlite_db *d = calloc(1, sizeof *d);
    if (!d) goto fail;
    d->base.backend = &store_sqlite_backend;
    d->lock_fd = -1;
    if (cfg->options) d->opt = *(const struct store_sqlite_options *)cfg->options;
    if (d->opt.wal_limit_frames <= 0) d->opt.wal_limit_frames = 16000;
    d->wal_bound = d->opt.wal_limit_frames;
    d->node_id = cfg->node_id ? cfg->node_id : "";
    if (pthread_mutex_init(&d->lock, NULL) != 0) goto fail;
    if (pthread_cond_init(&d->checkpoint_cond, NULL) != 0) {
        pthread_mutex_destroy(&d->lock);
        goto fail;
    }
    d->lock_ready = true;
    const char *dir = cfg->location ? cfg->location : "";
    if ((rc = sqlite_check_dir(dir, err, errlen)) < 0) goto fail;
    if ((size_t)snprintf(d->path, sizeof d->path, "%s/%s", dir, STORE_SQLITE_DB_NAME) >=
        sizeof d->path) {
        snprintf(err, errlen, "data directory path too long");
        rc = -STORE_ERR_LOCATION;
        goto fail;
    }
    if ((rc = sqlite_take_lock(d->path, d->node_id, &d->lock_fd, err, errlen)) < 0) goto fail;
    static pthread_once_t sqlite_once = PTHREAD_ONCE_INIT;
    if (pthread_once(&sqlite_once, configure_sqlite) != 0) {
        snprintf(err, errlen, "cannot configure SQLite");
        rc = -STORE_ERR_IO;
        goto fail;
    }
    int orc = sqlite3_open_v2(
        d->path, &d->wdb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (orc != SQLITE_OK) {
        rc = sqlite_open_error(d->wdb, orc, "cannot open the database", err, errlen);
        goto fail;
    }
    sqlite3_extended_result_codes(d->wdb, 1);
    /* The nodes of a site share the file (docs/scaling.md): one starting while another sets
     * WAL mode or migrates waits for it instead of failing. */
    sqlite3_busy_timeout(d->wdb, SQLITE_STORE_BUSY_TIMEOUT_MS);
    if (sqlite3_db_readonly(d->wdb, "main") == 1) {
        snprintf(err, errlen, "%s is read-only", d->path);
        rc = -STORE_ERR_LOCATION;
        goto fail;
    }
    if ((rc = check_database(d, err, errlen)) < 0) goto fail;
    *out = &d->base;
    err[0] = '\0';
    return 0;
fail:
    backend_close(d ? &d->base : NULL);
    return rc;
}

static int backend_migrate(struct store_db *db, int *applied, int *version, char *err,
                           size_t errlen) {
    struct sqlite_db *d = sqlite_db_of(db);
    *version = store_migration_count;
    return sqlite_migrate_apply(d->wdb, store_migrations, store_migration_count, applied, err,
                                errlen);
}

/* ---- checkpoints ---- */

/*
 * Checkpoints run on their own thread and connection: a PASSIVE checkpoint copies WAL frames into
 * the database while the writer keeps appending, so a commit never waits for one (SQLite's
 * automatic checkpoint would run inside the commit that crosses the threshold).
 */
#define CHECKPOINT_FRAMES 4000

/*
 * Runs on the writer thread after each commit, with the WAL's size. The WAL starts again from
 * its beginning only when a write finds it wholly copied into the database, and under load
 * commits keep adding frames while a checkpoint runs: the checkpointer must be woken after
 * every commit past the threshold, so that its small catch-up checkpoints reach the end between
 * two commits. (Waking it only once per further 1,000 frames let the WAL grow to 268 MB in 20 s
 * of the load benchmark, against 19 MB.)
 */
static int on_wal_commit(void *ctx, sqlite3 *conn, const char *name, int frames) {
    (void)conn;
    (void)name;
    struct sqlite_db *d = ctx;
    d->wal_frames = frames;
    if (frames < CHECKPOINT_FRAMES) return SQLITE_OK;
    pthread_mutex_lock(&d->lock);
    if (!d->checkpoint_due) {
        d->checkpoint_due = true;
        pthread_cond_signal(&d->checkpoint_cond);
    }
    pthread_mutex_unlock(&d->lock);
    return SQLITE_OK;
}

static void *checkpointer_main(void *arg) {
    struct sqlite_db *d = arg;
    pthread_mutex_lock(&d->lock);
    for (;;) {
        while (!d->checkpoint_due && !d->stopping) pthread_cond_wait(&d->checkpoint_cond, &d->lock);
        if (d->stopping) break;
        pthread_mutex_unlock(&d->lock);
        int log = 0, done = 0;
        int rc = sqlite3_wal_checkpoint_v2(d->cdb, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
        if (rc != SQLITE_OK && rc != SQLITE_BUSY)
            LOGW("store", "checkpoint failed: %s", sqlite3_errmsg(d->cdb));
        pthread_mutex_lock(&d->lock);
        d->checkpoint_due = false;
        d->checkpoints++;
    }
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

static int backend_start(struct store_db *db) {
    struct sqlite_db *d = sqlite_db_of(db);
    char err[256];
    if (sqlite3_open_v2(d->path, &d->cdb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
            SQLITE_OK ||
        sqlite_configure_connection(d->cdb, d->opt.sync_normal, err, sizeof err) < 0 ||
        sqlite3_exec(d->wdb, "PRAGMA wal_autocheckpoint=0", NULL, NULL, NULL) != SQLITE_OK) {
        LOGE("store", "cannot set up checkpoints: %s",
             d->cdb ? sqlite3_errmsg(d->cdb) : "out of memory");
        return -STORE_ERR_IO;
    }
    sqlite3_wal_hook(d->wdb, on_wal_commit, d);
    if (pthread_create(&d->checkpointer, NULL, checkpointer_main, d) != 0) return -STORE_ERR_IO;
    d->checkpointer_running = true;
    return 0;
}

static void backend_stop(struct store_db *db) {
    struct sqlite_db *d = sqlite_db_of(db);
    pthread_mutex_lock(&d->lock);
    d->stopping = true;
    pthread_cond_broadcast(&d->checkpoint_cond);
    pthread_mutex_unlock(&d->lock);
    if (d->checkpointer_running) pthread_join(d->checkpointer, NULL);
    d->checkpointer_running = false;
    if (d->cdb && sqlite3_close(d->cdb) != SQLITE_OK)
        LOGW("store", "checkpoint connection did not close cleanly");
    d->cdb = NULL;
}

static void backend_stats(struct store_db *db, struct store_stats *out) {
    struct sqlite_db *d = sqlite_db_of(db);
    pthread_mutex_lock(&d->lock);
    out->checkpoints = d->checkpoints;
    out->log_truncations = d->wal_truncations;
    pthread_mutex_unlock(&d->lock);
}

const struct store_backend store_sqlite_backend = {
    .name = "sqlite",
    .open = backend_open,
    .migrate = backend_migrate,
    .start = backend_start,
    .stop = backend_stop,
    .close = backend_close,
    .lease_take = sqlite_lease_take,
    .stats = backend_stats,
    .session_open = sqlite_session_open,
    .session_close = sqlite_session_close,
    .begin = sqlite_begin,
    .apply = sqlite_apply,
    .commit = sqlite_commit,
    .rollback = sqlite_rollback,
    .maintain = sqlite_maintain,
    .backup_suffix = ".db",
    .backup = sqlite_backup,
    .restore = sqlite_restore,
    .reader_open = sqlite_reader_open,
    .reader_close = sqlite_reader_close,
    .find_token = sqlite_find_token,
    .find_account = sqlite_find_account,
    .find_player = sqlite_find_player,
    .find_username = sqlite_find_username,
    .read_game = sqlite_read_game,
    .player_games = sqlite_player_games,
    .each_player_game = sqlite_each_player_game,
    .each_arena_game = sqlite_each_arena_game,
    .load_live = sqlite_load_live,
    .load_arenas = sqlite_load_arenas,
    .scheduled_arenas = sqlite_scheduled_arenas,
    .owned_bots = sqlite_owned_bots,
    .leaderboard = sqlite_leaderboard,
    .rating_history = sqlite_rating_history,
    .blocks = sqlite_blocks,
    .reports = sqlite_reports,
    .mod_log = sqlite_mod_log,
    .account_password = sqlite_account_password,
    .sessions = sqlite_sessions,
    .find_api_token = sqlite_find_api_token,
    .api_tokens = sqlite_api_tokens,
    .player_settings = sqlite_player_settings,
    .read_analysis = sqlite_read_analysis,
    .pending_analyses = sqlite_pending_analyses,
    .reset_password = sqlite_reset_password,
};
