/*
 * The SQLite backend's backups and restores (backend.h).
 *
 * A backup is VACUUM INTO from a read-only connection of its own: one read transaction, so one
 * snapshot of what was committed when it began, while the writer goes on committing (WAL: a
 * reader never blocks the writer; the checkpoints cannot pass the snapshot, so the WAL only
 * grows while it runs). The file it writes is a compact database in rollback-journal mode that
 * stands alone: no -wal file belongs to it. The store syncs and renames it (backup.c).
 *
 * A restore copies a backup file into the data directory as chess.db, under the directory's
 * lock and only when no database is there: the copy is made under a temporary name, checked
 * (PRAGMA integrity_check, a chess server's tables, a schema version the embedded migrations
 * know), synced, and renamed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/sqlite_internal.h"
#include "store/sqlite_migrate.h"
#include "util/durable.h"
#include "util/log.h"

/* How often (in SQLite virtual machine steps) a backup checks whether it is to stop. */
#define PROGRESS_STEPS 10000

/* The files of a database at a path: a restore overwrites none of them. */
static const char *const db_files[] = {"", "-wal", "-journal", "-shm"};

struct cancel_check {
    bool (*cancelled)(void *ctx);
    void *ctx;
};

/* SQLite's progress handler: non-zero interrupts the statement. */
static int on_progress(void *arg) {
    const struct cancel_check *c = arg;
    return c->cancelled(c->ctx) ? 1 : 0;
}

int sqlite_backup(struct store_db *db, const char *path, bool (*cancelled)(void *ctx), void *ctx,
                  char *err, size_t errlen) {
    struct sqlite_db *d = sqlite_db_of(db);
    struct cancel_check check = {cancelled, ctx};
    sqlite3 *conn = NULL;
    sqlite3_stmt *st = NULL;
    int status = -STORE_ERR_IO;
    int rc = sqlite3_open_v2(d->path, &conn, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "cannot open a connection: %s",
                 conn ? sqlite3_errmsg(conn) : sqlite3_errstr(rc));
        goto done;
    }
    sqlite3_extended_result_codes(conn, 1);
    if (sqlite_configure_connection(conn, true, err, errlen) < 0) goto done;
    sqlite3_progress_handler(conn, PROGRESS_STEPS, on_progress, &check);
    rc = sqlite3_prepare_v2(conn, "VACUUM INTO ?1", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        status = 0;
    } else {
        if ((rc & 0xff) == SQLITE_INTERRUPT) status = -STORE_ERR_FAILED;
        snprintf(err, errlen, "%s", sqlite3_errmsg(conn));
    }
done:
    sqlite3_finalize(st);
    if (conn && sqlite3_close(conn) != SQLITE_OK)
        LOGW("store", "the backup's connection did not close cleanly");
    return status;
}

/* ---- restore ---- */

/* Refuses a data directory that has any file of a database at db_path. */
static int check_no_database(const char *db_path, char *err, size_t errlen) {
    for (size_t i = 0; i < sizeof db_files / sizeof db_files[0]; i++) {
        char path[4096 + 16];
        struct stat st;
        snprintf(path, sizeof path, "%s%s", db_path, db_files[i]);
        if (lstat(path, &st) == 0) {
            snprintf(err, errlen,
                     "%s exists: a restore never overwrites a database (restore into a new data "
                     "directory, or move the old chess.db* files away first)",
                     path);
            return -STORE_ERR_EXISTS;
        }
    }
    return 0;
}

/* Copies everything readable from in into a new file at path, synced. Returns 0 or -IO. */
static int copy_to(int in, const char *path, char *err, size_t errlen) {
    int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
    if (out < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return -STORE_ERR_IO;
    }
    char buf[65536];
    int sys = 0;
    for (;;) {
        ssize_t n = read(in, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            sys = n < 0 ? errno : 0;
            break;
        }
        for (ssize_t done = 0; sys == 0 && done < n;) {
            ssize_t w = write(out, buf + done, (size_t)(n - done));
            if (w < 0 && errno != EINTR) sys = errno;
            if (w > 0) done += w;
        }
        if (sys) break;
    }
    if (sys == 0 && fsync(out) != 0) sys = errno;
    if (close(out) != 0 && sys == 0) sys = errno;
    if (sys) snprintf(err, errlen, "cannot copy the backup to %s: %s", path, strerror(sys));
    return sys ? -STORE_ERR_IO : 0;
}

/* One integer from a query. Returns an SQLite code. */
static int query_int(sqlite3 *conn, const char *sql, int *out) {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(conn, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/* Checks the copy at path: intact, a chess server's database, a schema this binary knows. */
static int check_copy(const char *path, const char *source, int *version, char *err,
                      size_t errlen) {
    sqlite3 *conn = NULL;
    int tables = 0;
    char why[512];
    int rc = sqlite3_open_v2(path, &conn, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        rc = sqlite_open_error(conn, rc, "cannot open it", why, sizeof why);
    } else {
        sqlite3_extended_result_codes(conn, 1);
        rc = sqlite_verify(conn, "PRAGMA integrity_check(1)", why, sizeof why);
    }
    if (rc == 0 && (query_int(conn, "PRAGMA user_version", version) != SQLITE_OK ||
                    query_int(conn,
                              "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                              "name IN ('players', 'tokens', 'games', 'moves')",
                              &tables) != SQLITE_OK))
        rc = sqlite_open_error(conn, sqlite3_errcode(conn), "cannot read it", why, sizeof why);
    if (rc < 0) {
        snprintf(err, errlen, "the backup %s: %s", source, why);
        goto done;
    }
    if (*version < 1 || tables != 4) {
        snprintf(err, errlen, "%s is a database but not a chess server's (schema version %d)",
                 source, *version);
        rc = -STORE_ERR_CORRUPT;
    } else if (*version > store_migration_count) {
        snprintf(err, errlen,
                 "%s has schema version %d but this server knows only up to %d: restore it with "
                 "a newer server",
                 source, *version, store_migration_count);
        rc = -STORE_ERR_TOO_NEW;
    }
done:
    if (conn && sqlite3_close(conn) != SQLITE_OK)
        LOGW("store", "the restored copy's connection did not close cleanly");
    return rc;
}

/* Removes the temporary copy and whatever SQLite made beside it. */
static void remove_copy(const char *path) {
    for (size_t i = 0; i < sizeof db_files / sizeof db_files[0]; i++) {
        char file[4096 + 32];
        snprintf(file, sizeof file, "%s%s", path, db_files[i]);
        (void)unlink(file);
    }
}

int sqlite_restore(const struct store_config *cfg, const char *source, int *version, char *err,
                   size_t errlen) {
    const char *dir = cfg->location ? cfg->location : "";
    char db_path[4096], copy[4096 + 16];
    int lock_fd = -1, rc;
    bool copied = false;
    *version = 0;
    int in = open(source, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "cannot read the backup %s: %s", source,
                 in < 0 ? strerror(errno) : "not a file");
        rc = -STORE_ERR_NOT_FOUND;
        goto done;
    }
    if ((rc = sqlite_check_dir(dir, err, errlen)) < 0) goto done;
    if ((size_t)snprintf(db_path, sizeof db_path, "%s/%s", dir, STORE_SQLITE_DB_NAME) >=
        sizeof db_path) {
        snprintf(err, errlen, "data directory path too long");
        rc = -STORE_ERR_LOCATION;
        goto done;
    }
    if ((rc = sqlite_take_lock(db_path, "", &lock_fd, err, errlen)) < 0 ||
        (rc = check_no_database(db_path, err, errlen)) < 0)
        goto done;
    snprintf(copy, sizeof copy, "%s.restoring", db_path);
    remove_copy(copy); /* an earlier restore's, stopped half-way */
    copied = true;
    if ((rc = copy_to(in, copy, err, errlen)) < 0 ||
        (rc = check_copy(copy, source, version, err, errlen)) < 0)
        goto done;
    int sys = rename(copy, db_path) == 0 ? durable_dir(dir) : -errno;
    if (sys < 0) {
        snprintf(err, errlen, "cannot install %s as %s: %s", copy, db_path, strerror(-sys));
        rc = -STORE_ERR_IO;
    }
done:
    if (rc < 0 && copied) remove_copy(copy);
    if (lock_fd >= 0) close(lock_fd);
    if (in >= 0) close(in);
    return rc;
}
