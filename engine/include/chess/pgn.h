/*
 * PGN (Portable Game Notation): one game with its tags and per-move comments, written with the
 * Seven Tag Roster first, and read back from text holding one or many games.
 *
 * A struct chess_pgn owns its tags, comments and game; chess_pgn_free() releases them all.
 */
#ifndef CHESS_PGN_H
#define CHESS_PGN_H

#include <stddef.h>

#include "chess/game.h"

struct chess_pgn_tag {
    char *name;
    char *value;
};

/* What a writer adds to a move (chess_pgn_annotate). */
struct chess_pgn_annotation {
    int nag;          /* a Numeric Annotation Glyph ($2 "?", $4 "??", $6 "?!"...); 0 for none */
    chess_move *line; /* a line played instead of the move, from the position before it */
    int line_length;
};

struct chess_pgn {
    struct chess_pgn_tag *tags; /* in order: the Seven Tag Roster is written first regardless */
    int tag_count;
    int tag_capacity;
    struct chess_game game;
    char **comments; /* comments[i]: comment after ply i (i >= 1), [0]: before the
                        first move; NULL entries for none. Sized game.capacity + 1. */
    int comment_capacity;
    enum chess_result result; /* the result token; for writing, CHESS_RESULT_NONE means the
                                 game's own result */
    struct chess_pgn_annotation *annotations; /* [i]: the move of ply i (i >= 1); sized as
                                                 comments, NULL until the first */
    int annotation_capacity;
};

/* Starts an empty PGN game from a position (NULL: standard start). Returns 0 or -ERR_NO_MEMORY. */
int chess_pgn_init(struct chess_pgn *pgn, const struct chess_position *start);

void chess_pgn_free(struct chess_pgn *pgn);

/* Sets (or replaces) a tag; the strings are copied. Returns 0 or -CHESS_ERR_NO_MEMORY. */
int chess_pgn_set_tag(struct chess_pgn *pgn, const char *name, const char *value);

/* The tag's value, or NULL. The pointer stays owned by pgn. */
const char *chess_pgn_tag(const struct chess_pgn *pgn, const char *name);

/* Sets the comment after ply `ply` (1-based; 0 = before the first move). NULL clears it. The
 * ply must already be played. Returns 0, -CHESS_ERR_MOVE_ILLEGAL (bad ply) or -ERR_NO_MEMORY. */
int chess_pgn_set_comment(struct chess_pgn *pgn, int ply, const char *comment);

/*
 * Annotates the move of ply `ply` (1-based, played already) for writing: a NAG (1..255, 0 for
 * none) written right after it, and a line of moves played instead of it from the position
 * before it (NULL or 0 moves for none; copied), written as a variation after its comment.
 * Returns 0, -CHESS_ERR_MOVE_ILLEGAL (a bad ply or NAG, or a line move that is not legal where it
 * is played) or -CHESS_ERR_NO_MEMORY. Reading skips variations and NAGs, so they do not survive
 * a round trip.
 */
int chess_pgn_annotate(struct chess_pgn *pgn, int ply, int nag, const chess_move *line,
                       int line_length);

/*
 * Writes the game as PGN text into a new malloc'd, NUL-terminated string that the caller frees.
 * Missing roster tags are written as "?" (Date "????.??.??"). Variant "Chess960", SetUp and FEN
 * are written from the game's start position (tags of those names that say otherwise are not
 * written). Returns the length, or -CHESS_ERR_NO_MEMORY.
 */
long chess_pgn_write(const struct chess_pgn *pgn, char **out);

/*
 * Reads the first game in text[0..len): tags, SAN movetext, comments ({} and ;), NAGs, move
 * annotations; recursive variations are skipped. *consumed is set to where the next game
 * starts, or on error to the offset of the offending text. `out` must not be initialised; on
 * success it owns what was read, on error nothing is left to free.
 * Returns 0, -CHESS_ERR_PGN_EMPTY (no game left), -CHESS_ERR_PGN_SYNTAX, a -CHESS_ERR_FEN_* from
 * the FEN tag, or a -CHESS_ERR_MOVE_* for a move that cannot be played.
 */
int chess_pgn_read(const char *text, size_t len, size_t *consumed, struct chess_pgn *out);

#endif
