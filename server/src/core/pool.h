/*
 * Quick pairing pools (lichess's "pools"): one per lobby preset (the ten time controls, rated
 * and casual). A player joins one pool at a time and waits; in waves (every POOL_WAVE_MS, sooner
 * when a pool is busy) the waiting players are paired by rating, each accepting an opponent
 * within a range that widens with the time it has waited.
 *
 * This file keeps the waiting lists and decides the pairs; the world (world.c) starts the games.
 * Pure: no I/O, no clock of its own.
 */
#ifndef SERVER_CORE_POOL_H
#define SERVER_CORE_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/types.h"

struct player;

#define POOL_PRESETS      10
#define POOL_COUNT        (2 * POOL_PRESETS) /* each preset rated and casual */
#define POOL_WAVE_MS      2000               /* between waves of a pool with players waiting */
#define POOL_BUSY_WAVE_MS 500                /* ... of a pool with POOL_BUSY players waiting */
#define POOL_BUSY         30
#define POOL_RANGE_BASE   100  /* rating difference accepted at once */
#define POOL_RANGE_PER_S  50   /* more per second waited */
#define POOL_RANGE_MAX    1000 /* at most */

struct pool_member {
    struct player *player;
    int64_t joined_ms;
};

struct pool {
    struct time_control tc;
    bool rated;
    struct pool_member *members; /* in joining order */
    int count;
    size_t capacity;
    int64_t next_wave_ms; /* GCLOCK_NEVER while fewer than two wait */
};

struct pools {
    struct pool pool[POOL_COUNT];
};

void pools_init(struct pools *pools);
void pools_free(struct pools *pools);

/* The pool of a time control and mode, or NULL when the time control is no preset. */
struct pool *pools_find(struct pools *pools, const struct time_control *tc, bool rated);

/* The pool a player waits in, or NULL. */
struct pool *pools_of(struct pools *pools, const struct player *p);

/* Adds a player (not in any pool). Returns 0 or -CORE_ERR_NO_MEMORY. */
int pool_add(struct pool *pool, struct player *p, int64_t now_ms);

/* Removes a player from whichever pool it waits in. Returns whether it was in one. */
bool pools_remove(struct pools *pools, const struct player *p);

/* The earliest wave due, or GCLOCK_NEVER. */
int64_t pools_next_wave(const struct pools *pools);

/* What pairing needs to know of a waiting player. */
struct pool_candidate {
    const char *id;
    int rating;
    int64_t joined_ms;
    bool bot;
    int color_bias;            /* recent games as White minus games as Black */
    const char *last_opponent; /* its previous game's opponent's id, or "" */
};

/* A pair: indexes into the candidates, White first. */
struct pool_pair {
    int white, black;
};

/* The rating difference a player accepts after waiting waited_ms. */
int pool_range(int64_t waited_ms);

/*
 * Pairs n waiting candidates at now: fills out (room for n / 2 pairs) and returns how many.
 * Closest ratings first, each pair within both players' ranges; bots only with bots unless
 * bots_with_humans; never the same two players as in their previous games while anyone else
 * waits; White to the one who played Black more lately (on a tie, to the one who waited longer).
 * Deterministic.
 */
int pool_pair(const struct pool_candidate *c, int n, int64_t now_ms, bool bots_with_humans,
              struct pool_pair *out);

#endif
