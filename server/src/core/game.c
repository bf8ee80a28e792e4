/*
 * The per-game state machine over struct chess_game. Clocks: nothing runs before Black's first
 * move (ply 2); until then each side has first_move_ms for its first move, or the game is
 * aborted. From ply 2 on, every move presses the clock.
 */
#include "core/game.h"

#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/rating.h"
#include "util/str.h"
#include "util/vec.h"

bool game_daily_days_valid(int days) {
    return days == 1 || days == 2 || days == 3 || days == 5 || days == 7 || days == 14;
}

/* A daily game's deadline in wall-clock time, after its clock (re)started at now/wall. */
static void daily_sync(struct game *game, int64_t now_ms, int64_t wall_ms) {
    if (game->tc.days <= 0) return;
    int64_t mono = gclock_deadline(&game->clock);
    game->deadline_wall_ms = mono == GCLOCK_NEVER ? 0 : wall_ms + (mono - now_ms);
}

static void clear_offers(struct game *game) {
    for (int i = 0; i < GAME_OFFER_COUNT; i++) game->offers[i] = -1;
}

int game_init(struct game *game, const char *id, struct player *white, struct player *black,
              const struct time_control *tc, const struct game_start *start, int64_t lag_comp_ms,
              int64_t first_move_ms, int64_t now_ms, int64_t wall_ms) {
    *game = (struct game){0};
    str_copy(game->id, sizeof game->id, id);
    game->players[CHESS_WHITE] = white;
    game->players[CHESS_BLACK] = black;
    game->tc = *tc;
    game->start = start ? *start : game_start_standard();
    struct chess_position first;
    int rc = game_start_position(&game->start, &first);
    if (rc < 0) return rc;
    if (chess_game_init(&game->chess, &first) < 0) return -CORE_ERR_NO_MEMORY;
    if (tc->days > 0) {
        gclock_init_daily(&game->clock, tc->days * GAME_DAY_MS);
        first_move_ms = 0;
        game->unplayed_deadline = now_ms + GAME_DAILY_UNPLAYED_MS;
    } else {
        gclock_init(&game->clock, tc->unlimited, tc->initial_ms, tc->increment_ms, lag_comp_ms);
        game->unplayed_deadline = GCLOCK_NEVER;
    }
    clear_offers(game);
    game->created_wall_ms = wall_ms;
    game->first_move_ms = first_move_ms;
    game->first_move_deadline =
        first_move_ms > 0 ? now_ms + first_move_ms : game->unplayed_deadline;
    return 0;
}

void game_free(struct game *game) {
    chess_game_free(&game->chess);
    free(game->clock_after);
    for (int i = 0; i < 2; i++) chat_log_free(&game->chat[i]);
}

int game_color_of(const struct game *game, const struct player *player) {
    if (player && game->players[CHESS_WHITE] == player) return CHESS_WHITE;
    if (player && game->players[CHESS_BLACK] == player) return CHESS_BLACK;
    return -1;
}

int game_rating_category(const struct game *game) {
    return (int)rating_category_of_game(game->start.variant, &game->tc);
}

void game_clocks(const struct game *game, int64_t now_ms, int64_t out[2]) {
    out[0] = gclock_remaining(&game->clock, CHESS_WHITE, now_ms);
    out[1] = gclock_remaining(&game->clock, CHESS_BLACK, now_ms);
}

int64_t game_deadline(const struct game *game) {
    if (game->ended) return GCLOCK_NEVER;
    if (game_ply(game) < 2) return game->first_move_deadline;
    return gclock_deadline(&game->clock);
}

void game_finish(struct game *game, enum chess_result result, enum chess_termination why,
                 int64_t now_ms, int64_t wall_ms) {
    if (game->ended) return;
    gclock_stop(&game->clock, now_ms);
    chess_game_end(&game->chess, result, why);
    game->ended = true;
    game->ended_wall_ms = wall_ms;
    game->first_move_deadline = GCLOCK_NEVER;
    game->deadline_wall_ms = 0;
    clear_offers(game);
}

static void finish_on_time(struct game *game, int64_t now_ms, int64_t wall_ms) {
    int loser = game->clock.running;
    int winner = !loser;
    if (chess_position_side_cannot_mate(&game->chess.current, winner)) {
        game_finish(game, CHESS_RESULT_DRAW, CHESS_TERM_TIMEOUT_VS_INSUFFICIENT, now_ms, wall_ms);
    } else {
        enum chess_result r =
            winner == CHESS_WHITE ? CHESS_RESULT_WHITE_WINS : CHESS_RESULT_BLACK_WINS;
        game_finish(game, r, CHESS_TERM_TIMEOUT, now_ms, wall_ms);
    }
}

bool game_on_deadline(struct game *game, int64_t now_ms, int64_t wall_ms) {
    if (game->ended) return false;
    if (game_ply(game) < 2) {
        if (now_ms < game->first_move_deadline) return false;
        game_finish(game, CHESS_RESULT_NONE, CHESS_TERM_ABORTED, now_ms, wall_ms);
        return true;
    }
    if (!gclock_flagged(&game->clock, now_ms)) return false;
    finish_on_time(game, now_ms, wall_ms);
    return true;
}

static int map_chess_error(int rc) {
    switch (-rc) {
        case CHESS_ERR_MOVE_SYNTAX: return -CORE_ERR_MOVE_SYNTAX;
        case CHESS_ERR_MOVE_AMBIGUOUS: return -CORE_ERR_AMBIGUOUS_MOVE;
        case CHESS_ERR_GAME_OVER: return -CORE_ERR_GAME_OVER;
        case CHESS_ERR_NO_MEMORY: return -CORE_ERR_NO_MEMORY;
        default: return -CORE_ERR_ILLEGAL_MOVE;
    }
}

static int record_clock(struct game *game, int ply, int64_t remaining) {
    if (vec_reserve((void **)&game->clock_after, &game->clock_capacity, (size_t)ply,
                    sizeof *game->clock_after, 64) < 0)
        return -CORE_ERR_NO_MEMORY;
    game->clock_after[ply - 1] = remaining;
    return 0;
}

/* After the ply count changed: which timer runs. */
static void restart_timers(struct game *game, int64_t now_ms, int64_t wall_ms) {
    if (game_ply(game) >= 2) {
        game->first_move_deadline = GCLOCK_NEVER;
        gclock_start(&game->clock, game_turn(game), now_ms);
    } else {
        gclock_stop(&game->clock, now_ms);
        game->first_move_deadline =
            game->first_move_ms > 0 ? now_ms + game->first_move_ms : game->unplayed_deadline;
    }
    daily_sync(game, now_ms, wall_ms);
}

int game_move(struct game *game, int color, const char *text, int expected_ply,
              const struct gclock_report *report, int64_t now_ms, int64_t wall_ms,
              struct game_move_info *info) {
    if (game->ended) return -CORE_ERR_GAME_OVER;
    if (game_turn(game) != color) return -CORE_ERR_NOT_YOUR_TURN;
    if (expected_ply >= 0 && expected_ply != game_ply(game)) return -CORE_ERR_STALE_PLY;
    /* Its compensation must cover an overrun: checked before anything changes. */
    if (!gclock_in_time(&game->clock, now_ms, report)) {
        finish_on_time(game, now_ms, wall_ms);
        return -CORE_ERR_GAME_OVER;
    }
    /* Reserve the clock record first, so a failure leaves the game untouched. */
    int rc = record_clock(game, game_ply(game) + 1, 0);
    if (rc < 0) return rc;
    struct chess_move_record record;
    rc = chess_game_play_record(&game->chess, text, &record);
    if (rc < 0) return map_chess_error(rc);

    int64_t charged = 0;
    if (game->clock.running >= 0) {
        charged = gclock_press(&game->clock, now_ms, report); /* covered: checked above */
        daily_sync(game, now_ms, wall_ms);
    } else {
        restart_timers(game, now_ms, wall_ms);
    }
    /* A daily game keeps the time the mover had left when it moved (its next period is fresh). */
    game->clock_after[game_ply(game) - 1] = game->clock.per_move_ms > 0
                                                ? game->clock.per_move_ms - charged
                                                : game->clock.remaining_ms[color];
    game->offers[GAME_OFFER_TAKEBACK] = -1;
    if (game->offers[GAME_OFFER_DRAW] == !color) game->offers[GAME_OFFER_DRAW] = -1;

    info->ply = game_ply(game);
    info->move = record.move;
    memcpy(info->uci, record.uci, sizeof info->uci);
    memcpy(info->san, record.san, sizeof info->san);
    if (game->chess.result != CHESS_RESULT_NONE) {
        enum chess_result r = game->chess.result;
        enum chess_termination why = game->chess.termination;
        game->chess.result = CHESS_RESULT_NONE; /* let game_finish record it once */
        game_finish(game, r, why, now_ms, wall_ms);
    }
    game_clocks(game, now_ms, info->clock_ms);
    info->deadline_wall_ms = game->deadline_wall_ms;
    return 0;
}

int game_resign(struct game *game, int color, int64_t now_ms, int64_t wall_ms) {
    if (game->ended) return -CORE_ERR_GAME_OVER;
    game_finish(game, color == CHESS_WHITE ? CHESS_RESULT_BLACK_WINS : CHESS_RESULT_WHITE_WINS,
                CHESS_TERM_RESIGNATION, now_ms, wall_ms);
    return 0;
}

int game_abort(struct game *game, int64_t now_ms, int64_t wall_ms) {
    if (game->ended) return -CORE_ERR_GAME_OVER;
    if (game_ply(game) >= 2) return -CORE_ERR_TOO_LATE_TO_ABORT;
    game_finish(game, CHESS_RESULT_NONE, CHESS_TERM_ABORTED, now_ms, wall_ms);
    return 0;
}

int game_give_time(struct game *game, int color) {
    if (game->ended) return -CORE_ERR_GAME_OVER;
    if (game->tc.unlimited || game->tc.days > 0 || game_ply(game) < 2)
        return -CORE_ERR_CANNOT_GIVE_TIME;
    gclock_give(&game->clock, !color, GAME_GIVE_TIME_MS);
    return 0;
}

int game_berserk(struct game *game, int color) {
    bool moved = game_ply(game) > color; /* White's first move is ply 1, Black's ply 2 */
    if (!game->arena_id[0] || game->ended || game->tc.unlimited || game->tc.days > 0 || moved ||
        game->berserk[color])
        return -CORE_ERR_BERSERK_NOT_ALLOWED;
    game->berserk[color] = true;
    gclock_berserk(&game->clock, color);
    return 0;
}

void game_restore_berserk(struct game *game, int color) {
    game->berserk[color] = true;
    if (game_ply(game) > color) {
        game->clock.no_increment[color] = true;
        return;
    }
    gclock_berserk(&game->clock, color);
}

int game_claim_draw(struct game *game, int64_t now_ms, int64_t wall_ms) {
    if (game->ended) return -CORE_ERR_GAME_OVER;
    enum chess_termination why = chess_game_claimable_draw(&game->chess);
    if (why == CHESS_TERM_NONE) return -CORE_ERR_NO_DRAW_TO_CLAIM;
    game_finish(game, CHESS_RESULT_DRAW, why, now_ms, wall_ms);
    return 0;
}

/* Plies a takeback by `color` would undo: its last move and the reply after it, if any. */
static int takeback_plies(const struct game *game, int color) {
    int ply = game_ply(game);
    /* The colour's last move is the ply whose mover is `color`: White makes odd plies. */
    int last = (ply % 2 == 1) == (color == CHESS_WHITE) ? ply : ply - 1;
    return last >= 1 ? ply - last + 1 : 0;
}

int game_offer(struct game *game, enum game_offer kind, int color) {
    if (kind == GAME_OFFER_REMATCH) {
        if (!game->ended) return -CORE_ERR_GAME_NOT_OVER;
    } else if (game->ended) {
        return -CORE_ERR_GAME_OVER;
    }
    if (game->offers[kind] == color) return -CORE_ERR_OFFER_PENDING;
    if (kind == GAME_OFFER_TAKEBACK && takeback_plies(game, color) == 0)
        return -CORE_ERR_NOTHING_TO_TAKE_BACK;
    game->offers[kind] = color;
    return 0;
}

int game_decline(struct game *game, enum game_offer kind, int color) {
    if (game->offers[kind] != !color) return -CORE_ERR_NO_OFFER;
    game->offers[kind] = -1;
    return 0;
}

int game_accept(struct game *game, enum game_offer kind, int color, int64_t now_ms, int64_t wall_ms,
                int *undone) {
    if (kind != GAME_OFFER_REMATCH && game->ended) return -CORE_ERR_GAME_OVER;
    if (game->offers[kind] != !color) return -CORE_ERR_NO_OFFER;
    game->offers[kind] = -1;
    *undone = 0;
    if (kind == GAME_OFFER_DRAW) {
        game_finish(game, CHESS_RESULT_DRAW, CHESS_TERM_AGREEMENT, now_ms, wall_ms);
    } else if (kind == GAME_OFFER_TAKEBACK) {
        int n = takeback_plies(game, !color);
        for (int i = 0; i < n; i++) {
            if (chess_game_undo(&game->chess) < 0) break;
            (*undone)++;
        }
        /* The side that was thinking is charged; the time is not given back. */
        gclock_stop(&game->clock, now_ms);
        restart_timers(game, now_ms, wall_ms);
        game->offers[GAME_OFFER_DRAW] = -1;
    }
    return 0;
}
