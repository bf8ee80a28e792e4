/* Tests of Glicko-2 (against Glickman's published example), the deviation's growth while a player
 * does not play (against values worked out by hand), categories and bounds. */
#include <math.h>

#include "check.h"
#include "core/rating.h"

#define CHECK_NEAR(actual, expected, tolerance)                                                    \
    do {                                                                                           \
        double check_a_ = (actual), check_e_ = (expected);                                         \
        if (!check_record(fabs(check_a_ - check_e_) <= (tolerance), #actual " ~ " #expected,       \
                          __FILE__, __LINE__))                                                     \
            printf("     got %.6f, expected %.6f\n", check_a_, check_e_);                          \
    } while (0)

/* "Example of the Glicko-2 system" (Glickman, 2013), section "Example calculation". */
static void test_glickman_example(void) {
    struct rating player = {1500, 200, 0.06, 0, 0};
    struct rating_game games[] = {{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}};
    struct rating out;
    CHECK_EQ_INT(rating_update(&player, games, 3, 0.5, &out), 0);
    CHECK_NEAR(out.rating, 1464.06, 0.01);
    CHECK_NEAR(out.deviation, 151.52, 0.01);
    CHECK_NEAR(out.volatility, 0.05999, 0.00001);
    CHECK_EQ_INT(out.games, 3);
}

static void test_no_games_widens_deviation(void) {
    struct rating player = {1700, 100, 0.06, 12, 0};
    struct rating out;
    CHECK_EQ_INT(rating_update(&player, NULL, 0, 0.5, &out), 0);
    CHECK_NEAR(out.rating, 1700, 1e-9);
    /* phi* = sqrt(phi^2 + sigma^2) on the Glicko-2 scale. */
    double phi = 100 / 173.7178;
    CHECK_NEAR(out.deviation, sqrt(phi * phi + 0.06 * 0.06) * 173.7178, 1e-9);
    CHECK_EQ_INT(out.games, 12);
}

static void test_after_game(void) {
    struct rating w = rating_initial(), b = rating_initial(), w2, b2;
    CHECK(rating_provisional(&w));
    CHECK_EQ_INT(rating_after_game(&w, &b, 1.0, 0, &w2, &b2), 0);
    CHECK(w2.rating > 1500 && b2.rating < 1500);
    /* Equal players: symmetric changes. */
    CHECK_NEAR(w2.rating - 1500, 1500 - b2.rating, 1e-6);
    CHECK(w2.deviation < 350 && b2.deviation < 350);
    CHECK_EQ_INT(w2.games, 1);
    /* A draw between equals changes nothing but the deviations. */
    CHECK_EQ_INT(rating_after_game(&w, &b, 0.5, 0, &w2, &b2), 0);
    CHECK_NEAR(w2.rating, 1500, 1e-6);
    CHECK_NEAR(b2.rating, 1500, 1e-6);
    /* The deviation never falls below the floor. */
    struct rating steady = {2000, 45, 0.06, 500, 0}, out_a, out_b;
    CHECK_EQ_INT(rating_after_game(&steady, &steady, 0.5, 0, &out_a, &out_b), 0);
    CHECK(out_a.deviation >= RATING_MIN_DEVIATION);
    CHECK(!rating_provisional(&out_a));
}

static void test_bad_input(void) {
    struct rating ok = rating_initial(), bad = {NAN, 350, 0.06, 0, 0}, out = {1, 2, 3, 4, 5};
    CHECK_EQ_INT(rating_after_game(&bad, &ok, 1, 0, &out, &out), -1);
    CHECK_EQ_INT(rating_after_game(&ok, &ok, 2, 0, &out, &out), -1);
    struct rating_game g = {1500, -1, 1};
    CHECK_EQ_INT(rating_update(&ok, &g, 1, 0.5, &out), -1);
    CHECK_EQ_INT(rating_update(&ok, NULL, 1, 0.5, &out), -1);
    CHECK_NEAR(out.rating, 1, 0); /* untouched */
}

#define DAY_MS 86400000LL
#define T0     1700000000000LL /* some instant (ms since the epoch) */

/*
 * RD 60, volatility 0.06, 365 days without a rated game, by hand:
 *   phi = 60 / 173.7178 = 0.345388, phi^2 = 0.119293
 *   t = 365 * 0.21436 = 78.2414 rating periods, sigma^2 * t = 0.0036 * 78.2414 = 0.281669
 *   phi* = sqrt(0.119293 + 0.281669) = sqrt(0.400962) = 0.633216, RD = 0.633216 * 173.7178 = 110.00
 * which is just past the provisional mark (110); a day earlier, 109.89, is not.
 */
static void test_deviation_grows_with_time(void) {
    struct rating r = {1800, 60, 0.06, 40, T0};
    struct rating year = rating_at(&r, T0 + 365 * DAY_MS);
    CHECK_NEAR(year.deviation, 110.0008, 0.001);
    CHECK(rating_provisional(&year));
    struct rating almost = rating_at(&r, T0 + 364 * DAY_MS);
    CHECK_NEAR(almost.deviation, 109.8949, 0.001);
    CHECK(!rating_provisional(&almost));
    /* Fractions of a day count: half a day is 0.10718 periods, sqrt(0.119293 + 0.000386). */
    CHECK_NEAR(rating_at(&r, T0 + DAY_MS / 2).deviation, 60.0970, 0.001);
    /* Only the deviation moves. */
    CHECK_NEAR(year.rating, 1800, 0);
    CHECK_NEAR(year.volatility, 0.06, 0);
    CHECK_EQ_INT(year.games, 40);
    CHECK(year.updated_at == T0);
}

static void test_deviation_growth_bounds(void) {
    /* No time elapsed: unchanged; nor when the clock reads earlier than the last game. */
    struct rating r = {1800, 60, 0.06, 40, T0};
    CHECK_NEAR(rating_at(&r, T0).deviation, 60, 0);
    CHECK_NEAR(rating_at(&r, T0 - DAY_MS).deviation, 60, 0);
    /* Capped at the initial 350: RD 300 after ten years would be 418.33. */
    struct rating old = {1500, 300, 0.06, 3, T0};
    CHECK_NEAR(rating_at(&old, T0 + 3650 * DAY_MS).deviation, 350, 0);
    /* A new player (350) stays at 350; an unknown time (0) means no growth. */
    struct rating fresh = rating_initial();
    CHECK_NEAR(rating_at(&fresh, T0).deviation, 350, 0);
    struct rating unknown = {1800, 60, 0.06, 40, 0};
    CHECK_NEAR(rating_at(&unknown, T0).deviation, 60, 0);
}

/* The next game starts from the grown deviation: a player back after a year moves more. */
static void test_after_game_uses_grown_deviation(void) {
    struct rating a = {1500, 60, 0.06, 40, T0}, b = a, a2, b2;
    CHECK_EQ_INT(rating_after_game(&a, &b, 1.0, T0, &a2, &b2), 0);
    double quick_gain = a2.rating - 1500;
    CHECK(a2.updated_at == T0 && b2.updated_at == T0);
    int64_t later = T0 + 365 * DAY_MS;
    CHECK_EQ_INT(rating_after_game(&a, &b, 1.0, later, &a2, &b2), 0);
    CHECK(a2.updated_at == later && b2.updated_at == later);
    CHECK(a2.rating - 1500 > quick_gain * 2.5);
    /* The same update by hand: both at RD 110.0008 (above), one game. */
    struct rating grown = rating_at(&a, later), expect;
    struct rating_game g = {1500, grown.deviation, 1.0};
    CHECK_EQ_INT(rating_update(&grown, &g, 1, RATING_TAU, &expect), 0);
    CHECK_NEAR(a2.rating, expect.rating, 1e-9);
    CHECK_NEAR(a2.deviation, expect.deviation, 1e-9);
}

static void test_categories(void) {
    struct time_control tc = {.initial_ms = 60000, .increment_ms = 0};
    CHECK_EQ_INT(rating_category_of(&tc), RATING_BULLET);
    tc = (struct time_control){.initial_ms = 120000, .increment_ms = 1000}; /* 160 s */
    CHECK_EQ_INT(rating_category_of(&tc), RATING_BULLET);
    tc = (struct time_control){.initial_ms = 180000, .increment_ms = 0};
    CHECK_EQ_INT(rating_category_of(&tc), RATING_BLITZ);
    tc = (struct time_control){.initial_ms = 300000, .increment_ms = 3000}; /* 420 s */
    CHECK_EQ_INT(rating_category_of(&tc), RATING_BLITZ);
    tc = (struct time_control){.initial_ms = 600000, .increment_ms = 0};
    CHECK_EQ_INT(rating_category_of(&tc), RATING_RAPID);
    tc = (struct time_control){.initial_ms = 1500000, .increment_ms = 0};
    CHECK_EQ_INT(rating_category_of(&tc), RATING_CLASSICAL);
    tc = (struct time_control){.unlimited = true};
    CHECK_EQ_INT(rating_category_of(&tc), RATING_NONE);
    CHECK_EQ_STR(rating_category_name(RATING_RAPID), "rapid");
    CHECK(rating_category_name(RATING_NONE) == NULL);
    CHECK_EQ_INT(rating_category_parse("classical"), RATING_CLASSICAL);
    CHECK_EQ_INT(rating_category_parse("hyper"), RATING_NONE);
    CHECK_EQ_INT(rating_category_parse(NULL), RATING_NONE);
    tc = (struct time_control){.days = 3};
    CHECK_EQ_INT(rating_category_of(&tc), RATING_CORRESPONDENCE);
    CHECK_EQ_STR(rating_category_name(RATING_CORRESPONDENCE), "correspondence");
}

/* A variant's games share one category whatever their clock; games from a position count by
 * their clock (they are never rated, but lichess files them under that speed). */
static void test_variant_categories(void) {
    struct time_control bullet = {.initial_ms = 60000}, daily = {.days = 2};
    struct time_control unlimited = {.unlimited = true};
    CHECK_EQ_INT(rating_category_of_game(GAME_VARIANT_STANDARD, &bullet), RATING_BULLET);
    CHECK_EQ_INT(rating_category_of_game(GAME_VARIANT_STANDARD, &daily), RATING_CORRESPONDENCE);
    CHECK_EQ_INT(rating_category_of_game(GAME_VARIANT_FROM_POSITION, &bullet), RATING_BULLET);
    CHECK_EQ_INT(rating_category_of_game(GAME_VARIANT_CHESS960, &bullet), RATING_CHESS960);
    CHECK_EQ_INT(rating_category_of_game(GAME_VARIANT_CHESS960, &daily), RATING_CHESS960);
    CHECK_EQ_INT(rating_category_of_game(GAME_VARIANT_THREE_CHECK, &bullet), RATING_THREE_CHECK);
    CHECK_EQ_INT(rating_category_of_game(GAME_VARIANT_KING_OF_THE_HILL, &daily),
                 RATING_KING_OF_THE_HILL);
    for (int v = 0; v < GAME_VARIANT_COUNT; v++)
        CHECK_EQ_INT(rating_category_of_game((enum game_variant)v, &unlimited), RATING_NONE);
    /* Names are lichess's perf keys, and parse back. */
    const char *keys[] = {"chess960", "kingOfTheHill", "threeCheck"};
    int cats[] = {RATING_CHESS960, RATING_KING_OF_THE_HILL, RATING_THREE_CHECK};
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_STR(rating_category_name(cats[i]), keys[i]);
        CHECK_EQ_INT(rating_category_parse(keys[i]), cats[i]);
    }
    CHECK_EQ_STR(rating_category_title(RATING_KING_OF_THE_HILL), "King of the Hill");
    CHECK_EQ_STR(rating_category_title(RATING_BLITZ), "Blitz");
    CHECK(rating_category_title(RATING_CATEGORY_COUNT) == NULL);
}

int main(void) {
    RUN(test_glickman_example);
    RUN(test_no_games_widens_deviation);
    RUN(test_after_game);
    RUN(test_bad_input);
    RUN(test_deviation_grows_with_time);
    RUN(test_deviation_growth_bounds);
    RUN(test_after_game_uses_grown_deviation);
    RUN(test_categories);
    RUN(test_variant_categories);
    return check_finish();
}
