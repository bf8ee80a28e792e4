/*
 * Standard Algebraic Notation (SAN): writing with minimal disambiguation and +/# suffixes, and
 * reading with the common variants people and programs produce (e8=Q, e8Q, O-O, 0-0, trailing
 * +, #, !, ?).
 */
#ifndef CHESS_SAN_H
#define CHESS_SAN_H

#include "chess/position.h"

/* Longest SAN with its NUL, e.g. "Qa1xb2+" or "exd8=Q#". */
#define CHESS_SAN_MAX 10

/* Writes the legal move as SAN. Returns the length. */
int chess_san_write(const struct chess_position *pos, chess_move move, char buf[CHESS_SAN_MAX]);

/*
 * Reads SAN and finds the legal move it names. Returns 0 and sets *move, or -CHESS_ERR_MOVE_SYNTAX,
 * -CHESS_ERR_MOVE_ILLEGAL (no legal move matches) or -CHESS_ERR_MOVE_AMBIGUOUS.
 */
int chess_san_parse(const struct chess_position *pos, const char *text, chess_move *move);

/* Reads a move written in UCI or SAN, whichever it is. Same returns as chess_san_parse(). */
int chess_move_parse(const struct chess_position *pos, const char *text, chess_move *move);

#endif
