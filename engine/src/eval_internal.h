/*
 * The evaluation's weights and its trace, shared by eval.c, the weight table (eval_weights.c)
 * and the Texel tuner (tools/tune.c), which includes this private header.
 *
 * Every weight is a (middlegame, endgame) pair in one flat array, laid out by EVAL_GROUPS. The
 * evaluation is linear in every weight except the king-danger group (EVAL_KS_*, middlegame value
 * only): those add up to a danger count per king which is then squared. A trace records, for
 * one position, the coefficient of each linear weight (white's count minus black's), the
 * danger coefficients per king, and the game phase and endgame scale, which is all the tuner
 * needs to recompute the evaluation for any weights. The endgame complexity group (see
 * enum eval_complexity) is recorded apart as well, being applied after the sum.
 */
#ifndef CHESS_EVAL_INTERNAL_H
#define CHESS_EVAL_INTERNAL_H

#include "chess/position.h"

/*
 * The endgame complexity terms. Their weighted sum c (endgame halves of the COMPLEXITY group)
 * moves the endgame score towards the side ahead, or towards zero but never past it:
 * eg += sign(eg) * max(c, -|eg|). Symmetric counts, the same for both colours.
 */
enum eval_complexity {
    EVAL_CX_PASSED,       /* passed pawns of both sides */
    EVAL_CX_PAWNS,        /* pawns on the board */
    EVAL_CX_OUTFLANKING,  /* kings' file distance minus rank distance */
    EVAL_CX_BOTH_FLANKS,  /* pawns on both wings */
    EVAL_CX_INFILTRATION, /* a king in the enemy's half */
    EVAL_CX_PAWNS_ONLY,   /* no pieces besides kings and pawns */
    EVAL_CX_UNWINNABLE,   /* kings not outflanking and pawns on one wing only */
    EVAL_CX_BIAS,
    EVAL_CX_COUNT
};

/* name, number of weights */
#define EVAL_GROUPS(X)                                                                             \
    X(MATERIAL, 6) /* by piece type; [0] and [KING] unused */                                      \
    X(PST_PAWN, 64)                                                                                \
    X(PST_KNIGHT, 64)                                                                              \
    X(PST_BISHOP, 64)                                                                              \
    X(PST_ROOK, 64)                                                                                \
    X(PST_QUEEN, 64)                                                                               \
    X(PST_KING, 64)                                                                                \
    X(MOB_KNIGHT, 9)                                                                               \
    X(MOB_BISHOP, 14)                                                                              \
    X(MOB_ROOK, 15)                                                                                \
    X(MOB_QUEEN, 28)                                                                               \
    X(BISHOP_PAIR, 1)                                                                              \
    X(BISHOP_PAWNS, 1) /* per own pawn on the bishop's square colour */                            \
    X(OUTPOST_KNIGHT, 1)                                                                           \
    X(OUTPOST_BISHOP, 1)                                                                           \
    X(MINOR_BEHIND_PAWN, 1)                                                                        \
    X(ROOK_OPEN, 1)                                                                                \
    X(ROOK_SEMI_OPEN, 1)                                                                           \
    X(DOUBLED, 1)                                                                                  \
    X(ISOLATED, 1)                                                                                 \
    X(BACKWARD, 1)                                                                                 \
    X(WEAK_UNOPPOSED, 1) /* isolated or backward pawn with no enemy pawn ahead on its file */      \
    X(CONNECTED, 8)      /* by relative rank */                                                    \
    X(PASSED, 8)         /* by relative rank */                                                    \
    X(PASSED_BLOCKED, 8)                                                                           \
    X(PASSED_FREE, 8)       /* path to promotion empty and not attacked */                         \
    X(PASSED_SAFE_STOP, 8)  /* stop square empty and not attacked by the enemy */                  \
    X(PASSED_OWN_KING, 8)   /* times own king's distance to the stop square */                     \
    X(PASSED_THEIR_KING, 8) /* times enemy king's distance to the stop square */                   \
    X(SHELTER, 32)          /* [edge distance of file 0-3][relative rank of own pawn, 0 = none] */ \
    X(STORM, 32) /* [edge distance of file 0-3][relative rank of enemy pawn, 0 = none] */          \
    X(KING_OPEN_FILE, 1)                                                                           \
    X(PAWNLESS_FLANK, 1) /* no pawns at all on the king's flank */                                 \
    X(KING_PROTECTOR, 6) /* times a piece's distance to its own king, by type */                   \
    X(THREAT_PAWN, 6)    /* enemy piece attacked by a pawn, by type */                             \
    X(THREAT_MINOR, 6)   /* weak enemy piece attacked by a knight or bishop, by type */            \
    X(THREAT_ROOK, 6)    /* weak enemy piece attacked by a rook, by type */                        \
    X(THREAT_KING, 1)                                                                              \
    X(HANGING, 1)                                                                                  \
    X(PAWN_PUSH_THREAT, 1)                                                                         \
    X(RESTRICTED, 1)      /* squares attacked by both sides, not strongly protected by them */     \
    X(KNIGHT_ON_QUEEN, 1) /* safe knight moves that would attack the lone enemy queen */           \
    X(SLIDER_ON_QUEEN, 1) /* safe slider moves that would attack the lone enemy queen */           \
    X(LONG_DIAGONAL_BISHOP, 1) /* sees two centre squares, looking past all but pawns */           \
    X(TRAPPED_ROOK, 2) /* low-mobility rook on the king's wing side: [0] may castle, [1] not */    \
    X(WEAK_QUEEN, 1)   /* a lone piece between the queen and an enemy rook or bishop */            \
    X(UNSTOPPABLE_PASSER, 1) /* free passer outside the enemy king's square, enemy pawns only */   \
    X(TEMPO, 1)                                                                                    \
    X(COMPLEXITY, EVAL_CX_COUNT) /* endgame only, not linear: see enum eval_complexity */          \
    X(KS_ATTACKER, 6)            /* king danger per attacking piece, by type */                    \
    X(KS_ZONE_ATTACKS, 1)                                                                          \
    X(KS_SAFE_CHECK, 6) /* by checking piece type */                                               \
    X(KS_WEAK_ZONE, 1)                                                                             \
    X(KS_NO_QUEEN, 1)                                                                              \
    X(KS_FLANK_ATTACKS, 1)   /* enemy attacks (double ones twice) on the king's flank and camp */  \
    X(KS_UNSAFE_CHECKS, 1)   /* piece types that can check only from defended squares */           \
    X(KS_KNIGHT_DEFENDER, 1) /* an own knight guarding the king's surroundings */                  \
    X(KS_BIAS, 1)

enum eval_param {
#define EVAL_ENUM(name, n) EVAL_##name, EVAL_##name##_LAST_ = EVAL_##name + (n)-1,
    EVAL_GROUPS(EVAL_ENUM)
#undef EVAL_ENUM
        EVAL_PARAM_COUNT
};

/* The first king-danger weight; the danger group runs to the end of the array. */
#define EVAL_KS_FIRST EVAL_KS_ATTACKER

struct eval_weight {
    int mg, eg;
};

/* The tuned weights (eval_weights.c, written by the tuner). */
extern const struct eval_weight eval_weights[EVAL_PARAM_COUNT];

/* Full phase (all pieces on the board); phase 0 is a bare endgame. */
#define EVAL_PHASE_MAX 24
/* Endgame scale 64 means unscaled. */
#define EVAL_SCALE_MAX 64

/* King danger d becomes a penalty of d*d/EVAL_KS_MG_DIV (mg) and d/EVAL_KS_EG_DIV (eg). */
#define EVAL_KS_MG_DIV 256
#define EVAL_KS_EG_DIV 8

struct eval_trace {
    int coef[EVAL_PARAM_COUNT];                  /* linear weights: white's count minus black's */
    int ks[2][EVAL_PARAM_COUNT - EVAL_KS_FIRST]; /* danger terms against each colour's king */
    int cx[EVAL_CX_COUNT];                       /* the complexity counts */
    int phase;                                   /* 0 .. EVAL_PHASE_MAX */
    int scale;                                   /* 0 .. EVAL_SCALE_MAX */
};

/*
 * Evaluates with the given weights, from white's point of view, filling the trace (cleared
 * first). For the tuner; the search uses chess_evaluate().
 */
int eval_trace_position(const struct chess_position *pos, const struct eval_weight *weights,
                        struct eval_trace *trace);

/* A cache of pawn-structure scores by pawn placement; one per search thread. */
struct eval_pawn_entry {
    uint64_t key;
    int mg, eg;
    chess_bitboard passed[2];
};

#define EVAL_PAWN_CACHE_SIZE 4096 /* entries, a power of two */

struct eval_pawn_cache {
    struct eval_pawn_entry entries[EVAL_PAWN_CACHE_SIZE];
};

/* chess_evaluate() with a pawn cache (may be NULL), for the search. */
int eval_position(const struct chess_position *pos, struct eval_pawn_cache *cache);

/*
 * The terms that know a variant's goal, from the side to move's view, added to the evaluation in
 * King of the Hill (the kings' steps to the centre, worth more to a side whose opponent has no
 * queen to stop the walk) and Three-check (the checks each side has given); 0 in standard chess.
 */
int eval_variant(const struct chess_position *pos);

/* The names of the groups, for the tuner's output. */
struct eval_group {
    const char *name;
    int first, count;
};
extern const struct eval_group eval_groups[];
extern const int eval_group_count;

#endif
