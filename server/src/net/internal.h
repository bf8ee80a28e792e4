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
    unsigned char *rx;            /* a message's bytes as they arrive (grown as needed) */
    size_t rx_len, rx_cap;
    bool rx_oversize;
    int64_t last_heard_ms; /* monotonic: the last frame or pong from the client */
    bool ping_sent;        /* a keep-alive ping is out, unanswered */
    int close_code;        /* nonzero: close with this code once the queue is flushed */
    bool close_sent;       /* the close frame is out; waiting for the client's */
    const char *close_reason;
    struct net_conn *free_next;
};

/* One HTTP request as the application sees it (net.h), inside its connection (http.c). */
struct net_http {
    struct http_conn *conn;
    void *user;        /* the application's (net_http_set_user) */
    const char *query; /* the raw query string after '?' (in the connection's buffer), or "" */
    enum net_http_method method;
    char host[256];              /* the Host header, or "" */
    char authorization[128];     /* the Authorization header, or "" (also when too long) */
    bool has_authorization;      /* the header came (perhaps too long for the buffer) */
    char accept[128];            /* the Accept header (cut at the buffer's size), or "" */
    char content_type[128];      /* the Content-Type header (cut likewise), or "" */
    char addr[NETADDR_TEXT_MAX]; /* the client's address, behind trusted proxies */
    const char *body;            /* the request's body, NUL-terminated ("" for none) */
    size_t body_len;
    bool head;        /* HEAD: the headers of the response, no body */
    bool streaming;   /* the length is unknown: more batches may follow */
    bool stream_done; /* streaming: the batch in hand is the last */
    bool pushing;     /* a pushed response (net_http_push_start): no http_more */
    bool chunked;     /* the body goes in chunks (HTTP/1.1 streams), so the connection may stay */
    bool answered;    /* a response started */
};

/* A listening socket: the players' port, or the metrics port. */
struct listener {
    struct net *net;
    int fd;
    uv_poll_t poll;
    bool initialised; /* poll is a libuv handle */
    bool polling;
    bool internal; /* the metrics port (net_http_internal) */
};

/* lws's per-session data of the one protocol: a WebSocket connection. */
struct session {
    struct net_conn *conn;
};

struct net {
    struct net_config cfg;
    struct net_handler handler;
    struct lws_context *ctx;
    struct lws_vhost *vhost;
    uv_loop_t loop;
    bool loop_initialised;
    bool accepting;
    struct listener listeners[2]; /* the players' port, and the metrics port (fd -1: none) */
    bool fds_exhausted;           /* accepting paused: no descriptor left */
    uv_timer_t accept_timer;      /* tries again while paused */
    bool accept_timer_started;
    uv_timer_t http_timer; /* HTTP timeouts, once a second */
    bool http_timer_started;
    char index_path[4096];
    struct http_conn *http_conns;    /* every HTTP connection */
    struct net_conn *conns;          /* every open WebSocket connection */
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

/* ---- listen.c ---- */

/* Opens, binds and listens on addr:port (NULL or "": every address). Returns the descriptor, or
 * -1 after logging why. */
int listen_open(const char *addr, int port);

/* Starts accepting on the listeners. Returns 0 or -1. */
int listen_start(struct net *net);

/* Closes the listeners (at shutdown). */
void listen_close(struct net *net);

/* A descriptor was freed: when accepting is paused for want of descriptors, try again. */
void listen_fd_freed(struct net *net);

/* ---- http.c ---- */

/* Takes over an accepted connection (internal: it came on the metrics port). */
void http_accept(struct net *net, int fd, bool internal);

/* Closes every HTTP connection (at shutdown). */
void http_close_all(struct net *net);

/* Drops HTTP connections past their deadline (from a once-a-second timer). */
void http_sweep(struct net *net, int64_t now_ms);

#endif
