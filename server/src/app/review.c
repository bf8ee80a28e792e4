/*
 * Computer analysis of finished games (review.h): requests, the runs under way on this node,
 * their searches in the engine pool, their writes, and the JSON of an analysis.
 *
 * A run is one game's analysis under way here. Each position goes TODO -> SEARCHING (a REVIEW
 * job in the pool) -> WRITING (its row submitted to the store) -> STORED (committed). A final
 * position without legal moves is not searched: checkmate or stalemate is its score. The write
 * that completes the run carries `last`, so the store marks the analysis done in the same
 * transaction as its last position.
 */
#include "app/review.h"

#include <chess/move.h>
#include <chess/movegen.h>
#include <chess/san.h>
#include <chess/search.h>
#include <stdlib.h>
#include <string.h>

#include "app/engine.h"
#include "app/internal.h"
#include "app/persist.h"
#include "app/reads.h"
#include "app/waiting.h"
#include "core/judgement.h"
#include "pool/pool.h"
#include "store/archive.h"
#include "store/store.h"
#include "util/log.h"
#include "util/now.h"
#include "util/str.h"
#include "util/strmap.h"

/* Cookies: a request's record (waiting list) and a position's write (serial and ply inside).
 * accounts.c counts from 1, moderation.c 2^61, manage.c 3 * 2^60, bots.c 2^62, httpapi.c
 * 5 * 2^60, tokens.c 2^63, settings.c 3 * 2^62. */
#define REQUEST_COOKIE_BASE (UINT64_C(6) << 60)
#define PLY_COOKIE_BASE     (UINT64_C(7) << 60)
#define PLY_BITS            24
#define REQUESTS_MAX        256
/* Pool job owners: above every connection id, so cancelling a run's jobs touches no other. */
#define OWNER_BASE (UINT64_C(1) << 62)
/* After every live move and analysis: ten years from now, first asked first served. */
#define DEADLINE_OFFSET_MS (INT64_C(10) * 365 * 24 * 3600 * 1000)

enum ply_state { PLY_TODO, PLY_SEARCHING, PLY_WRITING, PLY_STORED };

struct run {
    uint64_t serial;
    struct store_game game;         /* with its moves */
    struct store_analysis analysis; /* plies: one row per position, indexed by ply */
    struct chess_position *positions;
    uint64_t *keys; /* keys[i]: the key after i plies */
    unsigned char *state;
    int written; /* positions whose row was submitted */
    int stored;  /* positions whose row was committed */
    struct conn **followers;
    int follower_count, follower_cap;
};

struct review {
    struct review_config cfg;
    struct strmap runs; /* game id -> struct run */
    struct waiting_list requests;
    uint64_t next_serial;
    struct run **loaded; /* read at startup, started by review_start() */
    int loaded_count;
};

/* A request waiting for the store to record it. */
struct request {
    struct waiting w; /* first */
    struct store_game game;
    int positions;
};

static void request_release(struct waiting *w) {
    struct request *r = (struct request *)(void *)w;
    store_game_free(&r->game);
    free(r);
}

struct review *review_create(const struct review_config *cfg) {
    struct review *rv = calloc(1, sizeof *rv);
    if (!rv) return NULL;
    rv->cfg = *cfg;
    waiting_init(&rv->requests, REQUEST_COOKIE_BASE, REQUESTS_MAX, request_release);
    return rv;
}

static void run_free(struct run *run) {
    if (!run) return;
    store_game_free(&run->game);
    store_analysis_free(&run->analysis);
    free(run->positions);
    free(run->keys);
    free(run->state);
    free(run->followers);
    free(run);
}

void review_free(struct review *rv) {
    if (!rv) return;
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&rv->runs, &i, &key, &value);) run_free(value);
    strmap_free(&rv->runs);
    for (int i = 0; i < rv->loaded_count; i++) run_free(rv->loaded[i]);
    free(rv->loaded);
    waiting_clear(&rv->requests);
    free(rv);
}

/* ---- a game's positions ---- */

/* The score of a position without legal moves (White's view): checkmate or stalemate. False
 * when it has legal moves. */
static bool final_score(const struct chess_position *pos, int *score) {
    if (chess_count_legal_moves(pos) > 0) return false;
    int mover = chess_position_in_check(pos) ? -CHESS_MATE : 0;
    *score = pos->side == CHESS_WHITE ? mover : -mover;
    return true;
}

/* ---- JSON ---- */

/* The stored line as SAN from pos (as many moves as are legal); its first move into first_san. */
static json_t *san_line(const struct chess_position *from, const char *pv, char *first_san) {
    chess_move moves[STORE_PV_MAX];
    int n = store_analysis_line(from, pv, moves);
    json_t *line = json_array();
    struct chess_position pos = *from;
    first_san[0] = '\0';
    for (int i = 0; line && i < n; i++) {
        char san[CHESS_SAN_MAX];
        chess_san_write(&pos, moves[i], san);
        if (i == 0) str_copy(first_san, CHESS_SAN_MAX, san);
        json_array_append_new(line, json_string(san));
        chess_position_make_move(&pos, moves[i]);
    }
    return line;
}

static json_t *position_json(const struct chess_position *pos, const struct store_analysis_ply *p,
                             char *best_san) {
    json_t *o = json_pack("{s:i,s:f}", "ply", p->ply, "win", judgement_win_percent(p->score));
    best_san[0] = '\0';
    if (!o || p->depth == 0) return o; /* a final position: its score says it all */
    if (judgement_is_mate(p->score))
        json_object_set_new(o, "mate", json_integer(judgement_mate_moves(p->score)));
    else
        json_object_set_new(o, "cp", json_integer(p->score));
    json_object_set_new(o, "depth", json_integer(p->depth));
    size_t n = strcspn(p->pv, " ");
    if (n > 0 && n < CHESS_UCI_MAX) json_object_set_new(o, "best", json_stringn(p->pv, n));
    json_object_set_new(o, "line", san_line(pos, p->pv, best_san));
    return o;
}

static json_t *side_json(const struct judgement_side *s) {
    if (!s->moved) return NULL;
    return json_pack("{s:f,s:i,s:i,s:i,s:i}", "accuracy", s->accuracy, "acpl", s->acpl,
                     "inaccuracies", s->inaccuracies, "mistakes", s->mistakes, "blunders",
                     s->blunders);
}

/* Once every position is in: each move's judgement with the better move, and the sides. */
static int add_judgements(json_t *plies, const struct store_analysis *a,
                          const struct chess_position *positions, bool white_first,
                          json_t *analysis) {
    int moves = a->count - 1;
    int *scores = malloc(sizeof *scores * (size_t)a->count);
    enum judgement *verdicts = malloc(sizeof *verdicts * (size_t)(moves > 0 ? moves : 1));
    int rc = scores && verdicts ? 0 : -1;
    for (int i = 0; rc == 0 && i < a->count; i++) scores[i] = a->plies[i].score;
    struct judgement_side sides[2];
    if (rc == 0) judgement_game(scores, moves, white_first, verdicts, sides);
    for (int i = 0; rc == 0 && i < moves; i++) {
        const char *name = judgement_name(verdicts[i]);
        if (!name) continue;
        json_t *entry = json_array_get(plies, (size_t)i + 1);
        char better[CHESS_SAN_MAX];
        json_decref(san_line(&positions[i], a->plies[i].pv, better));
        json_object_set_new(entry, "judgement", json_string(name));
        if (better[0]) json_object_set_new(entry, "better", json_string(better));
    }
    if (rc == 0) {
        json_t *acc = json_object();
        json_t *w = side_json(&sides[0]), *b = side_json(&sides[1]);
        if (w) json_object_set_new(acc, "white", w);
        if (b) json_object_set_new(acc, "black", b);
        json_object_set_new(analysis, "accuracy", acc);
    }
    free(scores);
    free(verdicts);
    return rc;
}

json_t *review_analysis_json(const struct store_game *g, const struct store_analysis *a) {
    int n = g->ply_count + 1;
    struct chess_position *positions = malloc(sizeof *positions * (size_t)n);
    json_t *out = NULL, *plies = json_array();
    if (!positions || !plies || store_game_positions(g, positions) < 0) goto done;
    bool done = a->done_at != 0 && a->count == n;
    for (int i = 0; i < a->count; i++) {
        const struct store_analysis_ply *p = &a->plies[i];
        if (p->ply < 0 || p->ply >= n) continue; /* not this game's: never written so */
        char best[CHESS_SAN_MAX];
        json_array_append_new(plies, position_json(&positions[p->ply], p, best));
    }
    out = json_pack("{s:s,s:i,s:i,s:I,s:O}", "state", done ? "done" : "running", "positions",
                    a->positions, "searched", a->count, "nodes", (json_int_t)a->nodes, "plies",
                    plies);
    if (out && done &&
        add_judgements(plies, a, positions, positions[0].side == CHESS_WHITE, out) < 0) {
        json_decref(out);
        out = NULL;
    }
done:
    json_decref(plies);
    free(positions);
    return out;
}

/* {"type": "game_analysis", "game": id, "analysis": ...}, or NULL. */
static json_t *analysis_message(const struct store_game *g, const struct store_analysis *a) {
    json_t *analysis = review_analysis_json(g, a);
    if (!analysis) return NULL;
    return json_pack("{s:s,s:s,s:o}", "type", "game_analysis", "game", g->id, "analysis", analysis);
}

/* A run's analysis with the positions stored so far, as a message. */
static json_t *run_message(const struct run *run) {
    int n = run->analysis.positions;
    struct store_analysis view = run->analysis;
    view.plies = malloc(sizeof *view.plies * (size_t)n);
    if (!view.plies) return NULL;
    view.count = 0;
    for (int i = 0; i < n; i++)
        if (run->state[i] == PLY_STORED) view.plies[view.count++] = run->analysis.plies[i];
    if (view.count < n) view.done_at = 0;
    json_t *msg = analysis_message(&run->game, &view);
    free(view.plies);
    return msg;
}

/* ---- runs ---- */

static struct run *run_find(struct server *srv, const char *game_id) {
    return strmap_get(&srv->review->runs, game_id);
}

static void follow(struct run *run, struct conn *c) {
    if (!c || c->acting) return; /* an HTTP request gets its answer and goes */
    for (int i = 0; i < run->follower_count; i++)
        if (run->followers[i] == c) return;
    if (run->follower_count == run->follower_cap) {
        int cap = run->follower_cap ? run->follower_cap * 2 : 4;
        struct conn **f = realloc(run->followers, sizeof *f * (size_t)cap);
        if (!f) return; /* it only misses the progress */
        run->followers = f;
        run->follower_cap = cap;
    }
    run->followers[run->follower_count++] = c;
}

static void tell_followers(struct run *run, json_t *msg) {
    if (!msg) return;
    for (int i = 0; i < run->follower_count; i++)
        conn_send_json(run->followers[i], json_deep_copy(msg));
    json_decref(msg);
}

/* A run for a game (moved into it) with the positions already stored; NULL when memory runs
 * out or the moves do not replay. */
static struct run *run_new(struct review *rv, struct store_game *g,
                           const struct store_analysis *a) {
    int n = g->ply_count + 1;
    struct run *run = calloc(1, sizeof *run);
    if (!run) return NULL;
    run->serial = ++rv->next_serial;
    run->game = *g;
    *g = (struct store_game){0};
    run->analysis = *a;
    run->analysis.plies = calloc((size_t)n, sizeof *run->analysis.plies);
    run->analysis.count = n;
    run->positions = malloc(sizeof *run->positions * (size_t)n);
    run->keys = malloc(sizeof *run->keys * (size_t)n);
    run->state = calloc((size_t)n, 1);
    if (!run->analysis.plies || !run->positions || !run->keys || !run->state ||
        store_game_positions(&run->game, run->positions) < 0) {
        run_free(run);
        return NULL;
    }
    for (int i = 0; i < n; i++) run->keys[i] = run->positions[i].key;
    for (int i = 0; i < n; i++) run->analysis.plies[i].ply = i;
    for (int i = 0; i < a->count; i++) {
        int ply = a->plies[i].ply;
        if (ply < 0 || ply >= n || run->state[ply] == PLY_STORED) continue;
        run->analysis.plies[ply] = a->plies[i];
        run->state[ply] = PLY_STORED;
        run->stored++;
        run->written++;
    }
    return run;
}

static uint64_t ply_cookie(const struct run *run, int ply) {
    return PLY_COOKIE_BASE | (run->serial << PLY_BITS) | (uint64_t)ply;
}

/* Submits a position's row; the last one ends the analysis. */
static void write_ply(struct server *srv, struct run *run, int ply) {
    struct store_op op = {
        .type = STORE_OP_ANALYSIS_PLY, .cookie = ply_cookie(run, ply), .want_result = true};
    str_copy(op.game_id, sizeof op.game_id, run->game.id);
    op.u.analysis_ply = run->analysis.plies[ply];
    op.u.analysis_ply.last = ++run->written == run->analysis.positions;
    op.u.analysis_ply.at = now_wall_ms();
    run->state[ply] = PLY_WRITING;
    if (store_submit(persist_store(srv), &op) == 0)
        LOGW("review", "game=%s: ply %d not written (the store accepts nothing)", run->game.id,
             ply);
}

static void search_ply(struct server *srv, struct run *run, int ply, int64_t deadline) {
    struct pool_job_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = POOL_JOB_REVIEW;
    spec.owner = OWNER_BASE + run->serial;
    spec.version = (uint32_t)ply;
    spec.root = run->positions[ply];
    spec.history = run->keys;
    spec.history_count = ply;
    spec.limits.nodes = run->analysis.nodes; /* the budget it was asked with, after a restart too */
    spec.threads = 1;
    spec.multipv = 1;
    spec.deadline_ms = deadline;
    run->state[ply] = PLY_SEARCHING;
    if (engine_submit(srv, &spec) == 0) {
        run->state[ply] = PLY_TODO;
        LOGW("review", "game=%s: ply %d not queued (out of memory)", run->game.id, ply);
    }
}

/* Queues every position not stored yet; final positions are scored at once. */
static void run_start(struct server *srv, struct run *run) {
    int64_t deadline = now_mono_ms() + DEADLINE_OFFSET_MS;
    for (int ply = 0; ply < run->analysis.positions; ply++) {
        if (run->state[ply] != PLY_TODO) continue;
        struct store_analysis_ply *p = &run->analysis.plies[ply];
        if (ply == run->game.ply_count && final_score(&run->positions[ply], &p->score)) {
            p->depth = 0;
            p->nodes = 0;
            p->pv[0] = '\0';
            write_ply(srv, run, ply);
        } else {
            search_ply(srv, run, ply, deadline);
        }
    }
    LOGI("review", "game=%s: analysing %d position(s) (%d stored already)", run->game.id,
         run->analysis.positions - run->stored, run->stored);
}

static void run_end(struct server *srv, struct run *run) {
    strmap_remove(&srv->review->runs, run->game.id);
    engine_cancel_owner(srv, OWNER_BASE + run->serial);
    run_free(run);
}

/* ---- startup ---- */

struct load_ctx {
    struct review *rv;
    struct store_analysis *list;
    int count, cap;
};

static int collect(void *arg, const struct store_analysis *a) {
    struct load_ctx *ctx = arg;
    if (ctx->count == ctx->cap) {
        int cap = ctx->cap ? ctx->cap * 2 : 8;
        struct store_analysis *l = realloc(ctx->list, sizeof *l * (size_t)cap);
        if (!l) return -STORE_ERR_NO_MEMORY;
        ctx->list = l;
        ctx->cap = cap;
    }
    struct store_analysis *copy = &ctx->list[ctx->count];
    *copy = *a;
    copy->plies = malloc(sizeof *copy->plies * (size_t)(a->count > 0 ? a->count : 1));
    if (!copy->plies) return -STORE_ERR_NO_MEMORY;
    if (a->count > 0) memcpy(copy->plies, a->plies, sizeof *copy->plies * (size_t)a->count);
    ctx->count++;
    return 0;
}

int review_load(struct server *srv, struct store_reader *reader) {
    struct review *rv = srv->review;
    struct load_ctx ctx = {.rv = rv};
    int rc = store_pending_analyses(reader, collect, &ctx);
    for (int i = 0; rc == 0 && i < ctx.count; i++) {
        struct store_game g;
        memset(&g, 0, sizeof g);
        int st = store_read_game(reader, ctx.list[i].game_id, &g);
        struct run *run = st == 0 ? run_new(rv, &g, &ctx.list[i]) : NULL;
        store_game_free(&g);
        struct run **l =
            run ? realloc(rv->loaded, sizeof *l * (size_t)(rv->loaded_count + 1)) : NULL;
        if (!l) {
            LOGE("review", "game=%s: its analysis cannot be resumed (%s)", ctx.list[i].game_id,
                 st < 0 ? store_status_name(st) : "out of memory or corrupt moves");
            run_free(run);
            continue;
        }
        rv->loaded = l;
        rv->loaded[rv->loaded_count++] = run;
    }
    for (int i = 0; i < ctx.count; i++) store_analysis_free(&ctx.list[i]);
    free(ctx.list);
    if (rv->loaded_count) LOGI("review", "%d analysis(es) under way to resume", rv->loaded_count);
    return rc < 0 ? rc : 0;
}

void review_start(struct server *srv) {
    struct review *rv = srv->review;
    for (int i = 0; i < rv->loaded_count; i++) {
        struct run *run = rv->loaded[i];
        rv->loaded[i] = NULL;
        if (strmap_put(&rv->runs, run->game.id, run) < 0) {
            run_free(run);
            continue;
        }
        if (engine_available(srv)) run_start(srv, run);
    }
    rv->loaded_count = 0;
}

/* ---- requests ---- */

struct lookup {
    struct db_read base; /* first */
    bool start;          /* a request, not a get */
    char game_id[STORE_ID_MAX + 1];
    struct store_game game;
    struct store_analysis analysis;
    int analysis_status;
};

static void lookup_run(struct store_reader *reader, struct db_read *rd) {
    struct lookup *l = (struct lookup *)(void *)rd;
    rd->status = store_read_game(reader, l->game_id, &l->game);
    if (rd->status == 0) l->analysis_status = store_read_analysis(reader, l->game_id, &l->analysis);
}

static void lookup_release(struct db_read *rd) {
    struct lookup *l = (struct lookup *)(void *)rd;
    store_game_free(&l->game);
    store_analysis_free(&l->analysis);
}

/* The running analysis to a connection that now follows it. */
static void reply_run(struct run *run, struct conn *c, const json_t *id) {
    follow(run, c);
    json_t *msg = run_message(run);
    if (!msg) {
        conn_send_error(c, -PROTO_ERR_INTERNAL, id, NULL);
        return;
    }
    if (id) json_object_set(msg, "id", (json_t *)id);
    conn_send_json(c, msg);
}

/* Asks the store to record the request; the answer comes with its result. */
static int submit_request(struct conn *c, struct lookup *l) {
    struct server *srv = c->srv;
    struct request *r = calloc(1, sizeof *r);
    if (!r) return -PROTO_ERR_INTERNAL;
    int rc = waiting_add(&srv->review->requests, &r->w, c, l->base.req_id);
    if (rc < 0) {
        free(r);
        return rc;
    }
    r->game = l->game;
    l->game = (struct store_game){0};
    r->positions = r->game.ply_count + 1;
    struct store_op op = {
        .type = STORE_OP_ANALYSIS_REQUEST, .cookie = r->w.cookie, .want_result = true};
    str_copy(op.game_id, sizeof op.game_id, r->game.id);
    str_copy(op.player_id, sizeof op.player_id, c->player->id);
    op.u.analysis.positions = r->positions;
    op.u.analysis.nodes = srv->review->cfg.nodes;
    op.u.analysis.max_queue = srv->review->cfg.queue_max;
    op.u.analysis.at = now_wall_ms();
    if (store_submit(persist_store(srv), &op) == 0) {
        waiting_done(&srv->review->requests, &r->w);
        return -PROTO_ERR_STORE_UNAVAILABLE;
    }
    return 0;
}

static int lookup_decide(struct lookup *l, struct conn *c) {
    struct server *srv = c->srv;
    const json_t *id = l->base.req_id;
    if (l->base.status == -STORE_ERR_NOT_FOUND) return -CORE_ERR_GAME_NOT_FOUND;
    if (l->base.status < 0) return -PROTO_ERR_STORE_UNAVAILABLE;
    struct run *run = run_find(srv, l->game_id);
    if (run) {
        reply_run(run, c, id);
        return 0;
    }
    if (l->analysis_status == 0) { /* done, or under way on another node */
        json_t *msg = analysis_message(&l->game, &l->analysis);
        if (!msg) return -PROTO_ERR_INTERNAL;
        if (id) json_object_set(msg, "id", (json_t *)id);
        conn_send_json(c, msg);
        return 0;
    }
    if (l->analysis_status != -STORE_ERR_NOT_FOUND) return -PROTO_ERR_STORE_UNAVAILABLE;
    if (!l->start) return -PROTO_ERR_GAME_NOT_ANALYSED;
    if (strcmp(l->game.status, "live") == 0) return -CORE_ERR_GAME_NOT_OVER;
    if (!engine_available(srv)) return -PROTO_ERR_ANALYSIS_UNAVAILABLE;
    return submit_request(c, l);
}

static bool lookup_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)call;
    if (!c) return false;
    int rc = lookup_decide((struct lookup *)(void *)rd, c);
    if (rc < 0) conn_send_error(c, rc, rd->req_id, NULL);
    return false;
}

static int lookup(struct conn *c, const struct proto_request *req, bool start) {
    struct server *srv = c->srv;
    if (!persist_store(srv)) return -PROTO_ERR_STORE_UNAVAILABLE;
    if (start && !engine_available(srv)) return -PROTO_ERR_ANALYSIS_UNAVAILABLE;
    struct run *run = run_find(srv, req->game);
    if (run) {
        reply_run(run, c, req->id);
        return 0;
    }
    struct lookup *l = calloc(1, sizeof *l);
    if (!l) return -PROTO_ERR_INTERNAL;
    l->base.run = lookup_run;
    l->base.answer = lookup_answer;
    l->base.release = lookup_release;
    l->base.req_id = req->id ? json_deep_copy(req->id) : NULL;
    l->start = start;
    str_copy(l->game_id, sizeof l->game_id, req->game);
    return reads_submit_conn(c, &l->base); /* frees l on failure */
}

int review_request(struct conn *c, const struct proto_request *req) {
    return lookup(c, req, true);
}

int review_get(struct conn *c, const struct proto_request *req) {
    return lookup(c, req, false);
}

/* ---- results ---- */

static int request_error(int status) {
    switch (status) {
        case -STORE_ERR_NOT_FOUND: return -CORE_ERR_GAME_NOT_FOUND;
        case -STORE_ERR_CONFLICT: return -PROTO_ERR_GAME_ANALYSIS_ASKED;
        case -STORE_ERR_LIMIT: return -PROTO_ERR_GAME_ANALYSIS_LIMIT;
        case -STORE_ERR_BUSY: return -PROTO_ERR_ANALYSIS_QUEUE_FULL;
        default: return -PROTO_ERR_STORE_UNAVAILABLE;
    }
}

static void on_request_recorded(struct server *srv, struct request *r, int status) {
    struct review *rv = srv->review;
    if (status < 0) {
        waiting_reply(&r->w, NULL, request_error(status));
        return;
    }
    struct store_analysis a = {.positions = r->positions, .nodes = rv->cfg.nodes};
    str_copy(a.game_id, sizeof a.game_id, r->game.id);
    a.requested_at = now_wall_ms();
    struct run *run = run_new(rv, &r->game, &a);
    if (!run || strmap_put(&rv->runs, run->game.id, run) < 0) {
        /* Recorded but not started: it resumes with the node's next start. */
        LOGE("review", "game=%s: analysis recorded but not started (out of memory)", a.game_id);
        run_free(run);
        waiting_reply(&r->w, NULL, -PROTO_ERR_INTERNAL);
        return;
    }
    LOGI("review", "game=%s: analysis asked for", run->game.id);
    follow(run, r->w.conn);
    waiting_reply(&r->w, run_message(run), -PROTO_ERR_INTERNAL);
    run_start(srv, run);
}

static struct run *run_by_serial(struct review *rv, uint64_t serial) {
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&rv->runs, &i, &key, &value);) {
        struct run *run = value;
        if (run->serial == serial) return run;
    }
    return NULL;
}

static void on_ply_stored(struct server *srv, uint64_t cookie, int status) {
    struct run *run = run_by_serial(srv->review, (cookie - PLY_COOKIE_BASE) >> PLY_BITS);
    int ply = (int)(cookie & ((UINT64_C(1) << PLY_BITS) - 1));
    if (!run || ply >= run->analysis.positions || run->state[ply] != PLY_WRITING) return;
    if (status < 0) {
        LOGW("review", "game=%s: ply %d not stored (%s): the analysis stops here", run->game.id,
             ply, store_status_name(status));
        run_end(srv, run);
        return;
    }
    run->state[ply] = PLY_STORED;
    run->stored++;
    if (run->stored < run->analysis.positions) {
        tell_followers(run, json_pack("{s:s,s:s,s:i,s:i}", "type", "game_analysis_progress", "game",
                                      run->game.id, "searched", run->stored, "positions",
                                      run->analysis.positions));
        return;
    }
    run->analysis.done_at = now_wall_ms();
    LOGI("review", "game=%s: analysis done", run->game.id);
    tell_followers(run, run_message(run));
    run_end(srv, run);
}

void review_on_result(struct server *srv, const struct store_result *r) {
    struct review *rv = srv->review;
    if (!rv || r->kind != STORE_RESULT_WRITE) return;
    if (r->cookie >= PLY_COOKIE_BASE && r->cookie < (UINT64_C(8) << 60)) {
        on_ply_stored(srv, r->cookie, r->status);
        return;
    }
    struct waiting *w = waiting_find(&rv->requests, r->cookie);
    if (!w) return;
    on_request_recorded(srv, (struct request *)(void *)w, r->status);
    waiting_done(&rv->requests, w);
}

/* The line the search ended with: its last completed iteration's when that starts with the
 * move it chose, else the move and its expected reply. */
static void result_line(const struct pool_event *ev, char *out, size_t size) {
    chess_move line[POOL_PV_MAX];
    int n = 0;
    if (ev->info.pv_length > 0 && ev->pv[0] == ev->result.best) {
        n = ev->info.pv_length < STORE_PV_MAX ? ev->info.pv_length : STORE_PV_MAX;
        memcpy(line, ev->pv, sizeof line[0] * (size_t)n);
    } else if (ev->result.best != CHESS_MOVE_NONE) {
        line[n++] = ev->result.best;
        if (ev->result.ponder != CHESS_MOVE_NONE) line[n++] = ev->result.ponder;
    }
    struct chess_position pos = ev->root;
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n && len + CHESS_UCI_MAX + 1 < size; i++) {
        char uci[CHESS_UCI_MAX];
        chess_move_to_uci(&pos, line[i], uci);
        len += (size_t)snprintf(out + len, size - len, "%s%s", i ? " " : "", uci);
        chess_position_make_move(&pos, line[i]);
    }
}

void review_on_event(struct server *srv, const struct pool_event *ev) {
    struct review *rv = srv->review;
    if (!rv || ev->type != POOL_EVENT_DONE || ev->cancelled) return;
    struct run *run = run_by_serial(rv, ev->owner - OWNER_BASE);
    int ply = (int)ev->version;
    if (!run || ply >= run->analysis.positions || run->state[ply] != PLY_SEARCHING) return;
    struct store_analysis_ply *p = &run->analysis.plies[ply];
    p->score = ev->root.side == CHESS_WHITE ? ev->result.score : -ev->result.score;
    p->depth = ev->result.depth > 0 ? ev->result.depth : 1;
    p->nodes = ev->result.nodes;
    result_line(ev, p->pv, sizeof p->pv);
    write_ply(srv, run, ply);
}

void review_conn_gone(struct server *srv, struct conn *c) {
    struct review *rv = srv->review;
    if (!rv) return;
    waiting_conn_gone(&rv->requests, c);
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&rv->runs, &i, &key, &value);) {
        struct run *run = value;
        for (int j = 0; j < run->follower_count; j++) {
            if (run->followers[j] != c) continue;
            run->followers[j] = run->followers[--run->follower_count];
            break;
        }
    }
}
