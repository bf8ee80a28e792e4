/*
 * A mailbox through which other threads (the engine pool, the database writer) hand results to
 * the loop thread: a mutex-protected FIFO of intrusive items plus a wake-up callback. Posting
 * wakes the loop only when no wake-up is pending, so a burst of results costs one wake-up; the
 * loop takes everything at once.
 *
 * mailbox_post() may be called from any thread; mailbox_take_all() from the loop thread only.
 * The wake callback runs on the posting thread and must be thread-safe (a write to an eventfd,
 * lws_cancel_service).
 */
#ifndef SERVER_UTIL_MAILBOX_H
#define SERVER_UTIL_MAILBOX_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* Embedded first in whatever the producer posts. */
struct mailbox_item {
    struct mailbox_item *next;
};

typedef void (*mailbox_wake_fn)(void *ctx);

struct mailbox {
    pthread_mutex_t lock;
    struct mailbox_item *head, *tail; /* guarded by lock */
    bool wake_pending;                /* guarded by lock */
    uint64_t posts, wakes;            /* guarded by lock; for metrics and tests */
    mailbox_wake_fn wake;
    void *wake_ctx;
};

/* Returns 0, or -1 when the mutex cannot be created. */
int mailbox_init(struct mailbox *mb, mailbox_wake_fn wake, void *wake_ctx);

/* The mailbox must be empty (or its items owned elsewhere) and no thread may post any more. */
void mailbox_destroy(struct mailbox *mb);

/* Appends an item (the mailbox does not copy it) and wakes the loop if it is not woken yet. */
void mailbox_post(struct mailbox *mb, struct mailbox_item *item);

/* Takes every item, oldest first, as a list linked by next (NULL when empty), and re-arms the
 * wake-up. */
struct mailbox_item *mailbox_take_all(struct mailbox *mb);

#endif
