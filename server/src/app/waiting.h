/*
 * Requests that wait for an answer from another thread (a store write's result, the password
 * thread's), found again by a cookie: what accounts.c, bots.c, manage.c, moderation.c, tokens.c
 * and settings.c share. A module embeds struct waiting first in its own request, keeps a struct
 * waiting_list, and gives it its own range of cookies (results go to every module; each takes
 * only its own).
 *
 * A request whose connection closes stays until its answer comes (what was asked is done); only
 * the reply is dropped. Loop thread.
 */
#ifndef SERVER_APP_WAITING_H
#define SERVER_APP_WAITING_H

#include <jansson.h>
#include <stdint.h>

struct conn;

struct waiting {
    uint64_t cookie;
    struct conn *conn; /* the asker; NULL once its connection closed */
    json_t *id;        /* the request's id (a copy), or NULL */
    struct waiting *next;
};

struct waiting_list {
    struct waiting *head;
    int count;
    int max;              /* most requests waiting at once */
    uint64_t next_cookie; /* the last one handed out */
    /* Frees a request: what the embedding struct owns, then the struct (its id is freed by the
     * list). */
    void (*release)(struct waiting *w);
};

/* An empty list handing out cookies after first_cookie. */
void waiting_init(struct waiting_list *list, uint64_t first_cookie, int max,
                  void (*release)(struct waiting *w));

/*
 * Links w (embedded first in a zeroed request the caller allocated) for connection c's request
 * with this id (copied), under a fresh cookie. Returns 0, or -PROTO_ERR_RATE_LIMITED when max
 * requests wait already, or -PROTO_ERR_INTERNAL when memory runs out (w is not linked then and
 * stays the caller's).
 */
int waiting_add(struct waiting_list *list, struct waiting *w, struct conn *c, const json_t *id);

/* The request with this cookie, or NULL (not this list's, or gone). */
struct waiting *waiting_find(const struct waiting_list *list, uint64_t cookie);

/* Unlinks w and releases it. */
void waiting_done(struct waiting_list *list, struct waiting *w);

/* Replies to w's asker with msg (consumed; the request's id added), or with the error code when
 * msg is NULL; nothing when the connection has gone. */
void waiting_reply(struct waiting *w, json_t *msg, int code);

/* A connection closed: its requests will get no reply. */
void waiting_conn_gone(struct waiting_list *list, struct conn *c);

/* Releases every request (shutdown). */
void waiting_clear(struct waiting_list *list);

#endif
