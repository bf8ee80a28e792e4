/*
 * Game chat: text validation and a bounded log per room (the last CHAT_LOG_LINES lines), so a
 * player or spectator who joins late sees recent lines. Two rooms per game: the players' room
 * (the two players only) and the spectators' room (everyone watching who is not playing).
 *
 * Owned by the game that embeds it (loop thread).
 */
#ifndef SERVER_CORE_CHAT_H
#define SERVER_CORE_CHAT_H

#include <stddef.h>
#include <stdint.h>

#include "core/types.h"

#define CHAT_MAX_CHARS 140
#define CHAT_MAX_BYTES (CHAT_MAX_CHARS * 4)
#define CHAT_LOG_LINES 50

/* AUTO (in commands only): the players' room for players, else the spectators'. */
enum chat_room { CHAT_ROOM_AUTO = -1, CHAT_ROOM_PLAYERS = 0, CHAT_ROOM_SPECTATORS = 1 };

struct chat_line {
    int64_t wall_ms;
    char from_id[PLAYER_ID_LEN + 1];
    char from_name[PLAYER_NAME_MAX + 1];
    char text[CHAT_MAX_BYTES + 1];
};

struct chat_log {
    struct chat_line *lines; /* ring of CHAT_LOG_LINES, allocated on first use */
    int start;               /* index of the oldest line */
    int count;
};

/*
 * Checks that text (valid UTF-8, as JSON strings are) has 1..CHAT_MAX_CHARS characters after
 * trimming spaces, and copies it into out with control characters replaced by spaces.
 * Returns 0 or -CORE_ERR_CHAT_INVALID.
 */
int chat_clean_text(const char *text, char out[CHAT_MAX_BYTES + 1]);

/* Appends a line (dropping the oldest when full). Returns the stored line, valid until the next
 * append, or NULL when memory runs out. */
struct chat_line *chat_log_append(struct chat_log *log, int64_t wall_ms, const char *from_id,
                                  const char *from_name, const char *clean_text);

/* The i-th line, oldest first (0 <= i < log->count). */
const struct chat_line *chat_log_line(const struct chat_log *log, int i);

void chat_log_free(struct chat_log *log);

#endif
