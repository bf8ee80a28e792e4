/*
 * HTTP/1.1 on the players' port (and the metrics port), on the libuv loop, without lws: lws's
 * HTTP side closed the connection without a status on requests it would not parse (a %00, a
 * long line), answered other methods with the file, and lost pipelined requests. Here every
 * accepted connection is read by this file; a request gets a status line whatever it is:
 *
 * - the head (request line and headers) is read into a buffer of HTTP_HEAD_MAX bytes: a request
 *   target over HTTP_TARGET_MAX is 414, a head that does not fit is 431, one that does not parse
 *   is 400 (505 for another HTTP version); a %00 or a bad escape anywhere in the target is 400;
 * - GET, HEAD, POST and DELETE go to the application (POST's and DELETE's body is read first,
 *   by Content-Length, at most NET_HTTP_BODY_MAX: 411 without one, 413 over); any other method
 *   (names are case-sensitive) is 405 with Allow, and so is a POST or DELETE to a path that is
 *   not the application's;
 * - a WebSocket upgrade to exactly /ws from an allowed Origin (net_config.allowed_origins) is
 *   handed to lws with the bytes read so far (lws_adopt_socket_vhost_readbuf); other upgrade
 *   targets are 404, other origins 403;
 * - the application's paths (net_handler.http), then the web client's files, then its
 *   index.html for anything else (a path with a "." or ".." segment gets 404 instead).
 *
 * One request at a time per connection: pipelined requests wait in the buffer (or the socket)
 * and are answered in order. A request whose body is not read (a GET's, another method's) is
 * answered and then the connection closes. Responses: whole (Content-Length), streamed in
 * batches the application hands over (http_more), or pushed as things happen (the HTTP API's
 * NDJSON streams: chunked on HTTP/1.1, a newline when quiet; net_http_push). Closing after a
 * response is a shutdown of the sending side, then
 * reading until the client closes (at most HTTP_LINGER_MS), so that what the client sent after
 * its request does not turn the close into a reset that loses the response.
 *
 * Deadlines (checked once a second): a request head must be complete HTTP_HEAD_TIMEOUT_MS after
 * the connection opened or the previous response ended; a response that makes no progress for
 * HTTP_WRITE_TIMEOUT_MS is dropped.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/httpparse.h"
#include "net/internal.h"
#include "util/log.h"
#include "util/now.h"

#define HTTP_PATH_MAX         512 /* the path before '?': longer than any endpoint's or client route's */
#define HTTP_HEAD_TIMEOUT_MS  10000
#define HTTP_WRITE_TIMEOUT_MS 30000
#define HTTP_LINGER_MS        2000
#define HTTP_FILE_MAX         (64 << 20)
#define HTTP_SWEEP_MS         1000 /* http_sweep()'s period (transport.c's timer) */

/* The headers lws's security option sent (Mozilla Observatory's recommendations). */
#define SECURITY_HEADERS                                                                           \
    "content-security-policy: default-src 'none'; img-src 'self' data: ; script-src 'self'; "      \
    "font-src 'self'; style-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'; "     \
    "base-uri 'none';form-action 'self';\r\n"                                                      \
    "x-content-type-options: nosniff\r\n"                                                          \
    "x-xss-protection: 1; mode=block\r\n"                                                          \
    "x-frame-options: deny\r\n"                                                                    \
    "referrer-policy: no-referrer\r\n"

enum http_state {
    HTTP_READING,   /* waiting for a complete request head */
    HTTP_BODY,      /* the head is in: reading the body (POST, DELETE) */
    HTTP_BUSY,      /* the request is the application's, or its response is being written */
    HTTP_LINGERING, /* the response is out and the sending side shut: reading until EOF */
};

struct http_conn {
    struct net *net;
    int fd;
    uv_poll_t poll;
    int events; /* what the poll handle waits for */
    enum http_state state;
    bool internal;               /* came on the metrics port */
    bool local;                  /* the peer is a loopback address */
    char peer[NETADDR_TEXT_MAX]; /* the peer's address */
    int minor;                   /* the current request's HTTP/1.minor */
    bool forwarded;              /* the request names a client behind a proxy */
    bool keep_alive;             /* the connection serves another request after this one */
    bool more_asked;             /* streaming: the application was asked for the next batch */
    bool aborted;                /* net_http_abort: dropped on the next poll event */
    int64_t deadline_ms;         /* 0: none */
    /* One block allocated with the first byte read (an idle connection costs little): the
     * bytes read (HTTP_HEAD_MAX), then the current request's decoded path and raw query. */
    char *in;
    size_t in_len;
    size_t head_len; /* the current request's head, consumed when it is answered */
    char *path, *query;
    char *body; /* the current request's body (HTTP_BODY), NUL-terminated */
    size_t body_len, body_need;
    char *out; /* what goes out: headers and body */
    size_t out_len, out_sent, out_cap;
    int push_keepalive_ms; /* a pushed response: a newline after this long without text */
    int64_t last_push_ms;
    struct net_http req;
    struct http_conn *prev, *next;
};

/* ---- the connection ---- */

static void on_poll(uv_poll_t *poll, int status, int events);

static void poll_events(struct http_conn *c, int events) {
    if (c->events == events) return;
    c->events = events;
    int rc = events ? uv_poll_start(&c->poll, events, on_poll) : uv_poll_stop(&c->poll);
    if (rc != 0) LOGW("http", "cannot poll a connection: %s", uv_strerror(rc));
}

static void free_conn(uv_handle_t *h) {
    struct http_conn *c = h->data;
    free(c->body);
    free(c->in);
    free(c->out);
    free(c);
}

static void unlink_conn(struct http_conn *c) {
    struct net *net = c->net;
    if (c->prev)
        c->prev->next = c->next;
    else
        net->http_conns = c->next;
    if (c->next) c->next->prev = c->prev;
    c->prev = c->next = NULL;
}

/* The request is over: the application hears of it once. */
static void end_request(struct http_conn *c) {
    void *user = c->req.user;
    c->req.user = NULL;
    if (user) c->net->handler.http_closed(user);
}

/* Drops the connection now (closing its descriptor). */
static void drop_conn(struct http_conn *c) {
    struct net *net = c->net;
    end_request(c);
    unlink_conn(c);
    uv_close((uv_handle_t *)&c->poll, free_conn);
    close(c->fd);
    c->fd = -1;
    net->stats.http_connections--;
    listen_fd_freed(net);
}

/* Appends to the output. Returns 0 or -1. */
static int out_add(struct http_conn *c, const void *data, size_t len) {
    if (c->out_len + len > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 4096;
        while (cap < c->out_len + len) cap *= 2;
        char *out = realloc(c->out, cap);
        if (!out) return -1;
        c->out = out;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, data, len);
    c->out_len += len;
    return 0;
}

static const char *reason_phrase(unsigned status) {
    switch (status) {
        case 200: return "OK";
        case 400: return "Bad Request";
        case 403: return "Forbidden";
        case 404: return "Not Found";
        case 401: return "Unauthorized";
        case 405: return "Method Not Allowed";
        case 408: return "Request Timeout";
        case 409: return "Conflict";
        case 411: return "Length Required";
        case 413: return "Content Too Large";
        case 415: return "Unsupported Media Type";
        case 429: return "Too Many Requests";
        case 414: return "URI Too Long";
        case 431: return "Request Header Fields Too Large";
        case 500: return "Internal Server Error";
        case 503: return "Service Unavailable";
        case 505: return "HTTP Version Not Supported";
        default: return "";
    }
}

/* Queues the status line and headers. length < 0: unknown (chunked when req.chunked, else the
 * connection closes after). */
static int out_headers(struct http_conn *c, unsigned status, const char *type, long long length,
                       const char *extra) {
    char head[1024], length_line[64] = "";
    if (length >= 0)
        snprintf(length_line, sizeof length_line, "content-length: %lld\r\n", length);
    else if (c->req.chunked)
        snprintf(length_line, sizeof length_line, "transfer-encoding: chunked\r\n");
    else
        c->keep_alive = false;
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %u %s\r\ncontent-type: %s\r\n%s%s" SECURITY_HEADERS "%s\r\n", status,
                     reason_phrase(status), type, length_line, extra ? extra : "",
                     c->keep_alive ? "" : "connection: close\r\n");
    if (n < 0 || (size_t)n >= sizeof head) return -1;
    return out_add(c, head, (size_t)n);
}

/* Starts writing what is queued (on the next writable event: never inside the application's
 * call). */
static void start_writing(struct http_conn *c) {
    c->deadline_ms = now_mono_ms() + HTTP_WRITE_TIMEOUT_MS;
    poll_events(c, UV_WRITABLE);
}

/* A response of our own (plain text), then the connection goes on or closes. */
static int respond_plain(struct http_conn *c, unsigned status, const char *extra,
                         const char *text) {
    size_t len = strlen(text);
    c->state = HTTP_BUSY;
    c->req.answered = true;
    if (out_headers(c, status, "text/plain", (long long)len, extra) < 0 ||
        (!c->req.head && out_add(c, text, len) < 0))
        return -1;
    start_writing(c);
    return 0;
}

/* Refuses what cannot be parsed: the status, and the connection closes. */
static void refuse(struct http_conn *c, unsigned status, const char *text) {
    c->keep_alive = false;
    c->head_len = c->in_len;
    LOGD("http", "refused with %u: %.*s", status, (int)strcspn(text, "\n"), text);
    if (respond_plain(c, status, NULL, text) < 0) drop_conn(c);
}

/* The sending side is done: shut it and read until the client closes. */
static void begin_linger(struct http_conn *c) {
    c->state = HTTP_LINGERING;
    if (shutdown(c->fd, SHUT_WR) != 0) {
        drop_conn(c);
        return;
    }
    c->deadline_ms = now_mono_ms() + HTTP_LINGER_MS;
    poll_events(c, UV_READABLE);
}

static void process_input(struct http_conn *c);

/* The response is out: the next request, or the end. */
static void response_done(struct http_conn *c) {
    end_request(c);
    c->out_len = c->out_sent = 0;
    c->more_asked = false;
    free(c->body);
    c->body = NULL;
    c->body_len = c->body_need = 0;
    if (!c->keep_alive) {
        begin_linger(c);
        return;
    }
    if (c->in) memmove(c->in, c->in + c->head_len, c->in_len - c->head_len);
    c->in_len -= c->head_len;
    c->head_len = 0;
    c->state = HTTP_READING;
    c->deadline_ms = now_mono_ms() + HTTP_HEAD_TIMEOUT_MS;
    memset(&c->req, 0, sizeof c->req);
    c->req.conn = c;
    poll_events(c, UV_READABLE);
    process_input(c); /* a pipelined request may be waiting */
}

/* A stream may last hours: its request's buffer (24 KiB: the head, path and query) goes back
 * once the stream runs (here, outside the application's calls, which may still read the path)
 * when nothing follows the request in it. The request's headers, copied, stay. */
static void release_input(struct http_conn *c) {
    if (!c->in || c->in_len != c->head_len) return;
    free(c->in);
    c->in = c->path = c->query = NULL;
    c->in_len = c->head_len = 0;
    c->req.query = "";
}

static void write_out(struct http_conn *c) {
    while (c->out_sent < c->out_len) {
        ssize_t n = send(c->fd, c->out + c->out_sent, c->out_len - c->out_sent, MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            drop_conn(c);
            return;
        }
        c->out_sent += (size_t)n;
        c->net->stats.bytes_out_total += (uint64_t)n;
        c->deadline_ms = now_mono_ms() + HTTP_WRITE_TIMEOUT_MS;
    }
    c->out_len = c->out_sent = 0;
    if (c->req.pushing && !c->req.stream_done) {
        /* All pushed text is out: wait for more, and notice the client leaving. */
        release_input(c);
        poll_events(c, UV_READABLE);
        c->deadline_ms = 0;
        return;
    }
    if (c->req.streaming && !c->req.stream_done) {
        /* The batch is out: the next one comes through net_http_stream_more(). */
        poll_events(c, 0);
        c->deadline_ms = 0;
        if (c->more_asked) return;
        c->more_asked = true;
        if (!c->req.user || c->net->handler.http_more(c->req.user, &c->req) != 0) {
            LOGW("http", "a streamed response ended early: the next batch cannot be had");
            drop_conn(c); /* the connection closes, ending the body */
        }
        return;
    }
    response_done(c);
}

static void drain_linger(struct http_conn *c) {
    char scratch[4096];
    for (;;) {
        ssize_t n = recv(c->fd, scratch, sizeof scratch, 0);
        if (n > 0) continue;
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        drop_conn(c); /* the client closed (or failed) */
        return;
    }
}

static void read_in(struct http_conn *c) {
    if (!c->in) {
        c->in = malloc(HTTP_HEAD_MAX + 2 * (HTTP_TARGET_MAX + 1));
        if (!c->in) {
            drop_conn(c);
            return;
        }
        c->path = c->in + HTTP_HEAD_MAX;
        c->query = c->path + HTTP_TARGET_MAX + 1;
    }
    if (c->in_len == HTTP_HEAD_MAX) { /* full: process_input() answered already */
        poll_events(c, 0);
        return;
    }
    ssize_t n = recv(c->fd, c->in + c->in_len, HTTP_HEAD_MAX - c->in_len, 0);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (n <= 0) {
        drop_conn(c); /* the client is gone (or closed between requests) */
        return;
    }
    c->in_len += (size_t)n;
    c->net->stats.bytes_in_total += (uint64_t)n;
    process_input(c);
}

static void handle_request(struct http_conn *c, const struct http_head *h);

/* The body is in: the request is handled, its head parsed again (it is still at the start of
 * the buffer; the body's bytes were taken out of it). */
static void body_complete(struct http_conn *c) {
    struct http_head h;
    poll_events(c, 0);
    c->body[c->body_len] = '\0';
    if (http_parse_head(c->in, c->in_len, &h) != 0) {
        drop_conn(c); /* cannot be: it parsed before */
        return;
    }
    handle_request(c, &h);
}

static void read_body(struct http_conn *c) {
    ssize_t n = recv(c->fd, c->body + c->body_len, c->body_need - c->body_len, 0);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (n <= 0) {
        drop_conn(c);
        return;
    }
    c->body_len += (size_t)n;
    c->net->stats.bytes_in_total += (uint64_t)n;
    if (c->body_len == c->body_need) body_complete(c);
}

/* While a pushed response waits for text, the client may only close the connection (or send a
 * next request, which waits in the buffer: a full buffer drops the connection). A stream whose
 * buffer was given back (push_start) has no room: anything the client sends ends it. */
static void read_during_push(struct http_conn *c) {
    if (!c->in) {
        char byte;
        ssize_t n = recv(c->fd, &byte, 1, 0);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
        drop_conn(c); /* gone, or it sends while its stream lasts */
        return;
    }
    if (c->in_len == HTTP_HEAD_MAX) {
        drop_conn(c);
        return;
    }
    ssize_t n = recv(c->fd, c->in + c->in_len, HTTP_HEAD_MAX - c->in_len, 0);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (n <= 0) {
        drop_conn(c); /* the client went away: the stream ends */
        return;
    }
    c->in_len += (size_t)n;
    c->net->stats.bytes_in_total += (uint64_t)n;
}

static void on_poll(uv_poll_t *poll, int status, int events) {
    struct http_conn *c = poll->data;
    if (status < 0 || c->aborted) {
        drop_conn(c);
        return;
    }
    if ((events & UV_WRITABLE) && c->state == HTTP_BUSY) {
        write_out(c);
        return;
    }
    if (!(events & UV_READABLE)) return;
    if (c->state == HTTP_LINGERING)
        drain_linger(c);
    else if (c->state == HTTP_READING)
        read_in(c);
    else if (c->state == HTTP_BODY)
        read_body(c);
    else if (c->req.pushing)
        read_during_push(c);
}

/* Hands the connection to lws with what was read of it. */
static void hand_to_lws(struct http_conn *c) {
    struct net *net = c->net;
    int fd = c->fd;
    char *in = c->in;
    size_t in_len = c->in_len;
    c->in = NULL;
    c->fd = -1;
    c->in_len = 0;
    unlink_conn(c);
    net->stats.http_connections--;
    uv_close((uv_handle_t *)&c->poll, free_conn); /* stops polling; the descriptor stays open */
    /* lws serves it from here (and closes the descriptor itself when adopting fails). */
    if (!lws_adopt_socket_vhost_readbuf(net->vhost, fd, in, in_len))
        LOGD("http", "the WebSocket upgrade was refused or failed");
    free(in);
}

/* ---- requests ---- */

static const char *content_type(const char *path) {
    static const char *const types[][2] = {
        {".html", "text/html"},
        {".js", "application/javascript"},
        {".mjs", "application/javascript"},
        {".css", "text/css"},
        {".json", "application/json"},
        {".map", "application/json"},
        {".webmanifest", "application/manifest+json"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".jpg", "image/jpeg"},
        {".jpeg", "image/jpeg"},
        {".gif", "image/gif"},
        {".webp", "image/webp"},
        {".ico", "image/x-icon"},
        {".woff2", "font/woff2"},
        {".woff", "font/woff"},
        {".txt", "text/plain"},
        {".wasm", "application/wasm"},
    };
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (dot && (!slash || dot > slash))
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (strcasecmp(dot, types[i][0]) == 0) return types[i][1];
    return "application/octet-stream";
}

/* Reads a regular file whole. Returns 0 (body and len set, malloc'd), or -1 when there is none
 * to serve. */
static int read_file(const char *file, char **body, size_t *len) {
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    char *data = NULL;
    int rc = -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > HTTP_FILE_MAX) goto done;
    data = malloc((size_t)st.st_size + 1);
    if (!data) goto done;
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, data + got, (size_t)st.st_size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) goto done;
        got += (size_t)n;
    }
    *body = data;
    *len = got;
    data = NULL;
    rc = 0;
done:
    free(data);
    close(fd);
    return rc;
}

/* Starts the response: headers (length < 0: unknown; extra: more header lines) and the body
 * (taken over). */
static int start_response(struct net_http *req, unsigned status, const char *type, char *body,
                          long long length, size_t len, const char *extra) {
    struct http_conn *c = req->conn;
    int rc = -1;
    if (req->answered) goto done;
    req->answered = true;
    if (out_headers(c, status, type, length, extra) < 0 ||
        (!req->head && len && out_add(c, body, len) < 0))
        goto done;
    start_writing(c);
    rc = 0;
done:
    free(body);
    return rc;
}

/* A file of the web client, or its index.html. The application's answers are never cached
 * (no-store); index.html is revalidated, so a new release is picked up; the other files (named
 * by their content's hash in a Vite build) are left to the browser's heuristics. */
static void serve_static(struct http_conn *c) {
    struct net *net = c->net;
    char file[4096 + HTTP_TARGET_MAX + 16];
    char *body = NULL;
    size_t len = 0;
    const char *type = "text/html", *cache = "cache-control: no-cache\r\n";
    if (http_dot_segment(c->path)) {
        if (respond_plain(c, 404, NULL, "not found\n") < 0) drop_conn(c);
        return;
    }
    size_t plen = strlen(c->path);
    snprintf(file, sizeof file, "%s%s%s", net->cfg.static_dir, c->path,
             plen > 0 && c->path[plen - 1] == '/' ? "index.html" : "");
    if (read_file(file, &body, &len) == 0) {
        type = content_type(file);
        if (strcmp(type, "text/html") != 0) cache = NULL;
    } else if (read_file(net->index_path, &body, &len) != 0) {
        if (respond_plain(c, 404, NULL, "not found (the web client is not built)\n") < 0)
            drop_conn(c);
        return;
    }
    if (start_response(&c->req, 200, type, body, (long long)len, len, cache) < 0) drop_conn(c);
}

static bool request_method(struct http_span m, enum net_http_method *out) {
    static const struct {
        const char *name;
        enum net_http_method method;
    } methods[] = {{"GET", NET_HTTP_GET},
                   {"HEAD", NET_HTTP_HEAD},
                   {"POST", NET_HTTP_POST},
                   {"DELETE", NET_HTTP_DELETE}};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if (http_span_is(m, methods[i].name)) {
            *out = methods[i].method;
            return true;
        }
    return false;
}

/* A header's value into a buffer, cut at its size. Returns false when it was cut. */
static bool copy_span(struct http_span s, char *out, size_t size) {
    size_t len = s.len < size ? s.len : size - 1;
    memcpy(out, s.p ? s.p : "", len);
    out[len] = '\0';
    return len == s.len;
}

/* What the application may ask of the request's headers, and the client's address. */
static void copy_headers(struct http_conn *c, const struct http_head *h) {
    struct net_http *req = &c->req;
    req->has_authorization = h->authorization.p != NULL;
    if (!copy_span(h->authorization, req->authorization, sizeof req->authorization))
        req->authorization[0] = '\0';
    copy_span(h->accept, req->accept, sizeof req->accept);
    copy_span(h->content_type, req->content_type, sizeof req->content_type);
    snprintf(req->addr, sizeof req->addr, "%s", c->peer);
    const struct netaddr_list *trusted = c->net->cfg.trusted_proxies;
    if (!trusted || trusted->count == 0 || (!h->forwarded_for.p && !h->real_ip.p)) return;
    char *forwarded_for =
        strndup(h->forwarded_for.p ? h->forwarded_for.p : "", h->forwarded_for.len);
    char *real_ip = strndup(h->real_ip.p ? h->real_ip.p : "", h->real_ip.len);
    /* When a header cannot be copied, the peer stays the client. */
    if (forwarded_for && real_ip)
        netaddr_client(trusted, c->peer, forwarded_for, real_ip, req->addr, sizeof req->addr);
    free(forwarded_for);
    free(real_ip);
}

static void handle_request(struct http_conn *c, const struct http_head *h) {
    struct net *net = c->net;
    c->state = HTTP_BUSY;
    c->head_len = h->len;
    c->deadline_ms = 0;
    net->stats.http_requests_total++;
    memset(&c->req, 0, sizeof c->req);
    c->req.conn = c;
    c->req.query = c->query;
    c->forwarded = h->forwarded;
    c->minor = h->minor;
    c->keep_alive = h->minor == 1 ? !http_has_token(h->connection, "close")
                                  : http_has_token(h->connection, "keep-alive");
    enum net_http_method method;
    if (!request_method(h->method, &method)) {
        /* Its body (if any) is not read: answer, then close rather than read it. */
        if ((h->length.p && !http_span_is(h->length, "0")) || h->encoding.p) c->keep_alive = false;
        if (respond_plain(c, 405, "allow: GET, HEAD\r\n", "method not allowed\n") < 0) drop_conn(c);
        return;
    }
    bool head = method == NET_HTTP_HEAD;
    /* A GET's or HEAD's body is not read either (POST's and DELETE's is, begin_request). */
    if (!c->body && ((h->length.p && !http_span_is(h->length, "0")) || h->encoding.p))
        c->keep_alive = false;
    c->req.method = method;
    c->req.head = head;
    c->req.body = c->body ? c->body : "";
    c->req.body_len = c->body_len;
    copy_headers(c, h);
    if (h->target.p[0] != '/') {
        refuse(c, 400, "bad request target\n");
        return;
    }
    const char *q = memchr(h->target.p, '?', h->target.len);
    size_t path_len = q ? (size_t)(q - h->target.p) : h->target.len;
    if (path_len >= HTTP_PATH_MAX) {
        refuse(c, 414, "path too long\n");
        return;
    }
    char scratch[HTTP_TARGET_MAX + 1];
    if (http_url_decode(h->target.p, path_len, c->path, false) < 0 ||
        (q && http_url_decode(q + 1, h->target.len - path_len - 1, scratch, true) < 0)) {
        refuse(c, 400, "bad escape or NUL in the request target\n");
        return;
    }
    size_t qlen = q ? h->target.len - path_len - 1 : 0;
    memcpy(c->query, q ? q + 1 : "", qlen);
    c->query[qlen] = '\0';
    size_t hlen = h->host.len < sizeof c->req.host ? h->host.len : sizeof c->req.host - 1;
    memcpy(c->req.host, h->host.p ? h->host.p : "", hlen);
    c->req.host[hlen] = '\0';

    if (method == NET_HTTP_GET && h->upgrade.p && http_has_token(h->upgrade, "websocket")) {
        if (c->internal || path_len != 3 || memcmp(h->target.p, "/ws", 3) != 0) {
            if (respond_plain(c, 404, NULL, "no WebSocket here: the endpoint is /ws\n") < 0)
                drop_conn(c);
        } else if (!http_origin_allowed(net->cfg.allowed_origins, h->origin, h->host)) {
            LOGD("http", "WebSocket upgrade refused: origin %.*s not allowed",
                 (int)(h->origin.len > 100 ? 100 : h->origin.len), h->origin.p);
            net->stats.upgrades_refused_origin++;
            c->keep_alive = false;
            if (respond_plain(c, 403, NULL, "origin not allowed\n") < 0) drop_conn(c);
        } else {
            hand_to_lws(c);
        }
        return;
    }

    char safe[128];
    LOGD("http", "%.*s %s", (int)h->method.len, h->method.p,
         log_sanitize(c->path, safe, sizeof safe));
    enum net_http_outcome outcome = net->handler.http(net->handler.ctx, &c->req, c->path);
    if (outcome == NET_HTTP_CLOSE) {
        drop_conn(c);
        return;
    }
    if (outcome == NET_HTTP_NOT_MINE) {
        if (method == NET_HTTP_POST || method == NET_HTTP_DELETE) {
            if (respond_plain(c, 405, "allow: GET, HEAD\r\n", "method not allowed\n") < 0)
                drop_conn(c);
            return;
        }
        if (c->internal) {
            if (respond_plain(c, 404, NULL, "not found\n") < 0) drop_conn(c);
            return;
        }
        serve_static(c);
    }
}

/* A request whose head is in: a POST's or DELETE's body is read first (at most
 * NET_HTTP_BODY_MAX bytes, by Content-Length: 411 without one, 413 over), taken out of the
 * buffer, where the head stays until the response is done. */
static void begin_request(struct http_conn *c, const struct http_head *h) {
    bool takes_body = http_span_is(h->method, "POST") || http_span_is(h->method, "DELETE");
    if (!takes_body || (!h->length.p && !h->encoding.p)) {
        handle_request(c, h);
        return;
    }
    if (h->encoding.p) {
        refuse(c, 411, "a request body needs a Content-Length\n");
        return;
    }
    long long length = http_content_length(h->length, NET_HTTP_BODY_MAX);
    if (length < 0) {
        bool number = http_content_length(h->length, (long long)1 << 62) >= 0;
        refuse(c, number ? 413 : 400, number ? "request body too large\n" : "bad Content-Length\n");
        return;
    }
    c->body = malloc((size_t)length + 1);
    if (!c->body) {
        drop_conn(c);
        return;
    }
    c->body_need = (size_t)length;
    size_t have = c->in_len - h->len < (size_t)length ? c->in_len - h->len : (size_t)length;
    memcpy(c->body, c->in + h->len, have);
    memmove(c->in + h->len, c->in + h->len + have, c->in_len - h->len - have);
    c->in_len -= have;
    c->body_len = have;
    if (have == (size_t)length) {
        c->body[have] = '\0';
        handle_request(c, h);
        return;
    }
    c->state = HTTP_BODY;
    c->deadline_ms = now_mono_ms() + HTTP_HEAD_TIMEOUT_MS;
    poll_events(c, UV_READABLE);
}

/* Answers the complete request at the start of the buffer, if there is one. */
static void process_input(struct http_conn *c) {
    if (c->state != HTTP_READING || c->in_len == 0) return;
    struct http_head h;
    unsigned rc = http_parse_head(c->in, c->in_len, &h);
    if (rc == 1) return; /* more to come */
    poll_events(c, 0);   /* one request at a time: the rest waits */
    switch (rc) {
        case 0: begin_request(c, &h); return;
        case 414: refuse(c, 414, "request target too long\n"); return;
        case 431: refuse(c, 431, "request headers too large\n"); return;
        case 505: refuse(c, 505, "HTTP/1.1 only\n"); return;
        default: refuse(c, 400, "bad request\n"); return;
    }
}

/* ---- the transport's side ---- */

/* Whether the connection comes from this machine (127.0.0.0/8, ::1, or IPv4-mapped 127.x). */
static bool peer_is_loopback(int fd) {
    struct sockaddr_storage peer;
    socklen_t len = sizeof peer;
    if (getpeername(fd, (struct sockaddr *)&peer, &len) != 0) return false;
    if (peer.ss_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)&peer;
        return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
    }
    if (peer.ss_family != AF_INET6) return false;
    const struct in6_addr *a = &((const struct sockaddr_in6 *)(const void *)&peer)->sin6_addr;
    return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
}

static void peer_text(int fd, char *out, size_t size) {
    struct sockaddr_storage peer;
    socklen_t len = sizeof peer;
    out[0] = '\0';
    if (getpeername(fd, (struct sockaddr *)&peer, &len) != 0) return;
    const void *a =
        peer.ss_family == AF_INET
            ? (const void *)&((const struct sockaddr_in *)(const void *)&peer)->sin_addr
            : (const void *)&((const struct sockaddr_in6 *)(const void *)&peer)->sin6_addr;
    if (!inet_ntop(peer.ss_family, a, out, (socklen_t)size)) out[0] = '\0';
    /* IPv4-mapped IPv6 addresses are written as IPv4 (as lws does). */
    if (strncmp(out, "::ffff:", 7) == 0 && strchr(out, '.'))
        memmove(out, out + 7, strlen(out + 7) + 1);
}

void http_accept(struct net *net, int fd, bool internal) {
    struct http_conn *c = calloc(1, sizeof *c);
    if (!c || uv_poll_init_socket(&net->loop, &c->poll, fd) != 0) {
        free(c);
        close(fd);
        return;
    }
    c->net = net;
    c->fd = fd;
    c->poll.data = c;
    c->internal = internal;
    c->req.conn = c;
    c->state = HTTP_READING;
    c->deadline_ms = now_mono_ms() + HTTP_HEAD_TIMEOUT_MS;
    c->local = peer_is_loopback(fd);
    peer_text(fd, c->peer, sizeof c->peer);
    c->next = net->http_conns;
    if (net->http_conns) net->http_conns->prev = c;
    net->http_conns = c;
    net->stats.http_connections++;
    poll_events(c, UV_READABLE);
}

void http_close_all(struct net *net) {
    while (net->http_conns) drop_conn(net->http_conns);
}

void http_sweep(struct net *net, int64_t now_ms) {
    for (struct http_conn *c = net->http_conns, *next; c; c = next) {
        next = c->next;
        /* The sweep runs once a second: a newline a second early keeps the gaps within
         * keepalive_ms. */
        if (c->state == HTTP_BUSY && c->req.pushing && !c->req.stream_done &&
            c->push_keepalive_ms > 0 &&
            now_ms - c->last_push_ms >= c->push_keepalive_ms - HTTP_SWEEP_MS &&
            net_http_push(&c->req, "\n", 1) < 0)
            continue; /* dropped */
        if (c->deadline_ms && now_ms >= c->deadline_ms) {
            LOGD("http", "connection dropped: %s",
                 c->state == HTTP_READING     ? "no complete request in time"
                 : c->state == HTTP_LINGERING ? "closed after its response"
                                              : "the response made no progress");
            drop_conn(c);
        }
    }
}

/* ---- the application's side ---- */

int net_http_respond(struct net_http *req, unsigned status, const char *type, char *body,
                     size_t len) {
    return net_http_respond_extra(req, status, type, NULL, body, len);
}

int net_http_respond_extra(struct net_http *req, unsigned status, const char *type,
                           const char *extra, char *body, size_t len) {
    char headers[512];
    req->streaming = false;
    snprintf(headers, sizeof headers, "cache-control: no-store\r\n%s", extra ? extra : "");
    return start_response(req, status, type, body, (long long)len, len, headers);
}

int net_http_push_start(struct net_http *req, unsigned status, const char *type, int keepalive_ms) {
    struct http_conn *c = req->conn;
    req->streaming = req->pushing = true;
    req->stream_done = req->head;
    req->chunked = c->minor == 1 && !req->head;
    c->push_keepalive_ms = keepalive_ms;
    c->last_push_ms = now_mono_ms();
    /* X-Accel-Buffering: nginx (docs/self-hosting.md) passes each line on at once. */
    return start_response(req, status, type, NULL, -1, 0,
                          "cache-control: no-store\r\nx-accel-buffering: no\r\n");
}

int net_http_push(struct net_http *req, const char *text, size_t len) {
    struct http_conn *c = req->conn;
    if (!req->pushing || req->stream_done || len == 0) return 0;
    char size_line[24];
    int n = snprintf(size_line, sizeof size_line, "%zx\r\n", len);
    if (c->aborted) return -1;
    if (c->out_len - c->out_sent + len > NET_HTTP_PUSH_MAX ||
        (req->chunked && out_add(c, size_line, (size_t)n) < 0) || out_add(c, text, len) < 0 ||
        (req->chunked && out_add(c, "\r\n", 2) < 0)) {
        LOGD("http", "a pushed response dropped: the client reads too slowly");
        net_http_abort(req); /* not at once: the application is in this call chain */
        return -1;
    }
    c->last_push_ms = now_mono_ms();
    if (c->events != UV_WRITABLE) start_writing(c);
    return 0;
}

void net_http_push_end(struct net_http *req) {
    struct http_conn *c = req->conn;
    if (!req->pushing || req->stream_done) return;
    if (req->chunked && out_add(c, "0\r\n\r\n", 5) < 0) c->keep_alive = false;
    req->stream_done = true;
    start_writing(c);
}

enum net_http_method net_http_method(const struct net_http *req) {
    return req->method;
}

const char *net_http_body(const struct net_http *req, size_t *len) {
    *len = req->body_len;
    return req->body ? req->body : "";
}

const char *net_http_authorization(const struct net_http *req) {
    return req->has_authorization ? req->authorization : NULL;
}

const char *net_http_accept(const struct net_http *req) {
    return req->accept;
}

const char *net_http_content_type(const struct net_http *req) {
    return req->content_type;
}

const char *net_http_addr(const struct net_http *req) {
    return req->addr;
}

int net_http_stream_start(struct net_http *req, const char *type, char *body, size_t len,
                          bool more) {
    req->streaming = true;
    req->stream_done = !more || req->head;
    req->conn->more_asked = false;
    return start_response(req, 200, type, body, -1, len, "cache-control: no-store\r\n");
}

void net_http_stream_more(struct net_http *req, char *body, size_t len, bool last) {
    struct http_conn *c = req->conn;
    c->more_asked = false;
    if (len && !req->head && out_add(c, body, len) < 0) last = true; /* out of memory: end */
    free(body);
    req->stream_done = last;
    start_writing(c);
}

/* The value of name= in text (fields separated by '&'), decoded into buf. */
static const char *field_value(const char *text, const char *name, char *buf, size_t size) {
    size_t nlen = strlen(name);
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '&');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len >= nlen && strncmp(p, name, nlen) == 0 && len - nlen < size) {
            if (http_url_decode(p + nlen, len - nlen, buf, true) < 0) return NULL;
            return buf;
        }
        if (!end) break;
        p = end + 1;
    }
    return NULL;
}

const char *net_http_query_arg(struct net_http *req, const char *name, char *buf, size_t size) {
    return field_value(req->query, name, buf, size);
}

const char *net_http_form_arg(struct net_http *req, const char *name, char *buf, size_t size) {
    char field[64];
    if (!req->body || snprintf(field, sizeof field, "%s=", name) >= (int)sizeof field) return NULL;
    return field_value(req->body, field, buf, size);
}

void net_http_abort(struct net_http *req) {
    /* Not at once: the application may still hold the request in this call chain. */
    struct http_conn *c = req->conn;
    c->aborted = true;
    c->deadline_ms = 1;
    poll_events(c, UV_WRITABLE);
}

void *net_http_user(const struct net_http *req) {
    return req->user;
}

void net_http_set_user(struct net_http *req, void *user) {
    req->user = user;
}

void net_http_host(struct net_http *req, char *out, size_t size) {
    snprintf(out, size, "%s", req->host[0] ? req->host : "localhost");
}

bool net_http_internal(const struct net_http *req) {
    return req->conn->internal;
}

bool net_http_local(const struct net_http *req) {
    return req->conn->local && !req->conn->forwarded;
}
