/*
 * Self-play game records: datagen's compact output (--format games) and nnue_data's input
 * (--games). A game is kept as its moves and the search's scores, 3 bytes a ply, where a text
 * line per position takes about 70 and the binary record 72; compressed with xz the records are
 * small enough to keep in the repository (engine/data/), so that training data builds up from
 * one session to the next instead of being made again. Replaying a game gives exactly the
 * positions, scores and result that datagen's text format would have written.
 *
 * A stream is the 4 bytes "CGR1", then games. A game, little-endian:
 *   uint16 plies        moves in the game, the random opening included (at most
 *                       GAME_RECORD_MAX_PLIES)
 *   uint8  result       for white: 0 lost, 1 drawn, 2 won (as nnue_data's records)
 *   uint8  start_len    0: the standard start position; else the start's FEN follows
 *   char   start[start_len]
 *   uint8  moves[plies] each move's index among the position's legal moves sorted by their UCI
 *                       text, which does not depend on the order move generation produces
 *   int16  scores[plies] the search's score for white (centipawns) in the position before each
 *                       move, or GAME_RECORD_NO_SCORE where that position is not a training
 *                       position (the random opening, checks, captures, mate scores)
 */
#ifndef CHESS_TOOLS_GAME_RECORD_H
#define CHESS_TOOLS_GAME_RECORD_H

#include <chess/fen.h>
#include <chess/position.h>

#include <stdint.h>
#include <stdio.h>

#define GAME_RECORD_MAGIC     "CGR1"
#define GAME_RECORD_MAX_PLIES 1024
#define GAME_RECORD_NO_SCORE  INT16_MIN

struct game_record {
    int plies;
    uint8_t result;
    char start[CHESS_FEN_MAX]; /* "" for the standard start */
    uint8_t moves[GAME_RECORD_MAX_PLIES];
    int16_t scores[GAME_RECORD_MAX_PLIES];
};

/* The index of a legal move among the position's legal moves in UCI order, or -1. */
int game_record_move_index(const struct chess_position *pos, chess_move move);

/* The legal move at an index of that order. Returns 0, or -1 when there is none. */
int game_record_move_at(const struct chess_position *pos, int index, chess_move *move);

/* Writes the stream's magic. Returns 0 or -1. */
int game_record_write_magic(FILE *out);

/* Reads and checks the stream's magic. Returns 0, or -1 when the stream is not game records. */
int game_record_read_magic(FILE *in);

/* Writes one game. Returns 0, or -1 on a write error or a game that does not fit the format. */
int game_record_write(FILE *out, const struct game_record *game);

/* Reads one game. Returns 1, 0 at the end of the stream, or -1 when the stream is cut short or
 * holds something that is not a game. */
int game_record_read(FILE *in, struct game_record *game);

#endif
