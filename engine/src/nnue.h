/*
 * The network's layout and its accumulators, for the search (pvs.c) and the tests. Private to
 * the engine; chess/nnue.h is the public side.
 *
 * Inputs: 768 features per perspective, one per (piece relative to the perspective: own or
 * theirs, piece type, square seen from that side: mirrored vertically for black), times
 * NNUE_KING_BUCKETS: each perspective's own king square picks one set of 768 (the king bucket).
 * The built-in network has one king bucket; a build with CHESS_NNUE_KING_BUCKETS=4 (an
 * experiment, tests/bench/nnue_kings.sh) has four. Both perspectives share one feature
 * transformer into NNUE_HIDDEN 16-bit sums (the accumulator, scaled by NNUE_QA). The output is one
 * bucket's weights over the side to move's activations followed by the other side's, with the
 * activation SCReLU: clamp(x, 0, 1)^2.
 *
 * A network file (and the built-in network) is exactly struct chess_nnue in little-endian order:
 * a 16-byte header, then int16 arrays. Float weights were multiplied by NNUE_QA (feature
 * transformer weights and biases), NNUE_QB (output weights, at most NNUE_OUT_WEIGHT_MAX in
 * size) and NNUE_QA * NNUE_QB (output biases); the network's float output times NNUE_SCALE is
 * centipawns. Version 1 files had NNUE_QB_V1 for the output: chess_nnue_create() converts them,
 * exactly. The output's scale went up fourfold in version 2: rounding the output weights to 1/64
 * had cost more than a third of the held-out loss a session's refinement gains (docs/engine.md,
 * NNUE). Version 3 is version 2 with king buckets (their number follows from the file's size); a
 * build with king buckets also loads a version 1 or 2 file, its 768 rows copied into every
 * bucket, so that it evaluates exactly as the file's network does.
 */
#ifndef CHESS_NNUE_INTERNAL_H
#define CHESS_NNUE_INTERNAL_H

#include "chess/nnue.h"

#include <stdbool.h>
#include <stdint.h>

#ifndef CHESS_NNUE_HIDDEN
#define CHESS_NNUE_HIDDEN 256 /* engine/CMakeLists.txt sets it; 256 is the built-in network's */
#endif
#ifndef CHESS_NNUE_KING_BUCKETS
#define CHESS_NNUE_KING_BUCKETS 1 /* engine/CMakeLists.txt sets it */
#endif
#define NNUE_FEATURES     768 /* per king bucket */
#define NNUE_KING_BUCKETS CHESS_NNUE_KING_BUCKETS
#define NNUE_INPUTS       (NNUE_KING_BUCKETS * NNUE_FEATURES)
#define NNUE_HIDDEN       CHESS_NNUE_HIDDEN
#define NNUE_BUCKETS      8
#define NNUE_QA           255
#define NNUE_QB           256
#define NNUE_QB_V1        64
#define NNUE_SCALE        400
#define NNUE_VERSION      (NNUE_KING_BUCKETS == 1 ? 2 : 3)
_Static_assert(NNUE_KING_BUCKETS == 1 || NNUE_KING_BUCKETS == 4, "unsupported king buckets");
/* nnue.c's output lanes stay exact with weights of this size (2.0 as floats) up to 768. */
#define NNUE_OUT_WEIGHT_MAX 512
/* nnue.c's loops take 16 neurons at a time, and its 32-bit output lanes stay exact up to 768. */
_Static_assert(NNUE_HIDDEN % 16 == 0 && NNUE_HIDDEN <= 768, "unsupported CHESS_NNUE_HIDDEN");

/* The size of a network file with `inputs` rows: the header and the int16 arrays. */
#define NNUE_FILE_SIZE_WITH(inputs)                                                                \
    (16 + 2 * ((inputs)*NNUE_HIDDEN + NNUE_HIDDEN + NNUE_BUCKETS * 2 * NNUE_HIDDEN + NNUE_BUCKETS))
/* This build's network file (struct chess_nnue), and one without king buckets (version 1, 2). */
#define NNUE_FILE_SIZE      NNUE_FILE_SIZE_WITH(NNUE_INPUTS)
#define NNUE_FLAT_FILE_SIZE NNUE_FILE_SIZE_WITH(NNUE_FEATURES)

struct chess_nnue {
    char magic[4]; /* "CNUE" */
    uint32_t version, hidden, buckets;
    int16_t ft_weight[NNUE_INPUTS][NNUE_HIDDEN];
    int16_t ft_bias[NNUE_HIDDEN];
    int16_t out_weight[NNUE_BUCKETS][2 * NNUE_HIDDEN]; /* side to move's half first */
    int16_t out_bias[NNUE_BUCKETS];
};

/* The hidden sums of one position, from white's [0] and black's [1] perspective. */
struct nnue_accumulator {
    int16_t v[2][NNUE_HIDDEN];
};

/* Index among the 768 of a piece on a square from one perspective (0 white, 1 black). */
static inline int nnue_piece_feature(int perspective, int piece, int square) {
    int theirs = CHESS_PIECE_COLOR(piece) != perspective;
    int sq = perspective == CHESS_WHITE ? square : square ^ 56;
    return theirs * 384 + (CHESS_PIECE_TYPE(piece) - 1) * 64 + sq;
}

/*
 * The king bucket of a perspective whose own king stands on king_square. With four: on its first
 * rank on files a-c or f-h (castled or about to be), on d1 or e1, on its second rank, further up.
 * The buckets are symmetric between the wings, as they must be for a network trained with
 * positions flipped left to right (nnue_train --mirror).
 */
static inline int nnue_king_bucket(int perspective, int king_square) {
#if NNUE_KING_BUCKETS == 1
    (void)perspective;
    (void)king_square;
    return 0;
#else
    int sq = perspective == CHESS_WHITE ? king_square : king_square ^ 56;
    int rank = sq >> 3, file = sq & 7;
    if (rank >= 2) return 3;
    if (rank == 1) return 2;
    return file == 3 || file == 4 ? 1 : 0;
#endif
}

/* The input row of a piece on a square from a perspective whose king bucket is king_bucket. */
static inline int nnue_feature(int perspective, int king_bucket, int piece, int square) {
    return king_bucket * NNUE_FEATURES + nnue_piece_feature(perspective, piece, square);
}

/* The king bucket of a perspective in a position. */
static inline int nnue_position_king_bucket(const struct chess_position *pos, int perspective) {
    chess_bitboard king = pos->by_type[CHESS_KING] & pos->by_color[perspective];
    return nnue_king_bucket(perspective, __builtin_ctzll(king));
}

/* The output bucket: by the number of pieces on the board, kings included (2..32). */
static inline int nnue_bucket(const struct chess_position *pos) {
    int n = __builtin_popcountll(pos->by_type[0]);
    int b = (n - 2) / 4;
    return b < 0 ? 0 : b >= NNUE_BUCKETS ? NNUE_BUCKETS - 1 : b;
}

/* Computes both perspectives' sums of the position from scratch. */
void nnue_refresh(const struct chess_nnue *net, const struct chess_position *pos,
                  struct nnue_accumulator *acc);

/*
 * The sums of `to` from those of `from`, a position a few moves earlier: the squares whose
 * piece differs are taken off and put on. Returns false, writing nothing, when more than
 * NNUE_MAX_CHANGES pieces differ (a refresh is then cheaper).
 */
#define NNUE_MAX_CHANGES 12
bool nnue_update(const struct chess_nnue *net, const struct chess_position *from,
                 const struct nnue_accumulator *from_acc, const struct chess_position *to,
                 struct nnue_accumulator *to_acc);

/* The evaluation in centipawns for the side to move of `pos`, whose sums `acc` holds. */
int nnue_output(const struct chess_nnue *net, const struct chess_position *pos,
                const struct nnue_accumulator *acc);

/*
 * For tests: the output layer's weighted sum of the activations (before the bias and scaling) by
 * one of its kernels: the portable reference always, SSE2 on x86-64, AVX2 where the CPU has it.
 * Returns false, writing nothing, when the kernel is not available here.
 */
enum nnue_kernel { NNUE_KERNEL_PORTABLE, NNUE_KERNEL_SSE2, NNUE_KERNEL_AVX2 };
bool nnue_output_sum_with(enum nnue_kernel kernel, const int16_t *us, const int16_t *them,
                          const int16_t *w, int64_t *sum);

#endif
