/*
 * The PostgreSQL backend: a database on a PostgreSQL server that many nodes (on many machines)
 * can share, named by a URL (the store's location, --database), e.g.
 * postgresql://chess@db:5432/chess. One writer connection with group commit: the statements
 * of a batch are pipelined (libpq's pipeline mode) and committed once, with synchronous_commit
 * on. One connection per reader. A node (or a single server) holds a session advisory lock on
 * its id while open, so the same node cannot run twice. Migrations are the files of
 * migrations/postgresql/, tracked in the table schema_version. Backups are PostgreSQL's own
 * tools (pg_dump): --backup-dir is refused and the store's restore answers UNSUPPORTED.
 *
 * Files: pg.c (opening, the lock, the table of functions), pg_migrate.c (migrations),
 * pg_write.c (the writer's statements, the pipeline), pg_read.c (the queries),
 * pg_moderation.c (moderation's reads and writes), pg_admin.c (the operator's password reset),
 * pg_util.c (parameters and results).
 * docs/persistence.md describes what differs from SQLite.
 */
#ifndef SERVER_STORE_PG_H
#define SERVER_STORE_PG_H

struct store_backend;

/* The backend (backend.h). */
extern const struct store_backend store_pg_backend;

#endif
