/*
 * Reads: small indexed queries on the loop's read-only connection (a WAL reader never waits for
 * the writer): identities by token hash, accounts by username, games with their moves, a
 * player's games page by page, leaderboards, and the live games to restore at startup.
 *
 * Reads see what is committed. Loop thread only (or the main thread before store_start), as the
 * read connection has one owner. Functions return 0 or a negative enum store_status.
 */
#ifndef SERVER_STORE_READ_H
#define SERVER_STORE_READ_H

#include "store/store.h"

/* Who a token, a username or an id names. */
struct store_identity {
    char player_id[STORE_ID_MAX + 1];
    char name[STORE_NAME_MAX + 1];
    char username[STORE_USERNAME_MAX + 1]; /* "" for guests */
    bool bot;
    bool bot_token;                               /* found by a bot token */
    struct rating ratings[RATING_CATEGORY_COUNT]; /* rating_initial() where none yet */
    int64_t created_at;
};

/* The identity holding this token (hash), unless the token was revoked. -NOT_FOUND otherwise. */
int store_find_token(struct store *store, const uint8_t hash[STORE_HASH_LEN],
                     struct store_identity *out);

/* The account with this (lower-case) username and its password hash. -NOT_FOUND otherwise. */
int store_find_account(struct store *store, const char *username, struct store_identity *out,
                       char password_hash[STORE_PWHASH_MAX]);

/* A player by id (guest or account). -NOT_FOUND otherwise. */
int store_find_player(struct store *store, const char *player_id, struct store_identity *out);

/* A game as stored. */
struct store_game {
    char id[STORE_ID_MAX + 1];
    char status[12];                     /* live, ended, imported */
    char player_id[2][STORE_ID_MAX + 1]; /* "" for imported games */
    char name[2][STORE_NAME_MAX + 1];
    bool bot[2];                         /* the player is a bot */
    char initial_fen[STORE_FEN_MAX + 1]; /* "" for the standard start */
    bool unlimited;
    int64_t initial_ms, increment_ms;
    bool rated;
    int category; /* RATING_NONE without a clock */
    bool has_ratings;
    int rating[2], rating_diff[2]; /* rated games; diffs once ended */
    char result[8];                /* "" while live */
    char termination[STORE_TERM_MAX];
    int64_t created_at, ended_at;
    int ply_count;
    struct store_move_row *moves; /* with_moves: ply_count rows, malloc'd; else NULL */
};

void store_game_free(struct store_game *game);

/* One game with its moves. -NOT_FOUND when there is none. */
int store_read_game(struct store *store, const char *id, struct store_game *out);

/*
 * A player's games (live, ended; not imported), newest first: page `page` (from 1) of
 * per_page (1..100) headers without moves into out[per_page]; *count receives how many and
 * *more whether another page follows.
 */
int store_player_games(struct store *store, const char *player_id, int page, int per_page,
                       struct store_game *out, int *count, bool *more);

/*
 * Calls fn for each of a player's ended games, oldest first, with its moves (freed after the
 * call). Stops early when fn returns non-zero (returned). At most `limit` games.
 */
int store_each_player_game(struct store *store, const char *player_id, int limit,
                           int (*fn)(void *ctx, const struct store_game *game), void *ctx);

/* Calls fn for each live game (with moves), oldest first, and the identities of its players.
 * For restoring at startup. Stops early when fn returns non-zero (returned). */
int store_load_live(struct store *store,
                    int (*fn)(void *ctx, const struct store_game *game,
                              const struct store_identity players[2]),
                    void *ctx);

struct store_leader {
    char player_id[STORE_ID_MAX + 1];
    char name[STORE_NAME_MAX + 1];
    struct rating rating;
};

/* The best non-provisional ratings of a category: at most limit (1..100) into out. */
int store_leaderboard(struct store *store, int category, int limit, struct store_leader *out,
                      int *count);

#endif
