/*
 * The lws context and vhost on the libuv loop, the one protocol callback (HTTP and WebSocket),
 * the timers and the shutdown sequence.
 *
 * Two uv timers: one for the world's next deadline (flags, first-move aborts, seek expiry) and
 * one for housekeeping every 100 ms (freeing closed connections, moves per second, noticing a
 * stop request). lws's own timers are not used: on a foreign libuv loop they are only re-armed
 * after lws's own callbacks, so one set from a uv callback could sleep forever. Other threads
 * hand results to the loop through the mailbox, woken by writing an eventfd that the loop polls.
 *
 * Shutdown: stop accepting, send every connection a GOING_AWAY close frame after what is
 * queued for it, wait until they are gone (or shutdown_grace_ms), then destroy the context
 * inside the loop, and again after uv_run() returns, as lws 4.1 needs on a foreign loop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/cluster.h"
#include "net/engine.h"
#include "net/internal.h"
#include "net/persist.h"
#include "util/ids.h"
#include "util/log.h"
#include "util/now.h"

void server_config_defaults(struct server_config *cfg) {
    *cfg = (struct server_config){
        .listen_addr = NULL,
        .port = 8080,
        .static_dir = "client/dist",
        .max_message = 16384,
        .max_connections = 20000,
        .out_queue_max = 1024,
        .rate_per_s = 20,
        .rate_burst = 40,
        .bot_rate_per_s = 50,
        .bot_rate_burst = 100,
        .abuse_limit = 20,
        .max_watch = 32,
        .ping_interval_s = 25,
        .idle_timeout_s = 60,
        .shutdown_grace_ms = 3000,
    };
    world_config_defaults(&cfg->world);
}

static int random_source(void *ctx, void *buf, unsigned n) {
    (void)ctx;
    return ids_random_bytes(buf, n);
}

/* ---- timers ---- */

static void timer_uv_cb(uv_timer_t *handle) {
    struct loop_timer *t = handle->data;
    t->fire(t->srv);
}

static int timer_init(struct server *srv, struct loop_timer *t, void (*fire)(struct server *)) {
    t->srv = srv;
    t->fire = fire;
    if (uv_timer_init(&srv->loop, &t->uv) != 0) return -1;
    t->uv.data = t;
    t->initialised = true;
    return 0;
}

/* (Re)arms the timer to fire once after delay_us (rounded up to whole ms). */
static void timer_start(struct loop_timer *t, int64_t delay_us) {
    if (delay_us < 1) delay_us = 1;
    uv_timer_start(&t->uv, timer_uv_cb, (uint64_t)(delay_us + 999) / 1000, 0);
}

static void timer_stop(struct loop_timer *t) {
    if (!t->initialised) return;
    uv_timer_stop(&t->uv);
}

static void timer_close(struct loop_timer *t) {
    if (!t->initialised) return;
    timer_stop(t);
    if (!uv_is_closing((uv_handle_t *)&t->uv)) uv_close((uv_handle_t *)&t->uv, NULL);
    t->initialised = false;
}

static void world_timer_fired(struct server *srv) {
    int64_t now_us = now_mono_us();
    if (srv->world_timer_at != GCLOCK_NEVER)
        metrics_hist_observe(&srv->metrics.timer_lag_us,
                             (double)(now_us - srv->world_timer_at * 1000));
    srv->world_timer_at = GCLOCK_NEVER;
    world_tick(srv->world, now_us / 1000, &srv->events);
    dispatch_events(srv, &srv->events, NULL, NULL); /* re-arms the timer */
}

void server_arm_world_timer(struct server *srv) {
    int64_t next = world_next_deadline(srv->world);
    if (next == srv->world_timer_at) return;
    srv->world_timer_at = next;
    if (next == GCLOCK_NEVER)
        timer_stop(&srv->world_timer);
    else
        timer_start(&srv->world_timer, next * 1000 - now_mono_us());
}

/* ---- results from other threads ---- */

static void drain_mailbox(struct server *srv) {
    struct mailbox_item *item = mailbox_take_all(&srv->mailbox);
    while (item) {
        struct server_result *r = (struct server_result *)(void *)item;
        item = item->next;
        r->apply(srv, r);
    }
}

static void wake_cb(uv_poll_t *handle, int status, int events) {
    (void)events;
    struct server *srv = handle->data;
    if (status < 0) LOGW("server", "wake-up descriptor: %s", uv_strerror(status));
    /* Resets the eventfd's counter; nothing to read is a wake-up already consumed. */
    uint64_t count;
    if (read(srv->wake_fd, &count, sizeof count) < 0 && errno != EAGAIN)
        LOGW("server", "wake-up descriptor: %s", strerror(errno));
    drain_mailbox(srv);
}

/*
 * Runs on the posting thread (write() is thread-safe). This is a write to an eventfd, not
 * uv_async_send(): libuv 1.44's handler spins on each async
 * handle (997 tries, then sched_yield() until the sender is done) while the sending thread is
 * between marking the handle and writing its own eventfd, and a sender preempted there on a
 * busy machine kept the loop spinning; under callgrind the handler cost 3,100 instructions per
 * wake-up, most of a commit's cost on the loop. The mailbox sends at most one wake-up until the
 * loop takes its items, which is all the coalescing uv_async gave.
 */
static void wake_loop(void *ctx) {
    struct server *srv = ctx;
    uint64_t one = 1;
    if (write(srv->wake_fd, &one, sizeof one) < 0 && errno != EAGAIN)
        LOGE("server", "cannot wake the loop: %s", strerror(errno));
}

void server_post(struct server *srv, struct server_result *result) {
    mailbox_post(&srv->mailbox, &result->link);
}

static void begin_shutdown(struct server *srv) {
    srv->stopping = true;
    srv->stop_deadline_ms = now_mono_ms() + srv->cfg.shutdown_grace_ms;
    LOGI("server", "shutting down: closing %d connections", srv->conn_count);
    for (struct conn *c = srv->conns; c; c = c->all_next)
        conn_close(c, LWS_CLOSE_STATUS_GOINGAWAY, "server shutting down");
}

static void finish(struct server *srv) {
    srv->finished = true;
    persist_detach(srv); /* no wake-ups from the store once the loop is going away */
    engine_detach(srv);  /* nor from the engine's workers: their last results are drained below */
    cluster_detach(srv); /* the Redis links' handles close with the loop */
    LOGI("server", "shutdown complete (%d connections left)", srv->conn_count);
    drain_mailbox(srv);
    timer_close(&srv->world_timer);
    timer_close(&srv->house_timer);
    /* The context is destroyed inside the loop; server_run() finishes the job. */
    uv_close((uv_handle_t *)&srv->wake_poll, NULL);
    lws_context_destroy(srv->ctx);
}

static void sample_moves(struct server *srv, int64_t now) {
    if (now - srv->last_sample_ms < 1000) return;
    srv->last_sample_ms = now;
    struct world_stats st;
    world_stats(srv->world, &st);
    int n = (int)(sizeof srv->moves_sample / sizeof srv->moves_sample[0]);
    srv->moves_sample[srv->moves_sample_at % n] = (int64_t)st.moves_total;
    int have = srv->moves_sample_at < n - 1 ? srv->moves_sample_at : n - 1;
    int64_t oldest = srv->moves_sample[(srv->moves_sample_at - have + n) % n];
    srv->metrics.moves_per_second = have ? (double)((int64_t)st.moves_total - oldest) / have : 0;
    srv->moves_sample_at++;
}

static void house_timer_fired(struct server *srv) {
    int64_t now = now_mono_ms();
    conn_free_closed(srv);
    if (!srv->stopping) conn_keepalive(srv, now);
    sample_moves(srv, now);
    cluster_tick(srv, now);
    if (srv->stop_requested && !srv->stopping) begin_shutdown(srv);
    if (srv->stopping && (srv->conn_count == 0 || now >= srv->stop_deadline_ms)) {
        finish(srv);
        return;
    }
    timer_start(&srv->house_timer, 100000);
}

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
static void remember_client_addr(struct server *srv, struct lws *wsi, struct conn *c) {
    char peer[NETADDR_TEXT_MAX] = "";
    lws_get_peer_simple(wsi, peer, sizeof peer);
    snprintf(c->addr, sizeof c->addr, "%s", peer);
    if (srv->cfg.trusted_proxies.count == 0) return;
    /* X-Forwarded-For is read whole, however long: read as absent, it would let X-Real-IP (which
     * a client may write when the proxy does not) name the client. When a header cannot be
     * read, the peer stays the client. */
    char *forwarded_for = header_copy(wsi, WSI_TOKEN_X_FORWARDED_FOR);
    char *real_ip = header_copy(wsi, WSI_TOKEN_HTTP_X_REAL_IP);
    if (forwarded_for && real_ip)
        netaddr_client(&srv->cfg.trusted_proxies, peer, forwarded_for, real_ip, c->addr,
                       sizeof c->addr);
    free(forwarded_for);
    free(real_ip);
}

/* A bot may identify itself with its upgrade request ("Authorization: Bearer <token>"). */
static void bearer_hello(struct lws *wsi, struct conn *c) {
    char auth[128];
    int total = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_AUTHORIZATION);
    if (total <= 0) return;
    if (total >= (int)sizeof auth ||
        lws_hdr_copy(wsi, auth, sizeof auth, WSI_TOKEN_HTTP_AUTHORIZATION) < 0) {
        dispatch_bearer_hello(c, ""); /* refused: no token is that long */
        return;
    }
    const char *token = auth;
    if (strncasecmp(token, "Bearer ", 7) == 0) token += 7;
    while (*token == ' ') token++;
    dispatch_bearer_hello(c, token);
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len) {
    struct lws_context *ctx = lws_get_context(wsi);
    struct server *srv = ctx ? lws_context_user(ctx) : NULL;
    struct session *ss = user;
    switch (reason) {
        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
            /* Stopping: nothing new. The connection limit is for WebSockets only, so health
             * checks and metrics still answer when it is reached. */
            return srv->stopping ? 1 : 0;
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: {
            char uri[16];
            if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 ||
                strcmp(uri, "/ws") != 0)
                return 1;
            if (srv->stopping || srv->conn_count >= srv->cfg.max_connections) {
                srv->metrics.connections_rejected++;
                return 1;
            }
            return 0;
        }
        case LWS_CALLBACK_ESTABLISHED:
            ss->conn = conn_create(srv, wsi);
            if (!ss->conn) return -1;
            remember_client_addr(srv, wsi, ss->conn);
            LOGD("net", "conn=%llu open from %s", (unsigned long long)ss->conn->id, ss->conn->addr);
            bearer_hello(wsi, ss->conn);
            return 0;
        case LWS_CALLBACK_RECEIVE:
            if (ss->conn) conn_receive(ss->conn, in, len);
            persist_release_committed(srv);
            return 0;
        case LWS_CALLBACK_SERVER_WRITEABLE: return ss->conn ? conn_write(ss->conn) : 0;
        case LWS_CALLBACK_RECEIVE_PONG:
            if (ss->conn) conn_pong(ss->conn);
            return 0;
        case LWS_CALLBACK_CLOSED:
            if (ss->conn) {
                LOGD("net", "conn=%llu closed", (unsigned long long)ss->conn->id);
                conn_closed(ss->conn);
                ss->conn = NULL;
            }
            return 0;
        case LWS_CALLBACK_HTTP: return http_request(srv, wsi, ss);
        case LWS_CALLBACK_HTTP_BODY:
            /* A GET with a body (other methods are refused at once, http.c): no endpoint takes
             * one, so it is dropped; the reply queued meanwhile goes out once it is all read. */
            return 0;
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            if (ss && (ss->body || ss->headers_due)) lws_callback_on_writable(wsi);
            return 0;
        case LWS_CALLBACK_HTTP_WRITEABLE:
            if (ss && (ss->body || ss->headers_due)) return http_write(wsi, ss);
            break;
        case LWS_CALLBACK_CLOSED_HTTP:
        case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
            if (ss) http_session_done(ss);
            break;
        default: break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
    {"chess", callback, sizeof(struct session), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- lifecycle ---- */

/* Sets up the mounts: the client's files at /, dynamic endpoints through the callback. */
static void setup_mounts(struct server *srv) {
    static const char *const dynamic[] = {"/api", "/healthz", "/metrics"};
    struct lws_http_mount *m = srv->mounts;
    for (int i = 0; i < 3; i++) {
        m[i] = (struct lws_http_mount){
            .mount_next = &m[i + 1],
            .mountpoint = dynamic[i],
            .mountpoint_len = (unsigned char)strlen(dynamic[i]),
            .origin = "chess",
            .origin_protocol = LWSMPRO_CALLBACK,
        };
    }
    m[3] = (struct lws_http_mount){
        .mountpoint = "/",
        .mountpoint_len = 1,
        .origin = srv->cfg.static_dir,
        .def = "index.html",
        .origin_protocol = LWSMPRO_FILE,
        .protocol = "chess",
    };
    snprintf(srv->index_path, sizeof srv->index_path, "%s/index.html", srv->cfg.static_dir);
}

static void lws_log(int level, const char *line) {
    size_t len = strlen(line);
    while (len > 0 && line[len - 1] == '\n') len--;
    log_write(level == LLL_ERR    ? LOG_ERROR
              : level == LLL_WARN ? LOG_WARN
                                  : LOG_INFO,
              "lws", "%.*s", (int)len, line);
}

struct server *server_create(const struct server_config *cfg) {
    struct server *srv = calloc(1, sizeof *srv);
    if (!srv) return NULL;
    srv->cfg = *cfg;
    srv->cfg.world.random = random_source;
    srv->world_timer_at = GCLOCK_NEVER;
    srv->events.reply = -1;
    srv->wake_fd = -1;
    if (metrics_init(&srv->metrics) < 0) goto fail;
    if (mailbox_init(&srv->mailbox, wake_loop, srv) < 0) goto fail;
    srv->mailbox_initialised = true;
    srv->world = world_create(&srv->cfg.world);
    if (!srv->world) goto fail;
    world_set_wall_offset(srv->world, now_wall_ms() - now_mono_ms());
    setup_mounts(srv);

    lws_set_log_level(LLL_ERR | LLL_WARN, lws_log);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS |
                   LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;
    info.user = srv;
    /* No fd_limit_per_thread: with it, lws 4.1 finds a connection from its descriptor by a
     * linear scan; without it lws indexes a table sized from the fd limit, which main()
     * raises to the hard limit. */
    void *foreign[1] = {&srv->loop};
    if (uv_loop_init(&srv->loop) != 0) goto fail;
    srv->loop_initialised = true;
    info.options |= LWS_SERVER_OPTION_LIBUV;
    info.foreign_loops = foreign;
    srv->ctx = lws_create_context(&info);
    if (!srv->ctx) {
        LOGE("server", "cannot create the lws context (is libwebsockets-evlib-uv installed?)");
        goto fail;
    }
    info.port = cfg->port;
    bool any = !cfg->listen_addr || !*cfg->listen_addr || strcmp(cfg->listen_addr, "0.0.0.0") == 0;
    info.iface = any ? NULL : cfg->listen_addr;
    if (cfg->listen_addr && strcmp(cfg->listen_addr, "0.0.0.0") == 0)
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    info.protocols = protocols;
    info.mounts = srv->mounts;
    info.vhost_name = "chess";
    /* No retry_and_idle_policy: idle connections are pinged and dropped by conn_keepalive(). */
    srv->vhost = lws_create_vhost(srv->ctx, &info);
    if (!srv->vhost) {
        LOGE("server", "cannot listen on %s:%d (port in use, or address not available?)",
             cfg->listen_addr ? cfg->listen_addr : "*", cfg->port);
        goto fail;
    }
    struct stat st;
    if (stat(cfg->static_dir, &st) != 0)
        LOGW("server", "static directory %s not found: only the API and /ws are served",
             cfg->static_dir);
    srv->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (srv->wake_fd < 0) {
        LOGE("server", "cannot create the wake-up descriptor: %s", strerror(errno));
        goto fail;
    }
    if (uv_poll_init(&srv->loop, &srv->wake_poll, srv->wake_fd) != 0) goto fail;
    srv->wake_poll.data = srv;
    srv->wake_poll_initialised = true;
    if (uv_poll_start(&srv->wake_poll, UV_READABLE, wake_cb) != 0) goto fail;
    if (timer_init(srv, &srv->world_timer, world_timer_fired) < 0 ||
        timer_init(srv, &srv->house_timer, house_timer_fired) < 0)
        goto fail;
    timer_start(&srv->house_timer, 100000);
    LOGI("server", "listening on %s:%d, static files from %s",
         cfg->listen_addr ? cfg->listen_addr : "*", cfg->port, cfg->static_dir);
    return srv;
fail:
    server_destroy(srv);
    return NULL;
}

int server_run(struct server *srv) {
    uv_run(&srv->loop, UV_RUN_DEFAULT);
    lws_context_destroy(srv->ctx); /* the second half of destruction on a foreign loop */
    srv->ctx = NULL;
    conn_free_closed(srv);
    return srv->finished ? 0 : 1;
}

void server_request_stop(struct server *srv) {
    srv->stop_requested = 1;
}

void server_destroy(struct server *srv) {
    if (!srv) return;
    timer_close(&srv->world_timer);
    timer_close(&srv->house_timer);
    if (srv->ctx) {
        if (srv->wake_poll_initialised && !uv_is_closing((uv_handle_t *)&srv->wake_poll))
            uv_close((uv_handle_t *)&srv->wake_poll, NULL);
        lws_context_destroy(srv->ctx);
        uv_run(&srv->loop, UV_RUN_DEFAULT);
        lws_context_destroy(srv->ctx);
    } else if (srv->loop_initialised) {
        if (srv->wake_poll_initialised && !uv_is_closing((uv_handle_t *)&srv->wake_poll))
            uv_close((uv_handle_t *)&srv->wake_poll, NULL);
        uv_run(&srv->loop, UV_RUN_DEFAULT); /* lets closed handles finish */
    }
    conn_free_closed(srv);
    if (srv->loop_initialised && uv_loop_close(&srv->loop) != 0)
        LOGW("server", "libuv loop still had handles at exit");
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&srv->watchers, &i, &key, &value);) {
        struct watch_list *w = value;
        free(w->conns);
        free(w);
    }
    strmap_free(&srv->watchers);
    engine_free(srv);
    persist_free(srv);
    cluster_free(srv);
    if (srv->mailbox_initialised) mailbox_destroy(&srv->mailbox);
    /* Last: nothing posts any more (the store and the engine are detached and freed). */
    if (srv->wake_fd >= 0) close(srv->wake_fd);
    world_destroy(srv->world);
    core_events_free(&srv->events);
    metrics_free(&srv->metrics);
    free(srv);
}
