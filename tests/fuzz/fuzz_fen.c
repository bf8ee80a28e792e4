/*
 * Fuzz target: FEN parsing. Any input must either be rejected with an error code or give a
 * position whose FEN (X-FEN and Shredder) parses back to the same position.
 */
#include <chess/fen.h>
#include <chess/movegen.h>

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    struct chess_position pos, again;
    if (chess_fen_parse(&pos, text) == 0) {
        char out[CHESS_FEN_MAX];
        for (int flags = 0; flags < 2; flags++) {
            FUZZ_ASSERT(chess_fen_write(&pos, flags, out, sizeof out) > 0);
            FUZZ_ASSERT(chess_fen_parse(&again, out) == 0);
            FUZZ_ASSERT(again.key == pos.key && again.castling == pos.castling);
            FUZZ_ASSERT(memcmp(again.board, pos.board, sizeof pos.board) == 0);
        }
        FUZZ_ASSERT(pos.key == chess_position_compute_key(&pos));
        FUZZ_ASSERT(chess_perft(&pos, 2) < 100000);
    }
    free(text);
    return 0;
}
