/*
 * The site of several nodes, as the application sees it (docs/scaling.md). The site's code
 * (site/: the Redis bus, other nodes' games and lobby, forwarded commands) sits on top of the
 * application and plugs in through this table of functions when the node joins a site
 * (--redis); the application calls the site_*() wrappers, which do what a single node does
 * when no site is attached. So the application never includes the site's headers.
 *
 * Loop thread only.
 */
#ifndef SERVER_APP_SITE_H
#define SERVER_APP_SITE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/proto.h"

struct server;
struct apitourney_query;
struct conn;
struct core_event;
struct game;
struct player;

/* Figures of a node or of the site, for /healthz and /metrics (docs/scaling.md). */
struct site_stats {
    int nodes;          /* nodes heard from in the last 5 s, this one included */
    int connections;    /* WebSocket connections */
    int players_online; /* players with a connection to the node (to each node, for the site) */
    int games_live;     /* games in progress held by the node(s) */
    bool bus_up;
    bool reporter; /* this node is the one that exports the site's figures in /metrics */
};

/* What a site does; each function is documented at its wrapper below. */
struct site_ops {
    int (*forward)(struct conn *c, const struct proto_request *req, const char *text, size_t len,
                   bool located);
    void (*publish_event)(struct server *srv, const struct core_event *ev, const json_t *msg,
                          bool is_reply);
    void (*publish_to_game)(struct server *srv, const struct game *g, const json_t *msg,
                            bool players, bool spectators);
    void (*add_remote_seeks)(struct server *srv, json_t *seeks_msg);
    void (*add_remote_arenas)(struct server *srv, json_t *list_msg);
    bool (*schedules_arenas)(struct server *srv);
    int (*my_games)(struct conn *c, const json_t *req_id, json_t *msg);
    bool (*arena_announced)(struct server *srv, const char *name, int64_t starts_wall_ms);
    bool (*arena_elsewhere)(struct server *srv, const char *arena);
    int (*arena_get)(struct server *srv, const char *arena, uint64_t request,
                     const struct apitourney_query *q);
    json_t *(*live_games)(struct server *srv, int limit, int64_t now_ms);
    void (*player_hello)(struct server *srv, const struct player *p);
    void (*player_gone)(struct server *srv, const struct player *p);
    void (*conn_gone)(struct conn *c);
    void (*tick)(struct server *srv, int64_t now_ms);
    bool (*health)(struct server *srv, json_t *body);
    void (*add_stats)(struct server *srv, struct site_stats *out); /* others', reporter */
    void (*detach)(struct server *srv);
    void (*release)(struct server *srv);
    void (*player_moderated)(struct server *srv, const char *player_id, const char *change,
                             const char *other_id);
    void (*player_settings)(struct server *srv, const char *player_id, const json_t *settings);
    bool (*game_players)(struct server *srv, const char *game, const char **white,
                         const char **black);
    void (*report_spectators)(struct server *srv, const char *game, int count);
    int (*spectators_elsewhere)(struct server *srv, const char *game);
};

/* Plugs a site in (site/cluster.c, when the node joins one); ops must outlive the server. */
void site_attach(struct server *srv, const struct site_ops *ops);

bool site_enabled(const struct server *srv);

/*
 * A client's command or watch whose game, seek or challenge is not on this node. Returns 1 when
 * the site took it over (the answer comes later, or an error was sent), 0 when the caller should
 * handle it here. A direct challenge to a player not connected here makes the connection wait
 * while the site is asked where the player is; then the message runs again (located).
 */
int site_forward(struct conn *c, const struct proto_request *req, const char *text, size_t len,
                 bool located);

/* An event (msg borrowed) is about to be delivered here: the site publishes it for the other
 * nodes after its commit. */
void site_publish_event(struct server *srv, const struct core_event *ev, const json_t *msg,
                        bool is_reply);

/* A message about a game that is not an event (the computer thinking) for the other nodes'
 * players and spectators of it too (msg borrowed). */
void site_publish_to_game(struct server *srv, const struct game *g, const json_t *msg, bool players,
                          bool spectators);

/* lobby_subscribe's reply: adds the other nodes' seeks (msg borrowed). */
void site_add_remote_seeks(struct server *srv, json_t *seeks_msg);

/* arena_list's reply: adds the other nodes' arenas, as they last announced them (msg
 * borrowed). */
void site_add_remote_arenas(struct server *srv, json_t *list_msg);

/* my_games on a site: msg is this node's answer; returns 1 when the site took it (consumed: c
 * gets the player's games on every node, gathered for at most 300 ms, in my_games' order), 0
 * when the caller answers msg itself (no site, or cut off from the others). */
int site_my_games(struct conn *c, const json_t *req_id, json_t *msg);

/* Whether this node creates the operator's scheduled arenas (app/arenas.h): on a site, the one
 * node that runs the pools, once on the bus long enough to have heard the others' arenas (none
 * while cut off from Redis); alone, always. */
bool site_schedules_arenas(struct server *srv);

/* Whether another node announced an operator's arena of this name starting then (false
 * without a site). */
bool site_arena_announced(struct server *srv, const char *name, int64_t starts_wall_ms);

/* Whether another node of the site holds this arena (it announced it lately; false without a
 * site). */
bool site_arena_elsewhere(struct server *srv, const char *arena);

/* An HTTP API read about another node's arena (app/apitourney.h): asks that node, which answers
 * through httpapi_remote_answer(request, ...); the list (arena NULL) asks every other node.
 * Returns how many nodes will answer: 0 without a site, or when no other node holds the arena
 * (or there is none); -1 when the request could not be sent. */
int site_arena_get(struct server *srv, const char *arena, uint64_t request,
                   const struct apitourney_query *q);

/* live_games's reply: this node's games and the newest of the others, newest first. NULL when
 * memory runs out. */
json_t *site_live_games(struct server *srv, int limit, int64_t now_ms);

/* A player said hello here: the nodes holding its games send their state after the welcome. */
void site_player_hello(struct server *srv, const struct player *p);

/* A player's last connection on this node closed: the owners of its games are told. */
void site_player_gone(struct server *srv, const struct player *p);

/* A connection closes: its pending forwarded requests are forgotten. */
void site_conn_gone(struct conn *c);

/* Housekeeping (every 100 ms). */
void site_tick(struct server *srv, int64_t now_ms);

/* Adds the site's state to /healthz's body; true when the node is degraded (cut off). */
bool site_health(struct server *srv, json_t *body);

/* This node's own figures: its connections, the players connected to it (a player of one of
 * its games who is connected through another node counts there), the games it holds. */
void site_node_stats(const struct server *srv, struct site_stats *out);

/* Site-wide figures: this node's own plus the other nodes' from their announcements, and
 * whether this node reports them in /metrics. Alone: this node's own, reporting. */
void site_stats(struct server *srv, struct site_stats *out);

/* Leaves the site (inside the loop, at shutdown), then frees what is left (after the loop). */
void site_detach(struct server *srv);
void site_release(struct server *srv);

/*
 * A committed moderation change about player_id (app/moderation.h): an action's word ("ban",
 * "mute", ...), or "block" / "unblock" of other_id. The other nodes apply it to their copy of
 * the player (moderation_apply), so a ban ends its games and connections there too. Nothing
 * without a site.
 */
void site_player_moderated(struct server *srv, const char *player_id, const char *change,
                           const char *other_id);

/* An account's settings were saved here (settings borrowed): the other nodes send them to the
 * account's connections there (settings_push). Nothing without a site. */
void site_player_settings(struct server *srv, const char *player_id, const json_t *settings);

/* Another node's game's players' ids (borrowed until the next call into the site), as this
 * node last heard them. False when unknown, and without a site. */
bool site_game_players(struct server *srv, const char *game, const char **white,
                       const char **black);

/* This node's spectators of another node's game, for its owner, which announces the site's
 * total (dispatch_announce_spectators). Nothing without a site. */
void site_report_spectators(struct server *srv, const char *game, int count);

/* The spectators of one of this node's games on the other nodes, as they last reported them
 * (a node that left the site counts no more); 0 without a site. */
int site_spectators_elsewhere(struct server *srv, const char *game);

#endif
