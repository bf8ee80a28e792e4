/*
 * One-line logging to stderr with an ISO-8601 UTC timestamp. Each line is formatted into a
 * stack buffer and written with a single write(2), so lines from different threads never mix.
 */
#include "util/log.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static enum log_level current_level = LOG_INFO;

static const char *const level_names[] = {"DEBUG", "INFO", "WARN", "ERROR"};

void log_set_level(enum log_level level) {
    current_level = level;
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

/* The length (1..4) of the UTF-8 character at s that may be logged as it is: 0 for bytes that
 * are not UTF-8 (overlong forms, surrogates and all) and for control characters (C0, DEL, C1),
 * quotes and backslashes. */
static size_t loggable_char(const unsigned char *s) {
    unsigned char c = s[0];
    if (c < 0x80) return c < 0x20 || c == 0x7f || c == '"' || c == '\\' ? 0 : 1;
    size_t n;
    unsigned long cp;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2, cp = c & 0x1fu;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3, cp = c & 0x0fu;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4, cp = c & 0x07u;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0; /* also at the terminating NUL */
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    bool bad = (n == 2 && cp < 0xa0) ||
               (n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
               (n == 4 && (cp < 0x10000 || cp > 0x10ffff));
    return bad ? 0 : n;
}

char *log_sanitize(const char *text, char *out, size_t cap) {
    if (cap == 0) return out;
    const unsigned char *s = (const unsigned char *)text;
    size_t len = 0,
           cut = 0; /* cut: the longest whole-character prefix that leaves room for "..." */
    while (*s) {
        size_t n = loggable_char(s);
        if (len + (n ? n : 1) > cap - 1) break;
        if (n) {
            memcpy(out + len, s, n);
            len += n;
            s += n;
        } else {
            out[len++] = '?';
            s++;
        }
        if (len + 3 <= cap - 1) cut = len;
    }
    if (*s && cap > 4) {
        memcpy(out + cut, "...", 3);
        len = cut + 3;
    }
    out[len] = '\0';
    return out;
}
