/*
 * Bot accounts over the WebSocket protocol (docs/bots.md):
 *
 * - bot_create {username}: a registered player creates a bot account it owns; the reply carries
 *   the bot's first token, shown this once (only its hash is stored).
 * - bot_token_create {username}: another token for one of the player's bots.
 * - bot_token_revoke {username}: every token of one of the player's bots stops working, and the
 *   bot's open connections are closed.
 * - bots_list (a read, in archive.c): the player's bots with their working tokens.
 *
 * A bot connects to /ws with a token (an "Authorization: Bearer" header, or hello's token). Bot
 * tokens are never cached in the world: each hello with one is checked against the database,
 * so a revoked token stops working at once.
 *
 * Every change goes through the store's writer (ownership and the per-account limit are checked
 * there, in the same transaction); the reply comes with its commit. Loop thread.
 */
#ifndef SERVER_APP_BOTS_H
#define SERVER_APP_BOTS_H

#include "proto/proto.h"
#include "store/store.h"

struct conn;
struct server;
struct bots;

/* Bots an account may own. */
#define BOTS_PER_ACCOUNT 20

/* Returns NULL when memory runs out. */
struct bots *bots_create(void);
void bots_free(struct bots *bots);

/* Handles bot_create, bot_token_create and bot_token_revoke. Returns 0 (the reply comes after
 * the commit) or an error code. */
int bots_handle(struct bots *bots, struct conn *c, const struct proto_request *req);

/* A result from the store; results of other modules' requests are ignored. */
void bots_on_result(struct bots *bots, struct server *srv, const struct store_result *result);

/* A connection closed: its pending requests will get no reply. */
void bots_conn_gone(struct bots *bots, struct conn *c);

#endif
