/*
 * The store's generic lifecycle and queues: opening through the configured backend (opening,
 * migrations, the startup reader), starting and stopping the threads, the operation queue
 * between the loop and the writer thread (group commit: the writer swaps out everything queued
 * and commits it at once, writer.c), and the result queue back to the loop with coalesced
 * wake-ups.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/internal.h"
#include "store/pg.h"
#include "store/sqlite.h"
#include "util/log.h"
#include "util/now.h"

static const char *const status_names[STORE_ERR_COUNT] = {
    [STORE_OK] = "OK",
    [STORE_ERR_LOCATION] = "LOCATION",
    [STORE_ERR_LOCKED] = "LOCKED",
    [STORE_ERR_CORRUPT] = "CORRUPT",
    [STORE_ERR_TOO_NEW] = "TOO_NEW",
    [STORE_ERR_MIGRATION] = "MIGRATION",
    [STORE_ERR_IO] = "IO",
    [STORE_ERR_NO_MEMORY] = "NO_MEMORY",
    [STORE_ERR_NOT_FOUND] = "NOT_FOUND",
    [STORE_ERR_CONFLICT] = "CONFLICT",
    [STORE_ERR_FAILED] = "FAILED",
    [STORE_ERR_LIMIT] = "LIMIT",
    [STORE_ERR_BUSY] = "BUSY",
    [STORE_ERR_EXISTS] = "EXISTS",
    [STORE_ERR_UNSUPPORTED] = "UNSUPPORTED",
    [STORE_ERR_DENIED] = "DENIED",
    [STORE_ERR_UNREACHABLE] = "UNREACHABLE",
    [STORE_ERR_FENCED] = "FENCED",
};

const char *store_status_name(int status) {
    if (status < 0) status = -status;
    return status < STORE_ERR_COUNT ? status_names[status] : "UNKNOWN";
}

/* These spellings are stored (mod_log.action, reports.kind) and sent: never change one. */
static const char *const mod_action_names[STORE_MOD_ACTION_COUNT] = {
    [STORE_MOD_MUTE] = "mute",       [STORE_MOD_UNMUTE] = "unmute", [STORE_MOD_BAN] = "ban",
    [STORE_MOD_UNBAN] = "unban",     [STORE_MOD_CLOSE] = "close",   [STORE_MOD_REOPEN] = "reopen",
    [STORE_MOD_RESOLVE] = "resolve", [STORE_MOD_GRANT] = "grant",
};

static const char *const report_kind_names[STORE_REPORT_KIND_COUNT] = {
    [STORE_REPORT_CHEAT] = "cheat",
    [STORE_REPORT_ABUSE] = "abuse",
    [STORE_REPORT_SPAM] = "spam",
    [STORE_REPORT_OTHER] = "other",
};

const char *store_mod_action_name(int action) {
    return action >= 0 && action < STORE_MOD_ACTION_COUNT ? mod_action_names[action] : NULL;
}

const char *store_report_kind_name(int kind) {
    return kind >= 0 && kind < STORE_REPORT_KIND_COUNT ? report_kind_names[kind] : NULL;
}

/* The backend of each id: adding one is a line here (and its files). */
static const struct store_backend *backend_for(enum store_backend_id id) {
    switch (id) {
        case STORE_BACKEND_SQLITE: return &store_sqlite_backend;
        case STORE_BACKEND_POSTGRESQL: return &store_pg_backend;
    }
    return NULL;
}

/* ---- restoring (no store open) ---- */

int store_restore(const struct store_config *cfg, const char *source, int *version, char *err,
                  size_t errlen) {
    const struct store_backend *be = backend_for(cfg->backend);
    *version = 0;
    if (!be || !be->restore) {
        snprintf(err, errlen, "the %s store cannot restore a backup file: use its own tools",
                 be ? be->name : "configured");
        return -STORE_ERR_UNSUPPORTED;
    }
    return be->restore(cfg, source, version, err, errlen);
}

/* ---- the operator's tools ---- */

int store_reset_password(const struct store_config *cfg, const char *username,
                         const char *password_hash, int64_t at, int *revoked, char *err,
                         size_t errlen) {
    const struct store_backend *b = backend_for(cfg->backend);
    *revoked = 0;
    if (!b || !b->reset_password) {
        snprintf(err, errlen, "this store backend cannot reset passwords");
        return -STORE_ERR_IO;
    }
    return b->reset_password(cfg, username, password_hash, at, revoked, err, errlen);
}

/* ---- opening ---- */

struct store *store_open(const struct store_config *cfg, int *status, char *err, size_t errlen) {
    int rc = -STORE_ERR_NO_MEMORY;
    snprintf(err, errlen, "out of memory");
    struct store *s = calloc(1, sizeof *s);
    if (!s) goto fail;
    s->cfg = *cfg;
    if (s->cfg.max_batch <= 0) s->cfg.max_batch = 8192;
    if (s->cfg.retry_ms <= 0) s->cfg.retry_ms = 25;
    s->cfg.options = NULL; /* read by the backend's open only */
    if (pthread_mutex_init(&s->lock, NULL) != 0) goto fail;
    if (pthread_cond_init(&s->writer_cond, NULL) != 0) {
        pthread_mutex_destroy(&s->lock);
        goto fail;
    }
    if (pthread_cond_init(&s->reader_cond, NULL) != 0) {
        pthread_cond_destroy(&s->writer_cond);
        pthread_mutex_destroy(&s->lock);
        goto fail;
    }
    s->lock_ready = true;
    s->backend = backend_for(cfg->backend);
    if (!s->backend) {
        snprintf(err, errlen, "unknown store backend %d", (int)cfg->backend);
        rc = -STORE_ERR_IO;
        goto fail;
    }
    if ((rc = s->backend->open(cfg, &s->db, err, errlen)) < 0) goto fail;
    int applied = 0, version = 0;
    if ((rc = s->backend->migrate(s->db, &applied, &version, err, errlen)) < 0) goto fail;
    if (applied > 0)
        LOGI("store", "%s (%s): applied %d migration(s), schema version %d",
             cfg->backend == STORE_BACKEND_SQLITE && cfg->location ? cfg->location : "database",
             s->backend->name, applied, version);
    if (cfg->leases) {
        /* Before anything is read: a node that takes this node's games over from now on takes
         * them from a store this node has not read yet. */
        if (!s->backend->lease_take || !cfg->node_id || !*cfg->node_id) {
            snprintf(err, errlen, "the %s store has no node leases, or no node id was given",
                     s->backend->name);
            rc = -STORE_ERR_UNSUPPORTED;
            goto fail;
        }
        if ((rc = s->backend->lease_take(s->db, err, errlen)) < 0) goto fail;
    }
    if ((rc = s->backend->reader_open(s->db, &s->startup, err, errlen)) < 0) goto fail;
    *status = 0;
    err[0] = '\0';
    return s;
fail:
    *status = rc;
    store_close(s);
    return NULL;
}

/* ---- threads ---- */

int store_list_reserve(void **items, size_t *cap, size_t need, size_t size) {
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
    if (r && store_list_reserve((void **)&s->results.items, &s->results.cap, s->results.count + 1,
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

int store_start(struct store *s, store_wake_fn wake_fn, void *wake_ctx) {
    s->wake = wake_fn;
    s->wake_ctx = wake_ctx;
    int rc = s->backend->session_open(s->db);
    if (rc < 0) return rc;
    if ((rc = readers_start(s)) < 0) return rc;
    if (s->backend->start) {
        s->backend_started = true;
        if ((rc = s->backend->start(s->db)) < 0) return rc;
    }
    if (pthread_create(&s->writer, NULL, store_writer_main, s) != 0) return -STORE_ERR_IO;
    s->writer_running = true;
    return backups_start(s);
}

void store_close(struct store *s) {
    if (!s) return;
    if (s->lock_ready) {
        pthread_mutex_lock(&s->lock);
        s->stopping = true;
        pthread_cond_broadcast(&s->writer_cond);
        pthread_cond_broadcast(&s->reader_cond);
        pthread_mutex_unlock(&s->lock);
    }
    atomic_store(&s->backup_cancel, true);
    backups_stop(s); /* a backup under way is abandoned */
    /* Reads in progress finish; queued and unpolled jobs are dropped (their owner frees them). */
    readers_stop(s);
    /* The writer first: it commits what is queued before it stops. */
    if (s->writer_running) pthread_join(s->writer, NULL);
    if (s->backend_started && s->backend->stop) s->backend->stop(s->db);
    for (size_t i = 0; i < s->pending.count; i++) store_op_release(&s->pending.items[i]);
    free(s->pending.items);
    free(s->results.items);
    if (s->db) {
        s->backend->session_close(s->db);
        s->backend->reader_close(s->startup);
        s->backend->close(s->db);
    }
    if (s->lock_ready) {
        pthread_cond_destroy(&s->reader_cond);
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
    } else if (op->type == STORE_OP_SETTINGS_SET) {
        free(op->u.settings.json);
        op->u.settings.json = NULL;
    } else if (op->type == STORE_OP_REGISTER) {
        explicit_bzero(op->u.reg.password_hash, sizeof op->u.reg.password_hash);
    }
}

uint64_t store_submit_group(struct store *s, struct store_op *ops, size_t count) {
    if (count == 0) return 0;
    pthread_mutex_lock(&s->lock);
    bool was_empty = s->pending.count == 0;
    if (s->failed_shared || s->stopping ||
        store_list_reserve((void **)&s->pending.items, &s->pending.cap, s->pending.count + count,
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

bool store_fenced(const struct store *s) {
    return s->fenced;
}

int store_poll(struct store *s, store_result_fn fn, void *ctx) {
    pthread_mutex_lock(&s->lock);
    s->committed = s->committed_shared;
    s->failed = s->failed_shared;
    s->fenced = s->fenced_shared;
    struct result_list taken = s->results;
    s->results = (struct result_list){0};
    struct store_read_job *done = readers_take_done(s);
    s->wake_sent = false;
    pthread_mutex_unlock(&s->lock);
    for (size_t i = 0; fn && i < taken.count; i++) fn(ctx, &taken.items[i]);
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
        .database_down = s->database_down,
    };
    pthread_mutex_unlock(&s->lock);
    if (s->backend->stats) s->backend->stats(s->db, out);
}
