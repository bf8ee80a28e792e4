/*
 * pool_bench: figures for the engine worker pool (a benchmark, not a test: it prints, and fails
 * only when a search returns an illegal move).
 *
 *   pool_bench [--workers 2] [--games 200] [--move-ms 100] [--seconds 20] [--depth 9] [--plies 16]
 *
 * 1. Throughput and fairness: G games each want a computer move of M ms; as soon as a game's
 *    move arrives it asks for the next. Prints moves per second as a share of the ideal
 *    (workers / move time) and the slowest game's mean wait over the mean wait of all games.
 * 2. Keeping a game's table: plays a game by searching each position to a fixed depth, once with
 *    the game's table kept from move to move and once with an empty table every move, and
 *    prints the time ratio.
 * 3. Loop responsiveness: a libuv loop runs a 1 ms repeating timer while every worker searches;
 *    prints the timer's lateness p50/p99/max, against the same loop with the workers idle.
 */
#define _GNU_SOURCE

#include <chess/movegen.h>
#include <chess/search.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "pool/pool.h"
#include "util/now.h"

struct bench_game {
    struct chess_position pos;
    uint64_t keys[512];
    int plies;
    int64_t wait_ms_total;
    int moves;
};

struct throughput {
    pthread_mutex_t lock;
    pthread_cond_t done;
    struct pool *pool;
    struct bench_game *games;
    int game_count;
    int64_t move_ms;
    bool running;
    int outstanding;
    long moves;
    int illegal;
};

static void submit_move(struct throughput *t, int g) {
    struct bench_game *game = &t->games[g];
    struct pool_job_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = POOL_JOB_MOVE;
    snprintf(spec.game, sizeof spec.game, "g%d", g);
    spec.owner = (uint64_t)g;
    spec.root = game->pos;
    spec.history = game->keys;
    spec.history_count = game->plies;
    spec.limits.movetime_ms = t->move_ms;
    spec.threads = 1;
    spec.deadline_ms = now_mono_ms() + t->move_ms;
    if (pool_submit(t->pool, &spec) > 0) t->outstanding++;
}

static void on_throughput_event(void *ctx, struct pool_event *ev) {
    struct throughput *t = ctx;
    if (ev->type != POOL_EVENT_DONE) {
        pool_event_free(ev);
        return;
    }
    pthread_mutex_lock(&t->lock);
    t->outstanding--;
    int g = (int)ev->owner;
    struct bench_game *game = &t->games[g];
    if (!ev->cancelled) {
        if (!chess_position_is_legal(&game->pos, ev->result.best)) t->illegal++;
        game->wait_ms_total += ev->wait_ms;
        game->moves++;
        t->moves++;
        /* Restart from the beginning before the history array fills or the game ends. */
        if (game->plies >= 400 || !chess_position_is_legal(&game->pos, ev->result.best)) {
            chess_position_startpos(&game->pos);
            game->plies = 0;
        } else {
            game->keys[game->plies++] = game->pos.key;
            chess_position_make_move(&game->pos, ev->result.best);
            if (chess_count_legal_moves(&game->pos) == 0) {
                chess_position_startpos(&game->pos);
                game->plies = 0;
            }
        }
        if (t->running) submit_move(t, g);
    }
    pthread_cond_broadcast(&t->done);
    pthread_mutex_unlock(&t->lock);
    pool_event_free(ev);
}

static int bench_throughput(int workers, int games, int64_t move_ms, int seconds) {
    struct throughput t;
    memset(&t, 0, sizeof t);
    pthread_mutex_init(&t.lock, NULL);
    pthread_cond_init(&t.done, NULL);
    t.games = calloc((size_t)games, sizeof *t.games);
    t.game_count = games;
    t.move_ms = move_ms;
    t.running = true;
    struct pool_config cfg;
    pool_config_defaults(&cfg);
    cfg.workers = workers;
    cfg.move_overhead_ms = 0; /* a move takes exactly its move time */
    t.pool = pool_create(&cfg, on_throughput_event, &t);
    if (!t.games || !t.pool) {
        fprintf(stderr, "pool_bench: out of memory\n");
        return 1;
    }
    for (int g = 0; g < games; g++) chess_position_startpos(&t.games[g].pos);

    int64_t start = now_mono_ms();
    pthread_mutex_lock(&t.lock);
    for (int g = 0; g < games; g++) submit_move(&t, g);
    pthread_mutex_unlock(&t.lock);
    struct timespec pause = {seconds, 0};
    nanosleep(&pause, NULL);
    pthread_mutex_lock(&t.lock);
    t.running = false;
    long moves = t.moves;
    int64_t elapsed = now_mono_ms() - start;
    pthread_mutex_unlock(&t.lock);
    struct pool_stats stats;
    pool_get_stats(t.pool, &stats);
    pool_destroy(t.pool);

    double ideal = (double)workers * 1000.0 / (double)move_ms;
    double rate = (double)moves * 1000.0 / (double)elapsed;
    double all_wait = 0, worst = 0;
    long counted = 0;
    for (int g = 0; g < games; g++) {
        if (!t.games[g].moves) continue;
        double mean = (double)t.games[g].wait_ms_total / t.games[g].moves;
        if (mean > worst) worst = mean;
        all_wait += (double)t.games[g].wait_ms_total;
        counted += t.games[g].moves;
    }
    double mean_all = counted ? all_wait / (double)counted : 0;
    printf("1. throughput: %d workers, %d games, %lld ms per move, %d s\n", workers, games,
           (long long)move_ms, seconds);
    printf("   moves %ld, %.2f moves/s, ideal %.2f: %.1f%% of ideal (target >= 95%%)\n", moves,
           rate, ideal, 100.0 * rate / ideal);
    printf("   workers searching %.1f%% of the time\n",
           100.0 * (double)stats.search_ms_total / ((double)workers * (double)elapsed));
    printf("   mean wait %.0f ms, slowest game's mean wait %.0f ms: ratio %.2f (target <= 1.5)\n",
           mean_all, worst, mean_all > 0 ? worst / mean_all : 0);
    int illegal = t.illegal;
    free(t.games);
    pthread_cond_destroy(&t.done);
    pthread_mutex_destroy(&t.lock);
    return illegal;
}

/* Searches each position of a self-played game to a fixed depth; returns total ms. */
static int64_t play_to_depth(int depth, int plies, bool keep_table, uint64_t *signature) {
    struct chess_tt *tt = chess_tt_create(16u << 20);
    if (!tt) return -1;
    struct chess_position pos;
    chess_position_startpos(&pos);
    uint64_t keys[256];
    int64_t total = 0;
    *signature = 0;
    for (int ply = 0; ply < plies; ply++) {
        if (!keep_table) chess_tt_clear(tt);
        struct chess_search_request req;
        chess_search_request_init(&req, &pos);
        req.history = keys;
        req.history_count = ply;
        req.limits.depth = depth;
        struct chess_search_result res;
        int64_t start = now_mono_us();
        if (chess_search(&req, tt, &res) < 0 || res.best == CHESS_MOVE_NONE) break;
        total += now_mono_us() - start;
        *signature = *signature * 31 + res.best;
        keys[ply] = pos.key;
        chess_position_make_move(&pos, res.best);
        if (chess_count_legal_moves(&pos) == 0) break;
    }
    chess_tt_destroy(tt);
    return total / 1000;
}

static void bench_table_reuse(int depth, int plies) {
    uint64_t sig_kept, sig_fresh;
    int64_t kept = play_to_depth(depth, plies, true, &sig_kept);
    int64_t fresh = play_to_depth(depth, plies, false, &sig_fresh);
    printf("2. keeping a game's table: %d plies searched to depth %d\n", plies, depth);
    printf(
        "   kept table %lld ms, empty table each move %lld ms: %.2fx faster with the kept table\n",
        (long long)kept, (long long)fresh, kept > 0 ? (double)fresh / (double)kept : 0);
}

struct lateness {
    int64_t expected_us;
    int64_t samples[20000];
    int count;
};

static void on_tick(uv_timer_t *timer) {
    struct lateness *l = timer->data;
    int64_t now = now_mono_us();
    if (l->count < 20000) l->samples[l->count++] = now - l->expected_us;
    l->expected_us = now + 1000;
    if (l->count >= 20000) uv_timer_stop(timer);
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static void measure_loop(const char *label, int ticks) {
    uv_loop_t loop;
    uv_timer_t timer;
    static struct lateness l;
    l.count = 0;
    if (uv_loop_init(&loop) != 0 || uv_timer_init(&loop, &timer) != 0) return;
    timer.data = &l;
    l.expected_us = now_mono_us() + 1000;
    uv_timer_start(&timer, on_tick, 1, 1);
    int64_t stop_at = now_mono_ms() + ticks;
    while (l.count < 20000 && now_mono_ms() < stop_at) uv_run(&loop, UV_RUN_ONCE);
    uv_timer_stop(&timer);
    uv_close((uv_handle_t *)&timer, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
    qsort(l.samples, (size_t)l.count, sizeof l.samples[0], cmp_i64);
    if (l.count == 0) return;
    printf("   %-22s %5d ticks: lateness p50 %.3f ms, p99 %.3f ms, max %.3f ms\n", label, l.count,
           l.samples[l.count / 2] / 1000.0, l.samples[l.count * 99 / 100] / 1000.0,
           l.samples[l.count - 1] / 1000.0);
}

static void ignore_event(void *ctx, struct pool_event *ev) {
    (void)ctx;
    pool_event_free(ev);
}

static void bench_loop_delay(int workers, int seconds) {
    printf("3. event loop 1 ms timer, %d workers (target p99 under 2 ms while busy)\n", workers);
    measure_loop("workers idle:", seconds * 1000);
    struct pool_config cfg;
    pool_config_defaults(&cfg);
    cfg.workers = workers;
    struct pool *pool = pool_create(&cfg, ignore_event, NULL);
    if (!pool) return;
    for (int w = 0; w < workers; w++) {
        struct pool_job_spec spec;
        memset(&spec, 0, sizeof spec);
        spec.kind = POOL_JOB_ANALYSIS;
        chess_position_startpos(&spec.root);
        spec.limits.infinite = true;
        spec.threads = 1;
        spec.deadline_ms = now_mono_ms();
        pool_submit(pool, &spec);
    }
    struct timespec settle = {0, 200 * 1000000L};
    nanosleep(&settle, NULL);
    struct pool_stats stats;
    pool_get_stats(pool, &stats);
    char label[64];
    snprintf(label, sizeof label, "%d of %d workers busy:", stats.busy_slots, workers);
    measure_loop(label, seconds * 1000);
    pool_destroy(pool);
}

int main(int argc, char **argv) {
    int workers = 2, games = 200, seconds = 20, depth = 9, plies = 16;
    int64_t move_ms = 100;
    for (int i = 1; i + 1 < argc; i += 2) {
        int v = atoi(argv[i + 1]);
        if (strcmp(argv[i], "--workers") == 0)
            workers = v;
        else if (strcmp(argv[i], "--games") == 0)
            games = v;
        else if (strcmp(argv[i], "--move-ms") == 0)
            move_ms = v;
        else if (strcmp(argv[i], "--seconds") == 0)
            seconds = v;
        else if (strcmp(argv[i], "--depth") == 0)
            depth = v;
        else if (strcmp(argv[i], "--plies") == 0)
            plies = v;
        else {
            fprintf(stderr, "usage: pool_bench [--workers N] [--games N] [--move-ms N] "
                            "[--seconds N] [--depth N] [--plies N]\n");
            return 2;
        }
    }
    int illegal = bench_throughput(workers, games, move_ms, seconds);
    bench_table_reuse(depth, plies);
    bench_loop_delay(workers, seconds / 4 > 2 ? seconds / 4 : 2);
    if (illegal) printf("FAIL: %d illegal moves\n", illegal);
    return illegal ? 1 : 0;
}
