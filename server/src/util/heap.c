/* Array-backed binary heap with back-indices for removal and key changes. */
#include "util/heap.h"
#include "util/vec.h"

#include <stdlib.h>

void heap_free(struct heap *heap) {
    free(heap->nodes);
    *heap = (struct heap){0};
}

static void place(struct heap *heap, size_t i, struct heap_node *node) {
    heap->nodes[i] = node;
    node->index = i + 1;
}

static void sift_up(struct heap *heap, size_t i) {
    struct heap_node *node = heap->nodes[i];
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (heap->nodes[parent]->key <= node->key) break;
        place(heap, i, heap->nodes[parent]);
        i = parent;
    }
    place(heap, i, node);
}

static void sift_down(struct heap *heap, size_t i) {
    struct heap_node *node = heap->nodes[i];
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= heap->count) break;
        if (child + 1 < heap->count && heap->nodes[child + 1]->key < heap->nodes[child]->key)
            child++;
        if (node->key <= heap->nodes[child]->key) break;
        place(heap, i, heap->nodes[child]);
        i = child;
    }
    place(heap, i, node);
}

int heap_set(struct heap *heap, struct heap_node *node, int64_t key) {
    if (node->index) {
        int64_t old = node->key;
        node->key = key;
        if (key < old)
            sift_up(heap, node->index - 1);
        else
            sift_down(heap, node->index - 1);
        return 0;
    }
    if (vec_reserve((void **)&heap->nodes, &heap->capacity, heap->count + 1, sizeof *heap->nodes,
                    64) < 0)
        return -1;
    node->key = key;
    place(heap, heap->count++, node);
    sift_up(heap, heap->count - 1);
    return 0;
}

void heap_remove(struct heap *heap, struct heap_node *node) {
    if (!node->index) return;
    size_t i = node->index - 1;
    node->index = 0;
    struct heap_node *last = heap->nodes[--heap->count];
    if (i == heap->count) return;
    place(heap, i, last);
    if (i > 0 && last->key < heap->nodes[(i - 1) / 2]->key)
        sift_up(heap, i);
    else
        sift_down(heap, i);
}

struct heap_node *heap_peek(const struct heap *heap) {
    return heap->count ? heap->nodes[0] : NULL;
}
