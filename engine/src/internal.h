/*
 * Functions shared between the engine's source files and no further: the public headers are the
 * contract for everyone else.
 */
#ifndef CHESS_INTERNAL_H
#define CHESS_INTERNAL_H

#include "bitboard.h"
#include "chess/position.h"
#include "tables.h"

/* Empties the position: no pieces, white to move, no rights, clocks 0 and 1. */
void position_clear(struct chess_position *pos);

/* Puts a piece on an empty square, updating bitboards and key. */
void position_put_piece(struct chess_position *pos, int piece, int sq);

/* Attackers of the square belonging to one colour, with the given occupancy. */
chess_bitboard position_attackers_by(const struct chess_position *pos, int sq, int color,
                                     chess_bitboard occ);

/* Where king and rook end up when castling with the rook on rook_sq. */
static inline void position_castling_squares(int color, int king_sq, int rook_sq, int *king_to,
                                             int *rook_to) {
    int rank_base = color == CHESS_WHITE ? 0 : 56;
    bool king_side = rook_sq > king_sq;
    *king_to = rank_base + (king_side ? 6 : 2);
    *rook_to = rank_base + (king_side ? 5 : 3);
}

/* True when the side to move has a legal en passant capture onto ep_sq. */
bool position_ep_capture_legal(const struct chess_position *pos, int ep_sq);

/* Sets pos->checkers for the side to move. */
void position_update_checkers(struct chess_position *pos);

/* Grants the castling right with the rook on rook_sq (the king must be on the board). */
void position_set_castling_right(struct chess_position *pos, int color, int rook_sq);

/* Three-check: sets the checks each colour has given (0..3), keeping the key exact. */
void position_set_checks(struct chess_position *pos, int white, int black);

/*
 * The key after move m, computed before making it so that the search can prefetch the child's
 * table entry early: exact for plain moves and captures, which is nearly all of them. Castling,
 * en passant, promotions, a lost castling right or a new en passant square are not followed, so
 * for those the prefetch misses (it only wastes a cache line).
 */
static inline uint64_t position_key_after(const struct chess_position *pos, chess_move m) {
    int from = chess_move_from(m), to = chess_move_to(m);
    int piece = pos->board[from], captured = pos->board[to];
    uint64_t key = pos->key ^ chess_zobrist_side ^ chess_zobrist_psq[piece][from] ^
                   chess_zobrist_psq[piece][to];
    if (captured != CHESS_NO_PIECE) key ^= chess_zobrist_psq[captured][to];
    if (pos->ep_square != CHESS_NO_SQUARE)
        key ^= chess_zobrist_ep_file[CHESS_FILE_OF(pos->ep_square)];
    return key;
}

#endif
