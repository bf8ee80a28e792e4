/*
 * The lichess-compatible HTTP API (docs/http-api.md): the Bot and Board APIs, challenges, the
 * account and user endpoints, with personal API tokens (Authorization: Bearer) and their scopes.
 *
 * A second transport over the same application: an API request that acts (a move, a resign, a
 * challenge) becomes one of our protocol messages, dispatched on a virtual connection that acts
 * for the token's player (client.c, conn_open_virtual); its reply becomes the HTTP answer, once
 * committed, as a WebSocket client's would. A stream (/api/stream/event, the game streams) is a
 * virtual connection linked to the player like a WebSocket, whose messages lichess.c turns into
 * NDJSON lines. So spectators, clocks, durability, ratings and the site of several nodes work for
 * API players exactly as for WebSocket players.
 *
 * httpapi.c: routes, tokens (looked up off the loop, kept for a few seconds), scopes, rate
 * limits, and the endpoints that only read. apistream.c: the virtual connections (actions and
 * streams). Loop thread only.
 */
#ifndef SERVER_APP_HTTPAPI_H
#define SERVER_APP_HTTPAPI_H

#include <jansson.h>
#include <stdbool.h>

#include "app/reads.h"
#include "net/net.h"
#include "store/types.h"

struct server;
struct api_call;
struct player;
struct conn;
struct httpapi;

/* The API's state (token cache, rate limits, open streams). NULL when memory runs out. */
struct httpapi *httpapi_create(void);
void httpapi_free(struct httpapi *api);

/* A request for path: answered (0), dropped (-1), or 1 when no route of the API matches (the
 * application's other endpoints then). */
int httpapi_request(struct server *srv, struct net_http *req, const char *path);

/* The transport's request behind call is over: its stream or action ends. */
void httpapi_closed(struct api_call *call);

/* A store result: a bot upgrade's, when it is the API's (its cookie). */
struct store_result;
void httpapi_on_result(struct server *srv, const struct store_result *r);

/* The loop is ending: the API's loop handle closes. */
void httpapi_detach(struct server *srv);

/* Housekeeping (every 100 ms): expired cache entries and rate limits are dropped. */
void httpapi_tick(struct server *srv, int64_t now_ms);

/* ---- between httpapi.c and apistream.c ---- */

#define HAPI_ARGS       2
#define HAPI_ARG_MAX    64
#define HAPI_ID_MAX     (STORE_ID_MAX + 1)
#define HAPI_KEY_MAX    17 /* a token's key: its hash's first 8 bytes in hex */
#define HAPI_SCOPES_MAX 256

enum hapi_kind {
    HAPI_PLAIN,   /* answered by httpapi.c */
    HAPI_ACTION,  /* a protocol message; its reply is the answer */
    HAPI_EVENTS,  /* /api/stream/event */
    HAPI_GAME,    /* a game stream */
    HAPI_SEEK,    /* a board seek, held while the request is open */
    HAPI_PLAYING, /* /api/account/playing on a site: the games other nodes hold, gathered */
    HAPI_REMOTE,  /* a read another node of the site answers (its arena's): waiting for it */
};

/* One API request in progress (attached to the transport's request through its api_call). */
struct hapi {
    struct server *srv;
    struct api_call *call;
    struct net_http *req; /* NULL once the request is over */
    enum hapi_kind kind;
    char args[HAPI_ARGS][HAPI_ARG_MAX]; /* the path's variable segments */
    char player_id[HAPI_ID_MAX];        /* the token's player */
    char scopes[HAPI_SCOPES_MAX];       /* its scopes, comma-separated */
    char token_key[HAPI_KEY_MAX];
    int64_t created_at; /* the token's player's account, wall ms */
    char origin[300];   /* "http://host" for URLs */
    struct conn *conn;  /* the virtual connection, or NULL */
    /* Actions: the message, its reply's conversion, what follows. */
    int (*answer)(struct hapi *h, const json_t *reply);
    json_t *then; /* a second message sent once the first succeeded (a move's draw offer) */
    bool answered;
    /* The event stream: the games (id -> our state) and challenges (id -> ours) it follows. A
     * game stream: its game's state (ours), kept up to date with its events. */
    json_t *games, *challenges, *game;
    bool started;  /* a game stream: its gameFull is out */
    bool deferred; /* a game stream: its gameState waits for the end of the loop's turn */
    struct hapi *deferred_next;
    bool stream_key_held; /* a game stream: its (token, game) key is registered */
    char stream_key[HAPI_KEY_MAX + HAPI_ARG_MAX + 2];
    char seek_id[HAPI_ID_MAX]; /* a board seek's, once created */
    char upgrade_key[24];      /* a bot upgrade's cookie in decimal, while it is written */
    int64_t due_ms;            /* HAPI_PLAYING, HAPI_REMOTE: when to answer (monotonic) */
    struct hapi *due_next;     /* HAPI_PLAYING, HAPI_REMOTE: the requests waiting for their time */
    uint64_t remote_request;   /* HAPI_REMOTE: its number, which the other node's answer names */
    bool remote_ndjson;        /* HAPI_REMOTE: the answer is NDJSON (else JSON) */
    int remote_awaited;        /* HAPI_REMOTE, gathering: the nodes that have not answered yet */
    json_t *remote_gathered;   /* HAPI_REMOTE, gathering: the lists so far, or NULL */
    int (*gathered)(struct hapi *h, json_t *lists); /* HAPI_REMOTE, gathering: answers */
};

/* Sends the JSON error lichess sends: {"error": text}. Returns 0 or -1. */
int hapi_error(struct net_http *req, unsigned status, const char *text);

/* Sends {"ok": true}. */
int hapi_ok(struct net_http *req);

/* The player of the request's token (in the world). NULL when it has gone. */
struct player *hapi_player(struct hapi *h);

/* A field of the request's form (application/x-www-form-urlencoded, or a JSON object's string,
 * number or boolean) into out; NULL when absent. */
const char *hapi_form_field(struct hapi *h, const char *name, char *out, size_t size);

/* Whether the token has one of these scopes (comma-separated). */
bool hapi_has_scope(const struct hapi *h, const char *any_of);

/* apistream.c: runs msg (consumed; its id is set here) on a virtual connection acting for the
 * token's player; answer(h, reply) turns the reply into the HTTP answer (NULL: {"ok": true} or
 * the error). Returns 0 (answered later) or -1. */
int hapi_act(struct hapi *h, json_t *msg, int (*answer)(struct hapi *h, const json_t *reply));

/* apistream.c: opens the event stream or a game stream (h->kind, args[0]: the game). */
int hapi_stream(struct hapi *h);

/* apistream.c: a board seek (msg: seek_create, consumed) held while the request stays open. */
int hapi_seek(struct hapi *h, json_t *msg);

/* apistream.c: /api/account/playing on a site of several nodes: the player's games, as its
 * hello on this node gathers them (its games here in the welcome, the others' as they send
 * them), answered at h->due_ms (httpapi_tick). */
int hapi_playing(struct hapi *h);

/* apistream.c: the games in h->games (id -> our state), as lichess's nowPlaying. */
int hapi_playing_answer(struct hapi *h);

/* A new number for a request another node answers (site_arena_get). */
uint64_t hapi_next_remote_id(struct server *srv);

/* The request waits for another node's answer (httpapi_remote_answer), at most a few seconds:
 * then it gets 504. ndjson: the answer's type (else JSON). */
void hapi_wait_remote(struct hapi *h, uint64_t request, bool ndjson);

/* The request (a tournament list: app/apitourney.c) gathers the lists of `nodes` (at least 1)
 * other nodes into `here` (this node's: an object of arrays, taken over), each node's arrays
 * appended to the same-named ones; answer(h, gathered) answers it once all have answered or
 * after at most a second. */
void hapi_gather_remote(struct hapi *h, uint64_t request, int nodes, json_t *here,
                        int (*answer)(struct hapi *h, json_t *gathered));

/* Another node's answer to a request (status 200 with its body, 404 when it did not have the
 * arena, else 503); nothing when the request is gone or was answered already. */
void httpapi_remote_answer(struct server *srv, uint64_t request, int status, const char *body,
                           size_t len);

/* apistream.c: the request is over. */
void hapi_end(struct hapi *h);

/*
 * A read about the user a path names ({username}: h->args[0]), off the loop: the user's
 * identity, then more (NULL: nothing more) on the reader thread with it; then, on the loop,
 * send(h, r) answers, or 404 (no such user) or 503 (no database, busy or unavailable). The
 * embedding request (r first in it, calloc'ed by the caller with its size) is handed over:
 * hapi_read_user frees it on failure. Returns 0 (answered later, or refused) or -1.
 */
struct hapi_user_read {
    struct db_read base; /* first */
    char username[STORE_USERNAME_MAX + 1];
    struct store_identity id;
    void (*more)(struct store_reader *reader, struct hapi_user_read *r);
    int (*send)(struct hapi *h, struct hapi_user_read *r);
};
int hapi_read_user(struct hapi *h, struct hapi_user_read *r);

/* A lichess error text for one of our error codes, and its HTTP status. */
const char *hapi_error_text(const char *code, unsigned *status);

/* httpapi.c: takes (token, game) for a game stream. Returns false when another stream holds
 * it. */
bool hapi_take_stream_key(struct hapi *h);

/* httpapi.c: h's line waits until the end of the loop's turn, when hapi_flush(h) is called:
 * a move that ends the game is followed by its end in the same turn, and lichess tells both in
 * one gameState. */
void hapi_defer(struct hapi *h);
void hapi_undefer(struct hapi *h);

/* apistream.c: pushes what waited (hapi_defer). */
void hapi_flush(struct hapi *h);

/* httpapi.c: the game stream key (token, game) is free again. */
void hapi_release_stream_key(struct hapi *h);

#endif
