/*
 * Chat validation counts UTF-8 code points (continuation bytes do not count) and replaces ASCII
 * control characters; the log is a fixed ring allocated when the first line arrives, so games
 * without chat cost nothing.
 */
#include "core/chat.h"

#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "util/str.h"

int chat_clean_text(const char *text, char out[CHAT_MAX_BYTES + 1]) {
    while (*text == ' ') text++;
    size_t len = strlen(text);
    while (len > 0 && text[len - 1] == ' ') len--;
    if (len == 0 || len > CHAT_MAX_BYTES) return -CORE_ERR_CHAT_INVALID;
    int chars = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c & 0xc0) != 0x80) chars++;
        out[i] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
    }
    out[len] = '\0';
    return chars <= CHAT_MAX_CHARS ? 0 : -CORE_ERR_CHAT_INVALID;
}

struct chat_line *chat_log_append(struct chat_log *log, int64_t wall_ms, const char *from_id,
                                  const char *from_name, const char *clean_text) {
    if (!log->lines) {
        log->lines = calloc(CHAT_LOG_LINES, sizeof *log->lines);
        if (!log->lines) return NULL;
    }
    int slot;
    if (log->count < CHAT_LOG_LINES) {
        slot = (log->start + log->count++) % CHAT_LOG_LINES;
    } else {
        slot = log->start;
        log->start = (log->start + 1) % CHAT_LOG_LINES;
    }
    struct chat_line *line = &log->lines[slot];
    line->wall_ms = wall_ms;
    str_copy(line->from_id, sizeof line->from_id, from_id);
    str_copy(line->from_name, sizeof line->from_name, from_name);
    str_copy(line->text, sizeof line->text, clean_text);
    return line;
}

const struct chat_line *chat_log_line(const struct chat_log *log, int i) {
    return &log->lines[(log->start + i) % CHAT_LOG_LINES];
}

void chat_log_free(struct chat_log *log) {
    free(log->lines);
    *log = (struct chat_log){0};
}
