/*
 * Glicko-2, step by step as in Glickman's paper: convert to the Glicko-2 scale (mu, phi), compute
 * the estimated variance v and improvement delta from the period's games, find the new
 * volatility by the Illinois variant of regula falsi on f(x), then the new deviation and rating,
 * and convert back.
 */
#include "core/rating.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define GLICKO2_SCALE 173.7178
#define CONVERGENCE   0.000001
#define PI            3.14159265358979323846

static const char *const category_names[RATING_CATEGORY_COUNT] = {
    "bullet",         "blitz",    "rapid",         "classical",
    "correspondence", "chess960", "kingOfTheHill", "threeCheck"};
static const char *const category_titles[RATING_CATEGORY_COUNT] = {
    "Bullet",           "Blitz",      "Rapid", "Classical", "Correspondence", "Chess960",
    "King of the Hill", "Three-check"};

struct rating rating_initial(void) {
    return (struct rating){RATING_INITIAL, RATING_INITIAL_DEVIATION, RATING_INITIAL_VOLATILITY, 0,
                           0};
}

bool rating_provisional(const struct rating *r) {
    return r->deviation > RATING_PROVISIONAL_DEVIATION;
}

struct rating rating_at(const struct rating *r, int64_t now_ms) {
    struct rating out = *r;
    if (r->updated_at <= 0 || now_ms <= r->updated_at || !(r->deviation > 0) ||
        r->deviation >= RATING_INITIAL_DEVIATION || !isfinite(r->volatility))
        return out;
    double periods = (double)(now_ms - r->updated_at) / RATING_DAY_MS * RATING_PERIODS_PER_DAY;
    double phi = r->deviation / GLICKO2_SCALE;
    double grown = sqrt(phi * phi + r->volatility * r->volatility * periods) * GLICKO2_SCALE;
    out.deviation = grown < RATING_INITIAL_DEVIATION ? grown : RATING_INITIAL_DEVIATION;
    return out;
}

enum rating_category rating_category_of(const struct time_control *tc) {
    if (tc->unlimited) return RATING_NONE;
    if (tc->days > 0) return RATING_CORRESPONDENCE;
    int64_t estimate_s = (tc->initial_ms + 40 * tc->increment_ms) / 1000;
    if (estimate_s < 180) return RATING_BULLET;
    if (estimate_s < 480) return RATING_BLITZ;
    if (estimate_s < 1500) return RATING_RAPID;
    return RATING_CLASSICAL;
}

enum rating_category rating_category_of_game(enum game_variant variant,
                                             const struct time_control *tc) {
    if (tc->unlimited) return RATING_NONE;
    switch (variant) {
        case GAME_VARIANT_CHESS960: return RATING_CHESS960;
        case GAME_VARIANT_KING_OF_THE_HILL: return RATING_KING_OF_THE_HILL;
        case GAME_VARIANT_THREE_CHECK: return RATING_THREE_CHECK;
        case GAME_VARIANT_STANDARD:
        case GAME_VARIANT_FROM_POSITION:
        case GAME_VARIANT_COUNT: break;
    }
    return rating_category_of(tc);
}

const char *rating_category_title(int category) {
    return category >= 0 && category < RATING_CATEGORY_COUNT ? category_titles[category] : NULL;
}

const char *rating_category_name(int category) {
    return category >= 0 && category < RATING_CATEGORY_COUNT ? category_names[category] : NULL;
}

enum rating_category rating_category_parse(const char *text) {
    for (int i = 0; text && i < RATING_CATEGORY_COUNT; i++) {
        if (strcmp(text, category_names[i]) == 0) return (enum rating_category)i;
    }
    return RATING_NONE;
}

static double g_of(double phi) {
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI));
}

static double expected(double mu, double mu_j, double g_j) {
    return 1.0 / (1.0 + exp(-g_j * (mu - mu_j)));
}

/* The function whose root is the log of the new volatility squared (step 5 of the paper). */
static double volatility_f(double x, double delta, double phi, double v, double a, double tau) {
    double ex = exp(x);
    double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

static double new_volatility(double sigma, double delta, double phi, double v, double tau) {
    double a = log(sigma * sigma);
    double A = a, B;
    if (delta * delta > phi * phi + v) {
        B = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (volatility_f(a - k * tau, delta, phi, v, a, tau) < 0 && k < 1000) k++;
        B = a - k * tau;
    }
    double fA = volatility_f(A, delta, phi, v, a, tau);
    double fB = volatility_f(B, delta, phi, v, a, tau);
    for (int i = 0; fabs(B - A) > CONVERGENCE && i < 1000; i++) {
        double C = A + (A - B) * fA / (fB - fA);
        double fC = volatility_f(C, delta, phi, v, a, tau);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2.0;
        }
        B = C;
        fB = fC;
    }
    return exp(A / 2.0);
}

static bool valid(const struct rating *r) {
    return isfinite(r->rating) && isfinite(r->deviation) && isfinite(r->volatility) &&
           r->deviation > 0 && r->volatility > 0;
}

int rating_update(const struct rating *player, const struct rating_game *games, int count,
                  double tau, struct rating *out) {
    if (!valid(player) || count < 0 || (count > 0 && !games) || !(tau > 0)) return -1;
    double mu = (player->rating - RATING_INITIAL) / GLICKO2_SCALE;
    double phi = player->deviation / GLICKO2_SCALE;
    double sigma = player->volatility;
    if (count == 0) {
        /* No games: only the deviation grows. */
        *out = *player;
        out->deviation = sqrt(phi * phi + sigma * sigma) * GLICKO2_SCALE;
        return 0;
    }
    double v_inverse = 0, sum = 0;
    for (int i = 0; i < count; i++) {
        const struct rating_game *gm = &games[i];
        if (!isfinite(gm->opponent_rating) || !(gm->opponent_deviation > 0) ||
            !isfinite(gm->opponent_deviation) || gm->score < 0 || gm->score > 1)
            return -1;
        double mu_j = (gm->opponent_rating - RATING_INITIAL) / GLICKO2_SCALE;
        double g_j = g_of(gm->opponent_deviation / GLICKO2_SCALE);
        double e = expected(mu, mu_j, g_j);
        v_inverse += g_j * g_j * e * (1.0 - e);
        sum += g_j * (gm->score - e);
    }
    double v = 1.0 / v_inverse;
    double delta = v * sum;
    double sigma_new = new_volatility(sigma, delta, phi, v, tau);
    double phi_star = sqrt(phi * phi + sigma_new * sigma_new);
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu_new = mu + phi_new * phi_new * sum;
    *out = (struct rating){
        .rating = mu_new * GLICKO2_SCALE + RATING_INITIAL,
        .deviation = phi_new * GLICKO2_SCALE,
        .volatility = sigma_new,
        .games = player->games + count,
        .updated_at = player->updated_at,
    };
    return 0;
}

static void clamp_deviation(struct rating *r) {
    if (r->deviation < RATING_MIN_DEVIATION) r->deviation = RATING_MIN_DEVIATION;
    if (r->deviation > RATING_INITIAL_DEVIATION) r->deviation = RATING_INITIAL_DEVIATION;
}

int rating_after_game(const struct rating *white, const struct rating *black, double white_score,
                      int64_t now_ms, struct rating *white_out, struct rating *black_out) {
    if (!valid(white) || !valid(black) || white_score < 0 || white_score > 1) return -1;
    /* Both as they stand now: a player back after months is less certain than when it left. */
    struct rating w0 = rating_at(white, now_ms), b0 = rating_at(black, now_ms);
    struct rating_game for_white = {b0.rating, b0.deviation, white_score};
    struct rating_game for_black = {w0.rating, w0.deviation, 1.0 - white_score};
    struct rating w, b;
    if (rating_update(&w0, &for_white, 1, RATING_TAU, &w) < 0 ||
        rating_update(&b0, &for_black, 1, RATING_TAU, &b) < 0)
        return -1;
    clamp_deviation(&w);
    clamp_deviation(&b);
    w.updated_at = b.updated_at = now_ms;
    *white_out = w;
    *black_out = b;
    return 0;
}
