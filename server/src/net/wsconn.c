/*
 * WebSocket connections: the registry, bounded outbound queues of shared messages, reassembly
 * of fragmented messages under a size cap, closing after the queue is flushed, and keep-alive.
 * One lws_write() per writable callback, as lws requires.
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>

#include "net/internal.h"
#include "util/log.h"
#include "util/now.h"

/* lws 4.1 frames a close for write protocol 4 (LWS_WRITE_CLOSE, which its public header leaves
 * out in favour of lws_close_reason()). */
#define WRITE_CLOSE_FRAME ((enum lws_write_protocol)4)

struct net_msg *net_msg_adopt(unsigned char *block, size_t len) {
    if (!block) return NULL;
    struct net_msg *m = (struct net_msg *)(void *)block;
    m->refs = 1;
    m->len = len;
    return m;
}

void net_msg_release(struct net_msg *m) {
    if (m && --m->refs == 0) free(m);
}

struct net_conn *wsconn_create(struct net *net, struct lws *wsi) {
    struct net_conn *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->wsi = wsi;
    c->net = net;
    c->id = ++net->next_conn_id;
    c->last_heard_ms = now_mono_ms();
    ring_init(&c->queue, sizeof(struct net_msg *));
    c->next = net->conns;
    if (net->conns) net->conns->prev = c;
    net->conns = c;
    net->stats.connections++;
    net->stats.connections_total++;
    /* Moves are small and latency matters: no Nagle delay. */
    int one = 1;
    if (setsockopt(lws_get_socket_fd(wsi), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0)
        LOGD("net", "conn=%llu: TCP_NODELAY not set", (unsigned long long)c->id);
    return c;
}

uint64_t net_conn_id(const struct net_conn *c) {
    return c->id;
}

bool net_closing(const struct net_conn *c) {
    return !c->wsi || c->close_code != 0;
}

void net_close(struct net_conn *c, int code, const char *reason) {
    if (!c->wsi || c->close_code) return;
    c->close_code = code;
    c->close_reason = reason;
    lws_callback_on_writable(c->wsi);
}

/* Drops a connection at once (its queue is beyond saving). */
static void kill_conn(struct net_conn *c) {
    if (!c->wsi) return;
    c->close_code = NET_CLOSE_POLICY_VIOLATION;
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

/* Writes one message now. Returns 0, or -1 when the connection failed. lws takes over what
 * the socket does not accept (lws_partial_buffered() then says so). */
static int write_message(struct net_conn *c, struct net_msg *m) {
    return lws_write(c->wsi, net_msg_data(m), m->len, LWS_WRITE_TEXT) < (int)m->len ? -1 : 0;
}

/* Queues m (the caller took a reference). Returns 0, or -1 when the queue is full. */
static int queue_push(struct net_conn *c, struct net_msg *m) {
    if (ring_push(&c->queue, &m, 8, (size_t)c->net->cfg.out_queue_max) == 0) return 0;
    LOGW("net", "conn=%llu closed: outbound queue full (%zu messages)", (unsigned long long)c->id,
         c->queue.count);
    c->net->stats.connections_closed_slow++;
    return -1;
}

void net_send(struct net_conn *c, struct net_msg *m) {
    if (!c->wsi || !m || c->close_sent || (c->close_code && c->close_code != NET_CLOSE_GOING_AWAY))
        return;
    c->net->stats.messages_out_total++;
    c->net->stats.bytes_out_total += m->len;
    /*
     * Nothing waiting: write at once instead of asking for a writable callback. On the libuv
     * loop each such request and its end re-register the socket with epoll (libuv's
     * uv_poll_start() removes and adds the descriptor), four system calls per message, which
     * cost more than the send itself.
     */
    if (c->queue.count == 0 && !c->close_code && !lws_partial_buffered(c->wsi)) {
        if (write_message(c, m) < 0) kill_conn(c);
        return;
    }
    if (queue_push(c, m) < 0) {
        kill_conn(c);
        return;
    }
    m->refs++;
    lws_callback_on_writable(c->wsi);
}

/* Writes the close frame itself: with lws_close_reason() and a -1 return, Debian's lws 4.1 on
 * the libuv loop drops the socket without sending it (clients see 1006). The client answers
 * with its own close frame and lws closes the socket; one that never answers is dropped after a
 * few seconds. Returns 0 or -1. */
static int write_close_frame(struct net_conn *c) {
    unsigned char frame[LWS_PRE + 2 + 64];
    const char *reason = c->close_reason ? c->close_reason : "";
    size_t n = strlen(reason) > 64 ? 64 : strlen(reason);
    frame[LWS_PRE] = (unsigned char)(c->close_code >> 8);
    frame[LWS_PRE + 1] = (unsigned char)(c->close_code & 0xff);
    memcpy(frame + LWS_PRE + 2, reason, n);
    LOGD("net", "conn=%llu closing with code %d", (unsigned long long)c->id, c->close_code);
    c->close_sent = true;
    if (lws_write(c->wsi, frame + LWS_PRE, 2 + n, WRITE_CLOSE_FRAME) < (int)(2 + n)) return -1;
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, 3);
    return 0;
}

int wsconn_write(struct net_conn *c) {
    /* As many queued messages as the socket takes; lws buffers what one write leaves over, and
     * then the rest waits for the next writable callback. */
    struct net_msg *m;
    while (c->queue.count > 0 && !lws_partial_buffered(c->wsi)) {
        (void)ring_pop(&c->queue, &m); /* not empty */
        int rc = write_message(c, m);
        net_msg_release(m);
        if (rc < 0) return -1;
    }
    if (c->queue.count > 0 || lws_partial_buffered(c->wsi)) {
        lws_callback_on_writable(c->wsi);
        return 0;
    }
    if (c->close_code && !c->close_sent) return write_close_frame(c);
    return 0;
}

/* The receive buffer holds need bytes (and the NUL after them): grown by doubling from
 * RX_START, so that an idle connection's costs little. Returns false when memory runs out. */
#define RX_START 256
#define RX_KEEP  4096 /* a buffer grown past this is given back after its message */

static bool rx_reserve(struct net_conn *c, size_t need) {
    if (need + 1 <= c->rx_cap) return true;
    size_t cap = c->rx_cap ? c->rx_cap : RX_START;
    while (cap < need + 1) cap *= 2;
    unsigned char *rx = realloc(c->rx, cap);
    if (!rx) return false;
    c->rx = rx;
    c->rx_cap = cap;
    return true;
}

void wsconn_receive(struct net_conn *c, const void *in, size_t len) {
    size_t max = c->net->cfg.max_message;
    if (!c->rx_oversize && c->rx_len + len <= max) {
        if (!rx_reserve(c, c->rx_len + len)) {
            c->rx_oversize = true; /* out of memory: treat like an oversized message */
        } else {
            memcpy(c->rx + c->rx_len, in, len);
            c->rx_len += len;
        }
    } else {
        c->rx_oversize = true; /* keep reading the rest, but drop it */
    }
    if (!lws_is_final_fragment(c->wsi)) return;

    unsigned flags = (lws_frame_is_binary(c->wsi) ? NET_MESSAGE_BINARY : 0) |
                     (c->rx_oversize || !c->rx ? NET_MESSAGE_OVERSIZE : 0);
    size_t total = c->rx_len;
    c->rx_len = 0;
    c->rx_oversize = false;
    if (c->close_code) return; /* closing: ignore what still arrives */
    c->last_heard_ms = now_mono_ms();
    c->ping_sent = false;
    c->net->stats.bytes_in_total += total;
    const char *text = NULL;
    if (!(flags & NET_MESSAGE_OVERSIZE)) {
        c->rx[total] = '\0';
        text = (const char *)c->rx;
    }
    c->net->handler.ws_message(c->user, text, total, flags);
    /* A buffer grown for a large message is given back: most messages are small. (The
     * connection is still here: connections are freed only by net_free_closed.) */
    if (c->rx_cap > RX_KEEP) {
        free(c->rx);
        c->rx = NULL;
        c->rx_cap = 0;
    }
}

void wsconn_closed(struct net_conn *c) {
    struct net *net = c->net;
    LOGD("net", "conn=%llu closed", (unsigned long long)c->id);
    if (c->user) net->handler.ws_closed(c->user);
    c->user = NULL;
    if (net->keepalive_next == c) net->keepalive_next = c->next;
    if (c->prev)
        c->prev->next = c->next;
    else
        net->conns = c->next;
    if (c->next) c->next->prev = c->prev;
    net->stats.connections--;
    c->wsi = NULL;
    c->free_next = net->to_free;
    net->to_free = c;
}

void net_free_closed(struct net *net) {
    while (net->to_free) {
        struct net_conn *c = net->to_free;
        net->to_free = c->free_next;
        struct net_msg *m;
        while (ring_pop(&c->queue, &m) == 0) net_msg_release(m);
        ring_free(&c->queue);
        free(c->rx);
        free(c);
    }
}

/* ---- keep-alive ---- */

/*
 * lws's own keep-alive (retry_and_idle_policy) keeps one timer per connection in a sorted list
 * and re-inserts it, walking the list from its head, on every pong: at 10,000 connections,
 * established together and so pinged together, that walk took 28% of the server's CPU for
 * seconds at a time (perf). Here each connection has a timestamp, and the housekeeping timer
 * looks at a slice of the connections each time, so every connection is looked at about every
 * half ping interval: a quiet connection is pinged after ping_interval_s to 1.5 times that, and
 * dropped after idle_timeout_s to that plus half a ping interval.
 */

void wsconn_pong(struct net_conn *c) {
    c->last_heard_ms = now_mono_ms();
    c->ping_sent = false;
}

static void keepalive_check(struct net_conn *c, int64_t now_ms) {
    const struct net_config *cfg = &c->net->cfg;
    int64_t quiet = now_ms - c->last_heard_ms;
    if (!c->wsi || c->close_code) return;
    if (quiet >= (int64_t)cfg->idle_timeout_s * 1000) {
        LOGD("net", "conn=%llu dropped: nothing heard for %lld ms", (unsigned long long)c->id,
             (long long)quiet);
        c->net->stats.connections_closed_idle++;
        kill_conn(c);
        return;
    }
    if (c->ping_sent || quiet < (int64_t)cfg->ping_interval_s * 1000) return;
    /* Between messages only; a connection with a queue is looked at again next round. */
    if (c->queue.count > 0 || lws_partial_buffered(c->wsi)) return;
    unsigned char frame[LWS_PRE + 1] = {[LWS_PRE] = 'k'};
    if (lws_write(c->wsi, frame + LWS_PRE, 1, LWS_WRITE_PING) < 0) {
        kill_conn(c);
        return;
    }
    c->ping_sent = true;
}

void net_keepalive(struct net *net, int64_t now_ms) {
    /* Housekeeping runs every 100 ms: visit everyone twice per ping interval. */
    int rounds = net->cfg.ping_interval_s * 5;
    int visits = net->stats.connections / (rounds > 0 ? rounds : 1) + 1;
    for (int i = 0; i < visits && net->stats.connections > 0; i++) {
        struct net_conn *c = net->keepalive_next ? net->keepalive_next : net->conns;
        net->keepalive_next = c->next;
        keepalive_check(c, now_ms);
    }
}
