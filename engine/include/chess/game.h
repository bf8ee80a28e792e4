/*
 * A game: the start position, the moves played, and the Zobrist key after each ply, with the
 * rules that need the history: repetitions, the fifty- and seventy-five-move rules, and the
 * automatic and claimable endings.
 *
 * A struct chess_game owns two growing arrays; chess_game_free() releases them. Not thread-safe:
 * one owner at a time. It also keeps the legal moves of its current position, generated once
 * whenever the position changes: the endings need them (is there any legal move?), and the
 * next move is read, checked and written as SAN against the same list.
 */
#ifndef CHESS_GAME_H
#define CHESS_GAME_H

#include "chess/move.h"
#include "chess/position.h"
#include "chess/san.h"

/* More plies than any game can have under the seventy-five-move rule. */
#define CHESS_GAME_MAX_PLIES 12000

struct chess_game {
    struct chess_position start;
    struct chess_position current;
    chess_move *moves; /* moves[0 .. ply_count-1] */
    uint64_t *keys;    /* keys[i]: key after i plies; keys[0] is the start's */
    int ply_count;
    int capacity;
    enum chess_result result;           /* CHESS_RESULT_NONE while the game goes on */
    enum chess_termination termination; /* why it ended */
    struct chess_move_list legal;       /* the legal moves of current (read-only for users) */
};

/* A move as chess_game_play_record() played it. */
struct chess_move_record {
    chess_move move;
    char uci[CHESS_UCI_MAX]; /* as chess_move_to_uci() writes it */
    char san[CHESS_SAN_MAX]; /* as chess_san_write() writes it, with + or # */
};

/* Starts a game from a position (NULL: the standard start). Returns 0 or -CHESS_ERR_NO_MEMORY. */
int chess_game_init(struct chess_game *game, const struct chess_position *start);

void chess_game_free(struct chess_game *game);

/*
 * Plays a move if it is legal and the game is not over, then applies the automatic endings:
 * the variant's own end (a king on the centre, a third check), checkmate, stalemate, fivefold
 * repetition, seventy-five moves, insufficient material (never in King of the Hill, bare kings
 * only in Three-check).
 * Returns 0, -CHESS_ERR_MOVE_ILLEGAL, -CHESS_ERR_GAME_OVER, -CHESS_ERR_GAME_TOO_LONG or
 * -CHESS_ERR_NO_MEMORY.
 */
int chess_game_play(struct chess_game *game, chess_move move);

/* Plays a move given in UCI or SAN; *move (may be NULL) receives it. Returns as above, and
 * -CHESS_ERR_MOVE_SYNTAX or -CHESS_ERR_MOVE_AMBIGUOUS for text that names no single move. */
int chess_game_play_text(struct chess_game *game, const char *text, chess_move *move);

/*
 * chess_game_play_text() that also writes the move in UCI and SAN into *record (left untouched
 * on error). The legal moves the game keeps serve reading the text and the SAN's
 * disambiguation, and the ones generated after the move serve the endings and the SAN's check
 * mark, so a move costs one generation instead of one each. Same returns.
 */
int chess_game_play_record(struct chess_game *game, const char *text,
                           struct chess_move_record *record);

/* Takes back the last move (and any result it caused). Returns 0 or -CHESS_ERR_MOVE_ILLEGAL. */
int chess_game_undo(struct chess_game *game);

/* How many times the current position has occurred (1 when it is new). */
int chess_game_repetitions(const struct chess_game *game);

/* The draw the side to move may claim now: threefold repetition, fifty moves, or NONE. */
enum chess_termination chess_game_claimable_draw(const struct chess_game *game);

/* Ends the game for a reason the rules do not see (resignation, timeout, agreement, abort). */
void chess_game_end(struct chess_game *game, enum chess_result result,
                    enum chess_termination termination);

/* The position after the first `ply` plies (0 = start). Returns 0, or -CHESS_ERR_MOVE_ILLEGAL
 * when ply is out of range. */
int chess_game_position_at(const struct chess_game *game, int ply, struct chess_position *out);

#endif
