/*
 * store_bench: how many moves per second the store persists, and how long a move waits for its
 * commit, on this machine's disk. Prints figures; never fails on time.
 *
 * In one run, on files in one directory (default: a new directory under /tmp; --dir to choose the
 * disk):
 *   1. raw SQLite references: a table laid out like the store's live_moves written with one
 *      row per transaction, and with 100 rows per transaction (WAL, synchronous=FULL, one
 *      prepared INSERT);
 *   2. the store with one transaction per move (per_op);
 *   3. the store with group commit, saturated: the loop submits as fast as it can;
 *   4. the store with group commit at an offered load of --rate moves/s (default 20,000), spread
 *      over --games games, which is what the commit latency percentiles are about.
 * The "loop" here is the main thread: it submits moves and polls for commits every 100 us, so
 * latency is submit -> commit seen by the loop.
 *
 * With a PostgreSQL URL (--database, or CHESS_TEST_DATABASE), the same run goes on to the
 * PostgreSQL backend: the store with one transaction per move, saturated, and at the offered
 * rate, each on an emptied database (its schema is dropped: give it a database of its own).
 * Both backends in one run, on a throw-away PostgreSQL server on this machine:
 *
 *   tests/harness/pg_cluster.sh run build/release/tests/bench/store_bench
 *
 * A new cluster creates its WAL segments as it goes, each zero-filled and synced (a pause of
 * tens of ms every 16 MB of WAL, which dominates the p99 of a short run); a cluster in service
 * recycles old ones. CHESS_PG_OPTIONS="-c wal_init_zero=off" measures without those pauses.
 *
 *   build/release/tests/bench/store_bench [--dir DIR] [--rate N] [--games N] [--seconds S]
 *                                         [--normal] [--database URL] [--node NAME]
 *
 * --node NAME opens the stores as node NAME of a site (docs/scaling.md): each transaction then
 * renews the node's lease first, as on a site whose games may be taken over.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/sqlite.h"
#include "store/store.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_us(long us) {
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double *sorted, size_t n, double p) {
    if (n == 0) return 0;
    size_t i = (size_t)(p * (double)(n - 1) + 0.5);
    return sorted[i];
}

struct options {
    const char *dir;
    double rate;
    int games;
    double seconds;
    bool normal;
    const char *database; /* PostgreSQL's URL, or NULL */
    const char *node;     /* --node: the store of a site's node, holding a lease, or NULL */
};

/* ---- raw SQLite ---- */

static double raw_sqlite(const char *dir, int rows_per_txn, int total, bool normal) {
    char path[600];
    snprintf(path, sizeof path, "%s/raw-%d.db", dir, rows_per_txn);
    unlink(path);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) return -1;
    char pragmas[200];
    snprintf(pragmas, sizeof pragmas, "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s;",
             normal ? "NORMAL" : "FULL");
    sqlite3_exec(db, pragmas, NULL, NULL, NULL);
    /* The layout the store appends moves to (live_moves), without its foreign key. */
    sqlite3_exec(db,
                 "CREATE TABLE moves (id INTEGER PRIMARY KEY, game_id TEXT NOT NULL, ply INTEGER "
                 "NOT NULL, uci TEXT NOT NULL, san TEXT NOT NULL, clock_ms INTEGER, spent_ms "
                 "INTEGER, played_at INTEGER NOT NULL) STRICT",
                 NULL, NULL, NULL);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO moves (game_id, ply, uci, san, clock_ms, spent_ms, "
                           "played_at) VALUES (?1, ?2, 'e2e4', 'e4', 1000, 10, ?3)",
                           -1, &st, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return -1;
    }
    double t0 = now_s();
    for (int i = 0; i < total; i += rows_per_txn) {
        sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
        for (int k = 0; k < rows_per_txn; k++) {
            char game[16];
            snprintf(game, sizeof game, "g%04d", (i + k) % 1000);
            sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
            sqlite3_bind_int(st, 2, (i + k) / 1000 + 1);
            sqlite3_bind_int64(st, 3, i + k);
            sqlite3_step(st);
            sqlite3_reset(st);
        }
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    }
    double rate = total / (now_s() - t0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rate;
}

/* ---- the store ---- */

struct run {
    double moves_per_s;
    double p50_ms, p99_ms, max_ms;
    long moves;
};

/* Empties the PostgreSQL database for the next run. Returns 0 or -1. */
static int reset_pg(const char *url) {
    PGconn *conn = PQconnectdb(url);
    PQclear(PQexec(conn, "SET client_min_messages = warning"));
    PGresult *r = PQexec(conn, "DROP SCHEMA public CASCADE; CREATE SCHEMA public");
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : -1;
    if (rc < 0) fprintf(stderr, "cannot empty the database: %s", PQerrorMessage(conn));
    PQclear(r);
    PQfinish(conn);
    return rc;
}

/* A store in dir/name (SQLite), or on the emptied database at url (PostgreSQL). */
static struct store *open_store(const char *dir, const char *name, bool per_op, bool normal,
                                const char *url, const char *node) {
    char sub[600];
    snprintf(sub, sizeof sub, "%s/%s", dir, name);
    mkdir(sub, 0750);
    if (url && reset_pg(url) < 0) return NULL;
    int status;
    char err[300];
    struct store_sqlite_options opt = {.sync_normal = normal};
    struct store_config cfg = {.backend = url ? STORE_BACKEND_POSTGRESQL : STORE_BACKEND_SQLITE,
                               .location = url ? url : sub,
                               .options = url ? NULL : &opt,
                               .per_op = per_op,
                               .node_id = node,
                               .leases = node != NULL};
    struct store *s = store_open(&cfg, &status, err, sizeof err);
    if (!s) {
        fprintf(stderr, "store_open: %s\n", err);
        return NULL;
    }
    if (store_start(s, NULL, NULL) < 0) {
        store_close(s);
        return NULL;
    }
    return s;
}

/* Players and games to hang the moves on. */
static void make_games(struct store *s, int games) {
    static const char *const ids[2] = {"player0", "player1"}, *const names[2] = {"Player0",
                                                                                 "Player1"};
    for (int p = 0; p < 2; p++) {
        struct store_op op = {.type = STORE_OP_PLAYER};
        memcpy(op.player_id, ids[p], strlen(ids[p]) + 1);
        memcpy(op.u.player.name, names[p], strlen(names[p]) + 1);
        store_submit(s, &op);
    }
    for (int g = 0; g < games; g++) {
        struct store_op op = {.type = STORE_OP_GAME_START};
        snprintf(op.game_id, sizeof op.game_id, "g%05d", g);
        snprintf(op.u.start.player_id[0], sizeof op.u.start.player_id[0], "player0");
        snprintf(op.u.start.player_id[1], sizeof op.u.start.player_id[1], "player1");
        snprintf(op.u.start.name[0], sizeof op.u.start.name[0], "Player0");
        snprintf(op.u.start.name[1], sizeof op.u.start.name[1], "Player1");
        op.u.start.initial_ms = 180000;
        store_submit(s, &op);
    }
    while (store_committed(s) != store_submitted(s)) {
        store_poll(s, NULL, NULL);
        sleep_us(200);
    }
}

/*
 * Submits moves round-robin over the games: at `rate` per second (0: as fast as the queue takes
 * them, keeping at most 20,000 uncommitted), for `seconds` or `max_moves`. Latency: submit to the
 * loop seeing the commit.
 */
static int run_moves(struct store *s, int games, double rate, double seconds, long max_moves,
                     struct run *out) {
    size_t cap = (size_t)max_moves + 1;
    double *submitted_at = malloc(sizeof *submitted_at * cap);
    double *latency = malloc(sizeof *latency * cap);
    uint64_t *seq_of = malloc(sizeof *seq_of * cap);
    int *ply = calloc((size_t)games, sizeof *ply);
    if (!submitted_at || !latency || !seq_of || !ply) return -1;
    long sent = 0, done = 0;
    double t0 = now_s(), end = t0 + seconds;
    uint64_t seen = store_committed(s);
    while (true) {
        double now = now_s();
        bool sending = now < end && sent < max_moves;
        if (!sending && done == sent) break;
        long due = rate > 0 ? (long)((now - t0) * rate) : sent + 256;
        if (rate <= 0 && (uint64_t)sent - (uint64_t)done > 20000) due = sent;
        while (sending && sent < due && sent < max_moves) {
            int g = (int)(sent % games);
            struct store_op op = {.type = STORE_OP_MOVE};
            snprintf(op.game_id, sizeof op.game_id, "g%05d", g);
            op.u.move = (struct store_move_row){.ply = ++ply[g],
                                                .timed = true,
                                                .clock_ms = 170000,
                                                .spent_ms = 1200,
                                                .played_at = (int64_t)sent};
            memcpy(op.u.move.uci, "e2e4", 5);
            memcpy(op.u.move.san, "e4", 3);
            uint64_t seq = store_submit(s, &op);
            if (seq == 0) return -1;
            submitted_at[sent] = now_s();
            seq_of[sent] = seq;
            sent++;
        }
        store_poll(s, NULL, NULL);
        if (store_failed(s)) return -1;
        uint64_t committed = store_committed(s);
        if (committed != seen) {
            double t = now_s();
            while (done < sent && seq_of[done] <= committed) {
                latency[done] = (t - submitted_at[done]) * 1000.0;
                done++;
            }
            seen = committed;
        }
        sleep_us(100);
    }
    double elapsed = now_s() - t0;
    qsort(latency, (size_t)done, sizeof *latency, cmp_double);
    *out = (struct run){.moves_per_s = (double)done / elapsed,
                        .p50_ms = percentile(latency, (size_t)done, 0.50),
                        .p99_ms = percentile(latency, (size_t)done, 0.99),
                        .max_ms = done ? latency[done - 1] : 0,
                        .moves = done};
    free(submitted_at);
    free(latency);
    free(seq_of);
    free(ply);
    return 0;
}

static int store_run(const struct options *o, const char *name, bool per_op, double rate,
                     double seconds, long max_moves, const char *url, struct run *out) {
    struct store *s = open_store(o->dir, name, per_op, o->normal, url, o->node);
    if (!s) return -1;
    make_games(s, o->games);
    int rc = run_moves(s, o->games, rate, seconds, max_moves, out);
    store_close(s);
    return rc;
}

static void print_run(const char *what, const struct run *r) {
    printf("%-44s %9.0f moves/s   commit latency p50 %6.2f ms  p99 %6.2f ms  max %7.2f ms"
           "  (%ld moves)\n",
           what, r->moves_per_s, r->p50_ms, r->p99_ms, r->max_ms, r->moves);
}

/* The store's three runs on one backend (url: PostgreSQL's, or NULL for SQLite), printed. */
static int store_runs(const struct options *o, const char *url, struct run *per_op,
                      struct run *saturated, struct run *paced) {
    const char *tag = url ? "postgresql" : "store";
    char what[96];
    if (store_run(o, "per-op", true, 0, o->seconds, 3000, url, per_op) < 0) return -1;
    snprintf(what, sizeof what, "%s, one transaction per move", tag);
    print_run(what, per_op);
    if (store_run(o, "group", false, 0, o->seconds, 400000, url, saturated) < 0) return -1;
    snprintf(what, sizeof what, "%s, group commit, saturated", tag);
    print_run(what, saturated);
    snprintf(what, sizeof what, "%s, group commit, offered %.0f moves/s", tag, o->rate);
    long paced_max = (long)(o->rate * o->seconds) + 1;
    if (store_run(o, "paced", false, o->rate, o->seconds, paced_max, url, paced) < 0) return -1;
    print_run(what, paced);
    return 0;
}

int main(int argc, char **argv) {
    struct options o = {.rate = 20000, .games = 1000, .seconds = 5};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            o.dir = argv[++i];
        else if (strcmp(argv[i], "--rate") == 0 && i + 1 < argc)
            o.rate = atof(argv[++i]);
        else if (strcmp(argv[i], "--games") == 0 && i + 1 < argc)
            o.games = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            o.seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "--normal") == 0)
            o.normal = true;
        else if (strcmp(argv[i], "--database") == 0 && i + 1 < argc)
            o.database = argv[++i];
        else if (strcmp(argv[i], "--node") == 0 && i + 1 < argc)
            o.node = argv[++i];
        else {
            fprintf(stderr, "usage: store_bench [--dir DIR] [--rate N] [--games N] [--seconds S] "
                            "[--normal] [--database URL] [--node NAME]\n");
            return 2;
        }
    }
    if (o.games < 1 || o.seconds <= 0) return 2;
    const char *env_url = getenv("CHESS_TEST_DATABASE");
    if (!o.database && env_url && *env_url) o.database = env_url;
    char tmp[] = "/tmp/store-bench-XXXXXX";
    if (!o.dir) {
        if (!mkdtemp(tmp)) {
            perror("mkdtemp");
            return 1;
        }
        o.dir = tmp;
    }
    printf("store_bench: directory %s, WAL, synchronous=%s, %d games, SQLite %s\n", o.dir,
           o.normal ? "NORMAL" : "FULL", o.games, sqlite3_libversion());

    double raw1 = raw_sqlite(o.dir, 1, 2000, o.normal);
    double raw100 = raw_sqlite(o.dir, 100, 100000, o.normal);
    printf("%-44s %9.0f rows/s\n", "raw SQLite, 1 row per transaction", raw1);
    printf("%-44s %9.0f rows/s\n", "raw SQLite, 100 rows per transaction", raw100);

    struct run per_op, saturated, paced;
    if (store_runs(&o, NULL, &per_op, &saturated, &paced) < 0) return 1;
    printf("group commit / one transaction per move: %.1fx; group commit / raw 1-row txn: %.1fx;"
           " group commit / raw 100-row txn: %.2fx\n",
           saturated.moves_per_s / per_op.moves_per_s, saturated.moves_per_s / raw1,
           saturated.moves_per_s / raw100);
    if (o.database) {
        PGconn *conn = PQconnectdb(o.database);
        printf("PostgreSQL %d.%d (synchronous_commit on), the same runs:\n",
               PQserverVersion(conn) / 10000, PQserverVersion(conn) % 10000);
        PQfinish(conn);
        if (store_runs(&o, o.database, &per_op, &saturated, &paced) < 0) return 1;
        printf("PostgreSQL group commit / one transaction per move: %.1fx\n",
               saturated.moves_per_s / per_op.moves_per_s);
    }
    if (o.dir == tmp) {
        char cmd[700];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp);
    }
    return 0;
}
