/*
 * Replay driver for the fuzz targets, so that the normal test run exercises them without
 * libFuzzer: runs every file of the corpus directories given, then a fixed number of
 * deterministic mutations of each (byte flips, insertions, deletions, chess-flavoured tokens).
 *
 *   fuzz_X_replay [--mutations N | --budget N] DIR...
 *
 * --budget N shares N mutations among the corpus's files (at least one each), so the run's cost
 * stays the same as the corpus grows with libFuzzer's finds (scripts/fuzz.sh).
 *
 * A failing input aborts the process (the target's FUZZ_ASSERT, or a sanitizer) after its path
 * is printed. With FUZZ_LAST_INPUT=FILE in the environment every input is first written to FILE,
 * so the one that failed is there to add to the corpus.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define FUZZ_MAX_INPUT 65536

/* Chess-flavoured and JSON-flavoured (fuzz_proto) pieces of text. */
static const char *const tokens[] = {" ",           "/",        "8",
                                     "K",           "k",        "Q",
                                     "=",           "x",        "O-O",
                                     "0-0-0",       "+",        "#",
                                     "{",           "}",        "(",
                                     ")",           "[",        "]",
                                     "\"",          "\\",       ";",
                                     "$",           "\n",       "e8=Q",
                                     "1-0",         "1/2-1/2",  "*",
                                     "-",           "w",        "b",
                                     "KQkq",        "HAha",     "e3",
                                     "99999999999", "\xff",     "%",
                                     ",",           ":",        "\"id\":",
                                     "\"type\":",   "\"\"",     "true",
                                     "null",        "-0",       "1e999",
                                     ".5",          "\\u0000",  "\\ud800",
                                     "\\u00e9",     "\xc3\xa9", "9223372036854775808",
                                     "{\"a\":[]}"};

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t next_random(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static size_t mutate(uint8_t *buf, size_t len) {
    int edits = 1 + (int)(next_random() % 4);
    for (int e = 0; e < edits; e++) {
        size_t at = len ? next_random() % (len + 1) : 0;
        switch (next_random() % 4) {
            case 0:
                if (at < len) buf[at] = (uint8_t)next_random();
                break;
            case 1:
                if (at < len) {
                    size_t n = 1 + next_random() % 8;
                    if (n > len - at) n = len - at;
                    memmove(buf + at, buf + at + n, len - at - n);
                    len -= n;
                }
                break;
            default: {
                const char *t = tokens[next_random() % (sizeof tokens / sizeof tokens[0])];
                size_t n = strlen(t);
                if (len + n >= FUZZ_MAX_INPUT) break;
                memmove(buf + at + n, buf + at, len - at);
                memcpy(buf + at, t, n);
                len += n;
            }
        }
    }
    return len;
}

/* Runs one input, saving it first when FUZZ_LAST_INPUT names a file. The target gets a copy of
 * exactly len bytes, so that the sanitizers see a read past its end. */
static void run_input(const uint8_t *data, size_t len) {
    const char *save = getenv("FUZZ_LAST_INPUT");
    if (save) {
        FILE *f = fopen(save, "wb");
        if (f) {
            if (fwrite(data, 1, len, f) != len) perror(save);
            fclose(f);
        }
    }
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) {
        perror("malloc");
        exit(1);
    }
    memcpy(copy, data, len);
    LLVMFuzzerTestOneInput(copy, len);
    free(copy);
}

static int run_file(const char *path, long mutations) {
    static uint8_t original[FUZZ_MAX_INPUT], buf[FUZZ_MAX_INPUT];
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t len = fread(original, 1, sizeof original, f);
    fclose(f);
    printf("%s\n", path);
    fflush(stdout);
    run_input(original, len);
    for (long i = 0; i < mutations; i++) {
        memcpy(buf, original, len);
        run_input(buf, mutate(buf, len));
    }
    return 0;
}

/* Files in the directories (not starting with '.'), or -1 when one cannot be read. */
static int count_files(int argc, char **argv, int first) {
    int files = 0;
    for (int i = first; i < argc; i++) {
        DIR *dir = opendir(argv[i]);
        if (!dir) return -1;
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) files += entry->d_name[0] != '.';
        closedir(dir);
    }
    return files;
}

int main(int argc, char **argv) {
    long mutations = 2000;
    int files = 0, i = 1;
    if (argc > 2 && strcmp(argv[1], "--mutations") == 0) {
        mutations = strtol(argv[2], NULL, 10);
        i = 3;
    } else if (argc > 2 && strcmp(argv[1], "--budget") == 0) {
        int total = count_files(argc, argv, 3);
        long budget = strtol(argv[2], NULL, 10);
        mutations = total > 0 && budget / total > 1 ? budget / total : 1;
        i = 3;
    }
    for (; i < argc; i++) {
        DIR *dir = opendir(argv[i]);
        if (!dir) {
            perror(argv[i]);
            return 1;
        }
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            if (entry->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], entry->d_name);
            if (run_file(path, mutations) < 0) {
                closedir(dir);
                return 1;
            }
            files++;
        }
        closedir(dir);
    }
    printf("%d corpus files, %ld mutations each: no failure\n", files, mutations);
    return files > 0 ? 0 : 1;
}
