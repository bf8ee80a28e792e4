/*
 * FEN (Forsyth-Edwards Notation) reading and writing, with X-FEN and Shredder-FEN castling rights
 * for Chess960.
 */
#ifndef CHESS_FEN_H
#define CHESS_FEN_H

#include <stddef.h>

#include "chess/position.h"

#define CHESS_FEN_STARTPOS "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Longest FEN this library writes, with its terminating NUL. */
#define CHESS_FEN_MAX 100

/*
 * Parses a FEN (the two clock fields may be left out, as in EPD). Castling rights may be given
 * as KQkq, X-FEN or Shredder-FEN. An en passant square is accepted when a pawn can just have
 * made a double step to pass it, and kept only when a legal capture exists. The position is
 * marked chess960 when the rights or the king and rook squares are not those of standard chess.
 *
 * Returns 0, or -CHESS_ERR_FEN_* saying what is wrong; on error *pos is untouched.
 */
int chess_fen_parse(struct chess_position *pos, const char *fen);

enum chess_fen_flags {
    CHESS_FEN_XFEN = 0,     /* KQkq where unambiguous, rook file letters otherwise */
    CHESS_FEN_SHREDDER = 1, /* rook file letters always (HAha) */
};

/*
 * Writes the position as FEN into buf (CHESS_FEN_MAX bytes are always enough). Returns the length
 * written, or -CHESS_ERR_BUFFER when size is too small.
 */
int chess_fen_write(const struct chess_position *pos, int flags, char *buf, size_t size);

#endif
