/*
 * Random identifiers and secrets from the kernel's CSPRNG (getrandom): base62 text, so ids fit
 * in URLs and JSON without escaping. Any thread.
 */
#ifndef SERVER_UTIL_IDS_H
#define SERVER_UTIL_IDS_H

#include <stddef.h>
#include <stdint.h>

/* Fills buf with n random bytes. Returns 0, or -1 when the kernel gives none (never blocks
 * after boot). */
int ids_random_bytes(void *buf, size_t n);

/* Writes len random base62 characters and a NUL into out (len + 1 bytes). Returns 0 or -1. */
int ids_random_text(char *out, size_t len);

/* A random 64-bit value (for seeding the core's generator). Returns 0 or -1. */
int ids_random_u64(uint64_t *out);

#endif
