/*
 * UCI protocol tests: runs the uci program (path in argv[1] or $UCI) on pipes and checks its
 * answers: the handshake and options, isready during a search, position with moves, an illegal move
 * or bad FEN leaving the position unchanged, malformed and unknown commands reported on info string
 * lines, go with depth, infinite plus stop, ponder plus ponderhit, MultiPV, nodestime (the final
 * info nodes line, limits in nodes, deterministic), the search's constants as hidden options,
 * the network options (Use NNUE, on by default, changes the search; EvalFile rejects what is not a
 * network and keeps the network it had), UCI_Variant, quit.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t child;
static int to_fd, from_fd;
static char buf[1 << 16];
static size_t buf_len;

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void send_line(const char *fmt, ...) {
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    line[n++] = '\n';
    if (write(to_fd, line, (size_t)n) != n) printf("     write failed\n");
}

/* How long a reply may take before the test fails: only a bound for a hung engine, never a
 * speed check (the unit tests run under ASan beside other tests on a shared machine). */
#define REPLY_MS 20000

/* Next output line within timeout_ms into line; false on timeout or EOF. */
static bool read_line(char *line, size_t size, int timeout_ms) {
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(buf, '\n', buf_len);
        if (nl) {
            size_t n = (size_t)(nl - buf);
            snprintf(line, size, "%.*s", (int)n, buf);
            memmove(buf, nl + 1, buf_len - n - 1);
            buf_len -= n + 1;
            return true;
        }
        int64_t wait = deadline - now_ms();
        if (wait <= 0) return false;
        struct pollfd pfd = {.fd = from_fd, .events = POLLIN};
        if (poll(&pfd, 1, (int)wait) <= 0) continue;
        ssize_t r = read(from_fd, buf + buf_len, sizeof buf - buf_len);
        if (r <= 0) return false;
        buf_len += (size_t)r;
    }
}

/* Reads lines until one starts with prefix; true when found in time. */
static bool expect(const char *prefix, char *line, size_t size, int timeout_ms) {
    int64_t deadline = now_ms() + timeout_ms;
    while (read_line(line, size, (int)(deadline - now_ms()))) {
        if (strncmp(line, prefix, strlen(prefix)) == 0) return true;
    }
    return false;
}

static bool start(const char *path) {
    int in[2], out[2];
    if (pipe(in) < 0 || pipe(out) < 0) return false;
    child = fork();
    if (child < 0) return false;
    if (child == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_fd = in[1];
    from_fd = out[0];
    return true;
}

static void test_handshake(void) {
    char line[4096];
    send_line("uci");
    CHECK(expect("id name", line, sizeof line, REPLY_MS));
    CHECK(expect("option name Hash type spin", line, sizeof line, REPLY_MS));
    bool listed_constant = false; /* the search's constants are hidden options */
    while (read_line(line, sizeof line, REPLY_MS) && strcmp(line, "uciok") != 0)
        listed_constant = listed_constant || strstr(line, "rfp_margin") != NULL;
    CHECK(strcmp(line, "uciok") == 0);
    CHECK(!listed_constant);
    send_line("isready");
    CHECK(expect("readyok", line, sizeof line, REPLY_MS));
}

static void test_position_and_go(void) {
    char line[4096];
    send_line("position startpos moves e2e4 e7e5 g1f3");
    send_line("go depth 6");
    CHECK(expect("info depth 6", line, sizeof line, REPLY_MS));
    CHECK(strstr(line, " score ") && strstr(line, " pv "));
    CHECK(expect("bestmove", line, sizeof line, REPLY_MS));
    CHECK(strlen(line) >= 13); /* "bestmove b8c6" */

    /* An illegal move rejects the whole command; the position stays after 1. e4 e5 2. Nf3. */
    send_line("position startpos moves e2e4 e7e5 g1g3");
    CHECK(expect("info string illegal move g1g3", line, sizeof line, REPLY_MS));
    send_line("d");
    CHECK(expect("fen ", line, sizeof line, REPLY_MS));
    CHECK_EQ_STR(line, "fen rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    send_line("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    CHECK(expect("info string bad FEN", line, sizeof line, REPLY_MS));
    send_line("d");
    CHECK(expect("fen ", line, sizeof line, REPLY_MS));
    CHECK_EQ_STR(line, "fen rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");

    send_line("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    send_line("go depth 4");
    CHECK(expect("bestmove", line, sizeof line, REPLY_MS));
    CHECK_EQ_STR(line, "bestmove a1a8");
}

static void test_malformed(void) {
    char line[4096];
    send_line("xyzzy");
    CHECK(expect("info string unknown command: xyzzy", line, sizeof line, REPLY_MS));
    send_line("go depth");
    CHECK(expect("info string go: depth needs a number", line, sizeof line, REPLY_MS));
    send_line("setoption name Hash value lots");
    CHECK(expect("info string unknown option or bad value", line, sizeof line, REPLY_MS));
    send_line("setoption name NoSuchThing value 1");
    CHECK(expect("info string unknown option or bad value", line, sizeof line, REPLY_MS));
    send_line("position");
    CHECK(expect("info string position needs", line, sizeof line, REPLY_MS));
    send_line("isready");
    CHECK(expect("readyok", line, sizeof line, REPLY_MS));
}

/* UCI_Variant: King of the Hill and Three-check searched under their rules (a king's step to the
 * centre, the third check), a FEN read with its checks; back to chess; an unknown one refused. */
static void test_variants(void) {
    char line[4096];
    send_line("setoption name UCI_Variant value kingofthehill");
    send_line("position fen 8/8/4k3/8/8/8/8/K7 b - - 0 1");
    send_line("go depth 3");
    CHECK(expect("bestmove", line, sizeof line, REPLY_MS));
    CHECK(strcmp(line, "bestmove e6d5") == 0 || strcmp(line, "bestmove e6e5") == 0);
    send_line("setoption name UCI_Variant value 3check");
    send_line("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 +2+0");
    send_line("go depth 3");
    CHECK(expect("bestmove", line, sizeof line, REPLY_MS));
    CHECK_EQ_STR(line, "bestmove h1h8"); /* the only check: the third */
    send_line("setoption name UCI_Variant value crazyhouse");
    CHECK(expect("info string unknown option or bad value", line, sizeof line, REPLY_MS));
    send_line("setoption name UCI_Variant value chess");
    send_line("position fen 8/8/4k3/8/8/8/8/K7 b - - 0 1");
    send_line("d");
    CHECK(expect("fen ", line, sizeof line, REPLY_MS));
    CHECK_EQ_STR(line, "fen 8/8/4k3/8/8/8/8/K7 b - - 0 1");
    send_line("isready");
    CHECK(expect("readyok", line, sizeof line, REPLY_MS));
}

static void test_infinite_and_stop(void) {
    char line[4096];
    send_line("position startpos");
    send_line("go infinite");
    send_line("isready");
    CHECK(expect("readyok", line, sizeof line, REPLY_MS)); /* answered while searching */
    CHECK(!read_line(line, sizeof line, 300) || strncmp(line, "bestmove", 8) != 0);
    send_line("stop");
    CHECK(expect("bestmove", line, sizeof line, REPLY_MS));
}

static void test_ponder(void) {
    char line[4096];
    send_line("position startpos moves d2d4");
    send_line("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    int64_t start = now_ms();
    bool early = false;
    while (now_ms() - start < 400) {
        if (read_line(line, sizeof line, 50) && strncmp(line, "bestmove", 8) == 0) early = true;
    }
    CHECK(!early); /* no bestmove while pondering */
    send_line("ponderhit");
    CHECK(expect("bestmove", line, sizeof line, REPLY_MS));
}

static void test_multipv(void) {
    char line[4096];
    send_line("setoption name MultiPV value 3");
    send_line("position startpos");
    send_line("go depth 5");
    CHECK(expect("info depth 5 seldepth", line, sizeof line, REPLY_MS));
    bool third = false;
    while (read_line(line, sizeof line, REPLY_MS) && strncmp(line, "bestmove", 8) != 0)
        third = third || strstr(line, "multipv 3") != NULL;
    CHECK(third);
    send_line("setoption name MultiPV value 1");
}

/* The nodes of the final "info nodes N ..." line of a search, or 0. */
static unsigned long long final_nodes(const char *go) {
    char line[4096];
    unsigned long long nodes = 0, n;
    send_line("ucinewgame");
    send_line("position startpos moves e2e4");
    send_line("%s", go);
    while (read_line(line, sizeof line, REPLY_MS) && strncmp(line, "bestmove", 8) != 0)
        nodes = sscanf(line, "info nodes %llu time", &n) == 1 ? n : 0;
    return nodes;
}

/* nodestime 1: the milliseconds of the clock are nodes, whatever the machine's speed. */
static void test_nodestime(void) {
    char line[4096];
    send_line("setoption name nodestime value 1");
    unsigned long long a = final_nodes("go movetime 30050");
    CHECK(a >= 30000 && a <= 30000 + 2048);
    CHECK_EQ_INT(final_nodes("go movetime 30050"), a);
    /* 10 s on the clock with 50 ms overhead: a soft limit of 248 nodes, a hard one of 1240. */
    unsigned long long b = final_nodes("go wtime 10000 btime 10000");
    CHECK(b >= 248 * 42 / 100 && b <= 1240 + 1024);
    send_line("setoption name nodestime value 10001");
    CHECK(expect("info string unknown option or bad value", line, sizeof line, REPLY_MS));
    send_line("setoption name nodestime value 0");
    send_line("isready");
    CHECK(expect("readyok", line, sizeof line, REPLY_MS));
}

/*
 * The search's constants are hidden options: not listed, but a value in range changes the
 * search (a fixed-depth search visits other nodes), and the default restores it exactly.
 */
static void test_search_params(void) {
    char line[4096];
    unsigned long long base = final_nodes("go depth 9");
    send_line("setoption name rfp_margin value 40");
    send_line("setoption name lmr_div value 300");
    unsigned long long tuned = final_nodes("go depth 9");
    CHECK(base > 0 && tuned > 0 && tuned != base);
    send_line("params");
    CHECK(expect("param rfp_margin value 40 default 80 min ", line, sizeof line, REPLY_MS));
    CHECK(expect("paramsok", line, sizeof line, REPLY_MS));
    send_line("setoption name rfp_margin value 80");
    send_line("setoption name lmr_div value 225");
    CHECK_EQ_INT(final_nodes("go depth 9"), base);
    send_line("setoption name rfp_margin value 1000");
    CHECK(expect("info string unknown option or bad value: rfp_margin = 1000", line, sizeof line,
                 REPLY_MS));
    send_line("setoption name rfp_margin value 9x");
    CHECK(expect("info string unknown option or bad value: rfp_margin = 9x", line, sizeof line,
                 REPLY_MS));
    CHECK_EQ_INT(final_nodes("go depth 9"), base);
}

static void test_network(void) {
    char line[4096];
    send_line("position startpos moves e2e4 c7c5");
    unsigned long long network = final_nodes("go depth 9"); /* the default */
    send_line("setoption name Use NNUE value false");
    unsigned long long hand_written = final_nodes("go depth 9");
    send_line("setoption name Use NNUE value true");
    CHECK_EQ_INT(final_nodes("go depth 9"), network);
    CHECK(hand_written > 0 && network > 0 && network != hand_written);
    send_line("eval");
    CHECK(expect("info string network eval ", line, sizeof line, REPLY_MS));

    send_line("setoption name EvalFile value /nonexistent/net.nnue");
    CHECK(expect("info string cannot read EvalFile /nonexistent/net.nnue", line, sizeof line,
                 REPLY_MS));
    CHECK(expect("info string unknown option or bad value: EvalFile", line, sizeof line, REPLY_MS));
    char path[] = "/tmp/test_uci_net_XXXXXX";
    int fd = mkstemp(path);
    if (CHECK(fd >= 0)) {
        CHECK(write(fd, "CNUE not a network", 18) == 18);
        close(fd);
        send_line("setoption name EvalFile value %s", path);
        CHECK(expect("info string EvalFile", line, sizeof line, REPLY_MS));
        CHECK(strstr(line, "is not a network") != NULL);
        unlink(path);
    }
    /* The built-in network is still the one in use. */
    CHECK_EQ_INT(final_nodes("go depth 9"), network);
    send_line("setoption name EvalFile value <builtin>");
    send_line("setoption name Use NNUE value maybe");
    CHECK(expect("info string unknown option or bad value: Use NNUE = maybe", line, sizeof line,
                 REPLY_MS));
    send_line("setoption name Use NNUE value false");
    CHECK_EQ_INT(final_nodes("go depth 9"), hand_written);
}

static void test_quit(void) {
    send_line("quit");
    int status = 0;
    int64_t start = now_ms();
    pid_t done = 0;
    while ((done = waitpid(child, &status, WNOHANG)) == 0 && now_ms() - start < 3000) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    CHECK(done == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (done != child) kill(child, SIGKILL);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : getenv("UCI");
    if (!path || !start(path)) {
        printf("usage: test_uci PATH_TO_UCI (or UCI=PATH in the environment)\n");
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    RUN(test_handshake);
    RUN(test_position_and_go);
    RUN(test_malformed);
    RUN(test_variants);
    RUN(test_infinite_and_stop);
    RUN(test_ponder);
    RUN(test_multipv);
    RUN(test_nodestime);
    RUN(test_search_params);
    RUN(test_network);
    RUN(test_quit);
    return check_finish();
}
