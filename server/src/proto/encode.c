/*
 * JSON encoding of the server's messages, with the keys server/src/proto/messages.def declares
 * (server_test_messages checks them). Each event is encoded once (proto_encode_event_once) and
 * the network layer shares the bytes among all its recipients; a move, sent to both players and
 * every spectator after every move, is written as text directly by its one encoder, text_move().
 */
#include "proto/encode.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/fen.h"
#include "core/pool.h"
#include "proto/proto.h"
#include "util/buf.h"

static const char *const offer_names[GAME_OFFER_COUNT] = {"draw", "takeback", "rematch"};

const char *proto_color_name(int color) {
    return color == CHESS_BLACK ? "black" : "white";
}

/* Sets a key to a new value, stealing it; a NULL value (allocation failure) is skipped. */
static void put(json_t *obj, const char *key, json_t *value) {
    if (value) json_object_set_new_nocheck(obj, key, value);
}

static json_t *message(const char *type) {
    json_t *msg = json_object();
    if (msg) put(msg, "type", json_string_nocheck(type));
    return msg;
}

static json_t *encode_player(const struct player *p) {
    json_t *obj = json_object();
    if (!obj) return NULL;
    put(obj, "id", json_string_nocheck(p->id));
    put(obj, "name", json_string_nocheck(p->name));
    if (p->computer_level) put(obj, "computer", json_integer(p->computer_level));
    if (p->bot) put(obj, "bot", json_true());
    return obj;
}

/* The legal moves in UCI when a bot is to move (docs/bots.md): bots need no move generator of
 * their own. Games between people pay nothing for it. */
static bool wants_legal_moves(const struct game *g) {
    return !g->ended && g->players[game_turn(g)]->bot;
}

static void put_legal_moves(json_t *obj, const struct game *g) {
    if (!wants_legal_moves(g)) return;
    const struct chess_move_list *list = &g->chess.legal;
    json_t *moves = json_array();
    for (int i = 0; moves && i < list->count; i++) {
        char uci[CHESS_UCI_MAX];
        chess_move_to_uci(&g->chess.current, list->moves[i], uci);
        json_array_append_new(moves, json_string_nocheck(uci));
    }
    put(obj, "legal_moves", moves);
}

/* The squares' names in quotes, "a1" to "h8", four bytes each without a NUL. */
#define QUOTED(file, rank)                                                                         \
    { '"', file, rank, '"' }
#define QUOTED_RANK(r)                                                                             \
    QUOTED('a', r), QUOTED('b', r), QUOTED('c', r), QUOTED('d', r), QUOTED('e', r),                \
        QUOTED('f', r), QUOTED('g', r), QUOTED('h', r)
static const char quoted_squares[64][4] = {QUOTED_RANK('1'), QUOTED_RANK('2'), QUOTED_RANK('3'),
                                           QUOTED_RANK('4'), QUOTED_RANK('5'), QUOTED_RANK('6'),
                                           QUOTED_RANK('7'), QUOTED_RANK('8')};
#undef QUOTED_RANK
#undef QUOTED

int proto_write_dests(const struct chess_move_list *legal, char out[PROTO_DESTS_MAX]) {
    /* Destinations by origin, a bit a square; only the origins' entries are ever read, so only
     * theirs are set (written by every move: a third of the cost was clearing and scanning 64). */
    uint64_t to[64];
    uint64_t origins = 0;
    for (int i = 0; i < legal->count; i++) {
        chess_move m = legal->moves[i];
        int from = chess_move_from(m), target = chess_move_to(m);
        uint64_t bits = UINT64_C(1) << target;
        if (chess_move_kind(m) == CHESS_MOVE_CASTLING) {
            int file = CHESS_FILE_OF(target) > CHESS_FILE_OF(from) ? 6 : 2; /* g or c */
            bits |= UINT64_C(1) << CHESS_SQUARE(file, CHESS_RANK_OF(from));
        }
        uint64_t origin = UINT64_C(1) << from;
        to[from] = (origins & origin ? to[from] : 0) | bits;
        origins |= origin;
    }
    /* Each name with the comma after it; an origin's last comma becomes its ']', the last
     * origin's the '}'. */
    char *p = out;
    *p++ = '{';
    for (uint64_t left = origins; left; left &= left - 1) {
        int from = __builtin_ctzll(left);
        memcpy(p, quoted_squares[from], 4);
        p[4] = ':';
        p[5] = '[';
        p += 6;
        for (uint64_t bits = to[from]; bits; bits &= bits - 1) {
            memcpy(p, quoted_squares[__builtin_ctzll(bits)], 4);
            p[4] = ',';
            p += 5;
        }
        p[-1] = ']';
        *p++ = ',';
    }
    if (p > out + 1) p--; /* the last origin's comma */
    *p++ = '}';
    *p = '\0';
    return (int)(p - out);
}

/* "dests" while the game is live (any viewer may move for a side it plays). */
static void put_dests(json_t *obj, const struct game *g) {
    if (g->ended) return;
    char text[PROTO_DESTS_MAX];
    proto_write_dests(&g->chess.legal, text);
    put(obj, "dests", json_loads(text, 0, NULL));
}

static json_t *encode_time(const struct time_control *tc) {
    if (tc->unlimited) return json_string_nocheck("unlimited");
    if (tc->days > 0) return json_pack("{s:i}", "days", tc->days);
    json_t *obj = json_object();
    if (!obj) return NULL;
    if (tc->initial_ms % 60000 == 0)
        put(obj, "minutes", json_integer(tc->initial_ms / 60000));
    else
        put(obj, "minutes", json_real((double)tc->initial_ms / 60000.0));
    put(obj, "increment", json_integer(tc->increment_ms / 1000));
    return obj;
}

static json_t *encode_clocks(const struct game *g, int64_t now_ms) {
    if (g->tc.unlimited) return json_null();
    int64_t ms[2];
    game_clocks(g, now_ms, ms);
    json_t *obj = json_object();
    if (!obj) return NULL;
    put(obj, "white", json_integer(ms[CHESS_WHITE]));
    put(obj, "black", json_integer(ms[CHESS_BLACK]));
    if (g->tc.days > 0 && g->deadline_wall_ms > 0)
        put(obj, "deadline", json_integer(g->deadline_wall_ms));
    return obj;
}

/* X-FEN; in Three-check with the checks given at the end, as lichess writes them ("... 0 1
 * +1+0"; the engine's own FEN has the checks remaining after the en passant field). Writes at
 * most PROTO_FEN_MAX bytes with the NUL into out; returns the length, or -1. */
#define PROTO_FEN_MAX (CHESS_FEN_MAX + 8)
static int write_fen(const struct chess_position *pos, char *out) {
    if (pos->variant != CHESS_VARIANT_THREE_CHECK) { /* every move event: no copy */
        int n = chess_fen_write(pos, CHESS_FEN_XFEN, out, CHESS_FEN_MAX);
        return n < 0 ? -1 : n;
    }
    struct chess_position plain = *pos;
    plain.variant = CHESS_VARIANT_STANDARD; /* written without the engine's checks field */
    int n = chess_fen_write(&plain, CHESS_FEN_XFEN, out, CHESS_FEN_MAX);
    if (n < 0) return -1;
    return n + snprintf(out + n, PROTO_FEN_MAX - (size_t)n, " +%d+%d", pos->checks[CHESS_WHITE],
                        pos->checks[CHESS_BLACK]);
}

static json_t *encode_fen(const struct chess_position *pos) {
    char fen[PROTO_FEN_MAX];
    return write_fen(pos, fen) < 0 ? NULL : json_string_nocheck(fen);
}

static json_t *color_or_null(int color) {
    return color < 0 ? json_null() : json_string_nocheck(proto_color_name(color));
}

/* "game", "v" and the type: the start of every game event. */
static json_t *game_message(const char *type, const struct core_event *ev) {
    json_t *msg = message(type);
    if (!msg) return NULL;
    put(msg, "game", json_string_nocheck(ev->game->id));
    put(msg, "v", json_integer(ev->version));
    return msg;
}

static void put_result(json_t *obj, const struct game *g) {
    enum chess_result r = g->chess.result;
    put(obj, "result", json_string_nocheck(chess_result_name(r)));
    put(obj, "reason", json_string_nocheck(chess_termination_name(g->chess.termination)));
    put(obj, "winner",
        r == CHESS_RESULT_WHITE_WINS   ? json_string_nocheck("white")
        : r == CHESS_RESULT_BLACK_WINS ? json_string_nocheck("black")
                                       : json_null());
}

static json_t *encode_chat_line(const struct chat_line *line, enum chat_room room) {
    json_t *obj = json_object();
    if (!obj) return NULL;
    put(obj, "room", json_string_nocheck(room == CHAT_ROOM_PLAYERS ? "players" : "spectators"));
    json_t *from = json_object();
    if (from) {
        put(from, "id", json_string_nocheck(line->from_id));
        put(from, "name", json_string_nocheck(line->from_name));
    }
    put(obj, "from", from);
    put(obj, "text", json_string(line->text));
    put(obj, "time", json_integer(line->wall_ms));
    return obj;
}

/* "variant" (standard included), and Chess960's array number. */
static void put_start(json_t *obj, const struct game_start *start) {
    put(obj, "variant", json_string_nocheck(game_variant_key(start->variant)));
    if (start->variant == GAME_VARIANT_CHESS960 && start->chess960 >= 0)
        put(obj, "position", json_integer(start->chess960));
}

/* Three-check: the checks each side has given. */
static json_t *encode_checks(const struct game *g) {
    return json_pack("{s:i,s:i}", "white", g->chess.current.checks[CHESS_WHITE], "black",
                     g->chess.current.checks[CHESS_BLACK]);
}

/* A game's player, with an account's rating in the game's category: at the start of a rated
 * game, else now (none in unlimited games). */
static json_t *encode_seat(const struct game *g, int c) {
    const struct player *pl = g->players[c];
    json_t *p = encode_player(pl);
    int category = game_rating_category(g);
    if (p && category >= 0 && (pl->registered || pl->bot)) {
        const struct rating *r = &pl->ratings[category];
        put(p, "rating", json_integer(g->rated ? g->rating[c] : lround(r->rating)));
        if (rating_provisional(r)) put(p, "provisional", json_true());
    }
    return p;
}

json_t *proto_encode_game(const struct game *g, int64_t now_ms, enum proto_viewer viewer) {
    json_t *obj = json_object();
    if (!obj) return NULL;
    put(obj, "id", json_string_nocheck(g->id));
    put(obj, "v", json_integer(g->version));
    for (int c = 0; c < 2; c++) {
        json_t *p = encode_seat(g, c);
        if (p) put(p, "connected", json_boolean(g->players[c]->online > 0));
        put(obj, proto_color_name(c), p);
    }
    put(obj, "created", json_integer(g->created_wall_ms));
    put(obj, "time", encode_time(&g->tc));
    put(obj, "status", json_string_nocheck(g->ended ? "ended" : "playing"));
    put(obj, "rated", json_boolean(g->rated));
    put_start(obj, &g->start);
    if (g->start.variant == GAME_VARIANT_THREE_CHECK) put(obj, "checks", encode_checks(g));
    put(obj, "initial_fen", encode_fen(&g->chess.start));
    json_t *moves = json_array(), *sans = json_array();
    struct chess_position pos = g->chess.start;
    for (int i = 0; i < g->chess.ply_count && moves && sans; i++) {
        char uci[CHESS_UCI_MAX], san[CHESS_SAN_MAX];
        chess_move m = g->chess.moves[i];
        chess_move_to_uci(&pos, m, uci);
        chess_san_write(&pos, m, san);
        json_array_append_new(moves, json_string_nocheck(uci));
        json_array_append_new(sans, json_string_nocheck(san));
        chess_position_make_move(&pos, m);
    }
    put(obj, "moves", moves);
    put(obj, "san", sans);
    put(obj, "ply", json_integer(g->chess.ply_count));
    struct opening opening;
    if (openings_classify_game(g->openings, &g->chess.start, g->chess.moves, g->chess.ply_count,
                               &opening) > 0)
        put(obj, "opening", proto_encode_opening_object(&opening));
    put(obj, "fen", encode_fen(&g->chess.current));
    put(obj, "turn", json_string_nocheck(proto_color_name(game_turn(g))));
    put(obj, "clock", encode_clocks(g, now_ms));
    put(obj, "clock_running", color_or_null(g->clock.running));
    put_legal_moves(obj, g);
    put_dests(obj, g);
    if (g->ended) put_result(obj, g);
    json_t *offers = json_object();
    for (int k = 0; offers && k < GAME_OFFER_COUNT; k++)
        put(offers, offer_names[k], color_or_null(game_offer_by(g, (enum game_offer)k)));
    put(obj, "offers", offers);
    put(obj, "rematch", g->rematch_id[0] ? json_string_nocheck(g->rematch_id) : json_null());
    if (g->arena_id[0]) {
        put(obj, "arena", json_pack("{s:s,s:s}", "id", g->arena_id, "name", g->arena_name));
        put(obj, "berserk",
            json_pack("{s:b,s:b}", "white", g->berserk[CHESS_WHITE], "black",
                      g->berserk[CHESS_BLACK]));
    }
    enum chat_room room = viewer == PROTO_VIEWER_PLAYER ? CHAT_ROOM_PLAYERS : CHAT_ROOM_SPECTATORS;
    json_t *chat = json_array();
    for (int i = 0; chat && i < g->chat[room].count; i++)
        json_array_append_new(chat, encode_chat_line(chat_log_line(&g->chat[room], i), room));
    put(obj, "chat", chat);
    return obj;
}

json_t *proto_encode_game_message(const char *type, const struct game *g, int64_t now_ms,
                                  enum proto_viewer viewer) {
    json_t *msg = message(type);
    if (msg) put(msg, "game", proto_encode_game(g, now_ms, viewer));
    return msg;
}

json_t *proto_encode_game_summary(const struct game *g, int64_t now_ms) {
    json_t *obj = json_object();
    if (!obj) return NULL;
    put(obj, "id", json_string_nocheck(g->id));
    put(obj, "white", encode_seat(g, CHESS_WHITE));
    put(obj, "black", encode_seat(g, CHESS_BLACK));
    put(obj, "time", encode_time(&g->tc));
    put_start(obj, &g->start);
    put(obj, "ply", json_integer(g->chess.ply_count));
    put(obj, "fen", encode_fen(&g->chess.current));
    put(obj, "turn", json_string_nocheck(proto_color_name(game_turn(g))));
    put(obj, "clock", encode_clocks(g, now_ms));
    return obj;
}

static json_t *encode_seek(const struct seek *s) {
    json_t *obj = json_object();
    if (!obj) return NULL;
    put(obj, "id", json_string_nocheck(s->id));
    put(obj, "player", encode_player(s->owner));
    put(obj, "time", encode_time(&s->tc));
    put_start(obj, &s->start);
    if (s->start.variant == GAME_VARIANT_FROM_POSITION)
        put(obj, "fen", json_string_nocheck(s->start.fen));
    put(obj, "color", json_string_nocheck(proto_word(PROTO_FIELD_COLOR, (int)s->color)));
    put(obj, "created", json_integer(s->created_wall_ms));
    if (s->casual) put(obj, "casual", json_true());
    if (s->target) {
        put(obj, "to", encode_player(s->target));
        put(obj, "rated", json_boolean(s->rated));
    } else if (s->rated_required) {
        put(obj, "rated", json_true()); /* only an account may accept it */
    }
    if (s->is_challenge) {
        if (s->final_color >= 0)
            put(obj, "final_color", json_string_nocheck(proto_color_name(s->final_color)));
        char url[CHALLENGE_ID_LEN + 16];
        snprintf(url, sizeof url, "/challenge/%s", s->id);
        put(obj, "url", json_string_nocheck(url));
    }
    return obj;
}

/* A rated game's ratings before and after (the store has already updated the players' ratings
 * when the end is encoded: persist.c records events before they are delivered). */
static json_t *encode_rating_change(const struct game *g) {
    int category = game_rating_category(g);
    json_t *obj = json_object();
    for (int c = 0; obj && category != RATING_NONE && c < 2; c++) {
        long after = lround(g->players[c]->ratings[category].rating);
        put(obj, proto_color_name(c),
            json_pack("{s:i,s:i,s:i}", "before", g->rating[c], "after", (int)after, "diff",
                      (int)(after - g->rating[c])));
    }
    return obj;
}

/* ---- arena tournaments ---- */

static const char *const arena_status_names[] = {"created", "started", "finished"};

/* One place in the standings: the player at index i of the arena, ranked rank (1 = first). */
static json_t *encode_arena_standing(const struct world_arena *a, int i, int rank) {
    const struct arena_player *p = &a->arena.players[i];
    json_t *obj = json_object();
    if (!obj) return NULL;
    put(obj, "rank", json_integer(rank));
    put(obj, "player", json_pack("{s:s,s:s}", "id", p->id, "name", p->name));
    put(obj, "rating", json_integer(p->rating));
    put(obj, "score", json_integer(p->score));
    put(obj, "games", json_integer(p->games));
    put(obj, "wins", json_integer(p->wins));
    put(obj, "draws", json_integer(p->draws));
    put(obj, "losses", json_integer(p->losses));
    put(obj, "performance", json_integer(arena_performance(p)));
    put(obj, "fire", json_boolean(p->streak >= ARENA_FIRE_AFTER));
    json_t *sheet = json_array();
    int berserks = 0;
    for (int k = 0; sheet && k < p->sheet_len; k++) {
        json_array_append_new(sheet, json_integer(p->sheet[k].points));
        berserks += p->sheet[k].berserk;
    }
    put(obj, "sheet", sheet);
    put(obj, "berserks", json_integer(berserks));
    if (p->paused) put(obj, "withdrawn", json_true());
    if (p->playing) put(obj, "playing", json_true());
    return obj;
}

/* viewer's place ("me": the player at index i, ranked rank) and game in progress into obj. */
static void put_arena_place(json_t *obj, const struct world_arena *a, int i, int rank,
                            const struct player *viewer) {
    put(obj, "me", encode_arena_standing(a, i, rank));
    const struct game *g = world_arena_game_of(NULL, a, viewer);
    if (g) put(obj, "game", json_string_nocheck(g->id));
}

/* The standings (and the podium once finished, and viewer's place and game) into obj. */
static void put_arena_standings(json_t *obj, const struct world_arena *a,
                                const struct player *viewer) {
    int n = a->arena.count;
    int *rank = arena_ranking(&a->arena);
    json_t *list = json_array();
    if (!rank || !list) {
        free(rank);
        json_decref(list);
        return;
    }
    for (int r = 0; r < n && r < PROTO_ARENA_STANDINGS; r++)
        json_array_append_new(list, encode_arena_standing(a, rank[r], r + 1));
    put(obj, "standings", list);
    if (a->status == WORLD_ARENA_FINISHED) {
        json_t *podium = json_array();
        for (int r = 0; podium && r < n && r < 3; r++)
            json_array_append_new(podium, encode_arena_standing(a, rank[r], r + 1));
        put(obj, "podium", podium);
    }
    for (int r = 0; viewer && r < n; r++) {
        if (strcmp(a->arena.players[rank[r]].id, viewer->id) != 0) continue;
        put_arena_place(obj, a, rank[r], r + 1, viewer);
        break;
    }
    free(rank);
}

json_t *proto_encode_arena_places(const struct world_arena *a, const struct player *const *viewers,
                                  int count) {
    int n = a->arena.count;
    int *rank = arena_ranking(&a->arena);
    json_t *places = json_object();
    if (!rank || !places) {
        free(rank);
        json_decref(places);
        return NULL;
    }
    for (int r = 0; r < n; r++) {
        const char *id = a->arena.players[rank[r]].id;
        for (int v = 0; v < count; v++) {
            if (strcmp(viewers[v]->id, id) != 0) continue;
            json_t *place = json_object();
            if (place) put_arena_place(place, a, rank[r], r + 1, viewers[v]);
            put(places, id, place);
            break;
        }
    }
    free(rank);
    return places;
}

/* What the list and the full state share. */
static json_t *encode_arena_summary(const struct world_arena *a) {
    json_t *obj = json_object();
    if (!obj) return NULL;
    put(obj, "id", json_string_nocheck(a->id));
    put(obj, "name", json_string(a->name));
    put(obj, "creator", a->creator[0] ? json_string_nocheck(a->creator) : json_null());
    put(obj, "time", encode_time(&a->tc));
    put(obj, "rated", json_boolean(a->rated));
    put(obj, "starts", json_integer(a->starts_wall_ms));
    put(obj, "minutes", json_integer(a->minutes));
    put(obj, "ends", json_integer(a->starts_wall_ms + a->minutes * 60000LL));
    put(obj, "status", json_string_nocheck(arena_status_names[a->status]));
    put(obj, "players", json_integer(a->arena.count));
    return obj;
}

json_t *proto_encode_arena(const struct world_arena *a, const struct player *viewer) {
    json_t *msg = message("arena");
    json_t *obj = encode_arena_summary(a);
    if (obj) {
        put(obj, "v", json_integer(a->version));
        put_arena_standings(obj, a, viewer);
    }
    if (msg)
        put(msg, "arena", obj);
    else
        json_decref(obj);
    return msg;
}

json_t *proto_encode_arena_standings(const struct world_arena *a, const struct player *viewer) {
    json_t *msg = message("arena_standings");
    if (!msg) return NULL;
    put(msg, "arena", json_string_nocheck(a->id));
    put(msg, "v", json_integer(a->version));
    put(msg, "status", json_string_nocheck(arena_status_names[a->status]));
    put(msg, "players", json_integer(a->arena.count));
    put_arena_standings(msg, a, viewer);
    return msg;
}

json_t *proto_encode_arena_list(const struct world *world) {
    json_t *msg = message("arena_list");
    json_t *list = json_array();
    for (const struct world_arena *a = world_arena_first(world); a && list; a = a->next)
        json_array_append_new(list, encode_arena_summary(a));
    if (msg)
        put(msg, "arenas", list);
    else
        json_decref(list);
    return msg;
}

/* The message of an event as an object; NULL for a move, which is written as text only
 * (text_move(), below). */
static json_t *event_object(const struct core_event *ev, int64_t now_ms) {
    const struct game *g = ev->game;
    json_t *msg = NULL;
    switch (ev->type) {
        case CORE_EV_GAME_STARTED:
            return proto_encode_game_message("game_started", g, now_ms, PROTO_VIEWER_PLAYER);
        case CORE_EV_MOVE: return NULL;
        case CORE_EV_GAME_ENDED:
            if ((msg = game_message("game_end", ev))) {
                put_result(msg, g);
                put(msg, "clock", encode_clocks(g, now_ms));
                if (g->rated) put(msg, "ratings", encode_rating_change(g));
            }
            return msg;
        case CORE_EV_OFFER:
        case CORE_EV_OFFER_DECLINED:
            if ((msg = game_message(ev->type == CORE_EV_OFFER ? "offer" : "offer_declined", ev))) {
                put(msg, "kind", json_string_nocheck(offer_names[ev->offer]));
                put(msg, "by", json_string_nocheck(proto_color_name(ev->color)));
            }
            return msg;
        case CORE_EV_TAKEBACK:
            if ((msg = game_message("takeback", ev))) {
                put(msg, "undone", json_integer(ev->undone));
                put(msg, "ply", json_integer(g->chess.ply_count));
                put(msg, "fen", encode_fen(&g->chess.current));
                put(msg, "turn", json_string_nocheck(proto_color_name(game_turn(g))));
                put(msg, "clock", encode_clocks(g, now_ms));
                put_legal_moves(msg, g);
                put_dests(msg, g);
            }
            return msg;
        case CORE_EV_TIME_GIVEN:
            if ((msg = game_message("time_given", ev))) {
                put(msg, "to", json_string_nocheck(proto_color_name(ev->color)));
                put(msg, "ms", json_integer(GAME_GIVE_TIME_MS));
                put(msg, "clock", encode_clocks(g, now_ms));
            }
            return msg;
        case CORE_EV_PRESENCE:
            if ((msg = game_message("presence", ev))) {
                put(msg, "color", json_string_nocheck(proto_color_name(ev->color)));
                put(msg, "connected", json_boolean(ev->connected));
                if (!ev->connected && ev->claim_after_ms >= 0)
                    put(msg, "claim_after_ms", json_integer(ev->claim_after_ms));
            }
            return msg;
        case CORE_EV_CHAT:
            if ((msg = game_message("chat", ev))) {
                json_t *line = encode_chat_line(ev->chat, ev->room);
                json_object_update(msg, line);
                json_decref(line);
            }
            return msg;
        case CORE_EV_REMATCH:
            if ((msg = game_message("rematch", ev)))
                put(msg, "next", json_string_nocheck(g->rematch_id));
            return msg;
        case CORE_EV_SEEK_ADDED:
        case CORE_EV_CHALLENGE_CREATED:
        case CORE_EV_CHALLENGE_RECEIVED:
            msg = message(ev->type == CORE_EV_SEEK_ADDED          ? "seek_added"
                          : ev->type == CORE_EV_CHALLENGE_CREATED ? "challenge_created"
                                                                  : "challenge_received");
            if (msg)
                put(msg, ev->type == CORE_EV_SEEK_ADDED ? "seek" : "challenge",
                    encode_seek(&ev->seek));
            return msg;
        case CORE_EV_SEEK_REMOVED:
            if ((msg = message("seek_removed"))) put(msg, "seek", json_string_nocheck(ev->seek.id));
            return msg;
        case CORE_EV_POOL_JOINED:
            if ((msg = message("pool_joined"))) {
                put(msg, "time", encode_time(&ev->pool->tc));
                put(msg, "rated", json_boolean(ev->pool->rated));
                put(msg, "waiting", json_integer(ev->waiting));
            }
            return msg;
        case CORE_EV_POOL_LEFT: return message("pool_left");
        case CORE_EV_ARENA_CREATED:
        case CORE_EV_ARENA_PLAYER: return proto_encode_arena(ev->arena, ev->player);
        case CORE_EV_ARENA_STATUS: return NULL; /* watchers get arena_standings */
        case CORE_EV_BERSERK:
            if ((msg = game_message("berserk", ev))) {
                put(msg, "color", json_string_nocheck(proto_color_name(ev->color)));
                put(msg, "clock", encode_clocks(g, now_ms));
            }
            return msg;
        case CORE_EV_CHALLENGE_REMOVED:
            if ((msg = message("challenge_removed"))) {
                static const char *const removals[] = {"cancelled", "accepted", "declined",
                                                       "expired"};
                put(msg, "challenge", json_string_nocheck(ev->seek.id));
                put(msg, "reason", json_string_nocheck(removals[ev->removal]));
                if (ev->removal == CHALLENGE_REMOVED_DECLINED)
                    put(msg, "decline_reason",
                        json_string_nocheck(
                            proto_word(PROTO_FIELD_REASON, (int)ev->decline_reason)));
            }
            return msg;
    }
    return NULL;
}

json_t *proto_encode_event(const struct core_event *ev, int64_t now_ms) {
    if (ev->type != CORE_EV_MOVE) return event_object(ev, now_ms);
    size_t len;
    json_t *msg;
    unsigned char *text = proto_encode_event_once(ev, now_ms, 0, &len, &msg);
    free(text);
    return msg;
}

json_t *proto_encode_welcome(const struct player *p, int64_t now_ms) {
    json_t *msg = message("welcome");
    if (!msg) return NULL;
    put(msg, "protocol", json_integer(PROTO_VERSION));
    put(msg, "player", encode_player(p));
    if (!p->bot) put(msg, "token", json_string_nocheck(p->token)); /* a bot has its own */
    if (p->admin) put(msg, "admin", json_true());
    json_t *games = json_array();
    for (int i = 0; games && i < p->game_count; i++)
        json_array_append_new(games, proto_encode_game(p->games[i], now_ms, PROTO_VIEWER_PLAYER));
    put(msg, "games", games);
    return msg;
}

json_t *proto_encode_seeks(const struct world *world) {
    json_t *msg = message("seeks");
    json_t *list = json_array();
    for (const struct seek *s = world_seek_first(world); s && list; s = s->next) {
        if (!s->is_challenge) json_array_append_new(list, encode_seek(s));
    }
    if (msg)
        put(msg, "seeks", list);
    else
        json_decref(list);
    return msg;
}

json_t *proto_encode_challenge(const struct seek *challenge) {
    json_t *msg = message("challenge");
    if (msg) put(msg, "challenge", encode_seek(challenge));
    return msg;
}

json_t *proto_encode_live_games(const struct world *world, int limit, int64_t now_ms) {
    json_t *msg = message("live_games");
    json_t *list = json_array();
    int n = 0;
    for (const struct game *g = world_live_first(world); g && list && n < limit;
         g = world_live_next(g), n++)
        json_array_append_new(list, proto_encode_game_summary(g, now_ms));
    if (msg)
        put(msg, "games", list);
    else
        json_decref(list);
    return msg;
}

/* The player's time left in one of my_games' entries; INT64_MAX without a clock. */
static int64_t my_game_left(const json_t *entry) {
    const json_t *clock = json_object_get(entry, "clock");
    const json_t *left = json_object_get(clock, json_string_value(json_object_get(entry, "color")));
    return json_is_integer(left) ? json_integer_value(left) : INT64_MAX;
}

static int my_game_order(const void *a, const void *b) {
    const json_t *x = *(const json_t *const *)a, *y = *(const json_t *const *)b;
    bool x_turn = json_is_true(json_object_get(x, "my_turn"));
    bool y_turn = json_is_true(json_object_get(y, "my_turn"));
    if (x_turn != y_turn) return x_turn ? -1 : 1;
    int64_t x_left = my_game_left(x), y_left = my_game_left(y);
    return x_left < y_left ? -1 : x_left > y_left;
}

int proto_my_games_sort(json_t *games) {
    size_t n = json_array_size(games);
    if (n < 2) return 0;
    json_t **entries = malloc(sizeof *entries * n);
    if (!entries) return -1;
    for (size_t i = 0; i < n; i++) entries[i] = json_incref(json_array_get(games, i));
    qsort(entries, n, sizeof *entries, my_game_order);
    json_array_clear(games);
    int rc = 0;
    for (size_t i = 0; i < n; i++)
        if (json_array_append_new(games, entries[i]) < 0) rc = -1;
    free(entries);
    return rc;
}

json_t *proto_encode_my_games(const struct player *p, int64_t now_ms) {
    json_t *msg = message("my_games");
    json_t *list = json_array();
    for (int i = 0; list && i < p->game_count; i++) {
        const struct game *g = p->games[i];
        if (g->ended) continue;
        int color = game_color_of(g, p);
        json_t *obj = proto_encode_game_summary(g, now_ms);
        if (!obj) continue;
        put(obj, "color", json_string_nocheck(proto_color_name(color)));
        put(obj, "my_turn", json_boolean(game_turn(g) == color));
        json_t *last = json_null();
        if (game_ply(g) > 0) {
            struct chess_position before;
            char uci[CHESS_UCI_MAX];
            if (chess_game_position_at(&g->chess, game_ply(g) - 1, &before) == 0) {
                chess_move_to_uci(&before, g->chess.moves[game_ply(g) - 1], uci);
                last = json_string_nocheck(uci);
            }
        }
        put(obj, "last_move", last);
        json_array_append_new(list, obj);
    }
    if (list && proto_my_games_sort(list) < 0) {
        json_decref(list);
        list = NULL;
    }
    if (msg && list)
        put(msg, "games", list);
    else {
        json_decref(msg);
        json_decref(list);
        msg = NULL;
    }
    return msg;
}

json_t *proto_encode_error(int code, const char *field) {
    json_t *msg = message("error");
    if (!msg) return NULL;
    put(msg, "code", json_string_nocheck(proto_error_name(code)));
    put(msg, "message", json_string_nocheck(proto_error_message(code)));
    if (field) put(msg, "field", json_string_nocheck(field));
    return msg;
}

json_t *proto_encode_spectators(const char *game, int count) {
    json_t *msg = message("spectators");
    if (msg) {
        put(msg, "game", json_string_nocheck(game));
        put(msg, "count", json_integer(count));
    }
    return msg;
}

json_t *proto_encode_opening_object(const struct opening *opening) {
    return json_pack("{s:s,s:s,s:i}", "eco", opening->eco, "name", opening->name, "ply",
                     opening->ply);
}

json_t *proto_encode_opening(const struct opening *opening) {
    json_t *msg = message("opening");
    json_t *value = opening ? proto_encode_opening_object(opening) : json_null();
    if (!msg || !value) {
        json_decref(msg);
        json_decref(value);
        return NULL;
    }
    json_object_set_new(msg, "opening", value);
    return msg;
}

json_t *proto_encode_simple(const char *type) {
    return message(type);
}

int proto_set_id(json_t *msg, const json_t *id) {
    if (!id) {
        json_object_del(msg, "id"); /* absent already is fine */
        return 0;
    }
    json_t *copy = json_copy((json_t *)id);
    return copy && json_object_set_new_nocheck(msg, "id", copy) == 0 ? 0 : -1;
}

/* A growing buffer for json_dump_callback(). */
static int dump_chunk(const char *chunk, size_t size, void *data) {
    struct buf *b = data;
    buf_put(b, chunk, size);
    return b->failed ? -1 : 0;
}

unsigned char *proto_dump(const json_t *msg, size_t front, size_t *len) {
    struct buf b;
    if (!buf_init(&b, front, 256)) return NULL;
    if (json_dump_callback(msg, dump_chunk, &b, JSON_COMPACT) < 0) b.failed = true;
    return buf_finish(&b, front, len);
}

/* ---- JSON text written directly, for the messages sent most ---- */

/*
 * A growing block with `front` free bytes, then JSON text (util/buf.h). A move is sent after
 * every move of every game: building it as jansson objects and dumping them cost several times
 * more than everything else the loop does for a move, so it is written here byte by byte.
 */
#define TEXT_LIT(t, s) buf_put((t), (s), sizeof(s) - 1)

/* A JSON string: quotes, backslashes and control bytes escaped as jansson does; other bytes
 * (UTF-8 already checked where it came from) as they are. */
static void text_string(struct buf *t, const char *s, size_t n) {
    /* The plain bytes copied as they are checked (the strings of a move are a few bytes: a
     * separate scan and a copy of a variable length cost more); room for the worst case only
     * once something needs escaping: reserving six bytes a byte for every string outgrew the
     * first block of each move event. */
    if (!buf_reserve(t, n + 2)) return;
    unsigned char *out = t->data + t->len;
    *out++ = '"';
    size_t plain = 0;
    for (; plain < n; plain++) {
        unsigned char c = (unsigned char)s[plain];
        if (c < 0x20 || c == '"' || c == '\\') break;
        *out++ = c;
    }
    if (plain < n) {
        t->len = (size_t)(out - t->data);
        if (!buf_reserve(t, (n - plain) * 6 + 1)) return;
        out = t->data + t->len;
    }
    for (size_t i = plain; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') {
            *out++ = c;
            continue;
        }
        *out++ = '\\';
        switch (c) {
            case '"':
            case '\\': *out++ = c; break;
            case '\n': *out++ = 'n'; break;
            case '\t': *out++ = 't'; break;
            case '\r': *out++ = 'r'; break;
            case '\b': *out++ = 'b'; break;
            case '\f': *out++ = 'f'; break;
            default: {
                static const char hex[] = "0123456789abcdef";
                memcpy(out, "u00", 3);
                out[3] = (unsigned char)hex[c >> 4];
                out[4] = (unsigned char)hex[c & 15];
                out += 5;
            }
        }
    }
    *out++ = '"';
    t->len = (size_t)(out - t->data);
}

static void text_cstring(struct buf *t, const char *s) {
    text_string(t, s, strlen(s));
}

static void text_int(struct buf *t, int64_t v) {
    /* Two digits at a time from the end of a scratch buffer, then a copy of a fixed size (a
     * few moves: a copy of the number's own length was a call): four of these per move event. */
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930"
                                "31323334353637383940414243444546474849505152535455565758596061"
                                "6263646566676869707172737475767778798081828384858687888990919293"
                                "949596979899";
    enum { MOST = 20 }; /* "-9223372036854775808" */
    char digits[2 * MOST] = {0};
    char *end = digits + MOST, *p = end;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    while (u >= 100) {
        unsigned pair = (unsigned)(u % 100) * 2;
        u /= 100;
        *--p = pairs[pair + 1];
        *--p = pairs[pair];
    }
    if (u >= 10) {
        *--p = pairs[u * 2 + 1];
        *--p = pairs[u * 2];
    } else {
        *--p = (char)('0' + u);
    }
    if (v < 0) *--p = '-';
    if (!buf_reserve(t, MOST)) return;
    memcpy(t->data + t->len, p, MOST); /* p + MOST stays within digits */
    t->len += (size_t)(end - p);
}

/* A FEN as a JSON string, written in place (FEN has nothing to escape). */
static void text_fen(struct buf *t, const struct chess_position *pos) {
    if (!buf_reserve(t, PROTO_FEN_MAX + 2)) return;
    t->data[t->len++] = '"';
    int n = write_fen(pos, (char *)t->data + t->len);
    if (n < 0) {
        t->failed = true;
        return;
    }
    t->len += (size_t)n;
    t->data[t->len++] = '"';
}

/* {"type":"move","game","v","ply","uci","san","fen","turn","clock":{"white","black"}|null,
 *  "legal_moves" when a bot is to move, "dests" while the game is live} */
static void text_move(struct buf *t, const struct core_event *ev) {
    const struct game *g = ev->game;
    TEXT_LIT(t, "{\"type\":\"move\",\"game\":");
    text_cstring(t, g->id);
    TEXT_LIT(t, ",\"v\":");
    text_int(t, ev->version);
    TEXT_LIT(t, ",\"ply\":");
    text_int(t, ev->move.ply);
    TEXT_LIT(t, ",\"uci\":");
    text_cstring(t, ev->move.uci);
    TEXT_LIT(t, ",\"san\":");
    text_cstring(t, ev->move.san);
    TEXT_LIT(t, ",\"fen\":");
    text_fen(t, &g->chess.current);
    if (ev->color == CHESS_WHITE)
        TEXT_LIT(t, ",\"turn\":\"black\"");
    else
        TEXT_LIT(t, ",\"turn\":\"white\"");
    if (g->tc.unlimited) {
        TEXT_LIT(t, ",\"clock\":null");
    } else {
        TEXT_LIT(t, ",\"clock\":{\"white\":");
        text_int(t, ev->move.clock_ms[CHESS_WHITE]);
        TEXT_LIT(t, ",\"black\":");
        text_int(t, ev->move.clock_ms[CHESS_BLACK]);
        if (ev->move.deadline_wall_ms > 0) {
            TEXT_LIT(t, ",\"deadline\":");
            text_int(t, ev->move.deadline_wall_ms);
        }
        TEXT_LIT(t, "}");
    }
    if (wants_legal_moves(g)) {
        const struct chess_move_list *list = &g->chess.legal;
        TEXT_LIT(t, ",\"legal_moves\":[");
        for (int i = 0; i < list->count; i++) {
            char uci[CHESS_UCI_MAX];
            chess_move_to_uci(&g->chess.current, list->moves[i], uci);
            if (i > 0) TEXT_LIT(t, ",");
            text_cstring(t, uci);
        }
        TEXT_LIT(t, "]");
    }
    if (!g->ended) {
        TEXT_LIT(t, ",\"dests\":");
        char dests[PROTO_DESTS_MAX];
        buf_put(t, dests, (size_t)proto_write_dests(&g->chess.legal, dests));
    }
    TEXT_LIT(t, "}");
}

#define MOVE_BLOCK 1024

unsigned char *proto_encode_event_once(const struct core_event *ev, int64_t now_ms, size_t front,
                                       size_t *len, json_t **msg) {
    json_t *obj = NULL;
    unsigned char *block = NULL;
    if (msg) *msg = NULL;
    if (ev->type == CORE_EV_MOVE) {
        /* The one encoder of a move: its text, and the object read back from it. */
        struct buf t;
        /* A live game's move carries its dests (a few hundred bytes). The block, front included,
         * stays within 1,024 bytes: glibc's per-thread cache serves blocks up to 1,032 without
         * a bin search, which cost 570 instructions a move (malloc and free) at 1,056. A longer
         * move (over about 120 legal moves) grows the block. */
        if (!buf_init(&t, front, ev->game->ended ? 256 : MOVE_BLOCK - front)) return NULL;
        text_move(&t, ev);
        if (!(block = buf_finish(&t, front, len))) return NULL;
        if (msg && !(obj = json_loadb((const char *)block + front, *len, 0, NULL))) goto fail;
    } else {
        if (!(obj = event_object(ev, now_ms))) return NULL;
        if (!(block = proto_dump(obj, front, len))) goto fail;
    }
    if (msg)
        *msg = obj;
    else
        json_decref(obj);
    return block;
fail:
    free(block);
    json_decref(obj);
    return NULL;
}

unsigned char *proto_dump_event(const struct core_event *ev, int64_t now_ms, size_t front,
                                size_t *len) {
    return proto_encode_event_once(ev, now_ms, front, len, NULL);
}

unsigned char *proto_dump_with_id(const unsigned char *text, size_t len, const json_t *id,
                                  size_t front, size_t *out_len) {
    if (len < 2 || text[0] != '{' || text[len - 1] != '}') return NULL;
    struct buf t;
    if (!buf_init(&t, front, len + 96)) return NULL;
    buf_put(&t, (const char *)text, len - 1);
    if (len > 2) TEXT_LIT(&t, ",");
    TEXT_LIT(&t, "\"id\":");
    if (json_is_integer(id))
        text_int(&t, json_integer_value(id));
    else if (json_is_string(id))
        text_string(&t, json_string_value(id), json_string_length(id));
    else
        t.failed = true; /* proto_decode accepts only these two */
    TEXT_LIT(&t, "}");
    return buf_finish(&t, front, out_len);
}

/* ---- the computer and analysis (net/engine.c) ---- */

json_t *proto_encode_thinking(const struct game *game, bool thinking) {
    json_t *msg = message("computer_thinking");
    if (!msg) return NULL;
    put(msg, "game", json_string_nocheck(game->id));
    put(msg, "ply", json_integer(game_ply(game)));
    put(msg, "thinking", json_boolean(thinking));
    return msg;
}

/* The score from White's point of view: {"cp": n} or {"mate": moves}. */
static json_t *encode_score(int score, int side_to_move) {
    int white_score = side_to_move == CHESS_WHITE ? score : -score;
    json_t *obj = json_object();
    if (!obj) return NULL;
    if (chess_score_is_mate(white_score))
        put(obj, "mate", json_integer(chess_score_mate_moves(white_score)));
    else
        put(obj, "cp", json_integer(white_score));
    return obj;
}

json_t *proto_encode_search_line(const char *type, const struct chess_position *root,
                                 const struct chess_search_info *info) {
    json_t *msg = message(type);
    if (!msg) return NULL;
    put(msg, "depth", json_integer(info->depth));
    put(msg, "seldepth", json_integer(info->seldepth));
    put(msg, "multipv", json_integer(info->multipv));
    put(msg, "score", encode_score(info->score, root->side));
    if (info->lowerbound || info->upperbound)
        put(msg, "bound", json_string_nocheck(info->lowerbound ? "lower" : "upper"));
    put(msg, "nodes", json_integer((json_int_t)info->nodes));
    put(msg, "nps", json_integer((json_int_t)info->nps));
    put(msg, "time_ms", json_integer(info->time_ms));
    json_t *pv = json_array();
    struct chess_position pos = *root;
    for (int i = 0; pv && i < info->pv_length; i++) {
        char san[CHESS_SAN_MAX];
        if (!chess_position_is_legal(&pos, info->pv[i])) break;
        chess_san_write(&pos, info->pv[i], san);
        json_array_append_new(pv, json_string_nocheck(san));
        chess_position_make_move(&pos, info->pv[i]);
    }
    put(msg, "pv", pv);
    return msg;
}
