/*
 * A player: a guest identity (id, display name, secret token) with its presence (how many
 * connections it has, since when it is away), the games it is playing and its chat allowance.
 * Registered accounts and bots (later issues) are players too.
 *
 * Owned by the world (loop thread). Games hold references (refs) to their players.
 */
#ifndef SERVER_CORE_PLAYER_H
#define SERVER_CORE_PLAYER_H

#include "core/ratelimit.h"
#include "core/rating.h"
#include "core/types.h"
#include "util/heap.h"

struct game;

struct player {
    char id[PLAYER_ID_LEN + 1];
    char name[PLAYER_NAME_MAX + 1];
    char token[PLAYER_TOKEN_LEN + 1]; /* the secret that proves the identity */
    int online;                       /* open connections identified as this player */
    int64_t offline_since_ms;         /* monotonic; meaningful while online == 0 */
    int refs;               /* games (live or kept) and pending requests that name this player */
    struct heap_node purge; /* while away: when the world checks whether to forget it */
    struct game **games;    /* games in progress, in start order */
    int game_count;
    size_t game_capacity;
    int open_seeks; /* seeks and challenges */
    struct ratelimit chat_limit;
    void *net_conns; /* owned by the network layer (its connections of this player); opaque here */
    /* Accounts and persistence (store/, docs/persistence.md). */
    bool stored;     /* the database has this player (and the token it holds now) */
    bool registered; /* an account with a username and password: may play rated games */
    bool bot;        /* a bot account (issue 8) */
    /* Quick pairing (core/pool.h). */
    bool pooled;    /* waits in a pool */
    int color_bias; /* recent games as White minus games as Black (kept within +-4) */
    char last_opponent[PLAYER_ID_LEN + 1]; /* its latest game's opponent, or "" */
    int computer_level; /* 1..8: the built-in engine playing at that level; 0 for everyone else */
    struct rating ratings[RATING_CATEGORY_COUNT];
    /* Moderation (docs/moderation.md): set from the database when the player is loaded, and by
     * moderators' actions. */
    bool admin;                        /* may moderate */
    bool banned;                       /* banned: its connections are refused */
    bool closed;                       /* an account closed by a moderator: refused too */
    bool muted;                        /* may not chat */
    char (*blocks)[PLAYER_ID_LEN + 1]; /* the players it blocks (owned, world_player_block) */
    int block_count;
    size_t block_capacity;
};

#endif
