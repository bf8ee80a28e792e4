/*
 * PGN and FEN for stored games: the moves are replayed from the start position into a struct
 * chess_pgn (the engine writes the text), with the tags lichess writes and one %clk comment per
 * move when the game had a clock.
 */
#include "store/archive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chess/fen.h"
#include "chess/move.h"
#include "chess/pgn.h"
#include "chess/san.h"
#include "core/judgement.h"
#include "core/pgn.h"
#include "core/start.h"
#include "util/str.h"

/* The start position of a stored game, under its variant's rules. */
static int start_position(const struct store_game *g, struct chess_position *pos) {
    struct game_start start;
    if (game_start_restore(g->variant, g->initial_fen, &start) < 0 ||
        game_start_position(&start, pos) < 0)
        return -STORE_ERR_CORRUPT;
    return 0;
}

/* Replays the first `plies` moves into game (initialised from the start). */
static int replay(const struct store_game *g, int plies, struct chess_game *game) {
    for (int i = 0; i < plies; i++) {
        chess_move move;
        if (chess_move_from_uci(&game->current, g->moves[i].uci, &move) < 0 ||
            chess_game_play(game, move) < 0)
            return -STORE_ERR_CORRUPT;
    }
    return 0;
}

int store_game_positions(const struct store_game *g, struct chess_position *positions) {
    if (start_position(g, &positions[0]) < 0) return -STORE_ERR_CORRUPT;
    for (int i = 0; i < g->ply_count; i++) {
        chess_move m;
        positions[i + 1] = positions[i];
        if (chess_move_from_uci(&positions[i + 1], g->moves[i].uci, &m) < 0)
            return -STORE_ERR_CORRUPT;
        chess_position_make_move(&positions[i + 1], m);
    }
    return 0;
}

int store_game_fen(const struct store_game *g, int ply, char *fen) {
    if (ply < 0 || ply > g->ply_count) return -STORE_ERR_NOT_FOUND;
    struct chess_position start;
    struct chess_game game;
    if (start_position(g, &start) < 0) return -STORE_ERR_CORRUPT;
    if (chess_game_init(&game, &start) < 0) return -STORE_ERR_NO_MEMORY;
    int rc = replay(g, ply, &game);
    if (rc == 0 && chess_fen_write(&game.current, CHESS_FEN_XFEN, fen, STORE_FEN_MAX + 1) < 0)
        rc = -STORE_ERR_CORRUPT;
    chess_game_free(&game);
    return rc;
}

static void format_clock(int64_t ms, char *buf, size_t size) {
    int64_t s = (ms + 999) / 1000; /* rounded up, as clocks show it */
    snprintf(buf, size, "[%%clk %d:%02d:%02d]", (int)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
}

static const char *termination_tag(const char *termination) {
    if (strcmp(termination, "timeout") == 0 || strcmp(termination, "timeout_vs_insufficient") == 0)
        return "Time forfeit";
    if (strcmp(termination, "abandoned") == 0) return "Abandoned";
    if (strcmp(termination, "aborted") == 0 || !termination[0]) return "Unterminated";
    return "Normal";
}

static enum chess_result result_of(const char *text) {
    if (strcmp(text, "1-0") == 0) return CHESS_RESULT_WHITE_WINS;
    if (strcmp(text, "0-1") == 0) return CHESS_RESULT_BLACK_WINS;
    if (strcmp(text, "1/2-1/2") == 0) return CHESS_RESULT_DRAW;
    return CHESS_RESULT_NONE;
}

/* Event, date and time, time control, ratings... in the order lichess writes them. */
static int set_tags(struct chess_pgn *pgn, const struct store_game *g, const char *site) {
    char event[64], date[16], utc_time[16], tc[48], elo[2][16], diff[2][16];
    if (strcmp(g->status, "imported") == 0)
        snprintf(event, sizeof event, "Imported game");
    else if (g->arena_name[0]) /* a tournament's game: its name, as lichess writes it */
        snprintf(event, sizeof event, "%s", g->arena_name);
    else
        pgn_event_name(g->rated, g->category, event, sizeof event);
    time_t secs = (time_t)(g->created_at / 1000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    strftime(utc_time, sizeof utc_time, "%H:%M:%S", &tm);
    if (g->unlimited)
        snprintf(tc, sizeof tc, "-");
    else if (g->days > 0) /* lichess: one move per period, in seconds */
        snprintf(tc, sizeof tc, "1/%lld", (long long)g->days * 86400);
    else
        snprintf(tc, sizeof tc, "%lld+%lld", (long long)(g->initial_ms / 1000),
                 (long long)(g->increment_ms / 1000));
    const char *tags[][2] = {
        {"Event", event},      {"Site", site},        {"Date", date},    {"Round", "-"},
        {"White", g->name[0]}, {"Black", g->name[1]}, {"UTCDate", date}, {"UTCTime", utc_time},
    };
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
        if (chess_pgn_set_tag(pgn, tags[i][0], tags[i][1]) < 0) return -1;
    if ((g->bot[0] && chess_pgn_set_tag(pgn, "WhiteTitle", "BOT") < 0) ||
        (g->bot[1] && chess_pgn_set_tag(pgn, "BlackTitle", "BOT") < 0))
        return -1;
    if (g->has_ratings) {
        for (int c = 0; c < 2; c++) {
            snprintf(elo[c], sizeof elo[c], "%d", g->rating[c]);
            snprintf(diff[c], sizeof diff[c], "%+d", g->rating_diff[c]);
        }
        if (chess_pgn_set_tag(pgn, "WhiteElo", elo[0]) < 0 ||
            chess_pgn_set_tag(pgn, "BlackElo", elo[1]) < 0)
            return -1;
        if (strcmp(g->status, "ended") == 0 &&
            (chess_pgn_set_tag(pgn, "WhiteRatingDiff", diff[0]) < 0 ||
             chess_pgn_set_tag(pgn, "BlackRatingDiff", diff[1]) < 0))
            return -1;
    }
    if (strcmp(g->status, "imported") != 0 &&
        (chess_pgn_set_tag(pgn, "TimeControl", tc) < 0 ||
         chess_pgn_set_tag(pgn, "Termination", termination_tag(g->termination)) < 0))
        return -1;
    int variant = game_variant_parse(g->variant);
    const char *tag = variant > 0 ? game_variant_pgn_tag((enum game_variant)variant) : NULL;
    if (tag && chess_pgn_set_tag(pgn, "Variant", tag) < 0) return -1;
    return chess_pgn_set_tag(pgn, "GameId", g->id) < 0 ? -1 : 0;
}

/* [%eval 0.25], [%eval #-3]; "" for a final position, which has no evaluation. */
static void format_eval(const struct store_analysis_ply *p, char *buf, size_t size) {
    if (p->depth == 0)
        buf[0] = '\0';
    else if (judgement_is_mate(p->score))
        snprintf(buf, size, "[%%eval #%d]", judgement_mate_moves(p->score));
    else
        snprintf(buf, size, "[%%eval %.2f]", p->score / 100.0);
}

int store_analysis_line(const struct chess_position *from, const char *pv,
                        chess_move line[STORE_PV_MAX]) {
    struct chess_position pos = *from;
    char uci[CHESS_UCI_MAX + 1];
    int n = 0;
    for (const char *p = pv; *p && n < STORE_PV_MAX;) {
        size_t len = strcspn(p, " ");
        if (len == 0 || len >= sizeof uci) break;
        memcpy(uci, p, len);
        uci[len] = '\0';
        p += len + (p[len] == ' ');
        if (chess_move_from_uci(&pos, uci, &line[n]) < 0) break;
        chess_position_make_move(&pos, line[n++]);
    }
    return n;
}

static const char *verdict_text(enum judgement j) {
    switch (j) {
        case JUDGEMENT_INACCURACY: return "Inaccuracy.";
        case JUDGEMENT_MISTAKE: return "Mistake.";
        case JUDGEMENT_BLUNDER: return "Blunder.";
        case JUDGEMENT_NONE: break;
    }
    return "";
}

static const int VERDICT_NAG[] = {
    [JUDGEMENT_INACCURACY] = 6, [JUDGEMENT_MISTAKE] = 2, [JUDGEMENT_BLUNDER] = 4};

/* The comment and annotation of ply i + 1: its judgement, its evaluation, then its clock. */
static int annotate_ply(struct chess_pgn *pgn, const struct store_game *g,
                        const struct store_analysis *a, int i, enum judgement verdict) {
    char eval[32], clock[32] = "", better[CHESS_SAN_MAX] = "", comment[128];
    struct chess_position before;
    chess_move line[STORE_PV_MAX];
    int n = 0;
    format_eval(&a->plies[i + 1], eval, sizeof eval);
    if (!g->unlimited && g->days <= 0 && g->moves[i].timed)
        format_clock(g->moves[i].clock_ms, clock, sizeof clock);
    if (verdict != JUDGEMENT_NONE) {
        if (chess_game_position_at(&pgn->game, i, &before) < 0) return -1;
        n = store_analysis_line(&before, a->plies[i].pv, line);
        if (n > 0) chess_san_write(&before, line[0], better);
    }
    char best[CHESS_SAN_MAX + 16] = "";
    if (better[0]) snprintf(best, sizeof best, "%s was best.", better);
    comment[0] = '\0';
    const char *words[] = {verdict_text(verdict), best, eval, clock};
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        size_t len = strlen(comment);
        if (words[w][0])
            snprintf(comment + len, sizeof comment - len, "%s%s", len ? " " : "", words[w]);
    }
    if (comment[0] && chess_pgn_set_comment(pgn, i + 1, comment) < 0) return -1;
    if (verdict == JUDGEMENT_NONE) return 0;
    return chess_pgn_annotate(pgn, i + 1, VERDICT_NAG[verdict], line, n) < 0 ? -1 : 0;
}

/* Every move's comment from a complete analysis. */
static int annotate(struct chess_pgn *pgn, const struct store_game *g,
                    const struct store_analysis *a) {
    int moves = g->ply_count;
    int *scores = malloc(sizeof *scores * (size_t)(moves + 1));
    enum judgement *verdicts = malloc(sizeof *verdicts * (size_t)(moves + 1));
    int rc = scores && verdicts ? 0 : -1;
    for (int i = 0; rc == 0 && i <= moves; i++) scores[i] = a->plies[i].score;
    struct judgement_side sides[2];
    if (rc == 0)
        judgement_game(scores, moves, pgn->game.start.side == CHESS_WHITE, verdicts, sides);
    for (int i = 0; rc == 0 && i < moves; i++) rc = annotate_ply(pgn, g, a, i, verdicts[i]);
    free(scores);
    free(verdicts);
    return rc;
}

/* Whether the analysis is complete and is this game's: one row per position, in order. */
static bool analysis_complete(const struct store_game *g, const struct store_analysis *a) {
    if (!a || a->done_at == 0 || a->count != g->ply_count + 1) return false;
    for (int i = 0; i < a->count; i++)
        if (a->plies[i].ply != i) return false;
    return true;
}

long store_game_pgn(const struct store_game *g, const char *site, const struct opening *opening,
                    char **out) {
    return store_game_pgn_analysed(g, NULL, site, opening, out);
}

long store_game_pgn_analysed(const struct store_game *g, const struct store_analysis *a,
                             const char *site, const struct opening *opening, char **out) {
    struct chess_position start;
    if (start_position(g, &start) < 0) return -STORE_ERR_CORRUPT;
    struct chess_pgn pgn;
    if (chess_pgn_init(&pgn, &start) < 0) return -STORE_ERR_NO_MEMORY;
    long rc = replay(g, g->ply_count, &pgn.game);
    if (rc < 0) goto done;
    rc = -STORE_ERR_NO_MEMORY;
    if (set_tags(&pgn, g, site) < 0 || (opening && openings_set_pgn_tags(&pgn, opening) < 0))
        goto done;
    char clock[32];
    if (analysis_complete(g, a)) {
        if (annotate(&pgn, g, a) < 0) goto done;
    } else {
        for (int i = 0; !g->unlimited && g->days <= 0 && i < g->ply_count; i++) {
            if (!g->moves[i].timed) continue;
            format_clock(g->moves[i].clock_ms, clock, sizeof clock);
            if (chess_pgn_set_comment(&pgn, i + 1, clock) < 0) goto done;
        }
    }
    /* The stored result (resignations, timeouts, agreements are not in the moves); "*" while
     * live or aborted. */
    pgn.result = result_of(g->result);
    if (pgn.result == CHESS_RESULT_NONE) pgn.game.result = CHESS_RESULT_NONE;
    rc = chess_pgn_write(&pgn, out);
    if (rc < 0) rc = -STORE_ERR_NO_MEMORY;
done:
    chess_pgn_free(&pgn);
    return rc;
}

/* A player's name from an imported game's tag ("?" when none), as its PGN export writes it:
 * control characters become spaces, and a name longer than the store keeps is cut between
 * characters, never inside one (a name that is not valid UTF-8 could not be sent in JSON). */
static void import_name(char *out, size_t size, const char *tag) {
    /* Bytes that are not UTF-8 may all be cut (only from a PGN not read from JSON). */
    if (str_copy(out, size, tag ? tag : "") == 0) str_copy(out, size, "?");
    for (char *p = out; *p; p++) {
        if ((unsigned char)*p < 0x20) *p = ' ';
    }
}

/* The variant key an imported game is stored under: its Variant tag's, read by the engine into
 * the start position ("" for standard chess, from whatever position). */
static void import_variant(const struct chess_position *start, char *out, size_t size) {
    enum game_variant v = GAME_VARIANT_STANDARD;
    if (start->chess960)
        v = GAME_VARIANT_CHESS960;
    else if (start->variant == CHESS_VARIANT_THREE_CHECK)
        v = GAME_VARIANT_THREE_CHECK;
    else if (start->variant == CHESS_VARIANT_KING_OF_THE_HILL)
        v = GAME_VARIANT_KING_OF_THE_HILL;
    snprintf(out, size, "%s", v == GAME_VARIANT_STANDARD ? "" : game_variant_key(v));
}

int store_import_pgn(const char *text, size_t len, const char *id, int64_t now_wall_ms,
                     struct store_op *op, char *err, size_t errlen) {
    struct chess_pgn pgn;
    size_t consumed = 0;
    int rc = chess_pgn_read(text, len, &consumed, &pgn);
    if (rc < 0) {
        snprintf(err, errlen, "%s near byte %zu", chess_error_name(-rc), consumed);
        return -1;
    }
    memset(op, 0, sizeof *op);
    op->type = STORE_OP_IMPORT;
    snprintf(op->game_id, sizeof op->game_id, "%s", id);
    const char *white = chess_pgn_tag(&pgn, "White"), *black = chess_pgn_tag(&pgn, "Black");
    import_name(op->u.import.white, sizeof op->u.import.white, white);
    import_name(op->u.import.black, sizeof op->u.import.black, black);
    enum chess_result r = pgn.result != CHESS_RESULT_NONE ? pgn.result : pgn.game.result;
    snprintf(op->u.import.result, sizeof op->u.import.result, "%s", chess_result_name(r));
    struct chess_position standard; /* the usual array under the game's rules */
    chess_position_startpos(&standard);
    if ((chess_position_set_variant(&standard, pgn.game.start.variant) < 0 ||
         pgn.game.start.key != standard.key) &&
        chess_fen_write(&pgn.game.start, CHESS_FEN_XFEN, op->u.import.initial_fen,
                        sizeof op->u.import.initial_fen) < 0)
        op->u.import.initial_fen[0] = '\0';
    import_variant(&pgn.game.start, op->u.import.variant, sizeof op->u.import.variant);
    op->u.import.at = now_wall_ms;
    int n = pgn.game.ply_count;
    op->u.import.moves = calloc((size_t)n + 1, sizeof *op->u.import.moves);
    op->u.import.pgn = malloc(consumed + 1);
    if (!op->u.import.moves || !op->u.import.pgn) {
        free(op->u.import.moves);
        free(op->u.import.pgn);
        chess_pgn_free(&pgn);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(op->u.import.pgn, text, consumed);
    op->u.import.pgn[consumed] = '\0';
    struct chess_position pos = pgn.game.start;
    for (int i = 0; i < n; i++) {
        struct store_move_row *m = &op->u.import.moves[i];
        chess_move mv = pgn.game.moves[i];
        m->ply = i + 1;
        m->played_at = now_wall_ms;
        chess_move_to_uci(&pos, mv, m->uci);
        chess_san_write(&pos, mv, m->san);
        chess_position_make_move(&pos, mv);
    }
    op->u.import.count = n;
    chess_pgn_free(&pgn);
    return 0;
}
