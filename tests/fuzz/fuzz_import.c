/*
 * Fuzz target: importing a PGN game (pgn_import, store_import_pgn). The engine's reader is
 * fuzzed by fuzz_pgn; this checks what the server makes of it: the names, result and start
 * position it stores, and that the stored game exports (store_game_pgn, as /api/games/<id>.pgn
 * does) to PGN that reads back to the same names and moves. A client's PGN arrives in a JSON
 * string, so it is valid UTF-8 without NUL bytes; for such input what is stored must be valid
 * UTF-8 too (jansson refuses to send anything else, so a name that is not would be lost).
 */
#include <chess/fen.h>
#include <chess/pgn.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "store/archive.h"
#include "store/store.h"

static bool is_utf8(const char *s, size_t len) {
    json_t *v = json_stringn(s, len);
    json_decref(v);
    return v != NULL;
}

static bool same_tag(const struct chess_pgn *pgn, const char *name, const char *stored) {
    const char *v = chess_pgn_tag(pgn, name);
    return v && strcmp(v, stored) == 0;
}

/* The stored game as the archive reads it back, exported and read again. */
static void check_export(const struct store_op *op) {
    struct store_game g = {.status = "imported", .unlimited = true, .category = -1};
    snprintf(g.id, sizeof g.id, "Imported1");
    memcpy(g.name[0], op->u.import.white, sizeof g.name[0]);
    memcpy(g.name[1], op->u.import.black, sizeof g.name[1]);
    memcpy(g.initial_fen, op->u.import.initial_fen, sizeof g.initial_fen);
    memcpy(g.result, op->u.import.result, sizeof g.result);
    g.ply_count = op->u.import.count;
    g.moves = op->u.import.moves;
    char *text = NULL;
    long len = store_game_pgn(&g, "http://localhost", NULL, &text);
    FUZZ_ASSERT(len > 0 && text);
    struct chess_pgn back;
    size_t consumed;
    FUZZ_ASSERT(chess_pgn_read(text, (size_t)len, &consumed, &back) == 0);
    FUZZ_ASSERT(same_tag(&back, "White", g.name[0]) && same_tag(&back, "Black", g.name[1]));
    FUZZ_ASSERT(back.game.ply_count == g.ply_count);
    char fen[STORE_FEN_MAX + 1];
    FUZZ_ASSERT(store_game_fen(&g, g.ply_count, fen) == 0);
    char fen_back[CHESS_FEN_MAX + 1];
    FUZZ_ASSERT(chess_fen_write(&back.game.current, CHESS_FEN_XFEN, fen_back, sizeof fen_back) > 0);
    FUZZ_ASSERT(strcmp(fen, fen_back) == 0);
    chess_pgn_free(&back);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    /* What handle_import passes: the text up to its first NUL. */
    size_t len = strlen(text);
    bool from_json = len == size && is_utf8(text, len);
    struct store_op op;
    char err[160];
    if (store_import_pgn(text, len, "Imported1", 1700000000000, &op, err, sizeof err) == 0) {
        const struct store_op *o = &op;
        FUZZ_ASSERT(o->u.import.white[0] && o->u.import.black[0] && o->u.import.result[0]);
        FUZZ_ASSERT(o->u.import.count >= 0 && o->u.import.pgn);
        if (from_json) {
            FUZZ_ASSERT(is_utf8(o->u.import.white, strlen(o->u.import.white)));
            FUZZ_ASSERT(is_utf8(o->u.import.black, strlen(o->u.import.black)));
            FUZZ_ASSERT(is_utf8(o->u.import.pgn, strlen(o->u.import.pgn)));
        }
        check_export(&op);
        store_op_release(&op);
    } else {
        FUZZ_ASSERT(err[0]);
    }
    free(text);
    return 0;
}
