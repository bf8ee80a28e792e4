/*
 * Online backups on a schedule (docs/self-hosting.md). The loop's backup timer asks the store
 * for a backup every interval (store_backup_request); the store takes it on a thread of its
 * own while writes go on, and its outcome comes back as a store result, which this module
 * counts in /metrics (chess_backup_*). A failed backup is logged and counted, and the server
 * goes on; a backup still under way when the next is due makes the next one skipped.
 *
 * Loop thread, except backup_attach (main thread, before the loop runs).
 */
#ifndef SERVER_APP_BACKUP_H
#define SERVER_APP_BACKUP_H

#include <stdint.h>

#include "store/types.h"

struct server;

/*
 * Schedules a backup every interval_ms, the first at newest_ms + interval_ms (newest_ms: the
 * newest backup already there, Unix ms, 0 for none), or at once when that has passed: a
 * server restarted more often than the interval still takes its backups. The store's backups
 * must be set up (store_backup_setup) and the store attached (persist_attach).
 */
void backup_attach(struct server *srv, int64_t interval_ms, int64_t newest_ms);

/* The backup timer fired: asks the store for a backup and re-arms the timer. */
void backup_due(struct server *srv);

/* A store result of kind STORE_RESULT_BACKUP: counted in the metrics. */
void backup_on_result(struct server *srv, const struct store_result *result);

#endif
