/*
 * The worker pool: a deadline-ordered job queue under one mutex, worker threads that take the
 * earliest job that fits the free slots, and the per-game transposition tables with their
 * memory budget and least-recently-used eviction.
 *
 * Locking: pool->lock guards the queue, the job list, the slot count, the table registry and
 * the statistics. Searches and table allocation run outside it. A table's creation is guarded by
 * its own mutex so that two searches of one game never both allocate it.
 *
 * Slots and threads: a slot is a core's worth of searching; the pool has as many slots as
 * workers and twice as many threads. A preempted REVIEW pauses on its thread (in the search's
 * yield callback) and gives its slot back, so another thread runs the move meanwhile; the paused
 * job waits in the queue under its own deadline, and whoever takes it from there hands it a slot
 * and wakes it. Threads beyond the slots only ever run jobs slots were found for.
 */
#include "pool/pool.h"

#include <chess/level.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/heap.h"
#include "util/now.h"
#include "util/strmap.h"

struct table {
    char game[POOL_GAME_KEY_MAX];
    pthread_mutex_t create_lock;
    struct chess_tt *tt; /* created by the first search that needs it, under create_lock */
    size_t bytes;        /* reserved in the budget */
    int users;           /* searches running with it */
    bool released;       /* the game is over: free it when unused */
    struct table *lru_prev, *lru_next; /* in the idle list while users == 0 */
};

/* QUEUED: in the queue, not started. RUNNING: on a thread with its slots. PAUSED: a REVIEW
 * blocked on its thread without slots, in the queue to be resumed. */
enum job_state { JOB_QUEUED, JOB_RUNNING, JOB_PAUSED };

struct job {
    struct heap_node node; /* in pool->queue while queued */
    uint64_t id;
    struct pool_job_spec spec; /* spec.history points at history below */
    uint64_t *history;
    struct chess_search_info last_info; /* REVIEW: the last completed iteration (worker only) */
    chess_move last_pv[POOL_PV_MAX];
    enum job_state state;
    atomic_bool stop;
    atomic_bool paused; /* state == JOB_PAUSED, for the search thread's lock-free check */
    int64_t key;        /* its place in the queue */
    bool cancelled, preempted, started;
    int threads;
    int64_t submitted_ms, wait_ms, search_ms;
    uint64_t nodes;
    struct job *prev, *next; /* every live job */
};

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t work; /* a job was queued, slots were freed, or stopping */
    struct heap queue;
    struct job *jobs;
    struct strmap tables;
    struct table *idle_oldest, *idle_newest;
    size_t table_bytes;
    int free_slots;
    bool stopping;
    uint64_t next_id, seq;
    struct pool_config cfg;
    pool_deliver_fn deliver;
    void *deliver_ctx;
    struct pool_stats stats;
    pthread_t *threads;
    int started_threads;
};

void pool_config_defaults(struct pool_config *cfg) {
    cfg->workers = 2;
    cfg->table_budget = 256u << 20;
    cfg->table_bytes = 16u << 20;
    cfg->move_overhead_ms = 50;
    cfg->worker_nice = 5;
    cfg->nnue = chess_nnue_builtin();
}

void pool_event_free(struct pool_event *event) {
    free(event);
}

/* ---- tables (pool->lock held unless said otherwise) ---- */

static void idle_unlink(struct pool *pool, struct table *t) {
    if (t->lru_prev) t->lru_prev->lru_next = t->lru_next;
    if (t->lru_next) t->lru_next->lru_prev = t->lru_prev;
    if (pool->idle_oldest == t) pool->idle_oldest = t->lru_next;
    if (pool->idle_newest == t) pool->idle_newest = t->lru_prev;
    t->lru_prev = t->lru_next = NULL;
}

static void idle_append(struct pool *pool, struct table *t) {
    t->lru_prev = pool->idle_newest;
    t->lru_next = NULL;
    if (pool->idle_newest) pool->idle_newest->lru_next = t;
    pool->idle_newest = t;
    if (!pool->idle_oldest) pool->idle_oldest = t;
}

/* Frees a table that no search uses and that is out of the registry. Any thread, no lock. */
static void table_free(struct table *t) {
    chess_tt_destroy(t->tt);
    pthread_mutex_destroy(&t->create_lock);
    free(t);
}

/* Takes an idle table out of the registry and the budget; the caller frees it unlocked. */
static void table_forget(struct pool *pool, struct table *t) {
    idle_unlink(pool, t);
    if (t->game[0] && strmap_get(&pool->tables, t->game) == t)
        strmap_remove(&pool->tables, t->game);
    pool->table_bytes -= t->bytes;
    pool->stats.table_bytes = pool->table_bytes;
    pool->stats.tables--;
}

static size_t table_size_for(const struct pool *pool, int level) {
    size_t size = pool->cfg.table_bytes;
    if (level >= 1 && level <= 5)
        size /= 16;
    else if (level >= 6 && level <= 7)
        size /= 4;
    /* Tables in use are at most one per slot, so this cap keeps them all within the budget. */
    size_t cap = pool->cfg.table_budget / (size_t)pool->cfg.workers;
    if (size > cap) size = cap;
    return size < 1024 ? 1024 : size;
}

/*
 * Finds or makes the job's table and counts the job as a user. Idle tables evicted to make room
 * are added to *evicted (linked by lru_next) for the caller to free unlocked. NULL when memory
 * is short.
 */
static struct table *table_acquire(struct pool *pool, const struct job *job,
                                   struct table **evicted) {
    const char *game = job->spec.game;
    struct table *t = game[0] ? strmap_get(&pool->tables, game) : NULL;
    if (t) {
        if (t->users++ == 0) idle_unlink(pool, t);
        return t;
    }
    size_t size = table_size_for(pool, job->spec.kind == POOL_JOB_MOVE ? job->spec.level : 0);
    /*
     * An evicted table of the right size is handed over as it is, without clearing: entries
     * are checked against the full key and table moves against the position, so another game's
     * leftovers only cost some replacements, while clearing megabytes on every switch would
     * cost a few milliseconds of worker time.
     */
    struct chess_tt *reused = NULL;
    while (pool->table_bytes + size > pool->cfg.table_budget && pool->idle_oldest) {
        struct table *victim = pool->idle_oldest;
        table_forget(pool, victim);
        if (!reused && victim->bytes == size && victim->tt) {
            reused = victim->tt;
            victim->tt = NULL;
        }
        victim->lru_next = *evicted;
        *evicted = victim;
        pool->stats.evictions++;
    }
    t = calloc(1, sizeof *t);
    if (!t || pthread_mutex_init(&t->create_lock, NULL) != 0) {
        free(t);
        chess_tt_destroy(reused);
        return NULL;
    }
    t->tt = reused;
    memcpy(t->game, game, sizeof t->game);
    if (game[0] && strmap_put(&pool->tables, t->game, t) < 0) {
        table_free(t); /* frees the reused table too */
        return NULL;
    }
    t->bytes = size;
    t->users = 1;
    pool->table_bytes += size;
    pool->stats.table_bytes = pool->table_bytes;
    pool->stats.tables++;
    return t;
}

/* A search is done with the table. Returns the table when the caller must free it unlocked. */
static struct table *table_release(struct pool *pool, struct table *t) {
    if (--t->users > 0) return NULL;
    if (t->released || !t->game[0]) {
        table_forget(pool, t);
        return t;
    }
    idle_append(pool, t);
    return NULL;
}

static void free_table_list(struct table *list) {
    while (list) {
        struct table *next = list->lru_next;
        table_free(list);
        list = next;
    }
}

/* ---- jobs (pool->lock held) ---- */

static void job_link(struct pool *pool, struct job *job) {
    job->prev = NULL;
    job->next = pool->jobs;
    if (pool->jobs) pool->jobs->prev = job;
    pool->jobs = job;
}

static void job_unlink(struct pool *pool, struct job *job) {
    if (job->prev)
        job->prev->next = job->next;
    else
        pool->jobs = job->next;
    if (job->next) job->next->prev = job->prev;
}

/* Submissions told apart within one deadline millisecond: a game's review submits one job per
 * position at once. Deadlines (ms) times this stay far below 2^63. */
#define SEQ_SPAN (INT64_C(1) << 20)

static int job_enqueue(struct pool *pool, struct job *job, enum job_state state) {
    job->state = state;
    /* Earliest deadline first; the sequence number keeps submission order among equal ones. A
     * paused review keeps its place: ahead of the reviews queued after it, it resumes before
     * any of them starts, so paused reviews never hold more threads than there are slots. */
    if (state != JOB_PAUSED)
        job->key = job->spec.deadline_ms * SEQ_SPAN + (int64_t)(pool->seq++ % SEQ_SPAN);
    return heap_set(&pool->queue, &job->node, job->key);
}

static struct job *job_of_node(struct heap_node *node) {
    return (struct job *)((char *)node - offsetof(struct job, node));
}

/* A running REVIEW gives its slots back and waits in the queue (its thread blocks at its next
 * yield). False when the queue cannot take it (memory): it goes on running. */
static bool pause_review(struct pool *pool, struct job *j) {
    if (job_enqueue(pool, j, JOB_PAUSED) < 0) {
        j->state = JOB_RUNNING;
        return false;
    }
    atomic_store(&j->paused, true);
    pool->free_slots += j->threads;
    return true;
}

/* Stops running analyses (and pauses reviews) with a later deadline until the queue's head would
 * fit. */
static void preempt_for_head(struct pool *pool) {
    struct heap_node *head = heap_peek(&pool->queue);
    if (!head) return;
    struct job *first = job_of_node(head);
    int freeing = 0;
    for (struct job *j = pool->jobs; j && pool->free_slots + freeing < first->threads;
         j = j->next) {
        if (j->state != JOB_RUNNING || j->spec.kind == POOL_JOB_MOVE || j->preempted ||
            j->cancelled || j->spec.deadline_ms <= first->spec.deadline_ms)
            continue;
        if (j->spec.kind == POOL_JOB_REVIEW) {
            if (pause_review(pool, j)) pool->stats.preemptions++;
            continue; /* its slots are free already */
        }
        j->preempted = true;
        atomic_store(&j->stop, true);
        pool->stats.preemptions++;
        freeing += j->threads;
    }
}

/* A new event about the job, with what every event carries; NULL when memory is short. */
static struct pool_event *event_new(const struct job *job, enum pool_event_type type) {
    struct pool_event *ev = calloc(1, sizeof *ev);
    if (!ev) return NULL;
    ev->type = type;
    ev->kind = job->spec.kind;
    ev->job = job->id;
    memcpy(ev->game, job->spec.game, sizeof ev->game);
    ev->owner = job->spec.owner;
    ev->version = job->spec.version;
    ev->root = job->spec.root;
    return ev;
}

static struct pool_event *done_event(const struct job *job, const struct chess_search_result *res) {
    struct pool_event *ev = event_new(job, POOL_EVENT_DONE);
    if (!ev) return NULL;
    ev->cancelled = job->cancelled || res == NULL;
    if (res) ev->result = *res;
    if (res && job->spec.kind == POOL_JOB_REVIEW) {
        ev->info = job->last_info;
        memcpy(ev->pv, job->last_pv, sizeof ev->pv);
        ev->info.pv = ev->pv;
    }
    ev->wait_ms = job->wait_ms;
    ev->search_ms = job->search_ms;
    return ev;
}

static void job_free(struct job *job) {
    free(job->history);
    free(job);
}

/* Finishes a job that is out of the queue and not running: counts it and delivers DONE. */
static void job_finish(struct pool *pool, struct job *job, const struct chess_search_result *res) {
    struct pool_event *ev = done_event(job, res);
    if (ev && pool->deliver)
        pool->deliver(pool->deliver_ctx, ev);
    else
        pool_event_free(ev);
    job_free(job);
}

/* ---- workers ---- */

struct search_ctx {
    struct pool *pool;
    struct job *job;
};

/* Copies a search's report with its line (cut to POOL_PV_MAX) into info and pv. */
static void copy_info(const struct chess_search_info *from, struct chess_search_info *info,
                      chess_move pv[POOL_PV_MAX]) {
    *info = *from;
    int n = from->pv_length < POOL_PV_MAX ? from->pv_length : POOL_PV_MAX;
    if (n > 0) memcpy(pv, from->pv, sizeof(chess_move) * (size_t)n);
    info->pv_length = n > 0 ? n : 0;
    info->pv = pv;
}

/* A REVIEW's search thread, every 1024 nodes or so: blocks while the job is paused. */
static void on_yield(void *arg) {
    struct search_ctx *ctx = arg;
    struct job *job = ctx->job;
    if (!atomic_load_explicit(&job->paused, memory_order_acquire)) return;
    pthread_mutex_lock(&ctx->pool->lock);
    while (job->state == JOB_PAUSED && !atomic_load(&job->stop))
        pthread_cond_wait(&ctx->pool->work, &ctx->pool->lock);
    pthread_mutex_unlock(&ctx->pool->lock);
}

static void on_info(void *arg, const struct chess_search_info *info) {
    struct search_ctx *ctx = arg;
    struct job *job = ctx->job;
    if (job->spec.kind == POOL_JOB_REVIEW && info->multipv == 1 && info->pv_length > 0)
        copy_info(info, &job->last_info, job->last_pv);
    if (!job->spec.stream_info || !ctx->pool->deliver) return;
    struct pool_event *ev = event_new(job, POOL_EVENT_INFO);
    if (!ev) return; /* progress reports are best effort */
    copy_info(info, &ev->info, ev->pv);
    ctx->pool->deliver(ctx->pool->deliver_ctx, ev);
}

static int run_search(struct pool *pool, struct job *job, struct chess_tt *tt,
                      struct chess_search_result *out) {
    struct chess_search_request req;
    chess_search_request_init(&req, &job->spec.root);
    req.history = job->history;
    req.history_count = job->spec.history_count;
    req.limits = job->spec.limits;
    req.threads = job->threads;
    req.multipv = job->spec.multipv > 0 ? job->spec.multipv : 1;
    req.seed = job->spec.seed;
    req.move_overhead_ms = pool->cfg.move_overhead_ms;
    req.nnue = pool->cfg.nnue; /* chess_level_apply() takes it off for levels 1-7 */
    req.stop = &job->stop;
    struct search_ctx ctx = {pool, job};
    req.on_info = on_info;
    req.info_ctx = &ctx;
    if (job->spec.kind == POOL_JOB_REVIEW) {
        req.yield = on_yield;
        req.yield_ctx = &ctx;
    }
    if (job->spec.kind == POOL_JOB_MOVE && job->spec.level > 0 &&
        chess_level_apply(job->spec.level, &req) < 0)
        return -1;
    return chess_search(&req, tt, out);
}

/* Resumes a paused REVIEW taken from the queue: it gets its slots back and its thread wakes. */
static void resume_review(struct pool *pool, struct job *job) {
    job->state = JOB_RUNNING;
    atomic_store(&job->paused, false);
    pool->free_slots -= job->threads;
    pthread_cond_broadcast(&pool->work);
}

/* The earliest queued job if it fits the free slots, resuming the paused ones met on the way
 * (pool->lock held). */
static struct job *take_runnable(struct pool *pool) {
    for (;;) {
        struct heap_node *head = heap_peek(&pool->queue);
        if (!head) return NULL;
        struct job *job = job_of_node(head);
        if (job->threads > pool->free_slots) return NULL;
        heap_remove(&pool->queue, head);
        if (job->state != JOB_PAUSED) return job;
        resume_review(pool, job);
    }
}

/* After a preempted slice: the analysis resumes with what is left of its limits. */
static void shrink_limits(struct job *job, int64_t searched_ms, uint64_t nodes) {
    struct chess_search_limits *l = &job->spec.limits;
    if (l->movetime_ms > 0)
        l->movetime_ms = l->movetime_ms > searched_ms + 1 ? l->movetime_ms - searched_ms : 1;
    if (l->nodes > 0) l->nodes = l->nodes > nodes + 1 ? l->nodes - nodes : 1;
}

/*
 * Workers run at a lower priority than the event loop, so that on a machine with as many
 * workers as cores the loop still gets a core the moment it has work. Linux keeps a nice value
 * per thread. Failing to lower it is harmless, so the result is ignored on purpose.
 */
static void lower_priority(int nice_value) {
    if (nice_value <= 0) return;
    pid_t tid = (pid_t)syscall(SYS_gettid);
    if (setpriority(PRIO_PROCESS, (id_t)tid, nice_value) != 0) return;
}

static void *worker_main(void *arg) {
    struct pool *pool = arg;
    lower_priority(pool->cfg.worker_nice);
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        struct job *job = NULL;
        while (!pool->stopping && !(job = take_runnable(pool))) {
            pthread_cond_wait(&pool->work, &pool->lock);
        }
        if (!job) break;
        job->state = JOB_RUNNING;
        pool->free_slots -= job->threads;
        int64_t start = now_mono_ms();
        if (!job->started) {
            job->started = true;
            job->wait_ms = start - job->submitted_ms;
        }
        struct table *evicted = NULL;
        struct table *table = table_acquire(pool, job, &evicted);
        pthread_mutex_unlock(&pool->lock);

        free_table_list(evicted);
        struct chess_search_result res;
        int rc = -1;
        if (table) {
            pthread_mutex_lock(&table->create_lock);
            if (!table->tt)
                table->tt = chess_tt_create(table->bytes);
            else if (job->spec.kind == POOL_JOB_REVIEW)
                chess_tt_clear(table->tt); /* a reused table: same result every time */
            pthread_mutex_unlock(&table->create_lock);
            if (table->tt) rc = run_search(pool, job, table->tt, &res);
        }
        int64_t searched = now_mono_ms() - start;

        pthread_mutex_lock(&pool->lock);
        struct table *to_free = table ? table_release(pool, table) : NULL;
        pool->free_slots += job->threads;
        job->search_ms += searched;
        bool requeue = job->preempted && !job->cancelled && !pool->stopping && rc == 0;
        if (requeue) {
            shrink_limits(job, searched, res.nodes);
            job->preempted = false;
            atomic_store(&job->stop, false);
            if (job_enqueue(pool, job, JOB_QUEUED) < 0) requeue = false;
        }
        if (!requeue) {
            job_unlink(pool, job);
            if (job->cancelled || rc < 0) {
                pool->stats.jobs_cancelled++;
            } else {
                pool->stats.jobs_done++;
                pool->stats.wait_ms_total += (uint64_t)job->wait_ms;
                pool->stats.search_ms_total += (uint64_t)job->search_ms;
                pool->stats.nodes_total += res.nodes;
            }
        }
        pool->stats.queue_length = pool->queue.count;
        pool->stats.busy_slots = pool->cfg.workers - pool->free_slots;
        preempt_for_head(pool);
        pthread_cond_broadcast(&pool->work);
        pthread_mutex_unlock(&pool->lock);

        if (to_free) table_free(to_free);
        if (!requeue) job_finish(pool, job, (job->cancelled || rc < 0) ? NULL : &res);
        pthread_mutex_lock(&pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

/* ---- public ---- */

struct pool *pool_create(const struct pool_config *cfg, pool_deliver_fn deliver, void *ctx) {
    struct pool *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->cfg = *cfg;
    if (pool->cfg.workers < 1) pool->cfg.workers = 1;
    pool->free_slots = pool->cfg.workers;
    pool->deliver = deliver;
    pool->deliver_ctx = ctx;
    pool->next_id = 1;
    pool->stats.workers = pool->cfg.workers;
    if (pthread_mutex_init(&pool->lock, NULL) != 0) goto fail_lock;
    if (pthread_cond_init(&pool->work, NULL) != 0) goto fail_cond;
    int threads = 2 * pool->cfg.workers; /* a paused review keeps its thread (above) */
    pool->threads = calloc((size_t)threads, sizeof *pool->threads);
    if (!pool->threads) goto fail_threads;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&pool->threads[i], NULL, worker_main, pool) != 0) {
            pool_destroy(pool);
            return NULL;
        }
        pool->started_threads++;
    }
    return pool;
fail_threads:
    pthread_cond_destroy(&pool->work);
fail_cond:
    pthread_mutex_destroy(&pool->lock);
fail_lock:
    free(pool);
    return NULL;
}

/* Takes every queued job matching the predicate out of the queue and stops matching running
 * ones. Returns the removed queued jobs linked by next (pool->lock held). */
static struct job *cancel_matching(struct pool *pool,
                                   bool (*match)(const struct job *, const void *),
                                   const void *arg) {
    struct job *removed = NULL;
    struct job *j = pool->jobs;
    while (j) {
        struct job *next = j->next;
        if (match(j, arg)) {
            j->cancelled = true;
            if (j->state == JOB_PAUSED) {
                /* Its thread wakes to end it, with its slots (for a moment above the count). */
                heap_remove(&pool->queue, &j->node);
                resume_review(pool, j);
            }
            if (j->state == JOB_RUNNING) {
                atomic_store(&j->stop, true);
            } else {
                heap_remove(&pool->queue, &j->node);
                job_unlink(pool, j);
                pool->stats.jobs_cancelled++;
                j->next = removed;
                removed = j;
            }
        }
        j = next;
    }
    pool->stats.queue_length = pool->queue.count;
    return removed;
}

static void finish_removed(struct pool *pool, struct job *removed) {
    while (removed) {
        struct job *next = removed->next;
        job_finish(pool, removed, NULL);
        removed = next;
    }
}

static bool match_all(const struct job *j, const void *arg) {
    (void)j;
    (void)arg;
    return true;
}

void pool_destroy(struct pool *pool) {
    if (!pool) return;
    pthread_mutex_lock(&pool->lock);
    pool->stopping = true;
    struct job *removed = cancel_matching(pool, match_all, NULL);
    pthread_cond_broadcast(&pool->work);
    pthread_mutex_unlock(&pool->lock);
    finish_removed(pool, removed);
    for (int i = 0; i < pool->started_threads; i++) pthread_join(pool->threads[i], NULL);
    /* Every search has ended, so every table is idle or already freed. */
    while (pool->idle_oldest) {
        struct table *t = pool->idle_oldest;
        table_forget(pool, t);
        table_free(t);
    }
    strmap_free(&pool->tables);
    heap_free(&pool->queue);
    free(pool->threads);
    pthread_cond_destroy(&pool->work);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

uint64_t pool_submit(struct pool *pool, const struct pool_job_spec *spec) {
    struct job *job = calloc(1, sizeof *job);
    if (!job) return 0;
    job->spec = *spec;
    job->spec.game[POOL_GAME_KEY_MAX - 1] = '\0';
    if (spec->history_count > 0) {
        job->history = malloc(sizeof(uint64_t) * (size_t)spec->history_count);
        if (!job->history) {
            free(job);
            return 0;
        }
        memcpy(job->history, spec->history, sizeof(uint64_t) * (size_t)spec->history_count);
    } else {
        job->spec.history_count = 0;
    }
    job->spec.history = job->history;
    atomic_init(&job->stop, false);
    atomic_init(&job->paused, false);
    job->submitted_ms = now_mono_ms();

    pthread_mutex_lock(&pool->lock);
    job->threads = spec->threads < 1                   ? 1
                   : spec->threads > pool->cfg.workers ? pool->cfg.workers
                                                       : spec->threads;
    job->id = pool->next_id++;
    if (pool->stopping || job_enqueue(pool, job, JOB_QUEUED) < 0) {
        pthread_mutex_unlock(&pool->lock);
        job_free(job);
        return 0;
    }
    job_link(pool, job);
    uint64_t id = job->id;
    pool->stats.queue_length = pool->queue.count;
    preempt_for_head(pool);
    pthread_cond_broadcast(&pool->work);
    pthread_mutex_unlock(&pool->lock);
    return id;
}

static bool match_id(const struct job *j, const void *arg) {
    return j->id == *(const uint64_t *)arg;
}

static bool match_game(const struct job *j, const void *arg) {
    return strcmp(j->spec.game, (const char *)arg) == 0;
}

static bool match_owner(const struct job *j, const void *arg) {
    return j->spec.owner == *(const uint64_t *)arg;
}

static void cancel_and_finish(struct pool *pool, bool (*match)(const struct job *, const void *),
                              const void *arg) {
    pthread_mutex_lock(&pool->lock);
    struct job *removed = cancel_matching(pool, match, arg);
    pthread_mutex_unlock(&pool->lock);
    finish_removed(pool, removed);
}

void pool_cancel_job(struct pool *pool, uint64_t job) {
    cancel_and_finish(pool, match_id, &job);
}

void pool_cancel_owner(struct pool *pool, uint64_t owner) {
    cancel_and_finish(pool, match_owner, &owner);
}

void pool_release_game(struct pool *pool, const char *game) {
    if (!game[0]) return;
    pthread_mutex_lock(&pool->lock);
    struct job *removed = cancel_matching(pool, match_game, game);
    struct table *t = strmap_get(&pool->tables, game);
    struct table *to_free = NULL;
    if (t) {
        t->released = true;
        strmap_remove(&pool->tables, game);
        if (t->users == 0) {
            table_forget(pool, t);
            to_free = t;
        }
    }
    pthread_mutex_unlock(&pool->lock);
    if (to_free) table_free(to_free);
    finish_removed(pool, removed);
}

void pool_get_stats(struct pool *pool, struct pool_stats *out) {
    pthread_mutex_lock(&pool->lock);
    *out = pool->stats;
    out->queue_length = pool->queue.count;
    out->busy_slots = pool->cfg.workers - pool->free_slots;
    pthread_mutex_unlock(&pool->lock);
}
