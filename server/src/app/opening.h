/*
 * Opening names in the application (docs/openings.md): the table (core/openings.h) read once
 * at start from --openings, the opening of a game in memory or stored, and the analysis
 * board's opening_lookup.
 *
 * main.c owns the table: it is immutable after opening_table_load(), the server borrows it
 * (server_config.world.openings) and main frees it after server_destroy(), once the store's
 * readers have stopped: reader threads may look positions up in it (through a pointer copied
 * into their request) without locks.
 */
#ifndef SERVER_APP_OPENING_H
#define SERVER_APP_OPENING_H

#include "app/config.h"
#include "core/openings.h"
#include "proto/proto.h"
#include "store/read.h"

struct conn;

/*
 * Reads and parses the file at path into *out, logging how many entries and positions it has
 * and how many entries were skipped. "" turns the names off (*out NULL, returns 0). A file that
 * cannot be read is a warning when it is the default path (the package is not installed: *out
 * NULL, returns 0) and an error otherwise (returns -1, said on stderr). Startup only.
 */
int opening_table_load(const char *path, struct openings **out);

/* The opening of a stored game (its moves read): 1 and *out, or 0 (none, or no table). Any
 * thread. */
int opening_of_stored(const struct openings *table, const struct store_game *game,
                      struct opening *out);

/* opening_lookup: the deepest named position of a FEN (default: the standard start) and moves.
 * Replies "opening"; returns 0, -PROTO_ERR_FEN_INVALID or -CORE_ERR_ILLEGAL_MOVE. */
int opening_handle_lookup(struct conn *c, const struct proto_request *req);

#endif
