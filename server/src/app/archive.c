/*
 * Archive requests: each is a struct archive_read handed to the store's reader threads
 * (reads.h); the reader runs the queries (and builds PGN and FEN text, which needs no loop
 * data), the answer on the loop encodes JSON (profiles show the in-memory player's state) and
 * replies over WebSocket or HTTP. The JSON of a stored game is the same over WebSocket
 * (game_record) and HTTP (/api/games/<id>).
 *
 * A player's games as one PGN file are streamed: the reader builds EXPORT_BATCH games at a
 * time, the HTTP side writes them and asks for the next batch once they are out, so neither the
 * loop nor a reader holds more than one batch whatever the number of games.
 */
#include "app/archive.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/auth.h"
#include "app/bots.h"
#include "app/internal.h"
#include "app/lichess.h"
#include "app/opening.h"
#include "app/persist.h"
#include "app/reads.h"
#include "app/review.h"
#include "proto/encode.h"
#include "store/archive.h"
#include "store/read.h"
#include "util/ids.h"
#include "util/log.h"
#include "util/now.h"

/* Games per batch of a player's PGN file (a few hundred KB at most). */
#define EXPORT_BATCH 100
/* Fresh ids tried for an imported game (checked against the world, then the database). */
#define IMPORT_CANDIDATES 4

/* Sets key to value (stolen); NULL values (out of memory) are skipped. */
static void put(json_t *obj, const char *key, json_t *value) {
    if (obj && value) json_object_set_new(obj, key, value);
}

/* ---- players ---- */

/* The ratings as they stand at now_ms (wall clock): deviations grown since each last game. */
static json_t *ratings_json(const struct rating stored[RATING_CATEGORY_COUNT], int64_t now_ms) {
    json_t *obj = json_object();
    for (int c = 0; obj && c < RATING_CATEGORY_COUNT; c++) {
        struct rating r = rating_at(&stored[c], now_ms);
        put(obj, rating_category_name(c),
            json_pack("{s:I,s:I,s:i,s:b}", "rating", (json_int_t)lround(r.rating), "deviation",
                      (json_int_t)lround(r.deviation), "games", r.games, "provisional",
                      rating_provisional(&r)));
    }
    return obj;
}

/* A profile: the stored identity, with the in-memory player's current state when it has one. */
static json_t *profile_json(struct server *srv, const struct store_identity *id) {
    const struct player *pl = world_player_by_id(srv->world, id->player_id);
    json_t *obj = json_pack("{s:s,s:s,s:b,s:b,s:b,s:I}", "id", id->player_id, "name",
                            pl ? pl->name : id->name, "registered",
                            pl ? pl->registered : id->username[0] != '\0', "bot", id->bot, "online",
                            pl && pl->online > 0, "created_at", (json_int_t)id->created_at);
    put(obj, "username", id->username[0] ? json_string(id->username) : json_null());
    put(obj, "ratings", ratings_json(pl ? pl->ratings : id->ratings, now_wall_ms()));
    return obj;
}

/* {"blitz": [[at, rating], ...], ...}: the rating after each rated game, oldest first, for the
 * categories with games. */
static json_t *rating_history_json(const struct store_rating_point *points, int count) {
    json_t *obj = json_object();
    for (int i = 0; obj && i < count; i++) {
        const char *name = rating_category_name(points[i].category);
        json_t *list = json_object_get(obj, name);
        if (!list) {
            list = json_array();
            put(obj, name, list);
        }
        json_array_append_new(list, json_pack("[I,i]", (json_int_t)points[i].at, points[i].rating));
    }
    return obj;
}

/* ---- games ---- */

static json_t *time_json(const struct store_game *g) {
    if (g->unlimited) return json_string("unlimited");
    if (g->days > 0) return json_pack("{s:i}", "days", g->days);
    json_t *obj = json_object();
    if (g->initial_ms % 60000 == 0)
        put(obj, "minutes", json_integer(g->initial_ms / 60000));
    else
        put(obj, "minutes", json_real((double)g->initial_ms / 60000.0));
    put(obj, "increment", json_integer(g->increment_ms / 1000));
    return obj;
}

static json_t *side_json(const struct store_game *g, int c) {
    json_t *obj = json_object();
    put(obj, "id", g->player_id[c][0] ? json_string(g->player_id[c]) : json_null());
    put(obj, "name", json_string(g->name[c]));
    if (g->bot[c]) put(obj, "bot", json_true());
    if (g->has_ratings) {
        put(obj, "rating", json_integer(g->rating[c]));
        if (strcmp(g->status, "ended") == 0)
            put(obj, "rating_diff", json_integer(g->rating_diff[c]));
    }
    return obj;
}

/* A stored game without its moves (lists), or with them (one game); its opening when it has
 * one (NULL: none). */
static json_t *game_json(const struct store_game *g, bool with_moves,
                         const struct opening *opening) {
    json_t *obj = json_object();
    put(obj, "id", json_string(g->id));
    put(obj, "status", json_string(g->status));
    put(obj, "white", side_json(g, 0));
    put(obj, "black", side_json(g, 1));
    put(obj, "time", time_json(g));
    put(obj, "rated", json_boolean(g->rated));
    struct game_start start;
    if (game_start_restore(g->variant, g->initial_fen, &start) == 0) {
        put(obj, "variant", json_string(game_variant_key(start.variant)));
        if (start.variant == GAME_VARIANT_CHESS960)
            put(obj, "position", json_integer(start.chess960));
    }
    const char *category = rating_category_name(g->category);
    put(obj, "category", category ? json_string(category) : json_null());
    bool over = g->result[0] && strcmp(g->status, "live") != 0;
    put(obj, "result", over ? json_string(g->result) : json_null());
    put(obj, "reason",
        over && strcmp(g->termination, "none") != 0 ? json_string(g->termination) : json_null());
    put(obj, "winner",
        strcmp(g->result, "1-0") == 0   ? json_string("white")
        : strcmp(g->result, "0-1") == 0 ? json_string("black")
                                        : json_null());
    put(obj, "ply", json_integer(g->ply_count));
    put(obj, "created_at", json_integer(g->created_at));
    put(obj, "ended_at", g->ended_at ? json_integer(g->ended_at) : json_null());
    if (opening) put(obj, "opening", proto_encode_opening_object(opening));
    if (g->arena_id[0])
        put(obj, "arena", json_pack("{s:s,s:s}", "id", g->arena_id, "name", g->arena_name));
    if (!with_moves) return obj;
    char fen[STORE_FEN_MAX + 1];
    if (store_game_fen(g, 0, fen) == 0) put(obj, "initial_fen", json_string(fen));
    if (store_game_fen(g, g->ply_count, fen) == 0) put(obj, "fen", json_string(fen));
    json_t *uci = json_array(), *san = json_array(), *clocks = json_array();
    for (int i = 0; i < g->ply_count; i++) {
        const struct store_move_row *m = &g->moves[i];
        json_array_append_new(uci, json_string(m->uci));
        json_array_append_new(san, json_string(m->san));
        json_array_append_new(clocks, m->timed ? json_integer(m->clock_ms) : json_null());
    }
    put(obj, "moves", uci);
    put(obj, "san", san);
    put(obj, "clocks", clocks);
    return obj;
}

static int status_error(int status, int not_found) {
    return status == -STORE_ERR_NOT_FOUND ? not_found : -PROTO_ERR_STORE_UNAVAILABLE;
}

/* ---- requests ---- */

enum archive_kind {
    ARCHIVE_PLAYER,      /* a profile, by id or username */
    ARCHIVE_GAMES,       /* a player (who must exist) and a page of their games */
    ARCHIVE_GAME,        /* a stored game: JSON, PGN or the FEN at a ply */
    ARCHIVE_LEADERBOARD, /* the best ratings of a category */
    ARCHIVE_IMPORT,      /* which candidate ids for an imported game are free */
    ARCHIVE_EXPORT,      /* the next batch of a player's (or an arena's) games as PGN */
    ARCHIVE_BOTS,        /* the bots an account owns (bots_list) */
};

enum archive_format { FORMAT_JSON, FORMAT_PGN, FORMAT_FEN };

struct archive_read {
    struct db_read base; /* first */
    enum archive_kind kind;
    enum archive_format format;
    /* What is asked. */
    char player_id[STORE_ID_MAX + 1]; /* or "" with a username */
    char username[STORE_USERNAME_MAX + 1];
    char game_id[STORE_ID_MAX + 1];
    char arena_id[STORE_ID_MAX + 1]; /* export: an arena's games instead of a player's */
    int page, limit, category;
    int64_t now_ms; /* leaderboard: the wall clock when asked (ratings as they stand then) */
    long ply;
    char site[300];
    char candidates[IMPORT_CANDIDATES][GAME_ID_LEN + 1];
    struct store_op import; /* the parsed game, waiting for its id (owns its buffers) */
    bool have_import;
    struct store_game_cursor cursor; /* export: after this game */
    bool started;                    /* export: the first batch is out */
    long max;                        /* export: at most this many games (0: all) */
    bool with_opening; /* export as NDJSON: each game's "opening" (lichess's opening=true) */
    const struct openings *openings; /* the server's opening names (immutable), or NULL */
    long exported;                   /* export: games so far */
    /* What the reader found. */
    struct store_identity identity;
    struct store_game game;
    struct store_analysis analysis; /* the game's computer analysis, when has_analysis */
    bool has_analysis;
    /* An ended game still in memory: its state (GameFull) or PGN as the world has it, sent
     * with the analysis read from the database. */
    json_t *memory_json;
    char *memory_pgn;
    size_t memory_pgn_len;
    struct store_game *games; /* limit entries (calloc'd by the loop) */
    struct opening opening;   /* game: its opening, when has_opening */
    bool has_opening;
    struct opening *game_openings; /* games: each one's (name NULL: none); limit entries */
    int count;
    bool more;
    struct store_leader *leaders;       /* limit entries */
    struct store_rating_point *history; /* a profile's: STORE_RATING_HISTORY_MAX entries, or NULL */
    int history_count;
    struct store_bot *bots; /* BOTS_PER_ACCOUNT entries */
    char *text;             /* PGN (malloc'd) */
    size_t len;
    bool last; /* export: no more batches */
    char fen[STORE_FEN_MAX + 1];
    int free_candidate; /* import: index of a free id, or -1 */
};

static void archive_release(struct db_read *rd) {
    struct archive_read *a = (struct archive_read *)(void *)rd;
    store_game_free(&a->game);
    store_analysis_free(&a->analysis);
    json_decref(a->memory_json);
    free(a->memory_pgn);
    free(a->games);
    free(a->game_openings);
    free(a->leaders);
    free(a->history);
    free(a->bots);
    free(a->text);
    if (a->have_import) store_op_release(&a->import);
}

static struct archive_read *archive_read_new(enum archive_kind kind, const json_t *id) {
    struct archive_read *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->kind = kind;
    a->base.req_id = id ? json_deep_copy(id) : NULL;
    a->base.release = archive_release;
    return a;
}

/* ---- on a reader thread ---- */

static void run_player(struct store_reader *r, struct archive_read *a) {
    a->base.status = a->player_id[0] ? store_find_player(r, a->player_id, &a->identity)
                                     : store_find_username(r, a->username, &a->identity);
    if (a->base.status == 0 && a->history)
        a->base.status = store_rating_history(r, a->identity.player_id, STORE_RATING_HISTORY_MAX,
                                              a->history, &a->history_count);
}

/* One game as lichess's NDJSON export has it (a line), with its opening or without (NULL).
 * Returns its length, or -1. */
static long game_ndjson(const struct store_game *g, const struct opening *opening, char **out) {
    json_t *obj = lichess_stored_game(g);
    if (obj && opening) put(obj, "opening", proto_encode_opening_object(opening));
    *out = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
    json_decref(obj);
    if (!*out) return -1;
    size_t n = strlen(*out);
    (*out)[n] = '\n'; /* the NUL becomes the line's end (no blank line follows) */
    return (long)n;
}

static int append_game(void *ctx, const struct store_game *g) {
    struct archive_read *a = ctx;
    a->count++;
    a->cursor.created_at = g->created_at;
    snprintf(a->cursor.id, sizeof a->cursor.id, "%s", g->id);
    if (a->max && a->exported >= a->max) return 1; /* enough: the export ends */
    a->exported++;
    char *one = NULL;
    struct opening opening;
    const struct opening *named = opening_of_stored(a->openings, g, &opening) ? &opening : NULL;
    long n = a->format == FORMAT_JSON ? game_ndjson(g, a->with_opening ? named : NULL, &one)
                                      : store_game_pgn(g, a->site, named, &one);
    if (n < 0) return 0;               /* a game that does not replay is left out */
    if (a->format == FORMAT_JSON) n++; /* its newline; no blank line between lines */
    char *grown = realloc(a->text, a->len + (size_t)n + 2);
    if (!grown) {
        free(one);
        return -STORE_ERR_NO_MEMORY;
    }
    a->text = grown;
    memcpy(a->text + a->len, one, (size_t)n);
    a->len += (size_t)n;
    if (a->format != FORMAT_JSON) a->text[a->len++] = '\n'; /* PGN games: a blank line */
    a->text[a->len] = '\0';
    free(one);
    return 0;
}

static void run_export(struct store_reader *r, struct archive_read *a) {
    free(a->text);
    a->text = NULL;
    a->len = 0;
    a->count = 0;
    const struct store_game_cursor *after = a->started ? &a->cursor : NULL;
    if (a->arena_id[0]) {
        int rc = store_each_arena_game(r, a->arena_id, after, EXPORT_BATCH, append_game, a);
        a->base.status = rc < 0 ? rc : 0;
        a->last = rc > 0 || a->count < EXPORT_BATCH;
        return;
    }
    if (!a->started) {
        a->base.status = a->player_id[0] ? store_find_player(r, a->player_id, &a->identity)
                                         : store_find_username(r, a->username, &a->identity);
        if (a->base.status < 0) return;
        snprintf(a->player_id, sizeof a->player_id, "%s", a->identity.player_id);
    }
    int rc = store_each_player_game(r, a->player_id, after, EXPORT_BATCH, append_game, a);
    a->base.status = rc < 0 ? rc : 0;
    a->last = rc > 0 || a->count < EXPORT_BATCH;
}

static void run_game(struct store_reader *r, struct archive_read *a) {
    /* A game still in memory is answered as the world has it: the database only adds its
     * analysis, and without one there is nothing to read or write here. */
    bool in_memory = a->memory_json || a->memory_pgn;
    if (in_memory && store_read_analysis(r, a->game_id, &a->analysis) < 0) {
        a->base.status = -STORE_ERR_NOT_FOUND;
        return;
    }
    a->base.status = store_read_game(r, a->game_id, &a->game);
    if (a->base.status < 0) return;
    /* Without its analysis (a failed read) the game is still worth sending. */
    if (in_memory)
        a->has_analysis = true;
    else if (a->format != FORMAT_FEN)
        a->has_analysis = store_read_analysis(r, a->game_id, &a->analysis) == 0;
    a->has_opening = opening_of_stored(a->openings, &a->game, &a->opening);
    if (a->format == FORMAT_PGN) {
        long n = store_game_pgn_analysed(&a->game, a->has_analysis ? &a->analysis : NULL, a->site,
                                         a->has_opening ? &a->opening : NULL, &a->text);
        if (n < 0)
            a->base.status = (int)n;
        else
            a->len = (size_t)n;
    } else if (a->format == FORMAT_FEN) {
        a->base.status = a->ply >= 0 && a->ply <= CHESS_GAME_MAX_PLIES
                             ? store_game_fen(&a->game, (int)a->ply, a->fen)
                             : -STORE_ERR_NOT_FOUND;
    }
}

/* The openings of a page of games (listed without their moves): each game's moves are read for
 * it. A game that cannot be read is listed without one. */
static void games_openings(struct store_reader *r, struct archive_read *a) {
    if (!a->openings || !a->count) return;
    a->game_openings = calloc((size_t)a->count, sizeof *a->game_openings);
    for (int i = 0; a->game_openings && i < a->count; i++) {
        struct store_game full;
        if (a->games[i].initial_fen[0] || store_read_game(r, a->games[i].id, &full) < 0) continue;
        if (!opening_of_stored(a->openings, &full, &a->game_openings[i]))
            a->game_openings[i].name = NULL;
        store_game_free(&full);
    }
}

static void archive_run(struct store_reader *r, struct db_read *rd) {
    struct archive_read *a = (struct archive_read *)(void *)rd;
    switch (a->kind) {
        case ARCHIVE_PLAYER: run_player(r, a); return;
        case ARCHIVE_GAMES:
            rd->status = store_find_player(r, a->player_id, &a->identity);
            if (rd->status == 0)
                rd->status = store_player_games(r, a->player_id, a->page, a->limit, a->games,
                                                &a->count, &a->more);
            if (rd->status == 0) games_openings(r, a);
            return;
        case ARCHIVE_GAME: run_game(r, a); return;
        case ARCHIVE_LEADERBOARD:
            rd->status =
                store_leaderboard(r, a->category, a->limit, a->now_ms, a->leaders, &a->count);
            return;
        case ARCHIVE_BOTS:
            rd->status = store_owned_bots(r, a->player_id, BOTS_PER_ACCOUNT, a->bots, &a->count);
            return;
        case ARCHIVE_IMPORT:
            a->free_candidate = -1;
            for (int i = 0; i < IMPORT_CANDIDATES && a->free_candidate < 0; i++) {
                struct store_game g;
                int rc = store_read_game(r, a->candidates[i], &g);
                if (rc == 0) store_game_free(&g);
                if (rc == -STORE_ERR_NOT_FOUND) a->free_candidate = i;
                if (rc < 0 && rc != -STORE_ERR_NOT_FOUND) {
                    rd->status = rc;
                    return;
                }
            }
            rd->status = a->free_candidate >= 0 ? 0 : -STORE_ERR_CONFLICT;
            return;
        case ARCHIVE_EXPORT: run_export(r, a); return;
    }
}

/* ---- answers on the loop ---- */

/* A stored game with its moves, and its computer analysis when it has one. */
static json_t *game_with_analysis(const struct archive_read *a) {
    json_t *game = game_json(&a->game, true, a->has_opening ? &a->opening : NULL);
    if (game && a->has_analysis) {
        json_t *analysis = review_analysis_json(&a->game, &a->analysis);
        if (analysis) json_object_set_new(game, "analysis", analysis);
    }
    return game;
}

static json_t *games_page_json(const struct archive_read *a) {
    json_t *list = json_array();
    for (int i = 0; i < a->count; i++) {
        const struct opening *o =
            a->game_openings && a->game_openings[i].name ? &a->game_openings[i] : NULL;
        json_array_append_new(list, game_json(&a->games[i], false, o));
    }
    return json_pack("{s:s,s:i,s:i,s:b,s:o}", "player", a->player_id, "page", a->page, "limit",
                     a->limit, "more", a->more, "games", list);
}

static json_t *leaderboard_json(const struct archive_read *a) {
    json_t *list = json_array();
    for (int i = 0; i < a->count; i++) {
        const struct store_leader *l = &a->leaders[i];
        struct rating r = rating_at(&l->rating, a->now_ms); /* as the board was drawn */
        json_t *row = json_pack("{s:i,s:s,s:s,s:I,s:I,s:i}", "rank", i + 1, "id", l->player_id,
                                "name", l->name, "rating", (json_int_t)lround(r.rating),
                                "deviation", (json_int_t)lround(r.deviation), "games", r.games);
        if (row && l->bot) json_object_set_new(row, "bot", json_true());
        json_array_append_new(list, row);
    }
    return json_pack("{s:s,s:o}", "category", rating_category_name(a->category), "players", list);
}

static json_t *bots_json(const struct archive_read *a) {
    json_t *list = json_array();
    for (int i = 0; i < a->count; i++) {
        const struct store_bot *b = &a->bots[i];
        json_array_append_new(list, json_pack("{s:s,s:s,s:b,s:I,s:i}", "id", b->player_id, "name",
                                              b->name, "bot", 1, "created_at",
                                              (json_int_t)b->created_at, "tokens", b->tokens));
    }
    return json_pack("{s:o}", "bots", list);
}

/* The reply's body, or NULL with *code set (an error code for the client). */
static json_t *answer_json(struct server *srv, struct archive_read *a, int *code) {
    int status = a->base.status;
    switch (a->kind) {
        case ARCHIVE_PLAYER:
        case ARCHIVE_GAMES:
            if (status < 0) {
                *code = status_error(status, -PROTO_ERR_PLAYER_NOT_FOUND);
                return NULL;
            }
            if (a->kind == ARCHIVE_GAMES) return games_page_json(a);
            json_t *profile = profile_json(srv, &a->identity);
            if (profile && a->history)
                put(profile, "rating_history", rating_history_json(a->history, a->history_count));
            return profile;
        case ARCHIVE_GAME:
            if (status < 0) {
                *code = status_error(status, -CORE_ERR_GAME_NOT_FOUND);
                return NULL;
            }
            return game_with_analysis(a);
        case ARCHIVE_LEADERBOARD:
        case ARCHIVE_BOTS:
            if (status < 0) {
                *code = -PROTO_ERR_STORE_UNAVAILABLE;
                return NULL;
            }
            return a->kind == ARCHIVE_LEADERBOARD ? leaderboard_json(a) : bots_json(a);
        default: *code = -PROTO_ERR_INTERNAL; return NULL;
    }
}

static void send_reply(struct conn *c, json_t *msg, const json_t *id) {
    if (!msg) {
        conn_send_error(c, -PROTO_ERR_INTERNAL, id, NULL);
        return;
    }
    proto_set_id(msg, id);
    conn_send_json(c, msg);
}

/* pgn_import: a free id was found; the import is queued and the reply waits for its commit. */
static void answer_import(struct archive_read *a, struct conn *c) {
    struct store *store = persist_store(c->srv);
    int i = a->free_candidate;
    if (a->base.status < 0 || !store || world_game(c->srv->world, a->candidates[i])) {
        conn_send_error(c, -PROTO_ERR_STORE_UNAVAILABLE, a->base.req_id, NULL);
        return;
    }
    snprintf(a->import.game_id, sizeof a->import.game_id, "%s", a->candidates[i]);
    a->have_import = false; /* the store owns its buffers from here */
    if (store_submit(store, &a->import) == 0) {
        conn_send_error(c, -PROTO_ERR_STORE_UNAVAILABLE, a->base.req_id, NULL);
        return;
    }
    /* Held until the import is committed, like every message (persist.c). */
    send_reply(c, json_pack("{s:s,s:s}", "type", "imported", "game", a->candidates[i]),
               a->base.req_id);
}

static const char *const reply_types[] = {
    [ARCHIVE_PLAYER] = "player",    [ARCHIVE_GAMES] = "games",
    [ARCHIVE_GAME] = "game_record", [ARCHIVE_LEADERBOARD] = "leaderboard",
    [ARCHIVE_BOTS] = "bots",
};

static void answer_ws(struct server *srv, struct archive_read *a, struct conn *c) {
    if (a->kind == ARCHIVE_IMPORT) {
        answer_import(a, c);
        return;
    }
    int code = -PROTO_ERR_INTERNAL;
    json_t *body = answer_json(srv, a, &code);
    if (!body) {
        conn_send_error(c, code, a->base.req_id, NULL);
        return;
    }
    json_t *msg;
    if (a->kind == ARCHIVE_PLAYER || a->kind == ARCHIVE_GAME) {
        msg = json_pack("{s:s,s:o}", "type", reply_types[a->kind],
                        a->kind == ARCHIVE_PLAYER ? "player" : "game", body);
    } else {
        msg = body;
        json_object_set_new(msg, "type", json_string(reply_types[a->kind]));
    }
    send_reply(c, msg, a->base.req_id);
}

static int http_error(struct net_http *req, int code) {
    unsigned status = code == -PROTO_ERR_STORE_UNAVAILABLE ? 503 : 404;
    return api_send_json(req, status, proto_encode_error(code, NULL));
}

static int http_not_found(struct net_http *req, const char *message) {
    return api_send_json(req, 404, json_pack("{s:s,s:s}", "code", "NOT_FOUND", "message", message));
}

/* The first or a later batch of a player's games as PGN. Returns true when a is kept for the
 * next batch. */
static bool answer_export(struct archive_read *a, struct api_call *call) {
    struct net_http *req = call->req;
    char *text = a->text ? a->text : strdup("");
    size_t len = a->len;
    a->text = NULL;
    a->len = 0;
    if (!a->started) {
        if (a->base.status < 0) {
            free(text);
            if (http_error(req, status_error(a->base.status, -PROTO_ERR_PLAYER_NOT_FOUND)))
                net_http_abort(req);
            return false;
        }
        a->started = true;
        call->stream = a->last ? NULL : &a->base;
        const char *type =
            a->format == FORMAT_JSON ? "application/x-ndjson" : "application/x-chess-pgn";
        if (net_http_stream_start(req, type, text, len, !a->last) < 0) {
            call->stream = NULL;
            net_http_abort(req);
            return false;
        }
        return !a->last;
    }
    if (a->base.status < 0) {
        /* The file ends early; the connection closes after what was sent. */
        LOGW("archive", "player=%s arena=%s: export cut short (%s)", a->player_id, a->arena_id,
             store_status_name(a->base.status));
        free(text);
        net_http_stream_more(req, NULL, 0, true);
        return false;
    }
    call->stream = a->last ? NULL : &a->base;
    net_http_stream_more(req, text, len, a->last);
    return !a->last;
}

/* An ended game in memory: as the world has it, with its analysis when there is one (then the
 * PGN is the stored game's, annotated). */
static int answer_memory_game(struct archive_read *a, struct net_http *req) {
    if (a->memory_json) {
        json_t *body = a->memory_json;
        a->memory_json = NULL;
        if (a->base.status == 0 && a->has_analysis) {
            json_t *analysis = review_analysis_json(&a->game, &a->analysis);
            if (analysis) json_object_set_new(body, "analysis", analysis);
        }
        return api_send_json(req, 200, body);
    }
    int rc;
    if (a->base.status == 0 && a->has_analysis && a->text) {
        rc = net_http_respond(req, 200, "application/x-chess-pgn", a->text, a->len);
        a->text = NULL;
    } else {
        rc =
            net_http_respond(req, 200, "application/x-chess-pgn", a->memory_pgn, a->memory_pgn_len);
        a->memory_pgn = NULL;
    }
    return rc;
}

static void answer_http(struct server *srv, struct archive_read *a, struct api_call *call) {
    struct net_http *req = call->req;
    int rc;
    if (a->memory_json || a->memory_pgn) {
        rc = answer_memory_game(a, req);
    } else if (a->kind == ARCHIVE_GAME && a->format != FORMAT_JSON) {
        if (a->base.status == -STORE_ERR_NOT_FOUND && a->format == FORMAT_FEN &&
            a->game.moves) /* the game exists: the ply does not */
            rc = http_not_found(req, "no such ply in this game");
        else if (a->base.status < 0)
            rc = http_error(req, status_error(a->base.status, -CORE_ERR_GAME_NOT_FOUND));
        else if (a->format == FORMAT_PGN) {
            rc = net_http_respond(req, 200, "application/x-chess-pgn", a->text, a->len);
            a->text = NULL;
        } else
            rc = api_send_json(
                req, 200,
                json_pack("{s:s,s:i,s:s}", "game", a->game_id, "ply", (int)a->ply, "fen", a->fen));
    } else if (a->kind == ARCHIVE_LEADERBOARD && a->base.status == -STORE_ERR_NOT_FOUND) {
        rc = http_not_found(req, "categories: bullet, blitz, rapid, classical");
    } else {
        int code = -PROTO_ERR_INTERNAL;
        json_t *body = answer_json(srv, a, &code);
        rc = body ? api_send_json(req, 200, body) : http_error(req, code);
    }
    if (rc < 0) net_http_abort(req);
}

static bool archive_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    struct archive_read *a = (struct archive_read *)(void *)rd;
    if (c) answer_ws(rd->srv, a, c);
    if (call && a->kind == ARCHIVE_EXPORT) return answer_export(a, call);
    if (call) answer_http(rd->srv, a, call);
    return false;
}

static int submit_ws(struct conn *c, struct archive_read *a) {
    a->openings = c->srv->cfg.world.openings;
    a->base.run = archive_run;
    a->base.answer = archive_answer;
    return reads_submit_conn(c, &a->base);
}

/* Returns what the HTTP callback returns. */
static int submit_http(struct server *srv, struct net_http *req, struct archive_read *a) {
    a->openings = srv->cfg.world.openings;
    a->base.run = archive_run;
    a->base.answer = archive_answer;
    int rc = reads_submit_http(srv, req, &a->base);
    return rc < 0 ? http_error(req, rc) : 0;
}

/* ---- WebSocket ---- */

static int handle_player(struct conn *c, const struct proto_request *req) {
    if (!req->player && !req->username) return -PROTO_ERR_BAD_FIELD;
    char lower[STORE_USERNAME_MAX + 1] = "";
    if (!req->player && auth_username_check(req->username, lower) < 0)
        return -PROTO_ERR_PLAYER_NOT_FOUND;
    struct archive_read *a = archive_read_new(ARCHIVE_PLAYER, req->id);
    if (!a) return -PROTO_ERR_INTERNAL;
    a->history = calloc(STORE_RATING_HISTORY_MAX, sizeof *a->history);
    if (!a->history) {
        reads_discard(&a->base);
        return -PROTO_ERR_INTERNAL;
    }
    snprintf(a->player_id, sizeof a->player_id, "%s", req->player ? req->player : "");
    snprintf(a->username, sizeof a->username, "%s", lower);
    return submit_ws(c, a);
}

static struct archive_read *games_read(const json_t *id, const char *player_id, int page,
                                       int limit) {
    struct archive_read *a = archive_read_new(ARCHIVE_GAMES, id);
    if (!a) return NULL;
    snprintf(a->player_id, sizeof a->player_id, "%s", player_id);
    a->page = page;
    a->limit = limit;
    a->games = calloc((size_t)limit, sizeof *a->games);
    if (!a->games) {
        reads_discard(&a->base);
        return NULL;
    }
    return a;
}

static struct archive_read *leaderboard_read(const json_t *id, int category, int limit) {
    struct archive_read *a = archive_read_new(ARCHIVE_LEADERBOARD, id);
    if (!a) return NULL;
    a->category = category;
    a->limit = limit;
    a->now_ms = now_wall_ms();
    a->leaders = calloc((size_t)limit, sizeof *a->leaders);
    if (!a->leaders) {
        reads_discard(&a->base);
        return NULL;
    }
    return a;
}

static int handle_import(struct conn *c, const struct proto_request *req) {
    char err[160];
    struct archive_read *a = archive_read_new(ARCHIVE_IMPORT, req->id);
    if (!a) return -PROTO_ERR_INTERNAL;
    if (store_import_pgn(req->pgn, strlen(req->pgn), "", now_wall_ms(), &a->import, err,
                         sizeof err) < 0) {
        LOGD("archive", "conn=%llu pgn_import refused: %s", (unsigned long long)c->id, err);
        reads_discard(&a->base);
        return -PROTO_ERR_PGN_INVALID;
    }
    a->have_import = true;
    for (int i = 0; i < IMPORT_CANDIDATES; i++) {
        do {
            if (ids_random_text(a->candidates[i], GAME_ID_LEN) < 0) {
                reads_discard(&a->base);
                return -PROTO_ERR_INTERNAL;
            }
        } while (world_game(c->srv->world, a->candidates[i]));
    }
    return submit_ws(c, a);
}

int archive_handle(struct conn *c, const struct proto_request *req, int64_t now_ms) {
    (void)now_ms;
    if (!persist_store(c->srv)) return -PROTO_ERR_STORE_UNAVAILABLE;
    struct archive_read *a = NULL;
    switch (req->msg) {
        case PROTO_MSG_PLAYER_GET: return handle_player(c, req);
        case PROTO_MSG_GAMES_LIST:
            a = games_read(req->id, req->player, req->page, req->limit);
            break;
        case PROTO_MSG_GAME_RECORD:
            a = archive_read_new(ARCHIVE_GAME, req->id);
            if (a) snprintf(a->game_id, sizeof a->game_id, "%s", req->game);
            break;
        case PROTO_MSG_LEADERBOARD: a = leaderboard_read(req->id, req->category, req->limit); break;
        case PROTO_MSG_PGN_IMPORT: return handle_import(c, req);
        case PROTO_MSG_BOTS_LIST:
            if (!c->player->registered || c->player->bot) return -PROTO_ERR_ACCOUNT_REQUIRED;
            a = archive_read_new(ARCHIVE_BOTS, req->id);
            if (a) {
                snprintf(a->player_id, sizeof a->player_id, "%s", c->player->id);
                a->bots = calloc(BOTS_PER_ACCOUNT, sizeof *a->bots);
                if (!a->bots) {
                    reads_discard(&a->base);
                    return -PROTO_ERR_INTERNAL;
                }
            }
            break;
        default: return -PROTO_ERR_UNKNOWN_TYPE;
    }
    return a ? submit_ws(c, a) : -PROTO_ERR_INTERNAL;
}

/* ---- HTTP ---- */

static void site_of(struct net_http *req, char *site, size_t size) {
    char host[256] = "";
    net_http_host(req, host, sizeof host);
    snprintf(site, size, "http://%s", host);
}

/* An integer query argument within [min, max], or fallback. */
static int query_int(struct net_http *req, const char *name, int min, int max, int fallback) {
    char buf[64];
    const char *v = net_http_query_arg(req, name, buf, sizeof buf);
    if (!v) return fallback;
    char *end;
    long n = strtol(v, &end, 10);
    return *v && !*end && n >= min && n <= max ? (int)n : fallback;
}

/* A game: JSON, PGN, or the FEN after ply_text plies (NULL for the others). */
static int serve_game(struct server *srv, struct net_http *req, const char *id,
                      enum archive_format format, const char *ply_text) {
    if (!persist_store(srv)) return http_error(req, -CORE_ERR_GAME_NOT_FOUND);
    struct archive_read *a = archive_read_new(ARCHIVE_GAME, NULL);
    if (!a) return -1;
    snprintf(a->game_id, sizeof a->game_id, "%s", id);
    a->format = format;
    site_of(req, a->site, sizeof a->site);
    if (ply_text) {
        char *end;
        a->ply = strtol(ply_text, &end, 10);
        if (!*ply_text || *end) a->ply = -1; /* answered "no such ply" once the game is read */
    }
    return submit_http(srv, req, a);
}

int archive_http_ended_game(struct server *srv, struct net_http *req, const char *id, json_t *state,
                            char *pgn, size_t pgn_len) {
    struct archive_read *a = archive_read_new(ARCHIVE_GAME, NULL);
    if (!a) {
        json_decref(state);
        free(pgn);
        return -1;
    }
    snprintf(a->game_id, sizeof a->game_id, "%s", id);
    a->format = pgn ? FORMAT_PGN : FORMAT_JSON;
    a->memory_json = state;
    a->memory_pgn = pgn;
    a->memory_pgn_len = pgn_len;
    site_of(req, a->site, sizeof a->site);
    return submit_http(srv, req, a);
}

int archive_http_game(struct server *srv, struct net_http *req, const char *id, bool pgn) {
    return serve_game(srv, req, id, pgn ? FORMAT_PGN : FORMAT_JSON, NULL);
}

static int serve_player(struct server *srv, struct net_http *req, const char *rest) {
    if (!persist_store(srv)) return http_error(req, -PROTO_ERR_STORE_UNAVAILABLE);
    char player_id[STORE_ID_MAX + 1];
    size_t id_len = strcspn(rest, "/");
    const char *sub = rest + id_len;
    if (id_len == 0 || id_len > STORE_ID_MAX) return http_error(req, -PROTO_ERR_PLAYER_NOT_FOUND);
    memcpy(player_id, rest, id_len);
    player_id[id_len] = '\0';
    struct archive_read *a = NULL;
    if (!*sub) {
        a = archive_read_new(ARCHIVE_PLAYER, NULL);
    } else if (strcmp(sub, "/games") == 0) {
        a = games_read(NULL, player_id, query_int(req, "page=", 1, 100000, 1),
                       query_int(req, "limit=", 1, 100, 20));
    } else if (strcmp(sub, "/games.pgn") == 0) {
        a = archive_read_new(ARCHIVE_EXPORT, NULL);
        if (a) {
            a->format = FORMAT_PGN;
            site_of(req, a->site, sizeof a->site);
        }
    } else {
        return http_error(req, -PROTO_ERR_PLAYER_NOT_FOUND);
    }
    if (!a) return -1;
    snprintf(a->player_id, sizeof a->player_id, "%s", player_id);
    return submit_http(srv, req, a);
}

/* An export of a user's or an arena's games (whichever of username and arena_id is set). */
static int http_export(struct server *srv, struct net_http *req, const char *username,
                       const char *arena_id, bool ndjson, long max, bool opening) {
    struct archive_read *a = archive_read_new(ARCHIVE_EXPORT, NULL);
    if (!a) return -1;
    site_of(req, a->site, sizeof a->site);
    snprintf(a->username, sizeof a->username, "%s", username);
    snprintf(a->arena_id, sizeof a->arena_id, "%s", arena_id);
    a->format = ndjson ? FORMAT_JSON : FORMAT_PGN;
    a->max = max;
    a->with_opening = opening;
    return submit_http(srv, req, a);
}

int archive_http_user_games(struct server *srv, struct net_http *req, const char *username,
                            bool ndjson, long max, bool opening) {
    char lower[STORE_USERNAME_MAX + 1];
    if (!persist_store(srv)) return http_error(req, -PROTO_ERR_STORE_UNAVAILABLE);
    if (auth_username_check(username, lower) < 0)
        return http_error(req, -PROTO_ERR_PLAYER_NOT_FOUND);
    return http_export(srv, req, lower, "", ndjson, max, opening);
}

int archive_http_arena_games(struct server *srv, struct net_http *req, const char *arena_id,
                             bool ndjson, long max, bool opening) {
    if (!persist_store(srv)) return http_error(req, -PROTO_ERR_STORE_UNAVAILABLE);
    return http_export(srv, req, "", arena_id, ndjson, max, opening);
}

bool archive_http(struct server *srv, struct net_http *req, const char *path, int *rc) {
    if (strncmp(path, "/api/players/", 13) == 0) {
        *rc = serve_player(srv, req, path + 13);
        return true;
    }
    if (strncmp(path, "/api/users/", 11) == 0) {
        char lower[STORE_USERNAME_MAX + 1];
        struct archive_read *a = NULL;
        if (!persist_store(srv))
            *rc = http_error(req, -PROTO_ERR_STORE_UNAVAILABLE);
        else if (auth_username_check(path + 11, lower) < 0)
            *rc = http_error(req, -PROTO_ERR_PLAYER_NOT_FOUND);
        else if (!(a = archive_read_new(ARCHIVE_PLAYER, NULL)))
            *rc = -1;
        else {
            snprintf(a->username, sizeof a->username, "%s", lower);
            *rc = submit_http(srv, req, a);
        }
        return true;
    }
    if (strncmp(path, "/api/leaderboard/", 17) == 0) {
        int category = rating_category_parse(path + 17);
        struct archive_read *a =
            persist_store(srv) && category != RATING_NONE
                ? leaderboard_read(NULL, category, query_int(req, "limit=", 1, 100, 20))
                : NULL;
        *rc = a ? submit_http(srv, req, a)
                : http_not_found(req, "categories: bullet, blitz, rapid, classical");
        return true;
    }
    const char *fen = strstr(path, "/fen/");
    if (strncmp(path, "/api/games/", 11) == 0 && fen) {
        char id[GAME_ID_LEN + 8];
        size_t len = (size_t)(fen - (path + 11));
        if (len == 0 || len > GAME_ID_LEN) {
            *rc = http_error(req, -CORE_ERR_GAME_NOT_FOUND);
            return true;
        }
        memcpy(id, path + 11, len);
        id[len] = '\0';
        *rc = serve_game(srv, req, id, FORMAT_FEN, fen + 5);
        return true;
    }
    return false;
}
