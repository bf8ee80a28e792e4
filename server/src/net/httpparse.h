/*
 * Parsing HTTP/1.1 requests, for http.c: the request head (request line and headers) with the
 * limits and refusals of docs/protocol.md ("HTTP on the same port"), percent-decoding, dot
 * segments, and whether a WebSocket upgrade's Origin is allowed. Pure functions on bytes: no
 * sockets, no allocation.
 */
#ifndef SERVER_NET_HTTPPARSE_H
#define SERVER_NET_HTTPPARSE_H

#include <stdbool.h>
#include <stddef.h>

#define HTTP_HEAD_MAX   16384 /* request line and headers (431 above; 414 for the line alone) */
#define HTTP_TARGET_MAX 4096  /* the request target, path and query (414 above) */

/* A piece of the request head (not NUL-terminated); p is NULL when absent. */
struct http_span {
    const char *p;
    size_t len;
};

/* What the server needs of a request head; the spans point into the parsed buffer. */
struct http_head {
    struct http_span method, target, host, connection, upgrade, origin, length, encoding;
    struct http_span authorization, accept, content_type, forwarded_for, real_ip;
    bool forwarded; /* X-Forwarded-For, X-Real-IP or Forwarded */
    int minor;      /* HTTP/1.minor */
    size_t len;     /* bytes of the head, blank line included */
};

/* Content-Length's value: 0 or more decimal digits up to max. Returns the length, or -1 when it
 * is not a number or over max. */
long long http_content_length(struct http_span s, long long max);

/* Whether s is exactly text. */
bool http_span_is(struct http_span s, const char *text);

/* Whether a comma-separated header value lists token (any case). */
bool http_has_token(struct http_span s, const char *token);

/*
 * Parses the head at the start of buf (leading empty lines skipped). Returns 0 when it is
 * complete and well formed (h filled in, h->len its length), 1 when more bytes are needed (and
 * may still come: fewer than HTTP_HEAD_MAX), or the status that refuses it: 400 (no method, no
 * target, a bad header line, folding, two different Host or Content-Length headers, control
 * characters), 414 (a target over HTTP_TARGET_MAX, or a request line that already passed it),
 * 431 (a head over HTTP_HEAD_MAX), 505 (HTTP other than 1.0 and 1.1).
 */
unsigned http_parse_head(const char *buf, size_t len, struct http_head *h);

/* Percent-decodes src[0..len) into out (at least len + 1 bytes, NUL-terminated); plus: '+' is
 * a space (query values). Returns the length, or -1 for a bad escape or a NUL (%00). */
long http_url_decode(const char *src, size_t len, char *out, bool plus);

/* Whether a decoded path has a "." or ".." segment. */
bool http_dot_segment(const char *path);

/*
 * Whether a WebSocket upgrade with this Origin (p NULL: none) and Host may go on. list: allowed
 * origins, comma-separated, compared whole and in any case ("*": any); NULL or "": the origin's
 * host must be the Host header's (its port too when the Host header has one, the scheme's
 * default port when the origin has none). No Origin at all (not a browser) is allowed.
 */
bool http_origin_allowed(const char *list, struct http_span origin, struct http_span host);

#endif
