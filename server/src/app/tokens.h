/*
 * Personal API access tokens over the WebSocket protocol (docs/protocol.md, "API access
 * tokens"), as lichess has them: an account creates tokens for the HTTP API, each with a
 * description and a set of scopes (app/auth.h), and sends them as "Authorization: Bearer
 * <token>" (the HTTP API checks them with store_find_api_token, store/read.h).
 *
 * - api_token_create {description, scopes}: a new token; the reply, api_token_created, carries
 *   its text, shown this once (only its hash is stored), and its info: a public id (the first
 *   bytes of the hash, as sessions have), the description, the scopes written in one order,
 *   when it was created.
 * - api_tokens_list: the account's working tokens, newest first, without their text.
 * - api_token_revoke {token_id}: one of them stops working (the HTTP API reads tokens from the
 *   database, and may keep one it has just read for a few seconds).
 *
 * Only an account may ask (ACCOUNT_REQUIRED for a guest or a bot; a bot's own tokens already
 * work on the HTTP API with the scope bot:play); unknown scopes get BAD_SCOPES, a token beyond
 * API_TOKENS_PER_ACCOUNT TOO_MANY_TOKENS, an id that is none of the account's working tokens
 * TOKEN_NOT_FOUND. Changes go through the store's writer (the account and the limit are
 * checked there, in the same transaction) and are answered with their commit; deleting the
 * account revokes its tokens in the deletion's transaction (app/manage.h).
 *
 * Loop thread.
 */
#ifndef SERVER_APP_TOKENS_H
#define SERVER_APP_TOKENS_H

#include "proto/proto.h"
#include "store/store.h"

struct conn;
struct server;
struct tokens;

/* Working API tokens an account may have (and that api_tokens_list shows). */
#define API_TOKENS_PER_ACCOUNT 50

/* Returns NULL when memory runs out. */
struct tokens *tokens_create(void);
void tokens_free(struct tokens *tokens);

/* Handles api_token_create, api_tokens_list and api_token_revoke. Returns 0 (the reply comes
 * later, or was sent) or an error code. */
int tokens_handle(struct conn *c, const struct proto_request *req);

/* A result from the store; results of other modules' requests are ignored. */
void tokens_on_result(struct server *srv, const struct store_result *result);

/* A connection closed: its pending requests go on, without a reply. */
void tokens_conn_gone(struct server *srv, struct conn *c);

#endif
