/* Small string helpers. Any thread. */
#ifndef SERVER_UTIL_STR_H
#define SERVER_UTIL_STR_H

#include <stddef.h>

/* Copies src into dst (size bytes, size > 0), always NUL-terminated; cuts at a UTF-8 character
 * boundary when too long. Returns the length copied. */
size_t str_copy(char *dst, size_t size, const char *src);

#endif
