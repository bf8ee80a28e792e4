/*
 * One Redis connection on a libuv loop, with what Debian's hiredis 0.14 lacks
 * (../shared/DEPENDENCY-NOTES.md): the host is resolved off the loop (uv_getaddrinfo) and
 * hiredis is given the numeric address; our own adapter reports poll errors to hiredis (so a
 * refused or reset connection fails instead of hanging); a connect deadline and a command
 * deadline (the oldest unanswered command) drop the connection; after any failure it reconnects
 * with exponential backoff and re-sends its subscriptions.
 *
 * A link is either a command link (redis_link_command) or a subscriber link (channels given at
 * creation, pushes to the message callback); hiredis cannot mix the two on one connection.
 *
 * Loop thread only. hiredis types stay inside pubsub/.
 */
#ifndef SERVER_PUBSUB_REDIS_H
#define SERVER_PUBSUB_REDIS_H

#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

struct redis_config {
    const char *host; /* name or address; copied */
    int port;
    int connect_timeout_ms; /* resolving and connecting together */
    int command_timeout_ms; /* the oldest unanswered command */
    int backoff_min_ms;     /* first pause before reconnecting, doubling up to backoff_max_ms */
    int backoff_max_ms;
    const char *client_name; /* CLIENT SETNAME on every connection (NULL: none); copied */
    const char *password;    /* AUTH first on every connection (NULL: none); copied */
};

/* Defaults: 2 s to connect, 3 s per command, backoff 100 ms up to 5 s. */
void redis_config_defaults(struct redis_config *cfg, const char *host, int port);

struct redis_link_events {
    /* The link is connected (and, for a subscriber, every channel is subscribed). */
    void (*up)(void *ctx);
    /* The link was lost or could not be made; `why` is for the log. Reconnecting is already
     * scheduled. Not called for a link that was never up and fails again. */
    void (*down)(void *ctx, const char *why);
    /* Subscriber links: a message published on one of the channels. */
    void (*message)(void *ctx, const char *channel, const char *data, size_t len);
};

/*
 * A command's answer. status 0: `str`/`len` hold a string or status reply (NULL for nil or
 * non-string replies) and `integer` an integer reply; status -1: the command failed (Redis
 * error reply, timeout, connection lost). The strings are borrowed for the call.
 */
typedef void (*redis_reply_fn)(void *arg, int status, const char *str, size_t len,
                               long long integer);

struct redis_link;

/* Creates a link and starts connecting. channels: NULL-terminated list for a subscriber link
 * (copied), or NULL for a command link. Returns NULL when memory runs out. */
struct redis_link *redis_link_create(uv_loop_t *loop, const struct redis_config *cfg,
                                     const char *const *channels,
                                     const struct redis_link_events *events, void *ctx);

bool redis_link_up(const struct redis_link *link);

/*
 * Sends a command (argv with lengths) on a command link that is up. fn (may be NULL) is called
 * exactly once, later, from the loop. Returns 0, or -1 when the link is down (fn not called).
 */
int redis_link_command(struct redis_link *link, int argc, const char **argv, const size_t *lens,
                       redis_reply_fn fn, void *arg);

/* Drops the connection and reconnects after the backoff (e.g. a subscriber that stopped
 * receiving its own heartbeats). `why` is logged. */
void redis_link_reset(struct redis_link *link, const char *why);

/* Closes the link: pending commands get status -1, then the handles close; the memory is freed
 * once the loop has run their close callbacks. NULL is ignored. No callbacks after this. */
void redis_link_destroy(struct redis_link *link);

#endif
