/*
 * perft: counts the leaf nodes of the legal move tree, to check the move generator against
 * published counts and to measure its speed.
 *
 *   perft [--divide] [--leaf-lists] [--fen FEN] [--moves UCI...] DEPTH
 *
 * Prints the node count, or with --divide the count below each root move first (in UCI), then
 * the total, the time and nodes per second on stderr. The last ply is normally counted without
 * writing the moves out; --leaf-lists generates every leaf's move list instead (the way
 * Stockfish's perft counts), for a like-for-like comparison.
 */
#define _POSIX_C_SOURCE 200809L

#include <chess/fen.h>
#include <chess/move.h>
#include <chess/movegen.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *out) {
    fprintf(out, "usage: perft [--divide] [--leaf-lists] [--fen FEN] [--moves UCI...] DEPTH\n"
                 "  Counts leaf nodes of the legal move tree from the start position or FEN.\n"
                 "  --divide      print the count below each root move\n"
                 "  --leaf-lists  generate the move lists of the last ply instead of counting\n"
                 "  --fen FEN   start from this position (quote it)\n"
                 "  --moves ... play these UCI moves first (up to DEPTH, which comes last)\n");
}

/* Perft that writes out every move list, last ply included. */
static uint64_t perft_lists(const struct chess_position *pos, int depth) {
    if (depth <= 0) return 1;
    struct chess_move_list list;
    chess_generate_moves(pos, CHESS_GEN_ALL, &list);
    if (depth == 1) return (uint64_t)list.count;
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        struct chess_position child = *pos;
        chess_position_make_move(&child, list.moves[i]);
        nodes += perft_lists(&child, depth - 1);
    }
    return nodes;
}

static uint64_t count_nodes(const struct chess_position *pos, int depth, bool leaf_lists) {
    return leaf_lists ? perft_lists(pos, depth) : chess_perft(pos, depth);
}

static double now_seconds(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    struct chess_position pos;
    chess_position_startpos(&pos);
    bool divide = false, leaf_lists = false;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            usage(stdout);
            return 0;
        }
    }
    int i = 1;
    for (; i < argc - 1; i++) {
        if (strcmp(argv[i], "--divide") == 0) {
            divide = true;
        } else if (strcmp(argv[i], "--leaf-lists") == 0) {
            leaf_lists = true;
        } else if (strcmp(argv[i], "--fen") == 0 && i + 1 < argc - 1) {
            int rc = chess_fen_parse(&pos, argv[++i]);
            if (rc < 0) {
                fprintf(stderr, "perft: bad FEN: %s (%s)\n", chess_error_message(rc),
                        chess_error_name(rc));
                return 2;
            }
        } else if (strcmp(argv[i], "--moves") == 0) {
            while (i + 1 < argc - 1 && strncmp(argv[i + 1], "--", 2) != 0) {
                chess_move m;
                int rc = chess_move_from_uci(&pos, argv[++i], &m);
                if (rc < 0) {
                    fprintf(stderr, "perft: move %s: %s\n", argv[i], chess_error_message(rc));
                    return 2;
                }
                chess_position_make_move(&pos, m);
            }
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (i != argc - 1) {
        usage(stderr);
        return 2;
    }
    char *end;
    long depth = strtol(argv[argc - 1], &end, 10);
    if (*end || depth < 0 || depth > 20) {
        fprintf(stderr, "perft: depth must be a number from 0 to 20\n");
        return 2;
    }

    double start = now_seconds();
    uint64_t total = 0;
    if (divide && depth > 0) {
        struct chess_move_list list;
        chess_generate_moves(&pos, CHESS_GEN_ALL, &list);
        for (int m = 0; m < list.count; m++) {
            struct chess_position child = pos;
            chess_position_make_move(&child, list.moves[m]);
            uint64_t n = count_nodes(&child, (int)depth - 1, leaf_lists);
            char uci[CHESS_UCI_MAX];
            chess_move_to_uci(&pos, list.moves[m], uci);
            printf("%s: %llu\n", uci, (unsigned long long)n);
            total += n;
        }
        printf("\n");
    } else {
        total = count_nodes(&pos, (int)depth, leaf_lists);
    }
    double elapsed = now_seconds() - start;
    printf("%llu\n", (unsigned long long)total);
    fprintf(stderr, "time %.3f s, %.0f nodes/s\n", elapsed,
            elapsed > 0 ? (double)total / elapsed : 0.0);
    return 0;
}
