/*
 * The computer's side of the server: it watches the world's events for games where the
 * computer is to move, asks the engine worker pool (pool/pool.h) for a move, and plays the move
 * when it comes back through the loop's mailbox, if the game is still in that position. It also
 * runs analysis requests for connections ("analyse"), streaming each completed depth.
 *
 * Loop thread only, except what the pool's workers post (which only wakes the loop).
 */
#ifndef SERVER_APP_ENGINE_H
#define SERVER_APP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics/metrics.h"
#include "proto/proto.h"

struct server;
struct conn;
struct core_events;
struct pool_job_spec;

struct engine_config {
    int workers;           /* search threads; 0 turns the computer and analysis off */
    size_t memory_bytes;   /* all transposition tables together */
    size_t table_bytes;    /* one strong game's table */
    int analysis_per_conn; /* analyses one connection may run at once */
    int analysis_max_ms;   /* longest analysis a client may ask for */
};

/* One worker per online CPU, 256 MiB, 16 MiB per game, one analysis of at most 60 s. */
void engine_config_defaults(struct engine_config *cfg);

/* Starts the pool (unless cfg->workers is 0) and starts thinking in every game in progress
 * where the computer is to move (games restored from the database). Returns 0 or -1. */
int engine_attach(struct server *srv, const struct engine_config *cfg);

/* A game restored while the server runs (a dead node's, adopted: app/adopt.h): the computer
 * starts thinking if it is to move. */
struct game;
void engine_game_restored(struct server *srv, struct game *g);

/* Stops every search and joins the workers; their last results go to the mailbox, where the
 * loop drops them. Loop thread, at shutdown. */
void engine_detach(struct server *srv);

/* Frees what is left (after engine_detach and the mailbox's last drain). */
void engine_free(struct server *srv);

/* Whether games against the computer and analysis are available. */
bool engine_available(const struct server *srv);

/* After the world produced events: asks for, cancels or forgets computer moves of the games
 * they concern. */
void engine_observe(struct server *srv, const struct core_events *events);

/* A connection is going: its analyses stop. */
void engine_conn_gone(struct server *srv, struct conn *c);

/* "analyse": starts streaming analysis of a position to the connection. Returns 0 or a
 * negative protocol error. */
int engine_analyse(struct conn *c, const struct proto_request *req);

/* "analysis_stop": stops the connection's analysis (all of them without an "analysis" id). */
int engine_analysis_stop(struct conn *c, const struct proto_request *req);

/* Queues a job of another module (app/review.c: REVIEW jobs, whose events engine.c hands to
 * review_on_event()). Returns its id, or 0 when the engine is off or memory is short. */
uint64_t engine_submit(struct server *srv, const struct pool_job_spec *spec);

/* Cancels the jobs of an owner (another module's: see engine_submit). */
void engine_cancel_owner(struct server *srv, uint64_t owner);

/* Fills the engine's gauges for /metrics (zeros when the engine is off). */
void engine_fill_gauges(struct server *srv, struct metrics_gauges *g);

#endif
