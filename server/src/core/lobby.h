/*
 * The lobby: open seeks (listed for everyone, first come first served) and challenges by link
 * (the same thing, but unlisted, with a longer id: whoever has the link may accept). Kept in
 * creation order and by id. A seek whose owner has left is removed after a grace period; the
 * expiry heap itself lives in struct world.
 *
 * Owned by the world (loop thread).
 */
#ifndef SERVER_CORE_LOBBY_H
#define SERVER_CORE_LOBBY_H

#include "core/start.h"
#include "core/types.h"
#include "util/heap.h"
#include "util/strmap.h"

struct player;

/* Why a challenge went away (challenge_removed). */
enum challenge_removal {
    CHALLENGE_REMOVED_CANCELLED, /* by its creator */
    CHALLENGE_REMOVED_ACCEPTED,
    CHALLENGE_REMOVED_DECLINED, /* by the invited player */
    CHALLENGE_REMOVED_EXPIRED,  /* its creator left */
};

/* A declining player's reason (as lichess bots give them). */
enum challenge_decline {
    CHALLENGE_DECLINE_GENERIC,
    CHALLENGE_DECLINE_LATER,
    CHALLENGE_DECLINE_TIME_CONTROL,
    CHALLENGE_DECLINE_RATED,
    CHALLENGE_DECLINE_CASUAL,
    CHALLENGE_DECLINE_TOO_MANY_GAMES,
    CHALLENGE_DECLINE_COUNT
};

struct seek {
    char id[CHALLENGE_ID_LEN + 1];
    struct player *owner;
    struct time_control tc;
    struct game_start start; /* Chess960 with chess960 -1: an array drawn when a game starts */
    enum color_choice color; /* the colour the owner asked for */
    int final_color;         /* the owner's colour if known yet (CHESS_WHITE/BLACK), else -1 */
    bool is_challenge;       /* unlisted, accepted through its link */
    struct player *target;   /* a direct challenge: only this player may accept; else NULL */
    bool casual;             /* asked to be unrated */
    bool rated_required;     /* asked to be rated: only a pairing that can be rated starts */
    bool rated;              /* direct challenges: the game would count for ratings */
    int64_t created_wall_ms;
    struct heap_node expiry; /* set while the owner is away */
    struct seek *prev, *next;
};

struct lobby {
    struct strmap by_id;
    struct seek *head, *tail; /* creation order */
    int listed;               /* public seeks */
    int total;
};

/* Adds a seek (the lobby takes ownership). Returns 0 or -CORE_ERR_NO_MEMORY. */
int lobby_add(struct lobby *lobby, struct seek *seek);

/* Unlinks a seek; the caller frees it. */
void lobby_remove(struct lobby *lobby, struct seek *seek);

/* The seek or challenge with this id, or NULL. */
struct seek *lobby_find(const struct lobby *lobby, const char *id);

/* Frees every seek. */
void lobby_free(struct lobby *lobby);

#endif
