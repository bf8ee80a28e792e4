/* Tests of the string map: insert, replace, lookup, removal with backward shift, iteration. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "util/strmap.h"

static void test_basic(void) {
    struct strmap m = {0};
    CHECK(strmap_get(&m, "a") == NULL);
    CHECK(strmap_remove(&m, "a") == NULL);
    int one = 1, two = 2;
    CHECK_EQ_INT(strmap_put(&m, "a", &one), 0);
    CHECK_EQ_INT(strmap_put(&m, "b", &two), 0);
    CHECK(strmap_get(&m, "a") == &one);
    CHECK(strmap_get(&m, "b") == &two);
    CHECK_EQ_INT(strmap_put(&m, "a", &two), 0);
    CHECK(strmap_get(&m, "a") == &two);
    CHECK_EQ_INT(m.count, 2);
    CHECK(strmap_remove(&m, "a") == &two);
    CHECK(strmap_get(&m, "a") == NULL);
    CHECK_EQ_INT(m.count, 1);
    strmap_free(&m);
}

static void test_many(void) {
    enum { N = 5000 };
    static char keys[N][16];
    struct strmap m = {0};
    for (int i = 0; i < N; i++) {
        snprintf(keys[i], sizeof keys[i], "k%d", i);
        CHECK_EQ_INT(strmap_put(&m, keys[i], keys[i]), 0);
    }
    CHECK_EQ_INT(m.count, N);
    /* Remove every third key, then check every key is where it should be. */
    for (int i = 0; i < N; i += 3) CHECK(strmap_remove(&m, keys[i]) == keys[i]);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        void *v = strmap_get(&m, keys[i]);
        if (i % 3 == 0 ? v != NULL : v != keys[i]) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    int seen = 0;
    const char *k;
    void *v;
    for (size_t cursor = 0; strmap_next(&m, &cursor, &k, &v);) {
        if (k == v) seen++;
    }
    CHECK_EQ_INT(seen, (int)m.count);
    strmap_free(&m);
}

int main(void) {
    RUN(test_basic);
    RUN(test_many);
    return check_finish();
}
