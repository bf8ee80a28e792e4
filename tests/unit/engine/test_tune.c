/*
 * Tuner tests: runs the tune program (path in argv[1] or $TUNE) on synthetic data whose targets
 * come from known weights, and reads back the eval_weights.c it writes.
 *
 * The positions are random playouts; each line's score is the evaluation under "true" weights
 * (the engine's, with the material values moved by tens of centipawns). With --lambda 0 the
 * target is sigmoid(K * score), so fitting the material group from the engine's weights must
 * recover the true values. When the held-out tenth instead follows the engine's own weights,
 * every step of the fit makes the held-out error worse, so early stopping must write the
 * starting weights (epoch 0) even though the training error fell. Bad options are refused.
 * Both fits run without the L2 pull (--reg 0): with exact targets the error, and with it the
 * data's gradient, becomes so small near the truth that the default pull would hold the fit
 * tens of centipawns short. Queen endgame values converge slowest (few such positions), hence
 * a tolerance of 6 centipawns against shifts of 20 to 50.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "eval_internal.h"
#include "test_program.h"
#include "test_random.h"

#include <chess/fen.h>
#include <chess/movegen.h>

#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define POSITIONS 4000
#define HELD_OUT  (POSITIONS / 10) /* the tuner holds out the last tenth */
#define K_SYNTH   0.006

struct sample {
    char fen[CHESS_FEN_MAX];
    int true_eval, engine_eval; /* white's view, under the true and the engine's weights */
};

struct fixture {
    const char *tune;
    char dir[256];
    struct sample *samples;
    struct eval_weight truth[EVAL_PARAM_COUNT];
};

/* How far the true material values (pawn to queen, middlegame and endgame) lie from the
 * engine's: far enough that a fit which does not move would fail the recovery test. */
static const int material_shift[6][2] = {{0, 0},   {25, -20}, {-30, 35},
                                         {40, 30}, {-35, 45}, {50, -40}};

/*
 * Random playouts of 10 to 109 plies that take a capture half the time when there is one, so
 * that endgames, where the endgame values count, are common; keeps positions the evaluation
 * does not call lost.
 */
static int make_samples(struct fixture *fx) {
    static struct eval_trace trace;
    uint64_t seed = 2026;
    int n = 0;
    while (n < POSITIONS) {
        struct chess_position pos;
        chess_position_startpos(&pos);
        int plies = 10 + (int)(rng_next(&seed) % 100);
        for (int i = 0; i < plies; i++) {
            struct chess_move_list list;
            bool capture = rng_next(&seed) % 2 == 0 &&
                           chess_generate_moves(&pos, CHESS_GEN_CAPTURES, &list) > 0;
            if (!capture && chess_generate_moves(&pos, CHESS_GEN_ALL, &list) == 0) break;
            chess_position_make_move(&pos, list.moves[rng_next(&seed) % (uint64_t)list.count]);
        }
        struct sample *s = &fx->samples[n];
        s->true_eval = eval_trace_position(&pos, fx->truth, &trace);
        s->engine_eval = eval_trace_position(&pos, eval_weights, &trace);
        if (abs(s->true_eval) > 1000 || abs(s->engine_eval) > 1000) continue; /* saturated */
        if (chess_fen_write(&pos, CHESS_FEN_XFEN, s->fen, sizeof s->fen) < 0) return -1;
        n++;
    }
    return 0;
}

/* Writes the samples as datagen lines; the held-out tenth scored by the engine's weights when
 * held_out_engine, else every line by the true weights. */
static int write_data(const struct fixture *fx, const char *path, bool held_out_engine) {
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    int bad = 0;
    for (int i = 0; i < POSITIONS; i++) {
        const struct sample *s = &fx->samples[i];
        int score = held_out_engine && i >= POSITIONS - HELD_OUT ? s->engine_eval : s->true_eval;
        double result = 1.0 / (1.0 + exp(-K_SYNTH * score));
        if (fprintf(f, "%s | %.4f | %d\n", s->fen, result, score) < 0) bad = 1;
    }
    return fclose(f) == 0 && !bad ? 0 : -1;
}

/* Runs tune with the arguments (NULL-terminated), its stderr into log; the exit status or -1. */
static int run_tune(const struct fixture *fx, const char *log, const char *const args[]) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return -1;
    int status = run_program(fx->tune, args, -1, fd);
    close(fd);
    return status;
}

/* The material group and the epoch named in the header of a written eval_weights.c. */
static int read_weights(const char *path, struct eval_weight material[6], int *epoch) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[1024];
    int found = 0;
    *epoch = -1;
    while (fgets(line, sizeof line, f)) {
        const char *e = strstr(line, " epoch ");
        if (e && *epoch < 0) *epoch = atoi(e + 7);
        if (!strstr(line, "[EVAL_MATERIAL] =") || !fgets(line, sizeof line, f)) continue;
        const char *p = line;
        for (int i = 0; i < 6; i++) {
            int used = 0;
            if (sscanf(p, " {%d, %d},%n", &material[i].mg, &material[i].eg, &used) != 2) break;
            p += used;
            found = i + 1;
        }
    }
    fclose(f);
    return found == 6 && *epoch >= 0 ? 0 : -1;
}

/* The "error X validation Y" figures of the first (K) line and of the last epoch line. */
static int read_errors(const char *log, double first[2], double last[2]) {
    FILE *f = fopen(log, "r");
    if (!f) return -1;
    char line[512];
    int got = 0;
    while (fgets(line, sizeof line, f)) {
        double e, v;
        const char *p = strstr(line, "error ");
        if (!p || sscanf(p, "error %lf validation %lf", &e, &v) != 2) continue;
        double *to = got == 0 ? first : last;
        to[0] = e;
        to[1] = v;
        got++;
    }
    fclose(f);
    return got >= 2 ? 0 : -1;
}

static void path_in(const struct fixture *fx, const char *name, char *out, size_t size) {
    snprintf(out, size, "%s/%s", fx->dir, name);
}

struct fit {
    struct eval_weight material[6];
    int epoch;
    char log[320];
};

/* Fits the material group (--lambda 0, --reg 0, plus `extra`) on the samples written as
 * NAME.txt; true when tune succeeded and its NAME.c could be read into r. */
static bool fit_material(const struct fixture *fx, const char *name, bool held_out_engine,
                         const char *const extra[], struct fit *r) {
    char file[64], data[320], out[320];
    snprintf(file, sizeof file, "%s.txt", name);
    path_in(fx, file, data, sizeof data);
    snprintf(file, sizeof file, "%s.c", name);
    path_in(fx, file, out, sizeof out);
    snprintf(file, sizeof file, "%s.log", name);
    path_in(fx, file, r->log, sizeof r->log);
    if (!CHECK(write_data(fx, data, held_out_engine) == 0)) return false;
    const char *args[32] = {"--data", data,       "--out",    out,     "--lambda",
                            "0",      "--groups", "MATERIAL", "--reg", "0"};
    int n = 10;
    for (int i = 0; extra[i] && n < 31; i++) args[n++] = extra[i];
    args[n] = NULL;
    return CHECK(run_tune(fx, r->log, args) == 0) &&
           CHECK(read_weights(out, r->material, &r->epoch) == 0);
}

static void test_recovers_weights(const struct fixture *fx) {
    const char *extra[] = {"--epochs", "600", "--rate", "2", "--threads", "1", NULL};
    struct fit r;
    if (!fit_material(fx, "truth", false, extra, &r)) return;
    CHECK(r.epoch > 0);
    for (int t = CHESS_PAWN; t <= CHESS_QUEEN; t++) {
        const struct eval_weight *got = &r.material[t], *want = &fx->truth[EVAL_MATERIAL + t];
        bool near = abs(got->mg - want->mg) <= 6 && abs(got->eg - want->eg) <= 6;
        if (!CHECK(near))
            printf("     piece %d: got {%d, %d}, true {%d, %d}\n", t, got->mg, got->eg, want->mg,
                   want->eg);
    }
}

static void test_early_stopping(const struct fixture *fx) {
    const char *extra[] = {"--epochs", "100", "--check", "5", "--threads", "2", NULL};
    struct fit r;
    if (!fit_material(fx, "split", true, extra, &r)) return;
    CHECK_EQ_INT(r.epoch, 0);
    for (int t = CHESS_PAWN; t <= CHESS_QUEEN; t++) {
        CHECK_EQ_INT(r.material[t].mg, eval_weights[EVAL_MATERIAL + t].mg);
        CHECK_EQ_INT(r.material[t].eg, eval_weights[EVAL_MATERIAL + t].eg);
    }
    /* The fit did move (training error down, held-out error up): the file holds the best
     * held-out weights, not the last ones. */
    double first[2], last[2];
    if (!CHECK(read_errors(r.log, first, last) == 0)) return;
    CHECK(last[0] < first[0] * 0.5);
    CHECK(last[1] > first[1] * 2);
}

static void test_bad_options(const struct fixture *fx) {
    char data[320], out[320], log[320], missing[320];
    path_in(fx, "truth.txt", data, sizeof data);
    path_in(fx, "bad.c", out, sizeof out);
    path_in(fx, "bad.log", log, sizeof log);
    path_in(fx, "missing.txt", missing, sizeof missing);
    const char *unknown_group[] = {"--data", data, "--out", out, "--groups", "NO_SUCH", NULL};
    CHECK_EQ_INT(run_tune(fx, log, unknown_group), 2);
    const char *unknown_option[] = {"--data", data, "--speed", "9", NULL};
    CHECK_EQ_INT(run_tune(fx, log, unknown_option), 2);
    const char *no_data[] = {"--out", out, NULL};
    CHECK_EQ_INT(run_tune(fx, log, no_data), 2);
    const char *missing_file[] = {"--data", missing, NULL};
    CHECK_EQ_INT(run_tune(fx, log, missing_file), 1);
    CHECK(access(out, F_OK) != 0); /* nothing written by a refused run */
}

static void remove_dir(const struct fixture *fx) {
    static const char *const names[] = {"truth.txt", "truth.c",   "truth.log", "split.txt",
                                        "split.c",   "split.log", "bad.c",     "bad.log"};
    char path[320];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        path_in(fx, names[i], path, sizeof path);
        unlink(path);
    }
    rmdir(fx->dir);
}

int main(int argc, char **argv) {
    static struct fixture fx;
    fx.tune = argc > 1 ? argv[1] : getenv("TUNE");
    if (!fx.tune) {
        printf("usage: test_tune TUNE_PATH (or $TUNE)\n");
        return 2;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(fx.dir, sizeof fx.dir, "%s/tune_test_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    fx.samples = calloc(POSITIONS, sizeof *fx.samples);
    if (!fx.samples || !mkdtemp(fx.dir)) {
        printf("cannot set up the fixture\n");
        return 1;
    }
    memcpy(fx.truth, eval_weights, sizeof fx.truth);
    for (int t = CHESS_PAWN; t <= CHESS_QUEEN; t++) {
        fx.truth[EVAL_MATERIAL + t].mg += material_shift[t][0];
        fx.truth[EVAL_MATERIAL + t].eg += material_shift[t][1];
    }
    if (make_samples(&fx) < 0) {
        printf("cannot write a sample position\n");
        remove_dir(&fx);
        return 1;
    }
    check_state.current_test = "recovers_weights";
    test_recovers_weights(&fx);
    check_state.current_test = "early_stopping";
    test_early_stopping(&fx);
    check_state.current_test = "bad_options";
    test_bad_options(&fx);
    remove_dir(&fx);
    free(fx.samples);
    return check_finish();
}
