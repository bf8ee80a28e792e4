/* Tests of chat text cleaning and the bounded log. */
#include <string.h>

#include "check.h"
#include "core/chat.h"
#include "core/errors.h"

static void test_clean(void) {
    char out[CHAT_MAX_BYTES + 1];
    CHECK_EQ_INT(chat_clean_text("  hello  ", out), 0);
    CHECK_EQ_STR(out, "hello");
    CHECK_EQ_INT(chat_clean_text("a\tb\nc", out), 0);
    CHECK_EQ_STR(out, "a b c");
    CHECK_EQ_INT(chat_clean_text("   ", out), -CORE_ERR_CHAT_INVALID);
    CHECK_EQ_INT(chat_clean_text("", out), -CORE_ERR_CHAT_INVALID);
    char long_text[CHAT_MAX_CHARS + 2];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    CHECK_EQ_INT(chat_clean_text(long_text, out), -CORE_ERR_CHAT_INVALID);
    long_text[CHAT_MAX_CHARS] = '\0';
    CHECK_EQ_INT(chat_clean_text(long_text, out), 0);
    /* 140 two-byte characters are 140 characters, not 280. */
    char accents[CHAT_MAX_CHARS * 2 + 1] = "";
    for (int i = 0; i < CHAT_MAX_CHARS; i++) strcat(accents, "\xc3\xa9");
    CHECK_EQ_INT(chat_clean_text(accents, out), 0);
}

static void test_log_ring(void) {
    struct chat_log log = {0};
    char text[24];
    for (int i = 0; i < CHAT_LOG_LINES + 5; i++) {
        snprintf(text, sizeof text, "line %d", i);
        CHECK(chat_log_append(&log, i, "id", "name", text) != NULL);
    }
    CHECK_EQ_INT(log.count, CHAT_LOG_LINES);
    CHECK_EQ_STR(chat_log_line(&log, 0)->text, "line 5");
    snprintf(text, sizeof text, "line %d", CHAT_LOG_LINES + 4);
    CHECK_EQ_STR(chat_log_line(&log, CHAT_LOG_LINES - 1)->text, text);
    chat_log_free(&log);
}

int main(void) {
    RUN(test_clean);
    RUN(test_log_ring);
    return check_finish();
}
