/*
 * The transposition table (see chess/tt.h for the contract).
 *
 * An entry's data word packs move (bits 0-15), score (16-31), static eval (32-47), depth minus
 * CHESS_TT_DEPTH_MIN (48-55), bound (56-57) and generation (58-63). The other word holds the key
 * XOR the data, so a hit needs both words from the same write. Buckets are indexed by the high
 * half of the key times the bucket count, so any table size works.
 */
#define _DEFAULT_SOURCE /* madvise */

#include "chess/tt.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>

#define TT_BUCKET_ENTRIES 4
#define TT_HUGE_PAGE      (2u << 20)

struct tt_slot {
    _Atomic uint64_t check; /* key ^ data */
    _Atomic uint64_t data;
};

struct tt_bucket {
    struct tt_slot slots[TT_BUCKET_ENTRIES];
};

struct chess_tt {
    struct tt_bucket *buckets;
    size_t bucket_count;
    _Atomic unsigned generation;
};

static inline uint64_t pack(chess_move move, int score, int eval, int depth,
                            enum chess_tt_bound bound, unsigned generation) {
    return (uint64_t)move | (uint64_t)(uint16_t)score << 16 | (uint64_t)(uint16_t)eval << 32 |
           (uint64_t)(uint8_t)(depth - CHESS_TT_DEPTH_MIN) << 48 | (uint64_t)bound << 56 |
           (uint64_t)(generation & 63) << 58;
}

static inline int data_depth(uint64_t data) {
    return (int)((data >> 48) & 255) + CHESS_TT_DEPTH_MIN;
}

static inline enum chess_tt_bound data_bound(uint64_t data) {
    return (enum chess_tt_bound)((data >> 56) & 3);
}

static inline unsigned data_generation(uint64_t data) {
    return (unsigned)(data >> 58);
}

static inline struct tt_bucket *bucket_of(const struct chess_tt *tt, uint64_t key) {
    return &tt->buckets[((key >> 32) * (uint64_t)tt->bucket_count) >> 32];
}

struct chess_tt *chess_tt_create(size_t size_bytes) {
    struct chess_tt *tt = malloc(sizeof *tt);
    if (!tt) return NULL;
    size_t count = size_bytes / sizeof(struct tt_bucket);
    if (count < 1) count = 1;
    if (count > UINT32_MAX) count = UINT32_MAX;
    size_t bytes = count * sizeof(struct tt_bucket);
    /* Large tables on 2 MB boundaries, asking for huge pages: fewer TLB misses on probes. */
    size_t align = bytes >= TT_HUGE_PAGE ? TT_HUGE_PAGE : 64;
    tt->buckets = aligned_alloc(align, (bytes + align - 1) / align * align);
    if (!tt->buckets) {
        free(tt);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    if (align == TT_HUGE_PAGE) (void)madvise(tt->buckets, bytes, MADV_HUGEPAGE); /* a hint */
#endif
    tt->bucket_count = count;
    atomic_init(&tt->generation, 0);
    chess_tt_clear(tt);
    return tt;
}

void chess_tt_destroy(struct chess_tt *tt) {
    if (!tt) return;
    free(tt->buckets);
    free(tt);
}

void chess_tt_clear(struct chess_tt *tt) {
    for (size_t b = 0; b < tt->bucket_count; b++) {
        for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
            atomic_store_explicit(&tt->buckets[b].slots[i].check, 0, memory_order_relaxed);
            atomic_store_explicit(&tt->buckets[b].slots[i].data, 0, memory_order_relaxed);
        }
    }
}

size_t chess_tt_size(const struct chess_tt *tt) {
    return tt->bucket_count * sizeof(struct tt_bucket);
}

void chess_tt_set_generation(struct chess_tt *tt, unsigned generation) {
    atomic_store_explicit(&tt->generation, generation & 63, memory_order_relaxed);
}

int chess_tt_hashfull(const struct chess_tt *tt) {
    unsigned gen = atomic_load_explicit(&tt->generation, memory_order_relaxed);
    size_t buckets = tt->bucket_count < 250 ? tt->bucket_count : 250;
    int used = 0;
    for (size_t b = 0; b < buckets; b++) {
        for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
            uint64_t data =
                atomic_load_explicit(&tt->buckets[b].slots[i].data, memory_order_relaxed);
            if (data_bound(data) != CHESS_TT_NONE && data_generation(data) == gen) used++;
        }
    }
    return (int)(used * 1000 / (int)(buckets * TT_BUCKET_ENTRIES));
}

static inline uint64_t slot_read(struct tt_slot *slot, uint64_t *data) {
    *data = atomic_load_explicit(&slot->data, memory_order_relaxed);
    return atomic_load_explicit(&slot->check, memory_order_relaxed) ^ *data;
}

bool chess_tt_probe(struct chess_tt *tt, uint64_t key, struct chess_tt_entry *out) {
    struct tt_bucket *bucket = bucket_of(tt, key);
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
        uint64_t data;
        if (slot_read(&bucket->slots[i], &data) != key || data_bound(data) == CHESS_TT_NONE)
            continue;
        out->move = (chess_move)(data & 0xFFFF);
        out->score = (int16_t)(uint16_t)(data >> 16);
        out->eval = (int16_t)(uint16_t)(data >> 32);
        out->depth = data_depth(data);
        out->bound = data_bound(data);
        return true;
    }
    return false;
}

/* How much an entry is worth keeping: its depth, less for each generation it is old. */
static inline int slot_worth(uint64_t data, unsigned generation) {
    if (data_bound(data) == CHESS_TT_NONE) return -1000;
    unsigned age = (generation - data_generation(data)) & 63;
    return data_depth(data) - 8 * (int)age;
}

void chess_tt_store(struct chess_tt *tt, uint64_t key, chess_move move, int score, int eval,
                    int depth, enum chess_tt_bound bound) {
    struct tt_bucket *bucket = bucket_of(tt, key);
    unsigned gen = atomic_load_explicit(&tt->generation, memory_order_relaxed);
    if (depth < CHESS_TT_DEPTH_MIN) depth = CHESS_TT_DEPTH_MIN;
    if (depth > 255 + CHESS_TT_DEPTH_MIN) depth = 255 + CHESS_TT_DEPTH_MIN;

    struct tt_slot *victim = NULL;
    uint64_t victim_data = 0;
    int victim_worth = 1 << 30;
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
        uint64_t data;
        uint64_t k = slot_read(&bucket->slots[i], &data);
        if (k == key && data_bound(data) != CHESS_TT_NONE) {
            victim = &bucket->slots[i];
            victim_data = data;
            /* Keep a deeper result of this search unless the new one is exact. */
            if (bound != CHESS_TT_EXACT && data_generation(data) == gen &&
                depth + 4 < data_depth(data))
                return;
            break;
        }
        int worth = slot_worth(data, gen);
        if (worth < victim_worth) {
            victim_worth = worth;
            victim = &bucket->slots[i];
            victim_data = 0;
        }
    }
    if (move == CHESS_MOVE_NONE) move = (chess_move)(victim_data & 0xFFFF);
    uint64_t data = pack(move, score, eval, depth, bound, gen);
    atomic_store_explicit(&victim->data, data, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ data, memory_order_relaxed);
}

void chess_tt_prefetch(const struct chess_tt *tt, uint64_t key) {
    __builtin_prefetch(bucket_of(tt, key));
}
