/*
 * What the store's generic files share (store.c, writer.c, reader.c): struct store with its
 * queues, threads and sequence numbers. Backends never see it (they see backend.h). Not for use
 * outside store/.
 */
#ifndef SERVER_STORE_INTERNAL_H
#define SERVER_STORE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "store/backend.h"
#include "store/store.h"

/* A growable array of operations (the loop fills one, the writer swaps it out). */
struct op_list {
    struct store_op *items;
    size_t count, cap;
};

struct result_list {
    struct store_result *items;
    size_t count, cap;
};

/* A reader thread of the pool (reader.c). */
struct read_thread {
    struct store *store;
    struct store_reader *reader; /* the thread's own connection */
    pthread_t thread;
    bool running;
};

struct store {
    struct store_config cfg;
    const struct store_backend *backend;
    struct store_db *db;          /* the backend's handle */
    struct store_reader *startup; /* the main thread's reader (restoring, tests) */

    /* Loop thread only. */
    uint64_t submitted;
    uint64_t committed;
    bool failed;
    bool fenced;

    pthread_mutex_t lock;
    pthread_cond_t writer_cond;
    pthread_cond_t reader_cond;
    bool lock_ready;
    pthread_t writer;
    bool writer_running;
    bool backend_started; /* the backend's start was called (its stop follows) */
    store_wake_fn wake;
    void *wake_ctx;
    /* Written by the writer under lock; also read without it (store_committed_now). */
    _Atomic uint64_t committed_shared;
    /* Guarded by lock. */
    struct op_list pending;
    struct result_list results;
    bool failed_shared;
    bool fenced_shared; /* the writer stopped because the node's lease was taken */
    bool database_down; /* the writer is retrying a database it cannot reach */
    bool wake_sent;     /* a wake-up is out and not yet answered by store_poll */
    bool stopping;
    struct store_read_job *reads_head, *reads_tail; /* waiting for a reader */
    size_t reads_waiting;
    struct store_read_job *done_head, *done_tail; /* finished, for store_poll */
    uint64_t transactions_failed;                 /* rolled back (each attempt) */
    uint64_t commits;

    /* The reader pool (reader.c): started by store_start, stopped by store_close. */
    struct read_thread *readers;
    int reader_count;

    /* Backups (backup.c): set up by store_backup_setup (main thread), the thread started by
     * store_start and stopped by store_close. */
    const char *backup_dir; /* NULL: no backups */
    int backup_keep;
    pthread_cond_t backup_cond;
    pthread_t backup_thread;
    bool backup_running;
    atomic_bool backup_cancel; /* set by store_close: a backup under way stops */
    /* Guarded by lock. */
    bool backup_wanted; /* asked for, not started yet */
    bool backup_busy;   /* asked for, not reported yet */
};

/* store.c: grows an array to hold need items. Returns 0 or -1 (out of memory). */
int store_list_reserve(void **items, size_t *cap, size_t need, size_t size);

/* Appends a result and says whether the loop needs waking (lock held). r may be NULL: only
 * the wake-up. */
bool store_push_result(struct store *store, const struct store_result *r);
/* Calls the wake function when needed (lock not held). */
void store_wake(struct store *store, bool needed);

/* writer.c: the writer thread's body (arg: the store). */
void *store_writer_main(void *arg);

/* backup.c: starts the backup thread when backups are set up (0 or -STORE_ERR_IO); stops it,
 * cancelling a backup under way (store_close, after setting stopping and backup_cancel). */
int backups_start(struct store *store);
void backups_stop(struct store *store);

/* reader.c: starts cfg.readers threads, each with its own connection; stops them. */
int readers_start(struct store *store);
void readers_stop(struct store *store);
/* Takes the finished jobs (lock held by the caller), oldest first. */
struct store_read_job *readers_take_done(struct store *store);

#endif
