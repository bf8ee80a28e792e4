/*
 * What the store's files share: struct store and the writer's statements. Not for use outside
 * store/.
 */
#ifndef SERVER_STORE_INTERNAL_H
#define SERVER_STORE_INTERNAL_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>

#include "store/store.h"
#include "util/strmap.h"

/* How long a connection waits for another's lock (nodes of a site share the file) before
 * SQLITE_BUSY. */
#define STORE_BUSY_TIMEOUT_MS 5000

/* A growable array of operations (the loop fills one, the writer swaps it out). */
struct op_list {
    struct store_op *items;
    size_t count, cap;
};

struct result_list {
    struct store_result *items;
    size_t count, cap;
};

enum auth_job_kind { AUTH_JOB_HASH, AUTH_JOB_VERIFY };

struct auth_job {
    enum auth_job_kind kind;
    uint64_t cookie;
    char *password; /* owned; wiped before it is freed */
    char hash[STORE_PWHASH_MAX];
    struct auth_job *next;
};

/* The writer's prepared statements (writer thread only, after store_start). */
struct writer_stmts {
    sqlite3_stmt *begin, *commit, *rollback; /* prepared once: parsing them cost 8,000
                                                instructions a transaction */
    sqlite3_stmt *player, *token, *game, *move, *unlog, *set_clock, *archive, *game_end, *rating,
        *chat, *reg, *revoke, *import_game, *import_move, *bot_count, *bot_player, *bot_token,
        *bot_find, *bot_revoke;
};

/* A read-only connection and its statements, prepared on first use (read.c). One owner thread. */
struct store_reader {
    struct store *store;
    sqlite3 *db;
    struct store_reads *rs;
};

/* A reader thread of the pool (reader.c). */
struct read_thread {
    struct store *store;
    struct store_reader reader; /* the thread's own */
    pthread_t thread;
    bool running;
};

/* Where a live game's moves sit in live_moves: rowid[ply - 1] (writer thread only). */
struct live_rows {
    char id[STORE_ID_MAX + 1];
    int64_t *rowid;
    int count, cap;
};

struct store {
    struct store_config cfg;
    char path[4096];
    int lock_fd;
    sqlite3 *wdb;                /* the writer's connection */
    struct store_reader startup; /* the main thread's read connection (restoring, tests) */
    struct writer_stmts ws;      /* on wdb */
    struct strmap live;          /* game id -> struct live_rows: the writer's, as committed */
    int wal_frames;              /* the WAL's size in pages after the last commit (wal hook) */
    int wal_bound;               /* truncate the WAL past this many pages (bound_wal) */

    /* Loop thread only. */
    uint64_t submitted;
    uint64_t committed;
    bool failed;

    pthread_mutex_t lock;
    pthread_cond_t writer_cond;
    pthread_cond_t auth_cond;
    bool lock_ready;
    pthread_t writer, auth, checkpointer;
    bool writer_running, auth_running, checkpointer_running;
    sqlite3 *cdb; /* the checkpointer's connection */
    pthread_cond_t checkpoint_cond;
    store_wake_fn wake;
    void *wake_ctx;
    /* Written by the writer under lock; also read without it (store_committed_now). */
    _Atomic uint64_t committed_shared;
    /* Guarded by lock. */
    struct op_list pending;
    struct result_list results;
    bool failed_shared;
    bool wake_sent; /* a wake-up is out and not yet answered by store_poll */
    bool stopping;
    bool checkpoint_due; /* the WAL has grown past CHECKPOINT_FRAMES since the last checkpoint */
    struct auth_job *jobs_head, *jobs_tail;
    struct store_read_job *reads_head, *reads_tail; /* waiting for a reader */
    size_t reads_waiting;
    struct store_read_job *done_head, *done_tail; /* finished, for store_poll */
    uint64_t transactions_failed;                 /* rolled back (each attempt) */
    uint64_t commits;
    uint64_t checkpoints;
    uint64_t wal_truncations;

    /* The reader pool (reader.c): started by store_start, stopped by store_close. */
    struct read_thread *readers;
    int reader_count;
    pthread_cond_t reader_cond;
    bool reader_cond_ready;
};

/* writer.c: prepares the statements on wdb. Returns 0 or -STORE_ERR_IO. */
int writer_prepare(struct store *store);
void writer_finalize(struct store *store);

/*
 * Applies ops[0..count) in one transaction and commits, retrying a failed transaction a few
 * times. Each op's own status goes to status[i] (0, -CONFLICT, -NOT_FOUND...). Returns 0, or
 * -STORE_ERR_IO when the transaction could not be committed (nothing of it is in the file).
 * Writer thread.
 */
int writer_apply(struct store *store, const struct store_op *ops, size_t count, int *status);

/* read.c: opens a read-only connection on the store's file. Returns 0 or a negative status
 * (err filled). */
int reader_open(struct store *store, struct store_reader *reader, char *err, size_t errlen);
/* Finalizes the statements and closes the connection. */
void reader_close(struct store_reader *reader);

/* reader.c: starts cfg.readers threads, each with its own connection; stops them. */
int readers_start(struct store *store);
void readers_stop(struct store *store);
/* Takes the finished jobs (lock held by the caller), oldest first. */
struct store_read_job *readers_take_done(struct store *store);

/* Appends a result and says whether the loop needs waking (lock held). r may be NULL: only
 * the wake-up. */
bool store_push_result(struct store *store, const struct store_result *r);
/* Calls the wake function when needed (lock not held). */
void store_wake(struct store *store, bool needed);

/* Sets a connection's pragmas (WAL, synchronous, foreign keys, busy timeout). */
int store_configure_connection(sqlite3 *db, bool sync_normal, char *err, size_t errlen);

#endif
