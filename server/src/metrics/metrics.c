/*
 * Prometheus text rendering into a growing buffer. Families are small linear tables: a few
 * dozen message types and error codes, looked up by pointer first (labels are static strings).
 */
#include "metrics/metrics.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

/* Microseconds (rendered in seconds, 5e-6 to 1): 20 ms is the move delay the load benchmark
 * aims under, so it is a bound. */
static const double latency_bounds[METRICS_HIST_BUCKETS - 1] = {
    5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 20000, 50000, 100000, 250000, 1000000};
static const double ops_bounds[METRICS_HIST_BUCKETS - 1] = {
    1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 65536};
static const double size_bounds[METRICS_HIST_BUCKETS - 1] = {
    32,   64,    128,   256,   512,    1024,   2048,   4096,
    8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576};

void metrics_hist_observe(struct metrics_hist *h, double value) {
    int i = 0;
    while (i < METRICS_HIST_BUCKETS - 1 && value > h->bounds[i]) i++;
    h->counts[i]++;
    h->sum += value;
    h->count++;
}

static int family_init(struct metrics_family *f, int size) {
    f->labels = calloc((size_t)size, sizeof *f->labels);
    f->values = calloc((size_t)size, sizeof *f->values);
    f->size = size;
    return f->labels && f->values ? 0 : -1;
}

static void hist_init(struct metrics_hist *h, const double *bounds, double scale) {
    h->bounds = bounds;
    h->scale = scale;
}

int metrics_init(struct metrics *m) {
    *m = (struct metrics){0};
    hist_init(&m->handle_us, latency_bounds, 1e-6);
    hist_init(&m->timer_lag_us, latency_bounds, 1e-6);
    hist_init(&m->message_bytes, size_bounds, 1);
    hist_init(&m->store_batch_ops, ops_bounds, 1);
    hist_init(&m->store_commit_us, latency_bounds, 1e-6);
    hist_init(&m->store_write_wait_us, latency_bounds, 1e-6);
    hist_init(&m->store_held_us, latency_bounds, 1e-6);
    hist_init(&m->store_read_wait_us, latency_bounds, 1e-6);
    hist_init(&m->store_read_us, latency_bounds, 1e-6);
    if (family_init(&m->messages_in, 64) < 0 || family_init(&m->errors, 64) < 0) {
        metrics_free(m);
        return -1;
    }
    return 0;
}

void metrics_free(struct metrics *m) {
    free(m->messages_in.labels);
    free(m->messages_in.values);
    free(m->errors.labels);
    free(m->errors.values);
    m->messages_in = m->errors = (struct metrics_family){0};
}

void metrics_family_add(struct metrics_family *f, const char *label, uint64_t n) {
    /* Callers pass the same few constant strings: find the pointer before comparing text (a
     * move is counted after the labels of hello, seeks and games). */
    for (int i = 0; i < f->count; i++) {
        if (f->labels[i] == label) {
            f->values[i] += n;
            return;
        }
    }
    for (int i = 0; i < f->count; i++) {
        if (strcmp(f->labels[i], label) == 0) {
            f->values[i] += n;
            return;
        }
    }
    if (f->count == f->size) return; /* more labels than expected: not counted */
    f->labels[f->count] = label;
    f->values[f->count++] = n;
}

/* v as a plain decimal ("0.000005", "1048576", "1796615909.854"): 15 significant digits at
 * most (what a double holds), 9 decimals at most (nanoseconds); very large values in exponent
 * form. Returns out. */
static const char *decimal(double v, char *out, size_t cap) {
    double size = v < 0 ? -v : v;
    if (size >= 1e15) {
        snprintf(out, cap, "%.17g", v);
        return out;
    }
    int digits = 1;
    for (double x = size; x >= 10; x /= 10) digits++;
    int n = snprintf(out, cap, "%.*f", 15 - digits < 9 ? 15 - digits : 9, v);
    if (n <= 0 || (size_t)n >= cap) return out;
    if (strchr(out, '.')) {
        while (out[n - 1] == '0') n--;
        if (out[n - 1] == '.') n--;
        out[n] = '\0';
    }
    return strcmp(out, "-0") == 0 ? strcpy(out, "0") : out;
}

static void emit_metric(struct buf *t, const char *name, const char *type, const char *help,
                        double value) {
    char num[64];
    buf_printf(t, "# HELP %s %s\n# TYPE %s %s\n%s %s\n", name, help, name, type, name,
               decimal(value, num, sizeof num));
}

static void emit_family(struct buf *t, const char *name, const char *label, const char *help,
                        const struct metrics_family *f) {
    buf_printf(t, "# HELP %s %s\n# TYPE %s counter\n", name, help, name);
    for (int i = 0; i < f->count; i++)
        buf_printf(t, "%s{%s=\"%s\"} %llu\n", name, label, f->labels[i],
                   (unsigned long long)f->values[i]);
}

static void emit_hist(struct buf *t, const char *name, const char *help,
                      const struct metrics_hist *h) {
    buf_printf(t, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
    uint64_t cumulative = 0;
    char num[64];
    for (int i = 0; i < METRICS_HIST_BUCKETS; i++) {
        cumulative += h->counts[i];
        if (i < METRICS_HIST_BUCKETS - 1)
            buf_printf(t, "%s_bucket{le=\"%s\"} %llu\n", name,
                       decimal(h->bounds[i] * h->scale, num, sizeof num),
                       (unsigned long long)cumulative);
        else
            buf_printf(t, "%s_bucket{le=\"+Inf\"} %llu\n", name, (unsigned long long)cumulative);
    }
    buf_printf(t, "%s_sum %s\n%s_count %llu\n", name, decimal(h->sum * h->scale, num, sizeof num),
               name, (unsigned long long)h->count);
}

/* Prometheus's standard process metrics; a figure that could not be read is left out. */
static void emit_process(struct buf *t, const struct metrics_gauges *g) {
    if (g->process_cpu_seconds >= 0)
        emit_metric(t, "process_cpu_seconds_total", "counter",
                    "Total user and system CPU time spent in seconds.", g->process_cpu_seconds);
    if (g->process_resident_bytes >= 0)
        emit_metric(t, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
                    g->process_resident_bytes);
    if (g->process_open_fds >= 0)
        emit_metric(t, "process_open_fds", "gauge", "Number of open file descriptors.",
                    g->process_open_fds);
    if (g->process_max_fds >= 0)
        emit_metric(t, "process_max_fds", "gauge", "Maximum number of open file descriptors.",
                    g->process_max_fds);
    if (g->process_start_seconds >= 0)
        emit_metric(t, "process_start_time_seconds", "gauge",
                    "Start time of the process since unix epoch in seconds.",
                    g->process_start_seconds);
}

static void emit_engine(struct buf *t, const struct metrics_gauges *g) {
    emit_metric(t, "chess_engine_workers", "gauge", "Engine worker threads.", g->engine_workers);
    emit_metric(t, "chess_engine_busy_workers", "gauge", "Engine workers searching now.",
                g->engine_busy_slots);
    emit_metric(t, "chess_engine_queue_length", "gauge", "Engine searches waiting for a worker.",
                (double)g->engine_queue_length);
    emit_metric(t, "chess_engine_jobs_total", "counter", "Engine searches finished.",
                (double)g->engine_jobs_done);
    emit_metric(t, "chess_engine_cancellations_total", "counter",
                "Engine searches cancelled (game over, takeback, client gone).",
                (double)g->engine_jobs_cancelled);
    emit_metric(t, "chess_engine_preemptions_total", "counter",
                "Analyses paused for a move with an earlier deadline.",
                (double)g->engine_preemptions);
    emit_metric(t, "chess_engine_wait_seconds_total", "counter",
                "Time finished searches waited for a worker.",
                (double)g->engine_wait_ms_total / 1000.0);
    emit_metric(t, "chess_engine_search_seconds_total", "counter",
                "Time finished searches spent searching.",
                (double)g->engine_search_ms_total / 1000.0);
    emit_metric(t, "chess_engine_nodes_total", "counter",
                "Positions searched by finished searches.", (double)g->engine_nodes_total);
    emit_metric(t, "chess_engine_table_bytes", "gauge", "Memory in per-game transposition tables.",
                (double)g->engine_table_bytes);
    emit_metric(t, "chess_engine_tables", "gauge", "Per-game transposition tables allocated.",
                (double)g->engine_tables);
    emit_metric(t, "chess_engine_table_evictions_total", "counter",
                "Idle games' tables evicted to stay within the memory budget.",
                (double)g->engine_evictions);
}

static void emit_store(struct buf *t, const struct metrics *m, const struct metrics_gauges *g) {
    if (!g->store) return;
    emit_metric(t, "chess_store_write_queue_length", "gauge",
                "Write operations waiting for the writer thread.", (double)g->store_write_queue);
    emit_metric(t, "chess_store_commits_total", "counter", "Transactions committed.",
                (double)g->store_commits);
    emit_metric(t, "chess_store_transactions_failed_total", "counter",
                "Transactions rolled back after an error (each attempt counts).",
                (double)g->store_transactions_failed);
    emit_metric(t, "chess_store_checkpoints_total", "counter",
                "WAL checkpoints run (frames copied into the database file).",
                (double)g->store_checkpoints);
    emit_metric(t, "chess_store_wal_truncations_total", "counter",
                "Times the writer truncated a WAL past its hard bound (checkpoints fell behind).",
                (double)g->store_wal_truncations);
    emit_hist(t, "chess_store_commit_batch_ops", "Write operations per committed transaction.",
              &m->store_batch_ops);
    emit_hist(t, "chess_store_commit_seconds",
              "Time of one transaction, from BEGIN to the end of COMMIT.", &m->store_commit_us);
    emit_hist(t, "chess_store_write_wait_seconds",
              "Time from queueing a transaction's oldest operation to its commit.",
              &m->store_write_wait_us);
    emit_hist(t, "chess_store_held_message_seconds",
              "Time an outbound message waited for the commit of what it announces.",
              &m->store_held_us);
    emit_metric(t, "chess_store_readers", "gauge", "Reader threads.", g->store_readers);
    emit_metric(t, "chess_store_read_queue_length", "gauge", "Reads waiting for a reader thread.",
                (double)g->store_read_queue);
    emit_hist(t, "chess_store_read_wait_seconds", "Time a read waited for a reader thread.",
              &m->store_read_wait_us);
    emit_hist(t, "chess_store_read_seconds",
              "Time from asking for a read to its answer being ready.", &m->store_read_us);
    emit_metric(t, "chess_store_read_errors_total", "counter",
                "Reads that failed (a database error, not a missing row).",
                (double)m->store_read_errors);
    emit_metric(t, "chess_store_reads_refused_total", "counter",
                "Reads refused because the readers' queue was full or they had stopped.",
                (double)m->store_read_refused);
}

/* Every node of a site says whether it is connected and whether it reports the site; the site's
 * own figures come from the reporting node only (one at a time), so that no sum over the nodes
 * counts a figure twice. */
static void emit_site(struct buf *t, const struct metrics *m, const struct metrics_gauges *g) {
    emit_metric(t, "chess_redis_up", "gauge",
                "1 while this node is connected to the site's Redis (docs/scaling.md).",
                g->cluster_redis_up);
    emit_metric(t, "chess_takeovers_total", "counter",
                "Dead nodes of the site whose games this node took over.",
                (double)m->takeovers_total);
    emit_metric(t, "chess_games_adopted_total", "counter",
                "Games in progress restored here from dead nodes.", (double)m->games_adopted_total);
    emit_metric(t, "chess_arenas_adopted_total", "counter",
                "Arenas not finished restored here from dead nodes.",
                (double)m->arenas_adopted_total);
    emit_metric(t, "chess_site_reporter", "gauge",
                "1 on the one node that exports the site's figures (chess_site_*).",
                g->site_reporter);
    if (!g->site_reporter) return;
    emit_metric(t, "chess_site_nodes", "gauge", "Nodes of the site heard from in the last 5 s.",
                g->site_nodes);
    emit_metric(t, "chess_site_connections", "gauge", "WebSocket connections, whole site.",
                g->site_connections);
    emit_metric(t, "chess_site_players_online", "gauge", "Players online, whole site.",
                g->site_players_online);
    emit_metric(t, "chess_site_games_live", "gauge", "Games in progress, whole site.",
                g->site_games_live);
}

/* Seconds: a backup of a small database takes milliseconds, one of gigabytes minutes. */
static const double backup_bounds[METRICS_HIST_BUCKETS - 1] = {
    0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800};

void metrics_backup_init(struct metrics_backup *b, int64_t last_success_ms) {
    *b = (struct metrics_backup){.enabled = true, .last_success_ms = last_success_ms};
    b->duration_s.bounds = backup_bounds;
    b->duration_s.scale = 1; /* observed in seconds */
}

static void emit_backup(struct buf *t, const struct metrics_backup *b) {
    if (!b->enabled) return;
    emit_metric(t, "chess_backup_last_success_timestamp_seconds", "gauge",
                "When the newest backup was taken (Unix time; 0: none yet).",
                (double)b->last_success_ms / 1000.0);
    emit_metric(t, "chess_backup_successes_total", "counter", "Backups written.",
                (double)b->successes);
    emit_metric(t, "chess_backup_failures_total", "counter",
                "Backups that failed (logged; the server goes on).", (double)b->failures);
    emit_hist(t, "chess_backup_duration_seconds", "Time to write one backup.", &b->duration_s);
}

char *metrics_render(const struct metrics *m, const struct metrics_gauges *g, size_t *len) {
    struct buf t;
    if (!buf_init(&t, 0, 8192)) return NULL;
    t.data[0] = '\0';
    if (g->version)
        buf_printf(&t,
                   "# HELP chess_build_info The server's version (a label; the value is always "
                   "1).\n# TYPE chess_build_info gauge\nchess_build_info{version=\"%s\"} 1\n",
                   g->version);
    emit_process(&t, g);
    emit_metric(&t, "chess_connections", "gauge", "Open WebSocket connections.", g->connections);
    emit_metric(&t, "chess_connections_total", "counter", "WebSocket connections accepted.",
                (double)m->connections_total);
    emit_metric(&t, "chess_connections_rejected_total", "counter",
                "Connections refused (limit reached or shutting down).",
                (double)m->connections_rejected);
    emit_metric(&t, "chess_connections_closed_slow_total", "counter",
                "Connections closed because their outbound queue overflowed.",
                (double)m->connections_closed_slow);
    emit_metric(&t, "chess_connections_closed_idle_total", "counter",
                "Connections dropped after nothing was heard for --idle-timeout-seconds.",
                (double)m->connections_closed_idle);
    emit_metric(&t, "chess_connections_closed_abuse_total", "counter",
                "Connections closed for repeated abuse (floods, oversized messages).",
                (double)m->connections_closed_abuse);
    emit_metric(&t, "chess_accept_paused_total", "counter",
                "Times accepting connections paused because no file descriptor was left.",
                (double)m->accept_paused_total);
    emit_metric(&t, "chess_upgrades_refused_origin_total", "counter",
                "WebSocket upgrades refused (403) for an Origin not allowed (--allowed-origins).",
                (double)m->upgrades_refused_origin_total);
    emit_metric(&t, "chess_players", "gauge", "Players in this node's memory (guests included).",
                g->players);
    emit_metric(&t, "chess_players_online", "gauge",
                "Players with at least one connection to this node.", g->players_online);
    buf_printf(&t,
               "# HELP chess_games Games in memory by state.\n# TYPE chess_games gauge\n"
               "chess_games{state=\"playing\"} %d\nchess_games{state=\"ended\"} %d\n",
               g->games_live, g->games_ended_kept);
    emit_metric(&t, "chess_seeks", "gauge", "Open seeks in the lobby.", g->seeks);
    emit_metric(&t, "chess_challenges", "gauge", "Open challenges by link.", g->challenges);
    emit_metric(&t, "chess_games_started_total", "counter", "Games started.",
                (double)g->games_started_total);
    emit_metric(&t, "chess_games_ended_total", "counter", "Games ended.",
                (double)g->games_ended_total);
    emit_metric(&t, "chess_moves_total", "counter", "Moves played.", (double)g->moves_total);
    emit_metric(&t, "chess_guests_forgotten_total", "counter",
                "Guests dropped from memory after --guest-purge-seconds away.",
                (double)g->guests_forgotten_total);
    emit_engine(&t, g);
    emit_metric(&t, "chess_http_requests_total", "counter", "HTTP requests served.",
                (double)m->http_requests_total);
    emit_metric(&t, "chess_api_requests_total", "counter",
                "Requests to the lichess-compatible HTTP API.", (double)m->api_requests_total);
    emit_metric(&t, "chess_api_rate_limited_total", "counter",
                "HTTP API requests refused with 429 (per address or per token).",
                (double)m->api_rate_limited_total);
    emit_metric(&t, "chess_messages_out_total", "counter", "WebSocket messages queued to clients.",
                (double)m->messages_out_total);
    emit_metric(&t, "chess_bytes_in_total", "counter", "WebSocket payload bytes received.",
                (double)m->bytes_in_total);
    emit_metric(&t, "chess_bytes_out_total", "counter", "WebSocket payload bytes queued.",
                (double)m->bytes_out_total);
    emit_family(&t, "chess_messages_in_total", "type", "Client messages received by type.",
                &m->messages_in);
    emit_family(&t, "chess_errors_total", "code", "Errors sent to clients by code.", &m->errors);
    emit_hist(&t, "chess_message_handle_seconds",
              "Time from a complete client message to its replies being queued.", &m->handle_us);
    emit_hist(&t, "chess_message_bytes", "Size of client messages.", &m->message_bytes);
    emit_hist(&t, "chess_timer_lag_seconds",
              "How late the game timer (flags, first-move aborts) ran.", &m->timer_lag_us);
    emit_store(&t, m, g);
    emit_backup(&t, &m->backup);
    if (g->cluster) emit_site(&t, m, g);
    return (char *)buf_finish(&t, 0, len);
}
