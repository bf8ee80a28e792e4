/*
 * Tests of online backups and restores on real database files (the SQLite backend): a backup
 * is a standalone database with everything committed before the instant in its name, under a
 * final name only when complete, readable by owner and group only; the oldest beyond `keep`
 * are deleted and nothing else in the directory is; setup finds the newest backup, removes
 * partial files and refuses unusable directories; a second request while one runs is refused;
 * closing the store abandons a backup without leaving a partial file. A restore installs a
 * backup into an empty data directory that a store then opens, and refuses (leaving the
 * directory as it was) a missing file, a damaged one, a database that is not a chess server's,
 * a newer schema, a directory that holds a database or is in use, and one that cannot be one.
 * (The exit statuses and the scheduled backups: integration/test_backup.py.)
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "store/read.h"
#include "store/sqlite.h"
#include "store/sqlite_migrate.h"
#include "store/store.h"
#include "tmpdir.h"
#include "util/now.h"

static char root[512];           /* everything of one test */
static char data[600], bak[600]; /* its data directory and backup directory */

static void on_wake(void *ctx) {
    (void)ctx;
}

static void sleep_ms(int ms) {
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

static void fresh(void) {
    if (root[0]) tmpdir_remove(root);
    if (tmpdir_make(root, sizeof root) < 0) {
        perror("mkdtemp");
        exit(1);
    }
    snprintf(data, sizeof data, "%s/data", root);
    snprintf(bak, sizeof bak, "%s/backups", root);
}

static void write_file(const char *path, const void *bytes, size_t len, off_t at) {
    int fd = open(path, O_WRONLY | O_CREAT, 0600);
    CHECK(fd >= 0 && pwrite(fd, bytes, len, at) == (ssize_t)len);
    if (fd >= 0) close(fd);
}

/* One integer from a query on the database file at path (-1 when it fails). */
static int query(const char *path, const char *sql) {
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int v = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static int exec_sql(const char *path, const char *sql) {
    sqlite3 *db = NULL;
    int rc = sqlite3_open(path, &db) == SQLITE_OK ? sqlite3_exec(db, sql, NULL, NULL, NULL) : -1;
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : -1;
}

static struct store *open_store(const char *location) {
    int status;
    char err[512];
    struct store_config cfg = {.location = location, .retry_ms = 1};
    struct store *s = store_open(&cfg, &status, err, sizeof err);
    if (!s) printf("     (open: %s)\n", err);
    return s;
}

/* Opens the store in data with backups into bak (keep), started. */
static struct store *open_backing_up(int keep, int64_t *newest_ms) {
    struct store *s = open_store(data);
    char err[512];
    if (!s) return NULL;
    int rc = store_backup_setup(s, bak, keep, newest_ms, err, sizeof err);
    CHECK_EQ_INT(rc, 0);
    if (rc < 0) printf("     (setup: %s)\n", err);
    if (rc < 0 || store_start(s, on_wake, NULL) < 0) {
        store_close(s);
        return NULL;
    }
    return s;
}

/* A player, a game and count moves (the same two, back and forth). */
static void submit_game(struct store *s, const char *game, int count) {
    struct store_op player = {.type = STORE_OP_PLAYER};
    snprintf(player.player_id, sizeof player.player_id, "p%s", game);
    snprintf(player.u.player.name, sizeof player.u.player.name, "Guest%s", game);
    CHECK(store_submit(s, &player) > 0);
    struct store_op start = {.type = STORE_OP_GAME_START};
    snprintf(start.game_id, sizeof start.game_id, "%s", game);
    snprintf(start.u.start.player_id[0], sizeof start.u.start.player_id[0], "p%s", game);
    snprintf(start.u.start.player_id[1], sizeof start.u.start.player_id[1], "p%s", game);
    snprintf(start.u.start.name[0], sizeof start.u.start.name[0], "Ann");
    snprintf(start.u.start.name[1], sizeof start.u.start.name[1], "Ben");
    start.u.start.unlimited = true;
    CHECK(store_submit(s, &start) > 0);
    static const char *const uci[4] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    static const char *const san[4] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    for (int i = 0; i < count; i++) {
        struct store_op mv = {.type = STORE_OP_MOVE};
        snprintf(mv.game_id, sizeof mv.game_id, "%s", game);
        mv.u.move.ply = i + 1;
        snprintf(mv.u.move.uci, sizeof mv.u.move.uci, "%s", uci[i % 4]);
        snprintf(mv.u.move.san, sizeof mv.u.move.san, "%s", san[i % 4]);
        mv.u.move.played_at = 1000 + i;
        CHECK(store_submit(s, &mv) > 0);
    }
}

struct backup_results {
    struct store_result last;
    int count;
};

static void collect(void *ctx, const struct store_result *r) {
    struct backup_results *b = ctx;
    if (r->kind != STORE_RESULT_BACKUP) return;
    b->last = *r;
    b->count++;
}

/* Polls until everything submitted is committed and n backups have reported (20 s at most). */
static int settle(struct store *s, struct backup_results *b, int n) {
    for (int i = 0; i < 20000; i++) {
        store_poll(s, collect, b);
        if (store_committed(s) == store_submitted(s) && b->count >= n) return 0;
        sleep_ms(1);
    }
    return -1;
}

/* The path of the backup taken at at_ms, as the store names it. */
static void backup_path(int64_t at_ms, char *out, size_t len) {
    time_t secs = (time_t)(at_ms / 1000);
    struct tm tm;
    char stamp[32];
    gmtime_r(&secs, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &tm);
    snprintf(out, len, "%s/chess-%s.%03dZ.db", bak, stamp, (int)(at_ms % 1000));
}

/* Files in dir whose names contain part. */
static int count_files(const char *dir, const char *part) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.' && strstr(e->d_name, part)) n++;
    if (d) closedir(d);
    return n;
}

static void test_backup_has_what_was_committed(void) {
    fresh();
    int64_t newest = -1;
    struct store *s = open_backing_up(3, &newest);
    if (!s) return;
    CHECK_EQ_INT(newest, 0); /* none yet */
    struct backup_results b = {0};
    submit_game(s, "g1", 2000);
    CHECK_EQ_INT(settle(s, &b, 0), 0);
    int64_t asked_ms = now_wall_ms();
    CHECK_EQ_INT(store_backup_request(s), 0);
    /* Writing the copy and syncing it take milliseconds: the second request finds it busy. */
    CHECK_EQ_INT(store_backup_request(s), -STORE_ERR_BUSY);
    submit_game(s, "g2", 10); /* writes go on meanwhile */
    CHECK_EQ_INT(settle(s, &b, 1), 0);
    CHECK_EQ_INT(b.last.status, 0);
    CHECK(b.last.backup_at_ms >= asked_ms && b.last.backup_at_ms <= now_wall_ms());
    CHECK(b.last.backup_us > 0);
    store_close(s);

    char path[1024];
    backup_path(b.last.backup_at_ms, path, sizeof path);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
    CHECK_EQ_INT(count_files(bak, ".partial"), 0);
    CHECK_EQ_INT(query(path, "SELECT count(*) FROM live_moves WHERE game_id = 'g1'"), 2000);
    CHECK_EQ_INT(query(path, "SELECT count(*) FROM games WHERE id = 'g1' AND status = 'live'"), 1);
    CHECK_EQ_INT(query(path, "PRAGMA user_version"), store_migration_count);
    /* A standalone file: rollback journal, not WAL, and nothing beside it. */
    CHECK_EQ_INT(query(path, "SELECT journal_mode = 'delete' FROM pragma_journal_mode"), 1);
    CHECK_EQ_INT(count_files(bak, "-wal"), 0);
    CHECK_EQ_INT(count_files(bak, "chess-"), 1);
}

static void test_keeps_the_newest(void) {
    fresh();
    CHECK(mkdir(bak, 0700) == 0);
    /* Not backups: never deleted. */
    char other[700];
    snprintf(other, sizeof other, "%s/notes.txt", bak);
    write_file(other, "x", 1, 0);
    snprintf(other, sizeof other, "%s/chess-old.db", bak);
    write_file(other, "x", 1, 0);
    int64_t newest;
    struct store *s = open_backing_up(2, &newest);
    if (!s) return;
    submit_game(s, "g1", 4);
    struct backup_results b = {0};
    int64_t at[4];
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_INT(store_backup_request(s), 0);
        CHECK_EQ_INT(settle(s, &b, i + 1), 0);
        CHECK_EQ_INT(b.last.status, 0);
        at[i] = b.last.backup_at_ms;
        sleep_ms(2); /* a name of its own (the names have milliseconds) */
    }
    store_close(s);
    CHECK_EQ_INT(count_files(bak, "Z.db"), 2);
    for (int i = 0; i < 4; i++) {
        char path[1024];
        backup_path(at[i], path, sizeof path);
        CHECK_EQ_INT(access(path, F_OK) == 0, i >= 2);
    }
    CHECK_EQ_INT(count_files(bak, "notes.txt"), 1);
    CHECK_EQ_INT(count_files(bak, "chess-old.db"), 1);

    /* Set up again: the newest is found by its name, a partial file is removed. */
    char partial[1024];
    backup_path(at[3] + 5, partial, sizeof partial);
    strcat(partial, ".partial");
    write_file(partial, "half", 4, 0);
    s = open_backing_up(2, &newest);
    CHECK_EQ_INT(newest, at[3]);
    CHECK_EQ_INT(access(partial, F_OK), -1);
    store_close(s);
}

static void test_setup_refusals(void) {
    fresh();
    CHECK(mkdir(data, 0700) == 0);
    struct store *s = open_store(data);
    if (!s) return;
    char err[512], file[700], below[800];
    int64_t newest;
    /* Not set up: nothing to ask for. */
    CHECK(store_start(s, on_wake, NULL) == 0);
    CHECK_EQ_INT(store_backup_request(s), -STORE_ERR_FAILED);
    store_close(s);
    s = open_store(data);
    if (!s) return;
    snprintf(file, sizeof file, "%s/plain", root);
    write_file(file, "x", 1, 0);
    CHECK_EQ_INT(store_backup_setup(s, file, 2, &newest, err, sizeof err), -STORE_ERR_LOCATION);
    CHECK(strstr(err, "not a directory") != NULL);
    snprintf(below, sizeof below, "%s/sub", file);
    CHECK_EQ_INT(store_backup_setup(s, below, 2, &newest, err, sizeof err), -STORE_ERR_LOCATION);
    CHECK(strstr(err, "cannot be created") != NULL);
    store_close(s);
}

static void test_close_abandons(void) {
    fresh();
    /* Enough rows that the copy takes a while. */
    store_close(open_store(data));
    char db[700];
    snprintf(db, sizeof db, "%s/%s", data, STORE_SQLITE_DB_NAME);
    CHECK_EQ_INT(exec_sql(db, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                              "WHERE i < 200000) INSERT INTO chat (game_id, room, player_id, "
                              "name, text, sent_at) SELECT 'g', 'players', 'p', 'Ann', "
                              "printf('%0100d', i), i FROM n"),
                 0);
    int64_t newest;
    struct store *s = open_backing_up(2, &newest);
    if (!s) return;
    CHECK_EQ_INT(store_backup_request(s), 0);
    /* Closed once the copy has begun (its partial file is there): it stops, and goes. */
    bool begun = false;
    for (int i = 0; i < 10000 && !(begun = count_files(bak, ".partial") > 0); i++) usleep(200);
    CHECK(begun);
    int64_t closing_us = now_mono_us();
    store_close(s);
    printf("     store_close took %.1f ms with the copy under way\n",
           (double)(now_mono_us() - closing_us) / 1e3);
    CHECK_EQ_INT(count_files(bak, ".partial"), 0);
    CHECK_EQ_INT(count_files(bak, "chess-"), 0);
}

/* A backup of a store with a live game of three moves, into bak; its path. */
static void make_backup(char *path, size_t len) {
    int64_t newest;
    struct store *s = open_backing_up(5, &newest);
    if (!s) return;
    submit_game(s, "live1", 3);
    struct backup_results b = {0};
    CHECK_EQ_INT(settle(s, &b, 0), 0);
    CHECK_EQ_INT(store_backup_request(s), 0);
    CHECK_EQ_INT(settle(s, &b, 1), 0);
    store_close(s);
    backup_path(b.last.backup_at_ms, path, len);
}

static int restore(const char *source, const char *location, int *version) {
    char err[1024];
    struct store_config cfg = {.location = location};
    int rc = store_restore(&cfg, source, version, err, sizeof err);
    if (rc < 0) CHECK(err[0] != '\0');
    return rc;
}

static int count_live(void *ctx, const struct store_game *g, const struct store_identity p[2]) {
    (void)p;
    int *n = ctx;
    *n += g->ply_count;
    return 0;
}

/* A restore into target while another process has a store open there (locks are per
 * process). Returns the restore's status. */
static int restore_beside_server(const char *backup, const char *target) {
    int ready[2], done[2], rc = 1;
    if (pipe(ready) != 0 || pipe(done) != 0) return 1;
    pid_t pid = fork();
    if (pid == 0) {
        struct store *s = open_store(target);
        char c = s ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1) _exit(1);
        if (read(done[0], &c, 1) < 0) _exit(1);
        store_close(s);
        _exit(0);
    }
    char c = 0;
    int version;
    if (read(ready[0], &c, 1) == 1 && c == 'y') rc = restore(backup, target, &version);
    if (write(done[1], "x", 1) != 1) kill(pid, SIGKILL);
    int wstatus;
    waitpid(pid, &wstatus, 0);
    close(ready[0]), close(ready[1]), close(done[0]), close(done[1]);
    return rc;
}

static void test_restore(void) {
    fresh();
    char backup[1024], target[700];
    make_backup(backup, sizeof backup);
    snprintf(target, sizeof target, "%s/restored", root);
    int version = -1;
    CHECK_EQ_INT(restore(backup, target, &version), 0);
    CHECK_EQ_INT(version, store_migration_count);
    struct store *s = open_store(target);
    CHECK(s != NULL);
    int moves = 0;
    if (s) CHECK_EQ_INT(store_load_live(store_startup_reader(s), count_live, &moves), 0);
    CHECK_EQ_INT(moves, 3);
    store_close(s);
    /* A server there: in use. Without: it holds a database, which stays as it is. */
    CHECK_EQ_INT(restore_beside_server(backup, target), -STORE_ERR_LOCKED);
    CHECK_EQ_INT(restore(backup, target, &version), -STORE_ERR_EXISTS);
    char db[800];
    snprintf(db, sizeof db, "%s/%s", target, STORE_SQLITE_DB_NAME);
    CHECK_EQ_INT(query(db, "SELECT count(*) FROM live_moves"), 3);
    /* A WAL file alone is a database too. */
    snprintf(target, sizeof target, "%s/wal-only", root);
    CHECK(mkdir(target, 0700) == 0);
    snprintf(db, sizeof db, "%s/%s-wal", target, STORE_SQLITE_DB_NAME);
    write_file(db, "w", 1, 0);
    CHECK_EQ_INT(restore(backup, target, &version), -STORE_ERR_EXISTS);
}

/* A restore that fails leaves no database file (nor its temporary copy) in target: nothing
 * but the lock file. */
static void check_refused(const char *source, const char *target, int status) {
    int version;
    CHECK_EQ_INT(restore(source, target, &version), status);
    CHECK_EQ_INT(count_files(target, STORE_SQLITE_DB_NAME) - count_files(target, ".lock"), 0);
}

static void test_restore_refusals(void) {
    fresh();
    char backup[1024], target[700], bad[800];
    make_backup(backup, sizeof backup);
    snprintf(target, sizeof target, "%s/target", root);
    snprintf(bad, sizeof bad, "%s/missing.db", root);
    check_refused(bad, target, -STORE_ERR_NOT_FOUND);
    check_refused(root, target, -STORE_ERR_NOT_FOUND); /* a directory */
    /* Not a database. */
    snprintf(bad, sizeof bad, "%s/junk.db", root);
    char junk[4096];
    memset(junk, 'j', sizeof junk);
    write_file(bad, junk, sizeof junk, 0);
    check_refused(bad, target, -STORE_ERR_CORRUPT);
    /* A database, but not a chess server's. */
    snprintf(bad, sizeof bad, "%s/other.db", root);
    CHECK_EQ_INT(exec_sql(bad, "CREATE TABLE t (x)"), 0);
    check_refused(bad, target, -STORE_ERR_CORRUPT);
    /* A damaged page: the copy fails its integrity check. */
    snprintf(bad, sizeof bad, "%s/damaged.db", root);
    int src = open(backup, O_RDONLY);
    struct stat st;
    CHECK(src >= 0 && fstat(src, &st) == 0);
    char *bytes = malloc((size_t)st.st_size);
    CHECK(bytes && read(src, bytes, (size_t)st.st_size) == st.st_size);
    close(src);
    memset(bytes + 4096, 0x5a, 2000); /* page 2 (the first table's root), its header included */
    write_file(bad, bytes, (size_t)st.st_size, 0);
    free(bytes);
    check_refused(bad, target, -STORE_ERR_CORRUPT);
    /* A newer schema than this binary knows. */
    snprintf(bad, sizeof bad, "%s/newer.db", root);
    char sql[1200];
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", bad);
    CHECK_EQ_INT(exec_sql(backup, sql), 0);
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", store_migration_count + 1);
    CHECK_EQ_INT(exec_sql(bad, sql), 0);
    check_refused(bad, target, -STORE_ERR_TOO_NEW);
    /* A data directory that cannot be one. */
    snprintf(bad, sizeof bad, "%s/plain", root);
    write_file(bad, "x", 1, 0);
    int version;
    CHECK_EQ_INT(restore(backup, bad, &version), -STORE_ERR_LOCATION);
    /* After all that, the good one goes in. */
    CHECK_EQ_INT(restore(backup, target, &version), 0);
}

int main(void) {
    RUN(test_backup_has_what_was_committed);
    RUN(test_keeps_the_newest);
    RUN(test_setup_refusals);
    RUN(test_close_abandons);
    RUN(test_restore);
    RUN(test_restore_refusals);
    tmpdir_remove(root);
    return check_finish();
}
