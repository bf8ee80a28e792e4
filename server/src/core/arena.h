/*
 * Arena tournaments' rules, as lichess plays them: players join (and withdraw, or pause), and
 * from the start until the end every player who is not in a game is paired again at once with
 * someone close in the standings, never with its last opponent while another is waiting. A win
 * is worth 2 points, a draw 1; after two wins in a row a player is "on fire" and every game
 * counts double until it fails to win. A berserk player (half its clock, no increment) gets one
 * point more for a win in which it made at least ARENA_BERSERK_MIN_MOVES moves. The standings go by
 * score, then by tournament performance, then by who joined first.
 *
 * This file keeps the players, their scores and their sheets and decides the pairs; the world
 * starts the games and reports their ends. Pure: no I/O, no clock of its own (times are passed
 * in), randomness only for colours through the caller's function.
 */
#ifndef SERVER_CORE_ARENA_H
#define SERVER_CORE_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/types.h"

#define ARENA_WIN_POINTS        2
#define ARENA_DRAW_POINTS       1
#define ARENA_FIRE_AFTER        2   /* wins in a row before games count double */
#define ARENA_BERSERK_MIN_MOVES 7   /* a berserk win with at least this many own moves: +1 */
#define ARENA_SHEET_MAX         512 /* games kept on a player's sheet (the score keeps counting) */

/* A game on a player's sheet. */
struct arena_sheet_entry {
    int8_t points;
    bool fire;    /* counted double */
    bool berserk; /* the player went berserk */
};

struct arena_player {
    char id[PLAYER_ID_LEN + 1];
    char name[PLAYER_NAME_MAX + 1]; /* for the standings (the caller fills it in) */
    int rating;                     /* when it joined: for pairing ties and performance */
    int score;
    int streak; /* wins in a row */
    int games, wins, draws, losses;
    int64_t opponent_ratings; /* sum over its games */
    int color_bias;           /* games as White minus games as Black */
    char last_opponent[PLAYER_ID_LEN + 1];
    bool playing;
    bool paused; /* stays in the standings, not paired until it comes back */
    bool absent; /* not connected (the caller keeps it): not paired meanwhile, not paused */
    int64_t joined_ms;
    int64_t waiting_since_ms; /* since its last game ended (or it joined or came back) */
    struct arena_sheet_entry sheet[ARENA_SHEET_MAX];
    int sheet_len;
};

struct arena {
    int64_t starts_ms, ends_ms; /* pairing from starts_ms until ends_ms */
    struct arena_player *players;
    int count;
    size_t capacity;
};

/* A tournament from starts_ms for duration_ms. */
void arena_init(struct arena *a, int64_t starts_ms, int64_t duration_ms);
void arena_free(struct arena *a);

struct arena_player *arena_find(struct arena *a, const char *id);

/*
 * A player joins (or comes back after pausing: its score stays). Returns 0, -CORE_ERR_GAME_OVER
 * once the tournament has ended, or -CORE_ERR_NO_MEMORY.
 */
int arena_join(struct arena *a, const char *id, int rating, int64_t now_ms);

/* A player pauses (withdraws, on lichess): kept in the standings, not paired. Returns 0 or
 * -CORE_ERR_GAME_NOT_FOUND when it never joined. */
int arena_pause(struct arena *a, const char *id);

/* Whether players are paired now: between the start and the end. */
bool arena_pairing_open(const struct arena *a, int64_t now_ms);

/* A pair: indexes into a->players, White first. */
struct arena_pair {
    int white, black;
};

/*
 * Pairs the players waiting now (joined, not paused, not absent, not in a game), closest in the
 * standings first, avoiding each one's last opponent when another is waiting; colours to whoever
 * played the other colour more (a coin from random on a tie). Marks them playing. Returns the
 * number of pairs written to out (at most max): none before the start or after the end.
 */
int arena_pair_waiting(struct arena *a, int64_t now_ms, core_random_fn random, void *random_ctx,
                       struct arena_pair *out, int max);

/*
 * A tournament game ended: result (1 White won, 0 a draw, -1 Black won), whether each side went
 * berserk, and the game's plies. Scores both players (a side that was not playing it is left
 * alone). Returns the points White got, and Black's in *black_points; -1 when white or black
 * is not in the tournament.
 */
int arena_record(struct arena *a, const char *white, const char *black, int result,
                 const bool berserk[2], int plies, int64_t now_ms, int *black_points);

/* A player's tournament performance: its opponents' average rating, plus 500 times its
 * (wins - losses) / games; its own rating before its first game. */
int arena_performance(const struct arena_player *p);

/* The standings: rank[0] is the index of the leader. rank holds a->count entries. */
void arena_standings(const struct arena *a, int *rank);

/* The same in an array of its own (the caller frees it); NULL when memory runs out. */
int *arena_ranking(const struct arena *a);

#endif
