/*
 * The world: every player, seek, challenge and game of this server, and the commands that change
 * them. It is the pure core's entry point: the network layer decodes a client message into a
 * struct core_cmd, calls world_apply() with the acting player and the time, and delivers the
 * events it gets back (struct core_events) to the connections each event targets. Timers work
 * the same way: world_next_deadline() says when to call world_tick() next.
 *
 * No I/O, no threads, no JSON: time comes in as arguments and randomness through the
 * configured core_random_fn, so tests replay exactly.
 *
 * Loop thread only. Pointers in events (games, players, chat lines) stay valid until the next
 * call into the world.
 */
#ifndef SERVER_CORE_WORLD_H
#define SERVER_CORE_WORLD_H

#include "core/arena.h"
#include "core/chat.h"
#include "core/errors.h"
#include "core/game.h"
#include "core/lobby.h"
#include "core/player.h"
#include "core/start.h"
#include "core/types.h"

struct world_config {
    int64_t lag_comp_ms;             /* clock allowance per move (gclock.h) */
    int64_t first_move_ms;           /* time for each side's first move before the game aborts */
    int64_t abandon_ms;              /* time away before the opponent may claim the game */
    int64_t seek_grace_ms;           /* time away before an owner's seeks and challenges go */
    int64_t guest_purge_ms;          /* time away before a guest with nothing left is forgotten
                                        (0: never); see world_tick() */
    int max_seeks_per_player;        /* seeks and challenges together */
    int max_games_per_player;        /* games in progress */
    int max_finished_games;          /* ended games kept in memory (oldest dropped first), >= 1 */
    double chat_burst;               /* chat lines a player may send at once */
    double chat_per_second;          /* and their refill rate */
    bool bots_rated_vs_humans;       /* games between a bot and a person may be rated */
    int max_arenas_per_player;       /* arena tournaments an account created not yet ended */
    int max_finished_arenas;         /* ended arenas kept in memory (oldest dropped first) */
    const struct openings *openings; /* names games' openings (borrowed, immutable), or NULL */
    core_random_fn random;           /* randomness for ids, tokens, guest names and colours */
    void *random_ctx;
};

/* Defaults used by the server (and tests that do not care). */
void world_config_defaults(struct world_config *cfg);

enum core_cmd_type {
    CORE_CMD_SEEK_CREATE,
    CORE_CMD_SEEK_CANCEL,
    CORE_CMD_SEEK_ACCEPT,
    CORE_CMD_CHALLENGE_CREATE,
    CORE_CMD_CHALLENGE_CANCEL,
    CORE_CMD_CHALLENGE_ACCEPT,
    CORE_CMD_COMPUTER_PLAY,
    CORE_CMD_MOVE,
    CORE_CMD_RESIGN,
    CORE_CMD_ABORT,
    CORE_CMD_DRAW_OFFER,
    CORE_CMD_DRAW_ACCEPT,
    CORE_CMD_DRAW_DECLINE,
    CORE_CMD_DRAW_CLAIM,
    CORE_CMD_TAKEBACK_OFFER,
    CORE_CMD_TAKEBACK_ACCEPT,
    CORE_CMD_TAKEBACK_DECLINE,
    CORE_CMD_REMATCH_OFFER,
    CORE_CMD_REMATCH_ACCEPT,
    CORE_CMD_REMATCH_DECLINE,
    CORE_CMD_ABANDON_CLAIM,
    CORE_CMD_CHAT,
    CORE_CMD_CHALLENGE_DECLINE,
    CORE_CMD_GIVE_TIME,      /* target: the game; to the actor's opponent */
    CORE_CMD_POOL_JOIN,      /* tc, rated_required: the pool (core/pool.h) */
    CORE_CMD_POOL_LEAVE,     /* whichever pool the player waits in */
    CORE_CMD_ARENA_CREATE,   /* name, tc, minutes, starts_in_ms (world_arena_create) */
    CORE_CMD_ARENA_JOIN,     /* target: the arena (also: come back after withdrawing) */
    CORE_CMD_ARENA_WITHDRAW, /* target: the arena (a pause: the score stays) */
    CORE_CMD_ARENA_BERSERK,  /* target: the game */
    CORE_CMD_COUNT
};

/* A decoded request. Strings are borrowed from the caller for the duration of the call. */
struct core_cmd {
    enum core_cmd_type type;
    const char *target;      /* game, seek or challenge id */
    const char *text;        /* move (UCI or SAN) or chat text */
    struct time_control tc;  /* seeks, challenges, computer games */
    enum color_choice color; /* seeks, challenges, computer games */
    int level;               /* computer games: 1..8 */
    int expected_ply;        /* moves: plies played before this move as the client saw it, -1 */
    bool has_lag;            /* moves: the client reported its network lag (core/gclock.h) */
    int64_t lag_ms;          /* moves: that lag */
    bool premove;            /* moves: a premove, played the moment the opponent's move came */
    enum chat_room room;     /* chat */
    bool claim_win;          /* abandon claim: the win (true) or a draw */
    const char *opponent;    /* challenges: the invited player's id, or NULL (a link) */
    bool casual;             /* seeks and challenges: never rated ("rated": false) */
    bool rated_required;     /* seeks and challenges: rated or not at all ("rated": true) */
    enum challenge_decline decline_reason; /* challenge_decline */
    /* Seeks, challenges, computer games: how the game starts (core/start.h). A fen without a
     * variant (or with "standard") makes the game fromPosition. */
    enum game_variant variant;
    const char *fen;   /* fromPosition: the position */
    bool has_chess960; /* Chess960: the array asked for ("position"); else one is drawn */
    int chess960;
    const char *name;     /* arena_create: the tournament's name */
    int minutes;          /* arena_create: its length */
    int64_t starts_in_ms; /* arena_create: from now to its start */
};

enum core_event_type {
    CORE_EV_GAME_STARTED,       /* game: full state to its players */
    CORE_EV_MOVE,               /* game, move */
    CORE_EV_GAME_ENDED,         /* game (result and reason are in it) */
    CORE_EV_OFFER,              /* game, offer, color (the maker) */
    CORE_EV_OFFER_DECLINED,     /* game, offer, color (the one declining) */
    CORE_EV_TAKEBACK,           /* game, undone plies */
    CORE_EV_TIME_GIVEN,         /* game, color (the receiver) */
    CORE_EV_PRESENCE,           /* game, color, player (connected or away) */
    CORE_EV_CHAT,               /* game, room, chat */
    CORE_EV_REMATCH,            /* game (the old one; rematch_id names the new one) */
    CORE_EV_SEEK_ADDED,         /* seek */
    CORE_EV_SEEK_REMOVED,       /* seek */
    CORE_EV_CHALLENGE_CREATED,  /* seek */
    CORE_EV_CHALLENGE_REMOVED,  /* seek, removal (to the owner, and to the invited player) */
    CORE_EV_CHALLENGE_RECEIVED, /* seek: to the invited player */
    CORE_EV_POOL_JOINED,        /* pool, waiting: to the player who joined */
    CORE_EV_POOL_LEFT,          /* to the player who left (pairing is told by GAME_STARTED) */
    CORE_EV_ARENA_CREATED,      /* arena: to its creator (player; NULL for the operator's) */
    CORE_EV_ARENA_PLAYER,       /* arena, player: joined, came back or withdrew, or was
                                   withdrawn by its aborted game (its entry) */
    CORE_EV_ARENA_STATUS,       /* arena: started or finished (to nobody: watchers get
                                   arena_standings) */
    CORE_EV_BERSERK,            /* game, color: that side went berserk */
};

/* Who receives an event. */
enum core_target {
    CORE_TO_GAME,            /* the game's players and spectators */
    CORE_TO_GAME_PLAYERS,    /* the game's two players */
    CORE_TO_GAME_SPECTATORS, /* spectators who are not players */
    CORE_TO_PLAYER,          /* every connection of event.player */
    CORE_TO_LOBBY,           /* connections subscribed to the seek list */
};

struct core_event {
    enum core_event_type type;
    enum core_target target;
    struct game *game;
    uint32_t version;      /* the game's version after this event */
    struct player *player; /* CORE_TO_PLAYER's recipient; PRESENCE: whose presence */
    int color;
    enum game_offer offer;
    int undone;             /* TAKEBACK: plies taken back */
    bool connected;         /* PRESENCE */
    int64_t claim_after_ms; /* PRESENCE when away: ms until the opponent may claim; -1: never
                               (a game without a clock) */
    enum chat_room room;    /* CHAT */
    const struct chat_line *chat;
    struct game_move_info move;
    struct seek seek;                      /* a copy: the seek itself may be gone */
    enum challenge_removal removal;        /* CHALLENGE_REMOVED */
    enum challenge_decline decline_reason; /* CHALLENGE_REMOVED by a decline */
    const struct pool *pool;               /* POOL_JOINED */
    int waiting;                           /* POOL_JOINED: players waiting in it */
    struct world_arena *arena;             /* ARENA_* */
};

/* Events produced by one call. `reply` is the index of the event that answers the request (it
 * also goes to the requesting connection, with its request id), or -1. */
struct core_events {
    struct core_event *items;
    int count;
    size_t capacity;
    int reply;
};

void core_events_reset(struct core_events *events);
void core_events_free(struct core_events *events);

struct world;

/* Returns NULL when memory runs out. The config is copied. */
struct world *world_create(const struct world_config *cfg);
void world_destroy(struct world *world);

/* A new guest with a random id, name ("Guest" and digits, or `name` when given) and token.
 * Returns NULL when memory runs out. */
struct player *world_player_create(struct world *world, const char *name, int64_t now_ms);

/*
 * A player known from the database (restored at startup, or returning with a stored token): id
 * and name as stored; token (may be NULL) is mapped to it. Marked stored. Returns NULL when
 * the id is taken or memory runs out.
 */
struct player *world_player_restore(struct world *world, const char *id, const char *name,
                                    const char *token, int64_t now_ms);

/* Maps token (at most PLAYER_TOKEN_LEN) to p, replacing p's previous token. Returns 0, or
 * -CORE_ERR_NO_MEMORY (also when another player holds it). */
int world_player_set_token(struct world *world, struct player *p, const char *token);

/* Unmaps p's token (a logout): only the database can identify it again. */
void world_player_forget_token(struct world *world, struct player *p);

/*
 * Adds a game in progress rebuilt by game_restore() (core/restore.h): the world takes ownership
 * of the malloc'd game and references to its players, and arms its timers. No events. Returns 0
 * or -CORE_ERR_NO_MEMORY (id taken or memory: the caller still owns the game).
 */
int world_restore_game(struct world *world, struct game *game);

struct player *world_player_by_token(const struct world *world, const char *token);
struct player *world_player_by_id(const struct world *world, const char *id);

/*
 * Blocks (on) or unblocks another player by id, in memory (the database keeps the list; the
 * application loads it with the player). Returns 0 or -CORE_ERR_NO_MEMORY.
 */
int world_player_block(struct world *world, struct player *p, const char *id, bool on);

/* Whether p blocks the player with this id. */
bool world_player_blocks(const struct player *p, const char *id);

/*
 * Takes a banned player out of play at now: removes its seeks, its challenges and those made to
 * it, and ends its games (aborted when still abortable, else resigned). Marks it banned. Events
 * as for commands.
 */
void world_player_ban(struct world *world, struct player *p, int64_t now_ms,
                      struct core_events *out);

/* A connection identified as the player opened or closed. The first connection back emits
 * presence events to the player's games and keeps their seeks; the last one going schedules
 * the seeks' removal and tells the opponents. */
void world_player_attach(struct world *world, struct player *player, int64_t now_ms,
                         struct core_events *out);
void world_player_detach(struct world *world, struct player *player, int64_t now_ms,
                         struct core_events *out);

/*
 * Applies a player's command at now. Returns 0 or a negative enum core_error. Events (for
 * example a game ended on time just before the command) may be produced even when an error is
 * returned: deliver them either way. out is reset first.
 */
int world_apply(struct world *world, struct player *actor, const struct core_cmd *cmd,
                int64_t now_ms, struct core_events *out);

/* The next instant world_tick() has work (0: now, ended games beyond max_finished_games to
 * drop), or GCLOCK_NEVER. */
int64_t world_next_deadline(const struct world *world);

/* Runs everything due at now: flags, first-move aborts, seek expiry; drops the oldest ended
 * games beyond the limit. out is reset first. */
void world_tick(struct world *world, int64_t now_ms, struct core_events *out);

/* Sets the offset from monotonic to wall-clock milliseconds (for dates people read). */
void world_set_wall_offset(struct world *world, int64_t wall_minus_mono_ms);

struct game *world_game(const struct world *world, const char *id);
struct seek *world_seek(const struct world *world, const char *id);

/* Live games, newest first: the first, and the one after g. */
struct game *world_live_first(const struct world *world);
static inline struct game *world_live_next(const struct game *game) {
    return game->list_next;
}

/* Open seeks and challenges in creation order. */
struct seek *world_seek_first(const struct world *world);

/*
 * True when a game between these players with this time control counts for ratings: both are
 * registered accounts (bots are too), the game has a clock, and not a bot against a person
 * unless bots_rated_vs_humans. The world decides it when a game starts (game->rated).
 */
bool world_rated_pairing(const struct player *white, const struct player *black,
                         const struct time_control *tc, bool bots_rated_vs_humans);

/* ---- the computer ---- */

#define WORLD_COMPUTER_LEVELS 8

/* The player the built-in engine plays as at a level (1..8), or NULL. */
struct player *world_computer(const struct world *world, int level);

/* The level of the computer to move in a game in progress, or 0 when a person is to move. */
int world_computer_to_move(const struct game *game);

/*
 * Plays the computer's move, found for the position after `ply` plies whose key is `key`.
 * Returns 0, or -GAME_NOT_FOUND, -GAME_OVER, -NOT_YOUR_TURN (a person is to move), -STALE_PLY
 * (the game is no longer in that position), -ILLEGAL_MOVE. Even on error `out` may hold events
 * (a flag that fell): deliver them.
 */
int world_computer_move(struct world *world, const char *game_id, int ply, uint64_t key,
                        chess_move move, int64_t now_ms, struct core_events *out);

/* ---- arena tournaments (core/arena.h has the rules) ---- */

#define WORLD_ARENA_NAME_MIN      2
#define WORLD_ARENA_NAME_MAX      ARENA_NAME_MAX
#define WORLD_ARENA_MINUTES_MAX   720
#define WORLD_ARENA_STARTS_IN_MAX (7LL * 24 * 3600 * 1000)
#define WORLD_ARENA_PAIR_MS       1000 /* between pairing waves while players wait */

enum world_arena_status { WORLD_ARENA_CREATED, WORLD_ARENA_STARTED, WORLD_ARENA_FINISHED };

/*
 * An arena tournament of this server: from its start to its end every joined player who is not
 * in a game (nor withdrawn, nor disconnected) is paired by the standings (arena_pair_waiting)
 * in waves every WORLD_ARENA_PAIR_MS, and at once when one of its games ends; the games start
 * like any other (rated when both players' pairing is, game->arena_id set), and each end is
 * scored (arena_record). At the end pairing stops; once its last game ended it is finished.
 */
struct world_arena {
    char id[ARENA_ID_LEN + 1];
    char name[WORLD_ARENA_NAME_MAX + 1];
    char creator[PLAYER_ID_LEN + 1]; /* "" for the operator's (scheduled) arenas */
    struct time_control tc;
    bool rated;
    int64_t starts_wall_ms;
    int minutes;
    enum world_arena_status status;
    struct arena arena;       /* players, scores; its times are monotonic */
    int games_playing;        /* its games in progress */
    uint32_t version;         /* bumped by every change of its state or standings */
    int64_t next_pair_ms;     /* the next pairing wave (monotonic), while started */
    struct world_arena *next; /* the world's list, in creation order */
};

/* An arena to create (world_arena_create) or restore (world_arena_restore). */
struct world_arena_spec {
    const char *id; /* restore: its stored id; create: NULL (a new one) */
    const char *name;
    const char *creator; /* NULL or "" for the operator */
    struct time_control tc;
    bool rated;
    int64_t starts_wall_ms;
    int minutes;
};

/*
 * Creates an arena (the operator's: creator NULL; else the actor's, checked against the limits:
 * -ARENA_NEEDS_ACCOUNT, -TOO_MANY_ARENAS). -ARENA_BAD_SETTINGS for a name, clock, length or
 * start out of bounds. Emits ARENA_CREATED (the reply). *created (may be NULL) gets it.
 */
int world_arena_create(struct world *world, struct player *creator,
                       const struct world_arena_spec *spec, int64_t now_ms, struct core_events *out,
                       struct world_arena **created);

/*
 * Restoring at startup (no events): an arena as stored, with its status; its players in joining
 * order (world_arena_restore_player); then its finished games in the order they ended
 * (world_arena_restore_result), replayed through arena_record. Games in progress restored by
 * world_restore_game() with their arena_id count as playing. Return 0, -ARENA_NOT_FOUND or
 * -NO_MEMORY.
 */
int world_arena_restore(struct world *world, const struct world_arena_spec *spec,
                        enum world_arena_status status, int64_t now_ms, struct world_arena **out);
int world_arena_restore_player(struct world *world, const char *arena, const char *player,
                               const char *name, int rating, bool paused, int64_t now_ms);
int world_arena_restore_result(struct world *world, const char *arena, const char *white,
                               const char *black, enum chess_result result, const bool berserk[2],
                               int plies, int64_t now_ms);

struct world_arena *world_arena(const struct world *world, const char *id);

/* The arenas in creation order (finished ones too, up to max_finished_arenas). */
struct world_arena *world_arena_first(const struct world *world);

/* The game in progress a player plays in this arena, or NULL. */
struct game *world_arena_game_of(const struct world *world, const struct world_arena *a,
                                 const struct player *p);

struct world_stats {
    int players;
    int players_online;
    int games_live;
    int games_ended_kept;
    int seeks; /* listed seeks */
    int challenges;
    uint64_t moves_total;
    uint64_t games_started_total;
    uint64_t games_ended_total;
    uint64_t guests_forgotten_total; /* guests dropped from memory after guest_purge_ms away */
};

void world_stats(const struct world *world, struct world_stats *out);

#endif
