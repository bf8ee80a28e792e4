/*
 * Soak benchmark for the chess server: many connections held for a long time with churn, to
 * see whether the server's memory and descriptors stay flat (a benchmark: it prints figures and
 * a verdict, and fails only when it cannot run).
 *
 *   soak --port P --server-pid PID [--connections N] [--games G] [--spectators S]
 *        [--rate R] [--minutes M] [--warmup-minutes W] [--churn PERCENT] [--chat-every K]
 *        [--client-ping S]
 *
 * Connections to 127.0.0.1:P (loopback only) fall into three groups:
 *   idle:       N - 2G - S guests that only say hello (they are opened first, alone, to measure
 *               what an idle connection costs the server: its RSS before and after, divided);
 *   players:    2G connections paired into G games (default N = 20,000, G = 5,000) that move at
 *               R moves/s in all (default 1,000: a move per game every G/R seconds), chat now and
 *               then (one line in K moves), and end their games after a random number of plies
 *               (abort before the second ply, else resignation or an agreed draw, or the rules'
 *               own endings), then play again: a rematch (7 in 10) or a new challenge;
 *   spectators: S (default half of those not playing) watch a game in play, chat in its
 *               spectators' room now and then, and move on to another game when it ends or now
 *               and then.
 * Churn: every second, PERCENT/60 percent of all connections (default 5% a minute) are dropped
 * and come back 1 to 5 s later with their token (hello with the token): players find their
 * game in the welcome and play on from its moves; spectators watch again.
 *
 * Every minute one line "MINUTE ..." gives the server's RSS (VmRSS of /proc/PID/status) and
 * descriptors (/proc/PID/fd), connections open, games in play, moves/s (moves acknowledged to
 * the players), games ended, reconnects, chat lines sent, errors. At the end "SOAK ..." says
 * whether memory and descriptors stayed flat after the warm-up minutes: flat when every
 * minute after the warm-up has RSS at most 10% above the first minute after the warm-up and
 * descriptors within 1% of N (plus 20) of that minute's; it also gives the RSS trend after the
 * warm-up (least squares, KiB a minute).
 *
 * Each game's position is kept here with the chess engine, from the moves the server
 * acknowledges, so every move sent is legal. An error from the server is counted by code
 * (with the request it answered), a request unanswered for 30 s as a stall (the game is read
 * again with watch), a connection closed without being dropped here as a drop by the server,
 * and one not welcomed within 60 s as a connect error; each comes back like a dropped one.
 * --client-ping S makes the generator's lws ping each connection after S seconds without a pong
 * and hang up 10 s later (as a browser does not; default: no such pings. lws's own default, a
 * ping after 300 s and a hang-up at 310 s, dropped a third to a half of 19,500 connections at
 * once, 5 minutes into a run).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "chess/game.h"
#include "chess/move.h"
#include "chess/movegen.h"
#include "wsio.h"

#define MAX_MSG          65536 /* a welcome holds whole games */
#define TICK_MS          50
#define STALL_US         30000000 /* a request unanswered this long: the game is read again */
#define CONNECT_LIMIT_US 60000000 /* a connection not welcomed this long is closed and retried */
#define ERROR_CODES      16
#define MAX_SAMPLES      1000
#define ID_CAP           32

enum role { ROLE_PLAYER, ROLE_SPECTATOR, ROLE_IDLE };
enum phase { PHASE_IDLE, PHASE_STARTING, PHASE_PLAYING, PHASE_ENDING };

struct soak;
struct sgame;

struct sconn {
    struct soak *s;
    struct lws *wsi;
    int index;
    enum role role;
    bool open, welcomed, dropped_here;
    int64_t reconnect_at; /* 0: not waiting to reconnect */
    int64_t connect_at;   /* when the current connection was asked for */
    char token[64];
    char player_id[ID_CAP];
    struct sgame *game;     /* players: the pair's game */
    char watching[ID_CAP];  /* spectators: the game watched, or "" */
    int64_t next_action_at; /* spectators: next watch, chat or switch */
    struct wsio io;
};

struct sgame {
    struct sconn *conn[2]; /* [0] creates challenges */
    char id[ID_CAP];
    enum phase phase;
    int64_t phase_since;
    struct chess_game game; /* the position as the server acknowledged it */
    bool game_ready;
    int white;                 /* conn index (0 or 1) playing white */
    int target_plies;          /* ends the game here (unless the rules end it first) */
    bool in_flight;            /* a move sent, not yet acknowledged */
    int in_flight_by;          /* conn index of its sender */
    int64_t due;               /* next action */
    bool rematch_next;         /* after the end: offer a rematch (else a new challenge) */
    bool resign_next;          /* an end that went unanswered: resign instead of offering */
    char challenge_id[ID_CAP]; /* the open challenge of conn[0] */
};

struct sample {
    int minute;
    long rss_kib;
    int fds;
};

struct soak {
    /* options */
    int port, server_pid, connections, games, spectators, idle;
    double rate;
    int minutes, warmup_minutes;
    double churn_percent;
    int chat_every;
    lws_retry_bo_t client_ping; /* the generator's own pings (lws's validity checks) */
    /* state */
    struct lws_context *ctx;
    uv_loop_t loop;
    uv_timer_t tick_timer, minute_timer, stop_timer;
    struct sconn *conns;
    struct sgame *games_arr;
    int64_t interval_us;
    uint64_t seed;
    double churn_carry;
    bool churning; /* set-up done: churn, chat and spectators' moves are on */
    int connect_from, connect_to, connect_next;
    /* counters (cumulative) */
    uint64_t moves_acked, games_started, games_ended, reconnects, drops_by_server, connect_errors,
        chat_sent, chat_received, resyncs, stalls, errors, send_overflow;
    char error_codes[ERROR_CODES][32];
    uint64_t error_counts[ERROR_CODES];
    char first_error[256];
    /* per minute */
    uint64_t moves_at_minute;
    int64_t minute_began_us;
    int minute;
    struct sample samples[MAX_SAMPLES];
    int sample_count;
};

static int64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static uint64_t soak_random(struct soak *s) {
    s->seed ^= s->seed << 13;
    s->seed ^= s->seed >> 7;
    s->seed ^= s->seed << 17;
    return s->seed;
}

/* A random integer in [lo, hi]. */
static int64_t soak_between(struct soak *s, int64_t lo, int64_t hi) {
    return lo + (int64_t)(soak_random(s) % (uint64_t)(hi - lo + 1));
}

/* ------------------------------------------------------------------ the server's process */

/* VmRSS of a process in KiB, or -1. */
static long proc_rss_kib(int pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
    fclose(f);
    return kib;
}

/* Open descriptors of a process, or -1. */
static int proc_fds(int pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", pid);
    DIR *d = opendir(path);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* ------------------------------------------------------------------ sending */

static void conn_send(struct sconn *c, const char *text, size_t len) {
    if (c->open && c->wsi && wsio_send(&c->io, c->wsi, text, len) < 0) c->s->send_overflow++;
}

static void conn_sendf(struct sconn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void conn_sendf(struct sconn *c, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0 && n < (int)sizeof buf) conn_send(c, buf, (size_t)n);
}

static bool conn_ready(const struct sconn *c) {
    return c->open && c->welcomed;
}

/* ------------------------------------------------------------------ games */

static void game_set_phase(struct sgame *g, enum phase p) {
    g->phase = p;
    g->phase_since = now_us();
}

static int game_index_of(const struct sgame *g, const struct sconn *c) {
    return g->conn[0] == c ? 0 : 1;
}

/* The pair's game from a full game state (game_started, a welcome's game, a watch reply):
 * the position is replayed from its moves. Returns 0, or -1 when the state is unusable. */
static int game_sync(struct sgame *g, json_t *state) {
    struct soak *s = g->conn[0]->s;
    const char *id = json_string_value(json_object_get(state, "id"));
    const char *white = json_string_value(json_object_get(json_object_get(state, "white"), "id"));
    const char *status = json_string_value(json_object_get(state, "status"));
    json_t *moves = json_object_get(state, "moves");
    if (!id || !white || !status || !json_is_array(moves)) return -1;
    bool new_game = strcmp(id, g->id) != 0;
    snprintf(g->id, sizeof g->id, "%s", id);
    g->white = strcmp(white, g->conn[0]->player_id) == 0 ? 0 : 1;
    if (strcmp(status, "playing") != 0) {
        if (g->phase == PHASE_PLAYING || g->phase == PHASE_ENDING) s->games_ended++;
        game_set_phase(g, PHASE_IDLE);
        g->in_flight = false;
        g->rematch_next = false;
        g->due = now_us() + 1000000;
        return 0;
    }
    if (g->game_ready) chess_game_free(&g->game);
    g->game_ready = chess_game_init(&g->game, NULL) == 0;
    if (!g->game_ready) return -1;
    size_t i;
    json_t *m;
    json_array_foreach(moves, i, m) {
        const char *uci = json_string_value(m);
        if (!uci || chess_game_play_text(&g->game, uci, NULL) < 0) return -1;
    }
    if (new_game) {
        s->games_started++;
        g->resign_next = false;
        g->challenge_id[0] = '\0';
        int64_t r = soak_between(s, 0, 99);
        g->target_plies = r < 5 ? (int)r % 2 : (int)soak_between(s, 10, 120);
    }
    if (g->phase != PHASE_PLAYING) game_set_phase(g, PHASE_PLAYING);
    /* A draw offer still pending (made before a drop): resign instead of offering again. */
    if (json_is_string(json_object_get(json_object_get(state, "offers"), "draw")))
        g->resign_next = true;
    g->in_flight = false;
    /* A move sent before the state was read may still be acknowledged: leave it time. */
    g->due = now_us() + (new_game ? (int64_t)soak_between(s, 1000, g->conn[0]->s->interval_us)
                                  : g->conn[0]->s->interval_us);
    return 0;
}

/* A move event: played here when it is the next ply (each player gets a copy). */
static void game_on_move(struct sgame *g, json_t *msg) {
    struct soak *s = g->conn[0]->s;
    const char *id = json_string_value(json_object_get(msg, "game"));
    const char *uci = json_string_value(json_object_get(msg, "uci"));
    json_int_t ply = json_integer_value(json_object_get(msg, "ply"));
    if (!id || !uci || strcmp(id, g->id) != 0 || !g->game_ready) return;
    if (ply <= g->game.ply_count) return; /* the other player's copy */
    if (ply != g->game.ply_count + 1 || chess_game_play_text(&g->game, uci, NULL) < 0) {
        /* A gap: read the game again. */
        s->resyncs++;
        struct sconn *c = g->conn[0]->open ? g->conn[0] : g->conn[1];
        conn_sendf(c, "{\"type\":\"watch\",\"game\":\"%s\",\"id\":\"sync\"}", g->id);
        return;
    }
    s->moves_acked++;
    g->in_flight = false;
    g->due = now_us() + s->interval_us;
}

static void game_on_end(struct sgame *g, json_t *msg) {
    struct soak *s = g->conn[0]->s;
    const char *id = json_string_value(json_object_get(msg, "game"));
    if (!id || strcmp(id, g->id) != 0 || g->phase == PHASE_IDLE || g->phase == PHASE_STARTING)
        return;
    s->games_ended++;
    game_set_phase(g, PHASE_IDLE);
    g->in_flight = false;
    g->rematch_next = soak_between(s, 0, 9) < 7;
    g->due = now_us() + soak_between(s, 500000, 3000000);
}

/* The game's next step, when both players are connected and it is due. */
static void game_step(struct sgame *g, int64_t now) {
    struct soak *s = g->conn[0]->s;
    struct sconn *a = g->conn[0], *b = g->conn[1];
    if (!conn_ready(a) || !conn_ready(b)) return;
    bool waiting = g->in_flight || g->phase == PHASE_STARTING || g->phase == PHASE_ENDING;
    if (waiting && now - (g->in_flight ? g->due : g->phase_since) > STALL_US) {
        /* Unanswered: read the game again, or start afresh. */
        s->stalls++;
        g->in_flight = false;
        if (g->phase == PHASE_STARTING || !g->id[0]) {
            if (g->challenge_id[0])
                conn_sendf(a, "{\"type\":\"challenge_cancel\",\"challenge\":\"%s\",\"id\":\"cx\"}",
                           g->challenge_id);
            g->challenge_id[0] = '\0';
            game_set_phase(g, PHASE_IDLE);
            g->rematch_next = false;
        } else {
            g->resign_next = true;
            g->phase_since = now;
            conn_sendf(a, "{\"type\":\"watch\",\"game\":\"%s\",\"id\":\"sync\"}", g->id);
        }
        return;
    }
    if (waiting || now < g->due) return;
    if (g->phase == PHASE_IDLE) {
        game_set_phase(g, PHASE_STARTING);
        if (g->rematch_next && g->id[0]) {
            conn_sendf(g->conn[soak_between(s, 0, 1)],
                       "{\"type\":\"rematch_offer\",\"game\":\"%s\",\"id\":\"ro\"}", g->id);
        } else {
            conn_sendf(a, "{\"type\":\"challenge_create\",\"time\":{\"minutes\":60,"
                          "\"increment\":5},\"color\":\"random\",\"id\":\"cc\"}");
        }
        return;
    }
    if (g->phase != PHASE_PLAYING || !g->game_ready) return;
    const struct chess_position *pos = &g->game.current;
    int mover = pos->side == CHESS_WHITE ? g->white : 1 - g->white;
    struct sconn *c = g->conn[mover];
    if (g->game.result != CHESS_RESULT_NONE || g->game.legal.count == 0) {
        g->due = now + s->interval_us; /* the rules ended it: game_end is on its way */
        return;
    }
    int ply = g->game.ply_count;
    if (ply >= g->target_plies) {
        game_set_phase(g, PHASE_ENDING);
        if (ply < 2)
            conn_sendf(c, "{\"type\":\"abort\",\"game\":\"%s\",\"id\":\"ab\"}", g->id);
        else if (g->resign_next || soak_between(s, 0, 9) < 7)
            conn_sendf(c, "{\"type\":\"resign\",\"game\":\"%s\",\"id\":\"rs\"}", g->id);
        else
            conn_sendf(c, "{\"type\":\"draw_offer\",\"game\":\"%s\",\"id\":\"do\"}", g->id);
        return;
    }
    chess_move m = g->game.legal.moves[soak_random(s) % (uint64_t)g->game.legal.count];
    char uci[CHESS_UCI_MAX];
    chess_move_to_uci(pos, m, uci);
    g->in_flight = true;
    g->in_flight_by = mover;
    g->due = now;
    conn_sendf(c, "{\"type\":\"move\",\"game\":\"%s\",\"move\":\"%s\",\"ply\":%d,\"id\":\"mv\"}",
               g->id, uci, ply);
    if (s->chat_every > 0 && soak_between(s, 1, s->chat_every) == 1) {
        conn_sendf(c, "{\"type\":\"chat\",\"game\":\"%s\",\"text\":\"soak line %d\",\"id\":\"ch\"}",
                   g->id, ply);
        s->chat_sent++;
    }
}

/* An offer event: the opponent of its maker accepts a draw or a rematch. */
static void game_on_offer(struct sgame *g, struct sconn *c, json_t *msg) {
    const char *id = json_string_value(json_object_get(msg, "game"));
    const char *kind = json_string_value(json_object_get(msg, "kind"));
    const char *by = json_string_value(json_object_get(msg, "by"));
    if (!id || !kind || !by || strcmp(id, g->id) != 0) return;
    int my_color = game_index_of(g, c) == g->white ? CHESS_WHITE : CHESS_BLACK;
    if ((strcmp(by, "white") == 0) == (my_color == CHESS_WHITE)) return; /* my own offer */
    if (strcmp(kind, "draw") == 0 && g->phase == PHASE_ENDING)
        conn_sendf(c, "{\"type\":\"draw_accept\",\"game\":\"%s\",\"id\":\"da\"}", g->id);
    else if (strcmp(kind, "rematch") == 0 && g->phase == PHASE_STARTING)
        conn_sendf(c, "{\"type\":\"rematch_accept\",\"game\":\"%s\",\"id\":\"ra\"}", g->id);
}

/* ------------------------------------------------------------------ spectators */

/* A game in play to watch, or NULL. */
static struct sgame *pick_game(struct soak *s) {
    for (int tries = 0; tries < 20; tries++) {
        struct sgame *g = &s->games_arr[soak_random(s) % (uint64_t)s->games];
        if (g->phase == PHASE_PLAYING && g->id[0]) return g;
    }
    return NULL;
}

static void spectator_step(struct sconn *c, int64_t now) {
    struct soak *s = c->s;
    if (!conn_ready(c) || now < c->next_action_at) return;
    c->next_action_at = now + soak_between(s, 10000000, 60000000);
    int64_t choice = soak_between(s, 0, 9);
    if (c->watching[0] && choice < 3) {
        if (s->chat_every > 0) {
            conn_sendf(c, "{\"type\":\"chat\",\"game\":\"%s\",\"text\":\"watching\",\"id\":\"ch\"}",
                       c->watching);
            s->chat_sent++;
        }
        return;
    }
    if (c->watching[0] && choice < 8) return; /* just watching */
    if (c->watching[0]) {
        conn_sendf(c, "{\"type\":\"unwatch\",\"game\":\"%s\",\"id\":\"uw\"}", c->watching);
        c->watching[0] = '\0';
    }
    struct sgame *g = pick_game(s);
    if (!g) return;
    snprintf(c->watching, sizeof c->watching, "%s", g->id);
    conn_sendf(c, "{\"type\":\"watch\",\"game\":\"%s\",\"id\":\"w\"}", c->watching);
}

/* ------------------------------------------------------------------ messages */

static void count_error(struct soak *s, json_t *msg, const char *text) {
    s->errors++;
    const char *code = json_string_value(json_object_get(msg, "code"));
    if (!code) code = "?";
    const char *id = json_string_value(json_object_get(msg, "id"));
    char key[32];
    snprintf(key, sizeof key, "%.20s/%.8s", code, id ? id : "-");
    int i = 0;
    while (i < ERROR_CODES && s->error_codes[i][0] && strcmp(s->error_codes[i], key) != 0) i++;
    if (i < ERROR_CODES) {
        snprintf(s->error_codes[i], sizeof s->error_codes[i], "%s", key);
        s->error_counts[i]++;
    }
    if (!s->first_error[0]) snprintf(s->first_error, sizeof s->first_error, "%.200s", text);
}

static void on_welcome(struct sconn *c, json_t *msg) {
    struct soak *s = c->s;
    const char *token = json_string_value(json_object_get(msg, "token"));
    const char *pid = json_string_value(json_object_get(json_object_get(msg, "player"), "id"));
    if (token) snprintf(c->token, sizeof c->token, "%s", token);
    if (pid) snprintf(c->player_id, sizeof c->player_id, "%s", pid);
    c->welcomed = true;
    if (c->role == ROLE_SPECTATOR) {
        if (c->watching[0]) /* watched again after a reconnect */
            conn_sendf(c, "{\"type\":\"watch\",\"game\":\"%s\",\"id\":\"w\"}", c->watching);
        return;
    }
    if (c->role != ROLE_PLAYER) return;
    struct sgame *g = c->game;
    json_t *list = json_object_get(msg, "games"), *state = NULL, *each;
    size_t i;
    json_array_foreach(list, i, each) state = each; /* a pair plays one game at a time */
    if (state) {
        if (game_sync(g, state) < 0) s->resyncs++;
    } else if (g->phase == PHASE_PLAYING || g->phase == PHASE_ENDING) {
        /* Ended while this player was away, and its game_end was missed. */
        s->games_ended++;
        game_set_phase(g, PHASE_IDLE);
        g->in_flight = false;
        g->rematch_next = false;
    } else if (g->in_flight && g->in_flight_by == game_index_of(g, c)) {
        g->in_flight = false;
    }
}

static void on_message(struct sconn *c, char *text, size_t len) {
    struct soak *s = c->s;
    json_t *msg = json_loadb(text, len, 0, NULL);
    if (!msg) return;
    const char *type = json_string_value(json_object_get(msg, "type"));
    struct sgame *g = c->game;
    if (!type) {
        /* nothing */
    } else if (strcmp(type, "welcome") == 0) {
        on_welcome(c, msg);
    } else if (strcmp(type, "error") == 0) {
        count_error(s, msg, text);
        const char *id = json_string_value(json_object_get(msg, "id"));
        /* A refused start goes back to a new challenge; a refused game action reads the game. */
        if (c->role == ROLE_SPECTATOR && id && !strcmp(id, "w")) c->watching[0] = '\0';
        if (g && id &&
            (!strcmp(id, "ro") || !strcmp(id, "ra") || !strcmp(id, "cc") || !strcmp(id, "ca"))) {
            game_set_phase(g, PHASE_IDLE);
            g->rematch_next = false;
            g->due = now_us() + 1000000;
        } else if (g && id && g->id[0] &&
                   (!strcmp(id, "mv") || !strcmp(id, "rs") || !strcmp(id, "ab") ||
                    !strcmp(id, "do") || !strcmp(id, "da"))) {
            s->resyncs++;
            conn_sendf(c, "{\"type\":\"watch\",\"game\":\"%s\",\"id\":\"sync\"}", g->id);
        }
    } else if (strcmp(type, "chat") == 0) {
        s->chat_received++;
    } else if (c->role == ROLE_SPECTATOR) {
        const char *id = json_string_value(json_object_get(msg, "game"));
        json_t *state = json_object_get(msg, "game"); /* the watch reply: the game's state */
        const char *status = json_string_value(json_object_get(state, "status"));
        if (strcmp(type, "game") == 0 && status && strcmp(status, "playing") != 0) {
            id = json_string_value(json_object_get(state, "id")); /* it ended meanwhile */
            type = "game_end";
        }
        if (strcmp(type, "game_end") == 0 && id && strcmp(id, c->watching) == 0) {
            /* Move on to another game. */
            conn_sendf(c, "{\"type\":\"unwatch\",\"game\":\"%s\",\"id\":\"uw\"}", id);
            c->watching[0] = '\0';
            c->next_action_at = now_us() + soak_between(s, 1000000, 3000000);
        }
    } else if (!g) {
        /* idle connections get nothing else */
    } else if (strcmp(type, "move") == 0) {
        game_on_move(g, msg);
    } else if (strcmp(type, "game_end") == 0) {
        game_on_end(g, msg);
    } else if (strcmp(type, "game_started") == 0 || strcmp(type, "game") == 0) {
        json_t *state = json_object_get(msg, "game");
        const char *id = json_string_value(json_object_get(state, "id"));
        /* game_started comes to both players: once is enough. */
        if (id && (strcmp(type, "game") == 0 || strcmp(id, g->id) != 0) && game_sync(g, state) < 0)
            s->resyncs++;
    } else if (strcmp(type, "challenge_created") == 0) {
        const char *id =
            json_string_value(json_object_get(json_object_get(msg, "challenge"), "id"));
        if (id) snprintf(g->challenge_id, sizeof g->challenge_id, "%s", id);
        if (id && g->phase == PHASE_STARTING)
            conn_sendf(g->conn[1],
                       "{\"type\":\"challenge_accept\",\"challenge\":\"%s\",\"id\":\"ca\"}", id);
    } else if (strcmp(type, "offer") == 0) {
        game_on_offer(g, c, msg);
    }
    json_decref(msg);
}

/* ------------------------------------------------------------------ connections */

/* The connection closed (or never opened): it comes back 1 to 5 s later. */
static void conn_gone(struct sconn *c) {
    c->open = c->welcomed = c->dropped_here = false;
    c->wsi = NULL;
    wsio_reset(&c->io);
    c->reconnect_at = now_us() + soak_between(c->s, 1000000, 5000000);
}

/* Events of a connection's current wsi; a stale wsi (one whose end was handled) is ignored. */
static int client_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                           size_t len) {
    (void)user;
    struct sconn *c = lws_get_opaque_user_data(wsi);
    if (!c || (c->wsi != wsi && c->wsi)) return 0;
    if (!c->wsi) {
        if (c->reconnect_at) return 0; /* its end was handled */
        c->wsi = wsi;                  /* events within lws_client_connect_via_info() */
    }
    switch (reason) {
        case LWS_CALLBACK_CLIENT_ESTABLISHED: {
            int one = 1; /* small messages leave at once */
            setsockopt(lws_get_socket_fd(wsi), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            c->open = true;
            if (c->token[0]) {
                c->s->reconnects++;
                conn_sendf(c, "{\"type\":\"hello\",\"protocol\":1,\"token\":\"%s\"}", c->token);
            } else {
                conn_sendf(c, "{\"type\":\"hello\",\"protocol\":1}");
            }
            return 0;
        }
        case LWS_CALLBACK_CLIENT_RECEIVE: {
            size_t n;
            char *text = wsio_receive(&c->io, wsi, in, len, &n);
            if (text) on_message(c, text, n);
            return 0;
        }
        case LWS_CALLBACK_CLIENT_WRITEABLE: return wsio_writable(&c->io, wsi);
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        case LWS_CALLBACK_CLIENT_CLOSED:
        case LWS_CALLBACK_WSI_DESTROY: /* whichever comes first: the others find wsi gone */
            if (reason == LWS_CALLBACK_CLIENT_CONNECTION_ERROR)
                c->s->connect_errors++;
            else if (c->open && !c->dropped_here && c->s->churning)
                c->s->drops_by_server++;
            conn_gone(c);
            return 0;
        default: return 0;
    }
}

static void conn_connect(struct sconn *c) {
    struct lws_client_connect_info ci;
    memset(&ci, 0, sizeof ci);
    ci.context = c->s->ctx;
    ci.address = "127.0.0.1";
    ci.port = c->s->port;
    ci.path = "/ws";
    ci.host = "127.0.0.1";
    ci.origin = "127.0.0.1";
    ci.opaque_user_data = c;
    ci.retry_and_idle_policy = &c->s->client_ping;
    c->reconnect_at = 0;
    c->wsi = NULL;
    c->connect_at = now_us();
    struct lws *wsi = lws_client_connect_via_info(&ci);
    if (c->reconnect_at) return; /* failed at once, and called back */
    c->wsi = wsi;
    if (!wsi) c->reconnect_at = now_us() + 1000000;
}

/* Drops a connection (as a network would); it comes back with its token. */
static void conn_drop(struct sconn *c) {
    c->dropped_here = true;
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

static int count_open(const struct soak *s, bool welcomed) {
    int n = 0;
    for (int i = 0; i < s->connections; i++)
        n += welcomed ? conn_ready(&s->conns[i]) : s->conns[i].open;
    return n;
}

/* ------------------------------------------------------------------ the loop */

static void tick_cb(uv_timer_t *t) {
    struct soak *s = t->data;
    int64_t now = now_us();
    /* Ramp: up to 500 new connections a tick. */
    for (int i = 0; i < 500 && s->connect_next < s->connect_to; i++)
        conn_connect(&s->conns[s->connect_next++]);
    for (int i = 0; i < s->connections; i++) {
        struct sconn *c = &s->conns[i];
        if (c->reconnect_at && now >= c->reconnect_at) {
            conn_connect(c);
        } else if (c->wsi && !c->welcomed && now - c->connect_at > CONNECT_LIMIT_US) {
            /* No welcome within the limit: closed, to come back. */
            s->connect_errors++;
            lws_set_opaque_user_data(c->wsi, NULL);
            lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
            conn_gone(c);
        }
    }
    if (!s->churning) {
        /* Set-up: games start as soon as both players are there. */
        for (int i = 0; i < s->games; i++) game_step(&s->games_arr[i], now);
        return;
    }
    for (int i = 0; i < s->games; i++) game_step(&s->games_arr[i], now);
    for (int i = 0; i < s->connections; i++)
        if (s->conns[i].role == ROLE_SPECTATOR) spectator_step(&s->conns[i], now);
    /* Churn: PERCENT a minute, spread over the ticks. */
    s->churn_carry += s->churn_percent / 100.0 * s->connections * TICK_MS / 60000.0;
    for (; s->churn_carry >= 1.0; s->churn_carry -= 1.0) {
        struct sconn *c = &s->conns[soak_random(s) % (uint64_t)s->connections];
        if (conn_ready(c)) conn_drop(c);
    }
}

static int games_playing(const struct soak *s) {
    int n = 0;
    for (int i = 0; i < s->games; i++)
        n += s->games_arr[i].phase == PHASE_PLAYING || s->games_arr[i].phase == PHASE_ENDING;
    return n;
}

static int spectators_watching(const struct soak *s) {
    int n = 0;
    for (int i = 0; i < s->connections; i++)
        n += s->conns[i].role == ROLE_SPECTATOR && conn_ready(&s->conns[i]) &&
             s->conns[i].watching[0];
    return n;
}

static void minute_cb(uv_timer_t *t) {
    struct soak *s = t->data;
    int64_t now = now_us();
    double secs = (double)(now - s->minute_began_us) / 1e6;
    long rss = proc_rss_kib(s->server_pid);
    int fds = proc_fds(s->server_pid);
    s->minute++;
    if (s->sample_count < MAX_SAMPLES)
        s->samples[s->sample_count++] = (struct sample){s->minute, rss, fds};
    printf("MINUTE %d rss_kib=%ld fds=%d conns_open=%d games_playing=%d moves_per_s=%.0f "
           "games_started=%llu games_ended=%llu reconnects=%llu drops_by_server=%llu "
           "connect_errors=%llu watching=%d chat_sent=%llu chat_received=%llu resyncs=%llu "
           "stalls=%llu errors=%llu\n",
           s->minute, rss, fds, count_open(s, true), games_playing(s),
           (double)(s->moves_acked - s->moves_at_minute) / secs,
           (unsigned long long)s->games_started, (unsigned long long)s->games_ended,
           (unsigned long long)s->reconnects, (unsigned long long)s->drops_by_server,
           (unsigned long long)s->connect_errors, spectators_watching(s),
           (unsigned long long)s->chat_sent, (unsigned long long)s->chat_received,
           (unsigned long long)s->resyncs, (unsigned long long)s->stalls,
           (unsigned long long)s->errors);
    fflush(stdout);
    s->moves_at_minute = s->moves_acked;
    s->minute_began_us = now;
}

static void stop_cb(uv_timer_t *t) {
    uv_stop(t->loop);
}

/* Runs the loop for `seconds`, or until `done` says so (checked every 100 ms). */
static void run_until(struct soak *s, double seconds, bool (*done)(struct soak *)) {
    int64_t end = now_us() + (int64_t)(seconds * 1e6);
    while (now_us() < end && !(done && done(s))) {
        uv_timer_start(&s->stop_timer, stop_cb, 100, 0);
        uv_run(&s->loop, UV_RUN_DEFAULT);
    }
}

static bool all_welcomed(struct soak *s) {
    for (int i = s->connect_from; i < s->connect_to; i++)
        if (!conn_ready(&s->conns[i])) return false;
    return s->connect_next >= s->connect_to;
}

static bool all_started(struct soak *s) {
    return all_welcomed(s) && (int)s->games_started >= s->games;
}

/* ------------------------------------------------------------------ the verdict */

static void print_verdict(const struct soak *s) {
    int first = -1;
    for (int i = 0; i < s->sample_count; i++)
        if (s->samples[i].minute == s->warmup_minutes + 1) first = i;
    if (first < 0 || first + 1 >= s->sample_count) {
        printf("SOAK verdict=too_short minutes=%d warmup_minutes=%d\n", s->sample_count,
               s->warmup_minutes);
        return;
    }
    const struct sample *b = &s->samples[first];
    long rss_max = b->rss_kib;
    int fd_min = b->fds, fd_max = b->fds;
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = first; i < s->sample_count; i++) {
        const struct sample *x = &s->samples[i];
        if (x->rss_kib > rss_max) rss_max = x->rss_kib;
        if (x->fds < fd_min) fd_min = x->fds;
        if (x->fds > fd_max) fd_max = x->fds;
        n++;
        sx += x->minute;
        sy += (double)x->rss_kib;
        sxx += (double)x->minute * x->minute;
        sxy += (double)x->minute * (double)x->rss_kib;
    }
    double slope = n * sxx - sx * sx != 0 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0;
    int fd_margin = s->connections / 100 + 20;
    bool rss_flat = (double)rss_max <= 1.10 * (double)b->rss_kib;
    bool fds_flat = fd_max - b->fds <= fd_margin && b->fds - fd_min <= fd_margin;
    const struct sample *last = &s->samples[s->sample_count - 1];
    printf("SOAK rss_flat=%s fds_flat=%s baseline_minute=%d rss_baseline_kib=%ld "
           "rss_max_kib=%ld rss_last_kib=%ld rss_trend_kib_per_min=%.0f fds_baseline=%d "
           "fds_min=%d fds_max=%d fds_last=%d (flat: RSS at most 10%% above the baseline, "
           "descriptors within %d of it)\n",
           rss_flat ? "yes" : "no", fds_flat ? "yes" : "no", b->minute, b->rss_kib, rss_max,
           last->rss_kib, slope, b->fds, fd_min, fd_max, last->fds, fd_margin);
    printf("SOAK totals moves=%llu games_started=%llu games_ended=%llu reconnects=%llu "
           "drops_by_server=%llu connect_errors=%llu chat_sent=%llu resyncs=%llu stalls=%llu "
           "send_overflow=%llu "
           "errors=%llu\n",
           (unsigned long long)s->moves_acked, (unsigned long long)s->games_started,
           (unsigned long long)s->games_ended, (unsigned long long)s->reconnects,
           (unsigned long long)s->drops_by_server, (unsigned long long)s->connect_errors,
           (unsigned long long)s->chat_sent, (unsigned long long)s->resyncs,
           (unsigned long long)s->stalls, (unsigned long long)s->send_overflow,
           (unsigned long long)s->errors);
    for (int i = 0; i < ERROR_CODES && s->error_codes[i][0]; i++)
        printf("SOAK error %s (code/request) x%llu\n", s->error_codes[i],
               (unsigned long long)s->error_counts[i]);
    if (s->first_error[0]) printf("SOAK first error: %s\n", s->first_error);
}

/* ------------------------------------------------------------------ set-up */

/* Opens conns [from, to) and waits (at most `seconds`) until each is welcomed. */
static bool open_group(struct soak *s, int from, int to, double seconds) {
    s->connect_from = from;
    s->connect_to = to;
    s->connect_next = from;
    run_until(s, seconds, all_welcomed);
    return all_welcomed(s);
}

static int soak_init(struct soak *s) {
    static const struct lws_protocols protocols[] = {{"soak", client_callback, 0, 4096, 0, NULL, 0},
                                                     {NULL, NULL, 0, 0, 0, NULL, 0}};
    s->conns = calloc((size_t)s->connections, sizeof *s->conns);
    s->games_arr = calloc((size_t)s->games, sizeof *s->games_arr);
    if (!s->conns || !s->games_arr) return -1;
    s->interval_us = (int64_t)(1e6 * s->games / s->rate);
    /* Idle first (measured alone), then players in pairs, then spectators. */
    for (int i = 0; i < s->connections; i++) {
        struct sconn *c = &s->conns[i];
        c->s = s;
        c->index = i;
        if (wsio_init(&c->io, MAX_MSG) < 0) return -1;
        int k = i - s->idle;
        c->role = k < 0 ? ROLE_IDLE : k < 2 * s->games ? ROLE_PLAYER : ROLE_SPECTATOR;
        if (c->role == ROLE_PLAYER) {
            c->game = &s->games_arr[k / 2];
            c->game->conn[k % 2] = c;
        }
    }
    uv_loop_init(&s->loop);
    uv_timer_init(&s->loop, &s->tick_timer);
    uv_timer_init(&s->loop, &s->minute_timer);
    uv_timer_init(&s->loop, &s->stop_timer);
    s->tick_timer.data = s->minute_timer.data = s->stop_timer.data = s;
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.timeout_secs = 30;
    info.connect_timeout_secs = 30;
    void *foreign[1] = {&s->loop};
    info.options = LWS_SERVER_OPTION_LIBUV;
    info.foreign_loops = foreign;
    lws_set_log_level(LLL_ERR, NULL);
    s->ctx = lws_create_context(&info);
    return s->ctx ? 0 : -1;
}

static int soak_run(struct soak *s) {
    if (soak_init(s) < 0) {
        fprintf(stderr, "soak: cannot set up (memory or lws context)\n");
        return 1;
    }
    uv_timer_start(&s->tick_timer, tick_cb, TICK_MS, TICK_MS);
    printf("SOAK connections=%d games=%d players=%d spectators=%d idle=%d rate=%.0f "
           "move_every_s=%.1f minutes=%d warmup_minutes=%d churn=%.1f%%/min chat_every=%d\n",
           s->connections, s->games, 2 * s->games, s->spectators, s->idle, s->rate,
           (double)s->interval_us / 1e6, s->minutes, s->warmup_minutes, s->churn_percent,
           s->chat_every);
    fflush(stdout);

    /* What an idle connection costs: the server's RSS before and after the idle group. */
    run_until(s, 2, NULL);
    long rss0 = proc_rss_kib(s->server_pid);
    int fds0 = proc_fds(s->server_pid);
    if (s->idle > 0) {
        int64_t t0 = now_us();
        if (!open_group(s, 0, s->idle, 120)) {
            fprintf(stderr, "soak: only %d of %d idle connections welcomed\n", count_open(s, true),
                    s->idle);
            return 1;
        }
        double took = (double)(now_us() - t0) / 1e6;
        run_until(s, 3, NULL);
        long rss1 = proc_rss_kib(s->server_pid);
        int fds1 = proc_fds(s->server_pid);
        printf("IDLE connections=%d rss_before_kib=%ld rss_after_kib=%ld "
               "per_connection_kib=%.2f fds_per_connection=%.2f opened_in_s=%.1f\n",
               s->idle, rss0, rss1, (double)(rss1 - rss0) / s->idle,
               (double)(fds1 - fds0) / s->idle, took);
        fflush(stdout);
    }
    int64_t t0 = now_us();
    bool ok = open_group(s, s->idle, s->connections, 180);
    s->connect_from = 0;
    run_until(s, 120, all_started);
    printf("SETUP took_s=%.1f welcomed=%d of %d games_started=%llu%s\n",
           (double)(now_us() - t0) / 1e6, count_open(s, true), s->connections,
           (unsigned long long)s->games_started, ok ? "" : " (not all connections welcomed)");
    fflush(stdout);

    s->churning = true;
    s->moves_at_minute = s->moves_acked;
    s->minute_began_us = now_us();
    uv_timer_start(&s->minute_timer, minute_cb, 60000, 60000);
    run_until(s, 60.0 * s->minutes + 2, NULL); /* the last minute's line included */
    print_verdict(s);
    fflush(stdout);
    /* Exit without tearing every connection down one by one; the OS closes them. */
    return 0;
}

static void usage(void) {
    fprintf(stderr, "usage: soak --port P --server-pid PID [--connections N] [--games G]\n"
                    "            [--spectators S] [--rate MOVES_PER_S] [--minutes M]\n"
                    "            [--warmup-minutes W] [--churn PERCENT_PER_MIN] [--chat-every K]\n"
                    "            [--client-ping SECONDS]\n");
}

int main(int argc, char **argv) {
    struct soak s = {.port = 8080,
                     .connections = 20000,
                     .games = 5000,
                     .spectators = -1,
                     .rate = 1000,
                     .minutes = 30,
                     .warmup_minutes = 3,
                     .churn_percent = 5,
                     .chat_every = 20};
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--port"))
            s.port = atoi(v);
        else if (!strcmp(k, "--server-pid"))
            s.server_pid = atoi(v);
        else if (!strcmp(k, "--connections"))
            s.connections = atoi(v);
        else if (!strcmp(k, "--games"))
            s.games = atoi(v);
        else if (!strcmp(k, "--spectators"))
            s.spectators = atoi(v);
        else if (!strcmp(k, "--rate"))
            s.rate = atof(v);
        else if (!strcmp(k, "--minutes"))
            s.minutes = atoi(v);
        else if (!strcmp(k, "--warmup-minutes"))
            s.warmup_minutes = atoi(v);
        else if (!strcmp(k, "--churn"))
            s.churn_percent = atof(v);
        else if (!strcmp(k, "--chat-every"))
            s.chat_every = atoi(v);
        else if (!strcmp(k, "--client-ping") && atoi(v) > 0 && atoi(v) < 60000) {
            s.client_ping.secs_since_valid_ping = (uint16_t)atoi(v);
            s.client_ping.secs_since_valid_hangup = (uint16_t)(atoi(v) + 10);
        } else {
            usage();
            return 2;
        }
    }
    if (s.spectators < 0) s.spectators = (s.connections - 2 * s.games) / 2;
    s.idle = s.connections - 2 * s.games - s.spectators;
    if (s.server_pid <= 0 || s.games < 1 || s.idle < 0 || s.spectators < 0 || s.rate <= 0 ||
        s.minutes < 1 || s.warmup_minutes < 0 || s.churn_percent < 0) {
        usage();
        return 2;
    }
    if (!s.client_ping.secs_since_valid_ping) {
        /* No pings of the generator's own (lws's default: one after 300 s, hang-up at 310 s). */
        s.client_ping.secs_since_valid_ping = 65534;
        s.client_ping.secs_since_valid_hangup = 65535;
    }
    s.seed = 0x9e3779b97f4a7c15ull ^ ((uint64_t)getpid() << 17);
    signal(SIGPIPE, SIG_IGN);
    return soak_run(&s);
}
