/*
 * The writer thread, the same for every backend. It swaps out everything the loop queued
 * (group commit), cuts it into chunks of at most max_batch operations (one with per_op; a
 * group submitted together is never cut), and has the backend apply each chunk in one
 * transaction, starting one at most once every commit_interval_us (what the loop submits in the
 * meantime joins it). An operation the backend refuses on its own (a taken username, a move for an
 * unknown game) fails alone and is reported; a transaction that fails as a whole (I/O, a full
 * disk, a lock) is rolled back and retried 8 times over about 6 s, and after that the writer
 * gives up: nothing more is committed, so a move is never reported committed unless it is.
 * After each commit it reports the last committed sequence number, the results asked for and
 * the commit's figures through the result queue.
 */
#include <stdlib.h>
#include <time.h>

#include "store/internal.h"
#include "util/log.h"
#include "util/now.h"

#define RETRY_ATTEMPTS 8
/* While the database cannot be reached, the transaction is tried again at least this often. */
#define DOWN_RETRY_MS 1000

static void pause_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* After a failed transaction: whether the database could not be reached (the backend could not
 * connect again), published for the health report; and whether the writer should keep trying
 * beyond its attempts (down, and the store is not closing). */
static bool note_down(struct store *s, bool down) {
    pthread_mutex_lock(&s->lock);
    s->transactions_failed++;
    s->database_down = down;
    bool keep_trying = down && !s->stopping;
    pthread_mutex_unlock(&s->lock);
    return keep_trying;
}

/*
 * Applies ops[0..count) in one transaction and commits, retrying a failed transaction a few
 * times, and for as long as the database cannot be reached (a database server restarting or
 * out of reach: the writes wait, and so do the messages held for them). Each op's own status
 * goes to status[i] (0, -CONFLICT, -NOT_FOUND...). Returns 0, or -STORE_ERR_IO when the
 * transaction could not be committed (nothing of it is stored), or -STORE_ERR_FENCED at once
 * when the node's lease was taken (nothing of it is stored either).
 */
static int apply_chunk(struct store *s, const struct store_op *ops, size_t count, int *status) {
    const struct store_backend *be = s->backend;
    bool down = false, was_down = false;
    /* failures: those that count against the attempts (not while the database is away) */
    for (int attempt = 0, failures = 0; failures < RETRY_ATTEMPTS; attempt++) {
        if (attempt > 0) {
            int ms = s->cfg.retry_ms << (failures < RETRY_ATTEMPTS ? failures : RETRY_ATTEMPTS - 1);
            pause_ms(down && ms > DOWN_RETRY_MS ? DOWN_RETRY_MS : ms);
        }
        int rc = be->begin(s->db);
        for (size_t i = 0; rc == 0 && i < count; i++) {
            rc = be->apply(s->db, &ops[i], &status[i]);
            if (rc == 0 && status[i] < 0 && !ops[i].want_result)
                LOGW("store", "op %d for game=%s player=%s not stored: %s", (int)ops[i].type,
                     ops[i].game_id, ops[i].player_id, store_status_name(status[i]));
        }
        if (rc == 0 && s->cfg.commit_delay_ms > 0) pause_ms(s->cfg.commit_delay_ms);
        if (rc == 0 && (rc = be->commit(s->db)) == 0) {
            if (was_down) LOGI("store", "the database is back: writing again");
            return 0;
        }
        if (rc == -STORE_ERR_FENCED) {
            /* Another node took the lease, and this node's games with it: retrying cannot
             * help, and nothing of this transaction may be written. */
            LOGE("store", "this node's lease was taken over by another node: nothing more will "
                          "be written");
            be->rollback(s->db);
            return rc;
        }
        if (attempt < RETRY_ATTEMPTS || attempt % 30 == 0)
            LOGE("store", "transaction of %zu ops failed (attempt %d): %s", count, attempt + 1,
                 store_status_name(rc));
        be->rollback(s->db);
        down = note_down(s, be->reachable && !be->reachable(s->db));
        was_down |= down;
        if (!down) failures++;
    }
    return -STORE_ERR_IO;
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

void *store_writer_main(void *arg) {
    struct store *s = arg;
    struct op_list batch = {0};
    int *status = NULL;
    size_t status_cap = 0;
    bool failed = false, fenced = false;
    int64_t last_began_us = 0;
    pthread_mutex_lock(&s->lock);
    while (!failed) {
        while (s->pending.count == 0 && !s->stopping) pthread_cond_wait(&s->writer_cond, &s->lock);
        if (s->pending.count == 0) break; /* stopping, and everything is committed */
        /* Too soon after the last transaction began: let more join this one. */
        int64_t early_us = last_began_us + s->cfg.commit_interval_us - now_mono_us();
        if (early_us > 0 && !s->stopping) {
            pthread_mutex_unlock(&s->lock);
            struct timespec ts = {early_us / 1000000, (long)(early_us % 1000000) * 1000L};
            nanosleep(&ts, NULL);
            pthread_mutex_lock(&s->lock);
        }
        last_began_us = now_mono_us();
        struct op_list taken = s->pending;
        s->pending = batch;
        batch = taken;
        pthread_mutex_unlock(&s->lock);

        if (store_list_reserve((void **)&status, &status_cap, batch.count, sizeof *status) < 0) {
            LOGE("store", "out of memory in the writer");
            failed = true;
        }
        size_t chunk = s->cfg.per_op ? 1 : (size_t)s->cfg.max_batch;
        for (size_t at = 0, n; at < batch.count && !failed; at += n) {
            n = batch.count - at < chunk ? batch.count - at : chunk;
            while (at + n < batch.count && batch.items[at + n - 1].group_next) n++;
            int64_t began_us = now_mono_us();
            int rc = apply_chunk(s, batch.items + at, n, status + at);
            if (rc < 0) {
                failed = true;
                fenced = rc == -STORE_ERR_FENCED;
            } else
                post_commit(s, batch.items + at, n, status + at, began_us);
            if (s->backend->maintain) s->backend->maintain(s->db);
        }
        for (size_t i = 0; i < batch.count; i++) store_op_release(&batch.items[i]);
        batch.count = 0;
        pthread_mutex_lock(&s->lock);
    }
    if (failed) {
        LOGE("store", "the writer gave up: nothing more will be committed");
        s->failed_shared = true;
        s->fenced_shared = fenced;
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
