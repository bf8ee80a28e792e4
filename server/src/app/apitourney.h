/*
 * lichess's arena tournament endpoints of the HTTP API (docs/http-api.md#arena-tournaments), on
 * the world's arenas (core/world.h, docs/tournaments.md): the list (GET /api/tournament), one
 * arena with a page of its standings (GET /api/tournament/{id}), its results as NDJSON
 * (GET /api/tournament/{id}/results), its ended games from the archive (GET
 * /api/tournament/{id}/games, app/archive.h), the arenas a user created (GET
 * /api/user/{username}/tournament/created), and the actions: create (POST /api/tournament), join
 * and withdraw (POST /api/tournament/{id}/join, /withdraw).
 *
 * The actions are the protocol's arena_create, arena_join and arena_withdraw run on the token's
 * virtual connection (hapi_act), answered once their writes are committed; the reads look at the
 * world's arenas on the loop (a username is looked up off the loop). On a site of several nodes,
 * an arena another node holds is read there: the request waits for that node's answer (the
 * site's "aget", site/arena_relay.c), which apitourney_render() makes; its games are read from
 * the shared database here; the list gathers every node's arenas. Each function is a route's
 * handler (httpapi.c's table): it answers, or returns -1 when the request must be dropped.
 *
 * Loop thread only.
 */
#ifndef SERVER_APP_APITOURNEY_H
#define SERVER_APP_APITOURNEY_H

#include <stdbool.h>

struct hapi;
struct world;
struct world_arena;

/* What is read: one arena (GET /api/tournament/{id}, a page of its standings), its results
 * (at most nb players, with their sheets or not), the list of the node's arenas
 * (GET /api/tournament: {"created", "started", "finished"}), or those of the node's arenas that
 * a player created ({"arenas": [...]}, oldest first). */
enum apitourney_read {
    APITOURNEY_ARENA,
    APITOURNEY_RESULTS,
    APITOURNEY_LIST,
    APITOURNEY_CREATED,
};
struct apitourney_query {
    enum apitourney_read read;
    int page;
    long nb;
    bool sheet;
    const char *creator; /* APITOURNEY_CREATED: the player's id */
};

/* The answer to q about arena a (NULL for the list): its body (NUL-terminated, the caller frees
 * it) and its content type, or NULL when memory ran out. */
char *apitourney_render(const struct world *world, const struct world_arena *a,
                        const struct apitourney_query *q, const char **type);

int apitourney_list(struct hapi *h);
int apitourney_create(struct hapi *h);
int apitourney_info(struct hapi *h);
int apitourney_results(struct hapi *h);
int apitourney_games(struct hapi *h);
int apitourney_join(struct hapi *h);
int apitourney_withdraw(struct hapi *h);
int apitourney_created(struct hapi *h);

#endif
