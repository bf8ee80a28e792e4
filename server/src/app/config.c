/*
 * The application server's defaults.
 */
#include "app/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app/auth.h"
#include "util/str.h"

void server_config_defaults(struct server_config *cfg) {
    *cfg = (struct server_config){
        .listen_addr = NULL,
        .port = 8080,
        .static_dir = "client/dist",
        .admins = "",
        .allowed_origins = "",
        .max_message = 16384,
        .max_connections = 20000,
        .out_queue_max = 1024,
        .rate_per_s = 20,
        .rate_burst = 40,
        .bot_rate_per_s = 50,
        .bot_rate_burst = 100,
        .abuse_limit = 20,
        .max_watch = 32,
        .ping_interval_s = 25,
        .idle_timeout_s = 60,
        .shutdown_grace_ms = 3000,
        .openings_path = SERVER_OPENINGS_DEFAULT,
    };
    world_config_defaults(&cfg->world);
    cfg->review.nodes = 1000000; /* about depth 22 (docs/analysis.md) */
    cfg->review.queue_max = 100;
}

/* Calls fn for each name of a comma-separated list until it returns non-zero (returned). */
static int each_name(const char *list, int (*fn)(void *ctx, const char *name), void *ctx) {
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char name[64];
        str_copy(name, sizeof name, "");
        if (len < sizeof name) {
            memcpy(name, p, len);
            name[len] = '\0';
        }
        int rc = fn(ctx, name);
        if (rc) return rc;
        p = end ? end + 1 : p + len;
    }
    return 0;
}

struct name_check {
    char *err;
    size_t errlen;
};

static int check_name(void *ctx, const char *name) {
    struct name_check *nc = ctx;
    char lower[AUTH_USERNAME_MAX + 1];
    if (auth_username_check(name, lower) == 0) return 0;
    snprintf(nc->err, nc->errlen, "\"%s\" is not a username", name);
    return -1;
}

int server_config_check_admins(const char *list, char *err, size_t errlen) {
    struct name_check nc = {err, errlen};
    return each_name(list, check_name, &nc);
}

struct name_match {
    const char *username;
};

static int match_name(void *ctx, const char *name) {
    const struct name_match *nm = ctx;
    return strcasecmp(name, nm->username) == 0;
}

bool server_config_admin_listed(const struct server_config *cfg, const char *username) {
    const char *list = cfg->admins;
    if (!list || !*list || !username || !*username) return false;
    struct name_match nm = {username};
    return each_name(list, match_name, &nm) == 1;
}

int server_config_each_admin(const struct server_config *cfg,
                             int (*fn)(void *ctx, const char *name), void *ctx) {
    return each_name(cfg->admins, fn, ctx);
}

/* One entry PERIOD[@AT]:MINUTES+INCREMENT:LENGTH. Returns 0 or -1. */
static int parse_schedule_entry(const char *text, struct server_arena_schedule *out) {
    char period[8] = "";
    int at = 0, minutes = 0, increment = 0, length = 0, used = 0;
    bool has_at = strchr(text, '@') != NULL;
    int fields =
        has_at ? sscanf(text, "%7[a-z]@%d:%d+%d:%d%n", period, &at, &minutes, &increment, &length,
                        &used)
               : sscanf(text, "%7[a-z]:%d+%d:%d%n", period, &minutes, &increment, &length, &used);
    if (fields != (has_at ? 5 : 4) || text[used] != '\0') return -1;
    bool hourly = strcmp(period, "hourly") == 0, daily = strcmp(period, "daily") == 0;
    if (!hourly && !daily) return -1;
    if (hourly ? at < 0 || at > 59 : at < 0 || at / 100 > 23 || at % 100 > 59) return -1;
    out->period_ms = hourly ? 3600000LL : 86400000LL;
    out->offset_ms = hourly ? at * 60000LL : (at / 100 * 60LL + at % 100) * 60000LL;
    if (minutes < 1 || minutes > 180 || increment < 0 || increment > 180 || length < 1 ||
        length * 60000LL > out->period_ms || length > WORLD_ARENA_MINUTES_MAX)
        return -1;
    out->tc =
        (struct time_control){.initial_ms = minutes * 60000LL, .increment_ms = increment * 1000LL};
    out->minutes = length;
    const char *speed = rating_category_title(rating_category_of(&out->tc));
    snprintf(out->name, sizeof out->name, "%s %s Arena", hourly ? "Hourly" : "Daily",
             speed ? speed : "");
    return 0;
}

struct schedule_parse {
    struct server_config *cfg;
    char *err;
    size_t errlen;
};

static int add_schedule_entry(void *ctx, const char *entry) {
    struct schedule_parse *sp = ctx;
    struct server_config *cfg = sp->cfg;
    if (cfg->arena_schedule_count >= SERVER_ARENA_SCHEDULE_MAX) {
        snprintf(sp->err, sp->errlen, "more than %d entries", SERVER_ARENA_SCHEDULE_MAX);
        return -1;
    }
    if (parse_schedule_entry(entry, &cfg->arena_schedule[cfg->arena_schedule_count]) < 0) {
        snprintf(sp->err, sp->errlen,
                 "\"%s\" is not PERIOD[@AT]:MINUTES+INCREMENT:LENGTH (e.g. hourly:3+0:57, "
                 "daily@1800:5+3:120)",
                 entry);
        return -1;
    }
    cfg->arena_schedule_count++;
    return 0;
}

int server_config_arena_schedule(struct server_config *cfg, const char *spec, char *err,
                                 size_t errlen) {
    cfg->arena_schedule_count = 0;
    struct schedule_parse sp = {cfg, err, errlen};
    return each_name(spec, add_schedule_entry, &sp) ? -1 : 0;
}

int server_config_metrics_listen(struct server_config *cfg, const char *spec) {
    cfg->metrics_addr[0] = '\0';
    cfg->metrics_port = 0;
    if (!spec || !*spec) return 0;
    const char *colon = strrchr(spec, ':');
    if (!colon) return -1;
    const char *host = spec, *host_end = colon;
    if (*host == '[') { /* [IPv6]:port */
        if (host_end == host || host_end[-1] != ']') return -1;
        host++;
        host_end--;
    }
    size_t len = (size_t)(host_end - host);
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (len >= sizeof cfg->metrics_addr || *end || end == colon + 1 || port < 1 || port > 65535)
        return -1;
    memcpy(cfg->metrics_addr, host, len);
    cfg->metrics_addr[len] = '\0';
    cfg->metrics_port = (int)port;
    return 0;
}
