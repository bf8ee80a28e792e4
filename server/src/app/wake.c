/*
 * The loop's wake-up: a mailbox and an eventfd watched by a uv_poll_t.
 *
 * Why an eventfd and not uv_async_send(): libuv 1.44's async handler spins on each async handle
 * (997 tries, then sched_yield() until the sender is done) while the sending thread is between
 * marking the handle and writing its own eventfd, and a sender preempted there on a busy machine
 * kept the loop spinning; under callgrind the handler cost 3,100 instructions per wake-up, most
 * of a commit's cost on the loop. The mailbox sends at most one wake-up until the loop takes its
 * items, which is all the coalescing uv_async gave.
 */
#include "app/wake.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "app/internal.h"
#include "util/log.h"

struct wake {
    struct server *srv;
    struct mailbox mailbox;
    bool mailbox_initialised;
    int fd; /* -1 when not open */
    uv_poll_t poll;
    bool poll_initialised;
};

void wake_drain(struct wake *w) {
    struct mailbox_item *item = mailbox_take_all(&w->mailbox);
    while (item) {
        struct server_result *r = (struct server_result *)(void *)item;
        item = item->next;
        r->apply(w->srv, r);
    }
}

static void on_readable(uv_poll_t *handle, int status, int events) {
    (void)events;
    struct wake *w = handle->data;
    if (status < 0) LOGW("server", "wake-up descriptor: %s", uv_strerror(status));
    /* Resets the eventfd's counter; nothing to read is a wake-up already consumed. */
    uint64_t count;
    if (read(w->fd, &count, sizeof count) < 0 && errno != EAGAIN)
        LOGW("server", "wake-up descriptor: %s", strerror(errno));
    wake_drain(w);
}

/* Runs on the posting thread (write() is thread-safe). */
static void wake_loop(void *ctx) {
    struct wake *w = ctx;
    uint64_t one = 1;
    if (write(w->fd, &one, sizeof one) < 0 && errno != EAGAIN)
        LOGE("server", "cannot wake the loop: %s", strerror(errno));
}

void server_post(struct server *srv, struct server_result *result) {
    mailbox_post(&srv->wake->mailbox, &result->link);
}

static void free_when_closed(uv_handle_t *handle) {
    wake_free(handle->data);
}

struct wake *wake_create(uv_loop_t *loop, struct server *srv) {
    struct wake *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->srv = srv;
    w->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (w->fd < 0) {
        LOGE("server", "cannot create the wake-up descriptor: %s", strerror(errno));
        goto fail;
    }
    if (mailbox_init(&w->mailbox, wake_loop, w) < 0) goto fail;
    w->mailbox_initialised = true;
    if (uv_poll_init(loop, &w->poll, w->fd) != 0) goto fail;
    w->poll.data = w;
    w->poll_initialised = true;
    if (uv_poll_start(&w->poll, UV_READABLE, on_readable) != 0) goto fail;
    return w;
fail:
    if (w->poll_initialised) {
        /* An initialised handle is freed once the loop has closed it. */
        uv_close((uv_handle_t *)&w->poll, free_when_closed);
        return NULL;
    }
    wake_free(w);
    return NULL;
}

void wake_close(struct wake *w) {
    if (w && w->poll_initialised && !uv_is_closing((uv_handle_t *)&w->poll))
        uv_close((uv_handle_t *)&w->poll, NULL);
}

void wake_free(struct wake *w) {
    if (!w) return;
    if (w->mailbox_initialised) mailbox_destroy(&w->mailbox);
    if (w->fd >= 0) close(w->fd);
    free(w);
}
