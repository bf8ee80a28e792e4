/*
 * Tests of the writer and the reads on a real database file (the SQLite backend): every kind
 * of operation is committed and read back, results come back through store_poll() after a
 * wake-up, usernames conflict, tokens are found by hash until revoked, one transaction per op
 * gives the same data, and a writer that cannot write (a full database) gives up and refuses
 * more instead of pretending. (Passwords and the account rules: tests/unit/app.)
 *
 * Run twice: on SQLite, and on PostgreSQL as store_store_pg (testdb.h); the tests of SQLite's
 * own machinery (checkpoints, the WAL's bound) run on SQLite only.
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/auth.h"
#include "check.h"
#include "store/internal.h"
#include "store/read.h"
#include "store/sqlite.h"
#include "store/sqlite_internal.h"
#include "store/store.h"
#include "testdb.h"
#include "tmpdir.h"

static char dir[512];
static atomic_int wakes;

static void on_wake(void *ctx) {
    (void)ctx;
    atomic_fetch_add(&wakes, 1);
}

#define MAX_RESULTS 16

struct results {
    struct store_result items[MAX_RESULTS];
    int count;
};

static void collect(void *ctx, const struct store_result *r) {
    struct results *rs = ctx;
    if (r->kind == STORE_RESULT_COMMIT) return; /* figures for metrics, tested apart */
    if (rs->count < MAX_RESULTS) rs->items[rs->count++] = *r;
}

static void sleep_ms(int ms) {
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* Polls until everything submitted is committed (or the writer failed), at most 20 s. */
static int settle(struct store *s, struct results *rs) {
    for (int i = 0; i < 20000; i++) {
        store_poll(s, collect, rs);
        if (store_committed(s) == store_submitted(s) || store_failed(s)) return 0;
        sleep_ms(1);
    }
    return -1;
}

/* Polls until n results arrived, at most 20 s. */
static int wait_results(struct store *s, struct results *rs, int n) {
    for (int i = 0; i < 20000 && rs->count < n; i++) {
        store_poll(s, collect, rs);
        if (rs->count < n) sleep_ms(1);
    }
    return rs->count >= n ? 0 : -1;
}

static struct store *open_started(bool per_op) {
    int status;
    char err[256];
    if (testdb_fresh(dir, sizeof dir) < 0) return NULL;
    struct store_config cfg = {.per_op = per_op, .retry_ms = 1};
    testdb_config(dir, &cfg);
    struct store *s = store_open(&cfg, &status, err, sizeof err);
    if (!s) {
        printf("open: %s\n", err);
        return NULL;
    }
    if (store_start(s, on_wake, NULL) < 0) {
        store_close(s);
        return NULL;
    }
    return s;
}

/* Opens the store in dir again, as a restarted server does (not started). */
static struct store *reopen(void) {
    int status;
    char err[256];
    struct store_config cfg = {0};
    testdb_config(dir, &cfg);
    struct store *s = store_open(&cfg, &status, err, sizeof err);
    CHECK(s != NULL);
    if (!s) printf("reopen: %s\n", err);
    return s;
}

static void submit_player(struct store *s, const char *id, const char *name, const char *token) {
    struct store_op op = {.type = STORE_OP_PLAYER};
    snprintf(op.player_id, sizeof op.player_id, "%s", id);
    snprintf(op.u.player.name, sizeof op.u.player.name, "%s", name);
    op.u.player.created_at = 1000;
    if (token) {
        op.u.player.has_token = true;
        auth_token_hash(token, op.u.player.token_hash);
    }
    CHECK(store_submit(s, &op) > 0);
}

static void submit_start(struct store *s, const char *game, const char *white, const char *black,
                         int64_t at) {
    struct store_op op = {.type = STORE_OP_GAME_START};
    snprintf(op.game_id, sizeof op.game_id, "%s", game);
    snprintf(op.u.start.player_id[0], sizeof op.u.start.player_id[0], "%s", white);
    snprintf(op.u.start.player_id[1], sizeof op.u.start.player_id[1], "%s", black);
    snprintf(op.u.start.name[0], sizeof op.u.start.name[0], "%s", "Ann");
    snprintf(op.u.start.name[1], sizeof op.u.start.name[1], "%s", "Ben");
    op.u.start.initial_ms = 300000;
    op.u.start.increment_ms = 2000;
    op.u.start.rated = true;
    snprintf(op.u.start.category, sizeof op.u.start.category, "blitz");
    op.u.start.rating[0] = 1500;
    op.u.start.rating[1] = 1600;
    op.u.start.created_at = at;
    CHECK(store_submit(s, &op) > 0);
}

static void submit_move(struct store *s, const char *game, int ply, const char *uci,
                        const char *san, int64_t clock_ms) {
    struct store_op op = {.type = STORE_OP_MOVE};
    snprintf(op.game_id, sizeof op.game_id, "%s", game);
    op.u.move = (struct store_move_row){
        .ply = ply, .timed = true, .clock_ms = clock_ms, .spent_ms = 1500, .played_at = 2000 + ply};
    snprintf(op.u.move.uci, sizeof op.u.move.uci, "%s", uci);
    snprintf(op.u.move.san, sizeof op.u.move.san, "%s", san);
    CHECK(store_submit(s, &op) > 0);
}

/* A move whose own status comes back as a result (cookie). */
static void submit_move_asking(struct store *s, const char *game, int ply, uint64_t cookie) {
    struct store_op op = {.type = STORE_OP_MOVE, .want_result = true, .cookie = cookie};
    snprintf(op.game_id, sizeof op.game_id, "%s", game);
    op.u.move = (struct store_move_row){.ply = ply, .played_at = 2000 + ply};
    snprintf(op.u.move.uci, sizeof op.u.move.uci, "%s", ply % 2 ? "g1f3" : "g8f6");
    snprintf(op.u.move.san, sizeof op.u.move.san, "%s", ply % 2 ? "Nf3" : "Nf6");
    CHECK(store_submit(s, &op) > 0);
}

static void submit_register(struct store *s, const char *player, const char *username,
                            uint64_t cookie) {
    struct store_op op = {.type = STORE_OP_REGISTER, .cookie = cookie, .want_result = true};
    snprintf(op.player_id, sizeof op.player_id, "%s", player);
    snprintf(op.u.reg.name, sizeof op.u.reg.name, "%s", username);
    snprintf(op.u.reg.username, sizeof op.u.reg.username, "%s", username);
    snprintf(op.u.reg.password_hash, sizeof op.u.reg.password_hash, "$argon2id$fake");
    op.u.reg.at = 5000;
    CHECK(store_submit(s, &op) > 0);
}

/* A game with moves, a takeback, chat and a rated end; read back field by field. */
static void check_game_round_trip(bool per_op) {
    struct store *s = open_started(per_op);
    CHECK(s != NULL);
    if (!s) return;
    submit_player(s, "pA", "Ann", "tokenA");
    submit_player(s, "pB", "Ben", "tokenB");
    submit_start(s, "g1", "pA", "pB", 1000);
    submit_move(s, "g1", 1, "e2e4", "e4", 300000);
    submit_move(s, "g1", 2, "e7e5", "e5", 300000);
    submit_move(s, "g1", 3, "g1f3", "Nf3", 298000);
    struct store_op op = {.type = STORE_OP_TAKEBACK};
    snprintf(op.game_id, sizeof op.game_id, "g1");
    op.u.takeback.ply = 2;
    op.u.takeback.timed = true;
    op.u.takeback.clock_ms[0] = 297000;
    op.u.takeback.clock_ms[1] = 299000;
    CHECK(store_submit(s, &op) > 0);
    submit_move(s, "g1", 3, "b1c3", "Nc3", 296000);
    op = (struct store_op){.type = STORE_OP_CHAT};
    snprintf(op.game_id, sizeof op.game_id, "g1");
    snprintf(op.player_id, sizeof op.player_id, "pA");
    snprintf(op.u.chat.name, sizeof op.u.chat.name, "Ann");
    op.u.chat.text = strdup("good luck");
    op.u.chat.sent_at = 2100;
    CHECK(store_submit(s, &op) > 0);
    op = (struct store_op){.type = STORE_OP_GAME_END};
    snprintf(op.game_id, sizeof op.game_id, "g1");
    snprintf(op.u.end.result, sizeof op.u.end.result, "1-0");
    snprintf(op.u.end.termination, sizeof op.u.end.termination, "resignation");
    op.u.end.ply_count = 3;
    op.u.end.ended_at = 9000;
    op.u.end.rated = true;
    op.u.end.category = RATING_BLITZ;
    snprintf(op.u.end.player_id[0], sizeof op.u.end.player_id[0], "pA");
    snprintf(op.u.end.player_id[1], sizeof op.u.end.player_id[1], "pB");
    op.u.end.after[0] = (struct rating){1530, 60, 0.06, 1, 9000};
    op.u.end.after[1] = (struct rating){1570, 290, 0.06, 1, 9000};
    op.u.end.diff[0] = 30;
    op.u.end.diff[1] = -30;
    CHECK(store_submit(s, &op) > 0);
    /* A game that stays live. */
    submit_start(s, "g2", "pB", "pA", 1100);
    submit_move(s, "g2", 1, "d2d4", "d4", 300000);

    struct results rs = {0};
    CHECK_EQ_INT(settle(s, &rs), 0);
    CHECK(!store_failed(s));
    CHECK_EQ_INT(rs.count, 0); /* nothing asked for results */
    CHECK(atomic_load(&wakes) > 0);

    struct store_game g;
    CHECK_EQ_INT(store_read_game(store_startup_reader(s), "g1", &g), 0);
    CHECK_EQ_STR(g.status, "ended");
    CHECK_EQ_STR(g.result, "1-0");
    CHECK_EQ_STR(g.termination, "resignation");
    CHECK_EQ_STR(g.player_id[0], "pA");
    CHECK_EQ_STR(g.name[1], "Ben");
    CHECK(!g.unlimited && g.initial_ms == 300000 && g.increment_ms == 2000);
    CHECK_EQ_INT(g.category, RATING_BLITZ);
    CHECK(g.rated && g.has_ratings);
    CHECK_EQ_INT(g.rating[1], 1600);
    CHECK_EQ_INT(g.rating_diff[0], 30);
    CHECK_EQ_INT(g.rating_diff[1], -30);
    CHECK_EQ_INT(g.ply_count, 3);
    CHECK_EQ_STR(g.moves[2].san, "Nc3");
    CHECK_EQ_STR(g.moves[0].uci, "e2e4");
    /* The takeback set both sides' last clocks to the clock as it was. */
    CHECK_EQ_INT(g.moves[1].clock_ms, 299000);
    CHECK_EQ_INT(g.moves[2].clock_ms, 296000);
    CHECK_EQ_INT(g.moves[2].spent_ms, 1500);
    store_game_free(&g);
    CHECK_EQ_INT(store_read_game(store_startup_reader(s), "nope", &g), -STORE_ERR_NOT_FOUND);

    /* A's games, newest first; pages. */
    struct store_game page[3];
    int count;
    bool more;
    CHECK_EQ_INT(store_player_games(store_startup_reader(s), "pA", 1, 1, page, &count, &more), 0);
    CHECK_EQ_INT(count, 1);
    CHECK(more);
    CHECK_EQ_STR(page[0].id, "g2");
    CHECK_EQ_STR(page[0].status, "live");
    CHECK_EQ_INT(page[0].ply_count, 1); /* counted from the moves while live */
    CHECK_EQ_INT(store_player_games(store_startup_reader(s), "pA", 2, 1, page, &count, &more), 0);
    CHECK_EQ_INT(count, 1);
    CHECK(!more);
    CHECK_EQ_STR(page[0].id, "g1");
    CHECK_EQ_INT(store_player_games(store_startup_reader(s), "pA", 3, 1, page, &count, &more), 0);
    CHECK_EQ_INT(count, 0);
    CHECK_EQ_INT(store_player_games(store_startup_reader(s), "pA", 1, 101, page, &count, &more),
                 -STORE_ERR_NOT_FOUND);

    /* Ratings: A's is settled enough for the board, B's is provisional. */
    struct store_identity id;
    CHECK_EQ_INT(store_find_player(store_startup_reader(s), "pA", &id), 0);
    CHECK_EQ_INT((int)id.ratings[RATING_BLITZ].rating, 1530);
    CHECK_EQ_INT(id.ratings[RATING_BLITZ].games, 1);
    CHECK_EQ_INT((int)id.ratings[RATING_BULLET].rating, 1500);
    CHECK_EQ_INT(id.ratings[RATING_BULLET].games, 0);
    CHECK(id.ratings[RATING_BLITZ].updated_at == 9000); /* the game's end */
    struct store_leader board[5];
    CHECK_EQ_INT(store_leaderboard(store_startup_reader(s), RATING_BLITZ, 5, 9000, board, &count),
                 0);
    CHECK_EQ_INT(count, 1);
    CHECK_EQ_STR(board[0].player_id, "pA");
    CHECK_EQ_STR(board[0].name, "Ann");
    CHECK(board[0].rating.updated_at == 9000);
    /* A year and a day later A's deviation has grown from 60 past 110: off the board. */
    int64_t year = 366LL * 86400000;
    CHECK_EQ_INT(
        store_leaderboard(store_startup_reader(s), RATING_BLITZ, 5, 9000 + year, board, &count), 0);
    CHECK_EQ_INT(count, 0);
    CHECK_EQ_INT(store_leaderboard(store_startup_reader(s), RATING_NONE, 5, 9000, board, &count),
                 -STORE_ERR_NOT_FOUND);
    store_close(s);
}

static void test_game_round_trip(void) {
    check_game_round_trip(false);
}

static void test_game_round_trip_per_op(void) {
    check_game_round_trip(true);
}

struct live_seen {
    int games;
    char id[STORE_ID_MAX + 1];
    char black_name[32];
    int plies;
};

static int on_live(void *ctx, const struct store_game *g, const struct store_identity p[2]) {
    struct live_seen *seen = ctx;
    seen->games++;
    snprintf(seen->id, sizeof seen->id, "%s", g->id);
    snprintf(seen->black_name, sizeof seen->black_name, "%s", p[1].name);
    seen->plies = g->ply_count;
    return 0;
}

static void test_live_games_survive_reopen(void) {
    struct store *s = open_started(false);
    if (!s) return;
    submit_player(s, "pA", "Ann", "tA");
    submit_player(s, "pB", "Ben", "tB");
    submit_start(s, "live1", "pA", "pB", 10);
    submit_move(s, "live1", 1, "e2e4", "e4", 300000);
    submit_move(s, "live1", 2, "c7c5", "c5", 300000);
    struct results rs = {0};
    CHECK_EQ_INT(settle(s, &rs), 0);
    store_close(s);
    s = reopen();
    if (!s) return;
    struct live_seen seen = {0};
    CHECK_EQ_INT(store_load_live(store_startup_reader(s), on_live, &seen), 0);
    CHECK_EQ_INT(seen.games, 1);
    CHECK_EQ_STR(seen.id, "live1");
    CHECK_EQ_STR(seen.black_name, "Ben");
    CHECK_EQ_INT(seen.plies, 2);
    /* The restarted writer goes on where it stopped: the next ply, then the end. */
    CHECK_EQ_INT(store_start(s, on_wake, NULL), 0);
    submit_move(s, "live1", 2, "c7c6", "c6", 1); /* not the next ply: refused */
    submit_move(s, "live1", 3, "g1f3", "Nf3", 299000);
    struct store_op op = {.type = STORE_OP_GAME_END};
    snprintf(op.game_id, sizeof op.game_id, "live1");
    snprintf(op.u.end.result, sizeof op.u.end.result, "1/2-1/2");
    snprintf(op.u.end.termination, sizeof op.u.end.termination, "agreement");
    op.u.end.ply_count = 3;
    CHECK(store_submit(s, &op) > 0);
    CHECK_EQ_INT(settle(s, &rs), 0);
    struct store_game g;
    CHECK_EQ_INT(store_read_game(store_startup_reader(s), "live1", &g), 0);
    CHECK_EQ_STR(g.status, "ended");
    CHECK_EQ_INT(g.ply_count, 3);
    CHECK_EQ_STR(g.moves[1].san, "c5");
    CHECK_EQ_STR(g.moves[2].san, "Nf3");
    store_game_free(&g);
    seen = (struct live_seen){0};
    CHECK_EQ_INT(store_load_live(store_startup_reader(s), on_live, &seen), 0);
    CHECK_EQ_INT(seen.games, 0);
    store_close(s);
}

/* The single integer a query on the store's database returns, or -1. */
static long file_long(const char *sql) {
    return testdb_long(dir, sql);
}

/*
 * live_moves has no foreign key (migrations/004): the writer stores a move only for a game it
 * stored, or found live when it started, even one without moves yet. A move for a game never
 * stored, or whose start was refused, is refused (NOT_FOUND) and not written.
 */
static void test_moves_need_a_stored_game(void) {
    struct store *s = open_started(false);
    if (!s) return;
    submit_player(s, "pA", "Ann", NULL);
    submit_player(s, "pB", "Ben", NULL);
    submit_move_asking(s, "ghost", 1, 1);
    submit_start(s, "nobodys", "nobody", "pB", 10); /* refused: no such player */
    submit_move_asking(s, "nobodys", 1, 2);
    submit_start(s, "quiet", "pA", "pB", 20);
    struct results rs = {0};
    CHECK_EQ_INT(wait_results(s, &rs, 2), 0);
    CHECK_EQ_INT(settle(s, &rs), 0);
    CHECK_EQ_INT(rs.count, 2);
    CHECK_EQ_INT(rs.items[0].cookie, 1);
    CHECK_EQ_INT(rs.items[0].status, -STORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(rs.items[1].cookie, 2);
    CHECK_EQ_INT(rs.items[1].status, -STORE_ERR_NOT_FOUND);
    CHECK(!store_failed(s));
    store_close(s);

    /* Restarted: the live game without moves is known from games. */
    s = reopen();
    if (!s) return;
    CHECK_EQ_INT(store_start(s, on_wake, NULL), 0);
    rs = (struct results){0};
    submit_move_asking(s, "quiet", 1, 3);
    submit_move_asking(s, "ghost", 1, 4);
    submit_move_asking(s, "quiet", 2, 5);
    CHECK_EQ_INT(wait_results(s, &rs, 3), 0);
    CHECK_EQ_INT(rs.count, 3);
    CHECK_EQ_INT(rs.items[0].status, 0);
    CHECK_EQ_INT(rs.items[1].status, -STORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(rs.items[2].status, 0);
    store_close(s);
    CHECK_EQ_INT(file_long("SELECT count(*) FROM live_moves WHERE game_id = 'quiet'"), 2);
    CHECK_EQ_INT(file_long("SELECT count(*) FROM live_moves WHERE game_id <> 'quiet'"), 0);
    CHECK_EQ_INT(file_long("SELECT count(*) FROM games WHERE id = 'nobodys'"), 0);
}

static void test_accounts_and_tokens(void) {
    struct store *s = open_started(false);
    if (!s) return;
    submit_player(s, "pA", "Guest1", "tokenA");
    submit_player(s, "pB", "Guest2", NULL);
    submit_register(s, "pA", "alice", 1);
    submit_register(s, "pB", "alice", 2);  /* taken */
    submit_register(s, "pA", "alice2", 3); /* already an account */
    submit_register(s, "pC", "carol", 4);  /* a guest never stored: created */
    struct results rs = {0};
    CHECK_EQ_INT(wait_results(s, &rs, 4), 0);
    CHECK_EQ_INT(rs.items[0].cookie, 1);
    CHECK_EQ_INT(rs.items[0].status, 0);
    CHECK_EQ_INT(rs.items[1].status, -STORE_ERR_CONFLICT);
    CHECK_EQ_INT(rs.items[2].status, -STORE_ERR_CONFLICT);
    CHECK_EQ_INT(rs.items[3].status, 0);
    CHECK_EQ_INT(rs.items[3].kind, STORE_RESULT_WRITE);

    struct store_identity id;
    char hash[STORE_PWHASH_MAX];
    CHECK_EQ_INT(store_find_account(store_startup_reader(s), "alice", &id, hash), 0);
    CHECK_EQ_STR(id.player_id, "pA");
    CHECK_EQ_STR(id.name, "alice");
    CHECK_EQ_STR(hash, "$argon2id$fake");
    CHECK_EQ_INT(store_find_account(store_startup_reader(s), "bob", &id, hash),
                 -STORE_ERR_NOT_FOUND);

    uint8_t h[STORE_HASH_LEN];
    auth_token_hash("tokenA", h);
    CHECK_EQ_INT(store_find_token(store_startup_reader(s), h, &id), 0);
    CHECK_EQ_STR(id.player_id, "pA");
    CHECK_EQ_STR(id.username, "alice");
    CHECK(!id.bot_token);
    /* A bot token, then revocation. */
    struct store_op op = {.type = STORE_OP_TOKEN_ADD};
    snprintf(op.player_id, sizeof op.player_id, "pA");
    auth_token_hash("botA", op.u.token.hash);
    op.u.token.kind = STORE_TOKEN_BOT;
    snprintf(op.u.token.label, sizeof op.u.token.label, "engine");
    CHECK(store_submit(s, &op) > 0);
    CHECK_EQ_INT(settle(s, &rs), 0);
    auth_token_hash("botA", h);
    CHECK_EQ_INT(store_find_token(store_startup_reader(s), h, &id), 0);
    CHECK(id.bot_token);
    op = (struct store_op){.type = STORE_OP_TOKEN_REVOKE, .want_result = true, .cookie = 9};
    auth_token_hash("botA", op.u.token.hash);
    op.u.token.at = 7;
    CHECK(store_submit(s, &op) > 0);
    rs.count = 0;
    CHECK_EQ_INT(wait_results(s, &rs, 1), 0);
    CHECK_EQ_INT(rs.items[0].status, 0);
    CHECK_EQ_INT(store_find_token(store_startup_reader(s), h, &id), -STORE_ERR_NOT_FOUND);
    auth_token_hash("nobody", h);
    CHECK_EQ_INT(store_find_token(store_startup_reader(s), h, &id), -STORE_ERR_NOT_FOUND);
    store_close(s);
}

/* A bot operation by `owner` with its own result (cookie). */
static void submit_bot(struct store *s, enum store_op_type type, const char *owner,
                       const char *bot_id, const char *username, const char *token,
                       uint64_t cookie) {
    struct store_op op = {.type = type, .want_result = true, .cookie = cookie};
    snprintf(op.player_id, sizeof op.player_id, "%s", owner);
    snprintf(op.u.bot.bot_id, sizeof op.u.bot.bot_id, "%s", bot_id);
    snprintf(op.u.bot.name, sizeof op.u.bot.name, "%s", username);
    for (int i = 0; username[i] && i < STORE_USERNAME_MAX; i++)
        op.u.bot.username[i] = (char)(username[i] | 0x20); /* lower case (letters only here) */
    if (token) auth_token_hash(token, op.u.bot.token_hash);
    op.u.bot.max_bots = 2;
    op.u.bot.at = 5;
    CHECK(store_submit(s, &op) > 0);
}

/* Bots: created with their first token, owned (others cannot touch them), at most max_bots per
 * owner, found by username without a password, every token revoked at once. */
static void test_bot_accounts(void) {
    struct store *s = open_started(false);
    if (!s) return;
    struct results rs = {0};
    const char *owners[] = {"pOwn", "pOther"};
    for (int i = 0; i < 2; i++) {
        struct store_op op = {.type = STORE_OP_PLAYER};
        snprintf(op.player_id, sizeof op.player_id, "%s", owners[i]);
        snprintf(op.u.player.name, sizeof op.u.player.name, "%s", owners[i]);
        CHECK(store_submit(s, &op) > 0);
    }
    submit_bot(s, STORE_OP_BOT_CREATE, "pOwn", "bA", "RoboA", "tokA", 1);
    submit_bot(s, STORE_OP_BOT_CREATE, "pOther", "bX", "ROBOA", "tokX", 2); /* name taken */
    submit_bot(s, STORE_OP_BOT_CREATE, "pOwn", "bB", "RoboB", "tokB", 3);
    submit_bot(s, STORE_OP_BOT_CREATE, "pOwn", "bC", "RoboC", "tokC", 4); /* a third: limit */
    submit_bot(s, STORE_OP_BOT_TOKEN, "pOther", "", "RoboA", "tokA2", 5); /* not theirs */
    submit_bot(s, STORE_OP_BOT_TOKEN, "pOwn", "", "RoboA", "tokA2", 6);
    CHECK_EQ_INT(wait_results(s, &rs, 6), 0);
    int want[] = {0, -STORE_ERR_CONFLICT, 0, -STORE_ERR_LIMIT, -STORE_ERR_NOT_FOUND, 0};
    for (int i = 0; i < 6 && i < rs.count; i++) CHECK_EQ_INT(rs.items[i].status, want[i]);

    struct store_identity id;
    uint8_t h[STORE_HASH_LEN];
    const char *tokens[] = {"tokA", "tokA2"};
    for (int i = 0; i < 2; i++) {
        auth_token_hash(tokens[i], h);
        CHECK_EQ_INT(store_find_token(store_startup_reader(s), h, &id), 0);
        CHECK_EQ_STR(id.player_id, "bA");
        CHECK(id.bot && id.bot_token);
    }
    CHECK_EQ_INT(store_find_username(store_startup_reader(s), "roboa", &id), 0);
    CHECK_EQ_STR(id.name, "RoboA");
    CHECK(id.bot);
    char hash[STORE_PWHASH_MAX];
    CHECK_EQ_INT(store_find_account(store_startup_reader(s), "roboa", &id, hash),
                 -STORE_ERR_NOT_FOUND); /* no password: no login */

    rs.count = 0;
    submit_bot(s, STORE_OP_BOT_REVOKE, "pOther", "", "RoboA", NULL, 7);
    submit_bot(s, STORE_OP_BOT_REVOKE, "pOwn", "", "RoboA", NULL, 8);
    submit_bot(s, STORE_OP_BOT_REVOKE, "pOwn", "", "RoboA", NULL, 9); /* none left: fine */
    CHECK_EQ_INT(wait_results(s, &rs, 3), 0);
    CHECK_EQ_INT(rs.count > 2 ? rs.items[0].status : 1, -STORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(rs.count > 2 ? rs.items[1].status : 1, 0);
    CHECK_EQ_INT(rs.count > 2 ? rs.items[2].status : 1, 0);
    for (int i = 0; i < 2; i++) {
        auth_token_hash(tokens[i], h);
        CHECK_EQ_INT(store_find_token(store_startup_reader(s), h, &id), -STORE_ERR_NOT_FOUND);
    }
    auth_token_hash("tokB", h); /* the other bot's token still works */
    CHECK_EQ_INT(store_find_token(store_startup_reader(s), h, &id), 0);
    store_close(s);
}

/* An account operation of player's with its own result (cookie): keep names the session that
 * stays, session the one revoked (tokens, hashed here). */
static void submit_account(struct store *s, enum store_op_type type, const char *player,
                           const char *keep, const char *session, uint64_t cookie) {
    struct store_op op = {.type = type, .want_result = true, .cookie = cookie};
    snprintf(op.player_id, sizeof op.player_id, "%s", player);
    snprintf(op.u.account.password_hash, sizeof op.u.account.password_hash, "$argon2id$new");
    op.u.account.at = 50;
    op.u.account.has_keep = keep != NULL;
    if (keep) auth_token_hash(keep, op.u.account.keep);
    if (session) {
        uint8_t h[STORE_HASH_LEN];
        auth_token_hash(session, h);
        memcpy(op.u.account.session, h, sizeof op.u.account.session);
    }
    CHECK(store_submit(s, &op) > 0);
}

static void submit_token(struct store *s, enum store_op_type type, const char *player,
                         const char *token, int64_t at) {
    struct store_op op = {.type = type};
    snprintf(op.player_id, sizeof op.player_id, "%s", player);
    auth_token_hash(token, op.u.token.hash);
    op.u.token.kind = STORE_TOKEN_SESSION;
    op.u.token.at = at;
    CHECK(store_submit(s, &op) > 0);
}

static bool token_works(struct store *s, const char *token) {
    struct store_identity id;
    uint8_t h[STORE_HASH_LEN];
    auth_token_hash(token, h);
    return store_find_token(store_startup_reader(s), h, &id) == 0;
}

/* Results of the last n operations asked for (cookies in order): their statuses match want. */
static void check_statuses(struct store *s, const int *want, int n) {
    struct results rs = {0};
    CHECK_EQ_INT(wait_results(s, &rs, n), 0);
    for (int i = 0; i < n && i < rs.count; i++) {
        if (!check_record(rs.items[i].status == want[i], "status as expected", __FILE__, __LINE__))
            printf("     result %d (cookie %llu): %d, expected %d\n", i,
                   (unsigned long long)rs.items[i].cookie, rs.items[i].status, want[i]);
    }
}

/* One integer from the database file, read on a connection of its own. */
static int64_t raw_int(const char *sql) {
    return testdb_long(dir, sql);
}

/* An account's sessions (listed, seen, revoked one by one or all but one with a new password),
 * its deletion (refused while its bot plays; then games and chat anonymised, tokens revoked,
 * the rows kept as tombstones that reserve the names) and the operator's password reset beside
 * the open store. */
static void test_account_operations(void) {
    struct store *s = open_started(false);
    if (!s) return;
    submit_player(s, "pA", "Guest1", "tokA1");
    submit_player(s, "pX", "Guest2", "tokX");
    submit_register(s, "pA", "alice", 1);
    submit_register(s, "pX", "xena", 2);
    submit_token(s, STORE_OP_TOKEN_ADD, "pA", "tokA2", 20);
    submit_token(s, STORE_OP_TOKEN_ADD, "pA", "tokA3", 30);
    submit_bot(s, STORE_OP_BOT_CREATE, "pA", "bA", "RoboA", "tokBot", 3);
    submit_token(s, STORE_OP_TOKEN_SEEN, "pA", "tokA2", 40);
    check_statuses(s, (const int[]){0, 0, 0}, 3);
    CHECK_EQ_INT(settle(s, &(struct results){0}), 0);

    /* Listed by their last use: tokA2 (seen at 40), tokA3 (created at 30), tokA1 (1000, the
     * guest's, never seen) first. */
    struct store_session list[8];
    int n = 0;
    CHECK_EQ_INT(store_sessions(store_startup_reader(s), "pA", 8, list, &n), 0);
    CHECK_EQ_INT(n, 3);
    uint8_t h[STORE_HASH_LEN];
    auth_token_hash("tokA2", h);
    CHECK(n == 3 && memcmp(list[1].hash, h, sizeof h) == 0);
    CHECK(n == 3 && list[1].last_seen_at == 40 && list[1].created_at == 20);
    CHECK(n == 3 && list[0].last_seen_at == 0 && list[2].created_at == 30);
    CHECK_EQ_INT(store_sessions(store_startup_reader(s), "pA", 1, list, &n), 0);
    CHECK_EQ_INT(n, 1);

    /* One session by its id: only the account's own, once. */
    submit_account(s, STORE_OP_SESSION_REVOKE, "pX", NULL, "tokA3", 10);
    submit_account(s, STORE_OP_SESSION_REVOKE, "pA", NULL, "tokA3", 11);
    submit_account(s, STORE_OP_SESSION_REVOKE, "pA", NULL, "tokA3", 12);
    check_statuses(s, (const int[]){-STORE_ERR_NOT_FOUND, 0, -STORE_ERR_NOT_FOUND}, 3);
    CHECK(!token_works(s, "tokA3"));
    CHECK(token_works(s, "tokA2"));

    /* A new password: every session but the kept one ends; bots' tokens are not sessions. */
    submit_account(s, STORE_OP_PASSWORD_SET, "pA", "tokA1", NULL, 13);
    submit_account(s, STORE_OP_PASSWORD_SET, "pNobody", "tokA1", NULL, 14);
    submit_account(s, STORE_OP_PASSWORD_SET, "bA", NULL, NULL, 15); /* a bot has no password */
    check_statuses(s, (const int[]){0, -STORE_ERR_NOT_FOUND, -STORE_ERR_NOT_FOUND}, 3);
    char hash[STORE_PWHASH_MAX];
    CHECK_EQ_INT(store_account_password(store_startup_reader(s), "pA", hash), 0);
    CHECK_EQ_STR(hash, "$argon2id$new");
    CHECK_EQ_INT(store_account_password(store_startup_reader(s), "bA", hash), -STORE_ERR_NOT_FOUND);
    CHECK(token_works(s, "tokA1") && !token_works(s, "tokA2") && token_works(s, "tokBot"));
    submit_account(s, STORE_OP_SESSIONS_REVOKE, "pA", NULL, NULL, 16); /* no keep: all */
    check_statuses(s, (const int[]){0}, 1);
    CHECK(!token_works(s, "tokA1") && token_works(s, "tokX"));

    /* Deletion: refused while its bot plays; then done once. */
    submit_start(s, "g1", "pX", "bA", 1000);
    struct store_op chat = {.type = STORE_OP_CHAT};
    snprintf(chat.game_id, sizeof chat.game_id, "g1");
    snprintf(chat.player_id, sizeof chat.player_id, "pA"); /* its owner, watching */
    snprintf(chat.u.chat.name, sizeof chat.u.chat.name, "alice");
    chat.u.chat.room = 1;
    chat.u.chat.text = strdup("go robo");
    CHECK(store_submit(s, &chat) > 0);
    submit_account(s, STORE_OP_ACCOUNT_DELETE, "pA", NULL, NULL, 17);
    struct store_op end = {.type = STORE_OP_GAME_END};
    snprintf(end.game_id, sizeof end.game_id, "g1");
    snprintf(end.u.end.result, sizeof end.u.end.result, "*");
    snprintf(end.u.end.termination, sizeof end.u.end.termination, "aborted");
    end.u.end.ended_at = 1100;
    CHECK(store_submit(s, &end) > 0);
    submit_account(s, STORE_OP_ACCOUNT_DELETE, "pA", NULL, NULL, 18);
    submit_account(s, STORE_OP_ACCOUNT_DELETE, "pA", NULL, NULL, 19);
    submit_register(s, "pN", "alice", 20); /* the name stays reserved */
    check_statuses(
        s, (const int[]){-STORE_ERR_CONFLICT, 0, -STORE_ERR_NOT_FOUND, -STORE_ERR_CONFLICT}, 4);
    struct store_identity id;
    CHECK_EQ_INT(store_find_player(store_startup_reader(s), "pA", &id), -STORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(store_find_username(store_startup_reader(s), "alice", &id), -STORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(store_find_username(store_startup_reader(s), "roboa", &id), -STORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(store_find_player(store_startup_reader(s), "pX", &id), 0);
    CHECK(!token_works(s, "tokBot"));
    struct store_game g;
    CHECK_EQ_INT(store_read_game(store_startup_reader(s), "g1", &g), 0);
    CHECK_EQ_STR(g.player_id[0], "pX");
    CHECK_EQ_STR(g.player_id[1], "");
    CHECK_EQ_STR(g.name[1], STORE_DELETED_NAME);
    store_game_free(&g);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM chat WHERE player_id = 'pA'"), 0);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM chat WHERE name = '[deleted]'"), 1);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM players WHERE deleted_at = 50 AND "
                         "password_hash IS NULL AND username IN ('alice', 'roboa')"),
                 2);

    /* The operator's reset, beside the open store. */
    struct store_config cfg = {0};
    testdb_config(dir, &cfg);
    char err[256];
    int revoked = -1;
    CHECK_EQ_INT(
        store_reset_password(&cfg, "xena", "$argon2id$reset", 60, &revoked, err, sizeof err), 0);
    CHECK_EQ_INT(revoked, 1);
    CHECK(!token_works(s, "tokX"));
    CHECK_EQ_INT(store_account_password(store_startup_reader(s), "pX", hash), 0);
    CHECK_EQ_STR(hash, "$argon2id$reset");
    CHECK_EQ_INT(store_reset_password(&cfg, "alice", "$argon2id$x", 60, &revoked, err, sizeof err),
                 -STORE_ERR_NOT_FOUND); /* deleted */
    CHECK_EQ_INT(store_reset_password(&cfg, "roboa", "$argon2id$x", 60, &revoked, err, sizeof err),
                 -STORE_ERR_NOT_FOUND); /* a bot */
    struct store_config nowhere = {.location = "/nonexistent/chess"};
    if (testdb_pg()) /* a server that is not there */
        nowhere = (struct store_config){.backend = STORE_BACKEND_POSTGRESQL,
                                        .location = "postgresql://chess@127.0.0.1:1/chess"};
    CHECK_EQ_INT(
        store_reset_password(&nowhere, "xena", "$argon2id$x", 60, &revoked, err, sizeof err),
        testdb_pg() ? -STORE_ERR_UNREACHABLE : -STORE_ERR_LOCATION);
    store_close(s);
}

/* An API token operation of player's with its own result (cookie): CREATE with the token
 * (hashed here), REVOKE by the id of token's hash. */
static void submit_api_token(struct store *s, enum store_op_type type, const char *player,
                             const char *token, const char *description, const char *scopes,
                             int64_t at, uint64_t cookie) {
    struct store_op op = {.type = type, .want_result = cookie != 0, .cookie = cookie};
    snprintf(op.player_id, sizeof op.player_id, "%s", player);
    uint8_t h[STORE_HASH_LEN];
    auth_token_hash(token, h);
    memcpy(op.u.api_token.hash, h, sizeof h);
    memcpy(op.u.api_token.id, h, sizeof op.u.api_token.id);
    snprintf(op.u.api_token.description, sizeof op.u.api_token.description, "%s",
             description ? description : "");
    snprintf(op.u.api_token.scopes, sizeof op.u.api_token.scopes, "%s", scopes ? scopes : "");
    op.u.api_token.max_tokens = 2;
    op.u.api_token.at = at;
    CHECK(store_submit(s, &op) > 0);
}

/* Whose the API token is (player id, or "" when it names nobody) and its scopes. */
static void find_api(struct store *s, const char *token, const char *player, const char *scopes) {
    struct store_identity id;
    char found[STORE_SCOPES_MAX] = "?";
    int64_t created = -1;
    uint8_t h[STORE_HASH_LEN];
    auth_token_hash(token, h);
    int rc = store_find_api_token(store_startup_reader(s), h, &id, found, &created);
    if (!*player) {
        CHECK_EQ_INT(rc, -STORE_ERR_NOT_FOUND);
        return;
    }
    CHECK_EQ_INT(rc, 0);
    if (rc < 0) return;
    CHECK_EQ_STR(id.player_id, player);
    CHECK_EQ_STR(found, scopes);
    CHECK(created > 0);
}

/* Personal API tokens: created by accounts only, at most max_tokens working ones, found with
 * the identity and scopes, listed newest first, revoked by their id by their owner only, used,
 * and revoked with the account; bot tokens are API tokens with bot:play, sessions are not. */
static void test_api_tokens(void) {
    struct store *s = open_started(false);
    if (!s) return;
    submit_player(s, "pA", "Guest1", "sessA");
    submit_player(s, "pX", "Guest2", "sessX");
    submit_player(s, "pG", "Guest3", "sessG"); /* stays a guest */
    submit_register(s, "pA", "alice", 1);
    submit_register(s, "pX", "xena", 2);
    submit_bot(s, STORE_OP_BOT_CREATE, "pA", "bA", "RoboA", "botTok", 3);
    check_statuses(s, (const int[]){0, 0, 0}, 3);

    submit_api_token(s, STORE_OP_API_TOKEN_CREATE, "pA", "apiA1", "my bot", "bot:play", 100, 10);
    submit_api_token(s, STORE_OP_API_TOKEN_CREATE, "pA", "apiA2", "board",
                     "board:play,challenge:read", 200, 11);
    submit_api_token(s, STORE_OP_API_TOKEN_CREATE, "pA", "apiA3", "third", "", 300, 12);
    submit_api_token(s, STORE_OP_API_TOKEN_CREATE, "pX", "apiX1", "xena's", "", 150, 13);
    submit_api_token(s, STORE_OP_API_TOKEN_CREATE, "pG", "apiG1", "guest", "", 150, 14);
    submit_api_token(s, STORE_OP_API_TOKEN_CREATE, "bA", "apiB1", "bot", "", 150, 15);
    submit_api_token(s, STORE_OP_API_TOKEN_CREATE, "pNobody", "apiN1", "none", "", 150, 16);
    check_statuses(s,
                   (const int[]){0, 0, -STORE_ERR_LIMIT, 0, -STORE_ERR_NOT_FOUND,
                                 -STORE_ERR_NOT_FOUND, -STORE_ERR_NOT_FOUND},
                   7);

    find_api(s, "apiA1", "pA", "bot:play");
    find_api(s, "apiA2", "pA", "board:play,challenge:read");
    find_api(s, "apiX1", "pX", "");
    find_api(s, "apiA3", "", "");
    find_api(s, "apiG1", "", "");
    find_api(s, "sessA", "", ""); /* a session is no API token */
    find_api(s, "botTok", "bA", "bot:play");
    struct store_identity id;
    char scopes[STORE_SCOPES_MAX];
    int64_t created = 0;
    uint8_t h[STORE_HASH_LEN];
    auth_token_hash("botTok", h);
    CHECK_EQ_INT(store_find_api_token(store_startup_reader(s), h, &id, scopes, &created), 0);
    CHECK(id.bot && id.bot_token);
    CHECK_EQ_INT(created, 5);
    CHECK_EQ_STR(id.username, "roboa");
    auth_token_hash("apiA2", h);
    CHECK_EQ_INT(store_find_api_token(store_startup_reader(s), h, &id, scopes, &created), 0);
    CHECK(!id.bot && !id.bot_token);
    CHECK_EQ_INT(created, 200);
    CHECK_EQ_STR(id.username, "alice");
    CHECK_EQ_STR(id.name, "alice");
    CHECK_EQ_INT((int)id.ratings[RATING_BLITZ].rating, (int)rating_initial().rating);

    /* Listed newest first, with what they were given; the used one says when. */
    submit_api_token(s, STORE_OP_API_TOKEN_USED, "", "apiA1", NULL, NULL, 250, 0);
    CHECK_EQ_INT(settle(s, &(struct results){0}), 0);
    struct store_api_token list[4];
    int n = 0;
    CHECK_EQ_INT(store_api_tokens(store_startup_reader(s), "pA", 4, list, &n), 0);
    CHECK_EQ_INT(n, 2);
    auth_token_hash("apiA2", h);
    CHECK(n == 2 && memcmp(list[0].hash, h, sizeof h) == 0);
    CHECK(n == 2 && list[0].created_at == 200 && list[0].last_used_at == 0);
    CHECK_EQ_STR(n == 2 ? list[0].description : "", "board");
    CHECK_EQ_STR(n == 2 ? list[0].scopes : "", "board:play,challenge:read");
    CHECK(n == 2 && list[1].created_at == 100 && list[1].last_used_at == 250);
    CHECK_EQ_STR(n == 2 ? list[1].description : "", "my bot");
    CHECK_EQ_INT(store_api_tokens(store_startup_reader(s), "pA", 1, list, &n), 0);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(store_api_tokens(store_startup_reader(s), "pG", 4, list, &n), 0);
    CHECK_EQ_INT(n, 0);

    /* Revoked by its id: not by another account, once; then there is room for another. */
    submit_api_token(s, STORE_OP_API_TOKEN_REVOKE, "pX", "apiA1", NULL, NULL, 400, 20);
    submit_api_token(s, STORE_OP_API_TOKEN_REVOKE, "pA", "apiA1", NULL, NULL, 400, 21);
    submit_api_token(s, STORE_OP_API_TOKEN_REVOKE, "pA", "apiA1", NULL, NULL, 401, 22);
    submit_api_token(s, STORE_OP_API_TOKEN_REVOKE, "pA", "sessA", NULL, NULL, 401, 23);
    submit_api_token(s, STORE_OP_API_TOKEN_CREATE, "pA", "apiA4", "fourth", "email:read", 500, 24);
    check_statuses(
        s, (const int[]){-STORE_ERR_NOT_FOUND, 0, -STORE_ERR_NOT_FOUND, -STORE_ERR_NOT_FOUND, 0},
        5);
    find_api(s, "apiA1", "", "");
    find_api(s, "apiA4", "pA", "email:read");
    CHECK(token_works(s, "sessA"));
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM api_tokens WHERE revoked_at = 400"), 1);

    /* A bot token revoked is no API token any more. */
    submit_bot(s, STORE_OP_BOT_REVOKE, "pA", "", "RoboA", NULL, 25);
    check_statuses(s, (const int[]){0}, 1);
    find_api(s, "botTok", "", "");

    /* The account's deletion revokes its API tokens in the same transaction. */
    submit_account(s, STORE_OP_ACCOUNT_DELETE, "pA", NULL, NULL, 26);
    check_statuses(s, (const int[]){0}, 1);
    find_api(s, "apiA2", "", "");
    find_api(s, "apiA4", "", "");
    find_api(s, "apiX1", "pX", "");
    CHECK_EQ_INT(store_api_tokens(store_startup_reader(s), "pA", 4, list, &n), 0);
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(raw_int("SELECT count(*) FROM api_tokens WHERE player_id = 'pA' AND "
                         "revoked_at = 50"),
                 2);
    submit_api_token(s, STORE_OP_API_TOKEN_CREATE, "pA", "apiA5", "after", "", 600, 27);
    check_statuses(s, (const int[]){-STORE_ERR_NOT_FOUND}, 1);
    store_close(s);

    /* What was committed is there after a restart. */
    s = reopen();
    if (!s) return;
    find_api(s, "apiX1", "pX", "");
    find_api(s, "apiA2", "", "");
    CHECK_EQ_INT(store_api_tokens(store_startup_reader(s), "pX", 4, list, &n), 0);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_STR(n == 1 ? list[0].description : "", "xena's");
    store_close(s);
}

static void submit_upgrade(struct store *s, const char *player, uint64_t cookie) {
    struct store_op op = {.type = STORE_OP_BOT_UPGRADE, .want_result = true, .cookie = cookie};
    snprintf(op.player_id, sizeof op.player_id, "%s", player);
    CHECK(store_submit(s, &op) > 0);
}

/* The HTTP API's bot upgrade: only an account of its own that has played no game, for good. */
static void test_bot_upgrade(void) {
    struct store *s = open_started(false);
    if (!s) return;
    submit_player(s, "pA", "Guest1", "sessA");
    submit_player(s, "pB", "Guest2", "sessB");
    submit_player(s, "pG", "Guest3", "sessG");
    submit_register(s, "pA", "alice", 1);
    submit_register(s, "pB", "bob", 2);
    submit_bot(s, STORE_OP_BOT_CREATE, "pA", "bA", "RoboA", "botTok", 3);
    check_statuses(s, (const int[]){0, 0, 0}, 3);
    submit_start(s, "g1", "pB", "pG", 10);
    submit_upgrade(s, "pB", 31); /* has played */
    submit_upgrade(s, "pG", 32); /* a guest */
    submit_upgrade(s, "bA", 33); /* a bot already (and owned) */
    submit_upgrade(s, "pNobody", 34);
    submit_upgrade(s, "pA", 35); /* done */
    submit_upgrade(s, "pA", 36); /* once */
    check_statuses(s,
                   (const int[]){-STORE_ERR_CONFLICT, -STORE_ERR_CONFLICT, -STORE_ERR_CONFLICT,
                                 -STORE_ERR_CONFLICT, 0, -STORE_ERR_CONFLICT},
                   6);
    struct store_identity id;
    CHECK_EQ_INT(store_find_username(store_startup_reader(s), "alice", &id), 0);
    CHECK(id.bot);
    CHECK_EQ_INT(store_find_username(store_startup_reader(s), "bob", &id), 0);
    CHECK(!id.bot);
    store_close(s);
    s = reopen();
    if (!s) return;
    CHECK_EQ_INT(store_find_username(store_startup_reader(s), "alice", &id), 0);
    CHECK(id.bot);
    store_close(s);
}

/* ---- computer analysis of finished games ---- */

/* An ANALYSIS_REQUEST of player's for game with its own result (cookie). */
static void submit_analysis(struct store *s, const char *game, const char *player, int64_t at,
                            int max_queue, uint64_t cookie) {
    struct store_op op = {.type = STORE_OP_ANALYSIS_REQUEST, .want_result = true, .cookie = cookie};
    snprintf(op.game_id, sizeof op.game_id, "%s", game);
    snprintf(op.player_id, sizeof op.player_id, "%s", player);
    op.u.analysis.positions = 41;
    op.u.analysis.nodes = 3000000000u; /* beyond 32 bits */
    op.u.analysis.max_queue = max_queue;
    op.u.analysis.at = at;
    CHECK(store_submit(s, &op) > 0);
}

/* An ANALYSIS_PLY of game's with its own result (cookie). */
static void submit_analysis_ply(struct store *s, const char *game,
                                const struct store_analysis_ply *ply, uint64_t cookie) {
    struct store_op op = {.type = STORE_OP_ANALYSIS_PLY, .want_result = true, .cookie = cookie};
    snprintf(op.game_id, sizeof op.game_id, "%s", game);
    op.u.analysis_ply = *ply;
    CHECK(store_submit(s, &op) > 0);
}

static void end_game(struct store *s, const char *game, int64_t at) {
    struct store_op op = {.type = STORE_OP_GAME_END};
    snprintf(op.game_id, sizeof op.game_id, "%s", game);
    snprintf(op.u.end.result, sizeof op.u.end.result, "1-0");
    snprintf(op.u.end.termination, sizeof op.u.end.termination, "resign");
    op.u.end.ply_count = 0;
    op.u.end.ended_at = at;
    CHECK(store_submit(s, &op) > 0);
}

static void import_game(struct store *s, const char *game) {
    struct store_op op = {.type = STORE_OP_IMPORT};
    snprintf(op.game_id, sizeof op.game_id, "%s", game);
    snprintf(op.u.import.white, sizeof op.u.import.white, "Morphy");
    snprintf(op.u.import.black, sizeof op.u.import.black, "Duke");
    snprintf(op.u.import.result, sizeof op.u.import.result, "1-0");
    op.u.import.at = 30;
    CHECK(store_submit(s, &op) > 0);
}

#define FEN_960 "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w KQkq - 0 1"
#define FEN_END "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"

/* The variants store_each_player_game() passes, in order. */
struct variants_seen {
    int count;
    char id[3][STORE_ID_MAX + 1];
    char variant[3][STORE_VARIANT_MAX + 1];
};

static int on_player_game(void *ctx, const struct store_game *g) {
    struct variants_seen *seen = ctx;
    if (seen->count == 3) return 1;
    snprintf(seen->id[seen->count], sizeof seen->id[0], "%s", g->id);
    snprintf(seen->variant[seen->count], sizeof seen->variant[0], "%s", g->variant);
    seen->count++;
    return 0;
}

static int on_live_variant(void *ctx, const struct store_game *g,
                           const struct store_identity p[2]) {
    (void)p;
    return on_player_game(ctx, g);
}

/* A game's variant as started ("" stored as standard) comes back from every read of games,
 * with its initial position; an imported game is standard, whatever position it starts from. */
static void test_game_variant(void) {
    struct store *s = open_started(false);
    if (!s) return;
    submit_player(s, "pA", "Ann", NULL);
    submit_player(s, "pB", "Ben", NULL);
    struct store_op op = {.type = STORE_OP_GAME_START};
    snprintf(op.game_id, sizeof op.game_id, "g960");
    snprintf(op.u.start.player_id[0], sizeof op.u.start.player_id[0], "pA");
    snprintf(op.u.start.player_id[1], sizeof op.u.start.player_id[1], "pB");
    snprintf(op.u.start.name[0], sizeof op.u.start.name[0], "Ann");
    snprintf(op.u.start.name[1], sizeof op.u.start.name[1], "Ben");
    snprintf(op.u.start.initial_fen, sizeof op.u.start.initial_fen, FEN_960);
    snprintf(op.u.start.variant, sizeof op.u.start.variant, "chess960");
    op.u.start.unlimited = true;
    op.u.start.created_at = 10;
    CHECK(store_submit(s, &op) > 0);
    submit_start(s, "gStd", "pB", "pA", 11); /* variant "" */
    op = (struct store_op){.type = STORE_OP_IMPORT};
    snprintf(op.game_id, sizeof op.game_id, "gImp");
    snprintf(op.u.import.white, sizeof op.u.import.white, "Morphy");
    snprintf(op.u.import.black, sizeof op.u.import.black, "Duke");
    snprintf(op.u.import.result, sizeof op.u.import.result, "*");
    snprintf(op.u.import.initial_fen, sizeof op.u.import.initial_fen, FEN_END);
    op.u.import.at = 30;
    CHECK(store_submit(s, &op) > 0);
    CHECK_EQ_INT(settle(s, &(struct results){0}), 0);
    CHECK(!store_failed(s));

    struct store_game g;
    CHECK_EQ_INT(store_read_game(store_startup_reader(s), "g960", &g), 0);
    CHECK_EQ_STR(g.variant, "chess960");
    CHECK_EQ_STR(g.initial_fen, FEN_960);
    store_game_free(&g);
    CHECK_EQ_INT(store_read_game(store_startup_reader(s), "gStd", &g), 0);
    CHECK_EQ_STR(g.variant, "standard");
    CHECK_EQ_STR(g.initial_fen, "");
    store_game_free(&g);
    CHECK_EQ_INT(store_read_game(store_startup_reader(s), "gImp", &g), 0);
    CHECK_EQ_STR(g.status, "imported");
    CHECK_EQ_STR(g.variant, "standard");
    CHECK_EQ_STR(g.initial_fen, FEN_END);
    store_game_free(&g);

    struct store_game page[2];
    int count;
    bool more;
    CHECK_EQ_INT(store_player_games(store_startup_reader(s), "pA", 1, 2, page, &count, &more), 0);
    CHECK_EQ_INT(count, 2);
    CHECK_EQ_STR(page[0].id, "gStd"); /* newest first */
    CHECK_EQ_STR(page[0].variant, "standard");
    CHECK_EQ_STR(page[1].id, "g960");
    CHECK_EQ_STR(page[1].variant, "chess960");
    store_close(s);

    /* Restored at startup with their variants. */
    s = reopen();
    if (!s) return;
    struct variants_seen seen = {0};
    CHECK_EQ_INT(store_load_live(store_startup_reader(s), on_live_variant, &seen), 0);
    CHECK_EQ_INT(seen.count, 2);
    CHECK_EQ_STR(seen.id[0], "g960");
    CHECK_EQ_STR(seen.variant[0], "chess960");
    CHECK_EQ_STR(seen.id[1], "gStd");
    CHECK_EQ_STR(seen.variant[1], "standard");

    /* Ended, they are listed with their variants too. */
    CHECK_EQ_INT(store_start(s, on_wake, NULL), 0);
    end_game(s, "g960", 40);
    end_game(s, "gStd", 41);
    CHECK_EQ_INT(settle(s, &(struct results){0}), 0);
    seen = (struct variants_seen){0};
    CHECK_EQ_INT(
        store_each_player_game(store_startup_reader(s), "pB", NULL, 10, on_player_game, &seen), 0);
    CHECK_EQ_INT(seen.count, 2);
    CHECK_EQ_STR(seen.id[0], "g960"); /* oldest first */
    CHECK_EQ_STR(seen.variant[0], "chess960");
    CHECK_EQ_STR(seen.variant[1], "standard");
    store_close(s);
}

/* One position as read back equals the one written (last and at are not read). */
static void check_ply(const struct store_analysis_ply *got, const struct store_analysis_ply *want) {
    CHECK_EQ_INT(got->ply, want->ply);
    CHECK_EQ_INT(got->score, want->score);
    CHECK_EQ_INT(got->depth, want->depth);
    CHECK(got->nodes == want->nodes);
    CHECK_EQ_STR(got->pv, want->pv);
}

#define PENDING_MAX 4

/* The analyses store_pending_analyses() lists: ids in order, and their positions counted. */
struct pending_seen {
    int count;
    char game[PENDING_MAX][STORE_ID_MAX + 1];
    int plies[PENDING_MAX];
    bool first_ply_zero[PENDING_MAX];
};

static int on_pending(void *ctx, const struct store_analysis *a) {
    struct pending_seen *seen = ctx;
    if (seen->count == PENDING_MAX) return 1;
    CHECK(a->done_at == 0 && a->plies != NULL);
    snprintf(seen->game[seen->count], sizeof seen->game[0], "%s", a->game_id);
    seen->plies[seen->count] = a->count;
    seen->first_ply_zero[seen->count] = a->count > 0 && a->plies[0].ply == 0;
    seen->count++;
    return 0;
}

static void check_pending(struct store *s, const char *const *games, int n) {
    struct pending_seen seen = {0};
    CHECK_EQ_INT(store_pending_analyses(store_startup_reader(s), on_pending, &seen), 0);
    CHECK_EQ_INT(seen.count, n);
    for (int i = 0; i < n && i < seen.count; i++) CHECK_EQ_STR(seen.game[i], games[i]);
}

/* Requests refused for a missing game, a live one, a second analysis of a game, a player's
 * second one under way and a full site queue (another node's included); positions written,
 * written again, read back exactly in order; those under way listed oldest first with their
 * positions (this node's only, after a restart too); the last position ends an analysis; the
 * account's deletion keeps its analyses. */
static void test_game_analysis(void) {
    struct store *s = open_started(false);
    if (!s) return;
    submit_player(s, "pA", "Guest1", NULL);
    submit_player(s, "pB", "Guest2", NULL);
    submit_player(s, "pC", "Guest3", NULL);
    submit_player(s, "pD", "Guest4", NULL);
    submit_register(s, "pB", "bob", 1);
    submit_start(s, "gLive", "pA", "pB", 10);
    submit_start(s, "g2", "pA", "pB", 11);
    submit_start(s, "g3", "pB", "pC", 12);
    submit_start(s, "g5", "pC", "pA", 13);
    end_game(s, "g2", 20);
    end_game(s, "g3", 21);
    end_game(s, "g5", 22);
    import_game(s, "g4");
    check_statuses(s, (const int[]){0}, 1);
    CHECK_EQ_INT(settle(s, &(struct results){0}), 0);
    /* Another node's analysis under way: counted on the site, not listed here. */
    CHECK_EQ_INT(testdb_exec(dir, "INSERT INTO game_analyses (game_id, requested_by, node, "
                                  "positions, nodes, requested_at) VALUES "
                                  "('g5', 'pD', 'node-b', 3, 1000, 5)"),
                 0);

    submit_analysis(s, "gNone", "pA", 100, 3, 10);
    submit_analysis(s, "gLive", "pA", 100, 3, 11);
    submit_analysis(s, "g2", "pA", 100, 3, 12); /* done */
    submit_analysis(s, "g2", "pB", 100, 3, 13); /* asked for already */
    submit_analysis(s, "g3", "pA", 100, 3, 14); /* pA has one under way */
    submit_analysis(s, "g3", "pB", 50, 3, 15);  /* done: 3 under way on the site now */
    submit_analysis(s, "g4", "pC", 100, 3, 16); /* the queue is full */
    submit_analysis(s, "g4", "pNobody", 100, 4, 17);
    check_statuses(s,
                   (const int[]){-STORE_ERR_NOT_FOUND, -STORE_ERR_NOT_FOUND, 0, -STORE_ERR_CONFLICT,
                                 -STORE_ERR_LIMIT, 0, -STORE_ERR_BUSY, -STORE_ERR_NOT_FOUND},
                   8);

    /* Positions, one written twice (a restart), with a 15-move line, negative scores and node
     * counts beyond 32 bits. */
    struct store_analysis_ply first = {
        .ply = 0, .score = 17, .depth = 3, .nodes = 10, .pv = "e2e4", .at = 200};
    struct store_analysis_ply plies[3] = {
        {.ply = 0,
         .score = 25,
         .depth = 18,
         .nodes = 5000000000ull,
         .pv = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3",
         .at = 210},
        {.ply = 1,
         .score = -310,
         .depth = 17,
         .nodes = 4294967297ull,
         .pv = "d7d5 e4d5",
         .at = 220},
        {.ply = 2, .score = -31995, .depth = 0, .nodes = 0, .pv = "", .last = true, .at = 900},
    };
    submit_analysis_ply(s, "g2", &first, 20);
    submit_analysis_ply(s, "g2", &plies[1], 21);
    submit_analysis_ply(s, "g2", &plies[0], 22); /* replaces the first */
    submit_analysis_ply(s, "g3", &first, 23);
    submit_analysis_ply(s, "g4", &first, 24); /* no analysis of g4 */
    check_statuses(s, (const int[]){0, 0, 0, 0, -STORE_ERR_NOT_FOUND}, 5);

    struct store_analysis a;
    CHECK_EQ_INT(store_read_analysis(store_startup_reader(s), "g2", &a), 0);
    CHECK_EQ_STR(a.game_id, "g2");
    CHECK_EQ_STR(a.requested_by, "pA");
    CHECK_EQ_INT(a.positions, 41);
    CHECK(a.nodes == 3000000000u);
    CHECK(a.requested_at == 100 && a.done_at == 0);
    CHECK_EQ_INT(a.count, 2);
    for (int i = 0; i < 2 && i < a.count; i++) check_ply(&a.plies[i], &plies[i]);
    store_analysis_free(&a);
    CHECK(a.plies == NULL && a.count == 0);
    CHECK_EQ_INT(store_read_analysis(store_startup_reader(s), "g4", &a), -STORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(store_read_analysis(store_startup_reader(s), "gNone", &a), -STORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(store_read_analysis(store_startup_reader(s), "g5", &a), 0); /* node-b's */
    CHECK(a.count == 0 && a.plies != NULL && a.requested_at == 5);
    store_analysis_free(&a);

    /* Under way here: g3 (asked for at 50) before g2 (at 100), with their positions. */
    struct pending_seen seen = {0};
    CHECK_EQ_INT(store_pending_analyses(store_startup_reader(s), on_pending, &seen), 0);
    CHECK_EQ_INT(seen.count, 2);
    CHECK_EQ_STR(seen.game[0], "g3");
    CHECK_EQ_STR(seen.game[1], "g2");
    CHECK(seen.plies[0] == 1 && seen.plies[1] == 2);
    CHECK(seen.first_ply_zero[0] && seen.first_ply_zero[1]);
    struct pending_seen stopped = {.count = PENDING_MAX}; /* fn stops at once */
    CHECK_EQ_INT(store_pending_analyses(store_startup_reader(s), on_pending, &stopped), 1);

    /* The last position ends g2's analysis: no more positions, no longer under way, and room
     * in the queue (and for pA) again. */
    submit_analysis_ply(s, "g2", &plies[2], 30);
    submit_analysis_ply(s, "g2", &plies[1], 31);
    submit_analysis(s, "g4", "pA", 300, 3, 32);
    check_statuses(s, (const int[]){0, -STORE_ERR_NOT_FOUND, 0}, 3);
    CHECK_EQ_INT(store_read_analysis(store_startup_reader(s), "g2", &a), 0);
    CHECK(a.done_at == 900);
    CHECK_EQ_INT(a.count, 3);
    for (int i = 0; i < 3 && i < a.count; i++) check_ply(&a.plies[i], &plies[i]);
    store_analysis_free(&a);
    check_pending(s, (const char *const[]){"g3", "g4"}, 2);

    /* An account with an analysis under way can be deleted (once its game is over); the
     * analysis stays. */
    end_game(s, "gLive", 500);
    submit_account(s, STORE_OP_ACCOUNT_DELETE, "pB", NULL, NULL, 40);
    check_statuses(s, (const int[]){0}, 1);
    CHECK_EQ_INT(store_read_analysis(store_startup_reader(s), "g3", &a), 0);
    CHECK_EQ_STR(a.requested_by, "pB");
    CHECK_EQ_INT(a.count, 1);
    store_analysis_free(&a);
    store_close(s);

    /* After a restart, what is under way is there to resume. */
    s = reopen();
    if (!s) return;
    check_pending(s, (const char *const[]){"g3", "g4"}, 2);
    store_close(s);
}

/* A database that cannot grow: the writer retries, gives up, and the store refuses more. */
/* The lock-free peek sees a commit before store_poll() reports it, and never one that failed. */
static void test_commit_reached(void) {
    struct store *s = open_started(false);
    if (!s) return;
    submit_player(s, "p1", "Ann", NULL);
    uint64_t seq = store_submitted(s);
    for (int i = 0; i < 20000 && store_committed_now(s) < seq; i++) sleep_ms(1);
    CHECK(store_committed_now(s) == seq);
    CHECK(store_committed(s) < seq); /* not polled yet */
    struct results rs = {0};
    CHECK_EQ_INT(settle(s, &rs), 0);
    CHECK(store_committed(s) == seq);
    store_close(s);
}

/* Waits (at most 20 s) until everything submitted is committed; returns the store's commits. */
static uint64_t commits_when_settled(struct store *s) {
    uint64_t seq = store_submitted(s);
    for (int i = 0; i < 20000 && store_committed_now(s) < seq; i++) sleep_ms(1);
    CHECK(store_committed_now(s) == seq);
    struct store_stats st;
    store_get_stats(s, &st);
    return st.commits;
}

/* With a commit interval, what arrives while it runs joins the next transaction: a write that
 * comes 50 ms after another shares its commit, where without the interval each would have its
 * own (the writer is idle, and a commit takes far less than 50 ms). */
static void test_commit_interval(void) {
    int status;
    char err[256];
    if (testdb_fresh(dir, sizeof dir) < 0) return;
    struct store_config cfg = {.retry_ms = 1, .commit_interval_us = 400000};
    testdb_config(dir, &cfg);
    struct store *s = store_open(&cfg, &status, err, sizeof err);
    CHECK(s != NULL);
    if (!s) return;
    CHECK_EQ_INT(store_start(s, on_wake, NULL), 0);
    submit_player(s, "p1", "Ann", NULL);
    uint64_t first = commits_when_settled(s);
    CHECK(first >= 1);
    submit_player(s, "p2", "Ben", NULL);
    sleep_ms(50);
    submit_player(s, "p3", "Cid", NULL);
    CHECK(commits_when_settled(s) == first + 1);
    struct results rs = {0};
    CHECK_EQ_INT(settle(s, &rs), 0);
    store_close(s);
}

/* Submits one move and waits (at most 20 s) until the writer committed it: one transaction. */
static void commit_one_move(struct store *s, int ply) {
    submit_move(s, "g1", ply, "e2e4", "e4", 300000);
    uint64_t seq = store_submitted(s);
    for (int i = 0; i < 200000 && store_committed_now(s) < seq; i++) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    CHECK(store_committed_now(s) == seq);
}

static uint64_t checkpoints_run(struct store *s) {
    struct store_stats st;
    store_get_stats(s, &st);
    return st.checkpoints;
}

/* The WAL's size in frames, from its file. */
static long wal_frames(void) {
    char path[600];
    snprintf(path, sizeof path, "%s/chess.db-wal", dir);
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : 0;
    fclose(f);
    return size > 32 ? (size - 32) / (4096 + 24) : 0;
}

/* A fresh store, one transaction per operation and no sync, with game g1 between p1 and p2
 * started; NULL (a failed check) if it cannot be opened. */
static struct store *open_one_game_store(int wal_limit_frames) {
    int status;
    char err[256];
    if (dir[0]) tmpdir_remove(dir);
    if (tmpdir_make(dir, sizeof dir) < 0) return NULL;
    struct store_sqlite_options opt = {.sync_normal = true, .wal_limit_frames = wal_limit_frames};
    struct store_config cfg = {.location = dir, .options = &opt, .per_op = true, .retry_ms = 1};
    struct store *s = store_open(&cfg, &status, err, sizeof err);
    CHECK(s != NULL);
    if (!s) return NULL;
    CHECK_EQ_INT(store_start(s, on_wake, NULL), 0);
    submit_player(s, "p1", "Ann", NULL);
    submit_player(s, "p2", "Ben", NULL);
    submit_start(s, "g1", "p1", "p2", 1000);
    return s;
}

/* A stream of commits takes the WAL past the checkpoint threshold and the checkpoint thread
 * runs (counted for /metrics). */
static void test_checkpoints_run(void) {
    struct store *s = open_one_game_store(0);
    if (!s) return;
    int ply = 0;
    while (checkpoints_run(s) == 0 && wal_frames() < 20000) commit_one_move(s, ply++);
    CHECK(wal_frames() >= 4000); /* not before the threshold */
    CHECK(checkpoints_run(s) >= 1);
    store_close(s);
}

/* The single integer a query returns, or -1. */
static long query_long(sqlite3 *db, const char *sql) {
    sqlite3_stmt *st = NULL;
    long v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = (long)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static uint64_t wal_truncations(struct store *s) {
    struct store_stats st;
    store_get_stats(s, &st);
    return st.log_truncations;
}

/*
 * The WAL's hard bound holds whatever the checkpoint thread does: with the bound below the
 * checkpoint threshold only the writer's own truncations can keep the WAL small, and a stream of
 * single-operation commits never takes it past the bound plus one transaction's pages. The
 * games' rows are all there afterwards.
 */
static void test_wal_hard_bound(void) {
    struct store *s = open_one_game_store(300);
    if (!s) return;
    long largest = 0;
    int ply = 1;
    for (; ply <= 1500; ply++) {
        commit_one_move(s, ply);
        long frames = wal_frames();
        if (frames > largest) largest = frames;
    }
    CHECK(wal_truncations(s) >= 2);
    CHECK(largest >= 300);      /* it did reach the bound */
    CHECK(largest <= 300 + 20); /* and never went far past it */
    store_close(s);

    sqlite3 *db = NULL;
    char path[600];
    snprintf(path, sizeof path, "%s/chess.db", dir);
    CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
    CHECK(query_long(db, "SELECT count(*) FROM live_moves WHERE game_id='g1'") == 1500);
    sqlite3_close(db);
}

static void test_writer_gives_up(void) {
    int status;
    char err[256];
    if (testdb_fresh(dir, sizeof dir) < 0) return;
    struct store_config cfg = {.retry_ms = 1};
    testdb_config(dir, &cfg);
    struct store *s = store_open(&cfg, &status, err, sizeof err);
    CHECK(s != NULL);
    if (!s) return;
    /* Before the writer thread exists its connection is ours to configure. SQLite: a file that
     * cannot grow; PostgreSQL: a table it may no longer write (every attempt fails whole). */
    if (testdb_pg())
        CHECK_EQ_INT(testdb_exec(dir, "REVOKE INSERT ON games FROM CURRENT_USER"), 0);
    else
        CHECK(sqlite3_exec(sqlite_db_of(s->db)->wdb, "PRAGMA max_page_count = 1", NULL, NULL,
                           NULL) == SQLITE_OK);
    CHECK_EQ_INT(store_start(s, on_wake, NULL), 0);
    /* Imported games with a long text need new pages. */
    for (int i = 0; i < 5; i++) {
        struct store_op op = {.type = STORE_OP_IMPORT};
        snprintf(op.game_id, sizeof op.game_id, "i%d", i);
        op.u.import.pgn = malloc(100000);
        if (!op.u.import.pgn) break;
        memset(op.u.import.pgn, 'x', 99999);
        op.u.import.pgn[99999] = '\0';
        snprintf(op.u.import.result, sizeof op.u.import.result, "*");
        CHECK(store_submit(s, &op) > 0);
    }
    struct results rs = {0};
    CHECK_EQ_INT(settle(s, &rs), 0);
    CHECK(store_failed(s));
    CHECK(store_committed(s) < store_submitted(s));
    CHECK(store_committed_now(s) < store_submitted(s));
    struct store_stats st;
    store_get_stats(s, &st);
    CHECK_EQ_INT(st.transactions_failed, 8); /* every attempt of the one transaction */
    CHECK_EQ_INT(st.commits, 0);
    struct store_op op = {.type = STORE_OP_PLAYER};
    CHECK_EQ_INT(store_submit(s, &op), 0);
    store_close(s);
}

struct commit_seen {
    int commits, ops;
    int64_t commit_us, wait_us;
};

static void on_commit(void *ctx, const struct store_result *r) {
    struct commit_seen *seen = ctx;
    if (r->kind != STORE_RESULT_COMMIT) return;
    seen->commits++;
    seen->ops += r->ops;
    seen->commit_us = r->commit_us;
    seen->wait_us = r->wait_us;
}

/* A read job for the pool: which thread ran it and what it found. */
struct probe_read {
    struct store_read_job job; /* first */
    char player_id[STORE_ID_MAX + 1];
    pthread_t ran_on;
    int status;
    struct store_identity id;
    int *done_count;
};

static void probe_run(struct store_reader *r, struct store_read_job *job) {
    struct probe_read *p = (struct probe_read *)(void *)job;
    p->ran_on = pthread_self();
    p->status = store_find_player(r, p->player_id, &p->id);
}

static void probe_done(struct store_read_job *job) {
    struct probe_read *p = (struct probe_read *)(void *)job;
    (*p->done_count)++;
}

static void probe_init(struct probe_read *p, const char *player, int *done_count) {
    memset(p, 0, sizeof *p);
    p->job.run = probe_run;
    p->job.done = probe_done;
    snprintf(p->player_id, sizeof p->player_id, "%s", player);
    p->done_count = done_count;
}

/* Reads run on the reader threads and come back through store_poll(); before start and after
 * the queue fills they are refused; reads see what is committed only. */
static void test_reader_pool(void) {
    int status;
    char err[256];
    if (testdb_fresh(dir, sizeof dir) < 0) return;
    struct store_config cfg = {.retry_ms = 1, .readers = 2, .read_delay_ms = 20};
    testdb_config(dir, &cfg);
    struct store *s = store_open(&cfg, &status, err, sizeof err);
    CHECK(s != NULL);
    if (!s) return;
    int done = 0;
    struct probe_read early;
    probe_init(&early, "pA", &done);
    CHECK_EQ_INT(store_read_submit(s, &early.job), -STORE_ERR_FAILED); /* not started */
    CHECK_EQ_INT(store_start(s, on_wake, NULL), 0);
    submit_player(s, "pA", "Ann", NULL);
    /* Each committed transaction reports its figures for /metrics. */
    struct commit_seen seen = {0};
    for (int i = 0; i < 5000 && store_committed(s) < store_submitted(s); i++) {
        store_poll(s, on_commit, &seen);
        if (store_committed(s) < store_submitted(s)) sleep_ms(1);
    }
    CHECK_EQ_INT(seen.commits, 1);
    CHECK_EQ_INT(seen.ops, 1);
    CHECK(seen.wait_us >= seen.commit_us && seen.commit_us >= 0);

    enum { N = 6 };
    struct probe_read reads[N];
    for (int i = 0; i < N; i++) {
        probe_init(&reads[i], i % 2 ? "nobody" : "pA", &done);
        CHECK_EQ_INT(store_read_submit(s, &reads[i].job), 0);
    }
    struct store_stats st;
    store_get_stats(s, &st);
    CHECK_EQ_INT(st.readers, 2);
    CHECK(st.read_queue <= N); /* how many are still waiting depends on the scheduler */
    for (int i = 0; i < 5000 && done < N; i++) {
        store_poll(s, NULL, NULL);
        if (done < N) sleep_ms(1);
    }
    CHECK_EQ_INT(done, N);
    for (int i = 0; i < N; i++) {
        CHECK(!pthread_equal(reads[i].ran_on, pthread_self()));
        CHECK_EQ_INT(reads[i].status, i % 2 ? -STORE_ERR_NOT_FOUND : 0);
        CHECK(reads[i].job.queued_us <= reads[i].job.started_us);
        CHECK(reads[i].job.started_us - reads[i].job.queued_us >= 20000);
        CHECK(reads[i].job.started_us <= reads[i].job.finished_us);
    }
    CHECK(strcmp(reads[0].id.name, "Ann") == 0);

    /* A reader whose query fails (a table it needs is gone) reports an I/O error and goes on
     * serving once the table is back. */
    CHECK_EQ_INT(testdb_exec(dir, "ALTER TABLE ratings RENAME TO ratings_away"), 0);
    for (int round = 0; round < 2; round++) {
        done = 0;
        struct probe_read failing[2];
        for (int i = 0; i < 2; i++) {
            probe_init(&failing[i], "pA", &done);
            CHECK_EQ_INT(store_read_submit(s, &failing[i].job), 0);
        }
        for (int i = 0; i < 5000 && done < 2; i++) {
            store_poll(s, NULL, NULL);
            if (done < 2) sleep_ms(1);
        }
        CHECK_EQ_INT(done, 2);
        for (int i = 0; i < 2; i++) CHECK_EQ_INT(failing[i].status, round == 0 ? -STORE_ERR_IO : 0);
        if (round == 0)
            CHECK_EQ_INT(testdb_exec(dir, "ALTER TABLE ratings_away RENAME TO ratings"), 0);
    }

    /* A full queue refuses; what is still queued when the store closes is dropped without its
     * done callback (the owner frees it). */
    static struct probe_read many[STORE_READ_QUEUE_MAX + 4]; /* 2 may be on the readers */
    int refused = 0, queued = 0, late = 0;
    for (int i = 0; i < STORE_READ_QUEUE_MAX + 4; i++) {
        probe_init(&many[i], "pA", &late);
        int rc = store_read_submit(s, &many[i].job);
        if (rc == 0) queued++;
        if (rc == -STORE_ERR_BUSY) refused++;
    }
    CHECK(refused >= 1);
    CHECK_EQ_INT(queued + refused, STORE_READ_QUEUE_MAX + 4);
    store_close(s);
    CHECK(late < queued);
}

/* A started store of node `node` of a site with leases, on the test's database as it is. */
static struct store *open_node(const char *node) {
    int status;
    char err[256];
    struct store_config cfg = {.retry_ms = 1, .node_id = node, .leases = true};
    testdb_config(dir, &cfg);
    struct store *s = store_open(&cfg, &status, err, sizeof err);
    if (!s) printf("open node %s: %s\n", node, err);
    if (s && store_start(s, on_wake, NULL) < 0) {
        store_close(s);
        return NULL;
    }
    return s;
}

/* Submits a takeover of node's lease by s and returns its status. */
static int take_over(struct store *s, const char *node, int64_t expiry_ms) {
    struct store_op op = {.type = STORE_OP_TAKEOVER, .want_result = true, .cookie = 77};
    snprintf(op.u.takeover.node, sizeof op.u.takeover.node, "%s", node);
    op.u.takeover.expiry_ms = expiry_ms;
    CHECK(store_submit(s, &op) > 0);
    struct results rs = {0};
    if (wait_results(s, &rs, 1) < 0) return 999;
    CHECK_EQ_INT((int)rs.items[0].cookie, 77);
    return rs.items[0].status;
}

/* Stores an operator's arena of s's node (or its new status). */
static void submit_arena(struct store *s, const char *id, const char *status) {
    struct store_op op = {.type = STORE_OP_ARENA};
    snprintf(op.u.arena.id, sizeof op.u.arena.id, "%s", id);
    snprintf(op.u.arena.name, sizeof op.u.arena.name, "Arena %s", id);
    op.u.arena.initial_ms = 60000;
    op.u.arena.rated = true;
    op.u.arena.starts_at = 1000;
    op.u.arena.minutes = 30;
    snprintf(op.u.arena.status, sizeof op.u.arena.status, "%s", status);
    op.u.arena.created_at = 1000;
    CHECK(store_submit(s, &op) > 0);
}

/* The ids of the arenas store_load_arenas() visits, space-separated. */
struct arenas_seen {
    char ids[128];
};

static int on_arena(void *ctx, const struct store_arena *a) {
    struct arenas_seen *seen = ctx;
    size_t len = strlen(seen->ids);
    snprintf(seen->ids + len, sizeof seen->ids - len, "%s%s", len ? " " : "", a->id);
    return 0;
}

static int on_arena_player(void *ctx, const struct store_arena *a,
                           const struct store_arena_player *p) {
    (void)ctx, (void)a, (void)p;
    return 0;
}

static int on_arena_game(void *ctx, const struct store_arena *a, const struct store_arena_game *g) {
    (void)ctx, (void)a, (void)g;
    return 0;
}

static void load_arena_ids(struct store *s, int finished_max, struct arenas_seen *seen) {
    *seen = (struct arenas_seen){0};
    struct store_arena_visitor v = {on_arena, on_arena_player, on_arena_game, seen};
    CHECK_EQ_INT(store_load_arenas(store_startup_reader(s), finished_max, &v), 0);
}

/*
 * Node leases (docs/scaling.md, "When a node dies"): a lease renewed lately is not taken; one
 * not renewed for the expiry is, with the node's games in progress and its arenas not finished
 * (its finished ones stay its own), in one transaction; from
 * then on the old holder writes nothing (FENCED: its next transaction fails whole and its writer
 * stops), the taker writes the games on, and the old node started again holds a new lease and
 * no games.
 */
static void test_node_leases(void) {
    if (testdb_fresh(dir, sizeof dir) < 0) return;
    struct store *a = open_node("a"), *b = open_node("b");
    CHECK(a && b);
    if (!a || !b) goto done;
    CHECK_EQ_INT((int)file_long("SELECT count(*) FROM node_leases"), 2);
    submit_player(a, "pA", "Ann", NULL);
    submit_player(a, "pB", "Ben", NULL);
    submit_start(a, "ga", "pA", "pB", 10);
    submit_move(a, "ga", 1, "e2e4", "e4", 300000);
    submit_arena(a, "arenaAcreated", "created");
    submit_arena(a, "arenaAstarted", "started");
    submit_arena(a, "arenaAfinished", "finished");
    submit_arena(b, "arenaB", "started");
    struct results rs = {0};
    CHECK_EQ_INT(settle(b, &rs), 0);
    CHECK_EQ_INT(settle(a, &rs), 0);
    /* Renewed by a's last transaction: held. Nobody takes its own lease, or one never taken. */
    CHECK_EQ_INT(take_over(b, "a", 60000), -STORE_ERR_CONFLICT);
    CHECK_EQ_INT(take_over(b, "b", 0), -STORE_ERR_CONFLICT);
    CHECK_EQ_INT(take_over(b, "nobody", 0), -STORE_ERR_CONFLICT);
    CHECK_EQ_INT((int)file_long("SELECT count(*) FROM games WHERE node = 'a'"), 1);
    CHECK_EQ_INT((int)file_long("SELECT count(*) FROM arenas WHERE node = 'a'"), 3);
    sleep_ms(20);
    CHECK_EQ_INT(take_over(b, "a", 10), 0);
    CHECK_EQ_INT((int)file_long("SELECT count(*) FROM games WHERE node = 'b' AND id = 'ga'"), 1);
    /* Its arenas not finished went with the games; the finished one stayed a's. */
    CHECK_EQ_INT((int)file_long("SELECT count(*) FROM arenas WHERE node = 'b' AND id IN "
                                "('arenaAcreated', 'arenaAstarted', 'arenaB')"),
                 3);
    CHECK_EQ_INT((int)file_long("SELECT count(*) FROM arenas WHERE node = 'a'"), 1);
    CHECK_EQ_INT((int)file_long("SELECT count(*) FROM arenas WHERE node = 'a' AND id = "
                                "'arenaAfinished'"),
                 1);
    struct arenas_seen arenas;
    load_arena_ids(b, 0, &arenas);
    CHECK_EQ_STR(arenas.ids, "arenaAcreated arenaAstarted arenaB");
    /* The taker writes the moved arena on (its status; it stays the taker's). */
    submit_arena(b, "arenaAcreated", "started");
    CHECK_EQ_INT(settle(b, &rs), 0);
    CHECK_EQ_INT((int)file_long("SELECT count(*) FROM arenas WHERE id = 'arenaAcreated' AND "
                                "node = 'b' AND status = 'started'"),
                 1);
    CHECK_EQ_INT((int)file_long("SELECT generation FROM node_leases WHERE node = 'a'"), 2);
    /* The old holder's next move is refused whole, and its writer stops. */
    submit_move(a, "ga", 2, "e7e5", "e5", 299000);
    CHECK_EQ_INT(settle(a, &rs), 0);
    CHECK(store_failed(a) && store_fenced(a));
    CHECK_EQ_INT((int)file_long("SELECT count(*) FROM live_moves WHERE game_id = 'ga'"), 1);
    /* The taker reads the game as its own and plays it on. */
    struct live_seen seen = {0};
    CHECK_EQ_INT(store_load_live(store_startup_reader(b), on_live, &seen), 0);
    CHECK_EQ_INT(seen.games, 1);
    CHECK_EQ_STR(seen.id, "ga");
    submit_move(b, "ga", 2, "c7c5", "c5", 299000);
    CHECK_EQ_INT(settle(b, &rs), 0);
    CHECK(!store_failed(b));
    CHECK_EQ_INT((int)file_long("SELECT count(*) FROM live_moves WHERE game_id = 'ga'"), 2);
    /* Node a started again: a new generation of its lease, and no games of its own. */
    store_close(a);
    a = open_node("a");
    CHECK(a != NULL);
    if (!a) goto done;
    CHECK_EQ_INT((int)file_long("SELECT generation FROM node_leases WHERE node = 'a'"), 3);
    seen = (struct live_seen){0};
    CHECK_EQ_INT(store_load_live(store_startup_reader(a), on_live, &seen), 0);
    CHECK_EQ_INT(seen.games, 0);
    /* Nor the arenas that moved: only its finished one. */
    load_arena_ids(a, 10, &arenas);
    CHECK_EQ_STR(arenas.ids, "arenaAfinished");
    submit_player(a, "pC", "Cal", NULL);
    CHECK_EQ_INT(settle(a, &rs), 0);
    CHECK(!store_failed(a) && !store_fenced(a));
done:
    store_close(a);
    store_close(b);
}

int main(void) {
    RUN(test_game_round_trip);
    RUN(test_game_round_trip_per_op);
    RUN(test_live_games_survive_reopen);
    RUN(test_moves_need_a_stored_game);
    RUN(test_accounts_and_tokens);
    RUN(test_bot_accounts);
    RUN(test_account_operations);
    RUN(test_api_tokens);
    RUN(test_bot_upgrade);
    RUN(test_game_variant);
    RUN(test_game_analysis);
    RUN(test_commit_reached);
    RUN(test_commit_interval);
    RUN(test_writer_gives_up);
    if (!testdb_pg()) {
        RUN(test_checkpoints_run);
        RUN(test_wal_hard_bound);
    }
    RUN(test_reader_pool);
    RUN(test_node_leases);
    tmpdir_remove(dir);
    return check_finish();
}
