/*
 * Opening names: a table of named positions read from the text of an ECO file in Scid's format
 * (Debian's scid-data package installs one, /usr/share/scid/data/scid.eco; docs/openings.md),
 * and the name of a game's or a line's opening: the deepest position along the moves that the
 * table names, as lichess does.
 *
 * The file's format: an entry is an ECO code with Scid's optional extension ("B90", "B90a",
 * "A00a1"), a name in double quotes and SAN moves with or without move numbers ("1.e4 c5
 * 2.Nf3"), ended by "*"; an entry may span lines; "#" starts a comment to the end of its line.
 * Each entry's moves are replayed from the standard start and the position they reach is kept
 * by its Zobrist key (the full 64-bit key is stored and compared). An entry without moves (the
 * start position) names nothing. When several entries reach one position the first in the file
 * keeps it: the file lists each position under its own code first and later repeats it to
 * catch move orders of other codes, so the first is the position's own classification. An
 * entry whose code, name or moves cannot be read is skipped and counted; it never fails the
 * whole table.
 *
 * Pure: no file I/O (the caller reads the file). A table is immutable once built: any number of
 * threads may look positions up in it at once without locks; openings_free() only once none
 * does any more.
 */
#ifndef SERVER_CORE_OPENINGS_H
#define SERVER_CORE_OPENINGS_H

#include <stddef.h>
#include <stdint.h>

#include "chess/pgn.h"
#include "chess/position.h"

/* An ECO code as reported: a letter A-E and two digits ("B90"), without Scid's extension. */
#define OPENINGS_ECO_LEN 3
/* The longest name kept (bytes, without the NUL); longer names are cut between characters. */
#define OPENINGS_NAME_MAX 160

struct openings;

/* What building a table found. */
struct openings_stats {
    int entries;        /* entries read (with or without moves) */
    int positions;      /* distinct positions named */
    int duplicates;     /* entries that reached a position an earlier entry names */
    int skipped;        /* entries that could not be read */
    int first_bad_line; /* the line (from 1) where the first skipped entry starts; 0 if none */
};

/* An opening found for moves: its code, its name (borrowed from the table, valid until
 * openings_free()) and the ply after which the named position stands (0: the start itself). */
struct opening {
    char eco[OPENINGS_ECO_LEN + 1];
    const char *name;
    int ply;
};

/*
 * Builds a table from the text of an ECO file (len bytes, need not end with a NUL). Returns the
 * new table (the caller frees it with openings_free()) and fills *stats, or NULL when memory
 * runs out. A text without a single readable entry gives an empty table, not NULL.
 */
struct openings *openings_parse(const char *text, size_t len, struct openings_stats *stats);

void openings_free(struct openings *table);

/* The number of positions the table names (0 for NULL). */
int openings_count(const struct openings *table);

/*
 * The position the table names for a Zobrist key: fills *out (ply 0) and returns 1, or returns
 * 0 when the table (or NULL) does not name it.
 */
int openings_find(const struct openings *table, uint64_t key, struct opening *out);

/*
 * The deepest named position of a line: start, then each of moves[0..count-1] (legal moves of
 * the positions in turn) played. Considers the start itself (ply 0) and each position after a
 * move. Returns 1 and fills *out, 0 when none is named (or table is NULL), or
 * -CORE_ERR_ILLEGAL_MOVE when a move is not legal where it is played (nothing is filled).
 */
int openings_classify(const struct openings *table, const struct chess_position *start,
                      const chess_move *moves, int count, struct opening *out);

/*
 * The opening of a game: openings_classify() from the game's start, when that is the standard
 * start position of standard chess; a game from any other position (a FEN, Chess960, a variant)
 * has none (returns 0).
 */
int openings_classify_game(const struct openings *table, const struct chess_position *start,
                           const chess_move *moves, int count, struct opening *out);

/* Sets the [ECO "B90"] and [Opening "Sicilian: Najdorf"] tags as lichess writes them. Returns
 * 0, or -CORE_ERR_NO_MEMORY. */
int openings_set_pgn_tags(struct chess_pgn *pgn, const struct opening *opening);

#endif
