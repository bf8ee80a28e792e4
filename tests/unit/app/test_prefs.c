/*
 * Tests of the player settings' rules (app/prefs.h): known keys with allowed values pass and
 * come back as sorted compact JSON; an unknown key, a bad value, a wrong type, something that is
 * not an object or an object too large is refused, naming what is wrong; stored text is read
 * back keeping only what is allowed today.
 */
#include <stdlib.h>
#include <string.h>

#include "app/prefs.h"
#include "check.h"

/* prefs_check on JSON text: its result, with the canonical text or the field in out. */
static int check_text(const char *json, char *out, size_t size) {
    json_t *obj = json_loads(json, JSON_DECODE_ANY, NULL);
    char *text = NULL;
    const char *field = NULL;
    int rc = prefs_check(obj, &text, &field);
    snprintf(out, size, "%s", rc == 0 ? text : field);
    free(text);
    json_decref(obj);
    return rc;
}

static void test_allowed(void) {
    char out[PREFS_MAX_BYTES + 1];
    CHECK_EQ_INT(check_text("{}", out, sizeof out), 0);
    CHECK_EQ_STR(out, "{}");
    CHECK_EQ_INT(
        check_text("{\"zen\":true,\"board\":\"blue\",\"volume\":0,\"board_size\":100,"
                   "\"pieces\":\"merida\",\"theme\":\"dark\",\"coordinates\":false,"
                   "\"animation\":\"slow\",\"confirm_move\":true,\"auto_queen\":\"never\"}",
                   out, sizeof out),
        0);
    CHECK_EQ_STR(out, "{\"animation\":\"slow\",\"auto_queen\":\"never\",\"board\":\"blue\","
                      "\"board_size\":100,\"confirm_move\":true,\"coordinates\":false,"
                      "\"pieces\":\"merida\",\"theme\":\"dark\",\"volume\":0,\"zen\":true}");
}

static void test_refused(void) {
    char out[PREFS_MAX_BYTES + 1];
    /* Each refused object, and what the refusal names. */
    static const char *const refused[][2] = {
        {"{\"board\":\"blue\",\"colour\":\"red\"}", "colour"},
        {"{\"board\":\"wood\"}", "board"},
        {"{\"volume\":101}", "volume"},
        {"{\"volume\":-1}", "volume"},
        {"{\"volume\":50.5}", "volume"},
        {"{\"board_size\":49}", "board_size"},
        {"{\"zen\":1}", "zen"},
        {"{\"pieces\":true}", "pieces"},
        {"{\"auto_queen\":\"sometimes\"}", "auto_queen"},
        {"[]", "settings"},
        {"\"board\"", "settings"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        CHECK_EQ_INT(check_text(refused[i][0], out, sizeof out), -1);
        CHECK_EQ_STR(out, refused[i][1]);
    }
    /* Too large: refused as a whole before any key is looked at. */
    char big[PREFS_MAX_BYTES + 64];
    int n = snprintf(big, sizeof big, "{\"board\":\"");
    memset(big + n, 'x', PREFS_MAX_BYTES);
    strcpy(big + n + PREFS_MAX_BYTES, "\"}");
    CHECK_EQ_INT(check_text(big, out, sizeof out), -1);
    CHECK_EQ_STR(out, "settings");
    CHECK_EQ_INT(prefs_check(NULL, &(char *){NULL}, &(const char *){NULL}), -1);
}

/* Stored text keeps what is allowed today; anything else reads as {}. */
static void test_parse(void) {
    json_t *s = prefs_parse("{\"board\":\"green\",\"old_key\":1,\"volume\":500,\"zen\":false}");
    char *text = json_dumps(s, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_EQ_STR(text, "{\"board\":\"green\",\"zen\":false}");
    free(text);
    json_decref(s);
    const char *empty[] = {"", "not json", "[1,2]", "42"};
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        s = prefs_parse(empty[i]);
        CHECK(json_is_object(s) && json_object_size(s) == 0);
        json_decref(s);
    }
    s = prefs_parse(NULL);
    CHECK(json_is_object(s) && json_object_size(s) == 0);
    json_decref(s);
}

int main(void) {
    RUN(test_allowed);
    RUN(test_refused);
    RUN(test_parse);
    return check_finish();
}
