/*
 * tune: Texel tuning of the evaluation weights on positions from the project's own self-play
 * (tools/datagen.c), writing a new engine/src/eval_weights.c.
 *
 *   tune --data FILE [--data FILE ...] [--out PATH] [--epochs N] [--lambda L] [--rate R]
 *        [--reg R] [--limit N] [--threads T] [--groups NAME,NAME...] [--check N]
 *
 * Each position's evaluation trace (eval_internal.h) is computed once; the evaluation for any
 * weights is then recomputed from the trace: linear terms, the squared king danger, the phase
 * taper and the endgame scale. The tuner fits the scaling constant K of the sigmoid
 * 1 / (1 + exp(-K * eval)) to the game results, then minimises the mean squared error between
 * that sigmoid and the target, lambda * result + (1 - lambda) * sigmoid(K * search score), with
 * full-batch Adam, plus an L2 pull (--reg) towards the starting weights. It includes the engine's
 * private header, being part of the engine's build. --groups tunes only the named groups (as in
 * EVAL_GROUPS) and holds the others, for fitting new terms on less data than a full fit needs.
 *
 * The last tenth of the positions (whole games, as datagen writes them) is held out. Its error
 * is measured every --check epochs and the weights written are those with the lowest held-out
 * error so far (early stopping), so that a fit that starts to learn the training games rather
 * than chess stops where it was best.
 */
#define _POSIX_C_SOURCE 200809L

#include "eval_internal.h"

#include <chess/fen.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KS_COUNT    (EVAL_PARAM_COUNT - EVAL_KS_FIRST)
#define MAX_THREADS 16

struct term {
    uint16_t index;
    int16_t coef;
};

/* One training position: its target and where its terms are. */
struct position {
    float result, score;
    float engine_eval; /* what the engine's evaluation said, to check the recomputation */
    uint8_t phase, scale;
    int8_t cx[EVAL_CX_COUNT]; /* the endgame complexity counts */
    uint16_t term_count, ks_count[2];
    uint32_t term_start, ks_start;
};

struct dataset {
    struct position *pos;
    size_t count, cap;
    struct term *terms;
    size_t term_count, term_cap;
};

struct tuner {
    struct dataset data;
    double w[EVAL_PARAM_COUNT][2];
    double start[EVAL_PARAM_COUNT][2]; /* the weights before tuning */
    double best[EVAL_PARAM_COUNT][2];  /* the weights with the lowest held-out error so far */
    double reg;                        /* L2 pull towards the starting weights */
    size_t train;                      /* positions [0, train) train, the rest validate */
    double k;
    double lambda;
    int threads;
    bool fixed[EVAL_PARAM_COUNT]; /* held at the starting weight (outside --groups) */
};

static void *grow(void *ptr, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return ptr;
    size_t cap2 = *cap ? *cap : 1024;
    while (cap2 < need) cap2 *= 2;
    void *p = realloc(ptr, cap2 * size);
    if (!p) {
        fprintf(stderr, "tune: out of memory\n");
        exit(1);
    }
    *cap = cap2;
    return p;
}

static void push_term(struct dataset *d, int index, int coef) {
    d->terms = grow(d->terms, &d->term_cap, d->term_count + 1, sizeof *d->terms);
    d->terms[d->term_count++] = (struct term){(uint16_t)index, (int16_t)coef};
}

static void add_position(struct dataset *d, const struct eval_trace *tr, float result, float score,
                         int engine_eval) {
    d->pos = grow(d->pos, &d->cap, d->count + 1, sizeof *d->pos);
    struct position *p = &d->pos[d->count++];
    p->engine_eval = (float)engine_eval;
    p->result = result;
    p->score = score;
    p->phase = (uint8_t)tr->phase;
    p->scale = (uint8_t)tr->scale;
    for (int i = 0; i < EVAL_CX_COUNT; i++) p->cx[i] = (int8_t)tr->cx[i];
    p->term_start = (uint32_t)d->term_count;
    for (int i = 0; i < EVAL_KS_FIRST; i++) {
        if (tr->coef[i]) push_term(d, i, tr->coef[i]);
    }
    p->term_count = (uint16_t)(d->term_count - p->term_start);
    p->ks_start = (uint32_t)d->term_count;
    for (int c = 0; c < 2; c++) {
        size_t before = d->term_count;
        for (int j = 0; j < KS_COUNT; j++) {
            if (tr->ks[c][j]) push_term(d, j, tr->ks[c][j]);
        }
        p->ks_count[c] = (uint16_t)(d->term_count - before);
    }
}

static void load_file(struct dataset *d, const char *path, size_t limit) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "tune: cannot open %s\n", path);
        exit(1);
    }
    char line[512];
    static struct eval_trace trace;
    while (d->count < limit && fgets(line, sizeof line, f)) {
        char *bar = strchr(line, '|');
        if (!bar) continue;
        *bar = '\0';
        float result = 0, score = 0;
        if (sscanf(bar + 1, " %f | %f", &result, &score) < 1) continue;
        struct chess_position pos;
        if (chess_fen_parse(&pos, line) < 0) continue;
        int v = eval_trace_position(&pos, eval_weights, &trace);
        add_position(d, &trace, result, score, v);
    }
    fclose(f);
}

/* What the gradient needs besides the terms: the non-linear parts' state. */
struct eval_parts {
    double danger[2]; /* each king's danger */
    double eg_slope;  /* d(endgame after complexity) / d(endgame before): 1, or 0 when clamped */
    double cx_slope;  /* d(endgame after complexity) / d(complexity): the sign of the endgame */
};

/* The evaluation (white's view) for weights w, with the state of its non-linear parts. */
static double evaluate(const struct tuner *t, const struct position *p, struct eval_parts *parts) {
    double *danger = parts->danger;
    const struct term *terms = t->data.terms;
    double mg = 0, eg = 0;
    for (uint32_t i = p->term_start; i < p->term_start + p->term_count; i++) {
        mg += terms[i].coef * t->w[terms[i].index][0];
        eg += terms[i].coef * t->w[terms[i].index][1];
    }
    uint32_t at = p->ks_start;
    for (int c = 0; c < 2; c++) {
        double d = 0;
        for (int j = 0; j < p->ks_count[c]; j++, at++)
            d += terms[at].coef * t->w[EVAL_KS_FIRST + terms[at].index][0];
        danger[c] = d;
        if (d <= 0) continue;
        double sign = c == CHESS_WHITE ? -1 : 1;
        mg += sign * d * d / EVAL_KS_MG_DIV;
        eg += sign * d / EVAL_KS_EG_DIV;
    }
    double c = 0;
    for (int i = 0; i < EVAL_CX_COUNT; i++) c += p->cx[i] * t->w[EVAL_COMPLEXITY + i][1];
    double eg_sign = (eg > 0) - (eg < 0);
    bool clamped = eg_sign != 0 && c <= -fabs(eg);
    parts->eg_slope = clamped ? 0 : 1;
    parts->cx_slope = clamped ? 0 : eg_sign;
    eg += eg_sign * (clamped ? -fabs(eg) : c);
    if (p->scale == 0) return 0; /* as the engine: drawn */
    double phase = p->phase;
    return (mg * phase + eg * p->scale / EVAL_SCALE_MAX * (EVAL_PHASE_MAX - phase)) /
           EVAL_PHASE_MAX;
}

static double sigmoid(double k, double x) {
    return 1.0 / (1.0 + exp(-k * x));
}

static double target(const struct tuner *t, const struct position *p) {
    return t->lambda * p->result + (1 - t->lambda) * sigmoid(t->k, p->score);
}

struct job {
    const struct tuner *t;
    size_t first, last;
    double error;
    double grad[EVAL_PARAM_COUNT][2];
    bool want_grad;
};

static void accumulate_gradient(struct job *j, const struct position *p, double g,
                                const struct eval_parts *parts) {
    const struct term *terms = j->t->data.terms;
    const double *danger = parts->danger;
    if (p->scale == 0) return;
    double fm = p->phase / (double)EVAL_PHASE_MAX;
    double fe_raw = (1 - fm) * p->scale / EVAL_SCALE_MAX, fe = fe_raw * parts->eg_slope;
    for (int i = 0; i < EVAL_CX_COUNT; i++)
        j->grad[EVAL_COMPLEXITY + i][1] += g * fe_raw * parts->cx_slope * p->cx[i];
    for (uint32_t i = p->term_start; i < p->term_start + p->term_count; i++) {
        j->grad[terms[i].index][0] += g * terms[i].coef * fm;
        j->grad[terms[i].index][1] += g * terms[i].coef * fe;
    }
    uint32_t at = p->ks_start;
    for (int c = 0; c < 2; c++) {
        double sign = c == CHESS_WHITE ? -1 : 1, d = danger[c];
        double dd = d > 0 ? sign * (2 * d / EVAL_KS_MG_DIV * fm + fe / EVAL_KS_EG_DIV) : 0;
        for (int k = 0; k < p->ks_count[c]; k++, at++)
            j->grad[EVAL_KS_FIRST + terms[at].index][0] += g * dd * terms[at].coef;
    }
}

static void *run_job(void *arg) {
    struct job *j = arg;
    const struct tuner *t = j->t;
    j->error = 0;
    if (j->want_grad) memset(j->grad, 0, sizeof j->grad);
    for (size_t i = j->first; i < j->last; i++) {
        const struct position *p = &t->data.pos[i];
        struct eval_parts parts;
        double s = sigmoid(t->k, evaluate(t, p, &parts));
        double diff = s - target(t, p);
        j->error += diff * diff;
        if (j->want_grad) accumulate_gradient(j, p, diff * s * (1 - s) * t->k, &parts);
    }
    return NULL;
}

/* Mean squared error over positions [from, to); with grad, also its gradient (summed). */
static double range_error(const struct tuner *t, size_t from, size_t to,
                          double grad[EVAL_PARAM_COUNT][2]) {
    static struct job jobs[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    size_t n = to - from, per = (n + (size_t)t->threads - 1) / (size_t)t->threads;
    bool started[MAX_THREADS];
    for (int i = 0; i < t->threads; i++) {
        jobs[i].t = t;
        jobs[i].first = from + (per * (size_t)i < n ? per * (size_t)i : n);
        jobs[i].last = from + (per * (size_t)(i + 1) < n ? per * (size_t)(i + 1) : n);
        jobs[i].want_grad = grad != NULL;
        started[i] = pthread_create(&tid[i], NULL, run_job, &jobs[i]) == 0;
        if (!started[i]) run_job(&jobs[i]);
    }
    double error = 0;
    if (grad) memset(grad, 0, sizeof(double) * EVAL_PARAM_COUNT * 2);
    for (int i = 0; i < t->threads; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        error += jobs[i].error;
        for (int p = 0; grad && p < EVAL_PARAM_COUNT; p++) {
            grad[p][0] += jobs[i].grad[p][0];
            grad[p][1] += jobs[i].grad[p][1];
        }
    }
    return error / (double)n;
}

/* Error over the training part (all but the last tenth, held out for validation). */
static double total_error(const struct tuner *t, double grad[EVAL_PARAM_COUNT][2]) {
    return range_error(t, 0, t->train, grad);
}

static double validation_error(const struct tuner *t) {
    return t->train < t->data.count ? range_error(t, t->train, t->data.count, NULL) : 0;
}

/* Finds K minimising the error of the current weights against the results alone. */
static void fit_k(struct tuner *t) {
    double lambda = t->lambda, lo = 0.0005, hi = 0.02;
    t->lambda = 1.0;
    for (int i = 0; i < 40; i++) {
        double a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3;
        t->k = a;
        double ea = total_error(t, NULL);
        t->k = b;
        double eb = total_error(t, NULL);
        if (ea < eb)
            hi = b;
        else
            lo = a;
    }
    t->k = (lo + hi) / 2;
    t->lambda = lambda;
}

/* Writes the best weights (t->best) as eval_weights.c; the epoch they come from and their
 * errors go into its header comment. */
static void write_weights(const struct tuner *t, const char *path, int epoch, double error,
                          double validation) {
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "tune: cannot write %s\n", path);
        return;
    }
    fprintf(f,
            "/*\n * Evaluation weights (middlegame, endgame), indexed as laid out by EVAL_GROUPS "
            "in\n * eval_internal.h. Written by the Texel tuner (engine/tools/tune.c); edit by "
            "re-tuning.\n * Last run: %zu positions, epoch %d, K %.6f, error %.6f, held-out "
            "%.6f.\n */\n",
            t->data.count, epoch, t->k, error, validation);
    fprintf(f, "#include \"eval_internal.h\"\n\n// clang-format off\n");
    fprintf(f, "const struct eval_weight eval_weights[EVAL_PARAM_COUNT] = {\n");
    for (int g = 0; g < eval_group_count; g++) {
        const struct eval_group *grp = &eval_groups[g];
        fprintf(f, "    [EVAL_%s] =\n", grp->name);
        for (int i = 0; i < grp->count; i++) {
            const double *wi = t->best[grp->first + i];
            fprintf(f, "%s{%ld, %ld},%s", i % 8 == 0 ? "        " : " ", lround(wi[0]),
                    lround(wi[1]), i % 8 == 7 || i == grp->count - 1 ? "\n" : "");
        }
    }
    fprintf(f, "};\n// clang-format on\n");
    fclose(f);
}

/* Adam for `epochs` epochs; keeps in t->best the weights with the lowest held-out error,
 * measured every `check` epochs, and writes them to `out` every 50 epochs and at the end. */
static void tune(struct tuner *t, int epochs, int check, double rate, const char *out) {
    static double grad[EVAL_PARAM_COUNT][2], m[EVAL_PARAM_COUNT][2], v[EVAL_PARAM_COUNT][2];
    const double b1 = 0.9, b2 = 0.999;
    double error = total_error(t, NULL), best = validation_error(t), best_error = error;
    int best_epoch = 0;
    memcpy(t->best, t->w, sizeof t->best);
    for (int e = 1; e <= epochs; e++) {
        error = total_error(t, grad);
        double scale = 2.0 / (double)t->train;
        for (int p = 0; p < EVAL_PARAM_COUNT; p++) {
            for (int h = 0; h < 2 && !t->fixed[p]; h++) {
                /* Rarely seen weights have tiny gradients, which Adam would scale up into
                 * noise: the pull towards the start keeps them where the data says little. */
                double g = grad[p][h] * scale + 2 * t->reg * (t->w[p][h] - t->start[p][h]);
                m[p][h] = b1 * m[p][h] + (1 - b1) * g;
                v[p][h] = b2 * v[p][h] + (1 - b2) * g * g;
                double mh = m[p][h] / (1 - pow(b1, e)), vh = v[p][h] / (1 - pow(b2, e));
                t->w[p][h] -= rate * mh / (sqrt(vh) + 1e-8);
            }
        }
        if (e % check == 0 || e == epochs) {
            /* error is the training error before this epoch's step: measure both after it. */
            double validation = validation_error(t);
            /* Without held-out positions (tiny data) the last weights are the best known. */
            if (validation < best || t->train == t->data.count) {
                best = validation;
                best_error = total_error(t, NULL);
                best_epoch = e;
                memcpy(t->best, t->w, sizeof t->best);
            }
            if (e % 50 == 0 || e == epochs)
                fprintf(stderr, "tune: epoch %d error %.7f validation %.7f (best %.7f at %d)\n", e,
                        error, validation, best, best_epoch);
        }
        if (e % 50 == 0 || e == epochs) write_weights(t, out, best_epoch, best_error, best);
    }
}

/* Holds every weight outside the comma-separated groups; -1 for an unknown group name. */
static int select_groups(struct tuner *t, const char *list) {
    for (int p = 0; p < EVAL_PARAM_COUNT; p++) t->fixed[p] = true;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *name = strtok_r(copy, ",", &save); name;
         name = strtok_r(NULL, ",", &save)) {
        int g = 0;
        while (g < eval_group_count && strcmp(eval_groups[g].name, name) != 0) g++;
        if (g == eval_group_count) {
            fprintf(stderr, "tune: unknown group %s\n", name);
            return -1;
        }
        for (int i = 0; i < eval_groups[g].count; i++) t->fixed[eval_groups[g].first + i] = false;
    }
    return 0;
}

int main(int argc, char **argv) {
    static struct tuner t;
    const char *out = "eval_weights.c";
    int epochs = 1000, check = 10;
    double rate = 1.0;
    size_t limit = (size_t)-1;
    t.lambda = 0.7;
    t.reg = 1e-7;
    t.threads = 2;
    int files = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (strcmp(a, "--data") == 0)
            load_file(&t.data, v, limit), files++;
        else if (strcmp(a, "--out") == 0)
            out = v;
        else if (strcmp(a, "--epochs") == 0)
            epochs = atoi(v);
        else if (strcmp(a, "--lambda") == 0)
            t.lambda = atof(v);
        else if (strcmp(a, "--rate") == 0)
            rate = atof(v);
        else if (strcmp(a, "--reg") == 0)
            t.reg = atof(v);
        else if (strcmp(a, "--limit") == 0)
            limit = strtoull(v, NULL, 10);
        else if (strcmp(a, "--check") == 0)
            check = atoi(v);
        else if (strcmp(a, "--threads") == 0)
            t.threads = atoi(v);
        else if (strcmp(a, "--groups") == 0) {
            if (select_groups(&t, v) < 0) return 2;
        } else {
            fprintf(stderr, "tune: unknown option %s\n", a);
            return 2;
        }
    }
    if (!files || t.data.count == 0 || t.threads < 1 || t.threads > MAX_THREADS || check < 1) {
        fprintf(stderr, "usage: tune --data FILE [--data FILE ...] [--out PATH] [--epochs N] "
                        "[--lambda L] [--rate R] [--reg R] [--limit N] [--threads T] "
                        "[--groups NAME,...] [--check N]\n");
        return 2;
    }
    for (int p = 0; p < EVAL_PARAM_COUNT; p++) {
        t.w[p][0] = t.start[p][0] = eval_weights[p].mg;
        t.w[p][1] = t.start[p][1] = eval_weights[p].eg;
    }
    fprintf(stderr, "tune: %zu positions, %zu terms\n", t.data.count, t.data.term_count);
    t.train = t.data.count - t.data.count / 10;
    double drift = 0;
    for (size_t i = 0; i < t.data.count; i++) {
        struct eval_parts parts;
        drift += fabs(evaluate(&t, &t.data.pos[i], &parts) - t.data.pos[i].engine_eval);
    }
    fprintf(stderr, "tune: recomputed evaluation differs by %.2f cp on average\n",
            drift / (double)t.data.count);
    fit_k(&t);
    fprintf(stderr, "tune: K %.6f, error %.7f validation %.7f\n", t.k, total_error(&t, NULL),
            validation_error(&t));
    tune(&t, epochs, check, rate, out);
    return 0;
}
