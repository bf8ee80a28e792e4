/*
 * From a client message to its effects: decode (proto), check who may send it, run it (the
 * world for game and lobby commands, this file for connection matters such as hello, watching
 * and the lobby subscription), then deliver the events. Each event is encoded and serialised
 * once and shared by all its recipients; the requester's copy of the reply event carries its
 * request id.
 */
#include <stdlib.h>
#include <string.h>

#include "app/accounts.h"
#include "app/archive.h"
#include "app/arenas.h"
#include "app/auth.h"
#include "app/bots.h"
#include "app/engine.h"
#include "app/internal.h"
#include "app/manage.h"
#include "app/moderation.h"
#include "app/opening.h"
#include "app/persist.h"
#include "app/reads.h"
#include "app/review.h"
#include "app/settings.h"
#include "app/site.h"
#include "app/tokens.h"
#include "proto/encode.h"
#include "proto/proto.h"
#include "util/log.h"
#include "util/now.h"
#include "util/vec.h"

/* ---- players' connections ---- */

static void player_link(struct conn *c, struct player *p) {
    c->player = p;
    struct conn *head = p->net_conns;
    if (!head) c->srv->players_here++;
    c->player_next = head;
    if (head) head->player_prev = c;
    p->net_conns = c;
}

static void player_unlink(struct conn *c) {
    struct player *p = c->player;
    if (c->player_prev)
        c->player_prev->player_next = c->player_next;
    else
        p->net_conns = c->player_next;
    if (c->player_next) c->player_next->player_prev = c->player_prev;
    c->player_prev = c->player_next = NULL;
    if (!p->net_conns) c->srv->players_here--;
}

/* ---- watching ---- */

static int watch_index(const struct conn *c, const char *id) {
    for (int i = 0; i < c->watch_count; i++) {
        if (strcmp(c->watched[i], id) == 0) return i;
    }
    return -1;
}

static void mark_watchers_changed(struct server *srv, struct watch_list *w) {
    if (w->dirty) return;
    w->dirty = true;
    srv->watchers_dirty++;
}

static void watch_list_free(struct server *srv, struct watch_list *w) {
    if (w->dirty) srv->watchers_dirty--;
    strmap_remove(&srv->watchers, w->id);
    free(w->conns);
    free(w);
}

int dispatch_watch_add(struct conn *c, const char *id) {
    struct server *srv = c->srv;
    if (watch_index(c, id) >= 0) return 0;
    if (c->watch_count >= srv->cfg.max_watch) return -PROTO_ERR_TOO_MANY_WATCHED;
    if (!c->watched) {
        c->watched = calloc((size_t)srv->cfg.max_watch, sizeof *c->watched);
        if (!c->watched) return -PROTO_ERR_INTERNAL;
    }
    struct watch_list *w = strmap_get_or_add(&srv->watchers, id, sizeof *w,
                                             offsetof(struct watch_list, id), sizeof w->id, NULL);
    if (!w) return -PROTO_ERR_INTERNAL;
    if (vec_reserve((void **)&w->conns, &w->cap, (size_t)w->count + 1, sizeof *w->conns, 4) < 0)
        return -PROTO_ERR_INTERNAL;
    w->conns[w->count++] = c;
    snprintf(c->watched[c->watch_count++], GAME_ID_LEN + 1, "%s", id);
    mark_watchers_changed(srv, w);
    return 0;
}

static void watch_remove(struct conn *c, const char *id) {
    struct server *srv = c->srv;
    int i = watch_index(c, id);
    if (i < 0) return;
    memmove(&c->watched[i], &c->watched[i + 1],
            sizeof *c->watched * (size_t)(c->watch_count - i - 1));
    c->watch_count--;
    struct watch_list *w = strmap_get(&srv->watchers, id);
    if (!w) return;
    for (int k = 0; k < w->count; k++) {
        if (w->conns[k] == c) {
            w->conns[k] = w->conns[--w->count];
            break;
        }
    }
    mark_watchers_changed(srv, w);
}

void dispatch_spectators_changed(struct server *srv, const char *game) {
    struct watch_list *w = strmap_get_or_add(&srv->watchers, game, sizeof *w,
                                             offsetof(struct watch_list, id), sizeof w->id, NULL);
    if (w) mark_watchers_changed(srv, w);
}

/* The people watching a game here: its watchers' players, each once (a game on TV may have
 * thousands: a set, not a pairwise search), besides its own two players (ids; whose game pages
 * watch it too). A connection before hello counts as one. Out of memory, a person with two
 * pages may count twice. */
static int spectator_count(const struct watch_list *w, const char *white, const char *black) {
    struct strmap seen = {0};
    int n = 0;
    for (int i = 0; i < w->count; i++) {
        struct player *p = w->conns[i]->player;
        if (p && ((white && strcmp(p->id, white) == 0) || (black && strcmp(p->id, black) == 0)))
            continue;
        if (p && strmap_get(&seen, p->id)) continue;
        if (p && strmap_put(&seen, p->id, p) < 0)
            LOGW("watch", "out of memory counting spectators");
        n++;
    }
    strmap_free(&seen);
    return n;
}

/* A list's number of spectators, where it changed: announced to the game's players and
 * spectators (a game of this node), or reported to the game's node (another's). */
static void announce_list(struct server *srv, struct watch_list *w, int64_t now_ms) {
    const struct game *g = world_game(srv->world, w->id);
    const char *white = NULL, *black = NULL;
    if (g) {
        white = g->players[CHESS_WHITE]->id;
        black = g->players[CHESS_BLACK]->id;
    } else if (!site_game_players(srv, w->id, &white, &black)) {
        white = black = NULL; /* not known yet: everyone here counts */
    }
    int count = spectator_count(w, white, black);
    if (g) count += site_spectators_elsewhere(srv, g->id);
    w->dirty = false;
    srv->watchers_dirty--;
    if (count == w->announced) return;
    w->announced = count;
    w->next_announce = now_ms + 1000;
    if (g)
        dispatch_to_game(srv, g, proto_encode_spectators(g->id, count), true, true);
    else
        site_report_spectators(srv, w->id, count);
}

void dispatch_announce_spectators(struct server *srv, int64_t now_ms) {
    if (srv->watchers_dirty == 0) return;
    const char *key;
    void *value;
    /* Lists left empty are freed after the walk (the map must not change under its cursor). */
    struct watch_list **empty = NULL;
    size_t empty_count = 0, empty_cap = 0;
    for (size_t i = 0; strmap_next(&srv->watchers, &i, &key, &value);) {
        struct watch_list *w = value;
        if (w->dirty && now_ms >= w->next_announce) announce_list(srv, w, now_ms);
        if (!w->dirty && w->count == 0 &&
            vec_reserve((void **)&empty, &empty_cap, empty_count + 1, sizeof *empty, 16) == 0)
            empty[empty_count++] = w; /* out of memory: left for a later pass */
    }
    for (size_t k = 0; k < empty_count; k++) watch_list_free(srv, empty[k]);
    free(empty);
}

static void lobby_set(struct conn *c, bool on) {
    struct server *srv = c->srv;
    if (c->lobby == on) return;
    c->lobby = on;
    if (on) {
        c->lobby_next = srv->lobby;
        if (srv->lobby) srv->lobby->lobby_prev = c;
        srv->lobby = c;
        return;
    }
    if (c->lobby_prev)
        c->lobby_prev->lobby_next = c->lobby_next;
    else
        srv->lobby = c->lobby_next;
    if (c->lobby_next) c->lobby_next->lobby_prev = c->lobby_prev;
    c->lobby_prev = c->lobby_next = NULL;
}

void dispatch_conn_gone(struct conn *c) {
    struct server *srv = c->srv;
    engine_conn_gone(srv, c);
    review_conn_gone(srv, c);
    site_conn_gone(c);
    while (c->watch_count > 0) watch_remove(c, c->watched[c->watch_count - 1]);
    arenas_conn_gone(c);
    lobby_set(c, false);
    if (c->player && c->acting) {
        c->player = NULL; /* never one of its player's connections */
    } else if (c->player) {
        struct player *p = c->player;
        player_unlink(c);
        c->player = NULL;
        world_player_detach(srv->world, p, now_mono_ms(), &srv->events);
        dispatch_events(srv, &srv->events, NULL, NULL);
        if (!p->net_conns) site_player_gone(srv, p);
    }
}

/* ---- event delivery ---- */

struct delivery {
    struct net_msg *plain;
    struct net_msg *with_id; /* the requester's copy of the reply, or NULL */
    struct conn *requester;
    bool requester_served;
    const char *chat_from; /* a chat line's author: not shown to players who block it */
};

static void deliver(struct delivery *d, struct conn *c) {
    if (d->chat_from && c->player && world_player_blocks(c->player, d->chat_from)) return;
    if (c == d->requester && d->with_id) {
        if (d->requester_served) return;
        d->requester_served = true;
        conn_send(c, d->with_id);
        return;
    }
    conn_send(c, d->plain);
}

static void deliver_player(struct delivery *d, const struct player *p) {
    for (struct conn *c = p ? p->net_conns : NULL; c; c = c->player_next) deliver(d, c);
}

/* Spectators of a game: its watchers, except its players (white and black: ids), who get their
 * game's events through their player anyway. */
static void deliver_watchers(struct server *srv, struct delivery *d, const char *game,
                             const char *white, const char *black) {
    struct watch_list *w = game ? strmap_get(&srv->watchers, game) : NULL;
    for (int i = 0; w && i < w->count; i++) {
        struct conn *c = w->conns[i];
        if (c->player && ((white && strcmp(c->player->id, white) == 0) ||
                          (black && strcmp(c->player->id, black) == 0)))
            continue;
        deliver(d, c);
    }
}

/* Who gets a message: a game's players and/or spectators, one player, or the lobby. The players
 * are this node's (NULL when not here); the ids name them for the watch lists. */
struct recipients {
    enum core_target kind;
    const char *game;                   /* the game's id, or NULL */
    const char *white_id, *black_id;    /* its players' ids, or NULL */
    const struct player *white, *black; /* its players, when on this node */
    const struct player *player;        /* CORE_TO_PLAYER's recipient */
};

/* The one recipient resolver, for local and remote events alike. The reply reaches the
 * requester even when it is not among the recipients. */
static void deliver_to(struct server *srv, struct delivery *d, const struct recipients *to) {
    bool players = to->kind == CORE_TO_GAME || to->kind == CORE_TO_GAME_PLAYERS;
    bool spectators = to->kind == CORE_TO_GAME || to->kind == CORE_TO_GAME_SPECTATORS;
    if (players) {
        deliver_player(d, to->white);
        deliver_player(d, to->black);
    }
    if (spectators) deliver_watchers(srv, d, to->game, to->white_id, to->black_id);
    if (to->kind == CORE_TO_PLAYER) deliver_player(d, to->player);
    if (to->kind == CORE_TO_LOBBY)
        for (struct conn *c = srv->lobby; c; c = c->lobby_next) deliver(d, c);
    if (d->with_id && !d->requester_served && d->requester) {
        d->requester_served = true;
        conn_send(d->requester, d->with_id);
    }
}

/* The recipients of a local game's message. */
static struct recipients game_recipients(const struct game *g, enum core_target kind) {
    const struct player *white = g ? g->players[CHESS_WHITE] : NULL;
    const struct player *black = g ? g->players[CHESS_BLACK] : NULL;
    return (struct recipients){.kind = kind,
                               .game = g ? g->id : NULL,
                               .white_id = white ? white->id : NULL,
                               .black_id = black ? black->id : NULL,
                               .white = white,
                               .black = black};
}

void dispatch_deliver_remote(struct server *srv, const struct remote_delivery *rd) {
    struct delivery d = {.requester = rd->requester};
    d.plain = outmsg_create(rd->msg);
    if (rd->requester) {
        json_t *copy = json_copy((json_t *)rd->msg);
        if (copy && proto_set_id(copy, rd->requester_id) == 0) d.with_id = outmsg_create(copy);
        json_decref(copy);
    }
    const struct world *w = srv->world;
    struct recipients to = {
        .kind = rd->kind,
        .game = rd->game,
        .white_id = rd->white,
        .black_id = rd->black,
        .white = rd->white ? world_player_by_id(w, rd->white) : NULL,
        .black = rd->black ? world_player_by_id(w, rd->black) : NULL,
        .player = rd->player ? world_player_by_id(w, rd->player) : NULL,
    };
    if (d.plain)
        deliver_to(srv, &d, &to);
    else if (d.with_id)
        conn_send(rd->requester, d.with_id);
    net_msg_release(d.plain);
    net_msg_release(d.with_id);
}

void dispatch_to_game(struct server *srv, const struct game *g, json_t *msg, bool players,
                      bool spectators) {
    site_publish_to_game(srv, g, msg, players, spectators);
    struct net_msg *m = msg ? outmsg_create(msg) : NULL;
    json_decref(msg);
    if (!m || (!players && !spectators)) {
        net_msg_release(m);
        return;
    }
    struct delivery d = {.plain = m};
    struct recipients to = game_recipients(g, players && spectators ? CORE_TO_GAME
                                              : players             ? CORE_TO_GAME_PLAYERS
                                                                    : CORE_TO_GAME_SPECTATORS);
    deliver_to(srv, &d, &to);
    net_msg_release(m);
}

static void log_event(const struct core_event *ev) {
    const struct game *g = ev->game;
    if (ev->type == CORE_EV_GAME_STARTED) {
        LOGI("game", "game=%s started white=%s black=%s", g->id, g->players[0]->id,
             g->players[1]->id);
    } else if (ev->type == CORE_EV_GAME_ENDED) {
        LOGI("game", "game=%s ended result=%s reason=%s plies=%d", g->id,
             chess_result_name(g->chess.result), chess_termination_name(g->chess.termination),
             g->chess.ply_count);
    }
}

void dispatch_events(struct server *srv, struct core_events *events, struct conn *requester,
                     const json_t *id) {
    if (srv->finished) {
        /* The context is being destroyed: nobody is left to tell. */
        core_events_reset(events);
        return;
    }
    /* Written before anyone is told; messages wait for the commit (persist.c). */
    if (persist_record(srv, events) < 0) {
        core_events_reset(events);
        server_arm_world_timer(srv);
        return;
    }
    int64_t now = now_mono_ms();
    for (int i = 0; i < events->count; i++) {
        const struct core_event *ev = &events->items[i];
        log_event(ev);
        size_t len = 0;
        json_t *msg = NULL; /* for other nodes: the same encoding as the text */
        unsigned char *text =
            proto_encode_event_once(ev, now, NET_MSG_FRONT, &len, site_enabled(srv) ? &msg : NULL);
        struct delivery d = {.requester = requester, .plain = net_msg_adopt(text, len)};
        if (ev->type == CORE_EV_CHAT && ev->chat) d.chat_from = ev->chat->from_id;
        if (!d.plain) continue; /* nothing encoded: msg is NULL too */
        if (i == events->reply && requester) {
            /* The requester always gets the reply, with its id when it sent one. */
            if (id) d.with_id = outmsg_with_id(d.plain, id);
            if (!d.with_id) {
                d.with_id = d.plain;
                d.plain->refs++;
            }
        }
        if (site_enabled(srv)) {
            /* Other nodes get the event without the requester's id: their clients did not ask,
             * and one of them may be waiting for a reply with the same id (ids are each
             * connection's own). A forwarded request's node adds its client's id itself. */
            site_publish_event(srv, ev, msg, i == events->reply); /* after commit */
        }
        json_decref(msg);
        struct recipients to = game_recipients(ev->game, ev->target);
        to.player = ev->player;
        deliver_to(srv, &d, &to);
        net_msg_release(d.plain);
        net_msg_release(d.with_id);
    }
    engine_observe(srv, events); /* the computer's turn, a takeback, a game's end */
    core_events_reset(events);
    server_arm_world_timer(srv);
}

/* ---- connection-level messages ---- */

static void reply(struct conn *c, json_t *msg, const json_t *id) {
    if (!msg) {
        conn_send_error(c, -PROTO_ERR_INTERNAL, id, NULL);
        return;
    }
    proto_set_id(msg, id);
    conn_send_json(c, msg);
}

void dispatch_hello_player(struct conn *c, struct player *p, const char *token, const json_t *id) {
    struct server *srv = c->srv;
    int64_t now = now_mono_ms();
    if (p->banned || p->closed) {
        conn_send_error(c, p->closed ? -PROTO_ERR_ACCOUNT_CLOSED : -PROTO_ERR_BANNED, id, NULL);
        conn_close(c, NET_CLOSE_POLICY_VIOLATION, "banned");
        return;
    }
    player_link(c, p);
    /* Its session: the token it came with, or a new guest's. */
    c->has_session = token || p->token[0];
    if (c->has_session) auth_token_hash(token ? token : p->token, c->session_hash);
    /* A bot plays many games at once, as fast as its engine: a larger allowance. */
    if (p->bot) ratelimit_init(&c->limit, srv->cfg.bot_rate_burst, srv->cfg.bot_rate_per_s, now);
    LOGD("net", "conn=%llu hello player=%s%s", (unsigned long long)c->id, p->id,
         !token   ? " (new guest)"
         : p->bot ? " (bot)"
                  : " (returning)");
    /* The welcome (with the state of every game in progress, this player now connected)
     * goes first, then what the opponents are told. */
    world_player_attach(srv->world, p, now, &srv->events);
    reply(c, proto_encode_welcome(p, now), id);
    dispatch_events(srv, &srv->events, NULL, NULL);
    if (token) site_player_hello(srv, p); /* its games on other nodes follow the welcome */
    manage_session_seen(c);
    settings_hello(c); /* an account's settings follow its welcome */
}

void dispatch_api_hello(struct conn *c, struct player *p) {
    struct server *srv = c->srv;
    int64_t now = now_mono_ms();
    player_link(c, p);
    LOGD("net", "conn=%llu api player=%s", (unsigned long long)c->id, p->id);
    world_player_attach(srv->world, p, now, &srv->events);
    reply(c, proto_encode_welcome(p, now), NULL);
    dispatch_events(srv, &srv->events, NULL, NULL);
    site_player_hello(srv, p); /* its games on other nodes follow the welcome */
}

/* Identifies the connection: as the player a token names, or as a new guest (name may be
 * NULL). Returns 0 (the welcome is sent, or will be once the database answered) or an error
 * code. bearer: the token came with the upgrade request (a failure closes the connection). */
static int identify(struct conn *c, const char *token, const char *name, const json_t *id,
                    int64_t now, bool bearer) {
    struct server *srv = c->srv;
    struct player *p;
    if (token) {
        p = world_player_by_token(srv->world, token);
        /* Known before a restart, or a bot: looked up in the database off the loop; the
         * answer finishes the hello. So is an account's session every time, so that a session
         * revoked elsewhere (another node of a site, the operator's password reset) is refused
         * here too. */
        if (!p || (p->registered && !p->bot && srv->persist))
            return persist_hello_by_token(c, token, id, bearer);
    } else {
        p = world_player_create(srv->world, name, now);
        if (!p) return -CORE_ERR_NO_MEMORY;
        persist_player_created(srv, p);
    }
    dispatch_hello_player(c, p, token, id);
    return 0;
}

static int handle_hello(struct conn *c, const struct proto_request *req, int64_t now) {
    if (c->player) return -PROTO_ERR_ALREADY_IDENTIFIED;
    if (req->protocol != PROTO_VERSION) return -PROTO_ERR_UNSUPPORTED_PROTOCOL;
    return identify(c, req->token, req->name, req->id, now, false);
}

void dispatch_bearer_hello(struct conn *c, const char *token) {
    size_t len = strlen(token);
    bool valid = len > 0 && len <= 64;
    for (size_t i = 0; valid && i < len; i++)
        valid = (token[i] >= '0' && token[i] <= '9') || (token[i] >= 'a' && token[i] <= 'z') ||
                (token[i] >= 'A' && token[i] <= 'Z');
    int rc = valid ? identify(c, token, NULL, NULL, now_mono_ms(), true) : -PROTO_ERR_BAD_TOKEN;
    if (rc == 0) return;
    conn_send_error(c, rc, NULL, NULL);
    conn_close(c, NET_CLOSE_POLICY_VIOLATION, "bad token");
}

/* ---- the handlers: one per client message, named in proto/messages.def ---- */

/* A core command: the world applies it; the events (the reply among them) go out. */
static int handle_command(struct conn *c, const struct proto_request *req, int64_t now) {
    struct server *srv = c->srv;
    int rc = world_apply(srv->world, c->player, &req->cmd, now, &srv->events);
    if (rc == 0 && srv->events.reply < 0) reply(c, proto_encode_simple("ok"), req->id);
    dispatch_events(srv, &srv->events, c, rc == 0 ? req->id : NULL);
    return rc;
}

static int handle_computer_play(struct conn *c, const struct proto_request *req, int64_t now) {
    if (!engine_available(c->srv)) return -CORE_ERR_COMPUTER_UNAVAILABLE;
    return handle_command(c, req, now);
}

static int handle_ping(struct conn *c, const struct proto_request *req, int64_t now) {
    (void)now;
    json_t *pong = proto_encode_simple("pong");
    if (!pong) return -PROTO_ERR_INTERNAL;
    proto_set_id(pong, req->id);
    conn_send_plain(c, pong); /* announces nothing: no wait for other writes */
    return 0;
}

static int handle_lobby_subscribe(struct conn *c, const struct proto_request *req, int64_t now) {
    (void)now;
    lobby_set(c, true);
    json_t *seeks = proto_encode_seeks(c->srv->world);
    site_add_remote_seeks(c->srv, seeks);
    reply(c, seeks, req->id);
    return 0;
}

static int handle_lobby_unsubscribe(struct conn *c, const struct proto_request *req, int64_t now) {
    (void)now;
    lobby_set(c, false);
    reply(c, proto_encode_simple("ok"), req->id);
    return 0;
}

static int handle_challenge_get(struct conn *c, const struct proto_request *req, int64_t now) {
    (void)now;
    const struct seek *s = world_seek(c->srv->world, req->cmd.target);
    if (!s || !s->is_challenge) return -CORE_ERR_CHALLENGE_NOT_FOUND;
    reply(c, proto_encode_challenge(s), req->id);
    return 0;
}

static int handle_live_games(struct conn *c, const struct proto_request *req, int64_t now) {
    reply(c, site_live_games(c->srv, req->limit, now), req->id);
    return 0;
}

static int handle_my_games(struct conn *c, const struct proto_request *req, int64_t now) {
    json_t *mine = proto_encode_my_games(c->player, now);
    if (mine && site_my_games(c, req->id, mine)) return 0; /* the site's, gathered */
    reply(c, mine, req->id);
    return 0;
}

static int handle_watch(struct conn *c, const struct proto_request *req, int64_t now) {
    const struct game *g = world_game(c->srv->world, req->game);
    if (!g) return -CORE_ERR_GAME_NOT_FOUND;
    int rc = dispatch_watch_add(c, g->id);
    if (rc < 0) return rc;
    enum proto_viewer viewer =
        game_color_of(g, c->player) >= 0 ? PROTO_VIEWER_PLAYER : PROTO_VIEWER_SPECTATOR;
    reply(c, proto_encode_game_message("game", g, now, viewer), req->id);
    /* The number of spectators as last announced: a player's page (not counted) learns it too. */
    const struct watch_list *w = strmap_get(&c->srv->watchers, g->id);
    if (w && w->announced > 0) conn_send_json(c, proto_encode_spectators(g->id, w->announced));
    return 0;
}

static int handle_unwatch(struct conn *c, const struct proto_request *req, int64_t now) {
    (void)now;
    watch_remove(c, req->game);
    reply(c, proto_encode_simple("ok"), req->id);
    return 0;
}

static int handle_arena_list(struct conn *c, const struct proto_request *req, int64_t now) {
    (void)now;
    json_t *list = proto_encode_arena_list(c->srv->world);
    site_add_remote_arenas(c->srv, list);
    reply(c, list, req->id);
    return 0;
}

static int handle_arena_watch(struct conn *c, const struct proto_request *req, int64_t now) {
    (void)now;
    int rc = arenas_watch(c, req->arena);
    if (rc < 0) return rc;
    reply(c, proto_encode_arena(world_arena(c->srv->world, req->arena), c->player), req->id);
    return 0;
}

static int handle_arena_unwatch(struct conn *c, const struct proto_request *req, int64_t now) {
    (void)now;
    arenas_unwatch(c, req->arena);
    reply(c, proto_encode_simple("ok"), req->id);
    return 0;
}

static int handle_analyse(struct conn *c, const struct proto_request *req, int64_t now) {
    (void)now;
    return engine_analyse(c, req);
}

static int handle_analysis_stop(struct conn *c, const struct proto_request *req, int64_t now) {
    (void)now;
    return engine_analysis_stop(c, req);
}

static int handle_game_analysis_request(struct conn *c, const struct proto_request *req,
                                        int64_t now) {
    (void)now;
    return review_request(c, req);
}

static int handle_game_analysis_get(struct conn *c, const struct proto_request *req, int64_t now) {
    (void)now;
    return review_get(c, req);
}

static int handle_opening_lookup(struct conn *c, const struct proto_request *req, int64_t now) {
    (void)now;
    return opening_handle_lookup(c, req);
}

/* Accounts, bots and the archive need the database. */
#define STORE_HANDLER(name, call)                                                                  \
    static int name(struct conn *c, const struct proto_request *req, int64_t now) {                \
        (void)now;                                                                                 \
        if (!c->srv->persist) return -PROTO_ERR_STORE_UNAVAILABLE;                                 \
        return call;                                                                               \
    }
STORE_HANDLER(handle_register, accounts_handle(c, req, now))
STORE_HANDLER(handle_login, accounts_handle(c, req, now))
STORE_HANDLER(handle_logout, accounts_handle(c, req, now))
STORE_HANDLER(handle_bot_create, bots_handle(c->srv->bots, c, req))
STORE_HANDLER(handle_bot_token_create, bots_handle(c->srv->bots, c, req))
STORE_HANDLER(handle_bot_token_revoke, bots_handle(c->srv->bots, c, req))
STORE_HANDLER(handle_player_get, archive_handle(c, req, now))
STORE_HANDLER(handle_games_list, archive_handle(c, req, now))
STORE_HANDLER(handle_game_record, archive_handle(c, req, now))
STORE_HANDLER(handle_leaderboard, archive_handle(c, req, now))
STORE_HANDLER(handle_pgn_import, archive_handle(c, req, now))
STORE_HANDLER(handle_bots_list, archive_handle(c, req, now))
STORE_HANDLER(handle_report, moderation_handle(c, req))
STORE_HANDLER(handle_block, moderation_handle(c, req))
STORE_HANDLER(handle_unblock, moderation_handle(c, req))
STORE_HANDLER(handle_blocks_list, moderation_handle(c, req))
STORE_HANDLER(handle_mod_action, moderation_handle(c, req))
STORE_HANDLER(handle_report_resolve, moderation_handle(c, req))
STORE_HANDLER(handle_mod_reports, moderation_handle(c, req))
STORE_HANDLER(handle_mod_log, moderation_handle(c, req))
STORE_HANDLER(handle_password_change, manage_handle(c, req, now))
STORE_HANDLER(handle_sessions_list, manage_handle(c, req, now))
STORE_HANDLER(handle_session_revoke, manage_handle(c, req, now))
STORE_HANDLER(handle_sessions_revoke_all, manage_handle(c, req, now))
STORE_HANDLER(handle_account_delete, manage_handle(c, req, now))
STORE_HANDLER(handle_api_token_create, tokens_handle(c, req))
STORE_HANDLER(handle_api_tokens_list, tokens_handle(c, req))
STORE_HANDLER(handle_api_token_revoke, tokens_handle(c, req))
STORE_HANDLER(handle_settings_set, settings_handle(c, req))
#undef STORE_HANDLER

/* The handler table, from the declaration's handler column: adding a message is its row in
 * proto/messages.def and its handler here (or in the module the handler calls). */
typedef int (*message_handler)(struct conn *c, const struct proto_request *req, int64_t now);
static const message_handler handlers[PROTO_MSG_COUNT] = {
#define PROTO_CLIENT(name, type, who, core, handler, store, fields) [PROTO_MSG_##name] = handler,
#include "proto/messages.def"
};

void dispatch_refuse(struct conn *c, int code, const char *text, size_t len) {
    /* Decoded only for its id, which decoding keeps even when the message is bad (the outcome
     * does not matter: it is refused either way). */
    struct proto_request refused;
    (void)proto_decode(text, len, &refused);
    conn_send_error(c, code, refused.id, NULL);
    proto_request_clear(&refused);
}

void dispatch_message(struct conn *c, const char *text, size_t len, unsigned flags) {
    struct server *srv = c->srv;
    int64_t start_us = now_mono_us();
    int64_t now = start_us / 1000;
    struct proto_request req;
    int rc = proto_decode(text, len, &req);
    const char *type = req.spec ? req.spec->type : "invalid";
    metrics_family_add(&srv->metrics.messages_in, type, 1);
    if (rc == 0 && req.spec->needs_hello && !c->player) rc = -PROTO_ERR_HELLO_REQUIRED;
    /* About a game, seek or challenge of another node: its owner applies it (site.h). */
    if (rc == 0 && site_forward(c, &req, text, len, flags & DISPATCH_LOCATED)) {
        proto_request_clear(&req);
        metrics_hist_observe(&srv->metrics.handle_us, (double)(now_mono_us() - start_us));
        return;
    }
    if (rc == 0) rc = handlers[req.msg](c, &req, now);
    if (rc < 0) conn_send_error(c, rc, req.id, rc == -PROTO_ERR_BAD_FIELD ? req.field : NULL);
    proto_request_clear(&req);
    metrics_hist_observe(&srv->metrics.handle_us, (double)(now_mono_us() - start_us));
}
