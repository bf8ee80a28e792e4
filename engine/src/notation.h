/*
 * Move notation against a list of legal moves the caller already has: reading UCI and SAN and
 * writing SAN without generating the moves again. Shared by move.c, san.c and game.c (a game
 * keeps the legal moves of its position, so playing a move generates them once); the public
 * functions in chess/move.h and chess/san.h generate the list themselves.
 */
#ifndef CHESS_NOTATION_H
#define CHESS_NOTATION_H

#include "chess/position.h"

/* chess_move_from_uci() with the legal moves of pos given. Same returns. */
int notation_find_uci(const struct chess_position *pos, const struct chess_move_list *legal,
                      const char *text, chess_move *move);

/* chess_san_parse() with the legal moves of pos given; text must not be NULL. Same returns. */
int notation_find_san(const struct chess_position *pos, const struct chess_move_list *legal,
                      const char *text, chess_move *move);

/* chess_move_parse() with the legal moves of pos given. Same returns. */
int notation_find_move(const struct chess_position *pos, const struct chess_move_list *legal,
                       const char *text, chess_move *move);

/*
 * Writes the legal move as SAN without its check mark (+ or #) and without a NUL; returns the
 * length (at most CHESS_SAN_MAX - 2). legal: the legal moves of pos, or NULL to have them
 * generated when the move needs disambiguating.
 */
int notation_san_body(const struct chess_position *pos, const struct chess_move_list *legal,
                      chess_move move, char *buf);

#endif
