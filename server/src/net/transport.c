/*
 * The lws context and vhost on a libuv loop, the one protocol callback (HTTP and WebSocket) that
 * hands everything to wsconn.c and http.c, the mounts (the client's files at /, the dynamic
 * paths through the callback), and the two-step destruction lws 4.1 needs on a foreign loop:
 * once inside the loop (net_shutdown), once after uv_run() returned (net_destroy).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "net/internal.h"
#include <unistd.h>

#include "util/log.h"
#include "util/now.h"

/* ---- the protocol callback ---- */

/* A request header as a new malloc'd string ("" when absent), or NULL when memory runs out. */
static char *header_copy(struct lws *wsi, enum lws_token_indexes token) {
    int total = lws_hdr_total_length(wsi, token);
    char *out = malloc(total > 0 ? (size_t)total + 1 : 1);
    if (!out) return NULL;
    out[0] = '\0';
    if (total > 0 && lws_hdr_copy(wsi, out, total + 1, token) < 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* The client's address, read while the upgrade request's headers are still there. */
static void client_addr(struct net *net, struct lws *wsi, char *out, size_t size) {
    char peer[NETADDR_TEXT_MAX] = "";
    lws_get_peer_simple(wsi, peer, sizeof peer);
    snprintf(out, size, "%s", peer);
    const struct netaddr_list *trusted = net->cfg.trusted_proxies;
    if (!trusted || trusted->count == 0) return;
    /* X-Forwarded-For is read whole, however long: read as absent, it would let X-Real-IP (which
     * a client may write when the proxy does not) name the client. When a header cannot be
     * read, the peer stays the client. */
    char *forwarded_for = header_copy(wsi, WSI_TOKEN_X_FORWARDED_FOR);
    char *real_ip = header_copy(wsi, WSI_TOKEN_HTTP_X_REAL_IP);
    if (forwarded_for && real_ip) netaddr_client(trusted, peer, forwarded_for, real_ip, out, size);
    free(forwarded_for);
    free(real_ip);
}

/* The token of an "Authorization: Bearer <token>" header into out: NULL without the header, ""
 * when it is too long to be a token. */
static const char *bearer_token(struct lws *wsi, char *out, size_t size) {
    int total = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_AUTHORIZATION);
    if (total <= 0) return NULL;
    if (total >= (int)size || lws_hdr_copy(wsi, out, (int)size, WSI_TOKEN_HTTP_AUTHORIZATION) < 0)
        return "";
    const char *token = out;
    if (strncasecmp(token, "Bearer ", 7) == 0) token += 7;
    while (*token == ' ') token++;
    return token;
}

static int on_established(struct net *net, struct lws *wsi, struct session *ss) {
    ss->conn = wsconn_create(net, wsi);
    if (!ss->conn) return -1;
    char addr[NETADDR_TEXT_MAX], auth[128];
    client_addr(net, wsi, addr, sizeof addr);
    const char *bearer = bearer_token(wsi, auth, sizeof auth);
    LOGD("net", "conn=%llu open from %s", (unsigned long long)ss->conn->id, addr);
    ss->conn->user = net->handler.ws_open(net->handler.ctx, ss->conn, addr, bearer);
    if (!ss->conn->user) return -1; /* CLOSED follows and unlinks it */
    return 0;
}

static bool admit_upgrade(struct net *net, struct lws *wsi) {
    char uri[16];
    if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 || strcmp(uri, "/ws") != 0)
        return false;
    if (!net->accepting || net->stats.connections >= net->cfg.max_connections ||
        !net->handler.ws_admit(net->handler.ctx)) {
        net->stats.connections_rejected++;
        return false;
    }
    return true;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len) {
    struct lws_context *ctx = lws_get_context(wsi);
    struct net *net = ctx ? lws_context_user(ctx) : NULL;
    struct session *ss = user;
    switch (reason) {
        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
            /* Stopping: nothing new. The connection limit is for WebSockets only, so health
             * checks and metrics still answer when it is reached. */
            return net->accepting ? 0 : 1;
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: return admit_upgrade(net, wsi) ? 0 : 1;
        case LWS_CALLBACK_ESTABLISHED: return on_established(net, wsi, ss);
        case LWS_CALLBACK_RECEIVE:
            if (ss->conn) wsconn_receive(ss->conn, in, len);
            return 0;
        case LWS_CALLBACK_SERVER_WRITEABLE: return ss->conn ? wsconn_write(ss->conn) : 0;
        case LWS_CALLBACK_RECEIVE_PONG:
            if (ss->conn) wsconn_pong(ss->conn);
            return 0;
        case LWS_CALLBACK_CLOSED:
            if (ss->conn) {
                wsconn_closed(ss->conn);
                ss->conn = NULL;
            }
            return 0;
        case LWS_CALLBACK_HTTP:
            /* Plain HTTP never reaches lws (http.c answers it): only upgrades are adopted. */
            return -1;
        default: break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
    {"chess", callback, sizeof(struct session), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- lifecycle ---- */

/* "0.0.0.0" means every IPv4 address; NULL or "" every address. */
static const char *any_addr(const char *addr) {
    return addr && *addr ? addr : NULL;
}

static void on_http_timer(uv_timer_t *t) {
    struct net *net = t->data;
    http_sweep(net, now_mono_ms());
}

static void lws_log(int level, const char *line) {
    size_t len = strlen(line);
    while (len > 0 && line[len - 1] == '\n') len--;
    /* lws 4.1 reports every adoption with a read buffer (each WebSocket) as an error. */
    if (strstr(line, "adopt_socket_readbuf")) level = LLL_INFO;
    log_write(level == LLL_INFO   ? LOG_DEBUG
              : level == LLL_ERR  ? LOG_ERROR
              : level == LLL_WARN ? LOG_WARN
                                  : LOG_INFO,
              "lws", "%.*s", (int)len, line);
}

struct net *net_create(const struct net_config *cfg, const struct net_handler *handler) {
    struct net *net = calloc(1, sizeof *net);
    if (!net) return NULL;
    net->cfg = *cfg;
    net->handler = *handler;
    net->accepting = true;
    net->listeners[0].fd = net->listeners[1].fd = -1;
    net->listeners[1].internal = true;
    snprintf(net->index_path, sizeof net->index_path, "%s/index.html", cfg->static_dir);
    if (uv_loop_init(&net->loop) != 0) goto fail;
    net->loop_initialised = true;
    /* The ports first: a busy one stops the start before anything else is set up. */
    net->listeners[0].fd = listen_open(any_addr(cfg->listen_addr), cfg->port);
    if (net->listeners[0].fd < 0) goto fail;
    if (cfg->metrics_port > 0) {
        net->listeners[1].fd = listen_open(cfg->metrics_addr, cfg->metrics_port);
        if (net->listeners[1].fd < 0) goto fail;
    }

    lws_set_log_level(LLL_ERR | LLL_WARN, lws_log);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_LIBUV |
                   LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;
    info.user = net;
    /* Upgrade requests come whole from http.c, which allows heads up to 16 KiB. */
    info.max_http_header_data = 20 * 1024;
    /* No fd_limit_per_thread: with it, lws 4.1 finds a connection from its descriptor by a
     * linear scan; without it lws indexes a table sized from the fd limit, which main()
     * raises to the hard limit. */
    void *foreign[1] = {&net->loop};
    info.foreign_loops = foreign;
    net->ctx = lws_create_context(&info);
    if (!net->ctx) {
        LOGE("net", "cannot create the lws context (is libwebsockets-evlib-uv installed?)");
        goto fail;
    }
    /* lws listens on nothing: http.c accepts and hands it the WebSocket upgrades. */
    info.port = CONTEXT_PORT_NO_LISTEN_SERVER;
    info.protocols = protocols;
    info.vhost_name = "chess";
    /* No retry_and_idle_policy: idle connections are pinged and dropped by net_keepalive(). */
    net->vhost = lws_create_vhost(net->ctx, &info);
    if (!net->vhost) {
        LOGE("net", "cannot create the lws vhost");
        goto fail;
    }
    if (uv_timer_init(&net->loop, &net->http_timer) != 0) goto fail;
    net->http_timer.data = net;
    net->http_timer_started = true;
    if (uv_timer_start(&net->http_timer, on_http_timer, 1000, 1000) != 0 || listen_start(net) < 0)
        goto fail;
    struct stat st;
    if (stat(cfg->static_dir, &st) != 0)
        LOGW("net", "static directory %s not found: only the API and /ws are served",
             cfg->static_dir);
    return net;
fail:
    net_destroy(net);
    return NULL;
}

uv_loop_t *net_loop(struct net *net) {
    return &net->loop;
}

int net_run(struct net *net) {
    uv_run(&net->loop, UV_RUN_DEFAULT);
    lws_context_destroy(net->ctx); /* the second half of destruction on a foreign loop */
    net->ctx = NULL;
    net_free_closed(net);
    return 0;
}

void net_stop_accepting(struct net *net) {
    /* New connections are refused by the kernel; those open are answered until shutdown. */
    net->accepting = false;
    listen_close(net);
}

/* Closes the transport's own libuv handles and connections (idempotent). */
static void close_own(struct net *net) {
    http_close_all(net);
    listen_close(net);
    if (net->accept_timer_started) uv_close((uv_handle_t *)&net->accept_timer, NULL);
    net->accept_timer_started = false;
    if (net->http_timer_started) uv_close((uv_handle_t *)&net->http_timer, NULL);
    net->http_timer_started = false;
}

void net_shutdown(struct net *net) {
    close_own(net);
    lws_context_destroy(net->ctx);
}

void net_destroy(struct net *net) {
    if (!net) return;
    if (net->loop_initialised) close_own(net);
    for (int i = 0; i < 2; i++)
        if (net->listeners[i].fd >= 0) close(net->listeners[i].fd); /* never polled */
    if (net->ctx) {
        lws_context_destroy(net->ctx);
        uv_run(&net->loop, UV_RUN_DEFAULT);
        lws_context_destroy(net->ctx);
    } else if (net->loop_initialised) {
        uv_run(&net->loop, UV_RUN_DEFAULT); /* lets closed handles finish */
    }
    net_free_closed(net);
    if (net->loop_initialised && uv_loop_close(&net->loop) != 0)
        LOGW("net", "libuv loop still had handles at exit");
    free(net);
}

void net_get_stats(const struct net *net, struct net_stats *out) {
    *out = net->stats;
}
