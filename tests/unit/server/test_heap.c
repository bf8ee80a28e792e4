/* Tests of the deadline heap: ordering, key changes in both directions, removal. */
#include <stdlib.h>

#include "check.h"
#include "util/heap.h"

static void test_order(void) {
    enum { N = 1000 };
    static struct heap_node nodes[N];
    struct heap h = {0};
    unsigned x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 1103515245u + 12345u;
        CHECK_EQ_INT(heap_set(&h, &nodes[i], (int64_t)(x % 100000)), 0);
    }
    /* Move some, remove some. */
    for (int i = 0; i < N; i += 7) heap_set(&h, &nodes[i], nodes[i].key / 2);
    for (int i = 3; i < N; i += 11) heap_set(&h, &nodes[i], nodes[i].key + 50000);
    for (int i = 5; i < N; i += 13) heap_remove(&h, &nodes[i]);
    int64_t last = -1;
    int popped = 0, bad = 0;
    struct heap_node *n;
    while ((n = heap_peek(&h))) {
        if (n->key < last) bad++;
        last = n->key;
        heap_remove(&h, n);
        CHECK(!heap_contains(n));
        popped++;
    }
    CHECK_EQ_INT(bad, 0);
    int removed = 0;
    for (int i = 5; i < N; i += 13) removed++;
    CHECK_EQ_INT(popped, N - removed);
    heap_free(&h);
}

int main(void) {
    RUN(test_order);
    return check_finish();
}
