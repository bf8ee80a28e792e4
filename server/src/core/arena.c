/*
 * Arena tournaments' rules (see core/arena.h): joining and pausing, scoring with streaks and
 * berserk, the standings, and the pairing of waiting players by their places in them.
 */
#include "core/arena.h"

#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "util/str.h"
#include "util/vec.h"

void arena_init(struct arena *a, int64_t starts_ms, int64_t duration_ms) {
    memset(a, 0, sizeof *a);
    a->starts_ms = starts_ms;
    a->ends_ms = starts_ms + duration_ms;
}

void arena_free(struct arena *a) {
    free(a->players);
    memset(a, 0, sizeof *a);
}

struct arena_player *arena_find(struct arena *a, const char *id) {
    for (int i = 0; i < a->count; i++) {
        if (strcmp(a->players[i].id, id) == 0) return &a->players[i];
    }
    return NULL;
}

int arena_join(struct arena *a, const char *id, int rating, int64_t now_ms) {
    if (now_ms >= a->ends_ms) return -CORE_ERR_GAME_OVER;
    struct arena_player *p = arena_find(a, id);
    if (p) {
        if (p->paused) p->waiting_since_ms = now_ms;
        p->paused = false;
        return 0;
    }
    if (vec_reserve((void **)&a->players, &a->capacity, (size_t)a->count + 1, sizeof *a->players,
                    16) < 0)
        return -CORE_ERR_NO_MEMORY;
    p = &a->players[a->count++];
    memset(p, 0, sizeof *p);
    str_copy(p->id, sizeof p->id, id);
    p->rating = rating;
    p->joined_ms = now_ms;
    p->waiting_since_ms = now_ms;
    return 0;
}

int arena_pause(struct arena *a, const char *id) {
    struct arena_player *p = arena_find(a, id);
    if (!p) return -CORE_ERR_GAME_NOT_FOUND;
    p->paused = true;
    return 0;
}

bool arena_pairing_open(const struct arena *a, int64_t now_ms) {
    return now_ms >= a->starts_ms && now_ms < a->ends_ms;
}

int arena_performance(const struct arena_player *p) {
    if (p->games == 0) return p->rating;
    return (int)((p->opponent_ratings + 500LL * (p->wins - p->losses)) / p->games);
}

/* What the standings compare, computed once per player for a sort. */
struct rank_key {
    int score, performance;
    int64_t joined_ms;
    int index;
};

/* By score, then performance (both higher first), then who joined first, then the index: a
 * total order, so the sort's result does not depend on qsort's stability. */
static int compare_rank(const void *pa, const void *pb) {
    const struct rank_key *x = pa, *y = pb;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    if (x->performance != y->performance) return x->performance > y->performance ? -1 : 1;
    if (x->joined_ms != y->joined_ms) return x->joined_ms < y->joined_ms ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Sorts n player indexes by rank (a tournament may have thousands of players: n log n).
 * Out of memory, the order is left as it is. */
static void sort_by_rank(const struct arena *a, int *order, int n) {
    struct rank_key *keys = malloc(sizeof *keys * (size_t)(n ? n : 1));
    if (!keys) return;
    for (int i = 0; i < n; i++) {
        const struct arena_player *p = &a->players[order[i]];
        keys[i] = (struct rank_key){p->score, arena_performance(p), p->joined_ms, order[i]};
    }
    qsort(keys, (size_t)n, sizeof *keys, compare_rank);
    for (int i = 0; i < n; i++) order[i] = keys[i].index;
    free(keys);
}

void arena_standings(const struct arena *a, int *rank) {
    for (int i = 0; i < a->count; i++) rank[i] = i;
    sort_by_rank(a, rank, a->count);
}

static bool were_last_opponents(const struct arena_player *x, const struct arena_player *y) {
    return strcmp(x->last_opponent, y->id) == 0 || strcmp(y->last_opponent, x->id) == 0;
}

/* White of x and y: who played Black more often; a coin on a tie. */
static bool first_is_white(const struct arena_player *x, const struct arena_player *y,
                           core_random_fn random, void *random_ctx) {
    if (x->color_bias != y->color_bias) return x->color_bias < y->color_bias;
    unsigned char coin = 0;
    if (random && random(random_ctx, &coin, 1) < 0) coin = 0;
    return (coin & 1) == 0;
}

int arena_pair_waiting(struct arena *a, int64_t now_ms, core_random_fn random, void *random_ctx,
                       struct arena_pair *out, int max) {
    if (!arena_pairing_open(a, now_ms) || max <= 0) return 0;
    int *waiting = malloc(sizeof *waiting * (size_t)(a->count ? a->count : 1));
    if (!waiting) return 0;
    int n = 0;
    for (int i = 0; i < a->count; i++) {
        const struct arena_player *p = &a->players[i];
        if (!p->playing && !p->paused && !p->absent) waiting[n++] = i;
    }
    sort_by_rank(a, waiting, n);
    int pairs = 0;
    for (int i = 0; i < n && pairs < max; i++) {
        if (waiting[i] < 0) continue;
        struct arena_player *x = &a->players[waiting[i]];
        /* The next one down the standings who did not just play it; else the next one. */
        int pick = -1, fallback = -1;
        for (int k = i + 1; k < n && pick < 0; k++) {
            if (waiting[k] < 0) continue;
            if (fallback < 0) fallback = k;
            if (!were_last_opponents(x, &a->players[waiting[k]])) pick = k;
        }
        if (pick < 0) pick = fallback;
        if (pick < 0) break;
        struct arena_player *y = &a->players[waiting[pick]];
        bool x_white = first_is_white(x, y, random, random_ctx);
        out[pairs].white = x_white ? waiting[i] : waiting[pick];
        out[pairs].black = x_white ? waiting[pick] : waiting[i];
        pairs++;
        x->playing = y->playing = true;
        waiting[pick] = -1;
    }
    free(waiting);
    return pairs;
}

/* Scores one side's game: outcome 1 a win, 0 a draw, -1 a loss. */
static int score_side(struct arena_player *p, const struct arena_player *opponent, int outcome,
                      bool berserk, int own_moves, bool white, int64_t now_ms) {
    bool fire = p->streak >= ARENA_FIRE_AFTER;
    int points = outcome > 0 ? ARENA_WIN_POINTS : outcome == 0 ? ARENA_DRAW_POINTS : 0;
    if (fire) points *= 2;
    if (outcome > 0 && berserk && own_moves >= ARENA_BERSERK_MIN_MOVES) points += 1;
    p->score += points;
    p->streak = outcome > 0 ? p->streak + 1 : 0;
    p->games++;
    p->wins += outcome > 0;
    p->draws += outcome == 0;
    p->losses += outcome < 0;
    p->opponent_ratings += opponent->rating;
    p->color_bias += white ? 1 : -1;
    str_copy(p->last_opponent, sizeof p->last_opponent, opponent->id);
    p->playing = false;
    p->waiting_since_ms = now_ms;
    if (p->sheet_len < ARENA_SHEET_MAX)
        p->sheet[p->sheet_len++] =
            (struct arena_sheet_entry){.points = (int8_t)points, .fire = fire, .berserk = berserk};
    return points;
}

int arena_record(struct arena *a, const char *white, const char *black, int result,
                 const bool berserk[2], int plies, int64_t now_ms, int *black_points) {
    struct arena_player *w = arena_find(a, white), *b = arena_find(a, black);
    if (!w || !b || w == b) return -1;
    int outcome = result > 0 ? 1 : result < 0 ? -1 : 0;
    int white_moves = (plies + 1) / 2, black_moves = plies / 2;
    int pw = score_side(w, b, outcome, berserk[0], white_moves, true, now_ms);
    *black_points = score_side(b, w, -outcome, berserk[1], black_moves, false, now_ms);
    return pw;
}

int *arena_ranking(const struct arena *a) {
    int *rank = malloc(sizeof *rank * (size_t)(a->count ? a->count : 1));
    if (rank) arena_standings(a, rank);
    return rank;
}
