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

/*
 * chess_fen_parse() for a position of the given enum chess_variant. In three-check the checks
 * may follow the en passant field as python-chess writes them, checks remaining "W+B"
 * ("... KQkq - 3+3 0 1"), or end the FEN as lichess writes them, checks given "+W+B"
 * ("... KQkq - 0 1 +0+0"); each count is 0..3, and absent means none given. Returns as
 * chess_fen_parse(), and -CHESS_ERR_FEN_CHECKS for a malformed checks field.
 */
int chess_fen_parse_variant(struct chess_position *pos, const char *fen, int variant);

enum chess_fen_flags {
    CHESS_FEN_XFEN = 0,     /* KQkq where unambiguous, rook file letters otherwise */
    CHESS_FEN_SHREDDER = 1, /* rook file letters always (HAha) */
};

/*
 * Writes the position as FEN into buf (CHESS_FEN_MAX bytes are always enough), in three-check
 * with the checks remaining after the en passant field as python-chess writes them
 * ("... KQkq - 3+3 0 1"). Returns the length written, or -CHESS_ERR_BUFFER when size is too small.
 */
int chess_fen_write(const struct chess_position *pos, int flags, char *buf, size_t size);

#endif
