/*
 * Fully legal move generation.
 *
 * Instead of generating pseudo-legal moves and testing each, the generator works out once per
 * position which squares resolve a check (the check mask) and which pieces are pinned (they may
 * only move along the line to their king), then emits only legal moves. King moves are tested
 * against attacks with the king lifted off the board; en passant, the one move that removes two
 * pieces from a line, gets a full test. The same code counts moves without writing them (perft's
 * last ply), by adding up target bitboards instead of walking them.
 */
#include "chess/movegen.h"
#include "internal.h"

#include <stddef.h>

struct sink {
    chess_move *out;
    int count;
};

/* What the generator does with moves: write them, or only count them with one of two popcounts. */
enum sink_mode { SINK_WRITE = 0, SINK_COUNT, SINK_COUNT_POPCNT };

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* In a function compiled for the POPCNT instruction the builtin is one instruction; elsewhere the
 * portable bb_count() is faster than the library routine GCC would call. */
ALWAYS_INLINE int count_bits(chess_bitboard b, enum sink_mode mode) {
    return mode == SINK_COUNT_POPCNT ? __builtin_popcountll(b) : bb_count(b);
}

ALWAYS_INLINE void emit_targets(struct sink *s, enum sink_mode counting, int from,
                                chess_bitboard targets) {
    if (counting) {
        s->count += count_bits(targets, counting);
        return;
    }
    while (targets) *s->out++ = chess_move_make(from, bb_pop(&targets));
}

/* Pawn moves to every target, each from (target - delta). */
ALWAYS_INLINE void emit_pawn_moves(struct sink *s, enum sink_mode counting, chess_bitboard targets,
                                   int delta) {
    if (counting) {
        s->count += count_bits(targets, counting);
        return;
    }
    while (targets) {
        int to = bb_pop(&targets);
        *s->out++ = chess_move_make(to - delta, to);
    }
}

ALWAYS_INLINE void emit_promotions(struct sink *s, enum sink_mode counting, chess_bitboard targets,
                                   int delta) {
    if (counting) {
        s->count += 4 * count_bits(targets, counting);
        return;
    }
    while (targets) {
        int to = bb_pop(&targets), from = to - delta;
        *s->out++ = chess_move_make_promotion(from, to, CHESS_QUEEN);
        *s->out++ = chess_move_make_promotion(from, to, CHESS_KNIGHT);
        *s->out++ = chess_move_make_promotion(from, to, CHESS_ROOK);
        *s->out++ = chess_move_make_promotion(from, to, CHESS_BISHOP);
    }
}

ALWAYS_INLINE void emit_one(struct sink *s, enum sink_mode counting, chess_move m) {
    if (counting) {
        s->count++;
        return;
    }
    *s->out++ = m;
}

ALWAYS_INLINE chess_bitboard shift_bb(chess_bitboard b, int delta) {
    return delta > 0 ? b << delta : b >> -delta;
}

/*
 * Pawn moves of the pawns in `pawns`, restricted to `allowed` destinations (check mask, and for
 * a pinned pawn its pin line).
 */
ALWAYS_INLINE void gen_pawns(struct sink *s, enum sink_mode counting, enum chess_gen_type type,
                             int us, chess_bitboard pawns, chess_bitboard empty,
                             chess_bitboard enemies, chess_bitboard allowed) {
    const int up = us == CHESS_WHITE ? 8 : -8;
    const int up_left = us == CHESS_WHITE ? 7 : -9;
    const int up_right = us == CHESS_WHITE ? 9 : -7;
    const chess_bitboard seventh_rank = us == CHESS_WHITE ? BB_RANK_7 : BB_RANK_2;
    const chess_bitboard third_rank = us == CHESS_WHITE ? BB_RANK_3 : BB_RANK_6;
    /* Captures towards file a must not start on file a, towards file h not on file h. */
    const chess_bitboard left_from = ~BB_FILE_A;
    const chess_bitboard right_from = ~BB_FILE_H;

    chess_bitboard promoting = pawns & seventh_rank;
    chess_bitboard others = pawns & ~seventh_rank;
    if (promoting && type != CHESS_GEN_QUIETS) {
        emit_promotions(s, counting, shift_bb(promoting, up) & empty & allowed, up);
        emit_promotions(s, counting, shift_bb(promoting & left_from, up_left) & enemies & allowed,
                        up_left);
        emit_promotions(s, counting, shift_bb(promoting & right_from, up_right) & enemies & allowed,
                        up_right);
    }
    if (type != CHESS_GEN_QUIETS) {
        emit_pawn_moves(s, counting, shift_bb(others & left_from, up_left) & enemies & allowed,
                        up_left);
        emit_pawn_moves(s, counting, shift_bb(others & right_from, up_right) & enemies & allowed,
                        up_right);
    }
    if (type != CHESS_GEN_CAPTURES) {
        chess_bitboard single = shift_bb(others, up) & empty;
        chess_bitboard dbl = shift_bb(single & third_rank, up) & empty & allowed;
        emit_pawn_moves(s, counting, single & allowed, up);
        emit_pawn_moves(s, counting, dbl, 2 * up);
    }
}

ALWAYS_INLINE void gen_castling(struct sink *s, enum sink_mode counting,
                                const struct chess_position *pos, int us, int ksq) {
    for (int i = 2 * us; i < 2 * us + 2; i++) {
        if (!(pos->castling & (1 << i))) continue;
        int rsq = pos->castle_rook[i], king_to, rook_to;
        position_castling_squares(us, ksq, rsq, &king_to, &rook_to);
        chess_bitboard movers = bb_square(ksq) | bb_square(rsq);
        chess_bitboard path = chess_between[ksq][king_to] | bb_square(king_to) |
                              chess_between[rsq][rook_to] | bb_square(rook_to);
        if (path & ~movers & pos->by_type[0]) continue;
        /* The castling rook may shield a square of the king's path (Chess960): lift it off. */
        chess_bitboard occ = pos->by_type[0] ^ movers;
        chess_bitboard king_path = chess_between[ksq][king_to] | bb_square(king_to);
        bool attacked = false;
        while (king_path && !attacked) {
            attacked = position_attackers_by(pos, bb_pop(&king_path), us ^ 1, occ) != 0;
        }
        if (!attacked) emit_one(s, counting, chess_move_make_kind(ksq, rsq, CHESS_MOVE_CASTLING));
    }
}

ALWAYS_INLINE int generate(const struct chess_position *pos, enum chess_gen_type type,
                           chess_move *out, enum sink_mode counting) {
    struct sink s = {out, 0};
    const int us = pos->side, them = us ^ 1;
    const chess_bitboard occ = pos->by_type[0];
    const chess_bitboard ours = pos->by_color[us], theirs = pos->by_color[them];
    const int ksq = chess_position_king_square(pos, us);
    const chess_bitboard checkers = pos->checkers;

    chess_bitboard targets = type == CHESS_GEN_CAPTURES ? theirs
                             : type == CHESS_GEN_QUIETS ? ~occ
                                                        : ~ours;

    /* King moves: test each destination with the king lifted, so sliders see through it. */
    chess_bitboard king_targets = chess_king_attacks[ksq] & targets;
    chess_bitboard occ_no_king = occ ^ bb_square(ksq);
    while (king_targets) {
        int to = bb_pop(&king_targets);
        if (!position_attackers_by(pos, to, them, occ_no_king)) {
            emit_one(&s, counting, chess_move_make(ksq, to));
        }
    }
    if (bb_more_than_one(checkers)) return counting ? s.count : (int)(s.out - out);

    chess_bitboard check_mask = ~0ull;
    if (checkers) check_mask = chess_between[ksq][bb_first(checkers)] | checkers;

    /* Pinned pieces: one of ours alone between the king and an enemy slider on its line. */
    chess_bitboard their_rq = (pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_QUEEN]) & theirs;
    chess_bitboard their_bq = (pos->by_type[CHESS_BISHOP] | pos->by_type[CHESS_QUEEN]) & theirs;
    chess_bitboard snipers = (chess_rook_attacks(ksq, theirs) & their_rq) |
                             (chess_bishop_attacks(ksq, theirs) & their_bq);
    chess_bitboard pinned = 0;
    while (snipers) {
        chess_bitboard between = chess_between[ksq][bb_pop(&snipers)] & occ;
        if (!bb_more_than_one(between)) pinned |= between & ours;
    }

    chess_bitboard piece_targets = targets & check_mask;

    chess_bitboard knights = pos->by_type[CHESS_KNIGHT] & ours & ~pinned;
    while (knights) {
        int from = bb_pop(&knights);
        emit_targets(&s, counting, from, chess_knight_attacks[from] & piece_targets);
    }
    chess_bitboard diagonal = (pos->by_type[CHESS_BISHOP] | pos->by_type[CHESS_QUEEN]) & ours;
    while (diagonal) {
        int from = bb_pop(&diagonal);
        chess_bitboard att = chess_bishop_attacks(from, occ) & piece_targets;
        if (pinned & bb_square(from)) att &= chess_line[ksq][from];
        emit_targets(&s, counting, from, att);
    }
    chess_bitboard straight = (pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_QUEEN]) & ours;
    while (straight) {
        int from = bb_pop(&straight);
        chess_bitboard att = chess_rook_attacks(from, occ) & piece_targets;
        if (pinned & bb_square(from)) att &= chess_line[ksq][from];
        emit_targets(&s, counting, from, att);
    }

    chess_bitboard pawns = pos->by_type[CHESS_PAWN] & ours;
    gen_pawns(&s, counting, type, us, pawns & ~pinned, ~occ, theirs, check_mask);
    chess_bitboard pinned_pawns = pawns & pinned;
    while (pinned_pawns) {
        int from = bb_pop(&pinned_pawns);
        gen_pawns(&s, counting, type, us, bb_square(from), ~occ, theirs,
                  check_mask & chess_line[ksq][from]);
    }
    if (type != CHESS_GEN_QUIETS && pos->ep_square != CHESS_NO_SQUARE) {
        int ep = pos->ep_square, captured = ep ^ 8;
        chess_bitboard capturers = chess_pawn_attacks[them][ep] & pawns;
        while (capturers) {
            int from = bb_pop(&capturers);
            chess_bitboard after = (occ ^ bb_square(from) ^ bb_square(captured)) | bb_square(ep);
            if (!(position_attackers_by(pos, ksq, them, after) & ~bb_square(captured))) {
                emit_one(&s, counting, chess_move_make_kind(from, ep, CHESS_MOVE_EN_PASSANT));
            }
        }
    }
    if (type != CHESS_GEN_CAPTURES && !checkers && (pos->castling & (3 << (2 * us)))) {
        gen_castling(&s, counting, pos, us, ksq);
    }
    return counting ? s.count : (int)(s.out - out);
}

/* A variant's own rule has ended the game: no legal moves (one test in standard chess). */
static inline bool variant_over(const struct chess_position *pos) {
    return pos->variant != CHESS_VARIANT_STANDARD && chess_position_variant_winner(pos) >= 0;
}

int chess_generate_moves(const struct chess_position *pos, enum chess_gen_type type,
                         struct chess_move_list *list) {
    if (variant_over(pos)) {
        list->count = 0;
        return 0;
    }
    switch (type) {
        case CHESS_GEN_CAPTURES:
            list->count = generate(pos, CHESS_GEN_CAPTURES, list->moves, SINK_WRITE);
            break;
        case CHESS_GEN_QUIETS:
            list->count = generate(pos, CHESS_GEN_QUIETS, list->moves, SINK_WRITE);
            break;
        default: list->count = generate(pos, CHESS_GEN_ALL, list->moves, SINK_WRITE); break;
    }
    return list->count;
}

/*
 * The portable build cannot assume the POPCNT instruction (the first x86-64 CPUs lack it), yet
 * counting is mostly popcounts: on x86-64 a second copy compiled for POPCNT is chosen at run time.
 */
#if defined(__x86_64__) && !defined(__POPCNT__)
__attribute__((target("popcnt"))) static int count_with_popcnt(const struct chess_position *pos) {
    return generate(pos, CHESS_GEN_ALL, NULL, SINK_COUNT_POPCNT);
}

int chess_count_legal_moves(const struct chess_position *pos) {
    if (variant_over(pos)) return 0;
    if (__builtin_cpu_supports("popcnt")) return count_with_popcnt(pos);
    return generate(pos, CHESS_GEN_ALL, NULL, SINK_COUNT);
}
#else
int chess_count_legal_moves(const struct chess_position *pos) {
    if (variant_over(pos)) return 0;
    return generate(pos, CHESS_GEN_ALL, NULL, SINK_COUNT_POPCNT);
}
#endif

uint64_t chess_perft(const struct chess_position *pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return (uint64_t)chess_count_legal_moves(pos);
    struct chess_move_list list;
    chess_generate_moves(pos, CHESS_GEN_ALL, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        struct chess_position child = *pos;
        chess_position_make_move(&child, list.moves[i]);
        nodes += chess_perft(&child, depth - 1);
    }
    return nodes;
}
