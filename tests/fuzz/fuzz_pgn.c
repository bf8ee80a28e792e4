/*
 * Fuzz target: PGN reading. Reads every game in the input; each game read must write out as
 * PGN that reads back to the same final position.
 */
#include <chess/pgn.h>

#include <stdlib.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t offset = 0;
    for (int games = 0; games < 16 && offset < size; games++) {
        struct chess_pgn pgn, back;
        size_t consumed = 0;
        int rc = chess_pgn_read((const char *)data + offset, size - offset, &consumed, &pgn);
        FUZZ_ASSERT(consumed <= size - offset);
        if (rc < 0) break;
        char *text = NULL;
        long len = chess_pgn_write(&pgn, &text);
        FUZZ_ASSERT(len > 0);
        size_t used;
        FUZZ_ASSERT(chess_pgn_read(text, (size_t)len, &used, &back) == 0);
        FUZZ_ASSERT(back.game.current.key == pgn.game.current.key);
        FUZZ_ASSERT(back.game.ply_count == pgn.game.ply_count);
        free(text);
        chess_pgn_free(&back);
        chess_pgn_free(&pgn);
        if (consumed == 0) break;
        offset += consumed;
    }
    return 0;
}
