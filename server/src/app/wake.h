/*
 * Results from other threads (an engine move, a database commit), applied on the loop thread.
 * A producer posts a struct server_result into a locked mailbox (util/mailbox.h); the first post
 * after the loop took the mailbox's items writes to an eventfd that a uv_poll_t on the loop
 * watches, so wake-ups coalesce, and the loop applies every item in order.
 *
 * Loop thread, except server_post (any thread).
 */
#ifndef SERVER_APP_WAKE_H
#define SERVER_APP_WAKE_H

#include <uv.h>

#include "util/mailbox.h"

struct server;
struct wake;

/*
 * A result computed on another thread, applied on the loop thread. The producer fills `apply`,
 * which runs on the loop, owns the result from then on and must free it. Results should carry
 * the game id and version they were computed for, and drop themselves when the game has moved
 * on.
 */
struct server_result {
    struct mailbox_item link; /* first */
    void (*apply)(struct server *srv, struct server_result *result);
};

/* Any thread: hands a result to the loop and wakes it (wake-ups coalesce). Producers must stop
 * posting before the loop ends; results posted later are never applied. */
void server_post(struct server *srv, struct server_result *result);

/* The mailbox and its eventfd, watched on loop; results are applied to srv. Returns NULL
 * (logged) on failure. */
struct wake *wake_create(uv_loop_t *loop, struct server *srv);

/* Applies what was posted so far (at shutdown, after the producers stopped). */
void wake_drain(struct wake *w);

/* Closes the loop's handle (inside the loop, at shutdown, or before the loop is run down). */
void wake_close(struct wake *w);

/* Frees the mailbox and the eventfd once the loop is done with the handle. NULL is ignored. */
void wake_free(struct wake *w);

#endif
