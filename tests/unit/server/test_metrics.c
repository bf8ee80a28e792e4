/* Tests of the Prometheus rendering: counters, labelled families, cumulative histograms. */
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
    m.moves_per_second = 12.5;
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
        CHECK(strstr(text, "chess_message_handle_microseconds_bucket{le=\"5\"} 1\n") != NULL);
        CHECK(strstr(text, "chess_message_handle_microseconds_bucket{le=\"50\"} 2\n") != NULL);
        CHECK(strstr(text, "chess_message_handle_microseconds_bucket{le=\"20000\"} 2\n") != NULL);
        CHECK(strstr(text, "chess_message_handle_microseconds_bucket{le=\"1000000\"} 2\n") != NULL);
        CHECK(strstr(text, "chess_message_handle_microseconds_bucket{le=\"+Inf\"} 3\n") != NULL);
        CHECK(strstr(text, "chess_message_handle_microseconds_count 3\n") != NULL);
        CHECK(strstr(text, "# TYPE chess_moves_total counter\nchess_moves_total 99\n") != NULL);
        CHECK(strstr(text, "chess_moves_per_second 12.5\n") != NULL);
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
                               .process_start_seconds = 1700000000};
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
        CHECK(strstr(text, "\nprocess_start_time_seconds 1700000000\n") != NULL);
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
        CHECK(strstr(text, "chess_store_commit_microseconds_bucket{le=\"2500\"} 1\n") != NULL);
        CHECK(strstr(text, "chess_store_read_microseconds_count 1\n") != NULL);
        CHECK(strstr(text, "\nchess_store_read_errors_total 3\n") != NULL);
        free(text);
    }
    metrics_free(&m);
}

int main(void) {
    RUN(test_render);
    RUN(test_store);
    RUN(test_build_and_process);
    return check_finish();
}
