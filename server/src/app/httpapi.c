/*
 * The HTTP API's routes, tokens, scopes and rate limits, and the endpoints that only read
 * (httpapi.h). A request goes: route (404 / 405) -> rate limit by address (429) -> token (401;
 * looked up off the loop unless cached) -> rate limit by token (429) -> scope (403) -> the
 * route's handler, which answers now, after a database read, or through a virtual connection
 * (apistream.c).
 */
#include "app/httpapi.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app/apitourney.h"
#include "app/archive.h"
#include "app/auth.h"
#include "app/internal.h"
#include "app/lichess.h"
#include "app/persist.h"
#include "app/reads.h"
#include "app/site.h"
#include "core/game.h"
#include "core/ratelimit.h"
#include "proto/encode.h"
#include "proto/proto.h"
#include "util/log.h"
#include "util/now.h"

/* A token's answer is kept this long: a token revoked on another node stops working within it
 * (one revoked on this node stops at once). */
#define TOKEN_CACHE_MS  10000
#define TOKEN_CACHE_MAX 10000
/* Rate limits: per address, and per token (a bot's allowance is its WebSocket one's). */
#define ADDR_BURST     400.0
#define ADDR_PER_S     100.0
#define LIMIT_IDLE_MS  60000
#define TOKEN_TEXT_MAX 64
#define LOOKUP_MAX     100 /* tokens in one /api/token/test, usernames in one /api/users/status */

struct token_entry {
    char hash_hex[2 * AUTH_TOKEN_HASH_LEN + 1]; /* the key */
    char player_id[HAPI_ID_MAX];
    char scopes[HAPI_SCOPES_MAX];
    int64_t created_at; /* the account's, wall ms */
    int64_t expires_ms; /* monotonic */
};

struct limit_entry {
    char key[80]; /* "a:<address>" or "t:<token key>" */
    struct ratelimit limit;
    int64_t last_ms;
};

struct httpapi {
    uv_check_t flush; /* after each turn of the loop: the deferred lines go out */
    bool flush_initialised;
    struct hapi *deferred;
    struct strmap tokens;   /* hash hex -> struct token_entry */
    struct strmap limits;   /* key -> struct limit_entry */
    struct strmap streams;  /* "<token key>:<game>" -> the game stream's struct hapi */
    struct strmap upgrades; /* a bot upgrade's cookie (decimal) -> its struct hapi */
    /* Requests answered when their time comes: /api/account/playing gathering games
     * (HAPI_PLAYING), and those waiting for another node's answer (HAPI_REMOTE: at most
     * REMOTE_WAIT_MS, then 504). */
    struct hapi *due;
    uint64_t remote_requests; /* the last HAPI_REMOTE's number */
    uint64_t upgrades_total;
    int64_t next_sweep_ms;
};

struct httpapi *httpapi_create(void) {
    return calloc(1, sizeof(struct httpapi));
}

static void free_values(struct strmap *m) {
    size_t i = 0;
    const char *key;
    void *value;
    while (strmap_next(m, &i, &key, &value)) free(value);
    strmap_free(m);
}

void httpapi_free(struct httpapi *api) {
    if (!api) return;
    free_values(&api->tokens);
    free_values(&api->limits);
    strmap_free(&api->streams); /* the values are requests, freed with them */
    strmap_free(&api->upgrades);
    free(api);
}

/* ---- answers ---- */

int hapi_error(struct net_http *req, unsigned status, const char *text) {
    json_t *body = json_pack("{s:s}", "error", text);
    if (!body) return -1;
    return api_send_json(req, status, body);
}

int hapi_ok(struct net_http *req) {
    return api_send_json(req, 200, json_pack("{s:b}", "ok", 1));
}

const char *hapi_error_text(const char *code, unsigned *status) {
    static const struct {
        const char *code;
        unsigned status;
        const char *text;
    } known[] = {
        {"GAME_NOT_FOUND", 404, "No such game"},
        {"CHALLENGE_NOT_FOUND", 404, "No such challenge"},
        {"PLAYER_NOT_FOUND", 404, "No such user"},
        {"NOT_YOUR_TURN", 400, "Not your turn, or game already over"},
        {"GAME_OVER", 400, "Not your turn, or game already over"},
        {"ILLEGAL_MOVE", 400, "Illegal move"},
        {"NOT_A_PLAYER", 400, "You are not a player of this game"},
        {"TOO_LATE_TO_ABORT", 400, "This game can no longer be aborted"},
        {"PLAYER_OFFLINE", 400, "The player is not online"},
        {"NOT_INVITED", 400, "This challenge is not for you"},
        {"OWN_CHALLENGE", 400, "You cannot accept your own challenge"},
        {"NOT_OWNER", 400, "This challenge is not yours"},
        {"BLOCKED", 400, "This player does not accept your challenges"},
        {"RATED_UNAVAILABLE", 400, "This game cannot be rated"},
        {"TOO_MANY_SEEKS", 429, "Too many open challenges"},
        {"RATE_LIMITED", 429, "Too many requests. Try again later."},
        {"CHAT_RATE_LIMITED", 429, "Too many chat lines. Try again later."},
        {"CHAT_MUTED", 403, "You cannot chat"},
        {"NO_DRAW_TO_CLAIM", 400, "No draw to claim"},
        {"OPPONENT_CONNECTED", 400, "The opponent has not left the game"},
        {"STORE_UNAVAILABLE", 503, "The database is unavailable. Try again later."},
        {"BANNED", 401, "This account is closed"},
        {"ACCOUNT_CLOSED", 401, "This account is closed"},
        {"GAME_NOT_OVER", 400, "This game is still in progress"},
        {"GAME_ANALYSIS_LIMIT", 429, "You already have a game analysis under way"},
        {"ANALYSIS_QUEUE_FULL", 503, "The analysis queue is full. Try again later."},
        {"ANALYSIS_UNAVAILABLE", 503, "Analysis is not available on this server"},
        {"GAME_ANALYSIS_ASKED", 409, "This game's analysis was just asked for"},
        {"ARENA_NOT_FOUND", 404, "No such tournament"},
        {"ARENA_FINISHED", 400, "This tournament is finished"},
        {"ARENA_NOT_JOINED", 400, "You are not in this tournament"},
        {"TOO_MANY_ARENAS", 429, "You have created too many tournaments not yet finished"},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i].code, code) == 0) {
            *status = known[i].status;
            return known[i].text;
        }
    *status = 400;
    return NULL;
}

/* ---- tokens ---- */

static void hex(const uint8_t *bytes, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * n] = '\0';
}

/* The token of an Authorization header: "Bearer <token>" with a token of letters, digits and
 * '_' (lichess's "lip_..."). Returns false for anything else. */
static bool bearer_token(const char *header, char out[TOKEN_TEXT_MAX + 1]) {
    if (!header || strncasecmp(header, "Bearer ", 7) != 0) return false;
    const char *t = header + 7;
    while (*t == ' ') t++;
    size_t len = strlen(t);
    while (len > 0 && t[len - 1] == ' ') len--;
    if (len == 0 || len > TOKEN_TEXT_MAX) return false;
    for (size_t i = 0; i < len; i++) {
        char ch = t[i];
        if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              ch == '_'))
            return false;
    }
    memcpy(out, t, len);
    out[len] = '\0';
    return true;
}

bool hapi_has_scope(const struct hapi *h, const char *any_of) {
    char want[HAPI_SCOPES_MAX];
    snprintf(want, sizeof want, "%s", any_of);
    for (char *save = NULL, *w = strtok_r(want, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        size_t n = strlen(w);
        for (const char *p = h->scopes; (p = strstr(p, w)); p += n)
            if ((p == h->scopes || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return true;
    }
    return false;
}

struct player *hapi_player(struct hapi *h) {
    return world_player_by_id(h->srv->world, h->player_id);
}

/* ---- routes ---- */

typedef int (*route_fn)(struct hapi *h);

/* Whom a route serves: anyone, any valid token, or a token with one of the scopes listed; bot
 * routes also need a bot account, board routes an account that is not one. */
enum route_who { ANYONE, BOT_ONLY, NOT_BOT, ANY_ACCOUNT };

struct route {
    enum net_http_method method;
    const char *pattern; /* segments; "*" matches one, which goes to args */
    const char *scopes;  /* NULL: no token needed; "": any token; else any of these */
    enum route_who who;
    enum hapi_kind kind;
    route_fn fn;
};

static int token_test(struct hapi *h);
static int api_account(struct hapi *h);
static int account_playing(struct hapi *h);
static int api_user_public(struct hapi *h);
static int users_status(struct hapi *h);
static int bots_online(struct hapi *h);
static int game_export(struct hapi *h);
static int user_games(struct hapi *h);
static int bot_upgrade(struct hapi *h);
static int api_game_move(struct hapi *h);
static int api_game_resign(struct hapi *h);
static int api_game_abort(struct hapi *h);
static int api_game_chat(struct hapi *h);
static int api_game_draw(struct hapi *h);
static int api_game_takeback(struct hapi *h);
static int api_game_claim_victory(struct hapi *h);
static int api_challenge_create(struct hapi *h);
static int challenge_ai(struct hapi *h);
static int challenge_open(struct hapi *h);
static int board_seek(struct hapi *h);
static int api_challenge_accept(struct hapi *h);
static int api_challenge_decline(struct hapi *h);
static int api_challenge_cancel(struct hapi *h);
static int rating_history(struct hapi *h);
static int game_analysis(struct hapi *h);
static int api_game_berserk(struct hapi *h);

#define PLAY "bot:play,board:play"

/* clang-format off */
static const struct route routes[] = {
    {NET_HTTP_POST, "/api/token/test", NULL, ANYONE, HAPI_PLAIN, token_test},
    {NET_HTTP_GET,  "/api/account", "", ANY_ACCOUNT, HAPI_PLAIN, api_account},
    {NET_HTTP_GET,  "/api/account/playing", "", ANY_ACCOUNT, HAPI_PLAIN, account_playing},
    {NET_HTTP_GET,  "/api/user/*", NULL, ANYONE, HAPI_PLAIN, api_user_public},
    {NET_HTTP_GET,  "/api/user/*/rating-history", NULL, ANYONE, HAPI_PLAIN, rating_history},
    {NET_HTTP_GET,  "/api/users/status", NULL, ANYONE, HAPI_PLAIN, users_status},
    {NET_HTTP_GET,  "/api/bot/online", NULL, ANYONE, HAPI_PLAIN, bots_online},
    {NET_HTTP_GET,  "/game/export/*", NULL, ANYONE, HAPI_PLAIN, game_export},
    {NET_HTTP_GET,  "/api/games/user/*", NULL, ANYONE, HAPI_PLAIN, user_games},
    {NET_HTTP_POST, "/api/bot/account/upgrade", "bot:play", ANY_ACCOUNT, HAPI_PLAIN, bot_upgrade},
    {NET_HTTP_GET,  "/api/stream/event", "challenge:read," PLAY, ANY_ACCOUNT, HAPI_EVENTS, NULL},
    {NET_HTTP_GET,  "/api/bot/game/stream/*", "bot:play", BOT_ONLY, HAPI_GAME, NULL},
    {NET_HTTP_GET,  "/api/board/game/stream/*", "board:play", NOT_BOT, HAPI_GAME, NULL},
    {NET_HTTP_POST, "/api/bot/game/*/move/*", "bot:play", BOT_ONLY, HAPI_ACTION, api_game_move},
    {NET_HTTP_POST, "/api/board/game/*/move/*", "board:play", NOT_BOT, HAPI_ACTION, api_game_move},
    {NET_HTTP_POST, "/api/bot/game/*/resign", "bot:play", BOT_ONLY, HAPI_ACTION, api_game_resign},
    {NET_HTTP_POST, "/api/board/game/*/resign", "board:play", NOT_BOT, HAPI_ACTION, api_game_resign},
    {NET_HTTP_POST, "/api/bot/game/*/abort", "bot:play", BOT_ONLY, HAPI_ACTION, api_game_abort},
    {NET_HTTP_POST, "/api/board/game/*/abort", "board:play", NOT_BOT, HAPI_ACTION, api_game_abort},
    {NET_HTTP_POST, "/api/bot/game/*/chat", "bot:play", BOT_ONLY, HAPI_ACTION, api_game_chat},
    {NET_HTTP_POST, "/api/board/game/*/chat", "board:play", NOT_BOT, HAPI_ACTION, api_game_chat},
    {NET_HTTP_POST, "/api/bot/game/*/draw/*", "bot:play", BOT_ONLY, HAPI_ACTION, api_game_draw},
    {NET_HTTP_POST, "/api/board/game/*/draw/*", "board:play", NOT_BOT, HAPI_ACTION, api_game_draw},
    {NET_HTTP_POST, "/api/bot/game/*/takeback/*", "bot:play", BOT_ONLY, HAPI_ACTION, api_game_takeback},
    {NET_HTTP_POST, "/api/board/game/*/takeback/*", "board:play", NOT_BOT, HAPI_ACTION, api_game_takeback},
    {NET_HTTP_POST, "/api/bot/game/*/claim-victory", "bot:play", BOT_ONLY, HAPI_ACTION, api_game_claim_victory},
    {NET_HTTP_POST, "/api/board/game/*/claim-victory", "board:play", NOT_BOT, HAPI_ACTION, api_game_claim_victory},
    {NET_HTTP_POST, "/api/challenge/*/accept", "challenge:write," PLAY, ANY_ACCOUNT, HAPI_ACTION, api_challenge_accept},
    {NET_HTTP_POST, "/api/challenge/*/decline", "challenge:write," PLAY, ANY_ACCOUNT, HAPI_ACTION, api_challenge_decline},
    {NET_HTTP_POST, "/api/challenge/*/cancel", "challenge:write," PLAY, ANY_ACCOUNT, HAPI_ACTION, api_challenge_cancel},
    {NET_HTTP_POST, "/api/challenge/ai", "challenge:write," PLAY, ANY_ACCOUNT, HAPI_ACTION, challenge_ai},
    {NET_HTTP_POST, "/api/challenge/open", NULL, ANYONE, HAPI_PLAIN, challenge_open},
    {NET_HTTP_POST, "/api/challenge/*", "challenge:write," PLAY, ANY_ACCOUNT, HAPI_ACTION, api_challenge_create},
    {NET_HTTP_POST, "/api/board/seek", "board:play", NOT_BOT, HAPI_SEEK, board_seek},
    {NET_HTTP_POST, "/api/games/*/analysis", "", ANY_ACCOUNT, HAPI_ACTION, game_analysis},
    {NET_HTTP_POST, "/api/board/game/*/berserk", "board:play", NOT_BOT, HAPI_ACTION, api_game_berserk},
    {NET_HTTP_GET,  "/api/tournament", NULL, ANYONE, HAPI_PLAIN, apitourney_list},
    {NET_HTTP_POST, "/api/tournament", "tournament:write", ANY_ACCOUNT, HAPI_ACTION, apitourney_create},
    {NET_HTTP_GET,  "/api/tournament/*", NULL, ANYONE, HAPI_PLAIN, apitourney_info},
    {NET_HTTP_GET,  "/api/tournament/*/results", NULL, ANYONE, HAPI_PLAIN, apitourney_results},
    {NET_HTTP_GET,  "/api/tournament/*/games", NULL, ANYONE, HAPI_PLAIN, apitourney_games},
    {NET_HTTP_POST, "/api/tournament/*/join", "tournament:write,bot:play", ANY_ACCOUNT, HAPI_ACTION, apitourney_join},
    {NET_HTTP_POST, "/api/tournament/*/withdraw", "tournament:write,bot:play", ANY_ACCOUNT, HAPI_ACTION, apitourney_withdraw},
    {NET_HTTP_GET,  "/api/user/*/tournament/created", NULL, ANYONE, HAPI_PLAIN, apitourney_created},
};
/* clang-format on */

/* Whether path matches pattern, its "*" segments copied to args. */
static bool match(const char *pattern, const char *path, char args[HAPI_ARGS][HAPI_ARG_MAX]) {
    int arg = 0;
    while (*pattern && *path) {
        if (*pattern == '*') {
            size_t len = strcspn(path, "/");
            if (len == 0 || len >= HAPI_ARG_MAX || arg == HAPI_ARGS) return false;
            memcpy(args[arg], path, len);
            args[arg++][len] = '\0';
            path += len;
            pattern++;
            continue;
        }
        if (*pattern != *path) return false;
        pattern++;
        path++;
    }
    return *pattern == '\0' && *path == '\0';
}

static const struct route *find_route(const char *path, enum net_http_method method,
                                      char args[HAPI_ARGS][HAPI_ARG_MAX], bool *other_method) {
    *other_method = false;
    if (method == NET_HTTP_HEAD) method = NET_HTTP_GET;
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        if (!match(routes[i].pattern, path, args)) continue;
        if (routes[i].method == method) return &routes[i];
        *other_method = true;
    }
    return NULL;
}

/* ---- requests ---- */

static struct hapi *hapi_new(struct server *srv, struct net_http *req) {
    struct api_call *call = api_call_of(srv, req);
    if (!call) return NULL;
    struct hapi *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->srv = srv;
    h->call = call;
    h->req = req;
    call->hapi = h;
    char host[256];
    net_http_host(req, host, sizeof host);
    snprintf(h->origin, sizeof h->origin, "http://%s", host);
    return h;
}

void httpapi_closed(struct api_call *call) {
    struct hapi *h = call->hapi;
    if (!h) return;
    call->hapi = NULL;
    h->req = NULL;
    hapi_undefer(h);
    for (struct hapi **d = &h->srv->httpapi->due; *d; d = &(*d)->due_next)
        if (*d == h) {
            *d = h->due_next;
            break;
        }
    hapi_release_stream_key(h);
    if (h->upgrade_key[0]) strmap_remove(&h->srv->httpapi->upgrades, h->upgrade_key);
    hapi_end(h);
    json_decref(h->then);
    json_decref(h->games);
    json_decref(h->challenges);
    json_decref(h->game);
    json_decref(h->remote_gathered);
    free(h);
}

static struct limit_entry *limit_of(struct httpapi *api, const char *key, double burst,
                                    double per_s, int64_t now) {
    int created = 0;
    struct limit_entry *e = strmap_get_or_add(
        &api->limits, key, sizeof *e, offsetof(struct limit_entry, key), sizeof e->key, &created);
    if (e && created) ratelimit_init(&e->limit, burst, per_s, now);
    if (e) e->last_ms = now;
    return e;
}

/* Refuses with 429 when key's bucket is empty. Returns true when refused (answered). */
static bool limited(struct hapi *h, const char *key, double burst, double per_s, int *rc) {
    struct httpapi *api = h->srv->httpapi;
    int64_t now = now_mono_ms();
    struct limit_entry *e = limit_of(api, key, burst, per_s, now);
    if (!e || ratelimit_take(&e->limit, 1, now)) return false;
    h->srv->metrics.api_rate_limited_total++;
    *rc = api_send_json_extra(h->req, 429, "retry-after: 1\r\n",
                              json_pack("{s:s}", "error", "Too many requests. Try again later."));
    return true;
}

static int run_route(struct hapi *h, const struct route *r);

/* The token's answer from the database. */
struct token_read {
    struct db_read base; /* first */
    uint8_t hash[AUTH_TOKEN_HASH_LEN];
    struct store_identity id;
    char scopes[HAPI_SCOPES_MAX];
    const struct route *route;
};

/* A personal API token, or a bot token made over the WebSocket protocol (a bot:play token
 * here); session tokens are not the API's. */
static void token_lookup(struct store_reader *reader, const uint8_t hash[AUTH_TOKEN_HASH_LEN],
                         struct store_identity *id, char scopes[HAPI_SCOPES_MAX], int *status) {
    char stored[STORE_SCOPES_MAX];
    int64_t created_at = 0;
    *status = store_find_api_token(reader, hash, id, stored, &created_at);
    snprintf(scopes, HAPI_SCOPES_MAX, "%s", *status == 0 ? stored : "");
}

static void token_run(struct store_reader *reader, struct db_read *rd) {
    struct token_read *t = (struct token_read *)(void *)rd;
    token_lookup(reader, t->hash, &t->id, t->scopes, &rd->status);
}

static int refuse_token(struct net_http *req, const char *why) {
    return hapi_error(req, 401, why);
}

/* A personal token's last use (shown in the account's list), written when it is read from the
 * database: at most once per TOKEN_CACHE_MS while it is in use. A lost write loses nothing. */
static void note_used(struct server *srv, const uint8_t hash[AUTH_TOKEN_HASH_LEN], bool bot) {
    struct store *store = persist_store(srv);
    if (!store || bot) return;
    struct store_op op = {.type = STORE_OP_API_TOKEN_USED};
    memcpy(op.u.api_token.hash, hash, sizeof op.u.api_token.hash);
    op.u.api_token.at = now_wall_ms();
    if (store_submit(store, &op) == 0) LOGD("api", "a token's last use was not written");
}

/* A token known: its player, cached, and the route goes on. */
static int token_known(struct hapi *h, const struct route *r, const struct token_entry *t) {
    snprintf(h->player_id, sizeof h->player_id, "%s", t->player_id);
    snprintf(h->scopes, sizeof h->scopes, "%s", t->scopes);
    snprintf(h->token_key, sizeof h->token_key, "%.16s", t->hash_hex);
    h->created_at = t->created_at;
    return run_route(h, r);
}

static bool token_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)c;
    struct token_read *t = (struct token_read *)(void *)rd;
    struct hapi *h = call ? call->hapi : NULL;
    if (!h || !h->req) return false;
    struct server *srv = h->srv;
    int rc;
    struct player *p = NULL;
    if (rd->status == -STORE_ERR_NOT_FOUND) {
        rc = refuse_token(h->req, "No such token");
    } else if (rd->status < 0) {
        rc = hapi_error(h->req, 503, "The database is unavailable. Try again later.");
    } else if (t->id.banned || t->id.closed) {
        rc = refuse_token(h->req, "This account is closed");
    } else if (!(p = persist_player_for(srv, &t->id))) {
        rc = -1;
    } else {
        struct httpapi *api = srv->httpapi;
        char key[2 * AUTH_TOKEN_HASH_LEN + 1];
        hex(t->hash, sizeof t->hash, key);
        if (api->tokens.count >= TOKEN_CACHE_MAX) {
            free_values(&api->tokens);
            api->tokens = (struct strmap){0};
        }
        struct token_entry *e =
            strmap_get_or_add(&api->tokens, key, sizeof *e, offsetof(struct token_entry, hash_hex),
                              sizeof e->hash_hex, NULL);
        struct token_entry local = {0};
        if (!e) e = &local; /* out of memory: not cached */
        snprintf(e->hash_hex, sizeof e->hash_hex, "%s", key);
        snprintf(e->player_id, sizeof e->player_id, "%s", p->id);
        snprintf(e->scopes, sizeof e->scopes, "%s", t->scopes);
        e->created_at = t->id.created_at;
        e->expires_ms = now_mono_ms() + TOKEN_CACHE_MS;
        note_used(srv, t->hash, t->id.bot_token);
        rc = token_known(h, t->route, e);
    }
    if (rc < 0 && h->req) net_http_abort(h->req);
    return false;
}

static int with_token(struct hapi *h, const struct route *r) {
    struct server *srv = h->srv;
    char token[TOKEN_TEXT_MAX + 1];
    const char *header = net_http_authorization(h->req);
    if (!header) return refuse_token(h->req, "Missing token");
    if (!bearer_token(header, token)) return refuse_token(h->req, "No such token");
    uint8_t hash[AUTH_TOKEN_HASH_LEN];
    auth_token_hash(token, hash);
    char key[2 * AUTH_TOKEN_HASH_LEN + 1];
    hex(hash, sizeof hash, key);
    struct token_entry *e = strmap_get(&srv->httpapi->tokens, key);
    if (e && e->expires_ms > now_mono_ms() && world_player_by_id(srv->world, e->player_id))
        return token_known(h, r, e);
    if (!persist_store(srv)) return refuse_token(h->req, "No such token");
    struct token_read *t = calloc(1, sizeof *t);
    if (!t) return -1;
    memcpy(t->hash, hash, sizeof hash);
    t->route = r;
    t->base.run = token_run;
    t->base.answer = token_answer;
    int rc = reads_submit_http(srv, h->req, &t->base);
    if (rc < 0) return hapi_error(h->req, 503, "The database is busy. Try again later.");
    return 0;
}

/* After the token: its rate limit, the account kind and the scopes, then the handler. */
static int run_route(struct hapi *h, const struct route *r) {
    int rc = 0;
    if (r->scopes) {
        struct player *p = hapi_player(h);
        if (!p) return refuse_token(h->req, "No such token");
        if (p->banned || p->closed) return refuse_token(h->req, "This account is closed");
        char key[80];
        snprintf(key, sizeof key, "t:%s", h->token_key);
        const struct server_config *cfg = &h->srv->cfg;
        if (limited(h, key, p->bot ? cfg->bot_rate_burst : cfg->rate_burst,
                    p->bot ? cfg->bot_rate_per_s : cfg->rate_per_s, &rc))
            return rc;
        if (r->scopes[0] && !hapi_has_scope(h, r->scopes)) {
            char text[HAPI_SCOPES_MAX + 32];
            snprintf(text, sizeof text, "Missing scope: %s", r->scopes);
            return hapi_error(h->req, 403, text);
        }
        if (r->who == BOT_ONLY && !p->bot)
            return hapi_error(h->req, 400, "This endpoint can only be used with a Bot account.");
        if (r->who == NOT_BOT && p->bot)
            return hapi_error(h->req, 400, "This endpoint cannot be used with a Bot account.");
    }
    h->kind = r->kind;
    if (r->kind == HAPI_EVENTS || r->kind == HAPI_GAME) return hapi_stream(h);
    return r->fn(h);
}

int httpapi_request(struct server *srv, struct net_http *req, const char *path) {
    char args[HAPI_ARGS][HAPI_ARG_MAX] = {{0}};
    bool other_method;
    const struct route *r = find_route(path, net_http_method(req), args, &other_method);
    if (!r) {
        if (!other_method) return 1;
        return api_send_json_extra(req, 405, "allow: GET, HEAD, POST\r\n",
                                   json_pack("{s:s}", "error", "Method not allowed"));
    }
    struct hapi *h = hapi_new(srv, req);
    if (!h) return -1;
    memcpy(h->args, args, sizeof args);
    srv->metrics.api_requests_total++;
    char key[80];
    snprintf(key, sizeof key, "a:%s", net_http_addr(req));
    int rc = 0;
    if (limited(h, key, ADDR_BURST, ADDR_PER_S, &rc)) return rc;
    if (!r->scopes) {
        h->kind = r->kind;
        return r->fn(h);
    }
    return with_token(h, r);
}

void httpapi_forget_tokens(struct server *srv) {
    struct httpapi *api = srv->httpapi;
    if (!api) return;
    free_values(&api->tokens);
    api->tokens = (struct strmap){0};
}

static void flush_deferred(uv_check_t *check) {
    struct httpapi *api = check->data;
    while (api->deferred) {
        struct hapi *h = api->deferred;
        api->deferred = h->deferred_next;
        h->deferred = false;
        h->deferred_next = NULL;
        hapi_flush(h);
    }
    uv_check_stop(check);
}

void hapi_defer(struct hapi *h) {
    struct httpapi *api = h->srv->httpapi;
    if (h->deferred) return;
    if (!api->flush_initialised) {
        if (uv_check_init(net_loop(h->srv->net), &api->flush) != 0) {
            hapi_flush(h); /* cannot wait: at once */
            return;
        }
        api->flush.data = api;
        api->flush_initialised = true;
    }
    if (uv_check_start(&api->flush, flush_deferred) != 0) {
        hapi_flush(h);
        return;
    }
    h->deferred = true;
    h->deferred_next = api->deferred;
    api->deferred = h;
}

void hapi_undefer(struct hapi *h) {
    if (!h->deferred) return;
    struct hapi **p = &h->srv->httpapi->deferred;
    while (*p && *p != h) p = &(*p)->deferred_next;
    if (*p) *p = h->deferred_next;
    h->deferred = false;
    h->deferred_next = NULL;
}

/* How long a read about another node's arena waits for that node's answer (one round trip
 * through Redis, normally), and how long the list waits for every node's. */
#define REMOTE_WAIT_MS 3000
#define GATHER_WAIT_MS 1000

uint64_t hapi_next_remote_id(struct server *srv) {
    return ++srv->httpapi->remote_requests;
}

void hapi_wait_remote(struct hapi *h, uint64_t request, bool ndjson) {
    struct httpapi *api = h->srv->httpapi;
    h->kind = HAPI_REMOTE;
    h->remote_request = request;
    h->remote_ndjson = ndjson;
    h->due_ms = now_mono_ms() + REMOTE_WAIT_MS;
    h->due_next = api->due;
    api->due = h;
}

static int gathered_answer(struct hapi *h);

void hapi_gather_remote(struct hapi *h, uint64_t request, int nodes, json_t *here,
                        int (*answer)(struct hapi *h, json_t *gathered)) {
    hapi_wait_remote(h, request, false);
    h->due_ms = now_mono_ms() + GATHER_WAIT_MS;
    h->remote_awaited = nodes;
    h->remote_gathered = here;
    h->gathered = answer;
}

/* Adds a node's lists (text: an object of arrays) to the gathered ones. */
static void gather(json_t *gathered, const char *text, size_t len) {
    json_t *lists = json_loadb(text, len, 0, NULL);
    const char *key;
    json_t *theirs;
    json_object_foreach(lists, key, theirs) {
        json_t *ours = json_object_get(gathered, key);
        if (json_is_array(theirs) && json_is_array(ours)) json_array_extend(ours, theirs);
    }
    json_decref(lists);
}

static int gathered_answer(struct hapi *h) {
    json_t *lists = h->remote_gathered;
    h->remote_gathered = NULL;
    int rc = h->gathered(h, lists);
    json_decref(lists);
    return rc;
}

/* The request's answer at its deadline: what was gathered, or 504. */
static int remote_timed_out(struct hapi *h) {
    if (h->remote_gathered) return gathered_answer(h);
    return hapi_error(h->req, 504, "The node that holds it did not answer");
}

void httpapi_remote_answer(struct server *srv, uint64_t request, int status, const char *body,
                           size_t len) {
    struct httpapi *api = srv->httpapi;
    struct hapi *h = NULL;
    for (struct hapi **d = api ? &api->due : NULL; d && *d; d = &(*d)->due_next)
        if ((*d)->kind == HAPI_REMOTE && (*d)->remote_request == request) {
            h = *d;
            if (h->remote_gathered && status == 200) gather(h->remote_gathered, body, len);
            if (h->remote_gathered && --h->remote_awaited > 0) return; /* more to come */
            *d = h->due_next;
            break;
        }
    if (!h || !h->req) return; /* answered already (too late), or the client went away */
    if (h->remote_gathered) {
        if (gathered_answer(h) < 0) net_http_abort(h->req);
        return;
    }
    if (status != 200) {
        if (hapi_error(h->req, status == 404 ? 404 : 503,
                       status == 404 ? "No such tournament" : "Try again later") < 0)
            net_http_abort(h->req);
        return;
    }
    char *copy = malloc(len + 1);
    if (copy) memcpy(copy, body, len);
    const char *type = h->remote_ndjson ? "application/x-ndjson" : "application/json";
    if (!copy || net_http_respond(h->req, 200, type, copy, len) < 0) net_http_abort(h->req);
}

void httpapi_detach(struct server *srv) {
    struct httpapi *api = srv->httpapi;
    if (api && api->flush_initialised) uv_close((uv_handle_t *)&api->flush, NULL);
}

void httpapi_tick(struct server *srv, int64_t now_ms) {
    struct httpapi *api = srv->httpapi;
    if (!api) return;
    for (struct hapi **d = &api->due; *d;) {
        struct hapi *h = *d;
        if (h->due_ms > now_ms) {
            d = &h->due_next;
            continue;
        }
        *d = h->due_next;
        if (!h->req) continue;
        int rc = h->kind == HAPI_REMOTE ? remote_timed_out(h) : hapi_playing_answer(h);
        if (rc < 0) net_http_abort(h->req);
    }
    if (now_ms < api->next_sweep_ms) return;
    api->next_sweep_ms = now_ms + 5000;
    /* Removing while iterating is not allowed: collect a few keys per sweep. */
    for (int pass = 0; pass < 2; pass++) {
        struct strmap *m = pass ? &api->limits : &api->tokens;
        void *gone[64];
        int n = 0;
        size_t i = 0;
        const char *key;
        void *value;
        while (n < 64 && strmap_next(m, &i, &key, &value)) {
            bool expired = pass ? now_ms - ((struct limit_entry *)value)->last_ms > LIMIT_IDLE_MS
                                : now_ms > ((struct token_entry *)value)->expires_ms;
            if (expired) gone[n++] = value;
        }
        for (int k = 0; k < n; k++) {
            strmap_remove(m, pass ? ((struct limit_entry *)gone[k])->key
                                  : ((struct token_entry *)gone[k])->hash_hex);
            free(gone[k]);
        }
    }
}

/* ---- game stream keys: one stream per game per token ---- */

bool hapi_take_stream_key(struct hapi *h) {
    struct httpapi *api = h->srv->httpapi;
    snprintf(h->stream_key, sizeof h->stream_key, "%s:%s", h->token_key, h->args[0]);
    if (strmap_get(&api->streams, h->stream_key)) return false;
    if (strmap_put(&api->streams, h->stream_key, h) < 0) return true; /* unchecked, not refused */
    h->stream_key_held = true;
    return true;
}

void hapi_release_stream_key(struct hapi *h) {
    if (!h->stream_key_held) return;
    h->stream_key_held = false;
    strmap_remove(&h->srv->httpapi->streams, h->stream_key);
}

/* ---- /api/token/test ---- */

struct tokens_read {
    struct db_read base; /* first */
    int count;
    char text[LOOKUP_MAX][TOKEN_TEXT_MAX + 1];
    int status[LOOKUP_MAX];
    char user[LOOKUP_MAX][STORE_USERNAME_MAX + 1];
    char scopes[LOOKUP_MAX][HAPI_SCOPES_MAX];
};

static void tokens_run(struct store_reader *reader, struct db_read *rd) {
    struct tokens_read *t = (struct tokens_read *)(void *)rd;
    struct store_identity *id = malloc(sizeof *id);
    rd->status = id ? 0 : -STORE_ERR_FAILED;
    for (int i = 0; id && i < t->count; i++) {
        uint8_t hash[AUTH_TOKEN_HASH_LEN];
        auth_token_hash(t->text[i], hash);
        token_lookup(reader, hash, id, t->scopes[i], &t->status[i]);
        if (t->status[i] == 0) lichess_user_id(id->name, t->user[i], sizeof t->user[i]);
    }
    free(id);
}

static bool tokens_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)c;
    struct tokens_read *t = (struct tokens_read *)(void *)rd;
    struct hapi *h = call ? call->hapi : NULL;
    if (!h || !h->req) return false;
    json_t *body = json_object();
    for (int i = 0; body && i < t->count; i++)
        json_object_set_new(body, t->text[i],
                            t->status[i] == 0 ? json_pack("{s:s,s:s,s:n}", "userId", t->user[i],
                                                          "scopes", t->scopes[i], "expires")
                                              : json_null());
    if (rd->status < 0) {
        json_decref(body);
        body = NULL;
    }
    int rc = body ? api_send_json(h->req, 200, body)
                  : hapi_error(h->req, 503, "The database is unavailable. Try again later.");
    if (rc < 0) net_http_abort(h->req);
    return false;
}

static int token_test(struct hapi *h) {
    size_t len;
    const char *body = net_http_body(h->req, &len);
    if (!persist_store(h->srv)) return hapi_error(h->req, 503, "No database");
    struct tokens_read *t = calloc(1, sizeof *t);
    if (!t) return -1;
    /* The body is the tokens, comma-separated (lichess's form: text/plain). */
    for (const char *p = body; *p && t->count < LOOKUP_MAX;) {
        size_t n = strcspn(p, ",");
        size_t start = 0;
        while (start < n && (p[start] == ' ' || p[start] == '\n' || p[start] == '\r')) start++;
        size_t end = n;
        while (end > start && (p[end - 1] == ' ' || p[end - 1] == '\n' || p[end - 1] == '\r'))
            end--;
        if (end > start && end - start <= TOKEN_TEXT_MAX) {
            memcpy(t->text[t->count], p + start, end - start);
            t->text[t->count][end - start] = '\0';
            t->status[t->count] = -STORE_ERR_NOT_FOUND;
            t->count++;
        }
        p += n;
        if (*p == ',') p++;
    }
    t->base.run = tokens_run;
    t->base.answer = tokens_answer;
    if (reads_submit_http(h->srv, h->req, &t->base) < 0)
        return hapi_error(h->req, 503, "The database is busy. Try again later.");
    return 0;
}

/* ---- account and users ---- */

/* A player's perfs as lichess's user objects have them. */
static json_t *perfs_of(const struct rating ratings[RATING_CATEGORY_COUNT], int64_t now_ms) {
    json_t *perfs = json_object();
    for (int c = 0; perfs && c < RATING_CATEGORY_COUNT; c++) {
        struct rating r = rating_at(&ratings[c], now_ms);
        json_t *perf = json_pack("{s:i,s:i,s:i,s:i}", "games", ratings[c].games, "rating",
                                 (int)lround(r.rating), "rd", (int)lround(r.deviation), "prog", 0);
        if (perf && rating_provisional(&r)) json_object_set_new(perf, "prov", json_true());
        json_object_set_new(perfs, rating_category_name(c), perf);
    }
    return perfs;
}

/* lichess's user object for a player. */
/* What lichess's user object says of a player. */
struct user_view {
    const char *player_id, *name;
    bool bot, online;
    const struct rating *ratings;
    int64_t created_at; /* wall ms; 0: not known here (left out) */
};

/* lichess's user object; url: the player's page in the web client. */
static json_t *user_json(const struct user_view *v, const char *origin) {
    char id[64], url[400];
    lichess_user_id(v->name, id, sizeof id);
    snprintf(url, sizeof url, "%s/player/%s", origin, v->player_id);
    json_t *u = json_pack("{s:s,s:s,s:o,s:b,s:s}", "id", id, "username", v->name, "perfs",
                          perfs_of(v->ratings, now_wall_ms()), "online", v->online, "url", url);
    if (u && v->bot) json_object_set_new(u, "title", json_string("BOT"));
    if (u && v->created_at > 0) json_object_set_new(u, "createdAt", json_integer(v->created_at));
    return u;
}

static int api_account(struct hapi *h) {
    struct player *p = hapi_player(h);
    if (!p) return refuse_token(h->req, "No such token");
    struct user_view v = {p->id, p->name, p->bot, p->online > 0, p->ratings, h->created_at};
    json_t *u = user_json(&v, h->origin);
    return api_send_json(h->req, 200, u);
}

/* How long /api/account/playing waits for the other nodes of a site to send the player's
 * games (they answer its hello at once: one round trip through Redis). */
#define PLAYING_WAIT_MS 300

static int account_playing(struct hapi *h) {
    struct player *p = hapi_player(h);
    if (!p) return refuse_token(h->req, "No such token");
    if (site_enabled(h->srv)) {
        struct httpapi *api = h->srv->httpapi;
        h->due_ms = now_mono_ms() + PLAYING_WAIT_MS;
        h->due_next = api->due;
        api->due = h;
        return hapi_playing(h);
    }
    /* One node: the games are all here. */
    int64_t now = now_mono_ms();
    if (!(h->games = json_object())) return -1;
    for (int i = 0; i < p->game_count; i++)
        json_object_set_new(h->games, p->games[i]->id,
                            proto_encode_game(p->games[i], now, PROTO_VIEWER_PLAYER));
    return hapi_playing_answer(h);
}

/* Players by username, read off the loop: /api/user/{username}, /api/users/status. */
struct users_read {
    struct db_read base; /* first */
    bool one;            /* /api/user/{username}: the full user object */
    int count;
    char username[LOOKUP_MAX][STORE_USERNAME_MAX + 1];
    int status[LOOKUP_MAX];
    struct store_identity *ids; /* count of them */
};

static void users_run(struct store_reader *reader, struct db_read *rd) {
    struct users_read *u = (struct users_read *)(void *)rd;
    rd->status = 0;
    for (int i = 0; i < u->count; i++) {
        u->status[i] = store_find_username(reader, u->username[i], &u->ids[i]);
        if (u->status[i] < 0 && u->status[i] != -STORE_ERR_NOT_FOUND) rd->status = u->status[i];
    }
}

static void users_release(struct db_read *rd) {
    free(((struct users_read *)(void *)rd)->ids);
}

static bool online_here(struct server *srv, const char *player_id) {
    const struct player *p = world_player_by_id(srv->world, player_id);
    return p && p->online > 0;
}

static bool users_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)c;
    struct users_read *u = (struct users_read *)(void *)rd;
    struct hapi *h = call ? call->hapi : NULL;
    if (!h || !h->req) return false;
    struct server *srv = h->srv;
    int rc;
    if (rd->status < 0) {
        rc = hapi_error(h->req, 503, "The database is unavailable. Try again later.");
    } else if (u->one) {
        const struct store_identity *id = &u->ids[0];
        struct user_view v = {id->player_id, id->name,
                              id->bot,       online_here(srv, id->player_id),
                              id->ratings,   id->created_at};
        rc = u->status[0] < 0 ? hapi_error(h->req, 404, "No such user")
                              : api_send_json(h->req, 200, user_json(&v, h->origin));
    } else {
        json_t *list = json_array();
        for (int i = 0; list && i < u->count; i++) {
            if (u->status[i] < 0) continue;
            char lid[64];
            lichess_user_id(u->ids[i].name, lid, sizeof lid);
            json_t *s = json_pack("{s:s,s:s}", "id", lid, "name", u->ids[i].name);
            if (s && online_here(srv, u->ids[i].player_id))
                json_object_set_new(s, "online", json_true());
            if (s && u->ids[i].bot) json_object_set_new(s, "title", json_string("BOT"));
            if (s) json_array_append_new(list, s);
        }
        rc = api_send_json(h->req, 200, list);
    }
    if (rc < 0) net_http_abort(h->req);
    return false;
}

static int read_users(struct hapi *h, const char *names, bool one) {
    if (!persist_store(h->srv)) return hapi_error(h->req, 503, "No database");
    struct users_read *u = calloc(1, sizeof *u);
    if (!u) return -1;
    u->one = one;
    char list[LOOKUP_MAX * (STORE_USERNAME_MAX + 2)];
    snprintf(list, sizeof list, "%s", names);
    for (char *save = NULL, *n = strtok_r(list, ",", &save); n && u->count < LOOKUP_MAX;
         n = strtok_r(NULL, ",", &save)) {
        char lower[AUTH_USERNAME_MAX + 1];
        if (auth_username_check(n, lower) == 0)
            snprintf(u->username[u->count++], STORE_USERNAME_MAX + 1, "%s", lower);
    }
    if (one && u->count == 0) {
        free(u);
        return hapi_error(h->req, 404, "No such user");
    }
    u->ids = calloc((size_t)(u->count ? u->count : 1), sizeof *u->ids);
    if (!u->ids) {
        free(u);
        return -1;
    }
    u->base.run = users_run;
    u->base.answer = users_answer;
    u->base.release = users_release;
    if (reads_submit_http(h->srv, h->req, &u->base) < 0)
        return hapi_error(h->req, 503, "The database is busy. Try again later.");
    return 0;
}

static int api_user_public(struct hapi *h) {
    return read_users(h, h->args[0], true);
}

static int users_status(struct hapi *h) {
    char ids[LOOKUP_MAX * (STORE_USERNAME_MAX + 2)];
    if (!net_http_query_arg(h->req, "ids=", ids, sizeof ids))
        return hapi_error(h->req, 400, "ids: a comma-separated list of usernames");
    return read_users(h, ids, false);
}

/* ---- reads about the user a path names ---- */

static void user_read_run(struct store_reader *reader, struct db_read *rd) {
    struct hapi_user_read *r = (struct hapi_user_read *)(void *)rd;
    rd->status = store_find_username(reader, r->username, &r->id);
    if (rd->status == 0 && r->more) r->more(reader, r);
}

static bool user_read_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)c;
    struct hapi_user_read *r = (struct hapi_user_read *)(void *)rd;
    struct hapi *h = call ? call->hapi : NULL;
    if (!h || !h->req) return false;
    int rc = rd->status == -STORE_ERR_NOT_FOUND ? hapi_error(h->req, 404, "No such user")
             : rd->status < 0
                 ? hapi_error(h->req, 503, "The database is unavailable. Try again later.")
                 : r->send(h, r);
    if (rc < 0) net_http_abort(h->req);
    return false;
}

int hapi_read_user(struct hapi *h, struct hapi_user_read *r) {
    char lower[AUTH_USERNAME_MAX + 1];
    bool stored = persist_store(h->srv) != NULL;
    if (!stored || auth_username_check(h->args[0], lower) < 0) {
        free(r);
        return stored ? hapi_error(h->req, 404, "No such user")
                      : hapi_error(h->req, 503, "No database");
    }
    snprintf(r->username, sizeof r->username, "%s", lower);
    r->base.run = user_read_run;
    r->base.answer = user_read_answer;
    if (reads_submit_http(h->srv, h->req, &r->base) < 0) /* it freed r */
        return hapi_error(h->req, 503, "The database is busy. Try again later.");
    return 0;
}

/* A user's rating history by username. */
struct history_read {
    struct hapi_user_read user; /* first */
    struct store_rating_point points[STORE_RATING_HISTORY_MAX];
    int count;
};

static void history_more(struct store_reader *reader, struct hapi_user_read *user) {
    struct history_read *r = (struct history_read *)(void *)user;
    user->base.status = store_rating_history(reader, user->id.player_id, STORE_RATING_HISTORY_MAX,
                                             r->points, &r->count);
}

static int history_send(struct hapi *h, struct hapi_user_read *user) {
    struct history_read *r = (struct history_read *)(void *)user;
    return api_send_json(h->req, 200, lichess_rating_history(r->points, r->count));
}

static int rating_history(struct hapi *h) {
    struct history_read *r = calloc(1, sizeof *r);
    if (!r) return -1;
    r->user.more = history_more;
    r->user.send = history_send;
    return hapi_read_user(h, &r->user);
}

/* Bots with a connection to this node, as NDJSON (nb= at most). */
static int bots_online(struct hapi *h) {
    char nb_text[16];
    long nb = net_http_query_arg(h->req, "nb=", nb_text, sizeof nb_text) ? atol(nb_text) : 50;
    if (nb < 1 || nb > 1000) nb = 50;
    size_t len = 0, cap = 4096;
    char *out = malloc(cap);
    if (!out) return -1;
    struct strmap seen = {0};
    long count = 0;
    for (struct conn *c = h->srv->conns; c && count < nb; c = c->all_next) {
        struct player *p = c->player;
        if (!p || !p->bot || c->acting || strmap_get(&seen, p->id)) continue;
        if (strmap_put(&seen, p->id, p) < 0) break;
        struct user_view v = {p->id, p->name, true, true, p->ratings, 0};
        json_t *u = user_json(&v, h->origin);
        char *line = u ? json_dumps(u, JSON_COMPACT) : NULL;
        json_decref(u);
        if (!line) continue;
        size_t n = strlen(line);
        if (len + n + 2 > cap) {
            char *bigger = realloc(out, cap = 2 * (len + n + 2));
            if (!bigger) {
                free(line);
                break;
            }
            out = bigger;
        }
        memcpy(out + len, line, n);
        len += n;
        out[len++] = '\n';
        free(line);
        count++;
    }
    strmap_free(&seen);
    return net_http_respond(h->req, 200, "application/x-ndjson", out, len);
}

/* lichess's /api/games/user/{username}: PGN, or NDJSON with Accept: application/x-ndjson. */
static int user_games(struct hapi *h) {
    char max_text[16];
    long max = net_http_query_arg(h->req, "max=", max_text, sizeof max_text) ? atol(max_text) : 0;
    if (max < 0) max = 0;
    bool ndjson = strstr(net_http_accept(h->req), "application/x-ndjson") != NULL;
    char opening[8];
    bool with_opening = net_http_query_arg(h->req, "opening=", opening, sizeof opening) &&
                        strcmp(opening, "true") == 0;
    return archive_http_user_games(h->srv, h->req, h->args[0], ndjson, max, with_opening);
}

static int game_export(struct hapi *h) {
    const char *accept = net_http_accept(h->req);
    bool json = strstr(accept, "application/json") != NULL;
    return api_game_export(h->srv, h->req, h->args[0], !json);
}

/* Bot upgrades' store cookies (app/tokens.c's comment lists the others). */
#define UPGRADE_COOKIE_BASE (UINT64_C(5) << 60)

/* An account that has played no game becomes a bot, for good (as on lichess). */
static int bot_upgrade(struct hapi *h) {
    struct player *p = hapi_player(h);
    struct store *store = persist_store(h->srv);
    if (!p) return refuse_token(h->req, "No such token");
    if (p->bot) return hapi_error(h->req, 400, "This account is already a bot account.");
    if (!p->registered || p->game_count > 0)
        return hapi_error(h->req, 400, "This account has played games: it cannot become a bot.");
    if (!store) return hapi_error(h->req, 503, "No database");
    struct httpapi *api = h->srv->httpapi;
    uint64_t cookie = UPGRADE_COOKIE_BASE + ++api->upgrades_total;
    snprintf(h->upgrade_key, sizeof h->upgrade_key, "%llu", (unsigned long long)cookie);
    if (strmap_put(&api->upgrades, h->upgrade_key, h) < 0) {
        h->upgrade_key[0] = '\0';
        return -1;
    }
    struct store_op op = {.type = STORE_OP_BOT_UPGRADE, .cookie = cookie, .want_result = true};
    snprintf(op.player_id, sizeof op.player_id, "%s", p->id);
    if (store_submit(store, &op) == 0) {
        strmap_remove(&api->upgrades, h->upgrade_key);
        h->upgrade_key[0] = '\0';
        return hapi_error(h->req, 503, "The database is unavailable. Try again later.");
    }
    return 0;
}

void httpapi_on_result(struct server *srv, const struct store_result *r) {
    char key[24];
    if (r->cookie <= UPGRADE_COOKIE_BASE || !srv->httpapi) return;
    snprintf(key, sizeof key, "%llu", (unsigned long long)r->cookie);
    struct hapi *h = strmap_remove(&srv->httpapi->upgrades, key);
    if (!h) return;
    h->upgrade_key[0] = '\0';
    struct player *p = hapi_player(h);
    int rc;
    if (r->status == 0) {
        if (p) p->bot = true;
        LOGI("api", "player=%s upgraded its account to a bot account", h->player_id);
        rc = hapi_ok(h->req);
    } else if (r->status == -STORE_ERR_CONFLICT) {
        rc = hapi_error(h->req, 400, "This account has played games: it cannot become a bot.");
    } else {
        rc = hapi_error(h->req, 503, "The database is unavailable. Try again later.");
    }
    if (rc < 0) net_http_abort(h->req);
}

/* ---- actions: our protocol's messages (apistream.c runs them) ---- */

static json_t *game_msg(const char *type, const char *game) {
    return json_pack("{s:s,s:s}", "type", type, "game", game);
}

/* A move's reply: then the draw offer asked with it (offeringDraw=true). */
static int api_game_move(struct hapi *h) {
    char offering[8];
    if (net_http_query_arg(h->req, "offeringDraw=", offering, sizeof offering) &&
        strcmp(offering, "true") == 0)
        h->then = game_msg("draw_offer", h->args[0]);
    json_t *msg = game_msg("move", h->args[0]);
    if (msg) json_object_set_new(msg, "move", json_string(h->args[1]));
    return hapi_act(h, msg, NULL);
}

static int api_game_resign(struct hapi *h) {
    return hapi_act(h, game_msg("resign", h->args[0]), NULL);
}

static int api_game_abort(struct hapi *h) {
    return hapi_act(h, game_msg("abort", h->args[0]), NULL);
}

/* In an arena game, before the player's first move (bots cannot, as on lichess). */
static int api_game_berserk(struct hapi *h) {
    return hapi_act(h, game_msg("arena_berserk", h->args[0]), NULL);
}

/* A form field of the body (application/x-www-form-urlencoded) into out; NULL when absent. */
static const char *form_field(struct hapi *h, const char *name, char *out, size_t size);

/* The analysis as game_analysis_request answers it: 202 while it runs, 200 once done. */
static int game_analysis_answer(struct hapi *h, const json_t *reply) {
    json_t *analysis = json_object_get(reply, "analysis");
    const char *state = json_string_value(json_object_get(analysis, "state"));
    unsigned status = state && strcmp(state, "done") == 0 ? 200 : 202;
    return api_send_json(
        h->req, status,
        json_pack("{s:O,s:O}", "game", json_object_get(reply, "game"), "analysis", analysis));
}

/* Our own endpoint (lichess has none): asks for a finished game's computer analysis. */
static int game_analysis(struct hapi *h) {
    return hapi_act(h, game_msg("game_analysis_request", h->args[0]), game_analysis_answer);
}

static int api_game_chat(struct hapi *h) {
    char room[32] = "player", text[1024];
    form_field(h, "room", room, sizeof room);
    if (!form_field(h, "text", text, sizeof text) || !text[0])
        return hapi_error(h->req, 400, "text: the chat line");
    json_t *msg = game_msg("chat", h->args[0]);
    if (msg)
        json_object_set_new(msg, "room",
                            json_string(strcmp(room, "spectator") == 0 ? "spectators" : "players"));
    if (msg) json_object_set_new(msg, "text", json_string(text));
    return hapi_act(h, msg, NULL);
}

/* yes: offer (or accept the opponent's offer, which offering does); no: decline. */
static int api_game_draw(struct hapi *h) {
    bool yes = strcmp(h->args[1], "yes") == 0 || strcmp(h->args[1], "true") == 0;
    bool no = strcmp(h->args[1], "no") == 0 || strcmp(h->args[1], "false") == 0;
    if (!yes && !no) return hapi_error(h->req, 400, "accept: yes or no");
    return hapi_act(h, game_msg(yes ? "draw_offer" : "draw_decline", h->args[0]), NULL);
}

/* yes: accept the opponent's proposal, or propose; no: decline. */
static int api_game_takeback(struct hapi *h) {
    bool yes = strcmp(h->args[1], "yes") == 0 || strcmp(h->args[1], "true") == 0;
    bool no = strcmp(h->args[1], "no") == 0 || strcmp(h->args[1], "false") == 0;
    if (!yes && !no) return hapi_error(h->req, 400, "accept: yes or no");
    const char *type = "takeback_decline";
    if (yes) {
        /* Whether the opponent proposed one: in this node's world (else propose). */
        struct player *p = hapi_player(h);
        const struct game *g = world_game(h->srv->world, h->args[0]);
        int offer = g ? game_offer_by(g, GAME_OFFER_TAKEBACK) : -1;
        type =
            g && p && offer >= 0 && g->players[offer] != p ? "takeback_accept" : "takeback_propose";
    }
    return hapi_act(h, game_msg(type, h->args[0]), NULL);
}

static int api_game_claim_victory(struct hapi *h) {
    json_t *msg = game_msg("abandon_claim", h->args[0]);
    if (msg) json_object_set_new(msg, "result", json_string("win"));
    return hapi_act(h, msg, NULL);
}

/* ---- challenges ---- */

static const char *form_field(struct hapi *h, const char *name, char *out, size_t size) {
    size_t len;
    const char *body = net_http_body(h->req, &len);
    if (net_http_form_arg(h->req, name, out, size)) return out;
    /* A JSON body (lichess-bot sends challenges as JSON). */
    json_t *doc = len && body[0] == '{' ? json_loadb(body, len, 0, NULL) : NULL;
    const char *result = NULL;
    if (doc) {
        json_t *v = json_object_get(doc, name);
        if (json_is_string(v))
            snprintf(out, size, "%s", json_string_value(v));
        else if (json_is_integer(v))
            snprintf(out, size, "%lld", (long long)json_integer_value(v));
        else if (json_is_boolean(v))
            snprintf(out, size, "%s", json_is_true(v) ? "true" : "false");
        else
            v = NULL;
        if (v) result = out;
        json_decref(doc);
    }
    return result;
}

const char *hapi_form_field(struct hapi *h, const char *name, char *out, size_t size) {
    return form_field(h, name, out, size);
}

/* The computer's game, as lichess answers /api/challenge/ai: the game's summary. */
static int ai_answer(struct hapi *h, const json_t *reply) {
    json_t *g = lichess_game_event(json_object_get(reply, "game"), h->player_id);
    if (!g) return hapi_error(h->req, 500, "The game cannot be shown");
    return api_send_json(h->req, 200, g);
}

static int challenge_answer(struct hapi *h, const json_t *reply) {
    json_t *c = lichess_challenge(json_object_get(reply, "challenge"), h->origin, NULL);
    if (!c) return hapi_error(h->req, 500, "The challenge cannot be shown");
    return api_send_json(h->req, 200, c);
}

/* The challenged player's id, then challenge_create through a virtual connection. */
struct target_read {
    struct db_read base; /* first */
    char username[STORE_USERNAME_MAX + 1];
    struct store_identity id;
    json_t *msg; /* challenge_create, to which the player's id is added */
};

static void target_run(struct store_reader *reader, struct db_read *rd) {
    struct target_read *t = (struct target_read *)(void *)rd;
    rd->status = store_find_username(reader, t->username, &t->id);
}

static void target_release(struct db_read *rd) {
    json_decref(((struct target_read *)(void *)rd)->msg);
}

static bool target_answer(struct db_read *rd, struct conn *c, struct api_call *call) {
    (void)c;
    struct target_read *t = (struct target_read *)(void *)rd;
    struct hapi *h = call ? call->hapi : NULL;
    if (!h || !h->req) return false;
    int rc;
    if (rd->status == -STORE_ERR_NOT_FOUND) {
        rc = hapi_error(h->req, 404, "No such user");
    } else if (rd->status < 0) {
        rc = hapi_error(h->req, 503, "The database is unavailable. Try again later.");
    } else {
        json_object_set_new(t->msg, "player", json_string(t->id.player_id));
        rc = hapi_act(h, t->msg, challenge_answer);
        t->msg = NULL;
    }
    if (rc < 0) net_http_abort(h->req);
    return false;
}

/*
 * The variant and fen of a challenge's form into our message: lichess's keys are ours; a fen
 * is the start of a fromPosition game, or names a Chess960 array. Returns NULL or a refusal.
 */
static const char *form_start(struct hapi *h, json_t *msg) {
    char variant[32] = "standard", fen[STORE_FEN_MAX + 1] = "";
    form_field(h, "variant", variant, sizeof variant);
    bool has_fen = form_field(h, "fen", fen, sizeof fen) && fen[0];
    int v = game_variant_parse(variant);
    if (v < 0) return "variant: standard, chess960, fromPosition, threeCheck or kingOfTheHill";
    if (v == GAME_VARIANT_CHESS960 && has_fen) {
        struct game_start start;
        if (game_start_restore("chess960", fen, &start) < 0)
            return "fen: not one of Chess960's 960 start positions";
        json_object_set_new(msg, "position", json_integer(start.chess960));
        has_fen = false;
    }
    if (v != GAME_VARIANT_STANDARD) json_object_set_new(msg, "variant", json_string(variant));
    if (has_fen) json_object_set_new(msg, "fen", json_string(fen));
    return NULL;
}

#define DAYS_REFUSAL "days: 1, 2, 3, 5, 7 or 14"

/* A form's days per move as our time control ({"days": N}), or NULL when not allowed. */
static json_t *days_time(const char *text) {
    char *end;
    long days = strtol(text, &end, 10);
    if (*end || end == text || days < 1 || days > 14 || !game_daily_days_valid((int)days))
        return NULL;
    return json_pack("{s:i}", "days", (int)days);
}

/*
 * A challenge's form (lichess's fields: clock.limit, clock.increment, color, variant, days, fen)
 * as one of our messages of this type with its time, colour and start. NULL when the form is
 * refused: *rc is then the answer's (a 400 sent) or -1.
 */
static json_t *challenge_form(struct hapi *h, const char *type, int *rc) {
    char value[64], limit[32], increment[32] = "0";
    const char *refusal = NULL;
    json_t *time = NULL;
    if (form_field(h, "days", value, sizeof value)) {
        if (form_field(h, "clock.limit", limit, sizeof limit))
            refusal = "days: a daily game has no clock (clock.limit)";
        else if (!(time = days_time(value)))
            refusal = DAYS_REFUSAL;
    } else if (form_field(h, "clock.limit", limit, sizeof limit)) {
        form_field(h, "clock.increment", increment, sizeof increment);
        char *end1, *end2;
        double seconds = strtod(limit, &end1);
        long inc = strtol(increment, &end2, 10);
        if (*end1 || *end2 || seconds < 0 || seconds > 10800 || inc < 0 || inc > 180)
            refusal = "clock.limit: 0 to 10800 s; clock.increment: 0 to 180 s";
        else
            time = json_pack("{s:f,s:i}", "minutes", seconds / 60.0, "increment", (int)inc);
    } else if (!refusal) {
        time = json_string("unlimited");
    }
    if (!refusal && form_field(h, "color", value, sizeof value) && strcmp(value, "white") &&
        strcmp(value, "black") && strcmp(value, "random"))
        refusal = "color: white, black or random";
    if (refusal || !time) {
        json_decref(time);
        *rc = refusal ? hapi_error(h->req, 400, refusal) : -1;
        return NULL;
    }
    json_t *msg = json_pack("{s:s,s:o}", "type", type, "time", time); /* takes time */
    if (!msg) {
        *rc = -1;
        return NULL;
    }
    if (form_field(h, "color", value, sizeof value))
        json_object_set_new(msg, "color", json_string(value));
    if ((refusal = form_start(h, msg))) {
        json_decref(msg);
        *rc = hapi_error(h->req, 400, refusal);
        return NULL;
    }
    return msg;
}

/* POST /api/challenge/ai: a game against the computer (level 1 to 8). */
static int challenge_ai(struct hapi *h) {
    char level_text[8] = "1";
    form_field(h, "level", level_text, sizeof level_text);
    char *end;
    long level = strtol(level_text, &end, 10);
    if (*end || level < 1 || level > 8) return hapi_error(h->req, 400, "level: 1 to 8");
    int rc = 0;
    json_t *msg = challenge_form(h, "computer_play", &rc);
    if (!msg) return rc;
    json_object_set_new(msg, "level", json_integer(level));
    return hapi_act(h, msg, ai_answer);
}

static int challenge_open(struct hapi *h) {
    return hapi_error(h->req, 400,
                      "Open challenges (two other players) are not offered here: challenge a "
                      "player by name, or create a challenge by link in the lobby.");
}

static int api_challenge_create(struct hapi *h) {
    char lower[AUTH_USERNAME_MAX + 1], value[64];
    if (auth_username_check(h->args[0], lower) < 0) return hapi_error(h->req, 404, "No such user");
    int rc = 0;
    json_t *msg = challenge_form(h, "challenge_create", &rc);
    if (!msg) return rc;
    /* rated: lichess's default is casual. */
    bool rated = form_field(h, "rated", value, sizeof value) && strcmp(value, "true") == 0;
    json_object_set_new(msg, "rated", json_boolean(rated));
    struct target_read *t = calloc(1, sizeof *t);
    if (!t || !persist_store(h->srv)) {
        free(t);
        json_decref(msg);
        return hapi_error(h->req, 503, "No database");
    }
    snprintf(t->username, sizeof t->username, "%s", lower);
    t->msg = msg;
    t->base.run = target_run;
    t->base.answer = target_answer;
    t->base.release = target_release;
    if (reads_submit_http(h->srv, h->req, &t->base) < 0)
        return hapi_error(h->req, 503, "The database is busy. Try again later.");
    return 0;
}

/* A seek in the lobby (time in minutes, increment in seconds), held while the request is open. */
static int board_seek(struct hapi *h) {
    char value[64], minutes[32], increment[32] = "0";
    if (form_field(h, "variant", value, sizeof value) && strcmp(value, "standard") != 0)
        return hapi_error(h->req, 400, "variant: only standard is played here");
    json_t *time = NULL;
    if (form_field(h, "days", value, sizeof value)) {
        if (form_field(h, "time", minutes, sizeof minutes))
            return hapi_error(h->req, 400, "days: a daily seek has no clock (time)");
        if (!(time = days_time(value))) return hapi_error(h->req, 400, DAYS_REFUSAL);
    } else {
        if (!form_field(h, "time", minutes, sizeof minutes))
            return hapi_error(h->req, 400, "time: the clock's initial time in minutes");
        form_field(h, "increment", increment, sizeof increment);
        char *end1, *end2;
        double m = strtod(minutes, &end1);
        long inc = strtol(increment, &end2, 10);
        if (*end1 || *end2 || !(m > 0) || m > 180 || inc < 0 || inc > 180)
            return hapi_error(h->req, 400, "time: 0 to 180 minutes; increment: 0 to 180 seconds");
        time = json_pack("{s:f,s:i}", "minutes", m, "increment", (int)inc);
    }
    json_t *msg = time ? json_pack("{s:s,s:o}", "type", "seek_create", "time", time) : NULL;
    if (!msg) return -1;
    if (form_field(h, "color", value, sizeof value) && strcmp(value, "random") != 0) {
        if (strcmp(value, "white") && strcmp(value, "black")) {
            json_decref(msg);
            return hapi_error(h->req, 400, "color: white, black or random");
        }
        json_object_set_new(msg, "color", json_string(value));
    }
    bool rated = form_field(h, "rated", value, sizeof value) && strcmp(value, "true") == 0;
    json_object_set_new(msg, "rated", json_boolean(rated));
    return hapi_seek(h, msg);
}

static json_t *challenge_msg(const char *type, const char *id) {
    return json_pack("{s:s,s:s}", "type", type, "challenge", id);
}

static int api_challenge_accept(struct hapi *h) {
    return hapi_act(h, challenge_msg("challenge_accept", h->args[0]), NULL);
}

static int api_challenge_cancel(struct hapi *h) {
    return hapi_act(h, challenge_msg("challenge_cancel", h->args[0]), NULL);
}

/* lichess's decline reasons as ours (those we have no word for are "generic"). */
static int api_challenge_decline(struct hapi *h) {
    static const char *const reasons[][2] = {
        {"generic", "generic"},
        {"later", "later"},
        {"tooFast", "time_control"},
        {"tooSlow", "time_control"},
        {"timeControl", "time_control"},
        {"rated", "rated"},
        {"casual", "casual"},
        {"tooManyGames", "too_many_games"},
    };
    char reason[32] = "generic";
    form_field(h, "reason", reason, sizeof reason);
    const char *ours = "generic";
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (strcasecmp(reasons[i][0], reason) == 0) ours = reasons[i][1];
    json_t *msg = challenge_msg("challenge_decline", h->args[0]);
    if (msg) json_object_set_new(msg, "reason", json_string(ours));
    return hapi_act(h, msg, NULL);
}
