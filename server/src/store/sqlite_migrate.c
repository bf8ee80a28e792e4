/*
 * The SQLite backend's migration runner. The transaction is BEGIN IMMEDIATE so the version read and
 * the upgrade cannot interleave with another writer; any failure rolls everything back.
 */
#include "store/sqlite_migrate.h"

#include <stdio.h>

#include "store/types.h"

static int user_version(sqlite3 *db, int *version) {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *version = sqlite3_column_int(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

int sqlite_migrate_apply(sqlite3 *db, const struct store_migration *migrations, int count,
                         int *applied, char *err, size_t errlen) {
    if (applied) *applied = 0;
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    int version = 0;
    if (rc == SQLITE_OK) rc = user_version(db, &version);
    if (rc != SQLITE_OK) {
        int primary = rc & 0xff;
        snprintf(err, errlen, "cannot read the schema version: %s", sqlite3_errmsg(db));
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT ? -STORE_ERR_CORRUPT
                                                                     : -STORE_ERR_MIGRATION;
    }
    if (version > count) {
        snprintf(err, errlen,
                 "the database has schema version %d but this server knows only up to %d: "
                 "run a newer server (or restore a backup)",
                 version, count);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -STORE_ERR_TOO_NEW;
    }
    int done = 0;
    for (int i = version; i < count; i++) {
        const struct store_migration *m = &migrations[i];
        char *msg = NULL;
        char set_version[48];
        snprintf(set_version, sizeof set_version, "PRAGMA user_version = %d", m->version);
        if (m->version != i + 1) {
            snprintf(err, errlen, "migration %s is numbered %d, expected %d", m->name, m->version,
                     i + 1);
            goto fail;
        }
        if (sqlite3_exec(db, m->sql, NULL, NULL, &msg) != SQLITE_OK ||
            sqlite3_exec(db, set_version, NULL, NULL, &msg) != SQLITE_OK) {
            snprintf(err, errlen, "migration %s failed: %s", m->name,
                     msg ? msg : sqlite3_errmsg(db));
            sqlite3_free(msg);
            goto fail;
        }
        done++;
    }
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot commit the migrations: %s", sqlite3_errmsg(db));
        goto fail;
    }
    if (applied) *applied = done;
    return 0;
fail:
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -STORE_ERR_MIGRATION;
}
