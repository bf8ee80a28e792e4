/*
 * The site bus over two Redis links (bus.h). The heartbeat timer runs every second: it
 * publishes "hb" on this node's channel and resets the subscriber when the last heartbeat seen
 * on it is older than 3 s while the command link is up. The bus reports "up" when both links
 * are up, and "down" as soon as either goes.
 */
#include "pubsub/bus.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pubsub/redis.h"
#include "util/log.h"
#include "util/now.h"

#define HEARTBEAT_MS      1000
#define HEARTBEAT_LOST_MS 3000
#define SITE_CHANNEL      "chess:all"
#define HEARTBEAT         "hb"

struct bus {
    char node_id[BUS_NODE_ID_MAX + 1];
    char own_channel[BUS_NODE_ID_MAX + 16];
    struct redis_link *cmd, *sub;
    struct bus_events ev;
    void *ctx;
    bool up;
    uv_timer_t heartbeat;
    int64_t sub_up_ms;  /* when the subscriber came up */
    int64_t last_hb_ms; /* when our own heartbeat last came back */
    int64_t last_timer_ms;
};

bool bus_node_id_valid(const char *id) {
    size_t n = id ? strlen(id) : 0;
    if (n == 0 || n > BUS_NODE_ID_MAX) return false;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '-' || c == '_' || c == '.';
        if (!ok) return false;
    }
    return true;
}

int bus_parse_address(const char *text, char *host, size_t host_len, int *port) {
    const char *colon;
    size_t n;
    *port = 6379;
    if (!text || !*text) return -1;
    if (text[0] == '[') {
        const char *end = strchr(text, ']');
        if (!end) return -1;
        n = (size_t)(end - text - 1);
        if (n == 0 || n >= host_len) return -1;
        memcpy(host, text + 1, n);
        host[n] = '\0';
        colon = end[1] == ':' ? end + 1 : NULL;
        if (!colon && end[1]) return -1;
    } else {
        colon = strrchr(text, ':');
        n = colon ? (size_t)(colon - text) : strlen(text);
        if (n == 0 || n >= host_len) return -1;
        memcpy(host, text, n);
        host[n] = '\0';
    }
    if (colon) {
        char *end;
        long p = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || *end || p < 1 || p > 65535) return -1;
        *port = (int)p;
    }
    return 0;
}

bool bus_up(const struct bus *bus) {
    return bus && bus->up;
}

static void update_state(struct bus *bus) {
    bool up = redis_link_up(bus->cmd) && redis_link_up(bus->sub);
    if (up == bus->up) return;
    bus->up = up;
    LOGI("bus", "node=%s %s", bus->node_id, up ? "connected to the site" : "cut off from the site");
    if (bus->ev.state) bus->ev.state(bus->ctx, up);
}

static void link_up(void *ctx) {
    update_state(ctx);
}

static void sub_up(void *ctx) {
    struct bus *bus = ctx;
    bus->sub_up_ms = bus->last_hb_ms = now_mono_ms();
    update_state(bus);
}

static void link_down(void *ctx, const char *why) {
    (void)why;
    update_state(ctx);
}

static void sub_message(void *ctx, const char *channel, const char *data, size_t len) {
    struct bus *bus = ctx;
    bool to_me = strcmp(channel, bus->own_channel) == 0;
    if (to_me && len == strlen(HEARTBEAT) && memcmp(data, HEARTBEAT, len) == 0) {
        bus->last_hb_ms = now_mono_ms();
        return;
    }
    if (bus->ev.message) bus->ev.message(bus->ctx, to_me, data, len);
}

static void heartbeat_cb(uv_timer_t *timer) {
    struct bus *bus = timer->data;
    int64_t now = now_mono_ms();
    /* After a stall of the whole loop the heartbeat may be waiting unread: judge next time. */
    bool stalled = bus->last_timer_ms && now - bus->last_timer_ms > 2 * HEARTBEAT_MS;
    bus->last_timer_ms = now;
    if (!redis_link_up(bus->cmd)) return;
    if (!stalled && redis_link_up(bus->sub) && now - bus->last_hb_ms > HEARTBEAT_LOST_MS) {
        redis_link_reset(bus->sub, "heartbeats stopped coming back");
        update_state(bus);
        return;
    }
    const char *argv[3] = {"PUBLISH", bus->own_channel, HEARTBEAT};
    size_t lens[3] = {7, strlen(bus->own_channel), strlen(HEARTBEAT)};
    redis_link_command(bus->cmd, 3, argv, lens, NULL, NULL);
}

struct bus *bus_create(uv_loop_t *loop, const struct bus_config *cfg,
                       const struct bus_events *events, void *ctx) {
    if (!bus_node_id_valid(cfg->node_id) || !cfg->host || !*cfg->host) return NULL;
    struct bus *bus = calloc(1, sizeof *bus);
    if (!bus) return NULL;
    snprintf(bus->node_id, sizeof bus->node_id, "%s", cfg->node_id);
    snprintf(bus->own_channel, sizeof bus->own_channel, "chess:node:%s", cfg->node_id);
    bus->ev = *events;
    bus->ctx = ctx;
    if (uv_timer_init(loop, &bus->heartbeat) != 0) {
        free(bus);
        return NULL;
    }
    bus->heartbeat.data = bus;
    struct redis_config rc;
    redis_config_defaults(&rc, cfg->host, cfg->port);
    const char *channels[] = {SITE_CHANNEL, bus->own_channel, NULL};
    struct redis_link_events cmd_ev = {.up = link_up, .down = link_down};
    struct redis_link_events sub_ev = {.up = sub_up, .down = link_down, .message = sub_message};
    rc.password = cfg->password;
    char name[BUS_NODE_ID_MAX + 16];
    snprintf(name, sizeof name, "chess-%s-cmd", cfg->node_id);
    rc.client_name = name;
    bus->cmd = redis_link_create(loop, &rc, NULL, &cmd_ev, bus);
    snprintf(name, sizeof name, "chess-%s-sub", cfg->node_id);
    bus->sub = redis_link_create(loop, &rc, channels, &sub_ev, bus);
    if (!bus->cmd || !bus->sub) {
        bus_destroy(bus);
        return NULL;
    }
    uv_timer_start(&bus->heartbeat, heartbeat_cb, HEARTBEAT_MS, HEARTBEAT_MS);
    return bus;
}

struct publish_ctx {
    bus_published_fn fn;
    void *arg;
};

static void published(void *arg, int status, const char *str, size_t len, long long integer) {
    (void)str;
    (void)len;
    struct publish_ctx *pc = arg;
    pc->fn(pc->arg, status < 0 ? -1 : integer);
    free(pc);
}

int bus_publish(struct bus *bus, const char *node, const char *data, size_t len,
                bus_published_fn fn, void *arg) {
    if (!bus || !bus->up) return -1;
    char channel[BUS_NODE_ID_MAX + 16];
    snprintf(channel, sizeof channel, node ? "chess:node:%s" : SITE_CHANNEL, node);
    const char *argv[3] = {"PUBLISH", channel, data};
    size_t lens[3] = {7, strlen(channel), len};
    struct publish_ctx *pc = NULL;
    if (fn) {
        pc = malloc(sizeof *pc);
        if (!pc) return -1;
        *pc = (struct publish_ctx){fn, arg};
    }
    if (redis_link_command(bus->cmd, 3, argv, lens, fn ? published : NULL, pc) < 0) {
        free(pc);
        return -1;
    }
    return 0;
}

int bus_set(struct bus *bus, const char *key, const char *value, int ttl_s) {
    if (!bus || !redis_link_up(bus->cmd)) return -1;
    char full[128], ttl[16];
    snprintf(full, sizeof full, "chess:%s", key);
    snprintf(ttl, sizeof ttl, "%d", ttl_s);
    const char *argv[5] = {"SET", full, value, "EX", ttl};
    size_t lens[5] = {3, strlen(full), strlen(value), 2, strlen(ttl)};
    return redis_link_command(bus->cmd, 5, argv, lens, NULL, NULL);
}

struct get_ctx {
    bus_value_fn fn;
    void *arg;
};

static void got(void *arg, int status, const char *str, size_t len, long long integer) {
    (void)integer;
    struct get_ctx *gc = arg;
    gc->fn(gc->arg, status, str, len);
    free(gc);
}

int bus_get(struct bus *bus, const char *key, bus_value_fn fn, void *arg) {
    if (!bus || !redis_link_up(bus->cmd)) return -1;
    struct get_ctx *gc = malloc(sizeof *gc);
    if (!gc) return -1;
    *gc = (struct get_ctx){fn, arg};
    char full[128];
    snprintf(full, sizeof full, "chess:%s", key);
    const char *argv[2] = {"GET", full};
    size_t lens[2] = {3, strlen(full)};
    if (redis_link_command(bus->cmd, 2, argv, lens, got, gc) < 0) {
        free(gc);
        return -1;
    }
    return 0;
}

static void heartbeat_closed(uv_handle_t *handle) {
    free(handle->data);
}

void bus_destroy(struct bus *bus) {
    if (!bus) return;
    bus->ev = (struct bus_events){0};
    redis_link_destroy(bus->cmd);
    redis_link_destroy(bus->sub);
    uv_timer_stop(&bus->heartbeat);
    uv_close((uv_handle_t *)&bus->heartbeat, heartbeat_closed);
}
