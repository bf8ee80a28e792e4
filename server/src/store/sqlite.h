/*
 * The SQLite backend (the default): one file, chess.db, in a data directory (the store's
 * location), in WAL mode, with a lock file that keeps a second server away (the nodes of a site
 * share the file, each with a lock of its own). A writer connection with group commit, one
 * read-only connection per reader (WAL readers never wait for the writer), and a checkpoint
 * thread with its own connection. docs/persistence.md describes the file, its settings and
 * their figures.
 *
 * Files: sqlite.c (opening, checks, the checkpoint thread), sqlite_write.c (the writer's
 * statements), sqlite_read.c (the queries), sqlite_migrate.c (the files of migrations/, embedded),
 * sqlite_backup.c (online backups with VACUUM INTO, and restoring one into a data directory).
 */
#ifndef SERVER_STORE_SQLITE_H
#define SERVER_STORE_SQLITE_H

#include <stdbool.h>

#define STORE_SQLITE_DB_NAME "chess.db"

/* struct store_config.options for STORE_BACKEND_SQLITE (NULL: all defaults). */
struct store_sqlite_options {
    bool sync_normal;     /* synchronous=NORMAL: survives process crashes, not power loss */
    int wal_limit_frames; /* the WAL's hard bound in pages: past it the writer itself truncates
                             the WAL before its next transaction (0: 16000, about 64 MB) */
};

struct store_backend;

/* The backend (backend.h). */
extern const struct store_backend store_sqlite_backend;

#endif
