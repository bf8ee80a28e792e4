/* Tests of Glicko-2 (against Glickman's published example), categories and bounds. */
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
    struct rating player = {1500, 200, 0.06, 0};
    struct rating_game games[] = {{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}};
    struct rating out;
    CHECK_EQ_INT(rating_update(&player, games, 3, 0.5, &out), 0);
    CHECK_NEAR(out.rating, 1464.06, 0.01);
    CHECK_NEAR(out.deviation, 151.52, 0.01);
    CHECK_NEAR(out.volatility, 0.05999, 0.00001);
    CHECK_EQ_INT(out.games, 3);
}

static void test_no_games_widens_deviation(void) {
    struct rating player = {1700, 100, 0.06, 12};
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
    CHECK_EQ_INT(rating_after_game(&w, &b, 1.0, &w2, &b2), 0);
    CHECK(w2.rating > 1500 && b2.rating < 1500);
    /* Equal players: symmetric changes. */
    CHECK_NEAR(w2.rating - 1500, 1500 - b2.rating, 1e-6);
    CHECK(w2.deviation < 350 && b2.deviation < 350);
    CHECK_EQ_INT(w2.games, 1);
    /* A draw between equals changes nothing but the deviations. */
    CHECK_EQ_INT(rating_after_game(&w, &b, 0.5, &w2, &b2), 0);
    CHECK_NEAR(w2.rating, 1500, 1e-6);
    CHECK_NEAR(b2.rating, 1500, 1e-6);
    /* The deviation never falls below the floor. */
    struct rating steady = {2000, 45, 0.06, 500}, out_a, out_b;
    CHECK_EQ_INT(rating_after_game(&steady, &steady, 0.5, &out_a, &out_b), 0);
    CHECK(out_a.deviation >= RATING_MIN_DEVIATION);
    CHECK(!rating_provisional(&out_a));
}

static void test_bad_input(void) {
    struct rating ok = rating_initial(), bad = {NAN, 350, 0.06, 0}, out = {1, 2, 3, 4};
    CHECK_EQ_INT(rating_after_game(&bad, &ok, 1, &out, &out), -1);
    CHECK_EQ_INT(rating_after_game(&ok, &ok, 2, &out, &out), -1);
    struct rating_game g = {1500, -1, 1};
    CHECK_EQ_INT(rating_update(&ok, &g, 1, 0.5, &out), -1);
    CHECK_EQ_INT(rating_update(&ok, NULL, 1, 0.5, &out), -1);
    CHECK_NEAR(out.rating, 1, 0); /* untouched */
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
}

int main(void) {
    RUN(test_glickman_example);
    RUN(test_no_games_widens_deviation);
    RUN(test_after_game);
    RUN(test_bad_input);
    RUN(test_categories);
    return check_finish();
}
