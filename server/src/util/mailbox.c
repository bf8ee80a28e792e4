/* The mailbox: a locked FIFO; the wake-up is called outside the lock. */
#include "util/mailbox.h"

int mailbox_init(struct mailbox *mb, mailbox_wake_fn wake, void *wake_ctx) {
    *mb = (struct mailbox){.wake = wake, .wake_ctx = wake_ctx};
    return pthread_mutex_init(&mb->lock, NULL) == 0 ? 0 : -1;
}

void mailbox_destroy(struct mailbox *mb) {
    pthread_mutex_destroy(&mb->lock);
}

void mailbox_post(struct mailbox *mb, struct mailbox_item *item) {
    item->next = NULL;
    pthread_mutex_lock(&mb->lock);
    if (mb->tail)
        mb->tail->next = item;
    else
        mb->head = item;
    mb->tail = item;
    mb->posts++;
    bool wake = !mb->wake_pending;
    if (wake) {
        mb->wake_pending = true;
        mb->wakes++;
    }
    pthread_mutex_unlock(&mb->lock);
    if (wake && mb->wake) mb->wake(mb->wake_ctx);
}

struct mailbox_item *mailbox_take_all(struct mailbox *mb) {
    pthread_mutex_lock(&mb->lock);
    struct mailbox_item *items = mb->head;
    mb->head = mb->tail = NULL;
    mb->wake_pending = false;
    pthread_mutex_unlock(&mb->lock);
    return items;
}
