/*
 * One-line logging to stderr with an ISO-8601 UTC timestamp, as text or as JSON. Each line is
 * formatted into a stack buffer and written with a single write(2), so lines from different
 * threads never mix. The JSON is written by hand (util/ uses libc only): the message and module
 * are escaped character by character, and a line that would not fit is cut between characters.
 */
#include "util/log.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Process-wide, set once at startup before any thread starts (log.h). */
static enum log_level current_level = LOG_INFO;
static enum log_format current_format = LOG_FORMAT_TEXT;

static const char *const level_names[] = {"DEBUG", "INFO", "WARN", "ERROR"};
static const char *const level_keys[] = {"debug", "info", "warn", "error"};
static const char *const format_names[] = {"text", "json"};

void log_set_level(enum log_level level) {
    current_level = level;
}

/* The index of text in names[0..count), or -1. */
static int name_index(const char *const *names, int count, const char *text) {
    for (int i = 0; i < count; i++) {
        if (strcmp(text, names[i]) == 0) return i;
    }
    return -1;
}

int log_parse_level(const char *text, enum log_level *level) {
    int i = name_index(level_keys, 4, text);
    if (i < 0) return -1;
    *level = (enum log_level)i;
    return 0;
}

void log_set_format(enum log_format format) {
    current_format = format;
}

int log_parse_format(const char *text, enum log_format *format) {
    int i = name_index(format_names, 2, text);
    if (i < 0) return -1;
    *format = (enum log_format)i;
    return 0;
}

const char *log_format_name(enum log_format format) {
    return format_names[format == LOG_FORMAT_JSON];
}

/* The length (1..4) of the valid UTF-8 character at s, its code point in *cp; 0 for a byte that
 * does not start one (overlong forms, surrogates, past U+10FFFF, cut sequences). */
static size_t utf8_char(const unsigned char *s, unsigned long *cp) {
    unsigned char c = s[0];
    size_t n;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xc2 && c <= 0xdf) {
        n = 2, *cp = c & 0x1fu;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3, *cp = c & 0x0fu;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4, *cp = c & 0x07u;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0; /* also at the terminating NUL */
        *cp = *cp << 6 | (s[i] & 0x3fu);
    }
    bool bad = (n == 3 && (*cp < 0x800 || (*cp >= 0xd800 && *cp <= 0xdfff))) ||
               (n == 4 && (*cp < 0x10000 || *cp > 0x10ffff));
    return bad ? 0 : n;
}

/* Appends text to out[*len...] as the inside of a JSON string, one character at a time while
 * *len stays at most limit: quotes, backslashes and control characters (C0, DEL, C1) escaped,
 * U+2028 and U+2029 too (JavaScript's line breaks), each byte that is not UTF-8 as U+FFFD. */
static void json_escape(const char *text, char *out, size_t *len, size_t limit) {
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        char piece[16];
        const char *bytes = piece;
        unsigned long cp;
        size_t n = utf8_char(s, &cp), size;
        if (n == 0) {
            bytes = "\\ufffd", size = 6, n = 1;
        } else if (cp == '"' || cp == '\\') {
            piece[0] = '\\', piece[1] = (char)cp, size = 2;
        } else if (cp == '\n' || cp == '\r' || cp == '\t') {
            piece[0] = '\\', piece[1] = cp == '\n' ? 'n' : cp == '\r' ? 'r' : 't', size = 2;
        } else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029) {
            size = (size_t)snprintf(piece, sizeof piece, "\\u%04lx", cp);
        } else {
            bytes = (const char *)s, size = n;
        }
        if (*len + size > limit) return;
        memcpy(out + *len, bytes, size);
        *len += size;
        s += n;
    }
}

size_t log_format_line(enum log_format format, const struct timespec *ts, enum log_level level,
                       const char *module, const char *msg, char *out, size_t cap) {
    struct tm tm;
    gmtime_r(&ts->tv_sec, &tm);
    char when[128]; /* 24 bytes in practice; room for what the format could write */
    snprintf(when, sizeof when, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts->tv_nsec / 1000000);
    size_t len;
    if (format == LOG_FORMAT_JSON) {
        static const char msg_key[] = "\",\"msg\":\"", tail[] = "\"}\n";
        int n = snprintf(out, cap, "{\"ts\":\"%s\",\"level\":\"%s\",\"module\":\"", when,
                         level_keys[level]);
        if (n < 0 || (size_t)n + sizeof msg_key - 1 + sizeof tail > cap) return 0;
        len = (size_t)n;
        json_escape(module, out, &len, cap - sizeof msg_key - sizeof tail + 1);
        memcpy(out + len, msg_key, sizeof msg_key - 1);
        len += sizeof msg_key - 1;
        json_escape(msg, out, &len, cap - sizeof tail);
        memcpy(out + len, tail, sizeof tail); /* with its NUL */
        return len + sizeof tail - 1;
    }
    int n = snprintf(out, cap, "%s %s %s: ", when, level_names[level], module);
    if (n < 0 || (size_t)n + 2 > cap) return 0;
    len = (size_t)n;
    size_t m = strlen(msg);
    if (m > cap - 2 - len) m = cap - 2 - len;
    memcpy(out + len, msg, m);
    len += m;
    out[len++] = '\n';
    out[len] = '\0';
    return len;
}

void log_write(enum log_level level, const char *module, const char *fmt, ...) {
    if (level < current_level) return;
    char msg[LOG_MESSAGE_MAX + 1], line[LOG_LINE_MAX];
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (m < 0) msg[0] = '\0';
    size_t len = log_format_line(current_format, &ts, level, module, msg, line, sizeof line);
    ssize_t written = write(STDERR_FILENO, line, len);
    (void)written; /* nothing sensible to do when stderr is gone */
}

/* The length (1..4) of the UTF-8 character at s that may be logged as it is: 0 for bytes that
 * are not UTF-8 and for control characters (C0, DEL, C1), quotes and backslashes. */
static size_t loggable_char(const unsigned char *s) {
    unsigned long cp;
    size_t n = utf8_char(s, &cp);
    bool control = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
    return n == 0 || control || cp == '"' || cp == '\\' ? 0 : n;
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
