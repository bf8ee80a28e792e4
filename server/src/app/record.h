/*
 * What the world's events mean for the database: the loop hands every batch of events to
 * store_record_events() before delivering them, and it submits the writes they imply as one
 * group (committed together): a game that starts (and its players, the first time they play:
 * guests are stored with the hash of their token), each move, takebacks, chat lines, arena
 * tournaments (an arena, its status, a player's entry, a game's arena and berserk), and the
 * end of a game with, for rated games, both players' new Glicko-2 ratings (which it also sets
 * on the players in memory).
 *
 * Whether a game is rated is decided by the world when it starts (world_rated_pairing,
 * game->rated); the ratings at its start are kept here (game->rating[]).
 *
 * Loop thread. Part of the application: the store only sees the operations.
 */
#ifndef SERVER_APP_RECORD_H
#define SERVER_APP_RECORD_H

#include "core/world.h"
#include "store/store.h"

/*
 * Submits the writes for events as one group. wall_ms: the wall clock now. *seq receives the
 * last sequence number submitted (0 when the events need no write). Returns 0, or
 * -STORE_ERR_NO_MEMORY / -STORE_ERR_FAILED when the writes could not be queued: the events
 * must then not be announced (the server stops; see docs/persistence.md).
 */
int store_record_events(struct store *store, const struct core_events *events, int64_t wall_ms,
                        uint64_t *seq);

#endif
