/*
 * Fuzz target: move text. The first line is a FEN (the start position when it does not parse),
 * every further line a move in UCI or SAN: each is rejected with an error or played, and a
 * played move must write back as SAN and UCI that read as the same move.
 */
#include <chess/fen.h>
#include <chess/move.h>
#include <chess/san.h>

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    struct chess_position pos;
    char *line = strtok(text, "\n");
    if (!line || chess_fen_parse(&pos, line) < 0) chess_position_startpos(&pos);
    while ((line = strtok(NULL, "\n")) != NULL) {
        chess_move m, back;
        if (chess_move_parse(&pos, line, &m) < 0) continue;
        char san[CHESS_SAN_MAX], uci[CHESS_UCI_MAX];
        chess_san_write(&pos, m, san);
        chess_move_to_uci(&pos, m, uci);
        FUZZ_ASSERT(chess_san_parse(&pos, san, &back) == 0 && back == m);
        FUZZ_ASSERT(chess_move_from_uci(&pos, uci, &back) == 0 && back == m);
        chess_position_make_move(&pos, m);
    }
    free(text);
    return 0;
}
