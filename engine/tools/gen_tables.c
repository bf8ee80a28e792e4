/*
 * gen_tables: writes the engine's precomputed tables as constant C arrays.
 *
 * The engine keeps no mutable global state, so every lookup table (leaper attacks, lines between
 * squares, sliding attacks for magic or PEXT indexing, Zobrist keys) is computed here at build time
 * and compiled in as const data. Magic numbers are found by the usual random trial with a fixed
 * seed, so the output is the same on every run.
 *
 * Usage: gen_tables magic|pext OUTPUT.c
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

static u64 rng_state = 0x9E3779B97F4A7C15ull;

/* xorshift64*: a small, fixed generator so the tables never change between builds. */
static u64 rng_next(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

static u64 rng_sparse(void) {
    return rng_next() & rng_next() & rng_next();
}

static bool on_board(int file, int rank) {
    return file >= 0 && file < 8 && rank >= 0 && rank < 8;
}

static u64 sq_bb(int file, int rank) {
    return 1ull << (rank * 8 + file);
}

static u64 leaper(int sq, const int (*deltas)[2], int count) {
    u64 bb = 0;
    for (int i = 0; i < count; i++) {
        int f = sq % 8 + deltas[i][0], r = sq / 8 + deltas[i][1];
        if (on_board(f, r)) bb |= sq_bb(f, r);
    }
    return bb;
}

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static u64 slide(int sq, u64 occ, const int (*dirs)[2]) {
    u64 bb = 0;
    for (int d = 0; d < 4; d++) {
        int f = sq % 8 + dirs[d][0], r = sq / 8 + dirs[d][1];
        while (on_board(f, r)) {
            bb |= sq_bb(f, r);
            if (occ & sq_bb(f, r)) break;
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return bb;
}

/* Relevant occupancy: the slider's rays without the board edge at the end of each ray. */
static u64 relevant_mask(int sq, const int (*dirs)[2]) {
    u64 bb = 0;
    for (int d = 0; d < 4; d++) {
        int f = sq % 8 + dirs[d][0], r = sq / 8 + dirs[d][1];
        while (on_board(f + dirs[d][0], r + dirs[d][1])) {
            bb |= sq_bb(f, r);
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return bb;
}

static u64 pext_soft(u64 src, u64 mask) {
    u64 out = 0;
    for (u64 bit = 1; mask; bit <<= 1) {
        if (src & mask & -mask) out |= bit;
        mask &= mask - 1;
    }
    return out;
}

struct slider_info {
    u64 mask, magic;
    unsigned shift, offset;
};

#define MAX_SUBSETS 4096

/* Fills table[offset..] for one square and returns the number of entries used. */
static unsigned build_square(int sq, const int (*dirs)[2], bool pext, struct slider_info *info,
                             u64 *table) {
    static u64 occs[MAX_SUBSETS], atts[MAX_SUBSETS], used[MAX_SUBSETS];
    u64 mask = relevant_mask(sq, dirs);
    int bits = __builtin_popcountll(mask);
    unsigned size = 1u << bits;
    unsigned n = 0;
    u64 sub = 0;
    do { /* Carry-Rippler enumeration of every subset of the mask. */
        occs[n] = sub;
        atts[n] = slide(sq, sub, dirs);
        n++;
        sub = (sub - mask) & mask;
    } while (sub);

    info->mask = mask;
    info->shift = (unsigned)(64 - bits);
    if (pext) {
        info->magic = 0;
        for (unsigned i = 0; i < n; i++) table[info->offset + pext_soft(occs[i], mask)] = atts[i];
        return size;
    }
    for (;;) {
        u64 magic = rng_sparse();
        if (__builtin_popcountll((mask * magic) >> 56) < 6) continue;
        memset(used, 0, sizeof(u64) * size);
        bool ok = true;
        for (unsigned i = 0; i < n && ok; i++) {
            unsigned idx = (unsigned)((occs[i] * magic) >> info->shift);
            if (used[idx] == 0) {
                used[idx] = atts[i];
            } else if (used[idx] != atts[i]) {
                ok = false;
            }
        }
        if (!ok) continue;
        info->magic = magic;
        for (unsigned i = 0; i < size; i++) table[info->offset + i] = used[i];
        return size;
    }
}

static void write_u64_array(FILE *out, const char *decl, const u64 *v, size_t n) {
    fprintf(out, "%s = {\n", decl);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "0x%016" PRIx64 "u,%s", v[i], (i % 4 == 3) ? "\n" : " ");
    }
    fprintf(out, "};\n\n");
}

static void write_u64_matrix(FILE *out, const char *decl, const u64 *v, size_t rows, size_t cols) {
    fprintf(out, "%s = {\n", decl);
    for (size_t r = 0; r < rows; r++) {
        fprintf(out, "{");
        for (size_t c = 0; c < cols; c++)
            fprintf(out, "0x%016" PRIx64 "u,%s", v[r * cols + c], (c % 4 == 3) ? "\n" : " ");
        fprintf(out, "},\n");
    }
    fprintf(out, "};\n\n");
}

static void write_sliders(FILE *out, const char *name, const char *table_name,
                          const struct slider_info *info) {
    fprintf(out, "const struct chess_slider %s[64] = {\n", name);
    for (int sq = 0; sq < 64; sq++) {
        fprintf(out, "    {%s + %u, 0x%016" PRIx64 "u, 0x%016" PRIx64 "u, %u},\n", table_name,
                info[sq].offset, info[sq].mask, info[sq].magic, info[sq].shift);
    }
    fprintf(out, "};\n\n");
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "magic") != 0 && strcmp(argv[1], "pext") != 0)) {
        fprintf(stderr, "usage: gen_tables magic|pext OUTPUT.c\n");
        return 2;
    }
    bool pext = strcmp(argv[1], "pext") == 0;
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        return 1;
    }

    static u64 rook_table[102400], bishop_table[5248];
    static struct slider_info rook_info[64], bishop_info[64];
    unsigned rook_off = 0, bishop_off = 0;
    for (int sq = 0; sq < 64; sq++) {
        rook_info[sq].offset = rook_off;
        rook_off += build_square(sq, rook_dirs, pext, &rook_info[sq], rook_table);
        bishop_info[sq].offset = bishop_off;
        bishop_off += build_square(sq, bishop_dirs, pext, &bishop_info[sq], bishop_table);
    }
    if (rook_off != 102400 || bishop_off != 5248) {
        fprintf(stderr, "gen_tables: unexpected table sizes %u %u\n", rook_off, bishop_off);
        fclose(out);
        return 1;
    }

    static const int knight_d[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                       {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king_d[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                     {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int wpawn_d[2][2] = {{-1, 1}, {1, 1}};
    static const int bpawn_d[2][2] = {{-1, -1}, {1, -1}};
    u64 knight[64], king[64], pawn[2][64];
    static u64 between[64][64], line[64][64];
    for (int sq = 0; sq < 64; sq++) {
        knight[sq] = leaper(sq, knight_d, 8);
        king[sq] = leaper(sq, king_d, 8);
        pawn[0][sq] = leaper(sq, wpawn_d, 2);
        pawn[1][sq] = leaper(sq, bpawn_d, 2);
    }
    for (int a = 0; a < 64; a++) {
        for (int b = 0; b < 64; b++) {
            u64 bbb = 1ull << b, bba = 1ull << a;
            const int(*dirs)[2] = NULL;
            if (slide(a, 0, rook_dirs) & bbb) dirs = rook_dirs;
            if (slide(a, 0, bishop_dirs) & bbb) dirs = bishop_dirs;
            if (!dirs) continue;
            line[a][b] = (slide(a, 0, dirs) & slide(b, 0, dirs)) | bba | bbb;
            between[a][b] = slide(a, bbb, dirs) & slide(b, bba, dirs);
        }
    }

    u64 zobrist[16 * 64 + 16 + 8 + 1];
    for (size_t i = 0; i < sizeof zobrist / sizeof zobrist[0]; i++) zobrist[i] = rng_next();

    fprintf(out, "/* Generated by gen_tables %s: do not edit. */\n", argv[1]);
    fprintf(out, "#include \"tables.h\"\n\n");
    write_u64_array(out, "static const chess_bitboard rook_table[102400]", rook_table, 102400);
    write_u64_array(out, "static const chess_bitboard bishop_table[5248]", bishop_table, 5248);
    write_sliders(out, "chess_rook_sliders", "rook_table", rook_info);
    write_sliders(out, "chess_bishop_sliders", "bishop_table", bishop_info);
    write_u64_array(out, "const chess_bitboard chess_knight_attacks[64]", knight, 64);
    write_u64_array(out, "const chess_bitboard chess_king_attacks[64]", king, 64);
    write_u64_matrix(out, "const chess_bitboard chess_pawn_attacks[2][64]", &pawn[0][0], 2, 64);
    write_u64_matrix(out, "const chess_bitboard chess_between[64][64]", &between[0][0], 64, 64);
    write_u64_matrix(out, "const chess_bitboard chess_line[64][64]", &line[0][0], 64, 64);
    write_u64_matrix(out, "const uint64_t chess_zobrist_psq[16][64]", zobrist, 16, 64);
    write_u64_array(out, "const uint64_t chess_zobrist_castling[16]", zobrist + 16 * 64, 16);
    write_u64_array(out, "const uint64_t chess_zobrist_ep_file[8]", zobrist + 16 * 64 + 16, 8);
    fprintf(out, "const uint64_t chess_zobrist_side = 0x%016" PRIx64 "u;\n",
            zobrist[16 * 64 + 16 + 8]);
    if (fclose(out) != 0) {
        perror(argv[2]);
        return 1;
    }
    return 0;
}
