/*
 * selfplay: the engine against itself in each variant, with the library's rules as the arbiter,
 * to show that it plays every variant to a legal end.
 *
 *   selfplay [--variant NAME ...] [--games N] [--level L] [--movetime MS] [--concurrency T]
 *            [--seed S] [--openings FILE] [--random-plies R] [--max-plies P] [--hash MB]
 *
 * NAME is chess960, kingOfTheHill, threeCheck or fromPosition (default: all four, in that
 * order). Games come in pairs from one start, the same position twice, so that each side of it
 * is played by the engine as white and as black (the second game differs from the first only
 * where timing does): chess960 a start array drawn by a seeded RNG per pair, kingOfTheHill and
 * threeCheck the standard start after R random legal plies drawn the same way (default 2, so
 * that pairs differ), fromPosition the FENs of --openings in order (standard rules).
 *
 * Each move is searched in-process at the lobby level (chess_level_apply(), the built-in network
 * at level 8, no search memory, as the server plays levels), one search thread and its own table
 * per game; with no clock a level thinks its own time a move (level 8: 1000 ms), --movetime
 * replaces that. The move returned is looked up in the legal moves the library generates for
 * the game's position before chess_game_play() plays it; a missing or illegal move is a failure
 * printed with the FEN. Games end by the rules: the automatic endings of chess_game (checkmate,
 * stalemate, a king on the hill, a third check, insufficient material, fivefold, 75 moves), and
 * threefold repetition and fifty moves as if claimed. A game still running at --max-plies
 * (default 400) is a failure.
 *
 * Prints each game as it ends, then per variant the games, white wins, draws and black wins, the
 * endings counted, the average length and the failures. Exits 0 when no game failed, 1 when one
 * did, 2 on a bad command line.
 */
#define _POSIX_C_SOURCE 200809L

#include <chess/fen.h>
#include <chess/game.h>
#include <chess/level.h>
#include <chess/move.h>
#include <chess/movegen.h>
#include <chess/search.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum start_kind {
    START_CHESS960,
    START_KING_OF_THE_HILL,
    START_THREE_CHECK,
    START_FEN,
    START_COUNT
};

static const char *const start_names[START_COUNT] = {"chess960", "kingOfTheHill", "threeCheck",
                                                     "fromPosition"};

#define MAX_VARIANTS 8
#define MAX_THREADS  16

struct options {
    enum start_kind variants[MAX_VARIANTS];
    int variant_count;
    int games, level, concurrency, random_plies, max_plies, hash_mb;
    int64_t movetime_ms; /* 0: the level's own */
    uint64_t seed;
    char **fens; /* --openings, fen_count of them */
    int fen_count;
};

/* What the games of one variant came to; guarded by the shared lock. */
struct variant_tally {
    int finished, white_wins, draws, black_wins;
    int ends[CHESS_TERM_COUNT];
    long plies;
    int illegal, capped, errors;
};

struct shared {
    const struct options *opt;
    pthread_mutex_t lock;
    atomic_int next_job; /* job j: variant j / games, game j % games */
    struct variant_tally tally[MAX_VARIANTS];
    int64_t started_ms;
};

/* How one game ended. */
struct game_outcome {
    enum chess_result result;
    enum chess_termination termination;
    int plies;
    enum { OUTCOME_RULES, OUTCOME_ILLEGAL, OUTCOME_CAPPED, OUTCOME_ERROR } kind;
    char detail[CHESS_FEN_MAX + 64]; /* the failure: FEN and move, or the error */
    char start[CHESS_FEN_MAX + 16];  /* the start as printed */
};

static const char usage[] =
    "usage: selfplay [--variant NAME ...] [--games N] [--level L] [--movetime MS]\n"
    "                [--concurrency T] [--seed S] [--openings FILE] [--random-plies R]\n"
    "                [--max-plies P] [--hash MB]\n"
    "  --variant NAME     chess960, kingOfTheHill, threeCheck or fromPosition (repeatable;\n"
    "                     default all four)\n"
    "  --games N          games per variant, in pairs from one start (default 20)\n"
    "  --level L          the lobby level 1..8 (default 8: the network, 1000 ms a move)\n"
    "  --movetime MS      time a move instead of the level's own\n"
    "  --concurrency T    games at once, one search thread each (default 2)\n"
    "  --seed S           the RNG for Chess960 arrays and random plies (default 1)\n"
    "  --openings FILE    FENs for fromPosition, one a line, # comments (needed for it)\n"
    "  --random-plies R   random plies before kingOfTheHill and threeCheck games (default 2)\n"
    "  --max-plies P      a game longer than this fails (default 400)\n"
    "  --hash MB          table per game (default 16)\n";

static int64_t now_ms(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t mix(uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The pair's start: a Chess960 array, the standard start under a variant after random plies,
 * or a FEN. Returns 0, or -1 with the reason in out->detail. */
static int setup_start(const struct options *opt, enum start_kind kind, int pair,
                       struct chess_game *game, struct game_outcome *out) {
    struct chess_position pos;
    uint64_t rng = mix(opt->seed ^ mix((uint64_t)kind * 1000003u + (uint64_t)pair));
    int rc = 0;
    if (kind == START_CHESS960) {
        int number = (int)(rng % 960);
        rc = chess_position_chess960(&pos, number);
        snprintf(out->start, sizeof out->start, "#%d ", number);
    } else if (kind == START_FEN) {
        rc = chess_fen_parse(&pos, opt->fens[pair % opt->fen_count]);
        out->start[0] = '\0';
    } else {
        chess_position_startpos(&pos);
        rc = chess_position_set_variant(&pos, kind == START_KING_OF_THE_HILL
                                                  ? CHESS_VARIANT_KING_OF_THE_HILL
                                                  : CHESS_VARIANT_THREE_CHECK);
        out->start[0] = '\0';
    }
    if (rc < 0 || chess_game_init(game, &pos) < 0) {
        snprintf(out->detail, sizeof out->detail, "cannot set up the start: %s",
                 chess_error_name(rc < 0 ? rc : -CHESS_ERR_NO_MEMORY));
        return -1;
    }
    for (int i = 0; kind != START_CHESS960 && kind != START_FEN && i < opt->random_plies; i++) {
        rng = mix(rng);
        if (game->legal.count == 0 ||
            chess_game_play(game, game->legal.moves[rng % (uint64_t)game->legal.count]) < 0 ||
            game->result != CHESS_RESULT_NONE) {
            snprintf(out->detail, sizeof out->detail, "random plies ended the game");
            chess_game_free(game);
            return -1;
        }
    }
    size_t len = strlen(out->start);
    if (chess_fen_write(&game->current, CHESS_FEN_XFEN, out->start + len, sizeof out->start - len) <
        0) {
        snprintf(out->detail, sizeof out->detail, "cannot write the start FEN");
        chess_game_free(game);
        return -1;
    }
    return 0;
}

/* True when the library's own generator lists the move in the position. */
static bool generated(const struct chess_position *pos, chess_move move) {
    struct chess_move_list list;
    chess_generate_moves(pos, CHESS_GEN_ALL, &list);
    for (int i = 0; i < list.count; i++) {
        if (list.moves[i] == move) return true;
    }
    return false;
}

/* Fills out->detail with what happened, the move (or "none") unless `move_text` is false, and
 * the position. */
static void describe_move(const struct chess_position *pos, chess_move move, bool move_text,
                          const char *what, struct game_outcome *out) {
    char fen[CHESS_FEN_MAX], text[CHESS_UCI_MAX] = "none";
    if (chess_fen_write(pos, CHESS_FEN_XFEN, fen, sizeof fen) < 0) strcpy(fen, "?");
    if (move != CHESS_MOVE_NONE) chess_move_to_uci(pos, move, text);
    snprintf(out->detail, sizeof out->detail, "%s%s%s in %s", what, move_text ? " " : "",
             move_text ? text : "", fen);
}

/* Searches one move of the game at the options' level. */
static int search_move(const struct options *opt, const struct chess_game *game,
                       struct chess_tt *tt, uint64_t seed, struct chess_search_result *res) {
    struct chess_search_request req;
    chess_search_request_init(&req, &game->current);
    req.history = game->keys;
    req.history_count = game->ply_count;
    req.nnue = chess_nnue_builtin(); /* cleared by levels 1-7 */
    req.limits.movetime_ms = opt->movetime_ms;
    if (chess_level_apply(opt->level, &req) < 0) return -1;
    req.seed = seed;
    return chess_search(&req, tt, res);
}

/* Plays one game of a variant to its end by the rules, or to a failure. */
static void play_game(const struct options *opt, enum start_kind kind, int index,
                      struct chess_tt *tt, struct game_outcome *out) {
    *out = (struct game_outcome){.kind = OUTCOME_ERROR};
    struct chess_game game;
    if (setup_start(opt, kind, index / 2, &game, out) < 0) return;
    chess_tt_clear(tt);
    uint64_t seed = mix(opt->seed ^ ((uint64_t)kind << 32) ^ (uint64_t)index);
    out->kind = OUTCOME_RULES;
    while (game.result == CHESS_RESULT_NONE) {
        if (game.ply_count >= opt->max_plies) {
            out->kind = OUTCOME_CAPPED;
            describe_move(&game.current, CHESS_MOVE_NONE, false, "ply cap reached", out);
            break;
        }
        struct chess_search_result res;
        if (search_move(opt, &game, tt, mix(seed + (uint64_t)game.ply_count), &res) < 0) {
            out->kind = OUTCOME_ERROR;
            snprintf(out->detail, sizeof out->detail, "search failed (out of memory)");
            break;
        }
        if (res.best == CHESS_MOVE_NONE || !generated(&game.current, res.best)) {
            out->kind = OUTCOME_ILLEGAL;
            describe_move(&game.current, res.best, true, "illegal or missing move", out);
            break;
        }
        int rc = chess_game_play(&game, res.best);
        if (rc < 0) {
            out->kind = OUTCOME_ILLEGAL;
            describe_move(&game.current, res.best, true, chess_error_name(rc), out);
            break;
        }
        enum chess_termination claim = chess_game_claimable_draw(&game);
        if (claim != CHESS_TERM_NONE) chess_game_end(&game, CHESS_RESULT_DRAW, claim);
    }
    out->result = game.result;
    out->termination = game.termination;
    out->plies = game.ply_count;
    chess_game_free(&game);
}

static void print_summary(const struct options *opt, enum start_kind kind,
                          const struct variant_tally *t) {
    printf("== %s: games %d, white wins %d, draws %d, black wins %d (W/D/L for white)\n",
           start_names[kind], t->finished, t->white_wins, t->draws, t->black_wins);
    printf("   ends:");
    for (int e = 0; e < CHESS_TERM_COUNT; e++) {
        if (t->ends[e])
            printf(" %s %d", chess_termination_name((enum chess_termination)e), t->ends[e]);
    }
    printf("\n   average plies %.1f, illegal %d, at the ply cap (%d) %d, errors %d\n",
           t->finished ? (double)t->plies / t->finished : 0.0, t->illegal, opt->max_plies,
           t->capped, t->errors);
}

static void record(struct shared *s, enum start_kind kind, int slot, int index,
                   const struct game_outcome *out, int64_t game_ms) {
    const struct options *opt = s->opt;
    struct variant_tally *t = &s->tally[slot];
    pthread_mutex_lock(&s->lock);
    t->finished++;
    t->plies += out->plies;
    char ending[64];
    snprintf(ending, sizeof ending, "%s %s", chess_result_name(out->result),
             chess_termination_name(out->termination));
    if (out->kind == OUTCOME_RULES) {
        t->ends[out->termination]++;
        if (out->result == CHESS_RESULT_WHITE_WINS) t->white_wins++;
        if (out->result == CHESS_RESULT_DRAW) t->draws++;
        if (out->result == CHESS_RESULT_BLACK_WINS) t->black_wins++;
    } else {
        snprintf(ending, sizeof ending, "FAILED");
        if (out->kind == OUTCOME_ILLEGAL) t->illegal++;
        if (out->kind == OUTCOME_CAPPED) t->capped++;
        if (out->kind == OUTCOME_ERROR) t->errors++;
    }
    printf("%s game %d/%d [%s]: %s, %d plies, %.0f s (%.0f min in all)%s%s\n", start_names[kind],
           index + 1, opt->games, out->start, ending, out->plies, (double)game_ms / 1000.0,
           (double)(now_ms() - s->started_ms) / 60000.0, out->detail[0] ? ": " : "", out->detail);
    if (t->finished == opt->games) print_summary(opt, kind, t);
    fflush(stdout);
    pthread_mutex_unlock(&s->lock);
}

static void *worker_main(void *arg) {
    struct shared *s = arg;
    const struct options *opt = s->opt;
    struct chess_tt *tt = chess_tt_create((size_t)opt->hash_mb << 20);
    if (!tt) {
        fprintf(stderr, "selfplay: cannot allocate a %d MB table\n", opt->hash_mb);
        exit(1);
    }
    int total = opt->variant_count * opt->games;
    for (int job; (job = atomic_fetch_add(&s->next_job, 1)) < total;) {
        int slot = job / opt->games, index = job % opt->games;
        enum start_kind kind = opt->variants[slot];
        struct game_outcome out;
        int64_t start = now_ms();
        play_game(opt, kind, index, tt, &out);
        record(s, kind, slot, index, &out, now_ms() - start);
    }
    chess_tt_destroy(tt);
    return NULL;
}

static void die(const char *what, const char *arg) {
    fprintf(stderr, "selfplay: %s%s%s\n%s", what, arg ? " " : "", arg ? arg : "", usage);
    exit(2);
}

static void load_fens(struct options *opt, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die("cannot open", path);
    char line[1024];
    int cap = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        struct chess_position pos;
        if (chess_fen_parse(&pos, line) < 0) die("bad FEN:", line);
        if (opt->fen_count == cap) {
            cap = cap ? cap * 2 : 256;
            char **fens = realloc(opt->fens, sizeof *fens * (size_t)cap);
            if (!fens) die("out of memory", NULL);
            opt->fens = fens;
        }
        if (!(opt->fens[opt->fen_count++] = strdup(line))) die("out of memory", NULL);
    }
    fclose(f);
    if (opt->fen_count == 0) die("no FENs in", path);
}

/* A whole number in [min, max] from argv[*i + 1], or a usage error. */
static long long number_arg(int *i, int argc, char **argv, long long min, long long max) {
    if (*i + 1 >= argc) die("missing value after", argv[*i]);
    char *end;
    long long v = strtoll(argv[++*i], &end, 10);
    if (*end || end == argv[*i] || v < min || v > max) die("bad value for", argv[*i - 1]);
    return v;
}

static void parse_args(struct options *opt, int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--variant") == 0 && i + 1 < argc) {
            const char *name = argv[++i];
            int k = 0;
            while (k < START_COUNT && strcmp(name, start_names[k]) != 0) k++;
            if (k == START_COUNT) die("unknown variant", name);
            if (opt->variant_count == MAX_VARIANTS) die("too many --variant", NULL);
            opt->variants[opt->variant_count++] = (enum start_kind)k;
        } else if (strcmp(a, "--games") == 0) {
            opt->games = (int)number_arg(&i, argc, argv, 1, 100000);
        } else if (strcmp(a, "--level") == 0) {
            opt->level = (int)number_arg(&i, argc, argv, CHESS_LEVEL_MIN, CHESS_LEVEL_MAX);
        } else if (strcmp(a, "--movetime") == 0) {
            opt->movetime_ms = number_arg(&i, argc, argv, 1, 3600000);
        } else if (strcmp(a, "--concurrency") == 0) {
            opt->concurrency = (int)number_arg(&i, argc, argv, 1, MAX_THREADS);
        } else if (strcmp(a, "--seed") == 0) {
            opt->seed = (uint64_t)number_arg(&i, argc, argv, 0, INT64_MAX);
        } else if (strcmp(a, "--random-plies") == 0) {
            opt->random_plies = (int)number_arg(&i, argc, argv, 0, 20);
        } else if (strcmp(a, "--max-plies") == 0) {
            opt->max_plies = (int)number_arg(&i, argc, argv, 1, CHESS_GAME_MAX_PLIES);
        } else if (strcmp(a, "--hash") == 0) {
            opt->hash_mb = (int)number_arg(&i, argc, argv, 1, 4096);
        } else if (strcmp(a, "--openings") == 0 && i + 1 < argc) {
            load_fens(opt, argv[++i]);
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            exit(0);
        } else {
            die("unknown argument", a);
        }
    }
    if (opt->variant_count == 0) {
        for (int k = 0; k < START_COUNT; k++)
            opt->variants[opt->variant_count++] = (enum start_kind)k;
    }
    for (int v = 0; v < opt->variant_count; v++) {
        if (opt->variants[v] == START_FEN && opt->fen_count == 0)
            die("fromPosition needs --openings FILE", NULL);
    }
}

int main(int argc, char **argv) {
    static struct options opt = {.games = 20,
                                 .level = CHESS_LEVEL_MAX,
                                 .concurrency = 2,
                                 .seed = 1,
                                 .random_plies = 2,
                                 .max_plies = 400,
                                 .hash_mb = 16};
    parse_args(&opt, argc, argv);
    int64_t per_move = opt.movetime_ms ? opt.movetime_ms : chess_level_get(opt.level)->movetime_ms;
    printf("selfplay: level %d, %lld ms a move (%s), %d games per variant, %d at once, one search "
           "thread and %d MB each, seed %llu, ply cap %d\n",
           opt.level, (long long)per_move, opt.movetime_ms ? "--movetime" : "the level's own",
           opt.games, opt.concurrency, opt.hash_mb, (unsigned long long)opt.seed, opt.max_plies);
    fflush(stdout);
    static struct shared s;
    s.opt = &opt;
    s.started_ms = now_ms();
    pthread_mutex_init(&s.lock, NULL);
    atomic_init(&s.next_job, 0);
    pthread_t tid[MAX_THREADS];
    int started = 0;
    while (started < opt.concurrency && pthread_create(&tid[started], NULL, worker_main, &s) == 0)
        started++;
    if (started == 0) {
        fprintf(stderr, "selfplay: cannot start a thread\n");
        return 1;
    }
    for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
    int failures = 0;
    printf("== all: %d variants, %d games each, %.0f min\n", opt.variant_count, opt.games,
           (double)(now_ms() - s.started_ms) / 60000.0);
    for (int v = 0; v < opt.variant_count; v++) {
        const struct variant_tally *t = &s.tally[v];
        failures += t->illegal + t->capped + t->errors;
        printf("   %-13s games %d  W/D/L %d/%d/%d  avg plies %.1f  illegal %d  capped %d  "
               "errors %d\n",
               start_names[opt.variants[v]], t->finished, t->white_wins, t->draws, t->black_wins,
               t->finished ? (double)t->plies / t->finished : 0.0, t->illegal, t->capped,
               t->errors);
    }
    printf("selfplay: %s\n", failures ? "FAILED" : "all games ended by the rules");
    for (int i = 0; i < opt.fen_count; i++) free(opt.fens[i]);
    free(opt.fens);
    return failures ? 1 : 0;
}
