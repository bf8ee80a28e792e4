/*
 * NNUE inference: accumulators built from scratch or updated from an earlier position by the
 * squares whose piece changed, and the output layer. The hot loops exist twice on x86-64, for
 * the baseline (SSE2) and for AVX2, chosen at run time as in eval.c.
 *
 * The output layer squares the clamped activations c (0..QA) in 16 bits (c * c < 2^16), halves
 * the squares so that they fit a signed 16-bit lane (at most 32,512; the dropped half is a
 * 65,025th of an activation), and sums them times the 16-bit weights w in 32-bit lanes
 * (_mm_madd_epi16). Each 32-bit lane adds NNUE_HIDDEN / 8 products of at most 32,512 *
 * NNUE_OUT_WEIGHT_MAX (the loops keep two accumulators a half in SSE2, one a half in AVX2), which
 * stays under 2^31 up to the 768 neurons nnue.h allows, so no lane can overflow; the lanes are
 * added up in 64 bits.
 */
#include "nnue.h"

#include "bitboard.h"

#include <stddef.h>
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

_Static_assert((int64_t)NNUE_HIDDEN / 8 * 32512 * NNUE_OUT_WEIGHT_MAX < INT32_MAX,
               "an output lane could overflow");

/* The header of a network file; `flat` when the file has no king buckets (versions 1 and 2). */
static bool header_ok(const struct chess_nnue *net, bool flat) {
    bool version_ok = flat ? net->version == 1 || net->version == 2 : net->version == NNUE_VERSION;
    return memcmp(net->magic, "CNUE", 4) == 0 && version_ok && net->hidden == NNUE_HIDDEN &&
           net->buckets == NNUE_BUCKETS;
}

/*
 * Fills net from a file's bytes: this build's layout as it is, or, in a build with king buckets,
 * a file without them with its 768 rows copied into every bucket. False when the bytes are
 * neither.
 */
static bool load_layout(struct chess_nnue *net, const unsigned char *bytes, size_t size) {
    if (size == sizeof *net) {
        memcpy(net, bytes, sizeof *net);
        return header_ok(net, NNUE_KING_BUCKETS == 1);
    }
    if (NNUE_KING_BUCKETS == 1 || size != NNUE_FLAT_FILE_SIZE) return false;
    const size_t header = offsetof(struct chess_nnue, ft_weight);
    const size_t rows = sizeof net->ft_weight / NNUE_KING_BUCKETS;
    memcpy(net, bytes, header);
    for (int k = 0; k < NNUE_KING_BUCKETS; k++)
        memcpy(net->ft_weight[k * NNUE_FEATURES], bytes + header, rows);
    memcpy(net->ft_bias, bytes + header + rows, size - header - rows);
    return header_ok(net, true);
}

/* Brings a version 1 network's output to this version's scale (exactly: QB grew by a whole
 * factor) and checks that the output weights are in range; false when they cannot be. */
static bool net_output_ok(struct chess_nnue *net) {
    const int factor = net->version == 1 ? NNUE_QB / NNUE_QB_V1 : 1;
    _Static_assert(NNUE_QB % NNUE_QB_V1 == 0, "version 1 converts by a whole factor");
    net->version = NNUE_VERSION;
    for (int b = 0; b < NNUE_BUCKETS; b++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++) {
            int w = net->out_weight[b][i] * factor;
            if (w > NNUE_OUT_WEIGHT_MAX || w < -NNUE_OUT_WEIGHT_MAX) return false;
            net->out_weight[b][i] = (int16_t)w;
        }
        int bias = net->out_bias[b] * factor;
        if (bias > INT16_MAX || bias < INT16_MIN) return false;
        net->out_bias[b] = (int16_t)bias;
    }
    return true;
}

const struct chess_nnue *chess_nnue_builtin(void) {
    return &chess_nnue_builtin_net;
}

size_t chess_nnue_file_size(void) {
    return sizeof(struct chess_nnue);
}

struct chess_nnue *chess_nnue_create(const void *bytes, size_t size) {
    if (!bytes || (size != sizeof(struct chess_nnue) && size != NNUE_FLAT_FILE_SIZE)) return NULL;
    struct chess_nnue *net = aligned_alloc(64, (sizeof *net + 63) / 64 * 64);
    if (!net) return NULL;
    if (!load_layout(net, bytes, size) || !net_output_ok(net)) {
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

/* One perspective's sums of a position from scratch. */
static inline __attribute__((always_inline)) void
refresh_perspective(const struct chess_nnue *net, const struct chess_position *pos, int p,
                    int16_t *out) {
    int king_bucket = nnue_position_king_bucket(pos, p);
    memcpy(out, net->ft_bias, sizeof net->ft_bias);
    chess_bitboard occ = pos->by_type[0];
    while (occ) {
        int sq = bb_pop(&occ);
        add_row(out, net->ft_weight[nnue_feature(p, king_bucket, pos->board[sq], sq)]);
    }
}

/*
 * Each perspective's sums of `to` from those of the earlier position: by the changed squares, or
 * from scratch when that perspective's king has moved to another bucket.
 */
static inline __attribute__((always_inline)) void
apply_changes_impl(const struct chess_nnue *net, const struct board_changes *ch,
                   const struct chess_position *from, const struct chess_position *to,
                   const struct nnue_accumulator *src, struct nnue_accumulator *dst) {
    for (int p = 0; p < 2; p++) {
        const int16_t *in = src->v[p];
        int16_t *out = dst->v[p];
        int kb = nnue_position_king_bucket(to, p);
        if (kb != nnue_position_king_bucket(from, p)) {
            refresh_perspective(net, to, p, out);
            continue;
        }
#define ROW(kind, k) net->ft_weight[nnue_feature(p, kb, ch->kind##_piece[k], ch->kind##_square[k])]
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
    for (int p = 0; p < 2; p++) refresh_perspective(net, pos, p, acc->v[p]);
}

/* ---- output layer ---- */

#ifdef NNUE_X86
/* Sum over i of clamp(x[i], 0, QA)^2 / 2 * w[i], 16 neurons a step into two accumulators (SSE2),
 * so that each 32-bit lane adds NNUE_HIDDEN / 8 products, as in AVX2. */
static inline __attribute__((always_inline)) int64_t screlu_dot_sse2(const int16_t *x,
                                                                     const int16_t *w) {
    const __m128i zero = _mm_setzero_si128(), qa = _mm_set1_epi16(NNUE_QA);
    __m128i sums[2] = {zero, zero};
    for (int i = 0; i < NNUE_HIDDEN; i += 16) {
        for (int k = 0; k < 2; k++) {
            __m128i c = _mm_min_epi16(
                _mm_max_epi16(_mm_loadu_si128((const __m128i *)(x + i + 8 * k)), zero), qa);
            __m128i sq = _mm_srli_epi16(_mm_mullo_epi16(c, c), 1);
            sums[k] = _mm_add_epi32(
                sums[k], _mm_madd_epi16(sq, _mm_loadu_si128((const __m128i *)(w + i + 8 * k))));
        }
    }
    int32_t lanes[8];
    _mm_storeu_si128((__m128i *)lanes, sums[0]);
    _mm_storeu_si128((__m128i *)(lanes + 4), sums[1]);
    int64_t total = 0;
    for (int i = 0; i < 8; i++) total += lanes[i];
    return total;
}

static int64_t output_sum_sse2(const int16_t *us, const int16_t *them, const int16_t *w) {
    return screlu_dot_sse2(us, w) + screlu_dot_sse2(them, w + NNUE_HIDDEN);
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
            __m256i sq = _mm256_srli_epi16(_mm256_mullo_epi16(c, c), 1);
            sums[h] = _mm256_add_epi32(
                sums[h], _mm256_madd_epi16(sq, _mm256_loadu_si256((const __m256i *)(wh + i))));
        }
    }
    int32_t lanes[16];
    _mm256_storeu_si256((__m256i *)lanes, sums[0]);
    _mm256_storeu_si256((__m256i *)(lanes + 8), sums[1]);
    int64_t total = 0;
    for (int i = 0; i < 16; i++) total += lanes[i];
    return total;
}

__attribute__((target("avx2"))) static void
apply_changes_avx2(const struct chess_nnue *net, const struct board_changes *ch,
                   const struct chess_position *from, const struct chess_position *to,
                   const struct nnue_accumulator *src, struct nnue_accumulator *dst) {
    apply_changes_impl(net, ch, from, to, src, dst);
}

__attribute__((target("avx2"))) static void refresh_avx2(const struct chess_nnue *net,
                                                         const struct chess_position *pos,
                                                         struct nnue_accumulator *acc) {
    refresh_impl(net, pos, acc);
}

static bool have_avx2(void) {
    return __builtin_cpu_supports("avx2");
}
#endif

/* The reference for the kernels above, and the output layer on other CPUs. */
static int64_t output_sum_portable(const int16_t *us, const int16_t *them, const int16_t *w) {
    int64_t total = 0;
    const int16_t *halves[2] = {us, them};
    for (int h = 0; h < 2; h++) {
        for (int i = 0; i < NNUE_HIDDEN; i++) {
            int64_t c = halves[h][i] < 0 ? 0 : halves[h][i] > NNUE_QA ? NNUE_QA : halves[h][i];
            total += (c * c >> 1) * w[h * NNUE_HIDDEN + i];
        }
    }
    return total;
}

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
        apply_changes_avx2(net, &ch, from, to, from_acc, to_acc);
        return true;
    }
#endif
    apply_changes_impl(net, &ch, from, to, from_acc, to_acc);
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
    /* sum is QA * QA / 2 * QB times the float network's weighted sum. */
    int64_t out = sum * 2 / NNUE_QA + net->out_bias[bucket];
    return (int)(out * NNUE_SCALE / (NNUE_QA * NNUE_QB));
}

bool nnue_output_sum_with(enum nnue_kernel kernel, const int16_t *us, const int16_t *them,
                          const int16_t *w, int64_t *sum) {
    switch (kernel) {
        case NNUE_KERNEL_PORTABLE: *sum = output_sum_portable(us, them, w); return true;
#ifdef NNUE_X86
        case NNUE_KERNEL_SSE2: *sum = output_sum_sse2(us, them, w); return true;
        case NNUE_KERNEL_AVX2:
            if (!have_avx2()) return false;
            *sum = output_sum_avx2(us, them, w);
            return true;
#endif
        default: return false;
    }
}

int chess_nnue_evaluate(const struct chess_nnue *net, const struct chess_position *pos) {
    struct nnue_accumulator acc;
    nnue_refresh(net, pos, &acc);
    return nnue_output(net, pos, &acc);
}
