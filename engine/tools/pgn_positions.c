/*
 * pgn_positions: lists every move of every game in PGN files, one line per move, for scripts that
 * analyse games position by position (tests/bench/review_games.py).
 *
 *   pgn_positions FILE.pgn [FILE.pgn ...]
 *
 * Each line is tab-separated: game number (from 1, counted over all files), ply (from 0), the
 * White and Black tags, the Result tag, the FEN before the move and the move in UCI notation.
 * A game that cannot be read stops the listing with a message naming the file and the offset.
 */
#include <chess/fen.h>
#include <chess/move.h>
#include <chess/pgn.h>
#include <chess/position.h>

#include <stdio.h>
#include <stdlib.h>

/* The whole file as a malloc'd buffer, or NULL with a message. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "pgn_positions: cannot open %s\n", path);
        return NULL;
    }
    char *buf = NULL;
    size_t cap = 0, used = 0;
    for (;;) {
        if (used == cap) {
            size_t next = cap ? cap * 2 : 1 << 16;
            char *grown = realloc(buf, next);
            if (!grown) {
                fprintf(stderr, "pgn_positions: out of memory reading %s\n", path);
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap = next;
        }
        size_t got = fread(buf + used, 1, cap - used, f);
        used += got;
        if (got == 0) {
            if (ferror(f)) {
                fprintf(stderr, "pgn_positions: cannot read %s\n", path);
                free(buf);
                buf = NULL;
            }
            break;
        }
    }
    fclose(f);
    *len = used;
    return buf;
}

static const char *tag_or_unknown(const struct chess_pgn *pgn, const char *name) {
    const char *value = chess_pgn_tag(pgn, name);
    return value ? value : "?";
}

/* Lists one game; returns 0, or -1 after a message. */
static int list_game(const struct chess_pgn *pgn, int game_number) {
    struct chess_position pos = pgn->game.start;
    for (int ply = 0; ply < pgn->game.ply_count; ply++) {
        char fen[CHESS_FEN_MAX], uci[CHESS_UCI_MAX];
        chess_move move = pgn->game.moves[ply];
        if (chess_fen_write(&pos, CHESS_FEN_XFEN, fen, sizeof fen) < 0) {
            fprintf(stderr, "pgn_positions: game %d: cannot write the position at ply %d\n",
                    game_number, ply);
            return -1;
        }
        chess_move_to_uci(&pos, move, uci);
        printf("%d\t%d\t%s\t%s\t%s\t%s\t%s\n", game_number, ply, tag_or_unknown(pgn, "White"),
               tag_or_unknown(pgn, "Black"), tag_or_unknown(pgn, "Result"), fen, uci);
        chess_position_make_move(&pos, move);
    }
    return 0;
}

/* Lists the games of one file; returns 0, or -1 after a message. */
static int list_file(const char *path, int *game_number) {
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text) return -1;
    int status = 0;
    size_t offset = 0;
    for (;;) {
        struct chess_pgn pgn;
        size_t consumed = 0;
        int rc = chess_pgn_read(text + offset, len - offset, &consumed, &pgn);
        if (rc == -CHESS_ERR_PGN_EMPTY) break;
        if (rc < 0) {
            fprintf(stderr, "pgn_positions: %s: cannot read the game at offset %zu: %s\n", path,
                    offset + consumed, chess_error_message(rc));
            status = -1;
            break;
        }
        offset += consumed;
        status = list_game(&pgn, ++*game_number);
        chess_pgn_free(&pgn);
        if (status < 0) break;
    }
    free(text);
    return status;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: pgn_positions FILE.pgn [FILE.pgn ...]\n");
        return 2;
    }
    int game_number = 0;
    for (int i = 1; i < argc; i++) {
        if (list_file(argv[i], &game_number) < 0) return 1;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
