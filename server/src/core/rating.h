/*
 * Ratings: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013) per category, the
 * category of a time control, and when a game counts for ratings.
 *
 * Each rated game is one rating period for both players (as lichess does): rating_after_game()
 * runs one Glicko-2 update per player with the opponent's rating from before the game. Ratings
 * are shown rounded; deviation and volatility are kept exactly.
 *
 * Pure functions: no state, any thread.
 */
#ifndef SERVER_CORE_RATING_H
#define SERVER_CORE_RATING_H

#include <stdbool.h>

#include "core/types.h"

/* Categories by estimated game duration: initial seconds + 40 * increment seconds. */
enum rating_category {
    RATING_NONE = -1,  /* no clock: never rated */
    RATING_BULLET = 0, /* under 3 minutes */
    RATING_BLITZ,      /* under 8 minutes */
    RATING_RAPID,      /* under 25 minutes */
    RATING_CLASSICAL,  /* 25 minutes and more */
    RATING_CATEGORY_COUNT
};

struct rating {
    double rating;     /* Glicko scale, 1500 for a new player */
    double deviation;  /* RD: 350 for a new player, never below RATING_MIN_DEVIATION */
    double volatility; /* sigma: 0.06 for a new player */
    int games;         /* rated games played in this category */
};

#define RATING_INITIAL            1500.0
#define RATING_INITIAL_DEVIATION  350.0
#define RATING_INITIAL_VOLATILITY 0.06
#define RATING_MIN_DEVIATION      45.0
/* Above this deviation a rating is provisional (shown with a "?"), as on lichess. */
#define RATING_PROVISIONAL_DEVIATION 110.0
/* The system constant tau: how much volatility may change (Glickman suggests 0.3 to 1.2). */
#define RATING_TAU 0.75

/* A new player's rating in any category. */
struct rating rating_initial(void);

/* True while the deviation is above RATING_PROVISIONAL_DEVIATION. */
bool rating_provisional(const struct rating *r);

/* The category of a time control, or RATING_NONE for unlimited games. */
enum rating_category rating_category_of(const struct time_control *tc);

/* "bullet", "blitz", "rapid", "classical"; NULL for anything else. */
const char *rating_category_name(int category);

/* The category named by text, or RATING_NONE. */
enum rating_category rating_category_parse(const char *text);

/* One game of a rating period, as the player saw it. */
struct rating_game {
    double opponent_rating;
    double opponent_deviation;
    double score; /* 1 win, 0.5 draw, 0 loss */
};

/*
 * One Glicko-2 rating period: the player's rating after `count` games (count may be 0: the
 * deviation grows by the volatility) with the system constant tau. games counts the games.
 * Writes *out (which may be player). Returns 0, or -1 when an input is not finite or out of
 * range (out untouched).
 */
int rating_update(const struct rating *player, const struct rating_game *games, int count,
                  double tau, struct rating *out);

/*
 * Both players' ratings after one game between them: white_score is 1 (White won), 0.5 or 0.
 * Uses RATING_TAU and keeps deviations within [RATING_MIN_DEVIATION, RATING_INITIAL_DEVIATION].
 * Returns 0 or -1 (bad input: nothing written).
 */
int rating_after_game(const struct rating *white, const struct rating *black, double white_score,
                      struct rating *white_out, struct rating *black_out);

#endif
