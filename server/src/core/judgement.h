/*
 * Judgements of a finished game's moves from the engine's evaluations, as lichess makes them
 * (docs/analysis.md gives the formulas and constants):
 * - a position's winning chances: 2 / (1 + e^(-0.00368208 * cp)) - 1, in [-1, 1], with the
 *   centipawns clamped to +-1000 and a mate counted as +-1000;
 * - a move is an inaccuracy, a mistake or a blunder when it loses at least 0.1, 0.2 or 0.3 of
 *   winning chances for its player; when a mate appears or is lost, by the evaluation on the
 *   other side of it (lichess's "mate created" and "mate lost");
 * - a move's accuracy from the win percentages (50 + 50 * winning chances) before and after it,
 *   and a side's accuracy in the game as the mean of a volatility-weighted mean and a harmonic
 *   mean of its moves' accuracies; the average centipawn loss beside it.
 *
 * Scores are White's point of view in the engine's units (chess/search.h: centipawns, or
 * +-(CHESS_MATE - n) for a mate in n plies; a checkmated final position is -+CHESS_MATE).
 *
 * Pure functions: no state, any thread.
 */
#ifndef SERVER_CORE_JUDGEMENT_H
#define SERVER_CORE_JUDGEMENT_H

#include <stdbool.h>

enum judgement {
    JUDGEMENT_NONE = 0,
    JUDGEMENT_INACCURACY,
    JUDGEMENT_MISTAKE,
    JUDGEMENT_BLUNDER,
};

#define JUDGEMENT_CP_CEILING 1000 /* centipawns beyond which evaluations are not told apart */

/* "inaccuracy", "mistake", "blunder"; NULL for none. */
const char *judgement_name(enum judgement j);

/* The PGN annotation lichess writes: "?!", "?", "??"; NULL for none. */
const char *judgement_symbol(enum judgement j);

/* True when the score is a mate (either way). */
bool judgement_is_mate(int score);

/* Moves to mate, positive when White mates; 0 for a checkmated final position. Only for mates. */
int judgement_mate_moves(int score);

/* The score in centipawns clamped to +-JUDGEMENT_CP_CEILING, mates at the ceiling. */
int judgement_cp(int score);

/* White's winning chances in [-1, 1]. */
double judgement_winning_chances(int score);

/* White's win percent in [0, 100]. */
double judgement_win_percent(int score);

/* The judgement of a move from the scores before and after it. */
enum judgement judgement_of_move(int before, int after, bool white_moved);

/* A move's accuracy in [0, 100] from its player's win percents before and after it. */
double judgement_move_accuracy(double win_before, double win_after);

/* A side's figures in a game. */
struct judgement_side {
    bool moved;      /* it made at least one move: the figures below mean something */
    double accuracy; /* percent */
    int acpl;        /* average centipawn loss, rounded */
    int inaccuracies, mistakes, blunders;
};

/*
 * Judges a game: scores[0..plies] are the positions' scores from the start (plies + 1 values);
 * white_first: White made the first move. Fills verdicts[i] for the move from position i to
 * i + 1 (plies entries) and sides[0] (White) and sides[1] (Black).
 */
void judgement_game(const int *scores, int plies, bool white_first, enum judgement *verdicts,
                    struct judgement_side sides[2]);

#endif
