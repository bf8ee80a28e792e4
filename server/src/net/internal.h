/*
 * What the transport's files share (transport.c, wsconn.c, http.c): the transport, its
 * connections and HTTP requests. Not for use outside net/.
 *
 * Everything here belongs to the loop thread.
 */
#ifndef SERVER_NET_INTERNAL_H
#define SERVER_NET_INTERNAL_H

#include <libwebsockets.h>

#include "net/net.h"
#include "util/ring.h"

_Static_assert(NET_MSG_FRONT >= sizeof(struct net_msg) + LWS_PRE, "room for lws's headroom");

/* One WebSocket connection. Freed only by net_free_closed(), never inside its own callback
 * chain: lws's CLOSED callback unlinks it and puts it on the transport's free list. */
struct net_conn {
    struct lws *wsi; /* NULL once lws has closed it */
    struct net *net;
    uint64_t id;
    void *user;                   /* the application's object (ws_open) */
    struct net_conn *prev, *next; /* every open connection */
    struct ring queue;            /* of struct net_msg *, waiting for the socket */
    unsigned char *rx;            /* reassembly of a fragmented message */
    size_t rx_len;
    bool rx_oversize;
    int64_t last_heard_ms; /* monotonic: the last frame or pong from the client */
    bool ping_sent;        /* a keep-alive ping is out, unanswered */
    int close_code;        /* nonzero: close with this code once the queue is flushed */
    bool close_sent;       /* the close frame is out; waiting for the client's */
    const char *close_reason;
    struct net_conn *free_next;
};

/* One HTTP request and its response, built whole (or batch by batch when streamed), then
 * written on writable callbacks in chunks. */
struct net_http {
    struct net *net;
    struct lws *wsi;
    void *user;          /* the application's (net_http_set_user) */
    unsigned char *body; /* LWS_PRE + response body */
    size_t body_len, body_sent;
    bool headers_due; /* status and type are set; the headers are not written yet */
    unsigned status;  /* with headers_due */
    const char *type; /* with headers_due (a static string) */
    bool streaming;   /* the length is unknown: more batches may follow this body */
    bool stream_done; /* streaming: the body in hand is the last */
};

/* lws's per-session data of the one protocol: a WebSocket connection or an HTTP request. */
struct session {
    struct net_conn *conn;
    struct net_http http;
};

struct net {
    struct net_config cfg;
    struct net_handler handler;
    struct lws_context *ctx;
    struct lws_vhost *vhost;
    uv_loop_t loop;
    bool loop_initialised;
    bool accepting;
    struct lws_http_mount mounts[4];
    char index_path[4096];
    struct net_conn *conns;          /* every open connection */
    struct net_conn *keepalive_next; /* where the keep-alive sweep goes on */
    struct net_conn *to_free;
    uint64_t next_conn_id;
    struct net_stats stats;
};

/* ---- wsconn.c ---- */

/* Creates a connection for an established WebSocket. Returns NULL when memory runs out. */
struct net_conn *wsconn_create(struct net *net, struct lws *wsi);

/* LWS_CALLBACK_SERVER_WRITEABLE: writes what is queued. Returns -1 to close. */
int wsconn_write(struct net_conn *c);

/* LWS_CALLBACK_RECEIVE: reassembles fragments and hands complete messages on. */
void wsconn_receive(struct net_conn *c, const void *in, size_t len);

/* LWS_CALLBACK_RECEIVE_PONG: the client is there. */
void wsconn_pong(struct net_conn *c);

/* LWS_CALLBACK_CLOSED: tells the application, unlinks and queues the connection for freeing. */
void wsconn_closed(struct net_conn *c);

/* ---- http.c ---- */

/* LWS_CALLBACK_HTTP. Returns what the callback returns. */
int http_request(struct net *net, struct lws *wsi, struct net_http *req);

/* LWS_CALLBACK_HTTP_WRITEABLE. */
int http_write(struct net_http *req);

/* The request is over: frees what it holds and tells the application. */
void http_done(struct net_http *req);

#endif
