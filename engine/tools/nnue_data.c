/*
 * nnue_data: turns datagen's text positions into the fixed-size binary records that the NNUE
 * trainer (engine/tools/nnue_train.c) reads.
 *
 *   nnue_data [--games] [--max-halfmove N] OUT.bin < POSITIONS.txt
 *
 * POSITIONS.txt has lines "FEN | RESULT | SCORE", as datagen writes them; with --games the input
 * is datagen's game records instead (--format games, game_record.h), whose games are replayed
 * into the same positions, e.g. `xz -dc engine/data/FILE.cgr.xz | nnue_data --games OUT.bin`.
 * --max-halfmove leaves out the positions whose halfmove clock is N or more: the network cannot
 * see the clock, and in self-play such positions are mostly shuffling in endgames that a
 * shallow search could not convert, whose drawn results teach it that large advantages are
 * draws (docs/results/engine-nnue-2026-11-29-to-2026-12-06.md, 2026-12-02).
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
 * halfmove clock are printed at the end. Game records that do not replay are an error: the
 * stream is then damaged from that point on.
 */
#include "game_record.h"

#include <chess/fen.h>

#include "nnue.h" /* the feature and bucket of a piece, as the engine computes them */

#include <stdbool.h>
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

/* The outcome of turning one position into a record. */
enum { MADE = 0, LEFT_OUT = 1, BAD = -1 };

/* A position's record, unless its halfmove clock or its score leaves it out. */
static int make_record(const struct chess_position *pos, long score, int result, long max_halfmove,
                       struct record *rec) {
    if (score < -32000 || score > 32000) return BAD;
    if (pos->halfmove_clock >= max_halfmove) return LEFT_OUT;
    memset(rec, 0xFF, sizeof rec->features);
    int n = 0;
    for (int sq = 0; sq < 64; sq++) {
        int piece = pos->board[sq];
        if (piece == CHESS_NO_PIECE) continue;
        if (n == 32) return BAD;
        rec->features[n++] = (uint16_t)nnue_piece_feature(CHESS_WHITE, piece, sq);
    }
    rec->score = (int16_t)score;
    rec->result = (uint8_t)result;
    rec->side = pos->side;
    rec->bucket = (uint8_t)nnue_bucket(pos);
    memset(rec->pad, 0, sizeof rec->pad);
    return MADE;
}

/* One text line "FEN | RESULT | SCORE" into a record. */
static int parse_line(char *line, long max_halfmove, struct record *rec) {
    char *bar = strchr(line, '|');
    if (!bar) return BAD;
    *bar = '\0';
    char *rest = bar + 1, *bar2 = strchr(rest, '|');
    if (!bar2) return BAD;
    double result = strtod(rest, NULL);
    long score = strtol(bar2 + 1, NULL, 10);
    struct chess_position pos;
    if (chess_fen_parse(&pos, line) < 0) return BAD;
    return make_record(&pos, score, result > 0.75 ? 2 : result > 0.25 ? 1 : 0, max_halfmove, rec);
}

/* Counts of what a conversion made and left out. */
struct tally {
    long written, skipped, left_out;
};

static int emit(FILE *out, int outcome, const struct record *rec, struct tally *t) {
    if (outcome == BAD) t->skipped++;
    if (outcome == LEFT_OUT) t->left_out++;
    if (outcome != MADE) return 0;
    if (fwrite(rec, sizeof *rec, 1, out) != 1) {
        fprintf(stderr, "nnue_data: write failed\n");
        return -1;
    }
    t->written++;
    return 0;
}

static int convert_text(FILE *in, FILE *out, long max_halfmove, struct tally *t) {
    char line[512];
    while (fgets(line, sizeof line, in)) {
        struct record rec;
        if (emit(out, parse_line(line, max_halfmove, &rec), &rec, t) < 0) return -1;
    }
    return 0;
}

/* Replays one game record, writing a record for each position that has a score. Returns 0, -1
 * when the game does not replay (a bad start or move), or -2 when writing failed. */
static int replay_game(const struct game_record *g, FILE *out, long max_halfmove, struct tally *t) {
    struct chess_position pos;
    if (chess_fen_parse(&pos, g->start[0] ? g->start : CHESS_FEN_STARTPOS) < 0) return -1;
    for (int i = 0; i < g->plies; i++) {
        if (g->scores[i] != GAME_RECORD_NO_SCORE) {
            struct record rec;
            int made = make_record(&pos, g->scores[i], g->result, max_halfmove, &rec);
            if (emit(out, made, &rec, t) < 0) return -2;
        }
        chess_move m;
        if (game_record_move_at(&pos, g->moves[i], &m) < 0) return -1;
        chess_position_make_move(&pos, m);
    }
    return 0;
}

static int convert_games(FILE *in, FILE *out, long max_halfmove, struct tally *t) {
    if (game_record_read_magic(in) < 0) {
        fprintf(stderr, "nnue_data: the input is not game records\n");
        return -1;
    }
    struct game_record *game = malloc(sizeof *game);
    if (!game) return -1;
    long games = 0;
    int rc;
    while ((rc = game_record_read(in, game)) == 1) {
        int replayed = replay_game(game, out, max_halfmove, t);
        if (replayed == -1) fprintf(stderr, "nnue_data: game %ld does not replay\n", games + 1);
        if (replayed < 0) break;
        games++;
    }
    if (rc < 0) fprintf(stderr, "nnue_data: the input is cut short after %ld games\n", games);
    free(game);
    return rc == 0 ? 0 : -1;
}

/* The value of --max-halfmove: a whole number from 1 to 1000, else -1. */
static long parse_max_halfmove(const char *text) {
    char *end;
    long n = strtol(text, &end, 10);
    return *text && !*end && n >= 1 && n <= 1000 ? n : -1;
}

static const char usage[] =
    "usage: nnue_data [--games] [--max-halfmove N (1-1000)] OUT.bin < POSITIONS.txt\n";

int main(int argc, char **argv) {
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    bool games = argc >= 2 && strcmp(argv[1], "--games") == 0;
    if (games) {
        argv++;
        argc--;
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
    struct tally t = {0, 0, 0};
    int rc = games ? convert_games(stdin, out, max_halfmove, &t)
                   : convert_text(stdin, out, max_halfmove, &t);
    if (fclose(out) != 0) rc = -1;
    fprintf(stderr,
            "nnue_data: %ld records, %ld lines skipped, %ld left out by the halfmove clock\n",
            t.written, t.skipped, t.left_out);
    return rc < 0 ? 1 : 0;
}
