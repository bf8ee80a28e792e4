/*
 * The world's bookkeeping and command handlers. Games in progress sit in a list (newest first)
 * and in a deadline heap (flag or first-move timer); ended games move to a FIFO and are dropped
 * oldest first beyond max_finished_games. Seeks sit in the lobby and, while their owner is away,
 * in an expiry heap. Every handler checks its preconditions first and changes state only once
 * nothing can fail, so an error leaves the world as it was.
 */
#include "core/world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "util/str.h"
#include "util/vec.h"

struct world {
    struct world_config cfg;
    int64_t wall_offset_ms;
    struct strmap players_by_id;
    struct strmap players_by_token;
    struct strmap games;
    struct lobby lobby;
    struct game *live_head;
    int live_count;
    struct game *ended_oldest, *ended_newest;
    int ended_count;
    struct heap game_timers;
    struct heap seek_timers;
    struct heap purge_timers; /* players away: when to check whether to forget them */
    struct pools pools;       /* quick pairing (core/pool.h) */
    struct strmap arenas;     /* arena tournaments by id (struct world_arena) */
    struct world_arena *arenas_head, *arenas_tail; /* in creation order */
    int arenas_finished;
    int players_online;
    uint64_t moves_total;
    uint64_t games_started_total;
    uint64_t games_ended_total;
    uint64_t guests_forgotten_total;
};

#define CONTAINER_OF(ptr, type, member) ((type *)(void *)((char *)(ptr)-offsetof(type, member)))

void world_config_defaults(struct world_config *cfg) {
    *cfg = (struct world_config){
        .lag_comp_ms = 100,
        .first_move_ms = 30000,
        .abandon_ms = 60000,
        .seek_grace_ms = 10000,
        .guest_purge_ms = 3600000,
        .max_seeks_per_player = 10,
        .max_games_per_player = 50,
        .max_finished_games = 10000,
        .chat_burst = 5,
        .chat_per_second = 1,
        .max_arenas_per_player = 3,
        .max_finished_arenas = 100,
    };
}

/* ---- events ---- */

void core_events_reset(struct core_events *events) {
    events->count = 0;
    events->reply = -1;
}

void core_events_free(struct core_events *events) {
    free(events->items);
    *events = (struct core_events){.reply = -1};
}

/* Appends a zeroed event. When memory runs out the event is lost; NULL is returned and callers
 * skip filling it (the state change itself has happened and is visible on the next full state). */
static struct core_event *push_event(struct core_events *out, enum core_event_type type,
                                     enum core_target target) {
    if (vec_reserve((void **)&out->items, &out->capacity, (size_t)out->count + 1,
                    sizeof *out->items, 16) < 0)
        return NULL;
    struct core_event *ev = &out->items[out->count++];
    memset(ev, 0, sizeof *ev);
    ev->type = type;
    ev->target = target;
    return ev;
}

static struct core_event *push_game_event(struct core_events *out, enum core_event_type type,
                                          enum core_target target, struct game *game) {
    game->version++;
    struct core_event *ev = push_event(out, type, target);
    if (ev) {
        ev->game = game;
        ev->version = game->version;
    }
    return ev;
}

static void mark_reply(struct core_events *out) {
    if (out->count > 0) out->reply = out->count - 1;
}

/* ---- world ---- */

static void player_setup(struct world *world, struct player *p, int64_t now_ms);

/*
 * The built-in engine plays as one player per level, "computer-1" to "computer-8": always
 * present, never identified by a token, never rated. The network layer moves for it.
 */
static int create_computers(struct world *world) {
    for (int level = 1; level <= WORLD_COMPUTER_LEVELS; level++) {
        struct player *p = calloc(1, sizeof *p);
        if (!p) return -1;
        char digit = (char)('0' + level); /* levels are single digits */
        snprintf(p->id, sizeof p->id, "computer-%c", digit);
        snprintf(p->name, sizeof p->name, "Computer level %c", digit);
        p->computer_level = level;
        p->online = 1;
        player_setup(world, p, 0);
        if (strmap_put(&world->players_by_id, p->id, p) < 0) {
            free(p);
            return -1;
        }
    }
    return 0;
}

struct world *world_create(const struct world_config *cfg) {
    struct world *world = calloc(1, sizeof *world);
    if (!world) return NULL;
    world->cfg = *cfg;
    if (world->cfg.max_finished_games < 1) world->cfg.max_finished_games = 1;
    pools_init(&world->pools);
    if (create_computers(world) < 0) {
        world_destroy(world);
        return NULL;
    }
    return world;
}

struct player *world_computer(const struct world *world, int level) {
    char id[PLAYER_ID_LEN + 1];
    if (level < 1 || level > WORLD_COMPUTER_LEVELS) return NULL;
    snprintf(id, sizeof id, "computer-%c", (char)('0' + level));
    return strmap_get(&world->players_by_id, id);
}

int world_computer_to_move(const struct game *game) {
    if (game->ended) return 0;
    return game->players[game_turn(game)]->computer_level;
}

static void free_game(struct game *game) {
    for (int c = 0; c < 2; c++) {
        if (game->players[c]) game->players[c]->refs--;
    }
    game_free(game);
    free(game);
}

void world_destroy(struct world *world) {
    if (!world) return;
    const char *key;
    void *value;
    for (size_t i = 0; strmap_next(&world->games, &i, &key, &value);) free_game(value);
    for (size_t i = 0; strmap_next(&world->players_by_id, &i, &key, &value);) {
        struct player *p = value;
        free(p->games);
        free(p->blocks);
        free(p);
    }
    strmap_free(&world->games);
    strmap_free(&world->players_by_id);
    strmap_free(&world->players_by_token);
    lobby_free(&world->lobby);
    heap_free(&world->game_timers);
    heap_free(&world->seek_timers);
    heap_free(&world->purge_timers);
    pools_free(&world->pools);
    for (struct world_arena *a = world->arenas_head, *next; a; a = next) {
        next = a->next;
        arena_free(&a->arena);
        free(a);
    }
    strmap_free(&world->arenas);
    free(world);
}

void world_set_wall_offset(struct world *world, int64_t wall_minus_mono_ms) {
    world->wall_offset_ms = wall_minus_mono_ms;
}

static int64_t wall(const struct world *world, int64_t now_ms) {
    return now_ms + world->wall_offset_ms;
}

static const char base62[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

static int random_text(struct world *world, char *out, size_t len) {
    unsigned char bytes[64];
    if (len > sizeof bytes || world->cfg.random(world->cfg.random_ctx, bytes, (unsigned)len) < 0)
        return -1;
    /* 256 % 62 != 0: a slight bias toward the first characters, harmless for ids; tokens have
     * 32 characters, enough entropy either way. */
    for (size_t i = 0; i < len; i++) out[i] = base62[bytes[i] % 62];
    out[len] = '\0';
    return 0;
}

/* A fresh id of len characters that `map` does not hold yet. */
static int unique_id(struct world *world, const struct strmap *map, char *out, size_t len) {
    for (int attempt = 0; attempt < 8; attempt++) {
        if (random_text(world, out, len) < 0) return -1;
        if (!strmap_get(map, out)) return 0;
    }
    return -1;
}

static int random_bit(struct world *world) {
    unsigned char b = 0;
    if (world->cfg.random(world->cfg.random_ctx, &b, 1) < 0) return 0;
    return b & 1;
}

/* A Chess960 array drawn uniformly (two random bytes, the values past the last whole 960
 * refused). */
static int random_chess960(struct world *world) {
    for (int tries = 0; tries < 64; tries++) {
        unsigned char b[2] = {0, 0};
        if (world->cfg.random(world->cfg.random_ctx, b, 2) < 0) break;
        unsigned v = (unsigned)b[0] << 8 | b[1];
        if (v < 65280u) return (int)(v % GAME_CHESS960_N); /* 65280 = 68 * 960 */
    }
    return GAME_CHESS960_STANDARD;
}

/* The start a seek, challenge or computer game asks for, checked. A Chess960 array not chosen
 * is drawn when the game starts (chess960 -1). */
static int start_of(const struct core_cmd *cmd, struct game_start *start) {
    *start = (struct game_start){.variant = cmd->variant};
    if (cmd->fen && start->variant == GAME_VARIANT_STANDARD)
        start->variant = GAME_VARIANT_FROM_POSITION;
    if (start->variant == GAME_VARIANT_FROM_POSITION) {
        if (!cmd->fen) return -CORE_ERR_BAD_POSITION;
        str_copy(start->fen, sizeof start->fen, cmd->fen);
    } else if (cmd->fen) {
        return -CORE_ERR_BAD_POSITION; /* a position is for fromPosition games only */
    }
    if (start->variant != GAME_VARIANT_CHESS960) return game_start_check(start);
    if (!cmd->has_chess960) {
        start->chess960 = -1;
        return 0;
    }
    start->chess960 = cmd->chess960;
    return game_start_check(start);
}

/* Whether a game of this start may be rated (NULL: the standard start). */
static bool start_rated(const struct game_start *start) {
    return !start || game_start_ratable(start);
}

/* ---- players ---- */

/* What every new player starts with, guest or restored. */
static void player_setup(struct world *world, struct player *p, int64_t now_ms) {
    p->offline_since_ms = now_ms;
    ratelimit_init(&p->chat_limit, world->cfg.chat_burst, world->cfg.chat_per_second, now_ms);
    for (int c = 0; c < RATING_CATEGORY_COUNT; c++) p->ratings[c] = rating_initial();
}

struct player *world_player_create(struct world *world, const char *name, int64_t now_ms) {
    struct player *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    if (unique_id(world, &world->players_by_id, p->id, PLAYER_ID_LEN) < 0 ||
        unique_id(world, &world->players_by_token, p->token, PLAYER_TOKEN_LEN) < 0)
        goto fail;
    if (name) {
        str_copy(p->name, sizeof p->name, name);
    } else {
        unsigned char r[3];
        if (world->cfg.random(world->cfg.random_ctx, r, sizeof r) < 0) goto fail;
        snprintf(p->name, sizeof p->name, "Guest%05u",
                 (unsigned)((r[0] << 16 | r[1] << 8 | r[2]) % 100000));
    }
    player_setup(world, p, now_ms);
    if (strmap_put(&world->players_by_id, p->id, p) < 0) goto fail;
    if (strmap_put(&world->players_by_token, p->token, p) < 0) {
        strmap_remove(&world->players_by_id, p->id);
        goto fail;
    }
    return p;
fail:
    free(p);
    return NULL;
}

/* A player away (or never connected since it was restored) is checked for forgetting later. */
static void schedule_purge(struct world *world, struct player *p, int64_t now_ms) {
    if (world->cfg.guest_purge_ms <= 0 || p->computer_level) return;
    if (heap_set(&world->purge_timers, &p->purge, now_ms + world->cfg.guest_purge_ms) < 0) {
        /* Out of memory: this player stays in memory. */
    }
}

struct player *world_player_restore(struct world *world, const char *id, const char *name,
                                    const char *token, int64_t now_ms) {
    if (strlen(id) > PLAYER_ID_LEN || strmap_get(&world->players_by_id, id)) return NULL;
    struct player *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    str_copy(p->id, sizeof p->id, id);
    str_copy(p->name, sizeof p->name, name);
    p->stored = true;
    player_setup(world, p, now_ms);
    if (strmap_put(&world->players_by_id, p->id, p) < 0) goto fail;
    if (token && world_player_set_token(world, p, token) < 0) {
        strmap_remove(&world->players_by_id, p->id);
        goto fail;
    }
    schedule_purge(world, p, now_ms);
    return p;
fail:
    free(p);
    return NULL;
}

int world_player_set_token(struct world *world, struct player *p, const char *token) {
    struct player *holder = strmap_get(&world->players_by_token, token);
    if (holder == p) return 0;
    if (holder || strlen(token) > PLAYER_TOKEN_LEN) return -CORE_ERR_NO_MEMORY;
    if (p->token[0]) strmap_remove(&world->players_by_token, p->token);
    str_copy(p->token, sizeof p->token, token);
    if (strmap_put(&world->players_by_token, p->token, p) < 0) {
        p->token[0] = '\0';
        return -CORE_ERR_NO_MEMORY;
    }
    return 0;
}

void world_player_forget_token(struct world *world, struct player *p) {
    if (!p->token[0]) return;
    strmap_remove(&world->players_by_token, p->token);
    p->token[0] = '\0';
}

struct player *world_player_by_token(const struct world *world, const char *token) {
    return strmap_get(&world->players_by_token, token);
}

struct player *world_player_by_id(const struct world *world, const char *id) {
    return strmap_get(&world->players_by_id, id);
}

static void seek_expiry_set(struct world *world, struct player *owner, int64_t when) {
    for (struct seek *s = world->lobby.head; s; s = s->next) {
        if (s->owner != owner) continue;
        if (when == GCLOCK_NEVER)
            heap_remove(&world->seek_timers, &s->expiry);
        else if (heap_set(&world->seek_timers, &s->expiry, when) < 0)
            continue; /* out of memory: the seek stays until its owner cancels it */
    }
}

/* claim_after_ms: when the opponent may claim the game, for games with a clock; a game without
 * one waits for its players however long they are away (as lichess's correspondence games do),
 * so its events say -1. */
static void presence_events(struct player *player, bool connected, int64_t claim_after_ms,
                            struct core_events *out) {
    for (int i = 0; i < player->game_count; i++) {
        struct game *g = player->games[i];
        struct core_event *ev = push_game_event(out, CORE_EV_PRESENCE, CORE_TO_GAME, g);
        if (!ev) continue;
        ev->player = player;
        ev->color = game_color_of(g, player);
        ev->connected = connected;
        ev->claim_after_ms = g->tc.unlimited || g->tc.days > 0 ? -1 : claim_after_ms;
    }
}

void world_player_attach(struct world *world, struct player *player, int64_t now_ms,
                         struct core_events *out) {
    (void)now_ms;
    core_events_reset(out);
    if (player->online++ > 0) return;
    world->players_online++;
    heap_remove(&world->purge_timers, &player->purge);
    seek_expiry_set(world, player, GCLOCK_NEVER);
    presence_events(player, true, 0, out);
}

void world_player_detach(struct world *world, struct player *player, int64_t now_ms,
                         struct core_events *out) {
    core_events_reset(out);
    if (player->online <= 0 || --player->online > 0) return;
    world->players_online--;
    player->offline_since_ms = now_ms;
    pools_remove(&world->pools, player); /* gone: it leaves quick pairing */
    schedule_purge(world, player, now_ms);
    seek_expiry_set(world, player, now_ms + world->cfg.seek_grace_ms);
    presence_events(player, false, world->cfg.abandon_ms, out);
}

static int player_add_game(struct player *p, struct game *g) {
    if (vec_reserve((void **)&p->games, &p->game_capacity, (size_t)p->game_count + 1,
                    sizeof *p->games, 4) < 0)
        return -CORE_ERR_NO_MEMORY;
    p->games[p->game_count++] = g;
    return 0;
}

static void player_remove_game(struct player *p, struct game *g) {
    for (int i = 0; i < p->game_count; i++) {
        if (p->games[i] == g) {
            memmove(&p->games[i], &p->games[i + 1],
                    sizeof *p->games * (size_t)(p->game_count - i - 1));
            p->game_count--;
            return;
        }
    }
}

/* ---- games ---- */

static void live_unlink(struct world *world, struct game *g) {
    if (g->list_prev)
        g->list_prev->list_next = g->list_next;
    else
        world->live_head = g->list_next;
    if (g->list_next) g->list_next->list_prev = g->list_prev;
    g->list_prev = g->list_next = NULL;
    world->live_count--;
}

static void schedule_game(struct world *world, struct game *g) {
    int64_t when = game_deadline(g);
    if (when == GCLOCK_NEVER)
        heap_remove(&world->game_timers, &g->deadline);
    else if (heap_set(&world->game_timers, &g->deadline, when) < 0) {
        /* Out of memory: the flag will be noticed when the next move arrives. */
    }
}

/* Bookkeeping after a game ended (by any path): lists, timers, players, the end event. */
static void arena_game_ended(struct world *world, struct game *g, int64_t now_ms,
                             struct core_events *out);

static void game_ended(struct world *world, struct game *g, int64_t now_ms,
                       struct core_events *out) {
    heap_remove(&world->game_timers, &g->deadline);
    live_unlink(world, g);
    for (int c = 0; c < 2; c++) {
        if (g->players[c]) player_remove_game(g->players[c], g);
    }
    g->list_prev = world->ended_newest;
    g->list_next = NULL;
    if (world->ended_newest)
        world->ended_newest->list_next = g;
    else
        world->ended_oldest = g;
    world->ended_newest = g;
    world->ended_count++;
    world->games_ended_total++;
    push_game_event(out, CORE_EV_GAME_ENDED, CORE_TO_GAME, g);
    arena_game_ended(world, g, now_ms, out);
}

static void drop_old_games(struct world *world) {
    while (world->ended_count > world->cfg.max_finished_games) {
        struct game *g = world->ended_oldest;
        world->ended_oldest = g->list_next;
        if (world->ended_oldest)
            world->ended_oldest->list_prev = NULL;
        else
            world->ended_newest = NULL;
        world->ended_count--;
        strmap_remove(&world->games, g->id);
        free_game(g);
    }
}

bool world_rated_pairing(const struct player *white, const struct player *black,
                         const struct time_control *tc, bool bots_rated_vs_humans) {
    if (!white->registered || !black->registered || white == black) return false;
    if (rating_category_of(tc) == RATING_NONE) return false;
    return white->bot == black->bot || bots_rated_vs_humans;
}

static int check_can_play(const struct world *world, const struct player *p) {
    if (p->computer_level) return 0; /* the computer plays everyone who asks */
    return p->game_count >= world->cfg.max_games_per_player ? -CORE_ERR_TOO_MANY_GAMES : 0;
}

/* Puts a game in progress into the world: the id map, its players' lists (with references),
 * the live list and the timers. Returns 0 or -CORE_ERR_NO_MEMORY (nothing changed). */
static int link_live_game(struct world *world, struct game *g) {
    struct player *white = g->players[CHESS_WHITE], *black = g->players[CHESS_BLACK];
    g->openings = world->cfg.openings;
    if (strmap_put(&world->games, g->id, g) < 0) return -CORE_ERR_NO_MEMORY;
    if (player_add_game(white, g) < 0) goto fail_map;
    if (player_add_game(black, g) < 0) goto fail_white;
    white->refs++;
    black->refs++;
    g->list_next = world->live_head;
    if (world->live_head) world->live_head->list_prev = g;
    world->live_head = g;
    world->live_count++;
    schedule_game(world, g);
    return 0;
fail_white:
    player_remove_game(white, g);
fail_map:
    strmap_remove(&world->games, g->id);
    return -CORE_ERR_NO_MEMORY;
}

/* Takes a player out of the pool it waits in, telling it (POOL_LEFT). */
static void pool_left(struct world *world, struct player *p, struct core_events *out) {
    if (!pools_remove(&world->pools, p)) return;
    struct core_event *ev = push_event(out, CORE_EV_POOL_LEFT, CORE_TO_PLAYER);
    if (ev) ev->player = p;
}

/* Whether the player may play a daily game: it lasts for days, so not a guest (as lichess). */
static bool may_play_daily(const struct player *p) {
    return p->registered || p->bot || p->computer_level;
}

/* Creates and starts a game; emits GAME_STARTED to both players (marked as the reply). id: the
 * game's id when it is free (a direct challenge's, as on lichess), or NULL for a new one. */

static int start_game(struct world *world, struct player *white, struct player *black,
                      const struct time_control *tc, const struct game_start *start_asked,
                      bool casual, const char *want_id, int64_t now_ms, struct core_events *out,
                      struct game **started) {
    if (tc->days > 0 && (!may_play_daily(white) || !may_play_daily(black)))
        return -CORE_ERR_DAILY_NEEDS_ACCOUNT;
    int rc = check_can_play(world, white);
    if (rc == 0) rc = check_can_play(world, black);
    if (rc < 0) return rc;
    struct game *g = malloc(sizeof *g);
    if (!g) return -CORE_ERR_NO_MEMORY;
    char id[GAME_ID_LEN + 1];
    if (want_id && strlen(want_id) == GAME_ID_LEN && !strmap_get(&world->games, want_id)) {
        memcpy(id, want_id, sizeof id);
    } else if (unique_id(world, &world->games, id, GAME_ID_LEN) < 0) {
        free(g);
        return -CORE_ERR_NO_MEMORY;
    }
    struct game_start start = start_asked ? *start_asked : game_start_standard();
    if (start.variant == GAME_VARIANT_CHESS960 && start.chess960 < 0)
        start.chess960 = random_chess960(world);
    rc = game_init(g, id, white, black, tc, &start, world->cfg.lag_comp_ms,
                   world->cfg.first_move_ms, now_ms, wall(world, now_ms));
    if (rc < 0) goto fail_init;
    g->rated = !casual && start_rated(&start) &&
               world_rated_pairing(white, black, tc, world->cfg.bots_rated_vs_humans);
    rc = link_live_game(world, g);
    if (rc < 0) goto fail_link;
    world->games_started_total++;
    /* Quick pairing's memory: a game started any way takes its players out of the pools and
     * counts for their colours and last opponents. */
    pool_left(world, white, out);
    pool_left(world, black, out);
    white->color_bias = white->color_bias < 4 ? white->color_bias + 1 : 4;
    black->color_bias = black->color_bias > -4 ? black->color_bias - 1 : -4;
    str_copy(white->last_opponent, sizeof white->last_opponent, black->id);
    str_copy(black->last_opponent, sizeof black->last_opponent, white->id);
    push_game_event(out, CORE_EV_GAME_STARTED, CORE_TO_GAME_PLAYERS, g);
    mark_reply(out);
    if (started) *started = g;
    return 0;
fail_link:
    game_free(g);
fail_init:
    free(g);
    return rc;
}

int world_restore_game(struct world *world, struct game *game) {
    if (strmap_get(&world->games, game->id)) return -CORE_ERR_NO_MEMORY;
    int rc = link_live_game(world, game);
    struct world_arena *a = game->arena_id[0] ? world_arena(world, game->arena_id) : NULL;
    if (rc < 0 || !a) return rc;
    /* An arena game in progress: its players are playing it. */
    a->games_playing++;
    for (int c = 0; c < 2; c++) {
        struct arena_player *p = arena_find(&a->arena, game->players[c]->id);
        if (p) p->playing = true;
    }
    return 0;
}

/* Runs a game's due timers before anything else looks at it, so a flag that fell just before
 * this command counts first. */
static void settle_game(struct world *world, struct game *g, int64_t now_ms,
                        struct core_events *out) {
    if (!g->ended && game_on_deadline(g, now_ms, wall(world, now_ms)))
        game_ended(world, g, now_ms, out);
}

/* ---- seeks and challenges ---- */

static void free_seek(struct world *world, struct seek *s) {
    heap_remove(&world->seek_timers, &s->expiry);
    lobby_remove(&world->lobby, s);
    if (s->owner) s->owner->open_seeks--;
    free(s);
}

/* A copy of a seek for an event (the seek itself may be freed before delivery). */
static struct core_event *push_seek_event(struct core_events *out, enum core_event_type type,
                                          enum core_target target, const struct seek *s,
                                          struct player *to) {
    struct core_event *ev = push_event(out, type, target);
    if (ev) {
        ev->seek = *s;
        ev->seek.prev = ev->seek.next = NULL;
        ev->player = to;
    }
    return ev;
}

/* Emits the removal event for a seek (to the lobby, or to a challenge's owner and invited
 * player), then frees it. */
static void remove_seek(struct world *world, struct seek *s, enum challenge_removal why,
                        enum challenge_decline decline, struct core_events *out) {
    if (!s->is_challenge) {
        push_seek_event(out, CORE_EV_SEEK_REMOVED, CORE_TO_LOBBY, s, s->owner);
    } else {
        struct player *to[2] = {s->owner, s->target};
        for (int i = 0; i < 2 && to[i]; i++) {
            struct core_event *ev =
                push_seek_event(out, CORE_EV_CHALLENGE_REMOVED, CORE_TO_PLAYER, s, to[i]);
            if (ev) {
                ev->removal = why;
                ev->decline_reason = decline;
            }
        }
    }
    free_seek(world, s);
}

/* The player a direct challenge invites: connected, not the challenger, not the computer
 * (computer_play starts those games). */
static int find_invited(struct world *world, struct player *actor, const char *id,
                        struct player **out) {
    struct player *p = world_player_by_id(world, id);
    if (p == actor) return -CORE_ERR_OWN_CHALLENGE;
    if (!p || p->online <= 0 || p->computer_level) return -CORE_ERR_PLAYER_OFFLINE;
    if (world_player_blocks(p, actor->id)) return -CORE_ERR_BLOCKED;
    *out = p;
    return 0;
}

static int create_seek(struct world *world, struct player *actor, const struct core_cmd *cmd,
                       bool challenge, int64_t now_ms, struct core_events *out) {
    if (actor->open_seeks >= world->cfg.max_seeks_per_player) return -CORE_ERR_TOO_MANY_SEEKS;
    if (cmd->tc.days > 0 && !may_play_daily(actor)) return -CORE_ERR_DAILY_NEEDS_ACCOUNT;
    struct player *target = NULL;
    if (challenge && cmd->opponent) {
        int rc = find_invited(world, actor, cmd->opponent, &target);
        if (rc < 0) return rc;
    }
    struct game_start start;
    int start_rc = start_of(cmd, &start);
    if (start_rc < 0) return start_rc;
    /* A seek that must be rated: its creator needs an account and a clock, and a direct
     * challenge's pairing must qualify already. */
    if (cmd->rated_required && (!actor->registered || cmd->tc.unlimited || !start_rated(&start) ||
                                (target && !world_rated_pairing(actor, target, &cmd->tc,
                                                                world->cfg.bots_rated_vs_humans))))
        return -CORE_ERR_RATED_UNAVAILABLE;
    struct seek *s = calloc(1, sizeof *s);
    if (!s) return -CORE_ERR_NO_MEMORY;
    /* A direct challenge's id becomes its game's (lichess's bots expect that), so it is as
     * long as a game's and no game has it; a link is the invitation, harder to guess. */
    size_t id_len = target ? GAME_ID_LEN : challenge ? CHALLENGE_ID_LEN : SEEK_ID_LEN;
    s->owner = actor;
    s->tc = cmd->tc;
    s->start = start;
    s->color = cmd->color;
    /* A challenge's colours are drawn when it is made, as lichess does (its finalColor); a
     * seek's when it is accepted. */
    s->final_color = cmd->color != COLOR_CHOICE_RANDOM ? (int)cmd->color
                     : challenge                       ? random_bit(world)
                                                       : -1;
    s->is_challenge = challenge;
    s->target = target;
    s->casual = cmd->casual;
    s->rated_required = cmd->rated_required;
    s->rated = target && !cmd->casual && start_rated(&start) &&
               world_rated_pairing(actor, target, &cmd->tc, world->cfg.bots_rated_vs_humans);
    s->created_wall_ms = wall(world, now_ms);
    int tries = 0;
    int rc = unique_id(world, &world->lobby.by_id, s->id, id_len);
    while (rc == 0 && target && strmap_get(&world->games, s->id) && ++tries < 16)
        rc = unique_id(world, &world->lobby.by_id, s->id, id_len);
    if (rc < 0 || lobby_add(&world->lobby, s) < 0) {
        free(s);
        return -CORE_ERR_NO_MEMORY;
    }
    actor->open_seeks++;
    struct core_event *ev = challenge ? push_event(out, CORE_EV_CHALLENGE_CREATED, CORE_TO_PLAYER)
                                      : push_event(out, CORE_EV_SEEK_ADDED, CORE_TO_LOBBY);
    if (ev) {
        ev->seek = *s;
        ev->player = actor;
        mark_reply(out);
    }
    if (target) push_seek_event(out, CORE_EV_CHALLENGE_RECEIVED, CORE_TO_PLAYER, s, target);
    return 0;
}

static struct seek *find_seek(struct world *world, const char *id, bool challenge) {
    struct seek *s = lobby_find(&world->lobby, id);
    return s && s->is_challenge == challenge ? s : NULL;
}

static int cancel_seek(struct world *world, struct player *actor, const struct core_cmd *cmd,
                       bool challenge, struct core_events *out) {
    struct seek *s = find_seek(world, cmd->target, challenge);
    if (!s) return challenge ? -CORE_ERR_CHALLENGE_NOT_FOUND : -CORE_ERR_SEEK_NOT_FOUND;
    if (s->owner != actor) return -CORE_ERR_NOT_OWNER;
    int first = out->count; /* the owner's removal event is the reply */
    remove_seek(world, s, CHALLENGE_REMOVED_CANCELLED, CHALLENGE_DECLINE_GENERIC, out);
    if (out->count > first) out->reply = first;
    return 0;
}

static int decline_challenge(struct world *world, struct player *actor, const struct core_cmd *cmd,
                             struct core_events *out) {
    struct seek *s = find_seek(world, cmd->target, true);
    if (!s) return -CORE_ERR_CHALLENGE_NOT_FOUND;
    if (s->target != actor) return -CORE_ERR_NOT_INVITED;
    remove_seek(world, s, CHALLENGE_REMOVED_DECLINED, cmd->decline_reason, out);
    mark_reply(out); /* the invited player's removal event comes last */
    return 0;
}

static int accept_seek(struct world *world, struct player *actor, const struct core_cmd *cmd,
                       bool challenge, int64_t now_ms, struct core_events *out) {
    struct seek *s = find_seek(world, cmd->target, challenge);
    if (!s) return challenge ? -CORE_ERR_CHALLENGE_NOT_FOUND : -CORE_ERR_SEEK_NOT_FOUND;
    if (s->owner == actor) return challenge ? -CORE_ERR_OWN_CHALLENGE : -CORE_ERR_OWN_SEEK;
    if (s->target && s->target != actor) return -CORE_ERR_NOT_INVITED;
    if (world_player_blocks(s->owner, actor->id) || world_player_blocks(actor, s->owner->id))
        return -CORE_ERR_BLOCKED;
    int owner_color = s->final_color >= 0 ? s->final_color : random_bit(world);
    struct player *white = owner_color == CHESS_WHITE ? s->owner : actor;
    struct player *black = owner_color == CHESS_WHITE ? actor : s->owner;
    struct time_control tc = s->tc;
    if (s->rated_required &&
        !world_rated_pairing(white, black, &tc, world->cfg.bots_rated_vs_humans))
        return -CORE_ERR_RATED_UNAVAILABLE;
    /* Start first (it fails without side effects), then remove the seek. */
    int rc = start_game(world, white, black, &tc, &s->start, s->casual, s->target ? s->id : NULL,
                        now_ms, out, NULL);
    if (rc < 0) return rc;
    remove_seek(world, s, CHALLENGE_REMOVED_ACCEPTED, CHALLENGE_DECLINE_GENERIC, out);
    return 0;
}

/* ---- game commands ---- */

static int find_player_game(struct world *world, struct player *actor, const char *id,
                            int64_t now_ms, struct core_events *out, struct game **game,
                            int *color) {
    struct game *g = world_game(world, id);
    if (!g) return -CORE_ERR_GAME_NOT_FOUND;
    settle_game(world, g, now_ms, out);
    *game = g;
    *color = game_color_of(g, actor);
    return 0;
}

static int apply_move(struct world *world, struct game *g, int color, const struct core_cmd *cmd,
                      int64_t now_ms, struct core_events *out) {
    struct game_move_info info;
    struct gclock_report report = {.lag_ms = cmd->has_lag ? cmd->lag_ms : -1,
                                   .premove = cmd->premove};
    bool was_over = g->ended;
    int rc = game_move(g, color, cmd->text, cmd->expected_ply, &report, now_ms, wall(world, now_ms),
                       &info);
    if (rc < 0) {
        if (!was_over && g->ended) game_ended(world, g, now_ms, out); /* too late: flagged */
        return rc;
    }
    world->moves_total++;
    struct core_event *ev = push_game_event(out, CORE_EV_MOVE, CORE_TO_GAME, g);
    if (ev) {
        ev->move = info;
        ev->color = color;
        mark_reply(out);
    }
    if (g->ended)
        game_ended(world, g, now_ms, out);
    else
        schedule_game(world, g);
    return 0;
}

static enum game_offer offer_of(enum core_cmd_type type) {
    switch (type) {
        case CORE_CMD_TAKEBACK_OFFER:
        case CORE_CMD_TAKEBACK_ACCEPT:
        case CORE_CMD_TAKEBACK_DECLINE: return GAME_OFFER_TAKEBACK;
        case CORE_CMD_REMATCH_OFFER:
        case CORE_CMD_REMATCH_ACCEPT:
        case CORE_CMD_REMATCH_DECLINE: return GAME_OFFER_REMATCH;
        default: return GAME_OFFER_DRAW;
    }
}

static int accept_offer(struct world *world, struct game *g, int color, enum game_offer kind,
                        int64_t now_ms, struct core_events *out) {
    if (kind == GAME_OFFER_REMATCH) {
        if (g->rematch_id[0]) return -CORE_ERR_REMATCH_DONE;
        if (game_offer_by(g, kind) != !color) return -CORE_ERR_NO_OFFER;
        struct game *next = NULL;
        /* Colours swap; a Chess960 rematch draws a new array, as lichess does. */
        struct game_start start = g->start;
        if (start.variant == GAME_VARIANT_CHESS960) start.chess960 = -1;
        int rc = start_game(world, g->players[CHESS_BLACK], g->players[CHESS_WHITE], &g->tc, &start,
                            !g->rated, NULL, now_ms, out, &next);
        if (rc < 0) return rc;
        int undone;
        game_accept(g, kind, color, now_ms, wall(world, now_ms), &undone);
        str_copy(g->rematch_id, sizeof g->rematch_id, next->id);
        push_game_event(out, CORE_EV_REMATCH, CORE_TO_GAME, g);
        return 0;
    }
    int undone = 0;
    int rc = game_accept(g, kind, color, now_ms, wall(world, now_ms), &undone);
    if (rc < 0) return rc;
    if (kind == GAME_OFFER_DRAW) {
        game_ended(world, g, now_ms, out);
    } else {
        struct core_event *ev = push_game_event(out, CORE_EV_TAKEBACK, CORE_TO_GAME, g);
        if (ev) ev->undone = undone;
        schedule_game(world, g);
    }
    mark_reply(out);
    return 0;
}

static int apply_decline(struct game *g, int color, enum game_offer kind, struct core_events *out);

/* An offer made or declined by colour: the reply, to everyone in the game. */
static void push_offer_event(struct core_events *out, enum core_event_type type, struct game *g,
                             enum game_offer kind, int color) {
    struct core_event *ev = push_game_event(out, type, CORE_TO_GAME, g);
    if (!ev) return;
    ev->offer = kind;
    ev->color = color;
    mark_reply(out);
}

/* The computer answers at once: it grants takebacks and rematches and plays draws out. */
static int computer_answer(struct world *world, struct game *g, int computer_color,
                           enum game_offer kind, int64_t now_ms, struct core_events *out) {
    int reply = out->reply; /* the offer stays the reply; the answer follows it */
    int rc = kind == GAME_OFFER_DRAW ? apply_decline(g, computer_color, kind, out)
                                     : accept_offer(world, g, computer_color, kind, now_ms, out);
    out->reply = reply;
    return rc;
}

static int apply_offer(struct world *world, struct game *g, int color, enum game_offer kind,
                       int64_t now_ms, struct core_events *out) {
    /* Offering what the opponent already offers accepts it (draws and rematches). */
    if (kind != GAME_OFFER_TAKEBACK && game_offer_by(g, kind) == !color && !g->rematch_id[0])
        return accept_offer(world, g, color, kind, now_ms, out);
    if (kind == GAME_OFFER_REMATCH && g->rematch_id[0]) return -CORE_ERR_REMATCH_DONE;
    int rc = game_offer(g, kind, color);
    if (rc < 0) return rc;
    push_offer_event(out, CORE_EV_OFFER, g, kind, color);
    if (g->players[!color]->computer_level)
        return computer_answer(world, g, !color, kind, now_ms, out);
    return 0;
}

static int apply_decline(struct game *g, int color, enum game_offer kind, struct core_events *out) {
    int rc = game_decline(g, kind, color);
    if (rc < 0) return rc;
    push_offer_event(out, CORE_EV_OFFER_DECLINED, g, kind, color);
    return 0;
}

static int apply_abandon_claim(struct world *world, struct game *g, int color, bool win,
                               int64_t now_ms, struct core_events *out) {
    if (g->ended) return -CORE_ERR_GAME_OVER;
    if (g->tc.unlimited || g->tc.days > 0) return -CORE_ERR_CLAIM_NO_CLOCK;
    const struct player *opponent = g->players[!color];
    if (opponent->online > 0) return -CORE_ERR_OPPONENT_CONNECTED;
    if (now_ms - opponent->offline_since_ms < world->cfg.abandon_ms)
        return -CORE_ERR_CLAIM_TOO_EARLY;
    enum chess_result r = !win                   ? CHESS_RESULT_DRAW
                          : color == CHESS_WHITE ? CHESS_RESULT_WHITE_WINS
                                                 : CHESS_RESULT_BLACK_WINS;
    game_finish(g, r, CHESS_TERM_ABANDONED, now_ms, wall(world, now_ms));
    game_ended(world, g, now_ms, out);
    mark_reply(out);
    return 0;
}

/* The computer keeps its own time: giving it more would only slow the game down. */
static int apply_give_time(struct world *world, struct game *g, int color,
                           struct core_events *out) {
    if (!g->ended && g->players[!color]->computer_level) return -CORE_ERR_CANNOT_GIVE_TIME;
    int rc = game_give_time(g, color);
    if (rc < 0) return rc;
    struct core_event *ev = push_game_event(out, CORE_EV_TIME_GIVEN, CORE_TO_GAME, g);
    if (ev) {
        ev->color = !color;
        mark_reply(out);
    }
    schedule_game(world, g);
    return 0;
}

static int apply_chat(struct world *world, struct player *actor, struct game *g, int color,
                      const struct core_cmd *cmd, int64_t now_ms, struct core_events *out) {
    bool player = color >= 0;
    enum chat_room room = cmd->room;
    if (room == CHAT_ROOM_AUTO) room = player ? CHAT_ROOM_PLAYERS : CHAT_ROOM_SPECTATORS;
    /* A player may also greet the spectators (lichess's bots do); a spectator never writes to
     * the players. */
    if (!player && room == CHAT_ROOM_PLAYERS) return -CORE_ERR_CHAT_NOT_ALLOWED;
    char clean[CHAT_MAX_BYTES + 1];
    int rc = chat_clean_text(cmd->text, clean);
    if (rc < 0) return rc;
    if (actor->muted) return -CORE_ERR_CHAT_MUTED;
    if (!ratelimit_take(&actor->chat_limit, 1, now_ms)) return -CORE_ERR_CHAT_RATE_LIMITED;
    struct chat_line *line =
        chat_log_append(&g->chat[room], wall(world, now_ms), actor->id, actor->name, clean);
    if (!line) return -CORE_ERR_NO_MEMORY;
    struct core_event *ev = push_game_event(
        out, CORE_EV_CHAT,
        room == CHAT_ROOM_PLAYERS ? CORE_TO_GAME_PLAYERS : CORE_TO_GAME_SPECTATORS, g);
    if (ev) {
        ev->room = room;
        ev->chat = line;
        ev->player = actor;
        mark_reply(out);
    }
    return 0;
}

static int apply_game_command(struct world *world, struct player *actor, const struct core_cmd *cmd,
                              int64_t now_ms, struct core_events *out) {
    struct game *g;
    int color;
    int rc = find_player_game(world, actor, cmd->target, now_ms, out, &g, &color);
    if (rc < 0) return rc;
    if (cmd->type == CORE_CMD_CHAT) return apply_chat(world, actor, g, color, cmd, now_ms, out);
    if (color < 0) return -CORE_ERR_NOT_A_PLAYER;
    int64_t wall_ms = wall(world, now_ms);
    switch (cmd->type) {
        case CORE_CMD_MOVE: return apply_move(world, g, color, cmd, now_ms, out);
        case CORE_CMD_RESIGN:
        case CORE_CMD_ABORT:
        case CORE_CMD_DRAW_CLAIM:
            rc = cmd->type == CORE_CMD_RESIGN  ? game_resign(g, color, now_ms, wall_ms)
                 : cmd->type == CORE_CMD_ABORT ? game_abort(g, now_ms, wall_ms)
                                               : game_claim_draw(g, now_ms, wall_ms);
            if (rc < 0) return rc;
            game_ended(world, g, now_ms, out);
            mark_reply(out);
            return 0;
        case CORE_CMD_DRAW_OFFER:
        case CORE_CMD_TAKEBACK_OFFER:
        case CORE_CMD_REMATCH_OFFER:
            return apply_offer(world, g, color, offer_of(cmd->type), now_ms, out);
        case CORE_CMD_DRAW_ACCEPT:
        case CORE_CMD_TAKEBACK_ACCEPT:
        case CORE_CMD_REMATCH_ACCEPT:
            return accept_offer(world, g, color, offer_of(cmd->type), now_ms, out);
        case CORE_CMD_DRAW_DECLINE:
        case CORE_CMD_TAKEBACK_DECLINE:
        case CORE_CMD_REMATCH_DECLINE: return apply_decline(g, color, offer_of(cmd->type), out);
        case CORE_CMD_GIVE_TIME: return apply_give_time(world, g, color, out);
        case CORE_CMD_ABANDON_CLAIM:
            return apply_abandon_claim(world, g, color, cmd->claim_win, now_ms, out);
        default: return -CORE_ERR_GAME_NOT_FOUND;
    }
}

static int play_computer(struct world *world, struct player *actor, const struct core_cmd *cmd,
                         int64_t now_ms, struct core_events *out) {
    struct player *computer = world_computer(world, cmd->level);
    if (!computer) return -CORE_ERR_COMPUTER_UNAVAILABLE;
    struct game_start start;
    int rc = start_of(cmd, &start);
    if (rc < 0) return rc;
    int color = cmd->color == COLOR_CHOICE_RANDOM ? random_bit(world) : (int)cmd->color;
    struct player *white = color == CHESS_WHITE ? actor : computer;
    struct player *black = color == CHESS_WHITE ? computer : actor;
    return start_game(world, white, black, &cmd->tc, &start, true, NULL, now_ms, out, NULL);
}

int world_computer_move(struct world *world, const char *game_id, int ply, uint64_t key,
                        chess_move move, int64_t now_ms, struct core_events *out) {
    core_events_reset(out);
    struct game *g = world_game(world, game_id);
    if (!g) return -CORE_ERR_GAME_NOT_FOUND;
    settle_game(world, g, now_ms, out);
    if (g->ended) return -CORE_ERR_GAME_OVER;
    int color = game_turn(g);
    if (!g->players[color]->computer_level) return -CORE_ERR_NOT_YOUR_TURN;
    /* A result for any other position (a takeback came in meanwhile) is stale. */
    if (game_ply(g) != ply || g->chess.current.key != key) return -CORE_ERR_STALE_PLY;
    char uci[CHESS_UCI_MAX];
    chess_move_to_uci(&g->chess.current, move, uci);
    struct core_cmd cmd = {.type = CORE_CMD_MOVE, .text = uci, .expected_ply = ply};
    return apply_move(world, g, color, &cmd, now_ms, out);
}

/* ---- quick pairing ---- */

static int join_pool(struct world *world, struct player *actor, const struct core_cmd *cmd,
                     int64_t now_ms, struct core_events *out) {
    bool rated = cmd->rated_required;
    struct pool *pool = pools_find(&world->pools, &cmd->tc, rated);
    if (!pool) return -CORE_ERR_NO_SUCH_POOL;
    if (rated && !actor->registered) return -CORE_ERR_RATED_UNAVAILABLE;
    int rc = check_can_play(world, actor);
    if (rc < 0) return rc;
    if (pools_of(&world->pools, actor) != pool) {
        pools_remove(&world->pools, actor); /* one pool at a time */
        if ((rc = pool_add(pool, actor, now_ms)) < 0) return rc;
    }
    struct core_event *ev = push_event(out, CORE_EV_POOL_JOINED, CORE_TO_PLAYER);
    if (ev) {
        ev->player = actor;
        ev->pool = pool;
        ev->waiting = pool->count;
    }
    mark_reply(out);
    return 0;
}

static int leave_pool(struct world *world, struct player *actor, struct core_events *out) {
    pools_remove(&world->pools, actor);
    struct core_event *ev = push_event(out, CORE_EV_POOL_LEFT, CORE_TO_PLAYER);
    if (ev) ev->player = actor;
    mark_reply(out);
    return 0;
}

/* A wave: the pairs pool_pair() chooses start their games (which takes them out of the pool). */
static void pool_wave(struct world *world, struct pool *pool, int64_t now_ms,
                      struct core_events *out) {
    int n = pool->count;
    int category = rating_category_of(&pool->tc);
    struct pool_candidate *c = calloc((size_t)n, sizeof *c);
    struct pool_pair *pairs = calloc((size_t)n / 2 + 1, sizeof *pairs);
    struct player **players = calloc((size_t)n, sizeof *players);
    int count = c && pairs && players ? 0 : -1;
    for (int i = 0; count == 0 && i < n; i++) {
        struct player *p = pool->members[i].player;
        players[i] = p;
        c[i] = (struct pool_candidate){.id = p->id,
                                       .rating = (int)lround(p->ratings[category].rating),
                                       .joined_ms = pool->members[i].joined_ms,
                                       .bot = p->bot,
                                       .color_bias = p->color_bias,
                                       .last_opponent = p->last_opponent};
    }
    if (count == 0)
        count = pool_pair(c, n, now_ms, world->cfg.bots_rated_vs_humans || !pool->rated, pairs);
    for (int k = 0; k < count; k++) {
        struct player *white = players[pairs[k].white], *black = players[pairs[k].black];
        if (start_game(world, white, black, &pool->tc, NULL, !pool->rated, NULL, now_ms, out,
                       NULL) < 0) {
            pools_remove(&world->pools, white); /* cannot play now: out of the pool */
            pools_remove(&world->pools, black);
        }
    }
    free(c);
    free(pairs);
    free(players);
    pool->next_wave_ms = pool->count < 2            ? GCLOCK_NEVER
                         : pool->count >= POOL_BUSY ? now_ms + POOL_BUSY_WAVE_MS
                                                    : now_ms + POOL_WAVE_MS;
}

/* ---- arena tournaments ---- */

struct world_arena *world_arena(const struct world *world, const char *id) {
    return strmap_get(&world->arenas, id);
}

struct world_arena *world_arena_first(const struct world *world) {
    return world->arenas_head;
}

struct game *world_arena_game_of(const struct world *world, const struct world_arena *a,
                                 const struct player *p) {
    (void)world;
    for (int i = 0; p && i < p->game_count; i++)
        if (strcmp(p->games[i]->arena_id, a->id) == 0) return p->games[i];
    return NULL;
}

/* A name of WORLD_ARENA_NAME_MIN..MAX bytes without control characters, a clock (neither
 * unlimited nor daily) within the seeks' limits, and a length of 1..WORLD_ARENA_MINUTES_MAX. */
static bool arena_settings_valid(const struct world_arena_spec *spec) {
    size_t len = spec->name ? strlen(spec->name) : 0;
    if (len < WORLD_ARENA_NAME_MIN || len > WORLD_ARENA_NAME_MAX) return false;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)spec->name[i] < 0x20 || spec->name[i] == 0x7f) return false;
    const struct time_control *tc = &spec->tc;
    if (tc->unlimited || tc->days > 0 || tc->initial_ms < 0 || tc->increment_ms < 0 ||
        (tc->initial_ms == 0 && tc->increment_ms == 0) || tc->initial_ms > TC_MAX_INITIAL_MS ||
        tc->increment_ms > TC_MAX_INCREMENT_MS)
        return false;
    return spec->minutes >= 1 && spec->minutes <= WORLD_ARENA_MINUTES_MAX;
}

/* Monotonic ms of a wall-clock instant. */
static int64_t mono_of(const struct world *world, int64_t wall_ms) {
    return wall_ms - world->wall_offset_ms;
}

/* A new arena in the map and the list (no event). NULL when memory runs out or a restored id
 * is taken. */
static struct world_arena *arena_add(struct world *world, const struct world_arena_spec *spec,
                                     enum world_arena_status status) {
    struct world_arena *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    if (spec->id) {
        if (strlen(spec->id) != ARENA_ID_LEN || world_arena(world, spec->id)) goto fail;
        str_copy(a->id, sizeof a->id, spec->id);
    } else if (unique_id(world, &world->arenas, a->id, ARENA_ID_LEN) < 0) {
        goto fail;
    }
    str_copy(a->name, sizeof a->name, spec->name);
    str_copy(a->creator, sizeof a->creator, spec->creator ? spec->creator : "");
    a->tc = spec->tc;
    a->rated = spec->rated;
    a->starts_wall_ms = spec->starts_wall_ms;
    a->minutes = spec->minutes;
    a->status = status;
    arena_init(&a->arena, mono_of(world, spec->starts_wall_ms), spec->minutes * 60000LL);
    a->next_pair_ms = a->arena.starts_ms;
    if (strmap_put(&world->arenas, a->id, a) < 0) goto fail;
    if (world->arenas_tail)
        world->arenas_tail->next = a;
    else
        world->arenas_head = a;
    world->arenas_tail = a;
    if (status == WORLD_ARENA_FINISHED) world->arenas_finished++;
    return a;
fail:
    free(a);
    return NULL;
}

/* Arenas a player created that have not ended. */
static int open_arenas_of(const struct world *world, const struct player *p) {
    int n = 0;
    for (const struct world_arena *a = world->arenas_head; a; a = a->next)
        n += a->status != WORLD_ARENA_FINISHED && strcmp(a->creator, p->id) == 0;
    return n;
}

int world_arena_create(struct world *world, struct player *creator,
                       const struct world_arena_spec *spec, int64_t now_ms, struct core_events *out,
                       struct world_arena **created) {
    if (creator && (!creator->registered || creator->computer_level))
        return -CORE_ERR_ARENA_NEEDS_ACCOUNT;
    if (!arena_settings_valid(spec)) return -CORE_ERR_ARENA_BAD_SETTINGS;
    if (creator && open_arenas_of(world, creator) >= world->cfg.max_arenas_per_player)
        return -CORE_ERR_TOO_MANY_ARENAS;
    struct world_arena_spec s = *spec;
    s.id = NULL;
    s.creator = creator ? creator->id : "";
    if (s.starts_wall_ms < wall(world, now_ms)) s.starts_wall_ms = wall(world, now_ms);
    struct world_arena *a = arena_add(world, &s, WORLD_ARENA_CREATED);
    if (!a) return -CORE_ERR_NO_MEMORY;
    struct core_event *ev = push_event(out, CORE_EV_ARENA_CREATED, CORE_TO_PLAYER);
    if (ev) {
        ev->arena = a;
        ev->player = creator;
        mark_reply(out);
    }
    if (created) *created = a;
    return 0;
}

/* An arena's rating category's rating of a player, rounded. */
static int arena_rating(const struct world_arena *a, const struct player *p) {
    int category = rating_category_of(&a->tc);
    return category < 0 ? 1500 : (int)lround(p->ratings[category].rating);
}

static void push_arena_player(struct world_arena *a, struct player *p, struct core_events *out) {
    a->version++;
    struct core_event *ev = push_event(out, CORE_EV_ARENA_PLAYER, CORE_TO_PLAYER);
    if (ev) {
        ev->arena = a;
        ev->player = p;
        mark_reply(out);
    }
}

static int join_arena(struct world *world, struct player *actor, const struct core_cmd *cmd,
                      int64_t now_ms, struct core_events *out) {
    struct world_arena *a = world_arena(world, cmd->target);
    if (!a) return -CORE_ERR_ARENA_NOT_FOUND;
    if (!actor->registered || actor->computer_level) return -CORE_ERR_ARENA_NEEDS_ACCOUNT;
    if (a->status == WORLD_ARENA_FINISHED || now_ms >= a->arena.ends_ms)
        return -CORE_ERR_ARENA_FINISHED;
    int rc = arena_join(&a->arena, actor->id, arena_rating(a, actor), now_ms);
    if (rc < 0) return rc == -CORE_ERR_GAME_OVER ? -CORE_ERR_ARENA_FINISHED : rc;
    struct arena_player *ap = arena_find(&a->arena, actor->id);
    str_copy(ap->name, sizeof ap->name, actor->name);
    if (a->status == WORLD_ARENA_STARTED && a->next_pair_ms > now_ms) a->next_pair_ms = now_ms;
    push_arena_player(a, actor, out);
    return 0;
}

static int withdraw_arena(struct world *world, struct player *actor, const struct core_cmd *cmd,
                          struct core_events *out) {
    struct world_arena *a = world_arena(world, cmd->target);
    if (!a) return -CORE_ERR_ARENA_NOT_FOUND;
    if (a->status == WORLD_ARENA_FINISHED) return -CORE_ERR_ARENA_FINISHED;
    if (arena_pause(&a->arena, actor->id) < 0) return -CORE_ERR_ARENA_NOT_JOINED;
    push_arena_player(a, actor, out);
    return 0;
}

static int apply_berserk(struct world *world, struct player *actor, const struct core_cmd *cmd,
                         int64_t now_ms, struct core_events *out) {
    struct game *g;
    int color;
    int rc = find_player_game(world, actor, cmd->target, now_ms, out, &g, &color);
    if (rc < 0) return rc;
    if (color < 0) return -CORE_ERR_NOT_A_PLAYER;
    if ((rc = game_berserk(g, color)) < 0) return rc;
    struct core_event *ev = push_game_event(out, CORE_EV_BERSERK, CORE_TO_GAME, g);
    if (ev) {
        ev->color = color;
        mark_reply(out);
    }
    schedule_game(world, g);
    struct world_arena *a = world_arena(world, g->arena_id);
    if (a) a->version++;
    return 0;
}

static int create_arena_command(struct world *world, struct player *actor,
                                const struct core_cmd *cmd, int64_t now_ms,
                                struct core_events *out) {
    if (cmd->starts_in_ms < 0 || cmd->starts_in_ms > WORLD_ARENA_STARTS_IN_MAX)
        return -CORE_ERR_ARENA_BAD_SETTINGS;
    struct world_arena_spec spec = {.name = cmd->name,
                                    .tc = cmd->tc,
                                    .rated = !cmd->casual,
                                    .starts_wall_ms = wall(world, now_ms) + cmd->starts_in_ms,
                                    .minutes = cmd->minutes};
    return world_arena_create(world, actor, &spec, now_ms, out, NULL);
}

/* An arena game ended: scored (an aborted one is not: its side to move, which did not play its
 * first move, is withdrawn and told so), and its players are paired again at once. */
static void arena_game_ended(struct world *world, struct game *g, int64_t now_ms,
                             struct core_events *out) {
    struct world_arena *a = g->arena_id[0] ? world_arena(world, g->arena_id) : NULL;
    if (!a) return;
    a->games_playing--;
    a->version++;
    if (a->next_pair_ms > now_ms && now_ms < a->arena.ends_ms) a->next_pair_ms = now_ms;
    const char *white = g->players[CHESS_WHITE]->id, *black = g->players[CHESS_BLACK]->id;
    enum chess_result r = g->chess.result;
    if (r != CHESS_RESULT_NONE) {
        int result = r == CHESS_RESULT_WHITE_WINS ? 1 : r == CHESS_RESULT_BLACK_WINS ? -1 : 0;
        int black_points;
        (void)arena_record(&a->arena, white, black, result, g->berserk, game_ply(g), now_ms,
                           &black_points);
        return;
    }
    for (int c = 0; c < 2; c++) {
        struct arena_player *p = arena_find(&a->arena, c == CHESS_WHITE ? white : black);
        if (!p) continue;
        p->playing = false;
        if (c != game_turn(g) || p->paused) continue;
        p->paused = true;
        struct core_event *ev = push_event(out, CORE_EV_ARENA_PLAYER, CORE_TO_PLAYER);
        if (ev) {
            ev->arena = a;
            ev->player = g->players[c];
        }
    }
}

/* A pairing wave: the pairs arena_pair_waiting() chooses among the connected players start
 * their games. */
static void arena_wave(struct world *world, struct world_arena *a, int64_t now_ms,
                       struct core_events *out) {
    a->next_pair_ms = now_ms + WORLD_ARENA_PAIR_MS;
    struct arena *ar = &a->arena;
    for (int i = 0; i < ar->count; i++) {
        const struct player *p = world_player_by_id(world, ar->players[i].id);
        ar->players[i].absent = !p || p->online <= 0 || p->banned;
    }
    int max = ar->count / 2 + 1;
    struct arena_pair *pairs = malloc(sizeof *pairs * (size_t)max);
    if (!pairs) return;
    int n = arena_pair_waiting(ar, now_ms, world->cfg.random, world->cfg.random_ctx, pairs, max);
    for (int k = 0; k < n; k++) {
        struct arena_player *w = &ar->players[pairs[k].white], *b = &ar->players[pairs[k].black];
        struct player *white = world_player_by_id(world, w->id);
        struct player *black = world_player_by_id(world, b->id);
        struct game *g = NULL;
        if (!white || !black ||
            start_game(world, white, black, &a->tc, NULL, !a->rated, NULL, now_ms, out, &g) < 0) {
            w->playing = b->playing = false; /* cannot play now: waits for the next wave */
            continue;
        }
        str_copy(g->arena_id, sizeof g->arena_id, a->id);
        str_copy(g->arena_name, sizeof g->arena_name, a->name);
        a->games_playing++;
    }
    if (n > 0) a->version++;
    free(pairs);
}

static void push_arena_status(struct world_arena *a, enum world_arena_status status,
                              struct core_events *out) {
    a->status = status;
    a->version++;
    struct core_event *ev = push_event(out, CORE_EV_ARENA_STATUS, CORE_TO_PLAYER);
    if (ev) ev->arena = a;
}

/* Starts, pairs and finishes an arena as its time comes. */
static void arena_tick(struct world *world, struct world_arena *a, int64_t now_ms,
                       struct core_events *out) {
    if (a->status == WORLD_ARENA_CREATED && now_ms >= a->arena.starts_ms) {
        push_arena_status(a, WORLD_ARENA_STARTED, out);
    }
    if (a->status != WORLD_ARENA_STARTED) return;
    if (now_ms < a->arena.ends_ms && now_ms >= a->next_pair_ms) arena_wave(world, a, now_ms, out);
    if (now_ms >= a->arena.ends_ms) a->next_pair_ms = a->arena.ends_ms; /* no more waves */
    if (now_ms >= a->arena.ends_ms && a->games_playing <= 0) {
        push_arena_status(a, WORLD_ARENA_FINISHED, out);
        world->arenas_finished++;
    }
}

/* When an arena has something to do next, or GCLOCK_NEVER. */
static int64_t arena_deadline(const struct world_arena *a) {
    if (a->status == WORLD_ARENA_CREATED) return a->arena.starts_ms;
    if (a->status != WORLD_ARENA_STARTED) return GCLOCK_NEVER;
    if (a->next_pair_ms < a->arena.ends_ms) return a->next_pair_ms;
    return a->games_playing <= 0 ? a->arena.ends_ms : GCLOCK_NEVER;
}

/* Finished arenas beyond max_finished_arenas go, oldest first. */
static void drop_old_arenas(struct world *world) {
    struct world_arena **link = &world->arenas_head, *prev = NULL;
    while (world->arenas_finished > world->cfg.max_finished_arenas && *link) {
        struct world_arena *a = *link;
        if (a->status != WORLD_ARENA_FINISHED) {
            prev = a;
            link = &a->next;
            continue;
        }
        *link = a->next;
        if (world->arenas_tail == a) world->arenas_tail = prev;
        strmap_remove(&world->arenas, a->id);
        arena_free(&a->arena);
        free(a);
        world->arenas_finished--;
    }
}

int world_arena_restore(struct world *world, const struct world_arena_spec *spec,
                        enum world_arena_status status, int64_t now_ms, struct world_arena **out) {
    (void)now_ms;
    struct world_arena *a = arena_add(world, spec, status);
    if (!a) return -CORE_ERR_NO_MEMORY;
    if (out) *out = a;
    return 0;
}

int world_arena_restore_player(struct world *world, const char *arena, const char *player,
                               const char *name, int rating, bool paused, int64_t now_ms) {
    struct world_arena *a = world_arena(world, arena);
    if (!a) return -CORE_ERR_ARENA_NOT_FOUND;
    /* Joined before its end: its joining order is what the standings' ties need. */
    int64_t joined = now_ms < a->arena.ends_ms ? now_ms : a->arena.ends_ms - 1;
    int rc = arena_join(&a->arena, player, rating, joined);
    if (rc < 0) return rc;
    struct arena_player *p = arena_find(&a->arena, player);
    str_copy(p->name, sizeof p->name, name);
    p->joined_ms = a->arena.count; /* joining order (no two alike) */
    p->paused = paused;
    a->version++;
    return 0;
}

int world_arena_restore_result(struct world *world, const char *arena, const char *white,
                               const char *black, enum chess_result result, const bool berserk[2],
                               int plies, int64_t now_ms) {
    struct world_arena *a = world_arena(world, arena);
    if (!a) return -CORE_ERR_ARENA_NOT_FOUND;
    if (result == CHESS_RESULT_NONE) return 0;
    int r = result == CHESS_RESULT_WHITE_WINS ? 1 : result == CHESS_RESULT_BLACK_WINS ? -1 : 0;
    int black_points;
    (void)arena_record(&a->arena, white, black, r, berserk, plies, now_ms, &black_points);
    a->version++;
    return 0;
}

int world_apply(struct world *world, struct player *actor, const struct core_cmd *cmd,
                int64_t now_ms, struct core_events *out) {
    core_events_reset(out);
    switch (cmd->type) {
        case CORE_CMD_SEEK_CREATE:
        case CORE_CMD_CHALLENGE_CREATE:
            return create_seek(world, actor, cmd, cmd->type == CORE_CMD_CHALLENGE_CREATE, now_ms,
                               out);
        case CORE_CMD_SEEK_CANCEL:
        case CORE_CMD_CHALLENGE_CANCEL:
            return cancel_seek(world, actor, cmd, cmd->type == CORE_CMD_CHALLENGE_CANCEL, out);
        case CORE_CMD_SEEK_ACCEPT:
        case CORE_CMD_CHALLENGE_ACCEPT:
            return accept_seek(world, actor, cmd, cmd->type == CORE_CMD_CHALLENGE_ACCEPT, now_ms,
                               out);
        case CORE_CMD_COMPUTER_PLAY: return play_computer(world, actor, cmd, now_ms, out);
        case CORE_CMD_CHALLENGE_DECLINE: return decline_challenge(world, actor, cmd, out);
        case CORE_CMD_POOL_JOIN: return join_pool(world, actor, cmd, now_ms, out);
        case CORE_CMD_POOL_LEAVE: return leave_pool(world, actor, out);
        case CORE_CMD_ARENA_CREATE: return create_arena_command(world, actor, cmd, now_ms, out);
        case CORE_CMD_ARENA_JOIN: return join_arena(world, actor, cmd, now_ms, out);
        case CORE_CMD_ARENA_WITHDRAW: return withdraw_arena(world, actor, cmd, out);
        case CORE_CMD_ARENA_BERSERK: return apply_berserk(world, actor, cmd, now_ms, out);
        default: return apply_game_command(world, actor, cmd, now_ms, out);
    }
}

/* ---- moderation ---- */

bool world_player_blocks(const struct player *p, const char *id) {
    for (int i = 0; i < p->block_count; i++)
        if (strcmp(p->blocks[i], id) == 0) return true;
    return false;
}

int world_player_block(struct world *world, struct player *p, const char *id, bool on) {
    (void)world;
    for (int i = 0; i < p->block_count; i++) {
        if (strcmp(p->blocks[i], id) != 0) continue;
        if (!on)
            memmove(p->blocks[i], p->blocks[i + 1],
                    (size_t)(p->block_count - i - 1) * sizeof p->blocks[0]);
        if (!on) p->block_count--;
        return 0;
    }
    if (!on) return 0;
    if (vec_reserve((void **)&p->blocks, &p->block_capacity, (size_t)p->block_count + 1,
                    sizeof p->blocks[0], 8) < 0)
        return -CORE_ERR_NO_MEMORY;
    str_copy(p->blocks[p->block_count++], sizeof p->blocks[0], id);
    return 0;
}

void world_player_ban(struct world *world, struct player *p, int64_t now_ms,
                      struct core_events *out) {
    core_events_reset(out);
    p->banned = true;
    pools_remove(&world->pools, p);
    for (struct world_arena *a = world->arenas_head; a; a = a->next)
        (void)arena_pause(&a->arena, p->id);
    for (struct seek *s = world->lobby.head, *next; s; s = next) {
        next = s->next;
        if (s->owner == p || s->target == p)
            remove_seek(world, s, CHALLENGE_REMOVED_CANCELLED, CHALLENGE_DECLINE_GENERIC, out);
    }
    int64_t wall_ms = wall(world, now_ms);
    /* Ending a game removes it from p->games: take the last one each time. */
    while (p->game_count > 0) {
        struct game *g = p->games[p->game_count - 1];
        settle_game(world, g, now_ms, out); /* a flag that fell ends it here */
        if (g->ended) continue;
        if (game_abort(g, now_ms, wall_ms) < 0 &&
            game_resign(g, game_color_of(g, p), now_ms, wall_ms) < 0)
            break; /* cannot happen: a game in progress can always be resigned */
        game_ended(world, g, now_ms, out);
    }
}

/* ---- timers ---- */

int64_t world_next_deadline(const struct world *world) {
    /* Ended games beyond the limit: due now (world_tick drops them). Without this they piled
     * up while nothing else came due (games moving in time). */
    if (world->ended_count > world->cfg.max_finished_games) return 0;
    const struct heap_node *g = heap_peek(&world->game_timers);
    const struct heap_node *s = heap_peek(&world->seek_timers);
    const struct heap_node *p = heap_peek(&world->purge_timers);
    int64_t next = GCLOCK_NEVER;
    if (g && g->key < next) next = g->key;
    if (s && s->key < next) next = s->key;
    if (p && p->key < next) next = p->key;
    int64_t wave = pools_next_wave(&world->pools);
    if (wave < next) next = wave;
    for (const struct world_arena *a = world->arenas_head; a; a = a->next) {
        int64_t when = arena_deadline(a);
        if (when < next) next = when;
    }
    return next;
}

/* True when nothing refers to an away guest any more: no game in memory (ended games kept for
 * watching count), no request pending, no seek of its own, no challenge addressed to it. Its
 * identity lives on in the database, where a returning token finds it. */
static bool guest_forgettable(const struct world *world, const struct player *p) {
    if (p->registered || p->bot || p->computer_level || p->online > 0 || p->refs > 0 ||
        p->game_count > 0 || p->open_seeks > 0)
        return false;
    for (const struct seek *s = world->lobby.head; s; s = s->next) {
        if (s->owner == p || s->target == p) return false;
    }
    return true;
}

static void forget_player(struct world *world, struct player *p) {
    if (p->token[0]) strmap_remove(&world->players_by_token, p->token);
    strmap_remove(&world->players_by_id, p->id);
    world->guests_forgotten_total++;
    free(p->games);
    free(p->blocks);
    free(p);
}

void world_tick(struct world *world, int64_t now_ms, struct core_events *out) {
    core_events_reset(out);
    drop_old_games(world);
    struct heap_node *node;
    while ((node = heap_peek(&world->game_timers)) && node->key <= now_ms) {
        struct game *g = CONTAINER_OF(node, struct game, deadline);
        if (game_on_deadline(g, now_ms, wall(world, now_ms)))
            game_ended(world, g, now_ms, out);
        else
            schedule_game(world, g); /* not due after all (the deadline moved) */
    }
    while ((node = heap_peek(&world->seek_timers)) && node->key <= now_ms) {
        remove_seek(world, CONTAINER_OF(node, struct seek, expiry), CHALLENGE_REMOVED_EXPIRED,
                    CHALLENGE_DECLINE_GENERIC, out);
    }
    while ((node = heap_peek(&world->purge_timers)) && node->key <= now_ms) {
        struct player *p = CONTAINER_OF(node, struct player, purge);
        heap_remove(&world->purge_timers, node);
        if (guest_forgettable(world, p))
            forget_player(world, p);
        else if (!p->registered && !p->bot)
            schedule_purge(world, p, now_ms); /* a game still names it: look again later */
    }
    for (int i = 0; i < POOL_COUNT; i++)
        if (world->pools.pool[i].next_wave_ms <= now_ms)
            pool_wave(world, &world->pools.pool[i], now_ms, out);
    for (struct world_arena *a = world->arenas_head; a; a = a->next)
        if (arena_deadline(a) <= now_ms) arena_tick(world, a, now_ms, out);
    drop_old_arenas(world);
}

/* ---- lookups ---- */

struct game *world_game(const struct world *world, const char *id) {
    return strmap_get(&world->games, id);
}

struct seek *world_seek(const struct world *world, const char *id) {
    return lobby_find(&world->lobby, id);
}

struct game *world_live_first(const struct world *world) {
    return world->live_head;
}

struct seek *world_seek_first(const struct world *world) {
    return world->lobby.head;
}

void world_stats(const struct world *world, struct world_stats *out) {
    *out = (struct world_stats){
        .players = (int)world->players_by_id.count,
        .players_online = world->players_online,
        .games_live = world->live_count,
        .games_ended_kept = world->ended_count,
        .seeks = world->lobby.listed,
        .challenges = world->lobby.total - world->lobby.listed,
        .moves_total = world->moves_total,
        .games_started_total = world->games_started_total,
        .games_ended_total = world->games_ended_total,
        .guests_forgotten_total = world->guests_forgotten_total,
    };
}
