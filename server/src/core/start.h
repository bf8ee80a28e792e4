/*
 * How a game starts: its variant, as lichess keys them, and its first position. Standard chess
 * from the usual array; Chess960 from one of its 960 arrays (Scharnagl's numbers, 518 being the
 * usual one), castling written king-takes-rook; "fromPosition": standard rules from a FEN a
 * player gave; Three-check and King of the Hill from the usual array under their own rules.
 *
 * Pure functions over the engine; any thread.
 */
#ifndef SERVER_CORE_START_H
#define SERVER_CORE_START_H

#include <stdbool.h>

#include "chess/position.h"
#include "core/types.h"

enum game_variant {
    GAME_VARIANT_STANDARD = 0,
    GAME_VARIANT_CHESS960,
    GAME_VARIANT_FROM_POSITION,
    GAME_VARIANT_THREE_CHECK,
    GAME_VARIANT_KING_OF_THE_HILL,
    GAME_VARIANT_COUNT
};

#define GAME_FEN_MAX           100 /* bytes of a start FEN with its NUL (CHESS_FEN_MAX) */
#define GAME_CHESS960_N        960
#define GAME_CHESS960_STANDARD 518 /* the usual array's number */

struct game_start {
    enum game_variant variant;
    int chess960;           /* CHESS960: the array's number, 0..959 */
    char fen[GAME_FEN_MAX]; /* FROM_POSITION: the position, as game_start_check() rewrote it;
                               THREE_CHECK, KING_OF_THE_HILL: the first position of a stored
                               game, "" for the usual array */
};

/* "standard", "chess960", "fromPosition", "threeCheck", "kingOfTheHill"; NULL out of range. */
const char *game_variant_key(enum game_variant variant);

/* lichess's names: "Standard", "Chess960", "From Position", "Three-check", "King of the Hill". */
const char *game_variant_name(enum game_variant variant);

/* The PGN Variant tag lichess writes for a variant ("Three-check", "From Position"...); NULL for
 * standard chess and for Chess960, whose tag the engine writes from the start position. */
const char *game_variant_pgn_tag(enum game_variant variant);

/* The variant of a key (as game_variant_key spells it), or -1. */
int game_variant_parse(const char *key);

/* The standard start. */
struct game_start game_start_standard(void);

/*
 * Checks a start a player asked for and completes it: a FROM_POSITION FEN must be a legal
 * position (-CORE_ERR_BAD_POSITION) in which the side to move has a move (-CORE_ERR_POSITION_OVER);
 * it is rewritten as the engine writes it (a FEN that is the standard start stays fromPosition).
 * A CHESS960 number out of 0..959 is -CORE_ERR_BAD_POSITION. Returns 0 or the error.
 */
int game_start_check(struct game_start *start);

/* The start's first position, under its variant's rules. Returns 0 or -CORE_ERR_BAD_POSITION
 * (a start game_start_check() would refuse). */
int game_start_position(const struct game_start *start, struct chess_position *pos);

/* The start of a stored game from its variant key and initial FEN ("" for the usual array):
 * Chess960's number is found from the FEN; a Three-check or King of the Hill game (imported)
 * may start from any position of its variant. Returns 0 or -CORE_ERR_BAD_POSITION. */
int game_start_restore(const char *variant_key, const char *initial_fen, struct game_start *out);

/* Whether games of this start count for ratings (every variant but fromPosition, as lichess). */
bool game_start_ratable(const struct game_start *start);

#endif
