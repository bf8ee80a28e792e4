/*
 * An account's player settings over the WebSocket protocol (docs/protocol.md, "Player
 * settings"): the board, the pieces, the site's theme and the like (app/prefs.h lists the keys),
 * kept for accounts in the store so that they follow the player to every browser.
 *
 * - After an account's welcome, the server reads its settings and sends them: settings
 *   {settings} ({} when it has none). The connection's later messages wait for that read
 *   (app/reads.h), so the settings come before any other reply.
 * - settings_set {settings}: the account's settings are replaced whole; the reply, settings,
 *   carries them as stored, after the commit.
 *
 * A guest or a bot gets ACCOUNT_REQUIRED (a guest's settings stay in its browser); settings
 * that are not an object of known keys with allowed values, or larger than PREFS_MAX_BYTES,
 * get BAD_SETTINGS with the offending key as the error's field.
 *
 * Loop thread.
 */
#ifndef SERVER_APP_SETTINGS_H
#define SERVER_APP_SETTINGS_H

#include "proto/proto.h"
#include "store/store.h"

struct conn;
struct server;
struct settings;

/* Returns NULL when memory runs out. */
struct settings *settings_create(void);
void settings_free(struct settings *settings);

/* Handles settings_set. Returns 0 (the reply comes after the commit, or was sent) or an error
 * code. */
int settings_handle(struct conn *c, const struct proto_request *req);

/* After a welcome: an account's settings are read and sent (nothing for a guest or a bot, or
 * without a database). */
void settings_hello(struct conn *c);

/* A result from the store; results of other modules' requests are ignored. */
void settings_on_result(struct server *srv, const struct store_result *result);

/* An account's settings saved on another node of the site (settings borrowed): sent to the
 * account's connections here, as to its other pages on the node that saved them. */
void settings_push(struct server *srv, const char *player_id, const json_t *settings);

/* A connection closed: its pending requests go on, without a reply. */
void settings_conn_gone(struct server *srv, struct conn *c);

#endif
