/*
 * Shared by the fuzz targets: the libFuzzer entry point, an assertion that aborts (so both
 * libFuzzer and the replay driver report it), and a NUL-terminated copy of the input.
 */
#ifndef TEST_FUZZ_H
#define TEST_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz assertion failed at %s:%d: %s\n", __FILE__, __LINE__, #cond);    \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* A malloc'd NUL-terminated copy (embedded NULs end the text early, as in C strings). */
static inline char *fuzz_text(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return NULL;
    if (size) memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

#endif
