/*
 * match: plays two UCI engines against each other and measures the difference in strength.
 *
 *   match --engine cmd=PATH [name=N] [option.NAME=VALUE ...] [tc=S+I | st=S | depth=D | nodes=N]
 *               [nodestime=N]
 *         --engine ...  [--each KEY=VALUE ...]
 *         [--games N] [--concurrency N] [--openings FILE] [--pgnout FILE] [--margin MS]
 *         [--sprt elo0=E0 elo1=E1 [alpha=A beta=B]]
 *         [--draw movenumber=N movecount=M score=S] [--resign movecount=M score=S] [--quiet]
 *   match --pool LOG [LOG ...] [--sprt ...]
 *   (match --help prints the details)
 *
 * Each opening (a FEN per line, or "startpos moves ..."; a built-in set when no file is given)
 * is played twice, once with each engine as white; more games than that use the openings again,
 * which is refused for two deterministic engines (node, depth or nodestime limits on one
 * thread), whose repeated games would be exact copies. The project's rules core (chess_game) is
 * the arbiter: illegal moves, checkmate, stalemate, repetition, the fifty-move rule, insufficient
 * material and losses on time (clock measured here, from "go" to "bestmove", or a virtual
 * clock with nodestime; a flag against a side that cannot mate is a draw). Threefold repetition and
 * fifty moves end the game as if claimed. Optional adjudication ends long decided or dead games
 * early from the engines' scores.
 *
 * Prints each game, then the first engine's wins, losses and draws, its score, the Elo
 * difference with a 95% error bar, and with --sprt the log-likelihood ratio and verdict. Games
 * run on --concurrency threads, each with its own pair of engine processes. --pool plays nothing:
 * it sums the last summaries of several such logs (runs of one pairing side by side on different
 * openings) and prints them as one match's.
 */
#define _POSIX_C_SOURCE 200809L

#include <chess/fen.h>
#include <chess/game.h>
#include <chess/move.h>
#include <chess/pgn.h>

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_OPTIONS  32
#define LINE_MAX_LEN 65536
/* Virtual clocks: a move with no output for this long (wall, while the match runs) is flagged. */
#define VIRTUAL_SILENCE_MS (15 * 60 * 1000)

struct engine_spec {
    const char *cmd;
    const char *name;
    const char *opt_name[MAX_OPTIONS];
    const char *opt_value[MAX_OPTIONS];
    int opt_count;
    int64_t base_ms, inc_ms, movetime_ms;
    int depth;
    long long nodes;
    long long nodestime; /* > 0: the engine's clock is virtual, nodes / nodestime ms a move */
};

/* One running engine process; owned by one game thread. */
struct engine {
    const struct engine_spec *spec;
    pid_t pid;
    int to_fd, from_fd;
    char buf[LINE_MAX_LEN];
    size_t len;
    int last_score; /* last score reported before bestmove, cp (mates as +-100000) */
    bool has_score;
};

struct adjudication {
    int draw_movenumber, draw_movecount, draw_score;
    int resign_movecount, resign_score;
};

struct sprt {
    bool enabled;
    double elo0, elo1, alpha, beta;
};

struct config {
    struct engine_spec engines[2];
    int games, concurrency;
    int64_t margin_ms;
    const char *pgn_path;
    struct adjudication adj;
    struct sprt sprt;
    bool quiet;
    char **openings;
    char *each_copies[2][64]; /* --each settings, one copy per engine (specs point into them) */
    int opening_count;
    char **pool_logs; /* --pool: the logs to add up (into argv), pool_count of them */
    int pool_count;
};

/* Shared by the game threads; `lock` guards everything except next_game. */
struct tally {
    pthread_mutex_t lock;
    atomic_int next_game;
    atomic_bool stop;
    int wins, losses, draws; /* from the first engine's point of view */
    int finished;
    FILE *pgn;
    /* The SPRT's verdict when it stopped the match: 1 (H1), -1 (H0) or 0 (none yet), after how
     * many games and at what ratio. Games still in progress then are played out and counted,
     * and may move the ratio back inside the bounds: the verdict stands. */
    int verdict, verdict_games;
    double verdict_llr;
};

static const char *const builtin_openings[] = {
    "startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5",
    "startpos moves e2e4 e7e5 g1f3 g8f6 f3e5 d7d6", "startpos moves e2e4 e7e5 f2f4 e5f4 g1f3",
    "startpos moves e2e4 e7e5 g1f3 b8c6 d2d4 e5d4", "startpos moves e2e4 c7c5 g1f3 d7d6 d2d4 c5d4",
    "startpos moves e2e4 c7c5 g1f3 b8c6 d2d4 c5d4", "startpos moves e2e4 c7c5 g1f3 e7e6 d2d4 c5d4",
    "startpos moves e2e4 c7c5 b1c3 b8c6 g2g3",      "startpos moves e2e4 c7c5 c2c3 g8f6 e4e5",
    "startpos moves e2e4 e7e6 d2d4 d7d5 b1c3 g8f6", "startpos moves e2e4 e7e6 d2d4 d7d5 e4e5 c7c5",
    "startpos moves e2e4 c7c6 d2d4 d7d5 b1c3 d5e4", "startpos moves e2e4 c7c6 d2d4 d7d5 e4e5 c8f5",
    "startpos moves e2e4 d7d5 e4d5 d8d5 b1c3 d5a5", "startpos moves e2e4 g8f6 e4e5 f6d5 d2d4 d7d6",
    "startpos moves e2e4 d7d6 d2d4 g8f6 b1c3 g7g6", "startpos moves e2e4 g7g6 d2d4 f8g7 b1c3 d7d6",
    "startpos moves d2d4 d7d5 c2c4 e7e6 b1c3 g8f6", "startpos moves d2d4 d7d5 c2c4 c7c6 g1f3 g8f6",
    "startpos moves d2d4 d7d5 c2c4 d5c4 g1f3 g8f6", "startpos moves d2d4 g8f6 c2c4 e7e6 b1c3 f8b4",
    "startpos moves d2d4 g8f6 c2c4 e7e6 g1f3 b7b6", "startpos moves d2d4 g8f6 c2c4 g7g6 b1c3 f8g7",
    "startpos moves d2d4 g8f6 c2c4 g7g6 b1c3 d7d5", "startpos moves d2d4 g8f6 c2c4 c7c5 d4d5 e7e6",
    "startpos moves d2d4 g8f6 c2c4 c7c5 d4d5 b7b5", "startpos moves d2d4 f7f5 g2g3 g8f6 f1g2 g7g6",
    "startpos moves d2d4 d7d5 g1f3 g8f6 c1f4 e7e6", "startpos moves d2d4 g8f6 g1f3 e7e6 c1g5 h7h6",
    "startpos moves c2c4 e7e5 b1c3 g8f6 g1f3 b8c6", "startpos moves c2c4 c7c5 b1c3 b8c6 g2g3 g7g6",
    "startpos moves c2c4 g8f6 b1c3 e7e6 e2e4 d7d5", "startpos moves g1f3 d7d5 g2g3 g8f6 f1g2 c7c6",
    "startpos moves g1f3 g8f6 c2c4 b7b6 g2g3 c8b7", "startpos moves e2e4 e7e5 g1f3 d7d6 d2d4 g8f6",
    "startpos moves e2e4 e7e5 b1c3 g8f6 f2f4 d7d5", "startpos moves e2e4 c7c5 g1f3 g7g6 d2d4 c5d4",
    "startpos moves d2d4 e7e6 c2c4 f8b4 c1d2 d8e7", "startpos moves b2b3 e7e5 c1b2 b8c6 e2e3 g8f6",
};

static const char usage[] =
    "usage: match --engine KEY=VALUE... --engine KEY=VALUE... [--each KEY=VALUE...] [options]\n"
    "\n"
    "engine settings (per --engine, or for both with --each):\n"
    "  cmd=COMMAND           the engine's command line (run by /bin/sh)\n"
    "  name=NAME             its name in the results\n"
    "  option.NAME=VALUE     a UCI option (setoption name NAME value VALUE)\n"
    "  tc=S+I                clock: S seconds plus I seconds a move\n"
    "  st=S                  S seconds a move\n"
    "  depth=D, nodes=N      fixed depth or nodes a move\n"
    "  nodestime=N           a virtual clock, immune to the machine's load: sets the engine's\n"
    "                        UCI option nodestime to N (it then counts N nodes as a millisecond)\n"
    "                        and charges each move the nodes of its last 'info ... nodes' line\n"
    "                        before bestmove / N ms instead of the wall time; flags are judged\n"
    "                        on that clock. Use the same N for both engines, with tc=, e.g.\n"
    "                        --each tc=10+0.1 nodestime=600. A hung engine is flagged after 15\n"
    "                        minutes without output (a pause of the match does not count).\n"
    "\n"
    "options:\n"
    "  --games N             games to play (default 2; each opening twice, colours reversed)\n"
    "  --concurrency N       games at once (default 1)\n"
    "  --openings FILE       FENs or 'startpos moves ...' lines (default: 40 built in); each\n"
    "                        is played twice, colours reversed. With node, depth or nodestime\n"
    "                        limits on one thread games repeat exactly, so more games than\n"
    "                        twice the openings are refused\n"
    "  --pgnout FILE         append the games as PGN\n"
    "  --margin MS           extra time before a flag (default 0)\n"
    "  --sprt elo0=E0 elo1=E1 [alpha=A beta=B]   stop at an SPRT verdict\n"
    "  --draw movenumber=N movecount=M score=S  adjudicate draws from both engines' scores\n"
    "  --resign movecount=M score=S             adjudicate lost games\n"
    "  --quiet               the summary every 10 games only\n"
    "  --pool LOG [LOG ...]  play nothing: add up the last 'Score of' line of each log (runs\n"
    "                        of the same two engines) and print the summary of the sum, with\n"
    "                        --sprt its ratio and verdict; --engine is then not needed\n"
    "environment: MATCH_DEBUG=1 prints each move's time and clock (and with nodestime the wall\n"
    "time and nodes) on stderr.\n";

static int64_t now_ms(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("match: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* ---- engine processes ------------------------------------------------------------------ */

static int engine_send(struct engine *e, const char *fmt, ...) {
    char line[LINE_MAX_LEN];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof line - 1) return -1;
    line[n++] = '\n';
    for (int off = 0; off < n;) {
        ssize_t w = write(e->to_fd, line + off, (size_t)(n - off));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        off += (int)w;
    }
    return 0;
}

/* Reads one line (without newline) until `deadline` (ms). Returns 1, 0 on timeout, -1 on EOF. */
static int engine_read(struct engine *e, char *line, size_t size, int64_t deadline) {
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            size_t n = (size_t)(nl - e->buf);
            size_t copy = n < size - 1 ? n : size - 1;
            memcpy(line, e->buf, copy);
            line[copy] = '\0';
            if (copy && line[copy - 1] == '\r') line[copy - 1] = '\0';
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            return 1;
        }
        if (e->len == sizeof e->buf) e->len = 0; /* an absurd line: drop it */
        int64_t wait = deadline - now_ms();
        if (wait <= 0) return 0;
        struct pollfd pfd = {.fd = e->from_fd, .events = POLLIN};
        int rc = poll(&pfd, 1, wait > 1000000 ? 1000000 : (int)wait);
        if (rc < 0 && errno == EINTR) continue;
        if (rc <= 0) continue;
        ssize_t r = read(e->from_fd, e->buf + e->len, sizeof e->buf - e->len);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        e->len += (size_t)r;
    }
}

/* Reads until a line starting with `prefix`; returns 1, 0 on timeout, -1 on EOF. */
static int engine_expect(struct engine *e, const char *prefix, int64_t timeout_ms) {
    char line[LINE_MAX_LEN];
    int64_t deadline = now_ms() + timeout_ms;
    size_t plen = strlen(prefix);
    for (;;) {
        int rc = engine_read(e, line, sizeof line, deadline);
        if (rc <= 0) return rc;
        if (strncmp(line, prefix, plen) == 0) return 1;
    }
}

static void engine_kill(struct engine *e) {
    if (e->pid <= 0) return;
    close(e->to_fd);
    close(e->from_fd);
    kill(e->pid, SIGKILL);
    waitpid(e->pid, NULL, 0);
    e->pid = -1;
}

static int engine_start(struct engine *e, const struct engine_spec *spec) {
    int to[2], from[2];
    e->spec = spec;
    e->len = 0;
    if (pipe(to) < 0) return -1;
    if (pipe(from) < 0) {
        close(to[0]);
        close(to[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(to[0]), close(to[1]), close(from[0]), close(from[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]), close(to[1]), close(from[0]), close(from[1]);
        execl("/bin/sh", "sh", "-c", spec->cmd, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    e->pid = pid;
    e->to_fd = to[1];
    e->from_fd = from[0];
    if (engine_send(e, "uci") < 0 || engine_expect(e, "uciok", 10000) != 1) goto fail;
    for (int i = 0; i < spec->opt_count; i++) {
        if (engine_send(e, "setoption name %s value %s", spec->opt_name[i], spec->opt_value[i]) < 0)
            goto fail;
    }
    if (engine_send(e, "isready") < 0 || engine_expect(e, "readyok", 30000) != 1) goto fail;
    return 0;
fail:
    engine_kill(e);
    return -1;
}

/* ---- one game --------------------------------------------------------------------------- */

/* What one move cost: the time charged on the clock, the wall time, the nodes reported (-1: none).
 */
struct move_time {
    int64_t charged, wall;
    long long nodes;
};

struct game_state {
    struct chess_pgn pgn;
    struct engine *side[2]; /* by colour */
    int64_t clock[2];
    const struct config *cfg;
    const char *reason;
    char start_fen[CHESS_FEN_MAX];
    int resign_count[2], draw_count;
    int index; /* the game's number in the match, from 0 */
};

static void parse_score(struct engine *e, const char *line) {
    const char *s = strstr(line, " score ");
    if (!s || strstr(line, "lowerbound") || strstr(line, "upperbound")) return;
    int v;
    if (sscanf(s, " score cp %d", &v) == 1) {
        e->last_score = v;
        e->has_score = true;
    } else if (sscanf(s, " score mate %d", &v) == 1) {
        e->last_score = v > 0 ? 100000 - v : -100000 - v;
        e->has_score = true;
    }
}

/* Builds "position fen F moves ..." for the game so far into buf. */
static int position_command(const struct game_state *g, char *buf, size_t size) {
    const struct chess_game *game = &g->pgn.game;
    int len = snprintf(buf, size, "position fen %s moves", g->start_fen);
    struct chess_position pos = game->start;
    for (int i = 0; i < game->ply_count && len > 0 && (size_t)len < size; i++) {
        char text[CHESS_UCI_MAX];
        chess_move_to_uci(&pos, game->moves[i], text);
        len += snprintf(buf + len, size - (size_t)len, " %s", text);
        chess_position_make_move(&pos, game->moves[i]);
    }
    return len > 0 && (size_t)len < size ? 0 : -1;
}

static int send_go(const struct game_state *g, struct engine *e) {
    const struct engine_spec *s = e->spec;
    char cmd[256];
    int len = snprintf(cmd, sizeof cmd, "go");
    if (s->base_ms || s->inc_ms)
        len += snprintf(cmd + len, sizeof cmd - (size_t)len,
                        " wtime %lld btime %lld winc %lld binc %lld", (long long)g->clock[0],
                        (long long)g->clock[1], (long long)s->inc_ms, (long long)s->inc_ms);
    if (s->movetime_ms)
        len += snprintf(cmd + len, sizeof cmd - (size_t)len, " movetime %lld",
                        (long long)s->movetime_ms);
    if (s->depth) len += snprintf(cmd + len, sizeof cmd - (size_t)len, " depth %d", s->depth);
    if (s->nodes) snprintf(cmd + len, sizeof cmd - (size_t)len, " nodes %lld", s->nodes);
    return engine_send(e, "%s", cmd);
}

static void end_game(struct game_state *g, enum chess_result result, enum chess_termination term,
                     const char *reason) {
    chess_game_end(&g->pgn.game, result, term);
    g->reason = reason;
}

static enum chess_result loss_for(int color) {
    return color == CHESS_WHITE ? CHESS_RESULT_BLACK_WINS : CHESS_RESULT_WHITE_WINS;
}

/* Nodes of an info line (not "info string"), or -1. */
static long long info_nodes(const char *line) {
    const char *s = strstr(line, " nodes ");
    long long n;
    if (strncmp(line, "info string", 11) == 0 || !s || sscanf(s, " nodes %lld", &n) != 1 || n < 0)
        return -1;
    return n;
}

/*
 * Waits for the bestmove on the wall clock; returns its text in move (size CHESS_UCI_MAX+) and 0,
 * -1 on EOF, -2 out of time. The time charged is the wall time.
 */
static int wait_bestmove_wall(struct game_state *g, struct engine *e, int color, char *move,
                              struct move_time *t) {
    char line[LINE_MAX_LEN];
    int64_t start = now_ms();
    bool timed = e->spec->base_ms || e->spec->inc_ms;
    int64_t limit = timed ? g->clock[color] + g->cfg->margin_ms : 0;
    if (e->spec->movetime_ms) limit = e->spec->movetime_ms + 1000 + g->cfg->margin_ms;
    int64_t deadline = limit ? start + limit : start + 3600 * 1000;
    for (;;) {
        int rc = engine_read(e, line, sizeof line, deadline);
        t->wall = t->charged = now_ms() - start;
        if (rc < 0) return -1;
        if (rc == 0) {
            /* Best effort: the next game starts with isready, which resynchronises. */
            if (engine_send(e, "stop") == 0) (void)engine_expect(e, "bestmove", 1000);
            return -2;
        }
        if (strncmp(line, "info", 4) == 0) parse_score(e, line);
        if (strncmp(line, "bestmove ", 9) == 0) {
            if (sscanf(line + 9, "%7s", move) != 1) move[0] = '\0';
            return limit && t->charged > limit ? -2 : 0;
        }
    }
}

/*
 * The same on the virtual clock of nodestime=N: a move is charged the nodes of the engine's last
 * info line before bestmove / N ms (the wall time when it reported no nodes), so the wall clock
 * and the machine's load do not matter. An engine is flagged as soon as its reported nodes exceed
 * its clock (it has lost on time whatever follows); the only wall-clock rule is a safety net for
 * a hung engine: no output at all for VIRTUAL_SILENCE_MS of waiting. Waits are counted in slices
 * of at most two seconds, so a pause of the whole match (SIGSTOP) adds at most two seconds
 * however long it lasts.
 */
static int wait_bestmove_virtual(struct game_state *g, struct engine *e, int color, char *move,
                                 struct move_time *t) {
    char line[LINE_MAX_LEN];
    const struct engine_spec *s = e->spec;
    int64_t limit = g->clock[color] + g->cfg->margin_ms;
    if (s->movetime_ms) limit = s->movetime_ms + 1000 + g->cfg->margin_ms;
    bool timed = s->base_ms || s->inc_ms || s->movetime_ms;
    int64_t start = now_ms(), silence = 0;
    t->nodes = -1;
    for (;;) {
        int64_t before = now_ms();
        int rc = engine_read(e, line, sizeof line, before + 1000);
        int64_t after = now_ms();
        t->wall = after - start;
        t->charged = t->nodes >= 0 ? t->nodes / s->nodestime : t->wall;
        if (rc < 0) return -1;
        if (rc == 0) {
            silence += after - before < 2000 ? after - before : 2000;
            if (silence < VIRTUAL_SILENCE_MS) continue;
            if (engine_send(e, "stop") == 0) (void)engine_expect(e, "bestmove", 1000);
            return -2;
        }
        silence = 0;
        if (strncmp(line, "info", 4) == 0) {
            parse_score(e, line);
            long long n = info_nodes(line);
            if (n >= 0) t->nodes = n;
            t->charged = t->nodes >= 0 ? t->nodes / s->nodestime : t->wall;
            if (timed && t->charged > limit) {
                if (engine_send(e, "stop") == 0) (void)engine_expect(e, "bestmove", 1000);
                return -2;
            }
        }
        if (strncmp(line, "bestmove ", 9) == 0) {
            if (sscanf(line + 9, "%7s", move) != 1) move[0] = '\0';
            return timed && t->charged > limit ? -2 : 0;
        }
    }
}

static int wait_bestmove(struct game_state *g, struct engine *e, int color, char *move,
                         struct move_time *t) {
    e->has_score = false;
    t->nodes = -1;
    if (e->spec->nodestime > 0) return wait_bestmove_virtual(g, e, color, move, t);
    return wait_bestmove_wall(g, e, color, move, t);
}

/* Ends the game early when both engines agree it is drawn or one side is lost. */
static void adjudicate(struct game_state *g, int color) {
    const struct adjudication *adj = &g->cfg->adj;
    struct engine *e = g->side[color];
    if (!e->has_score) return;
    int score = e->last_score;
    if (adj->resign_movecount) {
        g->resign_count[color] = score <= -adj->resign_score ? g->resign_count[color] + 1 : 0;
        if (g->resign_count[color] >= adj->resign_movecount && g->resign_count[color ^ 1] == 0 &&
            g->side[color ^ 1]->has_score && g->side[color ^ 1]->last_score >= adj->resign_score) {
            end_game(g, loss_for(color), CHESS_TERM_RESIGNATION, "adjudication: resign");
            return;
        }
    }
    if (adj->draw_movecount) {
        int moveno = g->pgn.game.ply_count / 2 + 1;
        g->draw_count = abs(score) <= adj->draw_score ? g->draw_count + 1 : 0;
        if (moveno >= adj->draw_movenumber && g->draw_count >= 2 * adj->draw_movecount)
            end_game(g, CHESS_RESULT_DRAW, CHESS_TERM_AGREEMENT, "adjudication: draw");
    }
}

/* Plays one move of the side to move; returns false when the game is over. */
static bool play_turn(struct game_state *g) {
    struct chess_game *game = &g->pgn.game;
    int color = game->current.side;
    struct engine *e = g->side[color];
    char cmd[LINE_MAX_LEN], move[16];
    struct move_time t = {0, 0, -1};
    if (position_command(g, cmd, sizeof cmd) < 0 || engine_send(e, "%s", cmd) < 0 ||
        send_go(g, e) < 0) {
        end_game(g, loss_for(color), CHESS_TERM_ABANDONED, "engine disconnected");
        return false;
    }
    int rc = wait_bestmove(g, e, color, move, &t);
    if (rc == -1) {
        end_game(g, loss_for(color), CHESS_TERM_ABANDONED, "engine disconnected");
        return false;
    }
    if (rc == -2 && getenv("MATCH_DEBUG"))
        fprintf(stderr, "game %d ply %d %s flagged after %lld ms with %lld on the clock\n",
                g->index + 1, game->ply_count, e->spec->name, (long long)t.charged,
                (long long)g->clock[color]);
    if (rc == -2) {
        bool dead = chess_position_side_cannot_mate(&game->current, color ^ 1);
        end_game(g, dead ? CHESS_RESULT_DRAW : loss_for(color),
                 dead ? CHESS_TERM_TIMEOUT_VS_INSUFFICIENT : CHESS_TERM_TIMEOUT,
                 dead ? "timeout vs insufficient material" : "time forfeit");
        return false;
    }
    if (e->spec->base_ms || e->spec->inc_ms) g->clock[color] += e->spec->inc_ms - t.charged;
    if (getenv("MATCH_DEBUG") && e->spec->nodestime > 0)
        fprintf(stderr, "game %d ply %d %s %s %lld ms, clock %lld, wall %lld ms, nodes %lld\n",
                g->index + 1, game->ply_count, e->spec->name, move, (long long)t.charged,
                (long long)g->clock[color], (long long)t.wall, t.nodes);
    else if (getenv("MATCH_DEBUG"))
        fprintf(stderr, "game %d ply %d %s %s %lld ms, clock %lld\n", g->index + 1, game->ply_count,
                e->spec->name, move, (long long)t.charged, (long long)g->clock[color]);
    chess_move m;
    if (chess_move_from_uci(&game->current, move, &m) < 0 || chess_game_play(game, m) < 0) {
        end_game(g, loss_for(color), CHESS_TERM_NONE, "illegal move");
        return false;
    }
    if (game->result != CHESS_RESULT_NONE) {
        g->reason = chess_termination_name(game->termination);
        return false;
    }
    enum chess_termination claim = chess_game_claimable_draw(game);
    if (claim != CHESS_TERM_NONE) {
        chess_game_end(game, CHESS_RESULT_DRAW, claim);
        g->reason = chess_termination_name(claim);
        return false;
    }
    adjudicate(g, color);
    return game->result == CHESS_RESULT_NONE;
}

/* Sets up the opening: "startpos [moves ...]", "fen F [moves ...]" or a bare FEN/EPD. */
static int opening_position(const char *text, struct chess_game *game) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    struct chess_position pos;
    char *moves = strstr(buf, " moves");
    if (moves) *moves = '\0';
    char *fen = buf;
    if (strncmp(fen, "fen ", 4) == 0) fen += 4;
    if (strcmp(fen, "startpos") == 0)
        chess_position_startpos(&pos);
    else if (chess_fen_parse(&pos, fen) < 0)
        return -1;
    if (chess_game_init(game, &pos) < 0) return -1;
    if (!moves) return 0;
    char *save = NULL;
    for (char *t = strtok_r(moves + 6, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        if (chess_game_play_text(game, t, NULL) < 0) return -1;
    }
    return 0;
}

/* New game: ucinewgame and a readyok, restarting the engine when it does not answer. */
static void prepare_engine(struct engine *e) {
    if (engine_send(e, "ucinewgame") == 0 && engine_send(e, "isready") == 0 &&
        engine_expect(e, "readyok", 30000) == 1)
        return;
    const struct engine_spec *spec = e->spec;
    engine_kill(e);
    if (engine_start(e, spec) < 0) die("cannot restart engine: %s", spec->cmd);
}

/* Plays game number `index`; engines[0] is the first engine. Returns the result. */
static enum chess_result play_game(const struct config *cfg, struct engine engines[2], int index,
                                   struct chess_pgn *pgn, const char **reason) {
    struct game_state g;
    memset(&g, 0, sizeof g);
    g.cfg = cfg;
    g.index = index;
    struct chess_game opening;
    if (opening_position(cfg->openings[(index / 2) % cfg->opening_count], &opening) < 0)
        die("bad opening: %s", cfg->openings[(index / 2) % cfg->opening_count]);
    if (chess_pgn_init(&g.pgn, &opening.current) < 0) die("out of memory");
    chess_game_free(&opening);
    int first_color = index % 2 == 0 ? CHESS_WHITE : CHESS_BLACK;
    g.side[first_color] = &engines[0];
    g.side[first_color ^ 1] = &engines[1];
    for (int c = 0; c < 2; c++) g.clock[c] = g.side[c]->spec->base_ms;
    if (chess_fen_write(&g.pgn.game.start, CHESS_FEN_XFEN, g.start_fen, sizeof g.start_fen) < 0)
        die("cannot write FEN");
    for (int i = 0; i < 2; i++) prepare_engine(&engines[i]);
    while (play_turn(&g)) {
    }
    *reason = g.reason ? g.reason : "?";
    *pgn = g.pgn;
    return g.pgn.game.result;
}

/* ---- statistics ------------------------------------------------------------------------ */

static double elo_from_score(double s) {
    if (s <= 0) return -INFINITY;
    if (s >= 1) return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0);
}

static double score_from_elo(double elo) {
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* Score, Elo and the half-width of its 95% interval from a trinomial model. */
static void elo_estimate(int w, int l, int d, double *elo, double *margin) {
    int n = w + l + d;
    double s = (w + 0.5 * d) / n;
    double var = (w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / n;
    double dev = 1.959964 * sqrt(var / n);
    *elo = elo_from_score(s);
    *margin = (elo_from_score(s + dev) - elo_from_score(s - dev)) / 2;
}

/*
 * Generalised SPRT log-likelihood ratio (normal approximation of the trinomial). An outcome
 * not seen yet counts as half a game: with none at all the variance would collapse (or be
 * zero), and a match that one side wins without a loss would never reach a verdict.
 */
static double sprt_llr(int wins, int losses, int draws, double elo0, double elo1) {
    if (wins + losses + draws < 2) return 0;
    double w = wins ? wins : 0.5, l = losses ? losses : 0.5, d = draws ? draws : 0.5;
    double n = w + l + d;
    double s = (w + 0.5 * d) / n;
    double var = (w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / n;
    if (var <= 0) return 0;
    double s0 = score_from_elo(elo0), s1 = score_from_elo(elo1);
    return n * ((s - s0) * (s - s0) - (s - s1) * (s - s1)) / (2 * var);
}

static void print_summary(const struct config *cfg, const struct tally *t) {
    int n = t->wins + t->losses + t->draws;
    if (n == 0) return;
    double elo, margin;
    elo_estimate(t->wins, t->losses, t->draws, &elo, &margin);
    printf("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", cfg->engines[0].name,
           cfg->engines[1].name, t->wins, t->losses, t->draws, (t->wins + 0.5 * t->draws) / n, n);
    printf("Elo difference: %.1f +/- %.1f (95%%)\n", elo, margin);
    if (cfg->sprt.enabled) {
        double llr = sprt_llr(t->wins, t->losses, t->draws, cfg->sprt.elo0, cfg->sprt.elo1);
        double lower = log(cfg->sprt.beta / (1 - cfg->sprt.alpha));
        double upper = log((1 - cfg->sprt.beta) / cfg->sprt.alpha);
        printf("SPRT: llr %.2f (%.2f, %.2f) [%.1f, %.1f]", llr, lower, upper, cfg->sprt.elo0,
               cfg->sprt.elo1);
        if (t->verdict != 0 && t->verdict_games == n)
            printf(" %s accepted\n", t->verdict > 0 ? "H1" : "H0");
        else if (t->verdict != 0)
            printf(" %s accepted at game %d (llr %.2f); the games then in progress followed\n",
                   t->verdict > 0 ? "H1" : "H0", t->verdict_games, t->verdict_llr);
        else
            printf("\n");
    }
    fflush(stdout);
}

/* Records the SPRT's verdict the first time the ratio crosses a bound; true from then on. */
static bool sprt_done(const struct config *cfg, struct tally *t) {
    if (!cfg->sprt.enabled) return false;
    if (t->verdict != 0) return true;
    double llr = sprt_llr(t->wins, t->losses, t->draws, cfg->sprt.elo0, cfg->sprt.elo1);
    if (llr >= log((1 - cfg->sprt.beta) / cfg->sprt.alpha))
        t->verdict = 1;
    else if (llr <= log(cfg->sprt.beta / (1 - cfg->sprt.alpha)))
        t->verdict = -1;
    else
        return false;
    t->verdict_games = t->wins + t->losses + t->draws;
    t->verdict_llr = llr;
    return true;
}

static void record(const struct config *cfg, struct tally *t, int index, enum chess_result result,
                   const char *reason, struct chess_pgn *pgn) {
    bool first_white = index % 2 == 0;
    const char *white = cfg->engines[first_white ? 0 : 1].name;
    const char *black = cfg->engines[first_white ? 1 : 0].name;
    pthread_mutex_lock(&t->lock);
    if (result == CHESS_RESULT_DRAW)
        t->draws++;
    else if ((result == CHESS_RESULT_WHITE_WINS) == first_white)
        t->wins++;
    else
        t->losses++;
    t->finished++;
    if (sprt_done(cfg, t)) atomic_store(&t->stop, true);
    printf("Game %d: %s vs %s: %s {%s}\n", index + 1, white, black, chess_result_name(result),
           reason);
    if (!cfg->quiet || t->finished % 10 == 0) print_summary(cfg, t);
    if (t->pgn) {
        char round[16], *text = NULL;
        snprintf(round, sizeof round, "%d", index + 1);
        if (chess_pgn_set_tag(pgn, "White", white) == 0 &&
            chess_pgn_set_tag(pgn, "Black", black) == 0 &&
            chess_pgn_set_tag(pgn, "Round", round) == 0 &&
            chess_pgn_set_tag(pgn, "Termination", reason) == 0 &&
            chess_pgn_write(pgn, &text) >= 0) {
            fprintf(t->pgn, "%s\n", text);
            fflush(t->pgn);
        }
        free(text);
    }
    pthread_mutex_unlock(&t->lock);
}

/* ---- threads and setup ------------------------------------------------------------------ */

struct runner {
    const struct config *cfg;
    struct tally *tally;
};

static void *runner_main(void *arg) {
    struct runner *r = arg;
    struct engine engines[2];
    memset(engines, 0, sizeof engines);
    for (int i = 0; i < 2; i++) {
        if (engine_start(&engines[i], &r->cfg->engines[i]) < 0)
            die("cannot start engine: %s", r->cfg->engines[i].cmd);
    }
    for (;;) {
        if (atomic_load(&r->tally->stop)) break;
        int index = atomic_fetch_add(&r->tally->next_game, 1);
        if (index >= r->cfg->games) break;
        struct chess_pgn pgn;
        const char *reason;
        enum chess_result result = play_game(r->cfg, engines, index, &pgn, &reason);
        record(r->cfg, r->tally, index, result, reason, &pgn);
        chess_pgn_free(&pgn);
        for (int i = 0; i < 2; i++) {
            if (engines[i].pid > 0 && strcmp(reason, "engine disconnected") != 0) continue;
            engine_kill(&engines[i]);
            if (engine_start(&engines[i], &r->cfg->engines[i]) < 0)
                die("cannot restart engine: %s", r->cfg->engines[i].cmd);
        }
    }
    for (int i = 0; i < 2; i++) {
        (void)engine_send(&engines[i], "quit"); /* killed next in any case */
        engine_kill(&engines[i]);
    }
    return NULL;
}

static void parse_tc(struct engine_spec *s, const char *tc) {
    double base = 0, inc = 0;
    if (sscanf(tc, "%lf+%lf", &base, &inc) < 1 || base < 0 || inc < 0) die("bad tc: %s", tc);
    s->base_ms = (int64_t)(base * 1000);
    s->inc_ms = (int64_t)(inc * 1000);
}

/* Applies KEY=VALUE to one engine spec. */
static void apply_setting(struct engine_spec *s, char *kv) {
    char *eq = strchr(kv, '=');
    if (!eq) die("expected KEY=VALUE, got %s", kv);
    *eq = '\0';
    const char *key = kv, *value = eq + 1;
    if (strcmp(key, "cmd") == 0) {
        s->cmd = value;
    } else if (strcmp(key, "name") == 0) {
        s->name = value;
    } else if (strcmp(key, "tc") == 0) {
        parse_tc(s, value);
    } else if (strcmp(key, "st") == 0) {
        s->movetime_ms = (int64_t)(atof(value) * 1000);
    } else if (strcmp(key, "depth") == 0) {
        s->depth = atoi(value);
    } else if (strcmp(key, "nodes") == 0) {
        s->nodes = atoll(value);
    } else if (strcmp(key, "nodestime") == 0) {
        /* The engine's option first, so that an explicit option.nodestime later overrides it. */
        s->nodestime = atoll(value);
        if (s->nodestime <= 0 || s->opt_count == MAX_OPTIONS) die("bad nodestime: %s", value);
        s->opt_name[s->opt_count] = "nodestime";
        s->opt_value[s->opt_count++] = value;
    } else if (strncmp(key, "option.", 7) == 0 && s->opt_count < MAX_OPTIONS) {
        s->opt_name[s->opt_count] = key + 7;
        s->opt_value[s->opt_count++] = value;
    } else {
        die("unknown engine setting: %s", key);
    }
}

static void parse_keyed(int *i, int argc, char **argv, const char *const *keys, double *values,
                        int count) {
    while (*i + 1 < argc && strchr(argv[*i + 1], '=') && argv[*i + 1][0] != '-') {
        char *kv = argv[++*i];
        char *eq = strchr(kv, '=');
        bool known = false;
        for (int k = 0; k < count; k++) {
            if ((size_t)(eq - kv) == strlen(keys[k]) &&
                strncmp(kv, keys[k], strlen(keys[k])) == 0) {
                values[k] = atof(eq + 1);
                known = true;
            }
        }
        if (!known) die("unknown setting %s", kv);
    }
}

static void load_openings(struct config *cfg, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die("cannot open %s", path);
    char line[1024];
    int cap = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        if (cfg->opening_count == cap) {
            cap = cap ? cap * 2 : 256;
            cfg->openings = realloc(cfg->openings, sizeof(char *) * (size_t)cap);
            if (!cfg->openings) die("out of memory");
        }
        cfg->openings[cfg->opening_count] = strdup(line);
        if (!cfg->openings[cfg->opening_count++]) die("out of memory");
    }
    fclose(f);
    if (cfg->opening_count == 0) die("no openings in %s", path);
}

static void parse_args(struct config *cfg, int argc, char **argv) {
    int engines = 0;
    char *each[64];
    int each_count = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--engine") == 0) {
            if (engines == 2) die("only two engines");
            while (i + 1 < argc && argv[i + 1][0] != '-')
                apply_setting(&cfg->engines[engines], argv[++i]);
            engines++;
        } else if (strcmp(a, "--each") == 0) {
            while (i + 1 < argc && argv[i + 1][0] != '-' && each_count < 64)
                each[each_count++] = argv[++i];
        } else if (strcmp(a, "--games") == 0 && i + 1 < argc) {
            cfg->games = atoi(argv[++i]);
        } else if (strcmp(a, "--concurrency") == 0 && i + 1 < argc) {
            cfg->concurrency = atoi(argv[++i]);
        } else if (strcmp(a, "--openings") == 0 && i + 1 < argc) {
            load_openings(cfg, argv[++i]);
        } else if (strcmp(a, "--pgnout") == 0 && i + 1 < argc) {
            cfg->pgn_path = argv[++i];
        } else if (strcmp(a, "--margin") == 0 && i + 1 < argc) {
            cfg->margin_ms = atoll(argv[++i]);
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            exit(0);
        } else if (strcmp(a, "--quiet") == 0) {
            cfg->quiet = true;
        } else if (strcmp(a, "--pool") == 0) {
            cfg->pool_logs = &argv[i + 1];
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                cfg->pool_count++;
                i++;
            }
            if (cfg->pool_count == 0) die("--pool needs at least one log");
        } else if (strcmp(a, "--sprt") == 0) {
            static const char *const keys[] = {"elo0", "elo1", "alpha", "beta"};
            double v[4] = {0, 5, 0.05, 0.05};
            parse_keyed(&i, argc, argv, keys, v, 4);
            cfg->sprt = (struct sprt){true, v[0], v[1], v[2], v[3]};
        } else if (strcmp(a, "--draw") == 0) {
            static const char *const keys[] = {"movenumber", "movecount", "score"};
            double v[3] = {40, 8, 10};
            parse_keyed(&i, argc, argv, keys, v, 3);
            cfg->adj.draw_movenumber = (int)v[0];
            cfg->adj.draw_movecount = (int)v[1];
            cfg->adj.draw_score = (int)v[2];
        } else if (strcmp(a, "--resign") == 0) {
            static const char *const keys[] = {"movecount", "score"};
            double v[2] = {3, 1000};
            parse_keyed(&i, argc, argv, keys, v, 2);
            cfg->adj.resign_movecount = (int)v[0];
            cfg->adj.resign_score = (int)v[1];
        } else {
            die("unknown argument %s (see match --help)", a);
        }
    }
    if (cfg->pool_count > 0) return;
    if (engines != 2) die("need two --engine");
    for (int e = 0; e < 2; e++) {
        for (int k = 0; k < each_count; k++) {
            char *copy = strdup(each[k]);
            if (!copy) die("out of memory");
            cfg->each_copies[e][k] = copy;
            apply_setting(&cfg->engines[e], copy);
        }
        if (!cfg->engines[e].cmd) die("engine %d has no cmd", e + 1);
        if (!cfg->engines[e].name) cfg->engines[e].name = cfg->engines[e].cmd;
    }
}

/* ---- pooling logs ------------------------------------------------------------------------ */

/* More games than any real log holds; a count beyond it is not read as one. */
#define POOL_GAMES_MAX 100000000

/* The last summary line of a match log: names into first and second, its wins, losses and draws
 * into t. Stops the program when the file cannot be read or holds no summary. */
static void read_last_score(const char *path, char *first, char *second, struct tally *t) {
    FILE *f = fopen(path, "r");
    if (!f) die("cannot open %s", path);
    char line[LINE_MAX_LEN];
    bool found = false;
    while (fgets(line, sizeof line, f)) {
        char a[64], b[64];
        long long w, l, d;
        if (sscanf(line, "Score of %63[^ ] vs %63[^:]: %lld - %lld - %lld", a, b, &w, &l, &d) != 5)
            continue;
        if (w < 0 || l < 0 || d < 0 || w + l + d > POOL_GAMES_MAX) continue;
        memcpy(first, a, sizeof a);
        memcpy(second, b, sizeof b);
        *t = (struct tally){.wins = (int)w, .losses = (int)l, .draws = (int)d};
        found = true;
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed) die("cannot read %s", path);
    if (!found) die("%s holds no 'Score of' line", path);
}

/* --pool: adds up the logs' last summaries, which must name the same two engines, and prints
 * the sum's summary (and the SPRT's verdict if the sum crosses a bound). */
static void pool_logs(struct config *cfg) {
    char names[2][64], first[64], second[64];
    struct tally sum = {0};
    for (int i = 0; i < cfg->pool_count; i++) {
        struct tally one;
        read_last_score(cfg->pool_logs[i], first, second, &one);
        if (i == 0) {
            memcpy(names[0], first, sizeof first);
            memcpy(names[1], second, sizeof second);
        } else if (strcmp(first, names[0]) != 0 || strcmp(second, names[1]) != 0) {
            die("%s is %s vs %s, not %s vs %s", cfg->pool_logs[i], first, second, names[0],
                names[1]);
        }
        sum.wins += one.wins; /* each log at most POOL_GAMES_MAX, the sum checked below */
        sum.losses += one.losses;
        sum.draws += one.draws;
        if (sum.wins + sum.losses + sum.draws > POOL_GAMES_MAX)
            die("more than %d games", POOL_GAMES_MAX);
    }
    cfg->engines[0].name = names[0];
    cfg->engines[1].name = names[1];
    sprt_done(cfg, &sum);
    printf("Pooled %d logs\n", cfg->pool_count);
    print_summary(cfg, &sum);
}

/* A search that plays the same move every time from the same position and history: a node,
 * depth or virtual-clock limit on one thread. Two such engines replay a game exactly. */
static bool spec_deterministic(const struct engine_spec *s) {
    if (s->nodes <= 0 && s->depth <= 0 && s->nodestime <= 0) return false;
    for (int k = 0; k < s->opt_count; k++) {
        if (strcasecmp(s->opt_name[k], "Threads") == 0 && atoi(s->opt_value[k]) > 1) return false;
    }
    return true;
}

/* Each opening gives two games; past them the openings are used again. With deterministic
 * engines those games are copies of earlier ones that would count twice in the score and the
 * SPRT, so such a match is refused rather than reported with understated error bars. */
static void check_openings_suffice(const struct config *cfg) {
    if (cfg->games <= 2 * cfg->opening_count) return;
    if (!spec_deterministic(&cfg->engines[0]) || !spec_deterministic(&cfg->engines[1])) return;
    die("%d games need %d openings, only %d given: with node, depth or nodestime limits on one "
        "thread the games past %d would replay earlier ones exactly (give more openings or fewer "
        "games)",
        cfg->games, (cfg->games + 1) / 2, cfg->opening_count, 2 * cfg->opening_count);
}

int main(int argc, char **argv) {
    static struct config cfg;
    cfg.games = 2;
    cfg.concurrency = 1;
    parse_args(&cfg, argc, argv);
    if (cfg.pool_count > 0) {
        pool_logs(&cfg);
        return 0;
    }
    if (cfg.opening_count == 0) {
        cfg.openings = (char **)builtin_openings;
        cfg.opening_count = (int)(sizeof builtin_openings / sizeof builtin_openings[0]);
    }
    check_openings_suffice(&cfg);
    signal(SIGPIPE, SIG_IGN);
    static struct tally tally;
    pthread_mutex_init(&tally.lock, NULL);
    atomic_init(&tally.next_game, 0);
    atomic_init(&tally.stop, false);
    if (cfg.pgn_path && !(tally.pgn = fopen(cfg.pgn_path, "a")))
        die("cannot open %s", cfg.pgn_path);
    int threads = cfg.concurrency < 1 ? 1 : cfg.concurrency > 64 ? 64 : cfg.concurrency;
    pthread_t tid[64];
    struct runner runner = {&cfg, &tally};
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&tid[i], NULL, runner_main, &runner) != 0) die("cannot start threads");
    }
    for (int i = 0; i < threads; i++) pthread_join(tid[i], NULL);
    printf("Finished match\n");
    print_summary(&cfg, &tally);
    if (tally.pgn) fclose(tally.pgn);
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < 64; k++) free(cfg.each_copies[e][k]);
    return 0;
}
