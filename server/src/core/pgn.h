/*
 * A game as PGN text: the Seven Tag Roster, time control, termination, the start position when
 * it is not the standard one, and each move's clock as a lichess-style [%clk h:mm:ss] comment.
 * Written through the engine's PGN writer.
 *
 * Loop thread (reads the game only).
 */
#ifndef SERVER_CORE_PGN_H
#define SERVER_CORE_PGN_H

#include "core/game.h"

/* The Event tag as lichess writes it ("Rated Blitz game", "Casual Correspondence game"), the
 * same for a game in memory and archived. category: enum rating_category or RATING_NONE. */
void pgn_event_name(bool rated, int category, char *out, size_t out_len);

/* Writes the game as PGN into a new malloc'd string (the caller frees it). site names the
 * server (e.g. its URL). The ECO and Opening tags name its opening when its table does
 * (game->openings). Returns the length, or -CORE_ERR_NO_MEMORY. */
long game_write_pgn(const struct game *game, const char *site, char **out);

#endif
