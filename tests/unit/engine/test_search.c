/*
 * Search tests: mates in one, two and three; stalemate, threefold repetition and perpetual
 * check; thousands of random legal positions never yield an illegal or null best move; fixed
 * depth is deterministic with one thread; the search memory carries history between searches; stop,
 * ponderhit, node and time limits; time measured in nodes (nodestime) stops within the limits
 * the time manager set and is deterministic; MultiPV and skill; several threads on one table.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "search_internal.h"
#include "test_random.h"

#include <chess/fen.h>
#include <chess/move.h>
#include <chess/movegen.h>
#include <chess/search.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct chess_tt *tt;

/* Searches a FEN to a depth with a fresh table and the given memory (may be NULL). */
static struct chess_search_result search_with_memory(const char *fen, int depth,
                                                     struct chess_search_memory *memory) {
    struct chess_position pos;
    struct chess_search_result res = {0};
    if (!CHECK(chess_fen_parse(&pos, fen) == 0)) return res;
    struct chess_search_request req;
    chess_search_request_init(&req, &pos);
    req.limits.depth = depth;
    req.memory = memory;
    chess_tt_clear(tt);
    CHECK(chess_search(&req, tt, &res) == 0);
    return res;
}

/* Searches a FEN to a depth with a fresh table; returns the result. */
static struct chess_search_result search_fen(const char *fen, int depth) {
    return search_with_memory(fen, depth, NULL);
}

static void expect_move(const char *fen, int depth, const char *uci) {
    struct chess_position pos;
    if (!CHECK(chess_fen_parse(&pos, fen) == 0)) return;
    struct chess_search_result res = search_fen(fen, depth);
    char text[CHESS_UCI_MAX];
    chess_move_to_uci(&pos, res.best, text);
    CHECK_EQ_STR(text, uci);
}

static void test_mate_in_one(void) {
    const char *fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    struct chess_search_result res = search_fen(fen, 4);
    CHECK_EQ_INT(res.score, CHESS_MATE - 1);
    CHECK_EQ_INT(chess_score_mate_moves(res.score), 1);
    expect_move(fen, 4, "a1a8");
}

static void test_mate_in_two(void) {
    const char *fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    struct chess_search_result res = search_fen(fen, 6);
    CHECK_EQ_INT(res.score, CHESS_MATE - 3);
    expect_move(fen, 6, "d5f6");
}

static void test_mate_in_three(void) {
    struct chess_search_result res = search_fen("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 8);
    CHECK_EQ_INT(res.score, CHESS_MATE - 5);
    res = search_fen("2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 8);
    CHECK_EQ_INT(res.score, CHESS_MATE - 5);
    CHECK_EQ_INT(chess_score_mate_moves(res.score), 3);
}

static void test_mated_side_sees_it(void) {
    /* Black to move must play Kb8, then Rd8 mates. */
    struct chess_search_result res = search_fen("k7/8/1K6/8/8/8/8/3R4 b - - 0 1", 6);
    CHECK(res.best != CHESS_MOVE_NONE);
    CHECK(res.score <= -CHESS_MATE_BOUND);
    CHECK_EQ_INT(chess_score_mate_moves(res.score), -1);
}

/*
 * At depth 1 each reply is left to quiescence. Taking the pawn with the rook leaves the back
 * rank, and Black then mates with a quiet check (Ra1+, Rd1 Rxd1#), which quiescence sees only
 * because it tries quiet checks at its first ply; a capture-only quiescence takes the pawn.
 */
static void test_quiescence_sees_quiet_checks(void) {
    const char *fen = "r5k1/5ppp/8/3p4/8/8/5PPP/3R2K1 w - - 0 1";
    struct chess_position pos;
    if (!CHECK(chess_fen_parse(&pos, fen) == 0)) return;
    struct chess_search_result res = search_fen(fen, 1);
    char text[CHESS_UCI_MAX];
    chess_move_to_uci(&pos, res.best, text);
    if (!CHECK(strcmp(text, "d1d5") != 0)) printf("     best %s, score %d\n", text, res.score);
}

static void test_no_legal_moves(void) {
    struct chess_search_result res = search_fen("k7/P7/1K6/8/8/8/8/8 b - - 0 1", 5);
    CHECK(res.best == CHESS_MOVE_NONE);
    CHECK_EQ_INT(res.score, 0);
    res = search_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", 5);
    CHECK(res.best == CHESS_MOVE_NONE);
    CHECK_EQ_INT(res.score, -CHESS_MATE);
}

static void test_prefers_mate_to_stalemate(void) {
    const char *fen = "k7/2Q5/1K6/8/8/8/8/8 w - - 0 1";
    struct chess_position pos;
    if (!CHECK(chess_fen_parse(&pos, fen) == 0)) return;
    struct chess_search_result res = search_fen(fen, 5);
    CHECK_EQ_INT(res.score, CHESS_MATE - 1);
    chess_position_make_move(&pos, res.best);
    CHECK(chess_position_in_check(&pos));
    CHECK_EQ_INT(chess_count_legal_moves(&pos), 0);
}

static void test_stalemate_is_a_draw(void) {
    /* Black, a queen down with its king boxed in, checks with the rook until taking it
     * stalemates. */
    struct chess_search_result res = search_fen("7k/5Q2/6K1/8/8/8/8/7r b - - 0 1", 14);
    if (!CHECK(res.score > -50 && res.score < 50)) printf("     score %d\n", res.score);
}

static void test_perpetual_check(void) {
    /* Two rooks down, white draws by perpetual check (repetition inside the search). */
    struct chess_search_result res = search_fen("5rk1/5p1p/8/8/8/rr6/3Q1PPP/6K1 w - - 0 1", 10);
    CHECK(res.score > -10 && res.score < 10);
    expect_move("5rk1/5p1p/8/8/8/rr6/3Q1PPP/6K1 w - - 0 1", 10, "d2g5");
}

/* Plays moves from a FEN, collecting the key before each move. */
static int play_line(struct chess_position *pos, const char *fen, const char *const *moves,
                     int count, uint64_t *keys) {
    if (chess_fen_parse(pos, fen) < 0) return -1;
    for (int i = 0; i < count; i++) {
        chess_move m;
        if (chess_move_from_uci(pos, moves[i], &m) < 0) return -1;
        keys[i] = pos->key;
        chess_position_make_move(pos, m);
    }
    return 0;
}

static void test_threefold_from_history(void) {
    /* Black, a queen down, can only draw by repeating: Kh8 makes a third occurrence. */
    static const char *const line[] = {"h8g8", "c2d2", "g8h8", "d2c2", "h8g8",
                                       "c2d2", "g8h8", "d2c2", "h8g8", "c2d2"};
    struct chess_position pos;
    uint64_t keys[10];
    if (!CHECK(play_line(&pos, "7k/8/8/8/8/8/2Q5/K7 b - - 0 1", line, 10, keys) == 0)) return;
    struct chess_search_request req;
    chess_search_request_init(&req, &pos);
    req.history = keys;
    req.history_count = 10;
    req.limits.depth = 8;
    struct chess_search_result res;
    chess_tt_clear(tt);
    CHECK(chess_search(&req, tt, &res) == 0);
    char text[CHESS_UCI_MAX];
    chess_move_to_uci(&pos, res.best, text);
    CHECK_EQ_STR(text, "g8h8");
    CHECK(res.score > -5 && res.score < 5);

    /* Without the history the same position is simply lost. */
    req.history = NULL;
    req.history_count = 0;
    chess_tt_clear(tt);
    CHECK(chess_search(&req, tt, &res) == 0);
    CHECK(res.score < -500);
}

/* A random legal position: up to 120 random plies from the start, stopping at a game's end. */
static void random_position(uint64_t *seed, struct chess_position *pos) {
    chess_position_startpos(pos);
    int plies = (int)(rng_next(seed) % 120);
    for (int i = 0; i < plies; i++) {
        struct chess_move_list list;
        if (chess_generate_moves(pos, CHESS_GEN_ALL, &list) == 0) break;
        chess_position_make_move(pos, list.moves[rng_next(seed) % (uint64_t)list.count]);
    }
}

static void test_random_positions_legal(void) {
    uint64_t seed = 0x1234567;
    int bad = 0;
    for (int i = 0; i < 2000; i++) {
        struct chess_position pos;
        random_position(&seed, &pos);
        struct chess_search_request req;
        chess_search_request_init(&req, &pos);
        req.limits.nodes = 50 + rng_next(&seed) % 300;
        if (i % 3 == 0) req.limits.depth = 1 + (int)(rng_next(&seed) % 4);
        struct chess_search_result res;
        if (chess_search(&req, tt, &res) != 0) bad++;
        bool has_moves = chess_count_legal_moves(&pos) > 0;
        if (has_moves != (res.best != CHESS_MOVE_NONE)) bad++;
        if (has_moves && !chess_position_is_legal(&pos, res.best)) bad++;
        if (has_moves && res.ponder != CHESS_MOVE_NONE) {
            struct chess_position next = pos;
            chess_position_make_move(&next, res.best);
            if (!chess_position_is_legal(&next, res.ponder)) bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
}

/* The table-move check agrees with the rules for legal moves and arbitrary 16-bit values. */
static void test_fast_legality(void) {
    uint64_t seed = 0xABCDEF;
    int wrong = 0;
    for (int i = 0; i < 400; i++) {
        struct chess_position pos;
        random_position(&seed, &pos);
        struct chess_move_list list;
        chess_generate_moves(&pos, CHESS_GEN_ALL, &list);
        for (int j = 0; j < list.count; j++) wrong += !move_is_legal_fast(&pos, list.moves[j]);
        for (int j = 0; j < 300; j++) {
            chess_move m = (chess_move)rng_next(&seed);
            /* Bias towards moves of the side to move's own pieces. */
            if (j & 1) {
                chess_bitboard own = pos.by_color[pos.side];
                int from = __builtin_ctzll(own), skip = (int)(rng_next(&seed) % 16);
                for (int k = 0; k < skip && (own & (own - 1)); k++) {
                    own &= own - 1;
                    from = __builtin_ctzll(own);
                }
                m = (chess_move)((m & 0xF03F) | (from << 6));
            }
            bool fast = move_is_legal_fast(&pos, m), slow = chess_position_is_legal(&pos, m);
            if (fast != slow && wrong < 5) {
                char fen[CHESS_FEN_MAX];
                chess_fen_write(&pos, CHESS_FEN_XFEN, fen, sizeof fen);
                printf("     %s move %04x fast %d rules %d\n", fen, m, fast, slow);
            }
            wrong += fast != slow;
        }
    }
    CHECK_EQ_INT(wrong, 0);
}

static void test_deterministic(void) {
    const char *fens[] = {CHESS_FEN_STARTPOS,
                          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"};
    for (int i = 0; i < 2; i++) {
        struct chess_search_result a = search_fen(fens[i], 7);
        struct chess_search_result b = search_fen(fens[i], 7);
        CHECK_EQ_INT(a.best, b.best);
        CHECK_EQ_INT(a.score, b.score);
        CHECK_EQ_INT(a.nodes, b.nodes);
        CHECK(a.nodes > 0);
    }
}

struct yields {
    int calls;
};

/* A caller pausing the search: here it only counts, and takes its time about it. */
static void count_yield(void *ctx) {
    struct yields *y = ctx;
    if (++y->calls % 50 == 0) {
        struct timespec pause = {0, 1000000L};
        nanosleep(&pause, NULL);
    }
}

/* A node-limited search gives the same result whether its caller pauses it or not, and is
 * called about every 1024 nodes. */
static void test_yield_changes_nothing(void) {
    struct chess_position pos;
    const char *fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    if (!CHECK(chess_fen_parse(&pos, fen) == 0)) return;
    struct chess_search_result plain = {0}, paused = {0};
    struct chess_search_request req;
    chess_search_request_init(&req, &pos);
    req.limits.nodes = 200000;
    chess_tt_clear(tt);
    CHECK(chess_search(&req, tt, &plain) == 0);
    struct yields y = {0};
    req.yield = count_yield;
    req.yield_ctx = &y;
    chess_tt_clear(tt);
    CHECK(chess_search(&req, tt, &paused) == 0);
    CHECK_EQ_INT(paused.best, plain.best);
    CHECK_EQ_INT(paused.score, plain.score);
    CHECK_EQ_INT(paused.depth, plain.depth);
    CHECK_EQ_INT(paused.nodes, plain.nodes);
    CHECK(y.calls >= (int)(plain.nodes / 1024) - 1 && y.calls <= (int)(plain.nodes / 1024) + 200);
}

/* Searches the Kiwipete position to depth 8 with a fresh table and the given constants. */
static uint64_t nodes_with_params(const struct chess_search_params *params) {
    struct chess_position pos;
    struct chess_search_result res = {0};
    const char *fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    if (!CHECK(chess_fen_parse(&pos, fen) == 0)) return 0;
    struct chess_search_request req;
    chess_search_request_init(&req, &pos);
    req.limits.depth = 8;
    req.params = params;
    chess_tt_clear(tt);
    CHECK(chess_search(&req, tt, &res) == 0);
    return res.nodes;
}

/*
 * The search's constants: the defaults are the list's and search like no constants at all;
 * setting one checks its name (any case) and range; another value changes the search.
 */
static void test_search_params(void) {
    struct chess_search_params params;
    chess_search_params_default(&params);
    int count = chess_search_params_count();
    CHECK(count > 20);
    CHECK(chess_search_param_info(-1) == NULL && chess_search_param_info(count) == NULL);
    for (int i = 0; i < count; i++) {
        const struct chess_search_param_info *info = chess_search_param_info(i);
        CHECK(info->min <= info->default_value && info->default_value <= info->max);
        CHECK_EQ_INT(chess_search_params_get(&params, i), info->default_value);
        struct chess_search_params copy = params;
        CHECK_EQ_INT(chess_search_params_set(&copy, info->name, info->max + 1), -1);
        CHECK_EQ_INT(chess_search_params_set(&copy, info->name, info->min - 1), -1);
        CHECK(memcmp(&copy, &params, sizeof params) == 0);
        CHECK_EQ_INT(chess_search_params_set(&copy, info->name, info->default_value), 0);
        CHECK(memcmp(&copy, &params, sizeof params) == 0);
    }
    CHECK_EQ_INT(params.rfp_margin, 80);
    CHECK_EQ_INT(chess_search_params_set(&params, "no_such_constant", 1), -1);
    uint64_t defaults = nodes_with_params(NULL);
    CHECK_EQ_INT(nodes_with_params(&params), defaults);
    CHECK_EQ_INT(chess_search_params_set(&params, "RFP_Margin", 120), 0);
    CHECK_EQ_INT(params.rfp_margin, 120);
    for (int i = 0; i < count; i++) {
        if (strcmp(chess_search_param_info(i)->name, "rfp_margin") == 0)
            CHECK_EQ_INT(chess_search_params_get(&params, i), 120);
    }
    CHECK(nodes_with_params(&params) != defaults);
}

/* A cleared memory searches like none; a used one changes the search (its history orders). */
static void test_search_memory(void) {
    const char *fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    struct chess_search_memory *memory = chess_search_memory_create();
    if (!CHECK(memory != NULL)) return;
    struct chess_search_result none = search_with_memory(fen, 7, NULL);
    struct chess_search_result first = search_with_memory(fen, 7, memory);
    struct chess_search_result again = search_with_memory(fen, 7, memory);
    chess_search_memory_clear(memory);
    struct chess_search_result cleared = search_with_memory(fen, 7, memory);
    CHECK_EQ_INT(first.nodes, none.nodes);
    CHECK_EQ_INT(cleared.nodes, none.nodes);
    CHECK_EQ_INT(cleared.best, none.best);
    CHECK(again.nodes != first.nodes);
    struct chess_position pos;
    if (CHECK(chess_fen_parse(&pos, fen) == 0)) CHECK(chess_position_is_legal(&pos, again.best));
    chess_search_memory_destroy(memory);
}

struct async_search {
    struct chess_search_request req;
    struct chess_search_result res;
    struct chess_tt *tt;
    int rc;
    atomic_bool done;
};

static void *run_search(void *arg) {
    struct async_search *s = arg;
    s->rc = chess_search(&s->req, s->tt, &s->res);
    atomic_store(&s->done, true);
    return NULL;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static void test_stop_returns_legal_move(void) {
    struct chess_position pos;
    chess_position_startpos(&pos);
    atomic_bool stop;
    atomic_init(&stop, false);
    struct async_search s;
    chess_search_request_init(&s.req, &pos);
    s.req.limits.infinite = true;
    s.req.stop = &stop;
    s.tt = tt;
    atomic_init(&s.done, false);
    pthread_t thread;
    if (!CHECK(pthread_create(&thread, NULL, run_search, &s) == 0)) return;
    sleep_ms(100);
    atomic_store(&stop, true);
    pthread_join(thread, NULL);
    CHECK_EQ_INT(s.rc, 0);
    CHECK(chess_position_is_legal(&pos, s.res.best));

    /* A stop raised before the search starts still yields a legal move. */
    s.req.limits.infinite = false;
    CHECK(chess_search(&s.req, tt, &s.res) == 0);
    CHECK(chess_position_is_legal(&pos, s.res.best));
}

static void test_ponderhit(void) {
    struct chess_position pos;
    chess_position_startpos(&pos);
    atomic_bool ponder;
    atomic_init(&ponder, true);
    struct async_search s;
    chess_search_request_init(&s.req, &pos);
    s.req.limits.movetime_ms = 50;
    s.req.limits.depth = 3; /* finishes at once, then must wait for the ponderhit */
    s.req.ponder = &ponder;
    s.tt = tt;
    atomic_init(&s.done, false);
    pthread_t thread;
    if (!CHECK(pthread_create(&thread, NULL, run_search, &s) == 0)) return;
    sleep_ms(150);
    CHECK(!atomic_load(&s.done)); /* still pondering */
    atomic_store(&ponder, false);
    pthread_join(thread, NULL);
    CHECK(chess_position_is_legal(&pos, s.res.best));
}

static void test_limits(void) {
    struct chess_position pos;
    chess_position_startpos(&pos);
    struct chess_search_request req;
    chess_search_request_init(&req, &pos);
    struct chess_search_result res;
    req.limits.nodes = 5000;
    CHECK(chess_search(&req, tt, &res) == 0);
    CHECK(res.nodes >= 5000 && res.nodes < 5100);

    req.limits.nodes = 0;
    req.limits.movetime_ms = 100;
    CHECK(chess_search(&req, tt, &res) == 0);
    /* Wall-clock bounds are loose: CI machines are shared and the sanitizer build is slow.
     * They still catch a limit that is ignored. */
    CHECK(res.time_ms >= 50 && res.time_ms < 2000);

    /* Almost no time left on the clock: answers quickly. */
    req.limits.movetime_ms = 0;
    req.limits.time_ms[CHESS_WHITE] = 30;
    req.limits.time_ms[CHESS_BLACK] = 30;
    CHECK(chess_search(&req, tt, &res) == 0);
    CHECK(res.time_ms < 500);
    CHECK(chess_position_is_legal(&pos, res.best));
}

/* A search on the virtual clock: nodestime 1, so the limits in milliseconds are node counts. */
static struct chess_search_result search_nodestime(const struct chess_search_limits *limits) {
    struct chess_position pos;
    chess_position_startpos(&pos);
    struct chess_search_request req;
    chess_search_request_init(&req, &pos);
    req.limits = *limits;
    req.nodestime = 1;
    struct chess_search_result res = {0};
    chess_tt_clear(tt);
    CHECK(chess_search(&req, tt, &res) == 0);
    CHECK(chess_position_is_legal(&pos, res.best));
    return res;
}

/*
 * With nodestime the clock is nodes / nodestime: 1000 s on the clock at one node per millisecond
 * is a soft limit of 25 000 nodes. On the wall clock the same search would run for many seconds
 * and millions of nodes, far outside the bounds.
 */
static void test_nodestime(void) {
    struct chess_search_limits limits = {0};
    limits.time_ms[CHESS_WHITE] = limits.time_ms[CHESS_BLACK] = 1000000;
    struct timeman tm;
    timeman_init(&tm, &limits, CHESS_WHITE, 50, 1, 0, NULL);
    struct chess_search_result a = search_nodestime(&limits);
    struct chess_search_result b = search_nodestime(&limits);
    /* Not before 70% of the soft limit times the 60% share of a settled search; never after the
     * hard limit (the clock is read every 1024 nodes). */
    CHECK(a.nodes >= (uint64_t)tm.soft * 7 / 10 * 6 / 10);
    if (!CHECK(a.nodes <= (uint64_t)tm.hard + 2048))
        printf("     %llu nodes, hard limit %lld\n", (unsigned long long)a.nodes,
               (long long)tm.hard);
    CHECK_EQ_INT(a.nodes, b.nodes);
    CHECK_EQ_INT(a.best, b.best);
    CHECK_EQ_INT(a.depth, b.depth);

    /* movetime is used in full (less the overhead): the hard limit stops inside an iteration. */
    struct chess_search_limits fixed = {.movetime_ms = 20050};
    struct chess_search_result c = search_nodestime(&fixed);
    struct chess_search_result d = search_nodestime(&fixed);
    CHECK(c.nodes >= 20000 && c.nodes <= 20000 + 2048);
    CHECK_EQ_INT(c.nodes, d.nodes);
    CHECK_EQ_INT(c.best, d.best);
}

struct info_log {
    int calls, max_multipv, last_depth;
    bool ordered;
};

static void log_info(void *ctx, const struct chess_search_info *info) {
    struct info_log *log = ctx;
    log->calls++;
    if (info->multipv > log->max_multipv) log->max_multipv = info->multipv;
    if (info->multipv == 1) {
        if (info->depth < log->last_depth) log->ordered = false;
        log->last_depth = info->depth;
    }
    if (info->pv_length < 1 || info->nodes == 0) log->ordered = false;
}

static void test_info_and_multipv(void) {
    struct chess_position pos;
    chess_position_startpos(&pos);
    struct chess_search_request req;
    chess_search_request_init(&req, &pos);
    struct info_log log = {0, 0, 0, true};
    req.limits.depth = 6;
    req.multipv = 3;
    req.on_info = log_info;
    req.info_ctx = &log;
    struct chess_search_result res;
    CHECK(chess_search(&req, tt, &res) == 0);
    CHECK_EQ_INT(log.max_multipv, 3);
    CHECK_EQ_INT(log.last_depth, 6);
    CHECK(log.ordered);
    CHECK(log.calls >= 18);
}

static void test_skill_varies_but_stays_legal(void) {
    struct chess_position pos;
    chess_position_startpos(&pos);
    struct chess_search_request req;
    chess_search_request_init(&req, &pos);
    req.limits.depth = 3;
    req.skill = 0;
    chess_move seen[4] = {0};
    int distinct = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        req.seed = seed;
        struct chess_search_result res;
        CHECK(chess_search(&req, tt, &res) == 0);
        CHECK(chess_position_is_legal(&pos, res.best));
        bool known = false;
        for (int i = 0; i < distinct; i++) known = known || seen[i] == res.best;
        if (!known && distinct < 4) seen[distinct++] = res.best;
    }
    CHECK(distinct >= 2);
}

static void test_threads_share_table(void) {
    struct chess_position pos;
    if (!CHECK(chess_fen_parse(&pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w "
                                     "KQkq - 0 1") == 0))
        return;
    struct chess_search_request req;
    chess_search_request_init(&req, &pos);
    req.threads = 3;
    req.limits.depth = 7;
    struct chess_search_result res;
    CHECK(chess_search(&req, tt, &res) == 0);
    CHECK(chess_position_is_legal(&pos, res.best));
    CHECK(res.depth >= 7);
}

int main(void) {
    tt = chess_tt_create(8u << 20);
    if (!tt) return 1;
    RUN(test_mate_in_one);
    RUN(test_mate_in_two);
    RUN(test_mate_in_three);
    RUN(test_mated_side_sees_it);
    RUN(test_quiescence_sees_quiet_checks);
    RUN(test_no_legal_moves);
    RUN(test_prefers_mate_to_stalemate);
    RUN(test_stalemate_is_a_draw);
    RUN(test_perpetual_check);
    RUN(test_threefold_from_history);
    RUN(test_random_positions_legal);
    RUN(test_fast_legality);
    RUN(test_deterministic);
    RUN(test_yield_changes_nothing);
    RUN(test_search_params);
    RUN(test_search_memory);
    RUN(test_stop_returns_legal_move);
    RUN(test_ponderhit);
    RUN(test_limits);
    RUN(test_nodestime);
    RUN(test_info_and_multipv);
    RUN(test_skill_varies_but_stays_legal);
    RUN(test_threads_share_table);
    chess_tt_destroy(tt);
    return check_finish();
}
