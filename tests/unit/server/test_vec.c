/* Tests of vec_reserve: doubling from the first room, keeping the elements, refusing overflow. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "util/vec.h"

static void test_growth_keeps_elements(void) {
    int *items = NULL;
    size_t cap = 0;
    for (int i = 0; i < 1000; i++) {
        CHECK_EQ_INT(vec_reserve((void **)&items, &cap, (size_t)i + 1, sizeof *items, 4), 0);
        items[i] = i;
    }
    CHECK(cap == 1024); /* 4, 8, ..., 1024 */
    int ok = 1;
    for (int i = 0; i < 1000; i++) ok &= items[i] == i;
    CHECK(ok);
    CHECK_EQ_INT(vec_reserve((void **)&items, &cap, 10, sizeof *items, 4), 0); /* room already */
    CHECK(cap == 1024);
    free(items);
}

static void test_overflow_refused(void) {
    int *items = NULL;
    size_t cap = 0;
    CHECK_EQ_INT(vec_reserve((void **)&items, &cap, SIZE_MAX / 2, sizeof(int64_t), 4), -1);
    CHECK(items == NULL);
    CHECK(cap == 0);
}

int main(void) {
    RUN(test_growth_keeps_elements);
    RUN(test_overflow_refused);
    return check_finish();
}
