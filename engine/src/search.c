/*
 * The search driver (see chess/search.h): sets up the workers, runs iterative deepening with
 * aspiration windows and MultiPV on each, reports progress, and picks the move to play.
 *
 * Lazy SMP: the calling thread is worker 0 (the main thread: it alone watches the clock, the
 * node limit and the caller's flags, and reports); helpers run the same iterative deepening on
 * their own threads and differ only through timing and the shared transposition table. When
 * the main thread finishes it raises the shared stop flag and joins them.
 *
 * Below full skill, the engine searches several lines and picks one at random, weighted so that
 * strong moves remain likely and the size of the mistakes grows as the skill drops.
 */
#define _POSIX_C_SOURCE 200809L

#include "chess/movegen.h"
#include "search_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void chess_search_request_init(struct chess_search_request *req,
                               const struct chess_position *root) {
    memset(req, 0, sizeof *req);
    req->position = *root;
    req->threads = 1;
    req->multipv = 1;
    req->skill = CHESS_SKILL_MAX;
    req->move_overhead_ms = 50;
}

uint64_t search_total_nodes(const struct search_shared *sh) {
    uint64_t total = 0;
    for (int i = 0; i < sh->thread_count; i++)
        total += atomic_load_explicit(&sh->workers[i]->nodes, memory_order_relaxed);
    return total;
}

/* Now on the search's clock (the main thread's view: all threads' nodes on a virtual clock). */
static int64_t search_now(const struct search_shared *sh) {
    return timeman_now(&sh->tm, sh->tm.nodestime > 0 ? search_total_nodes(sh) : 0);
}

static void raise_stop(struct search_shared *sh) {
    atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
}

static bool caller_stopped(const struct search_shared *sh) {
    return sh->caller_stop && atomic_load_explicit(sh->caller_stop, memory_order_relaxed);
}

/* Main thread: notices a ponderhit, and from then on counts time. */
static void update_pondering(struct search_shared *sh, int64_t now) {
    if (sh->pondering && !atomic_load_explicit(sh->ponder, memory_order_relaxed)) {
        sh->pondering = false;
        sh->tm.clock_start = now;
    }
}

static bool limits_reached(struct search_shared *sh) {
    if (caller_stopped(sh)) return true;
    if (sh->node_limit && search_total_nodes(sh) >= sh->node_limit) return true;
    int64_t now = search_now(sh);
    update_pondering(sh, now);
    return !sh->pondering && sh->tm.hard && now - sh->tm.clock_start >= sh->tm.hard;
}

bool search_should_stop(struct worker *w) {
    struct search_shared *sh = w->sh;
    if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) return true;
    if (w->id != 0) return false;
    uint64_t n = atomic_load_explicit(&w->nodes, memory_order_relaxed);
    bool due = (n & 1023) == 0 || (sh->node_limit && sh->thread_count == 1 && n >= sh->node_limit);
    if (due && sh->req->yield) sh->req->yield(sh->req->yield_ctx);
    if (!due || !limits_reached(sh)) return false;
    raise_stop(sh);
    return true;
}

static void init_reductions(struct worker *w) {
    double base = w->sh->params.lmr_base / 100.0, div = w->sh->params.lmr_div / 100.0;
    for (int d = 0; d < 64; d++) {
        for (int m = 0; m < 64; m++) {
            double r = d && m ? base + log((double)d) * log((double)m) / div : 0;
            w->reductions[d][m] = (uint8_t)(r < 0 ? 0 : r > 40 ? 40 : r);
        }
    }
}

struct chess_search_memory *chess_search_memory_create(void) {
    return calloc(1, sizeof(struct chess_search_memory));
}

void chess_search_memory_destroy(struct chess_search_memory *memory) {
    free(memory);
}

void chess_search_memory_clear(struct chess_search_memory *memory) {
    memset(memory, 0, sizeof *memory);
}

static void init_stack(struct worker *w) {
    memset(w->stack, 0, sizeof w->stack);
    for (int i = 0; i < (int)(sizeof w->stack / sizeof w->stack[0]); i++)
        w->stack[i].static_eval = NO_SCORE;
    w->stack[STACK_OFFSET].plies_from_null = w->root_index;
    w->stack[STACK_OFFSET].position = &w->sh->req->position; /* the root, for the network */
}

/* Root moves in the order the move picker would try them, table move first. */
static void init_root_moves(struct worker *w, const struct chess_position *root) {
    struct chess_tt_entry tte;
    chess_move tt_move = CHESS_MOVE_NONE;
    if (chess_tt_probe(w->sh->tt, root->key, &tte)) tt_move = tte.move;
    struct move_picker mp;
    search_threats(root, &w->stack[STACK_OFFSET].threats); /* the picker orders by them */
    picker_init_main(&mp, w, root, &w->stack[STACK_OFFSET], tt_move);
    chess_move m;
    w->root_count = 0;
    while ((m = picker_next(&mp, root)) != CHESS_MOVE_NONE) {
        struct root_move *rm = &w->root_moves[w->root_count++];
        memset(rm, 0, sizeof *rm);
        rm->move = m;
        rm->score = rm->prev_score = rm->avg_score = -INF_SCORE;
        rm->pv[0] = m;
        rm->pv_length = 1;
    }
}

static void worker_destroy(struct worker *w);

static struct worker *worker_create(struct search_shared *sh, int id) {
    const struct chess_search_request *req = sh->req;
    struct worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    int count = req->history ? req->history_count : 0;
    int keep = count < req->position.halfmove_clock ? count : req->position.halfmove_clock;
    if (keep < 0) keep = 0;
    w->keys = malloc(sizeof(uint64_t) * (size_t)(keep + CHESS_MAX_PLY + 2));
    if (!w->keys) goto fail;
    if (keep > 0) memcpy(w->keys, req->history + (count - keep), sizeof(uint64_t) * (size_t)keep);
    w->root_index = keep;
    w->keys[keep] = req->position.key;
    w->sh = sh;
    w->id = id;
    /* Every thread starts from what was learned; the main thread updates it in place. */
    if (req->memory && id == 0) {
        w->stats = &req->memory->stats;
    } else {
        w->own_stats = req->memory ? malloc(sizeof *w->own_stats) : calloc(1, sizeof *w->own_stats);
        if (!w->own_stats) goto fail;
        if (req->memory) memcpy(w->own_stats, &req->memory->stats, sizeof *w->own_stats);
        w->stats = w->own_stats;
    }
    atomic_init(&w->nodes, 0);
    init_reductions(w);
    init_stack(w);
    init_root_moves(w, &req->position);
    return w;
fail:
    worker_destroy(w);
    return NULL;
}

static void worker_destroy(struct worker *w) {
    if (!w) return;
    free(w->own_stats);
    free(w->keys);
    free(w);
}

/* Stable insertion sort of root moves [first, last) by score, best first. */
static void sort_root_moves(struct worker *w, int first, int last) {
    for (int i = first + 1; i < last; i++) {
        struct root_move tmp = w->root_moves[i];
        int j = i - 1;
        while (j >= first && w->root_moves[j].score < tmp.score) {
            w->root_moves[j + 1] = w->root_moves[j];
            j--;
        }
        w->root_moves[j + 1] = tmp;
    }
}

static void report_line(struct search_shared *sh, struct worker *w, int line, int depth) {
    const struct root_move *rm = &w->root_moves[line];
    bool updated = rm->score != -INF_SCORE;
    int score = updated ? rm->score : rm->prev_score;
    if (!updated) depth--;
    if (depth < 1 || score == -INF_SCORE) return;
    int64_t elapsed = timeman_wall_ms() - sh->wall_start;
    uint64_t nodes = search_total_nodes(sh);
    struct chess_search_info info = {
        .depth = depth,
        .seldepth = rm->seldepth > depth ? rm->seldepth : depth,
        .multipv = line + 1,
        .score = score,
        .lowerbound = updated && rm->lowerbound,
        .upperbound = updated && rm->upperbound,
        .nodes = nodes,
        .nps = nodes * 1000 / (uint64_t)(elapsed > 0 ? elapsed : 1),
        .time_ms = elapsed,
        .hashfull = chess_tt_hashfull(sh->tt),
        .pv_length = rm->pv_length,
        .pv = rm->pv,
    };
    sh->req->on_info(sh->req->info_ctx, &info);
}

static void report(struct search_shared *sh, struct worker *w, int depth, int lines) {
    if (w->id != 0 || !sh->req->on_info) return;
    for (int i = 0; i < lines; i++) report_line(sh, w, i, depth);
}

/* One MultiPV line of one iteration, inside a window that widens until the score fits. */
static void search_line(struct worker *w, const struct chess_position *root, int depth) {
    struct search_shared *sh = w->sh;
    struct root_move *rm = &w->root_moves[w->pv_index];
    int prev = rm->avg_score;
    int delta = sh->params.asp_delta + (prev != -INF_SCORE ? abs(prev) / 64 : 0);
    int alpha = -INF_SCORE, beta = INF_SCORE;
    if (depth >= 4 && prev != -INF_SCORE) {
        alpha = prev - delta > -INF_SCORE ? prev - delta : -INF_SCORE;
        beta = prev + delta < INF_SCORE ? prev + delta : INF_SCORE;
    }
    for (;;) {
        w->seldepth = 0;
        int score = search_node(w, root, alpha, beta, depth, 0, false);
        sort_root_moves(w, w->pv_index, w->root_count);
        if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) return;
        if (score > alpha && score < beta) return;
        if (timeman_wall_ms() - sh->wall_start > 3000) report(sh, w, depth, 1);
        if (score <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = score - delta > -INF_SCORE ? score - delta : -INF_SCORE;
        } else {
            beta = score + delta < INF_SCORE ? score + delta : INF_SCORE;
        }
        delta += delta / 2;
        if (delta > 1000) alpha = -INF_SCORE, beta = INF_SCORE;
    }
}

/* State the main thread keeps between iterations for time decisions. */
struct iteration_track {
    chess_move last_best;
    int stable;
    int last_score;
};

static bool main_thread_done(struct worker *w, struct iteration_track *t, int depth) {
    struct search_shared *sh = w->sh;
    const struct root_move *best = &w->root_moves[0];
    t->stable = best->move == t->last_best ? t->stable + 1 : 0;
    int drop = t->last_score == -INF_SCORE ? 0 : t->last_score - best->score;
    t->last_best = best->move;
    t->last_score = best->score;
    if (sh->depth_limit && depth >= sh->depth_limit) return true;
    int64_t now = search_now(sh);
    update_pondering(sh, now);
    if (sh->pondering || sh->req->limits.infinite) return false;
    if (chess_score_is_mate(best->score) && sh->tm.soft &&
        depth >= 2 * (CHESS_MATE - abs(best->score)) + 6)
        return true;
    return timeman_should_stop(&sh->tm, now, t->stable, drop, w->root_count == 1);
}

static void iterate(struct worker *w) {
    struct search_shared *sh = w->sh;
    const struct chess_position *root = &sh->req->position;
    struct iteration_track track = {CHESS_MOVE_NONE, 0, -INF_SCORE};
    int max_depth = sh->depth_limit ? sh->depth_limit : CHESS_MAX_DEPTH;
    for (int depth = 1 + (w->id & 1); depth <= max_depth; depth++) {
        w->root_depth = depth;
        for (int i = 0; i < w->root_count; i++)
            w->root_moves[i].prev_score = w->root_moves[i].score;
        for (w->pv_index = 0; w->pv_index < sh->multipv; w->pv_index++) {
            search_line(w, root, depth);
            sort_root_moves(w, 0, w->pv_index + 1);
            if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) break;
        }
        w->pv_index = 0;
        if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) break;
        w->completed_depth = depth;
        report(sh, w, depth, sh->multipv);
        if (w->id == 0 && main_thread_done(w, &track, depth)) break;
    }
}

static void *helper_main(void *arg) {
    iterate(arg);
    return NULL;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* With infinite limits or while pondering, the result waits for stop (or the ponderhit). */
static void wait_for_release(struct search_shared *sh) {
    const struct chess_search_request *req = sh->req;
    for (;;) {
        if (caller_stopped(sh)) return;
        if (sh->pondering) update_pondering(sh, search_now(sh));
        if (!req->limits.infinite && !sh->pondering) return;
        if (!sh->caller_stop && !sh->pondering) return; /* nobody could ever stop us */
        sleep_ms(1);
    }
}

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/*
 * Below full skill: with probability min(1, (20 - skill) / 10) the move is drawn at random from
 * the searched lines, each weighted by exp(-(loss / t)^2) where loss is how much worse than the
 * best line it scores and t = 5 + 10 * (20 - skill) centipawns; otherwise the best line is
 * played. Small inaccuracies are common at low skill, large material blunders rare (those come
 * from the shallow search missing tactics, as a weak player's do), and high skills err rarely:
 * even small losses on every move add up to a large difference in strength.
 */
static int pick_weakened(const struct search_shared *sh, const struct worker *w) {
    int skill = sh->req->skill;
    uint64_t state = sh->req->seed ^ sh->req->position.key;
    double chance = (double)(splitmix64(&state) >> 11) / 9007199254740992.0;
    if (chance * 10.0 >= (double)(CHESS_SKILL_MAX - skill)) return 0;
    double t = 5.0 + 10.0 * (CHESS_SKILL_MAX - skill);
    int best = w->root_moves[0].score;
    double weights[CHESS_MAX_MULTIPV], total = 0;
    int n = sh->multipv;
    for (int i = 0; i < n; i++) {
        int score = w->root_moves[i].score;
        double loss = (double)(best - score) / t;
        weights[i] = score == -INF_SCORE ? 0 : exp(-loss * loss);
        total += weights[i];
    }
    double x = (double)(splitmix64(&state) >> 11) / 9007199254740992.0 * total;
    for (int i = 0; i < n; i++) {
        if (x < weights[i]) return i;
        x -= weights[i];
    }
    return 0;
}

static chess_move ponder_from_table(struct search_shared *sh, chess_move best) {
    struct chess_position next = sh->req->position;
    chess_position_make_move(&next, best);
    struct chess_tt_entry tte;
    if (chess_tt_probe(sh->tt, next.key, &tte) && chess_position_is_legal(&next, tte.move))
        return tte.move;
    return CHESS_MOVE_NONE;
}

static void fill_result(struct search_shared *sh, struct worker *w,
                        struct chess_search_result *out) {
    int line = sh->req->skill < CHESS_SKILL_MAX ? pick_weakened(sh, w) : 0;
    const struct root_move *rm = &w->root_moves[line];
    out->best = rm->move;
    out->score = rm->score != -INF_SCORE ? rm->score : rm->prev_score;
    if (out->score == -INF_SCORE) out->score = 0; /* stopped before any score */
    out->ponder = rm->pv_length > 1 ? rm->pv[1] : ponder_from_table(sh, rm->move);
    struct chess_position next = sh->req->position;
    chess_position_make_move(&next, rm->move);
    if (!chess_position_is_legal(&next, out->ponder)) out->ponder = CHESS_MOVE_NONE;
    out->depth = w->completed_depth;
    out->seldepth = rm->seldepth;
    out->nodes = search_total_nodes(sh);
    out->time_ms = timeman_wall_ms() - sh->wall_start;
}

static int lines_wanted(const struct chess_search_request *req, int legal) {
    int lines = req->multipv < 1 ? 1 : req->multipv;
    if (req->skill < CHESS_SKILL_MAX && lines < 2 + (CHESS_SKILL_MAX - req->skill) / 2)
        lines = 2 + (CHESS_SKILL_MAX - req->skill) / 2;
    if (lines > CHESS_MAX_MULTIPV) lines = CHESS_MAX_MULTIPV;
    return lines < legal ? lines : legal;
}

static void init_shared(struct search_shared *sh, const struct chess_search_request *req,
                        struct chess_tt *tt, int legal) {
    memset(sh, 0, sizeof *sh);
    sh->req = req;
    if (req->params)
        sh->params = *req->params;
    else
        chess_search_params_default(&sh->params);
    sh->tt = tt;
    atomic_init(&sh->stop, false);
    sh->caller_stop = req->stop;
    sh->ponder = req->ponder;
    sh->pondering = req->ponder && atomic_load_explicit(req->ponder, memory_order_relaxed);
    sh->node_limit = req->limits.nodes;
    sh->depth_limit = req->limits.depth > CHESS_MAX_DEPTH ? CHESS_MAX_DEPTH : req->limits.depth;
    sh->multipv = lines_wanted(req, legal);
    struct chess_search_limits limits = req->limits;
    if (limits.infinite) memset(&limits, 0, sizeof limits);
    int64_t nodestime = req->nodestime > 0 ? req->nodestime : 0;
    sh->wall_start = timeman_wall_ms();
    timeman_init(&sh->tm, &limits, req->position.side,
                 req->move_overhead_ms > 0 ? req->move_overhead_ms : 0, nodestime,
                 nodestime ? 0 : sh->wall_start, &sh->params);
    chess_tt_set_generation(tt, (unsigned)(2 * req->position.fullmove_number + req->position.side));
}

/* No legal move: mate or stalemate, reported as such. */
static int search_no_moves(const struct chess_search_request *req,
                           struct chess_search_result *out) {
    out->score = chess_position_in_check(&req->position) ? -CHESS_MATE : 0;
    struct search_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.req = req;
    sh.caller_stop = req->stop;
    sh.ponder = req->ponder;
    sh.pondering = req->ponder && atomic_load_explicit(req->ponder, memory_order_relaxed);
    wait_for_release(&sh);
    return 0;
}

/* Starts up to wanted - 1 helper threads; fewer when memory or threads run short. */
static void start_helpers(struct search_shared *sh, int wanted) {
    for (int i = 1; i < wanted; i++) {
        struct worker *w = worker_create(sh, i);
        if (!w) return;
        sh->workers[i] = w;
        sh->thread_count = i + 1;
        if (pthread_create(&w->thread, NULL, helper_main, w) != 0) {
            sh->thread_count = i;
            worker_destroy(w);
            sh->workers[i] = NULL;
            return;
        }
    }
}

int chess_search(const struct chess_search_request *req, struct chess_tt *tt,
                 struct chess_search_result *out) {
    memset(out, 0, sizeof *out);
    struct chess_move_list legal;
    chess_generate_moves(&req->position, CHESS_GEN_ALL, &legal);
    if (legal.count == 0) return search_no_moves(req, out);
    out->best = legal.moves[0];

    int threads = req->threads < 1 ? 1 : req->threads > 512 ? 512 : req->threads;
    struct search_shared sh;
    init_shared(&sh, req, tt, legal.count);
    sh.workers = calloc((size_t)threads, sizeof *sh.workers);
    if (!sh.workers) return -CHESS_ERR_NO_MEMORY;
    sh.workers[0] = worker_create(&sh, 0);
    if (!sh.workers[0]) {
        free(sh.workers);
        return -CHESS_ERR_NO_MEMORY;
    }
    sh.thread_count = 1;
    start_helpers(&sh, threads);

    iterate(sh.workers[0]);
    wait_for_release(&sh);
    raise_stop(&sh);
    for (int i = 1; i < sh.thread_count; i++) pthread_join(sh.workers[i]->thread, NULL);
    fill_result(&sh, sh.workers[0], out);
    for (int i = 0; i < sh.thread_count; i++) worker_destroy(sh.workers[i]);
    free(sh.workers);
    return 0;
}
