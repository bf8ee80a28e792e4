/*
 * Parsing HTTP/1.1 request heads (httpparse.h).
 */
#include "net/httpparse.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool is_tchar(unsigned char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

/* Whether what came of a request line so far cannot start one: a method has token characters
 * up to its space. */
static bool bad_method_start(const char *line, size_t len) {
    size_t i = 0;
    while (i < len && is_tchar((unsigned char)line[i])) i++;
    return i < len && (line[i] != ' ' || i == 0);
}

bool http_span_is(struct http_span s, const char *text) {
    return s.len == strlen(text) && memcmp(s.p, text, s.len) == 0;
}

long long http_content_length(struct http_span s, long long max) {
    if (!s.p || s.len == 0) return -1;
    long long n = 0;
    for (size_t i = 0; i < s.len; i++) {
        if (s.p[i] < '0' || s.p[i] > '9') return -1;
        n = n * 10 + (s.p[i] - '0');
        if (n > max) return -1;
    }
    return n;
}

/* Whether a comma-separated header value lists token (any case). */
bool http_has_token(struct http_span s, const char *token) {
    size_t tlen = strlen(token);
    for (size_t i = 0; i < s.len;) {
        while (i < s.len && (s.p[i] == ' ' || s.p[i] == '\t' || s.p[i] == ',')) i++;
        size_t start = i;
        while (i < s.len && s.p[i] != ',') i++;
        size_t end = i;
        while (end > start && (s.p[end - 1] == ' ' || s.p[end - 1] == '\t')) end--;
        if (end - start == tlen && strncasecmp(s.p + start, token, tlen) == 0) return true;
    }
    return false;
}

/* One header line (name: value) into what the head keeps. Returns 0 or 400. */
static unsigned parse_header(const char *line, size_t len, struct http_head *h) {
    size_t colon = 0;
    while (colon < len && is_tchar((unsigned char)line[colon])) colon++;
    if (colon == 0 || colon == len || line[colon] != ':') return 400;
    struct http_span name = {line, colon};
    size_t v = colon + 1, end = len;
    while (v < end && (line[v] == ' ' || line[v] == '\t')) v++;
    while (end > v && (line[end - 1] == ' ' || line[end - 1] == '\t')) end--;
    for (size_t i = v; i < end; i++)
        if (((unsigned char)line[i] < 0x20 && line[i] != '\t') || line[i] == 0x7f) return 400;
    struct http_span value = {line + v, end - v};
    static const struct {
        const char *name;
        size_t offset;
    } kept[] = {
        {"host", offsetof(struct http_head, host)},
        {"connection", offsetof(struct http_head, connection)},
        {"upgrade", offsetof(struct http_head, upgrade)},
        {"origin", offsetof(struct http_head, origin)},
        {"content-length", offsetof(struct http_head, length)},
        {"transfer-encoding", offsetof(struct http_head, encoding)},
        {"authorization", offsetof(struct http_head, authorization)},
        {"accept", offsetof(struct http_head, accept)},
        {"content-type", offsetof(struct http_head, content_type)},
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        if (name.len != strlen(kept[i].name) || strncasecmp(name.p, kept[i].name, name.len))
            continue;
        struct http_span *slot = (struct http_span *)(void *)((char *)h + kept[i].offset);
        /* Two values of one of these: ambiguous (request smuggling, two hosts). */
        if (slot->p && !(slot->len == value.len && memcmp(slot->p, value.p, value.len) == 0))
            return 400;
        *slot = value;
        return 0;
    }
    /* Proxies' headers: the last of each counts (a proxy appends to what the client sent). */
    if (name.len == 15 && strncasecmp(name.p, "x-forwarded-for", 15) == 0) h->forwarded_for = value;
    if (name.len == 9 && strncasecmp(name.p, "x-real-ip", 9) == 0) h->real_ip = value;
    if ((name.len == 15 && strncasecmp(name.p, "x-forwarded-for", 15) == 0) ||
        (name.len == 9 && strncasecmp(name.p, "x-real-ip", 9) == 0) ||
        (name.len == 9 && strncasecmp(name.p, "forwarded", 9) == 0))
        h->forwarded = true;
    return 0;
}

/* The request line. Returns 0, or the status that refuses it. */
static unsigned parse_request_line(const char *line, size_t len, struct http_head *h) {
    size_t i = 0;
    while (i < len && is_tchar((unsigned char)line[i])) i++;
    if (i == 0 || i == len || line[i] != ' ') return 400;
    h->method = (struct http_span){line, i};
    size_t t = ++i;
    while (i < len && line[i] != ' ') i++;
    h->target = (struct http_span){line + t, i - t};
    if (h->target.len > HTTP_TARGET_MAX) return 414;
    if (h->target.len == 0 || i == len) return 400;
    for (size_t k = 0; k < h->target.len; k++)
        if ((unsigned char)h->target.p[k] <= 0x20 || h->target.p[k] == 0x7f) return 400;
    struct http_span version = {line + i + 1, len - i - 1};
    if (http_span_is(version, "HTTP/1.1"))
        h->minor = 1;
    else if (http_span_is(version, "HTTP/1.0"))
        h->minor = 0;
    else
        return version.len > 5 && memcmp(version.p, "HTTP/", 5) == 0 ? 505 : 400;
    return 0;
}

/*
 * Parses the head at the start of buf. Returns 0 when it is complete and well formed (h filled
 * in), 1 when more bytes are needed, or the status that refuses it (400, 414, 431, 505).
 */
unsigned http_parse_head(const char *buf, size_t len, struct http_head *h) {
    memset(h, 0, sizeof *h);
    size_t pos = 0;
    while (pos < len && (buf[pos] == '\r' || buf[pos] == '\n')) pos++; /* between requests */
    bool first = true;
    for (;;) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        if (!nl) {
            /* A method that cannot be one (TLS, binary) or a request line that already passed
             * the target limit needs no more bytes. */
            if (first && bad_method_start(buf + pos, len - pos)) return 400;
            if (first && len - pos > HTTP_TARGET_MAX + 32) return 414;
            return len >= HTTP_HEAD_MAX ? (first ? 414 : 431) : 1;
        }
        size_t line_len = (size_t)(nl - (buf + pos));
        const char *line = buf + pos;
        pos += line_len + 1;
        if (line_len > 0 && line[line_len - 1] == '\r') line_len--;
        unsigned rc;
        if (first) {
            rc = parse_request_line(line, line_len, h);
            first = false;
        } else if (line_len == 0) {
            h->len = pos;
            return 0;
        } else if (line[0] == ' ' || line[0] == '\t') {
            rc = 400; /* obsolete line folding */
        } else {
            rc = parse_header(line, line_len, h);
        }
        if (rc) return rc;
    }
}

static int hex_value(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Percent-decodes src into out (size > len). plus: '+' is a space (query values). Returns the
 * length, or -1 for a bad escape or a NUL. */
long http_url_decode(const char *src, size_t len, char *out, bool plus) {
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = src[i];
        if (ch == '%') {
            if (i + 2 >= len) return -1;
            int a = hex_value(src[i + 1]), b = hex_value(src[i + 2]);
            if (a < 0 || b < 0) return -1;
            ch = (char)(a * 16 + b);
            i += 2;
        } else if (ch == '+' && plus) {
            ch = ' ';
        }
        if (ch == '\0') return -1;
        out[n++] = ch;
    }
    out[n] = '\0';
    return (long)n;
}

/* Whether a decoded path has a "." or ".." segment. */
bool http_dot_segment(const char *path) {
    for (const char *p = path; (p = strchr(p, '/'));) {
        p++;
        if (p[0] == '.' && (p[1] == '/' || !p[1])) return true;
        if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2])) return true;
    }
    return false;
}

/* ---- the WebSocket upgrade ---- */

/* The port written in [p, end): 1 to 5 digits and at most 65535, or -1. The text is a span of
 * the request, not a C string: nothing past end is read. */
static int span_port(const char *p, const char *end) {
    if (p >= end || end - p > 5) return -1;
    int port = 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9') return -1;
        port = port * 10 + (*p - '0');
    }
    return port <= 65535 ? port : -1;
}

/* host[:port] of an origin ("https://example.org:8443") into host and port (the scheme's
 * default when absent). Returns 0 or -1. */
static int origin_host(struct http_span origin, char *host, size_t size, int *port) {
    const char *sep = NULL;
    for (size_t i = 0; i + 3 <= origin.len && !sep; i++)
        if (memcmp(origin.p + i, "://", 3) == 0) sep = origin.p + i;
    if (!sep) return -1;
    size_t scheme_len = (size_t)(sep - origin.p);
    *port = scheme_len == 5 && strncasecmp(origin.p, "https", 5) == 0 ? 443 : 80;
    const char *h = sep + 3, *end = origin.p + origin.len;
    const char *colon = h < end && *h == '[' ? memchr(h, ']', (size_t)(end - h)) : h;
    colon = colon ? memchr(colon, ':', (size_t)(end - colon)) : NULL;
    size_t hlen = (size_t)((colon ? colon : end) - h);
    if (hlen == 0 || hlen >= size) return -1;
    memcpy(host, h, hlen);
    host[hlen] = '\0';
    if (colon) *port = span_port(colon + 1, end);
    return *port < 0 ? -1 : 0;
}

/* Whether the upgrade's Origin is allowed: listed in allowed_origins ("*": any), or, with no
 * list, the host of the Host header (its port too when the Host header has one). No Origin at
 * all (a program, not a browser) is allowed. */
bool http_origin_allowed(const char *list, struct http_span origin, struct http_span host) {
    if (!origin.p) return true;
    if (list && *list) {
        for (const char *p = list; *p;) {
            const char *end = strchr(p, ',');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            while (len > 0 && *p == ' ') p++, len--;
            while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '/')) len--;
            if ((len == 1 && *p == '*') ||
                (len == origin.len && strncasecmp(p, origin.p, len) == 0))
                return true;
            if (!end) break;
            p = end + 1;
        }
        return false;
    }
    char ohost[256], hhost[256];
    int oport;
    if (!host.p || origin_host(origin, ohost, sizeof ohost, &oport) < 0) return false;
    size_t hlen = host.len;
    const char *hp = host.p, *colon = NULL;
    const char *after = hp[0] == '[' ? memchr(hp, ']', hlen) : hp;
    if (after) colon = memchr(after, ':', hlen - (size_t)(after - hp));
    size_t name_len = colon ? (size_t)(colon - hp) : hlen;
    if (name_len >= sizeof hhost) return false;
    memcpy(hhost, hp, name_len);
    hhost[name_len] = '\0';
    if (strcasecmp(hhost, ohost) != 0) return false;
    return !colon || span_port(colon + 1, hp + hlen) == oport;
}
