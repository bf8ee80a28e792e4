/*
 * Counters and histograms for /metrics, rendered in the Prometheus text format (version 0.0.4)
 * by Prometheus's conventions: counters end in _total and only grow (rates are Prometheus's
 * rate()), durations are in seconds (_seconds), sizes in bytes. The application counts
 * (messages by type, errors by code, bytes, latencies) and adds the world's gauges when
 * rendering. Nothing here knows sockets.
 *
 * Loop thread only (later issues' threads report through the loop, not here directly).
 */
#ifndef SERVER_METRICS_METRICS_H
#define SERVER_METRICS_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define METRICS_HIST_BUCKETS 17

/* A cumulative histogram with fixed upper bounds. Values are observed in the histogram's own
 * unit (microseconds for durations, which are whole numbers where they are measured) and
 * rendered times scale (1e-6: seconds), bounds and sum alike. */
struct metrics_hist {
    const double *bounds; /* METRICS_HIST_BUCKETS - 1 finite bounds, then +Inf */
    double scale;         /* rendering unit per observed unit */
    uint64_t counts[METRICS_HIST_BUCKETS];
    double sum;
    uint64_t count;
};

void metrics_hist_observe(struct metrics_hist *h, double value);

/* Labelled counter family: up to `size` label values, found by name. */
struct metrics_family {
    const char **labels; /* borrowed, static strings */
    uint64_t *values;
    int count;
    int size;
};

/* Online backups (app/backup.c, docs/self-hosting.md); rendered once enabled. */
struct metrics_backup {
    bool enabled;
    uint64_t successes, failures;
    int64_t last_success_ms;        /* the newest backup's instant (Unix ms); 0: none */
    struct metrics_hist duration_s; /* one backup, in seconds */
};

/* Enables the backup metrics, with the instant of the newest backup already there (0: none). */
void metrics_backup_init(struct metrics_backup *b, int64_t last_success_ms);

struct metrics {
    uint64_t connections_total;
    uint64_t connections_rejected;
    uint64_t connections_closed_slow;  /* outbound queue overflow */
    uint64_t connections_closed_idle;  /* nothing heard (no frame, no pong) for the idle timeout */
    uint64_t connections_closed_abuse; /* rate limit or size abuse */
    uint64_t http_requests_total;
    uint64_t api_requests_total;            /* HTTP API requests (docs/http-api.md) */
    uint64_t api_rate_limited_total;        /* of those, refused with 429 */
    uint64_t accept_paused_total;           /* accepting paused: no file descriptor left */
    uint64_t upgrades_refused_origin_total; /* WebSocket upgrades refused for their Origin */
    uint64_t messages_out_total;
    uint64_t bytes_in_total;
    uint64_t bytes_out_total;
    struct metrics_family messages_in; /* by message type */
    struct metrics_family errors;      /* by error code */
    struct metrics_hist handle_us;     /* time to handle one client message */
    struct metrics_hist message_bytes; /* size of client messages */
    struct metrics_hist timer_lag_us;  /* lateness of the game timer */
    /* The store (docs/persistence.md), from the figures its threads report to the loop. */
    struct metrics_hist store_batch_ops;     /* operations per committed transaction */
    struct metrics_hist store_commit_us;     /* BEGIN to the end of COMMIT */
    struct metrics_hist store_write_wait_us; /* a transaction's oldest op: submitted to committed */
    struct metrics_hist store_held_us;       /* an outbound message: held to released */
    struct metrics_hist store_read_wait_us;  /* a read: queued to started on a reader */
    struct metrics_hist store_read_us;       /* a read: queued to finished */
    uint64_t store_read_errors;              /* reads that failed (not "not found") */
    uint64_t store_read_refused;             /* reads refused: queue full or readers stopped */
    /* A site's takeovers done by this node (docs/scaling.md, "When a node dies"). */
    uint64_t takeovers_total;      /* dead nodes whose games and arenas this node took over */
    uint64_t games_adopted_total;  /* their games in progress, restored here */
    uint64_t arenas_adopted_total; /* their arenas not finished, restored here */
    struct metrics_backup backup;
};

/* Sets up empty metrics. Returns 0 or -1 when memory runs out. */
int metrics_init(struct metrics *m);
void metrics_free(struct metrics *m);

/* Adds n to the family's counter for label (a static string). */
void metrics_family_add(struct metrics_family *f, const char *label, uint64_t n);

/* Gauges owned by others, sampled when rendering. */
struct metrics_gauges {
    const char *version; /* chess_build_info's label (NULL: not rendered) */
    /* The process, by Prometheus's conventions for process_* metrics (negative: unknown). */
    double process_cpu_seconds;    /* user and system CPU time */
    double process_resident_bytes; /* resident memory */
    double process_open_fds;       /* open file descriptors */
    double process_max_fds;        /* their limit */
    double process_start_seconds;  /* start time, seconds since the epoch */
    int connections;
    int players;
    int players_online; /* players with a connection to this node */
    int games_live;
    int games_ended_kept;
    int seeks;
    int challenges;
    uint64_t moves_total;
    uint64_t games_started_total;
    uint64_t games_ended_total;
    uint64_t guests_forgotten_total;
    /* The engine worker pool (all zero when the engine is off). */
    int engine_workers;
    int engine_busy_slots;
    uint64_t engine_queue_length;
    uint64_t engine_jobs_done, engine_jobs_cancelled, engine_preemptions;
    uint64_t engine_wait_ms_total, engine_search_ms_total, engine_nodes_total;
    uint64_t engine_table_bytes, engine_tables, engine_evictions;
    /* The store (all zero without a database). */
    bool store;
    uint64_t store_write_queue, store_read_queue, store_commits, store_transactions_failed;
    uint64_t store_checkpoints, store_wal_truncations;
    int store_readers;
    /* The site (docs/scaling.md; cluster false without --redis). The site's figures are
     * rendered only when site_reporter: by one node of the site at a time, so that summing
     * any metric over the nodes counts nothing twice. */
    bool cluster;
    bool cluster_redis_up;
    bool site_reporter;
    int site_nodes, site_connections, site_players_online, site_games_live;
};

/* Renders everything as Prometheus text into a new malloc'd string (the caller frees it);
 * *len receives its length. Returns NULL when memory runs out. */
char *metrics_render(const struct metrics *m, const struct metrics_gauges *g, size_t *len);

#endif
