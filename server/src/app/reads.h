/*
 * Database reads for the application, off the loop (docs/persistence.md): a request embeds
 * struct db_read, runs on one of the store's reader threads, and its answer comes back to the
 * loop through the store's wake-up (persist.c polls the store, which hands back finished jobs).
 *
 * Who asked is remembered by id, never by pointer: a WebSocket connection by its id, an HTTP
 * request by an id of its own. Both are looked up when the answer arrives; when they have gone
 * away meanwhile the answer is dropped and the request freed.
 *
 * Order: a WebSocket connection with a read outstanding handles no other message until the
 * answer has been handled (conn_wait / conn_resume): its later messages wait, in order, in the
 * connection's inbound queue (client.c) and run once the answer is out. So a hello with a token
 * known only to the database is answered before anything the client sent after it, and replies keep
 * the order of the requests.
 *
 * Loop thread, except run (a reader thread).
 */
#ifndef SERVER_APP_READS_H
#define SERVER_APP_READS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/read.h"

struct conn;
struct server;
struct api_call;
struct net_http;
struct reads;

struct db_read {
    struct store_read_job job; /* first: the store's view */
    struct server *srv;
    uint64_t conn_id; /* the WebSocket connection that asked, or 0 */
    uint64_t http_id; /* the HTTP request that asked, or 0 */
    json_t *req_id;   /* the request's id (a copy), or NULL */
    int status;       /* set by run: 0 or a negative enum store_status */
    /* Reader thread: the queries. Sets status and the embedding request's results; touches
     * nothing of the loop's. */
    void (*run)(struct store_reader *reader, struct db_read *rd);
    /*
     * Loop thread: the answer, with the connection (c) or HTTP call that asked, or both
     * NULL when it went away (then only clean up). Returns true when it handed rd on (submitted
     * it again, or kept it), false to have it released and freed.
     */
    bool (*answer)(struct db_read *rd, struct conn *c, struct api_call *call);
    /* Frees what the embedding request owns (may be NULL); rd itself is freed after it. */
    void (*release)(struct db_read *rd);
    struct db_read *prev, *next; /* outstanding requests, for freeing at shutdown */
};

/* The registry of outstanding reads. NULL when memory runs out. */
struct reads *reads_create(void);

/* Frees every outstanding request: only after the store's readers stopped (store_close). */
void reads_free(struct reads *reads);

/*
 * Submits rd (calloc'd, with run, answer, and release when needed) for the connection c: c's
 * later messages wait for the answer. Returns 0, or a protocol error code (rd is freed then):
 * -PROTO_ERR_STORE_UNAVAILABLE without a database, when the readers stopped or their queue is
 * full.
 */
int reads_submit_conn(struct conn *c, struct db_read *rd);

/* Submits rd for an HTTP request (its call gets an id and waits). Returns 0 or an error as
 * above. */
int reads_submit_http(struct server *srv, struct net_http *req, struct db_read *rd);

/* Submits rd again for the same HTTP request (the next batch of a long answer), which waits
 * again. rd must not be outstanding (its answer kept it). Returns 0, or an error code (rd stays
 * the caller's, who discards it). */
int reads_resubmit_http(struct api_call *call, struct db_read *rd);

/* Releases and frees a request that is not outstanding (kept by its answer). NULL is ignored. */
void reads_discard(struct db_read *rd);

/* Answers a connection's read that lists rows: {"type": type, key: list, "id": ...} (list
 * consumed; NULL when building it ran out of memory: INTERNAL), or STORE_UNAVAILABLE when the
 * read failed (rd->status < 0). Nothing when c is NULL (it went away). */
void reads_reply_list(struct db_read *rd, struct conn *c, const char *type, const char *key,
                      json_t *list);

/* A connection or HTTP request closed: its answer, when it comes, is dropped. */
void reads_conn_gone(struct conn *c);
void reads_http_gone(struct api_call *call);

#endif
