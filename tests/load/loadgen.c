/*
 * Load generator for the chess server, and the bare libwebsockets echo server it is compared
 * with. One process, one lws event loop, many client connections.
 *
 *   loadgen echo-server --port P [--loop poll|uv] [--relay 0|1] [--event-bytes N]
 *       A bare lws WebSocket echo server: every text message goes straight back to its sender.
 *       With --relay 1 it also goes to the sender's partner (connections are paired in the
 *       order they are established): one message in and two out, as a move is on the chess
 *       server, with nothing else done. With --event-bytes N, each message that goes out is
 *       the one received padded to N bytes (a "pad" field), as the chess server turns a short
 *       move into a longer move event.
 *
 *   loadgen run --port P --target chess|echo|relay [--connections N] [--rate R] [--warmup S]
 *               [--duration S] [--server-pid PID] [--tick-us US]
 *   loadgen run --node HOST:PORT [--node HOST:PORT ...] --target chess ...
 *       Opens N connections to 127.0.0.1:P, or to the nodes named by --node (an IPv4 address or
 *       a name, up to 8 nodes; not with --port or --port2). Against the chess server, pairs of
 *       connections play N/2 games with random legal moves (a finished game is followed by a
 *       rematch); against the echo server each connection sends move-sized messages to itself;
 *       against the relaying echo server (target relay) each sends move-sized messages stamped
 *       with its index and send time (the server pads what it sends out to the size of the
 *       chess server's move event: --event-bytes), and the delay is measured where the
 *       partner's copy arrives. RESULT's event_bytes is the mean size of the move messages
 *       (events) received in the phase.
 *       Two phases are measured:
 *         paced:   moves are sent on a schedule adding up to R moves/s (each game moves every
 *                  N/2/R seconds, or at once when late), which shows the delay at that load;
 *         closed:  every move is sent as soon as the previous one arrived (one move in flight
 *                  per game), which shows the most the server relays.
 *       The delay of a move is from just before its send to its arrival at the opponent (for
 *       echo: the round trip), as the generator sees it: it services its sockets every US
 *       microseconds (default 500; 0: it blocks in epoll until a message comes), so a delay
 *       includes up to one tick of its own. Prints "PHASE name begins" as a phase's measurement
 *       starts and "RESULT phase=... key=value ..." when it ends.
 *       With several nodes of one site (--port2 for a second on 127.0.0.1, or --node given more
 *       than once; docs/scaling.md), game g's players are spread over the N nodes: --split cross
 *       puts White (who creates the challenge) on node g%N and Black on node (g+1)%N, so each
 *       move crosses Redis (the default); --split games puts the whole game on node g%N. The
 *       --server-pid flags name the nodes' processes in order (--server-pid2: the second's):
 *       server_cpu is their sum, and with more than one, node_cpu lists each one's.
 *
 * The position of each game is tracked here with the chess engine, so every move sent is legal;
 * an error from the server is counted and reported.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "chess/game.h"
#include "chess/move.h"
#include "chess/movegen.h"
#include "chess/position.h"
#include "util/heap.h"
#include "wsio.h"

#define MAX_MSG   4096
#define OUT_SLOTS 8

static int64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ------------------------------------------------------------------ echo server */

struct echo_session {
    struct lws *wsi;
    struct echo_session *partner;  /* relay mode: the connection paired with this one */
    unsigned char *out[OUT_SLOTS]; /* LWS_PRE + payload each */
    size_t out_len[OUT_SLOTS];
    int head, count;
    unsigned char in[MAX_MSG];
    size_t in_len;
};

/* Relay mode: connections are paired in the order they are established; the one waiting for
 * a partner. Owned by the echo server's single loop thread. */
static struct echo_session *relay_waiting;
static bool relay_mode;
/* --event-bytes: the size every message that goes out is padded to (0: as received). */
static size_t relay_event_bytes;

/* Pads the JSON object in[0..*len) to relay_event_bytes with a "pad" field, in place (in holds
 * MAX_MSG bytes), as the chess server writes a longer event for a short move. */
static void pad_to_event(unsigned char *in, size_t *len) {
    static const char field[] = ",\"pad\":\"";
    size_t n = *len, extra = sizeof field - 1 + 2; /* the field, its closing quote and brace */
    if (n < 2 || in[n - 1] != '}' || relay_event_bytes < n + extra) return;
    memcpy(in + n - 1, field, sizeof field - 1);
    size_t at = n - 1 + sizeof field - 1, fill = relay_event_bytes - n - extra + 1;
    memset(in + at, 'x', fill);
    memcpy(in + at + fill, "\"}", 2);
    *len = at + fill + 2;
}

/* Small messages must leave at once: no Nagle delay waiting for an ACK. */
static void set_nodelay(struct lws *wsi) {
    int one = 1;
    setsockopt(lws_get_socket_fd(wsi), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* Sends a message to one connection: at once when nothing is queued for it (as the chess
 * server's conn_send() does), else queued for its writable callback. Returns 0 or -1. */
static int echo_out(struct echo_session *s, const unsigned char *data, size_t len) {
    if (s->count == 0 && !lws_partial_buffered(s->wsi)) {
        unsigned char frame[LWS_PRE + MAX_MSG];
        memcpy(frame + LWS_PRE, data, len);
        return lws_write(s->wsi, frame + LWS_PRE, len, LWS_WRITE_TEXT) < 0 ? -1 : 0;
    }
    if (s->count < OUT_SLOTS) {
        int slot = (s->head + s->count++) % OUT_SLOTS;
        unsigned char *buf = realloc(s->out[slot], LWS_PRE + len);
        if (!buf) return -1;
        s->out[slot] = buf;
        memcpy(buf + LWS_PRE, data, len);
        s->out_len[slot] = len;
    }
    lws_callback_on_writable(s->wsi);
    return 0;
}

static int echo_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                         size_t len) {
    struct echo_session *s = user;
    switch (reason) {
        case LWS_CALLBACK_ESTABLISHED:
            set_nodelay(wsi);
            s->wsi = wsi;
            if (relay_mode && relay_waiting) {
                s->partner = relay_waiting;
                relay_waiting->partner = s;
                relay_waiting = NULL;
            } else if (relay_mode) {
                relay_waiting = s;
            }
            return 0;
        case LWS_CALLBACK_RECEIVE:
            if (s->in_len + len > sizeof s->in) return -1;
            memcpy(s->in + s->in_len, in, len);
            s->in_len += len;
            if (!lws_is_final_fragment(wsi)) return 0;
            pad_to_event(s->in, &s->in_len);
            /* Back to the sender and, relaying, to its partner: a move's two messages. */
            if (echo_out(s, s->in, s->in_len) < 0 ||
                (s->partner && echo_out(s->partner, s->in, s->in_len) < 0))
                return -1;
            s->in_len = 0;
            return 0;
        case LWS_CALLBACK_SERVER_WRITEABLE:
            if (!s->count) return 0;
            if (lws_write(wsi, s->out[s->head] + LWS_PRE, s->out_len[s->head], LWS_WRITE_TEXT) <
                (int)s->out_len[s->head])
                return -1;
            s->head = (s->head + 1) % OUT_SLOTS;
            if (--s->count) lws_callback_on_writable(wsi);
            return 0;
        case LWS_CALLBACK_CLOSED:
            if (s->partner) s->partner->partner = NULL;
            if (relay_waiting == s) relay_waiting = NULL;
            for (int i = 0; i < OUT_SLOTS; i++) free(s->out[i]);
            return 0;
        default: return 0;
    }
}

static int run_echo_server(int port, const char *loop_kind, int keepalive_s, bool relay,
                           int event_bytes) {
    relay_mode = relay;
    relay_event_bytes = event_bytes > 0 && event_bytes < MAX_MSG ? (size_t)event_bytes : 0;
    static const struct lws_protocols protocols[] = {
        {"echo", echo_callback, sizeof(struct echo_session), MAX_MSG, 0, NULL, 0},
        {NULL, NULL, 0, 0, 0, NULL, 0}};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = "127.0.0.1";
    info.protocols = protocols;
    info.fd_limit_per_thread = 0;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
    /* The same keep-alive as the chess server (ping after idle seconds), when asked. */
    lws_retry_bo_t retry = {.secs_since_valid_ping = (uint16_t)keepalive_s,
                            .secs_since_valid_hangup = (uint16_t)(keepalive_s * 2 + 10)};
    if (keepalive_s > 0) info.retry_and_idle_policy = &retry;
    uv_loop_t loop;
    void *foreign[1] = {&loop};
    int use_uv = strcmp(loop_kind, "uv") == 0;
    if (use_uv) {
        uv_loop_init(&loop);
        info.options |= LWS_SERVER_OPTION_LIBUV;
        info.foreign_loops = foreign;
    }
    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context *ctx = lws_create_context(&info);
    if (!ctx) {
        fprintf(stderr, "echo-server: cannot create the lws context\n");
        return 1;
    }
    fprintf(stderr, "echo-server: listening on 127.0.0.1:%d (%s loop%s)\n", port,
            use_uv ? "libuv" : "lws poll", relay ? ", relaying to pairs" : "");
    if (use_uv) {
        uv_run(&loop, UV_RUN_DEFAULT);
    } else {
        while (lws_service(ctx, 0) >= 0) {
        }
    }
    lws_context_destroy(ctx);
    return 0;
}

/* ------------------------------------------------------------------ generator state */

struct lgame;

struct lconn {
    struct lws *wsi;
    int index;
    bool established, closed, welcomed;
    char player_id[32];
    struct lgame *game;
    int color; /* in the current game */
    struct wsio io;
    int64_t echo_sent_us; /* echo target: the message in flight */
    struct heap_node due; /* echo target: next send */
};

struct lgame {
    struct lconn *conn[2]; /* by pair position: [0] creates the challenge, [1] accepts */
    char id[24];
    struct chess_game game; /* the rules too: a drawn position gets no more moves */
    int ply;
    bool playing;
    int64_t sent_us;      /* when the move in flight was sent */
    int64_t interval_us;  /* paced phase: one move per interval */
    struct heap_node due; /* next scheduled move */
    char challenge_id[24];
};

#define MAX_NODES 8

/* A node of the site the generator connects to. */
struct lnode {
    char host[64]; /* an IPv4 address or a name */
    int port;
    int pid; /* its process, for its CPU figure, or 0 */
};

static struct {
    int port;
    bool port_given; /* --port or --port2 (the loopback nodes), which --node excludes */
    struct lnode node[MAX_NODES];
    int nodes; /* node[] in use: --node given so far, then at least one */
    int pids;  /* nodes with a pid */
    bool echo;
    bool relay; /* echo target, relayed: each message also goes to a partner connection */
    int connections;
    int games;
    double rate;
    int warmup_s, duration_s;
    int port2;        /* --port2: a second node on 127.0.0.1, or 0 */
    int tick_us;      /* service every tick_us without blocking between, or block (0) */
    bool split_cross; /* several nodes: a game's two players on different nodes (else whole
                       * games on either) */
    bool timeline;    /* print the paced phase's slow moves per 100 ms window */
} opt = {.port = 8080,
         .connections = 1000,
         .rate = 2000,
         .warmup_s = 3,
         .duration_s = 10,
         .tick_us = 500,
         .split_cross = true};

static struct lws_context *ctx;
static struct lconn *conns;
static struct lgame *games;
static struct heap schedule;
static lws_sorted_usec_list_t tick_sul, ramp_sul;
static uv_loop_t client_loop;
static uv_timer_t wake_timer, tick_timer;
static bool client_uv = true;
static int connect_next;
static bool paced = true;
static bool measuring;
static volatile sig_atomic_t interrupted;
static uint64_t seed = 0x9e3779b97f4a7c15ull;

/* Statistics of the current phase. */
#define HIST_BUCKETS 200000 /* 10 us each: up to 2 s; beyond goes to the last bucket */
static uint32_t *hist;
static uint64_t delivered, errors_seen, games_started_count, games_ended_count;
static uint64_t event_bytes_sum, events_seen; /* the move messages received while measuring */
static int64_t max_delay_us;
static char first_error[256];
/* With --timeline 1: per 100 ms window of arrival since the paced phase began, the deliveries
 * and those over 20 ms, to tell periodic stalls from episodes of queueing. */
#define TIMELINE_WINDOWS 600
static uint32_t timeline_all[TIMELINE_WINDOWS], timeline_slow[TIMELINE_WINDOWS];
static int64_t phase_began_us;

static uint64_t random_next(void) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
}

static void record_delay(int64_t us) {
    if (!measuring) return;
    delivered++;
    int64_t b = us / 10;
    if (b >= HIST_BUCKETS) b = HIST_BUCKETS - 1;
    if (b < 0) b = 0;
    hist[b]++;
    if (us > max_delay_us) max_delay_us = us;
    if (!opt.timeline) return; /* no second clock read per message unless asked */
    int64_t w = (now_us() - phase_began_us) / 100000;
    if (w >= 0 && w < TIMELINE_WINDOWS) {
        timeline_all[w]++;
        timeline_slow[w] += us > 20000;
    }
}

/* "TIMELINE phase=NAME" and then "window:deliveries/slow" for each window with a slow one. */
static void print_timeline(const char *name, double secs) {
    int windows = (int)(secs * 10.0) + 1;
    if (windows > TIMELINE_WINDOWS) windows = TIMELINE_WINDOWS;
    printf("TIMELINE phase=%s windows=%d slow:", name, windows);
    for (int w = 0; w < windows; w++)
        if (timeline_slow[w]) printf(" %d:%u/%u", w, timeline_all[w], timeline_slow[w]);
    printf("\n");
}

static double percentile_ms(double p) {
    uint64_t total = 0;
    for (int i = 0; i < HIST_BUCKETS; i++) total += hist[i];
    if (!total) return 0;
    uint64_t want = (uint64_t)(p * (double)total), seen = 0;
    for (int i = 0; i < HIST_BUCKETS; i++) {
        seen += hist[i];
        if (seen > want) return (i + 0.5) * 0.01;
    }
    return HIST_BUCKETS * 0.01;
}

/* The share of deliveries (percent) that took longer than ms milliseconds: the target's p99
 * under 20 ms is this share under 1% at 20. */
static double percent_over_ms(int ms) {
    uint64_t total = 0, over = 0;
    for (int i = 0; i < HIST_BUCKETS; i++) {
        total += hist[i];
        if (i >= ms * 100) over += hist[i];
    }
    return total ? 100.0 * (double)over / (double)total : 0;
}

/* Both sides write at once when nothing is queued, as chess_server does (wsio.h). */
static void conn_send(struct lconn *c, const char *text, size_t len) {
    if (c->established && !c->closed) (void)wsio_send(&c->io, c->wsi, text, len);
}

static void conn_sendf(struct lconn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void conn_sendf(struct lconn *c, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0 && n < (int)sizeof buf) conn_send(c, buf, (size_t)n);
}

/* Finds "key":"value" in flat server JSON; copies the value. Returns 0 or -1. */
static int scan_string(const char *json, const char *key, char *out, size_t cap) {
    char pattern[40];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char *p = strstr(json, pattern);
    if (!p) return -1;
    p += strlen(pattern);
    const char *end = strchr(p, '"');
    if (!end || (size_t)(end - p) >= cap) return -1;
    memcpy(out, p, (size_t)(end - p));
    out[end - p] = '\0';
    return 0;
}

/* ------------------------------------------------------------------ scheduling */

static void schedule_tick(void);

/*
 * When a game (or an echo connection) makes its first move: at a random point of its first
 * interval. Set-up starts games in bursts (the server answers a batch of handshakes at once);
 * with every game's first move at the same instant, moves would stay in step, and the paced
 * phase would offer bursts of hundreds of moves followed by silence, not a steady rate.
 */
static int64_t first_move_at(int64_t interval_us) {
    return now_us() + 1000 +
           (int64_t)(random_next() % (uint64_t)(interval_us > 1 ? interval_us : 1));
}

static void game_schedule(struct lgame *g, int64_t at) {
    heap_set(&schedule, &g->due, at);
    schedule_tick();
}

static void game_send_move(struct lgame *g) {
    struct chess_move_list list;
    const struct chess_position *pos = &g->game.current;
    if (!g->playing || g->game.result != CHESS_RESULT_NONE ||
        chess_generate_moves(pos, CHESS_GEN_ALL, &list) == 0)
        return; /* the game is over: game_end is on its way */
    chess_move m = list.moves[random_next() % (uint64_t)list.count];
    char uci[CHESS_UCI_MAX];
    chess_move_to_uci(pos, m, uci);
    int mover = pos->side;
    struct lconn *c = g->conn[0]->color == mover ? g->conn[0] : g->conn[1];
    chess_game_play(&g->game, m);
    g->ply++;
    g->sent_us = now_us();
    conn_sendf(c, "{\"type\":\"move\",\"game\":\"%s\",\"move\":\"%s\"}", g->id, uci);
}

static void echo_send(struct lconn *c) {
    c->echo_sent_us = now_us();
    if (!opt.relay) {
        conn_sendf(c, "{\"type\":\"move\",\"game\":\"abcd%04d\",\"move\":\"e2e4\",\"ply\":12}",
                   c->index % 10000);
        return;
    }
    /* A move, stamped for the partner's delay; the server pads it to an event's size. */
    conn_sendf(c,
               "{\"type\":\"move\",\"from\":%d,\"t\":%lld,\"game\":\"abcd%04d\",\"move\":\"g1f3\"}",
               c->index, (long long)c->echo_sent_us, c->index % 10000);
}

/* Finds "key":<integer> in flat JSON. Returns 0 or -1. */
static int scan_int(const char *json, const char *key, long long *out) {
    char pattern[40];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *p = strstr(json, pattern);
    if (!p) return -1;
    char *end;
    *out = strtoll(p + strlen(pattern), &end, 10);
    return end == p + strlen(pattern) ? -1 : 0;
}

static void tick_cb(lws_sorted_usec_list_t *sul) {
    (void)sul;
    int64_t t = now_us();
    struct heap_node *n;
    while ((n = heap_peek(&schedule)) && n->key <= t) {
        heap_remove(&schedule, n);
        if (opt.echo) {
            echo_send((struct lconn *)(void *)((char *)n - offsetof(struct lconn, due)));
        } else {
            game_send_move((struct lgame *)(void *)((char *)n - offsetof(struct lgame, due)));
        }
    }
    schedule_tick();
}

static void tick_uv_cb(uv_timer_t *t) {
    (void)t;
    tick_cb(NULL);
}

static void schedule_tick(void) {
    struct heap_node *n = heap_peek(&schedule);
    if (!n) return;
    int64_t delay = n->key - now_us();
    if (client_uv) {
        /* A uv timer: lws re-arms its own timers on libuv only after its own callbacks. */
        uv_timer_start(&tick_timer, tick_uv_cb, delay > 0 ? (uint64_t)(delay + 999) / 1000 : 0, 0);
    } else {
        lws_sul_schedule(ctx, 0, &tick_sul, tick_cb, delay > 0 ? delay : 1);
    }
}

/* The opponent got the move: measure, then schedule the reply. */
static void game_move_arrived(struct lgame *g) {
    int64_t t = now_us();
    record_delay(t - g->sent_us);
    if (paced) {
        int64_t due = g->sent_us + g->interval_us;
        game_schedule(g, due > t ? due : t);
    } else {
        game_send_move(g);
    }
}

/* ------------------------------------------------------------------ messages */

static void on_game_started(struct lconn *c, json_t *msg) {
    json_t *game = json_object_get(msg, "game");
    const char *id = json_string_value(json_object_get(game, "id"));
    const char *white = json_string_value(json_object_get(json_object_get(game, "white"), "id"));
    struct lgame *g = c->game;
    if (!id || !white || !g) return;
    /* Both colours at once: the partner's game_started may still be on its way. */
    for (int i = 0; i < 2; i++)
        g->conn[i]->color = strcmp(white, g->conn[i]->player_id) == 0 ? CHESS_WHITE : CHESS_BLACK;
    if (strcmp(g->id, id) == 0) return; /* the partner already set the game up */
    snprintf(g->id, sizeof g->id, "%s", id);
    chess_game_free(&g->game);
    if (chess_game_init(&g->game, NULL) < 0) return;
    g->ply = 0;
    g->playing = true;
    games_started_count++;
    game_schedule(g, first_move_at(g->interval_us));
}

static void on_message(struct lconn *c, char *text, size_t len) {
    text[len] = '\0';
    char type[24];
    if (scan_string(text, "type", type, sizeof type) < 0) return;
    if (measuring && strcmp(type, "move") == 0) event_bytes_sum += len, events_seen++;
    if (opt.echo) {
        long long from, sent;
        if (opt.relay && scan_int(text, "from", &from) == 0 && from != c->index) {
            /* The partner's move: its delay, from the send to this arrival. */
            if (scan_int(text, "t", &sent) == 0) record_delay(now_us() - sent);
            return;
        }
        if (!opt.relay) record_delay(now_us() - c->echo_sent_us);
        if (paced) {
            int64_t due = c->echo_sent_us + (int64_t)(1e6 * opt.connections / opt.rate);
            heap_set(&schedule, &c->due, due > now_us() ? due : now_us());
            schedule_tick();
        } else {
            echo_send(c);
        }
        return;
    }
    struct lgame *g = c->game;
    if (strcmp(type, "move") == 0) {
        char turn[8];
        if (g && scan_string(text, "turn", turn, sizeof turn) == 0 &&
            (turn[0] == 'w') == (c->color == CHESS_WHITE))
            game_move_arrived(g);
        return;
    }
    if (strcmp(type, "game_end") == 0) {
        if (g && g->playing) {
            g->playing = false;
            heap_remove(&schedule, &g->due);
            games_ended_count++;
        }
        conn_sendf(c, "{\"type\":\"rematch_offer\",\"game\":\"%s\"}", g ? g->id : "");
        return;
    }
    if (strcmp(type, "offer") == 0 || strcmp(type, "rematch") == 0 ||
        strcmp(type, "offer_declined") == 0 || strcmp(type, "presence") == 0)
        return;
    json_t *msg = json_loadb(text, len, 0, NULL);
    if (!msg) return;
    if (strcmp(type, "welcome") == 0) {
        snprintf(c->player_id, sizeof c->player_id, "%s",
                 json_string_value(json_object_get(json_object_get(msg, "player"), "id")));
        c->welcomed = true;
        struct lconn *partner = g->conn[c == g->conn[0] ? 1 : 0];
        if (c == g->conn[0]) {
            conn_sendf(c, "{\"type\":\"challenge_create\",\"time\":{\"minutes\":60,"
                          "\"increment\":0},\"color\":\"white\"}");
        } else if (g->challenge_id[0]) {
            conn_sendf(c, "{\"type\":\"challenge_accept\",\"challenge\":\"%s\"}", g->challenge_id);
        }
        (void)partner;
    } else if (strcmp(type, "challenge_created") == 0) {
        const char *id =
            json_string_value(json_object_get(json_object_get(msg, "challenge"), "id"));
        snprintf(g->challenge_id, sizeof g->challenge_id, "%s", id ? id : "");
        if (g->conn[1]->welcomed)
            conn_sendf(g->conn[1], "{\"type\":\"challenge_accept\",\"challenge\":\"%s\"}",
                       g->challenge_id);
    } else if (strcmp(type, "game_started") == 0) {
        on_game_started(c, msg);
    } else if (strcmp(type, "error") == 0) {
        errors_seen++;
        if (!first_error[0]) snprintf(first_error, sizeof first_error, "%.200s", text);
    }
    json_decref(msg);
}

/* ------------------------------------------------------------------ client callback */

static int client_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                           size_t len) {
    (void)user;
    struct lconn *c = lws_get_opaque_user_data(wsi);
    switch (reason) {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            set_nodelay(wsi);
            c->established = true;
            if (opt.echo) {
                heap_set(&schedule, &c->due,
                         first_move_at((int64_t)(1e6 * opt.connections / opt.rate)));
                schedule_tick();
            } else {
                conn_sendf(c, "{\"type\":\"hello\",\"protocol\":1}");
            }
            return 0;
        case LWS_CALLBACK_CLIENT_RECEIVE: {
            size_t n;
            char *text = wsio_receive(&c->io, wsi, in, len, &n);
            if (text) on_message(c, text, n);
            return 0;
        }
        case LWS_CALLBACK_CLIENT_WRITEABLE: return wsio_writable(&c->io, wsi);
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        case LWS_CALLBACK_CLIENT_CLOSED:
            if (c) {
                c->closed = true;
                c->wsi = NULL;
            }
            return 0;
        default: return 0;
    }
}

/* The node of a connection, seat 0 (White) or 1 (Black) of game g: node g%N, or with --split
 * cross node (g+seat)%N. */
static const struct lnode *conn_node(const struct lconn *c) {
    int g = c->index / 2, seat = c->index % 2;
    return &opt.node[(opt.split_cross ? g + seat : g) % opt.nodes];
}

static void ramp_cb(lws_sorted_usec_list_t *sul) {
    (void)sul;
    for (int i = 0; i < 200 && connect_next < opt.connections; i++, connect_next++) {
        struct lconn *c = &conns[connect_next];
        const struct lnode *node = conn_node(c);
        struct lws_client_connect_info ci;
        memset(&ci, 0, sizeof ci);
        ci.context = ctx;
        ci.address = node->host;
        ci.port = node->port;
        ci.path = "/ws";
        ci.host = node->host; /* the server takes an Origin with the Host header's host */
        ci.origin = node->host;
        ci.opaque_user_data = c;
        ci.pwsi = &c->wsi;
        if (!lws_client_connect_via_info(&ci)) c->closed = true;
    }
    if (connect_next < opt.connections) lws_sul_schedule(ctx, 0, &ramp_sul, ramp_cb, 10000);
}

/* ------------------------------------------------------------------ phases */

static double pid_cpu_s(int pid);

/* The CPU seconds of every named node's process, into cpu[]; returns their sum. */
static double server_cpu_s(double cpu[MAX_NODES]) {
    double sum = 0;
    for (int i = 0; i < opt.nodes; i++) sum += cpu[i] = pid_cpu_s(opt.node[i].pid);
    return sum;
}

static double pid_cpu_s(int pid) {
    if (!pid) return 0;
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    unsigned long utime = 0, stime = 0;
    /* Fields after the command: state(3) ... utime(14) stime(15). */
    if (p &&
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) == 2)
        return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
    return 0;
}

static double self_cpu_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static void wake_cb(uv_timer_t *t) {
    (void)t; /* only makes uv_run(UV_RUN_ONCE) return now and then */
}

/*
 * With a tick, the generator polls its sockets without blocking and then sleeps for the tick,
 * instead of sleeping in epoll until the next message: 10,000 connections then wake it a few
 * thousand times a second rather than once or twice per message, which leaves the CPU it
 * shares with the server to the server. A message can wait up to one tick before it is seen,
 * so the delays measured include up to tick_us more than the server's part.
 */
static void service_for(double seconds) {
    int64_t end = now_us() + (int64_t)(seconds * 1e6);
    struct timespec tick = {0, (long)opt.tick_us * 1000};
    while (!interrupted && now_us() < end) {
        if (client_uv && opt.tick_us > 0) {
            uv_run(&client_loop, UV_RUN_NOWAIT);
            nanosleep(&tick, NULL);
        } else if (client_uv)
            uv_run(&client_loop, UV_RUN_ONCE);
        else if (lws_service(ctx, 0) < 0)
            break;
    }
}

static int count_held(void) {
    int held = 0;
    for (int i = 0; i < opt.connections; i++) held += conns[i].established && !conns[i].closed;
    return held;
}

static void measure_phase(const char *name) {
    memset(hist, 0, sizeof *hist * HIST_BUCKETS);
    delivered = 0;
    event_bytes_sum = events_seen = 0;
    max_delay_us = 0;
    uint64_t ended0 = games_ended_count;
    double node0[MAX_NODES], node1[MAX_NODES];
    double server0 = server_cpu_s(node0), self0 = self_cpu_s();
    memset(timeline_all, 0, sizeof timeline_all);
    memset(timeline_slow, 0, sizeof timeline_slow);
    int64_t t0 = now_us();
    phase_began_us = t0;
    printf("PHASE %s begins\n", name);
    fflush(stdout);
    measuring = true;
    service_for(opt.duration_s);
    measuring = false;
    double secs = (double)(now_us() - t0) / 1e6;
    double server_cpu = server_cpu_s(node1) - server0, self_cpu = self_cpu_s() - self0;
    double rate = (double)delivered / secs;
    printf("RESULT phase=%s target=%s connections_held=%d games=%d moves_per_s=%.0f "
           "p50_ms=%.2f p99_ms=%.2f max_ms=%.2f over_20ms=%.2f%% server_cpu=%.0f%% "
           "generator_cpu=%.0f%% "
           "server_us_per_move=%.1f games_finished=%llu errors=%llu event_bytes=%.0f",
           name,
           opt.relay  ? "relay"
           : opt.echo ? "echo"
                      : "chess",
           count_held(), opt.echo ? 0 : opt.games, rate, percentile_ms(0.50), percentile_ms(0.99),
           (double)max_delay_us / 1000.0, percent_over_ms(20), 100.0 * server_cpu / secs,
           100.0 * self_cpu / secs, delivered ? server_cpu * 1e6 / (double)delivered : 0.0,
           (unsigned long long)(games_ended_count - ended0), (unsigned long long)errors_seen,
           events_seen ? (double)event_bytes_sum / (double)events_seen : 0.0);
    if (opt.pids > 1)
        for (int i = 0; i < opt.nodes; i++)
            printf("%s%.0f%%", i ? "," : " node_cpu=", 100.0 * (node1[i] - node0[i]) / secs);
    printf("\n");
    if (opt.timeline && paced) print_timeline(name, secs); /* closed loop: every move is slow */
    fflush(stdout);
}

static void on_signal(int sig) {
    (void)sig;
    interrupted = 1;
}

static int run_generator(void) {
    static const struct lws_protocols protocols[] = {
        {"loadgen", client_callback, 0, MAX_MSG, 0, NULL, 0}, {NULL, NULL, 0, 0, 0, NULL, 0}};
    opt.games = opt.connections / 2;
    conns = calloc((size_t)opt.connections, sizeof *conns);
    games = calloc((size_t)opt.games + 1, sizeof *games);
    hist = calloc(HIST_BUCKETS, sizeof *hist);
    if (!conns || !games || !hist) return 1;
    for (int i = 0; i < opt.connections; i++) {
        conns[i].index = i;
        if (wsio_init(&conns[i].io, MAX_MSG) < 0) return 1;
        struct lgame *g = &games[i / 2];
        conns[i].game = i / 2 < opt.games ? g : NULL;
        if (conns[i].game) {
            g->conn[i % 2] = &conns[i];
            g->interval_us = (int64_t)(1e6 * opt.games / opt.rate);
        }
    }
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    /* No fd_limit_per_thread: with it, lws 4.1 finds a connection from its descriptor by a
     * linear scan (over half the generator's CPU at 10,000 connections); without it lws sizes a
     * direct lookup table from the fd limit, which run.sh raises. */
    info.timeout_secs = 30;
    info.connect_timeout_secs = 30;
    void *foreign[1] = {&client_loop};
    if (client_uv) {
        /* epoll through libuv: lws's own loop polls every descriptor on every turn, which
         * costs too much with 10,000 connections in one process. */
        uv_loop_init(&client_loop);
        uv_timer_init(&client_loop, &wake_timer);
        uv_timer_init(&client_loop, &tick_timer);
        uv_timer_start(&wake_timer, wake_cb, 50, 50);
        info.options |= LWS_SERVER_OPTION_LIBUV;
        info.foreign_loops = foreign;
    }
    lws_set_log_level(LLL_ERR, NULL);
    ctx = lws_create_context(&info);
    if (!ctx) {
        fprintf(stderr, "loadgen: cannot create the lws context\n");
        return 1;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);

    int64_t t0 = now_us();
    lws_sul_schedule(ctx, 0, &ramp_sul, ramp_cb, 1);
    /* Set-up: connections (and for chess, every game started), at most 60 s. */
    while (!interrupted && now_us() - t0 < 60000000) {
        service_for(0.2);
        int ready = opt.echo ? count_held() : (int)games_started_count;
        int want = opt.echo ? opt.connections : opt.games;
        if (ready >= want && connect_next >= opt.connections) break;
    }
    fprintf(stderr, "loadgen: set-up took %.1f s: %d connections held, %llu games started\n",
            (double)(now_us() - t0) / 1e6, count_held(), (unsigned long long)games_started_count);

    paced = true;
    service_for(opt.warmup_s);
    measure_phase("paced");
    paced = false;
    /* Start the closed loop: every game (or connection) with nothing scheduled moves now. */
    struct heap_node *n;
    while ((n = heap_peek(&schedule))) {
        heap_remove(&schedule, n);
        if (opt.echo)
            echo_send((struct lconn *)(void *)((char *)n - offsetof(struct lconn, due)));
        else
            game_send_move((struct lgame *)(void *)((char *)n - offsetof(struct lgame, due)));
    }
    service_for(1);
    measure_phase("closed");
    if (first_error[0]) fprintf(stderr, "loadgen: first error: %s\n", first_error);
    /* Exit without tearing 10,000 connections down one by one; the OS closes them. */
    return 0;
}

static void usage(void) {
    fprintf(stderr,
            "usage: loadgen echo-server --port P [--loop poll|uv] [--keepalive SECONDS]\n"
            "                         [--relay 0|1] [--event-bytes N]\n"
            "       loadgen run --port P --target chess|echo|relay [--connections N]\n"
            "                   [--rate R]\n"
            "                   [--warmup S] [--duration S] [--server-pid PID]\n"
            "                   [--client-loop uv|poll] [--tick-us US] [--timeline 0|1]\n"
            "                   [--port2 P [--split cross|games] [--server-pid2 PID]]\n"
            "       loadgen run --node HOST:PORT [--node HOST:PORT ...] (up to %d)\n"
            "                   [--split cross|games] [--server-pid PID ...] ...\n",
            MAX_NODES);
}

static int usage_error(void) {
    usage();
    return 2;
}

/* A positive integer of at most max from a flag's value, into out. Returns 0 or -1. */
static int parse_count(const char *text, long max, int *out) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > max) return -1;
    *out = (int)v;
    return 0;
}

/* "HOST:PORT" as the next node. Returns 0 or -1 (malformed, or MAX_NODES already). */
static int add_node(const char *spec) {
    const char *colon = strrchr(spec, ':');
    if (opt.nodes >= MAX_NODES || !colon || colon == spec) return -1;
    struct lnode *n = &opt.node[opt.nodes];
    size_t len = (size_t)(colon - spec);
    if (len >= sizeof n->host || parse_count(colon + 1, 65535, &n->port) < 0) return -1;
    memcpy(n->host, spec, len);
    n->host[len] = '\0';
    opt.nodes++;
    return 0;
}

/* The nodes after the flags: those of --node, or 127.0.0.1 on --port (and --port2). Their pids
 * were given in order (--server-pid2: the second's). Returns 0 or -1 (an inconsistent mix). */
static int settle_nodes(const int pid[MAX_NODES]) {
    if (opt.nodes && opt.port_given) return -1;
    if (!opt.nodes) {
        opt.nodes = opt.port2 ? 2 : 1;
        for (int i = 0; i < opt.nodes; i++) {
            snprintf(opt.node[i].host, sizeof opt.node[i].host, "127.0.0.1");
            opt.node[i].port = i ? opt.port2 : opt.port;
        }
    }
    for (int i = 0; i < MAX_NODES; i++) {
        if (pid[i] && i >= opt.nodes) return -1;
        opt.node[i].pid = pid[i];
        opt.pids += pid[i] != 0;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage_error();
    const char *loop_kind = "poll";
    int keepalive_s = 0;
    bool relay = false;
    int event_bytes = 0;
    int pid[MAX_NODES] = {0}, pids = 0; /* --server-pid in order; --server-pid2 is pid[1] */
    for (int i = 2; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--port"))
            opt.port = atoi(v), opt.port_given = true;
        else if (!strcmp(k, "--loop"))
            loop_kind = v;
        else if (!strcmp(k, "--relay"))
            relay = atoi(v) != 0;
        else if (!strcmp(k, "--event-bytes"))
            event_bytes = atoi(v);
        else if (!strcmp(k, "--keepalive"))
            keepalive_s = atoi(v);
        else if (!strcmp(k, "--tick-us"))
            opt.tick_us = atoi(v);
        else if (!strcmp(k, "--client-loop"))
            client_uv = strcmp(v, "poll") != 0;
        else if (!strcmp(k, "--target"))
            opt.echo = !strcmp(v, "echo") || !strcmp(v, "relay"), opt.relay = !strcmp(v, "relay");
        else if (!strcmp(k, "--connections"))
            opt.connections = atoi(v);
        else if (!strcmp(k, "--rate"))
            opt.rate = atof(v);
        else if (!strcmp(k, "--warmup"))
            opt.warmup_s = atoi(v);
        else if (!strcmp(k, "--duration"))
            opt.duration_s = atoi(v);
        else if (!strcmp(k, "--server-pid")) {
            if (pids == MAX_NODES || parse_count(v, INT_MAX, &pid[pids++]) < 0)
                return usage_error();
        } else if (!strcmp(k, "--port2"))
            opt.port2 = atoi(v), opt.port_given = true;
        else if (!strcmp(k, "--server-pid2")) {
            if (parse_count(v, INT_MAX, &pid[1]) < 0) return usage_error();
        } else if (!strcmp(k, "--node")) {
            if (add_node(v) < 0) return usage_error();
        } else if (!strcmp(k, "--split"))
            opt.split_cross = strcmp(v, "games") != 0;
        else if (!strcmp(k, "--timeline"))
            opt.timeline = atoi(v) != 0;
        else
            return usage_error();
    }
    if (opt.connections < 2 || opt.rate <= 0 || opt.tick_us < 0 || opt.tick_us >= 1000000 ||
        settle_nodes(pid) < 0)
        return usage_error();
    seed ^= (uint64_t)getpid() << 17;
    if (!strcmp(argv[1], "echo-server"))
        return run_echo_server(opt.port, loop_kind, keepalive_s, relay, event_bytes);
    if (!strcmp(argv[1], "run")) return run_generator();
    return usage_error();
}
