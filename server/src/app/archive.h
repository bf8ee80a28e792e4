/*
 * The archive, over WebSocket and HTTP (docs/protocol.md): players' profiles with their ratings,
 * a player's games page by page (newest first), one stored game with its moves and clocks, the
 * FEN at any ply, PGN of one game or of all a player's games, leaderboards, and PGN import.
 * Reads go to the database (what is committed) on the store's reader threads (reads.h): the
 * handlers return at once and the answer comes later; a player in memory shows its current
 * ratings.
 *
 * HTTP endpoints (GET):
 *   /api/players/<id>                 profile          /api/users/<username>   profile
 *   /api/players/<id>/games?page=&limit=               games, newest first
 *   /api/players/<id>/games.pgn       the player's ended games, oldest first, streamed
 *   /api/games/<id>, /api/games/<id>.pgn               games no longer in memory (api.c serves
 *                                                      the ones that are)
 *   /api/games/<id>/fen/<ply>         the position after ply plies
 *   /api/leaderboard/<category>?limit=
 *
 * Loop thread.
 */
#ifndef SERVER_APP_ARCHIVE_H
#define SERVER_APP_ARCHIVE_H

#include <stdbool.h>

#include "proto/proto.h"

struct conn;
struct server;
struct net_http;

/* player_get, games_list, game_record, leaderboard, pgn_import. Returns 0 (the reply comes
 * once the read is done; the connection's later messages wait) or an error code. */
int archive_handle(struct conn *c, const struct proto_request *req, int64_t now_ms);

/* Serves path when it is one of the archive's endpoints: returns true and sets *rc to what the
 * HTTP callback returns; false for any other path. */
bool archive_http(struct server *srv, struct net_http *req, const char *path, int *rc);

/* lichess's /api/games/user/<username>: the account's ended games, oldest first, as PGN or (ndjson)
 * lichess's game objects one per line (with "opening" when opening is true: lichess's
 * opening=true), at most max (0: all), streamed in batches. The PGN always has the ECO and Opening
 * tags of a game that has a named opening. Returns what the HTTP callback returns. */
int archive_http_user_games(struct server *srv, struct net_http *req, const char *username,
                            bool ndjson, long max, bool opening);

/* GET /api/tournament/{id}/games: an arena tournament's ended games, oldest first, as
 * archive_http_user_games() sends a user's (the caller checked that the arena exists). */
int archive_http_arena_games(struct server *srv, struct net_http *req, const char *arena_id,
                             bool ndjson, long max, bool opening);

/* /api/games/<id>[.pgn] for a game the world no longer (or not yet) holds. Returns what the
 * HTTP callback returns. */
int archive_http_game(struct server *srv, struct net_http *req, const char *id, bool pgn);

/* GET /api/games/{id}[.pgn] for an ended game still in memory: state (its GameFull JSON) or pgn
 * (its PGN text, pgn_len bytes, malloc'd), as the world has it, both consumed, sent with the
 * game's computer analysis read from the database (a PGN then written from the stored game,
 * annotated). Returns 0 or -1 as archive_http_game(). */
int archive_http_ended_game(struct server *srv, struct net_http *req, const char *id, json_t *state,
                            char *pgn, size_t pgn_len);

#endif
