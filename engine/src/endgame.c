#include "endgame.h"

#include "bitboard.h"
#include "chess/movegen.h"

#include <stdlib.h>

/* Per step of the mop-up terms: a pawn's worth over the whole range, less than a minor piece. */
#define EDGE_STEP   20
#define CORNER_STEP 30
#define KINGS_STEP  20

static const int material_values[] = {
    [CHESS_PAWN] = 100, [CHESS_KNIGHT] = 300, [CHESS_BISHOP] = 300,
    [CHESS_ROOK] = 500, [CHESS_QUEEN] = 900,
};

static int max_int(int a, int b) {
    return a > b ? a : b;
}

static int file_of(int sq) {
    return sq & 7;
}

static int rank_of(int sq) {
    return sq >> 3;
}

/* Steps from the four centre squares, counting files and ranks apart: 0 to 6. */
static int centre_distance(int sq) {
    int f = file_of(sq), r = rank_of(sq);
    return max_int(3 - f, f - 4) + max_int(3 - r, r - 4);
}

static int king_distance(int a, int b) {
    return max_int(abs(file_of(a) - file_of(b)), abs(rank_of(a) - rank_of(b)));
}

/*
 * Steps from the nearer corner of the given square colour, counting files and ranks apart: 0 to
 * 7. The dark corners are a1 and h8, where file + rank is 0 or 14.
 */
static int corner_distance(int sq, bool light) {
    int sum = file_of(sq) + rank_of(sq);
    if (light) sum = file_of(sq) + 7 - rank_of(sq);
    return sum < 14 - sum ? sum : 14 - sum;
}

static int material(const struct chess_position *pos, int color) {
    int total = 0;
    for (int type = CHESS_PAWN; type <= CHESS_QUEEN; type++)
        total += material_values[type] * bb_count(pos->by_color[color] & pos->by_type[type]);
    return total;
}

/* The winner's score: material, then the lone king pushed away from the centre or into the
 * bishop's corner, and the winning king brought close. */
static int winning_score(const struct chess_position *pos, int winner) {
    chess_bitboard own = pos->by_color[winner];
    int loser_king = chess_position_king_square(pos, winner ^ 1);
    int winner_king = chess_position_king_square(pos, winner);
    int score = ENDGAME_KNOWN_WIN + material(pos, winner);
    bool bishop_knight_only =
        (own & (pos->by_type[CHESS_QUEEN] | pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_PAWN])) ==
            0 &&
        bb_count(own) == 3 && (own & pos->by_type[CHESS_KNIGHT]);
    if (bishop_knight_only) {
        bool light = (own & pos->by_type[CHESS_BISHOP] & BB_LIGHT_SQUARES) != 0;
        score += CORNER_STEP * (7 - corner_distance(loser_king, light));
    } else {
        score += EDGE_STEP * centre_distance(loser_king);
    }
    return score + KINGS_STEP * (7 - king_distance(winner_king, loser_king));
}

bool endgame_evaluate(const struct chess_position *pos, int *score) {
    int winner = chess_position_bare_king_winner(pos);
    if (winner < 0) return false;
    if (pos->side != winner && !chess_position_in_check(pos) && chess_count_legal_moves(pos) == 0)
        *score = 0;
    else
        *score = pos->side == winner ? winning_score(pos, winner) : -winning_score(pos, winner);
    return true;
}
