/*
 * The node search: principal variation search with the usual selectivity, and quiescence.
 *
 * At each node, in order: draw detection (repetition, fifty moves, bare material), mate distance
 * pruning, the transposition table (cut-off on a deep enough bound; its move first), the static
 * evaluation, then before any move: razoring, reverse futility pruning and null-move pruning,
 * and an internal iterative reduction when there is no table move. In the move loop: late move
 * pruning, futility pruning, history and exchange (SEE) pruning, check and singular extensions,
 * late move reductions, and principal variation re-searches. Cut-offs feed the killer, counter
 * move and history tables. Quiescence searches captures that do not lose material (all evasions
 * in check, and quiet direct checks at its first ply) with delta pruning. Scores are negamax:
 * from the side to move's point of view.
 */
#include "chess/eval.h"
#include "chess/movegen.h"
#include "endgame.h"
#include "search_internal.h"

#include <stdlib.h>

static inline int min_int(int a, int b) {
    return a < b ? a : b;
}

static inline int max_int(int a, int b) {
    return a > b ? a : b;
}

static inline bool has_non_pawn_material(const struct chess_position *pos, int side) {
    return (pos->by_color[side] & ~pos->by_type[CHESS_PAWN] & ~pos->by_type[CHESS_KING]) != 0;
}

/* A draw score jittered by a unit so that the search does not walk into draws blindly. */
static inline int draw_score(const struct worker *w) {
    return 1 - (int)(atomic_load_explicit(&w->nodes, memory_order_relaxed) & 2);
}

static inline void count_node(struct worker *w) {
    uint64_t n = atomic_load_explicit(&w->nodes, memory_order_relaxed);
    atomic_store_explicit(&w->nodes, n + 1, memory_order_relaxed);
}

/*
 * Repetition: a draw when the position occurred earlier after the root, or twice before it
 * (a third occurrence in the game). Also the fifty-move rule (unless it is mate) and positions
 * where nobody can mate.
 */
static bool is_draw(const struct worker *w, const struct chess_position *pos, int ply,
                    const struct stack_entry *ss) {
    if (pos->halfmove_clock >= 100 &&
        (!chess_position_in_check(pos) || chess_count_legal_moves(pos) > 0))
        return true;
    int back = min_int(pos->halfmove_clock, ss->plies_from_null);
    int idx = w->root_index + ply, earlier = 0;
    for (int i = 4; i <= back; i += 2) {
        if (w->keys[idx - i] != pos->key) continue;
        if (i < ply || ++earlier >= 2) return true;
    }
    return chess_position_insufficient_material(pos);
}

/* A 14-bit index (CORRECTION_SIZE) from a hash of piece placements. */
static inline int correction_index(uint64_t h) {
    return (int)(h >> 50);
}

/* The correction history slots of a position: pawn placement, each colour's other pieces. */
struct correction_slots {
    int16_t *pawns, *pieces[2];
};

static struct correction_slots correction_slots(struct worker *w,
                                                const struct chess_position *pos) {
    chess_bitboard pawns = pos->by_type[CHESS_PAWN];
    chess_bitboard white = pos->by_color[CHESS_WHITE], black = pos->by_color[CHESS_BLACK];
    uint64_t pawn_hash =
        (white & pawns) * 0x9E3779B97F4A7C15ull ^ (black & pawns) * 0xC2B2AE3D27D4EB4Full;
    struct correction_slots slots = {
        .pawns = &w->stats->pawn_correction[pos->side][correction_index(pawn_hash)]};
    for (int c = CHESS_WHITE; c <= CHESS_BLACK; c++) {
        chess_bitboard own = pos->by_color[c];
        uint64_t h = (own & pos->by_type[CHESS_KNIGHT]) * 0xD6E8FEB86659FD93ull ^
                     (own & pos->by_type[CHESS_BISHOP]) * 0xA0761D6478BD642Full ^
                     (own & pos->by_type[CHESS_ROOK]) * 0xE7037ED1A0B428DBull ^
                     (own & pos->by_type[CHESS_QUEEN]) * 0x8EBC6AF09C88C6E3ull ^
                     (own & pos->by_type[CHESS_KING]) * 0x589965CC75374CC3ull;
        slots.pieces[c] = &w->stats->piece_correction[pos->side][c][correction_index(h)];
    }
    return slots;
}

/*
 * The evaluation adjusted by how far searches of similar positions found it off: the pawn
 * placement's slot plus the mean of the two colours' piece placement slots.
 */
static int corrected_eval(struct worker *w, const struct chess_position *pos, int raw) {
    struct correction_slots s = correction_slots(w, pos);
    int32_t correction = *s.pawns + (*s.pieces[CHESS_WHITE] + *s.pieces[CHESS_BLACK]) / 2;
    int v = raw + correction / CORRECTION_GRAIN;
    return max_int(-CHESS_MATE_BOUND + 1, min_int(CHESS_MATE_BOUND - 1, v));
}

/* Adds a step to one slot, bounded to 100 centipawns. */
static void correction_add(int16_t *slot, int step) {
    *slot = (int16_t)max_int(-CORRECTION_LIMIT, min_int(CORRECTION_LIMIT, *slot + step));
}

/*
 * Moves the slots by a share of the residual (the search's score minus the corrected
 * evaluation), the larger the deeper the search. The pawn slot counts fully in the correction
 * and each piece slot half, so a step of weight / 512 on each moves the total correction by
 * weight / 256 of the residual: an exponential moving average towards what the search found.
 */
static void correction_update(struct worker *w, const struct chess_position *pos, int depth,
                              int residual) {
    struct correction_slots s = correction_slots(w, pos);
    int weight = min_int(depth + 1, 16);
    int step = max_int(-256, min_int(256, residual)) * CORRECTION_GRAIN * weight / 512;
    correction_add(s.pawns, step);
    correction_add(s.pieces[CHESS_WHITE], step);
    correction_add(s.pieces[CHESS_BLACK], step);
}

static inline void history_update(int16_t *entry, int bonus) {
    int v = *entry;
    v += bonus - v * abs(bonus) / HISTORY_MAX;
    *entry = (int16_t)v;
}

static inline int history_bonus(const struct chess_search_params *p, int depth) {
    return min_int(p->hist_bonus_mult * depth - p->hist_bonus_base, p->hist_bonus_max);
}

static void cont_hist_update(struct stack_entry *ss, int piece, int to, int bonus) {
    static const int back[3] = {1, 2, 4};
    for (int i = 0; i < 3; i++) {
        if (ss[-back[i]].cont_hist) history_update(&ss[-back[i]].cont_hist[piece][to], bonus);
    }
}

static void quiet_update(struct worker *w, const struct chess_position *pos, struct stack_entry *ss,
                         chess_move m, int bonus) {
    int from = chess_move_from(m), to = chess_move_to(m);
    history_update(history_entry(w->stats, pos->side, ss->threats.all, from, to), bonus);
    int ply = stack_ply(w, ss);
    if (ply < LOW_PLY_COUNT) history_update(&w->low_ply_history[ply][from][to], bonus);
    cont_hist_update(ss, pos->board[from], to, bonus);
}

static void capture_update(struct worker *w, const struct chess_position *pos, chess_move m,
                           int bonus) {
    int to = chess_move_to(m);
    history_update(
        &w->stats->capture_history[pos->board[chess_move_from(m)]][to][move_captured_type(pos, m)],
        bonus);
}

struct tried_moves {
    chess_move quiets[64];
    chess_move captures[32];
    int quiet_count, capture_count;
};

/* Rewards the move that caused a cut-off and penalises those tried before it. */
static void update_stats(struct worker *w, const struct chess_position *pos, struct stack_entry *ss,
                         chess_move best, const struct tried_moves *tried, int depth) {
    int bonus = history_bonus(&w->sh->params, depth);
    if (!move_is_tactical(pos, best)) {
        if (ss->killers[0] != best) {
            ss->killers[1] = ss->killers[0];
            ss->killers[0] = best;
        }
        chess_move prev = ss[-1].move;
        if (prev != CHESS_MOVE_NONE && prev != CHESS_MOVE_NULL)
            w->stats->counter_moves[ss[-1].moved_piece][chess_move_to(prev)] = best;
        quiet_update(w, pos, ss, best, bonus);
        for (int i = 0; i < tried->quiet_count; i++)
            quiet_update(w, pos, ss, tried->quiets[i], -bonus);
    } else {
        capture_update(w, pos, best, bonus);
    }
    for (int i = 0; i < tried->capture_count; i++)
        capture_update(w, pos, tried->captures[i], -bonus);
}

static void update_pv(struct worker *w, int ply, chess_move m) {
    w->pv[ply][0] = m;
    int n = w->pv_length[ply + 1];
    for (int i = 0; i < n; i++) w->pv[ply][i + 1] = w->pv[ply + 1][i];
    w->pv_length[ply] = n + 1;
}

/*
 * The network's sums of the node at ss: from the nearest ancestor on the path that has them
 * (the root computes its own when it has none: nodes whose evaluation came from the table never
 * did), updated ply by ply and kept at each ply for its other children.
 */
static const struct nnue_accumulator *
node_accumulator(struct worker *w, const struct chess_nnue *net, struct stack_entry *ss) {
    int at = (int)(ss - w->stack);
    if (ss->acc_ready) return &w->acc[at];
    int base = at;
    while (base > STACK_OFFSET && !w->stack[base].acc_ready) base--;
    if (!w->stack[base].acc_ready) {
        nnue_refresh(net, w->stack[base].position, &w->acc[base]);
        w->stack[base].acc_ready = true;
    }
    for (int i = base + 1; i <= at; i++) {
        const struct stack_entry *e = &w->stack[i];
        if (!nnue_update(net, e[-1].position, &w->acc[i - 1], e->position, &w->acc[i]))
            nnue_refresh(net, e->position, &w->acc[i]);
        w->stack[i].acc_ready = true;
    }
    return &w->acc[at];
}

/*
 * The static evaluation of the node at ss (whose position is pos) for the side to move: the rule
 * for a known endgame if there is one, else the network or the hand-written evaluation.
 */
static int node_eval(struct worker *w, const struct chess_position *pos, struct stack_entry *ss) {
    int known;
    /* The known endgames are standard chess's: in a variant a bare king can still win or lose. */
    bool variant = pos->variant != CHESS_VARIANT_STANDARD;
    if (!variant && endgame_evaluate(pos, &known)) return known;
    const struct chess_nnue *net = w->sh->req->nnue;
    int eval = net ? nnue_output(net, pos, node_accumulator(w, net, ss))
                   : eval_position(pos, &w->pawn_cache);
    return variant ? eval + eval_variant(pos) : eval;
}

/*
 * A variant's own end (a king on the centre, a third check) is a terminal node, scored as a mate
 * for the side that reached it. Returns false in standard chess and while the game goes on.
 */
static inline bool variant_end(const struct chess_position *pos, int ply, int *score) {
    if (pos->variant == CHESS_VARIANT_STANDARD) return false;
    int winner = chess_position_variant_winner(pos);
    if (winner < 0) return false;
    *score = winner == pos->side ? CHESS_MATE - ply : -CHESS_MATE + ply;
    return true;
}

/* Prepares the stack and key path for searching a child reached by move m (or a null move). */
static void enter_child(struct worker *w, struct stack_entry *ss, int ply,
                        const struct chess_position *pos, chess_move m,
                        const struct chess_position *child) {
    ss->move = m;
    if (m == CHESS_MOVE_NULL) {
        ss->moved_piece = 0;
        ss->move_quiet = false;
        ss->cont_hist = NULL;
        ss[1].plies_from_null = 0;
    } else {
        int piece = pos->board[chess_move_from(m)];
        ss->moved_piece = piece;
        ss->move_quiet = !move_is_tactical(pos, m);
        ss->cont_hist = w->stats->cont_hist[piece][chess_move_to(m)];
        ss[1].plies_from_null = ss->plies_from_null + 1;
    }
    ss[1].position = child;
    ss[1].acc_ready = false;
    w->keys[w->root_index + ply + 1] = child->key;
    chess_tt_prefetch(w->sh->tt, child->key);
}

/*
 * Quiescence's pruning of one move; true to skip it. In check: quiet evasions after the first
 * three once a move has escaped mate. Otherwise: underpromotions, captures that cannot raise the
 * score to alpha even with a margin (delta pruning, unless the side is lost by endgame rule; *best
 * rises to that bound), and captures and quiet checks that lose material.
 */
static bool qsearch_skip(const struct chess_position *pos, chess_move m, bool in_check,
                         int move_count, int futility_base, int alpha, int *best) {
    bool tactical = move_is_tactical(pos, m);
    if (in_check) return *best > -CHESS_MATE_BOUND && !tactical && move_count > 3;
    if (!tactical) return !see_ge(pos, m, 0); /* a quiet check, at the first ply only */
    bool promotion = chess_move_kind(m) == CHESS_MOVE_PROMOTION;
    if (promotion && chess_move_promotion(m) != CHESS_QUEEN) return true;
    int bound = futility_base + see_values[move_captured_type(pos, m)];
    /* Not for a lone king (a known loss): its one hope is a capture that leaves no mating force. */
    if (!promotion && bound <= alpha && futility_base > -ENDGAME_KNOWN_WIN / 2) {
        *best = max_int(*best, bound);
        return true;
    }
    return !see_ge(pos, m, 0);
}

/*
 * Captures and queen promotions that do not lose material (all evasions in check), and at the
 * first ply (checks) also quiet moves that give a direct check: the cheapest threats, whose
 * replies the captures alone miss (mate among them).
 */
static int qsearch(struct worker *w, const struct chess_position *pos, int alpha, int beta, int ply,
                   bool pv_node, bool checks) {
    struct stack_entry *ss = &w->stack[ply + STACK_OFFSET];
    w->pv_length[ply] = 0;
    count_node(w);
    if (search_should_stop(w)) return 0;
    if (ply > w->seldepth) w->seldepth = ply;
    bool in_check = chess_position_in_check(pos);
    int end_score;
    if (variant_end(pos, ply, &end_score)) return end_score;
    if (is_draw(w, pos, ply, ss)) return draw_score(w);
    if (ply >= CHESS_MAX_PLY - 1) return in_check ? 0 : node_eval(w, pos, ss);

    struct chess_tt_entry tte;
    bool tt_hit = chess_tt_probe(w->sh->tt, pos->key, &tte);
    int tt_score = tt_hit ? score_from_tt(tte.score, ply) : NO_SCORE;
    if (!pv_node && tt_hit && (tte.bound & (tt_score >= beta ? CHESS_TT_LOWER : CHESS_TT_UPPER)))
        return tt_score;

    int best = -INF_SCORE, static_eval = NO_SCORE, raw_eval = CHESS_TT_NO_EVAL;
    if (!in_check) {
        raw_eval = tt_hit && tte.eval != CHESS_TT_NO_EVAL ? tte.eval : node_eval(w, pos, ss);
        static_eval = corrected_eval(w, pos, raw_eval);
        best = static_eval;
        if (tt_hit && (tte.bound & (tt_score > best ? CHESS_TT_LOWER : CHESS_TT_UPPER)))
            best = tt_score;
        if (best >= beta) return best;
        if (best > alpha) alpha = best;
    }

    struct move_picker mp;
    picker_init_qsearch(&mp, w, pos, checks);
    int futility_base = static_eval + w->sh->params.qs_futility;
    int move_count = 0;
    chess_move best_move = CHESS_MOVE_NONE, m;
    while ((m = picker_next(&mp, pos)) != CHESS_MOVE_NONE) {
        move_count++;
        if (qsearch_skip(pos, m, in_check, move_count, futility_base, alpha, &best)) continue;
        chess_tt_prefetch(w->sh->tt, position_key_after(pos, m));
        struct chess_position child = *pos;
        chess_position_make_move(&child, m);
        enter_child(w, ss, ply, pos, m, &child);
        int score = -qsearch(w, &child, -beta, -alpha, ply + 1, pv_node, false);
        if (atomic_load_explicit(&w->sh->stop, memory_order_relaxed)) return 0;
        if (score <= best) continue;
        best = score;
        if (score > alpha) {
            best_move = m;
            if (pv_node) update_pv(w, ply, m);
            if (score >= beta) break;
            alpha = score;
        }
    }
    if (in_check && move_count == 0) return -CHESS_MATE + ply;
    chess_tt_store(w->sh->tt, pos->key, best_move, score_to_tt(best, ply), raw_eval, 0,
                   best >= beta ? CHESS_TT_LOWER : CHESS_TT_UPPER);
    return best;
}

/* What the node knows before searching moves. */
struct node {
    bool pv_node, root, in_check, improving, cut_node;
    bool tt_hit;
    struct chess_tt_entry tte;
    int tt_score;
    chess_move tt_move;
    int eval; /* static evaluation refined by the table's bound, NO_SCORE in check */
    int depth, ply;
};

/* Razoring, reverse futility and null move: a score to return at once, or NO_SCORE. */
static int prune_before_moves(struct worker *w, const struct chess_position *pos,
                              struct stack_entry *ss, const struct node *n, int alpha, int beta) {
    const struct chess_search_params *p = &w->sh->params;
    int depth = n->depth, eval = n->eval;
    if (n->pv_node || n->in_check || ss->excluded) return NO_SCORE;
    if (depth <= p->razor_depth && eval + p->razor_base + p->razor_mult * depth < alpha) {
        int v = qsearch(w, pos, alpha - 1, alpha, n->ply, false, true);
        if (v < alpha) return v;
    }
    if (depth <= p->rfp_depth && eval - p->rfp_margin * (depth - n->improving) >= beta &&
        eval < CHESS_MATE_BOUND)
        return (eval + beta) / 2;
    if (depth >= 3 && eval >= beta &&
        ss->static_eval >= beta - p->nmp_margin_mult * depth + p->nmp_margin_base &&
        ss[-1].move != CHESS_MOVE_NULL && has_non_pawn_material(pos, pos->side) &&
        beta > -CHESS_MATE_BOUND) {
        int r =
            p->nmp_base + depth / p->nmp_depth_div + min_int((eval - beta) / p->nmp_eval_div, 3);
        struct chess_position child = *pos;
        chess_position_make_null_move(&child);
        enter_child(w, ss, n->ply, pos, CHESS_MOVE_NULL, &child);
        int v = -search_node(w, &child, -beta, -beta + 1, depth - r, n->ply + 1, !n->cut_node);
        if (atomic_load_explicit(&w->sh->stop, memory_order_relaxed)) return 0;
        if (v >= beta) return v >= CHESS_MATE_BOUND ? beta : v;
    }
    return NO_SCORE;
}

static void probe_node(struct worker *w, const struct chess_position *pos, struct stack_entry *ss,
                       struct node *n) {
    uint64_t key = pos->key ^ (ss->excluded ? (uint64_t)ss->excluded * 0x9E3779B97F4A7C15ull : 0);
    n->tt_hit = chess_tt_probe(w->sh->tt, key, &n->tte);
    n->tt_score = n->tt_hit ? score_from_tt(n->tte.score, n->ply) : NO_SCORE;
    n->tt_move = n->tt_hit ? n->tte.move : CHESS_MOVE_NONE;
    if (n->root) n->tt_move = w->root_moves[w->pv_index].move;
}

/*
 * Teaches the history about the opponent's last quiet move by how it changed the static
 * evaluation: a move after which our evaluation is lower than theirs was before it was good.
 */
static void reward_prior_by_eval(struct worker *w, const struct chess_position *pos,
                                 struct stack_entry *ss) {
    struct stack_entry *prior = &ss[-1];
    if (!prior->move_quiet || prior->static_eval == NO_SCORE || ss->static_eval == NO_SCORE) return;
    int bonus = max_int(-2000, min_int(2000, -12 * (prior->static_eval + ss->static_eval)));
    int from = chess_move_from(prior->move), to = chess_move_to(prior->move);
    history_update(history_entry(w->stats, !pos->side, prior->threats.all, from, to), bonus);
}

/*
 * A node where no move reached alpha: the opponent's quiet move that led here was good, so its
 * continuation histories and (half as much) its butterfly history earn a bonus, the more the
 * deeper the node, at a PV or cut node (where a fail low was unexpected), when the scores fell
 * far below alpha and when the move came late in its own node's order (Stockfish 16).
 */
static void reward_prior_on_fail_low(struct worker *w, const struct chess_position *pos,
                                     struct stack_entry *ss, const struct node *n, int best,
                                     int alpha) {
    struct stack_entry *prior = &ss[-1];
    if (!prior->move_quiet) return;
    int weight = (n->depth > 6) + (n->pv_node || n->cut_node) + (best < alpha - 650) +
                 (prior->move_count > 11);
    if (weight == 0) return;
    int bonus = history_bonus(&w->sh->params, n->depth) * weight;
    int from = chess_move_from(prior->move), to = chess_move_to(prior->move);
    cont_hist_update(prior, prior->moved_piece, to, bonus);
    history_update(history_entry(w->stats, !pos->side, prior->threats.all, from, to), bonus / 2);
}

static void evaluate_node(struct worker *w, const struct chess_position *pos,
                          struct stack_entry *ss, struct node *n) {
    if (n->in_check) {
        ss->static_eval = n->eval = NO_SCORE;
        ss->raw_eval = CHESS_TT_NO_EVAL;
        n->improving = false;
        return;
    }
    if (!ss->excluded) {
        bool have = n->tt_hit && n->tte.eval != CHESS_TT_NO_EVAL;
        ss->raw_eval = have ? n->tte.eval : node_eval(w, pos, ss);
        ss->static_eval = corrected_eval(w, pos, ss->raw_eval);
    }
    n->eval = ss->static_eval;
    if (n->tt_hit && n->tt_score != NO_SCORE &&
        (n->tte.bound & (n->tt_score > n->eval ? CHESS_TT_LOWER : CHESS_TT_UPPER)))
        n->eval = n->tt_score;
    if (ss[-2].static_eval != NO_SCORE)
        n->improving = ss->static_eval > ss[-2].static_eval;
    else
        n->improving = ss[-4].static_eval == NO_SCORE || ss->static_eval > ss[-4].static_eval;
}

/* Shallow-depth pruning of one move; true to skip it. */
static bool prune_move(const struct worker *w, const struct chess_position *pos,
                       const struct stack_entry *ss, const struct node *n, struct move_picker *mp,
                       chess_move m, int move_count, bool gives_check, int alpha) {
    const struct chess_search_params *p = &w->sh->params;
    int depth = n->depth;
    if (!move_is_tactical(pos, m) && !gives_check) {
        int lmr_depth =
            max_int(depth - 1 - w->reductions[min_int(depth, 63)][min_int(move_count, 63)], 0);
        int lmp_limit = (p->lmp_base + depth * depth) / (2 - n->improving);
        if (move_count >= lmp_limit) {
            mp->skip_quiets = true;
            return true;
        }
        if (lmr_depth <= p->fut_depth && !n->in_check &&
            ss->static_eval + p->fut_base + p->fut_mult * lmr_depth <= alpha)
            return true;
        int from = chess_move_from(m), to = chess_move_to(m);
        int hist = history_value(w->stats, pos->side, ss->threats.all, from, to);
        if (ss[-1].cont_hist) hist += ss[-1].cont_hist[pos->board[from]][to];
        if (lmr_depth <= p->hist_prune_depth && hist < -p->hist_prune_mult * depth) return true;
        return !see_ge(pos, m, -p->see_quiet_mult * lmr_depth * lmr_depth);
    }
    return depth <= 8 && !see_ge(pos, m, -p->see_noisy_mult * depth);
}

/*
 * Singular extension: how much to extend the table's move, or a cut-off score via *cut. The
 * other moves are searched at half depth against a margin below the table's score: when all fail,
 * the table's move is singular (one ply more, two when far below); when that margin already
 * beats beta, several moves do (multi-cut); otherwise the table's move is likely not the only
 * good one, and is searched shallower (as in Stockfish 16): two plies when the table's score
 * beats beta or at a cut node, one when the other moves did as well as the table says.
 */
static int singular_extension(struct worker *w, const struct chess_position *pos,
                              struct stack_entry *ss, const struct node *n, int beta, int *cut) {
    const struct chess_search_params *p = &w->sh->params;
    int sbeta = n->tt_score - p->se_margin * n->depth / 16;
    ss->excluded = n->tt_move;
    int v = search_node(w, pos, sbeta - 1, sbeta, (n->depth - 1) / 2, n->ply, n->cut_node);
    ss->excluded = CHESS_MOVE_NONE;
    w->pv_length[n->ply] = 0; /* that search's line is not this node's */
    if (v < sbeta) return !n->pv_node && v < sbeta - p->se_double_margin ? 2 : 1;
    if (sbeta >= beta) {
        *cut = sbeta;
        return 0;
    }
    if (n->tt_score >= beta || n->cut_node) return -2;
    return n->tt_score <= v ? -1 : 0;
}

static int late_move_reduction(const struct worker *w, const struct chess_position *pos,
                               const struct stack_entry *ss, const struct node *n, chess_move m,
                               int move_count, bool gives_check) {
    int r = w->reductions[min_int(n->depth, 63)][min_int(move_count, 63)];
    if (!n->pv_node) r++;
    if (n->cut_node) r++;
    if (n->improving) r--;
    if (gives_check) r--;
    if (ss[1].cutoff_count > 3) r++; /* the children keep failing high: likely an all node */
    if (move_is_tactical(pos, m)) {
        r--;
    } else {
        int from = chess_move_from(m), to = chess_move_to(m), piece = pos->board[from];
        int hist = history_value(w->stats, pos->side, ss->threats.all, from, to);
        if (ss[-1].cont_hist) hist += ss[-1].cont_hist[piece][to];
        if (ss[-2].cont_hist) hist += ss[-2].cont_hist[piece][to];
        r -= hist / w->sh->params.lmr_hist_div;
        if (m == ss->killers[0] || m == ss->killers[1]) r--;
    }
    return r;
}

static void record_root_move(struct worker *w, chess_move m, int score, int alpha, int beta,
                             int move_count, uint64_t nodes) {
    struct root_move *rm = NULL;
    for (int i = w->pv_index; i < w->root_count; i++) {
        if (w->root_moves[i].move == m) rm = &w->root_moves[i];
    }
    if (!rm) return;
    rm->nodes += nodes;
    if (move_count == 1 || score > alpha) {
        rm->score = score;
        rm->avg_score = rm->avg_score == -INF_SCORE ? score : (2 * score + rm->avg_score) / 3;
        rm->seldepth = w->seldepth;
        rm->lowerbound = score >= beta;
        rm->upperbound = score <= alpha;
        rm->pv[0] = m;
        int len = w->pv_length[1];
        for (int i = 0; i < len && i + 1 < CHESS_MAX_PLY; i++) rm->pv[i + 1] = w->pv[1][i];
        rm->pv_length = min_int(len + 1, CHESS_MAX_PLY);
    } else {
        rm->score = -INF_SCORE;
    }
}

/* Searches one child: reduced null window, then full depth, then full window on a PV node. */
static int search_child(struct worker *w, const struct chess_position *child, const struct node *n,
                        int alpha, int beta, int best, int new_depth, int reduction,
                        int move_count) {
    int ply = n->ply + 1, score;
    if (reduction > 0 && n->depth >= 2 && move_count > 1 + n->root) {
        int d = max_int(1, min_int(new_depth - reduction, new_depth));
        score = -search_node(w, child, -alpha - 1, -alpha, d, ply, true);
        if (score > alpha && d < new_depth) {
            /* The reduced search's margin over the best so far decides the re-search's depth. */
            new_depth += (score > best + 50 + 10 * (new_depth - d)) - (score < best + new_depth);
            if (new_depth > d)
                score = -search_node(w, child, -alpha - 1, -alpha, new_depth, ply, !n->cut_node);
        }
    } else if (!n->pv_node || move_count > 1) {
        score = -search_node(w, child, -alpha - 1, -alpha, new_depth, ply, !n->cut_node);
    } else {
        score = alpha + 1; /* first move of a PV node: straight to the full window */
    }
    if (n->pv_node && (move_count == 1 || score > alpha))
        score = -search_node(w, child, -beta, -alpha, new_depth, ply, false);
    return score;
}

static chess_move next_move(struct worker *w, struct move_picker *mp,
                            const struct chess_position *pos, const struct node *n,
                            int *root_next) {
    if (!n->root) return picker_next(mp, pos);
    if (*root_next >= w->root_count) return CHESS_MOVE_NONE;
    return w->root_moves[(*root_next)++].move;
}

int search_node(struct worker *w, const struct chess_position *pos, int alpha, int beta, int depth,
                int ply, bool cut_node) {
    struct stack_entry *ss = &w->stack[ply + STACK_OFFSET];
    struct node n = {.pv_node = beta - alpha > 1,
                     .root = ply == 0,
                     .cut_node = cut_node,
                     .in_check = chess_position_in_check(pos),
                     .depth = depth,
                     .ply = ply};
    if (depth <= 0) return qsearch(w, pos, alpha, beta, ply, n.pv_node, true);
    w->pv_length[ply] = 0;
    count_node(w);
    if (search_should_stop(w)) return 0;
    if (ply > w->seldepth) w->seldepth = ply;
    ss->in_check = n.in_check;
    ss[2].killers[0] = ss[2].killers[1] = CHESS_MOVE_NONE;
    ss[2].cutoff_count = 0;
    if (!n.root) {
        int end_score;
        if (variant_end(pos, ply, &end_score)) return end_score;
        if (is_draw(w, pos, ply, ss)) return draw_score(w);
        if (ply >= CHESS_MAX_PLY - 1) return n.in_check ? 0 : node_eval(w, pos, ss);
        alpha = max_int(alpha, -CHESS_MATE + ply);
        beta = min_int(beta, CHESS_MATE - ply - 1);
        if (alpha >= beta) return alpha;
    }

    probe_node(w, pos, ss, &n);
    if (!n.pv_node && !ss->excluded && n.tt_hit && n.tte.depth >= depth &&
        pos->halfmove_clock < 90 &&
        (n.tte.bound & (n.tt_score >= beta ? CHESS_TT_LOWER : CHESS_TT_UPPER)))
        return n.tt_score;

    evaluate_node(w, pos, ss, &n);
    if (!ss->excluded) reward_prior_by_eval(w, pos, ss);
    int early = prune_before_moves(w, pos, ss, &n, alpha, beta);
    if (early != NO_SCORE) return early;
    if (!n.tt_move && depth >= 4 && (n.pv_node || cut_node)) n.depth = --depth;
    search_threats(pos, &ss->threats);

    struct move_picker mp;
    if (!n.root) picker_init_main(&mp, w, pos, ss, n.tt_move);
    struct tried_moves tried = {.quiet_count = 0, .capture_count = 0};
    int best = -INF_SCORE, move_count = 0, root_next = w->pv_index;
    chess_move best_move = CHESS_MOVE_NONE, m;
    while ((m = next_move(w, &mp, pos, &n, &root_next)) != CHESS_MOVE_NONE) {
        if (m == ss->excluded) continue;
        move_count++;
        chess_tt_prefetch(w->sh->tt, position_key_after(pos, m));
        struct chess_position child = *pos;
        chess_position_make_move(&child, m);
        bool gives_check = chess_position_in_check(&child);
        if (!n.root && best > -CHESS_MATE_BOUND && has_non_pawn_material(pos, pos->side) &&
            prune_move(w, pos, ss, &n, &mp, m, move_count, gives_check, alpha))
            continue;

        int ext = 0;
        if (!n.root && depth >= w->sh->params.se_depth && m == n.tt_move && !ss->excluded &&
            (n.tte.bound & CHESS_TT_LOWER) && n.tte.depth >= depth - 3 &&
            n.tt_score > -CHESS_MATE_BOUND && n.tt_score < CHESS_MATE_BOUND) {
            int cut = NO_SCORE;
            ext = singular_extension(w, pos, ss, &n, beta, &cut);
            if (cut != NO_SCORE) return cut;
        } else if (gives_check && ply < 2 * w->root_depth) {
            ext = 1;
        }

        uint64_t nodes_before = atomic_load_explicit(&w->nodes, memory_order_relaxed);
        ss->move_count = move_count; /* after the singular search, which shares this entry */
        enter_child(w, ss, ply, pos, m, &child);
        int r = late_move_reduction(w, pos, ss, &n, m, move_count, gives_check);
        int score = search_child(w, &child, &n, alpha, beta, best, depth - 1 + ext, r, move_count);
        if (atomic_load_explicit(&w->sh->stop, memory_order_relaxed)) return 0;
        if (n.root)
            record_root_move(w, m, score, alpha, beta, move_count,
                             atomic_load_explicit(&w->nodes, memory_order_relaxed) - nodes_before);

        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (n.pv_node) update_pv(w, ply, m);
                if (score >= beta) {
                    ss->cutoff_count += 1 + !n.tt_move;
                    break;
                }
                alpha = score;
            }
        }
        if (m != best_move) {
            if (!move_is_tactical(pos, m) && tried.quiet_count < 64)
                tried.quiets[tried.quiet_count++] = m;
            else if (move_is_tactical(pos, m) && tried.capture_count < 32)
                tried.captures[tried.capture_count++] = m;
        }
    }

    if (move_count == 0) return ss->excluded ? alpha : n.in_check ? -CHESS_MATE + ply : 0;
    if (best >= beta)
        update_stats(w, pos, ss, best_move, &tried, depth);
    else if (!best_move && !ss->excluded)
        reward_prior_on_fail_low(w, pos, ss, &n, best, alpha);
    if (!ss->excluded && !(n.root && w->pv_index > 0)) {
        enum chess_tt_bound bound = best >= beta             ? CHESS_TT_LOWER
                                    : n.pv_node && best_move ? CHESS_TT_EXACT
                                                             : CHESS_TT_UPPER;
        chess_tt_store(w->sh->tt, pos->key, best_move, score_to_tt(best, ply), ss->raw_eval, depth,
                       bound);
        /* A quiet result that the bound does not contradict teaches the correction history. */
        if (!n.in_check && (!best_move || !move_is_tactical(pos, best_move)) &&
            best > -CHESS_MATE_BOUND && best < CHESS_MATE_BOUND &&
            !(bound == CHESS_TT_LOWER && best <= ss->static_eval) &&
            !(bound == CHESS_TT_UPPER && best >= ss->static_eval))
            correction_update(w, pos, depth, best - ss->static_eval);
    }
    return best;
}
