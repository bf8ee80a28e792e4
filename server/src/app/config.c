/*
 * The application server's defaults.
 */
#include "app/config.h"

void server_config_defaults(struct server_config *cfg) {
    *cfg = (struct server_config){
        .listen_addr = NULL,
        .port = 8080,
        .static_dir = "client/dist",
        .admins = "",
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
    };
    world_config_defaults(&cfg->world);
}
