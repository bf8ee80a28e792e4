/*
 * Move ordering, in stages so that moves are generated only when needed (most nodes end after
 * a move or two):
 *
 *   the transposition table's move, checked for legality without generating moves;
 *   captures and promotions, most valuable victim first adjusted by the capture history, each
 *   checked by static exchange when its turn comes: those that lose material wait till the end;
 *   the two killer moves of the ply, then the counter move to the opponent's last move;
 *   the other quiet moves, by butterfly history plus continuation history (one, two and four
 *   plies back) and, in the first plies, the low-ply history, best first by selection;
 *   the losing captures and underpromotions.
 *
 * Quiescence nodes take captures (or, in check, all evasions) by the same scores and then, at
 * the first ply of quiescence, the quiet moves that give a direct check.
 */
#include "chess/movegen.h"
#include "search_internal.h"

#define SCORE_BAD (-1000000000)

static int capture_score(const struct worker *w, const struct chess_position *pos, chess_move m) {
    int captured = move_captured_type(pos, m);
    int value = see_values[captured];
    if (chess_move_kind(m) == CHESS_MOVE_PROMOTION) {
        if (chess_move_promotion(m) != CHESS_QUEEN) return SCORE_BAD - 1000 + value;
        value += see_values[CHESS_QUEEN];
    }
    int piece = pos->board[chess_move_from(m)];
    return value * 16 + w->stats->capture_history[piece][chess_move_to(m)][captured] / 8;
}

static int quiet_score(const struct worker *w, const struct chess_position *pos,
                       const struct stack_entry *ss, chess_move m) {
    int from = chess_move_from(m), to = chess_move_to(m);
    int piece = pos->board[from];
    int score = history_value(w->stats, pos->side, ss->threats.all, from, to);
    if (ss[-1].cont_hist) score += ss[-1].cont_hist[piece][to];
    if (ss[-2].cont_hist) score += ss[-2].cont_hist[piece][to];
    if (ss[-4].cont_hist) score += ss[-4].cont_hist[piece][to] / 2;
    int ply = stack_ply(w, ss);
    if (ply < LOW_PLY_COUNT) score += 4 * w->low_ply_history[ply][from][to] / (1 + 2 * ply);
    return score;
}

static chess_move counter_move(const struct worker *w, const struct stack_entry *ss) {
    chess_move prev = ss[-1].move;
    if (prev == CHESS_MOVE_NONE || prev == CHESS_MOVE_NULL) return CHESS_MOVE_NONE;
    return w->stats->counter_moves[ss[-1].moved_piece][chess_move_to(prev)];
}

void search_threats(const struct chess_position *pos, struct threat_map *out) {
    int them = pos->side ^ 1;
    chess_bitboard occ = pos->by_type[0], b;
    out->by_pawn = bb_pawn_attacks(chess_position_pieces(pos, them, CHESS_PAWN), them);
    out->by_minor = out->by_pawn;
    b = chess_position_pieces(pos, them, CHESS_KNIGHT);
    while (b) out->by_minor |= chess_knight_attacks[bb_pop(&b)];
    b = chess_position_pieces(pos, them, CHESS_BISHOP);
    while (b) out->by_minor |= chess_bishop_attacks(bb_pop(&b), occ);
    out->by_rook = out->by_minor;
    b = chess_position_pieces(pos, them, CHESS_ROOK);
    while (b) out->by_rook |= chess_rook_attacks(bb_pop(&b), occ);
    out->all = out->by_rook;
    b = chess_position_pieces(pos, them, CHESS_QUEEN);
    while (b) out->all |= chess_queen_attacks(bb_pop(&b), occ);
    out->all |= chess_king_attacks[chess_position_king_square(pos, them)];
}

bool move_is_legal_fast(const struct chess_position *pos, chess_move m) {
    if (m == CHESS_MOVE_NONE || m == CHESS_MOVE_NULL) return false;
    int us = pos->side, them = us ^ 1;
    int from = chess_move_from(m), to = chess_move_to(m);
    int piece = pos->board[from], target = pos->board[to];
    enum chess_move_kind kind = chess_move_kind(m);
    if (piece == CHESS_NO_PIECE || CHESS_PIECE_COLOR(piece) != us) return false;
    if (kind != CHESS_MOVE_PROMOTION && (m & 0x3000)) return false; /* stray promotion bits */
    if (kind == CHESS_MOVE_CASTLING || kind == CHESS_MOVE_EN_PASSANT)
        return chess_position_is_legal(pos, m); /* rare: the generator decides */
    if (target != CHESS_NO_PIECE &&
        (CHESS_PIECE_COLOR(target) == us || CHESS_PIECE_TYPE(target) == CHESS_KING))
        return false;
    chess_bitboard occ = pos->by_type[0];
    int type = CHESS_PIECE_TYPE(piece);
    if (type == CHESS_PAWN) {
        bool last_rank = CHESS_RANK_OF(to) == (us == CHESS_WHITE ? 7 : 0);
        int up = us == CHESS_WHITE ? 8 : -8;
        if ((kind == CHESS_MOVE_PROMOTION) != last_rank) return false;
        if (chess_pawn_attacks[us][from] & bb_square(to)) {
            if (target == CHESS_NO_PIECE) return false;
        } else if (to == from + up) {
            if (target != CHESS_NO_PIECE) return false;
        } else if (to == from + 2 * up && CHESS_RANK_OF(from) == (us == CHESS_WHITE ? 1 : 6)) {
            if (target != CHESS_NO_PIECE || pos->board[from + up] != CHESS_NO_PIECE) return false;
        } else {
            return false;
        }
    } else {
        chess_bitboard att = type == CHESS_KNIGHT   ? chess_knight_attacks[from]
                             : type == CHESS_BISHOP ? chess_bishop_attacks(from, occ)
                             : type == CHESS_ROOK   ? chess_rook_attacks(from, occ)
                             : type == CHESS_QUEEN  ? chess_queen_attacks(from, occ)
                                                    : chess_king_attacks[from];
        if (kind != CHESS_MOVE_NORMAL || !(att & bb_square(to))) return false;
    }
    /* Legal when, with the piece moved and any victim gone, nothing attacks our king. */
    int king = type == CHESS_KING ? to : chess_position_king_square(pos, us);
    chess_bitboard after = (occ ^ bb_square(from)) | bb_square(to);
    return (position_attackers_by(pos, king, them, after) & ~bb_square(to)) == 0;
}

void picker_init_main(struct move_picker *mp, const struct worker *w,
                      const struct chess_position *pos, const struct stack_entry *ss,
                      chess_move tt_move) {
    mp->w = w;
    mp->ss = ss;
    mp->skip_quiets = false;
    mp->tt_move = move_is_legal_fast(pos, tt_move) ? tt_move : CHESS_MOVE_NONE;
    mp->refutations[0] = ss->killers[0];
    mp->refutations[1] = ss->killers[1];
    mp->refutations[2] = counter_move(w, ss);
    mp->refutation_index = 0;
    mp->played_count = 0;
    mp->stage = PICK_TT;
}

void picker_init_qsearch(struct move_picker *mp, const struct worker *w,
                         const struct chess_position *pos, bool checks) {
    bool evasions = chess_position_in_check(pos);
    mp->w = w;
    mp->qs_checks = checks && !evasions;
    mp->skip_quiets = false;
    mp->tt_move = CHESS_MOVE_NONE;
    mp->count = chess_generate_moves(pos, evasions ? CHESS_GEN_ALL : CHESS_GEN_CAPTURES, &mp->list);
    struct threat_map threats = {0, 0, 0, 0};
    if (evasions) search_threats(pos, &threats); /* quiet moves only in check */
    mp->next = 0;
    for (int i = 0; i < mp->count; i++) {
        chess_move m = mp->list.moves[i];
        if (move_is_tactical(pos, m)) {
            int piece_type = CHESS_PIECE_TYPE(pos->board[chess_move_from(m)]);
            mp->scores[i] = capture_score(w, pos, m) - piece_type;
        } else {
            mp->scores[i] = SCORE_BAD / 2 + history_value(w->stats, pos->side, threats.all,
                                                          chess_move_from(m), chess_move_to(m));
        }
    }
    mp->stage = PICK_QSEARCH;
}

/* Moves the best-scored move of [next, end) to next and returns it. */
static chess_move select_best(struct move_picker *mp, int next, int end) {
    int best = next;
    for (int i = next + 1; i < end; i++) {
        if (mp->scores[i] > mp->scores[best]) best = i;
    }
    chess_move m = mp->list.moves[best];
    int score = mp->scores[best];
    mp->list.moves[best] = mp->list.moves[next];
    mp->scores[best] = mp->scores[next];
    mp->list.moves[next] = m;
    mp->scores[next] = score;
    return m;
}

static bool already_played(const struct move_picker *mp, chess_move m) {
    for (int i = 0; i < mp->played_count; i++) {
        if (mp->played[i] == m) return true;
    }
    return false;
}

/* Appends moves of one kind to the list, leaving out those already tried. */
static int generate_into(struct move_picker *mp, const struct chess_position *pos,
                         enum chess_gen_type type, int at) {
    struct chess_move_list part;
    int n = chess_generate_moves(pos, type, &part);
    int end = at;
    for (int i = 0; i < n; i++) {
        if (!already_played(mp, part.moves[i])) mp->list.moves[end++] = part.moves[i];
    }
    return end;
}

static void score_captures(struct move_picker *mp, const struct chess_position *pos) {
    for (int i = 0; i < mp->cap_end; i++)
        mp->scores[i] = capture_score(mp->w, pos, mp->list.moves[i]);
}

/*
 * Moving a piece off a square a lesser enemy piece attacks, to one it does not, comes early;
 * moving one onto such a square late: the history alone learns this slowly, square by square.
 */
static int escape_score(const struct threat_map *t, int type, int from, int to) {
    chess_bitboard danger = type == CHESS_QUEEN                            ? t->by_rook
                            : type == CHESS_ROOK                           ? t->by_minor
                            : type == CHESS_KNIGHT || type == CHESS_BISHOP ? t->by_pawn
                                                                           : 0;
    static const int weight[7] = {0, 0, 15000, 15000, 25000, 50000, 0};
    bool from_attacked = (danger >> from) & 1, to_attacked = (danger >> to) & 1;
    if (from_attacked && !to_attacked) return weight[type];
    if (!from_attacked && to_attacked) return -weight[type];
    return 0;
}

/* The squares from which a piece of each type would give check (direct checks only). */
static void check_squares(const struct chess_position *pos, chess_bitboard out[7]) {
    int them = pos->side ^ 1, ksq = chess_position_king_square(pos, them);
    chess_bitboard occ = pos->by_type[0];
    out[0] = out[CHESS_KING] = 0;
    out[CHESS_PAWN] = chess_pawn_attacks[them][ksq];
    out[CHESS_KNIGHT] = chess_knight_attacks[ksq];
    out[CHESS_BISHOP] = chess_bishop_attacks(ksq, occ);
    out[CHESS_ROOK] = chess_rook_attacks(ksq, occ);
    out[CHESS_QUEEN] = out[CHESS_BISHOP] | out[CHESS_ROOK];
}

/* Quiescence at its first ply, after the captures: the quiet moves that give a direct check,
 * by history (quiescence keeps no threat map, so the history's unthreatened slots). */
static void gen_quiet_checks(struct move_picker *mp, const struct chess_position *pos) {
    chess_bitboard checks[7];
    check_squares(pos, checks);
    struct chess_move_list quiets;
    int n = chess_generate_moves(pos, CHESS_GEN_QUIETS, &quiets);
    int end = 0;
    mp->next = 0;
    for (int i = 0; i < n; i++) {
        chess_move m = quiets.moves[i];
        int from = chess_move_from(m), to = chess_move_to(m);
        if (!((checks[CHESS_PIECE_TYPE(pos->board[from])] >> to) & 1)) continue;
        mp->list.moves[end] = m;
        mp->scores[end++] = history_value(mp->w->stats, pos->side, 0, from, to);
    }
    mp->count = end;
}

/* Quiet moves that give a direct check come before others of equal history: a check narrows
 * the opponent's replies, and the history, indexed by squares only, cannot tell them apart. */
#define CHECK_BONUS 10000

static void score_quiets(struct move_picker *mp, const struct chess_position *pos) {
    if (mp->count == mp->cap_end) return;
    chess_bitboard checks[7];
    check_squares(pos, checks);
    for (int i = mp->cap_end; i < mp->count; i++) {
        chess_move m = mp->list.moves[i];
        int from = chess_move_from(m), to = chess_move_to(m);
        int type = CHESS_PIECE_TYPE(pos->board[from]);
        mp->scores[i] = quiet_score(mp->w, pos, mp->ss, m) +
                        escape_score(&mp->ss->threats, type, from, to) +
                        (int)((checks[type] >> to) & 1) * CHECK_BONUS;
    }
}

/* The next good capture; losing ones are set aside at the front of the list. */
static chess_move next_good_capture(struct move_picker *mp, const struct chess_position *pos) {
    while (mp->next < mp->cap_end) {
        chess_move m = select_best(mp, mp->next, mp->cap_end);
        int score = mp->scores[mp->next++];
        if (score > SCORE_BAD / 2 && see_ge(pos, m, 0)) return m;
        mp->list.moves[mp->bad_end++] = m;
    }
    return CHESS_MOVE_NONE;
}

/* The next killer or counter move that is a legal quiet move not tried yet. */
static chess_move next_refutation(struct move_picker *mp, const struct chess_position *pos) {
    while (mp->refutation_index < 3) {
        chess_move m = mp->refutations[mp->refutation_index++];
        if (m != CHESS_MOVE_NONE && !already_played(mp, m) && !move_is_tactical(pos, m) &&
            move_is_legal_fast(pos, m))
            return m;
    }
    return CHESS_MOVE_NONE;
}

static chess_move remember(struct move_picker *mp, chess_move m) {
    if (m != CHESS_MOVE_NONE) mp->played[mp->played_count++] = m;
    return m;
}

chess_move picker_next(struct move_picker *mp, const struct chess_position *pos) {
    chess_move m;
    switch (mp->stage) {
        case PICK_TT:
            mp->stage = PICK_GEN_CAPTURES;
            if (mp->tt_move) return remember(mp, mp->tt_move);
            /* fall through */
        case PICK_GEN_CAPTURES:
            mp->cap_end = generate_into(mp, pos, CHESS_GEN_CAPTURES, 0);
            mp->next = mp->bad_end = 0;
            score_captures(mp, pos);
            mp->stage = PICK_GOOD_CAPTURES;
            /* fall through */
        case PICK_GOOD_CAPTURES:
            if ((m = next_good_capture(mp, pos)) != CHESS_MOVE_NONE) return m;
            mp->stage = PICK_REFUTATIONS;
            /* fall through */
        case PICK_REFUTATIONS:
            if (!mp->skip_quiets && (m = next_refutation(mp, pos)) != CHESS_MOVE_NONE)
                return remember(mp, m);
            mp->stage = PICK_GEN_QUIETS;
            /* fall through */
        case PICK_GEN_QUIETS:
            mp->count = mp->skip_quiets ? mp->cap_end
                                        : generate_into(mp, pos, CHESS_GEN_QUIETS, mp->cap_end);
            mp->next = mp->cap_end;
            score_quiets(mp, pos);
            mp->stage = PICK_QUIETS;
            /* fall through */
        case PICK_QUIETS:
            if (!mp->skip_quiets && mp->next < mp->count)
                return select_best(mp, mp->next++, mp->count);
            mp->next = 0;
            mp->stage = PICK_BAD_CAPTURES;
            /* fall through */
        case PICK_BAD_CAPTURES:
            return mp->next < mp->bad_end ? mp->list.moves[mp->next++] : CHESS_MOVE_NONE;
        case PICK_QSEARCH:
            if (mp->next < mp->count) return select_best(mp, mp->next++, mp->count);
            if (!mp->qs_checks) return CHESS_MOVE_NONE;
            gen_quiet_checks(mp, pos);
            mp->stage = PICK_QS_CHECKS;
            /* fall through */
        case PICK_QS_CHECKS:
            if (mp->next < mp->count) return select_best(mp, mp->next++, mp->count);
            return CHESS_MOVE_NONE;
    }
    return CHESS_MOVE_NONE;
}
