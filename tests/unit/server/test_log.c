/* Tests of log_sanitize (what a client sends is logged as one line of valid UTF-8) and of the
 * lines' two formats: text, and JSON read back with jansson (escapes, cuts, random bytes). */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "util/log.h"

static void expect(const char *text, size_t cap, const char *logged) {
    char out[64];
    if (!check_record(strcmp(log_sanitize(text, out, cap), logged) == 0, text, __FILE__, __LINE__))
        printf("     got \"%s\", expected \"%s\"\n", out, logged);
}

static void test_sanitize(void) {
    expect("alice", 64, "alice");
    expect("a\"b\\c\nd\x1b[2Je\x7f", 64, "a?b?c?d?[2Je?");
    expect("caf\xc3\xa9 \xe2\x99\x9e \xf0\x9f\x98\x80", 64,
           "caf\xc3\xa9 \xe2\x99\x9e \xf0\x9f\x98\x80");
    /* Not UTF-8: a lone continuation byte, 0xff, an overlong '/', a surrogate, a cut sequence, past
     * U+10FFFF; and C1 controls (U+009B is a terminal's CSI). */
    expect("\x80|\xff|\xc0\xaf|\xed\xa0\x80|\xe2\x99|\xf4\x90\x80\x80|\xc2\x9b", 64,
           "?|?|??|???|??|????|??");
    /* Cut with "..." between characters, never inside one. */
    expect("abcdefghij", 8, "abcd...");
    expect("abcdefg", 8, "abcdefg");
    expect("ab\xc3\xa9\xc3\xa9\xc3\xa9", 8, "ab\xc3\xa9...");
    expect("\xe2\x99\x9e\xe2\x99\x9e\xe2\x99\x9e", 8, "\xe2\x99\x9e...");
    expect("abcdef", 4, "abc");
    expect("abc", 1, "");
}

/* Random bytes: the line is valid UTF-8 (as jansson checks it) without control characters. */
static void test_random_bytes(void) {
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    int bad = 0;
    for (int round = 0; round < 20000; round++) {
        char text[40], out[24];
        for (size_t i = 0; i < sizeof text - 1; i++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            unsigned char c = (unsigned char)(rng >> 32);
            text[i] = (char)(c ? c : 'x');
        }
        text[sizeof text - 1] = '\0';
        size_t cap = 1 + (size_t)(rng % sizeof out);
        log_sanitize(text, out, cap);
        size_t len = strlen(out);
        json_t *valid = json_stringn(out, len);
        bool ok = valid && len < cap;
        for (size_t i = 0; i < len; i++) ok = ok && (unsigned char)out[i] >= 0x20 && out[i] != 0x7f;
        json_decref(valid);
        bad += !ok;
    }
    CHECK_EQ_INT(bad, 0);
}

static const struct timespec when = {.tv_sec = 1714564800, .tv_nsec = 123456789};

static void test_text_line(void) {
    char out[LOG_LINE_MAX];
    size_t n = log_format_line(LOG_FORMAT_TEXT, &when, LOG_WARN, "net", "a \"b\"", out, sizeof out);
    CHECK_EQ_STR(out, "2024-05-01T12:00:00.123Z WARN net: a \"b\"\n");
    CHECK_EQ_INT(n, strlen(out));
    /* Cut to the room there is, the newline kept. */
    n = log_format_line(LOG_FORMAT_TEXT, &when, LOG_INFO, "net", "abcdef", out, 37);
    CHECK_EQ_STR(out, "2024-05-01T12:00:00.123Z INFO net: \n");
    CHECK_EQ_INT(n, 36);
    CHECK_EQ_INT(log_format_line(LOG_FORMAT_TEXT, &when, LOG_INFO, "net", "x", out, 20), 0);
}

/* Formats msg as a JSON line and reads it back: one object, one line, the four keys. Returns the
 * decoded message (a new reference to the object, the message borrowed from it), or NULL. */
static json_t *json_line(const char *msg, size_t cap, const char **decoded) {
    char out[LOG_LINE_MAX];
    size_t n = log_format_line(LOG_FORMAT_JSON, &when, LOG_ERROR, "site", msg, out, cap);
    bool one_line = n > 0 && n < cap && out[n - 1] == '\n' && memchr(out, '\n', n - 1) == NULL &&
                    strlen(out) == n;
    json_error_t err;
    json_t *obj = one_line ? json_loadb(out, n, 0, &err) : NULL;
    const char *ts = json_string_value(json_object_get(obj, "ts"));
    const char *level = json_string_value(json_object_get(obj, "level"));
    const char *module = json_string_value(json_object_get(obj, "module"));
    *decoded = json_string_value(json_object_get(obj, "msg"));
    if (!obj || json_object_size(obj) != 4 || !ts || strcmp(ts, "2024-05-01T12:00:00.123Z") != 0 ||
        !level || strcmp(level, "error") != 0 || !module || strcmp(module, "site") != 0 ||
        !*decoded) {
        printf("     not the expected JSON line: %.*s\n", (int)n, out);
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static void expect_json(const char *msg, const char *decoded) {
    const char *got = NULL;
    json_t *obj = json_line(msg, LOG_LINE_MAX, &got);
    if (!check_record(obj && strcmp(got, decoded) == 0, msg, __FILE__, __LINE__) && got)
        printf("     decoded \"%s\", expected \"%s\"\n", got, decoded);
    json_decref(obj);
}

static void test_json_line(void) {
    char out[LOG_LINE_MAX];
    log_format_line(LOG_FORMAT_JSON, &when, LOG_INFO, "net", "listening", out, sizeof out);
    CHECK_EQ_STR(out, "{\"ts\":\"2024-05-01T12:00:00.123Z\",\"level\":\"info\",\"module\":"
                      "\"net\",\"msg\":\"listening\"}\n");
    /* Quotes, backslashes, newlines and other control characters are escaped. */
    log_format_line(LOG_FORMAT_JSON, &when, LOG_DEBUG, "net", "a\"b\\c\nd\te\r\x01\x1b\x7f", out,
                    sizeof out);
    CHECK(strstr(out, "\"msg\":\"a\\\"b\\\\c\\nd\\te\\r\\u0001\\u001b\\u007f\"}\n") != NULL);
    expect_json("a\"b\\c\nd\te\r\x01\x1b\x7f", "a\"b\\c\nd\te\r\x01\x1b\x7f");
    /* UTF-8 as it is; C1 controls and JavaScript's line breaks escaped. */
    expect_json("caf\xc3\xa9 \xe2\x99\x9e \xf0\x9f\x98\x80",
                "caf\xc3\xa9 \xe2\x99\x9e \xf0\x9f\x98\x80");
    log_format_line(LOG_FORMAT_JSON, &when, LOG_INFO, "net", "\xc2\x9b|\xe2\x80\xa8", out,
                    sizeof out);
    CHECK(strstr(out, "\"msg\":\"\\u009b|\\u2028\"") != NULL);
    expect_json("\xc2\x9b|\xe2\x80\xa8", "\xc2\x9b|\xe2\x80\xa8");
    /* Not UTF-8: each byte becomes U+FFFD (a lone continuation byte, 0xff, an overlong '/', a
     * surrogate, a cut sequence). */
    expect_json(
        "\x80|\xff|\xc0\xaf|\xed\xa0\x80|\xe2\x99",
        "\xef\xbf\xbd|\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|"
        "\xef\xbf\xbd\xef\xbf\xbd");
    /* The longest message, every byte escaped, fits the line buffer whole. */
    char longest[LOG_MESSAGE_MAX + 1];
    memset(longest, '\x01', LOG_MESSAGE_MAX);
    longest[LOG_MESSAGE_MAX] = '\0';
    expect_json(longest, longest);
    /* Too little room: cut between characters (never inside an escape), still one object. */
    const char *got = NULL;
    const char *cut = "\"\"\"\xe2\x99\x9e\xe2\x99\x9e\x01\x01\x01 and more text";
    for (size_t cap = 80; cap < 120; cap++) {
        json_t *obj = json_line(cut, cap, &got);
        CHECK(obj && strncmp(got, cut, strlen(got)) == 0);
        json_decref(obj);
    }
    CHECK_EQ_INT(log_format_line(LOG_FORMAT_JSON, &when, LOG_INFO, "net", "x", out, 60), 0);
}

/* Random bytes in the message: the line is always one JSON object with the four keys. */
static void test_json_random_bytes(void) {
    uint64_t rng = 0x2545f4914f6cdd1dull;
    int bad = 0;
    for (int round = 0; round < 20000; round++) {
        char text[48];
        for (size_t i = 0; i < sizeof text - 1; i++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            unsigned char c = (unsigned char)(rng >> 32);
            text[i] = (char)(c ? c : 'x');
        }
        text[sizeof text - 1] = '\0';
        const char *got = NULL;
        json_t *obj = json_line(text, 90 + (size_t)(rng % 300), &got);
        bad += obj == NULL;
        json_decref(obj);
    }
    CHECK_EQ_INT(bad, 0);
}

static void test_parse_format(void) {
    enum log_format f = LOG_FORMAT_TEXT;
    CHECK_EQ_INT(log_parse_format("json", &f), 0);
    CHECK_EQ_INT(f, LOG_FORMAT_JSON);
    CHECK_EQ_STR(log_format_name(f), "json");
    CHECK_EQ_INT(log_parse_format("text", &f), 0);
    CHECK_EQ_INT(f, LOG_FORMAT_TEXT);
    CHECK_EQ_INT(log_parse_format("JSON", &f), -1);
    CHECK_EQ_INT(log_parse_format("", &f), -1);
    CHECK_EQ_INT(f, LOG_FORMAT_TEXT);
}

int main(void) {
    RUN(test_sanitize);
    RUN(test_random_bytes);
    RUN(test_text_line);
    RUN(test_json_line);
    RUN(test_json_random_bytes);
    RUN(test_parse_format);
    return check_finish();
}
