/*
 * A client connection's message queues, for the load tools (loadgen, soak): whole text messages
 * out and in over one lws connection.
 *
 * Out: a message leaves at once when nothing is queued before it (as the chess server's
 * conn_send() does: asking lws for a writable callback per message costs four epoll_ctl calls on
 * libuv), else it waits in a ring of WSIO_OUT_SLOTS for the writable callback. In: fragments are
 * joined into one NUL-terminated message of at most `cap` bytes; a longer one is dropped.
 * One struct wsio per connection, owned by its caller, used on the loop's thread only.
 */
#ifndef LOAD_WSIO_H
#define LOAD_WSIO_H

#include <libwebsockets.h>
#include <stdbool.h>
#include <stddef.h>

#define WSIO_OUT_SLOTS 16

struct wsio {
    char *out[WSIO_OUT_SLOTS]; /* LWS_PRE + payload each */
    size_t out_len[WSIO_OUT_SLOTS];
    int out_head, out_count;
    char *in; /* cap + 1 bytes */
    size_t in_len, in_cap;
    bool in_overflow;
};

/* Prepares io for messages in of up to cap bytes. Returns 0, or -1 when memory ran out. */
int wsio_init(struct wsio *io, size_t cap);

/* Releases what io holds. */
void wsio_free(struct wsio *io);

/* Drops what is queued and half received (the connection closed; io serves the next one). */
void wsio_reset(struct wsio *io);

/* Sends a text message on wsi. A failed write closes the connection. Returns 0, or -1 when the
 * message was dropped (the queue full, or memory ran out). */
int wsio_send(struct wsio *io, struct lws *wsi, const char *text, size_t len);

/* For LWS_CALLBACK_CLIENT_RECEIVE: adds a fragment. Returns the whole message (NUL-terminated,
 * valid until the next call) when this fragment ended it, else NULL; *len gets its length. */
char *wsio_receive(struct wsio *io, struct lws *wsi, const void *in, size_t in_len, size_t *len);

/* For LWS_CALLBACK_CLIENT_WRITEABLE: writes what is queued. Returns 0, or -1 to close. */
int wsio_writable(struct wsio *io, struct lws *wsi);

#endif
