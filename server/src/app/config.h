/*
 * The application server's settings (main.c fills them from flags and the environment).
 */
#ifndef SERVER_APP_CONFIG_H
#define SERVER_APP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/world.h"
#include "util/netaddr.h"

/* The ECO file Debian's scid-data installs: --openings' default (app/opening.h). */
#define SERVER_OPENINGS_DEFAULT "/usr/share/scid/data/scid.eco"

/* Entries of --arena-schedule at most. */
#define SERVER_ARENA_SCHEDULE_MAX 16

/* The computer analysis of finished games (review.h). */
struct review_config {
    uint64_t nodes; /* nodes searched per position */
    int queue_max;  /* analyses under way on the site beyond which requests are refused */
};

/* One entry of --arena-schedule: an arena every period (an hour or a day), starting offset_ms
 * after the period's start (UTC), with its clock and length, named after its period and speed
 * ("Hourly Bullet Arena"). */
struct server_arena_schedule {
    int64_t period_ms;
    int64_t offset_ms;
    struct time_control tc;
    int minutes;
    char name[ARENA_NAME_MAX + 1];
};

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
    struct review_config review; /* computer analysis of finished games (review.h) */
    /* /metrics: on a port of its own at metrics_addr:metrics_port (0: none, and then on the
     * players' port, answered only to this machine) */
    char metrics_addr[64];
    int metrics_port;
    const char *allowed_origins; /* WebSocket upgrades' origins (net_config.allowed_origins) */
    const char *openings_path;   /* the ECO file naming openings (app/opening.h); "": none */
    /* The operator's arena tournaments (--arena-schedule, docs/tournaments.md). */
    struct server_arena_schedule arena_schedule[SERVER_ARENA_SCHEDULE_MAX];
    int arena_schedule_count;
};

/* Defaults for everything (port 8080, 16 KiB messages, ...). */
void server_config_defaults(struct server_config *cfg);

/* Checks an admins list (comma-separated usernames). Returns 0, or -1 naming the bad name in
 * err. */
int server_config_check_admins(const char *list, char *err, size_t errlen);

/* Whether cfg's admins list names this username (any case). */
bool server_config_admin_listed(const struct server_config *cfg, const char *username);

/* Calls fn for each name of cfg's admins list until it returns non-zero (returned). */
int server_config_each_admin(const struct server_config *cfg,
                             int (*fn)(void *ctx, const char *name), void *ctx);

/*
 * Parses --arena-schedule into cfg->arena_schedule: comma-separated entries
 * PERIOD[@AT]:MINUTES+INCREMENT:LENGTH, PERIOD "hourly" (AT: the minute, 0 to 59) or "daily"
 * (AT: the UTC time as HHMM); MINUTES the initial clock (1 to 180), INCREMENT in seconds (0 to
 * 180), LENGTH the arena's minutes (1 to the period's). "" schedules nothing. Returns 0, or -1
 * with the bad entry named in err.
 */
int server_config_arena_schedule(struct server_config *cfg, const char *spec, char *err,
                                 size_t errlen);

/* Parses "ADDR:PORT" ("127.0.0.1:9100", "[::1]:9100", ":9100" for every address) into
 * cfg->metrics_addr and cfg->metrics_port; "" leaves no metrics port. Returns 0 or -1. */
int server_config_metrics_listen(struct server_config *cfg, const char *spec);

#endif
