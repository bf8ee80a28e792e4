/*
 * Moves as UCI long algebraic text (e2e4, e7e8q). Castling is written e1g1 in standard chess and
 * king-takes-rook (e1h1) in Chess960; both spellings are read in both, the king's own square
 * (e1g1) in Chess960 only where no ordinary move has that text (a king on f1 going to g1).
 */
#ifndef CHESS_MOVE_H
#define CHESS_MOVE_H

#include <stddef.h>

#include "chess/position.h"

/* Longest UCI move text with its NUL ("e7e8q"). */
#define CHESS_UCI_MAX 6

/* Writes the move in UCI notation; "0000" for CHESS_MOVE_NONE and CHESS_MOVE_NULL. */
void chess_move_to_uci(const struct chess_position *pos, chess_move move, char buf[CHESS_UCI_MAX]);

/*
 * Reads a UCI move and finds it among the legal moves. Returns 0 and sets *move, or
 * -CHESS_ERR_MOVE_SYNTAX / -CHESS_ERR_MOVE_ILLEGAL.
 */
int chess_move_from_uci(const struct chess_position *pos, const char *text, chess_move *move);

/* Writes a square name ("e4") into buf (3 bytes). */
void chess_square_name(int square, char buf[3]);

#endif
