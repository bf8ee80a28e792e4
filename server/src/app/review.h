/*
 * Computer analysis of finished games (docs/analysis.md): every position of an ended or
 * imported game searched once by the engine pool, to a fixed number of nodes, stored in the
 * database position by position, and judged (core/judgement.h) when read.
 *
 * A request (game_analysis_request, or POST /api/games/{id}/analysis) reads the game, then asks
 * the store to record the request, which the store refuses when the game has an analysis
 * already, when the asker has one under way (one at a time per player) or when the site's queue
 * is full; the refusal is the answer. Once recorded, each position is a REVIEW job of the pool
 * (pool/pool.h): queued after every live move and live analysis, paused while a move needs its
 * core, one thread and a cleared table each, so the same game always gets the same numbers. A
 * position's result is written as it comes; its commit is announced to the connections that
 * follow the analysis (game_analysis_progress), and the commit of the last one ends it
 * (game_analysis). Analyses under way survive a restart: the node that owns one loads it at
 * startup and searches only the positions not stored yet.
 *
 * Loop thread, except review_analysis_json(), which any thread may call. What persist.c and
 * engine.c call (loading at startup, starting, the pool's events) is in app/internal.h.
 */
#ifndef SERVER_APP_REVIEW_H
#define SERVER_APP_REVIEW_H

#include <jansson.h>
#include <stdint.h>

#include "app/config.h"
#include "proto/proto.h"
#include "store/read.h"

struct server;
struct conn;
struct pool_event;
struct store_result;
struct store_reader;
struct review;

/* The module's state; NULL when memory runs out. */
struct review *review_create(const struct review_config *cfg);
void review_free(struct review *review);

/* "game_analysis_request" and "game_analysis_get". Return 0 or a negative protocol error. */
int review_request(struct conn *c, const struct proto_request *req);
int review_get(struct conn *c, const struct proto_request *req);

/* A store result: the module takes its own (by cookie). */
void review_on_result(struct server *srv, const struct store_result *r);

/* A connection is going: it follows no analysis any more. */
void review_conn_gone(struct server *srv, struct conn *c);

/* The analysis as the protocol's GameAnalysis object (docs/protocol.md), with the game it
 * analyses (its moves, to write lines in SAN). NULL when memory runs out or the stored moves
 * do not replay. */
json_t *review_analysis_json(const struct store_game *game, const struct store_analysis *a);

#endif
