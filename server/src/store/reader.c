/*
 * The reader pool, the same for every backend: a few threads (store_config.readers), each with
 * its own connection of the backend's, taking read jobs from one FIFO. A finished job goes on the
 * done list and the loop is woken as for a commit (store_push_result with no result: the same
 * coalesced wake-up); store_poll() hands the finished jobs back to the loop through their done
 * callbacks.
 *
 * Everything shared is guarded by the store's lock; a job belongs to the thread running it
 * between being taken from the queue and being put on the done list.
 *
 * Also the queries of read.h, each handed to the reader's backend.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "store/internal.h"
#include "store/read.h"
#include "util/log.h"
#include "util/now.h"

static void *reader_main(void *arg) {
    struct read_thread *t = arg;
    struct store *s = t->store;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->reads_head && !s->stopping) pthread_cond_wait(&s->reader_cond, &s->lock);
        if (s->stopping) break;
        struct store_read_job *job = s->reads_head;
        s->reads_head = job->next;
        if (!s->reads_head) s->reads_tail = NULL;
        s->reads_waiting--;
        pthread_mutex_unlock(&s->lock);

        job->next = NULL;
        if (s->cfg.read_delay_ms > 0) {
            struct timespec ts = {s->cfg.read_delay_ms / 1000,
                                  (long)(s->cfg.read_delay_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
        job->started_us = now_mono_us();
        job->run(t->reader, job);
        job->finished_us = now_mono_us();

        pthread_mutex_lock(&s->lock);
        if (s->done_tail)
            s->done_tail->next = job;
        else
            s->done_head = job;
        s->done_tail = job;
        bool need = store_push_result(s, NULL);
        pthread_mutex_unlock(&s->lock);
        store_wake(s, need);
        pthread_mutex_lock(&s->lock);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

int readers_start(struct store *s) {
    int count = s->cfg.readers > 0 ? s->cfg.readers : 2;
    s->readers = calloc((size_t)count, sizeof *s->readers);
    if (!s->readers) return -STORE_ERR_NO_MEMORY;
    s->reader_count = count;
    for (int i = 0; i < count; i++) {
        struct read_thread *t = &s->readers[i];
        char err[256];
        t->store = s;
        int rc = s->backend->reader_open(s->db, &t->reader, err, sizeof err);
        if (rc < 0) {
            LOGE("store", "reader %d: %s", i, err);
            return rc;
        }
        if (pthread_create(&t->thread, NULL, reader_main, t) != 0) return -STORE_ERR_IO;
        t->running = true;
    }
    return 0;
}

void readers_stop(struct store *s) {
    /* s->stopping is set and reader_cond broadcast by store_close. */
    for (int i = 0; i < s->reader_count; i++) {
        struct read_thread *t = &s->readers[i];
        if (t->running) pthread_join(t->thread, NULL);
        s->backend->reader_close(t->reader);
    }
    free(s->readers);
    s->readers = NULL;
    s->reader_count = 0;
}

struct store_read_job *readers_take_done(struct store *s) {
    struct store_read_job *done = s->done_head;
    s->done_head = s->done_tail = NULL;
    return done;
}

int store_read_submit(struct store *s, struct store_read_job *job) {
    job->next = NULL;
    job->queued_us = now_mono_us();
    job->started_us = job->finished_us = 0;
    pthread_mutex_lock(&s->lock);
    int rc = 0;
    if (s->stopping || s->reader_count == 0)
        rc = -STORE_ERR_FAILED;
    else if (s->reads_waiting >= STORE_READ_QUEUE_MAX)
        rc = -STORE_ERR_BUSY;
    if (rc == 0) {
        if (s->reads_tail)
            s->reads_tail->next = job;
        else
            s->reads_head = job;
        s->reads_tail = job;
        s->reads_waiting++;
        pthread_cond_signal(&s->reader_cond);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

/* ---- the queries (read.h) ---- */

struct store_reader *store_startup_reader(struct store *s) {
    return s->startup;
}

void store_game_free(struct store_game *g) {
    free(g->moves);
    g->moves = NULL;
}

int store_find_token(struct store_reader *r, const uint8_t hash[STORE_HASH_LEN],
                     struct store_identity *out) {
    return r->backend->find_token(r, hash, out);
}

int store_find_account(struct store_reader *r, const char *username, struct store_identity *out,
                       char password_hash[STORE_PWHASH_MAX]) {
    return r->backend->find_account(r, username, out, password_hash);
}

int store_find_player(struct store_reader *r, const char *player_id, struct store_identity *out) {
    return r->backend->find_player(r, player_id, out);
}

int store_find_username(struct store_reader *r, const char *username, struct store_identity *out) {
    return r->backend->find_username(r, username, out);
}

int store_read_game(struct store_reader *r, const char *id, struct store_game *out) {
    return r->backend->read_game(r, id, out);
}

int store_player_games(struct store_reader *r, const char *player_id, int page, int per_page,
                       struct store_game *out, int *count, bool *more) {
    return r->backend->player_games(r, player_id, page, per_page, out, count, more);
}

int store_each_player_game(struct store_reader *r, const char *player_id,
                           const struct store_game_cursor *after, int limit,
                           int (*fn)(void *ctx, const struct store_game *game), void *ctx) {
    return r->backend->each_player_game(r, player_id, after, limit, fn, ctx);
}

int store_each_arena_game(struct store_reader *r, const char *arena_id,
                          const struct store_game_cursor *after, int limit,
                          int (*fn)(void *ctx, const struct store_game *game), void *ctx) {
    return r->backend->each_arena_game(r, arena_id, after, limit, fn, ctx);
}

int store_load_live(struct store_reader *r,
                    int (*fn)(void *ctx, const struct store_game *game,
                              const struct store_identity players[2]),
                    void *ctx) {
    return r->backend->load_live(r, fn, ctx);
}

int store_load_arenas(struct store_reader *r, int finished_max,
                      const struct store_arena_visitor *visitor) {
    return r->backend->load_arenas(r, finished_max, visitor);
}

int store_scheduled_arenas(struct store_reader *r,
                           int (*fn)(void *ctx, const char *name, int64_t starts_at), void *ctx) {
    return r->backend->scheduled_arenas(r, fn, ctx);
}

int store_owned_bots(struct store_reader *r, const char *owner_id, int max, struct store_bot *out,
                     int *count) {
    return r->backend->owned_bots(r, owner_id, max, out, count);
}

int store_leaderboard(struct store_reader *r, int category, int limit, int64_t now_ms,
                      struct store_leader *out, int *count) {
    return r->backend->leaderboard(r, category, limit, now_ms, out, count);
}

int store_rating_history(struct store_reader *r, const char *player_id, int max,
                         struct store_rating_point *out, int *count) {
    *count = 0;
    if (max < 1 || max > STORE_RATING_HISTORY_MAX) return -STORE_ERR_NOT_FOUND;
    int rc = r->backend->rating_history(r, player_id, max, out, count);
    /* Read newest first (the last max games); given oldest first. */
    for (int i = 0, k = *count - 1; rc == 0 && i < k; i++, k--) {
        struct store_rating_point t = out[i];
        out[i] = out[k];
        out[k] = t;
    }
    return rc;
}

int store_player_settings(struct store_reader *r, const char *player_id,
                          char out[STORE_SETTINGS_MAX + 1]) {
    return r->backend->player_settings(r, player_id, out);
}

int store_account_password(struct store_reader *r, const char *player_id,
                           char password_hash[STORE_PWHASH_MAX]) {
    return r->backend->account_password(r, player_id, password_hash);
}

int store_sessions(struct store_reader *r, const char *player_id, int max,
                   struct store_session *out, int *count) {
    return r->backend->sessions(r, player_id, max, out, count);
}

int store_blocks(struct store_reader *r, const char *player_id, int max, struct store_named *out,
                 int *count) {
    return r->backend->blocks(r, player_id, max, out, count);
}

int store_reports(struct store_reader *r, bool closed, int max, struct store_report *out,
                  int *count) {
    return r->backend->reports(r, closed, max, out, count);
}

int store_mod_log(struct store_reader *r, const char *target_id, int max,
                  struct store_mod_entry *out, int *count) {
    return r->backend->mod_log(r, target_id, max, out, count);
}

int store_find_api_token(struct store_reader *r, const uint8_t hash[STORE_HASH_LEN],
                         struct store_identity *out, char scopes[STORE_SCOPES_MAX],
                         int64_t *created_at) {
    return r->backend->find_api_token(r, hash, out, scopes, created_at);
}

int store_api_tokens(struct store_reader *r, const char *player_id, int max,
                     struct store_api_token *out, int *count) {
    return r->backend->api_tokens(r, player_id, max, out, count);
}

void store_analysis_free(struct store_analysis *analysis) {
    free(analysis->plies);
    analysis->plies = NULL;
    analysis->count = 0;
}

int store_read_analysis(struct store_reader *r, const char *game_id, struct store_analysis *out) {
    return r->backend->read_analysis(r, game_id, out);
}

int store_pending_analyses(struct store_reader *r,
                           int (*fn)(void *ctx, const struct store_analysis *analysis), void *ctx) {
    return r->backend->pending_analyses(r, fn, ctx);
}
