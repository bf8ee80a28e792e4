/*
 * Search: iterative deepening alpha-beta (principal variation search with aspiration windows,
 * quiescence, null move, late move reductions, futility pruning and the rest), run by one or
 * more threads (Lazy SMP) over a transposition table the caller owns.
 *
 * chess_search() is reentrant: all its state lives in the request, the table and memory it
 * allocates for the call. Several searches may run at once, on separate tables or on one table
 * (several workers analysing one game). The caller stops a search from any thread by setting
 * the request's stop flag, and follows its progress through the info callback, which the
 * search calls from its own (main) thread.
 */
#ifndef CHESS_SEARCH_H
#define CHESS_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "chess/nnue.h"
#include "chess/position.h"
#include "chess/search_params.h"
#include "chess/tt.h"

/* Deepest search iteration and longest line from the root. */
#define CHESS_MAX_DEPTH 120
#define CHESS_MAX_PLY   128

/* Scores: centipawns, or CHESS_MATE - n for "mate in n plies" (negated when being mated). */
#define CHESS_MATE       32000
#define CHESS_MATE_BOUND (CHESS_MATE - CHESS_MAX_PLY)

#define CHESS_MAX_MULTIPV 256
#define CHESS_SKILL_MAX   20

/* When to stop. Zero fields do not limit; with no limit at all the search runs to max depth. */
struct chess_search_limits {
    int depth;           /* iterations to complete */
    uint64_t nodes;      /* nodes to search (counted over all threads) */
    int64_t movetime_ms; /* exact time for this move */
    int64_t time_ms[2];  /* remaining clock time per colour (CHESS_WHITE, CHESS_BLACK) */
    int64_t inc_ms[2];   /* increment per move per colour */
    int movestogo;       /* moves to the next time control, 0 for sudden death */
    bool infinite;       /* search until stopped; never returns before *stop is set */
};

/* One report of progress, for a UCI "info" line or the server's analysis stream. */
struct chess_search_info {
    int depth, seldepth;
    int multipv; /* 1-based line number */
    int score;   /* from the side to move's point of view, see CHESS_MATE */
    bool lowerbound, upperbound;
    uint64_t nodes;
    uint64_t nps;
    int64_t time_ms;
    int hashfull; /* permille */
    int pv_length;
    const chess_move *pv; /* valid during the callback only */
};

typedef void (*chess_search_info_fn)(void *ctx, const struct chess_search_info *info);

struct chess_search_request {
    struct chess_position position; /* the root */
    /*
     * Keys of the positions played before the root, oldest first (NULL when count is 0), so
     * that the search sees repetitions; only the last halfmove_clock entries matter. Not copied:
     * must stay valid until chess_search() returns.
     */
    const uint64_t *history;
    int history_count;

    struct chess_search_limits limits;
    int threads;              /* search threads, at least 1 */
    int multipv;              /* lines to report (1 = best only) */
    int skill;                /* 0..CHESS_SKILL_MAX; below the maximum the engine weakens itself */
    uint64_t seed;            /* randomness for skill below the maximum */
    int64_t move_overhead_ms; /* time kept back per move for communication delays */
    /*
     * 0: time is the wall clock. N > 0: the search's time is nodes searched / N milliseconds
     * (nodes of all threads), for every time decision: the clock limits, movetime and the early
     * stop (as Stockfish's UCI option nodestime). With one thread a clock-limited search is then
     * deterministic, and a match that charges the same virtual time measures time management
     * rather than the machine's load. Reported times (info, result) stay wall-clock.
     */
    int64_t nodestime;

    /*
     * Set by the caller from any thread to end the search; NULL when never stopped. The search
     * only reads it. It returns the best move found so far.
     */
    atomic_bool *stop;
    /*
     * Pondering: while *ponder is true the search ignores its time limits (like infinite); when
     * the caller sets it false (ponderhit) the clock starts for the limits. NULL: no pondering.
     */
    atomic_bool *ponder;

    /*
     * Called by the search's first thread about every 1024 nodes (NULL: never). The caller may
     * block in it to pause the search while its core is needed elsewhere: the search goes on
     * where it was when it returns, so a search limited by depth or nodes gives the same result
     * paused or not (time limits count the pause).
     */
    void (*yield)(void *ctx);
    void *yield_ctx;

    chess_search_info_fn on_info; /* may be NULL */
    void *info_ctx;

    /* What earlier searches of this game learned, updated by this one; NULL: start afresh. */
    struct chess_search_memory *memory;

    /* The search's constants (copied at the start); NULL: the engine's defaults. */
    const struct chess_search_params *params;

    /*
     * The network to evaluate with (chess/nnue.h), shared read-only by the search's threads and
     * valid until chess_search() returns; NULL: the hand-written evaluation (chess/eval.h).
     */
    const struct chess_nnue *nnue;
};

struct chess_search_result {
    chess_move best;   /* CHESS_MOVE_NONE only when the root has no legal move */
    chess_move ponder; /* expected reply, or CHESS_MOVE_NONE */
    int score;         /* from the side to move's point of view */
    int depth, seldepth;
    uint64_t nodes;
    int64_t time_ms;
};

/*
 * What searches learn besides the table: move-ordering statistics (history, counter moves) and
 * how far the static evaluation proved off. With one per game in the request, each search
 * starts from what the last one learned, which orders moves better from the first iteration.
 * Owned by the caller (about 2.3 MB); unlike the table it may be used by only one chess_search()
 * at a time. Clear it (or use a new one) for a new game.
 */
struct chess_search_memory;

/* A cleared memory, or NULL when out of memory. */
struct chess_search_memory *chess_search_memory_create(void);
void chess_search_memory_destroy(struct chess_search_memory *memory);
void chess_search_memory_clear(struct chess_search_memory *memory);

/* Fills a request with defaults: the given root, no limits, one thread, one line, full skill. */
void chess_search_request_init(struct chess_search_request *req, const struct chess_position *root);

/*
 * Searches the request's root using the table (shared with any concurrent searches using it)
 * and writes the outcome to *out. Blocks until a limit is reached or *stop is set; with
 * infinite limits or while pondering it does not return before then, even at maximum depth.
 * Any thread may call it; the info callback runs on the calling thread. When memory or
 * threads for helpers run short it searches with fewer threads. Returns 0, or
 * -CHESS_ERR_NO_MEMORY when not even one search thread's state (about 2.5 MB) can be
 * allocated; *out then holds some legal move if there is one.
 */
int chess_search(const struct chess_search_request *req, struct chess_tt *tt,
                 struct chess_search_result *out);

/* True when the score means a forced mate; chess_score_mate_moves() gives the moves (negative
 * when the side to move is mated). */
static inline bool chess_score_is_mate(int score) {
    return score >= CHESS_MATE_BOUND || score <= -CHESS_MATE_BOUND;
}

static inline int chess_score_mate_moves(int score) {
    return score > 0 ? (CHESS_MATE - score + 1) / 2 : -(CHESS_MATE + score) / 2;
}

#endif
