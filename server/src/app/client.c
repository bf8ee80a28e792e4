/*
 * Clients' WebSocket connections as the application sees them: the registry, the per-connection
 * rate limit and abuse count, the inbound queue, messages held until their writes are committed
 * (persist.c), and closing once those are out. Bytes, queues and frames are the transport's
 * (net/net.h).
 *
 * The inbound queue: a message is handed to dispatch at once when the connection waits for
 * nothing; while an earlier message waits for an answer (a database read, a site lookup) it
 * queues, and the queue is drained in order once the answer is handled. drain() is the one
 * place that hands messages to dispatch, and never while another is in hand.
 */
#include <stdlib.h>
#include <string.h>

#include "app/accounts.h"
#include "app/bots.h"
#include "app/internal.h"
#include "app/manage.h"
#include "app/moderation.h"
#include "app/persist.h"
#include "app/settings.h"
#include "app/tokens.h"
#include "proto/encode.h"
#include "proto/proto.h"
#include "util/log.h"
#include "util/now.h"

struct net_msg *outmsg_create(const json_t *msg) {
    size_t len;
    unsigned char *block = proto_dump(msg, NET_MSG_FRONT, &len);
    return net_msg_adopt(block, len);
}

struct net_msg *outmsg_with_id(struct net_msg *m, const json_t *id) {
    size_t len;
    unsigned char *block = proto_dump_with_id(net_msg_data(m), m->len, id, NET_MSG_FRONT, &len);
    return net_msg_adopt(block, len);
}

/* Virtual connections' ids: far above the transport's (which count from 1), so that both can
 * key the same maps. */
#define VIRTUAL_ID_BASE (UINT64_C(1) << 48)

static struct conn *conn_new(struct server *srv, uint64_t id, const char *addr) {
    struct conn *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->srv = srv;
    c->id = id;
    c->open = true;
    snprintf(c->addr, sizeof c->addr, "%s", addr);
    ratelimit_init(&c->limit, srv->cfg.rate_burst, srv->cfg.rate_per_s, now_mono_ms());
    c->all_next = srv->conns;
    if (srv->conns) srv->conns->all_prev = c;
    srv->conns = c;
    srv->conn_count++;
    return c;
}

void *conn_open(void *ctx, struct net_conn *nc, const char *addr, const char *bearer) {
    struct conn *c = conn_new(ctx, net_conn_id(nc), addr);
    if (!c) return NULL;
    c->net = nc;
    /* A bot may identify itself with its upgrade request ("Authorization: Bearer <token>"). */
    if (bearer) dispatch_bearer_hello(c, bearer);
    return c;
}

struct conn *conn_open_virtual(struct server *srv, const char *addr, const struct conn_sink *sink,
                               void *ctx) {
    struct conn *c = conn_new(srv, VIRTUAL_ID_BASE + ++srv->virtual_conns_total, addr);
    if (!c) return NULL;
    c->sink = sink;
    c->sink_ctx = ctx;
    return c;
}

void conn_end_virtual(struct conn *c) {
    if (c->open) conn_closed(c);
}

/* ---- the inbound queue ---- */

struct inbound {
    struct inbound *next;
    size_t len;
    unsigned flags; /* for dispatch_message */
    char text[];    /* NUL-terminated */
};

static struct inbound *inbound_new(const char *text, size_t len, unsigned flags) {
    struct inbound *m = malloc(sizeof *m + len + 1);
    if (!m) return NULL;
    m->next = NULL;
    m->len = len;
    m->flags = flags;
    memcpy(m->text, text, len);
    m->text[len] = '\0';
    return m;
}

/* Hands queued messages to dispatch until one waits for an answer (or the queue is empty). */
static void drain(struct conn *c) {
    if (c->draining) return;
    c->draining = true;
    while (c->waits == 0 && c->inbox_head) {
        struct inbound *m = c->inbox_head;
        c->inbox_head = m->next;
        if (!c->inbox_head) c->inbox_tail = NULL;
        c->inbox_count--;
        if (c->open && !c->close_code) dispatch_message(c, m->text, m->len, m->flags);
        free(m);
    }
    c->draining = false;
}

/* A complete message from the client: dispatched now, or queued behind one that waits. */
static void accept_message(struct conn *c, const char *text, size_t len) {
    if (c->waits == 0 && !c->inbox_head && !c->draining) {
        c->draining = true; /* the fast path of drain(): no copy when nothing waits */
        dispatch_message(c, text, len, 0);
        c->draining = false;
        drain(c);
        return;
    }
    struct inbound *m = c->inbox_count < CONN_INBOX_MAX ? inbound_new(text, len, 0) : NULL;
    if (!m) {
        dispatch_refuse(c, -PROTO_ERR_RATE_LIMITED, text, len);
        return;
    }
    if (c->inbox_tail)
        c->inbox_tail->next = m;
    else
        c->inbox_head = m;
    c->inbox_tail = m;
    c->inbox_count++;
}

void conn_wait(struct conn *c) {
    c->waits++;
}

void conn_resume(struct conn *c) {
    if (c->waits > 0) c->waits--;
    drain(c);
}

int conn_retry_located(struct conn *c, const char *text, size_t len) {
    struct inbound *m = inbound_new(text, len, DISPATCH_LOCATED);
    if (!m) return -1;
    m->next = c->inbox_head;
    c->inbox_head = m;
    if (!c->inbox_tail) c->inbox_tail = m;
    c->inbox_count++;
    return 0;
}

static void inbox_free(struct conn *c) {
    while (c->inbox_head) {
        struct inbound *m = c->inbox_head;
        c->inbox_head = m->next;
        free(m);
    }
    c->inbox_tail = NULL;
    c->inbox_count = 0;
}

/* ---- sending and closing ---- */

/* Closes the transport's side (a virtual connection's owner is told). */
static void close_now(struct conn *c) {
    if (c->sink)
        c->sink->close(c->sink_ctx, c->close_code, c->close_reason);
    else if (c->net)
        net_close(c->net, c->close_code, c->close_reason);
}

void conn_close(struct conn *c, int code, const char *reason) {
    if (!c->open || c->close_code) return;
    c->close_code = code;
    c->close_reason = reason;
    if (c->held == 0) close_now(c);
}

void conn_held_released(struct conn *c) {
    if (--c->held == 0 && c->close_code && c->open) close_now(c);
}

/* A connection closing (except for shutdown) takes no new messages; those it accepted before
 * (held for a commit) still go out before the close. */
static bool refuses_new(const struct conn *c) {
    return !c->open || (c->close_code && c->close_code != NET_CLOSE_GOING_AWAY);
}

void conn_send(struct conn *c, struct net_msg *m) {
    if (refuses_new(c)) return;
    /* Held while writes it may announce wait for the disk (persist.c). */
    if (persist_hold(c, m)) return;
    conn_enqueue(c, m);
}

void conn_enqueue(struct conn *c, struct net_msg *m) {
    if (c->sink && c->open)
        c->sink->deliver(c->sink_ctx, m);
    else if (c->net)
        net_send(c->net, m);
}

/* Serialises msg (consumed) and sends it; plain: it announces no write (conn_send_plain). */
static void send_json(struct conn *c, json_t *msg, bool plain) {
    if (!msg) return;
    struct net_msg *m = outmsg_create(msg);
    json_decref(msg);
    if (!m) return;
    if (plain && c->held == 0 && !refuses_new(c))
        conn_enqueue(c, m);
    else
        conn_send(c, m);
    net_msg_release(m);
}

void conn_send_json(struct conn *c, json_t *msg) {
    send_json(c, msg, false);
}

void conn_send_plain(struct conn *c, json_t *msg) {
    send_json(c, msg, true);
}

void conn_send_error(struct conn *c, int code, const json_t *id, const char *field) {
    json_t *msg = proto_encode_error(code, field);
    if (!msg) return;
    proto_set_id(msg, id);
    metrics_family_add(&c->srv->metrics.errors, proto_error_name(code), 1);
    conn_send_plain(c, msg);
}

/* Counts a refused message; too many in a row close the connection after the reply. */
static void note_abuse(struct conn *c) {
    if (++c->abuse < c->srv->cfg.abuse_limit) return;
    if (c->close_code) return;
    LOGW("net", "conn=%llu closed for abuse (%d refused messages in a row)",
         (unsigned long long)c->id, c->abuse);
    c->srv->metrics.connections_closed_abuse++;
    conn_close(c, NET_CLOSE_POLICY_VIOLATION, "too many refused messages");
}

void conn_message(void *user, const char *text, size_t len, unsigned flags) {
    struct conn *c = user;
    struct server *srv = c->srv;
    if (c->close_code) return; /* closing: ignore what still arrives */
    int64_t now = now_mono_ms();
    /* A refusal carries the message's id; an oversized message was not kept, so its refusal
     * has none. */
    int refusal = !ratelimit_take(&c->limit, 1, now) ? -PROTO_ERR_RATE_LIMITED
                  : flags & NET_MESSAGE_OVERSIZE     ? -PROTO_ERR_MESSAGE_TOO_LARGE
                  : flags & NET_MESSAGE_BINARY       ? -PROTO_ERR_BINARY_NOT_SUPPORTED
                                                     : 0;
    if (refusal) {
        if (text)
            dispatch_refuse(c, refusal, text, len);
        else
            conn_send_error(c, refusal, NULL, NULL);
        note_abuse(c);
    } else {
        c->abuse = 0;
        metrics_hist_observe(&srv->metrics.message_bytes, (double)len);
        accept_message(c, text, len);
    }
    persist_release_committed(srv);
}

void conn_closed(void *user) {
    struct conn *c = user;
    struct server *srv = c->srv;
    accounts_conn_gone(srv, c);
    bots_conn_gone(srv->bots, c);
    moderation_conn_gone(srv, c);
    manage_conn_gone(srv, c);
    tokens_conn_gone(srv, c);
    settings_conn_gone(srv, c);
    persist_conn_gone(c);
    dispatch_conn_gone(c);
    if (c->all_prev)
        c->all_prev->all_next = c->all_next;
    else
        srv->conns = c->all_next;
    if (c->all_next) c->all_next->all_prev = c->all_prev;
    srv->conn_count--;
    c->net = NULL;
    c->open = false;
    c->free_next = srv->to_free;
    srv->to_free = c;
}

void conn_free_closed(struct server *srv) {
    while (srv->to_free) {
        struct conn *c = srv->to_free;
        srv->to_free = c->free_next;
        inbox_free(c);
        free(c->watched);
        free(c);
    }
}
