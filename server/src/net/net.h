/*
 * The transport: on a libuv loop, HTTP/1.1 of its own (http.c: requests, the web client's static
 * files) and WebSocket connections at /ws through libwebsockets, on one port; optionally a second
 * port for the metrics. It moves bytes and decides nothing:
 * the application (app/) gets every complete WebSocket message, every connection's opening and
 * closing and every HTTP request through the callbacks of struct net_handler, and answers with
 * net_send(), net_close() and net_http_*().
 *
 * What the transport does on its own: reassembling fragmented messages under a size cap,
 * bounded outbound queues of shared message blocks (one lws_write() per writable callback, as
 * lws requires), writing close frames after what is queued, keep-alive pings and dropping quiet
 * connections, the connection limit, the client's address behind trusted proxies, TCP_NODELAY,
 * HTTP framing (GET and HEAD; a status for every other request: 400, 405, 414, 431; pipelined
 * requests answered in order; streamed responses of unknown length), the WebSocket upgrade's
 * path and Origin, the single-page app's index.html for paths the application does not serve,
 * and pausing accept() while file descriptors are exhausted.
 *
 * Connections are never freed inside their own callback chain: a closed connection is freed
 * by net_free_closed(), which the application calls from a timer.
 *
 * Loop thread only. Other threads never call into the transport; they wake the loop through
 * the application's own mechanism (a uv handle on net_loop()).
 */
#ifndef SERVER_NET_NET_H
#define SERVER_NET_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "util/netaddr.h"

struct net;
struct net_conn;
struct net_http;

/* WebSocket close codes the application uses (RFC 6455). */
enum net_close_code {
    NET_CLOSE_GOING_AWAY = 1001,
    NET_CLOSE_POLICY_VIOLATION = 1008,
    NET_CLOSE_UNEXPECTED = 1011,
};

/* ---- shared outbound messages ---- */

/*
 * An outbound message: a reference-counted block shared by every connection it goes to. Its
 * text sits NET_MSG_FRONT bytes into the block, after this header and the headroom lws_write()
 * needs; the application serialises straight into such a block and adopts it.
 */
struct net_msg {
    int refs;
    size_t len;
};

/* Where the text starts in a block (the header rounded up, plus lws's LWS_PRE of 16 bytes). */
#define NET_MSG_FRONT (((sizeof(struct net_msg) + 15) / 16 * 16) + 16)

static inline unsigned char *net_msg_data(struct net_msg *m) {
    return (unsigned char *)m + NET_MSG_FRONT;
}

/* Takes over a malloc'd block of NET_MSG_FRONT + len (+ 1) bytes whose text is at
 * NET_MSG_FRONT (refs = 1). Returns NULL when block is NULL. */
struct net_msg *net_msg_adopt(unsigned char *block, size_t len);

/* Drops a reference; the last frees the block. NULL is ignored. */
void net_msg_release(struct net_msg *m);

/* ---- the application's side ---- */

/* A complete WebSocket message that the transport could not take whole. */
enum net_message_flags {
    NET_MESSAGE_BINARY = 1 << 0,   /* a binary frame */
    NET_MESSAGE_OVERSIZE = 1 << 1, /* over max_message: text is NULL */
};

/* The methods the application sees (any other gets 405 from the transport). */
enum net_http_method {
    NET_HTTP_GET,
    NET_HTTP_HEAD,
    NET_HTTP_POST,
    NET_HTTP_DELETE,
};

/* The largest request body the transport reads (413 above). */
#define NET_HTTP_BODY_MAX (64 * 1024)

/* What net_handler.http returns. */
enum net_http_outcome {
    NET_HTTP_CLOSE = -1,   /* close the connection */
    NET_HTTP_ANSWERED = 0, /* a response started, or will (net_http_respond and friends) */
    NET_HTTP_NOT_MINE = 1, /* not the application's path: static files and index.html */
};

/* The application's callbacks, all on the loop thread. ctx is net_handler.ctx; user is what
 * ws_open returned for that connection (or what net_http_set_user attached to a request). */
struct net_handler {
    void *ctx;
    /* May a WebSocket upgrade to /ws be accepted? (the application may be stopping) */
    bool (*ws_admit)(void *ctx);
    /* A WebSocket connection is established. addr: the client's address (behind trusted
     * proxies); bearer: the token of an "Authorization: Bearer" header ("" for one that cannot
     * be a token), or NULL. Returns the application's object for it, or NULL to drop it. */
    void *(*ws_open)(void *ctx, struct net_conn *c, const char *addr, const char *bearer);
    /* A complete message (text NUL-terminated at len, NULL when oversize). Not called once
     * the connection is closing. */
    void (*ws_message)(void *user, const char *text, size_t len, unsigned flags);
    /* The connection is gone; the transport frees it later (net_free_closed). */
    void (*ws_closed)(void *user);
    /* A GET, HEAD, POST or DELETE request for path (percent-decoded; it may hold "." and ".."
     * segments), before the static files; a POST's or DELETE's body is read whole first
     * (net_http_body). For HEAD the transport drops the body of the response. NOT_MINE for a
     * POST or DELETE: 405. */
    enum net_http_outcome (*http)(void *ctx, struct net_http *req, const char *path);
    /* A streamed response's batch is written: the application hands the next one with
     * net_http_stream_more(), now or later. Returns 0, or -1 to end the response here. */
    int (*http_more)(void *user, struct net_http *req);
    /* An HTTP request that had a user attached is over (answered or dropped). */
    void (*http_closed)(void *user);
};

struct net_config {
    const char *listen_addr; /* IPv4/IPv6 address, or NULL / "0.0.0.0" for every address */
    int port;
    const char *static_dir; /* the web client's files (index.html fallback for client routes) */
    size_t max_message;     /* largest client message in bytes */
    int max_connections;    /* WebSocket connections at once */
    int out_queue_max;      /* messages waiting per connection before it is dropped as too slow */
    int ping_interval_s;    /* idle time before a ping */
    int idle_timeout_s;     /* idle time (no pong or data) before the connection is dropped */
    const struct netaddr_list *trusted_proxies; /* whose X-Forwarded-For names the client */
    const char *metrics_addr; /* the metrics port's address (NULL or "": every address) */
    int metrics_port;         /* a second port (net_http_internal), or 0 for none */
    /* Origins a WebSocket upgrade may come from, comma-separated ("https://chess.example.org",
     * "*": any); NULL or "": the Host header's host. An upgrade without Origin is allowed. */
    const char *allowed_origins;
};

/* What the transport counted, for /metrics. */
struct net_stats {
    int connections; /* open WebSocket connections */
    uint64_t connections_total;
    uint64_t connections_rejected;    /* refused at the connection limit */
    uint64_t connections_closed_slow; /* outbound queue overflow */
    uint64_t connections_closed_idle; /* nothing heard for the idle timeout */
    uint64_t http_requests_total;
    int http_connections;             /* open HTTP connections (not yet WebSockets) */
    uint64_t accept_paused;           /* times accepting paused: no file descriptor left */
    uint64_t upgrades_refused_origin; /* WebSocket upgrades refused for their Origin (403) */
    uint64_t messages_out_total;
    uint64_t bytes_in_total;
    uint64_t bytes_out_total;
};

/* ---- lifecycle ---- */

/* Creates the libuv loop and the lws context on it and binds the port. cfg and handler are
 * copied (cfg's strings and proxy list must outlive the transport). Returns NULL (after logging
 * why) on failure. */
struct net *net_create(const struct net_config *cfg, const struct net_handler *handler);

/* The loop, for the application's timers and wake-ups. */
uv_loop_t *net_loop(struct net *net);

/* Runs the loop until every handle is closed (after net_shutdown). Returns 0. */
int net_run(struct net *net);

/* Stops accepting connections (the listening sockets close; open HTTP connections are still
 * answered until shutdown). */
void net_stop_accepting(struct net *net);

/* Inside the loop, at the end: destroys the lws context so that net_run() can return. */
void net_shutdown(struct net *net);

/* After net_run() returned (or instead of it): frees everything. NULL is ignored. */
void net_destroy(struct net *net);

/* Frees connections closed since the last call (from a timer, never inside a callback). */
void net_free_closed(struct net *net);

/* Keep-alive, from a timer every 100 ms: pings connections quiet for ping_interval_s and drops
 * those quiet for idle_timeout_s, visiting a slice of the connections per call. */
void net_keepalive(struct net *net, int64_t now_ms);

void net_get_stats(const struct net *net, struct net_stats *out);

/* ---- WebSocket connections ---- */

/* Queues a message (taking a reference) for the connection and writes it as soon as the socket
 * takes it. A connection whose queue is full is dropped as too slow. Nothing is sent once the
 * connection is closing, except at shutdown (NET_CLOSE_GOING_AWAY). */
void net_send(struct net_conn *c, struct net_msg *m);

/* Closes after the queue is flushed, with a close code and reason (a static string). */
void net_close(struct net_conn *c, int code, const char *reason);

/* True once the connection is closing or closed: nothing more is read from it. */
bool net_closing(const struct net_conn *c);

/* The connection's number (1, 2, ... in the order they opened), for logs and ids. */
uint64_t net_conn_id(const struct net_conn *c);

/* ---- HTTP ---- */

/* Attaches the application's state to a request; http_closed(user) is called when it ends. */
void net_http_set_user(struct net_http *req, void *user);

/* What net_http_set_user attached, or NULL. */
void *net_http_user(const struct net_http *req);

/* Starts a response with a body (malloc'd, taken over; NULL with len 0 for none). type: a
 * static string. The headers go out on the next writable callback, so this may be called later
 * than the http callback (when a database read answers). Returns 0 or -1. */
int net_http_respond(struct net_http *req, unsigned status, const char *type, char *body,
                     size_t len);

/* Starts a response of unknown length (no Content-Length; the connection closes after it) with
 * its first batch (taken over). more: further batches follow (http_more asks for them). */
int net_http_stream_start(struct net_http *req, const char *type, char *body, size_t len,
                          bool more);

/* The next batch of a streamed response (malloc'd, taken over); last: nothing follows. */
void net_http_stream_more(struct net_http *req, char *body, size_t len, bool last);

/* The same with more header lines (extra: "name: value\r\n" lines, or NULL), e.g. Allow for a
 * 405 or Retry-After for a 429. */
int net_http_respond_extra(struct net_http *req, unsigned status, const char *type,
                           const char *extra, char *body, size_t len);

/*
 * A pushed response (NDJSON streams): headers now, then the application adds text as things
 * happen (net_http_push) until net_http_push_end(), or until the client goes away
 * (http_closed). Chunked on HTTP/1.1, so the connection serves further requests after the end;
 * until the end of the connection on HTTP/1.0. keepalive_ms > 0: a newline goes out so that no
 * two lines are more than keepalive_ms apart (a second or less earlier: so that clients and
 * proxies keep the stream open). Returns 0 or -1.
 */
int net_http_push_start(struct net_http *req, unsigned status, const char *type, int keepalive_ms);

/* Adds text to a pushed response (copied). Returns 0, or -1 when the client reads too slowly
 * (more than NET_HTTP_PUSH_MAX bytes wait): the connection is dropped (http_closed follows). */
#define NET_HTTP_PUSH_MAX (1 << 20)
int net_http_push(struct net_http *req, const char *text, size_t len);

/* Ends a pushed response once what was pushed is out. */
void net_http_push_end(struct net_http *req);

/* The request's method. */
enum net_http_method net_http_method(const struct net_http *req);

/* A POST's or DELETE's body (NUL-terminated; "" with len 0 for none). */
const char *net_http_body(const struct net_http *req, size_t *len);

/* The Authorization header: NULL without one, "" for one too long to be the application's. */
const char *net_http_authorization(const struct net_http *req);

/* The Accept and Content-Type headers ("" without them). */
const char *net_http_accept(const struct net_http *req);
const char *net_http_content_type(const struct net_http *req);

/* The client's address (behind trusted proxies, as for WebSocket connections). */
const char *net_http_addr(const struct net_http *req);

/* The request's Host header, or "localhost" without one. */
void net_http_host(struct net_http *req, char *out, size_t size);

/* The value of a query argument (name with its "=", e.g. "page=") copied into buf, or NULL when
 * the request has none. */
const char *net_http_query_arg(struct net_http *req, const char *name, char *buf, size_t size);

/* The value of a field of a form body (application/x-www-form-urlencoded: name=value&...)
 * decoded into buf, or NULL when the body has none (or it does not fit). */
const char *net_http_form_arg(struct net_http *req, const char *name, char *buf, size_t size);

/* Drops the request's connection (a response that cannot be finished): on the next turn of the
 * loop, when http_closed is called. */
void net_http_abort(struct net_http *req);

/* Whether the request came on the metrics port (net_config.metrics_port). */
bool net_http_internal(const struct net_http *req);

/* Whether the request came from this machine (a loopback address) and names no client behind
 * a proxy (no X-Forwarded-For, X-Real-IP or Forwarded header). */
bool net_http_local(const struct net_http *req);

#endif
