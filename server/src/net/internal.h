/*
 * What the net module's files share: the server and connection structures, outbound messages,
 * and the functions that cross files (dispatch.c, http.c, conn.c, server.c). Not for use
 * outside net/.
 *
 * Everything here belongs to the loop thread.
 */
#ifndef SERVER_NET_INTERNAL_H
#define SERVER_NET_INTERNAL_H

#include <jansson.h>
#include <libwebsockets.h>
#include <signal.h>
#include <uv.h>

#include "core/ratelimit.h"
#include "core/world.h"
#include "metrics/metrics.h"
#include "net/server.h"
#include "util/strmap.h"

/*
 * An outbound message: a reference-counted block shared by every connection it goes to. The
 * JSON text sits at OUTMSG_FRONT, after this header and the LWS_PRE bytes lws_write() needs.
 */
struct outmsg {
    int refs;
    size_t len;
};

#define OUTMSG_HEADER ((sizeof(struct outmsg) + 15) / 16 * 16)
#define OUTMSG_FRONT  (OUTMSG_HEADER + LWS_PRE)

static inline unsigned char *outmsg_data(struct outmsg *m) {
    return (unsigned char *)m + OUTMSG_FRONT;
}

/* Serialises a message once (refs = 1). Returns NULL when memory runs out. */
struct outmsg *outmsg_create(const json_t *msg);

/* Takes over a block from proto_dump() or proto_dump_*() made with OUTMSG_FRONT (refs = 1).
 * Returns NULL when block is NULL. */
struct outmsg *outmsg_adopt(unsigned char *block, size_t len);

/* A copy of a message (an object) with the request id added; NULL when memory runs out. */
struct outmsg *outmsg_with_id(struct outmsg *m, const json_t *id);
void outmsg_release(struct outmsg *m);

/* One WebSocket connection. Freed only from the housekeeping timer, never inside its own
 * callback chain: lws's CLOSED callback unlinks it and puts it on the server's free list. */
struct conn {
    struct lws *wsi; /* NULL once lws has closed it */
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
    struct outmsg **queue; /* ring of queued messages */
    int q_head, q_count, q_cap;
    unsigned char *rx; /* reassembly of a fragmented message */
    size_t rx_len;
    bool rx_oversize;
    struct ratelimit limit;
    int64_t last_heard_ms; /* monotonic: the last frame or pong from the client */
    bool ping_sent;        /* a keep-alive ping is out, unanswered */
    int abuse;             /* refused messages in a row */
    int held;              /* messages held until a commit (persist.c); the close frame waits */
    int close_code;        /* nonzero: close with this code once the queue is flushed */
    bool close_sent;       /* the close frame is out; waiting for the client's */
    const char *close_reason;
    bool reading;      /* a database read for it is outstanding (reads.c) */
    char read_key[24]; /* its id in decimal: its key while reading */
    struct deferred_msg *deferred_head, *deferred_tail; /* messages waiting for the read */
    int deferred_count;
    struct conn *free_next;
};

/* A one-shot timer on the loop. */
struct loop_timer {
    uv_timer_t uv;
    struct server *srv;
    void (*fire)(struct server *srv);
    bool initialised;
};

/* Spectators of one game (by id, so an evicted game leaves nothing dangling). */
struct watch_list {
    char id[GAME_ID_LEN + 1];
    struct conn **conns;
    int count, cap;
};

struct server {
    struct server_config cfg;
    struct world *world;
    struct persist *persist; /* the store's side (persist.c); NULL without a database */
    struct engine *engine;   /* the computer's side (engine.c); NULL before engine_attach */
    struct cluster *cluster; /* the site bus (cluster.c); NULL without --redis */
    struct core_events events;
    struct lws_context *ctx;
    struct lws_vhost *vhost;
    uv_loop_t loop;
    bool loop_initialised;
    /* Other threads write to an eventfd to wake the loop for the mailbox, and a poll handle on
     * the loop watches it (server.c says why not a uv_async_t). */
    int wake_fd; /* -1 when not open */
    uv_poll_t wake_poll;
    bool wake_poll_initialised;
    struct mailbox mailbox; /* results from other threads */
    bool mailbox_initialised;
    struct lws_http_mount mounts[4];
    char index_path[4096];
    struct conn *keepalive_next; /* where the keep-alive sweep goes on (conn.c) */
    struct metrics metrics;
    struct conn *conns; /* every open connection */
    int conn_count;
    uint64_t next_conn_id;
    struct conn *lobby;     /* lobby subscribers */
    struct strmap watchers; /* game id -> struct watch_list */
    struct conn *to_free;
    struct loop_timer world_timer; /* the world's next deadline */
    int64_t world_timer_at;        /* when it is set for (ms), or GCLOCK_NEVER */
    struct loop_timer house_timer; /* housekeeping every 100 ms */
    volatile sig_atomic_t stop_requested;
    bool stopping;
    int64_t stop_deadline_ms;
    bool finished;
    int64_t moves_sample[11]; /* moves_total once a second, for moves per second */
    int moves_sample_at;
    int64_t last_sample_ms;
};

/* ---- conn.c ---- */

/* Creates a connection for an established WebSocket. Returns NULL when memory runs out. */
struct conn *conn_create(struct server *srv, struct lws *wsi);

/* Queues a message (taking a reference) and asks for a writable callback. A connection whose
 * queue is full is closed as too slow. While writes wait for the disk the message is held
 * first (persist.c) and queued once they are committed. */
void conn_send(struct conn *c, struct outmsg *m);

/* conn_send() without holding: for messages whose writes are committed. */
void conn_enqueue(struct conn *c, struct outmsg *m);

/* Encodes, serialises and queues one message for one connection; consumes msg. */
void conn_send_json(struct conn *c, json_t *msg);

/* Queues an error with the request's id (may be NULL) and the offending field (may be NULL). */
void conn_send_error(struct conn *c, int code, const json_t *id, const char *field);

/* Closes after the queue is flushed, with a close code and reason. */
void conn_close(struct conn *c, int code, const char *reason);

/* LWS_CALLBACK_SERVER_WRITEABLE: writes one message. Returns -1 to close. */
int conn_write(struct conn *c);

/* LWS_CALLBACK_RECEIVE: reassembles fragments and hands complete messages to dispatch. */
void conn_receive(struct conn *c, const void *in, size_t len);

/* LWS_CALLBACK_CLOSED: unlinks everything and queues the connection for freeing. */
void conn_closed(struct conn *c);

/* Frees connections closed since the last call. */
void conn_free_closed(struct server *srv);

/* LWS_CALLBACK_RECEIVE_PONG: the client is there. */
void conn_pong(struct conn *c);

/* Keep-alive, from the housekeeping timer: pings connections quiet for ping_interval_s and
 * drops those quiet for idle_timeout_s, visiting a slice of the connections per call. */
void conn_keepalive(struct server *srv, int64_t now_ms);

/* ---- dispatch.c ---- */

/* Handles one complete client text message (text is NUL-terminated at len). While the
 * connection waits for a database read the message waits too (reads.h). */
void dispatch_message(struct conn *c, const char *text, size_t len);

/* Refuses a message with an error (code) that carries the message's id when it has a usable
 * one: the message is decoded for nothing else. */
void dispatch_refuse(struct conn *c, int code, const char *text, size_t len);

/* The end of a hello once its player is known (found in the world, created, or read from the
 * database; token: the one it came with, NULL for a new guest): links the connection, sends the
 * welcome with the request's id, tells the others. */
void dispatch_hello_player(struct conn *c, struct player *p, const char *token, const json_t *id);

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

/* An event of a game or lobby owned by another node (cluster.c), addressed by ids. */
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

/* Re-arms the world timer after anything that may have moved its deadline. */
void server_arm_world_timer(struct server *srv);

/* ---- http.c ---- */

/* Per-session data of the one lws protocol: HTTP responses or a WebSocket connection. */
struct session {
    struct conn *conn;   /* WebSocket */
    unsigned char *body; /* HTTP: LWS_PRE + response body */
    size_t body_len, body_sent;
    /* HTTP responses answered later (reads.c): the headers wait for a writable callback. */
    struct server *srv;
    struct lws *wsi;
    bool reading;            /* waiting for a database read */
    char read_key[24];       /* the request's read id in decimal, while reading */
    bool headers_due;        /* status and type are set; the headers are not written yet */
    unsigned status;         /* with headers_due */
    const char *type;        /* with headers_due (a static string) */
    bool streaming;          /* the length is unknown: more batches follow this body */
    bool stream_done;        /* streaming: the body in hand is the last */
    struct net_read *stream; /* streaming: the request for the next batch, while idle */
};

/* LWS_CALLBACK_HTTP. Returns what the callback returns. */
int http_request(struct server *srv, struct lws *wsi, struct session *ss);

/* LWS_CALLBACK_HTTP_WRITEABLE. */
int http_write(struct lws *wsi, struct session *ss);

/* Frees a response that did not finish. */
void http_session_done(struct session *ss);

/* Starts a response: body (malloc'd text, taken over) or msg (stolen). Return what the HTTP
 * callback returns. For the archive's endpoints (archive.c); also from a read's answer, outside
 * the HTTP callback (the headers are written on the next writable callback). type: a static
 * string. */
int http_send(struct lws *wsi, struct session *ss, unsigned status, const char *type, char *body,
              size_t len);
int http_send_json(struct lws *wsi, struct session *ss, unsigned status, json_t *msg);

/* Starts a response of unknown length (no Content-Length; the connection closes after it):
 * body is the first batch; ss->stream, when set, is resubmitted for the next batch once this one
 * is written (http_stream_more() hands the next one). Returns 0 or -1. */
int http_stream_start(struct lws *wsi, struct session *ss, const char *type, char *body,
                      size_t len);
/* The next batch of a streamed response (malloc'd, taken over); last: nothing follows. */
void http_stream_more(struct lws *wsi, struct session *ss, char *body, size_t len, bool last);

#endif
