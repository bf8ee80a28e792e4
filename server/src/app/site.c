/*
 * The wrappers of site.h: the attached site's function, or what a single node does.
 */
#include "app/site.h"

#include "app/internal.h"
#include "proto/encode.h"

void site_attach(struct server *srv, const struct site_ops *ops) {
    srv->site_ops = ops;
}

bool site_enabled(const struct server *srv) {
    return srv->site_ops != NULL;
}

int site_forward(struct conn *c, const struct proto_request *req, const char *text, size_t len,
                 bool located) {
    const struct site_ops *ops = c->srv->site_ops;
    return ops ? ops->forward(c, req, text, len, located) : 0;
}

void site_publish_event(struct server *srv, const struct core_event *ev, const json_t *msg,
                        bool is_reply) {
    if (srv->site_ops) srv->site_ops->publish_event(srv, ev, msg, is_reply);
}

void site_publish_to_game(struct server *srv, const struct game *g, const json_t *msg, bool players,
                          bool spectators) {
    if (srv->site_ops) srv->site_ops->publish_to_game(srv, g, msg, players, spectators);
}

void site_add_remote_seeks(struct server *srv, json_t *seeks_msg) {
    if (srv->site_ops) srv->site_ops->add_remote_seeks(srv, seeks_msg);
}

void site_add_remote_arenas(struct server *srv, json_t *list_msg) {
    if (srv->site_ops) srv->site_ops->add_remote_arenas(srv, list_msg);
}

int site_my_games(struct conn *c, const json_t *req_id, json_t *msg) {
    struct server *srv = c->srv;
    return srv->site_ops ? srv->site_ops->my_games(c, req_id, msg) : 0;
}

bool site_schedules_arenas(struct server *srv) {
    return !srv->site_ops || srv->site_ops->schedules_arenas(srv);
}

bool site_arena_announced(struct server *srv, const char *name, int64_t starts_wall_ms) {
    return srv->site_ops && srv->site_ops->arena_announced(srv, name, starts_wall_ms);
}

bool site_arena_elsewhere(struct server *srv, const char *arena) {
    return srv->site_ops && srv->site_ops->arena_elsewhere(srv, arena);
}

int site_arena_get(struct server *srv, const char *arena, uint64_t request,
                   const struct apitourney_query *q) {
    return srv->site_ops ? srv->site_ops->arena_get(srv, arena, request, q) : 0;
}

json_t *site_live_games(struct server *srv, int limit, int64_t now_ms) {
    if (srv->site_ops) return srv->site_ops->live_games(srv, limit, now_ms);
    return proto_encode_live_games(srv->world, limit, now_ms);
}

void site_player_hello(struct server *srv, const struct player *p) {
    if (srv->site_ops) srv->site_ops->player_hello(srv, p);
}

void site_player_gone(struct server *srv, const struct player *p) {
    if (srv->site_ops) srv->site_ops->player_gone(srv, p);
}

void site_conn_gone(struct conn *c) {
    if (c->srv->site_ops) c->srv->site_ops->conn_gone(c);
}

void site_tick(struct server *srv, int64_t now_ms) {
    if (srv->site_ops) srv->site_ops->tick(srv, now_ms);
}

bool site_health(struct server *srv, json_t *body) {
    return srv->site_ops ? srv->site_ops->health(srv, body) : false;
}

void site_node_stats(const struct server *srv, struct site_stats *out) {
    struct world_stats st;
    world_stats(srv->world, &st);
    /* Not the world's players_online: that counts, too, the players of this node's games who
     * are connected through other nodes (site/relay.c attaches them here). */
    *out = (struct site_stats){.nodes = 1,
                               .connections = srv->conn_count,
                               .players_online = srv->players_here,
                               .games_live = st.games_live,
                               .reporter = true};
}

void site_stats(struct server *srv, struct site_stats *out) {
    site_node_stats(srv, out);
    if (srv->site_ops) srv->site_ops->add_stats(srv, out);
}

void site_detach(struct server *srv) {
    if (srv->site_ops) srv->site_ops->detach(srv);
}

void site_release(struct server *srv) {
    if (srv->site_ops) srv->site_ops->release(srv);
}

void site_player_settings(struct server *srv, const char *player_id, const json_t *settings) {
    if (srv->site_ops) srv->site_ops->player_settings(srv, player_id, settings);
}

bool site_game_players(struct server *srv, const char *game, const char **white,
                       const char **black) {
    return srv->site_ops ? srv->site_ops->game_players(srv, game, white, black) : false;
}

void site_report_spectators(struct server *srv, const char *game, int count) {
    if (srv->site_ops) srv->site_ops->report_spectators(srv, game, count);
}

int site_spectators_elsewhere(struct server *srv, const char *game) {
    return srv->site_ops ? srv->site_ops->spectators_elsewhere(srv, game) : 0;
}

void site_player_moderated(struct server *srv, const char *player_id, const char *change,
                           const char *other_id) {
    if (srv->site_ops) srv->site_ops->player_moderated(srv, player_id, change, other_id);
}
