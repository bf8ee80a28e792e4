/* String helpers. */
#include "util/str.h"

#include <string.h>

size_t str_copy(char *dst, size_t size, const char *src) {
    size_t len = strlen(src);
    if (len >= size) {
        len = size - 1;
        /* Do not leave half a UTF-8 sequence at the end. */
        while (len > 0 && ((unsigned char)src[len] & 0xc0) == 0x80) len--;
    }
    memcpy(dst, src, len);
    dst[len] = '\0';
    return len;
}
