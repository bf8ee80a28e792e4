/*
 * The lobby's playing levels (see chess/level.h). Low levels search only a few plies, so they
 * miss tactics the way beginners do, and choose among the best few moves with a randomness
 * that shrinks as the level rises; level 8 is the full engine.
 */
#include "chess/level.h"

#include <stddef.h>

/*
 * Strength grows steeply with depth, nodes and skill at this range (one step of each was worth
 * 300 to 600 Elo in self-play), so neighbouring levels differ in small steps; docs/engine.md
 * gives the measured ladder.
 */
static const struct chess_level levels[CHESS_LEVEL_MAX] = {
    /* skill depth nodes movetime elo */
    {0, 1, 2000, 50, 0},
    {7, 2, 5000, 50, 0},
    {12, 3, 10000, 100, 0},
    {15, 5, 20000, 150, 0},
    {16, 6, 30000, 200, 0},
    {18, 0, 12000, 200, 0},
    {CHESS_SKILL_MAX, 0, 80000, 300, 0},
    {CHESS_SKILL_MAX, 0, 0, 1000, 0},
};

const struct chess_level *chess_level_get(int level) {
    if (level < CHESS_LEVEL_MIN || level > CHESS_LEVEL_MAX) return NULL;
    return &levels[level - 1];
}

static bool has_clock(const struct chess_search_limits *limits) {
    return limits->time_ms[0] || limits->time_ms[1] || limits->inc_ms[0] || limits->inc_ms[1];
}

int chess_level_apply(int level, struct chess_search_request *req) {
    const struct chess_level *l = chess_level_get(level);
    if (!l) return -1;
    req->skill = l->skill;
    /* Levels 1-7 were calibrated with the hand-written evaluation; level 8, full strength,
     * evaluates with whatever the caller chose. */
    if (level < CHESS_LEVEL_MAX) req->nnue = NULL;
    req->limits.depth = l->depth;
    req->limits.nodes = l->nodes;
    req->limits.infinite = false;
    if (!has_clock(&req->limits) && !req->limits.movetime_ms)
        req->limits.movetime_ms = l->movetime_ms;
    return 0;
}
