/*
 * Legal move generation and perft.
 *
 * The generator produces only legal moves, split the way a search wants them: captures and
 * promotions (every promotion, capturing or not, and en passant), quiet moves (everything else,
 * castling included), or both. The two halves are disjoint and together make all legal moves.
 * A position whose variant rule has ended the game (chess_position_variant_winner()) has none,
 * so perft stops there as python-chess's does.
 */
#ifndef CHESS_MOVEGEN_H
#define CHESS_MOVEGEN_H

#include "chess/position.h"

enum chess_gen_type {
    CHESS_GEN_ALL,
    CHESS_GEN_CAPTURES, /* captures, en passant and all promotions */
    CHESS_GEN_QUIETS,   /* non-capturing, non-promoting moves, castling included */
};

/* Fills the list with the legal moves of the given type; returns the number of moves. */
int chess_generate_moves(const struct chess_position *pos, enum chess_gen_type type,
                         struct chess_move_list *list);

/* Number of legal moves; faster than generating them. */
int chess_count_legal_moves(const struct chess_position *pos);

/* Number of leaf nodes of the legal move tree to the given depth (perft). */
uint64_t chess_perft(const struct chess_position *pos, int depth);

#endif
