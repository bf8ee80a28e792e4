/*
 * NNUE inference: accumulators built from scratch or updated from an earlier position by the
 * squares whose piece changed, and the output layer. The hot loops exist twice on x86-64, for
 * the baseline (SSE2) and for AVX2, chosen at run time as in eval.c.
 *
 * The output layer multiplies clamped activations c (0..QA) by 16-bit weights w and sums c * w * c
 * in 32-bit lanes (_mm_madd_epi16 of c * w, which fits in 16 bits for |w| <= 128, by c); an SSE2
 * lane sums NNUE_HIDDEN / 4 products of at most 65025 * 128 (64 at the built-in width, 192 at
 * the 768 that nnue.h allows), under 2^31, so no lane can overflow, and the lanes are added up
 * in 64 bits.
 */
#include "nnue.h"

#include "bitboard.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define NNUE_X86 1
#endif

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "network files are little-endian; this build would need to convert them"
#endif

/* The built-in network (nnue_builtin.c). */
extern const struct chess_nnue chess_nnue_builtin_net;

_Static_assert(sizeof(struct chess_nnue) == NNUE_FILE_SIZE,
               "struct chess_nnue is the file layout, without padding");

static bool net_shape_ok(const struct chess_nnue *net) {
    return memcmp(net->magic, "CNUE", 4) == 0 && net->version == NNUE_VERSION &&
           net->hidden == NNUE_HIDDEN && net->buckets == NNUE_BUCKETS;
}

const struct chess_nnue *chess_nnue_builtin(void) {
    return &chess_nnue_builtin_net;
}

size_t chess_nnue_file_size(void) {
    return sizeof(struct chess_nnue);
}

struct chess_nnue *chess_nnue_create(const void *bytes, size_t size) {
    if (!bytes || size != sizeof(struct chess_nnue)) return NULL;
    struct chess_nnue *net = aligned_alloc(64, (sizeof *net + 63) / 64 * 64);
    if (!net) return NULL;
    memcpy(net, bytes, sizeof *net);
    if (!net_shape_ok(net)) {
        free(net);
        return NULL;
    }
    return net;
}

void chess_nnue_destroy(struct chess_nnue *net) {
    free(net);
}

/* ---- accumulator arithmetic ---- */

#define ROW_LOOP(body)                                                                             \
    for (int i = 0; i < NNUE_HIDDEN; i++) body

static inline __attribute__((always_inline)) void
copy_add_sub(int16_t *dst, const int16_t *src, const int16_t *add, const int16_t *sub) {
    ROW_LOOP({ dst[i] = (int16_t)(src[i] + add[i] - sub[i]); });
}

static inline __attribute__((always_inline)) void copy_add_sub2(int16_t *dst, const int16_t *src,
                                                                const int16_t *add,
                                                                const int16_t *sub1,
                                                                const int16_t *sub2) {
    ROW_LOOP({ dst[i] = (int16_t)(src[i] + add[i] - sub1[i] - sub2[i]); });
}

static inline __attribute__((always_inline)) void add_row(int16_t *dst, const int16_t *row) {
    ROW_LOOP({ dst[i] = (int16_t)(dst[i] + row[i]); });
}

static inline __attribute__((always_inline)) void sub_row(int16_t *dst, const int16_t *row) {
    ROW_LOOP({ dst[i] = (int16_t)(dst[i] - row[i]); });
}

/* The squares whose piece differs between two positions: what to take off and put on. */
struct board_changes {
    int removed, added;
    uint8_t removed_piece[NNUE_MAX_CHANGES], removed_square[NNUE_MAX_CHANGES];
    uint8_t added_piece[NNUE_MAX_CHANGES], added_square[NNUE_MAX_CHANGES];
};

static bool find_changes(const struct chess_position *from, const struct chess_position *to,
                         struct board_changes *ch) {
    ch->removed = ch->added = 0;
    /* A square whose piece changed differs in a colour's or a piece type's bitboard. */
    chess_bitboard changed =
        (from->by_color[0] ^ to->by_color[0]) | (from->by_color[1] ^ to->by_color[1]);
    for (int type = CHESS_PAWN; type <= CHESS_KING; type++)
        changed |= from->by_type[type] ^ to->by_type[type];
    while (changed) {
        int sq = bb_pop(&changed);
        int was = from->board[sq], now = to->board[sq];
        if (was != CHESS_NO_PIECE) {
            if (ch->removed == NNUE_MAX_CHANGES) return false;
            ch->removed_piece[ch->removed] = (uint8_t)was;
            ch->removed_square[ch->removed++] = (uint8_t)sq;
        }
        if (now != CHESS_NO_PIECE) {
            if (ch->added == NNUE_MAX_CHANGES) return false;
            ch->added_piece[ch->added] = (uint8_t)now;
            ch->added_square[ch->added++] = (uint8_t)sq;
        }
    }
    return true;
}

static inline __attribute__((always_inline)) void
apply_changes_impl(const struct chess_nnue *net, const struct board_changes *ch,
                   const struct nnue_accumulator *src, struct nnue_accumulator *dst) {
    for (int p = 0; p < 2; p++) {
        const int16_t *in = src->v[p];
        int16_t *out = dst->v[p];
#define ROW(kind, k) net->ft_weight[nnue_feature(p, ch->kind##_piece[k], ch->kind##_square[k])]
        if (ch->added == 1 && ch->removed == 1) {
            copy_add_sub(out, in, ROW(added, 0), ROW(removed, 0));
        } else if (ch->added == 1 && ch->removed == 2) {
            copy_add_sub2(out, in, ROW(added, 0), ROW(removed, 0), ROW(removed, 1));
        } else {
            memcpy(out, in, sizeof src->v[p]);
            for (int k = 0; k < ch->added; k++) add_row(out, ROW(added, k));
            for (int k = 0; k < ch->removed; k++) sub_row(out, ROW(removed, k));
        }
#undef ROW
    }
}

static inline __attribute__((always_inline)) void refresh_impl(const struct chess_nnue *net,
                                                               const struct chess_position *pos,
                                                               struct nnue_accumulator *acc) {
    for (int p = 0; p < 2; p++) {
        memcpy(acc->v[p], net->ft_bias, sizeof acc->v[p]);
        chess_bitboard occ = pos->by_type[0];
        while (occ) {
            int sq = bb_pop(&occ);
            add_row(acc->v[p], net->ft_weight[nnue_feature(p, pos->board[sq], sq)]);
        }
    }
}

/* ---- output layer ---- */

#ifdef NNUE_X86
/* Sum over i of clamp(x[i], 0, QA)^2 * w[i], 8 lanes at a time (SSE2). */
static inline __attribute__((always_inline)) __m128i
screlu_dot_sse2(const int16_t *x, const int16_t *w, __m128i sum) {
    const __m128i zero = _mm_setzero_si128(), qa = _mm_set1_epi16(NNUE_QA);
    for (int i = 0; i < NNUE_HIDDEN; i += 8) {
        __m128i c =
            _mm_min_epi16(_mm_max_epi16(_mm_loadu_si128((const __m128i *)(x + i)), zero), qa);
        __m128i cw = _mm_mullo_epi16(c, _mm_loadu_si128((const __m128i *)(w + i)));
        sum = _mm_add_epi32(sum, _mm_madd_epi16(cw, c));
    }
    return sum;
}

static int64_t output_sum_sse2(const int16_t *us, const int16_t *them, const int16_t *w) {
    __m128i sum = screlu_dot_sse2(us, w, _mm_setzero_si128());
    __m128i sum2 = screlu_dot_sse2(them, w + NNUE_HIDDEN, _mm_setzero_si128());
    int32_t lanes[8];
    _mm_storeu_si128((__m128i *)lanes, sum);
    _mm_storeu_si128((__m128i *)(lanes + 4), sum2);
    int64_t total = 0;
    for (int i = 0; i < 8; i++) total += lanes[i];
    return total;
}

__attribute__((target("avx2"))) static int64_t
output_sum_avx2(const int16_t *us, const int16_t *them, const int16_t *w) {
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    __m256i sums[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
    const int16_t *halves[2] = {us, them};
    for (int h = 0; h < 2; h++) {
        const int16_t *x = halves[h], *wh = w + h * NNUE_HIDDEN;
        for (int i = 0; i < NNUE_HIDDEN; i += 16) {
            __m256i c = _mm256_min_epi16(
                _mm256_max_epi16(_mm256_loadu_si256((const __m256i *)(x + i)), zero), qa);
            __m256i cw = _mm256_mullo_epi16(c, _mm256_loadu_si256((const __m256i *)(wh + i)));
            sums[h] = _mm256_add_epi32(sums[h], _mm256_madd_epi16(cw, c));
        }
    }
    int32_t lanes[16];
    _mm256_storeu_si256((__m256i *)lanes, sums[0]);
    _mm256_storeu_si256((__m256i *)(lanes + 8), sums[1]);
    int64_t total = 0;
    for (int i = 0; i < 16; i++) total += lanes[i];
    return total;
}

__attribute__((target("avx2"))) static void apply_changes_avx2(const struct chess_nnue *net,
                                                               const struct board_changes *ch,
                                                               const struct nnue_accumulator *src,
                                                               struct nnue_accumulator *dst) {
    apply_changes_impl(net, ch, src, dst);
}

__attribute__((target("avx2"))) static void refresh_avx2(const struct chess_nnue *net,
                                                         const struct chess_position *pos,
                                                         struct nnue_accumulator *acc) {
    refresh_impl(net, pos, acc);
}

static bool have_avx2(void) {
    return __builtin_cpu_supports("avx2");
}
#else
static int64_t output_sum_portable(const int16_t *us, const int16_t *them, const int16_t *w) {
    int64_t total = 0;
    const int16_t *halves[2] = {us, them};
    for (int h = 0; h < 2; h++) {
        for (int i = 0; i < NNUE_HIDDEN; i++) {
            int64_t c = halves[h][i] < 0 ? 0 : halves[h][i] > NNUE_QA ? NNUE_QA : halves[h][i];
            total += c * c * w[h * NNUE_HIDDEN + i];
        }
    }
    return total;
}
#endif

/* ---- entry points ---- */

void nnue_refresh(const struct chess_nnue *net, const struct chess_position *pos,
                  struct nnue_accumulator *acc) {
#ifdef NNUE_X86
    if (have_avx2()) {
        refresh_avx2(net, pos, acc);
        return;
    }
#endif
    refresh_impl(net, pos, acc);
}

bool nnue_update(const struct chess_nnue *net, const struct chess_position *from,
                 const struct nnue_accumulator *from_acc, const struct chess_position *to,
                 struct nnue_accumulator *to_acc) {
    struct board_changes ch;
    if (!find_changes(from, to, &ch)) return false;
#ifdef NNUE_X86
    if (have_avx2()) {
        apply_changes_avx2(net, &ch, from_acc, to_acc);
        return true;
    }
#endif
    apply_changes_impl(net, &ch, from_acc, to_acc);
    return true;
}

int nnue_output(const struct chess_nnue *net, const struct chess_position *pos,
                const struct nnue_accumulator *acc) {
    int bucket = nnue_bucket(pos);
    const int16_t *us = acc->v[pos->side], *them = acc->v[pos->side ^ 1];
    const int16_t *w = net->out_weight[bucket];
#ifdef NNUE_X86
    int64_t sum = have_avx2() ? output_sum_avx2(us, them, w) : output_sum_sse2(us, them, w);
#else
    int64_t sum = output_sum_portable(us, them, w);
#endif
    int64_t out = sum / NNUE_QA + net->out_bias[bucket];
    return (int)(out * NNUE_SCALE / (NNUE_QA * NNUE_QB));
}

int chess_nnue_evaluate(const struct chess_nnue *net, const struct chess_position *pos) {
    struct nnue_accumulator acc;
    nnue_refresh(net, pos, &acc);
    return nnue_output(net, pos, &acc);
}
