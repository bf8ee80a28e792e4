/*
 * bench: searches a fixed set of positions to a fixed depth with one thread and a fresh table,
 * then prints the total node count and the speed.
 *
 *   bench [DEPTH [HASH_MB [EVAL]]]      EVAL: nnue (the built-in network, the UCI default) or hce
 *
 * The node total is a signature of the search: it changes only when the search or evaluation
 * changes, so a commit that claims "no functional change" must leave it alone. Nodes per second
 * measure speed on this machine and vary from run to run.
 */
#define _POSIX_C_SOURCE 200809L

#include <chess/fen.h>
#include <chess/move.h>
#include <chess/search.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const bench_positions[] = {
    CHESS_FEN_STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp3ppp/4pn2/2pp4/3P1B2/4PN2/PPP2PPP/RN1QKB1R w KQkq - 0 5",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 8",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/3P4/1P1BPN2/PBPN1PPP/2RQ1RK1 w - - 4 11",
    "r2q1rk1/1p1nbppp/p2pbn2/4p3/4P3/1NN1BP2/PPPQ2PP/2KR1B1R w - - 4 11",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/2P2N1P/PPBN1PP1/R1BQR1K1 w - - 1 13",
    "3r1rk1/p1q2ppp/1pn1p3/2b5/2P1N3/P3BP2/1P2Q1PP/R2R2K1 w - - 0 18",
    "r4rk1/pp3ppp/2n1b3/q1pp2B1/8/P1Q2NP1/1PP1PP1P/2KR3R w - - 0 15",
    "6k1/pp3ppp/4p3/2P5/1P6/P3KP2/6PP/8 w - - 0 30",
    "8/5pk1/6p1/3R4/8/6PP/r4PK1/8 w - - 0 40",
    "8/8/1p2k3/p3p1p1/P1P1P1P1/3K4/8/8 w - - 0 45",
    "4k3/8/8/8/3PK3/8/8/8 w - - 0 1",
    "8/3k4/8/2KP4/8/8/8/8 b - - 0 1",
    "r1bqk2r/ppp2ppp/2n5/3np3/1bB5/2N2N2/PPPP1PPP/R1BQ1RK1 w kq - 0 7",
    "rn1qkb1r/pp3ppp/2p1pn2/3p4/2PP2b1/4PN2/PP1N1PPP/R1BQKB1R w KQkq - 1 6",
    "r2qr1k1/ppp2ppp/2np1n2/2b1p3/2B1P1b1/2PP1N2/PP1N1PPP/R1BQR1K1 w - - 5 9",
    "2kr3r/pppq1ppp/2n1bn2/3p4/3P4/2NBPN2/PP1Q1PPP/R3K2R w KQ - 4 11",
    "5rk1/5ppp/p1Q5/1p6/8/1P2q3/P5PP/5R1K b - - 0 30",
    "1r4k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/4k3/8/2R5/8/4K3/5r2 w - - 0 60",
};

static double now_seconds(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 12;
    int hash_mb = argc > 2 ? atoi(argv[2]) : 16;
    const char *eval = argc > 3 ? argv[3] : "nnue";
    bool nnue = strcmp(eval, "nnue") == 0;
    if (depth < 1 || depth > CHESS_MAX_DEPTH || hash_mb < 1 || (!nnue && strcmp(eval, "hce"))) {
        fprintf(stderr, "usage: bench [DEPTH [HASH_MB [nnue|hce]]]\n");
        return 2;
    }
    struct chess_tt *tt = chess_tt_create((size_t)hash_mb << 20);
    if (!tt) {
        fprintf(stderr, "bench: cannot allocate %d MB\n", hash_mb);
        return 1;
    }
    uint64_t total = 0;
    double start = now_seconds();
    int count = (int)(sizeof bench_positions / sizeof bench_positions[0]);
    for (int i = 0; i < count; i++) {
        struct chess_position pos;
        if (chess_fen_parse(&pos, bench_positions[i]) < 0) {
            fprintf(stderr, "bench: bad FEN %s\n", bench_positions[i]);
            chess_tt_destroy(tt);
            return 1;
        }
        chess_tt_clear(tt);
        struct chess_search_request req;
        chess_search_request_init(&req, &pos);
        req.limits.depth = depth;
        req.nnue = nnue ? chess_nnue_builtin() : NULL;
        struct chess_search_result res;
        if (chess_search(&req, tt, &res) < 0) {
            fprintf(stderr, "bench: out of memory\n");
            chess_tt_destroy(tt);
            return 1;
        }
        char move[CHESS_UCI_MAX];
        chess_move_to_uci(&pos, res.best, move);
        printf("%2d %-6s %6d %12" PRIu64 "  %s\n", i + 1, move, res.score, res.nodes,
               bench_positions[i]);
        total += res.nodes;
    }
    double elapsed = now_seconds() - start;
    printf("===\nnodes %" PRIu64 "\ntime %.3f s\nnps %.0f\n", total, elapsed,
           elapsed > 0 ? (double)total / elapsed : 0.0);
    chess_tt_destroy(tt);
    return 0;
}
