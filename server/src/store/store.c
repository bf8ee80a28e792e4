/*
 * The store's lifecycle and threads: opening (directory checks, the lock file, connection
 * settings, the integrity check, migrations), the operation queue between the loop and the
 * writer thread (group commit: the writer swaps out everything queued and commits it at once),
 * the auth thread for password hashing, and the result queue back to the loop with coalesced
 * wake-ups.
 */
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/internal.h"
#include "store/migrate.h"
#include "store/read.h"
#include "util/log.h"
#include "util/now.h"

static const char *const status_names[STORE_ERR_COUNT] = {
    [STORE_OK] = "OK",
    [STORE_ERR_DIR] = "DIR",
    [STORE_ERR_LOCKED] = "LOCKED",
    [STORE_ERR_CORRUPT] = "CORRUPT",
    [STORE_ERR_TOO_NEW] = "TOO_NEW",
    [STORE_ERR_MIGRATION] = "MIGRATION",
    [STORE_ERR_IO] = "IO",
    [STORE_ERR_NO_MEMORY] = "NO_MEMORY",
    [STORE_ERR_NOT_FOUND] = "NOT_FOUND",
    [STORE_ERR_CONFLICT] = "CONFLICT",
    [STORE_ERR_BAD_PASSWORD] = "BAD_PASSWORD",
    [STORE_ERR_FAILED] = "FAILED",
    [STORE_ERR_LIMIT] = "LIMIT",
    [STORE_ERR_BUSY] = "BUSY",
};

const char *store_status_name(int status) {
    if (status < 0) status = -status;
    return status < STORE_ERR_COUNT ? status_names[status] : "UNKNOWN";
}

int store_exit_code(int status) {
    switch (status < 0 ? -status : status) {
        case STORE_ERR_DIR: return 3;
        case STORE_ERR_LOCKED: return 4;
        case STORE_ERR_CORRUPT: return 5;
        case STORE_ERR_TOO_NEW: return 6;
        case STORE_ERR_MIGRATION: return 7;
        default: return 1;
    }
}

int store_schema_version(void) {
    return store_migration_count;
}

/* ---- opening ---- */

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

int store_configure_connection(sqlite3 *db, bool sync_normal, char *err, size_t errlen) {
    const char *sql = sync_normal ? "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
                                  : "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;";
    char *msg = NULL;
    if (sqlite3_busy_timeout(db, STORE_BUSY_TIMEOUT_MS) != SQLITE_OK ||
        sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "cannot configure the connection: %s",
                 msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -STORE_ERR_IO;
    }
    return 0;
}

static int check_dir(const char *dir, char *err, size_t errlen) {
    struct stat st;
    if (stat(dir, &st) != 0 && (errno != ENOENT || mkdir(dir, 0750) != 0)) {
        snprintf(err, errlen, "data directory %s cannot be created: %s", dir, strerror(errno));
        return -STORE_ERR_DIR;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "data directory %s is not a directory", dir);
        return -STORE_ERR_DIR;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        snprintf(err, errlen, "data directory %s is not writable: %s", dir, strerror(errno));
        return -STORE_ERR_DIR;
    }
    return 0;
}

/* One server per data directory: a POSIX lock on data_dir/chess.db.lock, held while open; the
 * nodes of a site share the directory with one lock each (chess.db.<node>.lock), so the same
 * node cannot run twice. */
static int take_lock(struct store *s, char *err, size_t errlen) {
    char path[sizeof s->path + 48];
    const char *node = s->cfg.node_id;
    if (node && *node)
        snprintf(path, sizeof path, "%s.%.32s.lock", s->path, node);
    else
        snprintf(path, sizeof path, "%s.lock", s->path);
    s->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0640);
    if (s->lock_fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return -STORE_ERR_DIR;
    }
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fcntl(s->lock_fd, F_SETLK, &fl) != 0) {
        snprintf(err, errlen, "%s is in use by another server (lock %s: %s)", s->path, path,
                 strerror(errno));
        return -STORE_ERR_LOCKED;
    }
    return 0;
}

/* Maps an error from opening or checking the file. */
static int open_error(sqlite3 *db, int rc, const char *what, char *err, size_t errlen) {
    int primary = rc & 0xff;
    snprintf(err, errlen, "%s: %s", what, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT) return -STORE_ERR_CORRUPT;
    if (primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY || primary == SQLITE_PERM)
        return -STORE_ERR_DIR;
    return -STORE_ERR_IO;
}

/* Switches the file to WAL mode, leaving the statement on its result row. Nodes of a site that
 * share a new file (docs/scaling.md) start together: the switch takes an exclusive lock, and
 * SQLite answers a lock upgrade that could deadlock with SQLITE_BUSY at once, without the busy
 * handler, so a busy answer is retried for as long as the busy timeout. */
static int switch_to_wal(sqlite3 *db, sqlite3_stmt **st) {
    int rc = SQLITE_BUSY;
    for (int waited_ms = 0; waited_ms <= STORE_BUSY_TIMEOUT_MS; waited_ms += 20) {
        rc = sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, st, NULL);
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
static int check_database(struct store *s, char *err, size_t errlen) {
    sqlite3_stmt *st = NULL;
    int rc = switch_to_wal(s->wdb, &st);
    if (rc != SQLITE_ROW) {
        rc = open_error(s->wdb, rc, "cannot read the database", err, errlen);
        sqlite3_finalize(st);
        return rc;
    }
    const char *mode = (const char *)sqlite3_column_text(st, 0);
    bool wal = mode && strcmp(mode, "wal") == 0;
    sqlite3_finalize(st);
    if (!wal) {
        snprintf(err, errlen, "cannot switch %s to WAL mode", s->path);
        return -STORE_ERR_IO;
    }
    rc = store_configure_connection(s->wdb, s->cfg.sync_normal, err, errlen);
    if (rc < 0) return rc;
    /* quick_check reads every page once: a damaged file stops the start here, not mid-game. */
    rc = sqlite3_prepare_v2(s->wdb, "PRAGMA quick_check(1)", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        rc = open_error(s->wdb, rc, "integrity check failed", err, errlen);
        sqlite3_finalize(st);
        return rc;
    }
    const char *verdict = (const char *)sqlite3_column_text(st, 0);
    if (!verdict || strcmp(verdict, "ok") != 0) {
        snprintf(err, errlen, "integrity check failed: %s", verdict ? verdict : "?");
        sqlite3_finalize(st);
        return -STORE_ERR_CORRUPT;
    }
    sqlite3_finalize(st);
    return 0;
}

struct store *store_open(const struct store_config *cfg, int *status, char *err, size_t errlen) {
    int rc = -STORE_ERR_NO_MEMORY;
    snprintf(err, errlen, "out of memory");
    struct store *s = calloc(1, sizeof *s);
    if (!s) goto fail;
    s->cfg = *cfg;
    if (s->cfg.max_batch <= 0) s->cfg.max_batch = 8192;
    if (s->cfg.wal_limit_frames <= 0) s->cfg.wal_limit_frames = 16000;
    s->wal_bound = s->cfg.wal_limit_frames;
    if (s->cfg.retry_ms <= 0) s->cfg.retry_ms = 25;
    s->lock_fd = -1;
    if (pthread_mutex_init(&s->lock, NULL) != 0) goto fail;
    if (pthread_cond_init(&s->writer_cond, NULL) != 0) {
        pthread_mutex_destroy(&s->lock);
        goto fail;
    }
    if (pthread_cond_init(&s->auth_cond, NULL) != 0) {
        pthread_cond_destroy(&s->writer_cond);
        pthread_mutex_destroy(&s->lock);
        goto fail;
    }
    if (pthread_cond_init(&s->checkpoint_cond, NULL) != 0) {
        pthread_cond_destroy(&s->auth_cond);
        pthread_cond_destroy(&s->writer_cond);
        pthread_mutex_destroy(&s->lock);
        goto fail;
    }
    if (pthread_cond_init(&s->reader_cond, NULL) != 0) {
        pthread_cond_destroy(&s->checkpoint_cond);
        pthread_cond_destroy(&s->auth_cond);
        pthread_cond_destroy(&s->writer_cond);
        pthread_mutex_destroy(&s->lock);
        goto fail;
    }
    s->lock_ready = true;
    if (sodium_init() < 0) {
        snprintf(err, errlen, "libsodium failed to initialise");
        rc = -STORE_ERR_IO;
        goto fail;
    }
    if ((rc = check_dir(cfg->data_dir, err, errlen)) < 0) goto fail;
    if ((size_t)snprintf(s->path, sizeof s->path, "%s/%s", cfg->data_dir, STORE_DB_NAME) >=
        sizeof s->path) {
        snprintf(err, errlen, "data directory path too long");
        rc = -STORE_ERR_DIR;
        goto fail;
    }
    if ((rc = take_lock(s, err, errlen)) < 0) goto fail;
    static pthread_once_t sqlite_once = PTHREAD_ONCE_INIT;
    if (pthread_once(&sqlite_once, configure_sqlite) != 0) {
        snprintf(err, errlen, "cannot configure SQLite");
        rc = -STORE_ERR_IO;
        goto fail;
    }
    int orc = sqlite3_open_v2(
        s->path, &s->wdb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (orc != SQLITE_OK) {
        rc = open_error(s->wdb, orc, "cannot open the database", err, errlen);
        goto fail;
    }
    sqlite3_extended_result_codes(s->wdb, 1);
    /* The nodes of a site share the file (docs/scaling.md): one starting while another sets
     * WAL mode or migrates waits for it instead of failing. */
    sqlite3_busy_timeout(s->wdb, STORE_BUSY_TIMEOUT_MS);
    if (sqlite3_db_readonly(s->wdb, "main") == 1) {
        snprintf(err, errlen, "%s is read-only", s->path);
        rc = -STORE_ERR_DIR;
        goto fail;
    }
    if ((rc = check_database(s, err, errlen)) < 0) goto fail;
    int applied = 0;
    rc = migrate_apply(s->wdb, store_migrations, store_migration_count, &applied, err, errlen);
    if (rc < 0) goto fail;
    if (applied > 0)
        LOGI("store", "%s: applied %d migration(s), schema version %d", s->path, applied,
             store_migration_count);
    if ((rc = reader_open(s, &s->startup, err, errlen)) < 0) goto fail;
    *status = 0;
    err[0] = '\0';
    return s;
fail:
    *status = rc;
    store_close(s);
    return NULL;
}

/* ---- threads ---- */

static int list_reserve(void **items, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap * 2 : 64;
    while (n < need) n *= 2;
    void *grown = realloc(*items, n * size);
    if (!grown) return -1;
    *items = grown;
    *cap = n;
    return 0;
}

bool store_push_result(struct store *s, const struct store_result *r) {
    if (r && list_reserve((void **)&s->results.items, &s->results.cap, s->results.count + 1,
                          sizeof *s->results.items) == 0)
        s->results.items[s->results.count++] = *r;
    else if (r)
        LOGE("store", "out of memory: a result (cookie %llu) was lost",
             (unsigned long long)r->cookie);
    if (s->wake_sent) return false;
    s->wake_sent = true;
    return true;
}

void store_wake(struct store *s, bool needed) {
    if (needed && s->wake) s->wake(s->wake_ctx);
}

/* Reports a committed chunk: the sequence number, the results asked for, and the commit's
 * figures. */
static void post_commit(struct store *s, const struct store_op *ops, size_t n, const int *status,
                        int64_t began_us) {
    int64_t end_us = now_mono_us();
    struct store_result commit = {.kind = STORE_RESULT_COMMIT,
                                  .ops = (int)n,
                                  .commit_us = end_us - began_us,
                                  .wait_us = end_us - ops[0].submitted_us};
    pthread_mutex_lock(&s->lock);
    s->committed_shared = ops[n - 1].seq;
    s->commits++;
    bool need = store_push_result(s, &commit);
    for (size_t i = 0; i < n; i++) {
        if (!ops[i].want_result) continue;
        struct store_result r = {
            .kind = STORE_RESULT_WRITE, .cookie = ops[i].cookie, .status = status[i]};
        need |= store_push_result(s, &r);
    }
    need |= store_push_result(s, NULL);
    pthread_mutex_unlock(&s->lock);
    store_wake(s, need);
}

/*
 * The WAL's hard bound. The checkpoint thread's catch-up checkpoints normally let the WAL start
 * again (see on_wal_commit), but nothing guarantees it: commits that follow each other without a
 * pause can keep it from ever starting again. Past the bound the writer truncates the WAL itself
 * (a TRUNCATE checkpoint waits for readers and copies what is left). Commits, and the messages
 * held for them, wait meanwhile; the loop does not. If it cannot (a reader stayed too long),
 * the next try waits for another quarter of the bound. Writer thread.
 */
static void bound_wal(struct store *s) {
    if (s->wal_frames < s->wal_bound) return;
    int log = 0, done = 0;
    int rc = sqlite3_wal_checkpoint_v2(s->wdb, NULL, SQLITE_CHECKPOINT_TRUNCATE, &log, &done);
    if (rc != SQLITE_OK) {
        LOGW("store", "the WAL has %d pages and could not be truncated: %s", s->wal_frames,
             sqlite3_errmsg(s->wdb));
        s->wal_bound = s->wal_frames + s->cfg.wal_limit_frames / 4;
        return;
    }
    LOGW("store", "the WAL reached %d pages (checkpoints fell behind): truncated", s->wal_frames);
    s->wal_frames = 0;
    s->wal_bound = s->cfg.wal_limit_frames;
    pthread_mutex_lock(&s->lock);
    s->wal_truncations++;
    pthread_mutex_unlock(&s->lock);
}

static void *writer_main(void *arg) {
    struct store *s = arg;
    struct op_list batch = {0};
    int *status = NULL;
    size_t status_cap = 0;
    bool failed = false;
    pthread_mutex_lock(&s->lock);
    while (!failed) {
        while (s->pending.count == 0 && !s->stopping) pthread_cond_wait(&s->writer_cond, &s->lock);
        if (s->pending.count == 0) break; /* stopping, and everything is committed */
        struct op_list taken = s->pending;
        s->pending = batch;
        batch = taken;
        pthread_mutex_unlock(&s->lock);

        if (list_reserve((void **)&status, &status_cap, batch.count, sizeof *status) < 0) {
            LOGE("store", "out of memory in the writer");
            failed = true;
        }
        size_t chunk = s->cfg.per_op ? 1 : (size_t)s->cfg.max_batch;
        for (size_t at = 0, n; at < batch.count && !failed; at += n) {
            n = batch.count - at < chunk ? batch.count - at : chunk;
            while (at + n < batch.count && batch.items[at + n - 1].group_next) n++;
            int64_t began_us = now_mono_us();
            if (writer_apply(s, batch.items + at, n, status + at) < 0)
                failed = true;
            else
                post_commit(s, batch.items + at, n, status + at, began_us);
            bound_wal(s);
        }
        for (size_t i = 0; i < batch.count; i++) store_op_release(&batch.items[i]);
        batch.count = 0;
        pthread_mutex_lock(&s->lock);
    }
    if (failed) {
        LOGE("store", "the writer gave up: nothing more will be committed");
        s->failed_shared = true;
        for (size_t i = 0; i < s->pending.count; i++) store_op_release(&s->pending.items[i]);
        s->pending.count = 0;
        bool need = store_push_result(s, NULL);
        pthread_mutex_unlock(&s->lock);
        store_wake(s, need);
    } else {
        pthread_mutex_unlock(&s->lock);
    }
    free(batch.items);
    free(status);
    return NULL;
}

static void job_free(struct auth_job *job) {
    if (job->password) {
        sodium_memzero(job->password, strlen(job->password));
        free(job->password);
    }
    sodium_memzero(job, sizeof *job);
    free(job);
}

static void *auth_main(void *arg) {
    struct store *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->jobs_head && !s->stopping) pthread_cond_wait(&s->auth_cond, &s->lock);
        if (s->stopping) break;
        struct auth_job *job = s->jobs_head;
        s->jobs_head = job->next;
        if (!s->jobs_head) s->jobs_tail = NULL;
        pthread_mutex_unlock(&s->lock);

        struct store_result r = {.cookie = job->cookie};
        size_t len = strlen(job->password);
        if (job->kind == AUTH_JOB_HASH) {
            r.kind = STORE_RESULT_HASH;
            if (crypto_pwhash_str(r.text, job->password, len, crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                  crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
                r.status = -STORE_ERR_NO_MEMORY;
        } else {
            r.kind = STORE_RESULT_VERIFY;
            if (crypto_pwhash_str_verify(job->hash, job->password, len) != 0)
                r.status = -STORE_ERR_BAD_PASSWORD;
        }
        job_free(job);
        pthread_mutex_lock(&s->lock);
        bool need = store_push_result(s, &r);
        pthread_mutex_unlock(&s->lock);
        store_wake(s, need);
        sodium_memzero(&r, sizeof r);
        pthread_mutex_lock(&s->lock);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

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
static int on_wal_commit(void *ctx, sqlite3 *db, const char *name, int frames) {
    (void)db;
    (void)name;
    struct store *s = ctx;
    s->wal_frames = frames;
    if (frames < CHECKPOINT_FRAMES) return SQLITE_OK;
    pthread_mutex_lock(&s->lock);
    if (!s->checkpoint_due) {
        s->checkpoint_due = true;
        pthread_cond_signal(&s->checkpoint_cond);
    }
    pthread_mutex_unlock(&s->lock);
    return SQLITE_OK;
}

static void *checkpointer_main(void *arg) {
    struct store *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->checkpoint_due && !s->stopping) pthread_cond_wait(&s->checkpoint_cond, &s->lock);
        if (s->stopping) break;
        pthread_mutex_unlock(&s->lock);
        int log = 0, done = 0;
        int rc = sqlite3_wal_checkpoint_v2(s->cdb, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
        if (rc != SQLITE_OK && rc != SQLITE_BUSY)
            LOGW("store", "checkpoint failed: %s", sqlite3_errmsg(s->cdb));
        pthread_mutex_lock(&s->lock);
        s->checkpoint_due = false;
        s->checkpoints++;
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static int start_checkpointer(struct store *s) {
    char err[256];
    if (sqlite3_open_v2(s->path, &s->cdb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
            SQLITE_OK ||
        store_configure_connection(s->cdb, s->cfg.sync_normal, err, sizeof err) < 0 ||
        sqlite3_exec(s->wdb, "PRAGMA wal_autocheckpoint=0", NULL, NULL, NULL) != SQLITE_OK) {
        LOGE("store", "cannot set up checkpoints: %s",
             s->cdb ? sqlite3_errmsg(s->cdb) : "out of memory");
        return -STORE_ERR_IO;
    }
    sqlite3_wal_hook(s->wdb, on_wal_commit, s);
    if (pthread_create(&s->checkpointer, NULL, checkpointer_main, s) != 0) return -STORE_ERR_IO;
    s->checkpointer_running = true;
    return 0;
}

int store_start(struct store *s, store_wake_fn wake_fn, void *wake_ctx) {
    s->wake = wake_fn;
    s->wake_ctx = wake_ctx;
    int rc = writer_prepare(s);
    if (rc < 0) return rc;
    if ((rc = readers_start(s)) < 0) return rc;
    if ((rc = start_checkpointer(s)) < 0) return rc;
    if (pthread_create(&s->writer, NULL, writer_main, s) != 0) return -STORE_ERR_IO;
    s->writer_running = true;
    if (pthread_create(&s->auth, NULL, auth_main, s) != 0) return -STORE_ERR_IO;
    s->auth_running = true;
    return 0;
}

void store_close(struct store *s) {
    if (!s) return;
    if (s->lock_ready) {
        pthread_mutex_lock(&s->lock);
        s->stopping = true;
        pthread_cond_broadcast(&s->writer_cond);
        pthread_cond_broadcast(&s->auth_cond);
        pthread_cond_broadcast(&s->reader_cond);
        pthread_mutex_unlock(&s->lock);
    }
    /* Reads in progress finish; queued and unpolled jobs are dropped (their owner frees them). */
    readers_stop(s);
    /* The writer first: it commits what is queued before it stops. */
    if (s->writer_running) pthread_join(s->writer, NULL);
    if (s->auth_running) pthread_join(s->auth, NULL);
    if (s->lock_ready) {
        pthread_mutex_lock(&s->lock);
        pthread_cond_broadcast(&s->checkpoint_cond);
        pthread_mutex_unlock(&s->lock);
    }
    if (s->checkpointer_running) pthread_join(s->checkpointer, NULL);
    if (s->cdb && sqlite3_close(s->cdb) != SQLITE_OK)
        LOGW("store", "checkpoint connection did not close cleanly");
    while (s->jobs_head) {
        struct auth_job *next = s->jobs_head->next;
        job_free(s->jobs_head);
        s->jobs_head = next;
    }
    for (size_t i = 0; i < s->pending.count; i++) store_op_release(&s->pending.items[i]);
    free(s->pending.items);
    free(s->results.items);
    writer_finalize(s);
    reader_close(&s->startup);
    if (s->wdb && sqlite3_close(s->wdb) != SQLITE_OK)
        LOGW("store", "write connection did not close cleanly");
    if (s->lock_fd >= 0) close(s->lock_fd);
    if (s->lock_ready) {
        pthread_cond_destroy(&s->reader_cond);
        pthread_cond_destroy(&s->checkpoint_cond);
        pthread_cond_destroy(&s->auth_cond);
        pthread_cond_destroy(&s->writer_cond);
        pthread_mutex_destroy(&s->lock);
    }
    free(s);
}

/* ---- the loop's side ---- */

void store_op_release(struct store_op *op) {
    if (op->type == STORE_OP_CHAT) {
        free(op->u.chat.text);
        op->u.chat.text = NULL;
    } else if (op->type == STORE_OP_IMPORT) {
        free(op->u.import.pgn);
        free(op->u.import.moves);
        op->u.import.pgn = NULL;
        op->u.import.moves = NULL;
    } else if (op->type == STORE_OP_REGISTER) {
        sodium_memzero(op->u.reg.password_hash, sizeof op->u.reg.password_hash);
    }
}

uint64_t store_submit_group(struct store *s, struct store_op *ops, size_t count) {
    if (count == 0) return 0;
    pthread_mutex_lock(&s->lock);
    bool was_empty = s->pending.count == 0;
    if (s->failed_shared || s->stopping ||
        list_reserve((void **)&s->pending.items, &s->pending.cap, s->pending.count + count,
                     sizeof *s->pending.items) < 0) {
        pthread_mutex_unlock(&s->lock);
        for (size_t i = 0; i < count; i++) store_op_release(&ops[i]);
        return 0;
    }
    int64_t now_us = now_mono_us();
    for (size_t i = 0; i < count; i++) {
        ops[i].seq = ++s->submitted;
        ops[i].submitted_us = now_us;
        ops[i].group_next = i + 1 < count;
        s->pending.items[s->pending.count++] = ops[i];
    }
    if (was_empty) pthread_cond_signal(&s->writer_cond);
    pthread_mutex_unlock(&s->lock);
    return s->submitted;
}

uint64_t store_submit(struct store *s, struct store_op *op) {
    return store_submit_group(s, op, 1);
}

uint64_t store_submitted(const struct store *s) {
    return s->submitted;
}

uint64_t store_committed(const struct store *s) {
    return s->committed;
}

uint64_t store_committed_now(const struct store *s) {
    return atomic_load_explicit(&s->committed_shared, memory_order_acquire);
}

bool store_failed(const struct store *s) {
    return s->failed;
}

int store_poll(struct store *s, store_result_fn fn, void *ctx) {
    pthread_mutex_lock(&s->lock);
    s->committed = s->committed_shared;
    s->failed = s->failed_shared;
    struct result_list taken = s->results;
    s->results = (struct result_list){0};
    struct store_read_job *done = readers_take_done(s);
    s->wake_sent = false;
    pthread_mutex_unlock(&s->lock);
    for (size_t i = 0; fn && i < taken.count; i++) fn(ctx, &taken.items[i]);
    if (taken.items) sodium_memzero(taken.items, taken.count * sizeof *taken.items);
    free(taken.items);
    int count = (int)taken.count;
    while (done) {
        struct store_read_job *next = done->next;
        done->next = NULL;
        done->done(done); /* may free the job */
        done = next;
        count++;
    }
    return count;
}

void store_get_stats(struct store *s, struct store_stats *out) {
    pthread_mutex_lock(&s->lock);
    *out = (struct store_stats){
        .write_queue = s->pending.count,
        .read_queue = s->reads_waiting,
        .readers = s->reader_count,
        .commits = s->commits,
        .transactions_failed = s->transactions_failed,
        .checkpoints = s->checkpoints,
        .wal_truncations = s->wal_truncations,
    };
    pthread_mutex_unlock(&s->lock);
}

static int submit_job(struct store *s, enum auth_job_kind kind, const char *password,
                      const char *hash, uint64_t cookie) {
    struct auth_job *job = calloc(1, sizeof *job);
    if (!job) return -STORE_ERR_NO_MEMORY;
    job->kind = kind;
    job->cookie = cookie;
    job->password = strdup(password);
    if (!job->password) {
        free(job);
        return -STORE_ERR_NO_MEMORY;
    }
    if (hash) snprintf(job->hash, sizeof job->hash, "%s", hash);
    pthread_mutex_lock(&s->lock);
    if (s->jobs_tail)
        s->jobs_tail->next = job;
    else
        s->jobs_head = job;
    s->jobs_tail = job;
    pthread_cond_signal(&s->auth_cond);
    pthread_mutex_unlock(&s->lock);
    return 0;
}

int store_hash_password(struct store *s, const char *password, uint64_t cookie) {
    return submit_job(s, AUTH_JOB_HASH, password, NULL, cookie);
}

int store_verify_password(struct store *s, const char *password, const char *hash,
                          uint64_t cookie) {
    return submit_job(s, AUTH_JOB_VERIFY, password, hash, cookie);
}
