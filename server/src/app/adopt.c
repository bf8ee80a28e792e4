/*
 * Adopting a dead node's games (adopt.h): the takeover's write, then the read of the arenas and
 * games it made ours, then their restore, the arenas first (their games in progress find their
 * arena). The read job copies what the reader hands over (its moves are freed after each call)
 * so that the loop restores them after the job is done.
 */
#include "app/adopt.h"

#include <stdlib.h>
#include <string.h>

#include "app/arenas.h"
#include "app/engine.h"
#include "app/internal.h"
#include "app/persist.h"
#include "store/read.h"
#include "store/store.h"
#include "util/log.h"

/* Cookies of takeovers (accounts.c counts from 1, settings.c from 12 * 2^60). */
#define COOKIE_BASE (UINT64_C(13) << 60)

struct adopted_game {
    struct store_game game; /* owns its moves */
    struct store_identity players[2];
};

struct adoption {
    struct store_read_job job; /* first: the job is the adoption */
    struct server *srv;
    char node[STORE_NODE_MAX + 1];
    adopt_done_fn done;
    uint64_t cookie;
    int read_status;
    struct arenas_snapshot
        *arenas; /* this node's arenas not finished, the adopted ones among them */
    struct adopted_game *games;
    int count, cap;
};

static struct adoption *adoption_of(const struct server *srv) {
    return srv->adoption;
}

static void adoption_free(struct adoption *a) {
    if (!a) return;
    arenas_snapshot_free(a->arenas);
    for (int i = 0; i < a->count; i++) store_game_free(&a->games[i].game);
    free(a->games);
    free(a);
}

/* Ends the adoption: tells the caller and forgets it. */
static void finish(struct server *srv, int status, const char *const *games, int count) {
    struct adoption *a = adoption_of(srv);
    srv->adoption = NULL;
    a->done(srv, a->node, status, games, count);
    adoption_free(a);
}

/* Reader thread: keeps a copy of each live game of this node's (the world's are skipped on the
 * loop). */
static int keep_game(void *ctx, const struct store_game *game,
                     const struct store_identity players[2]) {
    struct adoption *a = ctx;
    if (a->count == a->cap) {
        int cap = a->cap ? a->cap * 2 : 16;
        struct adopted_game *grown = realloc(a->games, sizeof *grown * (size_t)cap);
        if (!grown) return -STORE_ERR_NO_MEMORY;
        a->games = grown;
        a->cap = cap;
    }
    struct adopted_game *g = &a->games[a->count];
    g->game = *game;
    g->game.moves = NULL;
    if (game->ply_count > 0) {
        size_t bytes = sizeof *game->moves * (size_t)game->ply_count;
        if (!(g->game.moves = malloc(bytes))) return -STORE_ERR_NO_MEMORY;
        memcpy(g->game.moves, game->moves, bytes);
    }
    memcpy(g->players, players, sizeof g->players);
    a->count++;
    return 0;
}

static void read_run(struct store_reader *reader, struct store_read_job *job) {
    struct adoption *a = (struct adoption *)job;
    /* The arenas the takeover moved are this node's now: read with its own (skipped on the
     * loop), the finished ones not at all (they stayed the dead node's). */
    a->read_status = arenas_read(reader, 0, &a->arenas);
    if (a->read_status == 0) a->read_status = store_load_live(reader, keep_game, a);
}

/* Loop: restores the arenas and games read that the world does not have (this node's own are
 * there), the arenas first so that their games in progress take their arena and berserk. */
static void read_done(struct store_read_job *job) {
    struct adoption *a = (struct adoption *)job;
    struct server *srv = a->srv;
    if (a->read_status != 0) {
        LOGE("adopt",
             "node=%s: reading its games failed (%s): they are restored at this node's "
             "next start",
             a->node, store_status_name(a->read_status));
        finish(srv, a->read_status < 0 ? a->read_status : -STORE_ERR_IO, NULL, 0);
        return;
    }
    int arenas = arenas_restore(srv, a->arenas);
    if (arenas < 0)
        LOGE("adopt", "node=%s: its arenas cannot be restored (%s): their games end unscored",
             a->node, store_status_name(arenas));
    const char **ids = calloc((size_t)a->count + 1, sizeof *ids);
    int restored = 0;
    for (int i = 0; ids && i < a->count; i++) {
        const struct store_game *g = &a->games[i].game;
        if (world_game(srv->world, g->id)) continue;
        if (persist_restore_game(srv, g, a->games[i].players) < 0) continue;
        struct game *game = world_game(srv->world, g->id);
        if (!game) continue; /* ended at its restore (its last move ended it) */
        engine_game_restored(srv, game);
        ids[restored++] = g->id;
    }
    arenas_loaded(srv);
    server_arm_world_timer(srv);
    LOGW("adopt", "node=%s: %d game(s) and %d arena(s) adopted", a->node, restored,
         arenas < 0 ? 0 : arenas);
    srv->metrics.takeovers_total++;
    srv->metrics.games_adopted_total += (uint64_t)restored;
    srv->metrics.arenas_adopted_total += arenas < 0 ? 0 : (uint64_t)arenas;
    finish(srv, ids ? 0 : -STORE_ERR_NO_MEMORY, ids, restored);
    free(ids);
}

int adopt_start(struct server *srv, const char *node, int64_t expiry_ms, adopt_done_fn done) {
    struct store *store = persist_store(srv);
    if (!store || srv->adoption || !node || strlen(node) > STORE_NODE_MAX) return -1;
    struct adoption *a = calloc(1, sizeof *a);
    if (!a) return -1;
    a->srv = srv;
    a->done = done;
    snprintf(a->node, sizeof a->node, "%s", node);
    a->cookie = COOKIE_BASE + ++srv->adoptions_total;
    struct store_op op = {.type = STORE_OP_TAKEOVER, .cookie = a->cookie, .want_result = true};
    snprintf(op.u.takeover.node, sizeof op.u.takeover.node, "%s", node);
    op.u.takeover.expiry_ms = expiry_ms;
    if (store_submit(store, &op) == 0) {
        free(a);
        return -1;
    }
    srv->adoption = a;
    return 0;
}

bool adopt_busy(const struct server *srv) {
    return srv->adoption != NULL;
}

void adopt_on_result(struct server *srv, const struct store_result *r) {
    struct adoption *a = adoption_of(srv);
    if (!a || r->kind != STORE_RESULT_WRITE || r->cookie != a->cookie) return;
    if (r->status != 0) {
        finish(srv, r->status, NULL, 0);
        return;
    }
    /* Committed: the games are ours in the store. Read them (after the commit, so the read
     * sees them). */
    a->job.run = read_run;
    a->job.done = read_done;
    int rc = store_read_submit(persist_store(srv), &a->job);
    if (rc < 0) {
        LOGE("adopt",
             "node=%s: cannot read its games (%s): they are restored at this node's "
             "next start",
             a->node, store_status_name(rc));
        finish(srv, rc, NULL, 0);
    }
}

void adopt_free(struct server *srv) {
    /* A read job under way belongs to the store until it is closed, which happens first. */
    adoption_free(adoption_of(srv));
    srv->adoption = NULL;
}
