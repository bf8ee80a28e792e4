/*
 * HTTP framing beside the WebSocket: GET only, a response built whole (or batch by batch when
 * streamed) and written on writable callbacks in chunks, so a response can also start outside
 * the HTTP callback (when a database read answers). A response of unknown length is streamed in
 * batches without Content-Length; the connection closes after it. Paths the application does
 * not serve get the single-page app's index.html (a file that exists is served by lws's file
 * mount before this code sees the request).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/internal.h"
#include "util/log.h"

/*
 * Bodies go out in pieces, as many per writable callback as the socket takes whole. A piece the
 * socket does not take whole is finished by lws itself from its next writable event, and each
 * writable event costs a turn of the loop: on a saturated loop (libuv handles up to 48 x 1024
 * ready descriptors per turn) a turn can last two seconds, so a 16 KiB /metrics body written one
 * piece per turn took six to eight seconds and was sometimes cut short by the client's or lws's
 * timeout. Writing on while the socket takes everything needs one or two turns.
 */
#define HTTP_CHUNK 4096

/* Takes ownership of body (plain malloc'd text) and sets it up for the writable callbacks. */
static int set_body(struct net_http *req, char *body, size_t len) {
    free(req->body);
    req->body = malloc(LWS_PRE + len + 1);
    if (!req->body) {
        free(body);
        return -1;
    }
    if (len) memcpy(req->body + LWS_PRE, body, len);
    free(body);
    req->body_len = len;
    req->body_sent = 0;
    return 0;
}

int net_http_respond(struct net_http *req, unsigned status, const char *type, char *body,
                     size_t len) {
    if (set_body(req, body, len) < 0) return -1;
    req->status = status;
    req->type = type;
    req->headers_due = true;
    req->streaming = false;
    lws_callback_on_writable(req->wsi);
    return 0;
}

/* A fixed plain-text reply (copied). */
static int respond_text(struct net_http *req, unsigned status, const char *text) {
    char *body = strdup(text);
    if (!body) return -1;
    return net_http_respond(req, status, "text/plain", body, strlen(text));
}

static int write_headers(struct net_http *req) {
    struct lws *wsi = req->wsi;
    unsigned char headers[LWS_PRE + 1024];
    unsigned char *start = headers + LWS_PRE, *p = start, *end = headers + sizeof headers - 1;
    lws_filepos_t length = req->streaming ? LWS_ILLEGAL_HTTP_CONTENT_LEN : req->body_len;
    req->headers_due = false;
    if (lws_add_http_common_headers(wsi, req->status, req->type, length, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)"no-store", 8, &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    return 0;
}

int net_http_stream_start(struct net_http *req, const char *type, char *body, size_t len,
                          bool more) {
    if (net_http_respond(req, 200, type, body, len) < 0) return -1;
    req->streaming = true;
    req->stream_done = !more;
    return 0;
}

void net_http_stream_more(struct net_http *req, char *body, size_t len, bool last) {
    if (set_body(req, body, len) < 0) {
        /* Out of memory: end the file here (the connection closes). */
        req->body_len = 0;
        last = true;
    }
    req->stream_done = last;
    lws_callback_on_writable(req->wsi);
}

/* A streamed batch is out: ask the application for the next one (or end the response). */
static int stream_next(struct net_http *req) {
    free(req->body);
    req->body = NULL;
    req->body_len = req->body_sent = 0;
    if (req->user && req->net->handler.http_more(req->user, req) == 0) return 0;
    LOGW("http", "a streamed response ended early: the next batch cannot be had");
    return -1; /* the connection closes, ending the body */
}

int http_write(struct net_http *req) {
    struct lws *wsi = req->wsi;
    if (lws_partial_buffered(wsi)) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (req->headers_due) {
        if (write_headers(req) < 0) return -1;
        if (lws_partial_buffered(wsi)) { /* the body follows once lws sent the rest */
            lws_callback_on_writable(wsi);
            return 0;
        }
    }
    if (!req->body) return 0;
    bool last_batch = !req->streaming || req->stream_done;
    do {
        size_t left = req->body_len - req->body_sent;
        size_t n = left > HTTP_CHUNK ? HTTP_CHUNK : left;
        if (n == 0) break;
        /* The chunk is written in place: the LWS_PRE bytes before it are free or already
         * sent. */
        unsigned char *chunk = req->body + LWS_PRE + req->body_sent;
        unsigned char saved[LWS_PRE];
        memcpy(saved, chunk - LWS_PRE, LWS_PRE);
        enum lws_write_protocol kind =
            n == left && last_batch ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP;
        int written = lws_write(wsi, chunk, n, kind);
        memcpy(chunk - LWS_PRE, saved, LWS_PRE);
        if (written < (int)n) return -1;
        req->body_sent += n;
    } while (req->body_sent < req->body_len && !lws_partial_buffered(wsi));
    if (req->body_sent < req->body_len) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (!last_batch) return stream_next(req);
    bool streamed = req->streaming;
    free(req->body);
    req->body = NULL;
    req->streaming = false;
    /* A response without a length ends when the connection closes. */
    if (streamed) return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

void http_done(struct net_http *req) {
    free(req->body);
    req->body = NULL;
    req->headers_due = false;
    if (req->user && req->net) req->net->handler.http_closed(req->user);
    req->user = NULL;
}

const char *net_http_query_arg(struct net_http *req, const char *name, char *buf, size_t size) {
    return lws_get_urlarg_by_name(req->wsi, name, buf, (int)size);
}

void net_http_abort(struct net_http *req) {
    lws_set_timeout(req->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

void *net_http_user(const struct net_http *req) {
    return req->user;
}

void net_http_set_user(struct net_http *req, void *user) {
    req->user = user;
}

void net_http_host(struct net_http *req, char *out, size_t size) {
    if (lws_hdr_copy(req->wsi, out, (int)size, WSI_TOKEN_HOST) <= 0)
        snprintf(out, size, "localhost");
}

int http_request(struct net *net, struct lws *wsi, struct net_http *req) {
    char path[512];
    req->net = net;
    req->wsi = wsi;
    net->stats.http_requests_total++;
    int path_len = lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI);
    if (path_len <= 0) {
        /* Not a GET (lws keeps other methods' paths elsewhere): only GET is served here. The
         * answer goes out now and the connection closes: lws would hold a queued reply until
         * it had read a request body, which no endpoint takes (and without a Content-Length it
         * waits for one for seconds). */
        lws_return_http_status(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, "method not allowed");
        return -1;
    }
    /* No endpoint or client route is that long (and a GET it is: not a 405). */
    if (path_len >= (int)sizeof path ||
        lws_hdr_copy(wsi, path, sizeof path, WSI_TOKEN_GET_URI) <= 0)
        return respond_text(req, 414, "URI too long\n");
    char safe[128];
    LOGD("http", "GET %s", log_sanitize(path, safe, sizeof safe));
    enum net_http_outcome outcome = net->handler.http(net->handler.ctx, req, path);
    if (outcome != NET_HTTP_NOT_MINE) return outcome == NET_HTTP_ANSWERED ? 0 : -1;
    /* A client route (or a missing file): the single-page app's index.html. */
    if (access(net->index_path, R_OK) == 0) {
        int n = lws_serve_http_file(wsi, net->index_path, "text/html", NULL, 0);
        if (n < 0 || (n > 0 && lws_http_transaction_completed(wsi))) return -1;
        return 0;
    }
    return respond_text(req, 404, "not found (the web client is not built)\n");
}
