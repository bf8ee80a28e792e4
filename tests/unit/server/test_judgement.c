/* Tests of the judgements of moves and the accuracy figures (core/judgement.h) on hand-computed
 * cases: the expected numbers come from lichess's formulas worked out separately (docs/analysis.md
 * gives them), not from this code. */
#include <chess/search.h>
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "core/judgement.h"

#define NEAR(actual, expected) CHECK(fabs((actual) - (expected)) < 1e-6)

static void test_winning_chances(void) {
    NEAR(judgement_winning_chances(0), 0.0);
    NEAR(judgement_winning_chances(100), 0.1820517943832256); /* 2/(1+e^-0.368208) - 1 */
    NEAR(judgement_winning_chances(-100), -0.1820517943832256);
    NEAR(judgement_win_percent(-250), 28.485195256375974);
    /* Beyond 1000 centipawns and mates: all the same. */
    NEAR(judgement_winning_chances(5000), judgement_winning_chances(1000));
    NEAR(judgement_winning_chances(CHESS_MATE - 3), judgement_winning_chances(1000));
    NEAR(judgement_winning_chances(-CHESS_MATE), judgement_winning_chances(-1000));
    CHECK_EQ_INT(judgement_cp(-CHESS_MATE + 10), -1000);
    CHECK_EQ_INT(judgement_cp(999), 999);
}

static void test_mates(void) {
    CHECK(judgement_is_mate(CHESS_MATE - 1));
    CHECK(judgement_is_mate(-(CHESS_MATE - 40)));
    CHECK(!judgement_is_mate(20000));
    CHECK_EQ_INT(judgement_mate_moves(CHESS_MATE - 1), 1); /* mate in 1 ply: 1 move */
    CHECK_EQ_INT(judgement_mate_moves(CHESS_MATE - 3), 2); /* 3 plies: White mates on move 2 */
    CHECK_EQ_INT(judgement_mate_moves(-(CHESS_MATE - 2)), -1);
    CHECK_EQ_INT(judgement_mate_moves(-CHESS_MATE), 0); /* the final position, checkmated */
}

static void test_centipawn_verdicts(void) {
    /* +100 to -100: 0.364 of winning chances lost for White. */
    CHECK_EQ_INT(judgement_of_move(100, -100, true), JUDGEMENT_BLUNDER);
    /* The same swing is Black's gain when Black moved. */
    CHECK_EQ_INT(judgement_of_move(100, -100, false), JUDGEMENT_NONE);
    /* 0 to -60: 0.110 lost: inaccuracy; 0 to -120: 0.217: mistake; 0 to -170: 0.303: blunder. */
    CHECK_EQ_INT(judgement_of_move(0, -60, true), JUDGEMENT_INACCURACY);
    CHECK_EQ_INT(judgement_of_move(0, -120, true), JUDGEMENT_MISTAKE);
    CHECK_EQ_INT(judgement_of_move(0, -170, true), JUDGEMENT_BLUNDER);
    /* 0 to -50: 0.0918: nothing. */
    CHECK_EQ_INT(judgement_of_move(0, -50, true), JUDGEMENT_NONE);
    /* Black: 0 to +120 loses 0.217 for Black. */
    CHECK_EQ_INT(judgement_of_move(0, 120, false), JUDGEMENT_MISTAKE);
    /* Deep in a won position two pawns matter less: +900 to +700 loses 0.071. */
    CHECK_EQ_INT(judgement_of_move(900, 700, true), JUDGEMENT_NONE);
    CHECK_EQ_STR(judgement_name(JUDGEMENT_MISTAKE), "mistake");
    CHECK_EQ_STR(judgement_symbol(JUDGEMENT_BLUNDER), "??");
    CHECK(judgement_name(JUDGEMENT_NONE) == NULL);
}

static void test_mate_verdicts(void) {
    int mated_in_3 = -(CHESS_MATE - 5), mate_in_2 = CHESS_MATE - 3;
    /* A mate against the mover appears: by how bad it already was. */
    CHECK_EQ_INT(judgement_of_move(0, mated_in_3, true), JUDGEMENT_BLUNDER);
    CHECK_EQ_INT(judgement_of_move(-800, mated_in_3, true), JUDGEMENT_MISTAKE);
    CHECK_EQ_INT(judgement_of_move(-1200, mated_in_3, true), JUDGEMENT_INACCURACY);
    CHECK_EQ_INT(judgement_of_move(800, -mated_in_3, false), JUDGEMENT_MISTAKE); /* mirrored */
    /* The mover's mate is lost: by what is left. */
    CHECK_EQ_INT(judgement_of_move(mate_in_2, 100, true), JUDGEMENT_BLUNDER);
    CHECK_EQ_INT(judgement_of_move(mate_in_2, 800, true), JUDGEMENT_MISTAKE);
    CHECK_EQ_INT(judgement_of_move(mate_in_2, 1200, true), JUDGEMENT_INACCURACY);
    CHECK_EQ_INT(judgement_of_move(mate_in_2, mated_in_3, true), JUDGEMENT_BLUNDER);
    /* A mate kept, delayed, or delivered: nothing. */
    CHECK_EQ_INT(judgement_of_move(mate_in_2, CHESS_MATE - 5, true), JUDGEMENT_NONE);
    CHECK_EQ_INT(judgement_of_move(CHESS_MATE - 1, CHESS_MATE, true), JUDGEMENT_NONE);
    /* The side being mated moves on: nothing more to lose. */
    CHECK_EQ_INT(judgement_of_move(mate_in_2, CHESS_MATE - 1, false), JUDGEMENT_NONE);
}

static void test_move_accuracy(void) {
    NEAR(judgement_move_accuracy(50, 50), 100.0);
    NEAR(judgement_move_accuracy(50, 70), 100.0);
    /* 10 points lost: 103.1668 * e^-0.43544 - 3.16692 + 1 */
    NEAR(judgement_move_accuracy(60, 50), 64.57982845372067);
    NEAR(judgement_move_accuracy(100, 0), 0.0);
}

/* A short game worked out by hand with lichess's windows (2 positions: 9 plies / 10 < 2). */
static void test_game_short(void) {
    const int scores[] = {20, 30, -250, -240, -260, 300, 310, 290, -900, CHESS_MATE};
    enum judgement v[9];
    struct judgement_side sides[2];
    judgement_game(scores, 9, true, v, sides);
    for (int i = 0; i < 9; i++) CHECK_EQ_INT(v[i], JUDGEMENT_NONE); /* no move lost 0.1 */
    CHECK(sides[0].moved && sides[1].moved);
    NEAR(sides[0].accuracy, 99.41187860608235);
    NEAR(sides[1].accuracy, 99.72382075361509);
    CHECK_EQ_INT(sides[0].acpl, 4);
    CHECK_EQ_INT(sides[1].acpl, 3); /* 10 centipawns in 4 moves: 2.5, rounded half up */
}

/* 40 plies with Black first: windows of 4 positions. */
static void test_game_windows(void) {
    const int scores[] = {-69,  -246, 4,    266,  -351, -326, 148,  -304, -26,  196, -341,
                          119,  -181, -362, -312, 44,   28,   -329, -154, -308, 164, 34,
                          -340, 179,  -274, -172, 245,  242,  196,  -337, 190,  199, 6,
                          -350, -174, -353, 170,  -264, -104, 29,   -253};
    enum judgement v[40];
    struct judgement_side sides[2];
    judgement_game(scores, 40, false, v, sides);
    NEAR(sides[0].accuracy, 56.05986652354487);
    NEAR(sides[1].accuracy, 64.78389732499728);
    CHECK_EQ_INT(sides[0].acpl, 141);
    CHECK_EQ_INT(sides[1].acpl, 104);
    CHECK_EQ_INT(v[0], JUDGEMENT_NONE);    /* Black: -69 to -246, a gain */
    CHECK_EQ_INT(v[1], JUDGEMENT_NONE);    /* White: -246 to +4, a gain */
    CHECK_EQ_INT(v[2], JUDGEMENT_BLUNDER); /* Black: +4 to +266 */
    CHECK_EQ_INT(v[3], JUDGEMENT_BLUNDER); /* White: +266 to -351 */
    CHECK_EQ_INT(sides[0].blunders, 7);
    CHECK_EQ_INT(sides[0].mistakes + sides[0].inaccuracies, 0);
    CHECK_EQ_INT(sides[1].blunders, 5);
    CHECK_EQ_INT(sides[1].mistakes, 1);
    CHECK_EQ_INT(sides[1].inaccuracies, 1);
}

static void test_no_moves(void) {
    const int scores[] = {15};
    struct judgement_side sides[2];
    judgement_game(scores, 0, true, NULL, sides);
    CHECK(!sides[0].moved && !sides[1].moved);
}

int main(void) {
    RUN(test_winning_chances);
    RUN(test_mates);
    RUN(test_centipawn_verdicts);
    RUN(test_mate_verdicts);
    RUN(test_move_accuracy);
    RUN(test_game_short);
    RUN(test_game_windows);
    RUN(test_no_moves);
    return check_finish();
}
