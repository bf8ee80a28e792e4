/*
 * Message queues of the load tools' client connections (wsio.h).
 */
#include "wsio.h"

#include <stdlib.h>
#include <string.h>

#define WSIO_DIRECT_MAX 4096 /* a message written at once is framed on the stack */

int wsio_init(struct wsio *io, size_t cap) {
    memset(io, 0, sizeof *io);
    io->in = malloc(cap + 1);
    io->in_cap = cap;
    return io->in ? 0 : -1;
}

void wsio_free(struct wsio *io) {
    for (int i = 0; i < WSIO_OUT_SLOTS; i++) free(io->out[i]);
    free(io->in);
    memset(io, 0, sizeof *io);
}

void wsio_reset(struct wsio *io) {
    io->out_head = io->out_count = 0;
    io->in_len = 0;
    io->in_overflow = false;
}

int wsio_send(struct wsio *io, struct lws *wsi, const char *text, size_t len) {
    if (io->out_count == 0 && len <= WSIO_DIRECT_MAX && !lws_partial_buffered(wsi)) {
        unsigned char frame[LWS_PRE + WSIO_DIRECT_MAX]; /* lws masks the payload in place */
        memcpy(frame + LWS_PRE, text, len);
        if (lws_write(wsi, frame + LWS_PRE, len, LWS_WRITE_TEXT) < 0)
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        return 0;
    }
    if (io->out_count == WSIO_OUT_SLOTS) return -1;
    int slot = (io->out_head + io->out_count) % WSIO_OUT_SLOTS;
    char *buf = realloc(io->out[slot], LWS_PRE + len);
    if (!buf) return -1;
    memcpy(buf + LWS_PRE, text, len);
    io->out[slot] = buf;
    io->out_len[slot] = len;
    io->out_count++;
    lws_callback_on_writable(wsi);
    return 0;
}

char *wsio_receive(struct wsio *io, struct lws *wsi, const void *in, size_t in_len, size_t *len) {
    if (io->in_len + in_len > io->in_cap) {
        io->in_overflow = true;
    } else {
        memcpy(io->in + io->in_len, in, in_len);
        io->in_len += in_len;
    }
    if (!lws_is_final_fragment(wsi)) return NULL;
    bool whole = !io->in_overflow;
    *len = io->in_len;
    io->in[io->in_len] = '\0';
    io->in_len = 0;
    io->in_overflow = false;
    return whole ? io->in : NULL;
}

int wsio_writable(struct wsio *io, struct lws *wsi) {
    while (io->out_count && !lws_partial_buffered(wsi)) {
        if (lws_write(wsi, (unsigned char *)io->out[io->out_head] + LWS_PRE,
                      io->out_len[io->out_head], LWS_WRITE_TEXT) < 0)
            return -1;
        io->out_head = (io->out_head + 1) % WSIO_OUT_SLOTS;
        io->out_count--;
    }
    if (io->out_count) lws_callback_on_writable(wsi);
    return 0;
}
