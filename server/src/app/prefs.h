/*
 * Player settings as the server keeps them for accounts (docs/protocol.md, "Player settings"):
 * one JSON object of known keys, each with the values it allows, as the web client's settings
 * page offers them (client/src/features/settings/controller.ts has the same table):
 *
 *   board        "brown" | "blue" | "green" | "purple" | "grey"   the board's colours
 *   pieces       "cburnett" | "merida" | "wikimedia"             the piece set
 *   theme        "system" | "light" | "dark"                     the site's colours
 *   board_size   50..100                                         percent of the largest board
 *   coordinates  true | false
 *   animation    "none" | "fast" | "normal" | "slow"
 *   confirm_move true | false                                    a move waits for Confirm
 *   auto_queen   "always" | "never"                              promote without the chooser
 *   volume       0..100
 *   zen          true | false                                    the game page: board and clocks
 *
 * A key may be absent (the client's default applies). Pure: no I/O, no state; any thread.
 */
#ifndef SERVER_APP_PREFS_H
#define SERVER_APP_PREFS_H

#include <jansson.h>

/* The longest settings object, as compact JSON text. */
#define PREFS_MAX_BYTES 1024

/*
 * Checks a settings object a client sent: every key known, every value allowed, and its compact
 * JSON text at most PREFS_MAX_BYTES. Returns 0 with *text set to that text with its keys sorted
 * (malloc'd: the caller frees it), or -1 with *field naming what is wrong: the first unknown key
 * or key with a bad value (borrowed from obj), or "settings" when it is not an object or too
 * large. -2 when memory runs out.
 */
int prefs_check(const json_t *obj, char **text, const char **field);

/*
 * The settings object of stored text (as prefs_check wrote it): a new object with the keys
 * that are known and allowed today (others are dropped: the rules may have changed since), an
 * empty object for "" or text that is not an object. NULL when memory runs out.
 */
json_t *prefs_parse(const char *text);

#endif
