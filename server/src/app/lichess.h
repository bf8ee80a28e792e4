/*
 * lichess's JSON shapes for the HTTP API (docs/http-api.md), made from this server's own protocol
 * messages (docs/protocol.md). The HTTP API is a second transport over the same application: an
 * API stream is a connection that receives what a WebSocket client would, and this file says it
 * in lichess's words (gameFull, gameState, gameStart, challenge, ...).
 *
 * Pure functions on jansson values; no I/O, any thread. Functions that build a value return a new
 * reference, or NULL when memory runs out or the input lacks what they need.
 */
#ifndef SERVER_APP_LICHESS_H
#define SERVER_APP_LICHESS_H

#include <jansson.h>
#include <stdbool.h>

/* The clock of unlimited games in gameState (lichess's "no clock" figure). */
#define LICHESS_NO_CLOCK_MS 2147483647

/* lichess's user id: the lower-case name (ids in our protocol are the server's own). out: at
 * least 32 bytes. */
void lichess_user_id(const char *name, char *out, size_t size);

/* A time control ({"minutes", "increment"} or "unlimited") as lichess's speed ("ultraBullet",
 * "bullet", "blitz", "rapid", "classical", "correspondence"). */
const char *lichess_speed(const json_t *time);

/* The name of the perf of a game of this variant (our key, NULL: standard) and time control:
 * the variant's own for Chess960, Three-check and King of the Hill ("Chess960"), else its
 * speed's ("Blitz"). */
const char *lichess_perf_name(const char *variant, const json_t *time);

/* One of our player objects ({"id", "name", "bot", "rating", ...}) as lichess's light user:
 * {"id", "name", "title"?, "rating"?, "provisional"?}. */
json_t *lichess_player(const json_t *ours);

/* lichess's status name for a game state or game_end ("started", "mate", "resign", "draw",
 * "outoftime", "aborted", "stalemate", "timeout") and its number (20, 30, ...). */
const char *lichess_status(const json_t *game);
int lichess_status_id(const char *status);

/* A challenge object (challenge_created / challenge_received's "challenge") as lichess's. origin:
 * the site's address ("http://host") for "url". removed: a challenge_removed message for
 * declineReason, or NULL. */
json_t *lichess_challenge(const json_t *ours, const char *origin, const json_t *removed);

/* The event stream's gameStart / gameFinish "game" object, for the player me (its id in our
 * protocol), from a full game state. */
json_t *lichess_game_event(const json_t *game, const char *me);

/* A game stream's first line: gameFull, from a full game state. */
json_t *lichess_game_full(const json_t *game);

/* A game stream's gameState, from a full game state. */
json_t *lichess_game_state(const json_t *game);

/* Applies one of our game events (move, takeback, time_given, berserk, offer, offer_declined,
 * game_end) to a full game state in place, so that it stays the game as it is. Returns true when
 * lichess tells that change with a gameState (every one of these events). Other messages: false,
 * nothing changed. */
bool lichess_apply(json_t *game, const json_t *event);

/* A stored game as lichess's game export (/api/games/user/..., application/x-ndjson) has it. */
struct store_game;
json_t *lichess_stored_game(const struct store_game *g);

struct store_rating_point;

/* GET /api/user/{username}/rating-history: [{"name": "Bullet", "points": [[year, month from 0,
 * day, rating], ...]}, ...] for each of our rating categories, one point a day (the day's last
 * rating, UTC), from the ratings after each rated game (oldest first). NULL when memory runs
 * out. */
json_t *lichess_rating_history(const struct store_rating_point *points, int count);

/* A game stream's chatLine from our chat event ({"room", "from", "text"}). */
json_t *lichess_chat_line(const json_t *event);

#endif
