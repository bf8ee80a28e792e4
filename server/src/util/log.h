/*
 * Logging: one line per event on stderr, "2024-05-01T12:00:00.123Z LEVEL module: message".
 * The level is process-wide and set once at startup; lines below it are skipped cheaply.
 * Client-supplied text must go through log_sanitize() before it is logged.
 *
 * Loop thread and worker threads may log; each line is written with one write(2) call.
 */
#ifndef SERVER_UTIL_LOG_H
#define SERVER_UTIL_LOG_H

#include <stddef.h>

enum log_level { LOG_DEBUG = 0, LOG_INFO = 1, LOG_WARN = 2, LOG_ERROR = 3 };

/* Sets the lowest level written. Call before any thread starts. */
void log_set_level(enum log_level level);

/* Parses "debug", "info", "warn" or "error". Returns 0 and sets *level, or -1. */
int log_parse_level(const char *text, enum log_level *level);

/* Writes one line when level is enabled. The message is truncated at 1 KiB. */
void log_write(enum log_level level, const char *module, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

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
