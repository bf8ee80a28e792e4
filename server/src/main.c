/*
 * chess_server: flags and environment, logging, the data directory, signals, and the server's
 * lifetime. No game logic here.
 *
 * Every flag has an environment variable (shown by --help); a flag given on the command line
 * wins over the environment.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/backup.h"
#include "app/engine.h"
#include "app/moderation.h"
#include "app/opening.h"
#include "app/persist.h"
#include "app/reset.h"
#include "app/server.h"
#include "pubsub/bus.h"
#include "site/cluster.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "util/log.h"

/* OPT_SECONDS and OPT_DURATION fill an int64_t in ms; min and max are in seconds. A duration is
 * seconds, or a number with s, m, h or d. */
enum opt_kind { OPT_STRING, OPT_INT, OPT_SECONDS, OPT_LEVEL, OPT_LOG_FORMAT, OPT_DURATION };

struct option_spec {
    const char *name; /* without the leading dashes */
    const char *env;
    enum opt_kind kind;
    void *target;
    long long min, max; /* for numbers */
    const char *help;
};

static struct server_config cfg;
static const char *data_dir = "./data";
static const char *database_url = "";
static const char *db_sync = "full";
static const char *listen_addr = "0.0.0.0";
static const char *redis_addr = "";
static const char *node_id = "";
static int adopt_games = 1;
static const char *redis_password_file = "";
static const char *trusted_proxies = "";
static const char *reset_user; /* --reset-password: the account, or NULL to serve */
static enum log_level level = LOG_INFO;
static enum log_format log_style = LOG_FORMAT_TEXT;
static int port, max_connections, max_message, out_queue, rate, burst, abuse, max_watch, ping, idle,
    grace, lag, max_finished, max_seeks, max_games, bots_rated, bot_rate, bot_burst;
static int64_t first_move_ms, abandon_ms, seek_grace_ms, guest_purge_ms;
static struct engine_config engine_cfg;
static int engine_memory_mb, engine_table_mb, analysis_seconds, game_analysis_nodes;
static int db_readers = 2, db_read_delay_ms, db_commit_delay_ms, db_commit_interval_us = 1000;
static const char *backup_dir = "";
static int64_t backup_interval_ms = 6 * 3600 * 1000;
static int backup_keep = 8;
static const char *metrics_listen = "";
static const char *arena_schedule = "";
static const char *restore_file; /* --restore: a command, not a setting (no variable) */

static const struct option_spec options[] = {
    {"listen", "CHESS_LISTEN", OPT_STRING, &listen_addr, 0, 0,
     "address to listen on (0.0.0.0: every IPv4 address)"},
    {"port", "CHESS_PORT", OPT_INT, &port, 1, 65535, "TCP port for HTTP and WebSocket"},
    {"data-dir", "CHESS_DATA_DIR", OPT_STRING, &data_dir, 0, 0,
     "data directory, created if missing: the database chess.db (docs/persistence.md)"},
    {"database", "CHESS_DATABASE", OPT_STRING, &database_url, 0, 0,
     "a PostgreSQL URL (postgresql://user@host:5432/db) to store in instead of --data-dir's "
     "SQLite file (empty: SQLite)"},
    {"db-sync", "CHESS_DB_SYNC", OPT_STRING, &db_sync, 0, 0,
     "full: a commit survives power loss; normal: it survives a crash of the server"},
    {"static-dir", "CHESS_STATIC_DIR", OPT_STRING, &cfg.static_dir, 0, 0,
     "web client files; client routes fall back to its index.html"},
    {"log-level", "CHESS_LOG_LEVEL", OPT_LEVEL, &level, 0, 0, "debug, info, warn or error"},
    {"log-format", "CHESS_LOG_FORMAT", OPT_LOG_FORMAT, &log_style, 0, 0,
     "text, or json: one JSON object per line (ts, level, module, msg)"},
    {"max-connections", "CHESS_MAX_CONNECTIONS", OPT_INT, &max_connections, 1, 1000000,
     "WebSocket connections at once"},
    {"max-message", "CHESS_MAX_MESSAGE", OPT_INT, &max_message, 256, 1 << 20,
     "largest client message in bytes"},
    {"out-queue", "CHESS_OUT_QUEUE", OPT_INT, &out_queue, 8, 1 << 20,
     "messages queued for a client before it is dropped as too slow"},
    {"rate-limit", "CHESS_RATE_LIMIT", OPT_INT, &rate, 1, 100000,
     "client messages per second per connection (and HTTP API requests per token)"},
    {"rate-burst", "CHESS_RATE_BURST", OPT_INT, &burst, 1, 100000,
     "client messages allowed in a burst (per connection, and per HTTP API token)"},
    {"bot-rate-limit", "CHESS_BOT_RATE_LIMIT", OPT_INT, &bot_rate, 1, 100000,
     "client messages per second per connection of a bot (and per bot's HTTP API token)"},
    {"bot-rate-burst", "CHESS_BOT_RATE_BURST", OPT_INT, &bot_burst, 1, 100000,
     "messages a bot's connection (or HTTP API token) may send in a burst"},
    {"abuse-limit", "CHESS_ABUSE_LIMIT", OPT_INT, &abuse, 1, 100000,
     "refused messages in a row before the connection is closed"},
    {"max-watch", "CHESS_MAX_WATCH", OPT_INT, &max_watch, 1, 10000,
     "games one connection may watch"},
    {"ping-seconds", "CHESS_PING_SECONDS", OPT_INT, &ping, 1, 3600,
     "idle time before the server pings a client"},
    {"idle-timeout-seconds", "CHESS_IDLE_TIMEOUT_SECONDS", OPT_INT, &idle, 2, 7200,
     "idle time (no data, no pong) before a client is dropped"},
    {"shutdown-grace-ms", "CHESS_SHUTDOWN_GRACE_MS", OPT_INT, &grace, 0, 60000,
     "how long shutdown waits for clients to take their close frames"},
    {"lag-compensation-ms", "CHESS_LAG_COMPENSATION_MS", OPT_INT, &lag, 0, 1000,
     "network lag assumed for a move whose client reports none (docs/protocol.md, Clocks)"},
    {"first-move-seconds", "CHESS_FIRST_MOVE_SECONDS", OPT_SECONDS, &first_move_ms, 0, 3600,
     "time for each side's first move before the game is aborted (0: no limit)"},
    {"abandon-seconds", "CHESS_ABANDON_SECONDS", OPT_SECONDS, &abandon_ms, 1, 86400,
     "time a player may be away before the opponent may claim the game"},
    {"seek-grace-seconds", "CHESS_SEEK_GRACE_SECONDS", OPT_SECONDS, &seek_grace_ms, 0, 86400,
     "time an owner may be away before their seeks and challenges are removed"},
    {"guest-purge-seconds", "CHESS_GUEST_PURGE_SECONDS", OPT_SECONDS, &guest_purge_ms, 0, 31536000,
     "time a guest may be away, with no game in memory, before the server forgets it until its "
     "token comes back (0: never)"},
    {"max-finished-games", "CHESS_MAX_FINISHED_GAMES", OPT_INT, &max_finished, 1, 10000000,
     "ended games kept in memory (oldest dropped first)"},
    {"max-seeks", "CHESS_MAX_SEEKS", OPT_INT, &max_seeks, 1, 1000,
     "open seeks and challenges per player"},
    {"max-games", "CHESS_MAX_GAMES", OPT_INT, &max_games, 1, 100000,
     "games in progress per player"},
    {"db-readers", "CHESS_DB_READERS", OPT_INT, &db_readers, 1, 16,
     "threads reading the database for clients, each with its own connection"},
    {"db-read-delay-ms", "CHESS_DB_READ_DELAY_MS", OPT_INT, &db_read_delay_ms, 0, 60000,
     "for tests: delay every database read by this much (answers arrive late)"},
    {"db-commit-delay-ms", "CHESS_DB_COMMIT_DELAY_MS", OPT_INT, &db_commit_delay_ms, 0, 60000,
     "for tests: delay every commit by this much (commits arrive late)"},
    {"db-commit-interval-us", "CHESS_DB_COMMIT_INTERVAL_US", OPT_INT, &db_commit_interval_us, 0,
     100000, "start a database transaction at most this often: what arrives meanwhile joins it"},
    {"bots-rated-vs-humans", "CHESS_BOTS_RATED_VS_HUMANS", OPT_INT, &bots_rated, 0, 1,
     "1: games between a bot and a person may be rated (docs/bots.md)"},
    {"engine-workers", "CHESS_ENGINE_WORKERS", OPT_INT, &engine_cfg.workers, 0, 256,
     "engine search threads for computer games and analysis (0: off)"},
    {"engine-memory-mb", "CHESS_ENGINE_MEMORY_MB", OPT_INT, &engine_memory_mb, 1, 1 << 20,
     "memory for all games' transposition tables together (MiB)"},
    {"engine-table-mb", "CHESS_ENGINE_TABLE_MB", OPT_INT, &engine_table_mb, 1, 1 << 16,
     "one full-strength game's transposition table (MiB)"},
    {"analysis-per-connection", "CHESS_ANALYSIS_PER_CONNECTION", OPT_INT,
     &engine_cfg.analysis_per_conn, 1, 64, "analyses one connection may run at once"},
    {"analysis-seconds", "CHESS_ANALYSIS_SECONDS", OPT_INT, &analysis_seconds, 1, 3600,
     "longest analysis a client may ask for (s)"},
    {"game-analysis-nodes", "CHESS_GAME_ANALYSIS_NODES", OPT_INT, &game_analysis_nodes, 1000,
     2000000000, "nodes searched per position by the computer analysis of a finished game"},
    {"game-analysis-queue", "CHESS_GAME_ANALYSIS_QUEUE", OPT_INT, &cfg.review.queue_max, 1, 100000,
     "computer analyses of finished games under way on the site before requests are "
     "refused"},
    {"redis", "CHESS_REDIS", OPT_STRING, &redis_addr, 0, 0,
     "host:port of the Redis that joins nodes into one site (empty: a single node)"},
    {"trusted-proxy", "CHESS_TRUSTED_PROXY", OPT_STRING, &trusted_proxies, 0, 0,
     "reverse proxies whose X-Forwarded-For names the client: addresses or CIDR ranges, "
     "comma-separated (empty: none)"},
    {"redis-password-file", "CHESS_REDIS_PASSWORD_FILE", OPT_STRING, &redis_password_file, 0, 0,
     "a file holding the Redis password (AUTH); empty: no password"},
    {"node-id", "CHESS_NODE_ID", OPT_STRING, &node_id, 0, 0,
     "this node's name in the site, stable across restarts (empty: host name and port)"},
    {"adopt-games", "CHESS_ADOPT_GAMES", OPT_INT, &adopt_games, 0, 1,
     "1: take over the games of a node of the site that dies (docs/scaling.md); 0: never (its "
     "games wait for it to restart)"},
    {"backup-dir", "CHESS_BACKUP_DIR", OPT_STRING, &backup_dir, 0, 0,
     "directory for online backups of the database, created if missing (empty: no backups)"},
    {"backup-interval", "CHESS_BACKUP_INTERVAL", OPT_DURATION, &backup_interval_ms, 1, 31 * 86400,
     "time between backups: seconds, or a number with s, m, h or d"},
    {"backup-keep", "CHESS_BACKUP_KEEP", OPT_INT, &backup_keep, 1, 100000,
     "backups kept in the backup directory (older ones are deleted)"},
    {"admin", "CHESS_ADMIN", OPT_STRING, &cfg.admins, 0, 0,
     "usernames of the moderators, comma-separated (empty: the first account registered)"},
    {"metrics-listen", "CHESS_METRICS_LISTEN", OPT_STRING, &metrics_listen, 0, 0,
     "ADDR:PORT of a port of its own for /metrics and /healthz (empty: /metrics on --port, "
     "answered only to this machine)"},
    {"allowed-origins", "CHESS_ALLOWED_ORIGINS", OPT_STRING, &cfg.allowed_origins, 0, 0,
     "origins a browser may open WebSockets from, comma-separated, or * (empty: the same host "
     "as the request's Host header)"},
    {"openings", "CHESS_OPENINGS", OPT_STRING, &cfg.openings_path, 0, 0,
     "ECO file naming the openings, in Scid's format (Debian's scid-data); empty: no names"},
    {"arena-schedule", "CHESS_ARENA_SCHEDULE", OPT_STRING, &arena_schedule, 0, 0,
     "the operator's arena tournaments, comma-separated PERIOD[@AT]:MINUTES+INCREMENT:LENGTH "
     "entries (hourly:3+0:57, daily@1800:5+3:120), each created an hour ahead (empty: none)"},
    {"max-arenas", "CHESS_MAX_ARENAS", OPT_INT, &cfg.world.max_arenas_per_player, 1, 100,
     "arena tournaments an account may have created that have not finished"},
};

#define OPTION_COUNT (int)(sizeof options / sizeof options[0])

/* A duration as --help shows it: in the largest unit that divides it (6h, 90s). */
static void format_duration(int64_t ms, char *out, size_t len) {
    static const struct {
        long long seconds;
        char unit;
    } units[] = {{86400, 'd'}, {3600, 'h'}, {60, 'm'}};
    long long s = (long long)(ms / 1000);
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (s > 0 && s % units[i].seconds == 0) {
            snprintf(out, len, "%lld%c", s / units[i].seconds, units[i].unit);
            return;
        }
    }
    snprintf(out, len, "%llds", s);
}

/* Reads a duration (seconds, or a number with s, m, h or d) within [min, max] seconds into
 * *ms. Returns 0 or -1. */
static int parse_duration(const char *value, long long min, long long max, int64_t *ms) {
    char *end;
    errno = 0;
    long long n = strtoll(value, &end, 10), unit = 1;
    if (errno || end == value || n < 0) return -1;
    if (*end && !end[1]) {
        const char *units = "smhd";
        static const long long seconds[] = {1, 60, 3600, 86400};
        const char *at = strchr(units, *end);
        if (!at) return -1;
        unit = seconds[at - units];
        end++;
    }
    if (*end || n > max / unit || n * unit < min || n * unit > max) return -1;
    *ms = n * unit * 1000;
    return 0;
}

static void usage(FILE *out) {
    fprintf(out, "Usage: chess_server [options]\n\n"
                 "The chess server: lobby, live games and spectators over WebSocket (/ws), with\n"
                 "/healthz, /metrics, /api/games/<id>[.pgn] and the web client on one port.\n\n"
                 "Options (each also read from the environment variable shown):\n");
    static const char *const levels[] = {"debug", "info", "warn", "error"};
    for (int i = 0; i < OPTION_COUNT; i++) {
        const struct option_spec *o = &options[i];
        char flag[64], value[128];
        snprintf(flag, sizeof flag, "--%s", o->name);
        switch (o->kind) {
            case OPT_STRING: snprintf(value, sizeof value, "%s", *(const char **)o->target); break;
            case OPT_INT: snprintf(value, sizeof value, "%d", *(int *)o->target); break;
            case OPT_SECONDS:
                snprintf(value, sizeof value, "%lld", (long long)(*(int64_t *)o->target / 1000));
                break;
            case OPT_LEVEL:
                snprintf(value, sizeof value, "%s", levels[*(enum log_level *)o->target]);
                break;
            case OPT_LOG_FORMAT:
                snprintf(value, sizeof value, "%s", log_format_name(*(enum log_format *)o->target));
                break;
            case OPT_DURATION: format_duration(*(int64_t *)o->target, value, sizeof value); break;
        }
        fprintf(out, "  %-22s %-27s %s (%s)\n", flag, o->env, o->help, value);
    }
    fprintf(out, "  %-22s %-27s %s\n", "--help", "", "this text");
    fprintf(out, "  %-22s %-27s %s\n", "--version", "", "the version, then exit");
    fprintf(out, "  %-22s %-27s %s\n", "--restore FILE", "",
            "install a backup as the database of --data-dir, which must hold none, then exit");
    fprintf(out, "  %-22s %-27s %s\n", "--reset-password USER", "",
            "set USER's password from a line of standard input (empty: generate one and print "
            "it), revoke all its sessions, then exit; with --data-dir, beside a running server");
    fprintf(
        out,
        "\nValues in parentheses are the ones in effect (defaults, or from the environment).\n");
    fprintf(out, "\nSIGTERM or SIGINT shut the server down gracefully (exit status 0).\n");
}

static int set_option(const struct option_spec *o, const char *value, const char *source) {
    char *end;
    long long n;
    switch (o->kind) {
        case OPT_STRING: *(const char **)o->target = value; return 0;
        case OPT_LEVEL:
            if (log_parse_level(value, (enum log_level *)o->target) == 0) return 0;
            break;
        case OPT_LOG_FORMAT:
            if (log_parse_format(value, (enum log_format *)o->target) == 0) return 0;
            break;
        case OPT_DURATION:
            if (parse_duration(value, o->min, o->max, (int64_t *)o->target) == 0) return 0;
            break;
        case OPT_INT:
        case OPT_SECONDS:
            errno = 0;
            n = strtoll(value, &end, 10);
            if (errno || end == value || *end || n < o->min || n > o->max) break;
            if (o->kind == OPT_INT)
                *(int *)o->target = (int)n;
            else
                *(int64_t *)o->target = n * 1000;
            return 0;
    }
    fprintf(stderr, "chess_server: bad value \"%s\" for %s (%s); see --help\n", value, o->name,
            source);
    return -1;
}

static int parse(int argc, char **argv) {
    for (int i = 0; i < OPTION_COUNT; i++) {
        const char *v = getenv(options[i].env);
        if (v && *v && set_option(&options[i], v, options[i].env) < 0) return -1;
    }
    int i;
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            exit(0);
        }
        if (strcmp(arg, "--version") == 0) {
            printf("chess_server %s\n", CHESS_VERSION);
            exit(0);
        }
        if (strcmp(arg, "--reset-password") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "chess_server: --reset-password needs a username; see --help\n");
                return -1;
            }
            reset_user = argv[++i];
            continue;
        }
        if (strncmp(arg, "--", 2) != 0) goto unknown;
        const char *eq = strchr(arg, '=');
        size_t name_len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
        int k = 0;
        while (k < OPTION_COUNT && !(strlen(options[k].name) == name_len &&
                                     strncmp(options[k].name, arg + 2, name_len) == 0))
            k++;
        bool restore = name_len == 7 && strncmp(arg + 2, "restore", 7) == 0;
        if (k == OPTION_COUNT && !restore) goto unknown;
        const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!value || (restore && !*value)) {
            fprintf(stderr, "chess_server: %s needs a value; see --help\n", arg);
            return -1;
        }
        if (restore)
            restore_file = value;
        else if (set_option(&options[k], value, "command line") < 0)
            return -1;
    }
    return 0;
unknown:
    fprintf(stderr, "chess_server: unknown option \"%s\"; see --help\n", argv[i]);
    return -1;
}

/* Creates the data directory if missing and checks it is writable. */
static int prepare_data_dir(const char *dir) {
    if (mkdir(dir, 0750) != 0 && errno != EEXIST) {
        LOGE("main", "cannot create data directory %s: %s", dir, strerror(errno));
        return -1;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        LOGE("main", "data directory %s is not writable: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* Reads the Redis password (the file's first line) into buf. Returns 0 or -1 (said why). */
static int read_redis_password(char *buf, size_t len) {
    FILE *f = fopen(redis_password_file, "r");
    if (!f) {
        fprintf(stderr, "chess_server: cannot read redis-password-file %s: %s\n",
                redis_password_file, strerror(errno));
        return -1;
    }
    bool got = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    buf[got ? strcspn(buf, "\r\n") : 0] = '\0';
    if (!buf[0]) {
        fprintf(stderr, "chess_server: redis-password-file %s is empty\n", redis_password_file);
        return -1;
    }
    return 0;
}

/* Checks --redis and --node-id (the default node id: host name and port). Returns 0 or -1. */
static int check_site_flags(char *host, size_t host_len, int *redis_port, char *id_buf,
                            size_t id_len, int listen_port) {
    if (!*redis_addr) return 0;
    if (bus_parse_address(redis_addr, host, host_len, redis_port) < 0) {
        fprintf(stderr, "chess_server: bad value \"%s\" for redis (host:port)\n", redis_addr);
        return -1;
    }
    if (!*node_id) {
        char name[64] = "node";
        if (gethostname(name, sizeof name) != 0) snprintf(name, sizeof name, "node");
        name[sizeof name - 1] = '\0';
        for (char *c = name; *c; c++) {
            char one[2] = {*c, '\0'};
            if (!bus_node_id_valid(one)) *c = '-';
        }
        snprintf(id_buf, id_len, "%.24s-%d", name, listen_port);
        node_id = id_buf;
    }
    if (!bus_node_id_valid(node_id)) {
        fprintf(stderr,
                "chess_server: bad value \"%s\" for node-id (1-%d letters, digits, - _ .)\n",
                node_id, BUS_NODE_ID_MAX);
        return -1;
    }
    return 0;
}

/* Raises the soft fd limit to the hard one: lws sizes its descriptor table from it, and every
 * connection needs a descriptor. Warns when it is still below what --max-connections needs. */
static void raise_fd_limit(int connections) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0) getrlimit(RLIMIT_NOFILE, &rl);
    }
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (rlim_t)connections + 64)
        LOGW("main",
             "fd limit %llu is below --max-connections %d: raise it (ulimit -n, "
             "LimitNOFILE=) or lower --max-connections",
             (unsigned long long)rl.rlim_cur, connections);
}

/*
 * The exit status when the store cannot be opened or restored into (docs/persistence.md,
 * docs/self-hosting.md): 3 where the data should be is unusable (the data directory), 4 another
 * server uses it, 5 it (or the backup to restore) is damaged, 6 its schema is newer than this
 * binary, 7 a migration failed, 9 a restore found a database there already, 10 the backup to
 * restore cannot be read, 11 the database server (--database) cannot be reached, 1 anything
 * else.
 */
static int store_open_exit(int status) {
    switch (status < 0 ? -status : status) {
        case STORE_ERR_LOCATION: return 3;
        case STORE_ERR_LOCKED: return 4;
        case STORE_ERR_CORRUPT: return 5;
        case STORE_ERR_TOO_NEW: return 6;
        case STORE_ERR_MIGRATION: return 7;
        case STORE_ERR_EXISTS: return 9;
        case STORE_ERR_NOT_FOUND: return 10;
        case STORE_ERR_UNREACHABLE: return 11;
        default: return 1;
    }
}

/* --restore FILE: installs a backup as --data-dir's database, and says so. Returns the exit
 * status. */
static int run_restore(void) {
    struct store_config rcfg = {.backend = STORE_BACKEND_SQLITE, .location = data_dir};
    char err[1024];
    int version;
    int rc = store_restore(&rcfg, restore_file, &version, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "chess_server: restore failed: %s (%s)\n", err, store_status_name(rc));
        return store_open_exit(rc);
    }
    printf("chess_server: restored %s into %s/%s (schema version %d); a server started on %s "
           "applies any newer migrations\n",
           restore_file, data_dir, STORE_SQLITE_DB_NAME, version, data_dir);
    return 0;
}

static struct server *running;

static void on_signal(int sig) {
    (void)sig;
    if (running) server_request_stop(running);
}

int main(int argc, char **argv) {
    server_config_defaults(&cfg);
    port = cfg.port;
    max_connections = cfg.max_connections;
    max_message = (int)cfg.max_message;
    out_queue = cfg.out_queue_max;
    rate = (int)cfg.rate_per_s;
    burst = (int)cfg.rate_burst;
    bot_rate = (int)cfg.bot_rate_per_s;
    bot_burst = (int)cfg.bot_rate_burst;
    abuse = cfg.abuse_limit;
    max_watch = cfg.max_watch;
    ping = cfg.ping_interval_s;
    idle = cfg.idle_timeout_s;
    grace = cfg.shutdown_grace_ms;
    lag = (int)cfg.world.lag_comp_ms;
    first_move_ms = cfg.world.first_move_ms;
    abandon_ms = cfg.world.abandon_ms;
    seek_grace_ms = cfg.world.seek_grace_ms;
    guest_purge_ms = cfg.world.guest_purge_ms;
    max_finished = cfg.world.max_finished_games;
    max_seeks = cfg.world.max_seeks_per_player;
    max_games = cfg.world.max_games_per_player;
    bots_rated = cfg.world.bots_rated_vs_humans;
    engine_config_defaults(&engine_cfg);
    engine_memory_mb = (int)(engine_cfg.memory_bytes >> 20);
    engine_table_mb = (int)(engine_cfg.table_bytes >> 20);
    analysis_seconds = engine_cfg.analysis_max_ms / 1000;
    game_analysis_nodes = (int)cfg.review.nodes;
    if (parse(argc, argv) < 0) return 2;
    char proxy_err[128];
    if (netaddr_list_parse(trusted_proxies, &cfg.trusted_proxies, proxy_err, sizeof proxy_err) <
        0) {
        fprintf(stderr, "chess_server: bad value for trusted-proxy: %s\n", proxy_err);
        return 2;
    }
    engine_cfg.memory_bytes = (size_t)engine_memory_mb << 20;
    engine_cfg.table_bytes = (size_t)engine_table_mb << 20;
    engine_cfg.analysis_max_ms = analysis_seconds * 1000;
    cfg.review.nodes = (uint64_t)game_analysis_nodes;
    log_set_level(level);
    log_set_format(log_style);
    cfg.listen_addr = listen_addr;
    cfg.port = port;
    cfg.max_connections = max_connections;
    cfg.max_message = (size_t)max_message;
    cfg.out_queue_max = out_queue;
    cfg.rate_per_s = rate;
    cfg.rate_burst = burst;
    cfg.bot_rate_per_s = bot_rate;
    cfg.bot_rate_burst = bot_burst;
    cfg.abuse_limit = abuse;
    cfg.max_watch = max_watch;
    cfg.ping_interval_s = ping;
    cfg.idle_timeout_s = idle;
    cfg.shutdown_grace_ms = grace;
    cfg.world.lag_comp_ms = lag;
    cfg.world.first_move_ms = first_move_ms;
    cfg.world.abandon_ms = abandon_ms;
    cfg.world.seek_grace_ms = seek_grace_ms;
    cfg.world.guest_purge_ms = guest_purge_ms;
    cfg.world.max_finished_games = max_finished;
    cfg.world.max_seeks_per_player = max_seeks;
    cfg.world.max_games_per_player = max_games;
    cfg.world.bots_rated_vs_humans = bots_rated != 0;

    if (server_config_metrics_listen(&cfg, metrics_listen) < 0) {
        fprintf(stderr, "chess_server: bad value \"%s\" for metrics-listen (ADDR:PORT)\n",
                metrics_listen);
        return 2;
    }
    char schedule_err[160];
    if (server_config_arena_schedule(&cfg, arena_schedule, schedule_err, sizeof schedule_err) < 0) {
        fprintf(stderr, "chess_server: bad value for arena-schedule: %s\n", schedule_err);
        return 2;
    }
    char admin_err[128];
    if (server_config_check_admins(cfg.admins, admin_err, sizeof admin_err) < 0) {
        fprintf(stderr, "chess_server: bad value for admin: %s\n", admin_err);
        return 2;
    }

    char redis_host[256], default_node_id[BUS_NODE_ID_MAX + 1], redis_password[512] = "";
    int redis_port = 0;
    if (check_site_flags(redis_host, sizeof redis_host, &redis_port, default_node_id,
                         sizeof default_node_id, port) < 0 ||
        (*redis_addr && *redis_password_file &&
         read_redis_password(redis_password, sizeof redis_password) < 0))
        return 2;
    bool postgresql = *database_url != '\0';
    if (restore_file && postgresql) {
        fprintf(stderr, "chess_server: --restore installs SQLite backups; a PostgreSQL database "
                        "is restored with pg_restore or psql (docs/self-hosting.md)\n");
        return 2;
    }
    if (restore_file) return run_restore();
    if (reset_user) {
        struct store_config reset_cfg = {.backend = postgresql ? STORE_BACKEND_POSTGRESQL
                                                               : STORE_BACKEND_SQLITE,
                                         .location = postgresql ? database_url : data_dir};
        return reset_password_run(&reset_cfg, reset_user, stdin, stdout, stderr);
    }
    if (!postgresql && prepare_data_dir(data_dir) < 0) return store_open_exit(-STORE_ERR_LOCATION);
    if (strcmp(db_sync, "full") != 0 && strcmp(db_sync, "normal") != 0) {
        fprintf(stderr, "chess_server: bad value \"%s\" for db-sync (full or normal)\n", db_sync);
        return 2;
    }
    /* The database first: a bad one stops the start before the port is taken. */
    struct store_sqlite_options sqlite_opt = {.sync_normal = strcmp(db_sync, "normal") == 0};
    struct store_config store_cfg = {.backend = postgresql ? STORE_BACKEND_POSTGRESQL
                                                           : STORE_BACKEND_SQLITE,
                                     .location = postgresql ? database_url : data_dir,
                                     .options = postgresql ? NULL : &sqlite_opt,
                                     .node_id = *redis_addr ? node_id : NULL,
                                     /* a node of a site: its games may be taken over */
                                     .leases = *redis_addr != '\0',
                                     .readers = db_readers,
                                     .read_delay_ms = db_read_delay_ms,
                                     .commit_delay_ms = db_commit_delay_ms,
                                     .commit_interval_us = db_commit_interval_us};
    int store_status;
    char store_err[512];
    struct store *store = store_open(&store_cfg, &store_status, store_err, sizeof store_err);
    if (!store) {
        LOGE("main", "cannot use the database: %s", store_err);
        fprintf(stderr, "chess_server: %s (%s)\n", store_err, store_status_name(store_status));
        return store_open_exit(store_status);
    }
    int64_t newest_backup_ms = 0;
    if (*backup_dir && store_backup_setup(store, backup_dir, backup_keep, &newest_backup_ms,
                                          store_err, sizeof store_err) < 0) {
        fprintf(stderr, "chess_server: bad value \"%s\" for backup-dir: %s\n", backup_dir,
                store_err);
        store_close(store);
        return 2;
    }
    /* The opening names, read once before the port is taken (a file named but unreadable stops
     * the start). */
    struct openings *openings;
    if (opening_table_load(cfg.openings_path, &openings) < 0) {
        store_close(store);
        return 2;
    }
    raise_fd_limit(cfg.max_connections);
    signal(SIGPIPE, SIG_IGN);
    cfg.world.openings = openings; /* borrowed by the server until server_destroy() */
    struct server *srv = server_create(&cfg);
    struct cluster_config site = {.redis_host = redis_host,
                                  .redis_port = redis_port,
                                  .node_id = node_id,
                                  .adopt = adopt_games == 1,
                                  .redis_password = redis_password[0] ? redis_password : NULL};
    if (!srv || persist_attach(srv, store) < 0 || engine_attach(srv, &engine_cfg) < 0 ||
        (*redis_addr && cluster_attach(srv, &site) < 0)) {
        server_destroy(srv);
        store_close(store);
        openings_free(openings);
        return 1;
    }
    if (*backup_dir) backup_attach(srv, backup_interval_ms, newest_backup_ms);
    moderation_start(srv);
    running = srv;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    int rc = server_run(srv);
    running = NULL;
    /* Everything queued is committed before the database closes; then the server goes. */
    persist_detach(srv);
    bool store_broken = store_failed(store), fenced = store_fenced(store);
    store_close(store);
    server_destroy(srv);
    openings_free(openings);  /* after the store's readers and the world, which read it */
    if (store_broken) rc = 8; /* the database stopped accepting writes (docs/persistence.md) */
    if (fenced) rc = 12;      /* another node took this node's games over (docs/scaling.md) */
    LOGI("main", "exit %d", rc);
    return rc;
}
