/*
 * What the world's events mean for the database: the loop hands every batch of events to
 * store_record_events() before delivering them, and it submits the writes they imply as one
 * group (committed together): a game that starts (and its players, the first time they play:
 * guests are stored with the hash of their token), each move, takebacks, chat lines, and the
 * end of a game with, for rated games, both players' new Glicko-2 ratings (which it also sets
 * on the players in memory).
 *
 * Whether a game is rated is decided here when it starts (store_game_rated) and kept in the
 * game (game->rated, game->rating[]).
 *
 * Loop thread.
 */
#ifndef SERVER_STORE_RECORD_H
#define SERVER_STORE_RECORD_H

#include "core/world.h"
#include "store/store.h"

/*
 * True when a game between these players with this time control counts for ratings: both are
 * registered accounts, the game has a clock, and not a bot against a person (unless
 * bots_rated_vs_humans).
 */
bool store_game_rated(const struct player *white, const struct player *black,
                      const struct time_control *tc, bool bots_rated_vs_humans);

/*
 * Submits the writes for events as one group. wall_ms: the wall clock now. *seq receives the
 * last sequence number submitted (0 when the events need no write). Returns 0, or
 * -STORE_ERR_NO_MEMORY / -STORE_ERR_FAILED when the writes could not be queued: the events
 * must then not be announced (the server stops; see docs/persistence.md).
 */
int store_record_events(struct store *store, const struct core_events *events, int64_t wall_ms,
                        uint64_t *seq);

#endif
