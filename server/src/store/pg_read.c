/*
 * The PostgreSQL backend's reads: one connection per reader (read-only sessions, so a read
 * never writes), each query with its values as parameters, every row copied out into the
 * fixed-size fields of the result (the same limits applied when it was written). The same
 * queries as sqlite_read.c; a live game's moves are found by live_moves' key (game_id, ply).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg_internal.h"
#include "util/log.h"

#define GAME_COLUMNS                                                                               \
    "id, status, white_id, black_id, white_name, black_name, initial_fen, initial_ms, "            \
    "increment_ms, rated, category, white_rating, black_rating, white_rating_diff, "               \
    "black_rating_diff, result, termination, created_at, ended_at, "                               \
    "COALESCE(ply_count, (SELECT count(*) FROM live_moves m WHERE m.game_id = games.id)), "        \
    "(SELECT is_bot FROM players p WHERE p.id = games.white_id), "                                 \
    "(SELECT is_bot FROM players p WHERE p.id = games.black_id), variant, days, arena_id, "        \
    "(SELECT a.name FROM arenas a WHERE a.id = games.arena_id)"

#define PLAYER_COLUMNS "p.id, p.name, p.username, p.is_bot, p.created_at"
#define MOVE_COLUMNS   "ply, uci, san, clock_ms, spent_ms, played_at"

/* An analysis (columns 0-5) and one of its positions (6-10: NULL when it has none yet). */
#define ANALYSIS_COLUMNS                                                                           \
    "a.game_id, a.requested_by, a.positions, a.nodes, a.requested_at, a.done_at, p.ply, "          \
    "p.score, p.depth, p.nodes, p.pv FROM game_analyses a "                                        \
    "LEFT JOIN analysis_plies p ON p.game_id = a.game_id"

void pg_reader_close(struct store_reader *reader) {
    struct pg_reader *r = pg_reader_of(reader);
    if (!r) return;
    if (r->conn) PQfinish(r->conn);
    free(r);
}

int pg_reader_open(struct store_db *db, struct store_reader **out, char *err, size_t errlen) {
    struct pg_db *d = pg_db_of(db);
    *out = NULL;
    struct pg_reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return -STORE_ERR_NO_MEMORY;
    }
    r->base.backend = d->base.backend;
    r->db = d;
    if (!(r->conn = pg_connect(d->url, true, err, errlen))) {
        free(r);
        return -STORE_ERR_UNREACHABLE;
    }
    *out = &r->base;
    return 0;
}

/* ---- identities ---- */

/* The player's ratings and moderation state. */
static int load_ratings(PGconn *conn, struct store_identity *id) {
    for (int c = 0; c < RATING_CATEGORY_COUNT; c++) id->ratings[c] = rating_initial();
    struct pg_params p = {0};
    pg_text(&p, id->player_id);
    PGresult *r = pg_read_query(conn,
                                "SELECT category, rating, deviation, volatility, games, updated_at "
                                "FROM ratings WHERE player_id = $1",
                                &p, "reading ratings");
    if (!r) return -STORE_ERR_IO;
    for (int i = 0; i < PQntuples(r); i++) {
        int c = rating_category_parse(PQgetvalue(r, i, 0));
        if (c == RATING_NONE) continue;
        id->ratings[c] =
            (struct rating){pg_col_double(r, i, 1), pg_col_double(r, i, 2), pg_col_double(r, i, 3),
                            (int)pg_col_i64(r, i, 4), pg_col_i64(r, i, 5)};
    }
    PQclear(r);
    return pg_load_moderation(conn, id);
}

/* Reads PLAYER_COLUMNS (from column 0 of row 0) and the player's ratings. */
static int read_identity(PGconn *conn, const PGresult *r, struct store_identity *out) {
    memset(out, 0, sizeof *out);
    pg_col_text(r, 0, 0, out->player_id, sizeof out->player_id);
    pg_col_text(r, 0, 1, out->name, sizeof out->name);
    pg_col_text(r, 0, 2, out->username, sizeof out->username);
    out->bot = pg_col_i64(r, 0, 3) != 0;
    out->created_at = pg_col_i64(r, 0, 4);
    return load_ratings(conn, out);
}

/* Runs a query for one player (PLAYER_COLUMNS first); extra(r, ctx) reads the rest of its
 * row. -NOT_FOUND without a row. */
static int find_one(PGconn *conn, const char *sql, const struct pg_params *p,
                    struct store_identity *out, void (*extra)(const PGresult *r, void *ctx),
                    void *ctx) {
    PGresult *r = pg_read_query(conn, sql, p, "finding a player");
    if (!r) return -STORE_ERR_IO;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return -STORE_ERR_NOT_FOUND;
    }
    struct store_identity id;
    int rc = read_identity(conn, r, &id);
    if (rc == 0 && extra) extra(r, ctx);
    PQclear(r);
    if (rc == 0) *out = id;
    return rc;
}

static void token_kind(const PGresult *r, void *ctx) {
    *(bool *)ctx = strcmp(PQgetvalue(r, 0, 5), "bot") == 0;
}

int pg_find_token(struct store_reader *reader, const uint8_t hash[STORE_HASH_LEN],
                  struct store_identity *out) {
    struct pg_params p = {0};
    pg_bytes(&p, hash, STORE_HASH_LEN);
    bool bot_token = false;
    int rc = find_one(pg_reader_of(reader)->conn,
                      "SELECT " PLAYER_COLUMNS ", t.kind FROM tokens t JOIN players p ON p.id = "
                      "t.player_id WHERE t.hash = $1 AND t.revoked_at IS NULL",
                      &p, out, token_kind, &bot_token);
    if (rc == 0) out->bot_token = bot_token;
    return rc;
}

struct pwhash {
    char *out;
};

static void password_hash(const PGresult *r, void *ctx) {
    struct pwhash *h = ctx;
    pg_col_text(r, 0, 5, h->out, STORE_PWHASH_MAX);
}

int pg_find_account(struct store_reader *reader, const char *username, struct store_identity *out,
                    char password_hash_out[STORE_PWHASH_MAX]) {
    struct pg_params p = {0};
    pg_text(&p, username);
    struct pwhash h = {password_hash_out};
    return find_one(pg_reader_of(reader)->conn,
                    "SELECT " PLAYER_COLUMNS ", p.password_hash FROM players p "
                    "WHERE p.username = $1 AND p.password_hash IS NOT NULL",
                    &p, out, password_hash, &h);
}

static int find_identity(PGconn *conn, bool by_username, const char *key,
                         struct store_identity *out) {
    struct pg_params p = {0};
    pg_text(&p, key);
    return find_one(conn,
                    by_username ? "SELECT " PLAYER_COLUMNS " FROM players p WHERE p.username = $1 "
                                  "AND p.deleted_at IS NULL"
                                : "SELECT " PLAYER_COLUMNS " FROM players p WHERE p.id = $1 "
                                  "AND p.deleted_at IS NULL",
                    &p, out, NULL, NULL);
}

int pg_find_player(struct store_reader *reader, const char *player_id, struct store_identity *out) {
    return find_identity(pg_reader_of(reader)->conn, false, player_id, out);
}

int pg_find_username(struct store_reader *reader, const char *username,
                     struct store_identity *out) {
    return find_identity(pg_reader_of(reader)->conn, true, username, out);
}

int pg_owned_bots(struct store_reader *reader, const char *owner_id, int max, struct store_bot *out,
                  int *count) {
    *count = 0;
    struct pg_params p = {0};
    pg_text(&p, owner_id);
    pg_int(&p, max);
    PGresult *r = pg_read_query(pg_reader_of(reader)->conn,
                                "SELECT p.id, p.name, p.created_at, (SELECT count(*) FROM tokens t "
                                "WHERE t.player_id = p.id AND t.revoked_at IS NULL) FROM players p "
                                "WHERE p.owner_id = $1 ORDER BY p.created_at, p.id LIMIT $2",
                                &p, "reading bots");
    if (!r) return -STORE_ERR_IO;
    for (int i = 0; i < PQntuples(r) && *count < max; i++) {
        struct store_bot *b = &out[(*count)++];
        pg_col_text(r, i, 0, b->player_id, sizeof b->player_id);
        pg_col_text(r, i, 1, b->name, sizeof b->name);
        b->created_at = pg_col_i64(r, i, 2);
        b->tokens = (int)pg_col_i64(r, i, 3);
    }
    PQclear(r);
    return 0;
}

/* ---- games ---- */

/* Reads GAME_COLUMNS of row i. */
static void read_game_row(const PGresult *r, int i, struct store_game *g) {
    memset(g, 0, sizeof *g);
    pg_col_text(r, i, 0, g->id, sizeof g->id);
    pg_col_text(r, i, 1, g->status, sizeof g->status);
    for (int c = 0; c < 2; c++) {
        pg_col_text(r, i, 2 + c, g->player_id[c], sizeof g->player_id[c]);
        pg_col_text(r, i, 4 + c, g->name[c], sizeof g->name[c]);
    }
    pg_col_text(r, i, 6, g->initial_fen, sizeof g->initial_fen);
    g->unlimited = pg_col_null(r, i, 7);
    g->initial_ms = pg_col_i64(r, i, 7);
    g->increment_ms = pg_col_i64(r, i, 8);
    g->rated = pg_col_i64(r, i, 9) != 0;
    g->category = rating_category_parse(pg_col_null(r, i, 10) ? NULL : PQgetvalue(r, i, 10));
    g->has_ratings = !pg_col_null(r, i, 11);
    for (int c = 0; c < 2; c++) {
        g->rating[c] = (int)pg_col_i64(r, i, 11 + c);
        g->rating_diff[c] = (int)pg_col_i64(r, i, 13 + c);
    }
    pg_col_text(r, i, 15, g->result, sizeof g->result);
    pg_col_text(r, i, 16, g->termination, sizeof g->termination);
    g->created_at = pg_col_i64(r, i, 17);
    g->ended_at = pg_col_i64(r, i, 18);
    g->ply_count = (int)pg_col_i64(r, i, 19);
    for (int c = 0; c < 2; c++) g->bot[c] = pg_col_i64(r, i, 20 + c) != 0;
    pg_col_text(r, i, 22, g->variant, sizeof g->variant);
    g->days = (int)pg_col_i64(r, i, 23);
    pg_col_text(r, i, 24, g->arena_id, sizeof g->arena_id);
    pg_col_text(r, i, 25, g->arena_name, sizeof g->arena_name);
}

/* Copies rows [from, to) of MOVE_COLUMNS into g->moves (never NULL afterwards on success). */
static int copy_moves(const PGresult *r, int from, int to, struct store_game *g) {
    int n = to - from;
    g->ply_count = n;
    g->moves = malloc(sizeof *g->moves * (size_t)(n > 0 ? n : 1));
    if (!g->moves) {
        g->ply_count = 0;
        return -STORE_ERR_NO_MEMORY;
    }
    for (int k = 0; k < n; k++) {
        struct store_move_row *m = &g->moves[k];
        memset(m, 0, sizeof *m);
        int i = from + k;
        m->ply = (int)pg_col_i64(r, i, 0);
        pg_col_text(r, i, 1, m->uci, sizeof m->uci);
        pg_col_text(r, i, 2, m->san, sizeof m->san);
        m->timed = !pg_col_null(r, i, 3);
        m->clock_ms = pg_col_i64(r, i, 3);
        m->spent_ms = pg_col_i64(r, i, 4);
        m->played_at = pg_col_i64(r, i, 5);
    }
    return 0;
}

/* Loads the moves of g (from the archive, or from live_moves while it is live). */
static int read_moves(PGconn *conn, struct store_game *g) {
    struct pg_params p = {0};
    pg_text(&p, g->id);
    bool live = strcmp(g->status, "live") == 0;
    PGresult *r = pg_read_query(
        conn,
        live ? "SELECT " MOVE_COLUMNS " FROM live_moves WHERE game_id = $1 ORDER BY ply"
             : "SELECT " MOVE_COLUMNS " FROM moves WHERE game_id = $1 ORDER BY ply",
        &p, "reading moves");
    if (!r) return -STORE_ERR_IO;
    int rc = copy_moves(r, 0, PQntuples(r), g);
    PQclear(r);
    return rc;
}

int pg_read_game(struct store_reader *reader, const char *id, struct store_game *out) {
    PGconn *conn = pg_reader_of(reader)->conn;
    struct pg_params p = {0};
    pg_text(&p, id);
    PGresult *r = pg_read_query(conn, "SELECT " GAME_COLUMNS " FROM games WHERE id = $1", &p,
                                "reading a game");
    if (!r) return -STORE_ERR_IO;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return -STORE_ERR_NOT_FOUND;
    }
    read_game_row(r, 0, out);
    PQclear(r);
    return read_moves(conn, out);
}

int pg_player_games(struct store_reader *reader, const char *player_id, int page, int per_page,
                    struct store_game *out, int *count, bool *more) {
    *count = 0;
    *more = false;
    if (page < 1 || per_page < 1 || per_page > 100) return -STORE_ERR_NOT_FOUND;
    struct pg_params p = {0};
    pg_text(&p, player_id);
    pg_int(&p, per_page + 1); /* one more says whether a next page exists */
    pg_int(&p, (int64_t)(page - 1) * per_page);
    PGresult *r =
        pg_read_query(pg_reader_of(reader)->conn,
                      "SELECT " GAME_COLUMNS " FROM games WHERE (white_id = $1 OR black_id = "
                      "$1) ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3",
                      &p, "reading a player's games");
    if (!r) return -STORE_ERR_IO;
    for (int i = 0; i < PQntuples(r); i++) {
        if (*count == per_page) {
            *more = true;
            break;
        }
        read_game_row(r, i, &out[(*count)++]);
    }
    PQclear(r);
    return 0;
}

/* A player's (arena false) or an arena's games in batches: the query's $1 is key. */
static int each_game_batch(struct store_reader *reader, bool arena, const char *key,
                           const struct store_game_cursor *after, int limit,
                           int (*fn)(void *ctx, const struct store_game *game), void *ctx) {
    PGconn *conn = pg_reader_of(reader)->conn;
    struct pg_params p = {0};
    pg_text(&p, key);
    pg_int(&p, limit);
    pg_int(&p, after ? after->created_at : INT64_MIN);
    pg_text(&p, after ? after->id : "");
    PGresult *r = arena
                      ? pg_read_query(conn,
                                      "SELECT " GAME_COLUMNS " FROM games WHERE arena_id = $1 "
                                      "AND status = 'ended' AND (created_at, id) > ($3, $4) "
                                      "ORDER BY created_at, id LIMIT $2",
                                      &p, "reading an arena's games")
                      : pg_read_query(conn,
                                      "SELECT " GAME_COLUMNS " FROM games WHERE (white_id = $1 OR "
                                      "black_id = $1) AND status = 'ended' AND (created_at, id) > "
                                      "($3, $4) ORDER BY created_at, id LIMIT $2",
                                      &p, "reading a player's games");
    if (!r) return -STORE_ERR_IO;
    int rc = 0;
    for (int i = 0; i < PQntuples(r) && rc == 0; i++) {
        struct store_game g;
        read_game_row(r, i, &g);
        if ((rc = read_moves(conn, &g)) < 0) break;
        rc = fn(ctx, &g);
        store_game_free(&g);
    }
    PQclear(r);
    return rc;
}

int pg_each_player_game(struct store_reader *reader, const char *player_id,
                        const struct store_game_cursor *after, int limit,
                        int (*fn)(void *ctx, const struct store_game *game), void *ctx) {
    return each_game_batch(reader, false, player_id, after, limit, fn, ctx);
}

int pg_each_arena_game(struct store_reader *reader, const char *arena_id,
                       const struct store_game_cursor *after, int limit,
                       int (*fn)(void *ctx, const struct store_game *game), void *ctx) {
    return each_game_batch(reader, true, arena_id, after, limit, fn, ctx);
}

/* Reads the identities of a live game's players. */
static int live_players(PGconn *conn, const struct store_game *g,
                        struct store_identity players[2]) {
    for (int c = 0; c < 2; c++) {
        int rc = find_identity(conn, false, g->player_id[c], &players[c]);
        if (rc < 0) {
            LOGE("store", "game=%s: its %s player %s cannot be read (%s)", g->id,
                 c ? "black" : "white", g->player_id[c], store_status_name(rc));
            return rc;
        }
    }
    return 0;
}

/*
 * This node's live games and all their moves, in two queries of one snapshot (a repeatable-read
 * transaction), joined on the game id: both sorted by game.
 */
int pg_load_live(struct store_reader *reader,
                 int (*fn)(void *ctx, const struct store_game *game,
                           const struct store_identity players[2]),
                 void *ctx) {
    struct pg_reader *rd = pg_reader_of(reader);
    PGconn *conn = rd->conn;
    PGresult *begin = pg_read_query(conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", NULL,
                                    "loading the live games");
    if (!begin) return -STORE_ERR_IO;
    PQclear(begin);
    struct pg_params p = {0};
    pg_text(&p, rd->db->node_id);
    PGresult *games = pg_read_query(conn,
                                    "SELECT " GAME_COLUMNS " FROM games WHERE status = 'live' AND "
                                    "node = $1 ORDER BY id COLLATE \"C\"",
                                    &p, "loading the live games");
    PGresult *moves =
        games ? pg_read_query(conn,
                              "SELECT m." MOVE_COLUMNS ", m.game_id FROM live_moves m "
                              "JOIN games g ON g.id = m.game_id WHERE g.status = 'live' "
                              "AND g.node = $1 ORDER BY m.game_id COLLATE \"C\", m.ply",
                              &p, "loading the live moves")
              : NULL;
    int result = games && moves ? 0 : -STORE_ERR_IO;
    int m = 0, mcount = moves ? PQntuples(moves) : 0;
    for (int i = 0; result == 0 && i < PQntuples(games); i++) {
        struct store_game g;
        read_game_row(games, i, &g);
        /* Both are sorted by id in bytes (COLLATE "C"), as strcmp compares. */
        while (m < mcount && strcmp(PQgetvalue(moves, m, 6), g.id) < 0) m++;
        int from = m;
        while (m < mcount && strcmp(PQgetvalue(moves, m, 6), g.id) == 0) m++;
        struct store_identity players[2];
        result = copy_moves(moves, from, m, &g);
        if (result == 0) result = live_players(conn, &g, players);
        if (result == 0) result = fn(ctx, &g, players);
        store_game_free(&g);
    }
    PQclear(games);
    PQclear(moves);
    PGresult *end = pg_read_query(conn, "COMMIT", NULL, "loading the live games");
    if (!end && result == 0) result = -STORE_ERR_IO;
    PQclear(end);
    return result;
}

/* The stored deviation only grows with time: rows above the mark are never shown; the others
 * are checked as they stand at now_ms, best first, until the board is full (sqlite_read.c). */
int pg_leaderboard(struct store_reader *reader, int category, int limit, int64_t now_ms,
                   struct store_leader *out, int *count) {
    *count = 0;
    const char *name = rating_category_name(category);
    if (!name || limit < 1 || limit > 100) return -STORE_ERR_NOT_FOUND;
    PGconn *conn = pg_reader_of(reader)->conn;
    struct pg_params p = {0};
    pg_text(&p, name);
    pg_double(&p, RATING_PROVISIONAL_DEVIATION);
    /* A cursor: the rows are read a page at a time until the board is full. */
    PGresult *r = pg_read_query(conn, "BEGIN", NULL, "reading the leaderboard");
    PQclear(r);
    if (!r) return -STORE_ERR_IO;
    r = pg_read_query(conn,
                      "DECLARE leaders NO SCROLL CURSOR FOR "
                      "SELECT r.player_id, p.name, r.rating, r.deviation, r.volatility, r.games, "
                      "p.is_bot, r.updated_at FROM ratings r JOIN players p ON p.id = r.player_id "
                      "WHERE r.category = $1 AND r.deviation <= $2 AND p.banned_at IS NULL "
                      "AND p.closed_at IS NULL ORDER BY r.rating DESC, r.player_id",
                      &p, "reading the leaderboard");
    int rc = r ? 0 : -STORE_ERR_IO;
    PQclear(r);
    bool more = rc == 0;
    while (more && *count < limit) {
        r = pg_read_query(conn, "FETCH 200 FROM leaders", NULL, "reading the leaderboard");
        if (!r) {
            rc = -STORE_ERR_IO;
            break;
        }
        more = PQntuples(r) == 200;
        for (int i = 0; i < PQntuples(r) && *count < limit; i++) {
            struct rating stored = {pg_col_double(r, i, 2), pg_col_double(r, i, 3),
                                    pg_col_double(r, i, 4), (int)pg_col_i64(r, i, 5),
                                    pg_col_i64(r, i, 7)};
            struct rating now = rating_at(&stored, now_ms);
            if (rating_provisional(&now)) continue; /* away too long */
            struct store_leader *l = &out[(*count)++];
            pg_col_text(r, i, 0, l->player_id, sizeof l->player_id);
            pg_col_text(r, i, 1, l->name, sizeof l->name);
            l->rating = stored;
            l->bot = pg_col_i64(r, i, 6) != 0;
        }
        PQclear(r);
    }
    r = pg_read_query(conn, "COMMIT", NULL, "reading the leaderboard");
    if (!r && rc == 0) rc = -STORE_ERR_IO;
    PQclear(r);
    return rc;
}

int pg_account_password(struct store_reader *reader, const char *player_id,
                        char password_hash[STORE_PWHASH_MAX]) {
    struct pg_params p = {0};
    pg_text(&p, player_id);
    /* an account's password (not a bot's, which has none, nor a deleted one's) */
    PGresult *r =
        pg_read_query(pg_reader_of(reader)->conn,
                      "SELECT password_hash FROM players WHERE id = $1 AND password_hash IS "
                      "NOT NULL AND deleted_at IS NULL AND is_bot = 0",
                      &p, "reading a password");
    if (!r) return -STORE_ERR_IO;
    int rc = PQntuples(r) == 1 ? 0 : -STORE_ERR_NOT_FOUND;
    if (rc == 0) pg_col_text(r, 0, 0, password_hash, STORE_PWHASH_MAX);
    PQclear(r);
    return rc;
}

/* Runs a query whose rows come in binary format (a hash's bytes, a bigint's 8 bytes big-endian,
 * a text's bytes): the result (PQclear it), or NULL with the failure logged. */
static PGresult *query_binary(PGconn *conn, const char *sql, const struct pg_params *p,
                              const char *what) {
    PGresult *r = PQexecParams(conn, sql, p->n, NULL, p->value, p->length, p->format, 1);
    if (PQresultStatus(r) == PGRES_TUPLES_OK) return r;
    LOGE("store", "%s failed: %s", what, PQresultErrorMessage(r));
    PQclear(r);
    return NULL;
}

int pg_sessions(struct store_reader *reader, const char *player_id, int max,
                struct store_session *out, int *count) {
    *count = 0;
    struct pg_params p = {0};
    pg_text(&p, player_id);
    pg_int(&p, max);
    PGresult *r = query_binary(pg_reader_of(reader)->conn,
                               "SELECT hash, created_at, last_seen_at FROM tokens WHERE player_id "
                               "= $1 AND kind = 'session' AND revoked_at IS NULL ORDER BY "
                               "COALESCE(last_seen_at, created_at) DESC, hash LIMIT $2",
                               &p, "reading sessions");
    if (!r) return -STORE_ERR_IO;
    for (int i = 0; i < PQntuples(r) && *count < max; i++) {
        if (PQgetlength(r, i, 0) != STORE_HASH_LEN) continue; /* the table checks it */
        struct store_session *s = &out[(*count)++];
        memcpy(s->hash, PQgetvalue(r, i, 0), STORE_HASH_LEN);
        s->created_at = pg_col_be64(r, i, 1);
        s->last_seen_at = pg_col_be64(r, i, 2);
    }
    PQclear(r);
    return 0;
}

/* ---- personal API access tokens ---- */

struct api_token_row {
    char *scopes;
    int64_t created_at;
    bool bot_token;
};

static void api_token_row(const PGresult *r, void *ctx) {
    struct api_token_row *t = ctx;
    pg_col_text(r, 0, 5, t->scopes, STORE_SCOPES_MAX);
    t->created_at = pg_col_i64(r, 0, 6);
    t->bot_token = pg_col_i64(r, 0, 7) != 0;
}

/* A personal token, or a bot's token, which plays as bot:play (sqlite_read.c). */
int pg_find_api_token(struct store_reader *reader, const uint8_t hash[STORE_HASH_LEN],
                      struct store_identity *out, char scopes[STORE_SCOPES_MAX],
                      int64_t *created_at) {
    struct pg_params p = {0};
    pg_bytes(&p, hash, STORE_HASH_LEN);
    char text[STORE_SCOPES_MAX];
    struct api_token_row row = {.scopes = text};
    int rc = find_one(pg_reader_of(reader)->conn,
                      "SELECT " PLAYER_COLUMNS ", a.scopes, a.created_at, 0 FROM api_tokens a "
                      "JOIN players p ON p.id = a.player_id WHERE a.hash = $1 "
                      "AND a.revoked_at IS NULL UNION ALL SELECT " PLAYER_COLUMNS
                      ", 'bot:play', t.created_at, 1 FROM tokens t JOIN players p "
                      "ON p.id = t.player_id WHERE t.hash = $1 AND t.kind = 'bot' "
                      "AND t.revoked_at IS NULL",
                      &p, out, api_token_row, &row);
    if (rc < 0) return rc;
    out->bot_token = row.bot_token;
    memcpy(scopes, text, sizeof text);
    *created_at = row.created_at;
    return 0;
}

int pg_rating_history(struct store_reader *reader, const char *player_id, int max,
                      struct store_rating_point *out, int *count) {
    struct pg_params p = {0};
    pg_text(&p, player_id);
    pg_int(&p, max);
    PGresult *r = pg_read_query(
        pg_reader_of(reader)->conn,
        "SELECT category, ended_at, CASE WHEN white_id = $1 THEN white_rating + white_rating_diff "
        "ELSE black_rating + black_rating_diff END FROM games WHERE (white_id = $1 OR black_id = "
        "$1) "
        "AND status = 'ended' AND rated = 1 AND white_rating_diff IS NOT NULL "
        "ORDER BY created_at DESC, id DESC LIMIT $2",
        &p, "reading a rating history");
    if (!r) return -STORE_ERR_IO;
    for (int i = 0; i < PQntuples(r) && *count < max; i++) {
        char category[16];
        pg_col_text(r, i, 0, category, sizeof category);
        struct store_rating_point *pt = &out[*count];
        pt->category = rating_category_parse(category);
        pt->at = pg_col_i64(r, i, 1);
        pt->rating = (int)pg_col_i64(r, i, 2);
        if (pt->category != RATING_NONE) (*count)++;
    }
    PQclear(r);
    return 0;
}

int pg_api_tokens(struct store_reader *reader, const char *player_id, int max,
                  struct store_api_token *out, int *count) {
    *count = 0;
    struct pg_params p = {0};
    pg_text(&p, player_id);
    pg_int(&p, max);
    PGresult *r = query_binary(pg_reader_of(reader)->conn,
                               "SELECT hash, description, scopes, created_at, last_used_at FROM "
                               "api_tokens WHERE player_id = $1 AND revoked_at IS NULL "
                               "ORDER BY created_at DESC, hash LIMIT $2",
                               &p, "reading API tokens");
    if (!r) return -STORE_ERR_IO;
    for (int i = 0; i < PQntuples(r) && *count < max; i++) {
        if (PQgetlength(r, i, 0) != STORE_HASH_LEN) continue; /* the table checks it */
        struct store_api_token *t = &out[(*count)++];
        memcpy(t->hash, PQgetvalue(r, i, 0), STORE_HASH_LEN);
        /* text in binary format: its bytes (PQgetvalue adds the NUL) */
        pg_col_text(r, i, 1, t->description, sizeof t->description);
        pg_col_text(r, i, 2, t->scopes, sizeof t->scopes);
        t->created_at = pg_col_be64(r, i, 3);
        t->last_used_at = pg_col_be64(r, i, 4);
    }
    PQclear(r);
    return 0;
}

int pg_player_settings(struct store_reader *reader, const char *player_id,
                       char out[STORE_SETTINGS_MAX + 1]) {
    out[0] = '\0';
    struct pg_params p = {0};
    pg_text(&p, player_id);
    PGresult *r = pg_read_query(pg_reader_of(reader)->conn,
                                "SELECT settings FROM player_settings WHERE player_id = $1", &p,
                                "reading player settings");
    if (!r) return -STORE_ERR_IO;
    if (PQntuples(r) == 1) pg_col_text(r, 0, 0, out, STORE_SETTINGS_MAX + 1); /* else none: "" */
    PQclear(r);
    return 0;
}

/* ---- computer analysis of finished games ---- */

/* The analysis of ANALYSIS_COLUMNS' rows [from, to) (one game's) into a; plies never NULL. */
static int copy_analysis(const PGresult *r, int from, int to, struct store_analysis *a) {
    *a = (struct store_analysis){0};
    pg_col_text(r, from, 0, a->game_id, sizeof a->game_id);
    pg_col_text(r, from, 1, a->requested_by, sizeof a->requested_by);
    a->positions = (int)pg_col_i64(r, from, 2);
    a->nodes = (uint64_t)pg_col_i64(r, from, 3);
    a->requested_at = pg_col_i64(r, from, 4);
    a->done_at = pg_col_i64(r, from, 5);
    a->plies = malloc(sizeof *a->plies * (size_t)(to - from));
    if (!a->plies) return -STORE_ERR_NO_MEMORY;
    for (int i = from; i < to; i++) {
        if (pg_col_null(r, i, 6)) continue; /* no position searched yet */
        struct store_analysis_ply *p = &a->plies[a->count++];
        memset(p, 0, sizeof *p);
        p->ply = (int)pg_col_i64(r, i, 6);
        p->score = (int)pg_col_i64(r, i, 7);
        p->depth = (int)pg_col_i64(r, i, 8);
        p->nodes = (uint64_t)pg_col_i64(r, i, 9);
        pg_col_text(r, i, 10, p->pv, sizeof p->pv);
    }
    return 0;
}

/*
 * The analyses of an ANALYSIS_COLUMNS query (one statement: one snapshot of both tables), one
 * per run of rows of the same game: to fn, freed after it, until it returns non-zero; or, with
 * keep, the first one into *keep (-NOT_FOUND without one).
 */
static int each_analysis(PGconn *conn, const char *sql, const struct pg_params *p,
                         int (*fn)(void *ctx, const struct store_analysis *analysis), void *ctx,
                         struct store_analysis *keep) {
    PGresult *r = pg_read_query(conn, sql, p, "reading game analyses");
    if (!r) return -STORE_ERR_IO;
    int rows = PQntuples(r), result = keep && rows == 0 ? -STORE_ERR_NOT_FOUND : 0;
    for (int from = 0, to; result == 0 && from < rows; from = to) {
        for (to = from + 1; to < rows && strcmp(PQgetvalue(r, to, 0), PQgetvalue(r, from, 0)) == 0;
             to++) {
        }
        struct store_analysis a;
        result = copy_analysis(r, from, to, &a);
        if (result == 0 && keep) {
            *keep = a;
            break;
        }
        if (result == 0) result = fn(ctx, &a);
        store_analysis_free(&a);
    }
    PQclear(r);
    return result;
}

int pg_read_analysis(struct store_reader *reader, const char *game_id, struct store_analysis *out) {
    *out = (struct store_analysis){0};
    struct pg_params p = {0};
    pg_text(&p, game_id);
    return each_analysis(pg_reader_of(reader)->conn,
                         "SELECT " ANALYSIS_COLUMNS " WHERE a.game_id = $1 ORDER BY p.ply", &p,
                         NULL, NULL, out);
}

int pg_pending_analyses(struct store_reader *reader,
                        int (*fn)(void *ctx, const struct store_analysis *analysis), void *ctx) {
    struct pg_reader *rd = pg_reader_of(reader);
    struct pg_params p = {0};
    pg_text(&p, rd->db->node_id); /* only this node's */
    return each_analysis(rd->conn,
                         "SELECT " ANALYSIS_COLUMNS " WHERE a.done_at IS NULL AND a.node = $1 "
                         "ORDER BY a.requested_at, a.game_id, p.ply",
                         &p, fn, ctx, NULL);
}
