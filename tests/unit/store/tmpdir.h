/* Temporary directories for store tests: created under $TMPDIR (or /tmp), removed with all
 * their files at the end. */
#ifndef TEST_STORE_TMPDIR_H
#define TEST_STORE_TMPDIR_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int tmpdir_unlink(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Creates a fresh directory; writes its path into out (size bytes). Returns 0 or -1. */
static int tmpdir_make(char *out, size_t size) {
    const char *base = getenv("TMPDIR");
    snprintf(out, size, "%s/chess-store-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(out) ? 0 : -1;
}

static void tmpdir_remove(const char *path) {
    nftw(path, tmpdir_unlink, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
