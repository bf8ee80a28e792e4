/*
 * Reads: small queries by key on connections of their own (a reader never waits for the
 * writer): identities by token hash, accounts by username, games with their moves, a player's
 * games page by page, leaderboards, and the live games to restore at startup. The backend runs
 * them (backend.h); these functions hand each to the reader's backend.
 *
 * A struct store_reader is one connection of the backend's; it has one owner thread. While
 * serving, reads run on the store's reader threads (store_read_submit): the loop hands over a
 * job, a reader runs it on its own connection, and the finished job comes back to the loop
 * through store_poll(), after the same coalesced wake-up as commits. The loop never runs a
 * query itself once the server serves; only startup (restoring games) uses the startup reader,
 * on the main thread.
 *
 * Reads see what is committed. Query functions return 0 or a negative enum store_status.
 */
#ifndef SERVER_STORE_READ_H
#define SERVER_STORE_READ_H

#include "store/types.h"

struct store;

struct store_reader;

/* The main thread's reader, for restoring at startup (store_load_live) before store_start(),
 * and for tests, which own the store on one thread. Not for the loop while it serves. */
struct store_reader *store_startup_reader(struct store *store);

/*
 * A read to run on a reader thread. Embed it in the request (first member or container_of) and
 * fill run and done:
 * - run(reader, job) runs on a reader thread with that thread's connection: it performs the
 *   queries and stores the outcome in the embedding request. It must not touch the loop's data.
 * - done(job) runs on the loop thread inside store_poll(), in the order the jobs finished; the
 *   job is the caller's again from then on (free it there).
 * Jobs of one submitter are not ordered among themselves when there are several readers: a
 * caller that needs order submits the next job after the previous one is done.
 */
struct store_read_job {
    struct store_read_job *next; /* the store's queue */
    void (*run)(struct store_reader *reader, struct store_read_job *job);
    void (*done)(struct store_read_job *job);
    int64_t queued_us, started_us, finished_us; /* monotonic, set by the store (metrics) */
};

/* Most read jobs waiting for a reader before store_read_submit() refuses more. */
#define STORE_READ_QUEUE_MAX 1024

/*
 * Queues a read job. Returns 0, -STORE_ERR_BUSY (the queue is full) or -STORE_ERR_FAILED (the
 * readers are not running: before store_start() or while closing). On failure the job stays the
 * caller's and done will not be called. Jobs still queued or finished but not polled when the
 * store closes are dropped without done: the caller frees them after store_close(). Loop thread.
 */
int store_read_submit(struct store *store, struct store_read_job *job);

/* Who a token, a username or an id names. */
struct store_identity {
    char player_id[STORE_ID_MAX + 1];
    char name[STORE_NAME_MAX + 1];
    char username[STORE_USERNAME_MAX + 1]; /* "" for guests */
    bool bot;
    bool bot_token;                               /* found by a bot token */
    struct rating ratings[RATING_CATEGORY_COUNT]; /* rating_initial() where none yet */
    int64_t created_at;
    /* Moderation (docs/moderation.md). */
    bool admin;
    bool banned;     /* banned or closed: may not connect */
    bool closed;     /* an account closed by a moderator */
    bool muted;      /* may not chat */
    int block_count; /* the players it blocks */
    char blocks[STORE_BLOCKS_MAX][STORE_ID_MAX + 1];
};

/* The identity holding this token (hash), unless the token was revoked. -NOT_FOUND otherwise. */
int store_find_token(struct store_reader *reader, const uint8_t hash[STORE_HASH_LEN],
                     struct store_identity *out);

/* The account with this (lower-case) username and its password hash. -NOT_FOUND otherwise. */
int store_find_account(struct store_reader *reader, const char *username,
                       struct store_identity *out, char password_hash[STORE_PWHASH_MAX]);

/* A player by id (guest or account). -NOT_FOUND otherwise. */
int store_find_player(struct store_reader *reader, const char *player_id,
                      struct store_identity *out);

/* A player by (lower-case) username: an account or a bot. -NOT_FOUND otherwise. */
int store_find_username(struct store_reader *reader, const char *username,
                        struct store_identity *out);

/* A game as stored. */
struct store_game {
    char id[STORE_ID_MAX + 1];
    char status[12];                     /* live, ended, imported */
    char player_id[2][STORE_ID_MAX + 1]; /* "" for imported games */
    char name[2][STORE_NAME_MAX + 1];
    bool bot[2];                         /* the player is a bot */
    char initial_fen[STORE_FEN_MAX + 1]; /* "" for the standard start */
    char variant[STORE_VARIANT_MAX + 1]; /* lichess's key (core/start.h): "standard", "chess960",
                                            "fromPosition", "threeCheck", "kingOfTheHill" */
    bool unlimited;
    int64_t initial_ms, increment_ms;
    int days; /* daily games: days per move; else 0 (moves' clock_ms: deadlines, restore.h) */
    bool rated;
    int category; /* RATING_NONE without a clock */
    bool has_ratings;
    int rating[2], rating_diff[2]; /* rated games; diffs once ended */
    char result[8];                /* "" while live */
    char termination[STORE_TERM_MAX];
    int64_t created_at, ended_at;
    int ply_count;
    struct store_move_row *moves;              /* with_moves: ply_count rows, malloc'd; else NULL */
    char arena_id[STORE_ID_MAX + 1];           /* an arena tournament's game: its arena; else "" */
    char arena_name[STORE_ARENA_NAME_MAX + 1]; /* and the arena's name (the PGN's Event) */
};

void store_game_free(struct store_game *game);

/* One game with its moves. -NOT_FOUND when there is none. */
int store_read_game(struct store_reader *reader, const char *id, struct store_game *out);

/*
 * A player's games (live, ended; not imported), newest first: page `page` (from 1) of
 * per_page (1..100) headers without moves into out[per_page]; *count receives how many and
 * *more whether another page follows.
 */
int store_player_games(struct store_reader *reader, const char *player_id, int page, int per_page,
                       struct store_game *out, int *count, bool *more);

/* Where a listing of games oldest first stopped: the last game's creation time and id. */
struct store_game_cursor {
    int64_t created_at;
    char id[STORE_ID_MAX + 1];
};

/*
 * Calls fn for each of a player's ended games, oldest first, with its moves (freed after the
 * call): at most `limit` games, starting after `after` (NULL: from the first). Stops early when
 * fn returns non-zero (returned). Read in batches with the last game as the next cursor.
 */
int store_each_player_game(struct store_reader *reader, const char *player_id,
                           const struct store_game_cursor *after, int limit,
                           int (*fn)(void *ctx, const struct store_game *game), void *ctx);

/* The same for an arena tournament's ended games (GET /api/tournament/{id}/games). */
int store_each_arena_game(struct store_reader *reader, const char *arena_id,
                          const struct store_game_cursor *after, int limit,
                          int (*fn)(void *ctx, const struct store_game *game), void *ctx);

/* Calls fn for each live game (with moves), oldest first, and the identities of its players.
 * For restoring at startup. Stops early when fn returns non-zero (returned). */
int store_load_live(struct store_reader *reader,
                    int (*fn)(void *ctx, const struct store_game *game,
                              const struct store_identity players[2]),
                    void *ctx);

/* An arena tournament as stored (store_load_arenas). */
struct store_arena {
    char id[STORE_ID_MAX + 1];
    char name[STORE_ARENA_NAME_MAX + 1];
    char creator[STORE_ID_MAX + 1]; /* "" for the operator's */
    int64_t initial_ms, increment_ms;
    bool rated;
    int64_t starts_at; /* Unix ms */
    int minutes;
    char status[12]; /* "created", "started", "finished" */
};

/* One of its players, in joining order. */
struct store_arena_player {
    char player_id[STORE_ID_MAX + 1];
    char name[STORE_NAME_MAX + 1];
    int rating;
    bool paused;
};

/* One of its games: those in progress (live), then the finished ones in the order they ended. */
struct store_arena_game {
    char id[STORE_ID_MAX + 1];
    char player_id[2][STORE_ID_MAX + 1];
    bool live;
    char result[8]; /* "1-0", "0-1", "1/2-1/2", "*" (aborted); "" while live */
    bool berserk[2];
    int ply_count;
};

/* What store_load_arenas() calls: each arena, then its players, then its games. Each returns 0
 * to go on (non-zero stops the load and is returned). */
struct store_arena_visitor {
    int (*arena)(void *ctx, const struct store_arena *arena);
    int (*player)(void *ctx, const struct store_arena *arena, const struct store_arena_player *p);
    int (*game)(void *ctx, const struct store_arena *arena, const struct store_arena_game *game);
    void *ctx;
};

/*
 * This node's arenas (arenas.node: the node that created them, or the one that took them over
 * with a dead node's lease), in creation order: those not finished, and the last `finished_max`
 * finished ones, each with its players and games. For a restart (the main thread's reader) and
 * an adoption (a reader thread's). Returns 0, a visitor's non-zero value, or a negative enum
 * store_status.
 */
int store_load_arenas(struct store_reader *reader, int finished_max,
                      const struct store_arena_visitor *visitor);

struct store_leader {
    char player_id[STORE_ID_MAX + 1];
    char name[STORE_NAME_MAX + 1];
    bool bot;
    struct rating rating;
};

/* A bot an account owns, with how many of its tokens work. */
struct store_bot {
    char player_id[STORE_ID_MAX + 1];
    char name[STORE_NAME_MAX + 1];
    int64_t created_at;
    int tokens;
};

/* The bots owner_id owns, oldest first: at most max into out. */
int store_owned_bots(struct store_reader *reader, const char *owner_id, int max,
                     struct store_bot *out, int *count);

/* An account's password hash, by player id: -NOT_FOUND for a guest, a bot or a deleted
 * account. */
int store_account_password(struct store_reader *reader, const char *player_id,
                           char password_hash[STORE_PWHASH_MAX]);

/* One of an account's session tokens (its hash: the id shown is its first
 * STORE_SESSION_ID_BYTES). */
struct store_session {
    uint8_t hash[STORE_HASH_LEN];
    int64_t created_at;
    int64_t last_seen_at; /* the last hello with it; 0: none recorded */
};

/* player_id's working (not revoked) session tokens, most recently used first: at most max into
 * out. */
int store_sessions(struct store_reader *reader, const char *player_id, int max,
                   struct store_session *out, int *count);

/* ---- personal API access tokens (app/tokens.h) ---- */

/*
 * The identity an API token names, filled as store_find_token() fills it (ratings, moderation
 * state, blocks), with the token's scopes as text ("board:play,bot:play") and when it was
 * created: a working (not revoked) personal token of api_tokens, or a working bot token
 * (tokens.kind 'bot'), which is the bot's with the scopes "bot:play" (out->bot_token set). A
 * session token is no API token. -NOT_FOUND otherwise.
 */
int store_find_api_token(struct store_reader *reader, const uint8_t hash[STORE_HASH_LEN],
                         struct store_identity *out, char scopes[STORE_SCOPES_MAX],
                         int64_t *created_at);

/* One of an account's personal API tokens (its hash: the id shown is its first
 * STORE_SESSION_ID_BYTES). */
struct store_api_token {
    uint8_t hash[STORE_HASH_LEN];
    char description[STORE_DESCRIPTION_MAX + 1];
    char scopes[STORE_SCOPES_MAX];
    int64_t created_at;
    int64_t last_used_at; /* 0: never used */
};

/* player_id's working (not revoked) API tokens, newest first: at most max into out. */
int store_api_tokens(struct store_reader *reader, const char *player_id, int max,
                     struct store_api_token *out, int *count);

/* ---- computer analysis of finished games (app/review.h) ---- */

struct store_analysis {
    char game_id[STORE_ID_MAX + 1];
    char requested_by[STORE_ID_MAX + 1]; /* a player id */
    int positions;                       /* positions to search (the game's plies + 1) */
    uint64_t nodes;                      /* the search budget of each position */
    int64_t requested_at;
    int64_t done_at;                  /* 0 while under way */
    int count;                        /* positions searched so far */
    struct store_analysis_ply *plies; /* count rows by ply (their last and at unset), malloc'd */
};

void store_analysis_free(struct store_analysis *analysis);

/* The analysis of a game (done or under way), with the positions searched so far. -NOT_FOUND
 * when none was asked for. */
int store_read_analysis(struct store_reader *reader, const char *game_id,
                        struct store_analysis *out);

/* Calls fn for each analysis under way that belongs to the store's node (store_config.node_id,
 * "" for a single server), oldest request first, with the positions searched so far. For
 * resuming them at startup. Stops early when fn returns non-zero (returned). */
int store_pending_analyses(struct store_reader *reader,
                           int (*fn)(void *ctx, const struct store_analysis *analysis), void *ctx);

/* ---- player settings (app/settings.h) ---- */

/* The account player_id's settings as stored (JSON text, at most STORE_SETTINGS_MAX bytes) into
 * out; "" when it has none. */
int store_player_settings(struct store_reader *reader, const char *player_id,
                          char out[STORE_SETTINGS_MAX + 1]);

/* The best ratings of a category that are not provisional as they stand at now_ms (wall clock:
 * the deviation grown since each player's last game, rating_at): at most limit (1..100) into
 * out, as stored (updated_at with them). Banned and closed players are left out. */
int store_leaderboard(struct store_reader *reader, int category, int limit, int64_t now_ms,
                      struct store_leader *out, int *count);

/* A player's rating after one of its rated games. */
struct store_rating_point {
    int category; /* enum rating_category */
    int64_t at;   /* when the game ended (wall ms) */
    int rating;   /* the rating it brought (before + diff, rounded as stored) */
};

#define STORE_RATING_HISTORY_MAX 500

/* player_id's ratings after each of its last max (1..STORE_RATING_HISTORY_MAX) rated games,
 * oldest first, into out. */
int store_rating_history(struct store_reader *reader, const char *player_id, int max,
                         struct store_rating_point *out, int *count);

/* ---- moderation (docs/moderation.md) ---- */

/* A player another blocks, or a player of a report or a log entry: id and shown name. */
struct store_named {
    char id[STORE_ID_MAX + 1];
    char name[STORE_NAME_MAX + 1];
};

/* The players player_id blocks, oldest first: at most max into out. */
int store_blocks(struct store_reader *reader, const char *player_id, int max,
                 struct store_named *out, int *count);

struct store_report {
    int64_t id;
    struct store_named reporter, target;
    enum store_report_kind kind;
    char game_id[STORE_ID_MAX + 1]; /* "" for none */
    char text[STORE_NOTE_MAX + 1];
    int64_t created_at;
    int64_t closed_at; /* 0: open */
    struct store_named closed_by;
    char note[STORE_NOTE_MAX + 1];
};

/* Reports, newest first: the open ones, or the closed ones: at most max into out. */
int store_reports(struct store_reader *reader, bool closed, int max, struct store_report *out,
                  int *count);

struct store_mod_entry {
    int64_t id;
    int64_t at;
    struct store_named moderator; /* id "" for the server's configuration */
    enum store_mod_action action;
    struct store_named target; /* id "" for none */
    int64_t report_id;         /* 0 for none */
    char note[STORE_NOTE_MAX + 1];
};

/* The moderation log, newest first: every entry, or those about target_id (when not NULL): at
 * most max into out. */
int store_mod_log(struct store_reader *reader, const char *target_id, int max,
                  struct store_mod_entry *out, int *count);

#endif
