/*
 * Encoding the server's messages as JSON (jansson), and serialising them into buffers with
 * room in front for the network layer's own header (so a frame is written without copying).
 *
 * Every proto_encode_* function returns a new reference (the caller decrefs) or NULL when memory
 * runs out. Loop thread.
 */
#ifndef SERVER_PROTO_ENCODE_H
#define SERVER_PROTO_ENCODE_H

#include <jansson.h>
#include <stddef.h>

#include <chess/search.h>
#include <stdbool.h>

#include "core/openings.h"
#include "core/world.h"

/* Who looks at a game decides which chat room its full state carries. */
enum proto_viewer { PROTO_VIEWER_PLAYER, PROTO_VIEWER_SPECTATOR };

/* The message for a core event ("move", "game_end", "offer", ...) as an object (a move's is
 * read back from its text: proto_encode_event_once()). */
json_t *proto_encode_event(const struct core_event *ev, int64_t now_ms);

/* Bytes enough for the longest "dests" object (at most 218 legal moves from at most 16
 * squares, each destination 5 bytes, each origin 7) with its NUL. */
#define PROTO_DESTS_MAX 2048

/*
 * The legal destinations of the side to move as a JSON object, as lichess sends them: each
 * origin square (a1 to h8) to its destination squares in the same order, {"e2":["e3","e4"]}.
 * A castling move gives its rook's square (king takes rook) and the king's own destination (g1,
 * c1), which the server reads as the same castling unless another move from there reads the
 * same (then that square is that move, and it is listed anyway). legal: the legal moves of a
 * position; none gives {}. Writes the text with its NUL into out; returns its length.
 */
int proto_write_dests(const struct chess_move_list *legal, char out[PROTO_DESTS_MAX]);

/* The full state of a game (the object, not a message). */
json_t *proto_encode_game(const struct game *game, int64_t now_ms, enum proto_viewer viewer);

/* {"type": type, "game": full state}: "game" (watch replies) or "game_started". */
json_t *proto_encode_game_message(const char *type, const struct game *game, int64_t now_ms,
                                  enum proto_viewer viewer);

/* A short summary for lists: players, time control, ply, position, clocks. */
json_t *proto_encode_game_summary(const struct game *game, int64_t now_ms);

/* welcome: protocol, the player, its token and the full state of its games in progress. */
json_t *proto_encode_welcome(const struct player *player, int64_t now_ms);

/* The seek list (listed seeks only) for lobby subscribers. */
json_t *proto_encode_seeks(const struct world *world);

/* One challenge for the invited friend ("challenge"). */
json_t *proto_encode_challenge(const struct seek *challenge);

/* The live games, newest first, at most limit. */
json_t *proto_encode_live_games(const struct world *world, int limit, int64_t now_ms);

/* my_games: the player's games in progress (summaries with its colour, whether it is its turn
 * and the last move), those where it is its turn first, each part by its time left (least
 * first; games without a clock last), as lichess orders nowPlaying. */
json_t *proto_encode_my_games(const struct player *p, int64_t now_ms);
/* Puts my_games' entries (an array; from this node's and other nodes' my_games) in that order.
 * Returns 0 or -1 (memory: the array may have lost entries). */
int proto_my_games_sort(json_t *games);

/* Arena tournaments (core/world.h). The standings list holds the first PROTO_ARENA_STANDINGS
 * places. {"type": "arena", "arena": {...}}: the full state, with viewer's own place ("me") and
 * game in progress in it when viewer (may be NULL) joined it. {"type": "arena_standings"}: the
 * standings and status for its watchers, likewise with viewer's. {"type": "arena_list"}: every
 * arena this server keeps, in creation order. */
#define PROTO_ARENA_STANDINGS 100
json_t *proto_encode_arena(const struct world_arena *a, const struct player *viewer);
json_t *proto_encode_arena_standings(const struct world_arena *a, const struct player *viewer);
json_t *proto_encode_arena_list(const struct world *world);
/* The places of viewers (those who joined a), for another node's watchers: {player id: {"me",
 * "game"?}}, what arena_standings adds for each of them. NULL when memory runs out. */
json_t *proto_encode_arena_places(const struct world_arena *a, const struct player *const *viewers,
                                  int count);

/* {"type":"error","code","message"[,"field"]}. field may be NULL. */
json_t *proto_encode_error(int code, const char *field);

/* {"type": "spectators", "game", "count"}: how many people watch a game. */
json_t *proto_encode_spectators(const char *game, int count);

/* An opening as lichess writes it: {"eco", "name", "ply"}. */
json_t *proto_encode_opening_object(const struct opening *opening);

/* {"type": "opening", "opening": {"eco", "name", "ply"} or null}: the answer to opening_lookup
 * (opening NULL: no named position on the line). */
json_t *proto_encode_opening(const struct opening *opening);

/* {"type": type} ("pong", "ok"). */
json_t *proto_encode_simple(const char *type);

/* Sets "id" (a copy of the request's id; NULL removes it). Returns 0 or -1. */
int proto_set_id(json_t *msg, const json_t *id);

/*
 * Serialises msg compactly into a new malloc'd block: `front` bytes left free at the start,
 * then the JSON text (no NUL). Returns the block (the caller frees it) and sets *len to the
 * text's length, or NULL when memory runs out.
 */
unsigned char *proto_dump(const json_t *msg, size_t front, size_t *len);

/*
 * Encodes the message for a core event once for all its recipients: returns its text as
 * proto_dump() does (a malloc'd block, `front` bytes free, then *len bytes of text) and, when
 * msg is not NULL, sets *msg to a new reference to the same message as an object (for other
 * nodes). A move, the message sent most, is written as text directly and its object read back
 * from that text: one encoder, so the two cannot differ. Returns NULL (with *msg NULL) when
 * memory runs out.
 */
unsigned char *proto_encode_event_once(const struct core_event *ev, int64_t now_ms, size_t front,
                                       size_t *len, json_t **msg);

/* proto_encode_event_once() without the object. */
unsigned char *proto_dump_event(const struct core_event *ev, int64_t now_ms, size_t front,
                                size_t *len);

/*
 * A copy of a serialised JSON object (text, len: "{...}") with "id": id added at its end, into
 * a new block with `front` free bytes (as proto_dump()). id is a request id as proto_decode()
 * accepts it (an integer or a string). Returns NULL when memory runs out or the input is not
 * an object or id not such a value. Serialising once and adding the id to the requester's copy
 * costs a copy instead of a second serialisation.
 */
unsigned char *proto_dump_with_id(const unsigned char *text, size_t len, const json_t *id,
                                  size_t front, size_t *out_len);

/* computer_thinking: whether the computer is thinking about its move at the game's ply. */
json_t *proto_encode_thinking(const struct game *game, bool thinking);

/*
 * One line of a search: {"type": type, depth, seldepth, multipv, score {"cp"|"mate"} from
 * White's point of view, bound when not exact, nodes, nps, time_ms, pv in SAN}. The pv moves
 * are checked against root; a line is cut at the first move that does not fit.
 */
json_t *proto_encode_search_line(const char *type, const struct chess_position *root,
                                 const struct chess_search_info *info);

/* Names for JSON: "white"/"black". */
const char *proto_color_name(int color);

#endif
