/*
 * Fuzz target: HTTP request heads as the server reads them (net/httpparse.h). The input is the
 * bytes a client sent. The parser answers a complete head, "more", or a refusal with one of the
 * documented statuses; a complete head's pieces lie inside it and it ends with its blank line,
 * and it parses the same on its own; a head that needs more is shorter than the limit; the
 * target decodes to a string without NUL or is refused; the Origin check answers for anything.
 */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "net/httpparse.h"

static bool inside(struct http_span s, const char *buf, size_t len) {
    return !s.p || (s.p >= buf && s.len <= len && (size_t)(s.p - buf) <= len - s.len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *buf = (const char *)data;
    struct http_head h;
    unsigned rc = http_parse_head(buf, size, &h);
    FUZZ_ASSERT(rc == 0 || rc == 1 || rc == 400 || rc == 414 || rc == 431 || rc == 505);
    if (rc == 1) FUZZ_ASSERT(size < HTTP_HEAD_MAX);
    if (rc != 0) return 0;

    FUZZ_ASSERT(h.len >= 4 && h.len <= size && h.len <= HTTP_HEAD_MAX);
    FUZZ_ASSERT(buf[h.len - 1] == '\n');
    FUZZ_ASSERT(h.minor == 0 || h.minor == 1);
    FUZZ_ASSERT(h.method.p && h.method.len > 0 && h.target.p && h.target.len > 0);
    FUZZ_ASSERT(h.target.len <= HTTP_TARGET_MAX);
    const struct http_span spans[] = {h.method,  h.target, h.host,   h.connection,
                                      h.upgrade, h.origin, h.length, h.encoding};
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++)
        FUZZ_ASSERT(inside(spans[i], buf, h.len));

    /* The head alone (what follows it is the next request's) reads the same. */
    struct http_head again;
    FUZZ_ASSERT(http_parse_head(buf, h.len, &again) == 0 && again.len == h.len);
    FUZZ_ASSERT(again.target.p == h.target.p && again.target.len == h.target.len);

    char *decoded = malloc(h.target.len + 1);
    if (!decoded) return 0;
    long n = http_url_decode(h.target.p, h.target.len, decoded, false);
    FUZZ_ASSERT(n >= -1 && n <= (long)h.target.len);
    if (n >= 0) {
        FUZZ_ASSERT(strlen(decoded) == (size_t)n); /* no NUL got through */
        (void)http_dot_segment(decoded);
    }
    free(decoded);

    bool allowed = http_origin_allowed(NULL, h.origin, h.host);
    if (!h.origin.p) FUZZ_ASSERT(allowed);
    FUZZ_ASSERT(http_origin_allowed("*", h.origin, h.host));
    return 0;
}
