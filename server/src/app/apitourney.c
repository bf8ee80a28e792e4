/*
 * lichess's arena tournament endpoints (apitourney.h): lichess's JSON shapes made from the
 * world's arenas, and the form of a new arena turned into the protocol's arena_create.
 */
#include "app/apitourney.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/archive.h"
#include "app/auth.h"
#include "app/httpapi.h"
#include "app/internal.h"
#include "app/lichess.h"
#include "app/persist.h"
#include "app/reads.h"
#include "app/site.h"
#include "core/rating.h"
#include "core/world.h"
#include "util/now.h"

/* lichess's tournament statuses. */
#define STATUS_CREATED  10
#define STATUS_STARTED  20
#define STATUS_FINISHED 30

#define STANDING_PAGE   10        /* players on a page of GET /api/tournament/{id}, as on lichess */
#define WAIT_MINUTES    5         /* lichess's default delay before a new arena starts */
#define OPERATOR_AUTHOR "lichess" /* createdBy of the operator's arenas, as lichess's own */

static void put(json_t *obj, const char *key, json_t *value) {
    if (value) json_object_set_new(obj, key, value);
}

static const int status_numbers[] = {STATUS_CREATED, STATUS_STARTED, STATUS_FINISHED};

/* lichess's user id of a player of this server: its name in lower case; the id when the name
 * is not known here. */
static void user_id_of(const struct world *world, const struct world_arena *a, const char *id,
                       char *out, size_t size) {
    const struct player *p = world_player_by_id(world, id);
    const struct arena_player *ap = p ? NULL : arena_find((struct arena *)&a->arena, id);
    const char *name = p ? p->name : ap ? ap->name : id;
    lichess_user_id(name, out, size);
}

static void created_by(const struct world *world, const struct world_arena *a, char *out,
                       size_t size) {
    if (!a->creator[0])
        snprintf(out, size, "%s", OPERATOR_AUTHOR);
    else
        user_id_of(world, a, a->creator, out, size);
}

/* lichess's full name: the name, and " Arena" after it unless it says so already. */
static void full_name(const struct world_arena *a, char *out, size_t size) {
    size_t n = strlen(a->name);
    bool arena = n >= 5 && strcmp(a->name + n - 5, "Arena") == 0;
    snprintf(out, size, "%s%s", a->name, arena ? "" : " Arena");
}

static json_t *clock_json(const struct world_arena *a) {
    return json_pack("{s:I,s:I}", "limit", (json_int_t)(a->tc.initial_ms / 1000), "increment",
                     (json_int_t)(a->tc.increment_ms / 1000));
}

static json_t *perf_json(const struct world_arena *a) {
    int c = rating_category_of(&a->tc);
    const char *key = rating_category_name(c), *name = rating_category_title(c);
    return json_pack("{s:s,s:s}", "key", key ? key : "blitz", "name", name ? name : "Blitz");
}

static int64_t ends_at(const struct world_arena *a) {
    return a->starts_wall_ms + a->minutes * 60000LL;
}

/* What every shape has: id, createdBy, system, fullName, minutes, clock, rated, perf,
 * nbPlayers, status and the seconds to its start (or end). */
static json_t *arena_common(const struct world *world, const struct world_arena *a) {
    char by[64], name[WORLD_ARENA_NAME_MAX + 8];
    created_by(world, a, by, sizeof by);
    full_name(a, name, sizeof name);
    json_t *obj = json_pack("{s:s,s:s,s:s,s:s,s:i,s:o,s:b,s:o,s:i,s:i}", "id", a->id, "createdBy",
                            by, "system", "arena", "fullName", name, "minutes", a->minutes, "clock",
                            clock_json(a), "rated", a->rated, "perf", perf_json(a), "nbPlayers",
                            a->arena.count, "status", status_numbers[a->status]);
    if (!obj) return NULL;
    int64_t now = now_wall_ms();
    if (a->status == WORLD_ARENA_CREATED)
        put(obj, "secondsToStart",
            json_integer(a->starts_wall_ms > now ? (a->starts_wall_ms - now) / 1000 : 0));
    if (a->status == WORLD_ARENA_STARTED)
        put(obj, "secondsToFinish", json_integer(ends_at(a) > now ? (ends_at(a) - now) / 1000 : 0));
    return obj;
}

static bool is_bot(const struct world *world, const char *id) {
    const struct player *p = world_player_by_id(world, id);
    return p && p->bot;
}

/* A player's sheet as lichess writes it: each game's points, in the order played. */
static json_t *sheet_json(const struct arena_player *p) {
    char scores[ARENA_SHEET_MAX + 1];
    int n = 0;
    for (int k = 0; k < p->sheet_len; k++)
        scores[n++] = (char)('0' + (p->sheet[k].points < 10 ? p->sheet[k].points : 9));
    scores[n] = '\0';
    json_t *sheet = json_pack("{s:s}", "scores", scores);
    if (sheet && p->streak >= ARENA_FIRE_AFTER) put(sheet, "fire", json_true());
    return sheet;
}

/* A place as lichess's standing (and results, podium) have it: name, rank, rating, score. */
static json_t *place_json(const struct world *world, const struct arena_player *p, int rank,
                          const char *name_key) {
    json_t *obj = json_pack("{s:s,s:i,s:i,s:i}", name_key, p->name, "rank", rank, "rating",
                            p->rating, "score", p->score);
    if (obj && is_bot(world, p->id)) put(obj, "title", json_string("BOT"));
    return obj;
}

static json_t *standing_json(const struct world *world, const struct world_arena *a,
                             const int *rank, int page) {
    json_t *players = json_array();
    for (int r = (page - 1) * STANDING_PAGE;
         players && r < a->arena.count && r < page * STANDING_PAGE; r++) {
        const struct arena_player *p = &a->arena.players[rank[r]];
        json_t *obj = place_json(world, p, r + 1, "name");
        if (obj) put(obj, "sheet", sheet_json(p));
        if (obj && p->paused) put(obj, "withdraw", json_true());
        json_array_append_new(players, obj);
    }
    return json_pack("{s:i,s:o}", "page", page, "players", players);
}

static json_t *podium_json(const struct world *world, const struct world_arena *a,
                           const int *rank) {
    json_t *podium = json_array();
    for (int r = 0; podium && r < a->arena.count && r < 3; r++) {
        const struct arena_player *p = &a->arena.players[rank[r]];
        int berserks = 0;
        for (int k = 0; k < p->sheet_len; k++) berserks += p->sheet[k].berserk;
        json_t *obj = place_json(world, p, r + 1, "name");
        if (obj)
            put(obj, "nb",
                json_pack("{s:i,s:i,s:i}", "game", p->games, "berserk", berserks, "win", p->wins));
        if (obj) put(obj, "performance", json_integer(arena_performance(p)));
        json_array_append_new(podium, obj);
    }
    return podium;
}

/* The games in progress: {"id", "p": [white, black] as {"n": name, "r": rating}}. */
static json_t *duels_json(const struct world *world, const struct world_arena *a, const int *rank) {
    json_t *duels = json_array();
    for (int r = 0; duels && r < a->arena.count; r++) {
        const struct arena_player *ap = &a->arena.players[rank[r]];
        const struct player *p = ap->playing ? world_player_by_id(world, ap->id) : NULL;
        const struct game *g = p ? world_arena_game_of(world, a, p) : NULL;
        if (!g || g->players[CHESS_WHITE] != p) continue; /* each game once, by its White */
        const struct arena_player *b =
            arena_find((struct arena *)&a->arena, g->players[CHESS_BLACK]->id);
        json_array_append_new(duels, json_pack("{s:s,s:[{s:s,s:i},{s:s,s:i}]}", "id", g->id, "p",
                                               "n", ap->name, "r", ap->rating, "n",
                                               b ? b->name : "", "r", b ? b->rating : 0));
    }
    return duels;
}

/* ISO 8601 in UTC with milliseconds, as lichess's full tournament writes startsAt. */
static void iso_time(int64_t ms, char *out, size_t size) {
    time_t seconds = (time_t)(ms / 1000);
    struct tm tm;
    if (!gmtime_r(&seconds, &tm)) {
        snprintf(out, size, "1970-01-01T00:00:00.000Z");
        return;
    }
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out, size, "%s.%03dZ", date, (int)(ms % 1000));
}

/* lichess's full tournament (GET /api/tournament/{id}), with a page of the standings. */
static json_t *arena_full(const struct world *world, const struct world_arena *a, int page) {
    json_t *obj = arena_common(world, a);
    int *rank = arena_ranking(&a->arena);
    if (!obj || !rank) {
        free(rank);
        json_decref(obj);
        return NULL;
    }
    char starts[40];
    iso_time(a->starts_wall_ms, starts, sizeof starts);
    put(obj, "startsAt", json_string(starts));
    put(obj, "variant", json_string("standard"));
    put(obj, "berserkable", json_true());
    put(obj, "verdicts", json_pack("{s:[],s:b}", "list", "accepted", 1));
    put(obj, "isStarted", json_boolean(a->status != WORLD_ARENA_CREATED));
    put(obj, "isFinished", json_boolean(a->status == WORLD_ARENA_FINISHED));
    if (a->status == WORLD_ARENA_STARTED && now_wall_ms() >= ends_at(a))
        put(obj, "pairingsClosed", json_true());
    put(obj, "duels", duels_json(world, a, rank));
    put(obj, "standing", standing_json(world, a, rank, page));
    if (a->status == WORLD_ARENA_FINISHED) put(obj, "podium", podium_json(world, a, rank));
    free(rank);
    return obj;
}

/* lichess's tournament in lists (GET /api/tournament, created by a user). */
static json_t *arena_entry(const struct world *world, const struct world_arena *a) {
    json_t *obj = arena_common(world, a);
    if (!obj) return NULL;
    put(obj, "variant",
        json_pack("{s:s,s:s,s:s}", "key", "standard", "short", "Std", "name", "Standard"));
    put(obj, "startsAt", json_integer(a->starts_wall_ms));
    put(obj, "finishesAt", json_integer(ends_at(a)));
    if (a->status == WORLD_ARENA_FINISHED && a->arena.count > 0) {
        int *rank = arena_ranking(&a->arena);
        if (rank) {
            const struct arena_player *w = &a->arena.players[rank[0]];
            char id[64];
            lichess_user_id(w->name, id, sizeof id);
            put(obj, "winner", json_pack("{s:s,s:s}", "id", id, "name", w->name));
        }
        free(rank);
    }
    return obj;
}

/* NDJSON built in memory, then answered at once. */
struct ndjson {
    char *text;
    size_t len, cap;
};

/* Appends line (consumed). Returns 0 or -1 when memory runs out. */
static int ndjson_add(struct ndjson *out, json_t *line) {
    char *text = line ? json_dumps(line, JSON_COMPACT) : NULL;
    json_decref(line);
    if (!text) return -1;
    size_t n = strlen(text);
    if (out->len + n + 2 > out->cap) {
        size_t cap = 2 * (out->len + n + 1) + 1024;
        char *bigger = realloc(out->text, cap);
        if (!bigger) {
            free(text);
            return -1;
        }
        out->text = bigger;
        out->cap = cap;
    }
    memcpy(out->text + out->len, text, n);
    out->len += n;
    out->text[out->len++] = '\n';
    free(text);
    return 0;
}

/* The text so far, NUL-terminated (allocated, the caller frees it), or NULL. */
static char *ndjson_finish(struct ndjson *out) {
    char *text = out->text ? out->text : malloc(1);
    if (text) text[out->len] = '\0'; /* ndjson_add leaves room for it */
    return text;
}

/* A whole number from a query argument, or dflt when absent or not one. */
static long query_long(struct hapi *h, const char *name, long dflt) {
    char text[24];
    if (!net_http_query_arg(h->req, name, text, sizeof text)) return dflt;
    char *end;
    long v = strtol(text, &end, 10);
    return *end || end == text ? dflt : v;
}

static struct world_arena *arena_of(struct hapi *h) {
    return world_arena(h->srv->world, h->args[0]);
}

static int no_such_arena(struct hapi *h) {
    return hapi_error(h->req, 404, "No such tournament");
}

/* ---- reads ---- */

/* The node's arenas as GET /api/tournament lists them, in creation order. */
static json_t *list_json(const struct world *world) {
    json_t *lists[3] = {json_array(), json_array(), json_array()};
    for (const struct world_arena *a = world_arena_first(world); a; a = a->next)
        if (lists[a->status]) json_array_append_new(lists[a->status], arena_entry(world, a));
    return json_pack("{s:o,s:o,s:o}", "created", lists[0], "started", lists[1], "finished",
                     lists[2]);
}

/* The node's arenas that creator created, oldest first: {"arenas": [...]}. */
static json_t *created_json(const struct world *world, const char *creator) {
    json_t *mine = json_array();
    for (const struct world_arena *a = world_arena_first(world); mine && a; a = a->next)
        if (strcmp(a->creator, creator) == 0) json_array_append_new(mine, arena_entry(world, a));
    return json_pack("{s:o*}", "arenas", mine);
}

static int by_start(const void *a, const void *b) {
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    json_int_t sx = json_integer_value(json_object_get(x, "startsAt"));
    json_int_t sy = json_integer_value(json_object_get(y, "startsAt"));
    if (sx != sy) return sx < sy ? -1 : 1;
    const char *ix = json_string_value(json_object_get(x, "id"));
    const char *iy = json_string_value(json_object_get(y, "id"));
    return strcmp(ix ? ix : "", iy ? iy : "");
}

/* Several nodes' lists (each in its node's creation order) merged: each by start time. */
static void sort_by_start(json_t *lists) {
    const char *key;
    json_t *list;
    json_object_foreach(lists, key, list) {
        size_t n = json_array_size(list);
        json_t **items = n ? malloc(sizeof *items * n) : NULL;
        if (!items) continue;
        for (size_t i = 0; i < n; i++) items[i] = json_incref(json_array_get(list, i));
        qsort(items, n, sizeof *items, by_start);
        json_array_clear(list);
        for (size_t i = 0; i < n; i++) json_array_append_new(list, items[i]);
        free(items);
    }
}

/* Asks the site's other nodes for their lists of q (gathered into here, taken over, and
 * answered by answer), or, alone, answers here at once. */
static int gather_lists(struct hapi *h, const struct apitourney_query *q, json_t *here,
                        int (*answer)(struct hapi *h, json_t *gathered)) {
    uint64_t request = hapi_next_remote_id(h->srv);
    int asked = site_arena_get(h->srv, NULL, request, q);
    if (asked > 0) {
        hapi_gather_remote(h, request, asked, here, answer);
        return 0;
    }
    int rc = answer(h, here);
    json_decref(here);
    return rc;
}

static int list_answer(struct hapi *h, json_t *lists) {
    if (h->kind == HAPI_REMOTE) sort_by_start(lists);
    return api_send_json(h->req, 200, json_incref(lists));
}

/* On a site, every node's arenas: the other nodes are asked, and the answer waits for them. */
int apitourney_list(struct hapi *h) {
    json_t *here = list_json(h->srv->world);
    struct apitourney_query q = {.read = APITOURNEY_LIST};
    return here ? gather_lists(h, &q, here, list_answer) : -1;
}

/* The players by rank as NDJSON (at most q->nb; with their sheets when q->sheet). */
static char *results_text(const struct world *world, const struct world_arena *a,
                          const struct apitourney_query *q) {
    int *rank = arena_ranking(&a->arena);
    struct ndjson out = {0};
    int rc = rank ? 0 : -1;
    for (int r = 0; rc == 0 && r < a->arena.count && r < q->nb; r++) {
        const struct arena_player *p = &a->arena.players[rank[r]];
        json_t *line = place_json(world, p, r + 1, "username");
        if (line) put(line, "performance", json_integer(arena_performance(p)));
        if (line && q->sheet) put(line, "sheet", sheet_json(p));
        rc = ndjson_add(&out, line);
    }
    free(rank);
    if (rc < 0) {
        free(out.text);
        return NULL;
    }
    return ndjson_finish(&out);
}

char *apitourney_render(const struct world *world, const struct world_arena *a,
                        const struct apitourney_query *q, const char **type) {
    if (q->read == APITOURNEY_RESULTS) {
        *type = "application/x-ndjson";
        return results_text(world, a, q);
    }
    *type = "application/json";
    json_t *obj = q->read == APITOURNEY_LIST      ? list_json(world)
                  : q->read == APITOURNEY_CREATED ? created_json(world, q->creator)
                                                  : arena_full(world, a, q->page);
    char *text = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
    json_decref(obj);
    return text;
}

/* The request's query: page= (1 to 200), nb= and sheet=true. */
static struct apitourney_query query_of(struct hapi *h, enum apitourney_read read) {
    struct apitourney_query q = {.read = read, .page = 1, .nb = LONG_MAX};
    long page = query_long(h, "page=", 1);
    if (page >= 1 && page <= 200) q.page = (int)page;
    q.nb = query_long(h, "nb=", LONG_MAX);
    char sheet[8] = "";
    net_http_query_arg(h->req, "sheet=", sheet, sizeof sheet);
    q.sheet = strcmp(sheet, "true") == 0;
    return q;
}

/* Answers q about the arena the path names: here, or on a site by the node that holds it (the
 * request waits for its answer), or 404. */
static int answer_arena(struct hapi *h, const struct apitourney_query *q) {
    const struct world_arena *a = arena_of(h);
    if (!a) {
        uint64_t request = hapi_next_remote_id(h->srv);
        if (site_arena_get(h->srv, h->args[0], request, q) <= 0) return no_such_arena(h);
        hapi_wait_remote(h, request, q->read == APITOURNEY_RESULTS);
        return 0;
    }
    const char *type;
    char *body = apitourney_render(h->srv->world, a, q, &type);
    return body ? net_http_respond(h->req, 200, type, body, strlen(body)) : -1;
}

int apitourney_info(struct hapi *h) {
    struct apitourney_query q = query_of(h, APITOURNEY_ARENA);
    return answer_arena(h, &q);
}

int apitourney_results(struct hapi *h) {
    struct apitourney_query q = query_of(h, APITOURNEY_RESULTS);
    return answer_arena(h, &q);
}

/* The arena's ended games as stored, oldest first: PGN, or NDJSON with Accept:
 * application/x-ndjson (opening=true: each game's opening, as /api/games/user/ has it). */
int apitourney_games(struct hapi *h) {
    /* Another node's arena: its games are in the site's one database too. */
    if (!arena_of(h) && !site_arena_elsewhere(h->srv, h->args[0])) return no_such_arena(h);
    bool ndjson = strstr(net_http_accept(h->req), "application/x-ndjson") != NULL;
    char opening[8] = "";
    net_http_query_arg(h->req, "opening=", opening, sizeof opening);
    return archive_http_arena_games(h->srv, h->req, h->args[0], ndjson, 0,
                                    strcmp(opening, "true") == 0);
}

/* The arenas gathered, newest first, as NDJSON lines. */
static int created_send(struct hapi *h, json_t *gathered) {
    if (h->kind == HAPI_REMOTE) sort_by_start(gathered);
    json_t *list = json_object_get(gathered, "arenas");
    struct ndjson out = {0};
    int rc = 0;
    for (size_t i = json_array_size(list); rc == 0 && i-- > 0;)
        rc = ndjson_add(&out, json_incref(json_array_get(list, i)));
    char *text = rc == 0 ? ndjson_finish(&out) : NULL;
    if (!text) {
        free(out.text);
        return -1;
    }
    return net_http_respond(h->req, 200, "application/x-ndjson", text, out.len);
}

/* GET /api/user/{username}/tournament/created: the user's id, read off the loop, then its
 * arenas (newest first) as NDJSON; on a site, every node's. */
static int created_answer(struct hapi *h, struct hapi_user_read *user) {
    json_t *here = created_json(h->srv->world, user->id.player_id);
    struct apitourney_query q = {.read = APITOURNEY_CREATED, .creator = user->id.player_id};
    return here ? gather_lists(h, &q, here, created_send) : -1;
}

int apitourney_created(struct hapi *h) {
    struct hapi_user_read *r = calloc(1, sizeof *r);
    if (!r) return -1;
    r->send = created_answer;
    return hapi_read_user(h, r);
}

/* ---- actions ---- */

/* The new arena, as GET /api/tournament/{id} shows it (the reply carries its id). */
static int create_answer(struct hapi *h, const json_t *reply) {
    const char *id = json_string_value(json_object_get(json_object_get(reply, "arena"), "id"));
    const struct world_arena *a = id ? world_arena(h->srv->world, id) : NULL;
    json_t *full = a ? arena_full(h->srv->world, a, 1) : NULL;
    if (!full) return hapi_error(h->req, 500, "The tournament cannot be shown");
    return api_send_json(h->req, 200, full);
}

/* A number field of the form: absent (1, *value untouched), a number (0) or not one (-1). */
static int form_number(struct hapi *h, const char *name, double *value) {
    char text[32];
    if (!hapi_form_field(h, name, text, sizeof text)) return 1;
    char *end;
    double v = strtod(text, &end);
    if (*end || end == text || !isfinite(v)) return -1;
    *value = v;
    return 0;
}

/*
 * POST /api/tournament: lichess's form (name, clockTime in minutes, clockIncrement in seconds,
 * minutes, waitMinutes or startDate in Unix ms, variant, rated) as arena_create. The world
 * checks the bounds it keeps (ARENA_BAD_SETTINGS); here, what lichess's form itself refuses.
 */
int apitourney_create(struct hapi *h) {
    double clock_time = -1, increment = -1, minutes = -1, wait = WAIT_MINUTES, start_date = -1;
    char value[64], name[WORLD_ARENA_NAME_MAX * 2];
    if (form_number(h, "clockTime", &clock_time) != 0 || clock_time < 0 || clock_time > 180)
        return hapi_error(h->req, 400, "clockTime: the clock's initial time, 0 to 180 minutes");
    if (form_number(h, "clockIncrement", &increment) != 0 || increment < 0 || increment > 180 ||
        increment != floor(increment))
        return hapi_error(h->req, 400, "clockIncrement: the increment, 0 to 180 seconds");
    if (form_number(h, "minutes", &minutes) != 0 || minutes < 1 ||
        minutes > WORLD_ARENA_MINUTES_MAX || minutes != floor(minutes))
        return hapi_error(h->req, 400, "minutes: the tournament's length, 1 to 720 minutes");
    if (form_number(h, "waitMinutes", &wait) < 0 || wait < 0 || wait > 7 * 24 * 60)
        return hapi_error(h->req, 400, "waitMinutes: 0 to 10080 minutes before the start");
    if (form_number(h, "startDate", &start_date) < 0)
        return hapi_error(h->req, 400, "startDate: the start in Unix milliseconds");
    if (hapi_form_field(h, "variant", value, sizeof value) && strcmp(value, "standard") != 0)
        return hapi_error(h->req, 400, "variant: only standard arenas are played here");
    if (clock_time == 0 && increment == 0)
        return hapi_error(h->req, 400, "clockTime and clockIncrement: the clock cannot be 0+0");
    double starts_in = start_date >= 0 ? (start_date - (double)now_wall_ms()) / 1000.0 : wait * 60;
    if (starts_in < 0) starts_in = 0;
    if (starts_in > WORLD_ARENA_STARTS_IN_MAX / 1000)
        return hapi_error(h->req, 400, "startDate: at most a week from now");
    if (!hapi_form_field(h, "name", name, sizeof name) || !name[0]) {
        const struct player *p = hapi_player(h);
        snprintf(name, sizeof name, "%s", p ? p->name : "Arena");
    }
    bool rated = !(hapi_form_field(h, "rated", value, sizeof value) && strcmp(value, "false") == 0);
    json_t *msg =
        json_pack("{s:s,s:s,s:{s:f,s:i},s:i,s:i,s:b}", "type", "arena_create", "name", name, "time",
                  "minutes", clock_time, "increment", (int)increment, "minutes", (int)minutes,
                  "starts_in", (int)lround(starts_in), "rated", rated);
    return hapi_act(h, msg, create_answer);
}

/* arena_join or arena_withdraw; an arena unknown here is 404 before anything is asked, unless
 * another node of the site may hold it (the command goes there, and answers 404 if none does). */
static int arena_action(struct hapi *h, const char *type) {
    if (!arena_of(h) && !site_enabled(h->srv)) return no_such_arena(h);
    return hapi_act(h, json_pack("{s:s,s:s}", "type", type, "arena", h->args[0]), NULL);
}

int apitourney_join(struct hapi *h) {
    return arena_action(h, "arena_join");
}

int apitourney_withdraw(struct hapi *h) {
    return arena_action(h, "arena_withdraw");
}
