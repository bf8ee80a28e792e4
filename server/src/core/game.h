/*
 * One game between two players: the authoritative position and history (struct chess_game from
 * the engine), the clock, pending offers, chat, and the rules the engine does not know: turn and
 * seat checks, clocks starting with Black's first move, the first-move timeout, timeouts
 * (a draw when the winner has no mating material), draw claims, takebacks, abort.
 *
 * Daily (correspondence) games, time_control.days > 0, as lichess plays them: each move gives
 * the mover's opponent a fresh `days` days (core/gclock.h's daily clock; the deadline is also
 * kept in wall-clock time, deadline_wall_ms, which the store keeps so that a restart restores
 * it exactly). The first-move timeout does not apply: as lichess removes a correspondence game
 * in which both sides have not moved a day after its creation, such a game is aborted
 * GAME_DAILY_UNPLAYED_MS after its start. Giving time is refused (CANNOT_GIVE_TIME).
 *
 * The functions here change one game and report what happened through their return value and
 * output parameters; struct world turns that into events. Times are monotonic milliseconds
 * (now_ms) and wall-clock milliseconds (wall_ms), both passed in.
 *
 * Owned by the world (loop thread).
 */
#ifndef SERVER_CORE_GAME_H
#define SERVER_CORE_GAME_H

#include "chess/game.h"
#include "chess/move.h"
#include "chess/san.h"
#include "core/chat.h"
#include "core/gclock.h"
#include "core/openings.h"
#include "core/start.h"
#include "core/types.h"
#include "util/heap.h"

struct player;

enum game_offer { GAME_OFFER_DRAW = 0, GAME_OFFER_TAKEBACK, GAME_OFFER_REMATCH, GAME_OFFER_COUNT };

struct game {
    char id[GAME_ID_LEN + 1];
    struct player *players[2]; /* by enum chess_color; each holds a reference */
    struct time_control tc;
    struct game_start start; /* its variant and first position */
    struct chess_game chess;
    struct gclock clock;
    int64_t *clock_after; /* clock_after[i]: mover's remaining ms after ply i+1 */
    size_t clock_capacity;
    bool ended;
    int offers[GAME_OFFER_COUNT]; /* colour of the pending offer's maker, or -1 */
    uint32_t version;             /* bumped by every event about this game */
    int64_t created_wall_ms;
    const struct openings *openings; /* names its opening (the world's, borrowed), or NULL */
    int64_t ended_wall_ms;
    int64_t first_move_ms;       /* time allowed for each side's first move; 0 = unlimited */
    int64_t first_move_deadline; /* monotonic; GCLOCK_NEVER when not waiting for a first move */
    struct chat_log chat[2];     /* by enum chat_room */
    char rematch_id[GAME_ID_LEN + 1];    /* the rematch's id once it started, else "" */
    bool rated;                          /* counts for ratings (decided when it starts, rating.h) */
    int rating[2];                       /* rated games: both players' ratings at the start */
    int64_t unplayed_deadline;           /* daily: monotonic, aborted unless both sides moved */
    int64_t deadline_wall_ms;            /* daily: wall ms when the side to move's time is up;
                                            0 while no clock runs */
    char arena_id[ARENA_ID_LEN + 1];     /* the arena tournament it is played in, or "" */
    char arena_name[ARENA_NAME_MAX + 1]; /* and its name (the PGN's Event) */
    bool berserk[2];                     /* arena games: the sides that went berserk */

    /* Bookkeeping for struct world (not used by this module). */
    struct heap_node deadline;
    struct game *list_prev, *list_next; /* live list while playing, ended list after */
};

/* What a successful move did, for the move event. */
struct game_move_info {
    int ply; /* the ply the move made (1 = White's first move) */
    chess_move move;
    char uci[CHESS_UCI_MAX];
    char san[CHESS_SAN_MAX];
    int64_t clock_ms[2];      /* both clocks after the move */
    int64_t deadline_wall_ms; /* daily: the side to move's deadline (wall ms); else 0 */
};

#define GAME_DAY_MS            (24LL * 60 * 60 * 1000)
#define GAME_DAILY_UNPLAYED_MS GAME_DAY_MS

/* Whether a daily game's days per move are allowed: 1, 2, 3, 5, 7 or 14, like lichess. */
bool game_daily_days_valid(int days);

/*
 * Sets up a game from its start (NULL: the standard one; a Chess960 start must have its number)
 * with clocks stopped (they start with the second side's first move). Does not take player
 * references: the world does. Returns 0, -CORE_ERR_BAD_POSITION or -CORE_ERR_NO_MEMORY.
 */
int game_init(struct game *game, const char *id, struct player *white, struct player *black,
              const struct time_control *tc, const struct game_start *start, int64_t lag_comp_ms,
              int64_t first_move_ms, int64_t now_ms, int64_t wall_ms);

void game_free(struct game *game);

/* The seat of a player in this game (CHESS_WHITE/CHESS_BLACK), or -1 when not playing. */
int game_color_of(const struct game *game, const struct player *player);

/* The rating category of this game's variant and time control (enum rating_category), or
 * RATING_NONE (-1) when no such game is ever rated. */
int game_rating_category(const struct game *game);

/* The side to move. */
static inline int game_turn(const struct game *game) {
    return game->chess.current.side;
}

static inline int game_ply(const struct game *game) {
    return game->chess.ply_count;
}

/* Both clocks at now (unlimited games: 0). */
void game_clocks(const struct game *game, int64_t now_ms, int64_t out[2]);

/* The next instant at which game_on_deadline() has something to do; GCLOCK_NEVER for none. */
int64_t game_deadline(const struct game *game);

/*
 * Applies timers due at now: a first move not made in time aborts the game, a flag ends it on
 * time. Returns true when the game ended.
 */
bool game_on_deadline(struct game *game, int64_t now_ms, int64_t wall_ms);

/*
 * Plays a move (UCI or SAN) for the given colour. expected_ply (or -1) is the number of plies
 * the client believes were played before its move; report (or NULL) what the client says about
 * its timing (lag compensation, core/gclock.h). Returns 0 and fills *info, or
 * -CORE_ERR_GAME_OVER, -NOT_YOUR_TURN, -STALE_PLY, -MOVE_SYNTAX, -ILLEGAL_MOVE, -AMBIGUOUS_MOVE,
 * -NO_MEMORY. After a successful move game->ended tells whether it ended the game; a move whose
 * compensation does not cover the mover's overrun ends the game on time instead (GAME_OVER, and
 * game->ended set: the caller announces the end).
 */
int game_move(struct game *game, int color, const char *text, int expected_ply,
              const struct gclock_report *report, int64_t now_ms, int64_t wall_ms,
              struct game_move_info *info);

/* Ends the game with a result and reason, stopping the clock and clearing offers. */
void game_finish(struct game *game, enum chess_result result, enum chess_termination why,
                 int64_t now_ms, int64_t wall_ms);

/* Resignation by colour. Returns 0 or -CORE_ERR_GAME_OVER. */
int game_resign(struct game *game, int color, int64_t now_ms, int64_t wall_ms);

/* Abort by either player before both sides have moved. Returns 0, -GAME_OVER or
 * -TOO_LATE_TO_ABORT. */
int game_abort(struct game *game, int64_t now_ms, int64_t wall_ms);

/* The time a player gives its opponent with one press (lichess's "give 15 seconds"). */
#define GAME_GIVE_TIME_MS 15000

/*
 * Colour gives its opponent GAME_GIVE_TIME_MS, in a game in progress with a clock once both
 * sides have moved (before, no clock runs). Returns 0, -GAME_OVER or -CANNOT_GIVE_TIME.
 */
int game_give_time(struct game *game, int color);

/*
 * Colour goes berserk in an arena game (core/arena.h): half its time, no increment. Only in an
 * arena game with a clock (not daily), in progress, before colour's first move, once. Returns 0
 * or -CORE_ERR_BERSERK_NOT_ALLOWED.
 */
int game_berserk(struct game *game, int color);

/* A restored game's berserk side (core/restore.h): no increment, and half its time when it has
 * not moved yet (after its first move its stored clock has it). */
void game_restore_berserk(struct game *game, int color);

/* Claims threefold repetition or the fifty-move rule. Returns 0, -GAME_OVER or
 * -NO_DRAW_TO_CLAIM. */
int game_claim_draw(struct game *game, int64_t now_ms, int64_t wall_ms);

/*
 * Makes an offer by colour. A draw or takeback needs a game in progress (a takeback also a move
 * of the offerer's to take back); a rematch needs an ended game. Returns 0, -GAME_OVER,
 * -GAME_NOT_OVER, -OFFER_PENDING or -NOTHING_TO_TAKE_BACK.
 */
int game_offer(struct game *game, enum game_offer kind, int color);

/* Clears the opponent's pending offer for colour `color`. Returns 0 or -CORE_ERR_NO_OFFER. */
int game_decline(struct game *game, enum game_offer kind, int color);

/*
 * Accepts the opponent's pending offer. A draw ends the game by agreement; a takeback undoes the
 * offerer's last move (and the reply after it, if any), *undone receiving the number of plies;
 * a rematch only clears the offer (the world starts the new game). Returns 0, -NO_OFFER,
 * -GAME_OVER (draw/takeback on an ended game).
 */
int game_accept(struct game *game, enum game_offer kind, int color, int64_t now_ms, int64_t wall_ms,
                int *undone);

/* The colour of a pending offer's maker, or -1. */
static inline int game_offer_by(const struct game *game, enum game_offer kind) {
    return game->offers[kind];
}

#endif
