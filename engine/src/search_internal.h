/*
 * What the search's source files share: the per-thread worker with its history tables and
 * stack, the state shared by the threads of one search, the move picker, static exchange
 * evaluation and the time manager. Private to the engine.
 *
 * Ownership: a struct worker belongs to its thread for the duration of the search; the main
 * thread reads other workers' published counters (atomics) and, after joining them, their
 * results. struct search_shared is written before the threads start and read-only afterwards,
 * except its atomics.
 */
#ifndef CHESS_SEARCH_INTERNAL_H
#define CHESS_SEARCH_INTERNAL_H

#include "chess/search.h"
#include "eval_internal.h"
#include "internal.h"
#include "nnue.h"

#include <pthread.h>
#include <stdatomic.h>

#define INF_SCORE   (CHESS_MATE + 1)
#define NO_SCORE    (CHESS_MATE + 2)
#define HISTORY_MAX 16384

/* Static evaluation correction: entries per side (a power of two) and units per centipawn. */
#define CORRECTION_SIZE  16384
#define CORRECTION_GRAIN 64
/* A slot's bound, 100 centipawns: it fits 16 bits, which keeps the tables in the cache. */
#define CORRECTION_LIMIT (100 * CORRECTION_GRAIN)
_Static_assert(CORRECTION_LIMIT <= INT16_MAX, "correction slots are int16_t");

/* Stack entries below ply 0, so that (ss - 4) is always valid. */
#define STACK_OFFSET 4

/* Plies from the root that have a low-ply history. */
#define LOW_PLY_COUNT 4

/*
 * Time limits of one search; all times are milliseconds of its clock: CLOCK_MONOTONIC, or with
 * nodestime the virtual clock on which nodes searched / nodestime is the time (timeman.c).
 */
struct timeman {
    int64_t nodestime;   /* > 0: the virtual clock's nodes per millisecond; 0: wall clock */
    int64_t start;       /* when the search started */
    int64_t clock_start; /* when the limits started counting: start, or the ponderhit */
    int64_t soft;        /* aim to finish iterations within this (0: no time limit) */
    int64_t hard;        /* never exceed this (0: no time limit) */
    int stop_share;      /* percent of the scaled soft limit after which no iteration starts */
    bool fixed;          /* movetime: use all of it, no early stop */
};

/* Wall-clock milliseconds since an arbitrary fixed point (monotonic). */
int64_t timeman_wall_ms(void);

/* Now on the search's clock: nodes / nodestime on a virtual clock (nodes: all threads'), else
 * timeman_wall_ms(). */
int64_t timeman_now(const struct timeman *tm, uint64_t nodes);

/*
 * Sets the limits for the side to move; `overhead` is kept back from the clock. nodestime > 0
 * selects the virtual clock; `now` is the time on the chosen clock (0 on a virtual one).
 * `params` gives the plan's constants (tm_*; NULL: the defaults).
 */
void timeman_init(struct timeman *tm, const struct chess_search_limits *limits, int side,
                  int64_t overhead, int64_t nodestime, int64_t now,
                  const struct chess_search_params *params);

/* Soft limit adjusted for how settled the search is; see timeman.c. */
bool timeman_should_stop(const struct timeman *tm, int64_t now, int stable_iterations,
                         int score_drop, bool single_move);

/*
 * Squares the side not to move attacks with pawns; with pawns or minor pieces; with those or
 * rooks (where our minor piece, rook or queen would stand en prise to a lesser piece); and with
 * anything.
 */
struct threat_map {
    chess_bitboard by_pawn, by_minor, by_rook, all;
};

struct stack_entry {
    chess_move move;     /* the move played from this node (CHESS_MOVE_NULL for a pass) */
    chess_move excluded; /* singular extension search: the move left out */
    chess_move killers[2];
    int moved_piece;
    bool move_quiet;     /* the move was neither a capture nor a promotion */
    int static_eval;     /* the evaluation corrected by the correction history, or NO_SCORE */
    int raw_eval;        /* the evaluation as the evaluator gave it (what the table keeps) */
    int plies_from_null; /* plies back that repetition may look (also bounded by the clock) */
    bool in_check;
    int cutoff_count;          /* beta cut-offs at this ply since the node two plies up started */
    int move_count;            /* moves tried so far at this node (main search) */
    struct threat_map threats; /* what the opponent attacks (main search nodes) */
    int16_t (*cont_hist)[64];  /* continuation history after this node's move */
    /* The node's position, in its parent's frame (the root: the request's), while it is
     * searched; and whether the worker's accumulator of this ply holds its network sums. */
    const struct chess_position *position;
    bool acc_ready;
};

struct root_move {
    chess_move move;
    int score, prev_score, avg_score;
    int seldepth;
    bool lowerbound, upperbound;
    uint64_t nodes;
    int pv_length;
    chess_move pv[CHESS_MAX_PLY];
};

/* What a thread learns while searching, kept between the searches of a game (chess/search.h). */
struct search_stats {
    /* [colour][from square attacked][to square attacked][from][to]: a quiet move's worth depends
     * on whether it leaves or enters a square the opponent attacks. */
    int16_t history[2][2][2][64][64];
    int16_t capture_history[16][64][7]; /* [piece][to][captured type] */
    chess_move counter_moves[16][64];   /* [piece][to] of the previous move */
    int16_t cont_hist[16][64][16][64];  /* [prev piece][prev to][piece][to] */
    /*
     * How far searches found the static evaluation off, by side to move and a hash of where
     * the pawns stand, and of where each colour's other pieces stand ([to move][colour][hash]).
     */
    int16_t pawn_correction[2][CORRECTION_SIZE];
    int16_t piece_correction[2][2][CORRECTION_SIZE];
};

struct chess_search_memory {
    struct search_stats stats;
};

struct search_shared;

struct worker {
    struct search_shared *sh;
    int id;
    pthread_t thread;
    _Atomic uint64_t nodes; /* written by the owner only */
    int seldepth;
    int root_depth;
    int completed_depth;
    int pv_index, pv_last;
    int root_count;
    struct root_move root_moves[CHESS_MAX_MOVES];

    uint64_t *keys; /* keys[0 .. root_index-1]: history; keys[root_index + ply]: the path */
    int root_index;

    struct stack_entry stack[CHESS_MAX_PLY + STACK_OFFSET + 2];
    chess_move pv[CHESS_MAX_PLY + 1][CHESS_MAX_PLY + 1];
    int pv_length[CHESS_MAX_PLY + 1];

    uint8_t reductions[64][64]; /* late move reductions by [depth][move number] */
    /* Quiet moves' history in the first plies ([ply][from][to]), learned afresh by each search
     * (zero in the worker that each search allocates): those few nodes are searched again at
     * every iteration, and a table of their own keeps what they learn apart from the butterfly
     * history that all plies share (Stockfish 17). */
    int16_t low_ply_history[LOW_PLY_COUNT][64][64];
    /* What this thread learns: the request's memory itself for the main thread (so a search
     * with one thread copies nothing), else a copy of it of the thread's own (own_stats). */
    struct search_stats *stats;
    struct search_stats *own_stats;
    struct eval_pawn_cache pawn_cache;
    /* The network's sums of each ply's node, valid where its stack entry says acc_ready. */
    struct nnue_accumulator acc[CHESS_MAX_PLY + STACK_OFFSET + 2];
};

struct search_shared {
    const struct chess_search_request *req;
    struct chess_search_params params; /* the request's, or the defaults */
    struct chess_tt *tt;
    struct timeman tm;
    int64_t wall_start; /* for reports: info time and nps are wall-clock even with nodestime */
    atomic_bool stop;   /* set by the main thread (or any limit) to end all threads */
    atomic_bool *caller_stop;
    atomic_bool *ponder;
    bool pondering; /* main thread only: still pondering as of the last check */
    uint64_t node_limit;
    int depth_limit;
    int multipv;
    int thread_count;
    struct worker **workers;
};

/* The ply (distance from the root) of a stack entry of w. */
static inline int stack_ply(const struct worker *w, const struct stack_entry *ss) {
    return (int)(ss - &w->stack[STACK_OFFSET]);
}

/* Node search with the root moves of the worker at ply 0; returns the score. */
int search_node(struct worker *w, const struct chess_position *pos, int alpha, int beta, int depth,
                int ply, bool cut_node);

/* Sum of every worker's node counter. */
uint64_t search_total_nodes(const struct search_shared *sh);

/* Checks the stop flags and, on the main thread, the clock and node limit. */
bool search_should_stop(struct worker *w);

/* Static exchange evaluation: true when the move wins at least `threshold` material. */
bool see_ge(const struct chess_position *pos, chess_move move, int threshold);

/* Material values of the exchange evaluator, by piece type. */
extern const int see_values[7];

enum pick_stage {
    PICK_TT,
    PICK_GEN_CAPTURES,
    PICK_GOOD_CAPTURES,
    PICK_REFUTATIONS,
    PICK_GEN_QUIETS,
    PICK_QUIETS,
    PICK_BAD_CAPTURES,
    PICK_QSEARCH,
    PICK_QS_CHECKS,
};

/*
 * Moves of one node in the order to try them; see movepick.c. The list holds the captures in
 * [0, cap_end) (losing ones moved to [0, bad_end) once passed over) and the quiet moves in
 * [cap_end, count).
 */
struct move_picker {
    const struct worker *w;
    const struct stack_entry *ss;
    chess_move tt_move;        /* legal table move, tried first, or CHESS_MOVE_NONE */
    chess_move refutations[3]; /* killers and counter move */
    chess_move played[4];      /* tried before generation: the table move and refutations */
    int refutation_index, played_count;
    enum pick_stage stage;
    struct chess_move_list list;
    int scores[CHESS_MAX_MOVES];
    int next, cap_end, bad_end, count;
    bool skip_quiets;
    bool qs_checks; /* quiescence: quiet direct checks after the captures */
};

/* The squares the side not to move attacks: the history's threat index, and move ordering. */
void search_threats(const struct chess_position *pos, struct threat_map *out);

/* A quiet move's butterfly history entry, by side, threats and its squares. */
static inline int16_t *history_entry(struct search_stats *stats, int side, chess_bitboard threats,
                                     int from, int to) {
    return &stats->history[side][(threats >> from) & 1][(threats >> to) & 1][from][to];
}

static inline int history_value(const struct search_stats *stats, int side, chess_bitboard threats,
                                int from, int to) {
    return stats->history[side][(threats >> from) & 1][(threats >> to) & 1][from][to];
}

/* Exactly chess_position_is_legal(), faster: for the table's move, which may be any value. */
bool move_is_legal_fast(const struct chess_position *pos, chess_move m);

/* Generates and scores the moves of a search node. */
void picker_init_main(struct move_picker *mp, const struct worker *w,
                      const struct chess_position *pos, const struct stack_entry *ss,
                      chess_move tt_move);

/* Generates and scores the moves of a quiescence node (captures, or evasions in check); with
 * `checks` and not in check, quiet direct checks follow the captures. */
void picker_init_qsearch(struct move_picker *mp, const struct worker *w,
                         const struct chess_position *pos, bool checks);

/* The next move to try, or CHESS_MOVE_NONE when none are left. */
chess_move picker_next(struct move_picker *mp, const struct chess_position *pos);

/* True when the move captures or promotes (the search's "tactical" moves). */
static inline bool move_is_tactical(const struct chess_position *pos, chess_move m) {
    return chess_position_is_capture(pos, m) || chess_move_kind(m) == CHESS_MOVE_PROMOTION;
}

/* The piece type a move captures (PAWN for en passant), or 0. */
static inline int move_captured_type(const struct chess_position *pos, chess_move m) {
    if (chess_move_kind(m) == CHESS_MOVE_EN_PASSANT) return CHESS_PAWN;
    if (chess_move_kind(m) == CHESS_MOVE_CASTLING) return 0;
    return CHESS_PIECE_TYPE(pos->board[chess_move_to(m)]);
}

/* Score conversions between "from the root" and "from this node" for the table. */
static inline int score_to_tt(int score, int ply) {
    if (score >= CHESS_MATE_BOUND) return score + ply;
    if (score <= -CHESS_MATE_BOUND) return score - ply;
    return score;
}

static inline int score_from_tt(int score, int ply) {
    if (score >= CHESS_MATE_BOUND) return score - ply;
    if (score <= -CHESS_MATE_BOUND) return score + ply;
    return score;
}

#endif
