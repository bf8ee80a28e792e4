/*
 * game_restore(): game_init() and the moves replayed with chess_game_play(), then the clock set
 * as game_move() would have left it, except that the running side starts now.
 */
#include "core/restore.h"

#include <stdlib.h>

#include "chess/fen.h"
#include "chess/move.h"
#include "core/errors.h"

static int replay(struct game *g, const struct game_record *rec) {
    if (rec->count > 0) {
        g->clock_after = malloc(sizeof *g->clock_after * (size_t)rec->count);
        if (!g->clock_after) return -CORE_ERR_NO_MEMORY;
        g->clock_capacity = (size_t)rec->count;
    }
    for (int i = 0; i < rec->count; i++) {
        const struct game_restore_move *m = &rec->moves[i];
        chess_move move;
        if (g->chess.result != CHESS_RESULT_NONE ||
            chess_move_from_uci(&g->chess.current, m->uci, &move) < 0)
            return -CORE_ERR_ILLEGAL_MOVE;
        int rc = chess_game_play(&g->chess, move);
        if (rc < 0)
            return rc == -CHESS_ERR_NO_MEMORY ? -CORE_ERR_NO_MEMORY : -CORE_ERR_ILLEGAL_MOVE;
        /* A daily game's clock_ms is a deadline, not the time left after the move. */
        g->clock_after[i] = m->timed && rec->tc.days <= 0 ? m->clock_ms : 0;
    }
    return 0;
}

int game_restore(struct game *g, const struct game_record *rec, struct player *white,
                 struct player *black, int64_t lag_comp_ms, int64_t first_move_ms, int64_t now_ms,
                 int64_t wall_ms) {
    struct game_start start;
    if (game_start_restore(rec->variant, rec->initial_fen, &start) < 0)
        return -CORE_ERR_ILLEGAL_MOVE; /* a start this binary cannot read: damaged */
    int rc = game_init(g, rec->id, white, black, &rec->tc, &start, lag_comp_ms, first_move_ms,
                       now_ms, rec->created_wall_ms);
    if (rc == -CORE_ERR_BAD_POSITION) return -CORE_ERR_ILLEGAL_MOVE;
    if (rc < 0) return rc;
    if ((rc = replay(g, rec)) < 0) {
        game_free(g);
        return rc;
    }
    g->rated = rec->rated;
    g->rating[0] = rec->rating[0];
    g->rating[1] = rec->rating[1];
    g->version = (uint32_t)rec->count;
    /* Each side's time: after its last move, or the initial time. */
    int ply = game_ply(g);
    bool daily = rec->tc.days > 0;
    for (int i = ply - 1; !daily && i >= 0 && i >= ply - 2; i--) {
        int mover =
            ((i % 2 == 0) == (g->chess.start.side == CHESS_WHITE)) ? CHESS_WHITE : CHESS_BLACK;
        if (rec->moves[i].timed) g->clock.remaining_ms[mover] = rec->moves[i].clock_ms;
    }
    if (g->chess.result != CHESS_RESULT_NONE) {
        enum chess_result r = g->chess.result;
        enum chess_termination why = g->chess.termination;
        g->chess.result = CHESS_RESULT_NONE; /* let game_finish record it once */
        game_finish(g, r, why, now_ms, wall_ms);
        return 0;
    }
    if (daily) {
        /* Wall-clock deadlines, whatever happened while the server was down. */
        g->unplayed_deadline = now_ms + (rec->created_wall_ms + GAME_DAILY_UNPLAYED_MS - wall_ms);
        g->first_move_deadline = g->unplayed_deadline;
        if (ply >= 2 && rec->moves[ply - 1].timed) {
            int64_t left = rec->moves[ply - 1].clock_ms - wall_ms;
            g->clock.remaining_ms[game_turn(g)] = left > 0 ? left : 0;
            g->deadline_wall_ms = rec->moves[ply - 1].clock_ms;
        } else if (ply >= 2) {
            g->deadline_wall_ms = wall_ms + g->clock.remaining_ms[game_turn(g)];
        }
    }
    if (ply >= 2) {
        g->first_move_deadline = GCLOCK_NEVER;
        gclock_start(&g->clock, game_turn(g), now_ms);
    }
    return 0;
}
