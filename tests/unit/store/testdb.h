/*
 * The backend a store test runs against: PostgreSQL when CHESS_TEST_DATABASE holds a URL
 * (tests/harness/pg_cluster.sh run starts a throw-away server and sets it; ctest's *_pg tests),
 * else SQLite in a temporary directory. testdb_fresh() empties the database before a test (a
 * new directory, or PostgreSQL's schema dropped and made again); testdb_long() and
 * testdb_exec() read and change it beside the store, in either backend's SQL.
 */
#ifndef TEST_STORE_TESTDB_H
#define TEST_STORE_TESTDB_H

#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "store/sqlite.h"
#include "store/types.h"
#include "tmpdir.h"

static inline const char *testdb_url(void) {
    const char *url = getenv("CHESS_TEST_DATABASE");
    return url && *url ? url : NULL;
}

static inline bool testdb_pg(void) {
    return testdb_url() != NULL;
}

/* Fills cfg's backend and location for the store in dir (SQLite) or at the URL. */
static inline void testdb_config(const char *dir, struct store_config *cfg) {
    cfg->backend = testdb_pg() ? STORE_BACKEND_POSTGRESQL : STORE_BACKEND_SQLITE;
    cfg->location = testdb_pg() ? testdb_url() : dir;
}

/* Runs sql on the test's database; *value (when not NULL) receives the integer of its first
 * row and column. Returns 0, or -1 when it failed (or gave no integer). */
static inline int testdb_query(const char *dir, const char *sql, long *value) {
    int rc = -1;
    if (testdb_pg()) {
        PGconn *conn = PQconnectdb(testdb_url());
        PQclear(PQexec(conn, "SET client_min_messages = warning"));
        PGresult *r = PQexec(conn, sql);
        ExecStatusType st = PQresultStatus(r);
        if (!value && (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)) rc = 0;
        if (value && st == PGRES_TUPLES_OK && PQntuples(r) == 1 && !PQgetisnull(r, 0, 0)) {
            *value = strtol(PQgetvalue(r, 0, 0), NULL, 10);
            rc = 0;
        }
        if (rc < 0) printf("     (testdb: %s: %s)\n", sql, PQerrorMessage(conn));
        PQclear(r);
        PQfinish(conn);
        return rc;
    }
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, STORE_SQLITE_DB_NAME);
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    if (sqlite3_open(path, &db) == SQLITE_OK && sqlite3_busy_timeout(db, 5000) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        int step = sqlite3_step(st);
        if (!value && (step == SQLITE_DONE || step == SQLITE_ROW)) rc = 0;
        if (value && step == SQLITE_ROW) {
            *value = (long)sqlite3_column_int64(st, 0);
            rc = 0;
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc;
}

/* Runs sql (no rows wanted) on the test's database: 0 or -1. */
static inline int testdb_exec(const char *dir, const char *sql) {
    return testdb_query(dir, sql, NULL);
}

/* The single integer sql returns on the test's database, or -1. */
static inline long testdb_long(const char *dir, const char *sql) {
    long v = -1;
    return testdb_query(dir, sql, &v) == 0 ? v : -1;
}

/* A new temporary directory in dir (removing the previous one) and, on PostgreSQL, an empty
 * database. Returns 0 or -1. */
static inline int testdb_fresh(char *dir, size_t size) {
    if (dir[0]) tmpdir_remove(dir);
    if (tmpdir_make(dir, size) < 0) return -1;
    if (testdb_pg() && testdb_exec(dir, "DROP SCHEMA public CASCADE; CREATE SCHEMA public") < 0)
        return -1;
    return 0;
}

#endif
