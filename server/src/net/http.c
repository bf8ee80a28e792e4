/*
 * HTTP endpoints beside the WebSocket: /healthz, /metrics (Prometheus text), /api/games/<id>
 * (JSON) and /api/games/<id>.pgn, and the fallback to the client's index.html for client routes
 * (a file that exists is served by lws's file mount before this code sees the request).
 *
 * A response is built whole into the session, then written in chunks on writable callbacks.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/pgn.h"
#include "net/archive.h"
#include "net/cluster.h"
#include "net/engine.h"
#include "net/internal.h"
#include "proto/encode.h"
#include "proto/proto.h"
#include "util/log.h"
#include "util/now.h"

#define HTTP_CHUNK 16384

/* Takes ownership of body (plain malloc'd text) and starts the response. */
static int respond(struct lws *wsi, struct session *ss, unsigned status, const char *type,
                   char *body, size_t len) {
    unsigned char headers[LWS_PRE + 1024];
    unsigned char *start = headers + LWS_PRE, *p = start, *end = headers + sizeof headers - 1;
    ss->body = malloc(LWS_PRE + len + 1);
    if (!ss->body) {
        free(body);
        return -1;
    }
    memcpy(ss->body + LWS_PRE, body, len);
    free(body);
    ss->body_len = len;
    ss->body_sent = 0;
    if (lws_add_http_common_headers(wsi, status, type, len, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)"no-store", 8, &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    lws_callback_on_writable(wsi);
    return 0;
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

int http_write(struct lws *wsi, struct session *ss) {
    if (!ss->body) return 0;
    size_t left = ss->body_len - ss->body_sent;
    size_t n = left > HTTP_CHUNK ? HTTP_CHUNK : left;
    /* The chunk is written in place: the LWS_PRE bytes before it are free or already sent. */
    unsigned char *chunk = ss->body + LWS_PRE + ss->body_sent;
    unsigned char saved[LWS_PRE];
    memcpy(saved, chunk - LWS_PRE, LWS_PRE);
    enum lws_write_protocol kind = n == left ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP;
    int written = lws_write(wsi, chunk, n, kind);
    memcpy(chunk - LWS_PRE, saved, LWS_PRE);
    if (written < (int)n) return -1;
    ss->body_sent += n;
    if (ss->body_sent < ss->body_len) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    http_session_done(ss);
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

void http_session_done(struct session *ss) {
    free(ss->body);
    ss->body = NULL;
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
    };
    engine_fill_gauges(srv, &g);
    size_t len;
    char *text = metrics_render(&srv->metrics, &g, &len);
    if (!text) return -1;
    return respond(wsi, ss, 200, "text/plain; version=0.0.4", text, len);
}

int http_request(struct server *srv, struct lws *wsi, struct session *ss) {
    char path[512];
    srv->metrics.http_requests_total++;
    if (lws_hdr_copy(wsi, path, sizeof path, WSI_TOKEN_GET_URI) <= 0) {
        /* Not a GET (lws keeps other methods' paths elsewhere): only GET is served here. */
        return respond(wsi, ss, 405, "text/plain", strdup("method not allowed\n"), 19);
    }
    LOGD("http", "GET %s", path);
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
    return respond(wsi, ss, 404, "text/plain", strdup("not found (the web client is not built)\n"),
                   40);
}
