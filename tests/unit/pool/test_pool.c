/*
 * Worker pool tests with real searches: many concurrent games get legal moves; cancellation of
 * queued and running jobs; a move preempts a long analysis, which then resumes; a review comes
 * out the same alone, on a reused table and when preempted; earliest
 * deadline first; tables stay within a tiny budget by evicting idle ones; released games free
 * their tables; shutdown cancels what is left.
 */
#define _POSIX_C_SOURCE 200809L

#include <chess/fen.h>
#include <chess/movegen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "pool/pool.h"
#include "util/now.h"

/* Events delivered by the pool, collected for the test thread. */
struct inbox {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    struct pool_event *events[4096];
    int count;
    int infos;
};

static void deliver(void *ctx, struct pool_event *ev) {
    struct inbox *box = ctx;
    pthread_mutex_lock(&box->lock);
    if (ev->type == POOL_EVENT_INFO) {
        box->infos++;
        pool_event_free(ev);
    } else if (box->count < 4096) {
        box->events[box->count++] = ev;
    } else {
        pool_event_free(ev);
    }
    pthread_cond_broadcast(&box->changed);
    pthread_mutex_unlock(&box->lock);
}

static void inbox_init(struct inbox *box) {
    memset(box, 0, sizeof *box);
    pthread_mutex_init(&box->lock, NULL);
    pthread_cond_init(&box->changed, NULL);
}

static void inbox_clear(struct inbox *box) {
    for (int i = 0; i < box->count; i++) pool_event_free(box->events[i]);
    box->count = 0;
    box->infos = 0;
}

static void inbox_destroy(struct inbox *box) {
    inbox_clear(box);
    pthread_cond_destroy(&box->changed);
    pthread_mutex_destroy(&box->lock);
}

/* Waits until at least n DONE events arrived or the timeout passed; returns the count. */
static int wait_done(struct inbox *box, int n, int timeout_ms) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&box->lock);
    while (box->count < n) {
        if (pthread_cond_timedwait(&box->changed, &box->lock, &deadline) != 0) break;
    }
    int count = box->count;
    pthread_mutex_unlock(&box->lock);
    return count;
}

static struct pool_event *find_job(struct inbox *box, uint64_t job) {
    for (int i = 0; i < box->count; i++) {
        if (box->events[i]->job == job) return box->events[i];
    }
    return NULL;
}

/* A pool of the given size delivering into the inbox (table_bytes 0: the default). */
static struct pool *start_pool(struct inbox *box, int workers, size_t table_bytes) {
    inbox_init(box);
    struct pool_config cfg;
    pool_config_defaults(&cfg);
    cfg.workers = workers;
    if (table_bytes) cfg.table_bytes = table_bytes;
    struct pool *pool = pool_create(&cfg, deliver, box);
    CHECK(pool != NULL);
    return pool;
}

static struct pool_job_spec move_spec(const char *game, int level, int64_t deadline) {
    struct pool_job_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = POOL_JOB_MOVE;
    snprintf(spec.game, sizeof spec.game, "%s", game);
    chess_position_startpos(&spec.root);
    spec.level = level;
    spec.limits.movetime_ms = 50;
    spec.threads = 1;
    spec.deadline_ms = deadline;
    return spec;
}

static struct pool_job_spec analysis_spec(const char *game, int64_t deadline) {
    struct pool_job_spec spec = move_spec(game, 0, deadline);
    spec.kind = POOL_JOB_ANALYSIS;
    spec.limits.movetime_ms = 0;
    spec.limits.infinite = true;
    spec.stream_info = true;
    return spec;
}

static void test_many_games_get_legal_moves(void) {
    struct inbox box;
    inbox_init(&box);
    struct pool_config cfg;
    pool_config_defaults(&cfg);
    cfg.workers = 2;
    struct pool *pool = pool_create(&cfg, deliver, &box);
    CHECK(pool != NULL);
    if (!pool) return;
    enum { GAMES = 40 };
    uint64_t jobs[GAMES];
    int64_t now = now_mono_ms();
    for (int g = 0; g < GAMES; g++) {
        char name[16];
        snprintf(name, sizeof name, "game%d", g);
        /* Weak levels answer within their node limits; the strong games play on a clock. */
        bool strong = g % 10 == 0;
        struct pool_job_spec spec = move_spec(name, strong ? 8 : 1 + g % 4, now + 100);
        spec.version = (uint32_t)g;
        spec.limits.movetime_ms = 0;
        if (strong) spec.limits.time_ms[CHESS_WHITE] = spec.limits.time_ms[CHESS_BLACK] = 3000;
        /* Play a few plies first so positions differ. */
        for (int ply = 0; ply < g % 5; ply++) {
            struct chess_move_list list;
            chess_generate_moves(&spec.root, CHESS_GEN_ALL, &list);
            chess_position_make_move(&spec.root, list.moves[(g + ply) % list.count]);
        }
        jobs[g] = pool_submit(pool, &spec);
        CHECK(jobs[g] > 0);
    }
    CHECK_EQ_INT(wait_done(&box, GAMES, 60000), GAMES);
    for (int g = 0; g < GAMES; g++) {
        struct pool_event *ev = find_job(&box, jobs[g]);
        CHECK(ev != NULL);
        if (!ev) continue;
        CHECK(!ev->cancelled);
        CHECK_EQ_INT(ev->version, g);
        CHECK(chess_position_is_legal(&ev->root, ev->result.best));
    }
    struct pool_stats stats;
    pool_get_stats(pool, &stats);
    CHECK_EQ_INT(stats.jobs_done, GAMES);
    CHECK_EQ_INT(stats.tables, GAMES); /* each game keeps its table between moves */
    CHECK(stats.table_bytes <= cfg.table_budget);
    pool_destroy(pool);
    inbox_destroy(&box);
}

static void test_cancel_queued_and_running(void) {
    struct inbox box;
    struct pool *pool = start_pool(&box, 1, 1 << 20);
    if (!pool) return;
    int64_t now = now_mono_ms();
    struct pool_job_spec endless = analysis_spec("", now + 1000000);
    uint64_t running = pool_submit(pool, &endless);
    struct pool_job_spec queued_spec = move_spec("other", 8, now + 1000000);
    uint64_t queued = pool_submit(pool, &queued_spec);
    CHECK(running > 0 && queued > 0);
    struct timespec pause = {0, 100 * 1000000L};
    nanosleep(&pause, NULL);
    pool_cancel_job(pool, queued);
    CHECK_EQ_INT(wait_done(&box, 1, 2000), 1);
    CHECK(find_job(&box, queued) && find_job(&box, queued)->cancelled);
    int64_t before = now_mono_ms();
    pool_cancel_job(pool, running);
    CHECK_EQ_INT(wait_done(&box, 2, 5000), 2);
    CHECK(now_mono_ms() - before < 2000); /* a running search stops promptly */
    CHECK(find_job(&box, running) && find_job(&box, running)->cancelled);
    struct pool_stats stats;
    pool_get_stats(pool, &stats);
    CHECK_EQ_INT(stats.jobs_cancelled, 2);
    pool_destroy(pool);
    inbox_destroy(&box);
}

static void test_move_preempts_analysis(void) {
    struct inbox box;
    struct pool *pool = start_pool(&box, 1, 1 << 20);
    if (!pool) return;
    int64_t now = now_mono_ms();
    struct pool_job_spec analysis = analysis_spec("studied", now + 3600 * 1000);
    uint64_t a = pool_submit(pool, &analysis);
    struct timespec pause = {0, 100 * 1000000L};
    nanosleep(&pause, NULL);
    struct pool_job_spec move = move_spec("bullet", 3, now_mono_ms() + 100);
    uint64_t m = pool_submit(pool, &move);
    CHECK_EQ_INT(wait_done(&box, 1, 5000), 1);
    struct pool_event *done = find_job(&box, m);
    CHECK(done != NULL && !done->cancelled);
    CHECK(done && done->wait_ms < 1000);
    struct pool_stats stats;
    pool_get_stats(pool, &stats);
    CHECK_EQ_INT(stats.preemptions, 1);
    /* The analysis went back to work: it is running, not finished. */
    nanosleep(&pause, NULL);
    pool_get_stats(pool, &stats);
    CHECK_EQ_INT(stats.busy_slots, 1);
    CHECK(find_job(&box, a) == NULL);
    pool_cancel_owner(pool, 0);
    CHECK_EQ_INT(wait_done(&box, 2, 5000), 2);
    CHECK(find_job(&box, a) && find_job(&box, a)->cancelled);
    CHECK(box.infos > 0);
    pool_destroy(pool);
    inbox_destroy(&box);
}

static struct pool_job_spec review_spec(const char *fen, uint64_t nodes) {
    struct pool_job_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = POOL_JOB_REVIEW;
    CHECK_EQ_INT(chess_fen_parse(&spec.root, fen), 0);
    spec.limits.nodes = nodes;
    spec.threads = 1;
    spec.multipv = 1;
    spec.deadline_ms = now_mono_ms() + 3600 * 1000;
    return spec;
}

static bool same_review(const struct pool_event *a, const struct pool_event *b) {
    if (!a || !b || a->cancelled || b->cancelled) return false;
    if (a->result.best != b->result.best || a->result.score != b->result.score ||
        a->result.depth != b->result.depth || a->result.nodes != b->result.nodes ||
        a->info.pv_length != b->info.pv_length)
        return false;
    return memcmp(a->pv, b->pv, sizeof a->pv[0] * (size_t)a->info.pv_length) == 0;
}

/* A review comes out the same every time: alone, after other searches left their tables to
 * reuse, and when a move preempts it (it pauses, then goes on). Its DONE event carries the
 * line of its last completed iteration. */
static void test_review_is_reproducible(void) {
    static const char *fen = "r1bqk2r/2ppbppp/p1n2n2/1p2p3/4P3/1B3N2/PPPP1PPP/RNBQR1K1 b kq - 1 7";
    struct inbox box;
    struct pool *pool = start_pool(&box, 1, 1 << 20);
    if (!pool) return;
    struct pool_job_spec review = review_spec(fen, 300000);
    uint64_t first = pool_submit(pool, &review);
    CHECK_EQ_INT(wait_done(&box, 1, 30000), 1);
    /* Another game's search leaves a table behind to be reused. */
    struct pool_job_spec move = move_spec("other", 0, now_mono_ms() + 100);
    CHECK(pool_submit(pool, &move) > 0);
    CHECK_EQ_INT(wait_done(&box, 2, 30000), 2);
    uint64_t second = pool_submit(pool, &review);
    CHECK_EQ_INT(wait_done(&box, 3, 30000), 3);
    /* Preempted midway by a move with an earlier deadline. */
    review.limits.nodes = 300000;
    uint64_t third = pool_submit(pool, &review);
    struct timespec pause = {0, 20 * 1000000L};
    nanosleep(&pause, NULL);
    move = move_spec("bullet", 3, now_mono_ms() + 100);
    CHECK(pool_submit(pool, &move) > 0);
    CHECK_EQ_INT(wait_done(&box, 5, 60000), 5);
    struct pool_stats stats;
    pool_get_stats(pool, &stats);
    CHECK(stats.preemptions >= 1);
    struct pool_event *a = find_job(&box, first), *b = find_job(&box, second),
                      *c = find_job(&box, third);
    CHECK(a && a->info.pv_length > 0 && a->pv[0] == a->result.best);
    CHECK(a && a->result.nodes >= 300000);
    CHECK(same_review(a, b));
    CHECK(same_review(a, c));
    pool_destroy(pool);
    inbox_destroy(&box);
}

static void test_earliest_deadline_first(void) {
    struct inbox box;
    struct pool *pool = start_pool(&box, 1, 1 << 20);
    if (!pool) return;
    /* Keep the worker busy while the others queue up. */
    int64_t now = now_mono_ms();
    struct pool_job_spec blocker = move_spec("blocker", 0, now);
    blocker.limits.movetime_ms = 500; /* long enough that the others queue behind it */
    pool_submit(pool, &blocker);
    struct timespec pause = {0, 50 * 1000000L};
    nanosleep(&pause, NULL);
    struct pool_job_spec late_spec = move_spec("late", 0, now + 5000);
    struct pool_job_spec early_spec = move_spec("early", 0, now + 1000);
    late_spec.limits.movetime_ms = early_spec.limits.movetime_ms = 0;
    late_spec.limits.depth = early_spec.limits.depth = 1;
    uint64_t late = pool_submit(pool, &late_spec);
    uint64_t early = pool_submit(pool, &early_spec);
    CHECK_EQ_INT(wait_done(&box, 3, 10000), 3);
    /* The early one started first: the late one waited for it. (Deliveries of different jobs
     * may come in another order: each thread delivers its own job's end.) */
    struct pool_event *e = find_job(&box, early), *l = find_job(&box, late);
    CHECK(e && l && !e->cancelled && !l->cancelled && l->wait_ms >= e->wait_ms);
    pool_destroy(pool);
    inbox_destroy(&box);
}

static void test_budget_evicts_idle_tables(void) {
    struct inbox box;
    inbox_init(&box);
    struct pool_config cfg;
    pool_config_defaults(&cfg);
    cfg.workers = 2;
    cfg.table_budget = 256 << 10;
    cfg.table_bytes = 64 << 10;
    struct pool *pool = pool_create(&cfg, deliver, &box);
    for (int g = 0; g < 20; g++) {
        char name[16];
        snprintf(name, sizeof name, "g%d", g);
        struct pool_job_spec spec = move_spec(name, 0, now_mono_ms());
        spec.limits.movetime_ms = 0;
        spec.limits.depth = 3;
        CHECK(pool_submit(pool, &spec) > 0);
        CHECK_EQ_INT(wait_done(&box, g + 1, 10000), g + 1);
        struct pool_stats stats;
        pool_get_stats(pool, &stats);
        CHECK(stats.table_bytes <= cfg.table_budget);
    }
    struct pool_stats stats;
    pool_get_stats(pool, &stats);
    CHECK_EQ_INT(stats.tables, 4); /* 256 KiB / 64 KiB */
    CHECK_EQ_INT(stats.evictions, 16);
    /* An evicted game plays on with a fresh table. */
    struct pool_job_spec again = move_spec("g0", 0, now_mono_ms());
    again.limits.movetime_ms = 0;
    again.limits.depth = 3;
    uint64_t job = pool_submit(pool, &again);
    CHECK_EQ_INT(wait_done(&box, 21, 10000), 21);
    CHECK(find_job(&box, job) && !find_job(&box, job)->cancelled);
    /* Releasing a game frees its table. */
    pool_get_stats(pool, &stats);
    size_t tables = stats.tables;
    pool_release_game(pool, "g0");
    pool_get_stats(pool, &stats);
    CHECK_EQ_INT(stats.tables, tables - 1);
    pool_destroy(pool);
    inbox_destroy(&box);
}

static void test_shutdown_cancels_everything(void) {
    struct inbox box;
    struct pool *pool = start_pool(&box, 2, 1 << 20);
    if (!pool) return;
    for (int i = 0; i < 6; i++) {
        struct pool_job_spec spec = analysis_spec(i % 2 ? "a" : "b", now_mono_ms() + i);
        spec.owner = (uint64_t)i;
        CHECK(pool_submit(pool, &spec) > 0);
    }
    pool_destroy(pool);
    CHECK_EQ_INT(box.count, 6);
    for (int i = 0; i < box.count; i++) CHECK(box.events[i]->cancelled);
    inbox_destroy(&box);
}

int main(void) {
    RUN(test_many_games_get_legal_moves);
    RUN(test_cancel_queued_and_running);
    RUN(test_move_preempts_analysis);
    RUN(test_review_is_reproducible);
    RUN(test_earliest_deadline_first);
    RUN(test_budget_evicts_idle_tables);
    RUN(test_shutdown_cancels_everything);
    return check_finish();
}
