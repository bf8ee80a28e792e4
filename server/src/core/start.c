/*
 * Game starts (start.h): variant keys, the checks of a start a player gave, and first positions.
 */
#include "core/start.h"

#include <string.h>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "core/errors.h"
#include "util/str.h"

static const struct {
    const char *key, *name;
} VARIANTS[GAME_VARIANT_COUNT] = {
    [GAME_VARIANT_STANDARD] = {"standard", "Standard"},
    [GAME_VARIANT_CHESS960] = {"chess960", "Chess960"},
    [GAME_VARIANT_FROM_POSITION] = {"fromPosition", "From Position"},
    [GAME_VARIANT_THREE_CHECK] = {"threeCheck", "Three-check"},
    [GAME_VARIANT_KING_OF_THE_HILL] = {"kingOfTheHill", "King of the Hill"},
};

const char *game_variant_key(enum game_variant variant) {
    return (unsigned)variant < GAME_VARIANT_COUNT ? VARIANTS[variant].key : NULL;
}

const char *game_variant_name(enum game_variant variant) {
    return (unsigned)variant < GAME_VARIANT_COUNT ? VARIANTS[variant].name : NULL;
}

const char *game_variant_pgn_tag(enum game_variant variant) {
    if (variant == GAME_VARIANT_STANDARD || variant == GAME_VARIANT_CHESS960) return NULL;
    return game_variant_name(variant);
}

int game_variant_parse(const char *key) {
    for (int v = 0; key && v < GAME_VARIANT_COUNT; v++)
        if (strcmp(VARIANTS[v].key, key) == 0) return v;
    return -1;
}

struct game_start game_start_standard(void) {
    return (struct game_start){.variant = GAME_VARIANT_STANDARD};
}

/* The engine's rules for a variant (Chess960 and fromPosition play standard rules). */
static int engine_variant(enum game_variant variant) {
    if (variant == GAME_VARIANT_THREE_CHECK) return CHESS_VARIANT_THREE_CHECK;
    if (variant == GAME_VARIANT_KING_OF_THE_HILL) return CHESS_VARIANT_KING_OF_THE_HILL;
    return CHESS_VARIANT_STANDARD;
}

int game_start_position(const struct game_start *s, struct chess_position *pos) {
    bool own_position =
        s->variant == GAME_VARIANT_THREE_CHECK || s->variant == GAME_VARIANT_KING_OF_THE_HILL;
    if (own_position && s->fen[0]) /* an imported game's */
        return chess_fen_parse_variant(pos, s->fen, engine_variant(s->variant)) < 0
                   ? -CORE_ERR_BAD_POSITION
                   : 0;
    switch (s->variant) {
        case GAME_VARIANT_CHESS960:
            return chess_position_chess960(pos, s->chess960) < 0 ? -CORE_ERR_BAD_POSITION : 0;
        case GAME_VARIANT_FROM_POSITION:
            return chess_fen_parse(pos, s->fen) < 0 ? -CORE_ERR_BAD_POSITION : 0;
        case GAME_VARIANT_THREE_CHECK:
        case GAME_VARIANT_KING_OF_THE_HILL:
        case GAME_VARIANT_STANDARD:
            chess_position_startpos(pos);
            return chess_position_set_variant(pos, engine_variant(s->variant)) < 0
                       ? -CORE_ERR_BAD_POSITION
                       : 0;
        case GAME_VARIANT_COUNT: break;
    }
    return -CORE_ERR_BAD_POSITION;
}

int game_start_check(struct game_start *s) {
    if ((unsigned)s->variant >= GAME_VARIANT_COUNT) return -CORE_ERR_BAD_POSITION;
    if (s->variant == GAME_VARIANT_CHESS960)
        return s->chess960 >= 0 && s->chess960 < GAME_CHESS960_N ? 0 : -CORE_ERR_BAD_POSITION;
    if (s->variant != GAME_VARIANT_FROM_POSITION) return 0;
    struct chess_position pos;
    if (chess_fen_parse(&pos, s->fen) < 0) return -CORE_ERR_BAD_POSITION;
    /* A game that would be over before its first move is no game. */
    if (chess_count_legal_moves(&pos) == 0 || chess_position_insufficient_material(&pos))
        return -CORE_ERR_POSITION_OVER;
    char fen[CHESS_FEN_MAX];
    if (chess_fen_write(&pos, CHESS_FEN_XFEN, fen, sizeof fen) < 0) return -CORE_ERR_BAD_POSITION;
    str_copy(s->fen, sizeof s->fen, fen);
    return 0;
}

int game_start_restore(const char *variant_key, const char *initial_fen, struct game_start *out) {
    int variant =
        variant_key && *variant_key ? game_variant_parse(variant_key) : GAME_VARIANT_STANDARD;
    if (variant < 0) return -CORE_ERR_BAD_POSITION;
    *out = (struct game_start){.variant = (enum game_variant)variant};
    const char *fen = initial_fen ? initial_fen : "";
    if (variant == GAME_VARIANT_FROM_POSITION || (variant == GAME_VARIANT_STANDARD && *fen)) {
        /* A standard game from a FEN (imported before variants were stored) is fromPosition. */
        out->variant = GAME_VARIANT_FROM_POSITION;
        str_copy(out->fen, sizeof out->fen, fen);
        struct chess_position pos;
        return chess_fen_parse(&pos, fen) < 0 ? -CORE_ERR_BAD_POSITION : 0;
    }
    if (variant == GAME_VARIANT_THREE_CHECK || variant == GAME_VARIANT_KING_OF_THE_HILL) {
        /* An imported game may start from any position under the variant's rules. */
        str_copy(out->fen, sizeof out->fen, fen);
        struct chess_position pos;
        return game_start_position(out, &pos);
    }
    if (variant != GAME_VARIANT_CHESS960) return 0;
    for (int n = 0; n < GAME_CHESS960_N; n++) {
        struct chess_position pos;
        char written[CHESS_FEN_MAX];
        if (chess_position_chess960(&pos, n) < 0 ||
            chess_fen_write(&pos, CHESS_FEN_XFEN, written, sizeof written) < 0)
            return -CORE_ERR_BAD_POSITION;
        if (strcmp(written, fen) == 0 || (!*fen && n == GAME_CHESS960_STANDARD)) {
            out->chess960 = n;
            return 0;
        }
    }
    return -CORE_ERR_BAD_POSITION;
}

bool game_start_ratable(const struct game_start *s) {
    return s->variant != GAME_VARIANT_FROM_POSITION;
}
