/*
 * A binary min-heap of deadlines. Items embed a struct heap_node; the heap stores pointers to the
 * nodes and keeps each node's index, so an item can change its deadline or leave in O(log n).
 *
 * Not thread-safe: one owner.
 */
#ifndef SERVER_UTIL_HEAP_H
#define SERVER_UTIL_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct heap_node {
    int64_t key;  /* the deadline */
    size_t index; /* position in the heap + 1; 0 when not in a heap */
};

struct heap {
    struct heap_node **nodes;
    size_t count;
    size_t capacity;
};

void heap_free(struct heap *heap);

/* Inserts the node with the given key, or moves it when already in the heap.
 * Returns 0 or -1 when memory runs out. */
int heap_set(struct heap *heap, struct heap_node *node, int64_t key);

/* Removes the node if it is in the heap. */
void heap_remove(struct heap *heap, struct heap_node *node);

/* The node with the smallest key, or NULL when empty. */
struct heap_node *heap_peek(const struct heap *heap);

static inline int heap_contains(const struct heap_node *node) {
    return node->index != 0;
}

#endif
