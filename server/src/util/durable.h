/*
 * Making files durable: a file's data (fsync) and a directory's entries (fsync of the
 * directory, so that a file created or renamed in it survives a power loss). For files written
 * under a temporary name and renamed when complete (the store's backups and restores).
 * Any thread.
 */
#ifndef SERVER_UTIL_DURABLE_H
#define SERVER_UTIL_DURABLE_H

#include <sys/types.h>

/* Sets the file's permission bits to mode (unless mode is 0) and syncs its data. Returns 0 or a
 * negative errno. */
int durable_file(const char *path, mode_t mode);

/* Syncs the directory's entries. Returns 0 or a negative errno. */
int durable_dir(const char *dir);

#endif
