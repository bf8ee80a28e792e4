/*
 * nnue_data: turns datagen's text positions into the fixed-size binary records that the NNUE
 * trainer (engine/tools/nnue_train.c) reads.
 *
 *   nnue_data [--max-halfmove N] OUT.bin < POSITIONS.txt
 *
 * POSITIONS.txt has lines "FEN | RESULT | SCORE", as datagen writes them. --max-halfmove leaves
 * out the positions whose halfmove clock is N or more: the network cannot see the clock, and in
 * self-play such positions are mostly shuffling in endgames that a shallow search could not
 * convert, whose drawn results teach it that large advantages are draws (docs/engine.md,
 * session 31).
 *
 * One record per position, 72 bytes, little-endian:
 *   uint16 features[32]  white-perspective feature of each piece: colour * 384 +
 *                        (type - 1) * 64 + square; unused entries are 0xFFFF
 *   int16  score         the search's score for white, centipawns
 *   uint8  result        white's result: 0 loss, 1 draw, 2 win
 *   uint8  side          the side to move (0 white, 1 black)
 *   uint8  bucket        the output bucket (engine/src/nnue.h)
 *   uint8  pad[3]
 * Lines that do not parse are counted and skipped; that count and the number left out by the
 * halfmove clock are printed at the end.
 */
#include <chess/fen.h>

#include "nnue.h" /* the feature and bucket of a piece, as the engine computes them */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct record {
    uint16_t features[32];
    int16_t score;
    uint8_t result, side, bucket, pad[3];
};

_Static_assert(sizeof(struct record) == 72, "the record is the trainer's 72-byte layout");

/* 0: a record; 1: a position left out by its halfmove clock; -1: a line that does not parse. */
static int parse_line(char *line, long max_halfmove, struct record *rec) {
    char *bar = strchr(line, '|');
    if (!bar) return -1;
    *bar = '\0';
    char *rest = bar + 1, *bar2 = strchr(rest, '|');
    if (!bar2) return -1;
    double result = strtod(rest, NULL);
    long score = strtol(bar2 + 1, NULL, 10);
    struct chess_position pos;
    if (chess_fen_parse(&pos, line) < 0) return -1;
    if (score < -32000 || score > 32000) return -1;
    if (pos.halfmove_clock >= max_halfmove) return 1;
    memset(rec, 0xFF, sizeof rec->features);
    int n = 0;
    for (int sq = 0; sq < 64; sq++) {
        int piece = pos.board[sq];
        if (piece == CHESS_NO_PIECE) continue;
        if (n == 32) return -1;
        rec->features[n++] = (uint16_t)nnue_feature(CHESS_WHITE, piece, sq);
    }
    rec->score = (int16_t)score;
    rec->result = result > 0.75 ? 2 : result > 0.25 ? 1 : 0;
    rec->side = pos.side;
    rec->bucket = (uint8_t)nnue_bucket(&pos);
    memset(rec->pad, 0, sizeof rec->pad);
    return 0;
}

/* The value of --max-halfmove: a whole number from 1 to 1000, else -1. */
static long parse_max_halfmove(const char *text) {
    char *end;
    long n = strtol(text, &end, 10);
    return *text && !*end && n >= 1 && n <= 1000 ? n : -1;
}

static const char usage[] =
    "usage: nnue_data [--max-halfmove N (1-1000)] OUT.bin < POSITIONS.txt\n";

int main(int argc, char **argv) {
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    long max_halfmove = 100000; /* no limit */
    if (argc == 4 && strcmp(argv[1], "--max-halfmove") == 0) {
        max_halfmove = parse_max_halfmove(argv[2]);
        argv += 2;
        argc -= 2;
    }
    /* An output path that looks like an option is a mistyped option, not a file to create. */
    if (argc != 2 || max_halfmove < 0 || argv[1][0] == '-') {
        fputs(usage, stderr);
        return 2;
    }
    FILE *out = fopen(argv[1], "wb");
    if (!out) {
        fprintf(stderr, "nnue_data: cannot open %s\n", argv[1]);
        return 1;
    }
    char line[512];
    long written = 0, skipped = 0, left_out = 0;
    int rc = 0;
    while (fgets(line, sizeof line, stdin)) {
        struct record rec;
        int parsed = parse_line(line, max_halfmove, &rec);
        if (parsed < 0) skipped++;
        if (parsed > 0) left_out++;
        if (parsed != 0) continue;
        if (fwrite(&rec, sizeof rec, 1, out) != 1) {
            fprintf(stderr, "nnue_data: write failed\n");
            rc = 1;
            break;
        }
        written++;
    }
    if (fclose(out) != 0) rc = 1;
    fprintf(stderr,
            "nnue_data: %ld records, %ld lines skipped, %ld left out by the halfmove clock\n",
            written, skipped, left_out);
    return rc;
}
