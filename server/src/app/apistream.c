/*
 * The HTTP API's virtual connections (httpapi.h): an action is one protocol message on a
 * connection that acts for the token's player, answered with its reply; a stream is a
 * connection linked to the player like a WebSocket, whose messages become lichess's NDJSON
 * lines (lichess.h). Messages reach these connections after their writes are committed, as they
 * reach WebSockets, so an HTTP answer or a streamed line never announces anything uncommitted.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/httpapi.h"
#include "app/internal.h"
#include "app/lichess.h"
#include "proto/encode.h"
#include "util/log.h"
#include "util/now.h"

/* A newline at least this often on a stream (lichess's clients expect one every 7 s or so). */
#define STREAM_KEEPALIVE_MS 6000

/* The ids our messages carry on a virtual connection. */
#define ACTION_ID 1
#define WATCH_ID  2

static json_t *parse(struct net_msg *m) {
    return json_loadb((const char *)net_msg_data(m), m->len, 0, NULL);
}

static const char *str(const json_t *obj, const char *key) {
    const char *s = json_string_value(json_object_get(obj, key));
    return s ? s : "";
}

static bool has_id(const json_t *msg, json_int_t id) {
    const json_t *v = json_object_get(msg, "id");
    return json_is_integer(v) && json_integer_value(v) == id;
}

/* Sends one message (consumed) on the connection, as a client's. */
static int send_message(struct conn *c, json_t *msg, json_int_t id) {
    if (!msg) return -1;
    json_object_set_new(msg, "id", json_integer(id));
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text) return -1;
    conn_message(c, text, strlen(text), 0);
    free(text);
    return 0;
}

/* Our error reply as lichess's: {"error": text} with a status. */
static int answer_error(struct hapi *h, const json_t *reply) {
    unsigned status;
    const char *text = hapi_error_text(str(reply, "code"), &status);
    return hapi_error(h->req, status, text ? text : str(reply, "message"));
}

/* ---- actions ---- */

static void action_deliver(void *ctx, struct net_msg *m) {
    struct hapi *h = ctx;
    if (h->answered || !h->req) return;
    json_t *reply = parse(m);
    if (!reply || !has_id(reply, ACTION_ID)) {
        json_decref(reply);
        return;
    }
    h->answered = true;
    int rc = strcmp(str(reply, "type"), "error") == 0 ? answer_error(h, reply)
             : h->answer                              ? h->answer(h, reply)
                                                      : hapi_ok(h->req);
    json_decref(reply);
    if (rc < 0) net_http_abort(h->req);
}

/* The application closes the connection (the player banned, the server stopping). */
static void action_close(void *ctx, int code, const char *reason) {
    struct hapi *h = ctx;
    (void)code;
    if (h->answered || !h->req) return;
    h->answered = true;
    if (hapi_error(h->req, 401, reason ? reason : "closed") < 0) net_http_abort(h->req);
}

static const struct conn_sink action_sink = {action_deliver, action_close};

int hapi_act(struct hapi *h, json_t *msg, int (*answer)(struct hapi *h, const json_t *reply)) {
    struct player *p = hapi_player(h);
    if (!msg || !p) {
        json_decref(msg);
        return msg ? hapi_error(h->req, 401, "No such token") : -1;
    }
    h->kind = HAPI_ACTION;
    h->answer = answer;
    h->conn = conn_open_virtual(h->srv, net_http_addr(h->req), &action_sink, h);
    if (!h->conn) {
        json_decref(msg);
        return -1;
    }
    h->conn->player = p;
    h->conn->acting = true;
    json_t *then = h->then;
    h->then = NULL;
    int rc = send_message(h->conn, msg, ACTION_ID);
    /* What follows the first message goes right after it (a draw offered with a move). */
    if (rc == 0 && then && h->conn->open)
        rc = send_message(h->conn, then, ACTION_ID + 1);
    else
        json_decref(then);
    return rc;
}

void hapi_end(struct hapi *h) {
    struct conn *c = h->conn;
    h->conn = NULL;
    if (!c) return;
    /* A board seek goes with its request (lichess: "the seek stays as long as the connection"). */
    if (h->kind == HAPI_SEEK && h->seek_id[0] && c->open && world_seek(h->srv->world, h->seek_id))
        send_message(c, json_pack("{s:s,s:s}", "type", "seek_cancel", "seek", h->seek_id),
                     ACTION_ID + 2);
    conn_end_virtual(c);
}

/* ---- streams ---- */

static void push_line(struct hapi *h, json_t *line) {
    if (!line) return;
    char *text = h->req ? json_dumps(line, JSON_COMPACT) : NULL;
    json_decref(line);
    if (!text) return;
    size_t len = strlen(text);
    text[len] = '\n'; /* replaces the NUL: pushed with its length */
    net_http_push(h->req, text, len + 1);
    free(text);
}

static json_t *typed(const char *type, const char *key, json_t *value) {
    if (!value) return NULL;
    json_t *line = json_pack("{s:s,s:o}", "type", type, key, value);
    return line;
}

/* The event stream follows a game of its player: gameStart now, gameFinish at its end. */
static void events_game(struct hapi *h, const json_t *game) {
    const char *id = str(game, "id");
    if (!id[0] || json_object_get(h->games, id)) return;
    json_t *copy = json_deep_copy(game);
    if (!copy || json_object_set_new(h->games, id, copy) < 0) return;
    push_line(h, typed("gameStart", "game", lichess_game_event(copy, h->player_id)));
}

static void events_challenge(struct hapi *h, const json_t *challenge) {
    const char *id = str(challenge, "id");
    if (!id[0]) return;
    json_object_set(h->challenges, id, (json_t *)challenge);
    json_t *line = typed("challenge", "challenge", lichess_challenge(challenge, h->origin, NULL));
    if (line) json_object_set_new(line, "compat", json_pack("{s:b,s:b}", "bot", 1, "board", 1));
    push_line(h, line);
}

/* The direct challenges to and from the player that are open on this node, after its games. */
static void open_challenges(struct hapi *h) {
    for (const struct seek *s = world_seek_first(h->srv->world); s; s = s->next) {
        if (!s->is_challenge || !s->target) continue;
        if (strcmp(s->owner->id, h->player_id) != 0 && strcmp(s->target->id, h->player_id) != 0)
            continue;
        json_t *msg = proto_encode_challenge(s);
        events_challenge(h, json_object_get(msg, "challenge"));
        json_decref(msg);
    }
}

static void events_message(struct hapi *h, const json_t *msg) {
    const char *type = str(msg, "type");
    if (strcmp(type, "welcome") == 0) {
        size_t i;
        json_t *g;
        json_array_foreach(json_object_get(msg, "games"), i, g) events_game(h, g);
        open_challenges(h);
    } else if (strcmp(type, "game_started") == 0 || strcmp(type, "game") == 0) {
        events_game(h, json_object_get(msg, "game")); /* "game": one on another node */
    } else if (strcmp(type, "challenge_created") == 0 || strcmp(type, "challenge_received") == 0) {
        events_challenge(h, json_object_get(msg, "challenge"));
    } else if (strcmp(type, "challenge_removed") == 0) {
        const char *id = str(msg, "challenge"), *reason = str(msg, "reason");
        json_t *ours = json_object_get(h->challenges, id);
        if (!ours) return;
        const char *event = strcmp(reason, "declined") == 0   ? "challengeDeclined"
                            : strcmp(reason, "accepted") == 0 ? NULL
                                                              : "challengeCanceled";
        if (event) push_line(h, typed(event, "challenge", lichess_challenge(ours, h->origin, msg)));
        json_object_del(h->challenges, id);
    } else {
        json_t *game = json_object_get(h->games, str(msg, "game"));
        if (!game || !lichess_apply(game, msg) || strcmp(type, "game_end") != 0) return;
        push_line(h, typed("gameFinish", "game", lichess_game_event(game, h->player_id)));
        json_object_del(h->games, str(msg, "game"));
    }
}

/* The game stream's first line, from the reply to its watch. */
static void game_full(struct hapi *h, const json_t *msg) {
    if (strcmp(str(msg, "type"), "error") == 0) {
        h->answered = true;
        if (answer_error(h, msg) < 0) net_http_abort(h->req);
        return;
    }
    /* Only its players stream a game here (spectators watch over the WebSocket protocol). */
    const json_t *state = json_object_get(msg, "game");
    if (strcmp(str(json_object_get(state, "white"), "id"), h->player_id) != 0 &&
        strcmp(str(json_object_get(state, "black"), "id"), h->player_id) != 0) {
        h->answered = true;
        if (hapi_error(h->req, 404, "No such game") < 0) net_http_abort(h->req);
        return;
    }
    h->game = json_deep_copy(json_object_get(msg, "game"));
    if (!h->game ||
        net_http_push_start(h->req, 200, "application/x-ndjson", STREAM_KEEPALIVE_MS) < 0) {
        net_http_abort(h->req);
        return;
    }
    h->answered = h->started = true;
    push_line(h, lichess_game_full(h->game));
    if (strcmp(str(h->game, "status"), "ended") == 0) net_http_push_end(h->req);
}

static void game_message(struct hapi *h, const json_t *msg) {
    const char *type = str(msg, "type");
    if (!h->started) {
        if (has_id(msg, WATCH_ID)) game_full(h, msg);
        return;
    }
    if (strcmp(str(msg, "game"), h->args[0]) != 0) return;
    bool state_change = lichess_apply(h->game, msg);
    if (h->deferred && !state_change) {
        hapi_undefer(h); /* the state that waited goes before a chat line or a presence */
        hapi_flush(h);
    }
    if (strcmp(type, "chat") == 0) {
        push_line(h, lichess_chat_line(msg));
    } else if (strcmp(type, "presence") == 0) {
        const char *mine = strcmp(str(json_object_get(h->game, "white"), "id"), h->player_id) == 0
                               ? "white"
                               : "black";
        if (strcmp(str(msg, "color"), mine) == 0) return;
        json_t *line = json_pack("{s:s,s:b}", "type", "opponentGone", "gone",
                                 !json_is_true(json_object_get(msg, "connected")));
        json_t *after = json_object_get(msg, "claim_after_ms");
        if (line && json_is_integer(after))
            json_object_set_new(line, "claimWinInSeconds",
                                json_integer((json_integer_value(after) + 999) / 1000));
        push_line(h, line);
    } else if (state_change) {
        /* The state waits for the end of the loop's turn: what follows in the same turn (the
         * game's end after a mating move, a draw offered with a move) goes in one gameState. */
        if (strcmp(type, "game_end") != 0) {
            hapi_defer(h);
            return;
        }
        hapi_undefer(h);
        push_line(h, lichess_game_state(h->game));
        net_http_push_end(h->req);
    }
}

void hapi_flush(struct hapi *h) {
    if (h->req && h->game) push_line(h, lichess_game_state(h->game));
}

/* A board seek: its creation is the answer (a stream of keep-alive newlines); it ends when a
 * game starts from it. */
static void seek_message(struct hapi *h, const json_t *msg) {
    const char *type = str(msg, "type");
    if (has_id(msg, ACTION_ID)) {
        if (strcmp(type, "error") == 0) {
            h->answered = true;
            if (answer_error(h, msg) < 0) net_http_abort(h->req);
            return;
        }
        snprintf(h->seek_id, sizeof h->seek_id, "%s", str(json_object_get(msg, "seek"), "id"));
        h->answered = true;
        if (net_http_push_start(h->req, 200, "application/x-ndjson", STREAM_KEEPALIVE_MS) < 0)
            net_http_abort(h->req);
        return;
    }
    if (strcmp(type, "game_started") == 0 && h->seek_id[0] &&
        !world_seek(h->srv->world, h->seek_id)) {
        h->seek_id[0] = '\0'; /* accepted: nothing to cancel */
        net_http_push_end(h->req);
    }
}

static const struct conn_sink stream_sink; /* below */

/* /api/account/playing on a site: the games as the player's hello gathers them. */
static void playing_message(struct hapi *h, const json_t *msg) {
    const char *type = str(msg, "type");
    if (strcmp(type, "welcome") == 0) {
        size_t i;
        json_t *g;
        json_array_foreach(json_object_get(msg, "games"), i, g)
            json_object_set(h->games, str(g, "id"), g);
    } else if (strcmp(type, "game") == 0 || strcmp(type, "game_started") == 0) {
        json_t *g = json_object_get(msg, "game");
        if (strcmp(str(g, "status"), "playing") == 0) json_object_set(h->games, str(g, "id"), g);
    }
}

int hapi_playing(struct hapi *h) {
    struct player *p = hapi_player(h);
    h->kind = HAPI_PLAYING;
    h->games = json_object();
    if (!p || !h->games) return -1;
    h->conn = conn_open_virtual(h->srv, net_http_addr(h->req), &stream_sink, h);
    if (!h->conn) return -1;
    dispatch_api_hello(h->conn, p);
    return 0;
}

/* lichess's order of nowPlaying: the games where it is the player's turn first, each part by
 * the time left (least first; games without a clock last). */
static long long seconds_left(const json_t *ev) {
    json_t *left = json_object_get(ev, "secondsLeft");
    return json_is_integer(left) ? json_integer_value(left) : LLONG_MAX;
}

static int playing_order(const void *a, const void *b) {
    const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    bool tx = json_is_true(json_object_get(x, "isMyTurn"));
    bool ty = json_is_true(json_object_get(y, "isMyTurn"));
    if (tx != ty) return tx ? -1 : 1;
    long long lx = seconds_left(x), ly = seconds_left(y);
    return lx < ly ? -1 : lx > ly;
}

int hapi_playing_answer(struct hapi *h) {
    size_t n = json_object_size(h->games), count = 0;
    json_t **events = calloc(n + 1, sizeof *events);
    json_t *list = json_array();
    const char *id;
    json_t *g;
    json_object_foreach(h->games, id, g) {
        json_t *ev = events ? lichess_game_event(g, h->player_id) : NULL;
        if (ev) events[count++] = ev;
    }
    if (count > 1) qsort(events, count, sizeof *events, playing_order);
    for (size_t i = 0; i < count; i++) {
        if (list)
            json_array_append_new(list, events[i]);
        else
            json_decref(events[i]);
    }
    free(events);
    h->answered = true;
    return api_send_json(h->req, 200, json_pack("{s:o}", "nowPlaying", list ? list : json_array()));
}

static void stream_deliver(void *ctx, struct net_msg *m) {
    struct hapi *h = ctx;
    if (!h->req) return;
    json_t *msg = parse(m);
    if (!msg) return;
    if (h->kind == HAPI_PLAYING)
        playing_message(h, msg);
    else if (h->kind == HAPI_EVENTS)
        events_message(h, msg);
    else if (h->kind == HAPI_SEEK)
        seek_message(h, msg);
    else
        game_message(h, msg);
    json_decref(msg);
}

/* The application closes the connection: the stream ends (or, not yet started, is refused). */
static void stream_close(void *ctx, int code, const char *reason) {
    struct hapi *h = ctx;
    (void)code;
    if (!h->req) return;
    if (!h->answered) { /* a game stream or a seek not yet answered */
        h->answered = true;
        if (hapi_error(h->req, 401, reason ? reason : "closed") < 0) net_http_abort(h->req);
        return;
    }
    net_http_push_end(h->req);
}

static const struct conn_sink stream_sink = {stream_deliver, stream_close};

int hapi_seek(struct hapi *h, json_t *msg) {
    struct player *p = hapi_player(h);
    if (!p) {
        json_decref(msg);
        return hapi_error(h->req, 401, "No such token");
    }
    h->kind = HAPI_SEEK;
    h->conn = conn_open_virtual(h->srv, net_http_addr(h->req), &stream_sink, h);
    if (!h->conn) {
        json_decref(msg);
        return -1;
    }
    dispatch_api_hello(h->conn, p); /* the seek's owner is connected while the request is open */
    return send_message(h->conn, msg, ACTION_ID);
}

int hapi_stream(struct hapi *h) {
    struct player *p = hapi_player(h);
    if (!p) return hapi_error(h->req, 401, "No such token");
    if (h->kind == HAPI_GAME && !hapi_take_stream_key(h))
        return hapi_error(h->req, 429, "This game is already streamed with this token");
    h->games = json_object();
    h->challenges = json_object();
    if (!h->games || !h->challenges) return -1;
    /* The event stream starts at once; a game stream once its game is known (404 otherwise). */
    if (h->kind == HAPI_EVENTS) {
        if (net_http_push_start(h->req, 200, "application/x-ndjson", STREAM_KEEPALIVE_MS) < 0)
            return -1;
        h->answered = true;
    }
    h->conn = conn_open_virtual(h->srv, net_http_addr(h->req), &stream_sink, h);
    if (!h->conn) return -1;
    dispatch_api_hello(h->conn, p);
    if (h->kind != HAPI_GAME || !h->conn->open) return 0;
    return send_message(h->conn, json_pack("{s:s,s:s}", "type", "watch", "game", h->args[0]),
                        WATCH_ID);
}
