/*
 * One-line logging to stderr with an ISO-8601 UTC timestamp. Each line is formatted into a
 * stack buffer and written with a single write(2), so lines from different threads never mix.
 */
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static enum log_level current_level = LOG_INFO;

static const char *const level_names[] = {"DEBUG", "INFO", "WARN", "ERROR"};

void log_set_level(enum log_level level) {
    current_level = level;
}

enum log_level log_get_level(void) {
    return current_level;
}

int log_parse_level(const char *text, enum log_level *level) {
    static const char *const names[] = {"debug", "info", "warn", "error"};
    for (int i = 0; i < 4; i++) {
        if (strcmp(text, names[i]) == 0) {
            *level = (enum log_level)i;
            return 0;
        }
    }
    return -1;
}

void log_write(enum log_level level, const char *module, const char *fmt, ...) {
    if (level < current_level) return;
    char line[1200];
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    int n = snprintf(line, sizeof line,
                     "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ %s %s: ", tm.tm_year + 1900,
                     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                     ts.tv_nsec / 1000000, level_names[level], module);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof line - 2) len = sizeof line - 2;
    line[len++] = '\n';
    ssize_t written = write(STDERR_FILENO, line, len);
    (void)written; /* nothing sensible to do when stderr is gone */
}

char *log_sanitize(const char *text, char *out, size_t cap) {
    size_t i = 0;
    if (cap == 0) return out;
    for (; text[i] && i + 1 < cap; i++) {
        unsigned char c = (unsigned char)text[i];
        out[i] = (c < 0x20 || c == 0x7f || c == '"' || c == '\\') ? '?' : (char)c;
    }
    out[i] = '\0';
    if (text[i] && cap > 4) memcpy(out + cap - 4, "...", 4);
    return out;
}
