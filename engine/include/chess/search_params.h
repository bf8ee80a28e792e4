/*
 * The search's constants: margins, depths and divisors of its pruning, reductions and
 * extensions, and the shares of the clock its time management plans with. The defaults are the
 * engine's; a request may carry other values (for tuning them with SPSA, tests/bench/spsa.py), and
 * the UCI program accepts each as a hidden option of the same name. One list below declares every
 * constant with its default and the range a tuner may explore; where a formula uses it is in
 * engine/src/pvs.c, search.c and timeman.c.
 */
#ifndef CHESS_SEARCH_PARAMS_H
#define CHESS_SEARCH_PARAMS_H

/* X(name, default, min, max) */
#define CHESS_SEARCH_PARAMS(X)                                                                     \
    X(razor_depth, 3, 1, 6)    /* razoring at depth <= this */                                     \
    X(razor_base, 200, 0, 500) /* ... when eval + base + mult * depth < alpha */                   \
    X(razor_mult, 250, 100, 500)                                                                   \
    X(rfp_depth, 8, 3, 14)     /* reverse futility at depth <= this */                             \
    X(rfp_margin, 80, 30, 200) /* ... when eval - margin * (depth - improving) >= beta */          \
    X(nmp_base, 3, 2, 5)       /* null move reduction: base + depth / depth_div */                 \
    X(nmp_depth_div, 3, 2, 6)                                                                      \
    X(nmp_eval_div, 200, 80, 500) /* ... + min((eval - beta) / eval_div, 3) */                     \
    X(nmp_margin_mult, 20, 0, 40) /* null move when static eval >= beta - mult * depth + base */   \
    X(nmp_margin_base, 100, -100, 300)                                                             \
    X(lmp_base, 3, 1, 8)      /* late move pruning after (base + depth^2) / (2 - impr.) */         \
    X(fut_depth, 6, 3, 12)    /* futility pruning of quiet moves at reduced depth <= this */       \
    X(fut_base, 100, 30, 250) /* ... when static eval + base + mult * depth <= alpha */            \
    X(fut_mult, 100, 40, 200)                                                                      \
    X(hist_prune_depth, 4, 2, 8)         /* history pruning at reduced depth <= this */            \
    X(hist_prune_mult, 3000, 1000, 8000) /* ... when history < -mult * depth */                    \
    X(see_quiet_mult, 25, 5, 60)         /* quiet moves losing more than mult * depth^2 by SEE */  \
    X(see_noisy_mult, 100, 40, 250)      /* captures and checks losing more than mult * depth */   \
    X(se_depth, 6, 4, 10)                /* singular extension from this depth */                  \
    X(se_margin, 32, 8, 64)              /* singular beta: table score - margin * depth / 16 */    \
    X(se_double_margin, 20, 0, 60)       /* double extension when that much below singular beta */ \
    X(lmr_base, 75, 0, 150) /* reduction: base / 100 + ln(depth) ln(moves) / (div / 100) */        \
    X(lmr_div, 225, 150, 400)                                                                      \
    X(lmr_hist_div, 8000, 3000, 20000) /* one ply less or more per this much history */            \
    X(qs_futility, 150, 50, 350)       /* quiescence: captures that cannot raise eval + this */    \
    X(hist_bonus_mult, 170, 80, 300)   /* history bonus: min(mult * depth - base, max) */          \
    X(hist_bonus_base, 100, 0, 300)                                                                \
    X(hist_bonus_max, 1800, 800, 3000)                                                             \
    X(asp_delta, 12, 5, 40)     /* first aspiration window: score +- (delta + |score| / 64) */     \
    X(tm_plan_inc, 25, 10, 50)  /* with an increment: soft limit = left / plan + inc share */      \
    X(tm_inc_share, 50, 20, 90) /* ... percent of the increment */                                 \
    X(tm_stop_inc, 70, 40, 100) /* ... no iteration starts past this percent of the scaled soft */

struct chess_search_params {
#define CHESS_SEARCH_PARAM_FIELD(name, def, lo, hi) int name;
    CHESS_SEARCH_PARAMS(CHESS_SEARCH_PARAM_FIELD)
#undef CHESS_SEARCH_PARAM_FIELD
};

/* One constant's name, default and tuning range, for tools and the UCI program. */
struct chess_search_param_info {
    const char *name;
    int default_value, min, max;
};

/* Fills *params with the engine's defaults. */
void chess_search_params_default(struct chess_search_params *params);

/* Number of constants, and the i-th one's description (0 <= i < count), in the list's order. */
int chess_search_params_count(void);
const struct chess_search_param_info *chess_search_param_info(int i);

/* The i-th constant's value in *params (0 <= i < count). */
int chess_search_params_get(const struct chess_search_params *params, int i);

/*
 * Sets the named constant (case-insensitive) when value is within its range. Returns 0, or -1
 * for an unknown name or a value out of range (params unchanged).
 */
int chess_search_params_set(struct chess_search_params *params, const char *name, int value);

#endif
