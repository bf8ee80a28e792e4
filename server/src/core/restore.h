/*
 * Rebuilding a game in progress from what the store kept (docs/persistence.md): the moves are
 * replayed through the rules, each side's remaining time is its clock after its last move (the
 * initial time before it moved), and the side to move's clock starts again at the moment of
 * the restore: time while the server was down is not charged to anyone. A daily game is the
 * exception (its time is wall-clock time): the side to move's deadline is the one its
 * opponent's last move stored (clock_ms of a daily game's move: the deadline it set, wall ms),
 * and before both sides moved the game is aborted a day after its creation, down or not.
 * Pending offers are not
 * kept; the game's version starts again from the ply count.
 *
 * Pure: no I/O; loop thread (or main before the loop runs).
 */
#ifndef SERVER_CORE_RESTORE_H
#define SERVER_CORE_RESTORE_H

#include "core/game.h"

/* One stored move. */
struct game_restore_move {
    const char *uci;
    bool timed;       /* clock_ms is meaningful */
    int64_t clock_ms; /* the mover's time left after the move; daily games: the deadline
                         (wall ms) the move set for its opponent */
};

/* A stored game in progress. Strings are borrowed for the call. */
struct game_record {
    const char *id;
    const char *initial_fen; /* NULL or "" for the standard start */
    const char *variant;     /* lichess's key (core/start.h); NULL or "": standard */
    struct time_control tc;
    int64_t created_wall_ms;
    bool rated;
    int rating[2];
    const struct game_restore_move *moves;
    int count;
};

/*
 * Sets up *game (uninitialised) from rec for the given players (no references taken, like
 * game_init). Returns 0, -CORE_ERR_ILLEGAL_MOVE when the record does not replay (a bad FEN or
 * move: the record is damaged), or -CORE_ERR_NO_MEMORY; on error nothing is left to free.
 * On success game->ended is true when the last stored move ended the game by the rules (the
 * server stopped between storing the move and storing the end): the caller stores the end.
 */
int game_restore(struct game *game, const struct game_record *rec, struct player *white,
                 struct player *black, int64_t lag_comp_ms, int64_t first_move_ms, int64_t now_ms,
                 int64_t wall_ms);

#endif
