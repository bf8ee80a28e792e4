/*
 * The application server's settings (main.c fills them from flags and the environment).
 */
#ifndef SERVER_APP_CONFIG_H
#define SERVER_APP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/world.h"
#include "util/netaddr.h"

struct server_config {
    const char *listen_addr; /* IPv4/IPv6 address, or NULL / "0.0.0.0" for every address */
    int port;
    const char *static_dir; /* the web client's files (index.html fallback for client routes) */
    size_t max_message;     /* largest client message in bytes */
    int max_connections;
    int out_queue_max;     /* messages waiting per connection before it is closed as too slow */
    double rate_per_s;     /* client messages per second per connection (token bucket) */
    double rate_burst;     /* and the burst */
    double bot_rate_per_s; /* the same for a bot's connections (many games at once) */
    double bot_rate_burst;
    int abuse_limit;       /* refused messages in a row (rate, size) before the connection closes */
    int max_watch;         /* games one connection may watch */
    int ping_interval_s;   /* idle time before a ping */
    int idle_timeout_s;    /* idle time (no pong or data) before the connection is dropped */
    int shutdown_grace_ms; /* how long shutdown waits for clients to take their close frames */
    struct netaddr_list trusted_proxies; /* whose X-Forwarded-For names the client */
    const char
        *admins; /* usernames of the admins, comma-separated; NULL or "": the first account */
    struct world_config world;
};

/* Defaults for everything (port 8080, 16 KiB messages, ...). */
void server_config_defaults(struct server_config *cfg);

#endif
