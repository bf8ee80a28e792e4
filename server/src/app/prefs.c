/*
 * Player settings: a table of the known keys and what each allows, checked one key at a time.
 */
#include "app/prefs.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum rule_kind { RULE_WORD, RULE_INT, RULE_BOOL };

struct rule {
    const char *key;
    enum rule_kind kind;
    const char *const *words; /* RULE_WORD: NULL-terminated */
    json_int_t min, max;      /* RULE_INT */
};

static const char *const boards[] = {"brown", "blue", "green", "purple", "grey", NULL};
static const char *const piece_sets[] = {"cburnett", "merida", "wikimedia", NULL};
static const char *const themes[] = {"system", "light", "dark", NULL};
static const char *const speeds[] = {"none", "fast", "normal", "slow", NULL};
static const char *const auto_queen[] = {"always", "never", NULL};

static const struct rule rules[] = {
    {"board", RULE_WORD, boards, 0, 0},      {"pieces", RULE_WORD, piece_sets, 0, 0},
    {"theme", RULE_WORD, themes, 0, 0},      {"board_size", RULE_INT, NULL, 50, 100},
    {"coordinates", RULE_BOOL, NULL, 0, 0},  {"animation", RULE_WORD, speeds, 0, 0},
    {"confirm_move", RULE_BOOL, NULL, 0, 0}, {"auto_queen", RULE_WORD, auto_queen, 0, 0},
    {"volume", RULE_INT, NULL, 0, 100},      {"zen", RULE_BOOL, NULL, 0, 0},
};

/* Whether key is known and value allowed for it. */
static bool allowed(const char *key, const json_t *value) {
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        const struct rule *r = &rules[i];
        if (strcmp(r->key, key) != 0) continue;
        switch (r->kind) {
            case RULE_BOOL: return json_is_boolean(value);
            case RULE_INT:
                return json_is_integer(value) && json_integer_value(value) >= r->min &&
                       json_integer_value(value) <= r->max;
            case RULE_WORD:
                if (!json_is_string(value)) return false;
                for (const char *const *w = r->words; *w; w++)
                    if (strcmp(*w, json_string_value(value)) == 0) return true;
                return false;
        }
    }
    return false;
}

int prefs_check(const json_t *obj, char **text, const char **field) {
    *text = NULL;
    *field = "settings";
    if (!json_is_object(obj)) return -1;
    /* The size first: nothing else is looked at in an object that is too large. */
    size_t size = json_dumpb(obj, NULL, 0, JSON_COMPACT);
    if (size == 0 || size > PREFS_MAX_BYTES) return -1;
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)obj, key, value) {
        if (!allowed(key, value)) {
            *field = key;
            return -1;
        }
    }
    *text = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
    return *text ? 0 : -2;
}

json_t *prefs_parse(const char *text) {
    json_t *stored = text && text[0] ? json_loads(text, 0, NULL) : NULL;
    json_t *out = json_object();
    const char *key;
    json_t *value;
    if (out && json_is_object(stored)) {
        json_object_foreach(stored, key, value) {
            if (allowed(key, value) && json_object_set(out, key, value) < 0) {
                json_decref(out);
                out = NULL;
                break;
            }
        }
    }
    json_decref(stored);
    return out;
}
