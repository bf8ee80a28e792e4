/* Tests of the byte buffer: the free front, growth across many pieces, printf, finishing. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/buf.h"

static void test_pieces_after_the_front(void) {
    struct buf b;
    CHECK(buf_init(&b, 32, 4));
    for (int i = 0; i < 1000; i++) buf_put(&b, "ab", 2);
    buf_printf(&b, "|%d|%s|", 42, "x");
    size_t len = 0;
    unsigned char *block = buf_finish(&b, 32, &len);
    CHECK(block != NULL);
    if (!block) return;
    CHECK_EQ_INT((int)len, 2000 + 6);
    CHECK(memcmp(block + 32, "abab", 4) == 0);
    CHECK(memcmp(block + 32 + 2000, "|42|x|", 6) == 0);
    free(block);
}

static void test_printf_longer_than_the_room(void) {
    struct buf b;
    CHECK(buf_init(&b, 0, 1));
    char long_text[5000];
    memset(long_text, 'z', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    buf_printf(&b, "%s!", long_text);
    size_t len = 0;
    unsigned char *block = buf_finish(&b, 0, &len);
    CHECK(block != NULL);
    if (!block) return;
    CHECK_EQ_INT((int)len, 5000);
    CHECK(block[4999] == '!' && block[5000] == '\0');
    free(block);
}

static void test_failed_buffer_finishes_empty(void) {
    struct buf b;
    CHECK(buf_init(&b, 0, 8));
    b.failed = true; /* as after an allocation failure */
    buf_put(&b, "ignored", 7);
    size_t len = 123;
    CHECK(buf_finish(&b, 0, &len) == NULL);
    CHECK_EQ_INT((int)len, 123);
}

int main(void) {
    RUN(test_pieces_after_the_front);
    RUN(test_printf_longer_than_the_room);
    RUN(test_failed_buffer_finishes_empty);
    return check_finish();
}
