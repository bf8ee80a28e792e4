/*
 * The migration runner: brings a database's schema to the newest version by applying the
 * numbered SQL files of migrations/ (embedded at build time) in order, all pending ones inside
 * one transaction together with PRAGMA user_version, so a failure leaves the file exactly as it
 * was. A database whose user_version is above the newest known migration is refused.
 *
 * The SQLite backend's migrate (backend.h), on the main thread before any other connection
 * exists. The files are SQLite's SQL (STRICT tables, PRAGMA user_version).
 */
#ifndef SERVER_STORE_SQLITE_MIGRATE_H
#define SERVER_STORE_SQLITE_MIGRATE_H

#include <sqlite3.h>
#include <stddef.h>

struct store_migration {
    int version; /* 1, 2, 3...: the file's number */
    const char *name;
    const char *sql;
};

/* The migrations built into this binary (generated from the files in migrations/), in order. */
extern const struct store_migration store_migrations[];
extern const int store_migration_count;

/*
 * Applies migrations[i] for every version above the database's user_version (list must be
 * numbered 1..count in order). *applied (may be NULL) receives how many ran. Returns 0,
 * -STORE_ERR_TOO_NEW, -STORE_ERR_CORRUPT (unreadable file) or -STORE_ERR_MIGRATION, with a
 * message in err.
 */
int sqlite_migrate_apply(sqlite3 *db, const struct store_migration *migrations, int count,
                         int *applied, char *err, size_t errlen);

#endif
