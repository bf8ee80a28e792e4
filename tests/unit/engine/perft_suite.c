/*
 * perft_suite: checks perft counts from an EPD file ("FEN ;D1 n ;D2 n ...").
 *
 *   perft_suite FILE MAX_NODES [VARIANT]
 *
 * VARIANT (standard, kingOfTheHill, threeCheck; default standard) is the rules the FENs are read
 * and played under.
 * For each position it runs the deepest listed depth whose expected count is at most MAX_NODES
 * (at least depth 1), so the suite's run time is bounded however deep the file goes. Prints one
 * line per mismatch and a summary; exits 1 on any mismatch or malformed line. A missing file is
 * skipped (exit code 77, which ctest reports as skipped) with a message saying so.
 */
#define _POSIX_C_SOURCE 200809L

#include <chess/fen.h>
#include <chess/movegen.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SKIP_EXIT_CODE 77

struct depth_count {
    int depth;
    uint64_t nodes;
};

/* Splits "FEN ;D1 20 ;D2 400" into the FEN (in place) and its depth counts. */
static int parse_line(char *line, char **fen, struct depth_count *counts, int max_counts) {
    char *semi = strchr(line, ';');
    if (!semi) return -1;
    *semi = '\0';
    *fen = line;
    int n = 0;
    char *p = semi + 1;
    while (p && *p && n < max_counts) {
        int depth;
        unsigned long long nodes;
        if (sscanf(p, " D%d %llu", &depth, &nodes) != 2) return -1;
        counts[n].depth = depth;
        counts[n].nodes = nodes;
        n++;
        p = strchr(p, ';');
        if (p) p++;
    }
    return n;
}

int main(int argc, char **argv) {
    int variant = argc == 4 ? chess_variant_from_name(argv[3]) : CHESS_VARIANT_STANDARD;
    if ((argc != 3 && argc != 4) || variant < 0) {
        fprintf(stderr, "usage: perft_suite FILE MAX_NODES [standard|kingOfTheHill|threeCheck]\n");
        return 2;
    }
    uint64_t max_nodes = strtoull(argv[2], NULL, 10);
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        printf("SKIPPED: %s: %s (the shared perft suites live in ../shared/perft beside the "
               "project)\n",
               argv[1], strerror(errno));
        return SKIP_EXIT_CODE;
    }
    char line[1024];
    int positions = 0, failures = 0, lineno = 0;
    uint64_t total_nodes = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '\n' || line[0] == '#') continue;
        char *fen;
        struct depth_count counts[16];
        int n = parse_line(line, &fen, counts, 16);
        struct chess_position pos;
        int rc = n > 0 ? chess_fen_parse_variant(&pos, fen, variant) : -1;
        if (rc < 0) {
            printf("FAIL line %d: cannot read position (%s)\n", lineno,
                   n > 0 ? chess_error_name(rc) : "malformed EPD");
            failures++;
            continue;
        }
        int pick = 0;
        for (int i = 1; i < n; i++) {
            if (counts[i].nodes <= max_nodes && counts[i].depth > counts[pick].depth) pick = i;
        }
        uint64_t got = chess_perft(&pos, counts[pick].depth);
        total_nodes += got;
        positions++;
        if (got != counts[pick].nodes) {
            printf("FAIL line %d: %s depth %d: expected %" PRIu64 ", got %" PRIu64 "\n", lineno,
                   fen, counts[pick].depth, counts[pick].nodes, got);
            failures++;
        }
    }
    fclose(f);
    printf("%s: %d positions, %" PRIu64 " nodes, %d mismatches\n", argv[1], positions, total_nodes,
           failures);
    return failures ? 1 : 0;
}
