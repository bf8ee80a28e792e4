/*
 * The message tables, built from messages.def, and the decoder. Each message lists the fields
 * it takes; each field kind has one check with the limits the declaration gives it, so every
 * message gets the same validation and the same error for the same mistake. Unknown fields are
 * ignored (newer clients may send more).
 */
#include "proto/proto.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/game.h"

/* ---- the tables ---- */

const struct proto_field_spec proto_fields[PROTO_FIELD_COUNT] = {
#define PROTO_FIELD(kind, key_, check_, min_, max_, words_, ts_)                                   \
    [PROTO_FIELD_##kind] = {                                                                       \
        .key = key_, .check = check_, .min = min_, .max = max_, .words = words_, .ts = ts_},
#include "proto/messages.def"
};

const struct proto_message_spec proto_messages[PROTO_MSG_COUNT] = {
#define PROTO_CLIENT(name, type_, who, core_, handler_, store, list)                               \
    [PROTO_MSG_##name] = {.type = type_,                                                           \
                          .msg = PROTO_MSG_##name,                                                 \
                          .needs_hello = (who) == PROTO_AFTER_HELLO,                               \
                          .use = {[PROTO_FIELD_COUNT] = PROTO_UNUSED, list},                       \
                          .core = core_,                                                           \
                          .handler = #handler_,                                                    \
                          .writes = (store) == PROTO_WRITES},
#include "proto/messages.def"
};

/* A server message's keys: an array that ends with an empty key, and how many come before it. */
#define KEYS(...)      ((const struct proto_key[]){__VA_ARGS__{NULL, NULL, false}})
#define KEY_COUNT(...) ((int)(sizeof KEYS(__VA_ARGS__) / sizeof(struct proto_key)) - 1)

const struct proto_server_spec proto_server_messages[PROTO_OUT_COUNT] = {
#define PROTO_SERVER(name, type_, keys_)                                                           \
    [PROTO_OUT_##name] = {.type = type_, .keys = KEYS(keys_), .key_count = KEY_COUNT(keys_)},
#include "proto/messages.def"
};

int proto_core_command(enum proto_msg msg) {
    if ((int)msg < 0 || msg >= PROTO_MSG_COUNT) return PROTO_NO_CMD;
    return proto_messages[msg].core;
}

const char *proto_word(enum proto_field kind, int value) {
    if ((int)kind < 0 || kind >= PROTO_FIELD_COUNT) return "";
    const struct proto_words *w = &proto_fields[kind].words;
    return value >= 0 && value < w->count ? w->words[value] : "";
}

const struct proto_server_spec *proto_server_find(const char *type) {
    for (int i = 0; type && i < PROTO_OUT_COUNT; i++) {
        if (strcmp(proto_server_messages[i].type, type) == 0) return &proto_server_messages[i];
    }
    return NULL;
}

int proto_server_check(const json_t *msg, const char **key) {
    *key = "type";
    const struct proto_server_spec *spec =
        proto_server_find(json_string_value(json_object_get(msg, "type")));
    if (!spec) return -1;
    const char *k;
    const json_t *value;
    json_object_foreach((json_t *)msg, k, value) {
        bool declared = strcmp(k, "type") == 0 || strcmp(k, "id") == 0;
        for (int i = 0; !declared && i < spec->key_count; i++)
            declared = strcmp(spec->keys[i].key, k) == 0;
        if (!declared) {
            *key = k;
            return -2;
        }
    }
    for (int i = 0; i < spec->key_count; i++) {
        if (spec->keys[i].required && !json_object_get(msg, spec->keys[i].key)) {
            *key = spec->keys[i].key;
            return -3;
        }
    }
    *key = NULL;
    return 0;
}

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

/* ---- fields: each kind is checked the same way in every message ---- */

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

static inline struct field field_get(const struct proto_request *req, const char *name) {
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

/* A field's value once checked; the kind's check says which member holds it. */
union value {
    const char *string;     /* ID, TEXT, NAME */
    json_int_t number;      /* INT */
    int word;               /* WORD: the index of the word */
    bool flag;              /* BOOL */
    struct time_control tc; /* TIME */
    const json_t *list;     /* MOVES, OBJECT: borrowed from the message */
};

static bool is_alnum(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* "unlimited", {"minutes": M (a number), "increment": S (whole seconds)}, or {"days": N}
 * (daily: N days per move, one of game_daily_days_valid()'s). */
static int check_time(const struct proto_field_spec *f, const struct field *v,
                      struct time_control *tc) {
    if (v->kind == FIELD_STRING && strcmp(v->string, "unlimited") == 0) {
        *tc = (struct time_control){.unlimited = true};
        return 0;
    }
    const json_t *obj = v->json; /* an object is never read flat */
    if (!json_is_object(obj)) return -1;
    const json_t *days = json_object_get(obj, "days");
    if (days) {
        json_int_t d = json_is_integer(days) ? json_integer_value(days) : 0;
        /* the range first: a larger value would not fit the int */
        if (json_object_size(obj) != 1 || d < 1 || d > 14 || !game_daily_days_valid((int)d))
            return -1;
        *tc = (struct time_control){.days = (int)d};
        return 0;
    }
    const json_t *minutes = json_object_get(obj, "minutes");
    const json_t *increment = json_object_get(obj, "increment");
    if (!json_is_number(minutes) || !json_is_integer(increment)) return -1;
    double initial_ms = json_number_value(minutes) * 60000.0;
    json_int_t inc = json_integer_value(increment); /* seconds: compared before scaling */
    if (!isfinite(initial_ms) || initial_ms < (double)f->min || initial_ms > (double)f->max ||
        inc < 0 || inc > TC_MAX_INCREMENT_MS / 1000)
        return -1;
    *tc = (struct time_control){.initial_ms = (int64_t)llround(initial_ms),
                                .increment_ms = (int64_t)inc * 1000};
    return 0;
}

/* Checks a field the message has against its kind. Returns 0 with *out set, or -1. */
static int check_value(const struct proto_field_spec *f, const struct field *v, union value *out) {
    switch (f->check) {
        case PROTO_CHECK_ID:
        case PROTO_CHECK_TEXT:
        case PROTO_CHECK_NAME: {
            if (v->kind != FIELD_STRING) return -1;
            size_t len = v->len;
            const char *s = v->string;
            /* A NUL inside: only jansson's strings can hold one (the flat reader refuses it). */
            if (len < (size_t)f->min || len > (size_t)f->max || (v->json && strlen(s) != len))
                return -1;
            /* One loop per kind: ids are on every move, so the per-byte test stays short. */
            if (f->check == PROTO_CHECK_ID) {
                for (size_t i = 0; i < len; i++)
                    if (!is_alnum(s[i])) return -1;
            } else if (f->check == PROTO_CHECK_NAME) {
                for (size_t i = 0; i < len; i++)
                    if (!is_alnum(s[i]) && s[i] != '_' && s[i] != '-') return -1;
            }
            out->string = s;
            return 0;
        }
        case PROTO_CHECK_INT:
            if (v->kind != FIELD_INT || v->number < f->min || v->number > f->max) return -1;
            out->number = v->number;
            return 0;
        case PROTO_CHECK_WORD:
            if (v->kind != FIELD_STRING) return -1;
            for (int i = 0; i < f->words.count; i++) {
                if (strcmp(v->string, f->words.words[i]) == 0) {
                    out->word = i;
                    return 0;
                }
            }
            return -1;
        case PROTO_CHECK_TIME: return check_time(f, v, &out->tc);
        case PROTO_CHECK_MOVES: {
            /* Their meaning is checked later, against a position. */
            const json_t *list = v->json; /* an array is never read flat */
            if (!json_is_array(list) || json_array_size(list) > (size_t)f->max) return -1;
            for (size_t i = 0; i < json_array_size(list); i++) {
                const json_t *m = json_array_get(list, i);
                if (!json_is_string(m) || json_string_length(m) == 0 || json_string_length(m) > 16)
                    return -1;
            }
            out->list = list;
            return 0;
        }
        case PROTO_CHECK_BOOL:
            if (!json_is_boolean(v->json)) return -1; /* never read flat */
            out->flag = json_is_true(v->json);
            return 0;
        case PROTO_CHECK_OBJECT:
            if (!json_is_object(v->json)) return -1; /* never read flat */
            out->list = v->json;
            return 0;
    }
    return -1;
}

/* Puts a checked value where the handlers and the core read it. */
static void store_value(struct proto_request *req, enum proto_field kind, const union value *x) {
    struct core_cmd *cmd = &req->cmd;
    switch (kind) {
        case PROTO_FIELD_GAME: req->game = cmd->target = x->string; break;
        case PROTO_FIELD_SEEK:
        case PROTO_FIELD_CHALLENGE: cmd->target = x->string; break;
        case PROTO_FIELD_MOVE:
        case PROTO_FIELD_TEXT: cmd->text = x->string; break;
        case PROTO_FIELD_PLY: cmd->expected_ply = (int)x->number; break;
        case PROTO_FIELD_TIME: cmd->tc = x->tc; break;
        case PROTO_FIELD_COLOR: cmd->color = (enum color_choice)x->word; break;
        case PROTO_FIELD_LEVEL: cmd->level = (int)x->number; break;
        case PROTO_FIELD_ROOM: cmd->room = (enum chat_room)x->word; break;
        case PROTO_FIELD_RESULT: cmd->claim_win = x->word == 1; break; /* "draw", "win" */
        case PROTO_FIELD_TOKEN: req->token = x->string; break;
        case PROTO_FIELD_NAME: req->name = x->string; break;
        case PROTO_FIELD_PROTOCOL: req->protocol = (int)x->number; break;
        case PROTO_FIELD_LIMIT: req->limit = (int)x->number; break;
        case PROTO_FIELD_USERNAME: req->username = x->string; break;
        case PROTO_FIELD_PASSWORD: req->password = x->string; break;
        case PROTO_FIELD_PLAYER: req->player = cmd->opponent = x->string; break;
        case PROTO_FIELD_PAGE: req->page = (int)x->number; break;
        case PROTO_FIELD_CATEGORY: req->category = x->word; break;
        case PROTO_FIELD_PGN: req->pgn = x->string; break;
        case PROTO_FIELD_FEN: req->fen = cmd->fen = x->string; break;
        case PROTO_FIELD_VARIANT: cmd->variant = (enum game_variant)x->word; break;
        case PROTO_FIELD_POSITION:
            cmd->has_chess960 = true;
            cmd->chess960 = (int)x->number;
            break;
        case PROTO_FIELD_MOVES: req->moves = x->list; break;
        case PROTO_FIELD_DEPTH: req->depth = (int)x->number; break;
        case PROTO_FIELD_MOVETIME: req->movetime_ms = (int)x->number; break;
        case PROTO_FIELD_MULTIPV: req->multipv = (int)x->number; break;
        case PROTO_FIELD_ANALYSIS: req->analysis = (int64_t)x->number; break;
        case PROTO_FIELD_RATED:
            cmd->casual = !x->flag;
            cmd->rated_required = x->flag;
            break;
        case PROTO_FIELD_REASON: cmd->decline_reason = (enum challenge_decline)x->word; break;
        case PROTO_FIELD_LAG:
            cmd->has_lag = true;
            cmd->lag_ms = (int64_t)x->number;
            break;
        case PROTO_FIELD_PREMOVE: cmd->premove = x->flag; break;
        case PROTO_FIELD_ACTION: req->action = x->word; break;
        case PROTO_FIELD_KIND: req->kind = x->word; break;
        case PROTO_FIELD_REPORT: req->report = (int64_t)x->number; break;
        case PROTO_FIELD_CURRENT: req->current = x->string; break;
        case PROTO_FIELD_NEW: req->new_password = x->string; break;
        case PROTO_FIELD_SESSION: req->session = x->string; break;
        case PROTO_FIELD_DESCRIPTION: req->description = x->string; break;
        case PROTO_FIELD_SCOPES: req->scopes = x->string; break;
        case PROTO_FIELD_TOKEN_ID: req->token_id = x->string; break;
        case PROTO_FIELD_SETTINGS: req->settings = x->list; break;
        case PROTO_FIELD_ARENA: req->arena = cmd->target = x->string; break;
        case PROTO_FIELD_ARENA_NAME: cmd->name = x->string; break;
        case PROTO_FIELD_MINUTES: cmd->minutes = (int)x->number; break;
        case PROTO_FIELD_STARTS_IN: cmd->starts_in_ms = (int64_t)x->number * 1000; break;
        case PROTO_FIELD_COUNT: break;
    }
}

/* The message's fields, in the order of the kinds: the first one missing or bad is named. A
 * message uses a few of the kinds, so their table is read a word (eight kinds) at a time and
 * the words with none skipped. */
static int decode_fields(struct proto_request *req, const struct proto_message_spec *spec) {
    _Static_assert(PROTO_UNUSED == 0, "unused kinds are zero bytes");
    _Static_assert(sizeof spec->use % 8 == 0, "the kinds' table is whole words");
    for (int base = 0; base < PROTO_FIELD_COUNT; base += 8) {
        uint64_t word;
        memcpy(&word, spec->use + base, sizeof word);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word); /* use[base] in the lowest byte */
#endif
        /* The used kinds' bytes, lowest first. */
        while (word) {
            int byte = __builtin_ctzll(word) / 8;
            word &= ~(UINT64_C(0xff) << (8 * byte));
            int kind = base + byte;
            const struct proto_field_spec *f = &proto_fields[kind];
            /* Looked up once: the checks take it. */
            const struct field v = field_get(req, f->key);
            if (v.kind == FIELD_ABSENT) {
                if (spec->use[kind] == PROTO_REQUIRED) return bad_field(req, f->key);
                continue;
            }
            union value x;
            if (check_value(f, &v, &x) < 0) return bad_field(req, f->key);
            store_value(req, (enum proto_field)kind, &x);
        }
    }
    return 0;
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

/* The bytes a flat string may hold as they are: printable ASCII but the quote and the
 * backslash (anything else is left to jansson). One load a byte instead of four tests. */
/* clang-format off */
#define ROW16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
static const unsigned char flat_plain[256] = {
    ROW16(0), ROW16(0),                              /* controls */
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 0x22 '"' */
    ROW16(1), ROW16(1),                              /* 0x30-0x4f */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,  /* 0x5c '\\' */
    ROW16(1),                                        /* 0x60-0x6f */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,  /* 0x7f DEL */
    ROW16(0), ROW16(0), ROW16(0), ROW16(0), ROW16(0), ROW16(0), ROW16(0), ROW16(0)};
#undef ROW16
/* clang-format on */

/* A string from just after its opening quote, in the NUL-terminated copy: NUL-terminated in
 * place. Returns the position after the closing quote, or NULL when it is not a plain string
 * (a byte flat_plain refuses, or the end: the copy's NUL stops the scan). */
static char *flat_string(char *p, const char **out, size_t *len) {
    char *start = p;
    while (flat_plain[(unsigned char)*p]) p++;
    if (*p != '"') return NULL;
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
            if (!(p = flat_string(p + 1, &ff->key, &key_len))) return false;
            p = skip_space(p, end);
            if (p == end || *p++ != ':') return false;
            p = skip_space(p, end);
            /* Every member set: request_init() does not clear the fields. */
            if (p < end && *p == '"') {
                ff->number = 0;
                p = flat_string(p + 1, &ff->string, &ff->len);
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
    if (spec->core != PROTO_NO_CMD) req->cmd.type = (enum core_cmd_type)spec->core;
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
