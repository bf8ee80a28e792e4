/*
 * The search's tunable constants (chess/search_params.h): defaults, descriptions and setting
 * by name, all generated from the one list in the header.
 */
#include "chess/search_params.h"

#include <stddef.h>
#include <strings.h>

struct param_entry {
    struct chess_search_param_info info;
    size_t offset;
};

static const struct param_entry param_table[] = {
#define PARAM_ENTRY(name, def, lo, hi)                                                             \
    {{#name, def, lo, hi}, offsetof(struct chess_search_params, name)},
    CHESS_SEARCH_PARAMS(PARAM_ENTRY)
#undef PARAM_ENTRY
};

#define PARAM_COUNT ((int)(sizeof param_table / sizeof param_table[0]))

static int *param_field(struct chess_search_params *params, int i) {
    return (int *)((char *)params + param_table[i].offset);
}

void chess_search_params_default(struct chess_search_params *params) {
    for (int i = 0; i < PARAM_COUNT; i++)
        *param_field(params, i) = param_table[i].info.default_value;
}

int chess_search_params_count(void) {
    return PARAM_COUNT;
}

const struct chess_search_param_info *chess_search_param_info(int i) {
    return i >= 0 && i < PARAM_COUNT ? &param_table[i].info : NULL;
}

int chess_search_params_get(const struct chess_search_params *params, int i) {
    return *(const int *)((const char *)params + param_table[i].offset);
}

int chess_search_params_set(struct chess_search_params *params, const char *name, int value) {
    for (int i = 0; i < PARAM_COUNT; i++) {
        const struct chess_search_param_info *info = &param_table[i].info;
        if (strcasecmp(info->name, name) != 0) continue;
        if (value < info->min || value > info->max) return -1;
        *param_field(params, i) = value;
        return 0;
    }
    return -1;
}
