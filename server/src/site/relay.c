/*
 * Games across nodes (docs/scaling.md): a client's command about another node's game, seek or
 * challenge is forwarded to its owner; the owner applies it for the remote player and publishes
 * every event of its games after the commit; each node delivers those events to its own
 * players and spectators and follows each remote game's version, resynchronising from the
 * owner on a gap.
 *
 * Messages (JSON objects with a type "t"; cluster.c has the site's own):
 *   followers:     ev     {n, g?, v?, e?, k, w?, b?, p?, m, r?, rt?} an owner's event (m: the
 *                         client message; k: recipients as enum core_target; w, b: the game's
 *                         players; p: CORE_TO_PLAYER's player; e: the game has ended; r: {n, q}
 *                         the forwarded request it answers; rt: new ratings after a rated end)
 *                         (to each following node's channel; lobby events, events without a
 *                         game and rated games' ends to the site channel)
 *   site channel:  gone   {n, p}          a player's last connection left node n
 *                  mygames {n, q, p}      my_games: every node answers with its games of
 *                                         player p (res {q, g}), gathered by the asker for at
 *                                         most MY_GAMES_WAIT_MS
 *                  pgames {n, p}          a player said hello on n: send it the player's games
 *                  where  {n, q, p}       a direct challenge: is player p connected to you?
 *                  pmod   {n, p, a, o}    a moderation change a about player p (o: a block's
 *                                         other player), committed: apply it to your copy
 *                  pset   {n, p, s}       player p's settings s, committed on node n
 *   node channel:  cmd    {n, q, pl, req} a forwarded client command
 *                  state  {n, q, g}       "send me the game's full state"
 *                  cget   {n, q, g}       "send me the challenge"
 *                  awatch {n, q, g, p?}   "player p (or a guest) watches arena g: send me its
 *                                         full state, then its standings" (arena_relay.c)
 *                  res    {q, e | ok | m, mp, v, w, b, sc} the owner's answer (sc: spectators)
 *                  pstate {p, g, mp, v, w, b} one of the player's games, after pgames
 *                  wc     {n, g, c}       node n's spectators of one of our games: c people
 *
 * A request (q) waits in `pending` until its answer, its event, or its deadline (5 s: the client
 * gets OWNER_UNREACHABLE, the same error as when the bus is down or the owner is not
 * subscribed).
 */
#include <stdlib.h>
#include <string.h>

#include "app/arenas.h"
#include "app/internal.h"
#include "app/moderation.h"
#include "app/settings.h"
#include "proto/encode.h"
#include "site/cluster.h"
#include "site/internal.h"
#include "util/log.h"
#include "util/now.h"

#define REQUEST_TIMEOUT_MS 5000
/* A directory entry is written when its game or seek is announced, but the owner's write and
 * the client who heard the id and asks another node race: a miss is read again a few times
 * (every 100 ms) before the id is declared unknown. */
#define LOOKUP_TRIES 4

enum pending_kind {
    PENDING_LOOKUP,
    PENDING_CMD,
    PENDING_WATCH,
    PENDING_RESYNC,
    PENDING_CHALLENGE,
    PENDING_LOCATE, /* a direct challenge's invited player: on which node is it connected? */
    PENDING_ARENA_WATCH,
    PENDING_MY_GAMES, /* answers from every node, until all came or the deadline */
};

/* How long my_games waits for the other nodes' games of its player. */
#define MY_GAMES_WAIT_MS 300

/* How long a direct challenge waits for the node of the invited player to answer before it is
 * run here anyway (and refused with PLAYER_OFFLINE if nobody has the player). */
#define LOCATE_TIMEOUT_MS 1000

/* A request waiting for the directory or an owner's answer. */
struct pending {
    uint64_t rid;
    enum pending_kind kind;
    struct conn *conn; /* the client that asked (NULL for resyncs, or once it closed) */
    json_t *client_id; /* the client's request id (a copy), or NULL */
    char target[32];   /* a game, seek, challenge or arena id */
    bool is_seek;
    bool is_arena;
    enum pending_kind then; /* PENDING_LOOKUP: what to send once the owner is known */
    char *text;             /* PENDING_LOOKUP of a command: the client's message */
    size_t text_len;
    int not_found;           /* the error when the directory does not know the target */
    int lookups;             /* directory reads so far */
    bool looked_again;       /* its owner was not listening: the directory was read again */
    int64_t lookup_again_ms; /* a read to repeat at this time (0: none waiting) */
    json_t *gathered;        /* PENDING_MY_GAMES: the answer so far (this node's my_games) */
    int awaited;             /* PENDING_MY_GAMES: the nodes that have not answered yet */
    int64_t deadline_ms;
    struct pending *next;
};

#define INTEREST_MAX 16 /* nodes named per game; beyond, its events go to every node */

/* The nodes that follow one of this node's games besides its players' nodes: those that asked
 * for its state (spectators, resyncs) or forwarded a command about it. */
struct interest {
    char game[GAME_ID_LEN + 1];
    int count;
    bool everyone;
    char nodes[INTEREST_MAX][BUS_NODE_ID_MAX + 1];
    int spectators[INTEREST_MAX]; /* each node's spectators of the game, as it reported them */
};

/* A remote player this node counts as connected (attached in the world), and through which
 * node. */
struct seen {
    char player[PLAYER_ID_LEN + 1];
    char node[BUS_NODE_ID_MAX + 1];
};

/* ---- pending requests ---- */

static struct pending *pending_add(struct cluster *cl, enum pending_kind kind, struct conn *c,
                                   const json_t *client_id, const char *target) {
    struct pending *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->rid = ++cl->next_rid;
    p->kind = kind;
    p->conn = c;
    p->client_id = client_id ? json_deep_copy(client_id) : NULL;
    snprintf(p->target, sizeof p->target, "%s", target);
    p->deadline_ms = now_mono_ms() + REQUEST_TIMEOUT_MS;
    p->next = cl->pending;
    cl->pending = p;
    return p;
}

/* Keeps a copy of the client's message with the request (to forward it, or to run it again).
 * Returns 0 or -1 (memory). */
static int pending_keep_text(struct pending *p, const char *text, size_t len) {
    p->text = malloc(len + 1);
    if (!p->text) return -1;
    memcpy(p->text, text, len);
    p->text[len] = '\0';
    p->text_len = len;
    return 0;
}

static struct pending *pending_take(struct cluster *cl, uint64_t rid) {
    for (struct pending **pp = &cl->pending; *pp; pp = &(*pp)->next) {
        if ((*pp)->rid == rid) {
            struct pending *p = *pp;
            *pp = p->next;
            return p;
        }
    }
    return NULL;
}

static void pending_free(struct pending *p) {
    json_decref(p->client_id);
    json_decref(p->gathered);
    free(p->text);
    free(p);
}

/* Answers the client of a request that failed (a resync may be tried again), and forgets it. */
static void pending_fail(struct cluster *cl, struct pending *p, int code) {
    if (p->kind == PENDING_RESYNC) {
        struct remote *r = strmap_get(&cl->remotes, p->target);
        if (r) r->resyncing = false;
    }
    if (p->conn) conn_send_error(p->conn, code, p->client_id, NULL);
    pending_free(p);
}

/* ---- sending requests to an owner ---- */

static json_t *encode_rating(const struct rating *r) {
    return json_pack("[f,f,f,i,I]", r->rating, r->deviation, r->volatility, r->games,
                     (json_int_t)r->updated_at);
}

/* A rating from encode_rating into out; false (out untouched) when it is not one. */
static bool decode_rating(const json_t *r, struct rating *out) {
    struct rating v = {
        json_number_value(json_array_get(r, 0)), json_number_value(json_array_get(r, 1)),
        json_number_value(json_array_get(r, 2)), (int)json_integer_value(json_array_get(r, 3)),
        json_integer_value(json_array_get(r, 4))}; /* 0 from a node without it: no growth */
    if (!(v.rating > 0 && v.deviation > 0 && v.volatility > 0 && v.games >= 0)) return false;
    *out = v;
    return true;
}

static json_t *encode_player(const struct player *pl) {
    json_t *ratings = json_array();
    for (int i = 0; ratings && i < RATING_CATEGORY_COUNT; i++)
        json_array_append_new(ratings, encode_rating(&pl->ratings[i]));
    return json_pack("{s:s,s:s,s:b,s:b,s:o*}", "id", pl->id, "name", pl->name, "reg",
                     pl->registered, "bot", pl->bot, "r", ratings);
}

struct request_ref {
    struct server *srv;
    uint64_t rid;
};

static struct pending *pending_find(struct cluster *cl, uint64_t rid) {
    struct pending *p = cl->pending;
    while (p && p->rid != rid) p = p->next;
    return p;
}

static int lookup_send(struct cluster *cl, struct pending *p);

/* A request reached nobody: its owner is not subscribed (stopped, or cut off from Redis). The
 * owner this node knew may have died and its game been adopted by another node (whose "adopt"
 * may have been lost): the directory is read once more before the request fails. */
static void request_published(void *arg, long long receivers) {
    struct request_ref *ref = arg;
    struct cluster *cl = cluster_of(ref->srv);
    uint64_t rid = ref->rid;
    free(ref);
    struct pending *p = cl && receivers == 0 ? pending_find(cl, rid) : NULL;
    if (!p) return;
    if (!p->looked_again && !p->is_seek && p->kind != PENDING_RESYNC) {
        p->looked_again = true;
        p->then = p->kind;
        p->kind = PENDING_LOOKUP;
        p->lookups = LOOKUP_TRIES; /* a miss now is not a race with the owner's write */
        if (lookup_send(cl, p) == 0) return;
    }
    pending_fail(cl, pending_take(cl, rid), -PROTO_ERR_OWNER_UNREACHABLE);
}

/* Sends a waiting request to its owner (known now). Consumes p on failure. */
static void pending_send(struct cluster *cl, struct pending *p, const char *owner) {
    json_t *msg;
    if (p->kind == PENDING_CMD) {
        if (!p->conn || !p->conn->player) {
            pending_free(pending_take(cl, p->rid));
            return;
        }
        msg =
            json_pack("{s:s,s:s,s:I,s:o,s:s%}", "t", "cmd", "n", cl->node, "q", (json_int_t)p->rid,
                      "pl", encode_player(p->conn->player), "req", p->text, p->text_len);
        /* The text stays until the answer: sent again if the owner was not listening. */
    } else {
        const char *type = p->kind == PENDING_CHALLENGE     ? "cget"
                           : p->kind == PENDING_ARENA_WATCH ? "awatch"
                                                            : "state";
        const struct player *pl = p->conn ? p->conn->player : NULL;
        msg = json_pack("{s:s,s:s,s:I,s:s,s:s*}", "t", type, "n", cl->node, "q", (json_int_t)p->rid,
                        "g", p->target, "p", pl ? pl->id : NULL);
    }
    struct request_ref *ref = malloc(sizeof *ref);
    if (ref) *ref = (struct request_ref){cl->srv, p->rid};
    if (!ref || cluster_publish_direct(cl, owner, msg, request_published, ref) < 0) {
        free(ref);
        pending_fail(cl, pending_take(cl, p->rid), -PROTO_ERR_OWNER_UNREACHABLE);
    }
}

struct lookup {
    struct server *srv;
    uint64_t rid;
};

static void looked_up(void *arg, int status, const char *value, size_t len) {
    struct lookup *lk = arg;
    struct cluster *cl = cluster_of(lk->srv);
    uint64_t rid = lk->rid;
    free(lk);
    if (!cl) return;
    struct pending *p = pending_find(cl, rid);
    if (!p) return; /* timed out, or its connection went */
    if (status < 0) {
        pending_fail(cl, pending_take(cl, rid), -PROTO_ERR_OWNER_UNREACHABLE);
        return;
    }
    char owner[BUS_NODE_ID_MAX + 1];
    if (!value || len == 0 || len > BUS_NODE_ID_MAX) {
        if (p->lookups < LOOKUP_TRIES)
            p->lookup_again_ms = now_mono_ms() + 100;
        else
            pending_fail(cl, pending_take(cl, rid), p->not_found);
        return;
    }
    memcpy(owner, value, len);
    owner[len] = '\0';
    if (strcmp(owner, cl->node) == 0) {
        /* Ours, but no longer in memory (an ended game dropped from memory). */
        pending_fail(cl, pending_take(cl, rid), p->not_found);
        return;
    }
    if (!p->is_seek && !p->is_arena) cluster_remote_get(cl, p->target, owner);
    p->kind = p->then;
    pending_send(cl, p, owner);
}

/* Reads the owner of a PENDING_LOOKUP's target from the directory. Returns 0 or an error. */
static int lookup_send(struct cluster *cl, struct pending *p) {
    struct lookup *lk = malloc(sizeof *lk);
    if (!lk) return -PROTO_ERR_INTERNAL;
    *lk = (struct lookup){cl->srv, p->rid};
    char key[48];
    snprintf(key, sizeof key, "%s:%s",
             p->is_arena  ? "arena"
             : p->is_seek ? "seek"
                          : "game",
             p->target);
    p->lookups++;
    p->lookup_again_ms = 0;
    if (bus_get(cl->bus, key, looked_up, lk) < 0) {
        free(lk);
        return -PROTO_ERR_OWNER_UNREACHABLE;
    }
    return 0;
}

/* Starts a request about target: straight to the owner when known, else through the
 * directory. Returns 0, or a negative error for the client. */
static int request_owner(struct cluster *cl, struct pending *p, bool is_seek) {
    p->is_seek = is_seek;
    struct remote *r = p->is_arena ? NULL : strmap_get(&cl->remotes, p->target);
    const char *owner = r ? r->owner : p->is_arena ? cluster_arena_owner(cl, p->target) : NULL;
    if (owner) {
        pending_send(cl, p, owner);
        return 0;
    }
    p->then = p->kind;
    p->kind = PENDING_LOOKUP;
    return lookup_send(cl, p);
}

static bool targets_seek(enum proto_msg msg) {
    return msg == PROTO_MSG_SEEK_ACCEPT || msg == PROTO_MSG_SEEK_CANCEL ||
           msg == PROTO_MSG_CHALLENGE_ACCEPT || msg == PROTO_MSG_CHALLENGE_CANCEL ||
           msg == PROTO_MSG_CHALLENGE_DECLINE;
}

/* Runs a located direct challenge's message again, here (the invited player is now known as
 * connected through its node, or nobody answered). */
static void redispatch(struct cluster *cl, struct pending *p) {
    (void)cl;
    struct conn *c = p->conn;
    if (c && p->text && conn_retry_located(c, p->text, p->text_len) < 0)
        conn_send_error(c, -PROTO_ERR_INTERNAL, p->client_id, NULL);
    pending_free(p);
    if (c) conn_resume(c);
}

/* A direct challenge to a player who is not connected here: the nodes are asked whether the
 * player is connected to them (the challenge stays with this node, the player joins it as a
 * remote player, as an opponent from a forwarded command would). Returns 1 when it waits for
 * the answer, 0 to run it here now. */
static int locate_invited(struct cluster *cl, struct conn *c, const struct proto_request *req,
                          const char *text, size_t len, bool located) {
    const struct player *p = world_player_by_id(cl->srv->world, req->cmd.opponent);
    if ((p && p->online > 0) || located || !bus_up(cl->bus)) return 0;
    struct pending *pd = pending_add(cl, PENDING_LOCATE, c, req->id, req->cmd.opponent);
    if (!pd) return 0;
    pd->deadline_ms = now_mono_ms() + LOCATE_TIMEOUT_MS;
    json_t *ask = json_pack("{s:s,s:s,s:I,s:s}", "t", "where", "n", cl->node, "q",
                            (json_int_t)pd->rid, "p", req->cmd.opponent);
    if (pending_keep_text(pd, text, len) < 0) {
        json_decref(ask);
        pending_free(pending_take(cl, pd->rid));
        return 0;
    }
    if (cluster_publish_direct(cl, NULL, ask, NULL, NULL) < 0) {
        pending_free(pending_take(cl, pd->rid));
        return 0;
    }
    conn_wait(c); /* its later messages wait for the answer */
    return 1;
}

/* ---- quick pairing for the whole site ---- */

/* A player of ours waiting in another node's pool: joined again to the next host's pool when
 * that node goes (its pool_join kept, without the request's id), or told it left. */
struct pooled {
    char player[PLAYER_ID_LEN + 1];
    char host[BUS_NODE_ID_MAX + 1];
    char join[256]; /* the pool_join message, or "" */
};

/* host NULL: the player no longer waits in another node's pool. join: its pool_join (text). */
static void note_pooled(struct cluster *cl, const char *player, const char *host, const char *join,
                        size_t join_len) {
    struct pooled *p = strmap_get(&cl->pooled, player);
    if (!host) {
        if (p) free(strmap_remove(&cl->pooled, player));
        return;
    }
    p = strmap_get_or_add(&cl->pooled, player, sizeof *p, offsetof(struct pooled, player),
                          sizeof p->player, NULL);
    if (!p) return;
    snprintf(p->host, sizeof p->host, "%s", host);
    p->join[0] = '\0';
    json_t *msg = json_loadb(join, join_len, 0, NULL);
    json_object_del(msg, "id"); /* the request was answered: a later join answers nobody */
    char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
    if (text && strlen(text) < sizeof p->join) memcpy(p->join, text, strlen(text) + 1);
    free(text);
    json_decref(msg);
}

/* Takes out of map (player id -> an entry naming a node at node_offset) one entry naming node,
 * and returns it (the caller frees it), or NULL when none is left. */
static void *take_entry_via(struct strmap *map, size_t node_offset, const char *node) {
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(map, &i, &key, &value);) {
        if (strcmp((const char *)value + node_offset, node) == 0) return strmap_remove(map, key);
    }
    return NULL;
}

/* The pool host went (stopped, restarted or lost): our players waiting there join the same
 * pool on the next host (their pool_join runs again from one of their connections), or, when
 * that cannot be done, are told they left. */
static void pool_host_gone(struct cluster *cl, const char *node) {
    struct pooled *p;
    while ((p = take_entry_via(&cl->pooled, offsetof(struct pooled, host), node))) {
        const struct player *pl = world_player_by_id(cl->srv->world, p->player);
        struct conn *first = pl ? pl->net_conns : NULL;
        if (first && p->join[0]) {
            conn_wait(first);
            int rc = conn_retry_located(first, p->join, strlen(p->join));
            conn_resume(first); /* runs it: forwarded to the new host, or joined here */
            if (rc == 0) {
                LOGI("cluster", "player=%s waits in node=%s's pool now", p->player,
                     cluster_pool_host(cl));
                free(p);
                continue;
            }
        }
        for (struct conn *c = first; c; c = c->player_next)
            conn_send_json(c, proto_encode_simple("pool_left"));
        free(p);
    }
}

/* pool_join and pool_leave go to the pool host, where the player joins as a remote player (as
 * for another node's seek); the game a wave starts is the host's. Returns 1 when forwarded. */
static int forward_to_pool_host(struct cluster *cl, struct conn *c, const struct proto_request *req,
                                const char *text, size_t len) {
    const char *host = cluster_pool_host(cl);
    if (strcmp(host, cl->node) == 0 || !bus_up(cl->bus) || !c->player) return 0;
    struct pending *p = pending_add(cl, PENDING_CMD, c, req->id, "pool");
    if (!p || pending_keep_text(p, text, len) < 0) {
        if (p) pending_free(pending_take(cl, p->rid));
        conn_send_error(c, -PROTO_ERR_INTERNAL, req->id, NULL);
        return 1;
    }
    note_pooled(cl, c->player->id, req->msg == PROTO_MSG_POOL_JOIN ? host : NULL, text, len);
    pending_send(cl, p, host);
    return 1;
}

/* An arena's join, withdraw or watch when the arena is not this node's: to the node that
 * announced it, or the one the directory names (an arena created a moment ago). Returns 1 when
 * forwarded (or refused), 0 to answer here. */
static int forward_arena(struct cluster *cl, struct conn *c, const struct proto_request *req,
                         const char *text, size_t len) {
    if (!req->arena || world_arena(cl->srv->world, req->arena) || !bus_up(cl->bus)) return 0;
    bool watch = req->msg == PROTO_MSG_ARENA_WATCH;
    struct pending *p =
        pending_add(cl, watch ? PENDING_ARENA_WATCH : PENDING_CMD, c, req->id, req->arena);
    int rc = p ? 0 : -PROTO_ERR_INTERNAL;
    if (p) {
        p->is_arena = true;
        p->not_found = -CORE_ERR_ARENA_NOT_FOUND;
        if (!watch && pending_keep_text(p, text, len) < 0) rc = -PROTO_ERR_INTERNAL;
        if (rc == 0) rc = request_owner(cl, p, false);
        if (rc < 0) pending_free(pending_take(cl, p->rid));
    }
    if (rc < 0) conn_send_error(c, rc, req->id, NULL);
    return 1;
}

int cluster_forward(struct conn *c, const struct proto_request *req, const char *text, size_t len,
                    bool located) {
    struct cluster *cl = cluster_of(c->srv);
    if (!cl) return 0;
    if (req->msg == PROTO_MSG_CHALLENGE_CREATE && req->cmd.opponent)
        return locate_invited(cl, c, req, text, len, located);
    if (req->msg == PROTO_MSG_POOL_JOIN || req->msg == PROTO_MSG_POOL_LEAVE)
        return forward_to_pool_host(cl, c, req, text, len);
    /* An arena's commands run where it lives (arena_berserk names a game, and goes to the
     * game's node like any game command). */
    if (req->msg == PROTO_MSG_ARENA_JOIN || req->msg == PROTO_MSG_ARENA_WITHDRAW ||
        req->msg == PROTO_MSG_ARENA_WATCH)
        return forward_arena(cl, c, req, text, len);
    bool watch = req->msg == PROTO_MSG_WATCH;
    bool challenge_get = req->msg == PROTO_MSG_CHALLENGE_GET;
    if (!watch && !challenge_get && proto_core_command(req->msg) == PROTO_NO_CMD) return 0;
    const char *target = watch ? req->game : req->cmd.target;
    if (!target || world_game(c->srv->world, target) || world_seek(c->srv->world, target)) return 0;
    bool is_seek = challenge_get || (!watch && targets_seek(req->msg));
    bool is_challenge = challenge_get || req->msg == PROTO_MSG_CHALLENGE_ACCEPT ||
                        req->msg == PROTO_MSG_CHALLENGE_CANCEL ||
                        req->msg == PROTO_MSG_CHALLENGE_DECLINE;
    int not_found = !is_seek       ? -CORE_ERR_GAME_NOT_FOUND
                    : is_challenge ? -CORE_ERR_CHALLENGE_NOT_FOUND
                                   : -CORE_ERR_SEEK_NOT_FOUND;
    enum pending_kind kind = watch           ? PENDING_WATCH
                             : challenge_get ? PENDING_CHALLENGE
                                             : PENDING_CMD;
    int rc;
    if (!bus_up(cl->bus)) {
        rc = -PROTO_ERR_OWNER_UNREACHABLE;
        goto fail;
    }
    struct pending *p = pending_add(cl, kind, c, req->id, target);
    if (!p) {
        rc = -PROTO_ERR_INTERNAL;
        goto fail;
    }
    p->not_found = not_found;
    if (kind == PENDING_CMD && pending_keep_text(p, text, len) < 0) {
        pending_free(pending_take(cl, p->rid));
        rc = -PROTO_ERR_INTERNAL;
        goto fail;
    }
    rc = request_owner(cl, p, is_seek);
    if (rc < 0) {
        pending_free(pending_take(cl, p->rid));
        goto fail;
    }
    return 1;
fail:
    conn_send_error(c, rc, req->id, NULL);
    return 1;
}

void relay_resync(struct cluster *cl, struct remote *r) {
    if (r->seek) return;
    r->needs_resync = true;
    if (r->resyncing || !bus_up(cl->bus)) return;
    struct pending *p = pending_add(cl, PENDING_RESYNC, NULL, NULL, r->id);
    if (!p) return;
    r->resyncing = true;
    LOGI("cluster", "game=%s resynchronising from node=%s", r->id, r->owner);
    pending_send(cl, p, r->owner);
}

/* ---- the owner's side ---- */

static void answer(struct cluster *cl, const char *node, uint64_t rid, json_t *body) {
    if (!body) return;
    json_object_set_new(body, "t", json_string("res"));
    json_object_set_new(body, "q", json_integer((json_int_t)rid));
    cluster_publish_json(cl->srv, node, body, NULL);
}

static void apply_player_info(struct player *pl, const json_t *info) {
    pl->registered = json_is_true(json_object_get(info, "reg"));
    pl->bot = json_is_true(json_object_get(info, "bot"));
    const json_t *ratings = json_object_get(info, "r");
    for (int i = 0; i < RATING_CATEGORY_COUNT && i < (int)json_array_size(ratings); i++)
        decode_rating(json_array_get(ratings, (size_t)i), &pl->ratings[i]);
}

/* The world's player for a remote player (created, and counted as connected, on first use). */
static struct player *remote_player(struct cluster *cl, const json_t *info, const char *node) {
    struct server *srv = cl->srv;
    const char *id = json_string_value(json_object_get(info, "id"));
    const char *name = json_string_value(json_object_get(info, "name"));
    if (!id || !name || strlen(id) > PLAYER_ID_LEN || strlen(name) > PLAYER_NAME_MAX) return NULL;
    int64_t now = now_mono_ms();
    struct player *pl = world_player_by_id(srv->world, id);
    if (!pl) {
        /* What the forwarding node knows; never applied over what this node knows already
         * (its own rated games may have changed the ratings since). */
        pl = world_player_restore(srv->world, id, name, NULL, now);
        if (!pl) return NULL;
        apply_player_info(pl, info);
    }
    if (!strmap_get(&cl->remote_seen, pl->id)) {
        struct seen *seen = calloc(1, sizeof *seen);
        if (!seen) return pl;
        snprintf(seen->player, sizeof seen->player, "%s", pl->id);
        snprintf(seen->node, sizeof seen->node, "%s", node);
        if (strmap_put(&cl->remote_seen, seen->player, seen) < 0) {
            free(seen);
            return pl;
        }
        world_player_attach(srv->world, pl, now, &srv->events);
        dispatch_events(srv, &srv->events, NULL, NULL);
    }
    return pl;
}

/* ---- who follows this node's games ---- */

/* Notes that node follows game; returns the node's index among the game's followers, or -1
 * (memory, or beyond INTEREST_MAX: the game's events go to every node then). */
static int note_interest(struct cluster *cl, const char *game, const char *node) {
    struct interest *in = strmap_get_or_add(&cl->interest, game, sizeof *in,
                                            offsetof(struct interest, game), sizeof in->game, NULL);
    if (!in) return -1;
    for (int i = 0; i < in->count; i++) {
        if (strcmp(in->nodes[i], node) == 0) return i;
    }
    if (in->count == INTEREST_MAX) {
        in->everyone = true;
        return -1;
    }
    snprintf(in->nodes[in->count], sizeof in->nodes[0], "%s", node);
    return in->count++;
}

/* ---- spectators across nodes ---- */

/* A follower's count of its spectators of one of our games ("wc" {n, g, c}). */
static void owner_spectators(struct cluster *cl, const json_t *msg) {
    const char *from = json_string_value(json_object_get(msg, "n"));
    const char *game = json_string_value(json_object_get(msg, "g"));
    json_int_t count = json_integer_value(json_object_get(msg, "c"));
    const struct game *g = game ? world_game(cl->srv->world, game) : NULL;
    if (!from || !g || count < 0 || count > INT32_MAX) return;
    int i = note_interest(cl, g->id, from);
    struct interest *in = strmap_get(&cl->interest, g->id);
    if (i < 0 || !in || in->spectators[i] == (int)count) return;
    in->spectators[i] = (int)count;
    dispatch_spectators_changed(cl->srv, g->id);
}

/* A node left the site: its spectators count no more. */
static void forget_spectators_via(struct cluster *cl, const char *node) {
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->interest, &i, &key, &value);) {
        struct interest *in = value;
        for (int k = 0; k < in->count; k++) {
            if (strcmp(in->nodes[k], node) != 0 || in->spectators[k] == 0) continue;
            in->spectators[k] = 0;
            dispatch_spectators_changed(cl->srv, in->game);
        }
    }
}

bool relay_game_players(struct server *srv, const char *game, const char **white,
                        const char **black) {
    struct cluster *cl = cluster_of(srv);
    const struct remote *r = cl ? strmap_get(&cl->remotes, game) : NULL;
    if (!r || !r->white[0] || !r->black[0]) return false;
    *white = r->white;
    *black = r->black;
    return true;
}

void relay_report_spectators(struct server *srv, const char *game, int count) {
    struct cluster *cl = cluster_of(srv);
    const struct remote *r = cl ? strmap_get(&cl->remotes, game) : NULL;
    if (!r || !bus_up(cl->bus)) return;
    cluster_publish_direct(
        cl, r->owner,
        json_pack("{s:s,s:s,s:s,s:i}", "t", "wc", "n", cl->node, "g", game, "c", count), NULL,
        NULL);
}

int relay_spectators_elsewhere(struct server *srv, const char *game) {
    struct cluster *cl = cluster_of(srv);
    const struct interest *in = cl ? strmap_get(&cl->interest, game) : NULL;
    int n = 0;
    for (int i = 0; in && i < in->count; i++) n += in->spectators[i];
    return n;
}

/* Remembers a remote game's players (events and states name them). */
static void note_players(struct cluster *cl, const char *game, const char *white,
                         const char *black) {
    struct remote *r = game && white && black ? strmap_get(&cl->remotes, game) : NULL;
    if (!r) return;
    snprintf(r->white, sizeof r->white, "%s", white);
    snprintf(r->black, sizeof r->black, "%s", black);
}

static void add_node(char (*nodes)[BUS_NODE_ID_MAX + 1], int *n, const char *node) {
    for (int i = 0; i < *n; i++) {
        if (strcmp(nodes[i], node) == 0) return;
    }
    snprintf(nodes[(*n)++], BUS_NODE_ID_MAX + 1, "%s", node);
}

/*
 * Publishes a message about game g (out consumed) to the nodes that follow it, each on its own
 * channel: rather than to every node, so a site's traffic grows with its cross-node games, not
 * with its number of nodes. dir_key as cluster_publish_json. ended: forget who followed it
 * (out NULL: only that).
 */
static void publish_to_followers(struct cluster *cl, const struct game *g, json_t *out,
                                 const char *dir_key, bool ended) {
    struct server *srv = cl->srv;
    struct interest *in = strmap_get(&cl->interest, g->id);
    if (in && in->everyone) {
        if (out) cluster_publish_json(srv, NULL, out, dir_key);
    } else {
        char nodes[INTEREST_MAX + 2][BUS_NODE_ID_MAX + 1];
        int n = 0;
        for (int i = 0; in && i < in->count; i++) add_node(nodes, &n, in->nodes[i]);
        for (int c = 0; c < 2; c++) {
            const struct seen *seen = strmap_get(&cl->remote_seen, g->players[c]->id);
            if (seen) add_node(nodes, &n, seen->node);
        }
        if (!out) n = 0; /* only forgetting the followers */
        if (n == 0) cluster_publish_json(srv, NULL, NULL, dir_key); /* the directory only */
        for (int i = 0; i < n; i++)
            cluster_publish_json(srv, nodes[i], i + 1 < n ? json_incref(out) : out,
                                 i == 0 ? dir_key : NULL);
        if (n == 0) json_decref(out);
    }
    if (ended && in) {
        strmap_remove(&cl->interest, g->id);
        free(in);
    }
}

static void owner_command(struct cluster *cl, const json_t *msg) {
    struct server *srv = cl->srv;
    const char *from = json_string_value(json_object_get(msg, "n"));
    uint64_t rid = (uint64_t)json_integer_value(json_object_get(msg, "q"));
    const json_t *req_text = json_object_get(msg, "req");
    if (!from || !json_is_string(req_text)) return;
    struct proto_request req;
    int rc = proto_decode(json_string_value(req_text), json_string_length(req_text), &req);
    if (rc == 0 && proto_core_command(req.msg) == PROTO_NO_CMD) rc = -PROTO_ERR_UNKNOWN_TYPE;
    struct player *pl = rc == 0 ? remote_player(cl, json_object_get(msg, "pl"), from) : NULL;
    if (rc == 0 && !pl) rc = -PROTO_ERR_INTERNAL;
    if (rc == 0) {
        int64_t now = now_mono_ms();
        if (req.cmd.type == CORE_CMD_COMPUTER_PLAY)
            rc = -CORE_ERR_COMPUTER_UNAVAILABLE; /* never forwarded: it has no target */
        else
            rc = world_apply(srv->world, pl, &req.cmd, now, &srv->events);
        bool has_reply = srv->events.reply >= 0;
        cl->asking_node = from;
        cl->asking_rid = rid;
        cl->answered = false;
        dispatch_events(srv, &srv->events, NULL, NULL);
        cl->asking_node = NULL;
        if (rc == 0 && (!has_reply || !cl->answered))
            answer(cl, from, rid, json_pack("{s:b}", "ok", 1));
    }
    if (rc < 0) answer(cl, from, rid, json_pack("{s:i}", "e", -rc));
    proto_request_clear(&req);
}

/* One of this node's games as a state answer carries it: its "game" messages for spectators (m)
 * and players (mp), its version and its players' ids. */
static json_t *encode_state(const struct game *g) {
    int64_t now = now_mono_ms();
    return json_pack("{s:o,s:o,s:I,s:s,s:s}", "m",
                     proto_encode_game_message("game", g, now, PROTO_VIEWER_SPECTATOR), "mp",
                     proto_encode_game_message("game", g, now, PROTO_VIEWER_PLAYER), "v",
                     (json_int_t)g->version, "w", g->players[CHESS_WHITE]->id, "b",
                     g->players[CHESS_BLACK]->id);
}

static void owner_state(struct cluster *cl, const json_t *msg) {
    struct server *srv = cl->srv;
    const char *from = json_string_value(json_object_get(msg, "n"));
    uint64_t rid = (uint64_t)json_integer_value(json_object_get(msg, "q"));
    const char *id = json_string_value(json_object_get(msg, "g"));
    if (!from || !id) return;
    const struct game *g = world_game(srv->world, id);
    if (!g) {
        answer(cl, from, rid, json_pack("{s:i}", "e", CORE_ERR_GAME_NOT_FOUND));
        return;
    }
    if (!g->ended) note_interest(cl, g->id, from); /* a spectator there, or a resync */
    const struct watch_list *watching = strmap_get(&srv->watchers, g->id);
    json_t *body = encode_state(g);
    if (body) json_object_set_new(body, "sc", json_integer(watching ? watching->announced : 0));
    answer(cl, from, rid, body);
}

static void deliver_state(struct cluster *cl, const json_t *res, const char *game);

/* ---- adoption: a dead node's games taken over (cluster.c decides, app/adopt.c restores) ---- */

void relay_adopted(struct cluster *cl, const char *from, const char *const *games, int count) {
    json_t *ids = json_array();
    for (int i = 0; i < count; i++) {
        const struct game *g = world_game(cl->srv->world, games[i]);
        if (!g) continue;
        char key[48];
        snprintf(key, sizeof key, "game:%s", g->id);
        bus_set(cl->bus, key, cl->node, DIRECTORY_TTL_S);
        json_array_append_new(ids, json_pack("[s,s,s]", g->id, g->players[CHESS_WHITE]->id,
                                             g->players[CHESS_BLACK]->id));
        /* Followed here as the dead node's until now: this node's own players and spectators
         * of it get its state, as after a resync. */
        cluster_remote_drop(cl, g->id);
        json_t *state = encode_state(g);
        if (state) deliver_state(cl, state, g->id);
        json_decref(state);
    }
    /* Every node following one of them asks this node for its state (relay_on_adopt). */
    cluster_publish_direct(
        cl, NULL, json_pack("{s:s,s:s,s:s,s:o}", "t", "adopt", "n", cl->node, "o", from, "g", ids),
        NULL, NULL);
}

/* Whether one of the game's players is connected to this node. */
static bool player_here(struct cluster *cl, const json_t *id) {
    const char *player = json_string_value(id);
    const struct player *pl = player ? world_player_by_id(cl->srv->world, player) : NULL;
    return pl && pl->net_conns != NULL;
}

/* Another node adopted games of a dead node ([id, white, black] each): the ones followed here
 * have a new owner, and so do those of players connected here who came from the dead node
 * before the adoption (their hello found no owner to answer): each asks the new owner for the
 * game's state and pushes it to its players and spectators here. */
static void on_adopt(struct cluster *cl, const json_t *msg) {
    const char *owner = json_string_value(json_object_get(msg, "n"));
    const json_t *games = json_object_get(msg, "g");
    if (!owner || !bus_node_id_valid(owner) || !json_is_array(games)) return;
    size_t i;
    const json_t *game;
    json_array_foreach(games, i, game) {
        const char *id = json_string_value(json_array_get(game, 0));
        if (!id || world_game(cl->srv->world, id)) continue;
        struct remote *r = strmap_get(&cl->remotes, id);
        if (!r && !player_here(cl, json_array_get(game, 1)) &&
            !player_here(cl, json_array_get(game, 2)))
            continue;
        r = cluster_remote_get(cl, id, owner); /* a new owner: its versions start again */
        if (!r) continue;
        r->resyncing = false; /* a request to the dead node gets no answer */
        relay_resync(cl, r);
    }
}

/* The players counted as connected through a node are away now (the node stopped or restarted:
 * their connections are gone). */
void relay_detach_players_via(struct cluster *cl, const char *node) {
    struct server *srv = cl->srv;
    forget_spectators_via(cl, node);
    pool_host_gone(cl, node);
    struct seen *seen;
    while ((seen = take_entry_via(&cl->remote_seen, offsetof(struct seen, node), node))) {
        struct player *pl = world_player_by_id(srv->world, seen->player);
        free(seen);
        if (pl) {
            world_player_detach(srv->world, pl, now_mono_ms(), &srv->events);
            dispatch_events(srv, &srv->events, NULL, NULL);
        }
    }
}

/* challenge_get from another node (the invitation link opened there). */
static void owner_challenge(struct cluster *cl, const json_t *msg) {
    const char *from = json_string_value(json_object_get(msg, "n"));
    uint64_t rid = (uint64_t)json_integer_value(json_object_get(msg, "q"));
    const char *id = json_string_value(json_object_get(msg, "g"));
    if (!from || !id) return;
    const struct seek *s = world_seek(cl->srv->world, id);
    if (!s || !s->is_challenge)
        answer(cl, from, rid, json_pack("{s:i}", "e", CORE_ERR_CHALLENGE_NOT_FOUND));
    else
        answer(cl, from, rid, json_pack("{s:o}", "m", proto_encode_challenge(s)));
}

/* awatch: another node's connection watches one of our arenas. */
static void owner_arena_watch(struct cluster *cl, const json_t *msg) {
    const char *from = json_string_value(json_object_get(msg, "n"));
    uint64_t rid = (uint64_t)json_integer_value(json_object_get(msg, "q"));
    const char *id = json_string_value(json_object_get(msg, "g"));
    const char *viewer = json_string_value(json_object_get(msg, "p"));
    if (!from || !id) return;
    const struct world_arena *a = world_arena(cl->srv->world, id);
    if (rid == 0) { /* a reminder (arena_relay.c): no answer */
        if (a) arena_relay_follow(cl, a, from, false);
        return;
    }
    if (!a) {
        answer(cl, from, rid, json_pack("{s:i}", "e", CORE_ERR_ARENA_NOT_FOUND));
        return;
    }
    arena_relay_follow(cl, a, from, true);
    const struct player *pl = viewer ? world_player_by_id(cl->srv->world, viewer) : NULL;
    answer(cl, from, rid, json_pack("{s:o}", "m", proto_encode_arena(a, pl)));
}

/* "where": answered when the player has connections here. */
static void owner_locate(struct cluster *cl, const json_t *msg) {
    const char *from = json_string_value(json_object_get(msg, "n"));
    const char *id = json_string_value(json_object_get(msg, "p"));
    const struct player *pl = id ? world_player_by_id(cl->srv->world, id) : NULL;
    if (!from || !pl || !pl->net_conns) return;
    answer(cl, from, (uint64_t)json_integer_value(json_object_get(msg, "q")),
           json_pack("{s:o,s:s}", "pl", encode_player(pl), "n", cl->node));
}

static void owner_player_gone(struct cluster *cl, const json_t *msg) {
    struct server *srv = cl->srv;
    const char *from = json_string_value(json_object_get(msg, "n"));
    const char *id = json_string_value(json_object_get(msg, "p"));
    if (!from || !id) return;
    struct seen *seen = strmap_get(&cl->remote_seen, id);
    if (!seen || strcmp(seen->node, from) != 0) return;
    struct player *pl = world_player_by_id(srv->world, id);
    strmap_remove(&cl->remote_seen, id);
    free(seen);
    if (!pl) return;
    world_player_detach(srv->world, pl, now_mono_ms(), &srv->events);
    dispatch_events(srv, &srv->events, NULL, NULL);
}

/* Another node's player said hello: the state of each of its games here goes to that node (its
 * welcome only lists the games that node holds), and the player counts as connected again (so
 * that one of our arenas pairs it again). */
static void owner_player_games(struct cluster *cl, const json_t *msg) {
    struct server *srv = cl->srv;
    const char *from = json_string_value(json_object_get(msg, "n"));
    const char *id = json_string_value(json_object_get(msg, "p"));
    struct player *pl = id ? world_player_by_id(srv->world, id) : NULL;
    if (!from || !pl || (pl->game_count == 0 && !arena_relay_plays_here(srv, pl->id))) return;
    int64_t now = now_mono_ms();
    for (int i = 0; i < pl->game_count; i++) {
        const struct game *g = pl->games[i];
        note_interest(cl, g->id, from);
        cluster_publish_direct(
            cl, from,
            json_pack("{s:s,s:s,s:s,s:o,s:I,s:s,s:s}", "t", "pstate", "p", pl->id, "g", g->id, "mp",
                      proto_encode_game_message("game", g, now, PROTO_VIEWER_PLAYER), "v",
                      (json_int_t)g->version, "w", g->players[CHESS_WHITE]->id, "b",
                      g->players[CHESS_BLACK]->id),
            NULL, NULL);
    }
    if (!strmap_get(&cl->remote_seen, pl->id)) {
        json_t *info = json_pack("{s:s,s:s}", "id", pl->id, "name", pl->name);
        if (info) remote_player(cl, info, from); /* attaches; keeps what the world knows */
        json_decref(info);
    }
}

void cluster_publish_event(struct server *srv, const struct core_event *ev, const json_t *msg,
                           bool is_reply) {
    struct cluster *cl = cluster_of(srv);
    if (!cl || !msg) return;
    const struct game *g = ev->game;
    json_t *out =
        json_pack("{s:s,s:s,s:i,s:O}", "t", "ev", "n", cl->node, "k", (int)ev->target, "m", msg);
    if (!out) return;
    char dir_key[48] = "";
    if (g && ev->target != CORE_TO_LOBBY) {
        json_object_set_new(out, "g", json_string(g->id));
        json_object_set_new(out, "v", json_integer(ev->version));
        json_object_set_new(out, "w", json_string(g->players[CHESS_WHITE]->id));
        json_object_set_new(out, "b", json_string(g->players[CHESS_BLACK]->id));
        if (g->ended) json_object_set_new(out, "e", json_true());
        if (ev->type == CORE_EV_GAME_ENDED && g->rated) {
            /* The players' new ratings: every node that knows them starts its next game from
             * these (the store has them too, but nodes keep their players in memory). */
            int cat = game_rating_category(g);
            json_object_set_new(out, "rt",
                                json_pack("{s:i,s:o,s:o}", "c", cat, "w",
                                          encode_rating(&g->players[CHESS_WHITE]->ratings[cat]),
                                          "b",
                                          encode_rating(&g->players[CHESS_BLACK]->ratings[cat])));
        }
        if (ev->type == CORE_EV_GAME_STARTED) snprintf(dir_key, sizeof dir_key, "game:%s", g->id);
    }
    if (ev->type == CORE_EV_SEEK_ADDED || ev->type == CORE_EV_CHALLENGE_CREATED)
        snprintf(dir_key, sizeof dir_key, "seek:%s", ev->seek.id);
    if (ev->type == CORE_EV_ARENA_CREATED) /* found before the next announcement lists it */
        snprintf(dir_key, sizeof dir_key, "arena:%s", ev->arena->id);
    if (ev->player) json_object_set_new(out, "p", json_string(ev->player->id));
    if (is_reply && cl->asking_node) {
        json_object_set_new(
            out, "r",
            json_pack("{s:s,s:I}", "n", cl->asking_node, "q", (json_int_t)cl->asking_rid));
        cl->answered = true;
    }
    /* Lobby events and a rated game's end (every node that knows its players takes their new
     * ratings) go to every node. */
    if (!g || ev->target == CORE_TO_LOBBY || (ev->type == CORE_EV_GAME_ENDED && g->rated)) {
        cluster_publish_json(srv, NULL, out, dir_key[0] ? dir_key : NULL);
        if (g && ev->type == CORE_EV_GAME_ENDED) publish_to_followers(cl, g, NULL, NULL, true);
        return;
    }
    /* The node whose client asked follows the game (also one its command just started). */
    if (cl->asking_node && !g->ended) note_interest(cl, g->id, cl->asking_node);
    publish_to_followers(cl, g, out, dir_key[0] ? dir_key : NULL, ev->type == CORE_EV_GAME_ENDED);
}

void cluster_publish_to_game(struct server *srv, const struct game *g, const json_t *msg,
                             bool players, bool spectators) {
    struct cluster *cl = cluster_of(srv);
    if (!cl || !msg || (!players && !spectators)) return;
    enum core_target k = players && spectators ? CORE_TO_GAME
                         : players             ? CORE_TO_GAME_PLAYERS
                                               : CORE_TO_GAME_SPECTATORS;
    /* No version: these messages (the computer thinking, its analysis) are not game events. */
    json_t *out =
        json_pack("{s:s,s:s,s:i,s:O,s:s,s:s,s:s}", "t", "ev", "n", cl->node, "k", (int)k, "m", msg,
                  "g", g->id, "w", g->players[CHESS_WHITE]->id, "b", g->players[CHESS_BLACK]->id);
    if (out) publish_to_followers(cl, g, out, NULL, false);
}

/* ---- the other nodes' side ---- */

static void deliver_event(struct cluster *cl, const json_t *msg) {
    struct server *srv = cl->srv;
    const char *owner = json_string_value(json_object_get(msg, "n"));
    const json_t *m = json_object_get(msg, "m");
    if (!owner || !json_is_object(m)) return;
    const char *game = json_string_value(json_object_get(msg, "g"));
    int kind = (int)json_integer_value(json_object_get(msg, "k"));
    struct remote_delivery rd = {
        .kind = (enum core_target)kind,
        .game = game,
        .white = json_string_value(json_object_get(msg, "w")),
        .black = json_string_value(json_object_get(msg, "b")),
        .player = json_string_value(json_object_get(msg, "p")),
        .msg = m,
    };
    /* The forwarded request this event answers, when it came from here. */
    const json_t *r = json_object_get(msg, "r");
    struct pending *p = NULL;
    const char *asker = json_string_value(json_object_get(r, "n"));
    if (asker && strcmp(asker, cl->node) == 0) {
        p = pending_take(cl, (uint64_t)json_integer_value(json_object_get(r, "q")));
        if (p && p->conn) {
            rd.requester = p->conn;
            rd.requester_id = p->client_id;
        }
    }
    dispatch_deliver_remote(srv, &rd);
    if (p) pending_free(p);
    const char *type = json_string_value(json_object_get(m, "type"));
    if (type && strcmp(type, "game_started") == 0) { /* paired, maybe by a pool */
        if (rd.white) note_pooled(cl, rd.white, NULL, NULL, 0);
        if (rd.black) note_pooled(cl, rd.black, NULL, NULL, 0);
    }
    /* The owner thinks a player of ours is away (it lost track of this node for a while): the
     * player is here, so it is told again, as at a hello. */
    if (type && strcmp(type, "presence") == 0 && json_is_false(json_object_get(m, "connected"))) {
        const struct player *pl = rd.player ? world_player_by_id(srv->world, rd.player) : NULL;
        if (pl && pl->net_conns) cluster_player_hello(srv, pl);
    }
    /* Lobby seeks of other nodes, for lobby_subscribe. */
    if (kind == CORE_TO_LOBBY && type) {
        if (strcmp(type, "seek_added") == 0) {
            json_t *seek = json_object_get(m, "seek");
            const char *id = json_string_value(json_object_get(seek, "id"));
            struct remote *rs = id ? cluster_remote_get(cl, id, owner) : NULL;
            if (rs) {
                json_decref(rs->seek);
                rs->seek = json_incref(seek);
            }
        } else if (strcmp(type, "seek_removed") == 0) {
            const char *id = json_string_value(json_object_get(m, "seek"));
            if (id) cluster_remote_drop(cl, id);
        }
    }
    const json_t *rt = json_object_get(msg, "rt");
    int cat = (int)json_integer_value(json_object_get(rt, "c"));
    for (int c = 0; rt && cat >= 0 && cat < RATING_CATEGORY_COUNT && c < 2; c++) {
        const char *id = c ? rd.black : rd.white;
        struct player *pl = id ? world_player_by_id(srv->world, id) : NULL;
        if (pl) decode_rating(json_object_get(rt, c ? "b" : "w"), &pl->ratings[cat]);
    }
    const json_t *version = json_object_get(msg, "v");
    if (!game || !version) return;
    uint32_t v = (uint32_t)json_integer_value(version);
    if (json_is_true(json_object_get(msg, "e"))) {
        struct remote *rg = strmap_get(&cl->remotes, game);
        if (rg && !rg->resyncing) cluster_remote_drop(cl, game);
        return;
    }
    struct remote *rg = cluster_remote_get(cl, game, owner);
    if (!rg) return;
    note_players(cl, game, rd.white, rd.black);
    bool gap = rg->has_version && v != rg->version + 1;
    rg->version = v;
    rg->has_version = true;
    if (gap) relay_resync(cl, rg);
}

/* A "game" message pushed after a resync: to this node's players and spectators of it. */
static void deliver_state(struct cluster *cl, const json_t *res, const char *game) {
    struct remote_delivery rd = {
        .kind = CORE_TO_GAME_SPECTATORS,
        .game = game,
        .white = json_string_value(json_object_get(res, "w")),
        .black = json_string_value(json_object_get(res, "b")),
        .msg = json_object_get(res, "m"),
    };
    if (json_is_object(rd.msg)) dispatch_deliver_remote(cl->srv, &rd);
    note_players(cl, game, rd.white, rd.black);
    rd.kind = CORE_TO_GAME_PLAYERS;
    rd.msg = json_object_get(res, "mp");
    if (json_is_object(rd.msg)) dispatch_deliver_remote(cl->srv, &rd);
    /* A player of ours the owner shows away (it lost track of this node for a while) is here:
     * the owner is told again, as at a hello. */
    const json_t *state = json_object_get(rd.msg, "game");
    for (int c = 0; c < 2; c++) {
        const json_t *seat = json_object_get(state, c ? "black" : "white");
        const char *id = c ? rd.black : rd.white;
        const struct player *pl = id ? world_player_by_id(cl->srv->world, id) : NULL;
        if (pl && pl->net_conns && json_is_false(json_object_get(seat, "connected")))
            cluster_player_hello(cl->srv, pl);
    }
}

static void my_games_answer(struct cluster *cl, struct pending *p, const json_t *msg);

static void on_answer(struct cluster *cl, const json_t *msg) {
    uint64_t rid = (uint64_t)json_integer_value(json_object_get(msg, "q"));
    struct pending *gathering = pending_find(cl, rid);
    if (gathering && gathering->kind == PENDING_MY_GAMES) {
        my_games_answer(cl, gathering, msg);
        return;
    }
    struct pending *p = pending_take(cl, rid);
    if (!p) return;
    int code = (int)json_integer_value(json_object_get(msg, "e"));
    if (p->kind == PENDING_LOCATE) {
        const char *node = json_string_value(json_object_get(msg, "n"));
        if (node && bus_node_id_valid(node) && p->conn)
            remote_player(cl, json_object_get(msg, "pl"), node); /* connected through node */
        redispatch(cl, p);
        return;
    }
    if (p->kind == PENDING_RESYNC) {
        struct remote *r = strmap_get(&cl->remotes, p->target);
        if (r) {
            r->resyncing = false;
            if (code == 0) {
                r->version = (uint32_t)json_integer_value(json_object_get(msg, "v"));
                r->has_version = true;
                r->needs_resync = false;
                deliver_state(cl, msg, p->target);
            } else {
                cluster_remote_drop(cl, p->target); /* the owner has forgotten it */
            }
        }
        pending_free(p);
        return;
    }
    if (!p->conn) {
        pending_free(p);
        return;
    }
    if (code > 0) {
        pending_fail(cl, p, -code);
        return;
    }
    if (p->kind == PENDING_ARENA_WATCH) {
        int rc = arenas_watch_remote(p->conn, p->target);
        if (rc < 0) {
            pending_fail(cl, p, rc);
            return;
        }
    }
    if (p->kind == PENDING_CHALLENGE || p->kind == PENDING_ARENA_WATCH) {
        json_t *m = json_deep_copy(json_object_get(msg, "m"));
        if (m) proto_set_id(m, p->client_id);
        if (m)
            conn_send_json(p->conn, m);
        else
            conn_send_error(p->conn, -PROTO_ERR_INTERNAL, p->client_id, NULL);
    } else if (p->kind == PENDING_WATCH) {
        const char *white = json_string_value(json_object_get(msg, "w"));
        const char *black = json_string_value(json_object_get(msg, "b"));
        const struct player *me = p->conn->player;
        bool player =
            me && ((white && strcmp(white, me->id) == 0) || (black && strcmp(black, me->id) == 0));
        json_t *state = json_deep_copy(json_object_get(msg, player ? "mp" : "m"));
        int rc = state ? dispatch_watch_add(p->conn, p->target) : -PROTO_ERR_INTERNAL;
        if (rc < 0) {
            json_decref(state);
            pending_fail(cl, p, rc);
            return;
        }
        struct remote *r = strmap_get(&cl->remotes, p->target);
        if (r && !r->has_version) {
            r->version = (uint32_t)json_integer_value(json_object_get(msg, "v"));
            r->has_version = true;
        }
        note_players(cl, p->target, white, black);
        proto_set_id(state, p->client_id);
        conn_send_json(p->conn, state);
        /* The number of spectators as the owner last announced it (sc). */
        json_int_t watching = json_integer_value(json_object_get(msg, "sc"));
        if (watching > 0 && watching <= INT32_MAX)
            conn_send_json(p->conn, proto_encode_spectators(p->target, (int)watching));
    } else {
        json_t *ok = proto_encode_simple("ok");
        if (ok) proto_set_id(ok, p->client_id);
        conn_send_json(p->conn, ok);
    }
    pending_free(p);
}

/* The state of one of our player's games on another node, after the player's hello here. */
static void on_player_game(struct cluster *cl, const json_t *msg) {
    const char *owner = NULL;
    const char *game = json_string_value(json_object_get(msg, "g"));
    const char *player = json_string_value(json_object_get(msg, "p"));
    const json_t *state = json_object_get(msg, "mp");
    if (!game || !player || !json_is_object(state)) return;
    struct remote *r = strmap_get(&cl->remotes, game);
    if (r) owner = r->owner;
    if (!r) {
        owner = json_string_value(json_object_get(msg, "n"));
        r = owner ? cluster_remote_get(cl, game, owner) : NULL;
    }
    if (r && !r->has_version) {
        r->version = (uint32_t)json_integer_value(json_object_get(msg, "v"));
        r->has_version = true;
    }
    struct remote_delivery rd = {
        .kind = CORE_TO_PLAYER, .game = game, .player = player, .msg = state};
    dispatch_deliver_remote(cl->srv, &rd);
}

void cluster_player_hello(struct server *srv, const struct player *p) {
    struct cluster *cl = cluster_of(srv);
    if (!cl || !bus_up(cl->bus)) return;
    cluster_publish_direct(
        cl, NULL, json_pack("{s:s,s:s,s:s}", "t", "pgames", "n", cl->node, "p", p->id), NULL, NULL);
}

void cluster_conn_gone(struct conn *c) {
    struct cluster *cl = cluster_of(c->srv);
    for (struct pending *p = cl ? cl->pending : NULL; p; p = p->next) {
        if (p->conn == c) p->conn = NULL;
    }
}

void cluster_player_gone(struct server *srv, const struct player *p) {
    struct cluster *cl = cluster_of(srv);
    if (cl) note_pooled(cl, p->id, NULL, NULL, 0); /* the host takes it out of its pool (gone) */
    if (!cl || !bus_up(cl->bus)) return;
    cluster_publish_direct(
        cl, NULL, json_pack("{s:s,s:s,s:s}", "t", "gone", "n", cl->node, "p", p->id), NULL, NULL);
}

void cluster_player_settings(struct server *srv, const char *player_id, const json_t *settings) {
    struct cluster *cl = cluster_of(srv);
    if (!cl || !bus_up(cl->bus) || !settings) return;
    cluster_publish_direct(
        cl, NULL,
        json_pack("{s:s,s:s,s:s,s:O}", "t", "pset", "n", cl->node, "p", player_id, "s", settings),
        NULL, NULL);
}

/* Another node saved an account's settings: its connections here take them. */
static void on_player_settings(struct cluster *cl, const json_t *msg) {
    const char *from = json_string_value(json_object_get(msg, "n"));
    const char *player = json_string_value(json_object_get(msg, "p"));
    if (from && player && strcmp(from, cl->node) != 0)
        settings_push(cl->srv, player, json_object_get(msg, "s"));
}

void cluster_player_moderated(struct server *srv, const char *player_id, const char *change,
                              const char *other_id) {
    struct cluster *cl = cluster_of(srv);
    if (!cl || !bus_up(cl->bus)) return;
    cluster_publish_direct(cl, NULL,
                           json_pack("{s:s,s:s,s:s,s:s,s:s}", "t", "pmod", "n", cl->node, "p",
                                     player_id, "a", change, "o", other_id ? other_id : ""),
                           NULL, NULL);
}

static void on_player_moderated(struct cluster *cl, const json_t *msg) {
    const char *player = json_string_value(json_object_get(msg, "p"));
    const char *change = json_string_value(json_object_get(msg, "a"));
    const char *other = json_string_value(json_object_get(msg, "o"));
    if (player && change) moderation_apply(cl->srv, player, change, other);
}

/* ---- my_games for the whole site ---- */

int cluster_my_games(struct conn *c, const json_t *req_id, json_t *msg) {
    struct cluster *cl = cluster_of(c->srv);
    int peers = cl ? cluster_live_peers(cl) : 0;
    if (peers == 0 || !c->player || !bus_up(cl->bus)) return 0;
    struct pending *p = pending_add(cl, PENDING_MY_GAMES, c, req_id, "");
    if (!p) return 0;
    p->awaited = peers;
    p->deadline_ms = now_mono_ms() + MY_GAMES_WAIT_MS;
    json_t *ask = json_pack("{s:s,s:s,s:I,s:s}", "t", "mygames", "n", cl->node, "q",
                            (json_int_t)p->rid, "p", c->player->id);
    if (cluster_publish_direct(cl, NULL, ask, NULL, NULL) < 0) {
        pending_free(pending_take(cl, p->rid));
        return 0; /* msg stays the caller's */
    }
    p->gathered = msg;
    return 1;
}

/* mygames: this node's games of the player, for the node that asks (an empty list too: it
 * counts the answers). */
static void owner_my_games(struct cluster *cl, const json_t *msg) {
    const char *from = json_string_value(json_object_get(msg, "n"));
    const char *id = json_string_value(json_object_get(msg, "p"));
    if (!from || !id) return;
    const struct player *pl = world_player_by_id(cl->srv->world, id);
    json_t *mine = pl && pl->game_count > 0 ? proto_encode_my_games(pl, now_mono_ms()) : NULL;
    json_t *games = mine ? json_incref(json_object_get(mine, "games")) : json_array();
    json_decref(mine);
    answer(cl, from, (uint64_t)json_integer_value(json_object_get(msg, "q")),
           json_pack("{s:o*}", "g", games));
}

/* The gathered my_games to its connection (p taken out of the list already). */
static void my_games_done(struct pending *p) {
    json_t *answer = p->gathered;
    p->gathered = NULL;
    if (p->conn && answer && proto_my_games_sort(json_object_get(answer, "games")) == 0) {
        proto_set_id(answer, p->client_id);
        conn_send_json(p->conn, answer);
        answer = NULL;
    } else if (p->conn) {
        conn_send_error(p->conn, -PROTO_ERR_INTERNAL, p->client_id, NULL);
    }
    json_decref(answer);
    pending_free(p);
}

/* One node's answer to mygames: its games join the list; the last answer ends the wait. */
static void my_games_answer(struct cluster *cl, struct pending *p, const json_t *msg) {
    json_t *list = json_object_get(p->gathered, "games");
    const json_t *games = json_object_get(msg, "g");
    for (size_t i = 0; i < json_array_size(games); i++) {
        json_t *g = json_array_get(games, i);
        const char *id = json_string_value(json_object_get(g, "id"));
        bool known = false;
        for (size_t k = 0; id && !known && k < json_array_size(list); k++) {
            const char *had = json_string_value(json_object_get(json_array_get(list, k), "id"));
            known = had && strcmp(had, id) == 0;
        }
        if (id && !known) json_array_append(list, g);
    }
    if (--p->awaited <= 0) my_games_done(pending_take(cl, p->rid));
}

const char *relay_player_node(struct cluster *cl, const char *player) {
    const struct seen *seen = strmap_get(&cl->remote_seen, player);
    return seen ? seen->node : NULL;
}

void relay_tick(struct cluster *cl, int64_t now) {
    for (struct pending **pp = &cl->pending; *pp;) {
        struct pending *p = *pp;
        if (now < p->deadline_ms) {
            int rc = p->lookup_again_ms && now >= p->lookup_again_ms ? lookup_send(cl, p) : 0;
            if (rc == 0) {
                pp = &p->next;
                continue;
            }
            *pp = p->next;
            pending_fail(cl, p, rc);
            continue;
        }
        *pp = p->next;
        if (p->kind == PENDING_MY_GAMES)
            my_games_done(p); /* what came in time */
        else if (p->kind == PENDING_LOCATE)
            redispatch(cl, p); /* nobody has the player: refused here as offline */
        else
            pending_fail(cl, p, -PROTO_ERR_OWNER_UNREACHABLE);
    }
}

void relay_free(struct cluster *cl) {
    while (cl->pending) pending_free(pending_take(cl, cl->pending->rid));
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&cl->remote_seen, &i, &key, &value);) free(value);
    strmap_free(&cl->remote_seen);
    for (size_t i = 0; strmap_next(&cl->interest, &i, &key, &value);) free(value);
    strmap_free(&cl->interest);
    for (size_t i = 0; strmap_next(&cl->pooled, &i, &key, &value);) free(value);
    strmap_free(&cl->pooled);
}

bool relay_on_message(struct cluster *cl, const char *t, bool to_me, const json_t *msg) {
    if (to_me) {
        if (strcmp(t, "cmd") == 0)
            owner_command(cl, msg);
        else if (strcmp(t, "state") == 0)
            owner_state(cl, msg);
        else if (strcmp(t, "cget") == 0)
            owner_challenge(cl, msg);
        else if (strcmp(t, "awatch") == 0)
            owner_arena_watch(cl, msg);
        else if (strcmp(t, "res") == 0)
            on_answer(cl, msg);
        else if (strcmp(t, "pstate") == 0)
            on_player_game(cl, msg);
        else if (strcmp(t, "ev") == 0)
            deliver_event(cl, msg); /* an event of a game this node follows */
        else if (strcmp(t, "wc") == 0)
            owner_spectators(cl, msg);
        else
            return false;
        return true;
    }
    if (strcmp(t, "ev") == 0)
        deliver_event(cl, msg);
    else if (strcmp(t, "where") == 0)
        owner_locate(cl, msg);
    else if (strcmp(t, "gone") == 0)
        owner_player_gone(cl, msg);
    else if (strcmp(t, "pgames") == 0)
        owner_player_games(cl, msg);
    else if (strcmp(t, "mygames") == 0)
        owner_my_games(cl, msg);
    else if (strcmp(t, "pmod") == 0)
        on_player_moderated(cl, msg);
    else if (strcmp(t, "pset") == 0)
        on_player_settings(cl, msg);
    else if (strcmp(t, "adopt") == 0)
        on_adopt(cl, msg);
    else
        return false;
    return true;
}
