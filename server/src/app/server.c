/*
 * The application server: wires the transport (net/net.h) to the application's callbacks, and
 * runs the timers, the wake-ups from other threads and the shutdown sequence.
 *
 * Three uv timers: one for the world's next deadline (flags, first-move aborts, seek expiry),
 * one for housekeeping every 100 ms (freeing closed connections, moves per second, noticing a
 * stop request), and one for the next online backup when backups are on (backup.h). lws's own
 * timers are not used: on a foreign libuv loop they are only re-armed after lws's own callbacks, so
 * one set from a uv callback could sleep forever. Other threads hand results to the loop through
 * wake.h.
 *
 * Shutdown: stop accepting, send every connection a GOING_AWAY close frame after what is
 * queued for it, wait until they are gone (or shutdown_grace_ms), then close the application's
 * handles and shut the transport down inside the loop (net_shutdown), so that the loop ends.
 */
#include <stdlib.h>
#include <string.h>

#include "app/accounts.h"
#include "app/adopt.h"
#include "app/arenas.h"
#include "app/backup.h"
#include "app/bots.h"
#include "app/engine.h"
#include "app/httpapi.h"
#include "app/internal.h"
#include "app/manage.h"
#include "app/moderation.h"
#include "app/persist.h"
#include "app/review.h"
#include "app/server.h"
#include "app/settings.h"
#include "app/site.h"
#include "app/tokens.h"
#include "util/ids.h"
#include "util/log.h"
#include "util/now.h"

static void route_store_result(struct server *srv, const struct store_result *r) {
    if (r->kind == STORE_RESULT_BACKUP) {
        backup_on_result(srv, r);
        return;
    }
    accounts_on_result(srv, r);
    bots_on_result(srv->bots, srv, r);
    moderation_on_result(srv, r);
    manage_on_result(srv, r);
    tokens_on_result(srv, r);
    settings_on_result(srv, r);
    review_on_result(srv, r);
    httpapi_on_result(srv, r);
    adopt_on_result(srv, r);
}

static void route_password_result(struct server *srv, const struct password_result *r) {
    accounts_on_password(srv, r);
    manage_on_password(srv, r);
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
    if (uv_timer_init(net_loop(srv->net), &t->uv) != 0) return -1;
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
    /* 0: "now" (ended games to drop), no deadline whose lateness counts. */
    if (srv->world_timer_at != GCLOCK_NEVER && srv->world_timer_at > 0)
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

void server_arm_backup_timer(struct server *srv, int64_t delay_ms) {
    timer_start(&srv->backup_timer, delay_ms * 1000);
}

static void begin_shutdown(struct server *srv) {
    srv->stopping = true;
    net_stop_accepting(srv->net);
    srv->stop_deadline_ms = now_mono_ms() + srv->cfg.shutdown_grace_ms;
    LOGI("server", "shutting down: closing %d connections", srv->conn_count);
    for (struct conn *c = srv->conns; c; c = c->all_next)
        conn_close(c, NET_CLOSE_GOING_AWAY, "server shutting down");
}

static void finish(struct server *srv) {
    srv->finished = true;
    persist_detach(srv); /* no wake-ups from the store once the loop is going away */
    engine_detach(srv);  /* nor from the engine's workers: their last results are drained below */
    site_detach(srv);    /* the Redis links' handles close with the loop */
    httpapi_detach(srv);
    LOGI("server", "shutdown complete (%d connections left)", srv->conn_count);
    wake_drain(srv->wake);
    timer_close(&srv->world_timer);
    timer_close(&srv->house_timer);
    timer_close(&srv->backup_timer);
    /* The transport is shut down inside the loop; server_run() finishes the job. */
    wake_close(srv->wake);
    net_shutdown(srv->net);
}

static void house_timer_fired(struct server *srv) {
    int64_t now = now_mono_ms();
    net_free_closed(srv->net);
    conn_free_closed(srv);
    if (!srv->stopping) net_keepalive(srv->net, now);
    site_tick(srv, now);
    httpapi_tick(srv, now);
    dispatch_announce_spectators(srv, now);
    arenas_schedule(srv, now);
    arenas_push(srv, now);
    if (srv->stop_requested && !srv->stopping) begin_shutdown(srv);
    if (srv->stopping && (srv->conn_count == 0 || now >= srv->stop_deadline_ms)) {
        finish(srv);
        return;
    }
    timer_start(&srv->house_timer, 100000);
}

/* ---- the transport's callbacks ---- */

static bool ws_admit(void *ctx) {
    struct server *srv = ctx;
    return !srv->stopping;
}

struct server *server_create(const struct server_config *cfg) {
    struct server *srv = calloc(1, sizeof *srv);
    if (!srv) return NULL;
    srv->cfg = *cfg;
    srv->cfg.world.random = random_source;
    srv->world_timer_at = GCLOCK_NEVER;
    srv->events.reply = -1;
    srv->store_result = route_store_result;
    srv->password_result = route_password_result;
    if (metrics_init(&srv->metrics) < 0) goto fail;
    srv->accounts = accounts_create();
    srv->bots = bots_create();
    srv->moderation = moderation_create();
    srv->manage = manage_create();
    srv->httpapi = httpapi_create();
    srv->tokens = tokens_create();
    srv->settings = settings_create();
    srv->review = review_create(&cfg->review);
    if (!srv->accounts || !srv->bots || !srv->moderation || !srv->manage || !srv->httpapi ||
        !srv->tokens || !srv->settings || !srv->review)
        goto fail;
    srv->world = world_create(&srv->cfg.world);
    if (!srv->world) goto fail;
    world_set_wall_offset(srv->world, now_wall_ms() - now_mono_ms());
    srv->started_wall_ms = now_wall_ms();

    struct net_config net_cfg = {
        .listen_addr = cfg->listen_addr,
        .port = cfg->port,
        .static_dir = cfg->static_dir,
        .max_message = cfg->max_message,
        .max_connections = cfg->max_connections,
        .out_queue_max = cfg->out_queue_max,
        .ping_interval_s = cfg->ping_interval_s,
        .idle_timeout_s = cfg->idle_timeout_s,
        .trusted_proxies = &srv->cfg.trusted_proxies,
        .metrics_addr = srv->cfg.metrics_addr,
        .metrics_port = srv->cfg.metrics_port,
        .allowed_origins = srv->cfg.allowed_origins,
    };
    struct net_handler handler = {
        .ctx = srv,
        .ws_admit = ws_admit,
        .ws_open = conn_open,
        .ws_message = conn_message,
        .ws_closed = conn_closed,
        .http = api_request,
        .http_more = api_more,
        .http_closed = api_closed,
    };
    srv->net = net_create(&net_cfg, &handler);
    if (!srv->net) goto fail;
    srv->wake = wake_create(net_loop(srv->net), srv);
    if (!srv->wake) goto fail;
    if (timer_init(srv, &srv->world_timer, world_timer_fired) < 0 ||
        timer_init(srv, &srv->house_timer, house_timer_fired) < 0 ||
        timer_init(srv, &srv->backup_timer, backup_due) < 0)
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
    net_run(srv->net);
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
    timer_close(&srv->backup_timer);
    wake_close(srv->wake);
    net_destroy(srv->net); /* runs the loop until the handles closed above are done */
    srv->net = NULL;
    conn_free_closed(srv);
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&srv->watchers, &i, &key, &value);) {
        struct watch_list *w = value;
        free(w->conns);
        free(w);
    }
    strmap_free(&srv->watchers);
    arenas_free(srv);
    engine_free(srv);
    persist_free(srv);
    accounts_free(srv->accounts);
    bots_free(srv->bots);
    moderation_free(srv->moderation);
    manage_free(srv->manage);
    httpapi_free(srv->httpapi);
    tokens_free(srv->tokens);
    settings_free(srv->settings);
    review_free(srv->review);
    adopt_free(srv);
    site_release(srv);

    /* Last: nothing posts any more (the store and the engine are detached and freed). */
    wake_free(srv->wake);
    world_destroy(srv->world);
    core_events_free(&srv->events);
    metrics_free(&srv->metrics);
    free(srv);
}
