/*
 * The application's HTTP endpoints: /healthz, /metrics (Prometheus text), /api/games/<id>
 * (JSON) and /api/games/<id>.pgn for games in memory, the archive's endpoints (archive.c), and
 * a JSON 404 for any other /api path (one with "." or ".." segments included). /metrics goes
 * only to the metrics port (--metrics-listen), or without one only to this machine. Everything else
 * is the transport's: static files and the single-page app's index.html.
 *
 * An answer that needs the database comes later (reads.h): the request's state is a struct
 * api_call attached to the transport's request, freed when the transport says it is over.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "app/archive.h"
#include "app/engine.h"
#include "app/httpapi.h"
#include "app/internal.h"
#include "app/persist.h"
#include "app/reads.h"
#include "app/site.h"
#include "core/pgn.h"
#include "proto/encode.h"
#include "proto/proto.h"
#include "util/now.h"

int api_send_json(struct net_http *req, unsigned status, json_t *msg) {
    return api_send_json_extra(req, status, NULL, msg);
}

int api_send_json_extra(struct net_http *req, unsigned status, const char *extra, json_t *msg) {
    if (!msg) return -1;
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text) return -1;
    return net_http_respond_extra(req, status, "application/json", extra, text, strlen(text));
}

static int send_error(struct net_http *req, unsigned status, int code) {
    return api_send_json(req, status, proto_encode_error(code, NULL));
}

/* ---- requests answered later ---- */

struct api_call *api_call_of(struct server *srv, struct net_http *req) {
    struct api_call *call = net_http_user(req);
    if (call) return call;
    call = calloc(1, sizeof *call);
    if (!call) return NULL;
    call->srv = srv;
    call->req = req;
    net_http_set_user(req, call);
    return call;
}

int api_more(void *user, struct net_http *req) {
    struct api_call *call = user;
    (void)req;
    if (call->reading) return 0; /* the next batch is already being read */
    struct db_read *next = call->stream;
    call->stream = NULL;
    if (next && reads_resubmit_http(call, next) == 0) return 0; /* net_http_stream_more follows */
    reads_discard(next);
    return -1;
}

void api_closed(void *user) {
    struct api_call *call = user;
    httpapi_closed(call);
    reads_http_gone(call);
    reads_discard(call->stream);
    free(call);
}

/* ---- endpoints ---- */

static int serve_game(struct server *srv, struct net_http *req, const char *rest) {
    char id[GAME_ID_LEN + 8];
    size_t len = strlen(rest);
    bool pgn = len > 4 && strcmp(rest + len - 4, ".pgn") == 0;
    if (pgn) len -= 4;
    if (len == 0 || len > GAME_ID_LEN) return send_error(req, 404, -CORE_ERR_GAME_NOT_FOUND);
    memcpy(id, rest, len);
    id[len] = '\0';
    const struct game *g = world_game(srv->world, id);
    if (!g) return archive_http_game(srv, req, id, pgn); /* ended long ago: the database */
    /* An ended game may have a computer analysis in the database: sent with it. */
    bool analysed = g->ended && persist_store(srv);
    json_t *state = NULL;
    char *text = NULL;
    long n = 0;
    if (!pgn) {
        state = proto_encode_game(g, now_mono_ms(), PROTO_VIEWER_SPECTATOR);
        if (!state) return -1;
        if (analysed) return archive_http_ended_game(srv, req, id, state, NULL, 0);
        return api_send_json(req, 200, state);
    }
    char site[300], host[256] = "";
    net_http_host(req, host, sizeof host);
    snprintf(site, sizeof site, "http://%s", host);
    n = game_write_pgn(g, site, &text);
    if (n < 0) return -1;
    if (analysed) return archive_http_ended_game(srv, req, id, NULL, text, (size_t)n);
    return net_http_respond(req, 200, "application/x-chess-pgn", text, (size_t)n);
}

int api_game_export(struct server *srv, struct net_http *req, const char *id, bool pgn) {
    char rest[GAME_ID_LEN + 8];
    if (strlen(id) > GAME_ID_LEN || !id[0]) return send_error(req, 404, -CORE_ERR_GAME_NOT_FOUND);
    snprintf(rest, sizeof rest, "%s%s", id, pgn ? ".pgn" : "");
    return serve_game(srv, req, rest);
}

static int serve_health(struct server *srv, struct net_http *req) {
    struct world_stats st;
    world_stats(srv->world, &st);
    json_t *body =
        json_pack("{s:s,s:s,s:i,s:i,s:i}", "status", srv->stopping ? "shutting_down" : "ok",
                  "version", CHESS_VERSION, "connections", srv->conn_count, "games", st.games_live,
                  "players_online", st.players_online);
    /* Cut off from Redis, a node still serves its own games: "degraded", but 200, so a load
     * balancer keeps sending it the clients whose games it holds (docs/scaling.md). */
    bool degraded = body && site_health(srv, body);
    /* A database that cannot be reached holds the writes and what waits for them: degraded
     * too, and still 200 (docs/scaling.md). */
    if (body && persist_store(srv)) {
        bool down = persist_database_down(srv);
        json_object_set_new(body, "database", json_string(down ? "down" : "up"));
        degraded |= down;
    }
    if (degraded && !srv->stopping) json_object_set_new(body, "status", json_string("degraded"));
    return api_send_json(req, srv->stopping ? 503 : 200, body);
}

/* The transport's counters go into the metrics as they are rendered. */
static void take_net_stats(struct server *srv) {
    struct net_stats ns;
    net_get_stats(srv->net, &ns);
    struct metrics *m = &srv->metrics;
    m->connections_total = ns.connections_total;
    m->connections_rejected = ns.connections_rejected;
    m->connections_closed_slow = ns.connections_closed_slow;
    m->connections_closed_idle = ns.connections_closed_idle;
    m->http_requests_total = ns.http_requests_total;
    m->accept_paused_total = ns.accept_paused;
    m->upgrades_refused_origin_total = ns.upgrades_refused_origin;
    m->messages_out_total = ns.messages_out_total;
    m->bytes_in_total = ns.bytes_in_total;
    m->bytes_out_total = ns.bytes_out_total;
}

/* The process's own figures (Linux: /proc/self), each -1 when it cannot be read. */
static void read_process(const struct server *srv, struct metrics_gauges *g) {
    struct rusage ru;
    g->process_cpu_seconds = getrusage(RUSAGE_SELF, &ru) == 0
                                 ? (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                                       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6
                                 : -1;
    g->process_resident_bytes = -1;
    FILE *statm = fopen("/proc/self/statm", "r");
    long pages_total, pages_resident;
    if (statm && fscanf(statm, "%ld %ld", &pages_total, &pages_resident) == 2)
        g->process_resident_bytes = (double)pages_resident * (double)sysconf(_SC_PAGESIZE);
    if (statm) fclose(statm);
    g->process_open_fds = -1;
    DIR *fds = opendir("/proc/self/fd");
    if (fds) {
        long n = 0;
        for (struct dirent *e; (e = readdir(fds));)
            if (e->d_name[0] != '.') n++;
        g->process_open_fds = (double)(n - 1); /* not the one reading the directory */
        closedir(fds);
    }
    struct rlimit rl;
    g->process_max_fds = getrlimit(RLIMIT_NOFILE, &rl) == 0 ? (double)rl.rlim_cur : -1;
    g->process_start_seconds = (double)srv->started_wall_ms / 1000.0;
}

static int serve_metrics(struct server *srv, struct net_http *req) {
    struct world_stats st;
    world_stats(srv->world, &st);
    struct metrics_gauges g = {
        .connections = srv->conn_count,
        .players = st.players,
        .players_online = srv->players_here,
        .games_live = st.games_live,
        .games_ended_kept = st.games_ended_kept,
        .seeks = st.seeks,
        .challenges = st.challenges,
        .moves_total = st.moves_total,
        .games_started_total = st.games_started_total,
        .games_ended_total = st.games_ended_total,
        .guests_forgotten_total = st.guests_forgotten_total,
        .version = CHESS_VERSION,
    };
    read_process(srv, &g);
    engine_fill_gauges(srv, &g);
    persist_fill_gauges(srv, &g);
    if (site_enabled(srv)) {
        struct site_stats site;
        site_stats(srv, &site);
        g.cluster = true;
        g.cluster_redis_up = site.bus_up;
        g.site_reporter = site.reporter;
        g.site_nodes = site.nodes;
        g.site_connections = site.connections;
        g.site_players_online = site.players_online;
        g.site_games_live = site.games_live;
    }
    take_net_stats(srv);
    size_t len;
    char *text = metrics_render(&srv->metrics, &g, &len);
    if (!text) return -1;
    return net_http_respond(req, 200, "text/plain; version=0.0.4", text, len);
}

static int method_not_allowed(struct net_http *req) {
    /* "error" as lichess's API answers, "code" and "message" as this server's. */
    return api_send_json_extra(req, 405, "allow: GET, HEAD\r\n",
                               json_pack("{s:s,s:s,s:s}", "error", "Method not allowed", "code",
                                         "METHOD_NOT_ALLOWED", "message",
                                         "this endpoint takes GET and HEAD"));
}

static int no_endpoint(struct net_http *req) {
    return api_send_json(req, 404,
                         json_pack("{s:s,s:s,s:s}", "error", "Not found", "code", "NOT_FOUND",
                                   "message", "no such endpoint"));
}

/* Whether a (decoded) path has a "." or ".." segment: no endpoint's does. */
static bool dot_segment(const char *path) {
    for (const char *p = path; (p = strchr(p, '/'));) {
        p++;
        size_t dots = strspn(p, ".");
        if ((dots == 1 || dots == 2) && (p[dots] == '/' || !p[dots])) return true;
    }
    return false;
}

/* Returns what the HTTP callback returns (0 or -1), or 1 for a path that is not the API's.
 * /metrics: on the metrics port when there is one (--metrics-listen), else on this port to this
 * machine only; the metrics port serves /metrics and /healthz and nothing else. */
static int route(struct server *srv, struct net_http *req, const char *path) {
    bool internal = net_http_internal(req);
    bool reading = net_http_method(req) == NET_HTTP_GET || net_http_method(req) == NET_HTTP_HEAD;
    bool api_path = strncmp(path, "/api/", 5) == 0 || strncmp(path, "/game/export/", 13) == 0;
    if (!reading && (internal || !api_path)) return 1; /* the transport's 405 */
    if (strcmp(path, "/healthz") == 0) return serve_health(srv, req);
    if (strcmp(path, "/metrics") == 0) {
        bool allowed = srv->cfg.metrics_port ? internal : net_http_local(req);
        return allowed ? serve_metrics(srv, req) : no_endpoint(req);
    }
    bool api = strncmp(path, "/api/", 5) == 0 || strcmp(path, "/api") == 0;
    /* Encoded traversal (/api/games/..%2f..%2fetc) matches no route: a JSON 404. */
    if (internal || (api && dot_segment(path))) return no_endpoint(req);
    int rc;
    if (api_path && (rc = httpapi_request(srv, req, path)) <= 0)
        return rc; /* the lichess-compatible API */
    if (!reading) return method_not_allowed(req);
    if (archive_http(srv, req, path, &rc)) return rc; /* players, users, leaderboard, FEN */
    if (strncmp(path, "/api/games/", 11) == 0) return serve_game(srv, req, path + 11);
    if (api || strcmp(path, "/ws") == 0) return no_endpoint(req);
    return 1;
}

enum net_http_outcome api_request(void *ctx, struct net_http *req, const char *path) {
    struct server *srv = ctx;
    int rc = route(srv, req, path);
    return rc > 0 ? NET_HTTP_NOT_MINE : rc < 0 ? NET_HTTP_CLOSE : NET_HTTP_ANSWERED;
}
