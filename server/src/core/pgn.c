/*
 * PGN export: copies the game's moves into a struct chess_pgn, sets the tags, adds %clk comments
 * from the clock recorded after each ply, and lets the engine write the text.
 */
#include "core/pgn.h"

#include <stdio.h>
#include <time.h>

#include "chess/pgn.h"
#include "core/errors.h"
#include "core/openings.h"
#include "core/player.h"
#include "core/rating.h"

/* PGN's Termination tag has a small vocabulary; the exact reason goes in a comment-like tag. */
static const char *termination_tag(enum chess_termination t) {
    switch (t) {
        case CHESS_TERM_NONE: return "unterminated";
        case CHESS_TERM_TIMEOUT:
        case CHESS_TERM_TIMEOUT_VS_INSUFFICIENT: return "time forfeit";
        case CHESS_TERM_ABANDONED: return "abandoned";
        case CHESS_TERM_ABORTED: return "unterminated";
        default: return "normal";
    }
}

static void format_clock(int64_t ms, char *buf, size_t size) {
    int64_t s = (ms + 999) / 1000; /* round up, as clocks show */
    snprintf(buf, size, "[%%clk %d:%02d:%02d]", (int)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
}

void pgn_event_name(bool rated, int category, char *out, size_t out_len) {
    const char *name = rating_category_title(category);
    snprintf(out, out_len, "%s %s game", rated ? "Rated" : "Casual",
             name ? name : "Correspondence");
}

long game_write_pgn(const struct game *g, const char *site, char **out) {
    struct chess_pgn pgn;
    if (chess_pgn_init(&pgn, &g->chess.start) < 0) return -CORE_ERR_NO_MEMORY;
    long rc = -CORE_ERR_NO_MEMORY;
    for (int i = 0; i < g->chess.ply_count; i++) {
        if (chess_game_play(&pgn.game, g->chess.moves[i]) < 0) goto done;
    }
    char event[64], date[16], utc_time[16], tc[48], clock[48];
    if (g->arena_name[0]) /* a tournament's game: its name, as lichess writes it */
        snprintf(event, sizeof event, "%s", g->arena_name);
    else
        pgn_event_name(g->rated, game_rating_category(g), event, sizeof event);
    time_t secs = (time_t)(g->created_wall_ms / 1000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    strftime(utc_time, sizeof utc_time, "%H:%M:%S", &tm);
    if (g->tc.unlimited)
        snprintf(tc, sizeof tc, "-");
    else if (g->tc.days > 0) /* lichess: one move per period, in seconds */
        snprintf(tc, sizeof tc, "1/%lld", (long long)(g->tc.days * GAME_DAY_MS / 1000));
    else
        snprintf(tc, sizeof tc, "%lld+%lld", (long long)(g->tc.initial_ms / 1000),
                 (long long)(g->tc.increment_ms / 1000));
    const char *tags[][2] = {
        {"Event", event},
        {"Site", site},
        {"Date", date},
        {"Round", "-"},
        {"White", g->players[CHESS_WHITE]->name},
        {"Black", g->players[CHESS_BLACK]->name},
        {"UTCDate", date},
        {"UTCTime", utc_time},
        {"TimeControl", tc},
        {"Termination", termination_tag(g->chess.termination)},
        {"GameId", g->id},
    };
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        if (chess_pgn_set_tag(&pgn, tags[i][0], tags[i][1]) < 0) goto done;
    }
    const char *variant = game_variant_pgn_tag(g->start.variant);
    if (variant && chess_pgn_set_tag(&pgn, "Variant", variant) < 0) goto done;
    /* Bots are titled as lichess titles them. */
    if (g->players[CHESS_WHITE]->bot && chess_pgn_set_tag(&pgn, "WhiteTitle", "BOT") < 0) goto done;
    if (g->players[CHESS_BLACK]->bot && chess_pgn_set_tag(&pgn, "BlackTitle", "BOT") < 0) goto done;
    struct opening opening;
    if (openings_classify_game(g->openings, &g->chess.start, g->chess.moves, g->chess.ply_count,
                               &opening) > 0 &&
        openings_set_pgn_tags(&pgn, &opening) < 0)
        goto done;
    if (g->ended && g->chess.termination != CHESS_TERM_NONE &&
        chess_pgn_set_tag(&pgn, "Reason", chess_termination_name(g->chess.termination)) < 0)
        goto done;
    for (int i = 0; !g->tc.unlimited && g->tc.days <= 0 && i < g->chess.ply_count; i++) {
        format_clock(g->clock_after[i], clock, sizeof clock);
        if (chess_pgn_set_comment(&pgn, i + 1, clock) < 0) goto done;
    }
    /* The engine's game takes the result from what was replayed; state the real one. */
    pgn.result = g->ended ? g->chess.result : CHESS_RESULT_NONE;
    if (pgn.result == CHESS_RESULT_NONE) pgn.game.result = CHESS_RESULT_NONE;
    rc = chess_pgn_write(&pgn, out);
    if (rc < 0) rc = -CORE_ERR_NO_MEMORY;
done:
    chess_pgn_free(&pgn);
    return rc;
}
