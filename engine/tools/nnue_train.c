/*
 * nnue_train: trains the engine's network (engine/src/nnue.h) on nnue_data's records.
 *
 *   nnue_train --out NET.nnue [--init OLD.nnue | --grow NARROW.nnue] [--epochs N] [--lr X]
 *              [--lambda L] [--eval-lambda E] [--decay D] [--batch B] [--threads T]
 *              [--holdout-frac F] [--mirror 0|1] [--seed S] DATA.bin...
 *   nnue_train --out NET.nnue [--init OLD.nnue | --grow NARROW.nnue] --epochs 0
 *                                            only the starting network, no data needed
 *   nnue_train --net NET.nnue --fen FEN       the float and the quantised evaluation of one FEN
 *
 * The network predicts centipawns (its float output times NNUE_SCALE). The loss is the mean of
 * (sigmoid(K * prediction) - target)^2 with target = lambda * sigmoid(K * search score) +
 * (1 - lambda) * the game's result, both for the side to move, and K the evaluation tuner's
 * constant (tools/tune.c), so that a network and the hand-written evaluation are judged on one
 * scale. Adam (with decoupled weight decay --decay, default 0), batches of B positions, the
 * learning rate falling along a cosine from --lr to 5% of it. The last --holdout-frac of every file
 * (its last games, as datagen writes them in order) is held out; its loss is printed after every
 * epoch, for the float network and for the network as written, its weights rounded to the file's
 * 16-bit steps (what the engine plays), and the network is written after every epoch too.
 * --eval-lambda judges the held-out positions with another blend than training uses (default: the
 * same), to compare runs.
 *
 * --init continues from a network file (dequantised): a later session's new data refines the
 * network the repository carries rather than starting again. --grow starts from a network with
 * fewer hidden neurons (a build with a smaller CHESS_NNUE_HIDDEN), which becomes the first of
 * this build's: the added neurons' output weights start at zero, so training begins from exactly
 * the narrow network's evaluation and the new neurons learn what it misses.
 *
 * Forward and backward passes are written out by hand: the inputs are at most 32 active
 * features of 768, so each position costs a few thousand multiply-adds, done by T threads on
 * their share of each batch with gradients of their own, added up before the update.
 */
#define _POSIX_C_SOURCE 200809L

#include "nnue.h"

#include <chess/eval.h>
#include <chess/fen.h>

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TUNER_K      0.00628 /* per centipawn, tools/tune.c */
#define MAX_THREADS  16
#define OUT_LIMIT    ((float)NNUE_OUT_WEIGHT_MAX / NNUE_QB) /* nnue.c's output lanes stay exact */
#define BIAS_LIMIT   (32767.0f / (NNUE_QA * NNUE_QB))       /* the output bias fits 16 bits */
#define FT_LIMIT     (32767.0f / NNUE_QA / 32.0f)           /* 32 pieces never overflow 16 bits */
#define NO_FEATURE   0xFFFF
#define ADAM_BETA1   0.9f
#define ADAM_BETA2   0.999f
#define ADAM_EPSILON 1e-8f
#define PI           3.14159265358979323846

/* nnue_data's record (tools/nnue_data.c). */
struct record {
    uint16_t features[32];
    int16_t score;
    uint8_t result, side, bucket, pad[3];
};

/* The float network, laid out as the file. */
struct params {
    float ft_weight[NNUE_INPUTS][NNUE_HIDDEN];
    float ft_bias[NNUE_HIDDEN];
    float out_weight[NNUE_BUCKETS][2 * NNUE_HIDDEN];
    float out_bias[NNUE_BUCKETS];
};

#define PARAM_COUNT (sizeof(struct params) / sizeof(float))

struct options {
    const char *out, *init, *grow;
    int epochs, batch, threads;
    double lr, lambda, eval_lambda, holdout_frac, decay;
    bool mirror;
    uint64_t seed;
};

/* One thread's share of a batch: its records, and the gradient and loss it adds up. */
struct job {
    const struct params *net;
    const struct record *const *records;
    int first, count; /* records[0] is the batch's record number `first` */
    double lambda;
    double inv_batch;
    uint64_t mirror_salt; /* 0: no mirroring; else which records are mirrored this epoch */
    bool backward;
    struct params *grad; /* NULL when only the loss is wanted */
    double loss;
};

static double sigmoid(double x) {
    return 1.0 / (1.0 + exp(-x));
}

/* The piece and square of a record's feature (nnue_feature() from white's side, inverted). */
static void record_piece(int feature, int *piece, int *square) {
    int colour = feature / 384, type = (feature % 384) / 64 + 1;
    *piece = CHESS_PIECE(colour, type);
    *square = feature % 64;
}

/*
 * Both perspectives' active features, the side to move's first; returns how many each has.
 * With `mirror` the board is flipped left to right (files a-h reversed), which changes nothing
 * a network without castling inputs may know, and so doubles what the data teaches.
 */
static int record_features(const struct record *r, bool mirror, int us[32], int them[32]) {
    int pieces[32], squares[32], king_square[2] = {0, 0}, n = 0;
    for (int i = 0; i < 32 && r->features[i] != NO_FEATURE; i++, n++) {
        record_piece(r->features[i], &pieces[n], &squares[n]);
        if (mirror) squares[n] ^= 7;
        if (CHESS_PIECE_TYPE(pieces[n]) == CHESS_KING)
            king_square[CHESS_PIECE_COLOR(pieces[n])] = squares[n];
    }
    int us_bucket = nnue_king_bucket(r->side, king_square[r->side]);
    int them_bucket = nnue_king_bucket(r->side ^ 1, king_square[r->side ^ 1]);
    for (int k = 0; k < n; k++) {
        us[k] = nnue_feature(r->side, us_bucket, pieces[k], squares[k]);
        them[k] = nnue_feature(r->side ^ 1, them_bucket, pieces[k], squares[k]);
    }
    return n;
}

/* The target for the side to move. */
static double record_target(const struct record *r, double lambda) {
    double score = r->side == CHESS_WHITE ? r->score : -r->score;
    double result = r->result / 2.0;
    if (r->side != CHESS_WHITE) result = 1.0 - result;
    return lambda * sigmoid(TUNER_K * score) + (1.0 - lambda) * result;
}

static void sum_features(const struct params *net, const int *features, int n, float *acc) {
    memcpy(acc, net->ft_bias, sizeof net->ft_bias);
    for (int k = 0; k < n; k++) {
        const float *row = net->ft_weight[features[k]];
        for (int i = 0; i < NNUE_HIDDEN; i++) acc[i] += row[i];
    }
}

/* The float network's output (centipawns / NNUE_SCALE) and, kept for backward, the sums. */
static float forward(const struct params *net, const int *us, const int *them, int n, int bucket,
                     float acc[2][NNUE_HIDDEN]) {
    sum_features(net, us, n, acc[0]);
    sum_features(net, them, n, acc[1]);
    const float *w = net->out_weight[bucket];
    float out = net->out_bias[bucket];
    for (int h = 0; h < 2; h++) {
        for (int i = 0; i < NNUE_HIDDEN; i++) {
            float c = acc[h][i] < 0 ? 0 : acc[h][i] > 1 ? 1 : acc[h][i];
            out += c * c * w[h * NNUE_HIDDEN + i];
        }
    }
    return out;
}

static void backward(const struct params *net, struct params *grad, const int *us, const int *them,
                     int n, int bucket, float acc[2][NNUE_HIDDEN], float d_out) {
    const float *w = net->out_weight[bucket];
    float *gw = grad->out_weight[bucket];
    grad->out_bias[bucket] += d_out;
    const int *features[2] = {us, them};
    float d_acc[NNUE_HIDDEN];
    for (int h = 0; h < 2; h++) {
        for (int i = 0; i < NNUE_HIDDEN; i++) {
            float x = acc[h][i];
            bool live = x > 0 && x < 1;
            float c = x < 0 ? 0 : x > 1 ? 1 : x;
            gw[h * NNUE_HIDDEN + i] += d_out * c * c;
            d_acc[i] = live ? d_out * w[h * NNUE_HIDDEN + i] * 2 * x : 0;
            grad->ft_bias[i] += d_acc[i];
        }
        for (int k = 0; k < n; k++) {
            float *row = grad->ft_weight[features[h][k]];
            for (int i = 0; i < NNUE_HIDDEN; i++) row[i] += d_acc[i];
        }
    }
}

static void *run_job(void *arg) {
    struct job *job = arg;
    const double scale = NNUE_SCALE * TUNER_K;
    job->loss = 0;
    for (int j = 0; j < job->count; j++) {
        const struct record *r = job->records[j];
        int us[32], them[32];
        /* Which records are mirrored depends on the batch's salt and their place in the batch
         * only, so a run is repeatable from its --seed. */
        uint64_t index = (uint64_t)(job->first + j);
        bool mirror =
            job->mirror_salt && ((index ^ job->mirror_salt) * 0x9E3779B97F4A7C15ull) >> 63;
        int n = record_features(r, mirror, us, them);
        float acc[2][NNUE_HIDDEN];
        float out = forward(job->net, us, them, n, r->bucket, acc);
        double pred = sigmoid(out * scale), err = pred - record_target(r, job->lambda);
        job->loss += err * err;
        if (!job->backward) continue;
        float d_out = (float)(2.0 * err * pred * (1.0 - pred) * scale * job->inv_batch);
        backward(job->net, job->grad, us, them, n, r->bucket, acc, d_out);
    }
    return NULL;
}

/* Runs `count` records through the network on up to `threads` threads; returns the loss sum. */
static double run_batch(const struct params *net, const struct record *const *records, int count,
                        double lambda, int threads, struct params **grads, uint64_t mirror_salt) {
    bool backward_pass = grads != NULL;
    struct job jobs[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    int per = (count + threads - 1) / threads, used = 0;
    for (int t = 0; t < threads && t * per < count; t++, used++) {
        int first = t * per, n = first + per > count ? count - first : per;
        jobs[t] = (struct job){net,
                               records + first,
                               first,
                               n,
                               lambda,
                               1.0 / count,
                               mirror_salt,
                               backward_pass,
                               backward_pass ? grads[t] : NULL,
                               0};
        if (backward_pass) memset(grads[t], 0, sizeof *grads[t]);
        /* Thread 0's share runs here once the others are going; a thread that cannot start
         * runs its share here as well. */
        if (t > 0) started[t] = pthread_create(&tid[t], NULL, run_job, &jobs[t]) == 0;
    }
    double loss = 0;
    for (int t = 0; t < used; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            run_job(&jobs[t]);
        loss += jobs[t].loss;
    }
    return loss;
}

static double holdout_loss(const struct params *net, const struct record *const *records,
                           long count, double lambda, int threads) {
    double loss = 0;
    for (long i = 0; i < count; i += 65536) {
        int n = count - i < 65536 ? (int)(count - i) : 65536;
        loss += run_batch(net, records + i, n, lambda, threads, NULL, 0);
    }
    return count ? loss / (double)count : 0;
}

/* The record's position (no castling rights or en passant square: the record has none). */
static int record_position(const struct record *r, struct chess_position *pos) {
    static const char letters[] = " pnbrqk";
    char board[64];
    memset(board, 0, sizeof board);
    for (int i = 0; i < 32 && r->features[i] != NO_FEATURE; i++) {
        int piece, sq;
        record_piece(r->features[i], &piece, &sq);
        char c = letters[CHESS_PIECE_TYPE(piece)];
        board[sq] = CHESS_PIECE_COLOR(piece) == CHESS_WHITE ? (char)(c - 'a' + 'A') : c;
    }
    char fen[128];
    int len = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            char c = board[rank * 8 + file];
            if (!c) {
                empty++;
                continue;
            }
            if (empty) fen[len++] = (char)('0' + empty);
            empty = 0;
            fen[len++] = c;
        }
        if (empty) fen[len++] = (char)('0' + empty);
        if (rank) fen[len++] = '/';
    }
    snprintf(fen + len, sizeof fen - (size_t)len, " %c - - 0 1",
             r->side == CHESS_WHITE ? 'w' : 'b');
    return chess_fen_parse(pos, fen);
}

/* The hand-written evaluation's loss on the same positions: the yardstick a network must beat. */
static double hce_loss(const struct record *const *records, long count, double lambda) {
    double loss = 0;
    long n = 0;
    for (long i = 0; i < count; i++) {
        struct chess_position pos;
        if (record_position(records[i], &pos) < 0) continue;
        double err = sigmoid(TUNER_K * chess_evaluate(&pos)) - record_target(records[i], lambda);
        loss += err * err;
        n++;
    }
    return n ? loss / (double)n : 0;
}

/* Adam with decoupled weight decay (AdamW): each step also shrinks every weight by lr * decay. */
static void adam_step(float *p, const float *g, float *m, float *v, size_t n, float lr, float decay,
                      long t) {
    float c1 = 1.0f - powf(ADAM_BETA1, (float)t), c2 = 1.0f - powf(ADAM_BETA2, (float)t);
    for (size_t i = 0; i < n; i++) {
        p[i] -= lr * decay * p[i];
        m[i] = ADAM_BETA1 * m[i] + (1 - ADAM_BETA1) * g[i];
        v[i] = ADAM_BETA2 * v[i] + (1 - ADAM_BETA2) * g[i] * g[i];
        p[i] -= lr * (m[i] / c1) / (sqrtf(v[i] / c2) + ADAM_EPSILON);
    }
}

static void clip(struct params *net) {
    float *ft = &net->ft_weight[0][0];
    for (size_t i = 0; i < (size_t)NNUE_INPUTS * NNUE_HIDDEN; i++)
        ft[i] = ft[i] > FT_LIMIT ? FT_LIMIT : ft[i] < -FT_LIMIT ? -FT_LIMIT : ft[i];
    float *out = &net->out_weight[0][0];
    for (size_t i = 0; i < (size_t)NNUE_BUCKETS * 2 * NNUE_HIDDEN; i++)
        out[i] = out[i] > OUT_LIMIT ? OUT_LIMIT : out[i] < -OUT_LIMIT ? -OUT_LIMIT : out[i];
    for (int b = 0; b < NNUE_BUCKETS; b++) {
        float x = net->out_bias[b];
        net->out_bias[b] = x > BIAS_LIMIT ? BIAS_LIMIT : x < -BIAS_LIMIT ? -BIAS_LIMIT : x;
    }
}

/* ---- random numbers, initialisation, files ---- */

static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float rng_uniform(uint64_t *s) {
    return (float)((rng_next(s) >> 11) * (1.0 / 9007199254740992.0));
}

static void init_random(struct params *net, uint64_t seed) {
    float *ft = &net->ft_weight[0][0];
    for (size_t i = 0; i < (size_t)NNUE_INPUTS * NNUE_HIDDEN; i++)
        ft[i] = (rng_uniform(&seed) * 2 - 1) * 0.17f;
    for (int i = 0; i < NNUE_HIDDEN; i++) net->ft_bias[i] = 0.1f;
    float *out = &net->out_weight[0][0];
    for (size_t i = 0; i < (size_t)NNUE_BUCKETS * 2 * NNUE_HIDDEN; i++)
        out[i] = (rng_uniform(&seed) * 2 - 1) * 0.05f;
    memset(net->out_bias, 0, sizeof net->out_bias);
}

static int16_t quantise(float x, float scale, int lo, int hi) {
    float v = roundf(x * scale);
    return (int16_t)(v < (float)lo ? lo : v > (float)hi ? hi : v);
}

static void to_file_layout(const struct params *p, struct chess_nnue *net) {
    memcpy(net->magic, "CNUE", 4);
    net->version = NNUE_VERSION;
    net->hidden = NNUE_HIDDEN;
    net->buckets = NNUE_BUCKETS;
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < NNUE_HIDDEN; i++)
            net->ft_weight[f][i] = quantise(p->ft_weight[f][i], NNUE_QA, -32768, 32767);
    for (int i = 0; i < NNUE_HIDDEN; i++)
        net->ft_bias[i] = quantise(p->ft_bias[i], NNUE_QA, -32768, 32767);
    for (int b = 0; b < NNUE_BUCKETS; b++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            net->out_weight[b][i] =
                quantise(p->out_weight[b][i], NNUE_QB, -NNUE_OUT_WEIGHT_MAX, NNUE_OUT_WEIGHT_MAX);
        net->out_bias[b] = quantise(p->out_bias[b], NNUE_QA * NNUE_QB, -32768, 32767);
    }
}

static void from_file_layout(const struct chess_nnue *net, struct params *p) {
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < NNUE_HIDDEN; i++)
            p->ft_weight[f][i] = net->ft_weight[f][i] / (float)NNUE_QA;
    for (int i = 0; i < NNUE_HIDDEN; i++) p->ft_bias[i] = net->ft_bias[i] / (float)NNUE_QA;
    for (int b = 0; b < NNUE_BUCKETS; b++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            p->out_weight[b][i] = net->out_weight[b][i] / (float)NNUE_QB;
        p->out_bias[b] = net->out_bias[b] / (float)(NNUE_QA * NNUE_QB);
    }
}

/* q = p with every weight rounded to what the network file can hold: what the engine plays. */
static void round_to_file(const struct params *p, struct params *q, struct chess_nnue *scratch) {
    to_file_layout(p, scratch);
    from_file_layout(scratch, q);
}

static int write_network(const char *path, const struct params *p) {
    struct chess_nnue *net = malloc(sizeof *net);
    if (!net) return -1;
    to_file_layout(p, net);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    int rc = f && fwrite(net, sizeof *net, 1, f) == 1 ? 0 : -1;
    if (f && fclose(f) != 0) rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    free(net);
    return rc;
}

static void *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *data = NULL;
    size_t cap = 0, len = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 1u << 20;
            char *grown = realloc(data, cap);
            if (!grown) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = grown;
        }
        size_t got = fread(data + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    fclose(f);
    *size = len;
    return data;
}

static int read_network(const char *path, struct params *p) {
    size_t size = 0;
    void *bytes = read_file(path, &size);
    struct chess_nnue *net = bytes ? chess_nnue_create(bytes, size) : NULL;
    free(bytes);
    if (!net) return -1;
    from_file_layout(net, p);
    chess_nnue_destroy(net);
    return 0;
}

/*
 * A network of a narrower hidden layer (a build with a smaller CHESS_NNUE_HIDDEN wrote it) as
 * this shape's first neurons; the new neurons get small random input weights and zero output
 * weights, so the grown network evaluates every position exactly as the narrow one did.
 */
static int grow_network(const char *path, struct params *p, uint64_t seed) {
    size_t size = 0;
    unsigned char *bytes = read_file(path, &size);
    uint32_t header[4];
    int rc = -1;
    if (!bytes || size < sizeof header) goto done;
    memcpy(header, bytes, sizeof header);
    size_t h = header[2];
    size_t want = sizeof header + 2 * (NNUE_INPUTS * h + h + NNUE_BUCKETS * 2 * h + NNUE_BUCKETS);
    if (memcmp(bytes, "CNUE", 4) != 0 || header[1] != NNUE_VERSION || header[3] != NNUE_BUCKETS ||
        h == 0 || h > NNUE_HIDDEN || size != want)
        goto done;
    const unsigned char *at = bytes + sizeof header;
    int16_t v;
#define NEXT() (memcpy(&v, at, 2), at += 2, v)
    for (int f = 0; f < NNUE_INPUTS; f++) {
        for (size_t i = 0; i < NNUE_HIDDEN; i++)
            p->ft_weight[f][i] =
                i < h ? NEXT() / (float)NNUE_QA : (rng_uniform(&seed) * 2 - 1) * 0.05f;
    }
    for (size_t i = 0; i < NNUE_HIDDEN; i++) p->ft_bias[i] = i < h ? NEXT() / (float)NNUE_QA : 0;
    for (int b = 0; b < NNUE_BUCKETS; b++) {
        for (int half = 0; half < 2; half++) {
            for (size_t i = 0; i < NNUE_HIDDEN; i++)
                p->out_weight[b][half * NNUE_HIDDEN + i] = i < h ? NEXT() / (float)NNUE_QB : 0;
        }
    }
    for (int b = 0; b < NNUE_BUCKETS; b++) p->out_bias[b] = NEXT() / (float)(NNUE_QA * NNUE_QB);
#undef NEXT
    rc = 0;
done:
    free(bytes);
    return rc;
}

/* ---- training ---- */

struct dataset {
    struct record *records;
    long count;
    const struct record **train, **held;
    long train_count, held_count;
};

static int load_data(char **paths, int n, double holdout_frac, struct dataset *d) {
    memset(d, 0, sizeof *d);
    long *counts = calloc((size_t)n, sizeof *counts);
    if (!counts) return -1;
    for (int i = 0; i < n; i++) {
        size_t size = 0;
        struct record *r = read_file(paths[i], &size);
        if (!r) {
            fprintf(stderr, "nnue_train: cannot read %s\n", paths[i]);
            free(counts);
            return -1;
        }
        counts[i] = (long)(size / sizeof *r);
        struct record *all = realloc(d->records, sizeof *all * (size_t)(d->count + counts[i]));
        if (!all) {
            free(r);
            free(counts);
            return -1;
        }
        d->records = all;
        memcpy(d->records + d->count, r, sizeof *r * (size_t)counts[i]);
        d->count += counts[i];
        free(r);
    }
    d->train = malloc(sizeof *d->train * (size_t)(d->count + 1));
    d->held = malloc(sizeof *d->held * (size_t)(d->count + 1));
    if (!d->train || !d->held) {
        free(counts);
        return -1;
    }
    long at = 0;
    for (int i = 0; i < n; i++) {
        long cut = counts[i] - (long)((double)counts[i] * holdout_frac);
        for (long j = 0; j < counts[i]; j++, at++) {
            if (j < cut)
                d->train[d->train_count++] = &d->records[at];
            else
                d->held[d->held_count++] = &d->records[at];
        }
    }
    free(counts);
    return 0;
}

static void shuffle(const struct record **a, long n, uint64_t *seed) {
    for (long i = n - 1; i > 0; i--) {
        long j = (long)(rng_next(seed) % (uint64_t)(i + 1));
        const struct record *t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The held-out loss of the float network and of the network as written (rounded). */
static void print_holdout(const char *what, const struct params *net, struct params *rounded,
                          struct chess_nnue *scratch, const struct dataset *d,
                          const struct options *opt) {
    round_to_file(net, rounded, scratch);
    printf("%s %.6f (as written %.6f)", what,
           holdout_loss(net, d->held, d->held_count, opt->eval_lambda, opt->threads),
           holdout_loss(rounded, d->held, d->held_count, opt->eval_lambda, opt->threads));
}

static int train(const struct options *opt, struct dataset *d) {
    struct params *net = calloc(1, sizeof *net), *m = calloc(1, sizeof *m),
                  *v = calloc(1, sizeof *v), *sum = calloc(1, sizeof *sum),
                  *rounded = calloc(1, sizeof *rounded);
    struct chess_nnue *scratch = malloc(sizeof *scratch);
    struct params *grads[MAX_THREADS] = {0};
    int rc = -1;
    if (!net || !m || !v || !sum || !rounded || !scratch) goto done;
    for (int t = 0; t < opt->threads; t++)
        if (!(grads[t] = calloc(1, sizeof *grads[t]))) goto done;
    uint64_t seed = opt->seed;
    if (opt->init) {
        if (read_network(opt->init, net) < 0) {
            fprintf(stderr, "nnue_train: %s is not a network of this shape\n", opt->init);
            goto done;
        }
    } else if (opt->grow) {
        if (grow_network(opt->grow, net, seed) < 0) {
            fprintf(stderr, "nnue_train: %s is not a network of at most %d hidden neurons\n",
                    opt->grow, NNUE_HIDDEN);
            goto done;
        }
    } else {
        init_random(net, seed);
    }
    if (d->held_count > 0) {
        printf("%ld training positions, %ld held out; ", d->train_count, d->held_count);
        print_holdout("held-out loss at the start", net, rounded, scratch, d, opt);
        printf(", of the hand-written evaluation %.6f\n",
               hce_loss(d->held, d->held_count, opt->eval_lambda));
    }
    long batches = d->train_count / opt->batch, step = 0, total_steps = batches * opt->epochs;
    for (int epoch = 0; epoch < opt->epochs; epoch++) {
        double start = now_seconds(), loss = 0;
        shuffle(d->train, d->train_count, &seed);
        float lr = 0;
        for (long b = 0; b < batches; b++, step++) {
            double frac = (double)step / (double)(total_steps > 0 ? total_steps : 1);
            lr = (float)(opt->lr * (0.05 + 0.95 * 0.5 * (1 + cos(PI * frac))));
            loss += run_batch(net, d->train + b * opt->batch, opt->batch, opt->lambda, opt->threads,
                              grads, opt->mirror ? rng_next(&seed) | 1 : 0);
            memcpy(sum, grads[0], sizeof *sum);
            for (int t = 1; t < opt->threads; t++) {
                float *s = (float *)sum;
                const float *g = (const float *)grads[t];
                for (size_t i = 0; i < PARAM_COUNT; i++) s[i] += g[i];
            }
            adam_step((float *)net, (const float *)sum, (float *)m, (float *)v, PARAM_COUNT, lr,
                      (float)opt->decay, step + 1);
            clip(net);
        }
        printf("epoch %d: train %.6f, ", epoch + 1,
               loss / (double)(batches * opt->batch > 0 ? batches * opt->batch : 1));
        print_holdout("held-out", net, rounded, scratch, d, opt);
        printf(", lr %.5f, %.0f s\n", lr, now_seconds() - start);
        fflush(stdout);
        if (write_network(opt->out, net) < 0) {
            fprintf(stderr, "nnue_train: cannot write %s\n", opt->out);
            goto done;
        }
    }
    if (opt->epochs == 0 && write_network(opt->out, net) < 0) goto done;
    rc = 0;
done:
    for (int t = 0; t < MAX_THREADS; t++) free(grads[t]);
    free(net);
    free(m);
    free(v);
    free(sum);
    free(rounded);
    free(scratch);
    return rc;
}

/* --net NET --fen FEN: the float network's evaluation beside the engine's quantised one. */
static int show_fen(const char *path, const char *fen) {
    struct params *p = calloc(1, sizeof *p);
    struct chess_position pos;
    int rc = 1;
    if (!p || read_network(path, p) < 0 || chess_fen_parse(&pos, fen) < 0) {
        fprintf(stderr, "nnue_train: cannot read the network or the FEN\n");
        goto done;
    }
    int us[32], them[32], n = 0;
    int us_bucket = nnue_position_king_bucket(&pos, pos.side);
    int them_bucket = nnue_position_king_bucket(&pos, pos.side ^ 1);
    for (int sq = 0; sq < 64; sq++) {
        if (pos.board[sq] == CHESS_NO_PIECE) continue;
        us[n] = nnue_feature(pos.side, us_bucket, pos.board[sq], sq);
        them[n++] = nnue_feature(pos.side ^ 1, them_bucket, pos.board[sq], sq);
    }
    float acc[2][NNUE_HIDDEN];
    float out = forward(p, us, them, n, nnue_bucket(&pos), acc);
    size_t size = 0;
    void *bytes = read_file(path, &size);
    struct chess_nnue *net = bytes ? chess_nnue_create(bytes, size) : NULL;
    free(bytes);
    if (net) {
        printf("float %.1f cp, quantised %d cp\n", out * NNUE_SCALE,
               chess_nnue_evaluate(net, &pos));
        rc = 0;
    }
    chess_nnue_destroy(net);
done:
    free(p);
    return rc;
}

static int usage(void) {
    fprintf(stderr,
            "usage: nnue_train --out NET.nnue [--init OLD.nnue | --grow NARROW.nnue] [--epochs N] "
            "[--lr X] [--lambda L] [--eval-lambda E] [--decay D] [--batch B] [--threads T] "
            "[--holdout-frac F] [--mirror 0|1] [--seed S] DATA.bin...\n       nnue_train --net "
            "NET.nnue --fen FEN\n");
    return 2;
}

int main(int argc, char **argv) {
    struct options opt = {.epochs = 12,
                          .batch = 16384,
                          .threads = 2,
                          .lr = 0.002,
                          .lambda = 0.75,
                          .eval_lambda = -1,
                          .holdout_frac = 0.02,
                          .mirror = true,
                          .seed = 1};
    const char *show_net = NULL, *fen = NULL;
    char **files = calloc((size_t)argc, sizeof *files);
    int nfiles = 0;
    if (!files) return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-') {
            files[nfiles++] = argv[i];
            continue;
        }
        if (!val) return usage();
        i++;
        if (strcmp(a, "--out") == 0)
            opt.out = val;
        else if (strcmp(a, "--init") == 0)
            opt.init = val;
        else if (strcmp(a, "--grow") == 0)
            opt.grow = val;
        else if (strcmp(a, "--epochs") == 0)
            opt.epochs = atoi(val);
        else if (strcmp(a, "--batch") == 0)
            opt.batch = atoi(val);
        else if (strcmp(a, "--threads") == 0)
            opt.threads = atoi(val);
        else if (strcmp(a, "--lr") == 0)
            opt.lr = atof(val);
        else if (strcmp(a, "--lambda") == 0)
            opt.lambda = atof(val);
        else if (strcmp(a, "--eval-lambda") == 0)
            opt.eval_lambda = atof(val);
        else if (strcmp(a, "--decay") == 0)
            opt.decay = atof(val);
        else if (strcmp(a, "--holdout-frac") == 0)
            opt.holdout_frac = atof(val);
        else if (strcmp(a, "--seed") == 0)
            opt.seed = strtoull(val, NULL, 10);
        else if (strcmp(a, "--mirror") == 0)
            opt.mirror = atoi(val) != 0;
        else if (strcmp(a, "--net") == 0)
            show_net = val;
        else if (strcmp(a, "--fen") == 0)
            fen = val;
        else
            return usage();
    }
    if (show_net && fen) {
        free(files);
        return show_fen(show_net, fen);
    }
    if (!opt.out || (nfiles == 0 && opt.epochs > 0) || (opt.init && opt.grow) || opt.epochs < 0 ||
        opt.batch < 1 || opt.threads < 1 || opt.threads > MAX_THREADS || opt.holdout_frac < 0 ||
        opt.holdout_frac >= 1) {
        free(files);
        return usage();
    }
    if (opt.eval_lambda < 0) opt.eval_lambda = opt.lambda;
    struct dataset d = {0};
    /* No data and no epochs: only the starting network (--init, --grow or random) is written. */
    int rc =
        nfiles > 0 && load_data(files, nfiles, opt.holdout_frac, &d) != 0 ? -1 : train(&opt, &d);
    free(d.records);
    free(d.train);
    free(d.held);
    free(files);
    return rc == 0 ? 0 : 1;
}
