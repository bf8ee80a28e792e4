/*
 * The archive's formats for stored games (struct store_game from read.h): PGN with the standard
 * tags, player names and ratings and lichess-style [%clk h:mm:ss] comments; the FEN after any
 * ply; and reading a PGN game into an import operation.
 *
 * Pure functions over the engine (chess_pgn_*, FEN, UCI); any thread.
 */
#ifndef SERVER_STORE_ARCHIVE_H
#define SERVER_STORE_ARCHIVE_H

#include <stddef.h>

#include "chess/move.h"
#include "core/openings.h"
#include "store/read.h"

/*
 * Writes a stored game (with its moves) as PGN into a new malloc'd string (*out, the caller
 * frees). site: the Site tag (e.g. "http://host"); opening: its ECO and Opening tags, or NULL.
 * Returns the length, or -STORE_ERR_NO_MEMORY, or -STORE_ERR_CORRUPT when the stored moves do
 * not replay.
 */
long store_game_pgn(const struct store_game *game, const char *site, const struct opening *opening,
                    char **out);

/*
 * store_game_pgn() with a complete computer analysis of the game (NULL, or one still under way:
 * none) as lichess writes it: each position's evaluation as a [%eval 0.25] or [%eval #-3]
 * comment after the move that reached it, and each inaccuracy, mistake and blunder
 * (core/judgement.h) marked with its NAG ($6, $2, $4), named in the comment with the better
 * move, and followed by the engine's line from the position before it as a variation.
 */
long store_game_pgn_analysed(const struct store_game *game, const struct store_analysis *analysis,
                             const char *site, const struct opening *opening, char **out);

/* The positions of a stored game, positions[0..ply_count] from its start, under its variant's
 * rules. Returns 0 or -STORE_ERR_CORRUPT (the stored start or moves do not replay). */
int store_game_positions(const struct store_game *game, struct chess_position *positions);

/* A stored analysis line (UCI moves separated by spaces) as moves from `from`: as many as are
 * legal, at most STORE_PV_MAX into line. Returns how many. */
int store_analysis_line(const struct chess_position *from, const char *pv,
                        chess_move line[STORE_PV_MAX]);

/* The FEN after `ply` plies (0: the start) into fen (STORE_FEN_MAX + 1 bytes). Returns 0,
 * -STORE_ERR_NOT_FOUND (ply out of range) or -STORE_ERR_CORRUPT. */
int store_game_fen(const struct store_game *game, int ply, char *fen);

/*
 * Reads the first game of a PGN text into an import operation for game id `id` (names from the
 * White/Black tags, "?" when missing, cut between UTF-8 characters to fit, control characters
 * as spaces; the result token; the moves as UCI and SAN, without clocks). Returns 0 (op
 * filled; its pgn and moves are owned by it), or -1 with a reason in err.
 */
int store_import_pgn(const char *text, size_t len, const char *id, int64_t now_wall_ms,
                     struct store_op *op, char *err, size_t errlen);

#endif
