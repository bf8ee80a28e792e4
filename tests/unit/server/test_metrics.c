/* Tests of the Prometheus rendering: counters, labelled families, cumulative histograms in
 * seconds, the site's figures from one node only, and Prometheus's naming conventions for every
 * metric rendered. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "metrics/metrics.h"

static void test_render(void) {
    struct metrics m;
    CHECK_EQ_INT(metrics_init(&m), 0);
    m.connections_total = 7;
    metrics_family_add(&m.messages_in, "move", 3);
    metrics_family_add(&m.messages_in, "hello", 1);
    metrics_family_add(&m.messages_in, "move", 2);
    metrics_family_add(&m.errors, "ILLEGAL_MOVE", 1);
    metrics_hist_observe(&m.handle_us, 3);   /* first bucket (le 5) */
    metrics_hist_observe(&m.handle_us, 40);  /* le 50 */
    metrics_hist_observe(&m.handle_us, 1e9); /* +Inf only */
    struct metrics_gauges g = {
        .connections = 2, .games_live = 1, .games_ended_kept = 4, .moves_total = 99};
    size_t len;
    char *text = metrics_render(&m, &g, &len);
    CHECK(text != NULL);
    if (text) {
        CHECK_EQ_INT(strlen(text), len);
        CHECK(strstr(text, "\nchess_connections 2\n") != NULL);
        CHECK(strstr(text, "\nchess_connections_total 7\n") != NULL);
        CHECK(strstr(text, "chess_messages_in_total{type=\"move\"} 5\n") != NULL);
        CHECK(strstr(text, "chess_messages_in_total{type=\"hello\"} 1\n") != NULL);
        CHECK(strstr(text, "chess_errors_total{code=\"ILLEGAL_MOVE\"} 1\n") != NULL);
        CHECK(strstr(text, "chess_games{state=\"playing\"} 1\nchess_games{state=\"ended\"} 4\n") !=
              NULL);
        /* Observed in microseconds, rendered in seconds: bounds and sum. */
        CHECK(strstr(text, "# TYPE chess_message_handle_seconds histogram\n") != NULL);
        CHECK(strstr(text, "chess_message_handle_seconds_bucket{le=\"0.000005\"} 1\n") != NULL);
        CHECK(strstr(text, "chess_message_handle_seconds_bucket{le=\"0.00005\"} 2\n") != NULL);
        CHECK(strstr(text, "chess_message_handle_seconds_bucket{le=\"0.02\"} 2\n") != NULL);
        CHECK(strstr(text, "chess_message_handle_seconds_bucket{le=\"1\"} 2\n") != NULL);
        CHECK(strstr(text, "chess_message_handle_seconds_bucket{le=\"+Inf\"} 3\n") != NULL);
        CHECK(strstr(text, "chess_message_handle_seconds_sum 1000.000043\n") != NULL);
        CHECK(strstr(text, "chess_message_handle_seconds_count 3\n") != NULL);
        CHECK(strstr(text, "microseconds") == NULL);
        /* Sizes stay in bytes. */
        CHECK(strstr(text, "chess_message_bytes_bucket{le=\"1048576\"} 0\n") != NULL);
        CHECK(strstr(text, "# TYPE chess_moves_total counter\nchess_moves_total 99\n") != NULL);
        CHECK(strstr(text, "per_second") == NULL);   /* rates are Prometheus's rate() */
        CHECK(strstr(text, "chess_store_") == NULL); /* no database: no store figures */
        free(text);
    }
    metrics_free(&m);
}

static void test_build_and_process(void) {
    struct metrics m;
    CHECK_EQ_INT(metrics_init(&m), 0);
    struct metrics_gauges g = {.version = "1.2.3",
                               .process_cpu_seconds = 1.5,
                               .process_resident_bytes = 4096,
                               .process_open_fds = -1, /* could not be read: left out */
                               .process_max_fds = 1024,
                               .process_start_seconds = 1700000000.854};
    size_t len;
    char *text = metrics_render(&m, &g, &len);
    CHECK(text != NULL);
    if (text) {
        CHECK(strstr(text,
                     "# TYPE chess_build_info gauge\nchess_build_info{version=\"1.2.3\"} 1\n") !=
              NULL);
        CHECK(strstr(text,
                     "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 1.5\n") !=
              NULL);
        CHECK(strstr(text, "\nprocess_resident_memory_bytes 4096\n") != NULL);
        CHECK(strstr(text, "process_open_fds") == NULL);
        CHECK(strstr(text, "\nprocess_max_fds 1024\n") != NULL);
        /* No digits past what a double holds. */
        CHECK(strstr(text, "\nprocess_start_time_seconds 1700000000.854\n") != NULL);
        free(text);
    }
    metrics_free(&m);
}

static void test_store(void) {
    struct metrics m;
    CHECK_EQ_INT(metrics_init(&m), 0);
    metrics_hist_observe(&m.store_batch_ops, 1);    /* le 1 */
    metrics_hist_observe(&m.store_batch_ops, 300);  /* le 512 */
    metrics_hist_observe(&m.store_commit_us, 1800); /* le 2500 */
    metrics_hist_observe(&m.store_read_us, 70);
    m.store_read_errors = 3;
    struct metrics_gauges g = {.store = true,
                               .store_write_queue = 12,
                               .store_read_queue = 4,
                               .store_commits = 9,
                               .store_transactions_failed = 1,
                               .store_checkpoints = 3,
                               .store_wal_truncations = 5,
                               .store_readers = 2};
    size_t len;
    char *text = metrics_render(&m, &g, &len);
    CHECK(text != NULL);
    if (text) {
        CHECK(strstr(text, "\nchess_store_write_queue_length 12\n") != NULL);
        CHECK(strstr(text, "\nchess_store_read_queue_length 4\n") != NULL);
        CHECK(strstr(text, "\nchess_store_commits_total 9\n") != NULL);
        CHECK(strstr(text, "\nchess_store_transactions_failed_total 1\n") != NULL);
        CHECK(strstr(text, "\nchess_store_checkpoints_total 3\n") != NULL);
        CHECK(strstr(text, "\nchess_store_wal_truncations_total 5\n") != NULL);
        CHECK(strstr(text, "\nchess_store_readers 2\n") != NULL);
        CHECK(strstr(text, "chess_store_commit_batch_ops_bucket{le=\"1\"} 1\n") != NULL);
        CHECK(strstr(text, "chess_store_commit_batch_ops_bucket{le=\"256\"} 1\n") != NULL);
        CHECK(strstr(text, "chess_store_commit_batch_ops_bucket{le=\"512\"} 2\n") != NULL);
        CHECK(strstr(text, "chess_store_commit_batch_ops_sum 301\n") != NULL);
        CHECK(strstr(text, "chess_store_commit_seconds_bucket{le=\"0.001\"} 0\n") != NULL);
        CHECK(strstr(text, "chess_store_commit_seconds_bucket{le=\"0.0025\"} 1\n") != NULL);
        CHECK(strstr(text, "chess_store_commit_seconds_sum 0.0018\n") != NULL);
        CHECK(strstr(text, "chess_store_read_seconds_count 1\n") != NULL);
        CHECK(strstr(text, "\nchess_store_read_errors_total 3\n") != NULL);
        free(text);
    }
    metrics_free(&m);
}

/* The site's figures: chess_redis_up and chess_site_reporter from every node of a site, the
 * site's totals from the reporting node only, nothing of a site without one. */
static void test_site(void) {
    struct metrics m;
    CHECK_EQ_INT(metrics_init(&m), 0);
    struct metrics_gauges g = {.players_online = 2,
                               .cluster = true,
                               .cluster_redis_up = true,
                               .site_nodes = 3,
                               .site_connections = 7,
                               .site_players_online = 5,
                               .site_games_live = 2};
    size_t len;
    for (int reporter = 0; reporter < 2; reporter++) {
        g.site_reporter = reporter;
        char *text = metrics_render(&m, &g, &len);
        CHECK(text != NULL);
        if (!text) continue;
        CHECK(strstr(text, "\nchess_players_online 2\n") != NULL);
        CHECK(strstr(text, "\nchess_redis_up 1\n") != NULL);
        CHECK(strstr(text, reporter ? "\nchess_site_reporter 1\n" : "\nchess_site_reporter 0\n") !=
              NULL);
        CHECK_EQ_INT(strstr(text, "\nchess_site_nodes 3\n") != NULL, reporter);
        CHECK_EQ_INT(strstr(text, "\nchess_site_connections 7\n") != NULL, reporter);
        CHECK_EQ_INT(strstr(text, "\nchess_site_players_online 5\n") != NULL, reporter);
        CHECK_EQ_INT(strstr(text, "\nchess_site_games_live 2\n") != NULL, reporter);
        free(text);
    }
    g.cluster = false;
    char *text = metrics_render(&m, &g, &len);
    CHECK(text != NULL);
    if (text) {
        CHECK(strstr(text, "chess_site_") == NULL && strstr(text, "chess_redis_up") == NULL);
        free(text);
    }
    metrics_free(&m);
}

static bool ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* One family's HELP and TYPE lines, as read from the text. */
struct family {
    char name[96];
    char type[16];
};

/*
 * Reads every line of a full exposition (every part rendered) and fails on what Prometheus's
 * conventions and the text format forbid: a sample of no family declared just before it (HELP,
 * then TYPE), a family declared twice, a counter not named *_total or a *_total that is not a
 * counter, a duration not in seconds, a rate, a value that is not a number.
 */
static void test_conventions(void) {
    struct metrics m;
    CHECK_EQ_INT(metrics_init(&m), 0);
    metrics_family_add(&m.messages_in, "move", 1);
    metrics_family_add(&m.errors, "ILLEGAL_MOVE", 1);
    metrics_hist_observe(&m.store_commit_us, 10);
    struct metrics_gauges g = {.version = "1.0",
                               .process_cpu_seconds = 1,
                               .process_resident_bytes = 1,
                               .process_open_fds = 1,
                               .process_max_fds = 1,
                               .process_start_seconds = 1,
                               .store = true,
                               .cluster = true,
                               .site_reporter = true};
    size_t len;
    char *text = metrics_render(&m, &g, &len);
    CHECK(text != NULL);
    if (!text) return;
    struct family seen[128];
    int families = 0, samples = 0, bad = 0;
    char help_of[96] = "";
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char name[96], type[16];
        if (sscanf(line, "# HELP %95s", name) == 1) {
            snprintf(help_of, sizeof help_of, "%s", name);
            continue;
        }
        if (sscanf(line, "# TYPE %95s %15s", name, type) == 2) {
            bool twice = false;
            for (int i = 0; i < families; i++) twice = twice || strcmp(seen[i].name, name) == 0;
            bool counter = strcmp(type, "counter") == 0;
            bool ok = !twice && strcmp(help_of, name) == 0 && families < 128 &&
                      counter == ends_with(name, "_total") &&
                      (counter || !strcmp(type, "gauge") || !strcmp(type, "histogram")) &&
                      !strstr(name, "microseconds") && !strstr(name, "milliseconds") &&
                      !strstr(name, "per_second");
            if (!ok) printf("     bad family %s (%s)\n", name, type);
            bad += !ok;
            if (families < 128) {
                snprintf(seen[families].name, sizeof seen[families].name, "%s", name);
                snprintf(seen[families].type, sizeof seen[families].type, "%s", type);
                families++;
            }
            continue;
        }
        /* A sample: name{labels} value, of the family declared last. */
        const struct family *f = families ? &seen[families - 1] : NULL;
        size_t name_len = strcspn(line, "{ ");
        const char *value = strrchr(line, ' ');
        char *end = NULL;
        if (value) strtod(value + 1, &end);
        bool ok = f && value && end && *end == '\0' && end != value + 1;
        if (ok && strcmp(f->type, "histogram") == 0) {
            const char *suffix = line + strlen(f->name);
            ok = strncmp(line, f->name, strlen(f->name)) == 0 &&
                 (!strncmp(suffix, "_bucket{le=", 11) || !strncmp(suffix, "_sum ", 5) ||
                  !strncmp(suffix, "_count ", 7));
        } else if (ok) {
            ok = name_len == strlen(f->name) && strncmp(line, f->name, name_len) == 0;
        }
        if (!ok) printf("     bad sample \"%s\"\n", line);
        bad += !ok;
        samples++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(families > 60);
    CHECK(samples > families);
    free(text);
    metrics_free(&m);
}

int main(void) {
    RUN(test_render);
    RUN(test_store);
    RUN(test_build_and_process);
    RUN(test_site);
    RUN(test_conventions);
    return check_finish();
}
