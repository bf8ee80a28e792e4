/*
 * The SQLite backend's reads: read-only connections (in WAL mode a reader never waits for the
 * writer) and the queries, prepared once on a connection the first time one is needed. Every
 * value is bound; every row is copied out into fixed-size fields (truncating nothing that the
 * writer could have stored, since the same limits applied there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_internal.h"
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

struct sqlite_reads {
    sqlite3_stmt *token, *account, *player, *ratings, *game, *moves, *live_moves, *page, *each,
        *live, *all_live_moves, *leaders, *by_username, *owned_bots, *account_password, *sessions,
        *mod_state, *blocks, *api_token, *api_tokens, *rating_history, *player_settings, *analysis,
        *pending_analyses, *arena_games;
};

#define MOVE_COLUMNS "ply, uci, san, clock_ms, spent_ms, played_at"

/* An analysis (columns 0-5) and one of its positions (6-10: NULL when it has none yet). */
#define ANALYSIS_COLUMNS                                                                           \
    "a.game_id, a.requested_by, a.positions, a.nodes, a.requested_at, a.done_at, p.ply, "          \
    "p.score, p.depth, p.nodes, p.pv FROM game_analyses a "                                        \
    "LEFT JOIN analysis_plies p ON p.game_id = a.game_id"

static const char *const read_sql[] = {
    "SELECT " PLAYER_COLUMNS ", t.kind FROM tokens t JOIN players p ON p.id = t.player_id "
    "WHERE t.hash = ?1 AND t.revoked_at IS NULL",
    "SELECT " PLAYER_COLUMNS ", p.password_hash FROM players p "
    "WHERE p.username = ?1 AND p.password_hash IS NOT NULL",
    "SELECT " PLAYER_COLUMNS " FROM players p WHERE p.id = ?1 AND p.deleted_at IS NULL",
    "SELECT category, rating, deviation, volatility, games, updated_at FROM ratings "
    "WHERE player_id = ?1",
    "SELECT " GAME_COLUMNS " FROM games WHERE id = ?1",
    "SELECT " MOVE_COLUMNS " FROM moves WHERE game_id = ?1 ORDER BY ply",
    /* live_moves has no index by game (it is append-only for the writer's sake): a scan of the
     * moves of games in progress, which is small. */
    "SELECT " MOVE_COLUMNS " FROM live_moves WHERE game_id = ?1 ORDER BY id",
    "SELECT " GAME_COLUMNS " FROM games WHERE (white_id = ?1 OR black_id = ?1) "
    "ORDER BY created_at DESC, id DESC LIMIT ?2 OFFSET ?3",
    "SELECT " GAME_COLUMNS " FROM games WHERE (white_id = ?1 OR black_id = ?1) "
    "AND status = 'ended' AND (created_at, id) > (?3, ?4) ORDER BY created_at, id LIMIT ?2",
    "SELECT " GAME_COLUMNS " FROM games WHERE status = 'live' AND node = ?1 ORDER BY id",
    "SELECT " MOVE_COLUMNS ", game_id FROM live_moves ORDER BY game_id, id",
    /* the stored deviation only grows with time: rows above the mark are never shown; the
     * others are checked as they stand now, best first, until the board is full */
    "SELECT r.player_id, p.name, r.rating, r.deviation, r.volatility, r.games, p.is_bot, "
    "r.updated_at FROM ratings r "
    "JOIN players p ON p.id = r.player_id WHERE r.category = ?1 AND r.deviation <= ?2 "
    "AND p.banned_at IS NULL AND p.closed_at IS NULL "
    "ORDER BY r.rating DESC, r.player_id",
    /* profiles by username: accounts and bots (which have no password) */
    "SELECT " PLAYER_COLUMNS " FROM players p WHERE p.username = ?1 AND p.deleted_at IS NULL",
    "SELECT p.id, p.name, p.created_at, (SELECT count(*) FROM tokens t WHERE t.player_id = p.id "
    "AND t.revoked_at IS NULL) FROM players p WHERE p.owner_id = ?1 ORDER BY p.created_at, p.id "
    "LIMIT ?2",
    /* an account's password (not a bot's, which has none, nor a deleted one's) */
    "SELECT password_hash FROM players WHERE id = ?1 AND password_hash IS NOT NULL "
    "AND deleted_at IS NULL AND is_bot = 0",
    "SELECT hash, created_at, last_seen_at FROM tokens WHERE player_id = ?1 AND kind = 'session' "
    "AND revoked_at IS NULL ORDER BY COALESCE(last_seen_at, created_at) DESC, hash LIMIT ?2",
    /* moderation (docs/moderation.md), with every identity */
    "SELECT is_admin, muted_at, banned_at, closed_at FROM players WHERE id = ?1",
    "SELECT b.blocked_id, p.name FROM blocks b JOIN players p ON p.id = b.blocked_id "
    "WHERE b.player_id = ?1 ORDER BY b.created_at, b.blocked_id LIMIT ?2",
    /* API tokens (read.h): a personal one, or a bot's token, which plays as bot:play */
    "SELECT " PLAYER_COLUMNS ", a.scopes, a.created_at, 0 FROM api_tokens a "
    "JOIN players p ON p.id = a.player_id WHERE a.hash = ?1 AND a.revoked_at IS NULL "
    "UNION ALL SELECT " PLAYER_COLUMNS ", 'bot:play', t.created_at, 1 FROM tokens t "
    "JOIN players p ON p.id = t.player_id WHERE t.hash = ?1 AND t.kind = 'bot' "
    "AND t.revoked_at IS NULL",
    "SELECT hash, description, scopes, created_at, last_used_at FROM api_tokens "
    "WHERE player_id = ?1 AND revoked_at IS NULL ORDER BY created_at DESC, hash LIMIT ?2",
    /* a player's rated games, newest first: the rating each brought */
    "SELECT category, ended_at, CASE WHEN white_id = ?1 THEN white_rating + white_rating_diff "
    "ELSE black_rating + black_rating_diff END FROM games WHERE (white_id = ?1 OR black_id = ?1) "
    "AND status = 'ended' AND rated = 1 AND white_rating_diff IS NOT NULL "
    "ORDER BY created_at DESC, id DESC LIMIT ?2",
    "SELECT settings FROM player_settings WHERE player_id = ?1",
    /* game analyses, each with its positions (rows in a row) */
    "SELECT " ANALYSIS_COLUMNS " WHERE a.game_id = ?1 ORDER BY p.ply",
    "SELECT " ANALYSIS_COLUMNS " WHERE a.done_at IS NULL AND a.node = ?1 "
    "ORDER BY a.requested_at, a.game_id, p.ply",
    /* an arena tournament's ended games, in batches as a player's */
    "SELECT " GAME_COLUMNS " FROM games WHERE arena_id = ?1 "
    "AND status = 'ended' AND (created_at, id) > (?3, ?4) ORDER BY created_at, id LIMIT ?2",
};

#define READ_COUNT (sizeof(struct sqlite_reads) / sizeof(sqlite3_stmt *))
_Static_assert(READ_COUNT == sizeof read_sql / sizeof read_sql[0], "one SQL text per read");

static struct sqlite_reads *reads(struct sqlite_reader *r) {
    if (r->rs) return r->rs;
    struct sqlite_reads *rs = calloc(1, sizeof *rs);
    if (!rs) return NULL;
    sqlite3_stmt **st = (sqlite3_stmt **)(void *)rs;
    for (size_t i = 0; i < READ_COUNT; i++) {
        if (sqlite3_prepare_v3(r->conn, read_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &st[i], NULL) !=
            SQLITE_OK) {
            LOGE("store", "cannot prepare read %zu: %s", i, sqlite3_errmsg(r->conn));
            for (size_t k = 0; k < i; k++) sqlite3_finalize(st[k]);
            free(rs);
            return NULL;
        }
    }
    r->rs = rs;
    return rs;
}

static struct sqlite_reader *reader_of(struct store_reader *reader) {
    return (struct sqlite_reader *)(void *)reader;
}

void sqlite_reader_close(struct store_reader *reader) {
    struct sqlite_reader *r = reader_of(reader);
    if (!r) return;
    if (r->rs) {
        sqlite3_stmt **st = (sqlite3_stmt **)(void *)r->rs;
        for (size_t i = 0; i < READ_COUNT; i++) sqlite3_finalize(st[i]);
        free(r->rs);
        r->rs = NULL;
    }
    if (r->conn && sqlite3_close(r->conn) != SQLITE_OK)
        LOGW("store", "a read connection did not close cleanly");
    free(r);
}

int sqlite_reader_open(struct store_db *db, struct store_reader **out, char *err, size_t errlen) {
    struct sqlite_db *d = sqlite_db_of(db);
    *out = NULL;
    int rc = -STORE_ERR_NO_MEMORY;
    struct sqlite_reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    r->base.backend = d->base.backend;
    r->db = d;
    rc = sqlite3_open_v2(d->path, &r->conn, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "cannot open a read connection: %s",
                 r->conn ? sqlite3_errmsg(r->conn) : sqlite3_errstr(rc));
        rc = -STORE_ERR_IO;
        goto fail;
    }
    sqlite3_extended_result_codes(r->conn, 1);
    if ((rc = sqlite_configure_connection(r->conn, true, err, errlen)) < 0) goto fail;
    *out = &r->base;
    return 0;
fail:
    sqlite_reader_close(r ? &r->base : NULL);
    return rc;
}

/* ---- row helpers ---- */

static void col_text(sqlite3_stmt *st, int i, char *out, size_t size) {
    const unsigned char *t = sqlite3_column_text(st, i);
    snprintf(out, size, "%s", t ? (const char *)t : "");
}

static int read_error(struct sqlite_reader *r, int rc) {
    LOGE("store", "read failed: %s (%d)", sqlite3_errmsg(r->conn), rc);
    return (rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB ? -STORE_ERR_CORRUPT
                                                                         : -STORE_ERR_IO;
}

/* Steps a statement expected to give one row or none: 0 (row), -NOT_FOUND, or an error. The
 * statement is left on the row: the caller reads it, then resets. */
static int step_one(struct sqlite_reader *r, sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) return 0;
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? -STORE_ERR_NOT_FOUND : read_error(r, rc);
}

/* The players player_id blocks, at most max: with names into named, or ids only into ids. */
static int each_block(struct sqlite_reader *r, struct sqlite_reads *rs, const char *player_id,
                      int max, struct store_named *named, char (*ids)[STORE_ID_MAX + 1],
                      int *count) {
    *count = 0;
    sqlite3_stmt *st = rs->blocks;
    sqlite3_bind_text(st, 1, player_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, max);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && *count < max) {
        if (named) {
            col_text(st, 0, named[*count].id, sizeof named[*count].id);
            col_text(st, 1, named[*count].name, sizeof named[*count].name);
        } else {
            col_text(st, 0, ids[*count], sizeof ids[*count]);
        }
        (*count)++;
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : read_error(r, rc);
}

/* id's moderation state (admin, banned, closed, muted) and the players it blocks. */
static int load_moderation(struct sqlite_reader *r, struct sqlite_reads *rs,
                           struct store_identity *id) {
    sqlite3_stmt *st = rs->mod_state;
    sqlite3_bind_text(st, 1, id->player_id, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        id->admin = sqlite3_column_int(st, 0) != 0;
        id->muted = sqlite3_column_type(st, 1) != SQLITE_NULL;
        id->closed = sqlite3_column_type(st, 3) != SQLITE_NULL;
        id->banned = id->closed || sqlite3_column_type(st, 2) != SQLITE_NULL;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return read_error(r, rc);
    return each_block(r, rs, id->player_id, STORE_BLOCKS_MAX, NULL, id->blocks, &id->block_count);
}

int sqlite_blocks(struct store_reader *reader, const char *player_id, int max,
                  struct store_named *out, int *count) {
    struct sqlite_reader *r = reader_of(reader);
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    return each_block(r, rs, player_id, max, out, NULL, count);
}

/* The player's ratings and moderation state. */
static int load_ratings(struct sqlite_reader *r, struct sqlite_reads *rs,
                        struct store_identity *id) {
    for (int c = 0; c < RATING_CATEGORY_COUNT; c++) id->ratings[c] = rating_initial();
    sqlite3_stmt *st = rs->ratings;
    sqlite3_bind_text(st, 1, id->player_id, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int c = rating_category_parse((const char *)sqlite3_column_text(st, 0));
        if (c == RATING_NONE) continue;
        id->ratings[c] = (struct rating){sqlite3_column_double(st, 1), sqlite3_column_double(st, 2),
                                         sqlite3_column_double(st, 3), sqlite3_column_int(st, 4),
                                         sqlite3_column_int64(st, 5)};
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) return read_error(r, rc);
    return load_moderation(r, rs, id);
}

/* Reads PLAYER_COLUMNS (from column 0) and the player's ratings. The statement is reset. */
static int read_identity(struct sqlite_reader *r, struct sqlite_reads *rs, sqlite3_stmt *st,
                         struct store_identity *out) {
    memset(out, 0, sizeof *out);
    col_text(st, 0, out->player_id, sizeof out->player_id);
    col_text(st, 1, out->name, sizeof out->name);
    col_text(st, 2, out->username, sizeof out->username);
    out->bot = sqlite3_column_int(st, 3) != 0;
    out->created_at = sqlite3_column_int64(st, 4);
    return load_ratings(r, rs, out);
}

/* Copies PLAYER_COLUMNS (from column 0) of a token's row into id (zeroed first). */
static void token_player(sqlite3_stmt *st, struct store_identity *id) {
    memset(id, 0, sizeof *id);
    col_text(st, 0, id->player_id, sizeof id->player_id);
    col_text(st, 1, id->name, sizeof id->name);
    col_text(st, 2, id->username, sizeof id->username);
    id->bot = sqlite3_column_int(st, 3) != 0;
    id->created_at = sqlite3_column_int64(st, 4);
}

int sqlite_find_token(struct store_reader *reader, const uint8_t hash[STORE_HASH_LEN],
                      struct store_identity *out) {
    struct sqlite_reader *r = reader_of(reader);
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = rs->token;
    sqlite3_bind_blob(st, 1, hash, STORE_HASH_LEN, SQLITE_TRANSIENT);
    int rc = step_one(r, st);
    if (rc < 0) return rc;
    const unsigned char *kind = sqlite3_column_text(st, 5);
    bool bot_token = kind && strcmp((const char *)kind, "bot") == 0;
    /* Copy the row before the ratings query runs. */
    struct store_identity id;
    token_player(st, &id);
    sqlite3_reset(st);
    rc = load_ratings(r, rs, &id);
    if (rc < 0) return rc;
    id.bot_token = bot_token;
    *out = id;
    return 0;
}

int sqlite_find_account(struct store_reader *reader, const char *username,
                        struct store_identity *out, char password_hash[STORE_PWHASH_MAX]) {
    struct sqlite_reader *r = reader_of(reader);
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = rs->account;
    sqlite3_bind_text(st, 1, username, -1, SQLITE_TRANSIENT);
    int rc = step_one(r, st);
    if (rc < 0) return rc;
    col_text(st, 5, password_hash, STORE_PWHASH_MAX);
    rc = read_identity(r, rs, st, out);
    sqlite3_reset(st);
    return rc;
}

/* The identity a one-parameter player query finds by key. */
static int find_identity(struct sqlite_reader *r, bool by_username, const char *key,
                         struct store_identity *out) {
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = by_username ? rs->by_username : rs->player;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    int rc = step_one(r, st);
    if (rc < 0) return rc;
    rc = read_identity(r, rs, st, out);
    sqlite3_reset(st);
    return rc;
}

int sqlite_find_player(struct store_reader *reader, const char *player_id,
                       struct store_identity *out) {
    struct sqlite_reader *r = reader_of(reader);
    return find_identity(r, false, player_id, out);
}

int sqlite_find_username(struct store_reader *reader, const char *username,
                         struct store_identity *out) {
    struct sqlite_reader *r = reader_of(reader);
    return find_identity(r, true, username, out);
}

int sqlite_owned_bots(struct store_reader *reader, const char *owner_id, int max,
                      struct store_bot *out, int *count) {
    struct sqlite_reader *r = reader_of(reader);
    *count = 0;
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = rs->owned_bots;
    sqlite3_bind_text(st, 1, owner_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, max);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && *count < max) {
        struct store_bot *b = &out[(*count)++];
        col_text(st, 0, b->player_id, sizeof b->player_id);
        col_text(st, 1, b->name, sizeof b->name);
        b->created_at = sqlite3_column_int64(st, 2);
        b->tokens = sqlite3_column_int(st, 3);
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : read_error(r, rc);
}

/* ---- games ---- */

/* Reads GAME_COLUMNS from the current row. */
static void read_game_row(sqlite3_stmt *st, struct store_game *g) {
    memset(g, 0, sizeof *g);
    col_text(st, 0, g->id, sizeof g->id);
    col_text(st, 1, g->status, sizeof g->status);
    for (int c = 0; c < 2; c++) {
        col_text(st, 2 + c, g->player_id[c], sizeof g->player_id[c]);
        col_text(st, 4 + c, g->name[c], sizeof g->name[c]);
    }
    col_text(st, 6, g->initial_fen, sizeof g->initial_fen);
    g->unlimited = sqlite3_column_type(st, 7) == SQLITE_NULL;
    g->initial_ms = sqlite3_column_int64(st, 7);
    g->increment_ms = sqlite3_column_int64(st, 8);
    g->rated = sqlite3_column_int(st, 9) != 0;
    g->category = rating_category_parse((const char *)sqlite3_column_text(st, 10));
    g->has_ratings = sqlite3_column_type(st, 11) != SQLITE_NULL;
    for (int c = 0; c < 2; c++) {
        g->rating[c] = sqlite3_column_int(st, 11 + c);
        g->rating_diff[c] = sqlite3_column_int(st, 13 + c);
    }
    col_text(st, 15, g->result, sizeof g->result);
    col_text(st, 16, g->termination, sizeof g->termination);
    g->created_at = sqlite3_column_int64(st, 17);
    g->ended_at = sqlite3_column_int64(st, 18);
    g->ply_count = sqlite3_column_int(st, 19);
    for (int c = 0; c < 2; c++) g->bot[c] = sqlite3_column_int(st, 20 + c) != 0;
    col_text(st, 22, g->variant, sizeof g->variant);
    g->days = sqlite3_column_int(st, 23);
    col_text(st, 24, g->arena_id, sizeof g->arena_id);
    col_text(st, 25, g->arena_name, sizeof g->arena_name);
}

static void read_move_row(sqlite3_stmt *st, struct store_move_row *m) {
    memset(m, 0, sizeof *m);
    m->ply = sqlite3_column_int(st, 0);
    col_text(st, 1, m->uci, sizeof m->uci);
    col_text(st, 2, m->san, sizeof m->san);
    m->timed = sqlite3_column_type(st, 3) != SQLITE_NULL;
    m->clock_ms = sqlite3_column_int64(st, 3);
    m->spent_ms = sqlite3_column_int64(st, 4);
    m->played_at = sqlite3_column_int64(st, 5);
}

static int push_move(struct store_game *g, int *cap, sqlite3_stmt *st) {
    if (g->ply_count == *cap) {
        int n = *cap > 0 ? *cap * 2 : 64;
        struct store_move_row *grown = realloc(g->moves, sizeof *grown * (size_t)n);
        if (!grown) return -STORE_ERR_NO_MEMORY;
        g->moves = grown;
        *cap = n;
    }
    read_move_row(st, &g->moves[g->ply_count++]);
    return 0;
}

/* Loads the moves of g (from the archive, or from live_moves while it is live). g->moves is
 * never NULL afterwards on success. */
static int read_moves(struct sqlite_reader *r, struct sqlite_reads *rs, struct store_game *g) {
    sqlite3_stmt *st = strcmp(g->status, "live") == 0 ? rs->live_moves : rs->moves;
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_TRANSIENT);
    int cap = 0, rc, result = 0;
    g->ply_count = 0;
    g->moves = NULL;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && (result = push_move(g, &cap, st)) == 0) {
    }
    sqlite3_reset(st);
    if (result == 0 && rc != SQLITE_DONE) result = read_error(r, rc);
    if (result == 0 && !g->moves && !(g->moves = malloc(sizeof *g->moves)))
        result = -STORE_ERR_NO_MEMORY;
    if (result < 0) {
        store_game_free(g);
        g->ply_count = 0;
    }
    return result;
}

int sqlite_read_game(struct store_reader *reader, const char *id, struct store_game *out) {
    struct sqlite_reader *r = reader_of(reader);
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = rs->game;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    int rc = step_one(r, st);
    if (rc < 0) return rc;
    read_game_row(st, out);
    sqlite3_reset(st);
    return read_moves(r, rs, out);
}

int sqlite_player_games(struct store_reader *reader, const char *player_id, int page, int per_page,
                        struct store_game *out, int *count, bool *more) {
    struct sqlite_reader *r = reader_of(reader);
    *count = 0;
    *more = false;
    if (page < 1 || per_page < 1 || per_page > 100) return -STORE_ERR_NOT_FOUND;
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = rs->page;
    sqlite3_bind_text(st, 1, player_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, per_page + 1); /* one more says whether a next page exists */
    sqlite3_bind_int64(st, 3, (int64_t)(page - 1) * per_page);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*count == per_page) {
            *more = true;
            continue;
        }
        read_game_row(st, &out[(*count)++]);
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : read_error(r, rc);
}

/* Runs a statement listing games and calls fn with each game's moves loaded. */
static int each_game(struct sqlite_reader *r, struct sqlite_reads *rs, sqlite3_stmt *st,
                     int (*fn)(void *ctx, struct store_game *game), void *ctx) {
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_game g;
        read_game_row(st, &g);
        int result = read_moves(r, rs, &g);
        if (result < 0) {
            sqlite3_reset(st);
            return result;
        }
        stop = fn(ctx, &g);
        store_game_free(&g);
    }
    sqlite3_reset(st);
    if (stop) return stop;
    return rc == SQLITE_DONE ? 0 : read_error(r, rc);
}

struct each_ctx {
    int (*fn)(void *ctx, const struct store_game *game);
    void *ctx;
};

static int each_player_game(void *ctx, struct store_game *g) {
    struct each_ctx *e = ctx;
    return e->fn(e->ctx, g);
}

/* A player's (arena false) or an arena's games in batches: the statement's ?1 is key. */
static int each_game_batch(struct store_reader *reader, bool arena, const char *key,
                           const struct store_game_cursor *after, int limit,
                           int (*fn)(void *ctx, const struct store_game *game), void *ctx) {
    struct sqlite_reader *r = reader_of(reader);
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = arena ? rs->arena_games : rs->each;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, limit);
    sqlite3_bind_int64(st, 3, after ? after->created_at : INT64_MIN);
    sqlite3_bind_text(st, 4, after ? after->id : "", -1, SQLITE_TRANSIENT);
    struct each_ctx e = {fn, ctx};
    return each_game(r, rs, st, each_player_game, &e);
}

int sqlite_each_player_game(struct store_reader *reader, const char *player_id,
                            const struct store_game_cursor *after, int limit,
                            int (*fn)(void *ctx, const struct store_game *game), void *ctx) {
    return each_game_batch(reader, false, player_id, after, limit, fn, ctx);
}

int sqlite_each_arena_game(struct store_reader *reader, const char *arena_id,
                           const struct store_game_cursor *after, int limit,
                           int (*fn)(void *ctx, const struct store_game *game), void *ctx) {
    return each_game_batch(reader, true, arena_id, after, limit, fn, ctx);
}

/* Reads the identities of a live game's players. */
static int live_players(struct sqlite_reader *r, const struct store_game *g,
                        struct store_identity players[2]) {
    for (int c = 0; c < 2; c++) {
        int rc = find_identity(r, false, g->player_id[c], &players[c]);
        if (rc < 0) {
            LOGE("store", "game=%s: its %s player %s cannot be read (%s)", g->id,
                 c ? "black" : "white", g->player_id[c], store_status_name(rc));
            return rc;
        }
    }
    return 0;
}

static int live_move_game_cmp(sqlite3_stmt *moves, const char *game_id) {
    const unsigned char *id = sqlite3_column_text(moves, 6);
    return strcmp(id ? (const char *)id : "", game_id);
}

/*
 * Two ordered scans joined on the game id: the live games, and all of live_moves sorted by game
 * (one pass over the table instead of one scan per game).
 */
int sqlite_load_live(struct store_reader *reader,
                     int (*fn)(void *ctx, const struct store_game *game,
                               const struct store_identity players[2]),
                     void *ctx) {
    struct sqlite_reader *r = reader_of(reader);
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *games = rs->live, *moves = rs->all_live_moves;
    /* Only this node's games: the nodes of a site share the file (docs/scaling.md). */
    sqlite3_bind_text(games, 1, r->db->node_id, -1, SQLITE_STATIC);
    int grc = SQLITE_DONE, mrc = sqlite3_step(moves), result = 0;
    while (result == 0 && (grc = sqlite3_step(games)) == SQLITE_ROW) {
        struct store_game g;
        read_game_row(games, &g);
        int cap = 0;
        g.ply_count = 0;
        /* Moves of games that are not live (there should be none) are skipped. */
        while (mrc == SQLITE_ROW && live_move_game_cmp(moves, g.id) < 0) mrc = sqlite3_step(moves);
        while (result == 0 && mrc == SQLITE_ROW && live_move_game_cmp(moves, g.id) == 0) {
            result = push_move(&g, &cap, moves);
            mrc = sqlite3_step(moves);
        }
        if (result == 0 && mrc != SQLITE_ROW && mrc != SQLITE_DONE) result = read_error(r, mrc);
        struct store_identity players[2];
        if (result == 0) result = live_players(r, &g, players);
        if (result == 0) result = fn(ctx, &g, players);
        store_game_free(&g);
    }
    if (result == 0 && grc != SQLITE_DONE) result = read_error(r, grc);
    sqlite3_reset(games);
    sqlite3_reset(moves);
    return result;
}

int sqlite_leaderboard(struct store_reader *reader, int category, int limit, int64_t now_ms,
                       struct store_leader *out, int *count) {
    struct sqlite_reader *r = reader_of(reader);
    *count = 0;
    const char *name = rating_category_name(category);
    if (!name || limit < 1 || limit > 100) return -STORE_ERR_NOT_FOUND;
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = rs->leaders;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 2, RATING_PROVISIONAL_DEVIATION);
    int rc = SQLITE_DONE;
    while (*count < limit && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct rating stored = {sqlite3_column_double(st, 2), sqlite3_column_double(st, 3),
                                sqlite3_column_double(st, 4), sqlite3_column_int(st, 5),
                                sqlite3_column_int64(st, 7)};
        struct rating now = rating_at(&stored, now_ms);
        if (rating_provisional(&now)) continue; /* away too long */
        struct store_leader *l = &out[(*count)++];
        col_text(st, 0, l->player_id, sizeof l->player_id);
        col_text(st, 1, l->name, sizeof l->name);
        l->rating = stored;
        l->bot = sqlite3_column_int(st, 6) != 0;
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : read_error(r, rc);
}

int sqlite_rating_history(struct store_reader *reader, const char *player_id, int max,
                          struct store_rating_point *out, int *count) {
    struct sqlite_reader *r = reader_of(reader);
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = rs->rating_history;
    sqlite3_bind_text(st, 1, player_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, max);
    int rc = SQLITE_DONE;
    while (*count < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        char category[16];
        col_text(st, 0, category, sizeof category);
        struct store_rating_point *p = &out[*count];
        p->category = rating_category_parse(category);
        p->at = sqlite3_column_int64(st, 1);
        p->rating = sqlite3_column_int(st, 2);
        if (p->category != RATING_NONE) (*count)++;
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : read_error(r, rc);
}

int sqlite_account_password(struct store_reader *reader, const char *player_id,
                            char password_hash[STORE_PWHASH_MAX]) {
    struct sqlite_reader *r = reader_of(reader);
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = rs->account_password;
    sqlite3_bind_text(st, 1, player_id, -1, SQLITE_TRANSIENT);
    int rc = step_one(r, st);
    if (rc < 0) return rc;
    col_text(st, 0, password_hash, STORE_PWHASH_MAX);
    sqlite3_reset(st);
    return 0;
}

int sqlite_sessions(struct store_reader *reader, const char *player_id, int max,
                    struct store_session *out, int *count) {
    struct sqlite_reader *r = reader_of(reader);
    *count = 0;
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = rs->sessions;
    sqlite3_bind_text(st, 1, player_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, max);
    int rc = SQLITE_DONE;
    while (*count < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (sqlite3_column_bytes(st, 0) != STORE_HASH_LEN) continue; /* the table checks it */
        struct store_session *s = &out[(*count)++];
        memcpy(s->hash, sqlite3_column_blob(st, 0), STORE_HASH_LEN);
        s->created_at = sqlite3_column_int64(st, 1);
        s->last_seen_at = sqlite3_column_int64(st, 2);
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : read_error(r, rc);
}

/* ---- personal API access tokens ---- */

int sqlite_find_api_token(struct store_reader *reader, const uint8_t hash[STORE_HASH_LEN],
                          struct store_identity *out, char scopes[STORE_SCOPES_MAX],
                          int64_t *created_at) {
    struct sqlite_reader *r = reader_of(reader);
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = rs->api_token;
    sqlite3_bind_blob(st, 1, hash, STORE_HASH_LEN, SQLITE_TRANSIENT);
    int rc = step_one(r, st);
    if (rc < 0) return rc;
    /* Copy the row before the ratings query runs. */
    struct store_identity id;
    token_player(st, &id);
    char text[STORE_SCOPES_MAX];
    col_text(st, 5, text, sizeof text);
    int64_t created = sqlite3_column_int64(st, 6);
    id.bot_token = sqlite3_column_int(st, 7) != 0;
    sqlite3_reset(st);
    rc = load_ratings(r, rs, &id);
    if (rc < 0) return rc;
    *out = id;
    memcpy(scopes, text, sizeof text);
    *created_at = created;
    return 0;
}

int sqlite_api_tokens(struct store_reader *reader, const char *player_id, int max,
                      struct store_api_token *out, int *count) {
    struct sqlite_reader *r = reader_of(reader);
    *count = 0;
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = rs->api_tokens;
    sqlite3_bind_text(st, 1, player_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, max);
    int rc = SQLITE_DONE;
    while (*count < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (sqlite3_column_bytes(st, 0) != STORE_HASH_LEN) continue; /* the table checks it */
        struct store_api_token *t = &out[(*count)++];
        memcpy(t->hash, sqlite3_column_blob(st, 0), STORE_HASH_LEN);
        col_text(st, 1, t->description, sizeof t->description);
        col_text(st, 2, t->scopes, sizeof t->scopes);
        t->created_at = sqlite3_column_int64(st, 3);
        t->last_used_at = sqlite3_column_int64(st, 4);
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : read_error(r, rc);
}

int sqlite_player_settings(struct store_reader *reader, const char *player_id,
                           char out[STORE_SETTINGS_MAX + 1]) {
    struct sqlite_reader *r = reader_of(reader);
    out[0] = '\0';
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_stmt *st = rs->player_settings;
    sqlite3_bind_text(st, 1, player_id, -1, SQLITE_TRANSIENT);
    int rc = step_one(r, st);
    if (rc == -STORE_ERR_NOT_FOUND) return 0; /* none stored: "" */
    if (rc < 0) return rc;
    col_text(st, 0, out, STORE_SETTINGS_MAX + 1);
    sqlite3_reset(st);
    return 0;
}

/* ---- computer analysis of finished games ---- */

/* Appends the position of ANALYSIS_COLUMNS' row (when it has one) to a's plies. */
static int push_analysis_ply(struct store_analysis *a, int *cap, sqlite3_stmt *st) {
    if (sqlite3_column_type(st, 6) == SQLITE_NULL) return 0;
    if (a->count == *cap) {
        int grown_cap = *cap ? *cap * 2 : 64;
        struct store_analysis_ply *grown = realloc(a->plies, sizeof *grown * (size_t)grown_cap);
        if (!grown) return -STORE_ERR_NO_MEMORY;
        a->plies = grown;
        *cap = grown_cap;
    }
    struct store_analysis_ply *p = &a->plies[a->count++];
    memset(p, 0, sizeof *p);
    p->ply = sqlite3_column_int(st, 6);
    p->score = sqlite3_column_int(st, 7);
    p->depth = sqlite3_column_int(st, 8);
    p->nodes = (uint64_t)sqlite3_column_int64(st, 9);
    col_text(st, 10, p->pv, sizeof p->pv);
    return 0;
}

static bool same_game(sqlite3_stmt *st, const char *game_id) {
    const unsigned char *id = sqlite3_column_text(st, 0);
    return id && strcmp((const char *)id, game_id) == 0;
}

/*
 * The analyses of an ANALYSIS_COLUMNS query, one per run of rows of the same game (its plies
 * never NULL): to fn, freed after it, until it returns non-zero; or, with keep, the first one
 * moved into *keep (-NOT_FOUND without one). One statement: one snapshot of both tables.
 */
static int each_analysis(struct sqlite_reader *r, sqlite3_stmt *st,
                         int (*fn)(void *ctx, const struct store_analysis *analysis), void *ctx,
                         struct store_analysis *keep) {
    int rc = sqlite3_step(st), result = keep && rc == SQLITE_DONE ? -STORE_ERR_NOT_FOUND : 0;
    while (result == 0 && rc == SQLITE_ROW) {
        struct store_analysis a = {0};
        int cap = 1;
        if (!(a.plies = malloc(sizeof *a.plies))) {
            result = -STORE_ERR_NO_MEMORY;
            break;
        }
        col_text(st, 0, a.game_id, sizeof a.game_id);
        col_text(st, 1, a.requested_by, sizeof a.requested_by);
        a.positions = sqlite3_column_int(st, 2);
        a.nodes = (uint64_t)sqlite3_column_int64(st, 3);
        a.requested_at = sqlite3_column_int64(st, 4);
        a.done_at = sqlite3_column_int64(st, 5);
        do {
            result = push_analysis_ply(&a, &cap, st);
            rc = sqlite3_step(st);
        } while (result == 0 && rc == SQLITE_ROW && same_game(st, a.game_id));
        if (result == 0 && keep) {
            *keep = a;
            break;
        }
        if (result == 0) result = fn(ctx, &a);
        store_analysis_free(&a);
    }
    if (result == 0 && rc != SQLITE_ROW && rc != SQLITE_DONE) result = read_error(r, rc);
    if (result < 0 && keep) store_analysis_free(keep);
    sqlite3_reset(st);
    return result;
}

int sqlite_read_analysis(struct store_reader *reader, const char *game_id,
                         struct store_analysis *out) {
    struct sqlite_reader *r = reader_of(reader);
    *out = (struct store_analysis){0};
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    sqlite3_bind_text(rs->analysis, 1, game_id, -1, SQLITE_TRANSIENT);
    return each_analysis(r, rs->analysis, NULL, NULL, out);
}

int sqlite_pending_analyses(struct store_reader *reader,
                            int (*fn)(void *ctx, const struct store_analysis *analysis),
                            void *ctx) {
    struct sqlite_reader *r = reader_of(reader);
    struct sqlite_reads *rs = reads(r);
    if (!rs) return -STORE_ERR_IO;
    /* Only this node's: the nodes of a site share the file (docs/scaling.md). */
    sqlite3_bind_text(rs->pending_analyses, 1, r->db->node_id, -1, SQLITE_STATIC);
    return each_analysis(r, rs->pending_analyses, fn, ctx, NULL);
}
