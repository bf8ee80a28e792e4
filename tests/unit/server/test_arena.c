/* Tests of arena tournaments' rules (core/arena.h): joining and pausing, scoring with streaks
 * and berserk by hand-counted games, the standings, and the pairing of waiting players. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/arena.h"
#include "core/errors.h"

#define HOUR 3600000

/* A "coin" that always gives 0 (White to the first of a tie), for exact expectations. */
static int zero_coin(void *ctx, void *buf, unsigned n) {
    (void)ctx;
    memset(buf, 0, n);
    return 0;
}

static const bool NO_BERSERK[2] = {false, false};

/* Plays a game between a and b (which must be paired: both marked playing, as pairing does). */
static int play(struct arena *a, const char *white, const char *black, int result,
                const bool berserk[2], int plies, int *black_points) {
    arena_find(a, white)->playing = true;
    arena_find(a, black)->playing = true;
    return arena_record(a, white, black, result, berserk, plies, HOUR / 2, black_points);
}

static void test_join_pause_and_times(void) {
    struct arena a;
    arena_init(&a, HOUR, HOUR);
    CHECK_EQ_INT(arena_join(&a, "ann", 1500, 0), 0); /* before the start: joining is fine */
    CHECK(!arena_pairing_open(&a, HOUR - 1));
    CHECK(arena_pairing_open(&a, HOUR));
    CHECK(!arena_pairing_open(&a, 2 * HOUR));
    CHECK_EQ_INT(arena_join(&a, "ann", 1500, 10), 0); /* twice: still one */
    CHECK_EQ_INT(a.count, 1);
    CHECK_EQ_INT(arena_pause(&a, "bob"), -CORE_ERR_GAME_NOT_FOUND);
    CHECK_EQ_INT(arena_pause(&a, "ann"), 0);
    CHECK(arena_find(&a, "ann")->paused);
    CHECK_EQ_INT(arena_join(&a, "ann", 1500, 20), 0); /* back */
    CHECK(!arena_find(&a, "ann")->paused);
    CHECK_EQ_INT(arena_join(&a, "cat", 1500, 2 * HOUR), -CORE_ERR_GAME_OVER);
    arena_free(&a);
}

static void test_scoring(void) {
    struct arena a;
    arena_init(&a, 0, HOUR);
    CHECK_EQ_INT(arena_join(&a, "ann", 1500, 0), 0);
    CHECK_EQ_INT(arena_join(&a, "bob", 1700, 0), 0);
    int b = 0;
    /* Wins 2, a draw 1, a loss 0. */
    CHECK_EQ_INT(play(&a, "ann", "bob", 1, NO_BERSERK, 40, &b), 2);
    CHECK_EQ_INT(b, 0);
    CHECK_EQ_INT(play(&a, "bob", "ann", 0, NO_BERSERK, 40, &b), 1);
    CHECK_EQ_INT(b, 1);
    /* Ann: win, draw (streak broken), then two wins: the third in a row is on fire (4), and so
     * is a draw after it (2), which ends the streak. */
    CHECK_EQ_INT(play(&a, "ann", "bob", 1, NO_BERSERK, 40, &b), 2);
    CHECK_EQ_INT(play(&a, "bob", "ann", -1, NO_BERSERK, 40, &b), 0);
    CHECK_EQ_INT(b, 2); /* second win in a row: not yet on fire */
    CHECK_EQ_INT(play(&a, "ann", "bob", 1, NO_BERSERK, 40, &b), 4);
    CHECK_EQ_INT(play(&a, "ann", "bob", 0, NO_BERSERK, 40, &b), 2);
    CHECK_EQ_INT(play(&a, "ann", "bob", 1, NO_BERSERK, 40, &b), 2); /* streak starts again */
    const struct arena_player *ann = arena_find(&a, "ann");
    CHECK_EQ_INT(ann->score, 2 + 1 + 2 + 2 + 4 + 2 + 2);
    CHECK_EQ_INT(ann->games, 7);
    CHECK_EQ_INT(ann->wins, 5);
    CHECK_EQ_INT(ann->draws, 2);
    CHECK_EQ_INT(ann->sheet_len, 7);
    CHECK(ann->sheet[4].fire && ann->sheet[4].points == 4);
    CHECK(ann->sheet[5].fire && ann->sheet[5].points == 2);
    CHECK(!ann->sheet[6].fire);
    CHECK_EQ_STR(ann->last_opponent, "bob");
    CHECK_EQ_INT(ann->color_bias, 5 - 2); /* White five times, Black twice */
    /* Performance: opponents' average, 500 x (wins - losses) / games. */
    CHECK_EQ_INT(arena_performance(ann), (7 * 1700 + 500 * 5) / 7);
    CHECK_EQ_INT(arena_record(&a, "ann", "nobody", 1, NO_BERSERK, 40, 0, &b), -1);
    arena_free(&a);
}

static void test_berserk(void) {
    struct arena a;
    arena_init(&a, 0, HOUR);
    CHECK_EQ_INT(arena_join(&a, "ann", 1500, 0), 0);
    CHECK_EQ_INT(arena_join(&a, "bob", 1500, 0), 0);
    int b = 0;
    const bool white_berserk[2] = {true, false}, black_berserk[2] = {false, true};
    /* White's 7th move is ply 13: a win then earns the bonus; at ply 11 (6 moves) it does not. */
    CHECK_EQ_INT(play(&a, "ann", "bob", 1, white_berserk, 13, &b), 3);
    CHECK_EQ_INT(play(&a, "ann", "bob", 1, white_berserk, 11, &b), 2);
    /* Black's 7th move is ply 14. */
    CHECK_EQ_INT(play(&a, "ann", "bob", -1, black_berserk, 13, &b), 0);
    CHECK_EQ_INT(b, 2);
    CHECK_EQ_INT(play(&a, "ann", "bob", -1, black_berserk, 14, &b), 0);
    CHECK_EQ_INT(b, 3);
    /* Bob has won twice in a row: on fire, the bonus comes on top of the double. */
    CHECK_EQ_INT(play(&a, "ann", "bob", -1, black_berserk, 60, &b), 0);
    CHECK_EQ_INT(b, 2 * 2 + 1);
    CHECK(arena_find(&a, "bob")->sheet[4].berserk && arena_find(&a, "bob")->sheet[4].fire);
    /* No bonus for a berserk draw (nor a loss): Ann's draw is 1, Bob's on fire 2. */
    CHECK_EQ_INT(play(&a, "ann", "bob", 0, white_berserk, 60, &b), 1);
    CHECK_EQ_INT(b, 2);
    CHECK_EQ_INT(arena_find(&a, "bob")->streak, 0);
    arena_free(&a);
}

/* Pairs of the last call as "white-black" ids, in order. */
static void describe(const struct arena *a, const struct arena_pair *pairs, int n, char *out,
                     size_t size) {
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s-%s", i ? " " : "", a->players[pairs[i].white].id,
                 a->players[pairs[i].black].id);
    }
}

static void test_pairing(void) {
    struct arena a;
    arena_init(&a, HOUR, HOUR);
    const char *ids[] = {"p1", "p2", "p3", "p4", "p5"};
    for (int i = 0; i < 5; i++) CHECK_EQ_INT(arena_join(&a, ids[i], 1500 + 10 * i, i), 0);
    struct arena_pair pairs[8];
    char text[128];
    CHECK_EQ_INT(arena_pair_waiting(&a, HOUR - 1, zero_coin, NULL, pairs, 8), 0); /* not yet */
    /* At the start all have 0 points: by performance (their ratings), then joining order. The
     * odd one out waits. */
    int n = arena_pair_waiting(&a, HOUR, zero_coin, NULL, pairs, 8);
    describe(&a, pairs, n, text, sizeof text);
    CHECK_EQ_STR(text, "p5-p4 p3-p2");
    CHECK(!arena_find(&a, "p1")->playing && arena_find(&a, "p5")->playing);
    /* Nothing new while they play. */
    CHECK_EQ_INT(arena_pair_waiting(&a, HOUR, zero_coin, NULL, pairs, 8), 0);
    /* p5 beats p4 and is paired at once with the nearest waiting player in the standings; p4,
     * its last opponent, waits for someone else although it is nearer. */
    int b = 0;
    CHECK_EQ_INT(arena_record(&a, "p5", "p4", 1, NO_BERSERK, 30, HOUR + 1, &b), 2);
    n = arena_pair_waiting(&a, HOUR + 1, zero_coin, NULL, pairs, 8);
    describe(&a, pairs, n, text, sizeof text);
    CHECK_EQ_STR(text, "p1-p5"); /* p5 played White: p1 gets it */
    /* When only the last opponent is waiting, they play again. */
    CHECK_EQ_INT(arena_record(&a, "p1", "p5", -1, NO_BERSERK, 30, HOUR + 2, &b), 0);
    CHECK_EQ_INT(arena_pause(&a, "p4"), 0);
    n = arena_pair_waiting(&a, HOUR + 2, zero_coin, NULL, pairs, 8);
    describe(&a, pairs, n, text, sizeof text);
    CHECK_EQ_STR(text, "p5-p1"); /* p1 played White last */
    /* Paused players stay in the standings. */
    int rank[5];
    arena_standings(&a, rank);
    CHECK_EQ_STR(a.players[rank[0]].id, "p5"); /* 4 points */
    CHECK_EQ_STR(a.players[rank[4]].id, "p4");
    /* The end stops pairing; games in progress still count. */
    CHECK_EQ_INT(arena_record(&a, "p3", "p2", 0, NO_BERSERK, 80, 2 * HOUR + 5, &b), 1);
    CHECK_EQ_INT(arena_pair_waiting(&a, 2 * HOUR, zero_coin, NULL, pairs, 8), 0);
    CHECK_EQ_INT(arena_find(&a, "p2")->score, 1);
    arena_free(&a);
}

static void test_pairing_many(void) {
    struct arena a;
    arena_init(&a, 0, HOUR);
    char id[16];
    for (int i = 0; i < 1000; i++) {
        snprintf(id, sizeof id, "p%d", i);
        CHECK_EQ_INT(arena_join(&a, id, 1000 + i, i), 0);
    }
    static struct arena_pair pairs[600];
    CHECK_EQ_INT(arena_pair_waiting(&a, 1, zero_coin, NULL, pairs, 600), 500);
    /* Neighbours in the standings: each pair one place apart. */
    for (int i = 0; i < 500; i++) {
        int d = a.players[pairs[i].white].rating - a.players[pairs[i].black].rating;
        CHECK(d == 1 || d == -1);
    }
    CHECK_EQ_INT(arena_pair_waiting(&a, 1, zero_coin, NULL, pairs, 600), 0);
    arena_free(&a);
}

int main(void) {
    RUN(test_join_pause_and_times);
    RUN(test_scoring);
    RUN(test_berserk);
    RUN(test_pairing);
    RUN(test_pairing_many);
    return check_finish();
}
