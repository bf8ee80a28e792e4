/*
 * A Redis connection on the libuv loop (redis.h): resolve, connect, subscribe, watch deadlines,
 * reconnect with backoff.
 *
 * One 100 ms tick timer drives every deadline: the connect deadline while resolving or
 * connecting, the backoff before the next attempt while idle, and the age of the oldest
 * unanswered command while up (replies come in order, so a ring of send times suffices).
 *
 * The adapter between hiredis and libuv is ours: one uv_poll_t per hiredis connection, owned by
 * a struct poll_watch that hiredis's cleanup hook closes (freed in the close callback). Unlike
 * the adapter Debian ships, a poll error is handed to hiredis (a write event before the
 * connection is made, a read event after), which then reads the socket's error and fails the
 * connection instead of waiting forever.
 *
 * Dropping a connection detaches it first (link->ac = NULL, ac->data = NULL), so callbacks that
 * hiredis runs while freeing it (pending commands get a NULL reply) leave the link alone.
 */
#include "pubsub/redis.h"

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <netdb.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/now.h"
#include "util/ring.h"

#define TICK_MS 100

enum link_state {
    LINK_IDLE,        /* waiting for the backoff to pass */
    LINK_RESOLVING,   /* uv_getaddrinfo in flight */
    LINK_CONNECTING,  /* hiredis connecting */
    LINK_SUBSCRIBING, /* connected, subscriptions not all confirmed */
    LINK_UP,
};

/* One hiredis connection's poll handle; outlives the connection until the handle closes. */
struct poll_watch {
    uv_poll_t poll;
    redisAsyncContext *ac; /* NULL once hiredis has cleaned up */
    int events;
};

/* A getaddrinfo request; link is NULL once nobody waits for it (it then frees itself). */
struct resolve_req {
    uv_getaddrinfo_t req;
    struct redis_link *link;
};

struct pending_cmd {
    redis_reply_fn fn;
    void *arg;
};

struct redis_link {
    uv_loop_t *loop;
    struct redis_config cfg;
    char *host;
    char *client_name; /* or NULL */
    char *password;    /* or NULL */
    char **channels;   /* subscriber links: NULL-terminated; NULL for a command link */
    int channel_count;
    struct redis_link_events ev;
    void *ctx;
    enum link_state state;
    redisAsyncContext *ac; /* the current connection, or NULL */
    struct resolve_req *resolving;
    uv_timer_t tick;
    int64_t deadline_ms; /* connect deadline, or the next attempt while idle */
    int64_t last_tick_ms;
    int backoff_ms;
    bool was_up; /* since the last down report */
    int subscribed;
    struct ring sent; /* of int64_t: send times of unanswered commands */
};

void redis_config_defaults(struct redis_config *cfg, const char *host, int port) {
    *cfg = (struct redis_config){.host = host,
                                 .port = port,
                                 .connect_timeout_ms = 2000,
                                 .command_timeout_ms = 3000,
                                 .backoff_min_ms = 100,
                                 .backoff_max_ms = 5000};
}

bool redis_link_up(const struct redis_link *link) {
    return link && link->state == LINK_UP;
}

/* ---- the ring of send times ---- */

/* Remembers when a command was sent (its deadline). Returns 0, or -1 when memory runs out. */
static int sent_push(struct redis_link *link, int64_t now) {
    return ring_push(&link->sent, &now, 64, 0);
}

/* A command was answered: the oldest one (Redis answers in order). */
static void sent_pop(struct redis_link *link) {
    (void)ring_pop(&link->sent, NULL);
}

/* ---- the adapter ---- */

static void watch_closed(uv_handle_t *handle) {
    free(handle->data);
}

static void watch_poll_cb(uv_poll_t *handle, int status, int events) {
    struct poll_watch *w = handle->data;
    redisAsyncContext *ac = w->ac;
    if (!ac) return;
    if (status < 0) {
        /* libuv stopped the handle; hiredis finds the socket's error and fails the
         * connection (the connect callback before it is made, the disconnect one after). */
        if (ac->c.flags & REDIS_CONNECTED)
            redisAsyncHandleRead(ac);
        else
            redisAsyncHandleWrite(ac);
        return;
    }
    if (events & UV_READABLE) redisAsyncHandleRead(ac);
    if (w->ac && (events & UV_WRITABLE)) redisAsyncHandleWrite(ac);
}

static void watch_update(struct poll_watch *w, int add, int del) {
    w->events = (w->events | add) & ~del;
    if (w->events)
        uv_poll_start(&w->poll, w->events, watch_poll_cb);
    else
        uv_poll_stop(&w->poll);
}

static void ev_add_read(void *data) {
    watch_update(data, UV_READABLE, 0);
}
static void ev_del_read(void *data) {
    watch_update(data, 0, UV_READABLE);
}
static void ev_add_write(void *data) {
    watch_update(data, UV_WRITABLE, 0);
}
static void ev_del_write(void *data) {
    watch_update(data, 0, UV_WRITABLE);
}
static void ev_cleanup(void *data) {
    struct poll_watch *w = data;
    w->ac = NULL;
    uv_close((uv_handle_t *)&w->poll, watch_closed);
}

/* ---- connection lifecycle ---- */

static void schedule_retry(struct redis_link *link, const char *why) {
    link->state = LINK_IDLE;
    link->subscribed = 0;
    ring_clear(&link->sent);
    link->deadline_ms = now_mono_ms() + link->backoff_ms;
    link->backoff_ms = link->backoff_ms * 2 > link->cfg.backoff_max_ms ? link->cfg.backoff_max_ms
                                                                       : link->backoff_ms * 2;
    if (link->was_up) {
        link->was_up = false;
        LOGW("redis", "%s:%d lost: %s; reconnecting", link->host, link->cfg.port, why);
        if (link->ev.down) link->ev.down(link->ctx, why);
    } else {
        LOGD("redis", "%s:%d: %s; retrying", link->host, link->cfg.port, why);
    }
}

/* Detaches and frees the current connection (pending commands fail), then schedules a retry. */
static void drop(struct redis_link *link, const char *why) {
    if (link->resolving) {
        link->resolving->link = NULL;
        link->resolving = NULL;
    }
    redisAsyncContext *ac = link->ac;
    link->ac = NULL;
    if (ac) {
        ac->data = NULL;
        redisAsyncFree(ac);
    }
    schedule_retry(link, why);
}

void redis_link_reset(struct redis_link *link, const char *why) {
    if (link->state == LINK_IDLE) return;
    drop(link, why);
}

static void became_up(struct redis_link *link) {
    link->state = LINK_UP;
    link->backoff_ms = link->cfg.backoff_min_ms;
    link->was_up = true;
    LOGI("redis", "%s:%d connected%s", link->host, link->cfg.port,
         link->channels ? " (subscribed)" : "");
    if (link->ev.up) link->ev.up(link->ctx);
}

static void subscription_cb(redisAsyncContext *ac, void *r, void *privdata) {
    (void)privdata;
    struct redis_link *link = ac->data;
    redisReply *reply = r;
    if (!link || link->ac != ac || !reply || reply->type != REDIS_REPLY_ARRAY ||
        reply->elements < 3 || reply->element[0]->type != REDIS_REPLY_STRING)
        return;
    const char *kind = reply->element[0]->str;
    if (strcmp(kind, "subscribe") == 0) {
        sent_pop(link);
        if (++link->subscribed == link->channel_count && link->state == LINK_SUBSCRIBING)
            became_up(link);
    } else if (strcmp(kind, "message") == 0 && reply->element[1]->type == REDIS_REPLY_STRING &&
               reply->element[2]->type == REDIS_REPLY_STRING && link->ev.message) {
        link->ev.message(link->ctx, reply->element[1]->str, reply->element[2]->str,
                         reply->element[2]->len);
    }
}

static void auth_cb(redisAsyncContext *ac, void *r, void *privdata) {
    (void)privdata;
    struct redis_link *link = ac->data;
    redisReply *reply = r;
    if (!link || link->ac != ac || !reply) return;
    sent_pop(link);
    if (reply->type == REDIS_REPLY_ERROR) {
        LOGE("redis", "%s:%d refused the password: %s", link->host, link->cfg.port, reply->str);
        drop(link, "authentication failed");
    }
}

static void connect_cb(const redisAsyncContext *cac, int status) {
    struct redis_link *link = cac->data;
    if (!link || link->ac != cac) return;
    redisAsyncContext *ac = link->ac;
    if (status != REDIS_OK) {
        /* hiredis frees the context itself after this callback. */
        ac->data = NULL;
        link->ac = NULL;
        schedule_retry(link, cac->errstr[0] ? cac->errstr : "connect failed");
        return;
    }
    /* AUTH goes first; the commands after it are pipelined behind it, and a refusal drops the
     * connection before their NOAUTH errors matter. */
    if (link->password) {
        if (redisAsyncCommand(ac, auth_cb, NULL, "AUTH %s", link->password) != REDIS_OK ||
            sent_push(link, now_mono_ms()) < 0) {
            drop(link, "cannot authenticate");
            return;
        }
    }
    /* Named, so an operator (or a test) can tell the nodes' connections apart in CLIENT LIST;
     * the reply is not waited for (NULL callback), only the failure of the next command is. */
    if (link->client_name &&
        redisAsyncCommand(ac, NULL, NULL, "CLIENT SETNAME %s", link->client_name) != REDIS_OK) {
        drop(link, "cannot name the connection");
        return;
    }
    if (!link->channels) {
        became_up(link);
        return;
    }
    link->state = LINK_SUBSCRIBING;
    int64_t now = now_mono_ms();
    for (int i = 0; i < link->channel_count; i++) {
        if (redisAsyncCommand(ac, subscription_cb, NULL, "SUBSCRIBE %s", link->channels[i]) !=
                REDIS_OK ||
            sent_push(link, now) < 0) {
            drop(link, "cannot subscribe");
            return;
        }
    }
}

static void disconnect_cb(const redisAsyncContext *cac, int status) {
    (void)status;
    struct redis_link *link = cac->data;
    if (!link || link->ac != cac) return;
    /* hiredis frees the context after this callback. */
    link->ac->data = NULL;
    link->ac = NULL;
    schedule_retry(link, cac->errstr[0] ? cac->errstr : "connection closed");
}

static void start_connect(struct redis_link *link, const char *address) {
    redisAsyncContext *ac = redisAsyncConnect(address, link->cfg.port);
    if (!ac) {
        schedule_retry(link, "out of memory");
        return;
    }
    if (ac->err) {
        char why[128];
        snprintf(why, sizeof why, "%s", ac->errstr);
        redisAsyncFree(ac);
        schedule_retry(link, why);
        return;
    }
    struct poll_watch *w = calloc(1, sizeof *w);
    if (!w || uv_poll_init(link->loop, &w->poll, ac->c.fd) != 0) {
        free(w);
        redisAsyncFree(ac);
        schedule_retry(link, "cannot watch the socket");
        return;
    }
    w->poll.data = w;
    w->ac = ac;
    ac->ev.data = w;
    ac->ev.addRead = ev_add_read;
    ac->ev.delRead = ev_del_read;
    ac->ev.addWrite = ev_add_write;
    ac->ev.delWrite = ev_del_write;
    ac->ev.cleanup = ev_cleanup;
    ac->data = link;
    link->ac = ac;
    link->state = LINK_CONNECTING;
    redisAsyncSetDisconnectCallback(ac, disconnect_cb);
    redisAsyncSetConnectCallback(ac, connect_cb); /* arms the first write event */
}

static void resolved_cb(uv_getaddrinfo_t *req, int status, struct addrinfo *res) {
    struct resolve_req *rr = req->data;
    struct redis_link *link = rr->link;
    free(rr);
    char address[64] = "";
    if (status == 0 && res) {
        if (res->ai_family == AF_INET6)
            uv_ip6_name((const struct sockaddr_in6 *)(void *)res->ai_addr, address, sizeof address);
        else
            uv_ip4_name((const struct sockaddr_in *)(void *)res->ai_addr, address, sizeof address);
    }
    if (res) uv_freeaddrinfo(res);
    if (!link) return; /* abandoned (deadline or destroy) */
    link->resolving = NULL;
    if (!address[0]) {
        char why[160];
        snprintf(why, sizeof why, "cannot resolve %s: %s", link->host,
                 status < 0 ? uv_strerror(status) : "no address");
        schedule_retry(link, why);
        return;
    }
    start_connect(link, address);
}

static void start_attempt(struct redis_link *link) {
    struct resolve_req *rr = calloc(1, sizeof *rr);
    if (!rr) {
        schedule_retry(link, "out of memory");
        return;
    }
    rr->link = link;
    rr->req.data = rr;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    char port[16];
    snprintf(port, sizeof port, "%d", link->cfg.port);
    link->state = LINK_RESOLVING;
    link->deadline_ms = now_mono_ms() + link->cfg.connect_timeout_ms;
    int rc = uv_getaddrinfo(link->loop, &rr->req, resolved_cb, link->host, port, &hints);
    if (rc != 0) {
        free(rr);
        schedule_retry(link, uv_strerror(rc));
        return;
    }
    link->resolving = rr;
}

static void tick_cb(uv_timer_t *timer) {
    struct redis_link *link = timer->data;
    int64_t now = now_mono_ms();
    /* The loop itself stalled (the process was paused): replies may be waiting unread on the
     * socket, and timers run before I/O; judge the deadlines on the next tick. */
    bool stalled = link->last_tick_ms && now - link->last_tick_ms > 10 * TICK_MS;
    link->last_tick_ms = now;
    if (stalled) return;
    switch (link->state) {
        case LINK_IDLE:
            if (now >= link->deadline_ms) start_attempt(link);
            break;
        case LINK_RESOLVING:
        case LINK_CONNECTING:
            if (now >= link->deadline_ms) drop(link, "connect timed out");
            break;
        case LINK_SUBSCRIBING:
        case LINK_UP:
            if (link->sent.count > 0 &&
                now - *(int64_t *)ring_at(&link->sent, 0) > link->cfg.command_timeout_ms)
                drop(link, "command timed out");
            break;
    }
}

struct redis_link *redis_link_create(uv_loop_t *loop, const struct redis_config *cfg,
                                     const char *const *channels,
                                     const struct redis_link_events *events, void *ctx) {
    struct redis_link *link = calloc(1, sizeof *link);
    if (link) ring_init(&link->sent, sizeof(int64_t));
    if (!link) return NULL;
    link->loop = loop;
    link->cfg = *cfg;
    link->ev = *events;
    link->ctx = ctx;
    link->backoff_ms = cfg->backoff_min_ms;
    link->host = strdup(cfg->host);
    if (!link->host) goto fail;
    link->cfg.host = link->host;
    if (cfg->client_name) {
        link->client_name = strdup(cfg->client_name);
        if (!link->client_name) goto fail;
    }
    link->cfg.client_name = link->client_name;
    if (cfg->password) {
        link->password = strdup(cfg->password);
        if (!link->password) goto fail;
    }
    link->cfg.password = link->password;
    if (channels) {
        while (channels[link->channel_count]) link->channel_count++;
        link->channels = calloc((size_t)link->channel_count + 1, sizeof *link->channels);
        if (!link->channels) goto fail;
        for (int i = 0; i < link->channel_count; i++) {
            link->channels[i] = strdup(channels[i]);
            if (!link->channels[i]) goto fail;
        }
    }
    if (uv_timer_init(loop, &link->tick) != 0) goto fail;
    link->tick.data = link;
    uv_timer_start(&link->tick, tick_cb, TICK_MS, TICK_MS);
    start_attempt(link);
    return link;
fail:
    for (int i = 0; link->channels && i < link->channel_count; i++) free(link->channels[i]);
    free(link->channels);
    free(link->client_name);
    free(link->password);
    free(link->host);
    free(link);
    return NULL;
}

static void reply_cb(redisAsyncContext *ac, void *r, void *privdata) {
    struct pending_cmd *pc = privdata;
    struct redis_link *link = ac->data;
    redisReply *reply = r;
    if (link && link->ac == ac) sent_pop(link);
    if (pc->fn) {
        if (!reply || reply->type == REDIS_REPLY_ERROR)
            pc->fn(pc->arg, -1, NULL, 0, 0);
        else if (reply->type == REDIS_REPLY_STRING || reply->type == REDIS_REPLY_STATUS)
            pc->fn(pc->arg, 0, reply->str, reply->len, 0);
        else
            pc->fn(pc->arg, 0, NULL, 0, reply->type == REDIS_REPLY_INTEGER ? reply->integer : 0);
    }
    free(pc);
}

int redis_link_command(struct redis_link *link, int argc, const char **argv, const size_t *lens,
                       redis_reply_fn fn, void *arg) {
    if (!link || link->state != LINK_UP || link->channels) return -1;
    struct pending_cmd *pc = malloc(sizeof *pc);
    if (!pc) return -1;
    *pc = (struct pending_cmd){fn, arg};
    if (sent_push(link, now_mono_ms()) < 0) {
        free(pc);
        return -1;
    }
    if (redisAsyncCommandArgv(link->ac, reply_cb, pc, argc, argv, lens) != REDIS_OK) {
        (void)ring_pop_back(&link->sent);
        free(pc);
        return -1;
    }
    return 0;
}

static void link_closed(uv_handle_t *handle) {
    struct redis_link *link = handle->data;
    for (int i = 0; link->channels && i < link->channel_count; i++) free(link->channels[i]);
    free(link->channels);
    ring_free(&link->sent);
    free(link->client_name);
    free(link->password);
    free(link->host);
    free(link);
}

void redis_link_destroy(struct redis_link *link) {
    if (!link) return;
    link->ev = (struct redis_link_events){0};
    link->was_up = false;
    drop(link, "closing");
    uv_timer_stop(&link->tick);
    uv_close((uv_handle_t *)&link->tick, link_closed);
}
