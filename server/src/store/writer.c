/*
 * The writer thread, the same for every backend. It swaps out everything the loop queued
 * (group commit), cuts it into chunks of at most max_batch operations (one with per_op; a
 * group submitted together is never cut), and has the backend apply each chunk in one
 * transaction. An operation the backend refuses on its own (a taken username, a move for an
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

static void pause_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/*
 * Applies ops[0..count) in one transaction and commits, retrying a failed transaction a few
 * times. Each op's own status goes to status[i] (0, -CONFLICT, -NOT_FOUND...). Returns 0, or
 * -STORE_ERR_IO when the transaction could not be committed (nothing of it is stored).
 */
static int apply_chunk(struct store *s, const struct store_op *ops, size_t count, int *status) {
    const struct store_backend *be = s->backend;
    for (int attempt = 0; attempt < RETRY_ATTEMPTS; attempt++) {
        if (attempt > 0) pause_ms(s->cfg.retry_ms << attempt);
        int rc = be->begin(s->db);
        for (size_t i = 0; rc == 0 && i < count; i++) {
            rc = be->apply(s->db, &ops[i], &status[i]);
            if (rc == 0 && status[i] < 0 && !ops[i].want_result)
                LOGW("store", "op %d for game=%s player=%s not stored: %s", (int)ops[i].type,
                     ops[i].game_id, ops[i].player_id, store_status_name(status[i]));
        }
        if (rc == 0 && s->cfg.commit_delay_ms > 0) pause_ms(s->cfg.commit_delay_ms);
        if (rc == 0 && (rc = be->commit(s->db)) == 0) return 0;
        LOGE("store", "transaction of %zu ops failed (attempt %d of %d): %s", count, attempt + 1,
             RETRY_ATTEMPTS, store_status_name(rc));
        pthread_mutex_lock(&s->lock);
        s->transactions_failed++;
        pthread_mutex_unlock(&s->lock);
        be->rollback(s->db);
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
    bool failed = false;
    pthread_mutex_lock(&s->lock);
    while (!failed) {
        while (s->pending.count == 0 && !s->stopping) pthread_cond_wait(&s->writer_cond, &s->lock);
        if (s->pending.count == 0) break; /* stopping, and everything is committed */
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
            if (apply_chunk(s, batch.items + at, n, status + at) < 0)
                failed = true;
            else
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
