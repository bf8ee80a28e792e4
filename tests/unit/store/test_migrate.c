/*
 * Tests of opening the store: a fresh database gets the whole schema; reopening applies
 * nothing; a newer schema, a corrupt file, a damaged page, an unusable directory, a second
 * server on the same directory and a failing migration each stop with their own status and
 * leave the file as it was; 004 rebuilds live_moves with its rows (and rowids) as they were.
 * (The exit status each gives the server is main.c's, checked by integration/test_persist.py.)
 *
 * Run as store_migrate_pg (testdb.h) it checks the same promises on PostgreSQL: the schema and
 * its version in schema_version, a newer schema, a failing migration (all or nothing), a
 * second server with the same node id (the advisory lock), a server that cannot be reached
 * and a URL that cannot be used.
 */
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "check.h"
#include "store/pg_internal.h"
#include "store/sqlite.h"
#include "store/sqlite_migrate.h"
#include "store/store.h"
#include "testdb.h"
#include "tmpdir.h"

static char dir[512], db_path[600];

static struct store *open_store(int *status) {
    char err[512];
    struct store_config cfg = {.location = dir};
    struct store *s = store_open(&cfg, status, err, sizeof err);
    if (!s) printf("     (open: %s: %s)\n", store_status_name(*status), err);
    return s;
}

static int raw_exec(const char *sql) {
    sqlite3 *db;
    if (sqlite3_open(db_path, &db) != SQLITE_OK) return -1;
    int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : -1;
}

static int raw_int(const char *sql) {
    sqlite3 *db;
    sqlite3_stmt *st;
    int v = -1;
    if (sqlite3_open(db_path, &db) != SQLITE_OK) return -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static void fresh_dir(void) {
    if (dir[0]) tmpdir_remove(dir);
    if (tmpdir_make(dir, sizeof dir) < 0) {
        perror("mkdtemp");
        exit(1);
    }
    snprintf(db_path, sizeof db_path, "%s/%s", dir, STORE_SQLITE_DB_NAME);
}

static void test_fresh_and_reopen(void) {
    fresh_dir();
    int status;
    struct store *s = open_store(&status);
    CHECK(s != NULL);
    store_close(s);
    CHECK_EQ_INT(raw_int("PRAGMA user_version"), store_migration_count);
    CHECK(store_migration_count >= 1);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM sqlite_master WHERE name = 'moves'"), 1);
    /* WAL is a property of the file. */
    CHECK_EQ_INT(raw_int("SELECT journal_mode = 'wal' FROM pragma_journal_mode"), 1);
    s = open_store(&status);
    CHECK(s != NULL);
    store_close(s);
    CHECK_EQ_INT(raw_int("PRAGMA user_version"), store_migration_count);
}

static void test_newer_schema(void) {
    fresh_dir();
    int status;
    store_close(open_store(&status));
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", store_migration_count + 1);
    CHECK_EQ_INT(raw_exec(sql), 0);
    CHECK(open_store(&status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_TOO_NEW);
    CHECK_EQ_INT(raw_int("PRAGMA user_version"), store_migration_count + 1);
}

static void write_file(const char *path, const char *bytes, size_t len, long offset) {
    int fd = open(path, O_WRONLY | O_CREAT, 0640);
    if (fd < 0) return;
    if (pwrite(fd, bytes, len, offset) != (ssize_t)len) perror("pwrite");
    close(fd);
}

static void test_not_a_database(void) {
    fresh_dir();
    char junk[4096];
    memset(junk, 'x', sizeof junk);
    write_file(db_path, junk, sizeof junk, 0);
    int status;
    CHECK(open_store(&status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_CORRUPT);
    /* Untouched: still the junk. */
    struct stat st;
    CHECK(stat(db_path, &st) == 0 && st.st_size == (off_t)sizeof junk);
}

static void test_damaged_page(void) {
    fresh_dir();
    int status;
    store_close(open_store(&status));
    /* Overwrite the schema's root page (page 1 after the 100-byte header) with garbage. */
    char junk[1000];
    memset(junk, 0x5a, sizeof junk);
    write_file(db_path, junk, sizeof junk, 100);
    CHECK(open_store(&status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_CORRUPT);
}

static void test_unusable_dir(void) {
    fresh_dir();
    /* A data directory that is a file. */
    char file[200];
    snprintf(file, sizeof file, "%.180s/plain", dir);
    write_file(file, "x", 1, 0);
    char saved[512];
    memcpy(saved, dir, sizeof dir);
    snprintf(dir, sizeof dir, "%s", file);
    int status;
    CHECK(open_store(&status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_LOCATION);
    /* Below a file: cannot be created. */
    snprintf(dir, sizeof dir, "%s/sub", file);
    CHECK(open_store(&status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_LOCATION);
    memcpy(dir, saved, sizeof dir);
    /* Without write permission (meaningless for root, who may write anyway). */
    if (geteuid() != 0) {
        chmod(dir, 0500);
        CHECK(open_store(&status) == NULL);
        CHECK_EQ_INT(status, -STORE_ERR_LOCATION);
        chmod(dir, 0700);
    }
}

static void test_second_server(void) {
    fresh_dir();
    int ready[2], done[2];
    if (pipe(ready) != 0 || pipe(done) != 0) return;
    pid_t pid = fork();
    if (pid == 0) {
        int status;
        struct store *s = open_store(&status);
        char c = s ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1) _exit(1);
        if (read(done[0], &c, 1) < 0) _exit(1);
        store_close(s);
        _exit(0);
    }
    char c = 0;
    CHECK(read(ready[0], &c, 1) == 1 && c == 'y');
    int status;
    CHECK(open_store(&status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_LOCKED);
    if (write(done[1], "x", 1) != 1) kill(pid, SIGKILL);
    int wstatus;
    waitpid(pid, &wstatus, 0);
    close(ready[0]), close(ready[1]), close(done[0]), close(done[1]);
    /* Free again once the other server is gone. */
    struct store *s = open_store(&status);
    CHECK(s != NULL);
    store_close(s);
}

static void test_failing_migration(void) {
    fresh_dir();
    sqlite3 *db;
    CHECK(sqlite3_open(db_path, &db) == SQLITE_OK);
    const struct store_migration list[] = {
        {1, "001_a.sql", "CREATE TABLE a (x INTEGER);"},
        {2, "002_b.sql", "CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);"},
    };
    char err[256];
    int applied = -1;
    CHECK_EQ_INT(sqlite_migrate_apply(db, list, 1, &applied, err, sizeof err), 0);
    CHECK_EQ_INT(applied, 1);
    CHECK_EQ_INT(sqlite_migrate_apply(db, list, 2, &applied, err, sizeof err),
                 -STORE_ERR_MIGRATION);
    CHECK_EQ_INT(applied, 0);
    CHECK(strstr(err, "002_b.sql") != NULL);
    sqlite3_close(db);
    /* Nothing of 002 remains; 001 stays applied. */
    CHECK_EQ_INT(raw_int("PRAGMA user_version"), 1);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM sqlite_master WHERE name = 'b'"), 0);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM sqlite_master WHERE name = 'a'"), 1);
    /* Both at once from scratch: all or nothing. */
    fresh_dir();
    CHECK(sqlite3_open(db_path, &db) == SQLITE_OK);
    CHECK_EQ_INT(sqlite_migrate_apply(db, list, 2, &applied, err, sizeof err),
                 -STORE_ERR_MIGRATION);
    sqlite3_close(db);
    CHECK_EQ_INT(raw_int("PRAGMA user_version"), 0);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM sqlite_master"), 0);
    /* Misnumbered lists are refused before anything runs. */
    const struct store_migration bad[] = {{2, "002_x.sql", "CREATE TABLE x (y INTEGER);"}};
    CHECK(sqlite3_open(db_path, &db) == SQLITE_OK);
    CHECK_EQ_INT(sqlite_migrate_apply(db, bad, 1, &applied, err, sizeof err), -STORE_ERR_MIGRATION);
    sqlite3_close(db);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM sqlite_master"), 0);
}

/* A file of schema 3 with games in progress: 004 keeps their moves and rowids (the writer finds
 * a game's rows by rowid) and leaves live_moves without a foreign key. */
static void test_live_moves_rebuilt(void) {
    fresh_dir();
    sqlite3 *db;
    CHECK(sqlite3_open(db_path, &db) == SQLITE_OK);
    char err[256];
    int applied = -1;
    CHECK(store_migration_count >= 4);
    CHECK_EQ_INT(sqlite_migrate_apply(db, store_migrations, 3, &applied, err, sizeof err), 0);
    CHECK_EQ_INT(sqlite3_exec(db,
                              "PRAGMA foreign_keys=ON;"
                              "INSERT INTO players (id, name, created_at) VALUES ('p', 'P', 1);"
                              "INSERT INTO games (id, white_id, black_id, white_name, black_name, "
                              "status, created_at) VALUES ('g', 'p', 'p', 'P', 'P', 'live', 1);"
                              "INSERT INTO live_moves (id, game_id, ply, uci, san, clock_ms, "
                              "played_at) VALUES (7, 'g', 1, 'e2e4', 'e4', 299000, 2), "
                              "(9, 'g', 2, 'e7e5', 'e5', NULL, 3);",
                              NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM pragma_foreign_key_list('live_moves')"), 1);
    int status;
    store_close(open_store(&status));
    CHECK_EQ_INT(raw_int("PRAGMA user_version"), store_migration_count);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM pragma_foreign_key_list('live_moves')"), 0);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM live_moves"), 2);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM live_moves WHERE id = 7 AND game_id = 'g' AND "
                         "ply = 1 AND uci = 'e2e4' AND san = 'e4' AND clock_ms = 299000 AND "
                         "played_at = 2"),
                 1);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM live_moves WHERE id = 9 AND ply = 2 AND "
                         "clock_ms IS NULL"),
                 1);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM sqlite_master WHERE name = 'live_moves_new'"), 0);
    /* The checks that stay with the table. */
    CHECK_EQ_INT(raw_exec("INSERT INTO live_moves (game_id, ply, uci, san, played_at) "
                          "VALUES ('g', 0, 'a2a3', 'a3', 4)"),
                 -1);
    CHECK_EQ_INT(raw_exec("INSERT INTO live_moves (game_id, ply, uci, san, played_at) "
                          "VALUES ('g', 3, 'a2a3', NULL, 4)"),
                 -1);
}

/* ---- PostgreSQL ---- */

extern const int store_pg_migrations_count;

static struct store *open_pg(const char *url, const char *node_id, int *status) {
    char err[512];
    struct store_config cfg = {
        .backend = STORE_BACKEND_POSTGRESQL, .location = url, .node_id = node_id};
    struct store *s = store_open(&cfg, status, err, sizeof err);
    if (!s) printf("     (open: %s: %s)\n", store_status_name(*status), err);
    return s;
}

static void test_pg_fresh_and_reopen(void) {
    CHECK_EQ_INT(testdb_fresh(dir, sizeof dir), 0);
    int status;
    struct store *s = open_pg(testdb_url(), NULL, &status);
    CHECK(s != NULL);
    store_close(s);
    CHECK(store_pg_migrations_count == store_migration_count); /* numbered alike */
    CHECK_EQ_INT(testdb_long(dir, "SELECT version FROM schema_version"), store_pg_migrations_count);
    CHECK_EQ_INT(testdb_long(dir, "SELECT count(*) FROM schema_version"), 1);
    CHECK_EQ_INT(testdb_long(dir, "SELECT count(*) FROM pg_tables WHERE tablename = 'moves'"), 1);
    s = open_pg(testdb_url(), NULL, &status);
    CHECK(s != NULL);
    store_close(s);
    CHECK_EQ_INT(testdb_long(dir, "SELECT version FROM schema_version"), store_pg_migrations_count);
}

static void test_pg_newer_schema(void) {
    CHECK_EQ_INT(testdb_fresh(dir, sizeof dir), 0);
    int status;
    store_close(open_pg(testdb_url(), NULL, &status));
    char sql[64];
    snprintf(sql, sizeof sql, "UPDATE schema_version SET version = %d",
             store_pg_migrations_count + 1);
    CHECK_EQ_INT(testdb_exec(dir, sql), 0);
    CHECK(open_pg(testdb_url(), NULL, &status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_TOO_NEW);
    CHECK_EQ_INT(testdb_long(dir, "SELECT version FROM schema_version"),
                 store_pg_migrations_count + 1);
}

static void test_pg_failing_migration(void) {
    CHECK_EQ_INT(testdb_fresh(dir, sizeof dir), 0);
    PGconn *conn = PQconnectdb(testdb_url());
    CHECK(PQstatus(conn) == CONNECTION_OK);
    const struct store_migration list[] = {
        {1, "001_a.sql", "CREATE TABLE a (x INTEGER);"},
        {2, "002_b.sql", "CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);"},
    };
    char err[256];
    int applied = -1;
    CHECK_EQ_INT(pg_migrate_apply(conn, list, 1, &applied, err, sizeof err), 0);
    CHECK_EQ_INT(applied, 1);
    CHECK_EQ_INT(pg_migrate_apply(conn, list, 2, &applied, err, sizeof err), -STORE_ERR_MIGRATION);
    CHECK_EQ_INT(applied, 0);
    CHECK(strstr(err, "002_b.sql") != NULL);
    CHECK_EQ_INT(testdb_long(dir, "SELECT version FROM schema_version"), 1);
    CHECK_EQ_INT(testdb_long(dir, "SELECT count(*) FROM pg_tables WHERE tablename = 'b'"), 0);
    CHECK_EQ_INT(testdb_long(dir, "SELECT count(*) FROM pg_tables WHERE tablename = 'a'"), 1);
    /* Both at once from scratch: all or nothing. */
    CHECK_EQ_INT(testdb_fresh(dir, sizeof dir), 0);
    CHECK_EQ_INT(pg_migrate_apply(conn, list, 2, &applied, err, sizeof err), -STORE_ERR_MIGRATION);
    CHECK_EQ_INT(testdb_long(dir, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"), 0);
    /* Misnumbered lists are refused. */
    const struct store_migration bad[] = {{2, "002_x.sql", "CREATE TABLE x (y INTEGER);"}};
    CHECK_EQ_INT(pg_migrate_apply(conn, bad, 1, &applied, err, sizeof err), -STORE_ERR_MIGRATION);
    CHECK_EQ_INT(testdb_long(dir, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"), 0);
    PQfinish(conn);
    /* A schema the first migration cannot make (a table in its way) stops the store's start. */
    CHECK_EQ_INT(testdb_exec(dir, "CREATE TABLE players (x INTEGER)"), 0);
    int status;
    CHECK(open_pg(testdb_url(), NULL, &status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_MIGRATION);
    CHECK_EQ_INT(testdb_long(dir, "SELECT count(*) FROM pg_tables WHERE tablename = 'games'"), 0);
}

/* The same node id twice is refused (LOCKED) while the first is open; other ids are not. */
static void test_pg_second_server(void) {
    CHECK_EQ_INT(testdb_fresh(dir, sizeof dir), 0);
    int status;
    struct store *first = open_pg(testdb_url(), NULL, &status);
    CHECK(first != NULL);
    CHECK(open_pg(testdb_url(), NULL, &status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_LOCKED);
    struct store *a = open_pg(testdb_url(), "node-a", &status);
    CHECK(a != NULL);
    CHECK(open_pg(testdb_url(), "node-a", &status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_LOCKED);
    struct store *b = open_pg(testdb_url(), "node-b", &status);
    CHECK(b != NULL);
    store_close(first);
    store_close(a);
    store_close(b);
    /* Free again once the others are gone. */
    struct store *again = open_pg(testdb_url(), "node-a", &status);
    CHECK(again != NULL);
    store_close(again);
}

static void test_pg_unreachable(void) {
    int status;
    /* A port nothing listens on: a socket bound and closed. */
    CHECK(open_pg("postgresql://chess@127.0.0.1:1/chess?connect_timeout=2", NULL, &status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_UNREACHABLE);
    CHECK(open_pg("postgresql://[bad", NULL, &status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_LOCATION);
    CHECK(open_pg("", NULL, &status) == NULL);
    CHECK_EQ_INT(status, -STORE_ERR_LOCATION);
}

int main(void) {
    if (testdb_pg()) {
        RUN(test_pg_fresh_and_reopen);
        RUN(test_pg_newer_schema);
        RUN(test_pg_failing_migration);
        RUN(test_pg_second_server);
        RUN(test_pg_unreachable);
        if (dir[0]) tmpdir_remove(dir);
        return check_finish();
    }
    RUN(test_fresh_and_reopen);
    RUN(test_newer_schema);
    RUN(test_not_a_database);
    RUN(test_damaged_page);
    RUN(test_unusable_dir);
    RUN(test_second_server);
    RUN(test_failing_migration);
    RUN(test_live_moves_rebuilt);
    tmpdir_remove(dir);
    return check_finish();
}
