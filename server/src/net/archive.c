/*
 * Archive requests: read from the database (store/read.h), encode as JSON or PGN. The JSON of a
 * stored game is the same over WebSocket (game_record) and HTTP (/api/games/<id>).
 */
#include "net/archive.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net/internal.h"
#include "net/persist.h"
#include "proto/encode.h"
#include "store/archive.h"
#include "store/auth.h"
#include "store/read.h"
#include "util/ids.h"
#include "util/log.h"
#include "util/now.h"

/* Games in one player's PGN file: it is built on the loop thread (about 1 ms per 10 games). */
#define ALL_GAMES_PGN_MAX 1000

/* Sets key to value (stolen); NULL values (out of memory) are skipped. */
static void put(json_t *obj, const char *key, json_t *value) {
    if (obj && value) json_object_set_new(obj, key, value);
}

/* ---- players ---- */

static json_t *ratings_json(const struct rating r[RATING_CATEGORY_COUNT]) {
    json_t *obj = json_object();
    for (int c = 0; obj && c < RATING_CATEGORY_COUNT; c++) {
        put(obj, rating_category_name(c),
            json_pack("{s:I,s:I,s:i,s:b}", "rating", (json_int_t)lround(r[c].rating), "deviation",
                      (json_int_t)lround(r[c].deviation), "games", r[c].games, "provisional",
                      rating_provisional(&r[c])));
    }
    return obj;
}

/* A profile: the stored identity, with the in-memory player's current state when it has one. */
static json_t *profile_json(struct server *srv, const struct store_identity *id) {
    const struct player *pl = world_player_by_id(srv->world, id->player_id);
    json_t *obj = json_pack("{s:s,s:s,s:b,s:b,s:b,s:I}", "id", id->player_id, "name",
                            pl ? pl->name : id->name, "registered",
                            pl ? pl->registered : id->username[0] != '\0', "bot", id->bot, "online",
                            pl && pl->online > 0, "created_at", (json_int_t)id->created_at);
    put(obj, "username", id->username[0] ? json_string(id->username) : json_null());
    put(obj, "ratings", ratings_json(pl ? pl->ratings : id->ratings));
    return obj;
}

/* The identity of a player id or username; a store status on failure. */
static int find_identity(struct store *store, const char *player_id, const char *username,
                         struct store_identity *out) {
    if (player_id) return store_find_player(store, player_id, out);
    char lower[STORE_USERNAME_MAX + 1], hash[STORE_PWHASH_MAX];
    if (!username || auth_username_check(username, lower) < 0) return -STORE_ERR_NOT_FOUND;
    return store_find_account(store, lower, out, hash);
}

/* ---- games ---- */

static json_t *time_json(const struct store_game *g) {
    if (g->unlimited) return json_string("unlimited");
    json_t *obj = json_object();
    if (g->initial_ms % 60000 == 0)
        put(obj, "minutes", json_integer(g->initial_ms / 60000));
    else
        put(obj, "minutes", json_real((double)g->initial_ms / 60000.0));
    put(obj, "increment", json_integer(g->increment_ms / 1000));
    return obj;
}

static json_t *side_json(const struct store_game *g, int c) {
    json_t *obj = json_object();
    put(obj, "id", g->player_id[c][0] ? json_string(g->player_id[c]) : json_null());
    put(obj, "name", json_string(g->name[c]));
    if (g->has_ratings) {
        put(obj, "rating", json_integer(g->rating[c]));
        if (strcmp(g->status, "ended") == 0)
            put(obj, "rating_diff", json_integer(g->rating_diff[c]));
    }
    return obj;
}

/* A stored game without its moves (lists), or with them (one game). */
static json_t *game_json(const struct store_game *g, bool with_moves) {
    json_t *obj = json_object();
    put(obj, "id", json_string(g->id));
    put(obj, "status", json_string(g->status));
    put(obj, "white", side_json(g, 0));
    put(obj, "black", side_json(g, 1));
    put(obj, "time", time_json(g));
    put(obj, "rated", json_boolean(g->rated));
    const char *category = rating_category_name(g->category);
    put(obj, "category", category ? json_string(category) : json_null());
    bool over = g->result[0] && strcmp(g->status, "live") != 0;
    put(obj, "result", over ? json_string(g->result) : json_null());
    put(obj, "reason",
        over && strcmp(g->termination, "none") != 0 ? json_string(g->termination) : json_null());
    put(obj, "winner",
        strcmp(g->result, "1-0") == 0   ? json_string("white")
        : strcmp(g->result, "0-1") == 0 ? json_string("black")
                                        : json_null());
    put(obj, "ply", json_integer(g->ply_count));
    put(obj, "created_at", json_integer(g->created_at));
    put(obj, "ended_at", g->ended_at ? json_integer(g->ended_at) : json_null());
    if (!with_moves) return obj;
    char fen[STORE_FEN_MAX + 1];
    if (store_game_fen(g, 0, fen) == 0) put(obj, "initial_fen", json_string(fen));
    if (store_game_fen(g, g->ply_count, fen) == 0) put(obj, "fen", json_string(fen));
    json_t *uci = json_array(), *san = json_array(), *clocks = json_array();
    for (int i = 0; i < g->ply_count; i++) {
        const struct store_move_row *m = &g->moves[i];
        json_array_append_new(uci, json_string(m->uci));
        json_array_append_new(san, json_string(m->san));
        json_array_append_new(clocks, m->timed ? json_integer(m->clock_ms) : json_null());
    }
    put(obj, "moves", uci);
    put(obj, "san", san);
    put(obj, "clocks", clocks);
    return obj;
}

static int status_error(int status, int not_found) {
    return status == -STORE_ERR_NOT_FOUND ? not_found : -PROTO_ERR_STORE_UNAVAILABLE;
}

/* ---- WebSocket ---- */

static void send_reply(struct conn *c, json_t *msg, const json_t *id) {
    if (!msg) {
        conn_send_error(c, -PROTO_ERR_INTERNAL, id, NULL);
        return;
    }
    proto_set_id(msg, id);
    conn_send_json(c, msg);
}

static int handle_player(struct conn *c, const struct proto_request *req, struct store *store) {
    if (!req->player && !req->username) return -PROTO_ERR_BAD_FIELD;
    struct store_identity id;
    int rc = find_identity(store, req->player, req->username, &id);
    if (rc < 0) return status_error(rc, -PROTO_ERR_PLAYER_NOT_FOUND);
    send_reply(c, json_pack("{s:s,s:o}", "type", "player", "player", profile_json(c->srv, &id)),
               req->id);
    return 0;
}

/* A page of a player's games: {player, page, more, games}. NULL with *status on failure. */
static json_t *games_page(struct store *store, const char *player_id, int page, int limit,
                          int *status) {
    struct store_game *games = calloc((size_t)limit, sizeof *games);
    if (!games) {
        *status = -STORE_ERR_NO_MEMORY;
        return NULL;
    }
    int count;
    bool more;
    *status = store_player_games(store, player_id, page, limit, games, &count, &more);
    json_t *list = json_array();
    for (int i = 0; *status == 0 && i < count; i++)
        json_array_append_new(list, game_json(&games[i], false));
    free(games);
    if (*status < 0) {
        json_decref(list);
        return NULL;
    }
    return json_pack("{s:s,s:i,s:i,s:b,s:o}", "player", player_id, "page", page, "limit", limit,
                     "more", more, "games", list);
}

static int handle_games(struct conn *c, const struct proto_request *req, struct store *store) {
    struct store_identity id;
    int status = store_find_player(store, req->player, &id);
    if (status < 0) return status_error(status, -PROTO_ERR_PLAYER_NOT_FOUND);
    json_t *page = games_page(store, req->player, req->page, req->limit, &status);
    if (!page) return status_error(status, -PROTO_ERR_PLAYER_NOT_FOUND);
    json_object_set_new(page, "type", json_string("games"));
    send_reply(c, page, req->id);
    return 0;
}

static int handle_record(struct conn *c, const struct proto_request *req, struct store *store) {
    struct store_game g;
    int rc = store_read_game(store, req->game, &g);
    if (rc < 0) return status_error(rc, -CORE_ERR_GAME_NOT_FOUND);
    send_reply(c, json_pack("{s:s,s:o}", "type", "game_record", "game", game_json(&g, true)),
               req->id);
    store_game_free(&g);
    return 0;
}

static json_t *leaderboard_json(struct store *store, int category, int limit, int *status) {
    struct store_leader *leaders = calloc((size_t)limit, sizeof *leaders);
    if (!leaders) {
        *status = -STORE_ERR_NO_MEMORY;
        return NULL;
    }
    int count;
    *status = store_leaderboard(store, category, limit, leaders, &count);
    json_t *list = json_array();
    for (int i = 0; *status == 0 && i < count; i++) {
        const struct store_leader *l = &leaders[i];
        json_array_append_new(
            list, json_pack("{s:i,s:s,s:s,s:I,s:I,s:i}", "rank", i + 1, "id", l->player_id, "name",
                            l->name, "rating", (json_int_t)lround(l->rating.rating), "deviation",
                            (json_int_t)lround(l->rating.deviation), "games", l->rating.games));
    }
    free(leaders);
    if (*status < 0) {
        json_decref(list);
        return NULL;
    }
    return json_pack("{s:s,s:o}", "category", rating_category_name(category), "players", list);
}

static int handle_leaderboard(struct conn *c, const struct proto_request *req,
                              struct store *store) {
    int status;
    json_t *board = leaderboard_json(store, req->category, req->limit, &status);
    if (!board) return -PROTO_ERR_STORE_UNAVAILABLE;
    json_object_set_new(board, "type", json_string("leaderboard"));
    send_reply(c, board, req->id);
    return 0;
}

/* A game id used neither in memory nor in the database. */
static int fresh_game_id(struct server *srv, struct store *store, char id[GAME_ID_LEN + 1]) {
    for (int attempt = 0; attempt < 8; attempt++) {
        if (ids_random_text(id, GAME_ID_LEN) < 0) return -1;
        struct store_game g;
        if (world_game(srv->world, id)) continue;
        int rc = store_read_game(store, id, &g);
        if (rc == 0) {
            store_game_free(&g);
            continue;
        }
        return rc == -STORE_ERR_NOT_FOUND ? 0 : -1;
    }
    return -1;
}

static int handle_import(struct conn *c, const struct proto_request *req, struct store *store) {
    char id[GAME_ID_LEN + 1], err[160];
    if (fresh_game_id(c->srv, store, id) < 0) return -PROTO_ERR_STORE_UNAVAILABLE;
    struct store_op op;
    if (store_import_pgn(req->pgn, strlen(req->pgn), id, now_wall_ms(), &op, err, sizeof err) < 0) {
        LOGD("archive", "conn=%llu pgn_import refused: %s", (unsigned long long)c->id, err);
        return -PROTO_ERR_PGN_INVALID;
    }
    if (store_submit(store, &op) == 0) return -PROTO_ERR_STORE_UNAVAILABLE;
    /* The reply is held until the import is committed, like every message (persist.c). */
    send_reply(c, json_pack("{s:s,s:s}", "type", "imported", "game", id), req->id);
    return 0;
}

int archive_handle(struct conn *c, const struct proto_request *req, int64_t now_ms) {
    (void)now_ms;
    struct store *store = persist_store(c->srv);
    if (!store) return -PROTO_ERR_STORE_UNAVAILABLE;
    switch (req->msg) {
        case PROTO_MSG_PLAYER_GET: return handle_player(c, req, store);
        case PROTO_MSG_GAMES_LIST: return handle_games(c, req, store);
        case PROTO_MSG_GAME_RECORD: return handle_record(c, req, store);
        case PROTO_MSG_LEADERBOARD: return handle_leaderboard(c, req, store);
        case PROTO_MSG_PGN_IMPORT: return handle_import(c, req, store);
        default: return -PROTO_ERR_UNKNOWN_TYPE;
    }
}

/* ---- HTTP ---- */

static int http_error(struct lws *wsi, struct session *ss, int code) {
    unsigned status = code == -PROTO_ERR_STORE_UNAVAILABLE ? 503 : 404;
    return http_send_json(wsi, ss, status, proto_encode_error(code, NULL));
}

static void site_of(struct lws *wsi, char *site, size_t size) {
    char host[256] = "";
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        snprintf(host, sizeof host, "localhost");
    snprintf(site, size, "http://%s", host);
}

/* An integer query argument within [min, max], or fallback. */
static int query_int(struct lws *wsi, const char *name, int min, int max, int fallback) {
    char buf[64];
    const char *v = lws_get_urlarg_by_name(wsi, name, buf, sizeof buf);
    if (!v) return fallback;
    char *end;
    long n = strtol(v, &end, 10);
    return *v && !*end && n >= min && n <= max ? (int)n : fallback;
}

int archive_http_game(struct server *srv, struct lws *wsi, struct session *ss, const char *id,
                      bool pgn) {
    struct store *store = persist_store(srv);
    if (!store) return http_error(wsi, ss, -CORE_ERR_GAME_NOT_FOUND);
    struct store_game g;
    int rc = store_read_game(store, id, &g);
    if (rc < 0) return http_error(wsi, ss, status_error(rc, -CORE_ERR_GAME_NOT_FOUND));
    if (!pgn) {
        rc = http_send_json(wsi, ss, 200, game_json(&g, true));
    } else {
        char site[300], *text = NULL;
        site_of(wsi, site, sizeof site);
        long n = store_game_pgn(&g, site, &text);
        rc = n < 0 ? http_error(wsi, ss, -PROTO_ERR_STORE_UNAVAILABLE)
                   : http_send(wsi, ss, 200, "application/x-chess-pgn", text, (size_t)n);
    }
    store_game_free(&g);
    return rc;
}

static int serve_fen(struct server *srv, struct lws *wsi, struct session *ss, const char *id,
                     const char *ply_text) {
    char *end;
    long ply = strtol(ply_text, &end, 10);
    struct store *store = persist_store(srv);
    struct store_game g;
    int rc = store ? store_read_game(store, id, &g) : -STORE_ERR_NOT_FOUND;
    if (rc < 0) return http_error(wsi, ss, status_error(rc, -CORE_ERR_GAME_NOT_FOUND));
    char fen[STORE_FEN_MAX + 1];
    rc = *ply_text && !*end && ply >= 0 && ply <= CHESS_GAME_MAX_PLIES
             ? store_game_fen(&g, (int)ply, fen)
             : -STORE_ERR_NOT_FOUND;
    store_game_free(&g);
    if (rc == -STORE_ERR_NOT_FOUND)
        return http_send_json(
            wsi, ss, 404,
            json_pack("{s:s,s:s}", "code", "NOT_FOUND", "message", "no such ply in this game"));
    if (rc < 0) return http_error(wsi, ss, -PROTO_ERR_STORE_UNAVAILABLE);
    return http_send_json(wsi, ss, 200,
                          json_pack("{s:s,s:i,s:s}", "game", id, "ply", (int)ply, "fen", fen));
}

struct pgn_file {
    char *text;
    size_t len, cap;
    const char *site;
    bool failed;
};

static int append_game(void *ctx, const struct store_game *g) {
    struct pgn_file *f = ctx;
    char *one = NULL;
    long n = store_game_pgn(g, f->site, &one);
    if (n < 0) return 0; /* a game that does not replay is left out */
    if (f->len + (size_t)n + 2 > f->cap) {
        size_t cap = (f->cap ? f->cap * 2 : 65536) + (size_t)n;
        char *grown = realloc(f->text, cap);
        if (!grown) {
            free(one);
            f->failed = true;
            return 1;
        }
        f->text = grown;
        f->cap = cap;
    }
    memcpy(f->text + f->len, one, (size_t)n);
    f->len += (size_t)n;
    f->text[f->len++] = '\n'; /* games are separated by a blank line */
    free(one);
    return 0;
}

static int serve_player(struct server *srv, struct lws *wsi, struct session *ss, const char *rest) {
    struct store *store = persist_store(srv);
    if (!store) return http_error(wsi, ss, -PROTO_ERR_STORE_UNAVAILABLE);
    char player_id[STORE_ID_MAX + 1];
    size_t id_len = strcspn(rest, "/");
    const char *sub = rest + id_len;
    if (id_len == 0 || id_len > STORE_ID_MAX)
        return http_error(wsi, ss, -PROTO_ERR_PLAYER_NOT_FOUND);
    memcpy(player_id, rest, id_len);
    player_id[id_len] = '\0';
    struct store_identity id;
    int rc = store_find_player(store, player_id, &id);
    if (rc < 0) return http_error(wsi, ss, status_error(rc, -PROTO_ERR_PLAYER_NOT_FOUND));
    if (!*sub) return http_send_json(wsi, ss, 200, profile_json(srv, &id));
    if (strcmp(sub, "/games") == 0) {
        int page = query_int(wsi, "page=", 1, 100000, 1);
        int limit = query_int(wsi, "limit=", 1, 100, 20);
        json_t *body = games_page(store, player_id, page, limit, &rc);
        return body ? http_send_json(wsi, ss, 200, body)
                    : http_error(wsi, ss, -PROTO_ERR_STORE_UNAVAILABLE);
    }
    if (strcmp(sub, "/games.pgn") == 0) {
        char site[300];
        site_of(wsi, site, sizeof site);
        struct pgn_file f = {.site = site};
        rc = store_each_player_game(store, player_id, ALL_GAMES_PGN_MAX, append_game, &f);
        if (rc < 0 || f.failed) {
            free(f.text);
            return http_error(wsi, ss, -PROTO_ERR_STORE_UNAVAILABLE);
        }
        return http_send(wsi, ss, 200, "application/x-chess-pgn", f.text ? f.text : strdup(""),
                         f.len);
    }
    return http_error(wsi, ss, -PROTO_ERR_PLAYER_NOT_FOUND);
}

bool archive_http(struct server *srv, struct lws *wsi, struct session *ss, const char *path,
                  int *rc) {
    struct store *store = persist_store(srv);
    if (strncmp(path, "/api/players/", 13) == 0) {
        *rc = serve_player(srv, wsi, ss, path + 13);
        return true;
    }
    if (strncmp(path, "/api/users/", 11) == 0) {
        struct store_identity id;
        int r = store ? find_identity(store, NULL, path + 11, &id) : -STORE_ERR_IO;
        *rc = r < 0 ? http_error(wsi, ss, status_error(r, -PROTO_ERR_PLAYER_NOT_FOUND))
                    : http_send_json(wsi, ss, 200, profile_json(srv, &id));
        return true;
    }
    if (strncmp(path, "/api/leaderboard/", 17) == 0) {
        int category = rating_category_parse(path + 17), status = -STORE_ERR_NOT_FOUND;
        json_t *board =
            store && category != RATING_NONE
                ? leaderboard_json(store, category, query_int(wsi, "limit=", 1, 100, 20), &status)
                : NULL;
        *rc = board ? http_send_json(wsi, ss, 200, board)
                    : http_send_json(wsi, ss, 404,
                                     json_pack("{s:s,s:s}", "code", "NOT_FOUND", "message",
                                               "categories: bullet, blitz, rapid, classical"));
        return true;
    }
    const char *fen = strstr(path, "/fen/");
    if (strncmp(path, "/api/games/", 11) == 0 && fen) {
        char id[GAME_ID_LEN + 8];
        size_t len = (size_t)(fen - (path + 11));
        if (len == 0 || len > GAME_ID_LEN) {
            *rc = http_error(wsi, ss, -CORE_ERR_GAME_NOT_FOUND);
            return true;
        }
        memcpy(id, path + 11, len);
        id[len] = '\0';
        *rc = serve_fen(srv, wsi, ss, id, fen + 5);
        return true;
    }
    return false;
}
