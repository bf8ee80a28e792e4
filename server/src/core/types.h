/*
 * Small types shared by the core modules and the layers above: identifier sizes, time controls
 * and colour choices.
 */
#ifndef SERVER_CORE_TYPES_H
#define SERVER_CORE_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#define GAME_ID_LEN      8 /* base62, like lichess: 62^8 ids */
#define SEEK_ID_LEN      8
#define CHALLENGE_ID_LEN 12 /* the link is the invitation: harder to guess */
#define PLAYER_ID_LEN    12
#define ARENA_ID_LEN     8  /* an arena tournament's id: base62 */
#define ARENA_NAME_MAX   30 /* an arena tournament's name, bytes */
#define PLAYER_TOKEN_LEN 32 /* base62: about 190 bits */
#define PLAYER_NAME_MAX  24 /* bytes */

/*
 * Time control: initial time and increment, unlimited (no clock), or correspondence ("daily"):
 * days > 0 days per move, with initial_ms and increment_ms 0 and unlimited false.
 */
struct time_control {
    bool unlimited;
    int64_t initial_ms;
    int64_t increment_ms;
    int days; /* correspondence: days per move (1, 2, 3, 5, 7 or 14); 0 for a clock */
};

/* Limits on time controls accepted from clients. */
#define TC_MAX_INITIAL_MS   (180LL * 60 * 1000)
#define TC_MIN_INITIAL_MS   (15LL * 1000) /* a quarter of a minute */
#define TC_MAX_INCREMENT_MS (180LL * 1000)

/* A colour asked for by a seek or challenge. */
enum color_choice { COLOR_CHOICE_WHITE = 0, COLOR_CHOICE_BLACK = 1, COLOR_CHOICE_RANDOM = 2 };

/* Randomness comes from outside the core: fills buf with n random bytes, returns 0 or -1. */
typedef int (*core_random_fn)(void *ctx, void *buf, unsigned n);

#endif
