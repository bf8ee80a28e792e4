/*
 * The eight playing levels of the lobby's computer opponent, from a beginner who makes
 * human-looking mistakes (level 1) to full strength (level 8).
 *
 * A level limits the search depth and nodes and lowers the skill: below full skill the engine
 * looks at several candidate moves with a shallow search and picks one at random, favouring the
 * better ones, so its mistakes are plausible moves that miss something, not random moves. Each
 * level answers quickly. docs/engine.md gives the settings and the measured strength.
 */
#ifndef CHESS_LEVEL_H
#define CHESS_LEVEL_H

#include "chess/search.h"

#define CHESS_LEVEL_MIN 1
#define CHESS_LEVEL_MAX 8

struct chess_level {
    int skill;           /* 0..CHESS_SKILL_MAX */
    int depth;           /* iteration limit, 0 = none */
    uint64_t nodes;      /* node limit, 0 = none */
    int64_t movetime_ms; /* thinking time when the game has no clock, 0 = use the clock */
    int approx_elo;      /* measured strength, see docs/engine.md */
};

/* The settings of a level (1..8); NULL when out of range. The table is constant. */
const struct chess_level *chess_level_get(int level);

/*
 * Configures a request for a level: skill, depth and node limits, and a move time when the
 * request has no clock. Levels 1-7 also clear req->nnue: they were calibrated with the
 * hand-written evaluation. Keeps the caller's position, history, clock, callbacks and flags.
 * The caller should vary req->seed between moves (e.g. from the game ply) so that low levels
 * do not always repeat the same choices. Returns 0, or -1 when the level is out of range.
 */
int chess_level_apply(int level, struct chess_search_request *req);

#endif
