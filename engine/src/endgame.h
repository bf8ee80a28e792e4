/*
 * Endgames whose result is known by theory, scored by rule rather than by the evaluators: a bare
 * king against mating material (chess_position_bare_king_winner). The network never sees such
 * positions in training (self-play adjudicates them as won), so without the rule its value there
 * drifts towards a draw and a search that sees no mate would not press for one.
 */
#ifndef CHESS_ENDGAME_H
#define CHESS_ENDGAME_H

#include "chess/position.h"

/* Above any evaluation of ordinary material, below every mate score (CHESS_MATE_BOUND). */
#define ENDGAME_KNOWN_WIN 10000

/*
 * True when the position is a bare king against mating material; *score is then its value for
 * the side to move: ENDGAME_KNOWN_WIN plus the winner's material and a bonus that grows as the
 * lone king nears the edge (with bishop and knight only: a corner of the bishop's colour) and the
 * kings near each other, so that the search drives towards mate. 0 when the lone king is to move
 * and stalemated.
 */
bool endgame_evaluate(const struct chess_position *pos, int *score);

#endif
