/*
 * Tests of the password thread: a password hashes (Argon2id) and verifies against its hash, a
 * wrong one does not, results come back through password_poll() in order with their cookies
 * after a wake-up, and stopping with jobs still queued frees them.
 */
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "app/password.h"
#include "check.h"

static atomic_int wakes;

static void on_wake(void *ctx) {
    (void)ctx;
    atomic_fetch_add(&wakes, 1);
}

#define MAX_RESULTS 8

struct results {
    struct password_result items[MAX_RESULTS];
    int count;
};

static void collect(void *ctx, const struct password_result *r) {
    struct results *rs = ctx;
    if (rs->count < MAX_RESULTS) rs->items[rs->count++] = *r;
}

/* Polls until n results arrived, at most 20 s. */
static int wait_results(struct passwords *pw, struct results *rs, int n) {
    for (int i = 0; i < 20000 && rs->count < n; i++) {
        password_poll(pw, collect, rs);
        if (rs->count < n) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
    return rs->count >= n ? 0 : -1;
}

static void test_passwords(void) {
    struct passwords *pw = password_start(on_wake, NULL);
    CHECK(pw != NULL);
    if (!pw) return;
    struct results rs = {0};
    CHECK_EQ_INT(password_hash(pw, "correct horse", 11), 0);
    CHECK_EQ_INT(wait_results(pw, &rs, 1), 0);
    /* The wake-up follows the result (the poll may take it first). */
    for (int i = 0; i < 20000 && atomic_load(&wakes) == 0; i++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    CHECK(atomic_load(&wakes) > 0);
    CHECK_EQ_INT(rs.items[0].kind, PASSWORD_RESULT_HASH);
    CHECK_EQ_INT(rs.items[0].cookie, 11);
    CHECK_EQ_INT(rs.items[0].status, 0);
    CHECK(strncmp(rs.items[0].hash, "$argon2id$", 10) == 0);
    char hash[PASSWORD_HASH_MAX];
    memcpy(hash, rs.items[0].hash, sizeof hash);
    CHECK_EQ_INT(password_verify(pw, "correct horse", hash, 12), 0);
    CHECK_EQ_INT(password_verify(pw, "wrong horse", hash, 13), 0);
    CHECK_EQ_INT(wait_results(pw, &rs, 3), 0);
    CHECK_EQ_INT(rs.items[1].kind, PASSWORD_RESULT_VERIFY);
    CHECK_EQ_INT(rs.items[1].cookie, 12);
    CHECK_EQ_INT(rs.items[1].status, 0);
    CHECK_EQ_INT(rs.items[2].cookie, 13);
    CHECK_EQ_INT(rs.items[2].status, -PASSWORD_ERR_MISMATCH);
    /* Stopped with work queued: the job in progress finishes, the rest is dropped. */
    for (int i = 0; i < 3; i++) CHECK_EQ_INT(password_hash(pw, "queued password", 20 + i), 0);
    password_stop(pw);
    password_stop(NULL);
}

int main(void) {
    RUN(test_passwords);
    return check_finish();
}
