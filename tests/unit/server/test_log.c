/* Tests of log_sanitize: what a client sends is logged as one line of valid UTF-8. */
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

int main(void) {
    RUN(test_sanitize);
    RUN(test_random_bytes);
    return check_finish();
}
