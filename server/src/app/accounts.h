/*
 * Accounts over the WebSocket protocol (docs/protocol.md, docs/persistence.md):
 *
 * - register {username, password}: the connection's player (a guest) becomes an account and
 *   keeps its id, games and token; its shown name becomes the username.
 * - login {username, password}: a new session token for the account (then hello with it).
 *   Limited per username and per client address against guessing; a wrong username costs the
 *   same time as a wrong password.
 * - logout: the connection's session token stops working.
 *
 * Accounts are looked up on a reader thread (reads.h), passwords hashed and verified on the
 * password thread (app/password.h, Argon2id); the reply comes when the result and, for writes, the
 * commit are back. Requests wait in a list keyed by a cookie; a connection that closes meanwhile
 * just gets no reply.
 *
 * Loop thread.
 */
#ifndef SERVER_APP_ACCOUNTS_H
#define SERVER_APP_ACCOUNTS_H

#include "app/password.h"
#include "proto/proto.h"
#include "store/store.h"

struct conn;
struct server;
struct accounts;

/* Returns NULL when memory runs out. */
struct accounts *accounts_create(void);
void accounts_free(struct accounts *accounts);

/* Handles register, login and logout. Returns 0 (the reply comes later) or an error code. */
int accounts_handle(struct conn *c, const struct proto_request *req, int64_t now_ms);

/* A result from the store for a pending request. */
void accounts_on_result(struct server *srv, const struct store_result *result);

/* A result from the password thread for a pending request. */
void accounts_on_password(struct server *srv, const struct password_result *result);

/* A connection closed: its pending requests will get no reply. */
void accounts_conn_gone(struct server *srv, struct conn *c);

/* One attempt at the password of the account named name (a password change or an account
 * deletion, manage.h), from c's address: true when the login limits of that username and address
 * allow it (it counts as a login attempt). */
bool accounts_password_attempt(struct conn *c, const char *name, int64_t now_ms);

#endif
