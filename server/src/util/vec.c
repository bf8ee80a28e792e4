/* Growing arrays: realloc to the doubled room, checking the size for overflow. */
#include "util/vec.h"

#include <stdint.h>
#include <stdlib.h>

int vec_grow(void **items, size_t *cap, size_t need, size_t elem, size_t first) {
    if (need <= *cap) return 0;
    size_t room = *cap ? *cap : (first ? first : 1);
    while (room < need) {
        if (room > SIZE_MAX / 2) return -1;
        room *= 2;
    }
    if (elem && room > SIZE_MAX / elem) return -1;
    void *grown = realloc(*items, room * elem);
    if (!grown) return -1;
    *items = grown;
    *cap = room;
    return 0;
}
