/*
 * The SQLite backend's tools for operators (store.h, backend.h): changes made from the command
 * line on the database file, beside a server that may be running on it. They take neither the
 * server's lock file nor the schema's migrations: one connection of their own with the busy
 * timeout every connection has (WAL: the server's readers go on, its writer waits at most for
 * this one short transaction, and this one for the writer's), and SQL that needs only the first
 * schema's tables, on a file whose schema this binary knows.
 */
#include <stdio.h>
#include <string.h>

#include "store/sqlite_internal.h"
#include "store/sqlite_migrate.h"
#include "util/log.h"

/* Runs one statement with the parameters it has of these: ?1 and ?2 texts, ?3 an integer.
 * Returns an SQLite code (SQLITE_DONE when it ran). */
static int run(sqlite3 *db, const char *sql, const char *p1, const char *p2, int64_t p3) {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    int params = rc == SQLITE_OK ? sqlite3_bind_parameter_count(st) : 0;
    if (rc == SQLITE_OK && params >= 1) rc = sqlite3_bind_text(st, 1, p1, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK && params >= 2) rc = sqlite3_bind_text(st, 2, p2, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK && params >= 3) rc = sqlite3_bind_int64(st, 3, p3);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc;
}

/* The file's schema version; -1 when it cannot be read. */
static int schema_version(sqlite3 *db) {
    sqlite3_stmt *st = NULL;
    int version = -1;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return version;
}

/* Opens the store's existing file for writing, with the connection settings. Returns 0 or a
 * negative status (err filled); *out is set either way (NULL or a connection to close). */
static int open_existing(const struct store_config *cfg, sqlite3 **out, char *err, size_t errlen) {
    char path[4096];
    *out = NULL;
    const char *dir = cfg->location ? cfg->location : "";
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, STORE_SQLITE_DB_NAME) >= sizeof path) {
        snprintf(err, errlen, "data directory path too long");
        return -STORE_ERR_LOCATION;
    }
    int rc = sqlite3_open_v2(path, out, SQLITE_OPEN_READWRITE, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "no database at %s: %s", path,
                 *out ? sqlite3_errmsg(*out) : sqlite3_errstr(rc));
        return -STORE_ERR_LOCATION;
    }
    sqlite3_extended_result_codes(*out, 1);
    rc = sqlite_configure_connection(*out, false, err, errlen);
    if (rc < 0) return rc;
    int version = schema_version(*out);
    if (version < 1) {
        snprintf(err, errlen, "%s holds no chess server data", path);
        return version < 0 ? -STORE_ERR_CORRUPT : -STORE_ERR_LOCATION;
    }
    if (version > store_migration_count) {
        snprintf(err, errlen, "%s has schema version %d, newer than this binary's %d", path,
                 version, store_migration_count);
        return -STORE_ERR_TOO_NEW;
    }
    return 0;
}

int sqlite_reset_password(const struct store_config *cfg, const char *username,
                          const char *password_hash, int64_t at, int *revoked, char *err,
                          size_t errlen) {
    sqlite3 *db = NULL;
    *revoked = 0;
    int status = open_existing(cfg, &db, err, errlen);
    if (status < 0) goto done;
    status = -STORE_ERR_IO;
    if (run(db, "BEGIN IMMEDIATE", NULL, NULL, 0) != SQLITE_DONE) goto failed;
    /* An account that can log in: guests, bots and deleted accounts have no password. */
    if (run(db,
            "UPDATE players SET password_hash = ?2 WHERE username = ?1 "
            "AND password_hash IS NOT NULL",
            username, password_hash, 0) != SQLITE_DONE)
        goto failed;
    if (sqlite3_changes(db) == 0) {
        snprintf(err, errlen, "no account named %s", username);
        status = -STORE_ERR_NOT_FOUND;
        goto rollback;
    }
    if (run(db,
            "UPDATE tokens SET revoked_at = ?3 WHERE kind = 'session' AND revoked_at IS NULL "
            "AND player_id = (SELECT id FROM players WHERE username = ?1)",
            username, NULL, at) != SQLITE_DONE)
        goto failed;
    *revoked = sqlite3_changes(db);
    if (run(db, "COMMIT", NULL, NULL, 0) != SQLITE_DONE) goto failed;
    status = 0;
    goto done;
failed:
    snprintf(err, errlen, "cannot change the database: %s", sqlite3_errmsg(db));
rollback:
    *revoked = 0;
    if (!sqlite3_get_autocommit(db) && run(db, "ROLLBACK", NULL, NULL, 0) != SQLITE_DONE)
        LOGW("store", "ROLLBACK failed: closing the connection rolls back");
done:
    if (sqlite3_close(db) != SQLITE_OK && status == 0) {
        snprintf(err, errlen, "the database did not close cleanly");
        status = -STORE_ERR_IO;
    }
    return status;
}
