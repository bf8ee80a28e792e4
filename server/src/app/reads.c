/*
 * Outstanding reads: a list (to free them at shutdown), and two maps from requester ids to the
 * connections and HTTP calls waiting for an answer. A requester is in a map only while it
 * waits; closing removes it, so an answer for a requester that went away finds nothing and is
 * dropped. The map keys are the ids in decimal, kept inside the connection and the call.
 */
#include "app/reads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/internal.h"
#include "app/persist.h"
#include "proto/encode.h"
#include "util/log.h"

struct reads {
    struct db_read *outstanding;
    struct strmap conns; /* conn->read_key -> struct conn, while it waits */
    struct strmap calls; /* call->read_key -> struct api_call, while it waits */
    uint64_t next_http_id;
};

struct reads *reads_create(void) {
    return calloc(1, sizeof(struct reads));
}

static void read_free(struct db_read *rd) {
    if (rd->release) rd->release(rd);
    json_decref(rd->req_id);
    free(rd);
}

static void unlink_read(struct reads *r, struct db_read *rd) {
    if (rd->prev)
        rd->prev->next = rd->next;
    else if (r->outstanding == rd)
        r->outstanding = rd->next;
    if (rd->next) rd->next->prev = rd->prev;
    rd->prev = rd->next = NULL;
}

void reads_free(struct reads *r) {
    if (!r) return;
    while (r->outstanding) {
        struct db_read *rd = r->outstanding;
        unlink_read(r, rd);
        read_free(rd);
    }
    strmap_free(&r->conns);
    strmap_free(&r->calls);
    free(r);
}

static struct reads *reads_of(struct server *srv) {
    return persist_reads(srv);
}

/* The store's done callback (loop thread, inside store_poll). */
static void on_done(struct store_read_job *job) {
    struct db_read *rd = (struct db_read *)(void *)job;
    struct server *srv = rd->srv;
    struct reads *r = reads_of(srv);
    unlink_read(r, rd);
    metrics_hist_observe(&srv->metrics.store_read_wait_us,
                         (double)(job->started_us - job->queued_us));
    metrics_hist_observe(&srv->metrics.store_read_us, (double)(job->finished_us - job->queued_us));
    if (rd->status < 0 && rd->status != -STORE_ERR_NOT_FOUND) srv->metrics.store_read_errors++;
    struct conn *c = NULL;
    struct api_call *call = NULL;
    char key[24];
    if (rd->conn_id) {
        snprintf(key, sizeof key, "%llu", (unsigned long long)rd->conn_id);
        c = strmap_remove(&r->conns, key);
        if (c) c->reading = false;
    } else if (rd->http_id) {
        snprintf(key, sizeof key, "%llu", (unsigned long long)rd->http_id);
        call = strmap_remove(&r->calls, key);
        if (call) call->reading = false;
    }
    if (!rd->answer(rd, c, call)) read_free(rd);
    if (c) conn_resume(c); /* its queued messages run now */
}

/* The store's run callback (a reader thread). */
static void run_job(struct store_reader *reader, struct store_read_job *job) {
    struct db_read *rd = (struct db_read *)(void *)job;
    rd->run(reader, rd);
}

static int submit(struct reads *r, struct db_read *rd) {
    struct store *store = persist_store(rd->srv);
    rd->job.run = run_job;
    rd->job.done = on_done;
    if (!store || store_read_submit(store, &rd->job) < 0) {
        rd->srv->metrics.store_read_refused++;
        return -PROTO_ERR_STORE_UNAVAILABLE;
    }
    rd->next = r->outstanding;
    if (r->outstanding) r->outstanding->prev = rd;
    r->outstanding = rd;
    return 0;
}

int reads_submit_conn(struct conn *c, struct db_read *rd) {
    struct reads *r = reads_of(c->srv);
    rd->srv = c->srv;
    rd->conn_id = c->id;
    snprintf(c->read_key, sizeof c->read_key, "%llu", (unsigned long long)c->id);
    int rc = r ? submit(r, rd) : -PROTO_ERR_STORE_UNAVAILABLE;
    if (rc == 0 && strmap_put(&r->conns, c->read_key, c) < 0) {
        /* Submitted but nobody can be found for the answer: it will be dropped. */
        c->srv->metrics.store_read_errors++;
        return -PROTO_ERR_INTERNAL;
    }
    if (rc < 0) {
        read_free(rd);
        return rc;
    }
    c->reading = true;
    conn_wait(c);
    return 0;
}

int reads_submit_http(struct server *srv, struct net_http *req, struct db_read *rd) {
    struct reads *r = reads_of(srv);
    struct api_call *call = r ? api_call_of(srv, req) : NULL;
    if (!call) {
        read_free(rd);
        return r ? -PROTO_ERR_INTERNAL : -PROTO_ERR_STORE_UNAVAILABLE;
    }
    rd->srv = srv;
    rd->http_id = ++r->next_http_id;
    snprintf(call->read_key, sizeof call->read_key, "%llu", (unsigned long long)rd->http_id);
    int rc = submit(r, rd);
    if (rc == 0 && strmap_put(&r->calls, call->read_key, call) < 0) return -PROTO_ERR_INTERNAL;
    if (rc < 0) {
        read_free(rd);
        return rc;
    }
    call->reading = true;
    return 0;
}

int reads_resubmit_http(struct api_call *call, struct db_read *rd) {
    struct reads *r = reads_of(rd->srv);
    int rc = r ? submit(r, rd) : -PROTO_ERR_STORE_UNAVAILABLE;
    if (rc < 0) return rc;
    snprintf(call->read_key, sizeof call->read_key, "%llu", (unsigned long long)rd->http_id);
    if (strmap_put(&r->calls, call->read_key, call) < 0) return -PROTO_ERR_INTERNAL;
    call->reading = true;
    return 0;
}

void reads_discard(struct db_read *rd) {
    if (rd) read_free(rd);
}

void reads_conn_gone(struct conn *c) {
    struct reads *r = reads_of(c->srv);
    if (c->reading && r) strmap_remove(&r->conns, c->read_key);
    c->reading = false;
}

void reads_http_gone(struct api_call *call) {
    struct reads *r = reads_of(call->srv);
    if (call->reading && r) strmap_remove(&r->calls, call->read_key);
    call->reading = false;
}

void reads_reply_list(struct db_read *rd, struct conn *c, const char *type, const char *key,
                      json_t *list) {
    if (!c || rd->status < 0) {
        json_decref(list);
        if (c) conn_send_error(c, -PROTO_ERR_STORE_UNAVAILABLE, rd->req_id, NULL);
        return;
    }
    json_t *msg = json_pack("{s:s,s:o}", "type", type, key, list);
    if (!msg) {
        conn_send_error(c, -PROTO_ERR_INTERNAL, rd->req_id, NULL);
        return;
    }
    proto_set_id(msg, rd->req_id);
    conn_send_json(c, msg);
}
