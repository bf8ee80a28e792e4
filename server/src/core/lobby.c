/* Seeks in a doubly linked list (creation order) plus a map by id. */
#include "core/lobby.h"

#include <stdlib.h>

#include "core/errors.h"

int lobby_add(struct lobby *lobby, struct seek *seek) {
    if (strmap_put(&lobby->by_id, seek->id, seek) < 0) return -CORE_ERR_NO_MEMORY;
    seek->next = NULL;
    seek->prev = lobby->tail;
    if (lobby->tail)
        lobby->tail->next = seek;
    else
        lobby->head = seek;
    lobby->tail = seek;
    lobby->total++;
    if (!seek->is_challenge) lobby->listed++;
    return 0;
}

void lobby_remove(struct lobby *lobby, struct seek *seek) {
    strmap_remove(&lobby->by_id, seek->id);
    if (seek->prev)
        seek->prev->next = seek->next;
    else
        lobby->head = seek->next;
    if (seek->next)
        seek->next->prev = seek->prev;
    else
        lobby->tail = seek->prev;
    seek->prev = seek->next = NULL;
    lobby->total--;
    if (!seek->is_challenge) lobby->listed--;
}

struct seek *lobby_find(const struct lobby *lobby, const char *id) {
    return strmap_get(&lobby->by_id, id);
}

void lobby_free(struct lobby *lobby) {
    struct seek *s = lobby->head;
    while (s) {
        struct seek *next = s->next;
        free(s);
        s = next;
    }
    strmap_free(&lobby->by_id);
    *lobby = (struct lobby){0};
}
