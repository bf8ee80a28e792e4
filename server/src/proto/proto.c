/*
 * The message table and the decoder. Each message lists the fields it takes; one function per
 * field kind checks and converts it, so every message gets the same validation and the same
 * error for the same mistake. Unknown fields are ignored (newer clients may send more).
 */
#include "proto/proto.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

enum {
    PROTO_F_GAME = 1u << 0,      /* "game": id */
    PROTO_F_SEEK = 1u << 1,      /* "seek": id */
    PROTO_F_CHALLENGE = 1u << 2, /* "challenge": id */
    PROTO_F_MOVE = 1u << 3,      /* "move": UCI or SAN */
    PROTO_F_PLY = 1u << 4,       /* "ply": plies played before this move */
    PROTO_F_TIME = 1u << 5,      /* "time": {"minutes", "increment"} or "unlimited" */
    PROTO_F_COLOR = 1u << 6,     /* "color": white, black, random */
    PROTO_F_LEVEL = 1u << 7,     /* "level": 1..8 */
    PROTO_F_ROOM = 1u << 8,      /* "room": players, spectators */
    PROTO_F_TEXT = 1u << 9,      /* "text": chat */
    PROTO_F_RESULT = 1u << 10,   /* "result": win, draw */
    PROTO_F_TOKEN = 1u << 11,    /* "token" */
    PROTO_F_NAME = 1u << 12,     /* "name" */
    PROTO_F_PROTOCOL = 1u << 13, /* "protocol": 1 */
    PROTO_F_LIMIT = 1u << 14,    /* "limit": 1..100 */
    PROTO_F_USERNAME = 1u << 15, /* "username": 1..64 bytes (the handler checks the rules) */
    PROTO_F_PASSWORD = 1u << 16, /* "password": 1..256 bytes (the handler checks the rules) */
    PROTO_F_PLAYER = 1u << 17,   /* "player": id */
    PROTO_F_PAGE = 1u << 18,     /* "page": 1..100000 */
    PROTO_F_CATEGORY = 1u << 19, /* "category": bullet, blitz, rapid, classical */
    PROTO_F_PGN = 1u << 20,      /* "pgn": PGN text */
    PROTO_F_FEN = 1u << 21,      /* "fen": a position */
    PROTO_F_MOVES = 1u << 22,    /* "moves": up to 600 moves (UCI or SAN) */
    PROTO_F_DEPTH = 1u << 23,    /* "depth": 1..60 */
    PROTO_F_MOVETIME = 1u << 24, /* "movetime": ms, 10..3600000 */
    PROTO_F_MULTIPV = 1u << 25,  /* "multipv": 1..5 */
    PROTO_F_ANALYSIS = 1u << 26, /* "analysis": an analysis id */
    PROTO_F_RATED = 1u << 27,    /* "rated": false asks for a casual game */
    PROTO_F_REASON = 1u << 28,   /* "reason": why a challenge is declined */
    PROTO_F_LAST = PROTO_F_REASON
};

#define GAME_ONLY PROTO_F_GAME, PROTO_F_GAME

/* Messages up to PROTO_MSG_CORE_LAST are core commands in the same order. */
_Static_assert((int)PROTO_MSG_CHAT == (int)CORE_CMD_CHAT, "proto and core command order");
_Static_assert((int)PROTO_MSG_CHALLENGE_DECLINE == (int)CORE_CMD_CHALLENGE_DECLINE,
               "proto and core command order");
_Static_assert((int)PROTO_MSG_CORE_LAST + 1 == (int)CORE_CMD_COUNT, "every core command");

const struct proto_message_spec proto_messages[PROTO_MSG_COUNT] = {
    [PROTO_MSG_SEEK_CREATE] = {"seek_create", PROTO_MSG_SEEK_CREATE, 1,
                               PROTO_F_TIME | PROTO_F_COLOR | PROTO_F_RATED, PROTO_F_TIME},
    [PROTO_MSG_SEEK_CANCEL] = {"seek_cancel", PROTO_MSG_SEEK_CANCEL, 1, PROTO_F_SEEK, PROTO_F_SEEK},
    [PROTO_MSG_SEEK_ACCEPT] = {"seek_accept", PROTO_MSG_SEEK_ACCEPT, 1, PROTO_F_SEEK, PROTO_F_SEEK},
    [PROTO_MSG_CHALLENGE_CREATE] = {"challenge_create", PROTO_MSG_CHALLENGE_CREATE, 1,
                                    PROTO_F_TIME | PROTO_F_COLOR | PROTO_F_RATED | PROTO_F_PLAYER,
                                    PROTO_F_TIME},
    [PROTO_MSG_CHALLENGE_CANCEL] = {"challenge_cancel", PROTO_MSG_CHALLENGE_CANCEL, 1,
                                    PROTO_F_CHALLENGE, PROTO_F_CHALLENGE},
    [PROTO_MSG_CHALLENGE_ACCEPT] = {"challenge_accept", PROTO_MSG_CHALLENGE_ACCEPT, 1,
                                    PROTO_F_CHALLENGE, PROTO_F_CHALLENGE},
    [PROTO_MSG_COMPUTER_PLAY] = {"computer_play", PROTO_MSG_COMPUTER_PLAY, 1,
                                 PROTO_F_LEVEL | PROTO_F_TIME | PROTO_F_COLOR,
                                 PROTO_F_LEVEL | PROTO_F_TIME},
    [PROTO_MSG_MOVE] = {"move", PROTO_MSG_MOVE, 1, PROTO_F_GAME | PROTO_F_MOVE | PROTO_F_PLY,
                        PROTO_F_GAME | PROTO_F_MOVE},
    [PROTO_MSG_RESIGN] = {"resign", PROTO_MSG_RESIGN, 1, GAME_ONLY},
    [PROTO_MSG_ABORT] = {"abort", PROTO_MSG_ABORT, 1, GAME_ONLY},
    [PROTO_MSG_DRAW_OFFER] = {"draw_offer", PROTO_MSG_DRAW_OFFER, 1, GAME_ONLY},
    [PROTO_MSG_DRAW_ACCEPT] = {"draw_accept", PROTO_MSG_DRAW_ACCEPT, 1, GAME_ONLY},
    [PROTO_MSG_DRAW_DECLINE] = {"draw_decline", PROTO_MSG_DRAW_DECLINE, 1, GAME_ONLY},
    [PROTO_MSG_DRAW_CLAIM] = {"draw_claim", PROTO_MSG_DRAW_CLAIM, 1, GAME_ONLY},
    [PROTO_MSG_TAKEBACK_PROPOSE] = {"takeback_propose", PROTO_MSG_TAKEBACK_PROPOSE, 1, GAME_ONLY},
    [PROTO_MSG_TAKEBACK_ACCEPT] = {"takeback_accept", PROTO_MSG_TAKEBACK_ACCEPT, 1, GAME_ONLY},
    [PROTO_MSG_TAKEBACK_DECLINE] = {"takeback_decline", PROTO_MSG_TAKEBACK_DECLINE, 1, GAME_ONLY},
    [PROTO_MSG_REMATCH_OFFER] = {"rematch_offer", PROTO_MSG_REMATCH_OFFER, 1, GAME_ONLY},
    [PROTO_MSG_REMATCH_ACCEPT] = {"rematch_accept", PROTO_MSG_REMATCH_ACCEPT, 1, GAME_ONLY},
    [PROTO_MSG_REMATCH_DECLINE] = {"rematch_decline", PROTO_MSG_REMATCH_DECLINE, 1, GAME_ONLY},
    [PROTO_MSG_ABANDON_CLAIM] = {"abandon_claim", PROTO_MSG_ABANDON_CLAIM, 1,
                                 PROTO_F_GAME | PROTO_F_RESULT, PROTO_F_GAME | PROTO_F_RESULT},
    [PROTO_MSG_CHAT] = {"chat", PROTO_MSG_CHAT, 1, PROTO_F_GAME | PROTO_F_TEXT | PROTO_F_ROOM,
                        PROTO_F_GAME | PROTO_F_TEXT},
    [PROTO_MSG_CHALLENGE_DECLINE] = {"challenge_decline", PROTO_MSG_CHALLENGE_DECLINE, 1,
                                     PROTO_F_CHALLENGE | PROTO_F_REASON, PROTO_F_CHALLENGE},
    [PROTO_MSG_HELLO] = {"hello", PROTO_MSG_HELLO, 0,
                         PROTO_F_PROTOCOL | PROTO_F_TOKEN | PROTO_F_NAME, PROTO_F_PROTOCOL},
    [PROTO_MSG_PING] = {"ping", PROTO_MSG_PING, 0, 0, 0},
    [PROTO_MSG_LOBBY_SUBSCRIBE] = {"lobby_subscribe", PROTO_MSG_LOBBY_SUBSCRIBE, 1, 0, 0},
    [PROTO_MSG_LOBBY_UNSUBSCRIBE] = {"lobby_unsubscribe", PROTO_MSG_LOBBY_UNSUBSCRIBE, 1, 0, 0},
    [PROTO_MSG_CHALLENGE_GET] = {"challenge_get", PROTO_MSG_CHALLENGE_GET, 1, PROTO_F_CHALLENGE,
                                 PROTO_F_CHALLENGE},
    [PROTO_MSG_LIVE_GAMES] = {"live_games", PROTO_MSG_LIVE_GAMES, 1, PROTO_F_LIMIT, 0},
    [PROTO_MSG_WATCH] = {"watch", PROTO_MSG_WATCH, 1, GAME_ONLY},
    [PROTO_MSG_UNWATCH] = {"unwatch", PROTO_MSG_UNWATCH, 1, GAME_ONLY},
    [PROTO_MSG_REGISTER] = {"register", PROTO_MSG_REGISTER, 1, PROTO_F_USERNAME | PROTO_F_PASSWORD,
                            PROTO_F_USERNAME | PROTO_F_PASSWORD},
    [PROTO_MSG_LOGIN] = {"login", PROTO_MSG_LOGIN, 0, PROTO_F_USERNAME | PROTO_F_PASSWORD,
                         PROTO_F_USERNAME | PROTO_F_PASSWORD},
    [PROTO_MSG_LOGOUT] = {"logout", PROTO_MSG_LOGOUT, 1, 0, 0},
    [PROTO_MSG_PLAYER_GET] = {"player_get", PROTO_MSG_PLAYER_GET, 1,
                              PROTO_F_PLAYER | PROTO_F_USERNAME, 0},
    [PROTO_MSG_GAMES_LIST] = {"games_list", PROTO_MSG_GAMES_LIST, 1,
                              PROTO_F_PLAYER | PROTO_F_PAGE | PROTO_F_LIMIT, PROTO_F_PLAYER},
    [PROTO_MSG_GAME_RECORD] = {"game_record", PROTO_MSG_GAME_RECORD, 1, GAME_ONLY},
    [PROTO_MSG_LEADERBOARD] = {"leaderboard", PROTO_MSG_LEADERBOARD, 1,
                               PROTO_F_CATEGORY | PROTO_F_LIMIT, PROTO_F_CATEGORY},
    [PROTO_MSG_PGN_IMPORT] = {"pgn_import", PROTO_MSG_PGN_IMPORT, 1, PROTO_F_PGN, PROTO_F_PGN},
    [PROTO_MSG_BOT_CREATE] = {"bot_create", PROTO_MSG_BOT_CREATE, 1, PROTO_F_USERNAME,
                              PROTO_F_USERNAME},
    [PROTO_MSG_BOT_TOKEN_CREATE] = {"bot_token_create", PROTO_MSG_BOT_TOKEN_CREATE, 1,
                                    PROTO_F_USERNAME, PROTO_F_USERNAME},
    [PROTO_MSG_BOT_TOKEN_REVOKE] = {"bot_token_revoke", PROTO_MSG_BOT_TOKEN_REVOKE, 1,
                                    PROTO_F_USERNAME, PROTO_F_USERNAME},
    [PROTO_MSG_BOTS_LIST] = {"bots_list", PROTO_MSG_BOTS_LIST, 1, 0, 0},
    [PROTO_MSG_ANALYSE] = {"analyse", PROTO_MSG_ANALYSE, 1,
                           PROTO_F_FEN | PROTO_F_GAME | PROTO_F_PLY | PROTO_F_MOVES |
                               PROTO_F_DEPTH | PROTO_F_MOVETIME | PROTO_F_MULTIPV,
                           0},
    [PROTO_MSG_ANALYSIS_STOP] = {"analysis_stop", PROTO_MSG_ANALYSIS_STOP, 1, PROTO_F_ANALYSIS, 0},
};

const char *const proto_decline_names[CHALLENGE_DECLINE_COUNT] = {
    "generic", "later", "time_control", "rated", "casual", "too_many_games"};

/* ---- errors ---- */

static const char *const core_names[CORE_ERR_COUNT] = {[CORE_OK] = "OK",
#define NAME(name, message) [CORE_ERR_##name] = #name,
                                                       CORE_ERRORS(NAME)
#undef NAME
};

static const char *const core_texts[CORE_ERR_COUNT] = {[CORE_OK] = "no error",
#define TEXT(name, message) [CORE_ERR_##name] = message,
                                                       CORE_ERRORS(TEXT)
#undef TEXT
};

static const char *const proto_names[PROTO_ERR_END - PROTO_ERR_FIRST] = {
#define NAME(name, message) [PROTO_ERR_##name - PROTO_ERR_FIRST] = #name,
    PROTO_ERRORS(NAME)
#undef NAME
};

static const char *const proto_texts[PROTO_ERR_END - PROTO_ERR_FIRST] = {
#define TEXT(name, message) [PROTO_ERR_##name - PROTO_ERR_FIRST] = message,
    PROTO_ERRORS(TEXT)
#undef TEXT
};

static const char *error_lookup(int code, const char *const *core, const char *const *proto) {
    if (code < 0) code = -code;
    if (code < CORE_ERR_COUNT) return core[code];
    if (code > PROTO_ERR_FIRST && code < PROTO_ERR_END) return proto[code - PROTO_ERR_FIRST];
    return NULL;
}

const char *proto_error_name(int code) {
    const char *name = error_lookup(code, core_names, proto_names);
    return name ? name : "INTERNAL";
}

const char *proto_error_message(int code) {
    const char *text = error_lookup(code, core_texts, proto_texts);
    return text ? text : proto_texts[PROTO_ERR_INTERNAL - PROTO_ERR_FIRST];
}

/* ---- field decoders: each returns 0, or -PROTO_ERR_BAD_FIELD with req->field set ---- */

static int bad_field(struct proto_request *req, const char *field) {
    req->field = field;
    return -PROTO_ERR_BAD_FIELD;
}

/* A field of the message, read flat or from jansson's object. */
enum field_kind { FIELD_ABSENT, FIELD_STRING, FIELD_INT, FIELD_OTHER };

struct field {
    enum field_kind kind;
    const char *string; /* FIELD_STRING: NUL-terminated, len bytes */
    size_t len;
    json_int_t number;  /* FIELD_INT */
    const json_t *json; /* read by jansson: the value (objects, arrays...); NULL when flat */
};

static struct field field_get(const struct proto_request *req, const char *name) {
    struct field f = {.kind = FIELD_ABSENT};
    if (req->flat) {
        const struct proto_flat *flat = &req->flat_fields;
        for (int i = 0; i < flat->count; i++) {
            const struct proto_flat_field *ff = &flat->fields[i];
            /* The first byte settles most comparisons without a call. */
            if (ff->key[0] != name[0] || strcmp(ff->key, name) != 0) continue;
            f.kind = ff->string ? FIELD_STRING : FIELD_INT;
            f.string = ff->string;
            f.len = ff->len;
            f.number = ff->number;
            break;
        }
        return f;
    }
    const json_t *v = json_object_get(req->root, name);
    f.json = v;
    if (json_is_string(v)) {
        f.kind = FIELD_STRING;
        f.string = json_string_value(v);
        f.len = json_string_length(v);
    } else if (json_is_integer(v)) {
        f.kind = FIELD_INT;
        f.number = json_integer_value(v);
    } else if (v) {
        f.kind = FIELD_OTHER;
    }
    return f;
}

/* A string field of 1..max bytes; with ids_only, letters and digits only. */
static int get_string(struct proto_request *req, const struct field *v, const char *field,
                      size_t max, bool ids_only, const char **out) {
    if (v->kind != FIELD_STRING) return bad_field(req, field);
    size_t len = v->len;
    const char *s = v->string;
    if (len == 0 || len > max || strlen(s) != len) return bad_field(req, field);
    for (size_t i = 0; ids_only && i < len; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
            return bad_field(req, field);
    }
    *out = s;
    return 0;
}

static int get_int(struct proto_request *req, const struct field *v, const char *field,
                   long long min, long long max, int *out) {
    if (v->kind != FIELD_INT) return bad_field(req, field);
    json_int_t n = v->number;
    if (n < min || n > max) return bad_field(req, field);
    *out = (int)n;
    return 0;
}

/* An id the server handed out from a 64-bit counter: 1 to 2^53 - 1, the integers JSON
 * readers keep exactly. */
static int get_id(struct proto_request *req, const struct field *v, const char *field,
                  int64_t *out) {
    if (v->kind != FIELD_INT || v->number < 1 || v->number > PROTO_MAX_EXACT_INT)
        return bad_field(req, field);
    *out = (int64_t)v->number;
    return 0;
}

/* One of the given words; *out receives its index. */
static int get_word(struct proto_request *req, const struct field *v, const char *field,
                    const char *const *words, int count, int *out) {
    if (v->kind != FIELD_STRING) return bad_field(req, field);
    for (int i = 0; i < count; i++) {
        if (strcmp(v->string, words[i]) == 0) {
            *out = i;
            return 0;
        }
    }
    return bad_field(req, field);
}

static int get_time(struct proto_request *req, const struct field *f, struct time_control *tc) {
    if (f->kind == FIELD_STRING && strcmp(f->string, "unlimited") == 0) {
        *tc = (struct time_control){.unlimited = true};
        return 0;
    }
    const json_t *v = f->json; /* an object is never read flat */
    if (!json_is_object(v)) return bad_field(req, "time");
    const json_t *minutes = json_object_get(v, "minutes");
    const json_t *increment = json_object_get(v, "increment");
    if (!json_is_number(minutes) || !json_is_integer(increment)) return bad_field(req, "time");
    double initial_ms = json_number_value(minutes) * 60000.0;
    json_int_t inc = json_integer_value(increment); /* seconds: compared before scaling */
    if (!isfinite(initial_ms) || initial_ms < (double)TC_MIN_INITIAL_MS ||
        initial_ms > (double)TC_MAX_INITIAL_MS || inc < 0 || inc > TC_MAX_INCREMENT_MS / 1000)
        return bad_field(req, "time");
    *tc = (struct time_control){.initial_ms = (int64_t)llround(initial_ms),
                                .increment_ms = (int64_t)inc * 1000};
    return 0;
}

/* An array of at most 600 move strings of 1..16 bytes (their meaning is checked later). */
static int get_moves(struct proto_request *req, const struct field *f, const char *field) {
    const json_t *v = f->json; /* an array is never read flat */
    if (!json_is_array(v) || json_array_size(v) > 600) return bad_field(req, field);
    for (size_t i = 0; i < json_array_size(v); i++) {
        const json_t *m = json_array_get(v, i);
        if (!json_is_string(m) || json_string_length(m) == 0 || json_string_length(m) > 16)
            return bad_field(req, field);
    }
    req->moves = v;
    return 0;
}

static int decode_fields(struct proto_request *req, const struct proto_message_spec *spec) {
    static const char *const colors[] = {"white", "black", "random"};
    static const char *const rooms[] = {"players", "spectators"};
    static const char *const results[] = {"draw", "win"};
    static const char *const categories[] = {"bullet", "blitz", "rapid", "classical"};
    struct core_cmd *cmd = &req->cmd;
    int rc = 0, word;
    for (unsigned bit = 1; bit <= PROTO_F_LAST && rc == 0; bit <<= 1) {
        if (!(spec->fields & bit)) continue;
        static const char *const names[] = {
            "game",     "seek",     "challenge", "move",     "ply",      "time",
            "color",    "level",    "room",      "text",     "result",   "token",
            "name",     "protocol", "limit",     "username", "password", "player",
            "page",     "category", "pgn",       "fen",      "moves",    "depth",
            "movetime", "multipv",  "analysis",  "rated",    "reason"};
        const char *name = names[__builtin_ctz(bit)];
        /* Looked up once: the decoders below take it. */
        const struct field v = field_get(req, name);
        if (v.kind == FIELD_ABSENT) {
            if (spec->required & bit) rc = bad_field(req, name);
            continue;
        }
        switch (bit) {
            case PROTO_F_GAME:
                rc = get_string(req, &v, name, 16, true, &req->game);
                cmd->target = req->game;
                break;
            case PROTO_F_SEEK:
            case PROTO_F_CHALLENGE: rc = get_string(req, &v, name, 16, true, &cmd->target); break;
            case PROTO_F_MOVE: rc = get_string(req, &v, name, 16, false, &cmd->text); break;
            case PROTO_F_TEXT:
                rc = get_string(req, &v, name, CHAT_MAX_BYTES * 2, false, &cmd->text);
                break;
            case PROTO_F_TOKEN: rc = get_string(req, &v, name, 64, true, &req->token); break;
            case PROTO_F_PLY:
                rc = get_int(req, &v, name, 0, CHESS_GAME_MAX_PLIES, &cmd->expected_ply);
                break;
            case PROTO_F_LEVEL: rc = get_int(req, &v, name, 1, 8, &cmd->level); break;
            case PROTO_F_LIMIT: rc = get_int(req, &v, name, 1, 100, &req->limit); break;
            case PROTO_F_PROTOCOL: rc = get_int(req, &v, name, 0, 1000000, &req->protocol); break;
            case PROTO_F_USERNAME: rc = get_string(req, &v, name, 64, false, &req->username); break;
            case PROTO_F_PASSWORD:
                rc = get_string(req, &v, name, 256, false, &req->password);
                break;
            case PROTO_F_PLAYER:
                rc = get_string(req, &v, name, 16, true, &req->player);
                cmd->opponent = req->player;
                break;
            case PROTO_F_RATED: {
                const json_t *rated = v.json; /* never read flat */
                if (!json_is_boolean(rated)) rc = bad_field(req, name);
                cmd->casual = json_is_false(rated);
                cmd->rated_required = json_is_true(rated);
                break;
            }
            case PROTO_F_REASON:
                if ((rc = get_word(req, &v, name, proto_decline_names, CHALLENGE_DECLINE_COUNT,
                                   &word)) == 0)
                    cmd->decline_reason = (enum challenge_decline)word;
                break;
            case PROTO_F_PAGE: rc = get_int(req, &v, name, 1, 100000, &req->page); break;
            case PROTO_F_PGN: rc = get_string(req, &v, name, 1 << 20, false, &req->pgn); break;
            case PROTO_F_FEN: rc = get_string(req, &v, name, 100, false, &req->fen); break;
            case PROTO_F_MOVES: rc = get_moves(req, &v, name); break;
            case PROTO_F_DEPTH: rc = get_int(req, &v, name, 1, 60, &req->depth); break;
            case PROTO_F_MOVETIME:
                rc = get_int(req, &v, name, 10, 3600000, &req->movetime_ms);
                break;
            case PROTO_F_MULTIPV: rc = get_int(req, &v, name, 1, 5, &req->multipv); break;
            case PROTO_F_ANALYSIS: rc = get_id(req, &v, name, &req->analysis); break;
            case PROTO_F_CATEGORY:
                if ((rc = get_word(req, &v, name, categories, RATING_CATEGORY_COUNT, &word)) == 0)
                    req->category = word;
                break;
            case PROTO_F_TIME: rc = get_time(req, &v, &cmd->tc); break;
            case PROTO_F_COLOR:
                if ((rc = get_word(req, &v, name, colors, 3, &word)) == 0)
                    cmd->color = (enum color_choice)word;
                break;
            case PROTO_F_ROOM:
                if ((rc = get_word(req, &v, name, rooms, 2, &word)) == 0)
                    cmd->room = (enum chat_room)word;
                break;
            case PROTO_F_RESULT:
                if ((rc = get_word(req, &v, name, results, 2, &word)) == 0)
                    cmd->claim_win = word == 1;
                break;
            case PROTO_F_NAME: {
                const char *s;
                if ((rc = get_string(req, &v, name, 20, false, &s)) < 0) break;
                size_t len = strlen(s);
                for (size_t i = 0; i < len && rc == 0; i++) {
                    char c = s[i];
                    bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                              (c >= 'A' && c <= 'Z') || c == '_' || c == '-';
                    if (!ok) rc = bad_field(req, name);
                }
                if (rc == 0 && len < 2) rc = bad_field(req, name);
                if (rc == 0) req->name = s;
                break;
            }
        }
    }
    return rc;
}

/* ---- decoding ---- */

static const struct proto_message_spec *find_spec(const char *type) {
    for (int i = 0; i < PROTO_MSG_COUNT; i++) {
        const char *name = proto_messages[i].type;
        if (name[0] == type[0] && strcmp(name, type) == 0) return &proto_messages[i];
    }
    return NULL;
}

/* ---- the flat reader ---- */

/*
 * Most messages, moves above all, are one flat object of short ASCII strings without escapes
 * and integers: {"type":"move","game":"Ab3dE5fG","move":"e2e4","id":12}. jansson spent more on
 * reading one than the loop spends on the rest of a move (an object, a hash table, an
 * allocation per string), so such a message is read here in one pass over a copy, its strings
 * cut out in place. Anything else (an escape, a byte outside printable ASCII, a nested value, a
 * real number, true/false/null, a repeated key, a longer message) is left to jansson, so both
 * paths accept and refuse the same texts (test_proto and the fuzz target fuzz_proto compare
 * them).
 */

static char *skip_space(char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* A string from just after its opening quote: NUL-terminated in place. Returns the position
 * after the closing quote, or NULL when it is not a plain string. */
static char *flat_string(char *p, const char *end, const char **out, size_t *len) {
    char *start = p;
    while (p < end && *p != '"') {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 || c >= 0x7f || c == '\\') return NULL;
        p++;
    }
    if (p == end) return NULL;
    *p = '\0';
    *out = start;
    *len = (size_t)(p - start);
    return p + 1;
}

/* An integer in JSON's grammar of at most 18 digits (no overflow); NULL for anything else,
 * including a real number. */
static char *flat_int(char *p, const char *end, json_int_t *out) {
    bool negative = p < end && *p == '-';
    if (negative) p++;
    char *digits = p;
    while (p < end && *p >= '0' && *p <= '9') p++;
    size_t count = (size_t)(p - digits);
    if (count == 0 || count > 18 || (count > 1 && *digits == '0')) return NULL;
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E')) return NULL;
    json_int_t n = 0;
    for (const char *d = digits; d < p; d++) n = n * 10 + (*d - '0');
    *out = negative ? -n : n;
    return p;
}

/* Reads text into f when it is a flat message; false leaves it to jansson. */
static bool flat_read(struct proto_flat *f, const char *text, size_t len) {
    if (len > PROTO_FLAT_MAX_TEXT) return false;
    memcpy(f->text, text, len);
    f->text[len] = '\0';
    f->count = 0;
    char *p = f->text;
    const char *end = f->text + len;
    p = skip_space(p, end);
    if (p == end || *p++ != '{') return false;
    p = skip_space(p, end);
    if (p < end && *p == '}') {
        p++;
    } else {
        for (;;) {
            if (f->count == PROTO_FLAT_MAX_FIELDS || p == end || *p != '"') return false;
            struct proto_flat_field *ff = &f->fields[f->count];
            size_t key_len;
            if (!(p = flat_string(p + 1, end, &ff->key, &key_len))) return false;
            p = skip_space(p, end);
            if (p == end || *p++ != ':') return false;
            p = skip_space(p, end);
            /* Every member set: request_init() does not clear the fields. */
            if (p < end && *p == '"') {
                ff->number = 0;
                p = flat_string(p + 1, end, &ff->string, &ff->len);
            } else {
                ff->string = NULL;
                ff->len = 0;
                p = flat_int(p, end, &ff->number);
            }
            if (!p) return false;
            for (int i = 0; i < f->count; i++) {
                const char *key = f->fields[i].key;
                if (key[0] == ff->key[0] && strcmp(key, ff->key) == 0)
                    return false; /* jansson refuses */
            }
            f->count++;
            p = skip_space(p, end);
            if (p == end) return false;
            if (*p == '}') {
                p++;
                break;
            }
            if (*p++ != ',') return false;
            p = skip_space(p, end);
        }
    }
    return skip_space(p, end) == end;
}

/* ---- decoding ---- */

static void request_init(struct proto_request *req) {
    /* Not the flat reader's buffers: two thirds of the struct, and it fills what it uses. */
    memset(req, 0, offsetof(struct proto_request, flat_fields));
    req->flat_fields.count = 0;
    req->cmd.expected_ply = -1;
    req->cmd.color = COLOR_CHOICE_RANDOM;
    req->cmd.room = CHAT_ROOM_AUTO;
    req->limit = 20;
    req->page = 1;
    req->multipv = 1;
}

/* The id, the type and the fields of a message read either way. */
static int decode_message(struct proto_request *req) {
    struct field id = field_get(req, "id");
    if (id.kind != FIELD_ABSENT) {
        bool ok = id.kind == FIELD_INT || (id.kind == FIELD_STRING && id.len <= PROTO_ID_MAX);
        if (!ok) return bad_field(req, "id");
        if (id.json) {
            req->id = id.json;
        } else {
            req->owned_id = id.kind == FIELD_INT ? json_integer(id.number)
                                                 : json_stringn_nocheck(id.string, id.len);
            if (!req->owned_id) return -PROTO_ERR_INTERNAL;
            req->id = req->owned_id;
        }
    }
    struct field type = field_get(req, "type");
    if (type.kind != FIELD_STRING) return -PROTO_ERR_BAD_MESSAGE;
    const struct proto_message_spec *spec = find_spec(type.string);
    if (!spec) return -PROTO_ERR_UNKNOWN_TYPE;
    req->msg = spec->msg;
    req->spec = spec;
    if (spec->msg <= PROTO_MSG_CORE_LAST) req->cmd.type = (enum core_cmd_type)spec->msg;
    return decode_fields(req, spec);
}

int proto_decode_general(const char *text, size_t len, struct proto_request *req) {
    request_init(req);
    json_error_t error;
    req->root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &error);
    if (!req->root) return -PROTO_ERR_BAD_JSON;
    if (!json_is_object(req->root)) return -PROTO_ERR_BAD_MESSAGE;
    return decode_message(req);
}

int proto_decode(const char *text, size_t len, struct proto_request *req) {
    request_init(req);
    if (!flat_read(&req->flat_fields, text, len)) return proto_decode_general(text, len, req);
    req->flat = true;
    return decode_message(req);
}

void proto_request_clear(struct proto_request *req) {
    json_decref(req->root);
    json_decref(req->owned_id);
    /* What the request owned is gone; what pointed into it must not be used either. */
    memset(req, 0, offsetof(struct proto_request, flat_fields));
}
