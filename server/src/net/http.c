/*
 * HTTP endpoints beside the WebSocket: /healthz, /metrics (Prometheus text), /api/games/<id>
 * (JSON) and /api/games/<id>.pgn, and the fallback to the client's index.html for client routes
 * (a file that exists is served by lws's file mount before this code sees the request).
 *
 * A response is built whole into the session, then its headers and body are written on writable
 * callbacks (in chunks), so a response can also start outside the HTTP callback, when a database
 * read answers (reads.h). A response of unknown length (a player's PGN file) is streamed in
 * batches without Content-Length; the connection closes after it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/pgn.h"
#include "net/archive.h"
#include "net/cluster.h"
#include "net/engine.h"
#include "net/internal.h"
#include "net/persist.h"
#include "net/reads.h"
#include "proto/encode.h"
#include "proto/proto.h"
#include "util/log.h"
#include "util/now.h"

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
static int set_body(struct session *ss, char *body, size_t len) {
    free(ss->body);
    ss->body = malloc(LWS_PRE + len + 1);
    if (!ss->body) {
        free(body);
        return -1;
    }
    if (len) memcpy(ss->body + LWS_PRE, body, len);
    free(body);
    ss->body_len = len;
    ss->body_sent = 0;
    return 0;
}

/* Takes ownership of body and starts the response: the headers go out on the next writable
 * callback. type: a static string. */
static int respond(struct lws *wsi, struct session *ss, unsigned status, const char *type,
                   char *body, size_t len) {
    if (set_body(ss, body, len) < 0) return -1;
    ss->status = status;
    ss->type = type;
    ss->headers_due = true;
    ss->streaming = false;
    lws_callback_on_writable(wsi);
    return 0;
}

/* A fixed plain-text reply (copied). */
static int respond_text(struct lws *wsi, struct session *ss, unsigned status, const char *text) {
    char *body = strdup(text);
    if (!body) return -1;
    return respond(wsi, ss, status, "text/plain", body, strlen(text));
}

static int write_headers(struct lws *wsi, struct session *ss) {
    unsigned char headers[LWS_PRE + 1024];
    unsigned char *start = headers + LWS_PRE, *p = start, *end = headers + sizeof headers - 1;
    lws_filepos_t length = ss->streaming ? LWS_ILLEGAL_HTTP_CONTENT_LEN : ss->body_len;
    ss->headers_due = false;
    if (lws_add_http_common_headers(wsi, ss->status, ss->type, length, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)"no-store", 8, &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    return 0;
}

int http_stream_start(struct lws *wsi, struct session *ss, const char *type, char *body,
                      size_t len) {
    if (respond(wsi, ss, 200, type, body, len) < 0) return -1;
    ss->streaming = true;
    ss->stream_done = ss->stream == NULL;
    return 0;
}

void http_stream_more(struct lws *wsi, struct session *ss, char *body, size_t len, bool last) {
    if (set_body(ss, body, len) < 0) {
        /* Out of memory: end the file here (the connection closes). */
        ss->body_len = 0;
        last = true;
    }
    ss->stream_done = last;
    lws_callback_on_writable(wsi);
}

static int respond_json(struct lws *wsi, struct session *ss, unsigned status, json_t *msg) {
    if (!msg) return -1;
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text) return -1;
    return respond(wsi, ss, status, "application/json", text, strlen(text));
}

int http_send(struct lws *wsi, struct session *ss, unsigned status, const char *type, char *body,
              size_t len) {
    return respond(wsi, ss, status, type, body, len);
}

int http_send_json(struct lws *wsi, struct session *ss, unsigned status, json_t *msg) {
    return respond_json(wsi, ss, status, msg);
}

static int respond_error(struct lws *wsi, struct session *ss, unsigned status, int code) {
    return respond_json(wsi, ss, status, proto_encode_error(code, NULL));
}

/* A streamed batch is out: ask for the next one (or end the response). */
static int stream_next(struct session *ss) {
    struct net_read *next = ss->stream;
    ss->stream = NULL;
    free(ss->body);
    ss->body = NULL;
    ss->body_len = ss->body_sent = 0;
    if (next && reads_resubmit_http(ss, next) == 0) return 0; /* http_stream_more() follows */
    reads_discard(next);
    LOGW("http", "a streamed response ended early: the database cannot serve the next batch");
    return -1; /* the connection closes, ending the body */
}

int http_write(struct lws *wsi, struct session *ss) {
    if (lws_partial_buffered(wsi)) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (ss->headers_due) {
        if (write_headers(wsi, ss) < 0) return -1;
        if (lws_partial_buffered(wsi)) { /* the body follows once lws sent the rest */
            lws_callback_on_writable(wsi);
            return 0;
        }
    }
    if (!ss->body) return 0;
    bool last_batch = !ss->streaming || ss->stream_done;
    do {
        size_t left = ss->body_len - ss->body_sent;
        size_t n = left > HTTP_CHUNK ? HTTP_CHUNK : left;
        if (n == 0) break;
        /* The chunk is written in place: the LWS_PRE bytes before it are free or already
         * sent. */
        unsigned char *chunk = ss->body + LWS_PRE + ss->body_sent;
        unsigned char saved[LWS_PRE];
        memcpy(saved, chunk - LWS_PRE, LWS_PRE);
        enum lws_write_protocol kind =
            n == left && last_batch ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP;
        int written = lws_write(wsi, chunk, n, kind);
        memcpy(chunk - LWS_PRE, saved, LWS_PRE);
        if (written < (int)n) return -1;
        ss->body_sent += n;
    } while (ss->body_sent < ss->body_len && !lws_partial_buffered(wsi));
    if (ss->body_sent < ss->body_len) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (!last_batch) return ss->reading ? 0 : stream_next(ss);
    bool streamed = ss->streaming;
    free(ss->body);
    ss->body = NULL;
    ss->streaming = false;
    /* A response without a length ends when the connection closes. */
    if (streamed) return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

void http_session_done(struct session *ss) {
    free(ss->body);
    ss->body = NULL;
    ss->headers_due = false;
    reads_http_gone(ss->srv, ss);
    reads_discard(ss->stream);
    ss->stream = NULL;
}

static int serve_game(struct server *srv, struct lws *wsi, struct session *ss, const char *rest) {
    char id[GAME_ID_LEN + 8];
    size_t len = strlen(rest);
    bool pgn = len > 4 && strcmp(rest + len - 4, ".pgn") == 0;
    if (pgn) len -= 4;
    if (len == 0 || len > GAME_ID_LEN) return respond_error(wsi, ss, 404, -CORE_ERR_GAME_NOT_FOUND);
    memcpy(id, rest, len);
    id[len] = '\0';
    const struct game *g = world_game(srv->world, id);
    if (!g) return archive_http_game(srv, wsi, ss, id, pgn); /* ended long ago: the database */
    if (!pgn)
        return respond_json(wsi, ss, 200,
                            proto_encode_game(g, now_mono_ms(), PROTO_VIEWER_SPECTATOR));
    char site[300], host[256] = "";
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        snprintf(host, sizeof host, "localhost");
    snprintf(site, sizeof site, "http://%s", host);
    char *text = NULL;
    long n = game_write_pgn(g, site, &text);
    if (n < 0) return -1;
    return respond(wsi, ss, 200, "application/x-chess-pgn", text, (size_t)n);
}

static int serve_health(struct server *srv, struct lws *wsi, struct session *ss) {
    struct world_stats st;
    world_stats(srv->world, &st);
    json_t *body = json_pack("{s:s,s:i,s:i,s:i}", "status", srv->stopping ? "shutting_down" : "ok",
                             "connections", srv->conn_count, "games", st.games_live,
                             "players_online", st.players_online);
    /* Cut off from Redis, a node still serves its own games: "degraded", but 200, so a load
     * balancer keeps sending it the clients whose games it holds (docs/scaling.md). */
    if (body && cluster_health(srv, body) && !srv->stopping)
        json_object_set_new(body, "status", json_string("degraded"));
    return respond_json(wsi, ss, srv->stopping ? 503 : 200, body);
}

static int serve_metrics(struct server *srv, struct lws *wsi, struct session *ss) {
    struct world_stats st;
    world_stats(srv->world, &st);
    struct metrics_gauges g = {
        .connections = srv->conn_count,
        .players = st.players,
        .players_online = st.players_online,
        .games_live = st.games_live,
        .games_ended_kept = st.games_ended_kept,
        .seeks = st.seeks,
        .challenges = st.challenges,
        .moves_total = st.moves_total,
        .games_started_total = st.games_started_total,
        .games_ended_total = st.games_ended_total,
        .guests_forgotten_total = st.guests_forgotten_total,
    };
    engine_fill_gauges(srv, &g);
    persist_fill_gauges(srv, &g);
    if (cluster_enabled(srv)) {
        struct cluster_site_stats site;
        cluster_site_stats(srv, &site);
        g.cluster = true;
        g.cluster_redis_up = site.bus_up;
        g.site_nodes = site.nodes;
        g.site_connections = site.connections;
        g.site_players_online = site.players_online;
        g.site_games_live = site.games_live;
    }
    size_t len;
    char *text = metrics_render(&srv->metrics, &g, &len);
    if (!text) return -1;
    return respond(wsi, ss, 200, "text/plain; version=0.0.4", text, len);
}

int http_request(struct server *srv, struct lws *wsi, struct session *ss) {
    char path[512];
    ss->srv = srv;
    ss->wsi = wsi;
    srv->metrics.http_requests_total++;
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
        return respond_text(wsi, ss, 414, "URI too long\n");
    char safe[128];
    LOGD("http", "GET %s", log_sanitize(path, safe, sizeof safe));
    if (strcmp(path, "/healthz") == 0) return serve_health(srv, wsi, ss);
    if (strcmp(path, "/metrics") == 0) return serve_metrics(srv, wsi, ss);
    int rc;
    if (archive_http(srv, wsi, ss, path, &rc)) return rc; /* players, users, leaderboard, FEN */
    if (strncmp(path, "/api/games/", 11) == 0) return serve_game(srv, wsi, ss, path + 11);
    if (strncmp(path, "/api/", 5) == 0 || strcmp(path, "/api") == 0 || strcmp(path, "/ws") == 0)
        return respond_json(
            wsi, ss, 404,
            json_pack("{s:s,s:s}", "code", "NOT_FOUND", "message", "no such endpoint"));
    /* A client route (or a missing file): the single-page app's index.html. */
    if (access(srv->index_path, R_OK) == 0) {
        int n = lws_serve_http_file(wsi, srv->index_path, "text/html", NULL, 0);
        if (n < 0 || (n > 0 && lws_http_transaction_completed(wsi))) return -1;
        return 0;
    }
    return respond_text(wsi, ss, 404, "not found (the web client is not built)\n");
}
