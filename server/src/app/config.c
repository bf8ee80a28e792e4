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
