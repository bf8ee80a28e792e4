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

int main(void) {
    RUN(test_rules);
    return check_finish();
}
