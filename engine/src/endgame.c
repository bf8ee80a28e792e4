#include "endgame.h"

#include "chess/movegen.h"
#include "search_internal.h"

/* Per step of the mop-up terms: a pawn's worth over the whole range, less than a minor piece. */
#define EDGE_STEP   20
#define CORNER_STEP 30
#define KINGS_STEP  20

static int max_int(int a, int b) {
    return a > b ? a : b;
}

/* Steps from the four centre squares, counting files and ranks apart: 0 to 6. */
static int centre_distance(int sq) {
    int f = CHESS_FILE_OF(sq), r = CHESS_RANK_OF(sq);
    return max_int(3 - f, f - 4) + max_int(3 - r, r - 4);
}

/*
 * Steps from the nearer corner of the given square colour, counting files and ranks apart: 0 to
 * 7. Seen with the ranks flipped for light, those corners are a1 and h8 (file + rank 0 or 14).
 */
static int corner_distance(int sq, bool light) {
    int rank = light ? 7 - CHESS_RANK_OF(sq) : CHESS_RANK_OF(sq);
    int sum = CHESS_FILE_OF(sq) + rank;
    return sum < 14 - sum ? sum : 14 - sum;
}

/* The winner's score: material (the exchange evaluator's values), then the lone king pushed
 * away from the centre or into the bishop's corner, and the winning king brought close. */
static int winning_score(const struct chess_position *pos, int winner) {
    chess_bitboard own = pos->by_color[winner];
    int loser_king = chess_position_king_square(pos, winner ^ 1);
    int winner_king = chess_position_king_square(pos, winner);
    int score = ENDGAME_KNOWN_WIN;
    for (int type = CHESS_PAWN; type <= CHESS_QUEEN; type++)
        score += see_values[type] * bb_count(own & pos->by_type[type]);
    chess_bitboard bishops = own & pos->by_type[CHESS_BISHOP];
    /* King, bishop and knight and nothing else. */
    if (bb_count(own) == 3 && bishops && (own & pos->by_type[CHESS_KNIGHT])) {
        bool light = (bishops & BB_LIGHT_SQUARES) != 0;
        score += CORNER_STEP * (7 - corner_distance(loser_king, light));
    } else {
        score += EDGE_STEP * centre_distance(loser_king);
    }
    return score + KINGS_STEP * (7 - square_distance(winner_king, loser_king));
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
