/*
 * Static exchange evaluation: does a move win at least a given amount of material once all the
 * captures on its destination square have been played out, each side always recapturing with
 * its least valuable piece and free to stop? Sliding pieces behind the capturers (x-rays) join
 * in as the square's line opens up. Pins are ignored.
 */
#include "search_internal.h"

const int see_values[7] = {0, 100, 300, 300, 500, 900, 20000};

/* The least valuable of the side's attackers; returns its type and removes it from *occ. */
static int least_valuable(const struct chess_position *pos, chess_bitboard attackers, int side,
                          chess_bitboard *occ) {
    for (int type = CHESS_PAWN; type <= CHESS_KING; type++) {
        chess_bitboard b = attackers & chess_position_pieces(pos, side, type);
        if (b) {
            *occ ^= b & -b;
            return type;
        }
    }
    return 0;
}

bool see_ge(const struct chess_position *pos, chess_move move, int threshold) {
    if (chess_move_kind(move) != CHESS_MOVE_NORMAL) return threshold <= 0;
    int from = chess_move_from(move), to = chess_move_to(move);
    /* balance: what the side that just moved has won so far, less the threshold */
    int balance = see_values[CHESS_PIECE_TYPE(pos->board[to])] - threshold;
    if (balance < 0) return false;
    balance -= see_values[CHESS_PIECE_TYPE(pos->board[from])];
    if (balance >= 0) return true; /* even losing the mover keeps the threshold */

    chess_bitboard occ = pos->by_type[0] ^ bb_square(from) ^ bb_square(to);
    chess_bitboard attackers = chess_position_attackers(pos, to, occ);
    chess_bitboard diagonal = pos->by_type[CHESS_BISHOP] | pos->by_type[CHESS_QUEEN];
    chess_bitboard straight = pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_QUEEN];
    int side = pos->side;
    bool mover_wins = true; /* the result if the side to recapture cannot */
    for (;;) {
        side ^= 1;
        attackers &= occ;
        chess_bitboard ours = attackers & pos->by_color[side];
        if (!ours) break;
        int type = least_valuable(pos, ours, side, &occ);
        if (type == CHESS_KING && (attackers & pos->by_color[side ^ 1] & occ)) break;
        mover_wins = !mover_wins;
        /* Negamax: the recapturing side now owns the balance, having won the last piece. */
        balance = -balance - 1 - see_values[type];
        if (balance >= 0) break;
        if (type == CHESS_PAWN || type == CHESS_BISHOP || type == CHESS_QUEEN)
            attackers |= chess_bishop_attacks(to, occ) & diagonal;
        if (type == CHESS_ROOK || type == CHESS_QUEEN)
            attackers |= chess_rook_attacks(to, occ) & straight;
    }
    return mover_wins;
}
