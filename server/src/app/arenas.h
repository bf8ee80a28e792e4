/*
 * Arena tournaments' watchers (docs/tournaments.md): connections that watch an arena get its
 * full state at once (arena_watch) and then its standings (arena_standings) whenever its state
 * changed (the world bumps its version), at most once a second per arena, from the housekeeping
 * timer: a burst of game ends makes one push. A watcher who plays in the arena gets its own place
 * ("me") and game with it. On a site, this node's watchers of another node's arena are kept
 * here too; that node pushes its standings (site/arena_relay.c) and arenas_deliver() hands them
 * on. The world runs the tournaments (core/world.h); this file only tells.
 *
 * Loop thread.
 */
#ifndef SERVER_APP_ARENAS_H
#define SERVER_APP_ARENAS_H

#include <jansson.h>
#include <stdint.h>

struct conn;
struct server;

/* Arenas one connection may watch at once. */
#define ARENAS_WATCH_MAX 8

/* Adds the arena (by id) to what c watches. Returns 0, -CORE_ERR_ARENA_NOT_FOUND or
 * -PROTO_ERR_TOO_MANY_WATCHED / -PROTO_ERR_INTERNAL. */
int arenas_watch(struct conn *c, const char *id);

/* Adds another node's arena (by id) to what c watches: the site checked that it exists, and
 * its node pushes the standings, which arenas_deliver() hands on. Errors as arenas_watch. */
int arenas_watch_remote(struct conn *c, const char *id);

/* Another node's push of its arena's standings (arena_standings without a viewer's place) and
 * the places of its players ({player id: {"me", "game"?}}, proto_encode_arena_places): to this
 * node's watchers of it, each player with its own place. Returns how many watch it here. */
int arenas_deliver(struct server *srv, const char *id, const json_t *standings,
                   const json_t *places);

/* Calls fn with the id of each other node's arena that connections here watch. */
void arenas_each_remote(struct server *srv, void (*fn)(void *ctx, const char *id), void *ctx);

/* Stops c watching the arena (nothing when it did not). */
void arenas_unwatch(struct conn *c, const char *id);

/* c closes: it watches nothing any more. */
void arenas_conn_gone(struct conn *c);

/* Housekeeping: pushes the standings of the arenas that changed since their last push, where
 * a second has passed since it; forgets the lists of arenas that are gone. */
void arenas_push(struct server *srv, int64_t now_ms);

/* How far ahead the operator's scheduled arenas are created. */
#define ARENAS_SCHEDULE_AHEAD_MS (60LL * 60 * 1000)

/*
 * Housekeeping: the operator's schedule (--arena-schedule, app/config.h): each entry's next
 * arena is created (stored, like any) once its start is at most ARENAS_SCHEDULE_AHEAD_MS away,
 * unless the site has it already: this node's world (restored after a restart, or adopted from
 * a dead node) or another node's announcement (site_arena_announced). On a site only the node
 * site_schedules_arenas() names creates them. At most once a second.
 */
void arenas_schedule(struct server *srv, int64_t now_ms);

/* Frees the watch lists (the server is ending). */
void arenas_free(struct server *srv);

struct game;
struct store_reader;

/* Arenas read from the store with their players and games, not yet in the world. */
struct arenas_snapshot;

/*
 * Reads this node's arenas (store_load_arenas: those not finished and the last finished_max
 * finished ones) with their players and games into *out (the caller's: arenas_snapshot_free). Any
 * thread that owns the reader (the main thread at startup, a reader thread for an adoption).
 * Returns 0 or a negative enum store_status (*out NULL).
 */
int arenas_read(struct store_reader *reader, int finished_max, struct arenas_snapshot **out);

/*
 * Loop: the arenas read that the world does not hold yet (an arena held already is skipped, so a
 * second read changes nothing) come into it with their players, and their standings are
 * recomputed by replaying their finished games in the order they ended. Their games in progress
 * are noted for arenas_restore_game() until arenas_loaded(). Restore them before those games.
 * Returns how many arenas came in, or a negative enum store_status.
 */
int arenas_restore(struct server *srv, const struct arenas_snapshot *read);

/* Frees what arenas_read() returned (NULL: nothing). */
void arenas_snapshot_free(struct arenas_snapshot *read);

/*
 * At startup, before the games in progress are restored (persist.c): this node's arenas (those
 * not finished and the last finished ones), read and restored as above on the main thread.
 * Returns 0 or a negative enum store_status (logged).
 */
int arenas_load(struct server *srv, struct store_reader *reader);

/* A game in progress being restored: when it is an arena's, it gets its arena (id, name) and
 * its sides' berserk back before the world takes it. */
void arenas_restore_game(struct server *srv, struct game *g);

/* The notes arenas_restore() kept for arenas_restore_game() are no longer needed. */
void arenas_loaded(struct server *srv);

#endif
