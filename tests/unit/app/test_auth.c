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

int main(void) {
    RUN(test_rules);
    RUN(test_session_ids);
    return check_finish();
}
