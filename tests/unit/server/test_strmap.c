/* Tests of the string map: insert, replace, lookup, removal with backward shift, iteration. */
#include <stddef.h>
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

struct named {
    int value;
    char id[8];
};

static void test_get_or_add(void) {
    struct strmap m = {0};
    int created = -1;
    struct named *a =
        strmap_get_or_add(&m, "abc", sizeof *a, offsetof(struct named, id), sizeof a->id, &created);
    CHECK(a != NULL);
    if (!a) return;
    CHECK_EQ_INT(created, 1);
    CHECK_EQ_STR(a->id, "abc");
    CHECK_EQ_INT(a->value, 0);
    a->value = 7;
    struct named *again =
        strmap_get_or_add(&m, "abc", sizeof *a, offsetof(struct named, id), sizeof a->id, &created);
    CHECK(again == a);
    CHECK_EQ_INT(created, 0);
    CHECK(strmap_get(&m, "abc") == a);
    /* A key that does not fit its array is refused, and the map is unchanged. */
    CHECK(strmap_get_or_add(&m, "12345678", sizeof *a, offsetof(struct named, id), sizeof a->id,
                            &created) == NULL);
    CHECK_EQ_INT((int)m.count, 1);
    free(strmap_remove(&m, "abc"));
    strmap_free(&m);
}

int main(void) {
    RUN(test_basic);
    RUN(test_many);
    RUN(test_get_or_add);
    return check_finish();
}
