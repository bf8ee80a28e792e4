/*
 * Holding messages until their writes are committed, restoring games, and returning players.
 *
 * The held FIFO is a ring of (sequence number, connection, message). A message is held when
 * writes are waiting or when earlier messages are still held (order is kept across all
 * connections: a spectator never sees a move its player has not been told about yet). A closed
 * connection's entries are cleared in place; the messages are released when their turn comes.
 */
#include "app/persist.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/arenas.h"
#include "app/auth.h"
#include "app/internal.h"
#include "app/password.h"
#include "app/reads.h"
#include "app/record.h"
#include "app/wake.h"
#include "core/restore.h"
#include "store/read.h"
#include "util/log.h"
#include "util/now.h"
#include "util/ring.h"

struct held {
    uint64_t seq;
    struct conn *conn; /* NULL once the connection closed */
    struct net_msg *msg;
    void (*after)(struct server *srv, void *arg); /* persist_after_commit: instead of a message */
    void *arg;
    int64_t held_us; /* when it was held: for the metric */
};

struct persist {
    struct server *srv;
    struct store *store;
    struct passwords *passwords;    /* the password thread (app/password.h) */
    struct server_result wake_item; /* posted by the store's and the password threads, at most
                                       once at a time */
    pthread_mutex_t wake_lock;
    bool posted;         /* guarded by wake_lock */
    bool detached;       /* guarded by wake_lock */
    struct reads *reads; /* database reads waiting for the readers (reads.c) */
    struct ring held;    /* of struct held, oldest first */
    bool stop_logged;
};

/* ---- wake-ups and commits ---- */

/* Releases the held messages (and runs the after-commit calls) up to committed, in order. */
static void flush(struct persist *p, uint64_t committed) {
    int64_t now_us = now_mono_us();
    struct held e;
    while (p->held.count > 0 && ((struct held *)ring_at(&p->held, 0))->seq <= committed) {
        (void)ring_pop(&p->held, &e); /* not empty */
        if (e.after) {
            e.after(p->srv, e.arg);
            continue;
        }
        if (e.conn) {
            metrics_hist_observe(&p->srv->metrics.store_held_us, (double)(now_us - e.held_us));
            conn_enqueue(e.conn, e.msg);
            conn_held_released(e.conn); /* a close waits for the last held message */
        }
        net_msg_release(e.msg);
    }
}

static void on_result(void *ctx, const struct store_result *r) {
    struct persist *p = ctx;
    if (r->kind == STORE_RESULT_COMMIT) {
        struct metrics *m = &p->srv->metrics;
        metrics_hist_observe(&m->store_batch_ops, (double)r->ops);
        metrics_hist_observe(&m->store_commit_us, (double)r->commit_us);
        metrics_hist_observe(&m->store_write_wait_us, (double)r->wait_us);
        return;
    }
    p->srv->store_result(p->srv, r); /* accounts' and bots' requests */
}

static void on_password(void *ctx, const struct password_result *r) {
    struct persist *p = ctx;
    p->srv->password_result(p->srv, r); /* the accounts' requests */
}

static void poll_store(struct persist *p) {
    password_poll(p->passwords, on_password, p);
    store_poll(p->store, on_result, p);
    flush(p, store_committed(p->store));
    if (store_failed(p->store) && !p->stop_logged) {
        p->stop_logged = true;
        if (store_fenced(p->store))
            LOGE("persist", "another node of the site took this node's games over (its lease): "
                            "shutting down (moves not committed were never announced)");
        else
            LOGE("persist", "the database stopped accepting writes: shutting down (moves not "
                            "committed were never announced)");
        p->srv->stop_requested = 1; /* the housekeeping timer starts the shutdown */
    }
}

static void on_wake(struct server *srv, struct server_result *item) {
    (void)item;
    struct persist *p = srv->persist;
    pthread_mutex_lock(&p->wake_lock);
    p->posted = false; /* before polling: a report arriving during the poll posts again */
    pthread_mutex_unlock(&p->wake_lock);
    poll_store(p);
}

void persist_release_committed(struct server *srv) {
    struct persist *p = srv->persist;
    if (!p || p->held.count == 0) return;
    uint64_t committed = store_committed_now(p->store);
    /* Results wait for the wake-up. */
    if (((struct held *)ring_at(&p->held, 0))->seq <= committed) flush(p, committed);
}

/* Store threads: hand the loop a wake-up unless one is already on its way. */
static void wake_from_store(void *ctx) {
    struct persist *p = ctx;
    pthread_mutex_lock(&p->wake_lock);
    if (!p->detached && !p->posted) {
        p->posted = true;
        server_post(p->srv, &p->wake_item);
    }
    pthread_mutex_unlock(&p->wake_lock);
}

/* Appends an entry to the held ring. Returns 0, or -1 when memory runs out. */
static int held_push(struct persist *p, struct held e) {
    return ring_push(&p->held, &e, 1024, 0);
}

bool persist_hold(struct conn *c, struct net_msg *m) {
    struct persist *p = c->srv->persist;
    if (!p || !m) return false;
    uint64_t submitted = store_submitted(p->store);
    if (p->held.count == 0 && submitted == store_committed(p->store)) return false;
    if (held_push(p, (struct held){
                         .seq = submitted, .conn = c, .msg = m, .held_us = now_mono_us()}) < 0) {
        /* Out of memory: the connection cannot be served in order any more. */
        LOGE("persist", "conn=%llu: out of memory holding a message; closing it",
             (unsigned long long)c->id);
        conn_close(c, NET_CLOSE_UNEXPECTED, "server out of memory");
        return true;
    }
    m->refs++;
    c->held++;
    return true;
}

int persist_after_commit(struct server *srv, void (*after)(struct server *srv, void *arg),
                         void *arg) {
    struct persist *p = srv->persist;
    if (!p) return -1;
    uint64_t submitted = store_submitted(p->store);
    if (p->held.count == 0 && submitted == store_committed(p->store)) return -1;
    return held_push(p, (struct held){.seq = submitted, .after = after, .arg = arg});
}

void persist_conn_gone(struct conn *c) {
    struct persist *p = c->srv->persist;
    if (p) reads_conn_gone(c);
    for (size_t i = 0; p && c->held > 0 && i < p->held.count; i++) {
        struct held *e = ring_at(&p->held, i);
        if (e->conn == c) {
            e->conn = NULL;
            c->held--;
        }
    }
}

int persist_record(struct server *srv, struct core_events *events) {
    struct persist *p = srv->persist;
    if (!p || events->count == 0) return 0;
    uint64_t seq;
    if (store_record_events(p->store, events, now_wall_ms(), &seq) == 0) return 0;
    if (!p->stop_logged) {
        p->stop_logged = true;
        LOGE("persist", "events could not be stored: not announced; shutting down");
        srv->stop_requested = 1; /* the housekeeping timer starts the shutdown */
    }
    return -1;
}

/* ---- players from the database ---- */

void persist_player_created(struct server *srv, struct player *player) {
    struct persist *p = srv->persist;
    if (!p || player->stored) return;
    struct store_op op = {.type = STORE_OP_PLAYER};
    snprintf(op.player_id, sizeof op.player_id, "%s", player->id);
    snprintf(op.u.player.name, sizeof op.u.player.name, "%s", player->name);
    op.u.player.created_at = now_wall_ms();
    op.u.player.has_token = true;
    auth_token_hash(player->token, op.u.player.token_hash);
    if (store_submit(p->store, &op) > 0) player->stored = true;
}

static void apply_identity(struct server *srv, struct player *pl, const struct store_identity *id) {
    pl->stored = true;
    pl->registered = id->username[0] != '\0';
    pl->bot = id->bot;
    memcpy(pl->ratings, id->ratings, sizeof pl->ratings);
    /* Moderation (app/moderation.h). */
    pl->admin = id->admin ||
                (pl->registered && !id->bot && server_config_admin_listed(&srv->cfg, id->username));
    pl->banned = id->banned;
    pl->closed = id->closed;
    pl->muted = id->muted;
    pl->block_count = 0;
    for (int i = 0; i < id->block_count; i++)
        if (world_player_block(srv->world, pl, id->blocks[i], true) < 0)
            LOGW("persist", "player=%s: out of memory loading its blocks", pl->id);
}

/* The world's player for a stored identity (restored into the world when missing). */
static struct player *player_for(struct server *srv, const struct store_identity *id,
                                 const char *token) {
    struct player *pl = world_player_by_id(srv->world, id->player_id);
    if (pl) {
        if (token && world_player_set_token(srv->world, pl, token) < 0) return NULL;
        return pl;
    }
    pl = world_player_restore(srv->world, id->player_id, id->name, token, now_mono_ms());
    if (pl) apply_identity(srv, pl, id);
    return pl;
}

struct player *persist_player_for(struct server *srv, const struct store_identity *id) {
    return player_for(srv, id, NULL);
}

/* A hello with a token the world does not know: its player is read from the database. */
struct token_read {
    struct db_read base; /* first */
    uint8_t hash[STORE_HASH_LEN];
    char token[PLAYER_TOKEN_LEN + 1];
    bool bearer; /* from the upgrade request: a failure closes the connection */
    struct store_identity id;
};

static void token_run(struct store_reader *reader, struct db_read *rd) {
    struct token_read *t = (struct token_read *)(void *)rd;
    rd->status = store_find_token(reader, t->hash, &t->id);
}

static bool token_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)call;
    struct token_read *t = (struct token_read *)(void *)rd;
    if (!c) return false; /* the connection closed meanwhile */
    struct server *srv = c->srv;
    struct player *pl = NULL;
    int code =
        rd->status == -STORE_ERR_NOT_FOUND ? -PROTO_ERR_BAD_TOKEN : -PROTO_ERR_STORE_UNAVAILABLE;
    if (rd->status == 0) {
        /* Another connection with the same token may have brought the player back meanwhile.
         * Bot tokens are looked up every time (never mapped in the world), so revoking one
         * takes effect at once (app/bots.h). */
        pl = world_player_by_token(srv->world, t->token);
        if (!pl) pl = player_for(srv, &t->id, t->id.bot_token ? NULL : t->token);
        code = -PROTO_ERR_INTERNAL;
    } else if (rd->status == -STORE_ERR_NOT_FOUND) {
        /* Revoked since the world mapped it (on another node, by the operator): not here. */
        struct player *stale = world_player_by_token(srv->world, t->token);
        if (stale) world_player_forget_token(srv->world, stale);
    }
    if (pl) {
        dispatch_hello_player(c, pl, t->token, rd->req_id);
        return false;
    }
    conn_send_error(c, code, rd->req_id, NULL);
    if (t->bearer) conn_close(c, NET_CLOSE_POLICY_VIOLATION, "bad token");
    return false;
}

int persist_hello_by_token(struct conn *c, const char *token, const json_t *id, bool bearer) {
    struct persist *p = c->srv->persist;
    if (!p || strlen(token) > PLAYER_TOKEN_LEN) return -PROTO_ERR_BAD_TOKEN;
    struct token_read *t = calloc(1, sizeof *t);
    if (!t) return -PROTO_ERR_INTERNAL;
    auth_token_hash(token, t->hash);
    snprintf(t->token, sizeof t->token, "%s", token);
    t->bearer = bearer;
    t->base.req_id = id ? json_deep_copy(id) : NULL;
    t->base.run = token_run;
    t->base.answer = token_answer;
    return reads_submit_conn(c, &t->base);
}

/* ---- restoring games ---- */

/* Stores the end of a game that cannot go on (ended by its last stored move, or damaged). */
static void store_end(struct persist *p, struct game *g) {
    struct core_events events = {.reply = -1};
    struct core_event ev = {.type = CORE_EV_GAME_ENDED, .target = CORE_TO_GAME, .game = g};
    events.items = &ev;
    events.count = 1;
    uint64_t seq;
    if (store_record_events(p->store, &events, now_wall_ms(), &seq) < 0)
        LOGE("persist", "game=%s: its end could not be queued", g->id);
}

static int restore_game(void *ctx, const struct store_game *sg,
                        const struct store_identity players[2]) {
    struct persist *p = ctx;
    return persist_restore_game(p->srv, sg, players);
}

int persist_restore_game(struct server *srv, const struct store_game *sg,
                         const struct store_identity *players) {
    struct persist *p = srv->persist;
    struct player *pl[2];
    for (int c = 0; c < 2; c++) {
        pl[c] = player_for(srv, &players[c], NULL);
        if (!pl[c]) {
            LOGE("persist", "game=%s: cannot restore player %s", sg->id, players[c].player_id);
            return -1;
        }
    }
    struct game_restore_move *moves = calloc((size_t)sg->ply_count + 1, sizeof *moves);
    struct game *g = malloc(sizeof *g);
    int rc = -1;
    if (!moves || !g) goto done;
    for (int i = 0; i < sg->ply_count; i++)
        moves[i] =
            (struct game_restore_move){sg->moves[i].uci, sg->moves[i].timed, sg->moves[i].clock_ms};
    struct game_record rec = {
        .id = sg->id,
        .initial_fen = sg->initial_fen,
        .variant = sg->variant,
        .tc = {.unlimited = sg->unlimited,
               .initial_ms = sg->initial_ms,
               .increment_ms = sg->increment_ms,
               .days = sg->days},
        .created_wall_ms = sg->created_at,
        .rated = sg->rated,
        .rating = {sg->rating[0], sg->rating[1]},
        .moves = moves,
        .count = sg->ply_count,
    };
    int64_t now = now_mono_ms(), wall = now_wall_ms();
    const struct world_config *wc = &srv->cfg.world;
    rc = game_restore(g, &rec, pl[0], pl[1], wc->lag_comp_ms, wc->first_move_ms, now, wall);
    if (rc == -CORE_ERR_ILLEGAL_MOVE) {
        /* A record that does not replay cannot be played on: end it as aborted. */
        LOGE("persist", "game=%s: its stored moves do not replay; ended as aborted", sg->id);
        struct game_record bare = rec;
        bare.count = 0;
        bare.initial_fen = NULL;
        bare.variant = NULL;
        if (game_restore(g, &bare, pl[0], pl[1], 0, 0, now, wall) == 0) {
            game_finish(g, CHESS_RESULT_NONE, CHESS_TERM_ABORTED, now, wall);
            store_end(p, g);
            game_free(g);
        }
        rc = 0;
        goto done;
    }
    if (rc < 0) goto done;
    arenas_restore_game(srv, g); /* an arena's game: its arena and berserk */
    if (g->ended) {
        LOGI("persist", "game=%s ended by its last move before the restart: %s", g->id,
             chess_termination_name(g->chess.termination));
        store_end(p, g);
        game_free(g);
        goto done;
    }
    rc = world_restore_game(srv->world, g);
    if (rc < 0) {
        game_free(g);
        goto done;
    }
    LOGD("persist", "game=%s restored at ply %d", g->id, game_ply(g));
    g = NULL; /* the world's now */
done:
    free(g);
    free(moves);
    return rc < 0 ? -1 : 0;
}

int persist_attach(struct server *srv, struct store *store) {
    struct persist *p = calloc(1, sizeof *p);
    if (!p || pthread_mutex_init(&p->wake_lock, NULL) != 0) {
        free(p);
        return -1;
    }
    p->srv = srv;
    p->store = store;
    ring_init(&p->held, sizeof(struct held));
    p->wake_item.apply = on_wake;
    srv->persist = p;
    p->reads = reads_create();
    if (!p->reads) return -1;
    /* The arenas first: their games in progress are restored below. */
    int rc = arenas_load(srv, store_startup_reader(store));
    if (rc == 0) rc = store_load_live(store_startup_reader(store), restore_game, p);
    arenas_loaded(srv);
    if (rc != 0) {
        LOGE("persist", "restoring games failed (%s)",
             rc < 0 ? store_status_name(rc) : "see above");
        return -1;
    }
    rc = review_load(srv, store_startup_reader(store));
    if (rc < 0) {
        LOGE("persist", "reading the analyses under way failed (%s)", store_status_name(rc));
        return -1;
    }
    struct world_stats st;
    world_stats(srv->world, &st);
    LOGI("persist", "restored %d game(s) in progress", st.games_live);
    server_arm_world_timer(srv);
    p->passwords = password_start(wake_from_store, p);
    if (!p->passwords || store_start(store, wake_from_store, p) < 0) {
        LOGE("persist", "cannot start the store's threads");
        return -1;
    }
    return 0;
}

void persist_renew_lease(struct server *srv) {
    struct persist *p = srv->persist;
    if (!p) return;
    struct store_op op = {.type = STORE_OP_LEASE};
    if (store_submit(p->store, &op) == 0 && !store_failed(p->store))
        LOGW("persist", "the lease's renewal could not be queued");
}

bool persist_database_down(struct server *srv) {
    struct persist *p = srv->persist;
    if (!p) return false;
    struct store_stats st;
    store_get_stats(p->store, &st);
    return st.database_down;
}

struct store *persist_store(struct server *srv) {
    return srv->persist ? srv->persist->store : NULL;
}

struct passwords *persist_passwords(struct server *srv) {
    return srv->persist ? srv->persist->passwords : NULL;
}

void persist_fill_gauges(struct server *srv, struct metrics_gauges *g) {
    struct persist *p = srv->persist;
    if (!p) return;
    struct store_stats st;
    store_get_stats(p->store, &st);
    g->store = true;
    g->store_write_queue = st.write_queue;
    g->store_read_queue = st.read_queue;
    g->store_commits = st.commits;
    g->store_transactions_failed = st.transactions_failed;
    g->store_checkpoints = st.checkpoints;
    g->store_wal_truncations = st.log_truncations;
    g->store_readers = st.readers;
}

struct reads *persist_reads(struct server *srv) {
    return srv->persist ? srv->persist->reads : NULL;
}

void persist_detach(struct server *srv) {
    struct persist *p = srv->persist;
    if (!p) return;
    pthread_mutex_lock(&p->wake_lock);
    p->detached = true;
    pthread_mutex_unlock(&p->wake_lock);
}

void persist_free(struct server *srv) {
    struct persist *p = srv->persist;
    if (!p) return;
    persist_detach(srv);
    for (size_t i = 0; i < p->held.count; i++) {
        struct held *e = ring_at(&p->held, i);
        if (e->after)
            e->after(srv, e->arg); /* with the loop gone, only frees what it holds */
        else
            net_msg_release(e->msg);
    }
    ring_free(&p->held);
    password_stop(p->passwords); /* before the requests it works for */
    reads_free(p->reads);        /* after store_close(): no reader holds them any more */
    pthread_mutex_destroy(&p->wake_lock);
    free(p);
    srv->persist = NULL;
}
