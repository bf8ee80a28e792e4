/*
 * Move ordering. The transposition table's move, checked for legality on its own, comes first
 * and often ends the node before any move generation. Then the node's legal moves are generated
 * at once and scored, and handed out best first by selection (most nodes end after a move or
 * two, so sorting them all would waste work):
 *
 *   captures and queen promotions that do not lose material (static exchange), most valuable
 *   victim first, adjusted by the capture history;
 *   the two killer moves of the ply, then the counter move to the opponent's last move;
 *   other quiet moves by butterfly history plus continuation history (one, two and four plies);
 *   captures that lose material, and underpromotions.
 *
 * Quiescence nodes score captures the same way, and check evasions like a search node.
 */
#include "chess/movegen.h"
#include "search_internal.h"

#define SCORE_TT      2000000000
#define SCORE_GOOD    1000000000
#define SCORE_KILLER  900000000
#define SCORE_COUNTER 800000000
#define SCORE_BAD     (-1000000000)

static int capture_score(const struct worker *w, const struct chess_position *pos, chess_move m) {
    int captured = move_captured_type(pos, m);
    int value = see_values[captured];
    if (chess_move_kind(m) == CHESS_MOVE_PROMOTION) {
        if (chess_move_promotion(m) != CHESS_QUEEN) return SCORE_BAD - 1000 + value;
        value += see_values[CHESS_QUEEN];
    }
    int piece = pos->board[chess_move_from(m)];
    return value * 16 + w->capture_history[piece][chess_move_to(m)][captured] / 8;
}

static int quiet_score(const struct worker *w, const struct chess_position *pos,
                       const struct stack_entry *ss, chess_move m) {
    int from = chess_move_from(m), to = chess_move_to(m);
    int piece = pos->board[from];
    int score = w->history[pos->side][from][to];
    if (ss[-1].cont_hist) score += ss[-1].cont_hist[piece][to];
    if (ss[-2].cont_hist) score += ss[-2].cont_hist[piece][to];
    if (ss[-4].cont_hist) score += ss[-4].cont_hist[piece][to] / 2;
    return score;
}

static chess_move counter_move(const struct worker *w, const struct stack_entry *ss) {
    chess_move prev = ss[-1].move;
    if (prev == CHESS_MOVE_NONE || prev == CHESS_MOVE_NULL) return CHESS_MOVE_NONE;
    return w->counter_moves[ss[-1].moved_piece][chess_move_to(prev)];
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
    mp->next = 0;
    mp->skip_quiets = false;
    mp->list.count = 0;
    mp->tt_move = move_is_legal_fast(pos, tt_move) ? tt_move : CHESS_MOVE_NONE;
    mp->stage = mp->tt_move ? PICK_TT : PICK_GENERATE;
}

/* Generates the node's moves but the table move (already tried) and scores them. */
static void generate_main(struct move_picker *mp, const struct chess_position *pos) {
    const struct worker *w = mp->w;
    const struct stack_entry *ss = mp->ss;
    chess_generate_moves(pos, CHESS_GEN_ALL, &mp->list);
    chess_move counter = counter_move(w, ss);
    for (int i = 0; i < mp->list.count; i++) {
        chess_move m = mp->list.moves[i];
        if (m == mp->tt_move) {
            mp->list.moves[i--] = mp->list.moves[--mp->list.count];
            continue;
        }
        int score;
        if (move_is_tactical(pos, m)) {
            score = capture_score(w, pos, m);
            if (score > SCORE_BAD / 2) score += see_ge(pos, m, 0) ? SCORE_GOOD : SCORE_BAD;
        } else if (m == ss->killers[0]) {
            score = SCORE_KILLER + 1;
        } else if (m == ss->killers[1]) {
            score = SCORE_KILLER;
        } else if (m == counter) {
            score = SCORE_COUNTER;
        } else {
            score = quiet_score(w, pos, ss, m);
        }
        mp->scores[i] = score;
    }
}

void picker_init_qsearch(struct move_picker *mp, const struct worker *w,
                         const struct chess_position *pos) {
    bool evasions = chess_position_in_check(pos);
    chess_generate_moves(pos, evasions ? CHESS_GEN_ALL : CHESS_GEN_CAPTURES, &mp->list);
    mp->next = 0;
    mp->skip_quiets = false;
    mp->tt_move = CHESS_MOVE_NONE;
    mp->stage = PICK_SELECT;
    for (int i = 0; i < mp->list.count; i++) {
        chess_move m = mp->list.moves[i];
        if (move_is_tactical(pos, m)) {
            int piece_type = CHESS_PIECE_TYPE(pos->board[chess_move_from(m)]);
            mp->scores[i] = SCORE_GOOD + capture_score(w, pos, m) - piece_type;
        } else {
            mp->scores[i] = w->history[pos->side][chess_move_from(m)][chess_move_to(m)];
        }
    }
}

chess_move picker_next(struct move_picker *mp, const struct chess_position *pos) {
    if (mp->stage == PICK_TT) {
        mp->stage = PICK_GENERATE;
        return mp->tt_move;
    }
    if (mp->stage == PICK_GENERATE) {
        generate_main(mp, pos);
        mp->stage = PICK_SELECT;
    }
    while (mp->next < mp->list.count) {
        int best = mp->next;
        for (int i = mp->next + 1; i < mp->list.count; i++) {
            if (mp->scores[i] > mp->scores[best]) best = i;
        }
        chess_move m = mp->list.moves[best];
        int score = mp->scores[best];
        mp->list.moves[best] = mp->list.moves[mp->next];
        mp->scores[best] = mp->scores[mp->next];
        mp->list.moves[mp->next] = m;
        mp->scores[mp->next] = score;
        mp->next++;
        if (mp->skip_quiets && score < SCORE_COUNTER && score > SCORE_BAD / 2 &&
            !move_is_tactical(pos, m))
            continue;
        return m;
    }
    return CHESS_MOVE_NONE;
}
