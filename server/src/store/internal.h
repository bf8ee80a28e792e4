/*
 * What the store's files share: struct store and the writer's statements. Not for use outside
 * store/.
 */
#ifndef SERVER_STORE_INTERNAL_H
#define SERVER_STORE_INTERNAL_H

#include <pthread.h>
#include <sqlite3.h>

#include "store/store.h"
#include "util/strmap.h"

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
    sqlite3_stmt *player, *token, *game, *move, *unlog, *set_clock, *archive, *game_end, *rating,
        *chat, *reg, *revoke, *import_game, *import_move, *bot_count, *bot_player, *bot_token,
        *bot_find, *bot_revoke;
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
    sqlite3 *wdb;           /* the writer's connection */
    sqlite3 *rdb;           /* the loop's read-only connection */
    struct writer_stmts ws; /* on wdb */
    struct strmap live;     /* game id -> struct live_rows: the writer's, as committed */
    struct store_reads *rs; /* read statements on rdb (read.c), prepared on first use */

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
    /* Guarded by lock. */
    struct op_list pending;
    struct result_list results;
    uint64_t committed_shared;
    bool failed_shared;
    bool wake_sent; /* a wake-up is out and not yet answered by store_poll */
    bool stopping;
    bool checkpoint_due; /* the WAL has grown past CHECKPOINT_FRAMES since the last checkpoint */
    struct auth_job *jobs_head, *jobs_tail;
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

/* Frees an op's heap pointers. */
void store_op_release(struct store_op *op);

/* read.c */
void reads_free(struct store *store);

/* Sets a connection's pragmas (WAL, synchronous, foreign keys, busy timeout). */
int store_configure_connection(sqlite3 *db, bool sync_normal, char *err, size_t errlen);

#endif
