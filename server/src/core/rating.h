/*
 * Ratings: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013) per category, the
 * category of a time control, and when a game counts for ratings.
 *
 * Each rated game is one rating period for both players (as lichess does): rating_after_game()
 * runs one Glicko-2 update per player with the opponent's rating from before the game. Ratings
 * are shown rounded; deviation and volatility are kept exactly.
 *
 * Between games the deviation grows with the time a player has not played, as lichess does: by
 * Glicko-2's step 6 over the rating periods elapsed since the last rated game (fractional, at
 * RATING_PERIODS_PER_DAY), phi* = sqrt(phi^2 + sigma^2 * t), never above
 * RATING_INITIAL_DEVIATION. rating_at() gives a rating as it stands at an instant; what is shown,
 * the provisional mark and the next game's update all start from it. The stored deviation is the
 * one of the last game (with its time, updated_at), so nothing needs rewriting as time passes.
 *
 * Pure functions: no state, any thread.
 */
#ifndef SERVER_CORE_RATING_H
#define SERVER_CORE_RATING_H

#include <stdbool.h>

#include "core/start.h"
#include "core/types.h"

/*
 * The categories lichess keeps a rating in (its "perfs"): standard chess by speed, the speed
 * being the estimated game duration, initial seconds + 40 * increment seconds; correspondence
 * (days per move); and each variant whatever its clock. Their order is fixed: nodes of a site
 * exchange ratings as arrays in this order.
 */
enum rating_category {
    RATING_NONE = -1,      /* no clock, or a game from a position: never rated */
    RATING_BULLET = 0,     /* under 3 minutes */
    RATING_BLITZ,          /* under 8 minutes */
    RATING_RAPID,          /* under 25 minutes */
    RATING_CLASSICAL,      /* 25 minutes and more */
    RATING_CORRESPONDENCE, /* days per move */
    RATING_CHESS960,       /* the variants, at any speed */
    RATING_KING_OF_THE_HILL,
    RATING_THREE_CHECK,
    RATING_CATEGORY_COUNT
};

struct rating {
    double rating;      /* Glicko scale, 1500 for a new player */
    double deviation;   /* RD: 350 for a new player, never below RATING_MIN_DEVIATION */
    double volatility;  /* sigma: 0.06 for a new player */
    int games;          /* rated games played in this category */
    int64_t updated_at; /* wall clock (ms since the epoch) of the last rated game, whose deviation
                           this is; 0: unknown (the deviation does not grow) */
};

#define RATING_INITIAL            1500.0
#define RATING_INITIAL_DEVIATION  350.0
#define RATING_INITIAL_VOLATILITY 0.06
#define RATING_MIN_DEVIATION      45.0
/* Above this deviation a rating is provisional (shown with a "?"), as on lichess. */
#define RATING_PROVISIONAL_DEVIATION 110.0
/* The system constant tau: how much volatility may change (Glickman suggests 0.3 to 1.2). */
#define RATING_TAU 0.75
/* Rating periods per day of inactivity, lichess's: a deviation of 60 with volatility 0.06 grows
 * back to 110 (provisional) in a year without rated games. */
#define RATING_PERIODS_PER_DAY 0.21436
#define RATING_DAY_MS          86400000.0

/* A new player's rating in any category. */
struct rating rating_initial(void);

/* True while the deviation is above RATING_PROVISIONAL_DEVIATION. Pass a rating as it stands
 * now (rating_at), not as stored. */
bool rating_provisional(const struct rating *r);

/*
 * The rating as it stands at now_ms (wall clock, ms since the epoch): r with its deviation grown
 * for the rating periods elapsed since r->updated_at, t = days * RATING_PERIODS_PER_DAY
 * (fractional), phi* = sqrt(phi^2 + sigma^2 * t) on the Glicko-2 scale, at most
 * RATING_INITIAL_DEVIATION (a deviation already above it stays as it is). Unchanged when
 * updated_at is 0 or not before now_ms. Rating, volatility, games and updated_at are kept.
 */
struct rating rating_at(const struct rating *r, int64_t now_ms);

/* The category of a standard game's time control, or RATING_NONE for unlimited games. */
enum rating_category rating_category_of(const struct time_control *tc);

/* The category of a game of this variant and time control (lichess's "perf"): the variant's own,
 * or the time control's for standard chess and games from a position (which are never rated:
 * game_start_ratable); RATING_NONE for unlimited games. */
enum rating_category rating_category_of_game(enum game_variant variant,
                                             const struct time_control *tc);

/* "bullet", "blitz", "rapid", "classical", "correspondence", then the variants as lichess keys
 * them ("chess960", "kingOfTheHill", "threeCheck"); NULL for anything else. */
const char *rating_category_name(int category);

/* lichess's names of the categories, as its PGN Event tags and perf lists write them: "Bullet",
 * "Blitz", "Rapid", "Classical", "Correspondence", "Chess960", "King of the Hill", "Three-check";
 * NULL for anything else. */
const char *rating_category_title(int category);

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
 * Both players' ratings after one game between them that ended at now_ms (wall clock):
 * white_score is 1 (White won), 0.5 or 0. Each rating is first taken as it stands at now_ms
 * (rating_at: the deviation grown since the player's last game), then updated with RATING_TAU;
 * deviations stay within [RATING_MIN_DEVIATION, RATING_INITIAL_DEVIATION] and updated_at
 * becomes now_ms. Returns 0 or -1 (bad input: nothing written).
 */
int rating_after_game(const struct rating *white, const struct rating *black, double white_score,
                      int64_t now_ms, struct rating *white_out, struct rating *black_out);

#endif
