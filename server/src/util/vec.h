/*
 * Growing arrays: one helper for every array that grows by doubling (a game's clock history, a
 * batch of events, a player's games, a watch list, the deadline heap).
 *
 *   if (vec_reserve((void **)&p->games, &p->game_capacity, p->game_count + 1,
 *                   sizeof *p->games, 4) < 0)
 *       return -CORE_ERR_NO_MEMORY;
 */
#ifndef SERVER_UTIL_VEC_H
#define SERVER_UTIL_VEC_H

#include <stddef.h>

/* vec_reserve() when the room is short: grows it. */
int vec_grow(void **items, size_t *cap, size_t need, size_t elem, size_t first);

/* Makes room for at least need elements of elem bytes in *items, whose room is *cap elements:
 * the room doubles, starting at first. Returns 0, or -1 when memory runs out (then *items and
 * *cap are unchanged and the elements still valid). Inline: most calls find the room there. */
static inline int vec_reserve(void **items, size_t *cap, size_t need, size_t elem, size_t first) {
    return need <= *cap ? 0 : vec_grow(items, cap, need, elem, first);
}

#endif
