/*
 * NNUE tests: the built-in network has this build's shape; networks from bytes are checked;
 * accumulators brought forward move by move (and over several moves, and across null moves)
 * equal fresh ones over random standard and Chess960 games with every kind of move (and, in a
 * build with king buckets, kings changing bucket); the king buckets' symmetry; colour
 * symmetry; the output layer's SIMD kernels agree with the portable one; a search with the network
 * returns legal moves deterministically; and the trained network's values are sane where the answer
 * is not in doubt (material up, dead draws).
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "nnue.h"
#include "test_mirror.h"
#include "test_random.h"

#include <chess/fen.h>
#include <chess/movegen.h>
#include <chess/search.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static void test_builtin_shape(void) {
    const struct chess_nnue *net = chess_nnue_builtin();
    CHECK(memcmp(net->magic, "CNUE", 4) == 0);
    CHECK_EQ_INT(net->version, NNUE_VERSION);
    CHECK_EQ_INT(net->hidden, NNUE_HIDDEN);
    CHECK_EQ_INT(net->buckets, NNUE_BUCKETS);
    CHECK_EQ_INT(chess_nnue_file_size(), NNUE_FILE_SIZE);
    int out_of_range = 0;
    for (int b = 0; b < NNUE_BUCKETS; b++)
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            out_of_range += abs(net->out_weight[b][i]) > NNUE_OUT_WEIGHT_MAX;
    CHECK_EQ_INT(out_of_range, 0);
}

static void test_create_checks_bytes(void) {
    size_t size = chess_nnue_file_size();
    unsigned char *bytes = malloc(size);
    if (!CHECK(bytes)) return;
    memcpy(bytes, chess_nnue_builtin(), size);
    struct chess_nnue *net = chess_nnue_create(bytes, size);
    CHECK(net != NULL);
    struct chess_position pos;
    chess_position_startpos(&pos);
    if (net)
        CHECK_EQ_INT(chess_nnue_evaluate(net, &pos),
                     chess_nnue_evaluate(chess_nnue_builtin(), &pos));
    chess_nnue_destroy(net);
    CHECK(chess_nnue_create(bytes, size - 1) == NULL);
    CHECK(chess_nnue_create(NULL, size) == NULL);
    bytes[0] = 'X';
    CHECK(chess_nnue_create(bytes, size) == NULL);
    bytes[0] = 'C';
    bytes[8] = 0x7F; /* hidden size */
    CHECK(chess_nnue_create(bytes, size) == NULL);
    free(bytes);
}

#if NNUE_KING_BUCKETS == 1
/* A weighted sum of the network's evaluations of a few positions. */
static int evaluation_sum(const struct chess_nnue *net) {
    static const char *const fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R b KQ - 0 8",
        "8/8/8/4k3/8/8/8/3QK3 w - - 0 1", "8/5pk1/6p1/8/3R4/6P1/5PK1/8 b - - 0 40"};
    int sum = 0;
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        struct chess_position pos;
        if (!CHECK(chess_fen_parse(&pos, fens[i]) == 0)) continue;
        sum += chess_nnue_evaluate(net, &pos) * (int)(i + 1);
    }
    return sum;
}

/*
 * A version 1 file (output weights scaled by 64, not 256) loads as the same network in this
 * version's scale; output weights or biases the output layer could not hold are refused.
 */
static void test_create_converts_version_1(void) {
    size_t size = chess_nnue_file_size();
    struct chess_nnue *v1 = malloc(size), *v2 = malloc(size);
    if (!CHECK(v1 && v2)) goto done;
    memcpy(v2, chess_nnue_builtin(), size);
    /* A version 2 network whose output is a whole multiple of the old scale, and its v1 twin. */
    const int factor = NNUE_QB / NNUE_QB_V1;
    for (int b = 0; b < NNUE_BUCKETS; b++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            v2->out_weight[b][i] = (int16_t)(v2->out_weight[b][i] / factor * factor);
        v2->out_bias[b] = (int16_t)(v2->out_bias[b] / factor * factor);
    }
    memcpy(v1, v2, size);
    v1->version = 1;
    for (int b = 0; b < NNUE_BUCKETS; b++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            v1->out_weight[b][i] = (int16_t)(v2->out_weight[b][i] / factor);
        v1->out_bias[b] = (int16_t)(v2->out_bias[b] / factor);
    }
    struct chess_nnue *from_v1 = chess_nnue_create(v1, size);
    struct chess_nnue *from_v2 = chess_nnue_create(v2, size);
    if (CHECK(from_v1 && from_v2)) {
        CHECK_EQ_INT(from_v1->version, NNUE_VERSION);
        CHECK(memcmp(from_v1, from_v2, size) == 0);
        CHECK_EQ_INT(evaluation_sum(from_v1), evaluation_sum(from_v2));
    }
    chess_nnue_destroy(from_v1);
    chess_nnue_destroy(from_v2);
    /* Out of range: a weight past the limit, a v1 bias that would overflow when scaled. */
    v2->out_weight[3][7] = NNUE_OUT_WEIGHT_MAX + 1;
    CHECK(chess_nnue_create(v2, size) == NULL);
    v2->out_weight[3][7] = -NNUE_OUT_WEIGHT_MAX;
    struct chess_nnue *edge = chess_nnue_create(v2, size);
    CHECK(edge != NULL);
    chess_nnue_destroy(edge);
    v1->out_bias[5] = INT16_MAX / factor + 1;
    CHECK(chess_nnue_create(v1, size) == NULL);
    v1->out_bias[5] = 0;
    v1->out_weight[0][0] = NNUE_OUT_WEIGHT_MAX / factor + 1;
    CHECK(chess_nnue_create(v1, size) == NULL);
    v1->out_weight[0][0] = 0;
    v1->version = 3;
    CHECK(chess_nnue_create(v1, size) == NULL);
done:
    free(v1);
    free(v2);
}
#else
/*
 * A file without king buckets loads with its 768 rows in every bucket and the rest as it is;
 * one of the wrong size, or of version 3 at the flat size, is refused.
 */
static void test_create_copies_flat_file(void) {
    const size_t rows = sizeof(int16_t) * NNUE_FEATURES * NNUE_HIDDEN, header = 16;
    const struct chess_nnue *builtin = chess_nnue_builtin();
    unsigned char *flat = malloc(NNUE_FLAT_FILE_SIZE);
    if (!CHECK(flat)) return;
    /* The built-in network's last bucket as a flat file, version 2. */
    memcpy(flat, builtin, header);
    ((uint32_t *)(void *)flat)[1] = 2;
    memcpy(flat + header, builtin->ft_weight[(NNUE_KING_BUCKETS - 1) * NNUE_FEATURES], rows);
    memcpy(flat + header + rows, builtin->ft_bias, NNUE_FLAT_FILE_SIZE - header - rows);
    struct chess_nnue *net = chess_nnue_create(flat, NNUE_FLAT_FILE_SIZE);
    if (CHECK(net)) {
        CHECK_EQ_INT(net->version, NNUE_VERSION);
        for (int k = 0; k < NNUE_KING_BUCKETS; k++)
            CHECK(memcmp(net->ft_weight[k * NNUE_FEATURES], flat + header, rows) == 0);
        CHECK(memcmp(net->ft_bias, builtin->ft_bias,
                     sizeof *net - offsetof(struct chess_nnue, ft_bias)) == 0);
    }
    chess_nnue_destroy(net);
    CHECK(chess_nnue_create(flat, NNUE_FLAT_FILE_SIZE - 2) == NULL);
    ((uint32_t *)(void *)flat)[1] = 3;
    CHECK(chess_nnue_create(flat, NNUE_FLAT_FILE_SIZE) == NULL);
    free(flat);
}
#endif

/* The king buckets are the same for both colours seen from their own side, and for both wings. */
static void test_king_buckets(void) {
    int asymmetric = 0, used[NNUE_KING_BUCKETS] = {0};
    for (int sq = 0; sq < 64; sq++) {
        int b = nnue_king_bucket(CHESS_WHITE, sq);
        used[b]++;
        asymmetric += b != nnue_king_bucket(CHESS_WHITE, sq ^ 7);
        asymmetric += b != nnue_king_bucket(CHESS_BLACK, sq ^ 56);
    }
    CHECK_EQ_INT(asymmetric, 0);
    for (int k = 0; k < NNUE_KING_BUCKETS; k++) CHECK(used[k] > 0);
#if NNUE_KING_BUCKETS == 4
    CHECK_EQ_INT(nnue_king_bucket(CHESS_WHITE, 6), 0);  /* g1 */
    CHECK_EQ_INT(nnue_king_bucket(CHESS_WHITE, 4), 1);  /* e1 */
    CHECK_EQ_INT(nnue_king_bucket(CHESS_BLACK, 60), 1); /* e8 */
    CHECK_EQ_INT(nnue_king_bucket(CHESS_BLACK, 53), 2); /* f7 */
    CHECK_EQ_INT(nnue_king_bucket(CHESS_WHITE, 28), 3); /* e4 */
#endif
}

static bool same_sums(const struct nnue_accumulator *a, const struct nnue_accumulator *b) {
    return memcmp(a, b, sizeof *a) == 0;
}

/*
 * Random games: after every move the accumulator updated from the previous one, and from the
 * one three plies back, must equal a fresh one; so must one carried across a null move. Counts
 * the kinds of moves seen so that the test knows it covered them.
 */
static void check_incremental_matches_refresh(const struct chess_nnue *net) {
    uint64_t seed = 12345;
    int mismatches = 0, kinds[4] = {0}, captures = 0, bucket_changes = 0;
    static struct nnue_accumulator acc[400], fresh;
    static struct chess_position line[400];
    for (int g = 0; g < 300; g++) {
        struct chess_position *pos = &line[0];
        if (g % 3 == 0)
            chess_position_chess960(pos, (int)(rng_next(&seed) % 960));
        else
            chess_position_startpos(pos);
        nnue_refresh(net, pos, &acc[0]);
        for (int ply = 1; ply < 300; ply++) {
            struct chess_move_list list;
            if (chess_generate_moves(&line[ply - 1], CHESS_GEN_ALL, &list) == 0) break;
            /* Prefer special moves now and then, so that every kind is exercised. */
            chess_move m = list.moves[rng_next(&seed) % (uint64_t)list.count];
            for (int i = 0; i < list.count; i++)
                if (chess_move_kind(list.moves[i]) != CHESS_MOVE_NORMAL && rng_next(&seed) % 2)
                    m = list.moves[i];
            kinds[chess_move_kind(m) >> 14]++;
            captures += chess_position_is_capture(&line[ply - 1], m);
            line[ply] = line[ply - 1];
            chess_position_make_move(&line[ply], m);
            for (int p = 0; p < 2; p++)
                bucket_changes += nnue_position_king_bucket(&line[ply], p) !=
                                  nnue_position_king_bucket(&line[ply - 1], p);
            nnue_refresh(net, &line[ply], &fresh);
            if (!nnue_update(net, &line[ply - 1], &acc[ply - 1], &line[ply], &acc[ply]) ||
                !same_sums(&acc[ply], &fresh))
                mismatches++;
            struct nnue_accumulator far;
            if (ply >= 3 && (!nnue_update(net, &line[ply - 3], &acc[ply - 3], &line[ply], &far) ||
                             !same_sums(&far, &fresh)))
                mismatches++;
            if (!chess_position_in_check(&line[ply])) {
                struct chess_position passed = line[ply];
                struct nnue_accumulator after_null;
                chess_position_make_null_move(&passed);
                if (!nnue_update(net, &line[ply], &acc[ply], &passed, &after_null) ||
                    !same_sums(&after_null, &fresh))
                    mismatches++;
            }
        }
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK(kinds[CHESS_MOVE_CASTLING >> 14] > 20);
    CHECK(kinds[CHESS_MOVE_EN_PASSANT >> 14] > 20);
    CHECK(kinds[CHESS_MOVE_PROMOTION >> 14] > 20);
    CHECK(captures > 1000);
    if (NNUE_KING_BUCKETS > 1) CHECK(bucket_changes > 1000);
}

/*
 * With the built-in network, and (with king buckets) with one whose buckets differ, so that a
 * perspective refreshed or updated with the wrong bucket cannot go unnoticed.
 */
static void test_incremental_matches_refresh(void) {
    check_incremental_matches_refresh(chess_nnue_builtin());
#if NNUE_KING_BUCKETS > 1
    struct chess_nnue *net = chess_nnue_create(chess_nnue_builtin(), NNUE_FILE_SIZE);
    if (!CHECK(net)) return;
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < NNUE_HIDDEN; i++)
            net->ft_weight[f][i] = (int16_t)(net->ft_weight[f][i] + (f / NNUE_FEATURES + 1) * 3);
    check_incremental_matches_refresh(net);
    chess_nnue_destroy(net);
#endif
}

/* Far apart positions: the update declines rather than applying too many changes. */
static void test_update_declines_large_changes(void) {
    const struct chess_nnue *net = chess_nnue_builtin();
    struct chess_position a, b;
    struct nnue_accumulator acc_a, acc_b;
    chess_position_startpos(&a);
    CHECK(chess_fen_parse(&b, "4k3/8/8/8/8/8/8/4K3 w - - 0 1") == 0);
    nnue_refresh(net, &a, &acc_a);
    CHECK(!nnue_update(net, &a, &acc_a, &b, &acc_b));
}

/* The output layer's vector kernels give the portable reference's sum exactly: on random sums
 * (activations outside 0..QA included, as the clamp must handle them) and at the extremes the
 * lanes are sized for (every activation QA, every weight at the limit). */
static void check_output_kernels(const int16_t *us, const int16_t *them, const int16_t *w,
                                 int *compared) {
    int64_t reference = 0;
    if (!CHECK(nnue_output_sum_with(NNUE_KERNEL_PORTABLE, us, them, w, &reference))) return;
    const enum nnue_kernel vector_kernels[] = {NNUE_KERNEL_SSE2, NNUE_KERNEL_AVX2};
    for (int k = 0; k < 2; k++) {
        int64_t sum = 0;
        if (!nnue_output_sum_with(vector_kernels[k], us, them, w, &sum)) continue;
        CHECK(sum == reference);
        (*compared)++;
    }
}

static void test_output_kernels_agree(void) {
    static int16_t us[NNUE_HIDDEN], them[NNUE_HIDDEN], w[2 * NNUE_HIDDEN];
    uint64_t seed = 777;
    int compared = 0;
    for (int trial = 0; trial < 2000; trial++) {
        /* the whole int16 range, or near 0..QA */
        int low = trial % 2 ? INT16_MIN : -250, span = trial % 2 ? 65536 : 700;
        for (int i = 0; i < NNUE_HIDDEN; i++) {
            us[i] = (int16_t)(low + (int)(rng_next(&seed) % (uint64_t)span));
            them[i] = (int16_t)(low + (int)(rng_next(&seed) % (uint64_t)span));
        }
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            w[i] = (int16_t)((int)(rng_next(&seed) % (2 * NNUE_OUT_WEIGHT_MAX + 1)) -
                             NNUE_OUT_WEIGHT_MAX);
        check_output_kernels(us, them, w, &compared);
    }
    for (int sign = -1; sign <= 1; sign += 2) {
        for (int i = 0; i < NNUE_HIDDEN; i++) us[i] = them[i] = NNUE_QA;
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++) w[i] = (int16_t)(sign * NNUE_OUT_WEIGHT_MAX);
        check_output_kernels(us, them, w, &compared);
        int64_t sum = 0;
        CHECK(nnue_output_sum_with(NNUE_KERNEL_PORTABLE, us, them, w, &sum));
        CHECK(sum ==
              (int64_t)sign * 2 * NNUE_HIDDEN * (NNUE_QA * NNUE_QA / 2) * NNUE_OUT_WEIGHT_MAX);
    }
#if defined(__x86_64__)
    CHECK(compared >= 2002); /* SSE2 at least, on every x86-64 CPU */
#endif
}

static void test_symmetry(void) {
    const struct chess_nnue *net = chess_nnue_builtin();
    uint64_t seed = 4242;
    int asymmetric = 0;
    for (int g = 0; g < 300; g++) {
        struct chess_position pos, other;
        chess_position_startpos(&pos);
        int plies = (int)(rng_next(&seed) % 120);
        for (int i = 0; i < plies; i++) {
            struct chess_move_list list;
            if (chess_generate_moves(&pos, CHESS_GEN_ALL, &list) == 0) break;
            chess_position_make_move(&pos, list.moves[rng_next(&seed) % (uint64_t)list.count]);
        }
        char fen[CHESS_FEN_MAX], mirrored[CHESS_FEN_MAX];
        if (!CHECK(chess_fen_write(&pos, CHESS_FEN_XFEN, fen, sizeof fen) > 0 &&
                   mirror_fen(fen, mirrored, sizeof mirrored) == 0 &&
                   chess_fen_parse(&other, mirrored) == 0))
            continue;
        int a = chess_nnue_evaluate(net, &pos), b = chess_nnue_evaluate(net, &other);
        if (a != b) {
            asymmetric++;
            printf("     %s: %d, mirrored %d\n", fen, a, b);
        }
    }
    CHECK_EQ_INT(asymmetric, 0);
}

static int eval_fen(const char *fen) {
    struct chess_position pos;
    if (chess_fen_parse(&pos, fen) < 0) return -99999;
    return chess_nnue_evaluate(chess_nnue_builtin(), &pos);
}

/*
 * The trained network must see what no evaluation may miss. Its scale is squeezed beyond a few
 * pawns (it is trained through sigmoid(0.00628 * score), nearly flat there, and with weight
 * decay; docs/engine.md), so the bounds are for the sign and rough size of large advantages,
 * not their exact value.
 */
static void test_values(void) {
    int start = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    printf("     start %d\n", start);
    CHECK(start > -60 && start < 100);
    /* A queen up (black's queen missing), from either side to move. */
    int white_queen_up = eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    int black_to_move = eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    printf("     queen up %d, to move down a queen %d\n", white_queen_up, black_to_move);
    CHECK(white_queen_up > 300);
    CHECK(black_to_move < -300);
    int rook_up = eval_fen("1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1");
    printf("     rook up %d\n", rook_up);
    CHECK(rook_up > 150);
    int kqk = eval_fen("8/8/2k5/8/8/8/3QK3/8 w - - 0 1");
    int kqk_black = eval_fen("8/8/2k5/8/8/8/3QK3/8 b - - 0 1");
    printf("     KQ v K %d, with the bare king to move %d\n", kqk, kqk_black);
    CHECK(kqk > 150);
    CHECK(kqk_black < -150);
    int kk = eval_fen("8/5k2/8/8/8/8/4K3/8 w - - 0 1");
    printf("     K v K %d\n", kk);
    CHECK(kk > -60 && kk < 60);
}

/* A search with the network: legal best moves, the same twice with one thread at fixed depth. */
static void test_search_with_network(void) {
    static const char *fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    };
    struct chess_tt *tt = chess_tt_create(1u << 20);
    if (!CHECK(tt)) return;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        struct chess_position pos;
        if (!CHECK(chess_fen_parse(&pos, fens[i]) == 0)) continue;
        struct chess_search_result first, second;
        for (int run = 0; run < 2; run++) {
            struct chess_search_request req;
            chess_search_request_init(&req, &pos);
            req.limits.depth = 8;
            req.nnue = chess_nnue_builtin();
            chess_tt_clear(tt);
            CHECK(chess_search(&req, tt, run ? &second : &first) == 0);
        }
        CHECK(chess_position_is_legal(&pos, first.best));
        CHECK_EQ_INT(first.best, second.best);
        CHECK_EQ_INT(first.nodes, second.nodes);
        CHECK_EQ_INT(first.score, second.score);
    }
    /* Mate in one is found with the network as with the hand-written evaluation. */
    struct chess_position pos;
    if (CHECK(chess_fen_parse(&pos, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1") == 0)) {
        struct chess_search_request req;
        chess_search_request_init(&req, &pos);
        req.limits.depth = 4;
        req.nnue = chess_nnue_builtin();
        struct chess_search_result res;
        CHECK(chess_search(&req, tt, &res) == 0);
        CHECK_EQ_INT(res.score, CHESS_MATE - 1);
    }
    chess_tt_destroy(tt);
}

int main(void) {
    RUN(test_builtin_shape);
    RUN(test_create_checks_bytes);
#if NNUE_KING_BUCKETS == 1
    RUN(test_create_converts_version_1);
#else
    RUN(test_create_copies_flat_file);
#endif
    RUN(test_king_buckets);
    RUN(test_incremental_matches_refresh);
    RUN(test_update_declines_large_changes);
    RUN(test_output_kernels_agree);
    RUN(test_symmetry);
    RUN(test_values);
    RUN(test_search_with_network);
    return check_finish();
}
