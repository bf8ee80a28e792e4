/*
 * Quick pairing pools (pool.h): the waiting lists and the pairing of a wave.
 */
#include "core/pool.h"

#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/gclock.h"
#include "core/player.h"
#include "util/vec.h"

/* The lobby's presets (client/src/lib/timeControl.ts PRESETS): minutes, increment seconds. */
static const int presets[POOL_PRESETS][2] = {
    {1, 0}, {2, 1}, {3, 0}, {3, 2}, {5, 0}, {5, 3}, {10, 0}, {10, 5}, {15, 10}, {30, 0},
};

void pools_init(struct pools *pools) {
    memset(pools, 0, sizeof *pools);
    for (int i = 0; i < POOL_COUNT; i++) {
        struct pool *p = &pools->pool[i];
        p->tc.initial_ms = (int64_t)presets[i / 2][0] * 60000;
        p->tc.increment_ms = (int64_t)presets[i / 2][1] * 1000;
        p->rated = i % 2 == 1;
        p->next_wave_ms = GCLOCK_NEVER;
    }
}

void pools_free(struct pools *pools) {
    for (int i = 0; i < POOL_COUNT; i++) free(pools->pool[i].members);
    memset(pools, 0, sizeof *pools);
}

struct pool *pools_find(struct pools *pools, const struct time_control *tc, bool rated) {
    if (tc->unlimited) return NULL;
    for (int i = 0; i < POOL_COUNT; i++) {
        struct pool *p = &pools->pool[i];
        if (p->rated == rated && p->tc.initial_ms == tc->initial_ms &&
            p->tc.increment_ms == tc->increment_ms)
            return p;
    }
    return NULL;
}

static int member_index(const struct pool *pool, const struct player *p) {
    for (int i = 0; i < pool->count; i++)
        if (pool->members[i].player == p) return i;
    return -1;
}

struct pool *pools_of(struct pools *pools, const struct player *p) {
    if (!p->pooled) return NULL;
    for (int i = 0; i < POOL_COUNT; i++)
        if (member_index(&pools->pool[i], p) >= 0) return &pools->pool[i];
    return NULL;
}

/* When the pool's next wave comes: a wave after the second player joined, sooner when busy. */
static void schedule(struct pool *pool, int64_t now_ms) {
    if (pool->count < 2)
        pool->next_wave_ms = GCLOCK_NEVER;
    else if (pool->count >= POOL_BUSY && pool->next_wave_ms > now_ms + POOL_BUSY_WAVE_MS)
        pool->next_wave_ms = now_ms + POOL_BUSY_WAVE_MS;
    else if (pool->next_wave_ms == GCLOCK_NEVER)
        pool->next_wave_ms = now_ms + POOL_WAVE_MS;
}

int pool_add(struct pool *pool, struct player *p, int64_t now_ms) {
    if (vec_reserve((void **)&pool->members, &pool->capacity, (size_t)pool->count + 1,
                    sizeof *pool->members, 16) < 0)
        return -CORE_ERR_NO_MEMORY;
    pool->members[pool->count++] = (struct pool_member){.player = p, .joined_ms = now_ms};
    p->pooled = true;
    schedule(pool, now_ms);
    return 0;
}

bool pools_remove(struct pools *pools, const struct player *p) {
    struct pool *pool = pools_of(pools, p);
    if (!pool) return false;
    int i = member_index(pool, p);
    memmove(&pool->members[i], &pool->members[i + 1],
            (size_t)(pool->count - i - 1) * sizeof *pool->members);
    pool->count--;
    if (pool->count < 2) pool->next_wave_ms = GCLOCK_NEVER;
    ((struct player *)p)->pooled = false;
    return true;
}

int64_t pools_next_wave(const struct pools *pools) {
    int64_t next = GCLOCK_NEVER;
    for (int i = 0; i < POOL_COUNT; i++)
        if (pools->pool[i].next_wave_ms < next) next = pools->pool[i].next_wave_ms;
    return next;
}

/* ---- pairing ---- */

int pool_range(int64_t waited_ms) {
    int64_t range = POOL_RANGE_BASE + (waited_ms > 0 ? waited_ms : 0) * POOL_RANGE_PER_S / 1000;
    return range > POOL_RANGE_MAX ? POOL_RANGE_MAX : (int)range;
}

struct ranked {
    int rating;
    int64_t joined_ms;
    int index;
};

static int by_rating(const void *a, const void *b) {
    const struct ranked *x = a, *y = b;
    if (x->rating != y->rating) return x->rating < y->rating ? -1 : 1;
    if (x->joined_ms != y->joined_ms) return x->joined_ms < y->joined_ms ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static bool rematch(const struct pool_candidate *a, const struct pool_candidate *b) {
    return strcmp(a->last_opponent, b->id) == 0 && strcmp(b->last_opponent, a->id) == 0;
}

/* White: the one who played Black more lately; on a tie, the one who waited longer. */
static struct pool_pair colours(const struct pool_candidate *c, int i, int j) {
    bool i_white = c[i].color_bias != c[j].color_bias ? c[i].color_bias < c[j].color_bias
                   : c[i].joined_ms != c[j].joined_ms ? c[i].joined_ms < c[j].joined_ms
                                                      : i < j;
    return i_white ? (struct pool_pair){i, j} : (struct pool_pair){j, i};
}

int pool_pair(const struct pool_candidate *c, int n, int64_t now_ms, bool bots_with_humans,
              struct pool_pair *out) {
    if (n < 2) return 0;
    struct ranked *order = malloc((size_t)n * sizeof *order);
    bool *used = calloc((size_t)n, sizeof *used);
    int pairs = 0;
    if (!order || !used) {
        pairs = -CORE_ERR_NO_MEMORY;
        goto done;
    }
    for (int i = 0; i < n; i++)
        order[i] = (struct ranked){.rating = c[i].rating, .joined_ms = c[i].joined_ms, .index = i};
    qsort(order, (size_t)n, sizeof *order, by_rating);
    /* From the lowest rating up, each one with the nearest rating above it that both accept:
     * ratings are sorted, so the scan stops at the first one out of its range. */
    for (int k = 0; k < n; k++) {
        int i = order[k].index;
        if (used[i]) continue;
        int range_i = pool_range(now_ms - c[i].joined_ms);
        for (int m = k + 1; m < n; m++) {
            int j = order[m].index;
            if (used[j]) continue;
            int diff = c[j].rating - c[i].rating;
            if (diff > range_i) break;
            if (diff > pool_range(now_ms - c[j].joined_ms)) continue;
            if (c[i].bot != c[j].bot && !bots_with_humans) continue;
            if (n > 2 && rematch(&c[i], &c[j])) continue;
            used[i] = used[j] = true;
            out[pairs++] = colours(c, i, j);
            break;
        }
    }
done:
    free(order);
    free(used);
    return pairs;
}
