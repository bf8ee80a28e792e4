/* Tests of HTTP request-head parsing: complete, incomplete and refused heads with their
 * statuses, percent-decoding, dot segments, and the WebSocket upgrade's Origin check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "net/httpparse.h"

static unsigned parse(const char *text, struct http_head *h) {
    return http_parse_head(text, strlen(text), h);
}

static struct http_span span(const char *text) {
    return (struct http_span){text, text ? strlen(text) : 0};
}

static void test_complete_heads(void) {
    struct http_head h;
    const char *req = "GET /api/games/x?a=1 HTTP/1.1\r\nHost: chess.example\r\n"
                      "Connection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n"
                      "Origin: https://chess.example\r\nX-Forwarded-For: 1.2.3.4\r\n\r\nGET /next";
    CHECK_EQ_INT(parse(req, &h), 0);
    CHECK(http_span_is(h.method, "GET"));
    CHECK(http_span_is(h.target, "/api/games/x?a=1"));
    CHECK(http_span_is(h.host, "chess.example"));
    CHECK(http_has_token(h.connection, "upgrade") && http_has_token(h.connection, "Keep-Alive"));
    CHECK(!http_has_token(h.connection, "close"));
    CHECK(http_span_is(h.origin, "https://chess.example"));
    CHECK(h.forwarded && h.minor == 1);
    CHECK_EQ_INT(h.len, strlen(req) - strlen("GET /next")); /* the next request is not its */
    /* Bare LF line ends, leading empty lines, HTTP/1.0, a method lws did not know. */
    CHECK_EQ_INT(parse("\r\n\r\nBREW /pot HTTP/1.0\nHost: x\n\n", &h), 0);
    CHECK(http_span_is(h.method, "BREW") && h.minor == 0 && h.host.p != NULL);
    CHECK(!h.forwarded && !h.origin.p);
    /* The same header twice with one value is fine. */
    CHECK_EQ_INT(parse("GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", &h), 0);
}

static void test_incomplete_heads(void) {
    struct http_head h;
    static const char *const partial[] = {"",
                                          "G",
                                          "GET",
                                          "GET /x",
                                          "GET / HTTP/1.1",
                                          "GET / HTTP/1.1\r\n",
                                          "GET / HTTP/1.1\r\nHost: x\r\n",
                                          "\r\n"};
    for (size_t i = 0; i < sizeof partial / sizeof partial[0]; i++)
        CHECK_EQ_INT(parse(partial[i], &h), 1);
}

static void test_refused_heads(void) {
    struct http_head h;
    static const struct {
        const char *text;
        unsigned status;
    } bad[] = {
        {"GET / HTTP/2.0\r\n\r\n", 505},
        {"GET / HTTP/1.2\r\n\r\n", 505},
        {"GET / FTP/1.0\r\n\r\n", 400},
        {"GET /\r\n\r\n", 400},
        {"GET  HTTP/1.1\r\n\r\n", 400},
        {" GET / HTTP/1.1\r\n\r\n", 400},
        {"G(T / HTTP/1.1\r\n\r\n", 400},
        {"\x16\x03\x01\x02\x05\x01", 400}, /* TLS on the HTTP port: before any line end */
        {"GE\x01", 400},
        {" ", 400},
        {"GET /a\x01 HTTP/1.1\r\n\r\n", 400},
        {"GET /a\x7f HTTP/1.1\r\n\r\n", 400},
        {"GET / HTTP/1.1\r\nno colon\r\n\r\n", 400},
        {"GET / HTTP/1.1\r\n: empty name\r\n\r\n", 400},
        {"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", 400},
        {"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400},
        {"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400},
        {"GET / HTTP/1.1\r\nContent-Length: 1\r\ncontent-length: 2\r\n\r\n", 400},
        {"GET / HTTP/1.1\r\nX: a\x01b\r\n\r\n", 400},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unsigned got = parse(bad[i].text, &h);
        if (!CHECK(got == bad[i].status)) printf("     case %zu: got %u\n", i, got);
    }
}

static void test_limits(void) {
    struct http_head h;
    size_t big = HTTP_HEAD_MAX + 100;
    char *buf = malloc(big + 1);
    CHECK(buf != NULL);
    if (!buf) return;
    /* A target at the limit parses; one byte more is 414, before its line is even complete. */
    memcpy(buf, "GET /", 5);
    memset(buf + 5, 'a', HTTP_TARGET_MAX - 1);
    strcpy(buf + 4 + HTTP_TARGET_MAX, " HTTP/1.1\r\n\r\n");
    CHECK_EQ_INT(http_parse_head(buf, strlen(buf), &h), 0);
    memset(buf + 5, 'a', HTTP_TARGET_MAX);
    strcpy(buf + 5 + HTTP_TARGET_MAX, " HTTP/1.1\r\n\r\n");
    CHECK_EQ_INT(http_parse_head(buf, strlen(buf), &h), 414);
    memset(buf + 5, 'a', HTTP_TARGET_MAX + 40);
    CHECK_EQ_INT(http_parse_head(buf, 5 + HTTP_TARGET_MAX + 40, &h), 414);
    CHECK_EQ_INT(http_parse_head(buf, 5 + 100, &h), 1);
    /* Headers filling the buffer without an end: 431; under it: more is needed. */
    int n = snprintf(buf, big, "GET / HTTP/1.1\r\nX-Big: ");
    memset(buf + n, 'b', big - (size_t)n);
    CHECK_EQ_INT(http_parse_head(buf, HTTP_HEAD_MAX, &h), 431);
    CHECK_EQ_INT(http_parse_head(buf, HTTP_HEAD_MAX - 1, &h), 1);
    free(buf);
}

static void test_url_decode(void) {
    char out[64];
    CHECK_EQ_INT(http_url_decode("/a%2Fb%2e%41", 12, out, false), 6);
    CHECK(strcmp(out, "/a/b.A") == 0);
    CHECK_EQ_INT(http_url_decode("a+b%2B", 6, out, true), 4);
    CHECK(strcmp(out, "a b+") == 0);
    CHECK_EQ_INT(http_url_decode("a+b", 3, out, false), 3);
    CHECK(strcmp(out, "a+b") == 0);
    CHECK_EQ_INT(http_url_decode("%ff%fe", 6, out, false), 2);
    static const char *const bad[] = {"%00", "a%00b", "%", "%4", "a%zz", "%g0", "x%0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ_INT(http_url_decode(bad[i], strlen(bad[i]), out, false), -1);
    /* The length given, not the NUL: "%4" cut from "%41". */
    CHECK_EQ_INT(http_url_decode("%41", 2, out, false), -1);
}

static void test_dot_segments(void) {
    static const char *const dotted[] = {"/..",       "/.",    "/a/../b", "/a/./b",
                                         "/api/../x", "/a/..", "/a/."};
    static const char *const clean[] = {"/",      "/a",    "/.well-known/x", "/a..b",
                                        "/a/...", "/a/.b", "/assets/app.js", "/a/b../c"};
    for (size_t i = 0; i < sizeof dotted / sizeof dotted[0]; i++)
        CHECK(http_dot_segment(dotted[i]));
    for (size_t i = 0; i < sizeof clean / sizeof clean[0]; i++) CHECK(!http_dot_segment(clean[i]));
}

static void test_origins(void) {
    struct http_span none = {NULL, 0};
    /* The same host: with the Host header's port, or by name when it has none. */
    CHECK(http_origin_allowed(NULL, none, span("x")));
    CHECK(http_origin_allowed("", span("http://127.0.0.1:8080"), span("127.0.0.1:8080")));
    CHECK(http_origin_allowed(NULL, span("https://chess.example"), span("chess.example")));
    CHECK(http_origin_allowed(NULL, span("https://chess.example"), span("chess.example:443")));
    CHECK(http_origin_allowed(NULL, span("http://chess.example"), span("Chess.Example:80")));
    CHECK(http_origin_allowed(NULL, span("http://[::1]:8080"), span("[::1]:8080")));
    CHECK(http_origin_allowed(NULL, span("http://localhost:8080"), span("localhost")));
    CHECK(!http_origin_allowed(NULL, span("http://evil.example"), span("chess.example")));
    CHECK(!http_origin_allowed(NULL, span("http://chess.example:81"), span("chess.example:80")));
    /* Ports are read within the spans (a request's bytes, not C strings): a span cut just after
     * the port, with digits following in memory, is read as far as it goes (found by
     * fuzz_http), and a port that is not a number is refused. */
    const char origin_then_digits[] = "http://chess.example:8099";
    const char host_then_digits[] = "chess.example:8099";
    struct http_span cut_origin = {origin_then_digits, sizeof origin_then_digits - 3};
    struct http_span cut_host = {host_then_digits, sizeof host_then_digits - 3};
    CHECK(http_origin_allowed(NULL, cut_origin, cut_host)); /* both :80 */
    CHECK(!http_origin_allowed(NULL, cut_origin, span("chess.example:8099")));
    CHECK(!http_origin_allowed(NULL, span("http://chess.example:8x"), span("chess.example:8")));
    CHECK(!http_origin_allowed(NULL, span("http://chess.example:"), span("chess.example")));
    CHECK(!http_origin_allowed(NULL, span("http://chess.example:999999"), span("chess.example")));
    CHECK(!http_origin_allowed(NULL, span("https://chess.example"), span("chess.example:80")));
    CHECK(!http_origin_allowed(NULL, span("http://chess.example.evil"), span("chess.example")));
    CHECK(!http_origin_allowed(NULL, span("null"), span("chess.example")));
    CHECK(!http_origin_allowed(NULL, span("chess.example"), span("chess.example")));
    CHECK(!http_origin_allowed(NULL, span("http://chess.example"), none));
    CHECK(!http_origin_allowed(NULL, span("http://[::1:8080"), span("[::1]:8080")));
    /* A list: whole origins, any case, a trailing slash or spaces ignored; "*" for any. */
    const char *list = "https://a.example, http://localhost:5173/";
    CHECK(http_origin_allowed(list, span("https://a.example"), span("elsewhere")));
    CHECK(http_origin_allowed(list, span("HTTPS://A.EXAMPLE"), span("elsewhere")));
    CHECK(http_origin_allowed(list, span("http://localhost:5173"), span("elsewhere")));
    CHECK(http_origin_allowed(list, none, span("elsewhere")));
    CHECK(!http_origin_allowed(list, span("http://a.example"), span("a.example")));
    CHECK(!http_origin_allowed(list, span("https://a.example.evil"), span("x")));
    CHECK(!http_origin_allowed(list, span("https://a.exampl"), span("x")));
    CHECK(http_origin_allowed("*", span("http://anything"), span("x")));
}

int main(void) {
    RUN(test_complete_heads);
    RUN(test_incomplete_heads);
    RUN(test_refused_heads);
    RUN(test_limits);
    RUN(test_url_decode);
    RUN(test_dot_segments);
    RUN(test_origins);
    return check_finish();
}
