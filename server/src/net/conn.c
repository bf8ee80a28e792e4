/*
 * WebSocket connections: the registry, bounded outbound queues of shared messages, reassembly
 * of fragmented messages under a size cap, the per-connection rate limit, and closing after
 * the queue is flushed. One lws_write() per writable callback, as lws requires.
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>

#include "net/internal.h"
#include "net/persist.h"
#include "proto/encode.h"
#include "proto/proto.h"
#include "util/log.h"
#include "util/now.h"

/* lws 4.1 frames a close for write protocol 4 (LWS_WRITE_CLOSE, which its public header leaves
 * out in favour of lws_close_reason()). */
#define WRITE_CLOSE_FRAME ((enum lws_write_protocol)4)

struct outmsg *outmsg_adopt(unsigned char *block, size_t len) {
    if (!block) return NULL;
    struct outmsg *m = (struct outmsg *)(void *)block;
    m->refs = 1;
    m->len = len;
    return m;
}

struct outmsg *outmsg_create(const json_t *msg) {
    size_t len;
    unsigned char *block = proto_dump(msg, OUTMSG_FRONT, &len);
    return outmsg_adopt(block, len);
}

struct outmsg *outmsg_with_id(struct outmsg *m, const json_t *id) {
    size_t len;
    unsigned char *block = proto_dump_with_id(outmsg_data(m), m->len, id, OUTMSG_FRONT, &len);
    return outmsg_adopt(block, len);
}

void outmsg_release(struct outmsg *m) {
    if (m && --m->refs == 0) free(m);
}

struct conn *conn_create(struct server *srv, struct lws *wsi) {
    struct conn *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->wsi = wsi;
    c->srv = srv;
    c->id = ++srv->next_conn_id;
    ratelimit_init(&c->limit, srv->cfg.rate_burst, srv->cfg.rate_per_s, now_mono_ms());
    c->last_heard_ms = now_mono_ms();
    c->all_next = srv->conns;
    if (srv->conns) srv->conns->all_prev = c;
    srv->conns = c;
    srv->conn_count++;
    srv->metrics.connections_total++;
    /* Moves are small and latency matters: no Nagle delay. */
    int one = 1;
    setsockopt(lws_get_socket_fd(wsi), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return c;
}

void conn_close(struct conn *c, int code, const char *reason) {
    if (!c->wsi || c->close_code) return;
    c->close_code = code;
    c->close_reason = reason;
    lws_callback_on_writable(c->wsi);
}

/* Drops a connection at once (its queue is beyond saving). */
static void conn_kill(struct conn *c) {
    if (!c->wsi) return;
    c->close_code = LWS_CLOSE_STATUS_POLICY_VIOLATION;
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

void conn_send(struct conn *c, struct outmsg *m) {
    /* Held while writes it may announce wait for the disk (persist.c). */
    if (persist_hold(c, m)) return;
    conn_enqueue(c, m);
}

/* Writes one message now. Returns 0, or -1 when the connection failed. lws takes over what
 * the socket does not accept (lws_partial_buffered() then says so). */
static int write_message(struct conn *c, struct outmsg *m) {
    return lws_write(c->wsi, outmsg_data(m), m->len, LWS_WRITE_TEXT) < (int)m->len ? -1 : 0;
}

void conn_enqueue(struct conn *c, struct outmsg *m) {
    if (!c->wsi || !m || c->close_sent ||
        (c->close_code && c->close_code != LWS_CLOSE_STATUS_GOINGAWAY))
        return;
    c->srv->metrics.messages_out_total++;
    c->srv->metrics.bytes_out_total += m->len;
    /*
     * Nothing waiting: write at once instead of asking for a writable callback. On the libuv
     * loop each such request and its end re-register the socket with epoll (libuv's
     * uv_poll_start() removes and adds the descriptor), four system calls per message, which
     * cost more than the send itself.
     */
    if (c->q_count == 0 && !c->close_code && !lws_partial_buffered(c->wsi)) {
        if (write_message(c, m) < 0) conn_kill(c);
        return;
    }
    if (c->q_count == c->q_cap) {
        if (c->q_cap >= c->srv->cfg.out_queue_max) {
            LOGW("net", "conn=%llu closed: outbound queue full (%d messages)",
                 (unsigned long long)c->id, c->q_count);
            c->srv->metrics.connections_closed_slow++;
            conn_kill(c);
            return;
        }
        int cap = c->q_cap ? c->q_cap * 2 : 8;
        struct outmsg **q = malloc(sizeof *q * (size_t)cap);
        if (!q) {
            conn_kill(c);
            return;
        }
        for (int i = 0; i < c->q_count; i++) q[i] = c->queue[(c->q_head + i) % c->q_cap];
        free(c->queue);
        c->queue = q;
        c->q_head = 0;
        c->q_cap = cap;
    }
    m->refs++;
    c->queue[(c->q_head + c->q_count++) % c->q_cap] = m;
    lws_callback_on_writable(c->wsi);
}

void conn_send_json(struct conn *c, json_t *msg) {
    if (!msg) return;
    struct outmsg *m = outmsg_create(msg);
    json_decref(msg);
    if (!m) return;
    conn_send(c, m);
    outmsg_release(m);
}

void conn_send_error(struct conn *c, int code, const json_t *id, const char *field) {
    json_t *msg = proto_encode_error(code, field);
    if (!msg) return;
    proto_set_id(msg, id);
    metrics_family_add(&c->srv->metrics.errors, proto_error_name(code), 1);
    conn_send_json(c, msg);
}

int conn_write(struct conn *c) {
    /* As many queued messages as the socket takes; lws buffers what one write leaves over, and
     * then the rest waits for the next writable callback. */
    while (c->q_count > 0 && !lws_partial_buffered(c->wsi)) {
        struct outmsg *m = c->queue[c->q_head];
        int rc = write_message(c, m);
        c->q_head = (c->q_head + 1) % c->q_cap;
        c->q_count--;
        outmsg_release(m);
        if (rc < 0) return -1;
    }
    if (c->q_count > 0 || lws_partial_buffered(c->wsi)) {
        lws_callback_on_writable(c->wsi);
        return 0;
    }
    if (c->close_code && !c->close_sent && c->held == 0) {
        /*
         * The close frame is written here rather than through lws_close_reason() and a -1
         * return: on the libuv loop, Debian's lws 4.1 then drops the socket without sending
         * it (clients see 1006). The client answers with its own close frame, lws closes the
         * socket; a client that never answers is dropped after a few seconds.
         */
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
    }
    return 0;
}

/* Counts a refused message; too many in a row close the connection after the reply. */
static void note_abuse(struct conn *c) {
    if (++c->abuse < c->srv->cfg.abuse_limit) return;
    if (c->close_code) return;
    LOGW("net", "conn=%llu closed for abuse (%d refused messages in a row)",
         (unsigned long long)c->id, c->abuse);
    c->srv->metrics.connections_closed_abuse++;
    conn_close(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too many refused messages");
}

void conn_receive(struct conn *c, const void *in, size_t len) {
    struct server *srv = c->srv;
    size_t max = srv->cfg.max_message;
    if (!c->rx_oversize && c->rx_len + len <= max) {
        if (!c->rx) c->rx = malloc(max + 1);
        if (!c->rx) {
            c->rx_oversize = true; /* out of memory: treat like an oversized message */
        } else {
            memcpy(c->rx + c->rx_len, in, len);
            c->rx_len += len;
        }
    } else {
        c->rx_oversize = true; /* keep reading the rest, but drop it */
    }
    if (!lws_is_final_fragment(c->wsi)) return;

    bool binary = lws_frame_is_binary(c->wsi);
    bool oversize = c->rx_oversize;
    size_t total = c->rx_len;
    c->rx_len = 0;
    c->rx_oversize = false;
    if (c->close_code) return; /* closing: ignore what still arrives */
    int64_t now = now_mono_ms();
    c->last_heard_ms = now;
    c->ping_sent = false;
    srv->metrics.bytes_in_total += total;
    /* A refusal carries the message's id; an oversized message was not kept, so its refusal
     * has none. */
    const char *text = oversize || !c->rx ? NULL : (const char *)c->rx;
    if (text) c->rx[total] = '\0';
    int refusal = !ratelimit_take(&c->limit, 1, now) ? -PROTO_ERR_RATE_LIMITED
                  : oversize                         ? -PROTO_ERR_MESSAGE_TOO_LARGE
                  : binary                           ? -PROTO_ERR_BINARY_NOT_SUPPORTED
                                                     : 0;
    if (refusal) {
        if (text)
            dispatch_refuse(c, refusal, text, total);
        else
            conn_send_error(c, refusal, NULL, NULL);
        note_abuse(c);
        return;
    }
    c->abuse = 0;
    metrics_hist_observe(&srv->metrics.message_bytes, (double)total);
    dispatch_message(c, text, total);
}

void conn_closed(struct conn *c) {
    struct server *srv = c->srv;
    if (srv->keepalive_next == c) srv->keepalive_next = c->all_next;
    persist_conn_gone(c);
    dispatch_conn_gone(c);
    if (c->all_prev)
        c->all_prev->all_next = c->all_next;
    else
        srv->conns = c->all_next;
    if (c->all_next) c->all_next->all_prev = c->all_prev;
    srv->conn_count--;
    c->wsi = NULL;
    c->free_next = srv->to_free;
    srv->to_free = c;
}

void conn_free_closed(struct server *srv) {
    while (srv->to_free) {
        struct conn *c = srv->to_free;
        srv->to_free = c->free_next;
        for (int i = 0; i < c->q_count; i++) outmsg_release(c->queue[(c->q_head + i) % c->q_cap]);
        free(c->queue);
        free(c->rx);
        free(c->watched);
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

void conn_pong(struct conn *c) {
    c->last_heard_ms = now_mono_ms();
    c->ping_sent = false;
}

static void keepalive_check(struct conn *c, int64_t now_ms) {
    const struct server_config *cfg = &c->srv->cfg;
    int64_t quiet = now_ms - c->last_heard_ms;
    if (!c->wsi || c->close_code) return;
    if (quiet >= (int64_t)cfg->idle_timeout_s * 1000) {
        LOGD("net", "conn=%llu dropped: nothing heard for %lld ms", (unsigned long long)c->id,
             (long long)quiet);
        c->srv->metrics.connections_closed_idle++;
        conn_kill(c);
        return;
    }
    if (c->ping_sent || quiet < (int64_t)cfg->ping_interval_s * 1000) return;
    /* Between messages only; a connection with a queue is looked at again next round. */
    if (c->q_count > 0 || lws_partial_buffered(c->wsi)) return;
    unsigned char frame[LWS_PRE + 1] = {[LWS_PRE] = 'k'};
    if (lws_write(c->wsi, frame + LWS_PRE, 1, LWS_WRITE_PING) < 0) {
        conn_kill(c);
        return;
    }
    c->ping_sent = true;
}

void conn_keepalive(struct server *srv, int64_t now_ms) {
    /* Housekeeping runs every 100 ms: visit everyone twice per ping interval. */
    int rounds = srv->cfg.ping_interval_s * 5;
    int visits = srv->conn_count / (rounds > 0 ? rounds : 1) + 1;
    for (int i = 0; i < visits && srv->conn_count > 0; i++) {
        struct conn *c = srv->keepalive_next ? srv->keepalive_next : srv->conns;
        srv->keepalive_next = c->all_next;
        keepalive_check(c, now_ms);
    }
}
