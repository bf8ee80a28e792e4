/*
 * The password thread: a FIFO of jobs and a list of results, both guarded by one lock. The
 * thread takes one job at a time, hashes or verifies without the lock, then appends the result
 * and wakes the loop unless a wake-up is already out (password_poll() answers it).
 */
#include "app/password.h"

#include <pthread.h>
#include <sodium.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

_Static_assert(PASSWORD_HASH_MAX >= crypto_pwhash_STRBYTES, "room for an encoded hash");

struct password_job {
    enum password_result_kind kind;
    uint64_t cookie;
    char *password; /* owned; wiped before it is freed */
    char hash[PASSWORD_HASH_MAX];
    struct password_job *next;
};

struct passwords {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    pthread_t thread;
    bool thread_running;
    password_wake_fn wake;
    void *wake_ctx;
    /* Guarded by lock. */
    struct password_job *jobs_head, *jobs_tail;
    struct password_result *results;
    size_t result_count, result_cap;
    bool wake_sent; /* a wake-up is out and not yet answered by password_poll */
    bool stopping;
};

static void job_free(struct password_job *job) {
    if (job->password) {
        sodium_memzero(job->password, strlen(job->password));
        free(job->password);
    }
    sodium_memzero(job, sizeof *job);
    free(job);
}

/* Appends a result (lock held) and says whether the loop needs waking. */
static bool push_result(struct passwords *pw, const struct password_result *r) {
    if (pw->result_count == pw->result_cap) {
        size_t cap = pw->result_cap ? pw->result_cap * 2 : 16;
        struct password_result *grown = realloc(pw->results, cap * sizeof *grown);
        if (!grown) {
            LOGE("password", "out of memory: a result (cookie %llu) was lost",
                 (unsigned long long)r->cookie);
            return false;
        }
        pw->results = grown;
        pw->result_cap = cap;
    }
    pw->results[pw->result_count++] = *r;
    if (pw->wake_sent) return false;
    pw->wake_sent = true;
    return true;
}

/* Argon2id with the interactive limits: 0 or -NO_MEMORY. */
static int hash_password(const char *password, char out[PASSWORD_HASH_MAX]) {
    return crypto_pwhash_str(out, password, strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                             crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0
               ? 0
               : -PASSWORD_ERR_NO_MEMORY;
}

int password_hash_now(const char *password, char out[PASSWORD_HASH_MAX]) {
    if (sodium_init() < 0) return -PASSWORD_ERR_INIT;
    return hash_password(password, out);
}

static void run_job(const struct password_job *job, struct password_result *r) {
    size_t len = strlen(job->password);
    r->kind = job->kind;
    r->cookie = job->cookie;
    if (job->kind == PASSWORD_RESULT_HASH) {
        r->status = hash_password(job->password, r->hash);
    } else if (crypto_pwhash_str_verify(job->hash, job->password, len) != 0) {
        r->status = -PASSWORD_ERR_MISMATCH;
    }
}

static void *password_main(void *arg) {
    struct passwords *pw = arg;
    pthread_mutex_lock(&pw->lock);
    for (;;) {
        while (!pw->jobs_head && !pw->stopping) pthread_cond_wait(&pw->cond, &pw->lock);
        if (pw->stopping) break;
        struct password_job *job = pw->jobs_head;
        pw->jobs_head = job->next;
        if (!pw->jobs_head) pw->jobs_tail = NULL;
        pthread_mutex_unlock(&pw->lock);

        struct password_result r;
        memset(&r, 0, sizeof r);
        run_job(job, &r);
        job_free(job);
        pthread_mutex_lock(&pw->lock);
        bool need = push_result(pw, &r);
        pthread_mutex_unlock(&pw->lock);
        if (need && pw->wake) pw->wake(pw->wake_ctx);
        sodium_memzero(&r, sizeof r);
        pthread_mutex_lock(&pw->lock);
    }
    pthread_mutex_unlock(&pw->lock);
    return NULL;
}

struct passwords *password_start(password_wake_fn wake, void *wake_ctx) {
    struct passwords *pw = NULL;
    if (sodium_init() < 0) {
        LOGE("password", "libsodium failed to initialise");
        goto fail;
    }
    pw = calloc(1, sizeof *pw);
    if (!pw) goto fail;
    pw->wake = wake;
    pw->wake_ctx = wake_ctx;
    if (pthread_mutex_init(&pw->lock, NULL) != 0) goto fail_free;
    if (pthread_cond_init(&pw->cond, NULL) != 0) goto fail_mutex;
    if (pthread_create(&pw->thread, NULL, password_main, pw) != 0) goto fail_cond;
    pw->thread_running = true;
    return pw;
fail_cond:
    pthread_cond_destroy(&pw->cond);
fail_mutex:
    pthread_mutex_destroy(&pw->lock);
fail_free:
    free(pw);
fail:
    LOGE("password", "cannot start the password thread");
    return NULL;
}

void password_stop(struct passwords *pw) {
    if (!pw) return;
    pthread_mutex_lock(&pw->lock);
    pw->stopping = true;
    pthread_cond_broadcast(&pw->cond);
    pthread_mutex_unlock(&pw->lock);
    if (pw->thread_running) pthread_join(pw->thread, NULL);
    while (pw->jobs_head) {
        struct password_job *next = pw->jobs_head->next;
        job_free(pw->jobs_head);
        pw->jobs_head = next;
    }
    if (pw->results) sodium_memzero(pw->results, pw->result_cap * sizeof *pw->results);
    free(pw->results);
    pthread_cond_destroy(&pw->cond);
    pthread_mutex_destroy(&pw->lock);
    free(pw);
}

static int submit(struct passwords *pw, enum password_result_kind kind, const char *password,
                  const char *hash, uint64_t cookie) {
    struct password_job *job = calloc(1, sizeof *job);
    if (!job) return -PASSWORD_ERR_NO_MEMORY;
    job->kind = kind;
    job->cookie = cookie;
    job->password = strdup(password);
    if (!job->password) {
        free(job);
        return -PASSWORD_ERR_NO_MEMORY;
    }
    if (hash) snprintf(job->hash, sizeof job->hash, "%s", hash);
    pthread_mutex_lock(&pw->lock);
    if (pw->jobs_tail)
        pw->jobs_tail->next = job;
    else
        pw->jobs_head = job;
    pw->jobs_tail = job;
    pthread_cond_signal(&pw->cond);
    pthread_mutex_unlock(&pw->lock);
    return 0;
}

int password_hash(struct passwords *pw, const char *password, uint64_t cookie) {
    return submit(pw, PASSWORD_RESULT_HASH, password, NULL, cookie);
}

int password_verify(struct passwords *pw, const char *password, const char *hash, uint64_t cookie) {
    return submit(pw, PASSWORD_RESULT_VERIFY, password, hash, cookie);
}

int password_poll(struct passwords *pw, password_result_fn fn, void *ctx) {
    pthread_mutex_lock(&pw->lock);
    struct password_result *taken = pw->results;
    size_t count = pw->result_count, cap = pw->result_cap;
    pw->results = NULL;
    pw->result_count = pw->result_cap = 0;
    pw->wake_sent = false;
    pthread_mutex_unlock(&pw->lock);
    for (size_t i = 0; fn && i < count; i++) fn(ctx, &taken[i]);
    if (taken) sodium_memzero(taken, cap * sizeof *taken);
    free(taken);
    return (int)count;
}
