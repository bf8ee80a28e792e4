/*
 * Logging: one line per event on stderr, in one of two formats set once at startup:
 *   text: "2024-05-01T12:00:00.123Z LEVEL module: message"
 *   json: {"ts":"2024-05-01T12:00:00.123Z","level":"info","module":"net","msg":"message"}
 * (one object per line, RFC 8259 text: quotes, backslashes and control characters escaped,
 * bytes that are not UTF-8 replaced by U+FFFD). The level and format are process-wide and set
 * once at startup; lines below the level are skipped cheaply. Client-supplied text must go
 * through log_sanitize() before it is logged.
 *
 * Loop thread and worker threads may log; each line is written with one write(2) call.
 */
#ifndef SERVER_UTIL_LOG_H
#define SERVER_UTIL_LOG_H

#include <stddef.h>
#include <time.h>

enum log_level { LOG_DEBUG = 0, LOG_INFO = 1, LOG_WARN = 2, LOG_ERROR = 3 };

enum log_format { LOG_FORMAT_TEXT = 0, LOG_FORMAT_JSON = 1 };

/* The longest message kept (bytes, before escaping); longer ones are cut. */
#define LOG_MESSAGE_MAX 1024

/* Room for any line: a message of LOG_MESSAGE_MAX bytes each escaped as \uXXXX, and the rest. */
#define LOG_LINE_MAX (LOG_MESSAGE_MAX * 6 + 256)

/* Sets the lowest level written. Call before any thread starts. */
void log_set_level(enum log_level level);

/* Parses "debug", "info", "warn" or "error". Returns 0 and sets *level, or -1. */
int log_parse_level(const char *text, enum log_level *level);

/* Sets the format of every line. Call before any thread starts. */
void log_set_format(enum log_format format);

/* Parses "text" or "json". Returns 0 and sets *format, or -1. */
int log_parse_format(const char *text, enum log_format *format);

/* The name of a format ("text", "json"). */
const char *log_format_name(enum log_format format);

/* Writes one line when level is enabled. The message is cut at LOG_MESSAGE_MAX bytes. */
void log_write(enum log_level level, const char *module, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Formats one line, '\n' included, as log_write() does for a message written at time ts (UTC,
 * CLOCK_REALTIME), into out (cap bytes; LOG_LINE_MAX is always enough for a message of at most
 * LOG_MESSAGE_MAX bytes; with less, the message is cut and the line stays whole). Returns the
 * line's length (out is also NUL-terminated), or 0 when cap is too small for even an empty
 * message. Pure: any thread.
 */
size_t log_format_line(enum log_format format, const struct timespec *ts, enum log_level level,
                       const char *module, const char *msg, char *out, size_t cap);

/*
 * Copies at most cap-1 bytes of untrusted text into out, replacing control characters (C0, DEL,
 * C1), quotes, backslashes and each byte that is not part of valid UTF-8 with '?', and cutting
 * between characters with "..." when too long: the line stays valid UTF-8. Returns out.
 */
char *log_sanitize(const char *text, char *out, size_t cap);

#define LOGD(module, ...) log_write(LOG_DEBUG, module, __VA_ARGS__)
#define LOGI(module, ...) log_write(LOG_INFO, module, __VA_ARGS__)
#define LOGW(module, ...) log_write(LOG_WARN, module, __VA_ARGS__)
#define LOGE(module, ...) log_write(LOG_ERROR, module, __VA_ARGS__)

#endif
