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

/* Microseconds: 20 ms is the move delay the load benchmark aims under, so it is a bound. */
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

int metrics_init(struct metrics *m) {
    *m = (struct metrics){0};
    m->handle_us.bounds = latency_bounds;
    m->timer_lag_us.bounds = latency_bounds;
    m->message_bytes.bounds = size_bounds;
    m->store_batch_ops.bounds = ops_bounds;
    m->store_commit_us.bounds = latency_bounds;
    m->store_write_wait_us.bounds = latency_bounds;
    m->store_held_us.bounds = latency_bounds;
    m->store_read_wait_us.bounds = latency_bounds;
    m->store_read_us.bounds = latency_bounds;
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

static void emit_metric(struct buf *t, const char *name, const char *type, const char *help,
                        double value) {
    buf_printf(t, "# HELP %s %s\n# TYPE %s %s\n%s %.17g\n", name, help, name, type, name, value);
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
    for (int i = 0; i < METRICS_HIST_BUCKETS; i++) {
        cumulative += h->counts[i];
        if (i < METRICS_HIST_BUCKETS - 1)
            buf_printf(t, "%s_bucket{le=\"%.15g\"} %llu\n", name, h->bounds[i],
                       (unsigned long long)cumulative);
        else
            buf_printf(t, "%s_bucket{le=\"+Inf\"} %llu\n", name, (unsigned long long)cumulative);
    }
    buf_printf(t, "%s_sum %.17g\n%s_count %llu\n", name, h->sum, name,
               (unsigned long long)h->count);
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
    emit_hist(t, "chess_store_commit_microseconds",
              "Time of one transaction, from BEGIN to the end of COMMIT.", &m->store_commit_us);
    emit_hist(t, "chess_store_write_wait_microseconds",
              "Time from queueing a transaction's oldest operation to its commit.",
              &m->store_write_wait_us);
    emit_hist(t, "chess_store_held_message_microseconds",
              "Time an outbound message waited for the commit of what it announces.",
              &m->store_held_us);
    emit_metric(t, "chess_store_readers", "gauge", "Reader threads.", g->store_readers);
    emit_metric(t, "chess_store_read_queue_length", "gauge", "Reads waiting for a reader thread.",
                (double)g->store_read_queue);
    emit_hist(t, "chess_store_read_wait_microseconds", "Time a read waited for a reader thread.",
              &m->store_read_wait_us);
    emit_hist(t, "chess_store_read_microseconds",
              "Time from asking for a read to its answer being ready.", &m->store_read_us);
    emit_metric(t, "chess_store_read_errors_total", "counter",
                "Reads that failed (a database error, not a missing row).",
                (double)m->store_read_errors);
    emit_metric(t, "chess_store_reads_refused_total", "counter",
                "Reads refused because the readers' queue was full or they had stopped.",
                (double)m->store_read_refused);
}

/* Seconds: a backup of a small database takes milliseconds, one of gigabytes minutes. */
static const double backup_bounds[METRICS_HIST_BUCKETS - 1] = {
    0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800};

void metrics_backup_init(struct metrics_backup *b, int64_t last_success_ms) {
    *b = (struct metrics_backup){.enabled = true, .last_success_ms = last_success_ms};
    b->duration_s.bounds = backup_bounds;
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
    emit_metric(&t, "chess_players", "gauge", "Known players (guests included).", g->players);
    emit_metric(&t, "chess_players_online", "gauge", "Players with at least one connection.",
                g->players_online);
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
    emit_metric(&t, "chess_moves_per_second", "gauge", "Moves per second over the last 10 s.",
                m->moves_per_second);
    emit_metric(&t, "chess_http_requests_total", "counter", "HTTP requests served.",
                (double)m->http_requests_total);
    emit_metric(&t, "chess_messages_out_total", "counter", "WebSocket messages queued to clients.",
                (double)m->messages_out_total);
    emit_metric(&t, "chess_bytes_in_total", "counter", "WebSocket payload bytes received.",
                (double)m->bytes_in_total);
    emit_metric(&t, "chess_bytes_out_total", "counter", "WebSocket payload bytes queued.",
                (double)m->bytes_out_total);
    emit_family(&t, "chess_messages_in_total", "type", "Client messages received by type.",
                &m->messages_in);
    emit_family(&t, "chess_errors_total", "code", "Errors sent to clients by code.", &m->errors);
    emit_hist(&t, "chess_message_handle_microseconds",
              "Time from a complete client message to its replies being queued.", &m->handle_us);
    emit_hist(&t, "chess_message_bytes", "Size of client messages.", &m->message_bytes);
    emit_hist(&t, "chess_timer_lag_microseconds",
              "How late the game timer (flags, first-move aborts) ran.", &m->timer_lag_us);
    emit_store(&t, m, g);
    emit_backup(&t, &m->backup);
    if (g->cluster) {
        emit_metric(&t, "chess_redis_up", "gauge",
                    "1 while this node is connected to the site's Redis (docs/scaling.md).",
                    g->cluster_redis_up);
        emit_metric(&t, "chess_site_nodes", "gauge",
                    "Nodes of the site heard from in the last 5 s.", g->site_nodes);
        emit_metric(&t, "chess_site_connections", "gauge", "WebSocket connections, whole site.",
                    g->site_connections);
        emit_metric(&t, "chess_site_players_online", "gauge", "Players online, whole site.",
                    g->site_players_online);
        emit_metric(&t, "chess_site_games_live", "gauge", "Games in progress, whole site.",
                    g->site_games_live);
    }
    return (char *)buf_finish(&t, 0, len);
}
