/*
 * Static evaluation: a hand-written evaluation tapered between middlegame and endgame (material,
 * piece-square tables, mobility, pawn structure, passed pawns, king safety, threats and the
 * like), with weights tuned on the project's own self-play games (engine/tools/tune.c).
 */
#ifndef CHESS_EVAL_H
#define CHESS_EVAL_H

#include "chess/position.h"

/* Value of a pawn in the units the evaluation and search scores use (centipawns). */
#define CHESS_PAWN_VALUE 100

/*
 * Evaluates the position in centipawns from the point of view of the side to move, as if it
 * were quiet (no exchange in progress). Reentrant; any thread may call it.
 */
int chess_evaluate(const struct chess_position *pos);

#endif
