/*
 * The static evaluation (see chess/eval.h; weights and trace in eval_internal.h).
 *
 * One pass builds attack maps per colour and piece type while scoring material, piece-square
 * tables, mobility and pawn structure; a second pass uses the maps for king safety, threats and
 * passed pawns. Everything is summed as white minus black in middlegame and endgame halves, then
 * tapered by the phase (remaining non-pawn material) and scaled down in drawish endgames.
 *
 * The same code fills the tuner's trace: every term goes through add() or add_danger(), which
 * record their coefficients when a trace is given. With trace NULL the compiler removes that.
 */
#include "chess/eval.h"
#include "eval_internal.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define ALWAYS_INLINE static inline __attribute__((always_inline))

struct eval_state {
    const struct chess_position *pos;
    const struct eval_weight *w;
    struct eval_trace *trace;
    int mg, eg;       /* white minus black */
    int ks[2];        /* king danger against each colour's king */
    int ksq[2];       /* king squares */
    int attackers[2]; /* pieces attacking each colour's king zone */
    chess_bitboard attacked[2], attacked2[2];
    chess_bitboard by[2][7]; /* squares attacked by each colour's pieces of each type */
    chess_bitboard zone[2];  /* each colour's king zone */
    chess_bitboard mob_area[2];
    chess_bitboard passed[2];
    chess_bitboard pinned[2]; /* each colour's pieces pinned to its own king */
};

/* Files a-d, c-f and e-h; d4, e4, d5 and e5; a1-h8 and h1-a8 (a bishop seeing two centre
 * squares stands on one of these). */
#define QUEEN_SIDE_FILES 0x0F0F0F0F0F0F0F0Full
#define CENTER_FILES     0x3C3C3C3C3C3C3C3Cull
#define KING_SIDE_FILES  0xF0F0F0F0F0F0F0F0ull
#define CENTER_SQUARES   0x0000001818000000ull
#define LONG_DIAGONALS   0x8142241818244281ull

ALWAYS_INLINE void add(struct eval_state *st, int color, int idx, int count) {
    int sign = color == CHESS_WHITE ? 1 : -1;
    st->mg += sign * count * st->w[idx].mg;
    st->eg += sign * count * st->w[idx].eg;
    if (st->trace) st->trace->coef[idx] += sign * count;
}

/* Adds to the danger against the king of `color`. */
ALWAYS_INLINE void add_danger(struct eval_state *st, int color, int idx, int count) {
    st->ks[color] += count * st->w[idx].mg;
    if (st->trace) st->trace->ks[color][idx - EVAL_KS_FIRST] += count;
}

static inline int relative_rank(int color, int sq) {
    return color == CHESS_WHITE ? CHESS_RANK_OF(sq) : 7 - CHESS_RANK_OF(sq);
}

static inline int relative_square(int color, int sq) {
    return color == CHESS_WHITE ? sq : sq ^ 56;
}

static inline chess_bitboard pawn_double_attacks_bb(int color, chess_bitboard b) {
    if (color == CHESS_WHITE) return ((b << 7) & ~BB_FILE_H) & ((b << 9) & ~BB_FILE_A);
    return ((b >> 9) & ~BB_FILE_H) & ((b >> 7) & ~BB_FILE_A);
}

/* Squares on the ranks strictly ahead of sq, from the colour's point of view. */
static inline chess_bitboard forward_ranks(int color, int sq) {
    int rank = CHESS_RANK_OF(sq);
    if (color == CHESS_WHITE) return rank == 7 ? 0 : ~0ull << (8 * (rank + 1));
    return (1ull << (8 * rank)) - 1;
}

static inline chess_bitboard adjacent_files(int sq) {
    chess_bitboard f = bb_file_of(sq);
    return ((f << 1) & ~BB_FILE_A) | ((f >> 1) & ~BB_FILE_H);
}

static inline chess_bitboard piece_attacks(int type, int sq, chess_bitboard occ) {
    switch (type) {
        case CHESS_KNIGHT: return chess_knight_attacks[sq];
        case CHESS_BISHOP: return chess_bishop_attacks(sq, occ);
        case CHESS_ROOK: return chess_rook_attacks(sq, occ);
        default: return chess_queen_attacks(sq, occ);
    }
}

/* The pieces, of either colour, that alone stand between sq and one of the sliders `snipers`
 * (already on a line with sq): each is a pin or a discovered attack away. */
ALWAYS_INLINE chess_bitboard lone_blockers(const struct chess_position *pos, int sq,
                                           chess_bitboard snipers) {
    chess_bitboard blockers = 0;
    while (snipers) {
        chess_bitboard between = chess_between[sq][bb_pop(&snipers)] & pos->by_type[0];
        if (between && !bb_more_than_one(between)) blockers |= between;
    }
    return blockers;
}

/* The pieces of `us` that alone stand between their king and an enemy rook, bishop or queen. */
ALWAYS_INLINE chess_bitboard pinned_to_king(const struct chess_position *pos, int us, int ksq) {
    chess_bitboard queens = pos->by_type[CHESS_QUEEN];
    chess_bitboard snipers =
        pos->by_color[us ^ 1] &
        ((chess_rook_attacks(ksq, 0) & (pos->by_type[CHESS_ROOK] | queens)) |
         (chess_bishop_attacks(ksq, 0) & (pos->by_type[CHESS_BISHOP] | queens)));
    return lone_blockers(pos, ksq, snipers) & pos->by_color[us];
}

ALWAYS_INLINE void init_attacks(struct eval_state *st) {
    const struct chess_position *pos = st->pos;
    for (int c = 0; c < 2; c++) {
        chess_bitboard pawns = chess_position_pieces(pos, c, CHESS_PAWN);
        st->ksq[c] = chess_position_king_square(pos, c);
        st->by[c][CHESS_PAWN] = bb_pawn_attacks(pawns, c);
        st->by[c][CHESS_KING] = chess_king_attacks[st->ksq[c]];
        st->attacked[c] = st->by[c][CHESS_PAWN] | st->by[c][CHESS_KING];
        st->attacked2[c] =
            (st->by[c][CHESS_PAWN] & st->by[c][CHESS_KING]) | pawn_double_attacks_bb(c, pawns);
        st->zone[c] = chess_king_attacks[st->ksq[c]] | bb_square(st->ksq[c]);
        st->pinned[c] = pinned_to_king(pos, c, st->ksq[c]);
    }
    for (int c = 0; c < 2; c++) {
        /* Not counted: own pawns that are blocked or on their second or third rank, the own
         * king and queen, own pinned pieces and squares enemy pawns attack. */
        chess_bitboard pawns = chess_position_pieces(pos, c, CHESS_PAWN);
        chess_bitboard occ = pos->by_type[0];
        chess_bitboard stuck = c == CHESS_WHITE ? pawns & ((occ >> 8) | BB_RANK_2 | BB_RANK_3)
                                                : pawns & ((occ << 8) | BB_RANK_7 | BB_RANK_6);
        st->mob_area[c] = ~(stuck | chess_position_pieces(pos, c, CHESS_KING) |
                            chess_position_pieces(pos, c, CHESS_QUEEN) | st->pinned[c] |
                            st->by[c ^ 1][CHESS_PAWN]);
    }
}

ALWAYS_INLINE void eval_material_pst(struct eval_state *st) {
    static const int pst_group[7] = {0,
                                     EVAL_PST_PAWN,
                                     EVAL_PST_KNIGHT,
                                     EVAL_PST_BISHOP,
                                     EVAL_PST_ROOK,
                                     EVAL_PST_QUEEN,
                                     EVAL_PST_KING};
    for (int c = 0; c < 2; c++) {
        for (int type = CHESS_PAWN; type <= CHESS_KING; type++) {
            chess_bitboard b = chess_position_pieces(st->pos, c, type);
            if (type != CHESS_KING) add(st, c, EVAL_MATERIAL + type, bb_count(b));
            while (b) add(st, c, pst_group[type] + relative_square(c, bb_pop(&b)), 1);
        }
    }
}

ALWAYS_INLINE void eval_pawn(struct eval_state *st, int us, int sq) {
    const struct chess_position *pos = st->pos;
    int them = us ^ 1, rank = relative_rank(us, sq);
    chess_bitboard ours = chess_position_pieces(pos, us, CHESS_PAWN);
    chess_bitboard theirs = chess_position_pieces(pos, them, CHESS_PAWN);
    chess_bitboard ahead = forward_ranks(us, sq);
    chess_bitboard file = bb_file_of(sq), adjacent = adjacent_files(sq);
    int stop = us == CHESS_WHITE ? sq + 8 : sq - 8;

    bool doubled = (ours & file & ahead) != 0;
    bool isolated = (ours & adjacent) == 0;
    bool supported = (chess_pawn_attacks[them][sq] & ours) != 0;
    bool phalanx = (ours & adjacent & bb_rank_of(sq)) != 0;
    if (doubled) add(st, us, EVAL_DOUBLED, 1);
    if (isolated) add(st, us, EVAL_ISOLATED, 1);
    if (supported || phalanx) add(st, us, EVAL_CONNECTED + rank, 1);
    /* Backward: no pawn beside or behind can support it, and its stop square is guarded. */
    bool backward = !isolated && !supported && !phalanx && !(ours & adjacent & ~ahead) &&
                    (chess_pawn_attacks[us][stop] & theirs);
    if (backward) add(st, us, EVAL_BACKWARD, 1);
    /* A weak pawn on a half-open file is a target for the enemy's rooks and queen. */
    if ((isolated || backward) && !(theirs & file & ahead)) add(st, us, EVAL_WEAK_UNOPPOSED, 1);
    if (!doubled && !(theirs & ahead & (file | adjacent))) st->passed[us] |= bb_square(sq);
}

ALWAYS_INLINE void eval_pawns(struct eval_state *st, int us) {
    chess_bitboard pawns = chess_position_pieces(st->pos, us, CHESS_PAWN);
    while (pawns) eval_pawn(st, us, bb_pop(&pawns));
}

ALWAYS_INLINE void eval_minor_extras(struct eval_state *st, int us, int type, int sq) {
    const struct chess_position *pos = st->pos;
    int them = us ^ 1, rank = relative_rank(us, sq);
    chess_bitboard their_pawns = chess_position_pieces(pos, them, CHESS_PAWN);
    bool safe_from_pawns = !(their_pawns & forward_ranks(us, sq) & adjacent_files(sq));
    if (rank >= 3 && rank <= 5 && safe_from_pawns && (st->by[us][CHESS_PAWN] & bb_square(sq)))
        add(st, us, type == CHESS_KNIGHT ? EVAL_OUTPOST_KNIGHT : EVAL_OUTPOST_BISHOP, 1);
    int front = us == CHESS_WHITE ? sq + 8 : sq - 8;
    if (rank < 7 && CHESS_PIECE_TYPE(pos->board[front]) == CHESS_PAWN)
        add(st, us, EVAL_MINOR_BEHIND_PAWN, 1);
    if (type == CHESS_BISHOP) {
        chess_bitboard color_squares =
            (BB_LIGHT_SQUARES & bb_square(sq)) ? BB_LIGHT_SQUARES : ~BB_LIGHT_SQUARES;
        add(st, us, EVAL_BISHOP_PAWNS,
            bb_count(color_squares & chess_position_pieces(pos, us, CHESS_PAWN)));
        if ((LONG_DIAGONALS & bb_square(sq)) &&
            bb_more_than_one(chess_bishop_attacks(sq, pos->by_type[CHESS_PAWN]) & CENTER_SQUARES))
            add(st, us, EVAL_LONG_DIAGONAL_BISHOP, 1);
    }
}

ALWAYS_INLINE void eval_rook_file(struct eval_state *st, int us, int sq, int mobility) {
    const struct chess_position *pos = st->pos;
    chess_bitboard file = bb_file_of(sq);
    if (!(pos->by_type[CHESS_PAWN] & file)) {
        add(st, us, EVAL_ROOK_OPEN, 1);
    } else if (!(chess_position_pieces(pos, us, CHESS_PAWN) & file)) {
        add(st, us, EVAL_ROOK_SEMI_OPEN, 1);
    } else if (mobility <= 3) {
        /* Shut in on the far side of its own king, which keeps it there until it castles. */
        int king_file = CHESS_FILE_OF(st->ksq[us]);
        if ((king_file < 4) == (CHESS_FILE_OF(sq) < king_file)) {
            int rights = us == CHESS_WHITE ? CHESS_CASTLE_WHITE_KING | CHESS_CASTLE_WHITE_QUEEN
                                           : CHESS_CASTLE_BLACK_KING | CHESS_CASTLE_BLACK_QUEEN;
            bool may_castle = (pos->castling & rights) != 0;
            add(st, us, EVAL_TRAPPED_ROOK + !may_castle, 1);
        }
    }
}

/* What a slider's attacks see through, as in a battery: a bishop looks through every queen, a
 * rook through every queen and its own rooks. */
static inline chess_bitboard xray_occupancy(const struct chess_position *pos, int us, int type) {
    chess_bitboard occ = pos->by_type[0];
    if (type == CHESS_BISHOP) return occ ^ pos->by_type[CHESS_QUEEN];
    if (type == CHESS_ROOK)
        return occ ^ pos->by_type[CHESS_QUEEN] ^ chess_position_pieces(pos, us, CHESS_ROOK);
    return occ;
}

ALWAYS_INLINE void eval_pieces(struct eval_state *st, int us, int type) {
    static const int mob_group[7] = {
        0, 0, EVAL_MOB_KNIGHT, EVAL_MOB_BISHOP, EVAL_MOB_ROOK, EVAL_MOB_QUEEN, 0};
    const struct chess_position *pos = st->pos;
    int them = us ^ 1;
    chess_bitboard pieces = chess_position_pieces(pos, us, type);
    while (pieces) {
        int sq = bb_pop(&pieces);
        chess_bitboard att = piece_attacks(type, sq, xray_occupancy(pos, us, type));
        if (st->pinned[us] & bb_square(sq)) att &= chess_line[st->ksq[us]][sq];
        st->attacked2[us] |= st->attacked[us] & att;
        st->attacked[us] |= att;
        st->by[us][type] |= att;
        int mobility = bb_count(att & st->mob_area[us]);
        add(st, us, mob_group[type] + mobility, 1);
        if (att & st->zone[them]) {
            st->attackers[them]++;
            add_danger(st, them, EVAL_KS_ATTACKER + type, 1);
            add_danger(st, them, EVAL_KS_ZONE_ATTACKS, bb_count(att & st->zone[them]));
        }
        add(st, us, EVAL_KING_PROTECTOR + type, square_distance(sq, st->ksq[us]));
        if (type == CHESS_KNIGHT || type == CHESS_BISHOP) eval_minor_extras(st, us, type, sq);
        if (type == CHESS_ROOK) eval_rook_file(st, us, sq, mobility);
    }
}

/* The files of the king's wing: three or four files around the king's file. */
static inline chess_bitboard king_flank(int file) {
    if (file == 0) return QUEEN_SIDE_FILES & ~(BB_FILE_A << 3);
    if (file <= 2) return QUEEN_SIDE_FILES;
    if (file <= 4) return CENTER_FILES;
    if (file <= 6) return KING_SIDE_FILES;
    return KING_SIDE_FILES & ~(BB_FILE_A << 4);
}

/* The own pawn nearest the king on a file (in front of it or level), and the enemy one. */
ALWAYS_INLINE void eval_shelter_file(struct eval_state *st, int us, int file,
                                     chess_bitboard front) {
    const struct chess_position *pos = st->pos;
    int edge = file < 4 ? file : 7 - file;
    chess_bitboard on_file = front & (BB_FILE_A << file);
    chess_bitboard ours = on_file & chess_position_pieces(pos, us, CHESS_PAWN);
    chess_bitboard theirs = on_file & chess_position_pieces(pos, us ^ 1, CHESS_PAWN);
    int our_rank = 0, their_rank = 0;
    if (ours) our_rank = relative_rank(us, us == CHESS_WHITE ? bb_first(ours) : bb_last(ours));
    if (theirs)
        their_rank = relative_rank(us, us == CHESS_WHITE ? bb_first(theirs) : bb_last(theirs));
    add(st, us, EVAL_SHELTER + edge * 8 + our_rank, 1);
    add(st, us, EVAL_STORM + edge * 8 + their_rank, 1);
}

ALWAYS_INLINE void eval_king_shelter(struct eval_state *st, int us) {
    int ksq = st->ksq[us], kfile = CHESS_FILE_OF(ksq);
    chess_bitboard front = forward_ranks(us, ksq) | bb_rank_of(ksq);
    int lo = kfile == 0 ? 0 : kfile - 1, hi = kfile == 7 ? 7 : kfile + 1;
    for (int f = lo; f <= hi; f++) eval_shelter_file(st, us, f, front);
    if (!(chess_position_pieces(st->pos, us, CHESS_PAWN) & bb_file_of(ksq)))
        add(st, us, EVAL_KING_OPEN_FILE, 1);
    if (!(st->pos->by_type[CHESS_PAWN] & king_flank(kfile))) add(st, us, EVAL_PAWNLESS_FLANK, 1);
}

/* Danger against the king of `us` from the enemy's attacks, squared into a penalty. */
ALWAYS_INLINE void eval_king_danger(struct eval_state *st, int us) {
    const struct chess_position *pos = st->pos;
    int them = us ^ 1, ksq = st->ksq[us];
    chess_bitboard occ = pos->by_type[0];
    chess_bitboard safe = ~st->attacked[us] & ~pos->by_color[them];
    chess_bitboard rook_lines = chess_rook_attacks(ksq, occ);
    chess_bitboard bishop_lines = chess_bishop_attacks(ksq, occ);
    chess_bitboard checks[7] = {0};
    checks[CHESS_KNIGHT] = chess_knight_attacks[ksq];
    checks[CHESS_BISHOP] = bishop_lines;
    checks[CHESS_ROOK] = rook_lines;
    checks[CHESS_QUEEN] = rook_lines | bishop_lines;
    int unsafe_checks = 0;
    for (int type = CHESS_KNIGHT; type <= CHESS_QUEEN; type++) {
        chess_bitboard reachable = checks[type] & st->by[them][type] & ~pos->by_color[them];
        if (reachable & safe)
            add_danger(st, us, EVAL_KS_SAFE_CHECK + type, 1);
        else if (reachable)
            unsafe_checks++;
    }
    add_danger(st, us, EVAL_KS_UNSAFE_CHECKS, unsafe_checks);
    /* Attacks on the king's wing in its own half, the squares a storm goes through. */
    chess_bitboard camp = us == CHESS_WHITE ? 0x000000FFFFFFFFFFull : 0xFFFFFFFFFF000000ull;
    chess_bitboard flank = st->attacked[them] & king_flank(CHESS_FILE_OF(ksq)) & camp;
    add_danger(st, us, EVAL_KS_FLANK_ATTACKS,
               bb_count(flank) + bb_count(flank & st->attacked2[them]));
    if (st->by[us][CHESS_KNIGHT] & st->zone[us]) add_danger(st, us, EVAL_KS_KNIGHT_DEFENDER, 1);
    chess_bitboard weak = st->attacked[them] & ~st->attacked2[us] &
                          (~st->attacked[us] | st->by[us][CHESS_KING] | st->by[us][CHESS_QUEEN]);
    add_danger(st, us, EVAL_KS_WEAK_ZONE, bb_count(weak & st->zone[us]));
    if (!chess_position_pieces(pos, them, CHESS_QUEEN)) add_danger(st, us, EVAL_KS_NO_QUEEN, 1);
    add_danger(st, us, EVAL_KS_BIAS, 1);

    int danger = st->ks[us];
    if (danger > 0) {
        int sign = us == CHESS_WHITE ? -1 : 1;
        st->mg += sign * danger * danger / EVAL_KS_MG_DIV;
        st->eg += sign * danger / EVAL_KS_EG_DIV;
    }
}

ALWAYS_INLINE void eval_threats(struct eval_state *st, int us) {
    const struct chess_position *pos = st->pos;
    int them = us ^ 1;
    chess_bitboard enemies = pos->by_color[them] & ~pos->by_type[CHESS_KING];
    chess_bitboard non_pawns = enemies & ~pos->by_type[CHESS_PAWN];
    chess_bitboard b = non_pawns & st->by[us][CHESS_PAWN];
    while (b) add(st, us, EVAL_THREAT_PAWN + CHESS_PIECE_TYPE(pos->board[bb_pop(&b)]), 1);

    chess_bitboard strongly_protected =
        st->by[them][CHESS_PAWN] | (st->attacked2[them] & ~st->attacked2[us]);
    chess_bitboard defended = non_pawns & strongly_protected;
    chess_bitboard weak = enemies & ~strongly_protected & st->attacked[us];
    b = (defended | weak) & (st->by[us][CHESS_KNIGHT] | st->by[us][CHESS_BISHOP]);
    while (b) add(st, us, EVAL_THREAT_MINOR + CHESS_PIECE_TYPE(pos->board[bb_pop(&b)]), 1);
    b = weak & st->by[us][CHESS_ROOK];
    while (b) add(st, us, EVAL_THREAT_ROOK + CHESS_PIECE_TYPE(pos->board[bb_pop(&b)]), 1);
    if (weak & st->by[us][CHESS_KING]) add(st, us, EVAL_THREAT_KING, 1);
    add(st, us, EVAL_HANGING,
        bb_count(weak & (~st->attacked[them] | (non_pawns & st->attacked2[us]))));

    chess_bitboard empty = ~pos->by_type[0];
    chess_bitboard pushes = bb_forward(chess_position_pieces(pos, us, CHESS_PAWN), us) & empty;
    pushes |= bb_forward(pushes & bb_relative_rank(us, 2), us) & empty;
    pushes &= ~st->by[them][CHESS_PAWN] & (st->attacked[us] | ~st->attacked[them]);
    add(st, us, EVAL_PAWN_PUSH_THREAT, bb_count(bb_pawn_attacks(pushes, us) & non_pawns));

    /* Contested squares the enemy does not hold firmly restrict its pieces. */
    add(st, us, EVAL_RESTRICTED,
        bb_count(st->attacked[them] & ~strongly_protected & st->attacked[us]));
    chess_bitboard queens = chess_position_pieces(pos, them, CHESS_QUEEN);
    if (queens && !bb_more_than_one(queens)) {
        int qsq = bb_first(queens);
        chess_bitboard occ = pos->by_type[0];
        chess_bitboard safe = st->mob_area[us] & ~strongly_protected;
        add(st, us, EVAL_KNIGHT_ON_QUEEN,
            bb_count(st->by[us][CHESS_KNIGHT] & chess_knight_attacks[qsq] & safe));
        chess_bitboard sliders = (st->by[us][CHESS_BISHOP] & chess_bishop_attacks(qsq, occ)) |
                                 (st->by[us][CHESS_ROOK] & chess_rook_attacks(qsq, occ));
        add(st, us, EVAL_SLIDER_ON_QUEEN, bb_count(sliders & safe & st->attacked2[us]));
    }
}

/* A queen with one piece between it and an enemy rook or bishop: a pin or a discovery away. */
ALWAYS_INLINE void eval_weak_queen(struct eval_state *st, int us) {
    const struct chess_position *pos = st->pos;
    int them = us ^ 1;
    chess_bitboard queens = chess_position_pieces(pos, us, CHESS_QUEEN);
    while (queens) {
        int qsq = bb_pop(&queens);
        chess_bitboard snipers =
            (chess_bishop_attacks(qsq, 0) & chess_position_pieces(pos, them, CHESS_BISHOP)) |
            (chess_rook_attacks(qsq, 0) & chess_position_pieces(pos, them, CHESS_ROOK));
        if (lone_blockers(pos, qsq, snipers)) add(st, us, EVAL_WEAK_QUEEN, 1);
    }
}

ALWAYS_INLINE void eval_passed(struct eval_state *st, int us) {
    const struct chess_position *pos = st->pos;
    int them = us ^ 1;
    chess_bitboard passers = st->passed[us];
    bool enemy_pieces =
        (pos->by_color[them] & ~pos->by_type[CHESS_PAWN] & ~pos->by_type[CHESS_KING]) != 0;
    while (passers) {
        int sq = bb_pop(&passers), rank = relative_rank(us, sq);
        int stop = us == CHESS_WHITE ? sq + 8 : sq - 8;
        chess_bitboard path = forward_ranks(us, sq) & bb_file_of(sq);
        add(st, us, EVAL_PASSED + rank, 1);
        if (pos->board[stop] != CHESS_NO_PIECE)
            add(st, us, EVAL_PASSED_BLOCKED + rank, 1);
        else if (!(st->attacked[them] & bb_square(stop)))
            add(st, us, EVAL_PASSED_SAFE_STOP + rank, 1);
        if (!(path & (pos->by_type[0] | st->attacked[them])))
            add(st, us, EVAL_PASSED_FREE + rank, 1);
        add(st, us, EVAL_PASSED_OWN_KING + rank, square_distance(st->ksq[us], stop));
        add(st, us, EVAL_PASSED_THEIR_KING + rank, square_distance(st->ksq[them], stop));
        if (!enemy_pieces && !(path & pos->by_type[0])) {
            /* The rule of the square: the enemy king cannot catch it. */
            int promotion = relative_square(us, 56 + CHESS_FILE_OF(sq));
            int pawn_moves = 7 - rank - (rank == 1);
            int king_moves = square_distance(st->ksq[them], promotion) - (pos->side == them);
            if (king_moves > pawn_moves) add(st, us, EVAL_UNSTOPPABLE_PASSER, 1);
        }
    }
}

/*
 * How winnable the endgame is: the complexity counts weighted, to be added to the score of the
 * side ahead (negative values draw it towards zero).
 */
ALWAYS_INLINE int eval_complexity(struct eval_state *st) {
    const struct chess_position *pos = st->pos;
    chess_bitboard pawns = pos->by_type[CHESS_PAWN];
    int wk = st->ksq[CHESS_WHITE], bk = st->ksq[CHESS_BLACK];
    int file_gap = CHESS_FILE_OF(wk) - CHESS_FILE_OF(bk);
    int rank_gap = CHESS_RANK_OF(wk) - CHESS_RANK_OF(bk);
    int outflanking = abs(file_gap) - abs(rank_gap);
    bool both_flanks = (pawns & QUEEN_SIDE_FILES) && (pawns & ~QUEEN_SIDE_FILES);
    int counts[EVAL_CX_COUNT];
    counts[EVAL_CX_PASSED] = bb_count(st->passed[CHESS_WHITE] | st->passed[CHESS_BLACK]);
    counts[EVAL_CX_PAWNS] = bb_count(pawns);
    counts[EVAL_CX_OUTFLANKING] = outflanking;
    counts[EVAL_CX_BOTH_FLANKS] = both_flanks;
    counts[EVAL_CX_INFILTRATION] = CHESS_RANK_OF(wk) > 3 || CHESS_RANK_OF(bk) < 4;
    counts[EVAL_CX_PAWNS_ONLY] = (pos->by_type[0] & ~pawns & ~pos->by_type[CHESS_KING]) == 0;
    counts[EVAL_CX_UNWINNABLE] = outflanking < 0 && !both_flanks;
    counts[EVAL_CX_BIAS] = 1;
    int c = 0;
    for (int i = 0; i < EVAL_CX_COUNT; i++) c += counts[i] * st->w[EVAL_COMPLEXITY + i].eg;
    if (st->trace) memcpy(st->trace->cx, counts, sizeof counts);
    return c;
}

ALWAYS_INLINE int game_phase(const struct chess_position *pos) {
    int phase = bb_count(pos->by_type[CHESS_KNIGHT] | pos->by_type[CHESS_BISHOP]) +
                2 * bb_count(pos->by_type[CHESS_ROOK]) + 4 * bb_count(pos->by_type[CHESS_QUEEN]);
    return phase > EVAL_PHASE_MAX ? EVAL_PHASE_MAX : phase;
}

/* Non-pawn material in pawns (3, 3, 5, 9). */
ALWAYS_INLINE int non_pawn_material(const struct chess_position *pos, int c) {
    return 3 * bb_count(chess_position_pieces(pos, c, CHESS_KNIGHT) |
                        chess_position_pieces(pos, c, CHESS_BISHOP)) +
           5 * bb_count(chess_position_pieces(pos, c, CHESS_ROOK)) +
           9 * bb_count(chess_position_pieces(pos, c, CHESS_QUEEN));
}

/* How much of the endgame score the stronger side keeps, out of EVAL_SCALE_MAX. */
ALWAYS_INLINE int endgame_scale(const struct chess_position *pos, int eg) {
    int strong = eg >= 0 ? CHESS_WHITE : CHESS_BLACK, weak = strong ^ 1;
    int npm_strong = non_pawn_material(pos, strong), npm_weak = non_pawn_material(pos, weak);
    if (!chess_position_pieces(pos, strong, CHESS_PAWN) && npm_strong - npm_weak <= 3)
        return npm_strong < 5 ? 0 : 16;
    chess_bitboard bishops = pos->by_type[CHESS_BISHOP];
    bool one_each = bb_count(chess_position_pieces(pos, CHESS_WHITE, CHESS_BISHOP)) == 1 &&
                    bb_count(chess_position_pieces(pos, CHESS_BLACK, CHESS_BISHOP)) == 1;
    if (one_each && (bishops & BB_LIGHT_SQUARES) && (bishops & ~BB_LIGHT_SQUARES))
        return npm_strong == 3 && npm_weak == 3 ? 32 : 48;
    return EVAL_SCALE_MAX;
}

ALWAYS_INLINE uint64_t pawn_key(const struct chess_position *pos) {
    uint64_t key = 0;
    chess_bitboard pawns = pos->by_type[CHESS_PAWN];
    while (pawns) {
        int sq = bb_pop(&pawns);
        key ^= chess_zobrist_psq[pos->board[sq]][sq];
    }
    return key;
}

/* Pawn structure of both sides, from the cache when it has this placement. */
ALWAYS_INLINE void eval_pawn_structure(struct eval_state *st, struct eval_pawn_cache *cache) {
    if (!cache) {
        eval_pawns(st, CHESS_WHITE);
        eval_pawns(st, CHESS_BLACK);
        return;
    }
    uint64_t key = pawn_key(st->pos);
    struct eval_pawn_entry *e = &cache->entries[key & (EVAL_PAWN_CACHE_SIZE - 1)];
    if (e->key != key) {
        int mg = st->mg, eg = st->eg;
        eval_pawns(st, CHESS_WHITE);
        eval_pawns(st, CHESS_BLACK);
        e->key = key;
        e->mg = st->mg - mg;
        e->eg = st->eg - eg;
        e->passed[0] = st->passed[0];
        e->passed[1] = st->passed[1];
        return;
    }
    st->mg += e->mg;
    st->eg += e->eg;
    st->passed[0] = e->passed[0];
    st->passed[1] = e->passed[1];
}

ALWAYS_INLINE int evaluate_impl(const struct chess_position *pos, const struct eval_weight *w,
                                struct eval_trace *trace, struct eval_pawn_cache *cache) {
    struct eval_state st;
    memset(&st, 0, sizeof st);
    st.pos = pos;
    st.w = w;
    st.trace = trace;
    init_attacks(&st);
    eval_material_pst(&st);
    eval_pawn_structure(&st, trace ? NULL : cache);
    for (int c = 0; c < 2; c++) {
        if (bb_count(chess_position_pieces(pos, c, CHESS_BISHOP)) >= 2)
            add(&st, c, EVAL_BISHOP_PAIR, 1);
    }
    for (int type = CHESS_KNIGHT; type <= CHESS_QUEEN; type++) {
        eval_pieces(&st, CHESS_WHITE, type);
        eval_pieces(&st, CHESS_BLACK, type);
    }
    for (int c = 0; c < 2; c++) {
        eval_king_shelter(&st, c);
        eval_king_danger(&st, c);
        eval_threats(&st, c);
        eval_weak_queen(&st, c);
        eval_passed(&st, c);
    }
    add(&st, pos->side, EVAL_TEMPO, 1);
    int complexity = eval_complexity(&st);
    int eg_abs = st.eg < 0 ? -st.eg : st.eg;
    st.eg += ((st.eg > 0) - (st.eg < 0)) * (complexity > -eg_abs ? complexity : -eg_abs);

    int phase = game_phase(pos), scale = endgame_scale(pos, st.eg);
    if (trace) {
        trace->phase = phase;
        trace->scale = scale;
    }
    if (scale == 0) return 0; /* nobody can win: drawn whatever the details */
    return (st.mg * phase + st.eg * scale / EVAL_SCALE_MAX * (EVAL_PHASE_MAX - phase)) /
           EVAL_PHASE_MAX;
}

/*
 * The evaluation is mostly popcounts, which the portable build cannot compile to the POPCNT
 * instruction (the first x86-64 CPUs lack it): on x86-64 a second copy compiled for POPCNT is
 * chosen at run time, as for the move counter in movegen.c.
 */
#if defined(__x86_64__) && !defined(__POPCNT__)
#define EVAL_POPCNT_COPY 1
__attribute__((target("popcnt"))) static int evaluate_with_popcnt(const struct chess_position *pos,
                                                                  struct eval_pawn_cache *cache) {
    return evaluate_impl(pos, eval_weights, NULL, cache);
}
#endif

static int evaluate_white(const struct chess_position *pos, struct eval_pawn_cache *cache) {
#ifdef EVAL_POPCNT_COPY
    if (__builtin_cpu_supports("popcnt")) return evaluate_with_popcnt(pos, cache);
#endif
    return evaluate_impl(pos, eval_weights, NULL, cache);
}

int eval_position(const struct chess_position *pos, struct eval_pawn_cache *cache) {
    int v = evaluate_white(pos, cache);
    return pos->side == CHESS_WHITE ? v : -v;
}

/* King of the Hill: a king's steps to the nearest centre square (0 on it). */
static int centre_steps(int sq) {
    int file = CHESS_FILE_OF(sq), rank = CHESS_RANK_OF(sq);
    int df = file < 3 ? 3 - file : file > 4 ? file - 4 : 0;
    int dr = rank < 3 ? 3 - rank : rank > 4 ? rank - 4 : 0;
    return df > dr ? df : dr;
}

int eval_variant(const struct chess_position *pos) {
    static const int hill_bonus[8] = {0, 220, 90, 35, 10, 0, 0, 0}; /* by steps to the centre */
    static const int checks_bonus[4] = {0, 90, 280, 0};             /* by checks given */
    int score[2] = {0, 0};
    for (int c = 0; c < 2; c++) {
        if (pos->variant == CHESS_VARIANT_KING_OF_THE_HILL) {
            int bonus = hill_bonus[centre_steps(chess_position_king_square(pos, c))];
            bool queen_against = chess_position_pieces(pos, c ^ 1, CHESS_QUEEN) != 0;
            score[c] = queen_against ? bonus / 2 : bonus;
        } else if (pos->variant == CHESS_VARIANT_THREE_CHECK) {
            score[c] = checks_bonus[pos->checks[c] & 3];
        }
    }
    return score[pos->side] - score[pos->side ^ 1];
}

int chess_evaluate(const struct chess_position *pos) {
    return eval_position(pos, NULL);
}

int eval_trace_position(const struct chess_position *pos, const struct eval_weight *weights,
                        struct eval_trace *trace) {
    memset(trace, 0, sizeof *trace);
    return evaluate_impl(pos, weights, trace, NULL);
}

const struct eval_group eval_groups[] = {
#define EVAL_GROUP_ROW(name, n) {#name, EVAL_##name, n},
    EVAL_GROUPS(EVAL_GROUP_ROW)
#undef EVAL_GROUP_ROW
};

const int eval_group_count = (int)(sizeof eval_groups / sizeof eval_groups[0]);
