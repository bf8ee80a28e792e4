/*
 * datagen: self-play games that produce training positions for the evaluation tuner.
 *
 *   datagen [--games N] [--threads T] [--nodes K] [--random-plies R] [--seed S] [--eval E]
 *           [--start FEN] [--format text|games] --out FILE
 *   datagen --book N [--random-plies R] [--seed S] --out FILE
 *
 * Each game starts with R random legal plies (rejected when a short search finds the result
 * lopsided; with --start, every game starts from FEN instead, with no random plies), then the
 * engine plays both sides with K nodes per move. The rules core ends the
 * game (mate, stalemate, repetition, fifty moves, insufficient material); each game's searches
 * share a search memory (histories), as in a UCI game. A game where one side
 * scores above 15 pawns for eight plies in a row is adjudicated, and so is one where a side
 * with a queen, a rook, bishop and knight or two bishops faces a bare king: the side wins, since
 * short searches often cannot find the mate and would let the game drift to a fifty-move
 * draw, teaching the evaluation that such material draws. Quiet positions (not in check,
 * best move not a capture or promotion, no mate score) are written one per line as
 *
 *   FEN | RESULT | SCORE
 *
 * RESULT is 1, 0.5 or 0 for white; SCORE is the search's score in centipawns for white. The
 * searches evaluate with the hand-written evaluation (--eval hce, the default) or the built-in
 * network (--eval nnue). With --format games it writes each game's moves and scores instead
 * (game_record.h), from which nnue_data --games recovers the same positions in a twentieth of the
 * space; appending to a file already holding records continues its stream. SIGINT or SIGTERM
 * stops it between moves: the games in progress are dropped, so the output ends with a whole
 * game in either format.
 *
 * With --book it writes N distinct opening positions (FEN per line) for the match tool instead:
 * R plies each chosen at random among the moves a short MultiPV search finds within 30
 * centipawns of the best, kept when the final position is within 60 centipawns of equal.
 * Regenerate the data with scripts in tests/bench (see docs/engine.md); it is not kept in git.
 */
#define _POSIX_C_SOURCE 200809L

#include "game_record.h"

#include <chess/fen.h>
#include <chess/game.h>
#include <chess/movegen.h>
#include <chess/search.h>

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct options {
    int games, threads, random_plies, book;
    bool game_records; /* --format games */
    uint64_t nodes, seed;
    const struct chess_position *start; /* NULL: random openings from the start position */
    const struct chess_nnue *nnue;      /* NULL: the hand-written evaluation */
    FILE *out;
};

/* Shared between threads; `lock` guards the output file and the counters. */
struct shared {
    const struct options *opt;
    pthread_mutex_t lock;
    atomic_int next_game;
    long positions;
    int finished;
};

/* Set by SIGINT or SIGTERM: the process's one signal flag, read by every thread. */
static volatile sig_atomic_t stop_requested;

static void request_stop(int sig) {
    (void)sig;
    stop_requested = 1;
}

struct sample {
    char fen[CHESS_FEN_MAX];
    int score; /* white's point of view */
};

/* What one game produced: its training positions, and the whole game as a record. */
struct game_output {
    struct sample samples[GAME_RECORD_MAX_PLIES];
    int sample_count;
    struct game_record record;
};

static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Collects the depth-limited MultiPV lines within `margin` of the best at the last depth. */
struct book_lines {
    struct chess_move_list *moves;
    int best, depth;
};

static void collect_line(void *ctx, const struct chess_search_info *info) {
    struct book_lines *b = ctx;
    if (info->depth != b->depth || info->pv_length < 1) return;
    if (info->multipv == 1) {
        b->best = info->score;
        b->moves->count = 0;
    }
    if (info->score >= b->best - 30) b->moves->moves[b->moves->count++] = info->pv[0];
}

/* One search of the game's position; `memory` (may be NULL) is the game's search memory. */
static int search_move(const struct options *opt, const struct chess_game *game,
                       struct chess_tt *tt, struct chess_search_memory *memory, uint64_t nodes,
                       struct chess_search_result *res) {
    struct chess_search_request req;
    chess_search_request_init(&req, &game->current);
    req.nnue = opt->nnue;
    req.memory = memory;
    req.history = game->keys;
    req.history_count = game->ply_count;
    req.limits.nodes = nodes;
    return chess_search(&req, tt, res);
}

/* Plays the random opening; returns 0, or -1 when it ended the game or looks lopsided. */
static int random_opening(const struct options *opt, struct chess_game *game, struct chess_tt *tt,
                          uint64_t *rng) {
    int plies = opt->random_plies;
    for (int i = 0; i < plies; i++) {
        struct chess_move_list list;
        if (chess_generate_moves(&game->current, CHESS_GEN_ALL, &list) == 0) return -1;
        if (chess_game_play(game, list.moves[rng_next(rng) % (uint64_t)list.count]) < 0) return -1;
        if (game->result != CHESS_RESULT_NONE) return -1;
    }
    struct chess_search_result res;
    if (search_move(opt, game, tt, NULL, 5000, &res) < 0 || res.best == CHESS_MOVE_NONE) return -1;
    return res.score > 150 || res.score < -150 ? -1 : 0;
}

static uint8_t result_code(enum chess_result r) {
    return r == CHESS_RESULT_WHITE_WINS ? 2 : r == CHESS_RESULT_BLACK_WINS ? 0 : 1;
}

/* Adds a ply to the game's record: the move's index, and the score or GAME_RECORD_NO_SCORE. */
static int record_ply(struct game_record *rec, const struct chess_position *pos, chess_move m,
                      int score) {
    int index = game_record_move_index(pos, m);
    if (index < 0 || rec->plies == GAME_RECORD_MAX_PLIES) return -1;
    rec->moves[rec->plies] = (uint8_t)index;
    rec->scores[rec->plies++] = (int16_t)score;
    return 0;
}

/* Plays a game from its start: the random opening (recorded without scores) unless --start.
 * On failure the game is freed. */
static int start_game(const struct options *opt, struct chess_game *game, struct chess_tt *tt,
                      uint64_t *rng, struct game_record *rec) {
    for (;;) {
        if (chess_game_init(game, opt->start) < 0) return -1;
        chess_tt_clear(tt);
        if (opt->start || random_opening(opt, game, tt, rng) == 0) break;
        chess_game_free(game);
    }
    rec->plies = 0;
    rec->start[0] = '\0';
    int rc = 0;
    if (opt->start &&
        chess_fen_write(&game->start, CHESS_FEN_XFEN, rec->start, sizeof rec->start) <= 0)
        rc = -1;
    struct chess_position pos = game->start;
    for (int i = 0; rc == 0 && i < game->ply_count; i++) {
        rc = record_ply(rec, &pos, game->moves[i], GAME_RECORD_NO_SCORE);
        chess_position_make_move(&pos, game->moves[i]);
    }
    if (rc < 0) chess_game_free(game);
    return rc;
}

/* Plays one game into out (its training positions and its record); returns 0, 1 when a stop
 * was requested before it ended, or -1. */
static int play_game(const struct options *opt, struct chess_tt *tt,
                     struct chess_search_memory *memory, uint64_t *rng, struct game_output *out) {
    struct chess_game game;
    struct game_record *rec = &out->record;
    out->sample_count = 0;
    if (start_game(opt, &game, tt, rng, rec) < 0) return -1;
    chess_search_memory_clear(memory);
    int lopsided = 0, rc = 0;
    while (game.result == CHESS_RESULT_NONE && game.ply_count < 600) {
        if (stop_requested) {
            rc = 1;
            break;
        }
        struct chess_search_result res;
        if (search_move(opt, &game, tt, memory, opt->nodes, &res) < 0 ||
            res.best == CHESS_MOVE_NONE)
            break;
        int white_score = game.current.side == CHESS_WHITE ? res.score : -res.score;
        lopsided = white_score > 1500 || white_score < -1500 ? lopsided + 1 : 0;
        if (lopsided >= 8) {
            chess_game_end(&game,
                           white_score > 0 ? CHESS_RESULT_WHITE_WINS : CHESS_RESULT_BLACK_WINS,
                           CHESS_TERM_RESIGNATION);
            break;
        }
        bool quiet = !chess_position_in_check(&game.current) &&
                     !chess_position_is_capture(&game.current, res.best) &&
                     chess_move_kind(res.best) != CHESS_MOVE_PROMOTION &&
                     !chess_score_is_mate(res.score);
        if (quiet) {
            struct sample *s = &out->samples[out->sample_count++];
            if (chess_fen_write(&game.current, CHESS_FEN_XFEN, s->fen, CHESS_FEN_MAX) <= 0) {
                rc = -1;
                break;
            }
            s->score = white_score;
        }
        if (record_ply(rec, &game.current, res.best, quiet ? white_score : GAME_RECORD_NO_SCORE) <
                0 ||
            chess_game_play(&game, res.best) < 0) {
            rc = -1;
            break;
        }
        enum chess_termination claim = chess_game_claimable_draw(&game);
        if (claim != CHESS_TERM_NONE) {
            chess_game_end(&game, CHESS_RESULT_DRAW, claim);
            break;
        }
        int winner = chess_position_bare_king_winner(&game.current);
        if (winner >= 0 && game.result == CHESS_RESULT_NONE) {
            chess_game_end(
                &game, winner == CHESS_WHITE ? CHESS_RESULT_WHITE_WINS : CHESS_RESULT_BLACK_WINS,
                CHESS_TERM_RESIGNATION);
            break;
        }
    }
    rec->result = result_code(game.result != CHESS_RESULT_NONE ? game.result : CHESS_RESULT_DRAW);
    chess_game_free(&game);
    return rc;
}

/* Writes one game's output in the chosen format; called with the output lock held. */
static int write_game(const struct options *opt, const struct game_output *g) {
    if (opt->game_records) return game_record_write(opt->out, &g->record);
    static const char *const results[3] = {"0.0", "0.5", "1.0"};
    for (int i = 0; i < g->sample_count; i++) {
        if (fprintf(opt->out, "%s | %s | %d\n", g->samples[i].fen, results[g->record.result],
                    g->samples[i].score) < 0)
            return -1;
    }
    return 0;
}

static void *thread_main(void *arg) {
    struct shared *sh = arg;
    const struct options *opt = sh->opt;
    struct chess_tt *tt = chess_tt_create(8u << 20);
    struct chess_search_memory *memory = chess_search_memory_create();
    struct game_output *game = malloc(sizeof *game);
    if (!tt || !memory || !game) {
        fprintf(stderr, "datagen: out of memory\n");
        exit(1);
    }
    for (;;) {
        int index = atomic_fetch_add(&sh->next_game, 1);
        if (index >= opt->games || stop_requested) break;
        uint64_t rng = opt->seed * 1000003u + (uint64_t)index;
        int played = play_game(opt, tt, memory, &rng, game);
        if (played < 0) {
            fprintf(stderr, "datagen: game %d could not be recorded\n", index);
            exit(1);
        }
        if (played > 0) break; /* stopped: the unfinished game is dropped */
        pthread_mutex_lock(&sh->lock);
        if (write_game(opt, game) < 0) {
            fprintf(stderr, "datagen: write failed\n");
            exit(1);
        }
        sh->positions += game->sample_count;
        if (++sh->finished % 100 == 0) {
            fflush(opt->out);
            fprintf(stderr, "datagen: %d games, %ld positions\n", sh->finished, sh->positions);
        }
        pthread_mutex_unlock(&sh->lock);
    }
    free(game);
    chess_search_memory_destroy(memory);
    chess_tt_destroy(tt);
    return NULL;
}

/* One natural-looking opening move: random among the lines close to the best. */
static int book_move(const struct chess_game *game, struct chess_tt *tt, uint64_t *rng,
                     chess_move *move) {
    struct chess_search_request req;
    chess_search_request_init(&req, &game->current);
    req.limits.depth = 7;
    req.multipv = 6;
    struct chess_search_result res;
    struct chess_move_list lines;
    lines.count = 0;
    struct book_lines ctx = {&lines, 0, 7};
    req.on_info = collect_line;
    req.info_ctx = &ctx;
    if (chess_search(&req, tt, &res) < 0 || res.best == CHESS_MOVE_NONE) return -1;
    *move = lines.count ? lines.moves[rng_next(rng) % (uint64_t)lines.count] : res.best;
    return 0;
}

static int write_book(const struct options *opt) {
    struct chess_tt *tt = chess_tt_create(16u << 20);
    uint64_t *seen = calloc((size_t)opt->book, sizeof *seen);
    if (!tt || !seen) return -1;
    uint64_t rng = opt->seed;
    int written = 0;
    while (written < opt->book) {
        struct chess_game game;
        if (chess_game_init(&game, NULL) < 0) break;
        bool ok = true;
        for (int i = 0; ok && i < opt->random_plies; i++) {
            chess_move m;
            ok = book_move(&game, tt, &rng, &m) == 0 && chess_game_play(&game, m) == 0 &&
                 game.result == CHESS_RESULT_NONE;
        }
        struct chess_search_result res;
        ok = ok && search_move(opt, &game, tt, NULL, 200000, &res) == 0 && res.score < 60 &&
             res.score > -60;
        for (int i = 0; ok && i < written; i++) ok = seen[i] != game.current.key;
        char fen[CHESS_FEN_MAX];
        if (ok && chess_fen_write(&game.current, CHESS_FEN_XFEN, fen, sizeof fen) > 0) {
            fprintf(opt->out, "%s\n", fen);
            seen[written++] = game.current.key;
        }
        chess_game_free(&game);
    }
    free(seen);
    chess_tt_destroy(tt);
    return 0;
}

static const char usage[] =
    "usage: datagen [--games N] [--threads T] [--nodes K] [--random-plies R (0-100)] "
    "[--seed S] [--eval hce|nnue] [--start FEN] [--format text|games] --out FILE\n"
    "       datagen --book N [--random-plies R] [--seed S] --out FILE\n";

int main(int argc, char **argv) {
    struct options opt = {.games = 100, .threads = 1, .random_plies = 8, .nodes = 5000, .seed = 1};
    const char *path = NULL;
    struct chess_position start;
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "datagen: %s needs a value\n", a);
            return 2;
        }
        if (strcmp(a, "--games") == 0)
            opt.games = atoi(v);
        else if (strcmp(a, "--threads") == 0)
            opt.threads = atoi(v);
        else if (strcmp(a, "--nodes") == 0)
            opt.nodes = strtoull(v, NULL, 10);
        else if (strcmp(a, "--random-plies") == 0 && atoi(v) >= 0 && atoi(v) <= 100)
            opt.random_plies = atoi(v);
        else if (strcmp(a, "--seed") == 0)
            opt.seed = strtoull(v, NULL, 10);
        else if (strcmp(a, "--book") == 0)
            opt.book = atoi(v);
        else if (strcmp(a, "--eval") == 0 && (strcmp(v, "hce") == 0 || strcmp(v, "nnue") == 0))
            opt.nnue = strcmp(v, "nnue") == 0 ? chess_nnue_builtin() : NULL;
        else if (strcmp(a, "--out") == 0)
            path = v;
        else if (strcmp(a, "--format") == 0 && (strcmp(v, "text") == 0 || strcmp(v, "games") == 0))
            opt.game_records = strcmp(v, "games") == 0;
        else if (strcmp(a, "--start") == 0 && chess_fen_parse(&start, v) == 0)
            opt.start = &start;
        else {
            fprintf(stderr, "datagen: bad option %s %s\n", a, v);
            return 2;
        }
        i++;
    }
    if (!path || opt.threads < 1 || opt.threads > 64) {
        fputs(usage, stderr);
        return 2;
    }
    opt.out = fopen(path, opt.game_records ? "ab" : "a");
    if (!opt.out) {
        fprintf(stderr, "datagen: cannot open %s\n", path);
        return 1;
    }
    /* A new game-record file starts with the stream's magic; an old one continues its stream. */
    if (opt.game_records && !opt.book &&
        (fseek(opt.out, 0, SEEK_END) != 0 ||
         (ftell(opt.out) == 0 && game_record_write_magic(opt.out) < 0))) {
        fprintf(stderr, "datagen: cannot write %s\n", path);
        (void)fclose(opt.out); /* failing already */
        return 1;
    }
    if (opt.book > 0) {
        int rc = write_book(&opt);
        if (fclose(opt.out) != 0) rc = -1;
        return rc < 0 ? 1 : 0;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = request_stop;
    if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0) {
        fprintf(stderr, "datagen: cannot set signal handlers\n");
        return 1;
    }
    struct shared sh = {.opt = &opt, .positions = 0, .finished = 0};
    if (pthread_mutex_init(&sh.lock, NULL) != 0) return 1;
    atomic_init(&sh.next_game, 0);
    pthread_t tid[64];
    for (int i = 0; i < opt.threads; i++) {
        if (pthread_create(&tid[i], NULL, thread_main, &sh) != 0) {
            fprintf(stderr, "datagen: cannot start threads\n");
            return 1;
        }
    }
    for (int i = 0; i < opt.threads; i++) pthread_join(tid[i], NULL);
    fprintf(stderr, "datagen: %d games, %ld positions\n", sh.finished, sh.positions);
    if (fclose(opt.out) != 0) {
        fprintf(stderr, "datagen: cannot write %s\n", path);
        return 1;
    }
    return 0;
}
