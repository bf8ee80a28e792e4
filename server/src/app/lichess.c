/*
 * lichess's JSON shapes from our protocol's messages (lichess.h). The shapes follow lichess's
 * API documentation (https://lichess.org/api: "Stream Bot game state", "Stream incoming
 * events"); docs/http-api.md lists the fields and what differs.
 */
#include "app/lichess.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/start.h"
#include "store/read.h"

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

static void put(json_t *obj, const char *key, json_t *value) {
    if (value) json_object_set_new(obj, key, value);
}

static const char *str(const json_t *obj, const char *key) {
    const char *s = json_string_value(json_object_get(obj, key));
    return s ? s : "";
}

void lichess_user_id(const char *name, char *out, size_t size) {
    size_t i = 0;
    for (; name[i] && i + 1 < size; i++) out[i] = (char)tolower((unsigned char)name[i]);
    out[i] = '\0';
}

/* ---- time controls ---- */

/* The clock's initial time and increment in seconds; false for an unlimited or daily game. */
static bool clock_of(const json_t *time, double *initial_s, long long *increment_s) {
    if (!json_is_object(time) || !json_object_get(time, "minutes")) return false;
    *initial_s = json_number_value(json_object_get(time, "minutes")) * 60.0;
    *increment_s = json_integer_value(json_object_get(time, "increment"));
    return true;
}

/* A daily game's days per move ({"days": N}); 0 for any other time control. */
static int days_of(const json_t *time) {
    return (int)json_integer_value(json_object_get(time, "days"));
}

/* Speeds as the server's rating categories count them (core/rating.c: initial + 40 increments),
 * with lichess's ultraBullet below 30 s. */
const char *lichess_speed(const json_t *time) {
    double initial;
    long long increment;
    if (!clock_of(time, &initial, &increment)) return "correspondence";
    double estimate = initial + 40.0 * (double)increment;
    return estimate < 30     ? "ultraBullet"
           : estimate < 180  ? "bullet"
           : estimate < 480  ? "blitz"
           : estimate < 1500 ? "rapid"
                             : "classical";
}

/* The variant of a key if it has a perf of its own (Chess960, Three-check, King of the Hill),
 * else -1: standard chess and games from a position are rated by speed. */
static int own_perf_variant(const char *variant) {
    int v = game_variant_parse(variant ? variant : "standard");
    return v == GAME_VARIANT_CHESS960 || v == GAME_VARIANT_THREE_CHECK ||
                   v == GAME_VARIANT_KING_OF_THE_HILL
               ? v
               : -1;
}

const char *lichess_perf_name(const char *variant, const json_t *time) {
    int v = own_perf_variant(variant);
    if (v >= 0) return game_variant_name((enum game_variant)v);
    static const char *const names[][2] = {
        {"ultraBullet", "UltraBullet"},
        {"bullet", "Bullet"},
        {"blitz", "Blitz"},
        {"rapid", "Rapid"},
        {"classical", "Classical"},
        {"correspondence", "Correspondence"},
    };
    const char *speed = lichess_speed(time);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i][0], speed) == 0) return names[i][1];
    return "Classical";
}

/* The perf's key as lichess's user perfs name it ("blitz", "chess960"), ultraBullet counted as
 * bullet here (the server keeps no ultraBullet rating). */
static const char *perf_key(const char *variant, const json_t *time) {
    int v = own_perf_variant(variant);
    if (v >= 0) return game_variant_key((enum game_variant)v);
    const char *speed = lichess_speed(time);
    return strcmp(speed, "ultraBullet") == 0 ? "bullet" : speed;
}

/* lichess's variant object of a key (ours are lichess's keys): {"key", "name", "short"}. */
static json_t *variant_of_key(const char *key) {
    static const char *const shorts[GAME_VARIANT_COUNT] = {[GAME_VARIANT_STANDARD] = "Std",
                                                           [GAME_VARIANT_CHESS960] = "960",
                                                           [GAME_VARIANT_FROM_POSITION] = "FEN",
                                                           [GAME_VARIANT_THREE_CHECK] = "3check",
                                                           [GAME_VARIANT_KING_OF_THE_HILL] =
                                                               "KotH"};
    int v = game_variant_parse(key);
    if (v < 0) v = GAME_VARIANT_STANDARD;
    return json_pack("{s:s,s:s,s:s}", "key", game_variant_key((enum game_variant)v), "name",
                     game_variant_name((enum game_variant)v), "short", shorts[v]);
}

/* The variant object of one of our games or challenges ("variant" absent: standard). */
static json_t *variant_of(const json_t *ours) {
    return variant_of_key(json_string_value(json_object_get(ours, "variant")));
}

/* ---- players ---- */

json_t *lichess_player(const json_t *ours) {
    if (!json_is_object(ours)) return json_null();
    json_t *level = json_object_get(ours, "computer");
    if (json_is_integer(level)) return json_pack("{s:I}", "aiLevel", json_integer_value(level));
    char id[64];
    lichess_user_id(str(ours, "name"), id, sizeof id);
    json_t *p = json_pack("{s:s,s:s}", "id", id, "name", str(ours, "name"));
    if (!p) return NULL;
    if (json_is_true(json_object_get(ours, "bot"))) put(p, "title", json_string("BOT"));
    json_t *rating = json_object_get(ours, "rating");
    if (json_is_integer(rating)) put(p, "rating", json_integer(json_integer_value(rating)));
    if (json_is_true(json_object_get(ours, "provisional"))) put(p, "provisional", json_true());
    return p;
}

/* A stored game's variant key (a standard game from a FEN, imported, is fromPosition). */
static const char *stored_variant(const struct store_game *g) {
    struct game_start start;
    if (game_start_restore(g->variant, g->initial_fen, &start) < 0) return "standard";
    return game_variant_key(start.variant);
}

/* ---- status ---- */

const char *lichess_status(const json_t *game) {
    static const char *const reasons[][2] = {
        {"checkmate", "mate"},
        {"resignation", "resign"},
        {"stalemate", "stalemate"},
        {"timeout", "outoftime"},
        {"timeout_vs_insufficient", "outoftime"},
        {"aborted", "aborted"},
        {"abandoned", "timeout"},
        {"king_of_the_hill", "variantEnd"},
        {"three_check", "variantEnd"},
    };
    const char *reason = json_string_value(json_object_get(game, "reason"));
    if (!reason) return "started";
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (strcmp(reasons[i][0], reason) == 0) return reasons[i][1];
    return "draw"; /* agreement, repetitions, fifty and seventy-five moves, material */
}

int lichess_status_id(const char *status) {
    static const struct {
        const char *name;
        int id;
    } ids[] = {{"created", 10},   {"started", 20},   {"aborted", 25},   {"mate", 30},
               {"resign", 31},    {"stalemate", 32}, {"timeout", 33},   {"draw", 34},
               {"outoftime", 35}, {"noStart", 37},   {"variantEnd", 60}};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (strcmp(ids[i].name, status) == 0) return ids[i].id;
    return 38; /* unknownFinish */
}

/* ---- challenges ---- */

static json_t *time_control(const json_t *time) {
    double initial;
    long long increment;
    if (days_of(time) > 0)
        return json_pack("{s:s,s:i}", "type", "correspondence", "daysPerTurn", days_of(time));
    if (!clock_of(time, &initial, &increment)) return json_pack("{s:s}", "type", "unlimited");
    char show[32];
    if (initial >= 60 && (long long)initial % 60 == 0)
        snprintf(show, sizeof show, "%lld+%lld", (long long)initial / 60, increment);
    else
        snprintf(show, sizeof show, "%g+%lld", initial / 60.0, increment);
    return json_pack("{s:s,s:I,s:I,s:s}", "type", "clock", "limit", (json_int_t)initial,
                     "increment", (json_int_t)increment, "show", show);
}

static const char *decline_text(const char *key) {
    static const char *const texts[][2] = {
        {"generic", "I'm not accepting challenges at the moment."},
        {"later", "This is not the right time for me, please ask again later."},
        {"tooFast",
         "This time control is too fast for me, please challenge again with a slower game."},
        {"tooSlow",
         "This time control is too slow for me, please challenge again with a faster game."},
        {"timeControl", "I'm not accepting challenges with this time control."},
        {"rated", "Please send me a rated challenge instead."},
        {"casual", "Please send me a casual challenge instead."},
        {"standard", "I'm not accepting variant challenges right now."},
        {"variant", "I'm not willing to play this variant right now."},
        {"noBot", "I'm not accepting challenges from bots."},
        {"onlyBot", "I'm only accepting challenges from bots."},
        {"tooManyGames", "I'm playing too many games at the moment."},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (strcmp(texts[i][0], key) == 0) return texts[i][1];
    return texts[0][1];
}

/* Our decline reasons ("time_control") as lichess's keys ("timeControl"). */
static const char *decline_key(const char *ours) {
    static const char *const keys[][2] = {
        {"time_control", "timeControl"},
        {"too_many_games", "tooManyGames"},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(keys[i][0], ours) == 0) return keys[i][1];
    return ours[0] ? ours : "generic";
}

json_t *lichess_challenge(const json_t *ours, const char *origin, const json_t *removed) {
    const json_t *time = json_object_get(ours, "time");
    const char *id = str(ours, "id");
    if (!id[0]) return NULL;
    char url[512];
    snprintf(url, sizeof url, "%s/challenge/%s", origin, id); /* the web client's page */
    const char *status = "created";
    const char *why = removed ? str(removed, "reason") : "";
    if (strcmp(why, "declined") == 0) status = "declined";
    if (strcmp(why, "cancelled") == 0 || strcmp(why, "expired") == 0) status = "canceled";
    if (strcmp(why, "accepted") == 0) status = "accepted";
    json_t *challenger = lichess_player(json_object_get(ours, "player"));
    if (challenger && json_is_object(challenger)) put(challenger, "online", json_true());
    json_t *to = json_object_get(ours, "to");
    const char *color = str(ours, "color");
    const char *final_color = str(ours, "final_color");
    json_t *c = json_pack(
        "{s:s,s:s,s:s,s:o,s:o,s:o,s:b,s:s,s:o,s:s,s:s,s:{s:s,s:s}}", "id", id, "url", url, "status",
        status, "challenger", challenger ? challenger : json_null(), "destUser",
        to ? lichess_player(to) : json_null(), "variant", variant_of(ours), "rated",
        json_is_true(json_object_get(ours, "rated")), "speed", lichess_speed(time), "timeControl",
        time_control(time), "color", color[0] ? color : "random", "finalColor",
        final_color[0] ? final_color : (strcmp(color, "black") == 0 ? "black" : "white"), "perf",
        "icon", "", "name", lichess_perf_name(str(ours, "variant"), time));
    if (c && strcmp(status, "declined") == 0) {
        const char *key = decline_key(str(removed, "decline_reason"));
        put(c, "declineReasonKey", json_string(key));
        put(c, "declineReason", json_string(decline_text(key)));
    }
    return c;
}

/* ---- games ---- */

static int color_of(const json_t *game, const char *me) {
    if (strcmp(str(json_object_get(game, "white"), "id"), me) == 0) return 0;
    if (strcmp(str(json_object_get(game, "black"), "id"), me) == 0) return 1;
    return -1;
}

static bool clock_ms(const json_t *game, const char *side, long long *ms) {
    json_t *clock = json_object_get(game, "clock");
    if (!json_is_object(clock)) return false;
    *ms = json_integer_value(json_object_get(clock, side));
    return true;
}

static const char *initial_fen(const json_t *game) {
    const char *fen = str(game, "initial_fen");
    return !fen[0] || strcmp(fen, START_FEN) == 0 ? "startpos" : fen;
}

/* An arena game's arena id (our game state's "arena"), or NULL. */
static const char *arena_id(const json_t *game) {
    return json_string_value(json_object_get(json_object_get(game, "arena"), "id"));
}

json_t *lichess_game_event(const json_t *game, const char *me) {
    int color = color_of(game, me);
    if (color < 0) return NULL;
    const char *mine = color == 0 ? "white" : "black";
    const json_t *opponent = json_object_get(game, color == 0 ? "black" : "white");
    const json_t *moves = json_object_get(game, "moves");
    size_t plies = json_array_size(moves);
    const char *last = plies ? json_string_value(json_array_get(moves, plies - 1)) : "";
    const char *status = lichess_status(game);
    bool playing = strcmp(status, "started") == 0;
    const json_t *time = json_object_get(game, "time");
    char opponent_id[64];
    lichess_user_id(str(opponent, "name"), opponent_id, sizeof opponent_id);
    json_t *opp = json_pack("{s:s,s:s}", "id", opponent_id, "username", str(opponent, "name"));
    if (opp && json_is_integer(json_object_get(opponent, "rating")))
        put(opp, "rating", json_integer(json_integer_value(json_object_get(opponent, "rating"))));
    if (opp && json_is_integer(json_object_get(opponent, "computer"))) {
        put(opp, "ai", json_integer(json_integer_value(json_object_get(opponent, "computer"))));
        put(opp, "id", json_null()); /* the computer is no user (lichess: null) */
    }
    const char *id = str(game, "id");
    json_t *ev = json_pack(
        "{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:{s:i,s:s},s:o,s:s,s:s,s:b,s:b,s:o,s:b,s:{s:b,s:b}}", "id",
        id, "gameId", id, "fullId", id, "color", mine, "fen", str(game, "fen"), "lastMove",
        last ? last : "", "source",
        arena_id(game)                                           ? "arena"
        : json_is_integer(json_object_get(opponent, "computer")) ? "ai"
                                                                 : "friend",
        "status", "id", lichess_status_id(status), "name", status, "variant", variant_of(game),
        "speed", lichess_speed(time), "perf", perf_key(str(game, "variant"), time), "rated",
        json_is_true(json_object_get(game, "rated")), "hasMoved", plies > (size_t)color, "opponent",
        opp ? opp : json_null(), "isMyTurn", playing && strcmp(str(game, "turn"), mine) == 0,
        "compat", "bot", true, "board", true);
    long long left;
    if (ev && clock_ms(game, mine, &left)) put(ev, "secondsLeft", json_integer(left / 1000));
    if (ev && arena_id(game)) put(ev, "tournamentId", json_string(arena_id(game)));
    const char *winner = json_string_value(json_object_get(game, "winner"));
    if (ev && winner) put(ev, "winner", json_string(winner));
    return ev;
}

json_t *lichess_game_state(const json_t *game) {
    const json_t *moves = json_object_get(game, "moves");
    size_t plies = json_array_size(moves), len = 0;
    char *text = malloc(plies * 6 + 1);
    if (!text) return NULL;
    for (size_t i = 0; i < plies; i++) {
        const char *uci = json_string_value(json_array_get(moves, i));
        size_t n = uci ? strlen(uci) : 0;
        if (n > 5) n = 5;
        if (i) text[len++] = ' ';
        memcpy(text + len, uci, n);
        len += n;
    }
    text[len] = '\0';
    long long wtime = LICHESS_NO_CLOCK_MS, btime = LICHESS_NO_CLOCK_MS, winc = 0, binc = 0;
    /* An arena game's berserk side: no increment (and lichess's wberserk / bberserk). */
    const json_t *berserk = json_object_get(game, "berserk");
    bool wberserk = json_is_true(json_object_get(berserk, "white"));
    bool bberserk = json_is_true(json_object_get(berserk, "black"));
    if (clock_ms(game, "white", &wtime)) {
        clock_ms(game, "black", &btime);
        winc = binc =
            json_integer_value(json_object_get(json_object_get(game, "time"), "increment")) * 1000;
        if (wberserk) winc = 0;
        if (bberserk) binc = 0;
    }
    const json_t *offers = json_object_get(game, "offers");
    const char *draw = json_string_value(json_object_get(offers, "draw"));
    const char *takeback = json_string_value(json_object_get(offers, "takeback"));
    json_t *state =
        json_pack("{s:s,s:s,s:I,s:I,s:I,s:I,s:s}", "type", "gameState", "moves", text, "wtime",
                  (json_int_t)wtime, "btime", (json_int_t)btime, "winc", (json_int_t)winc, "binc",
                  (json_int_t)binc, "status", lichess_status(game));
    free(text);
    if (state && wberserk) put(state, "wberserk", json_true());
    if (state && bberserk) put(state, "bberserk", json_true());
    /* Offers as lichess shows them: only those pending. */
    if (state && draw) put(state, !strcmp(draw, "white") ? "wdraw" : "bdraw", json_true());
    if (state && takeback)
        put(state, !strcmp(takeback, "white") ? "wtakeback" : "btakeback", json_true());
    const char *winner = json_string_value(json_object_get(game, "winner"));
    if (state && winner) put(state, "winner", json_string(winner));
    return state;
}

json_t *lichess_game_full(const json_t *game) {
    const json_t *time = json_object_get(game, "time");
    double initial;
    long long increment;
    json_t *clock = clock_of(time, &initial, &increment)
                        ? json_pack("{s:I,s:I}", "initial", (json_int_t)(initial * 1000.0),
                                    "increment", (json_int_t)(increment * 1000))
                        : json_null();
    json_t *state = lichess_game_state(game);
    json_t *full =
        json_pack("{s:s,s:s,s:o,s:s,s:{s:s},s:b,s:I,s:o,s:o,s:s,s:o,s:o}", "type", "gameFull", "id",
                  str(game, "id"), "variant", variant_of(game), "speed", lichess_speed(time),
                  "perf", "name", lichess_perf_name(str(game, "variant"), time), "rated",
                  json_is_true(json_object_get(game, "rated")), "createdAt",
                  json_integer_value(json_object_get(game, "created")), "white",
                  lichess_player(json_object_get(game, "white")), "black",
                  lichess_player(json_object_get(game, "black")), "initialFen", initial_fen(game),
                  "clock", clock ? clock : json_null(), "state", state ? state : json_null());
    if (full && days_of(time) > 0) put(full, "daysPerTurn", json_integer(days_of(time)));
    if (full && arena_id(game)) put(full, "tournamentId", json_string(arena_id(game)));
    return full;
}

/* ---- following a game ---- */

static void set_copy(json_t *game, const json_t *event, const char *key) {
    json_t *value = json_object_get(event, key);
    if (value) json_object_set(game, key, value);
}

static json_t *offers_of(json_t *game) {
    json_t *offers = json_object_get(game, "offers");
    if (json_is_object(offers)) return offers;
    offers = json_object();
    if (offers) json_object_set_new(game, "offers", offers);
    return offers;
}

static void apply_move(json_t *game, const json_t *event) {
    const char *mover = strcmp(str(event, "turn"), "white") == 0 ? "black" : "white";
    json_t *moves = json_object_get(game, "moves");
    if (json_is_array(moves)) json_array_append(moves, json_object_get(event, "uci"));
    json_t *sans = json_object_get(game, "san");
    if (json_is_array(sans)) json_array_append(sans, json_object_get(event, "san"));
    set_copy(game, event, "fen");
    set_copy(game, event, "turn");
    set_copy(game, event, "ply");
    set_copy(game, event, "clock");
    /* The opponent's pending draw offer lapses with the move; any takeback proposal goes. */
    json_t *offers = offers_of(game);
    const char *draw = json_string_value(json_object_get(offers, "draw"));
    if (draw && strcmp(draw, mover) != 0) json_object_set_new(offers, "draw", json_null());
    json_object_set_new(offers, "takeback", json_null());
}

static void apply_takeback(json_t *game, const json_t *event) {
    json_int_t undone = json_integer_value(json_object_get(event, "undone"));
    json_t *moves = json_object_get(game, "moves"), *sans = json_object_get(game, "san");
    for (json_int_t i = 0; i < undone; i++) {
        if (json_array_size(moves)) json_array_remove(moves, json_array_size(moves) - 1);
        if (json_array_size(sans)) json_array_remove(sans, json_array_size(sans) - 1);
    }
    set_copy(game, event, "fen");
    set_copy(game, event, "turn");
    set_copy(game, event, "ply");
    set_copy(game, event, "clock");
    json_object_set_new(offers_of(game), "takeback", json_null());
}

bool lichess_apply(json_t *game, const json_t *event) {
    const char *type = str(event, "type");
    if (strcmp(str(event, "game"), str(game, "id")) != 0) return false;
    if (strcmp(type, "move") == 0) {
        apply_move(game, event);
    } else if (strcmp(type, "takeback") == 0) {
        apply_takeback(game, event);
    } else if (strcmp(type, "time_given") == 0) {
        set_copy(game, event, "clock");
    } else if (strcmp(type, "berserk") == 0) {
        json_t *berserk = json_object_get(game, "berserk");
        if (!json_is_object(berserk)) {
            berserk = json_object();
            if (berserk) json_object_set_new(game, "berserk", berserk);
        }
        if (berserk) json_object_set_new(berserk, str(event, "color"), json_true());
        set_copy(game, event, "clock");
    } else if (strcmp(type, "offer") == 0 || strcmp(type, "offer_declined") == 0) {
        const char *kind = str(event, "kind");
        if (strcmp(kind, "draw") != 0 && strcmp(kind, "takeback") != 0) return false;
        json_object_set_new(offers_of(game), kind,
                            strcmp(type, "offer") == 0 ? json_string(str(event, "by"))
                                                       : json_null());
    } else if (strcmp(type, "game_end") == 0) {
        json_object_set_new(game, "status", json_string("ended"));
        set_copy(game, event, "result");
        set_copy(game, event, "reason");
        set_copy(game, event, "winner");
        set_copy(game, event, "clock");
        json_t *offers = offers_of(game);
        json_object_set_new(offers, "draw", json_null());
        json_object_set_new(offers, "takeback", json_null());
    } else {
        return false;
    }
    return true;
}

static json_t *stored_side(const struct store_game *g, int c) {
    char id[64];
    lichess_user_id(g->name[c], id, sizeof id);
    json_t *user = json_pack("{s:s,s:s}", "name", g->name[c], "id", id);
    if (user && g->bot[c]) json_object_set_new(user, "title", json_string("BOT"));
    json_t *side = json_pack("{s:o}", "user", user ? user : json_null());
    if (side && g->has_ratings) {
        json_object_set_new(side, "rating", json_integer(g->rating[c]));
        if (g->result[0]) json_object_set_new(side, "ratingDiff", json_integer(g->rating_diff[c]));
    }
    return side;
}

json_t *lichess_rating_history(const struct store_rating_point *points, int count) {
    json_t *out = json_array();
    for (int c = 0; out && c < RATING_CATEGORY_COUNT; c++) {
        json_t *list = json_array();
        struct tm last = {0};
        for (int i = 0; list && i < count; i++) {
            if (points[i].category != c) continue;
            time_t t = (time_t)(points[i].at / 1000);
            struct tm day;
            if (!gmtime_r(&t, &day)) continue;
            json_t *point = json_pack("[i,i,i,i]", day.tm_year + 1900, day.tm_mon, day.tm_mday,
                                      points[i].rating);
            bool same_day = json_array_size(list) > 0 && day.tm_year == last.tm_year &&
                            day.tm_yday == last.tm_yday;
            if (same_day)
                json_array_set_new(list, json_array_size(list) - 1, point);
            else
                json_array_append_new(list, point);
            last = day;
        }
        json_array_append_new(out, json_pack("{s:s,s:o}", "name", rating_category_title(c),
                                             "points", list ? list : json_array()));
    }
    return out;
}

json_t *lichess_stored_game(const struct store_game *g) {
    json_t *time = g->unlimited ? json_string("unlimited")
                   : g->days > 0
                       ? json_pack("{s:i}", "days", g->days)
                       : json_pack("{s:f,s:I}", "minutes", (double)g->initial_ms / 60000.0,
                                   "increment", (json_int_t)(g->increment_ms / 1000));
    json_t *ours = json_pack("{s:s}", "reason", g->termination[0] ? g->termination : "aborted");
    size_t cap = (size_t)g->ply_count * 12 + 1, len = 0;
    char *moves = malloc(cap);
    json_t *out = NULL;
    if (!time || !ours || !moves) goto done;
    moves[0] = '\0';
    for (int i = 0; g->moves && i < g->ply_count; i++)
        len += (size_t)snprintf(moves + len, cap - len, "%s%s", i ? " " : "", g->moves[i].san);
    int64_t last = g->ply_count && g->moves ? g->moves[g->ply_count - 1].played_at : g->created_at;
    out = json_pack("{s:s,s:b,s:s,s:s,s:s,s:I,s:I,s:s,s:{s:o,s:o},s:s}", "id", g->id, "rated",
                    g->rated, "variant", stored_variant(g), "speed", lichess_speed(time), "perf",
                    perf_key(stored_variant(g), time), "createdAt", (json_int_t)g->created_at,
                    "lastMoveAt", (json_int_t)(g->ended_at ? g->ended_at : last), "status",
                    lichess_status(ours), "players", "white", stored_side(g, 0), "black",
                    stored_side(g, 1), "moves", moves);
    if (!out) goto done;
    if (strcmp(g->result, "1-0") == 0) json_object_set_new(out, "winner", json_string("white"));
    if (strcmp(g->result, "0-1") == 0) json_object_set_new(out, "winner", json_string("black"));
    if (g->initial_fen[0] && strcmp(g->initial_fen, START_FEN) != 0)
        json_object_set_new(out, "initialFen", json_string(g->initial_fen));
    if (g->days > 0) json_object_set_new(out, "daysPerTurn", json_integer(g->days));
    if (!g->unlimited && g->days <= 0)
        json_object_set_new(out, "clock",
                            json_pack("{s:I,s:I,s:I}", "initial",
                                      (json_int_t)(g->initial_ms / 1000), "increment",
                                      (json_int_t)(g->increment_ms / 1000), "totalTime",
                                      (json_int_t)((g->initial_ms + 40 * g->increment_ms) / 1000)));
done:
    json_decref(time);
    json_decref(ours);
    free(moves);
    return out;
}

json_t *lichess_chat_line(const json_t *event) {
    const char *room = str(event, "room");
    return json_pack("{s:s,s:s,s:s,s:s}", "type", "chatLine", "room",
                     strcmp(room, "spectators") == 0 ? "spectator" : "player", "username",
                     str(json_object_get(event, "from"), "name"), "text", str(event, "text"));
}
