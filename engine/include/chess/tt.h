/*
 * Transposition table: a cache of search results keyed by the Zobrist key, owned by the caller
 * (its size is fixed at creation) and shared by every thread that searches with it, so that a
 * server can keep one table per game and let several workers search that game at once.
 *
 * The table is lock-free. Buckets of four 16-byte entries fill one cache line; each entry is two
 * 64-bit words accessed with relaxed C11 atomics: the data, and the key XOR the data. A torn
 * entry (two threads writing at once) fails the XOR check and reads as a miss, never as a wrong
 * hit. Replacement prefers, within the bucket, the entry of the same position, then the one with
 * the lowest depth, entries of older searches counting as shallower.
 */
#ifndef CHESS_TT_H
#define CHESS_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/types.h"

struct chess_tt;

/* Bounds of a stored score. */
enum chess_tt_bound {
    CHESS_TT_NONE = 0,
    CHESS_TT_UPPER = 1, /* the true score is at most `score` (fail low) */
    CHESS_TT_LOWER = 2, /* the true score is at least `score` (fail high) */
    CHESS_TT_EXACT = 3,
};

/* Depths stored range from CHESS_TT_DEPTH_MIN (quiescence) to 255 + CHESS_TT_DEPTH_MIN. */
#define CHESS_TT_DEPTH_MIN (-8)

/* One entry as read from the table. */
struct chess_tt_entry {
    chess_move move;
    int16_t score; /* as stored: search scores mate distances from the node, not the root */
    int16_t eval;  /* static evaluation, or CHESS_TT_NO_EVAL */
    int depth;
    enum chess_tt_bound bound;
};

#define CHESS_TT_NO_EVAL INT16_MIN

/*
 * Creates a table using at most size_bytes of memory (at least one bucket of 64 bytes), cleared.
 * Returns NULL when memory is short. The caller owns it and frees it with chess_tt_destroy().
 */
struct chess_tt *chess_tt_create(size_t size_bytes);

/* Frees the table; NULL is allowed. No search may be using it. */
void chess_tt_destroy(struct chess_tt *tt);

/* Empties the table (e.g. for a new game). No search may be using it meanwhile. */
void chess_tt_clear(struct chess_tt *tt);

/* Memory used by the entries, in bytes. */
size_t chess_tt_size(const struct chess_tt *tt);

/*
 * Sets the generation of new entries, used by replacement to prefer overwriting results of
 * earlier searches. The search sets it from the root's game ply, so that workers searching one
 * position concurrently share a generation. Any thread may call it.
 */
void chess_tt_set_generation(struct chess_tt *tt, unsigned generation);

/* How full the table is with entries of the current generation, in permille (sampled). */
int chess_tt_hashfull(const struct chess_tt *tt);

/* Looks the key up. Returns true and fills *out on a hit. Any thread may call it. */
bool chess_tt_probe(struct chess_tt *tt, uint64_t key, struct chess_tt_entry *out);

/*
 * Stores a result. Keeps the entry's old move when `move` is CHESS_MOVE_NONE and the entry
 * already holds this position. `depth` is clamped into the storable range. Any thread may call it.
 */
void chess_tt_store(struct chess_tt *tt, uint64_t key, chess_move move, int score, int eval,
                    int depth, enum chess_tt_bound bound);

/* Hints the processor to fetch the bucket of the key into the cache. */
void chess_tt_prefetch(const struct chess_tt *tt, uint64_t key);

#endif
