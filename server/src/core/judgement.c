/*
 * Judgements of moves and accuracy (judgement.h). The constants are lichess's (lila's
 * modules/analyse Advice.scala and modules/common WinPercent/AccuracyPercent), so that a player
 * reads the same verdicts here as there.
 */
#include "core/judgement.h"

#include <chess/search.h>
#include <math.h>
#include <stddef.h>

/* Winning chances lost (for the mover) from which a move is marked, worst first. */
static const struct {
    double loss;
    enum judgement verdict;
} LOSS_THRESHOLDS[] = {
    {0.3, JUDGEMENT_BLUNDER},
    {0.2, JUDGEMENT_MISTAKE},
    {0.1, JUDGEMENT_INACCURACY},
};

#define WINNING_CHANCES_SLOPE 0.00368208 /* lichess's fit of games' results to evaluations */

/* A move's accuracy: a fit of 103.1668 * e^(-0.04354 * win percent lost) - 3.1669, plus one
 * point for the analysis's own imprecision. */
#define ACCURACY_SCALE  103.1668100711649
#define ACCURACY_DECAY  0.04354415386753951
#define ACCURACY_OFFSET 3.166924740191411
#define ACCURACY_BONUS  1.0

/* A mate found or lost is only a mistake (or inaccuracy) when the other side of it was already
 * this decisive in centipawns. */
#define MATE_INACCURACY_CP 999
#define MATE_MISTAKE_CP    700

/* Window of win percents whose spread weighs a move in the game's accuracy, and its bounds. */
#define WINDOW_MIN 2
#define WINDOW_MAX 8
#define WEIGHT_MIN 0.5
#define WEIGHT_MAX 12.0

const char *judgement_name(enum judgement j) {
    switch (j) {
        case JUDGEMENT_INACCURACY: return "inaccuracy";
        case JUDGEMENT_MISTAKE: return "mistake";
        case JUDGEMENT_BLUNDER: return "blunder";
        case JUDGEMENT_NONE: break;
    }
    return NULL;
}

const char *judgement_symbol(enum judgement j) {
    switch (j) {
        case JUDGEMENT_INACCURACY: return "?!";
        case JUDGEMENT_MISTAKE: return "?";
        case JUDGEMENT_BLUNDER: return "??";
        case JUDGEMENT_NONE: break;
    }
    return NULL;
}

bool judgement_is_mate(int score) {
    return score >= CHESS_MATE_BOUND || score <= -CHESS_MATE_BOUND;
}

int judgement_mate_moves(int score) {
    int plies = CHESS_MATE - (score < 0 ? -score : score);
    int moves = (plies + 1) / 2;
    return score < 0 ? -moves : moves;
}

int judgement_cp(int score) {
    if (score >= CHESS_MATE_BOUND || score > JUDGEMENT_CP_CEILING) return JUDGEMENT_CP_CEILING;
    if (score <= -CHESS_MATE_BOUND || score < -JUDGEMENT_CP_CEILING) return -JUDGEMENT_CP_CEILING;
    return score;
}

double judgement_winning_chances(int score) {
    double chances = 2.0 / (1.0 + exp(-WINNING_CHANCES_SLOPE * judgement_cp(score))) - 1.0;
    return chances < -1.0 ? -1.0 : chances > 1.0 ? 1.0 : chances;
}

double judgement_win_percent(int score) {
    return 50.0 + 50.0 * judgement_winning_chances(score);
}

/* lichess's MateAdvice: scores from the mover's point of view. */
static enum judgement mate_judgement(int before, int after) {
    bool mate_before = judgement_is_mate(before), mate_after = judgement_is_mate(after);
    if (!mate_before && mate_after && after < 0) { /* a mate against the mover appeared */
        if (before < -MATE_INACCURACY_CP) return JUDGEMENT_INACCURACY;
        if (before < -MATE_MISTAKE_CP) return JUDGEMENT_MISTAKE;
        return JUDGEMENT_BLUNDER;
    }
    if (mate_before && before > 0 && (!mate_after || after < 0)) { /* the mover's mate is gone */
        int cp_after = mate_after ? 0 : after;
        if (cp_after > MATE_INACCURACY_CP) return JUDGEMENT_INACCURACY;
        if (cp_after > MATE_MISTAKE_CP) return JUDGEMENT_MISTAKE;
        return JUDGEMENT_BLUNDER;
    }
    return JUDGEMENT_NONE;
}

enum judgement judgement_of_move(int before, int after, bool white_moved) {
    int mover_before = white_moved ? before : -before;
    int mover_after = white_moved ? after : -after;
    if (judgement_is_mate(before) || judgement_is_mate(after))
        return mate_judgement(mover_before, mover_after);
    double lost = judgement_winning_chances(mover_before) - judgement_winning_chances(mover_after);
    for (size_t i = 0; i < sizeof LOSS_THRESHOLDS / sizeof LOSS_THRESHOLDS[0]; i++) {
        if (lost >= LOSS_THRESHOLDS[i].loss) return LOSS_THRESHOLDS[i].verdict;
    }
    return JUDGEMENT_NONE;
}

double judgement_move_accuracy(double win_before, double win_after) {
    if (win_after >= win_before) return 100.0;
    double raw = ACCURACY_SCALE * exp(-ACCURACY_DECAY * (win_before - win_after)) - ACCURACY_OFFSET;
    raw += ACCURACY_BONUS;
    return raw < 0.0 ? 0.0 : raw > 100.0 ? 100.0 : raw;
}

/* Population standard deviation of the win percents of scores[0..n). */
static double win_deviation(const int *scores, int n) {
    double mean = 0.0, sum = 0.0;
    for (int i = 0; i < n; i++) mean += judgement_win_percent(scores[i]);
    mean /= n;
    for (int i = 0; i < n; i++) {
        double d = judgement_win_percent(scores[i]) - mean;
        sum += d * d;
    }
    return sqrt(sum / n);
}

/*
 * The weight of move i (0-based) in its side's accuracy: how much the game swung around it, as
 * the spread of the win percents in a window of positions, bounded. As lichess does, the first
 * moves take the first window (so that there is a window per move), then the window slides one
 * position per move.
 */
static double move_weight(const int *scores, int positions, int window, int move) {
    int first = move - (window - 2);
    if (first < 0) first = 0;
    int n = positions - first < window ? positions - first : window;
    double w = win_deviation(scores + first, n);
    return w < WEIGHT_MIN ? WEIGHT_MIN : w > WEIGHT_MAX ? WEIGHT_MAX : w;
}

struct side_sums {
    double weighted, weights, inverse;
    long loss;
    int moves;
};

/* One move into its side's sums and counts. */
static void count_move(const int *scores, int positions, int window, int move, bool white,
                       enum judgement verdict, struct side_sums *sum, struct judgement_side *side) {
    if (verdict == JUDGEMENT_INACCURACY) side->inaccuracies++;
    if (verdict == JUDGEMENT_MISTAKE) side->mistakes++;
    if (verdict == JUDGEMENT_BLUNDER) side->blunders++;
    int before = scores[move], after = scores[move + 1];
    double win_before = judgement_win_percent(white ? before : -before);
    double win_after = judgement_win_percent(white ? after : -after);
    double accuracy = judgement_move_accuracy(win_before, win_after);
    double weight = move_weight(scores, positions, window, move);
    sum->weighted += accuracy * weight;
    sum->weights += weight;
    sum->inverse += 1.0 / (accuracy > 1.0 ? accuracy : 1.0); /* lichess's harmonic mean floor */
    int loss = (white ? 1 : -1) * (judgement_cp(before) - judgement_cp(after));
    sum->loss += loss > 0 ? loss : 0;
    sum->moves++;
}

void judgement_game(const int *scores, int plies, bool white_first, enum judgement *verdicts,
                    struct judgement_side sides[2]) {
    struct side_sums sums[2] = {0};
    sides[0] = sides[1] = (struct judgement_side){0};
    int positions = plies + 1;
    int window = plies / 10;
    window = window < WINDOW_MIN ? WINDOW_MIN : window > WINDOW_MAX ? WINDOW_MAX : window;
    if (window > positions) window = positions;
    for (int i = 0; i < plies; i++) {
        bool white = (i % 2 == 0) == white_first;
        verdicts[i] = judgement_of_move(scores[i], scores[i + 1], white);
        count_move(scores, positions, window, i, white, verdicts[i], &sums[!white], &sides[!white]);
    }
    for (int s = 0; s < 2; s++) {
        if (sums[s].moves == 0) continue;
        double weighted = sums[s].weighted / sums[s].weights;
        double harmonic = sums[s].moves / sums[s].inverse;
        sides[s].moved = true;
        sides[s].accuracy = (weighted + harmonic) / 2.0;
        sides[s].acpl = (int)lround((double)sums[s].loss / sums[s].moves);
    }
}
