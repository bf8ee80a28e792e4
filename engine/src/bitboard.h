/*
 * Small inline helpers over bitboards shared inside the engine: bit scans, shifts and masks.
 */
#ifndef CHESS_BITBOARD_H
#define CHESS_BITBOARD_H

#include "chess/types.h"

#define BB_FILE_A        0x0101010101010101ull
#define BB_FILE_H        (BB_FILE_A << 7)
#define BB_RANK_1        0xFFull
#define BB_RANK_2        (BB_RANK_1 << 8)
#define BB_RANK_3        (BB_RANK_1 << 16)
#define BB_RANK_6        (BB_RANK_1 << 40)
#define BB_RANK_7        (BB_RANK_1 << 48)
#define BB_RANK_8        (BB_RANK_1 << 56)
#define BB_LIGHT_SQUARES 0x55AA55AA55AA55AAull

/* King steps between two squares (the larger of the file and rank distances). */
static inline int square_distance(int a, int b) {
    int df = CHESS_FILE_OF(a) - CHESS_FILE_OF(b), dr = CHESS_RANK_OF(a) - CHESS_RANK_OF(b);
    if (df < 0) df = -df;
    if (dr < 0) dr = -dr;
    return df > dr ? df : dr;
}

static inline chess_bitboard bb_square(int sq) {
    return 1ull << sq;
}

static inline int bb_count(chess_bitboard b) {
#if defined(__POPCNT__)
    return __builtin_popcountll(b);
#else
    /* Without the POPCNT instruction GCC calls a library routine; this inline version is faster. */
    b = b - ((b >> 1) & 0x5555555555555555ull);
    b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((b * 0x0101010101010101ull) >> 56);
#endif
}

static inline int bb_first(chess_bitboard b) {
    return __builtin_ctzll(b);
}

static inline int bb_last(chess_bitboard b) {
    return 63 - __builtin_clzll(b);
}

/* Returns the lowest set square and clears it. b must not be empty. */
static inline int bb_pop(chess_bitboard *b) {
    int sq = __builtin_ctzll(*b);
    *b &= *b - 1;
    return sq;
}

static inline bool bb_more_than_one(chess_bitboard b) {
    return (b & (b - 1)) != 0;
}

/* Shifts one rank forward from the given colour's point of view. */
static inline chess_bitboard bb_forward(chess_bitboard b, int color) {
    return color == CHESS_WHITE ? b << 8 : b >> 8;
}

/* The squares the given colour's pawns attack. */
static inline chess_bitboard bb_pawn_attacks(chess_bitboard pawns, int color) {
    if (color == CHESS_WHITE) return ((pawns << 7) & ~BB_FILE_H) | ((pawns << 9) & ~BB_FILE_A);
    return ((pawns >> 9) & ~BB_FILE_H) | ((pawns >> 7) & ~BB_FILE_A);
}

static inline chess_bitboard bb_file_of(int sq) {
    return BB_FILE_A << (sq & 7);
}

static inline chess_bitboard bb_rank_of(int sq) {
    return BB_RANK_1 << (sq & 56);
}

/* The rank given from the colour's point of view (0 = its first rank). */
static inline chess_bitboard bb_relative_rank(int color, int rank) {
    return BB_RANK_1 << (8 * (color == CHESS_WHITE ? rank : 7 - rank));
}

#endif
