/*
 * What the application's files share: the server and client structures, outbound messages, and
 * the functions that cross files (dispatch.c, api.c, client.c, server.c). Not for use outside
 * app/.
 *
 * Everything here belongs to the loop thread.
 */
#ifndef SERVER_APP_INTERNAL_H
#define SERVER_APP_INTERNAL_H

#include <jansson.h>
#include <signal.h>
#include <uv.h>

#include "app/config.h"
#include "core/ratelimit.h"
#include "core/world.h"
#include "metrics/metrics.h"
#include "net/net.h"
#include "util/strmap.h"

struct password_result;
struct site_ops;
struct store_result;

/* Serialises a message once into a block the transport sends (refs = 1). Returns NULL when
 * memory runs out. */
struct net_msg *outmsg_create(const json_t *msg);

/* A copy of a message (an object) with the request id added; NULL when memory runs out. */
struct net_msg *outmsg_with_id(struct net_msg *m, const json_t *id);

/*
 * Where a connection's messages go when it is not a WebSocket: the HTTP API's requests and
 * streams (app/httpapi.c) are connections of their own whose outbound messages are handed to
 * deliver (a reference is taken for the call only), and close asks their owner to end them.
 */
struct conn_sink {
    void (*deliver)(void *ctx, struct net_msg *m);
    void (*close)(void *ctx, int code, const char *reason);
};

/* One client's connection, as the application sees it: a WebSocket, or a virtual one of the
 * HTTP API (conn_open_virtual). Freed only from the housekeeping timer, never inside its own
 * callback chain: the transport's ws_closed (or conn_end_virtual) unlinks it and puts it on the
 * server's free list. */
struct conn {
    struct net_conn *net;         /* the transport's connection; NULL once it has closed (and always
                                   * for a virtual connection: open says whether it is open) */
    const struct conn_sink *sink; /* a virtual connection's; NULL for a WebSocket */
    void *sink_ctx;
    bool open;   /* not yet closed */
    bool acting; /* acts for player without being one of its connections (an API request) */
    struct server *srv;
    uint64_t id;
    char addr[NETADDR_TEXT_MAX];            /* the client's, behind trusted proxies */
    struct player *player;                  /* after hello */
    struct conn *player_prev, *player_next; /* the player's connections */
    struct conn *all_prev, *all_next;       /* every open connection */
    bool lobby;                             /* receives seek list updates */
    struct conn *lobby_prev, *lobby_next;
    char (*watched)[GAME_ID_LEN + 1]; /* games watched (ids) */
    int watch_count;
    char arenas_watched[8][ARENA_ID_LEN + 1]; /* arenas watched (app/arenas.h's WATCH_MAX) */
    int arena_watch_count;
    struct ratelimit limit;
    int abuse;      /* refused messages in a row */
    int held;       /* messages held until a commit (persist.c); the close waits for them */
    int close_code; /* nonzero: closing with this code once the held messages are out */
    const char *close_reason;
    bool reading;      /* a database read for it is outstanding (reads.c) */
    char read_key[24]; /* its id in decimal: its key while reading */
    /* The inbound queue (client.c): messages wait here, in order, while an earlier one waits for
     * an answer (a database read, a site lookup); one drain point hands them to dispatch. */
    struct inbound *inbox_head, *inbox_tail;
    int inbox_count;
    int waits;     /* answers the connection waits for (conn_wait / conn_resume) */
    bool draining; /* inside the drain: a message in hand, no other may start */
    /* The hash of the token it said hello with (app/auth.h): its session, for an account. */
    uint8_t session_hash[32];
    bool has_session;
    struct conn *free_next;
};

/* A one-shot timer on the loop. */
struct loop_timer {
    uv_timer_t uv;
    struct server *srv;
    void (*fire)(struct server *srv);
    bool initialised;
};

/* Spectators of one game (by id, so an evicted game leaves nothing dangling). Kept while a
 * change of its number of spectators waits to be announced, even with no connection left. */
struct watch_list {
    char id[GAME_ID_LEN + 1];
    struct conn **conns;
    int count;
    size_t cap;
    int announced;         /* the number of spectators last announced */
    bool dirty;            /* a connection came or went since */
    int64_t next_announce; /* not before (monotonic ms): at most one announcement a second */
};

struct server {
    struct server_config cfg;
    struct world *world;
    struct persist *persist; /* the store's side (persist.c); NULL without a database */
    struct engine *engine;   /* the computer's side (engine.c); NULL before engine_attach */
    struct cluster *cluster; /* the site's state (site/), opaque here; NULL without --redis */
    const struct site_ops *site_ops; /* the site's functions (site.h); NULL without --redis */
    struct accounts *accounts;       /* register, login, logout in progress (accounts.c) */
    struct bots *bots;               /* bot account changes in progress (bots.c) */
    struct moderation *moderation;   /* moderation requests in progress (moderation.c) */
    struct manage *manage;     /* password changes, sessions, deletions in progress (manage.c) */
    struct httpapi *httpapi;   /* the lichess-compatible HTTP API's state (httpapi.h) */
    struct tokens *tokens;     /* API token changes in progress (tokens.c) */
    struct settings *settings; /* player settings changes in progress (settings.c) */
    struct review *review;     /* computer analysis of finished games (review.c) */
    struct adoption *adoption; /* a dead node's games being adopted (adopt.c), or NULL */
    uint64_t adoptions_total;  /* adoptions started (their cookies) */
    /* A store result that is not a commit: handed to the accounts and bots (server.c). */
    void (*store_result)(struct server *srv, const struct store_result *result);
    /* A password hashed or verified (app/password.h): handed to the accounts (server.c). */
    void (*password_result)(struct server *srv, const struct password_result *result);
    struct core_events events;
    struct net *net;   /* the transport, which owns the loop */
    struct wake *wake; /* results from other threads (wake.h) */
    struct metrics metrics;
    int64_t started_wall_ms; /* when the server started (process_start_time_seconds) */
    struct conn *conns;      /* every open connection */
    int conn_count;
    uint64_t virtual_conns_total;   /* virtual connections opened (their ids) */
    int players_here;               /* players with at least one of those connections */
    struct conn *lobby;             /* lobby subscribers */
    struct strmap watchers;         /* game id -> struct watch_list */
    struct strmap arena_watchers;   /* arena id -> its watchers (app/arenas.c) */
    struct strmap arena_live_notes; /* at startup: live arena games to restore (app/arenas.c) */
    int64_t arena_schedule_next_ms; /* the next look at the operator's schedule */
    /* the operator's arenas not finished that the store held at startup, any node's (arenas.c) */
    struct scheduled_arena *arenas_scheduled;
    size_t arenas_scheduled_count, arenas_scheduled_cap;
    int watchers_dirty; /* watch lists with a change to announce */
    struct conn *to_free;
    struct loop_timer world_timer;  /* the world's next deadline */
    int64_t world_timer_at;         /* when it is set for (ms), or GCLOCK_NEVER */
    struct loop_timer house_timer;  /* housekeeping every 100 ms */
    struct loop_timer backup_timer; /* the next online backup (backup.c; armed when on) */
    int64_t backup_interval_ms;     /* 0: no backups */
    volatile sig_atomic_t stop_requested;
    bool stopping;
    int64_t stop_deadline_ms;
    bool finished;
};

/* ---- client.c ---- */

/* The transport's WebSocket callbacks (net_handler): a connection opens, a complete message
 * arrives, the connection is gone. */
void *conn_open(void *srv, struct net_conn *nc, const char *addr, const char *bearer);
void conn_message(void *conn, const char *text, size_t len, unsigned flags);
void conn_closed(void *conn);

/* A virtual connection (the HTTP API's): messages go to sink (with ctx); addr is the client's.
 * Returns NULL when memory runs out. */
struct conn *conn_open_virtual(struct server *srv, const char *addr, const struct conn_sink *sink,
                               void *ctx);

/* Ends a virtual connection as the transport's ws_closed ends a WebSocket (its player detached,
 * its requests dropped); it is freed later. */
void conn_end_virtual(struct conn *c);

/* Sends a message (taking a reference). While writes wait for the disk the message is held
 * first (persist.c) and sent once they are committed. */
void conn_send(struct conn *c, struct net_msg *m);

/* conn_send() without holding: for messages whose writes are committed. */
void conn_enqueue(struct conn *c, struct net_msg *m);

/* Encodes, serialises and sends one message to one connection; consumes msg. */
void conn_send_json(struct conn *c, json_t *msg);

/* Sends an error with the request's id (may be NULL) and the offending field (may be NULL). */
void conn_send_error(struct conn *c, int code, const json_t *id, const char *field);

/* Closes once the held messages are out and the transport's queue is flushed, with a close code
 * (enum net_close_code) and reason (a static string). Messages sent after this are dropped,
 * except at shutdown (NET_CLOSE_GOING_AWAY). */
void conn_close(struct conn *c, int code, const char *reason);

/* Sends a message that announces no write (a pong, an error for bad input): at once, unless
 * messages held for this connection are still waiting (its order is kept). Consumes msg. */
void conn_send_plain(struct conn *c, json_t *msg);

/* The message in hand waits for an answer (a database read, a site lookup): the connection's
 * later messages queue behind it until conn_resume(). */
void conn_wait(struct conn *c);

/* The answer conn_wait() waited for is handled: the queued messages run, in order, until one
 * waits again. */
void conn_resume(struct conn *c);

/* The message in hand is to run again, here, before the queued ones (a located direct
 * challenge, site/relay.c): dispatch gets it with DISPATCH_LOCATED. Call before conn_resume().
 * Returns 0, or -1 when memory runs out (the message is refused). */
int conn_retry_located(struct conn *c, const char *text, size_t len);

/* Most messages queued behind one waiting for an answer; beyond that they are refused with
 * RATE_LIMITED. */
#define CONN_INBOX_MAX 64

/* A held message's turn has come: the close waits for the last one (persist.c). */
void conn_held_released(struct conn *c);

/* Frees connections closed since the last call. */
void conn_free_closed(struct server *srv);

/* ---- dispatch.c ---- */

/* Handles one complete client text message (text is NUL-terminated at len), from the
 * connection's inbound queue (client.c) only. flags: DISPATCH_LOCATED for a direct challenge
 * whose invited player the site was asked about already (site/relay.c). */
#define DISPATCH_LOCATED 1u
void dispatch_message(struct conn *c, const char *text, size_t len, unsigned flags);

/* Refuses a message with an error (code) that carries the message's id when it has a usable
 * one: the message is decoded for nothing else. */
void dispatch_refuse(struct conn *c, int code, const char *text, size_t len);

/* The end of a hello once its player is known (found in the world, created, or read from the
 * database; token: the one it came with, NULL for a new guest): links the connection, sends the
 * welcome with the request's id, tells the others. */
void dispatch_hello_player(struct conn *c, struct player *p, const char *token, const json_t *id);

/* The hello of a virtual connection of the HTTP API for its token's player: linked to the player
 * like a WebSocket (its welcome, then the player's events), without a session. */
void dispatch_api_hello(struct conn *c, struct player *p);

/* Delivers events (from a request, a tick, or a connection change). requester and id: the
 * connection that asked and its request id, for the reply event (may be NULL). */
void dispatch_events(struct server *srv, struct core_events *events, struct conn *requester,
                     const json_t *id);

/* Sends a message (consumed) to a game's players and/or its spectators, in order with the
 * game's events. */
void dispatch_to_game(struct server *srv, const struct game *g, json_t *msg, bool players,
                      bool spectators);

/* Identifies a new connection by the token of its upgrade request's "Authorization: Bearer"
 * header, as hello with that token would (the welcome is its first message). A bad token gets
 * BAD_TOKEN and the connection is closed (1008). */
void dispatch_bearer_hello(struct conn *c, const char *token);

/* An event of a game or lobby owned by another node (site/), addressed by ids. */
struct remote_delivery {
    enum core_target kind;
    const char *game;          /* the game's id (spectators), or NULL */
    const char *white, *black; /* the game's players' ids, or NULL */
    const char *player;        /* CORE_TO_PLAYER's recipient, or NULL */
    const json_t *msg;         /* the message (borrowed) */
    struct conn *requester;    /* gets the copy with requester_id, or NULL */
    const json_t *requester_id;
};

/* Delivers a remote event to this node's connections, as dispatch_events() routes local ones. */
void dispatch_deliver_remote(struct server *srv, const struct remote_delivery *rd);

/* Adds a game (by id; it may be on another node) to what the connection watches. Returns 0 or
 * -PROTO_ERR_TOO_MANY_WATCHED / -PROTO_ERR_INTERNAL. */
int dispatch_watch_add(struct conn *c, const char *id);

/* Removes a closing connection from watch lists and the lobby, and detaches its player. */
void dispatch_conn_gone(struct conn *c);

/*
 * Tells the players and spectators of this node's games how many people watch them (here and,
 * on a site, on the other nodes), and the owners of other nodes' games how many watch them here,
 * where it changed (housekeeping).
 */
void dispatch_announce_spectators(struct server *srv, int64_t now_ms);

/* The number of a game's spectators may have changed (another node reported its own). */
void dispatch_spectators_changed(struct server *srv, const char *game);

/* Re-arms the world timer after anything that may have moved its deadline. */
void server_arm_world_timer(struct server *srv);

/* (Re)arms the backup timer to fire once after delay_ms (backup.c). */
void server_arm_backup_timer(struct server *srv, int64_t delay_ms);

/* ---- review.c (app/review.h has the rest) ---- */

struct pool_event;
struct store_reader;

/* At startup, before the store's threads start (persist.c): loads this node's analyses under
 * way with their games, to resume once the engine is attached. Returns 0 or a negative
 * enum store_status. */
int review_load(struct server *srv, struct store_reader *reader);

/* The engine is attached (engine.c): starts searching the loaded analyses. */
void review_start(struct server *srv);

/* A REVIEW job's event from the pool (engine.c hands it over). */
void review_on_event(struct server *srv, const struct pool_event *ev);

/* ---- httpapi.c ---- */

/* Tokens were revoked (an API token, a bot's tokens, an account deleted): the tokens the HTTP
 * API keeps for a few seconds are forgotten, so that none of them works a moment longer here. */
void httpapi_forget_tokens(struct server *srv);

/* ---- api.c ---- */

/* The transport's HTTP callbacks (net_handler): a GET for the application's paths, the next
 * batch of a streamed answer, a request that is over. */
enum net_http_outcome api_request(void *srv, struct net_http *req, const char *path);
int api_more(void *call, struct net_http *req);
void api_closed(void *call);

/* A request the application answers later (a database read): its state, attached to the
 * transport's request (net_http_set_user) until the request is over. */
struct api_call {
    struct server *srv;
    struct net_http *req;   /* NULL once the request is over */
    bool reading;           /* waiting for a database read */
    char read_key[24];      /* the read's id in decimal, while reading */
    struct db_read *stream; /* streaming: the request for the next batch, while idle */
    struct hapi *hapi;      /* an HTTP API request (httpapi.h), or NULL */
};

/* The call for req, created on first use. NULL when memory runs out. */
struct api_call *api_call_of(struct server *srv, struct net_http *req);

/* A game's export by id (/game/export/<id>): its PGN, or its JSON state (pgn false), from the
 * world or the archive. Returns what the HTTP callback returns. */
int api_game_export(struct server *srv, struct net_http *req, const char *id, bool pgn);

/* Starts a response with a JSON body (msg stolen) and more header lines (extra: "name:
 * value\r\n" lines, or NULL). Returns 0 or -1. */
int api_send_json_extra(struct net_http *req, unsigned status, const char *extra, json_t *msg);

/* Starts a response with a JSON body (msg stolen). Returns 0 or -1. */
int api_send_json(struct net_http *req, unsigned status, json_t *msg);

#endif
