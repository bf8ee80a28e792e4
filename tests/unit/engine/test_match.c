/*
 * Match tool tests on the virtual clock (nodestime): runs the match program ($MATCH) with the
 * real UCI engine ($UCI) and MATCH_DEBUG=1, and checks from its per-move lines that
 * - every move is charged the nodes the engine reported / nodestime ms, and the clock is the
 *   previous one plus the increment less that charge;
 * - the same match twice plays the same moves with the same charges (one thread: deterministic);
 * - an engine that spends more nodes than its virtual clock allows (told a larger nodestime
 *   than the tool charges) loses on time, while its opponent never does;
 * - a bad nodestime setting is refused;
 * - more games than twice the openings are refused for deterministic engines (they would replay
 *   earlier games exactly) and allowed where the engines are not (two threads);
 * - an SPRT that reaches a verdict stops the match, and the final summary keeps the verdict even
 *   after the games still in progress are counted;
 * - --pool adds up the last summaries of several logs (figures checked against an independent
 *   computation), gives a verdict when the sum crosses a bound, and refuses logs of different
 *   pairings, logs without a summary and missing files.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "test_program.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUTPUT_MAX (1 << 20)
#define NODESTIME  20

static const char *match_path, *uci_path;

/* Runs match with the arguments (NULL-terminated), stdout and stderr into out; returns the exit
 * status or -1. */
static int run_match(const char *const args[], char *out, size_t size) {
    char path[] = "/tmp/match_test_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    unlink(path);
    int status = run_program(match_path, args, fd, fd);
    ssize_t got = pread(fd, out, size - 1, 0);
    close(fd);
    out[got > 0 ? got : 0] = '\0';
    return status;
}

/* One "game G ply P NAME MOVE C ms, clock K, wall W ms, nodes N" line. */
struct move_line {
    int game, ply;
    char name[32], move[16];
    long long charged, clock, wall, nodes;
};

/* Parses the move lines of the output into lines (at most max); returns how many. */
static int parse_moves(const char *out, struct move_line *lines, int max) {
    int n = 0;
    for (const char *p = out; p && *p && n < max; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        struct move_line *l = &lines[n];
        if (sscanf(p, "game %d ply %d %31s %15s %lld ms, clock %lld, wall %lld ms, nodes %lld",
                   &l->game, &l->ply, l->name, l->move, &l->charged, &l->clock, &l->wall,
                   &l->nodes) == 8)
            n++;
    }
    return n;
}

/* Two copies of the engine on the virtual clock of 2+0.02 at NODESTIME, into args[14]. */
static void virtual_match(const char **args, const char *cmd, const char *games) {
    const char *a[] = {"--engine", cmd,      "name=a",    "--engine",     cmd,
                       "name=b",   "--each", "tc=2+0.02", "nodestime=20", "option.Hash=8",
                       "--games",  games,    NULL};
    memcpy(args, a, sizeof a);
}

static void test_charges_reported_nodes(void) {
    static char out[OUTPUT_MAX];
    static struct move_line lines[2000];
    char cmd[1024];
    const char *args[14];
    snprintf(cmd, sizeof cmd, "cmd=%s", uci_path);
    virtual_match(args, cmd, "2");
    CHECK_EQ_INT(run_match(args, out, sizeof out), 0);
    CHECK(strstr(out, "Finished match") != NULL);
    CHECK(strstr(out, "time forfeit") == NULL);
    int n = parse_moves(out, lines, 2000);
    if (!CHECK(n >= 20)) return;
    long long clock[2] = {2000, 2000};
    for (int i = 0; i < n; i++) {
        const struct move_line *l = &lines[i];
        int side = l->ply % 2;
        if (l->ply < 2) clock[side] = 2000; /* a new game */
        CHECK(l->game == 1 || l->game == 2);
        CHECK(l->nodes > 0);
        CHECK_EQ_INT(l->charged, l->nodes / NODESTIME);
        CHECK_EQ_INT(l->clock, clock[side] + 20 - l->charged);
        clock[side] = l->clock;
    }
}

static void test_deterministic(void) {
    static char first[OUTPUT_MAX], second[OUTPUT_MAX];
    static struct move_line a[2000], b[2000];
    char cmd[1024];
    const char *args[14];
    snprintf(cmd, sizeof cmd, "cmd=%s", uci_path);
    virtual_match(args, cmd, "1");
    CHECK_EQ_INT(run_match(args, first, sizeof first), 0);
    CHECK_EQ_INT(run_match(args, second, sizeof second), 0);
    int n = parse_moves(first, a, 2000);
    CHECK(n >= 10);
    CHECK_EQ_INT(parse_moves(second, b, 2000), n);
    for (int i = 0; i < n; i++) {
        CHECK_EQ_STR(a[i].move, b[i].move);
        CHECK_EQ_INT(a[i].nodes, b[i].nodes);
        CHECK_EQ_INT(a[i].clock, b[i].clock);
    }
}

/* The engine counts 2000 nodes a millisecond where the tool charges one per 20: it plans its
 * moves by a clock 100 times too slow and runs out of time on its first move. */
static void test_overspender_flagged(void) {
    static char out[OUTPUT_MAX];
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cmd=%s", uci_path);
    const char *args[] = {"--engine",
                          cmd,
                          "name=spender",
                          "nodestime=20",
                          "option.nodestime=2000",
                          "--engine",
                          cmd,
                          "name=fair",
                          "nodestime=20",
                          "--each",
                          "tc=2+0.02",
                          "option.Hash=8",
                          "--games",
                          "2",
                          NULL};
    CHECK_EQ_INT(run_match(args, out, sizeof out), 0);
    CHECK(strstr(out, "Score of spender vs fair: 0 - 2 - 0") != NULL);
    CHECK(strstr(out, "spender flagged after") != NULL);
    CHECK(strstr(out, "fair flagged after") == NULL);
    CHECK(strstr(out, "{time forfeit}") != NULL);
}

static void test_bad_setting(void) {
    static char out[OUTPUT_MAX];
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cmd=%s", uci_path);
    const char *args[] = {"--engine", cmd, "--engine", cmd, "--each", "nodestime=0", NULL};
    CHECK_EQ_INT(run_match(args, out, sizeof out), 2);
    CHECK(strstr(out, "bad nodestime") != NULL);
    const char *help[] = {"--help", NULL};
    CHECK_EQ_INT(run_match(help, out, sizeof out), 0);
    CHECK(strstr(out, "nodestime=N") != NULL);
}

/* Writes text to a new temporary file whose name goes to path (PATH_MAX_LEN bytes). */
#define PATH_MAX_LEN 64
static bool write_temp_file(char *path, const char *text) {
    snprintf(path, PATH_MAX_LEN, "/tmp/match_test_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) return false;
    size_t len = strlen(text);
    bool ok = write(fd, text, len) == (ssize_t)len;
    return close(fd) == 0 && ok;
}

static void test_repeated_openings(void) {
    static char out[OUTPUT_MAX];
    char cmd[1024], openings[PATH_MAX_LEN];
    snprintf(cmd, sizeof cmd, "cmd=%s", uci_path);
    CHECK(
        write_temp_file(openings, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"));
    const char *repeat[] = {
        "--engine",      cmd,          "--engine", cmd,       "--each", "nodes=300",
        "option.Hash=8", "--openings", openings,   "--games", "3",      NULL};
    CHECK_EQ_INT(run_match(repeat, out, sizeof out), 2);
    CHECK(strstr(out, "3 games need 2 openings, only 1 given") != NULL);
    repeat[10] = "2"; /* each opening once with each colour: allowed */
    CHECK_EQ_INT(run_match(repeat, out, sizeof out), 0);
    CHECK(strstr(out, "Finished match") != NULL);
    const char *threaded[] = {"--engine",   cmd,         "--engine",      cmd,
                              "--each",     "nodes=300", "option.Hash=8", "option.Threads=2",
                              "--openings", openings,    "--games",       "3",
                              NULL};
    CHECK_EQ_INT(run_match(threaded, out, sizeof out), 0);
    CHECK(strstr(out, "Finished match") != NULL);
    unlink(openings);
}

/* A much stronger engine: the SPRT accepts H1 long before the games run out, and says so last. */
static void test_sprt_verdict(void) {
    static char out[OUTPUT_MAX];
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cmd=%s", uci_path);
    const char *args[] = {
        "--engine",  cmd,         "name=strong",   "nodes=1000", "--engine", cmd,
        "name=weak", "nodes=100", "option.Hash=8", "--games",    "80",       "--concurrency",
        "2",         "--sprt",    "elo0=0",        "elo1=10",    NULL};
    CHECK_EQ_INT(run_match(args, out, sizeof out), 0);
    const char *last = NULL;
    for (const char *p = strstr(out, "SPRT: "); p; p = strstr(p + 1, "SPRT: ")) last = p;
    if (!CHECK(last != NULL)) return;
    CHECK(strncmp(strchr(last, ']'), "] H1 accepted", 13) == 0);
    const char *score = NULL;
    for (const char *p = strstr(out, "Score of "); p; p = strstr(p + 1, "Score of ")) score = p;
    int w = 0, l = 0, d = 0;
    CHECK(score && sscanf(score, "Score of strong vs weak: %d - %d - %d", &w, &l, &d) == 3);
    CHECK(w + l + d < 80);
}

/* Runs match --pool on the logs with --sprt elo0=0 elo1=10; returns the exit status. */
static int run_pool(const char *log1, const char *log2, char *out, size_t size) {
    const char *args[] = {"--pool", log1, log2, "--sprt", "elo0=0", "elo1=10", NULL};
    return run_match(args, out, size);
}

/* Two runs of 1640 and 1650 games: only each log's last summary counts. The expected figures
 * come from a separate script (trinomial variance, the normal approximation of the GSPRT). */
static void test_pool(void) {
    static char out[OUTPUT_MAX];
    char a[PATH_MAX_LEN], b[PATH_MAX_LEN], c[PATH_MAX_LEN], d[PATH_MAX_LEN];
    if (!CHECK(write_temp_file(a, "Game 1: new vs old: 1-0 {checkmate}\n"
                                  "Score of new vs old: 1 - 0 - 0  [1.000] 1\n"
                                  "Score of new vs old: 478 - 425 - 737  [0.516] 1640\n"
                                  "Elo difference: 11.2 +/- 12.5 (95%)\n")) ||
        !CHECK(write_temp_file(b, "Score of new vs old: 487 - 470 - 693  [0.505] 1650\n")) ||
        !CHECK(write_temp_file(c, "Score of new vs base: 10 - 10 - 10  [0.500] 30\n")) ||
        !CHECK(write_temp_file(d, "Finished match\n")))
        return;
    CHECK_EQ_INT(run_pool(a, b, out, sizeof out), 0);
    CHECK(strstr(out, "Score of new vs old: 965 - 895 - 1430  [0.511] 3290\n") != NULL);
    CHECK(strstr(out, "Elo difference: 7.4 +/- 8.9 (95%)\n") != NULL);
    CHECK(strstr(out, "SPRT: llr 1.15 (-2.94, 2.94) [0.0, 10.0]\n") != NULL);

    /* The same log twice: twice the evidence, past the upper bound. */
    CHECK_EQ_INT(run_pool(a, a, out, sizeof out), 0);
    CHECK(strstr(out, "Score of new vs old: 956 - 850 - 1474") != NULL);
    CHECK(strstr(out, "] H1 accepted\n") != NULL);

    CHECK(run_pool(a, c, out, sizeof out) != 0);
    CHECK(strstr(out, "not new vs old") != NULL);
    CHECK(run_pool(a, d, out, sizeof out) != 0);
    CHECK(strstr(out, "holds no 'Score of' line") != NULL);
    CHECK(run_pool(a, "/nonexistent/match.log", out, sizeof out) != 0);
    CHECK(strstr(out, "cannot open /nonexistent/match.log") != NULL);
    const char *empty[] = {"--pool", "--sprt", "elo0=0", "elo1=10", NULL};
    CHECK(run_match(empty, out, sizeof out) != 0);
    CHECK(strstr(out, "--pool needs at least one log") != NULL);
    unlink(a);
    unlink(b);
    unlink(c);
    unlink(d);
}

int main(void) {
    match_path = getenv("MATCH");
    uci_path = getenv("UCI");
    if (!match_path || !uci_path) {
        printf("usage: MATCH=PATH UCI=PATH test_match\n");
        return 2;
    }
    if (setenv("MATCH_DEBUG", "1", 1) != 0) return 2; /* the per-move lines the tests read */
    RUN(test_charges_reported_nodes);
    RUN(test_deterministic);
    RUN(test_overspender_flagged);
    RUN(test_bad_setting);
    RUN(test_repeated_openings);
    RUN(test_sprt_verdict);
    RUN(test_pool);
    return check_finish();
}
