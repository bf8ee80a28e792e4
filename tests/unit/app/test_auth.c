/*
 * Tests of the account rules: which usernames and passwords are accepted, the lower-case login
 * name, and that different tokens hash differently.
 */
#include <stdint.h>
#include <string.h>

#include "app/auth.h"
#include "check.h"

static void test_rules(void) {
    char lower[AUTH_USERNAME_MAX + 1];
    CHECK_EQ_INT(auth_username_check("Magnus_C", lower), 0);
    CHECK_EQ_STR(lower, "magnus_c");
    CHECK_EQ_INT(auth_username_check("ab", lower), -1);
    CHECK_EQ_INT(auth_username_check("a23456789012345678901", lower), -1);
    CHECK_EQ_INT(auth_username_check("1abc", lower), -1);
    CHECK_EQ_INT(auth_username_check("abc_", lower), -1);
    CHECK_EQ_INT(auth_username_check("a__b", lower), -1);
    CHECK_EQ_INT(auth_username_check("a b", lower), -1);
    CHECK_EQ_INT(auth_username_check("GuestStar", lower), -1);
    CHECK_EQ_INT(auth_username_check("a-b_c9", lower), 0);
    CHECK_EQ_INT(auth_username_check(NULL, lower), -1);
    CHECK_EQ_INT(auth_password_check("1234567"), -1);
    CHECK_EQ_INT(auth_password_check("12345678"), 0);
    uint8_t a[AUTH_TOKEN_HASH_LEN], b[AUTH_TOKEN_HASH_LEN];
    auth_token_hash("x", a);
    auth_token_hash("y", b);
    CHECK(memcmp(a, b, sizeof a) != 0);
}

/* A session's id is the hex of its hash's first bytes, and reads back to them. */
static void test_session_ids(void) {
    uint8_t hash[AUTH_TOKEN_HASH_LEN] = {0x3f, 0x9a, 0x0c, 0x1d, 0x2e, 0x4b, 0x5a, 0x69, 0xff};
    char id[AUTH_SESSION_ID_LEN + 1];
    auth_session_id(hash, id);
    CHECK_EQ_STR(id, "3f9a0c1d2e4b5a69");
    uint8_t back[AUTH_SESSION_BYTES];
    CHECK_EQ_INT(auth_session_parse(id, back), 0);
    CHECK(memcmp(back, hash, sizeof back) == 0);
    CHECK_EQ_INT(auth_session_parse("3F9A0C1D2E4B5A69", back), 0); /* either case */
    CHECK(memcmp(back, hash, sizeof back) == 0);
    CHECK_EQ_INT(auth_session_parse("3f9a0c1d2e4b5a6", back), -1);   /* too short */
    CHECK_EQ_INT(auth_session_parse("3f9a0c1d2e4b5a690", back), -1); /* too long */
    CHECK_EQ_INT(auth_session_parse("3f9a0c1d2e4b5a6g", back), -1);  /* not hex */
    CHECK_EQ_INT(auth_session_parse(NULL, back), -1);
}

/* Scopes read as lichess spells them, separated by commas and/or spaces, and written back in
 * one order whatever order they came in. */
static void test_scopes(void) {
    unsigned mask = 99;
    CHECK_EQ_INT(auth_scopes_parse("bot:play,board:play", &mask), 0);
    CHECK_EQ_INT(mask, AUTH_SCOPE_BOT_PLAY | AUTH_SCOPE_BOARD_PLAY);
    char text[AUTH_SCOPES_TEXT_MAX];
    CHECK_EQ_INT(auth_scopes_format(mask, text, sizeof text), 19);
    CHECK_EQ_STR(text, "board:play,bot:play");
    CHECK_EQ_INT(auth_scopes_parse(" challenge:read  preference:write,, email:read ,", &mask), 0);
    CHECK_EQ_INT(mask,
                 AUTH_SCOPE_CHALLENGE_READ | AUTH_SCOPE_PREFERENCE_WRITE | AUTH_SCOPE_EMAIL_READ);
    CHECK_EQ_INT(auth_scopes_parse("bot:play bot:play", &mask), 0); /* repeated */
    CHECK_EQ_INT(mask, AUTH_SCOPE_BOT_PLAY);
    CHECK_EQ_INT(auth_scopes_parse("", &mask), 0);
    CHECK_EQ_INT(mask, 0);
    CHECK_EQ_INT(auth_scopes_parse(" , ", &mask), 0);
    CHECK_EQ_INT(mask, 0);
    CHECK_EQ_INT(auth_scopes_parse(NULL, &mask), 0);
    CHECK_EQ_INT(mask, 0);
    /* Unknown words, other spellings, other separators, a prefix of a scope. */
    const char *bad[] = {"bot:play,web:mod",
                         "Bot:Play",
                         "bot:play;board:play",
                         "bot:pla",
                         "bot:playx",
                         "bot",
                         ":",
                         "board:play\tbot:play"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mask = 1;
        CHECK_EQ_INT(auth_scopes_parse(bad[i], &mask), -1);
        CHECK_EQ_INT(mask, 0);
    }
    /* Every scope: all of them read back, in the order of the enum. */
    CHECK_EQ_INT(auth_scopes_format(AUTH_SCOPE_ALL, text, sizeof text), 111);
    CHECK_EQ_STR(text, "preference:read,preference:write,email:read,challenge:read,"
                       "challenge:write,tournament:write,board:play,bot:play");
    CHECK_EQ_INT(auth_scopes_parse(text, &mask), 0);
    CHECK_EQ_INT(mask, AUTH_SCOPE_ALL);
    for (unsigned bit = 1; bit & AUTH_SCOPE_ALL; bit <<= 1) {
        CHECK(auth_scope_name(bit) != NULL);
        CHECK_EQ_INT(auth_scopes_format(bit, text, sizeof text), (int)strlen(auth_scope_name(bit)));
        CHECK_EQ_INT(auth_scopes_parse(auth_scope_name(bit), &mask), 0);
        CHECK_EQ_INT(mask, bit);
    }
    CHECK(auth_scope_name(0) == NULL);
    CHECK(auth_scope_name(AUTH_SCOPE_BOT_PLAY | AUTH_SCOPE_BOARD_PLAY) == NULL);
    CHECK_EQ_INT(auth_scopes_format(0, text, sizeof text), 0);
    CHECK_EQ_STR(text, "");
    CHECK_EQ_INT(auth_scopes_format(AUTH_SCOPE_ALL + 1, text, sizeof text), -1); /* no scope */
    CHECK_EQ_INT(auth_scopes_format(AUTH_SCOPE_BOT_PLAY, text, 8), -1); /* "bot:play" needs 9 */
    CHECK_EQ_STR(text, "");
    CHECK_EQ_INT(auth_scopes_format(AUTH_SCOPE_BOT_PLAY, text, 9), 8);
    CHECK_EQ_INT(auth_scopes_format(AUTH_SCOPE_BOARD_PLAY | AUTH_SCOPE_BOT_PLAY, text, 19), -1);
    CHECK_EQ_STR(text, "");
}

int main(void) {
    RUN(test_rules);
    RUN(test_session_ids);
    RUN(test_scopes);
    return check_finish();
}
