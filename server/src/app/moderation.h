/*
 * Moderation over the WebSocket protocol (docs/moderation.md):
 *
 * - Every player: report {player, kind, text?, game?}; block / unblock {player}; blocks_list.
 *   A blocked player may not challenge the blocker nor take its seeks (core/world.h), and its
 *   chat lines are not delivered to the blocker (dispatch.c).
 * - Admins: mod_action {player, action, text} (mute, unmute, ban, unban, close, reopen),
 *   report_resolve {report, text}, mod_reports, mod_log {player?}.
 *
 * Admins: the accounts named by --admin; without it, the first account registered on the site.
 * Every change goes through the store's writer, which checks again that the moderator is an
 * admin and logs the action with its moderator in the same transaction; the reply and the
 * action's effects (a banned player's games ended, its connections closed) come with the
 * commit. Loop thread.
 */
#ifndef SERVER_APP_MODERATION_H
#define SERVER_APP_MODERATION_H

#include <stdbool.h>

#include "proto/proto.h"
#include "store/read.h"
#include "store/store.h"

struct conn;
struct player;
struct server;
struct moderation;

/* Returns NULL when memory runs out. */
struct moderation *moderation_create(void);
void moderation_free(struct moderation *m);

/* Once the store runs (after persist_attach): records the --admin accounts as admins (those
 * that exist yet). */
void moderation_start(struct server *srv);

/* An account was just registered: it becomes an admin when --admin names it, or when there is
 * no --admin and no admin yet (the site's first account). */
void moderation_registered(struct server *srv, struct player *pl, const char *username);

/*
 * Applies a committed change to this node's copy of the player (when it has one): an action's
 * word from store_mod_action_name() (a ban ends its games here and closes its connections), or
 * "block" / "unblock" of other_id. For changes made on another node of the site (site.h).
 */
void moderation_apply(struct server *srv, const char *player_id, const char *change,
                      const char *other_id);

/* Handles the moderation messages. Returns 0 (the reply comes later) or an error code. */
int moderation_handle(struct conn *c, const struct proto_request *req);

/* A result from the store; results of other modules' requests are ignored. */
void moderation_on_result(struct server *srv, const struct store_result *result);

/* A connection closed: its pending requests will get no reply. */
void moderation_conn_gone(struct server *srv, struct conn *c);

#endif
