/*
 * The engine worker pool: a fixed set of threads that search for computer moves and analysis,
 * so the event loop never waits on the engine.
 *
 * The loop submits jobs (a root position with its history, limits, a deadline) and gets events
 * back through a delivery callback that runs on a worker thread and must only hand the event to
 * the loop (server_post). Every event carries the job's game key and the version it was asked
 * for, so the loop drops results for a position that has since changed.
 *
 * Scheduling is earliest deadline first, and a job waits only for free worker slots: a job that
 * wants N search threads takes N slots, so the CPU never runs more searches than there are
 * workers. A move whose deadline is earlier than that of a running analysis preempts the
 * analysis, which goes back to the queue and resumes later from its warm table.
 *
 * Each game that uses the engine has its own transposition table, kept between its searches and
 * shared by all searches of that game. All tables together stay within a memory budget; idle
 * tables are evicted least recently used first, and a game whose table was evicted goes on with
 * a fresh one.
 *
 * All functions are thread-safe; the loop is the usual caller.
 */
#ifndef SERVER_POOL_POOL_H
#define SERVER_POOL_POOL_H

#include <chess/search.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define POOL_GAME_KEY_MAX 16 /* bytes with the NUL */
#define POOL_PV_MAX       32 /* moves of a principal variation carried by an info event */

/*
 * MOVE: a computer's move in a game. ANALYSIS: a live analysis, preempted by moves and resumed
 * from its warm table. REVIEW: one position of a finished game's analysis, which must come out
 * the same every time (results are stored and compared): it runs on a cleared table of its own,
 * and when a move preempts it, it pauses where it is (its thread waits, its slot runs the move)
 * and goes on afterwards, which changes nothing in its result. A REVIEW's DONE event carries the
 * principal variation of its last completed iteration.
 */
enum pool_job_kind { POOL_JOB_MOVE, POOL_JOB_ANALYSIS, POOL_JOB_REVIEW };

struct pool_config {
    int workers;              /* search threads in all; at least 1 */
    size_t table_budget;      /* bytes for all transposition tables together */
    size_t table_bytes;       /* a game's table at full strength; lower levels use less */
    int64_t move_overhead_ms; /* clock time kept back per move for the loop and the network */
    int worker_nice;          /* workers' nice value above the process's: the loop comes first */
    /* The network full-strength moves and analysis evaluate with (levels 1-7 always use the
     * hand-written evaluation they were calibrated with); NULL: the hand-written one. */
    const struct chess_nnue *nnue;
};

/* Defaults: 2 workers (callers usually want one per core), 256 MiB budget, 16 MiB per strong
 * game, 50 ms overhead, nice 5, the engine's built-in network. */
void pool_config_defaults(struct pool_config *cfg);

struct pool_job_spec {
    enum pool_job_kind kind;
    /* The game the table belongs to (e.g. its id); "" for a position of no game, which gets a
     * table of its own for the job's lifetime. */
    char game[POOL_GAME_KEY_MAX];
    uint64_t owner;   /* who asked (a connection, for analysis), to cancel on disconnect */
    uint32_t version; /* the game's version when asked, returned in the events */
    struct chess_position root;
    const uint64_t *history; /* keys before the root, oldest first; copied by pool_submit */
    int history_count;
    int level;                         /* 1..8 for a computer move; 0 = full strength */
    struct chess_search_limits limits; /* clock for moves; depth/movetime/nodes for analysis */
    int threads;                       /* search threads wanted (clamped to the workers) */
    int multipv;
    int64_t deadline_ms; /* monotonic ms by which the result is needed (scheduling order) */
    bool stream_info;    /* deliver an info event per completed iteration */
    uint64_t seed;       /* varies the weaker levels' choices */
};

enum pool_event_type {
    POOL_EVENT_INFO, /* progress of a search */
    POOL_EVENT_DONE, /* the job ended: a result, or cancelled */
};

struct pool_event {
    enum pool_event_type type;
    enum pool_job_kind kind;
    uint64_t job;
    char game[POOL_GAME_KEY_MAX];
    uint64_t owner;
    uint32_t version;
    struct chess_position root; /* to turn moves into text */
    /* INFO */
    struct chess_search_info info; /* info.pv points into pv below */
    chess_move pv[POOL_PV_MAX];
    /* DONE */
    bool cancelled; /* cancelled or the pool shut down: no result */
    /* REVIEW: info holds the last completed iteration (its pv in pv above); pv_length 0 when
     * no iteration completed */
    struct chess_search_result result;
    int64_t wait_ms;   /* from submission to the first start */
    int64_t search_ms; /* time searching, all slices */
};

/*
 * Called on a worker thread with an event the callee now owns (free it with pool_event_free()).
 * It must not block: hand the event to the loop and return.
 */
typedef void (*pool_deliver_fn)(void *ctx, struct pool_event *event);

void pool_event_free(struct pool_event *event);

/* Starts the workers. Returns NULL when memory or threads are short. */
struct pool *pool_create(const struct pool_config *cfg, pool_deliver_fn deliver, void *ctx);

/* Stops every search, cancels queued jobs (their DONE events are delivered, cancelled), joins
 * the workers and frees every table. No other pool call may run during or after it. */
void pool_destroy(struct pool *pool);

/* Queues a job. Returns its id (> 0), or 0 when memory is short. */
uint64_t pool_submit(struct pool *pool, const struct pool_job_spec *spec);

/* Cancels one job, or the jobs of an owner: queued ones are dropped and running ones stopped;
 * each ends with a DONE event marked cancelled. */
void pool_cancel_job(struct pool *pool, uint64_t job);
void pool_cancel_owner(struct pool *pool, uint64_t owner);

/* The game is over: cancels its jobs and frees its table once no search uses it. */
void pool_release_game(struct pool *pool, const char *game);

struct pool_stats {
    int workers;
    int busy_slots;
    size_t queue_length;
    uint64_t jobs_done, jobs_cancelled, preemptions;
    uint64_t wait_ms_total, search_ms_total; /* over finished jobs */
    uint64_t nodes_total;
    size_t table_bytes; /* allocated tables now */
    size_t tables;
    uint64_t evictions;
};

void pool_get_stats(struct pool *pool, struct pool_stats *out);

#endif
