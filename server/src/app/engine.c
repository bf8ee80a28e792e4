/*
 * The computer's moves and analysis, between the world and the engine worker pool.
 *
 * For each game where the computer is to move the engine keeps one outstanding search, keyed by
 * the position it was asked about (ply and Zobrist key). When the world's events change a game,
 * engine_observe() compares: a game that ended releases its table, a position that changed
 * (a takeback, say) cancels the old search and asks again. Results come back through the
 * mailbox; a result for any position but the current one is dropped, so a stale move is never
 * played. Analyses belong to connections, which may run a limited number at once, each for a
 * limited time.
 */
#include "app/engine.h"

#include <chess/fen.h>
#include <chess/move.h>
#include <chess/san.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/internal.h"
#include "app/wake.h"
#include "pool/pool.h"
#include "proto/encode.h"
#include "util/log.h"
#include "util/now.h"

/* The search a game is waiting for. */
struct game_search {
    char game[GAME_ID_LEN + 1];
    uint64_t job;
    int ply;
    uint64_t key;
};

/* An analysis running for a connection. */
struct analysis {
    uint64_t job;
    struct conn *conn;
    struct analysis *next;
};

struct engine {
    struct engine_config cfg;
    struct pool *pool;
    struct strmap searches; /* game id -> struct game_search */
    struct analysis *analyses;
};

/* A pool event on its way to the loop. */
struct engine_result {
    struct server_result base; /* first */
    struct pool_event *event;
};

void engine_config_defaults(struct engine_config *cfg) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    cfg->workers = cpus > 0 && cpus < 256 ? (int)cpus : 2;
    cfg->memory_bytes = 256u << 20;
    cfg->table_bytes = 16u << 20;
    cfg->analysis_per_conn = 1;
    cfg->analysis_max_ms = 60000;
}

bool engine_available(const struct server *srv) {
    return srv->engine && srv->engine->pool;
}

/* ---- results from the workers ---- */

static void apply_result(struct server *srv, struct server_result *r);

/* Worker thread: hands the event to the loop. */
static void deliver(void *ctx, struct pool_event *event) {
    struct server *srv = ctx;
    struct engine_result *r = malloc(sizeof *r);
    if (!r) {
        /* The loop never learns of it; the game asks again at its next event. */
        pool_event_free(event);
        return;
    }
    r->base.apply = apply_result;
    r->event = event;
    server_post(srv, &r->base);
}

static void forget_search(struct engine *e, const char *game) {
    struct game_search *s = strmap_remove(&e->searches, game);
    free(s);
}

static void send_thinking(struct server *srv, const struct game *g, bool thinking) {
    dispatch_to_game(srv, g, proto_encode_thinking(g, thinking), true, true);
}

static void play_result(struct server *srv, const struct pool_event *ev) {
    struct engine *e = srv->engine;
    struct game_search *s = strmap_get(&e->searches, ev->game);
    if (!s || s->job != ev->job) return; /* superseded by a newer search */
    forget_search(e, ev->game);
    if (ev->cancelled) return;
    int rc = world_computer_move(srv->world, ev->game, (int)ev->version, ev->root.key,
                                 ev->result.best, now_mono_ms(), &srv->events);
    if (rc < 0)
        LOGD("engine", "game=%s: computer move dropped (%s)", ev->game, proto_error_name(rc));
    dispatch_events(srv, &srv->events, NULL, NULL);
}

static struct analysis **find_analysis(struct engine *e, uint64_t job) {
    for (struct analysis **a = &e->analyses; *a; a = &(*a)->next) {
        if ((*a)->job == job) return a;
    }
    return NULL;
}

static void send_analysis_line(struct server *srv, const struct pool_event *ev) {
    struct analysis **a = find_analysis(srv->engine, ev->job);
    if (!a) return;
    json_t *msg = proto_encode_search_line("analysis", &ev->root, &ev->info);
    if (msg) json_object_set_new(msg, "analysis", json_integer((json_int_t)ev->job));
    if (msg) conn_send_json((*a)->conn, msg);
}

static void finish_analysis(struct server *srv, const struct pool_event *ev) {
    struct analysis **a = find_analysis(srv->engine, ev->job);
    if (!a) return;
    struct analysis *done = *a;
    *a = done->next;
    json_t *msg = json_pack("{s:s,s:I,s:s}", "type", "analysis_done", "analysis",
                            (json_int_t)ev->job, "reason", ev->cancelled ? "stopped" : "limit");
    if (msg && !ev->cancelled && ev->result.best != CHESS_MOVE_NONE) {
        char uci[CHESS_UCI_MAX], san[CHESS_SAN_MAX];
        chess_move_to_uci(&ev->root, ev->result.best, uci);
        chess_san_write(&ev->root, ev->result.best, san);
        json_object_set_new(msg, "best", json_pack("{s:s,s:s}", "uci", uci, "san", san));
    }
    if (msg) conn_send_json(done->conn, msg);
    free(done);
}

/* A move search's progress goes to the game's spectators (not to the player, who is playing). */
static void send_computer_line(struct server *srv, const struct pool_event *ev) {
    struct game_search *s = strmap_get(&srv->engine->searches, ev->game);
    const struct game *g = world_game(srv->world, ev->game);
    if (!s || s->job != ev->job || !g) return;
    json_t *msg = proto_encode_search_line("computer_analysis", &ev->root, &ev->info);
    if (!msg) return;
    json_object_set_new(msg, "game", json_string(g->id));
    json_object_set_new(msg, "ply", json_integer(s->ply));
    dispatch_to_game(srv, g, msg, false, true);
}

static void apply_result(struct server *srv, struct server_result *r) {
    struct pool_event *ev = ((struct engine_result *)(void *)r)->event;
    free(r);
    if (!srv->finished && srv->engine && ev->kind == POOL_JOB_REVIEW) {
        review_on_event(srv, ev);
    } else if (!srv->finished && srv->engine) {
        bool analysis = ev->kind == POOL_JOB_ANALYSIS;
        if (ev->type == POOL_EVENT_INFO)
            analysis ? send_analysis_line(srv, ev) : send_computer_line(srv, ev);
        else
            analysis ? finish_analysis(srv, ev) : play_result(srv, ev);
    }
    pool_event_free(ev);
}

/* ---- computer moves ---- */

/* How long the computer may think, for ordering the queue: its clock's share, or its level's
 * fixed time in unlimited and daily games (days per move are no reason to think for hours). */
static int64_t think_deadline(const struct game *g, const int64_t clocks[2], int64_t now) {
    if (g->tc.unlimited || g->tc.days > 0) return now + 1000;
    int64_t left = clocks[game_turn(g)];
    return now + left / 30 + g->tc.increment_ms;
}

static void ask_for_move(struct server *srv, struct game *g, int level) {
    struct engine *e = srv->engine;
    int64_t now = now_mono_ms();
    struct pool_job_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = POOL_JOB_MOVE;
    snprintf(spec.game, sizeof spec.game, "%s", g->id);
    spec.version = (uint32_t)game_ply(g);
    spec.root = g->chess.current;
    spec.history = g->chess.keys;
    spec.history_count = game_ply(g);
    spec.level = level;
    int64_t clocks[2] = {0, 0};
    game_clocks(g, now, clocks);
    if (!g->tc.unlimited && g->tc.days <= 0) {
        for (int c = 0; c < 2; c++) {
            spec.limits.time_ms[c] = clocks[c];
            spec.limits.inc_ms[c] = g->tc.increment_ms;
        }
    }
    /* Before its first move the clock does not run but the first-move timer does: answer in a
     * second, well within it. */
    if (g->first_move_deadline != GCLOCK_NEVER && g->tc.days <= 0) {
        int64_t left = g->first_move_deadline - now;
        spec.limits.movetime_ms = left / 4 < 1000 ? (left / 4 > 10 ? left / 4 : 10) : 1000;
    }
    /* Full strength on a real clock shares its game's table between two workers. */
    spec.threads = level == 8 ? 2 : 1;
    spec.deadline_ms = think_deadline(g, clocks, now);
    spec.seed = g->chess.current.key ^ (uint64_t)game_ply(g);
    spec.stream_info = true;
    struct game_search *s = calloc(1, sizeof *s);
    uint64_t job = s ? pool_submit(e->pool, &spec) : 0;
    if (s) snprintf(s->game, sizeof s->game, "%s", g->id);
    if (!job || strmap_put(&e->searches, s->game, s) < 0) {
        /* Out of memory: the game asks again at its next event. */
        LOGE("engine", "game=%s: cannot ask the engine for a move (out of memory)", g->id);
        if (job) pool_cancel_job(e->pool, job);
        free(s);
        return;
    }
    s->job = job;
    s->ply = game_ply(g);
    s->key = g->chess.current.key;
    send_thinking(srv, g, true);
}

static bool has_computer(const struct game *g) {
    return g->players[CHESS_WHITE]->computer_level || g->players[CHESS_BLACK]->computer_level;
}

/* Brings the game's search in line with the game. */
static void sync_game(struct server *srv, struct game *g) {
    struct engine *e = srv->engine;
    if (!has_computer(g)) return;
    struct game_search *s = strmap_get(&e->searches, g->id);
    int level = world_computer_to_move(g);
    if (s && level && s->ply == game_ply(g) && s->key == g->chess.current.key) return;
    if (s) {
        pool_cancel_job(e->pool, s->job);
        forget_search(e, g->id);
    }
    if (g->ended) {
        pool_release_game(e->pool, g->id);
        return;
    }
    if (level) ask_for_move(srv, g, level);
}

void engine_observe(struct server *srv, const struct core_events *events) {
    if (!engine_available(srv)) return;
    /* Syncing is idempotent: a game named by several events is looked at again, harmlessly. */
    for (int i = 0; i < events->count; i++) {
        if (events->items[i].game) sync_game(srv, events->items[i].game);
    }
}

/* ---- analysis ---- */

static int count_analyses(const struct engine *e, const struct conn *c) {
    int n = 0;
    for (const struct analysis *a = e->analyses; a; a = a->next) n += a->conn == c;
    return n;
}

/* The position to analyse and the keys before it: a FEN, or a game at a ply, then moves. */
static int analysis_root(struct server *srv, const struct proto_request *req,
                         struct chess_position *root, uint64_t **keys, int *key_count) {
    *keys = NULL;
    *key_count = 0;
    int capacity = 0;
    if (req->fen) {
        if (chess_fen_parse(root, req->fen) < 0) return -PROTO_ERR_FEN_INVALID;
    } else if (req->game) {
        const struct game *g = world_game(srv->world, req->game);
        if (!g) return -CORE_ERR_GAME_NOT_FOUND;
        int ply = req->cmd.expected_ply >= 0 ? req->cmd.expected_ply : game_ply(g);
        if (chess_game_position_at(&g->chess, ply, root) < 0) return -CORE_ERR_STALE_PLY;
        capacity = ply + 1 + (req->moves ? (int)json_array_size(req->moves) : 0);
        *keys = malloc(sizeof **keys * (size_t)capacity);
        if (!*keys) return -PROTO_ERR_INTERNAL;
        memcpy(*keys, g->chess.keys, sizeof **keys * (size_t)ply);
        *key_count = ply;
    } else {
        chess_position_startpos(root);
    }
    size_t moves = req->moves ? json_array_size(req->moves) : 0;
    if (moves && !*keys) {
        capacity = (int)moves;
        *keys = malloc(sizeof **keys * (size_t)capacity);
        if (!*keys) return -PROTO_ERR_INTERNAL;
    }
    for (size_t i = 0; i < moves; i++) {
        chess_move m;
        if (chess_move_parse(root, json_string_value(json_array_get(req->moves, i)), &m) < 0) {
            free(*keys);
            *keys = NULL;
            return -CORE_ERR_ILLEGAL_MOVE;
        }
        (*keys)[(*key_count)++] = root->key;
        chess_position_make_move(root, m);
    }
    return 0;
}

int engine_analyse(struct conn *c, const struct proto_request *req) {
    struct server *srv = c->srv;
    struct engine *e = srv->engine;
    if (!engine_available(srv)) return -PROTO_ERR_ANALYSIS_UNAVAILABLE;
    if (count_analyses(e, c) >= e->cfg.analysis_per_conn) return -PROTO_ERR_ANALYSIS_LIMIT;
    struct pool_job_spec spec;
    memset(&spec, 0, sizeof spec);
    uint64_t *keys;
    int rc = analysis_root(srv, req, &spec.root, &keys, &spec.history_count);
    if (rc < 0) return rc;
    spec.kind = POOL_JOB_ANALYSIS;
    /* A game's analysis shares the game's table; a bare position gets a table of its own. */
    if (req->game && !req->fen) snprintf(spec.game, sizeof spec.game, "%s", req->game);
    spec.owner = c->id;
    spec.history = keys;
    spec.limits.depth = req->depth;
    int max = e->cfg.analysis_max_ms;
    spec.limits.movetime_ms =
        req->movetime_ms > 0 && req->movetime_ms < max ? req->movetime_ms : max;
    spec.threads = 1;
    spec.multipv = req->multipv;
    spec.stream_info = true;
    spec.deadline_ms = now_mono_ms() + spec.limits.movetime_ms;
    struct analysis *a = calloc(1, sizeof *a);
    uint64_t job = a ? pool_submit(e->pool, &spec) : 0;
    free(keys);
    if (!job) {
        free(a);
        return -PROTO_ERR_INTERNAL;
    }
    a->job = job;
    a->conn = c;
    a->next = e->analyses;
    e->analyses = a;
    json_t *msg =
        json_pack("{s:s,s:I,s:i,s:i}", "type", "analysis_started", "analysis", (json_int_t)job,
                  "movetime", (int)spec.limits.movetime_ms, "multipv", req->multipv);
    if (msg) {
        char fen[CHESS_FEN_MAX];
        if (chess_fen_write(&spec.root, CHESS_FEN_XFEN, fen, sizeof fen) > 0)
            json_object_set_new(msg, "fen", json_string(fen));
        proto_set_id(msg, req->id);
    }
    if (msg) conn_send_json(c, msg);
    return 0;
}

int engine_analysis_stop(struct conn *c, const struct proto_request *req) {
    struct server *srv = c->srv;
    if (!engine_available(srv)) return -PROTO_ERR_ANALYSIS_UNAVAILABLE;
    struct engine *e = srv->engine;
    if (req->analysis) {
        struct analysis **a = find_analysis(e, (uint64_t)req->analysis);
        if (!a || (*a)->conn != c) return -PROTO_ERR_ANALYSIS_NOT_FOUND;
        pool_cancel_job(e->pool, (uint64_t)req->analysis);
    } else {
        pool_cancel_owner(e->pool, c->id);
    }
    json_t *msg = proto_encode_simple("ok");
    if (msg) proto_set_id(msg, req->id);
    if (msg) conn_send_json(c, msg);
    return 0;
}

void engine_conn_gone(struct server *srv, struct conn *c) {
    struct engine *e = srv->engine;
    if (!engine_available(srv)) return;
    /* The DONE events that follow find no entry and are dropped. */
    struct analysis **a = &e->analyses;
    while (*a) {
        if ((*a)->conn == c) {
            struct analysis *gone = *a;
            *a = gone->next;
            free(gone);
        } else {
            a = &(*a)->next;
        }
    }
    pool_cancel_owner(e->pool, c->id);
}

/* ---- lifetime and metrics ---- */

int engine_attach(struct server *srv, const struct engine_config *cfg) {
    struct engine *e = calloc(1, sizeof *e);
    if (!e) return -1;
    e->cfg = *cfg;
    srv->engine = e;
    if (cfg->workers <= 0) {
        LOGI("engine", "engine off: no computer games or analysis");
        review_start(srv); /* analyses under way stay so, readable */
        return 0;
    }
    struct pool_config pc;
    pool_config_defaults(&pc);
    pc.workers = cfg->workers;
    pc.table_budget = cfg->memory_bytes;
    pc.table_bytes = cfg->table_bytes;
    e->pool = pool_create(&pc, deliver, srv);
    if (!e->pool) {
        LOGE("engine", "cannot start %d engine workers", cfg->workers);
        return -1;
    }
    LOGI("engine", "%d engine workers, %zu MiB for transposition tables", cfg->workers,
         cfg->memory_bytes >> 20);
    for (struct game *g = world_live_first(srv->world); g; g = world_live_next(g))
        sync_game(srv, g);
    review_start(srv);
    return 0;
}

void engine_game_restored(struct server *srv, struct game *g) {
    if (engine_available(srv)) sync_game(srv, g);
}

uint64_t engine_submit(struct server *srv, const struct pool_job_spec *spec) {
    return engine_available(srv) ? pool_submit(srv->engine->pool, spec) : 0;
}

void engine_cancel_owner(struct server *srv, uint64_t owner) {
    if (engine_available(srv)) pool_cancel_owner(srv->engine->pool, owner);
}

void engine_detach(struct server *srv) {
    struct engine *e = srv->engine;
    if (!e || !e->pool) return;
    pool_destroy(e->pool);
    e->pool = NULL;
}

void engine_free(struct server *srv) {
    struct engine *e = srv->engine;
    if (!e) return;
    engine_detach(srv);
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&e->searches, &i, &key, &value);) free(value);
    strmap_free(&e->searches);
    while (e->analyses) {
        struct analysis *next = e->analyses->next;
        free(e->analyses);
        e->analyses = next;
    }
    free(e);
    srv->engine = NULL;
}

void engine_fill_gauges(struct server *srv, struct metrics_gauges *g) {
    if (!engine_available(srv)) return;
    struct pool_stats st;
    pool_get_stats(srv->engine->pool, &st);
    g->engine_workers = st.workers;
    g->engine_busy_slots = st.busy_slots;
    g->engine_queue_length = st.queue_length;
    g->engine_jobs_done = st.jobs_done;
    g->engine_jobs_cancelled = st.jobs_cancelled;
    g->engine_preemptions = st.preemptions;
    g->engine_wait_ms_total = st.wait_ms_total;
    g->engine_search_ms_total = st.search_ms_total;
    g->engine_nodes_total = st.nodes_total;
    g->engine_table_bytes = st.table_bytes;
    g->engine_tables = st.tables;
    g->engine_evictions = st.evictions;
}
