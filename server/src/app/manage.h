/*
 * What an account's owner manages over the WebSocket protocol (docs/protocol.md, "Accounts"):
 *
 * - password_change {current, new}: the current password is verified, the new one must follow
 *   the rules of register; then every other session of the account is revoked.
 * - sessions_list: the account's working session tokens, each by a public id (the first bytes of
 *   its token's hash), when it was created and last said hello, and which is this connection's.
 * - session_revoke {session}: one of them stops working; sessions_revoke_all: all but this
 *   connection's.
 * - account_delete {password}: the account and the bots it owns are deleted: their games stay in
 *   the archive under the name "[deleted]" with no player, their tokens are revoked, their
 *   ratings leave the leaderboard, and their usernames stay reserved. Refused while one of them
 *   plays a game (ACCOUNT_IN_GAME); their open seeks and challenges are cancelled first.
 *
 * Only an account may ask (ACCOUNT_REQUIRED for a guest or a bot). Password checks count against
 * the login limits of the account's username and the client's address (accounts.h), and run on
 * the password thread (password.h): the account's hash is read on a reader thread (reads.h), then
 * verified, then (a new password) hashed, then the change is written; the reply comes with its
 * commit. A revoked session's connections on this node get BAD_TOKEN and close (1008) at once;
 * on other nodes of a site, its next hello is refused (an account's session is checked in the
 * database at every hello, dispatch.c).
 *
 * Loop thread.
 */
#ifndef SERVER_APP_MANAGE_H
#define SERVER_APP_MANAGE_H

#include <stdint.h>

#include "app/password.h"
#include "proto/proto.h"
#include "store/store.h"

struct conn;
struct server;
struct manage;

/* Sessions listed at most (the most recently used). */
#define MANAGE_SESSIONS_SHOWN 50

/* Returns NULL when memory runs out. */
struct manage *manage_create(void);
void manage_free(struct manage *manage);

/* Handles password_change, sessions_list, session_revoke, sessions_revoke_all and
 * account_delete. Returns 0 (the reply comes later) or an error code. */
int manage_handle(struct conn *c, const struct proto_request *req, int64_t now_ms);

/* A result from the store or the password thread; results of other modules' requests are
 * ignored. */
void manage_on_result(struct server *srv, const struct store_result *result);
void manage_on_password(struct server *srv, const struct password_result *result);

/* A connection closed: its pending requests go on, without a reply. */
void manage_conn_gone(struct server *srv, struct conn *c);

/* A connection said hello with an account's session token: when it was last seen is written
 * (after the welcome; nothing waits for it). */
void manage_session_seen(struct conn *c);

#endif
