/*
 * The mirror image of a position for symmetry tests: colours swapped and the board flipped top
 * to bottom, which any evaluation must score the same for the side to move.
 */
#ifndef TEST_ENGINE_TEST_MIRROR_H
#define TEST_ENGINE_TEST_MIRROR_H

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The same position with colours swapped and the board flipped top to bottom. */
static int mirror_fen(const char *fen, char *out, size_t size) {
    char board[100], side[4], castling[8], ep[4];
    int half = 0, full = 1;
    if (sscanf(fen, "%99s %3s %7s %3s %d %d", board, side, castling, ep, &half, &full) < 4)
        return -1;
    char ranks[8][16];
    int n = 0;
    for (char *save = NULL, *r = strtok_r(board, "/", &save); r && n < 8;
         r = strtok_r(NULL, "/", &save))
        snprintf(ranks[n++], sizeof ranks[0], "%s", r);
    if (n != 8) return -1;
    char flipped[100] = "";
    for (int i = 7; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            *c = isupper((unsigned char)*c) ? (char)tolower(*c) : (char)toupper(*c);
        strcat(flipped, ranks[i]);
        if (i) strcat(flipped, "/");
    }
    char rights[8] = "";
    const char *order = "KQkq";
    for (int i = 0; i < 4; i++) {
        char want = order[i];
        char from = isupper((unsigned char)want) ? (char)tolower(want) : (char)toupper(want);
        if (strchr(castling, from)) strncat(rights, &want, 1);
    }
    if (!rights[0]) strcpy(rights, "-");
    if (ep[0] != '-') ep[1] = ep[1] == '3' ? '6' : '3';
    int len = snprintf(out, size, "%s %s %s %s %d %d", flipped, side[0] == 'w' ? "b" : "w", rights,
                       ep, half, full);
    return len > 0 && (size_t)len < size ? 0 : -1;
}

#endif
