/*
 * uci: the engine as a UCI program for GUIs and match runners.
 *
 * The main thread reads commands from stdin; "go" starts the search on a second thread, which
 * prints info lines and the bestmove itself, so that stop, ponderhit, isready and quit are
 * answered while it runs. Output from both threads goes through one lock. Commands that change
 * the position or the options first stop and join a running search. Anything malformed or
 * unknown is reported on an "info string" line and otherwise ignored; a position command with
 * an illegal move or a bad FEN leaves the previous position in place.
 *
 * Supported: uci, isready, ucinewgame, setoption (Hash, Threads, MultiPV, UCI_Chess960,
 * UCI_Variant: chess, kingofthehill or 3check, Ponder,
 * Skill Level, Move Overhead, nodestime: time as nodes / N ms, Level: the lobby's levels
 * 1-8, Use NNUE: the learned evaluation, EvalFile: its network file), position, go (wtime btime
 * winc binc movestogo depth nodes movetime infinite ponder), stop, ponderhit, quit; and for people:
 * d (show the position), eval. The search's constants (chess/search_params.h) are hidden options of
 * their own names, not listed by "uci", for tuning them (tests/bench/spsa.py); "params" lists them
 * with their values and ranges.
 *
 * Every search ends with "info nodes N time T nps X" (all threads' nodes) just before bestmove,
 * so that a match runner charging virtual time (nodestime) sees the nodes searched after the
 * last complete iteration too.
 */
#define _POSIX_C_SOURCE 200809L

#include <chess/eval.h>
#include <chess/fen.h>
#include <chess/level.h>
#include <chess/move.h>
#include <chess/movegen.h>
#include <chess/nnue.h>
#include <chess/search.h>

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define UCI_NAME        "chess-server engine"
#define UCI_AUTHOR      "the chess-server authors"
#define HASH_DEFAULT_MB 64
#define HASH_MAX_MB     65536
#define MAX_TOKENS      4096
#define NODESTIME_MAX   10000
#define BUILTIN_NET     "<builtin>"

/* Owned by the main thread, except what the search thread reads while it runs (req, tt). */
struct uci {
    struct chess_position pos;
    uint64_t *keys; /* keys of the positions before pos, oldest first */
    int key_count, key_capacity;

    struct chess_tt *tt;
    struct chess_search_memory *memory; /* what this game's searches learned; may be NULL */
    int hash_mb, threads, multipv, skill;
    int level; /* 0: off, else the lobby level 1..8 (overrides skill and limits) */
    int64_t overhead;
    int64_t nodestime; /* 0: wall clock; N: the search's time is nodes / N milliseconds */
    bool chess960;
    int variant;                  /* enum chess_variant: UCI_Variant */
    bool use_nnue;                /* evaluate with a network rather than the hand-written terms */
    struct chess_nnue *eval_file; /* EvalFile's network; NULL: the built-in one */
    struct chess_search_params params; /* the search's constants: defaults unless tuned */

    pthread_t thread;
    bool searching;       /* a search thread exists and has not been joined */
    atomic_bool finished; /* set by the search thread when it has printed bestmove */
    atomic_bool stop, ponder;
    struct chess_search_request req;
};

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* Prints one line atomically with respect to the other thread, and flushes it. */
static void say(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&out_lock);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    fflush(stdout);
    pthread_mutex_unlock(&out_lock);
    va_end(ap);
}

static int split(char *line, char **tokens, int max) {
    int n = 0;
    for (char *save = NULL, *t = strtok_r(line, " \t\r\n", &save); t && n < max;
         t = strtok_r(NULL, " \t\r\n", &save))
        tokens[n++] = t;
    return n;
}

/* ---- search thread ---------------------------------------------------------------------- */

static void format_score(int score, bool lower, bool upper, char *buf, size_t size) {
    const char *bound = lower ? " lowerbound" : upper ? " upperbound" : "";
    if (chess_score_is_mate(score))
        snprintf(buf, size, "mate %d%s", chess_score_mate_moves(score), bound);
    else
        snprintf(buf, size, "cp %d%s", score, bound);
}

/* Writes the PV as UCI moves, stopping at anything not legal (never expected). */
static void format_pv(const struct chess_position *root, const chess_move *pv, int n, char *buf,
                      size_t size) {
    struct chess_position pos = *root;
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len + CHESS_UCI_MAX + 1 < size; i++) {
        if (!chess_position_is_legal(&pos, pv[i])) break;
        char text[CHESS_UCI_MAX];
        chess_move_to_uci(&pos, pv[i], text);
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", text);
        chess_position_make_move(&pos, pv[i]);
    }
}

static void on_info(void *ctx, const struct chess_search_info *info) {
    const struct uci *u = ctx;
    char score[48], pv[CHESS_MAX_PLY * (CHESS_UCI_MAX + 1) + 1];
    format_score(info->score, info->lowerbound, info->upperbound, score, sizeof score);
    format_pv(&u->req.position, info->pv, info->pv_length, pv, sizeof pv);
    say("info depth %d seldepth %d multipv %d score %s nodes %" PRIu64 " nps %" PRIu64
        " hashfull %d time %" PRId64 " pv %s",
        info->depth, info->seldepth, info->multipv, score, info->nodes, info->nps, info->hashfull,
        info->time_ms, pv);
}

static void *search_main(void *arg) {
    struct uci *u = arg;
    struct chess_search_result res;
    if (chess_search(&u->req, u->tt, &res) < 0) say("info string search ran out of memory");
    uint64_t wall = res.time_ms > 0 ? (uint64_t)res.time_ms : 1;
    say("info nodes %" PRIu64 " time %" PRId64 " nps %" PRIu64, res.nodes, res.time_ms,
        res.nodes * 1000 / wall);
    char best[CHESS_UCI_MAX], ponder[CHESS_UCI_MAX];
    chess_move_to_uci(&u->req.position, res.best, best);
    struct chess_position next = u->req.position;
    /* Finished before the bestmove is out: a "go" that sees it will join this thread. */
    atomic_store(&u->finished, true);
    if (res.best != CHESS_MOVE_NONE && res.ponder != CHESS_MOVE_NONE) {
        chess_position_make_move(&next, res.best);
        chess_move_to_uci(&next, res.ponder, ponder);
        say("bestmove %s ponder %s", best, ponder);
    } else {
        say("bestmove %s", best);
    }
    return NULL;
}

/* Stops a running search (if any) and waits for its bestmove. */
static void finish_search(struct uci *u) {
    if (!u->searching) return;
    atomic_store(&u->stop, true);
    atomic_store(&u->ponder, false);
    pthread_join(u->thread, NULL);
    u->searching = false;
}

/* The variant a UCI_Variant value names, as Fairy-Stockfish and lichess's fishnet spell them
 * ("chess", "kingofthehill", "3check"), or -1. */
static int uci_variant(const char *value) {
    static const struct {
        const char *name;
        int variant;
    } names[] = {{"chess", CHESS_VARIANT_STANDARD},
                 {"standard", CHESS_VARIANT_STANDARD},
                 {"kingofthehill", CHESS_VARIANT_KING_OF_THE_HILL},
                 {"3check", CHESS_VARIANT_THREE_CHECK},
                 {"threecheck", CHESS_VARIANT_THREE_CHECK}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(names[i].name, value) == 0) return names[i].variant;
    return -1;
}

/* ---- options ---------------------------------------------------------------------------- */

static void print_options(void) {
    say("option name Hash type spin default %d min 1 max %d", HASH_DEFAULT_MB, HASH_MAX_MB);
    say("option name Threads type spin default 1 min 1 max 512");
    say("option name MultiPV type spin default 1 min 1 max %d", CHESS_MAX_MULTIPV);
    say("option name Ponder type check default false");
    say("option name UCI_Chess960 type check default false");
    say("option name UCI_Variant type combo default chess var chess var kingofthehill var 3check");
    say("option name Skill Level type spin default %d min 0 max %d", CHESS_SKILL_MAX,
        CHESS_SKILL_MAX);
    say("option name Move Overhead type spin default 50 min 0 max 5000");
    say("option name nodestime type spin default 0 min 0 max %d", NODESTIME_MAX);
    say("option name Level type spin default 0 min 0 max %d", CHESS_LEVEL_MAX);
    say("option name Use NNUE type check default true");
    say("option name EvalFile type string default " BUILTIN_NET);
}

/* The network the next search evaluates with, or NULL for the hand-written evaluation. */
static const struct chess_nnue *search_network(const struct uci *u) {
    if (!u->use_nnue) return NULL;
    return u->eval_file ? u->eval_file : chess_nnue_builtin();
}

/* Reads a network file; NULL (after saying why) when it cannot be read or is not a network. */
static struct chess_nnue *read_network(const char *path) {
    size_t want = chess_nnue_file_size();
    unsigned char *bytes = malloc(want + 1);
    FILE *f = fopen(path, "rb");
    struct chess_nnue *net = NULL;
    if (!bytes || !f) {
        say("info string cannot read EvalFile %s", path);
        goto done;
    }
    /* This build's file is the largest it reads; chess_nnue_create() judges the size. */
    size_t got = fread(bytes, 1, want + 1, f);
    net = chess_nnue_create(bytes, got);
    if (!net) say("info string EvalFile %s is not a network of this engine's shape", path);
done:
    if (f) fclose(f);
    free(bytes);
    return net;
}

/* For tuning tools: each search constant's value and range, then "paramsok". */
static void print_search_params(const struct chess_search_params *params) {
    for (int i = 0; i < chess_search_params_count(); i++) {
        const struct chess_search_param_info *info = chess_search_param_info(i);
        say("param %s value %d default %d min %d max %d", info->name,
            chess_search_params_get(params, i), info->default_value, info->min, info->max);
    }
    say("paramsok");
}

static int resize_hash(struct uci *u, int mb) {
    struct chess_tt *tt = chess_tt_create((size_t)mb << 20);
    if (!tt) return -1;
    chess_tt_destroy(u->tt);
    u->tt = tt;
    u->hash_mb = mb;
    return 0;
}

static bool parse_int(const char *text, long min, long max, long *out) {
    char *end;
    if (!text) return false;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < min || v > max) return false;
    *out = v;
    return true;
}

static bool parse_bool(const char *text, bool *out) {
    if (text && strcasecmp(text, "true") == 0)
        *out = true;
    else if (text && strcasecmp(text, "false") == 0)
        *out = false;
    else
        return false;
    return true;
}

/* Applies one option; returns false when the name or value is not acceptable. */
static bool apply_option(struct uci *u, const char *name, const char *value) {
    long v;
    bool b;
    if (strcasecmp(name, "Hash") == 0) {
        if (!parse_int(value, 1, HASH_MAX_MB, &v)) return false;
        if (resize_hash(u, (int)v) < 0) say("info string not enough memory for Hash %ld", v);
    } else if (strcasecmp(name, "Threads") == 0 && parse_int(value, 1, 512, &v)) {
        u->threads = (int)v;
    } else if (strcasecmp(name, "MultiPV") == 0 && parse_int(value, 1, CHESS_MAX_MULTIPV, &v)) {
        u->multipv = (int)v;
    } else if (strcasecmp(name, "Skill Level") == 0 && parse_int(value, 0, CHESS_SKILL_MAX, &v)) {
        u->skill = (int)v;
    } else if (strcasecmp(name, "Level") == 0 && parse_int(value, 0, CHESS_LEVEL_MAX, &v)) {
        u->level = (int)v;
    } else if (strcasecmp(name, "Move Overhead") == 0 && parse_int(value, 0, 5000, &v)) {
        u->overhead = v;
    } else if (strcasecmp(name, "nodestime") == 0 && parse_int(value, 0, NODESTIME_MAX, &v)) {
        u->nodestime = v;
    } else if (strcasecmp(name, "UCI_Variant") == 0 && value && uci_variant(value) >= 0) {
        u->variant = uci_variant(value);
        chess_position_set_variant(&u->pos, u->variant);
    } else if (strcasecmp(name, "UCI_Chess960") == 0 && parse_bool(value, &b)) {
        u->chess960 = b;
        u->pos.chess960 = b || u->pos.chess960;
    } else if (strcasecmp(name, "Use NNUE") == 0 && parse_bool(value, &b)) {
        u->use_nnue = b;
    } else if (strcasecmp(name, "EvalFile") == 0 && value) {
        struct chess_nnue *net = NULL;
        if (strcmp(value, BUILTIN_NET) != 0 && !(net = read_network(value))) return false;
        chess_nnue_destroy(u->eval_file);
        u->eval_file = net;
    } else if (strcasecmp(name, "Ponder") == 0 && parse_bool(value, &b)) {
        /* Nothing to set up: pondering happens when the GUI says "go ponder". */
    } else if (parse_int(value, INT_MIN, INT_MAX, &v) &&
               chess_search_params_set(&u->params, name, (int)v) == 0) {
        /* A search constant, for tuning. */
    } else {
        return false;
    }
    return true;
}

/* setoption name <words...> [value <words...>] */
static void cmd_setoption(struct uci *u, char **tok, int n) {
    char name[256] = "", value[256] = "";
    char *dest = NULL;
    for (int i = 1; i < n; i++) {
        if (strcmp(tok[i], "name") == 0 && dest == NULL) {
            dest = name;
        } else if (strcmp(tok[i], "value") == 0 && dest == name) {
            dest = value;
        } else if (dest) {
            if (*dest) strncat(dest, " ", 255 - strlen(dest));
            strncat(dest, tok[i], 255 - strlen(dest));
        }
    }
    if (!*name) {
        say("info string setoption needs: setoption name <name> [value <value>]");
        return;
    }
    finish_search(u);
    if (!apply_option(u, name, *value ? value : NULL))
        say("info string unknown option or bad value: %s = %s", name, *value ? value : "(none)");
}

/* ---- position --------------------------------------------------------------------------- */

static int push_key(uint64_t **keys, int *count, int *capacity, uint64_t key) {
    if (*count == *capacity) {
        int cap = *capacity ? *capacity * 2 : 256;
        uint64_t *grown = realloc(*keys, sizeof(uint64_t) * (size_t)cap);
        if (!grown) return -1;
        *keys = grown;
        *capacity = cap;
    }
    (*keys)[(*count)++] = key;
    return 0;
}

/* Parses "startpos" or "fen ..." at tok[1] under the variant set; returns the index after it,
 * or -1. */
static int parse_root(struct uci *u, char **tok, int n, struct chess_position *pos) {
    if (n >= 2 && strcmp(tok[1], "startpos") == 0) {
        chess_position_startpos(pos);
        chess_position_set_variant(pos, u->variant);
        return 2;
    }
    if (n < 3 || strcmp(tok[1], "fen") != 0) {
        say("info string position needs startpos or fen");
        return -1;
    }
    char fen[512] = "";
    int i = 2;
    for (; i < n && strcmp(tok[i], "moves") != 0; i++) {
        if (*fen) strncat(fen, " ", sizeof fen - strlen(fen) - 1);
        strncat(fen, tok[i], sizeof fen - strlen(fen) - 1);
    }
    int rc = chess_fen_parse_variant(pos, fen, u->variant);
    if (rc < 0) {
        say("info string bad FEN (%s): %s; position unchanged", chess_error_name(rc), fen);
        return -1;
    }
    return i;
}

static void cmd_position(struct uci *u, char **tok, int n) {
    struct chess_position pos;
    int i = parse_root(u, tok, n, &pos);
    if (i < 0) return;
    if (u->chess960) pos.chess960 = true;
    uint64_t *keys = NULL;
    int count = 0, capacity = 0;
    if (i < n && strcmp(tok[i], "moves") != 0) {
        say("info string position: expected moves, got %s; position unchanged", tok[i]);
        return;
    }
    for (i++; i < n; i++) {
        chess_move m;
        if (chess_move_from_uci(&pos, tok[i], &m) < 0) {
            say("info string illegal move %s in position command; position unchanged", tok[i]);
            free(keys);
            return;
        }
        if (push_key(&keys, &count, &capacity, pos.key) < 0) {
            say("info string out of memory; position unchanged");
            free(keys);
            return;
        }
        chess_position_make_move(&pos, m);
    }
    finish_search(u);
    free(u->keys);
    u->keys = keys;
    u->key_count = count;
    u->key_capacity = capacity;
    u->pos = pos;
}

/* ---- go --------------------------------------------------------------------------------- */

/* Reads the go parameters into the request's limits; false on a malformed command. */
static bool parse_go(char **tok, int n, struct chess_search_limits *lim, bool *ponder) {
    for (int i = 1; i < n; i++) {
        long v = 0;
        const char *key = tok[i];
        if (strcmp(key, "infinite") == 0) {
            lim->infinite = true;
            continue;
        }
        if (strcmp(key, "ponder") == 0) {
            *ponder = true;
            continue;
        }
        if (i + 1 >= n || !parse_int(tok[i + 1], -1000000000L, 1000000000L, &v)) {
            say("info string go: %s needs a number", key);
            return false;
        }
        i++;
        if (strcmp(key, "wtime") == 0)
            lim->time_ms[CHESS_WHITE] = v > 0 ? v : 1;
        else if (strcmp(key, "btime") == 0)
            lim->time_ms[CHESS_BLACK] = v > 0 ? v : 1;
        else if (strcmp(key, "winc") == 0)
            lim->inc_ms[CHESS_WHITE] = v > 0 ? v : 0;
        else if (strcmp(key, "binc") == 0)
            lim->inc_ms[CHESS_BLACK] = v > 0 ? v : 0;
        else if (strcmp(key, "movestogo") == 0)
            lim->movestogo = v > 0 ? (int)v : 0;
        else if (strcmp(key, "depth") == 0)
            lim->depth = v > 0 ? (int)v : 1;
        else if (strcmp(key, "nodes") == 0)
            lim->nodes = v > 0 ? (uint64_t)v : 1;
        else if (strcmp(key, "movetime") == 0)
            lim->movetime_ms = v > 0 ? v : 1;
        else
            say("info string go: ignoring unknown parameter %s", key);
    }
    return true;
}

static bool has_limit(const struct chess_search_limits *lim) {
    return lim->depth || lim->nodes || lim->movetime_ms || lim->time_ms[0] || lim->time_ms[1] ||
           lim->inc_ms[0] || lim->inc_ms[1];
}

static void cmd_go(struct uci *u, char **tok, int n) {
    struct chess_search_limits lim;
    memset(&lim, 0, sizeof lim);
    bool ponder = false;
    if (!parse_go(tok, n, &lim, &ponder)) return;
    if (u->searching && !atomic_load(&u->finished)) {
        say("info string already searching; send stop first");
        return;
    }
    if (!has_limit(&lim)) lim.infinite = true;
    finish_search(u);

    chess_search_request_init(&u->req, &u->pos);
    u->req.history = u->keys;
    u->req.history_count = u->key_count;
    u->req.limits = lim;
    u->req.threads = u->threads;
    u->req.multipv = u->multipv;
    u->req.skill = u->skill;
    u->req.seed = (uint64_t)u->key_count * 0x9E3779B97F4A7C15ull ^ u->pos.key;
    u->req.move_overhead_ms = u->overhead;
    u->req.nodestime = u->nodestime;
    u->req.params = &u->params;
    u->req.nnue = search_network(u);
    u->req.stop = &u->stop;
    u->req.ponder = &u->ponder;
    u->req.on_info = on_info;
    u->req.info_ctx = u;
    /* The lobby's levels were calibrated, and the server plays them, without a memory. */
    u->req.memory = u->level ? NULL : u->memory;
    if (u->level && chess_level_apply(u->level, &u->req) < 0) say("info string bad level");
    atomic_store(&u->stop, false);
    atomic_store(&u->ponder, ponder);
    atomic_store(&u->finished, false);
    if (pthread_create(&u->thread, NULL, search_main, u) != 0) {
        say("info string cannot start the search thread");
        return;
    }
    u->searching = true;
}

/* ---- the rest --------------------------------------------------------------------------- */

static void cmd_display(const struct uci *u) {
    char fen[CHESS_FEN_MAX];
    if (chess_fen_write(&u->pos, CHESS_FEN_XFEN, fen, sizeof fen) < 0) return;
    for (int rank = 7; rank >= 0; rank--) {
        char row[17];
        for (int file = 0; file < 8; file++) {
            int piece = u->pos.board[CHESS_SQUARE(file, rank)];
            char c = piece ? " pnbrqk"[CHESS_PIECE_TYPE(piece)] : '.';
            row[2 * file] = CHESS_PIECE_COLOR(piece) == CHESS_WHITE && piece ? (char)toupper(c) : c;
            row[2 * file + 1] = ' ';
        }
        row[16] = '\0';
        say("%s", row);
    }
    say("fen %s", fen);
    say("key %016" PRIx64, u->pos.key);
}

/* Returns false on quit. */
static bool handle(struct uci *u, char *line) {
    char *tok[MAX_TOKENS];
    int n = split(line, tok, MAX_TOKENS);
    if (n == 0) return true;
    const char *cmd = tok[0];
    if (strcmp(cmd, "uci") == 0) {
        say("id name " UCI_NAME);
        say("id author " UCI_AUTHOR);
        print_options();
        say("uciok");
    } else if (strcmp(cmd, "isready") == 0) {
        say("readyok");
    } else if (strcmp(cmd, "ucinewgame") == 0) {
        finish_search(u);
        chess_tt_clear(u->tt);
        if (u->memory) chess_search_memory_clear(u->memory);
    } else if (strcmp(cmd, "setoption") == 0) {
        cmd_setoption(u, tok, n);
    } else if (strcmp(cmd, "position") == 0) {
        cmd_position(u, tok, n);
    } else if (strcmp(cmd, "go") == 0) {
        cmd_go(u, tok, n);
    } else if (strcmp(cmd, "stop") == 0) {
        finish_search(u);
    } else if (strcmp(cmd, "ponderhit") == 0) {
        atomic_store(&u->ponder, false);
    } else if (strcmp(cmd, "quit") == 0) {
        finish_search(u);
        return false;
    } else if (strcmp(cmd, "d") == 0) {
        cmd_display(u);
    } else if (strcmp(cmd, "params") == 0) {
        print_search_params(&u->params);
    } else if (strcmp(cmd, "eval") == 0) {
        say("info string static eval %d cp (side to move)", chess_evaluate(&u->pos));
        const struct chess_nnue *net = u->eval_file ? u->eval_file : chess_nnue_builtin();
        say("info string network eval %d cp (side to move)", chess_nnue_evaluate(net, &u->pos));
    } else if (strcmp(cmd, "debug") == 0 || strcmp(cmd, "register") == 0) {
        /* accepted and ignored, as the protocol allows */
    } else {
        say("info string unknown command: %s", cmd);
    }
    return true;
}

int main(void) {
    static struct uci u;
    chess_position_startpos(&u.pos);
    u.threads = 1;
    u.use_nnue = true;
    u.multipv = 1;
    u.skill = CHESS_SKILL_MAX;
    u.overhead = 50;
    chess_search_params_default(&u.params);
    atomic_init(&u.finished, false);
    atomic_init(&u.stop, false);
    atomic_init(&u.ponder, false);
    if (resize_hash(&u, HASH_DEFAULT_MB) < 0 && resize_hash(&u, 1) < 0) {
        fprintf(stderr, "uci: cannot allocate the transposition table\n");
        return 1;
    }
    u.memory = chess_search_memory_create();
    if (!u.memory) say("info string out of memory: each search starts without history");
    char *line = NULL;
    size_t size = 0;
    while (getline(&line, &size, stdin) >= 0) {
        if (!handle(&u, line)) break;
    }
    finish_search(&u);
    free(line);
    free(u.keys);
    chess_tt_destroy(u.tt);
    chess_search_memory_destroy(u.memory);
    chess_nnue_destroy(u.eval_file);
    return 0;
}
