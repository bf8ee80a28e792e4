/*
 * Precomputed tables, generated at build time by tools/gen_tables.c into constant data: leaper
 * attacks, lines and segments between squares, sliding-piece attacks (magic or PEXT indexed, chosen
 * by the CHESS_USE_PEXT build option) and Zobrist keys. Private to the engine.
 */
#ifndef CHESS_TABLES_H
#define CHESS_TABLES_H

#include "chess/types.h"

#if defined(CHESS_USE_PEXT)
#include <immintrin.h>
#endif

struct chess_slider {
    const chess_bitboard *attacks; /* this square's slice of the attack table */
    chess_bitboard mask;           /* relevant occupancy */
    chess_bitboard magic;          /* unused with PEXT */
    unsigned shift;
};

extern const struct chess_slider chess_rook_sliders[64];
extern const struct chess_slider chess_bishop_sliders[64];
extern const chess_bitboard chess_knight_attacks[64];
extern const chess_bitboard chess_king_attacks[64];
extern const chess_bitboard chess_pawn_attacks[2][64];
extern const chess_bitboard chess_between[64][64]; /* squares strictly between, or 0 */
extern const chess_bitboard chess_line[64][64];    /* whole line through both squares, or 0 */
extern const uint64_t chess_zobrist_psq[16][64];
extern const uint64_t chess_zobrist_castling[16];
extern const uint64_t chess_zobrist_ep_file[8];
extern const uint64_t chess_zobrist_side;

static inline chess_bitboard chess_slider_attacks(const struct chess_slider *s,
                                                  chess_bitboard occ) {
#if defined(CHESS_USE_PEXT)
    return s->attacks[_pext_u64(occ, s->mask)];
#else
    return s->attacks[((occ & s->mask) * s->magic) >> s->shift];
#endif
}

static inline chess_bitboard chess_rook_attacks(int sq, chess_bitboard occ) {
    return chess_slider_attacks(&chess_rook_sliders[sq], occ);
}

static inline chess_bitboard chess_bishop_attacks(int sq, chess_bitboard occ) {
    return chess_slider_attacks(&chess_bishop_sliders[sq], occ);
}

static inline chess_bitboard chess_queen_attacks(int sq, chess_bitboard occ) {
    return chess_rook_attacks(sq, occ) | chess_bishop_attacks(sq, occ);
}

#endif
