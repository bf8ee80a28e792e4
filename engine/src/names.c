/*
 * Stable names and readable messages for error codes, results and terminations.
 */
#include "chess/types.h"

#include <string.h>

static const char *const error_names[CHESS_ERR_COUNT] = {
    [CHESS_OK] = "OK",
    [CHESS_ERR_FEN_FIELDS] = "FEN_FIELDS",
    [CHESS_ERR_FEN_PIECE] = "FEN_PIECE",
    [CHESS_ERR_FEN_RANK] = "FEN_RANK",
    [CHESS_ERR_FEN_KINGS] = "FEN_KINGS",
    [CHESS_ERR_FEN_PAWN_RANK] = "FEN_PAWN_RANK",
    [CHESS_ERR_FEN_TOO_MANY] = "FEN_TOO_MANY",
    [CHESS_ERR_FEN_SIDE] = "FEN_SIDE",
    [CHESS_ERR_FEN_CASTLING] = "FEN_CASTLING",
    [CHESS_ERR_FEN_EN_PASSANT] = "FEN_EN_PASSANT",
    [CHESS_ERR_FEN_CLOCKS] = "FEN_CLOCKS",
    [CHESS_ERR_FEN_OPPONENT_CHECK] = "FEN_OPPONENT_CHECK",
    [CHESS_ERR_FEN_CHECKERS] = "FEN_CHECKERS",
    [CHESS_ERR_MOVE_SYNTAX] = "MOVE_SYNTAX",
    [CHESS_ERR_MOVE_ILLEGAL] = "MOVE_ILLEGAL",
    [CHESS_ERR_MOVE_AMBIGUOUS] = "MOVE_AMBIGUOUS",
    [CHESS_ERR_PGN_SYNTAX] = "PGN_SYNTAX",
    [CHESS_ERR_PGN_EMPTY] = "PGN_EMPTY",
    [CHESS_ERR_GAME_OVER] = "GAME_OVER",
    [CHESS_ERR_GAME_TOO_LONG] = "GAME_TOO_LONG",
    [CHESS_ERR_BUFFER] = "BUFFER",
    [CHESS_ERR_NO_MEMORY] = "NO_MEMORY",
    [CHESS_ERR_FEN_CHECKS] = "FEN_CHECKS",
};

static const char *const error_messages[CHESS_ERR_COUNT] = {
    [CHESS_OK] = "no error",
    [CHESS_ERR_FEN_FIELDS] = "FEN must have 4 to 6 space-separated fields",
    [CHESS_ERR_FEN_PIECE] = "FEN board contains a character that is not a piece letter or digit",
    [CHESS_ERR_FEN_RANK] = "FEN board must have 8 ranks of 8 squares each",
    [CHESS_ERR_FEN_KINGS] = "each side must have exactly one king",
    [CHESS_ERR_FEN_PAWN_RANK] = "pawns cannot stand on the first or last rank",
    [CHESS_ERR_FEN_TOO_MANY] = "a side has more than 16 pieces or more than 8 pawns",
    [CHESS_ERR_FEN_SIDE] = "side to move must be 'w' or 'b'",
    [CHESS_ERR_FEN_CASTLING] = "castling rights do not match the king and rook positions",
    [CHESS_ERR_FEN_EN_PASSANT] = "en passant square is malformed or impossible",
    [CHESS_ERR_FEN_CLOCKS] = "halfmove clock and fullmove number must be small whole numbers",
    [CHESS_ERR_FEN_OPPONENT_CHECK] = "the side not to move is in check",
    [CHESS_ERR_FEN_CHECKERS] = "the side to move is in a check no legal move could have given",
    [CHESS_ERR_MOVE_SYNTAX] = "move is not in UCI or SAN notation",
    [CHESS_ERR_MOVE_ILLEGAL] = "move is not legal in this position",
    [CHESS_ERR_MOVE_AMBIGUOUS] = "move matches more than one legal move",
    [CHESS_ERR_PGN_SYNTAX] = "PGN text is malformed",
    [CHESS_ERR_PGN_EMPTY] = "no game found in the PGN text",
    [CHESS_ERR_GAME_OVER] = "the game is over",
    [CHESS_ERR_GAME_TOO_LONG] = "the game is too long",
    [CHESS_ERR_BUFFER] = "output buffer too small",
    [CHESS_ERR_NO_MEMORY] = "out of memory",
    [CHESS_ERR_FEN_CHECKS] = "three-check's checks field must be two counts 0..3 joined by +",
};

static int normalise(int code) {
    if (code < 0) code = -code;
    return code < CHESS_ERR_COUNT ? code : -1;
}

const char *chess_error_name(int code) {
    int c = normalise(code);
    return c < 0 ? "UNKNOWN" : error_names[c];
}

const char *chess_error_message(int code) {
    int c = normalise(code);
    return c < 0 ? "unknown error" : error_messages[c];
}

const char *chess_result_name(enum chess_result result) {
    switch (result) {
        case CHESS_RESULT_WHITE_WINS: return "1-0";
        case CHESS_RESULT_BLACK_WINS: return "0-1";
        case CHESS_RESULT_DRAW: return "1/2-1/2";
        default: return "*";
    }
}

const char *chess_termination_name(enum chess_termination term) {
    static const char *const names[CHESS_TERM_COUNT] = {
        [CHESS_TERM_NONE] = "none",
        [CHESS_TERM_CHECKMATE] = "checkmate",
        [CHESS_TERM_STALEMATE] = "stalemate",
        [CHESS_TERM_THREEFOLD_REPETITION] = "threefold_repetition",
        [CHESS_TERM_FIVEFOLD_REPETITION] = "fivefold_repetition",
        [CHESS_TERM_FIFTY_MOVES] = "fifty_moves",
        [CHESS_TERM_SEVENTY_FIVE_MOVES] = "seventy_five_moves",
        [CHESS_TERM_INSUFFICIENT_MATERIAL] = "insufficient_material",
        [CHESS_TERM_RESIGNATION] = "resignation",
        [CHESS_TERM_AGREEMENT] = "agreement",
        [CHESS_TERM_TIMEOUT] = "timeout",
        [CHESS_TERM_TIMEOUT_VS_INSUFFICIENT] = "timeout_vs_insufficient_material",
        [CHESS_TERM_ABORTED] = "aborted",
        [CHESS_TERM_ABANDONED] = "abandoned",
        [CHESS_TERM_KING_OF_THE_HILL] = "king_of_the_hill",
        [CHESS_TERM_THREE_CHECK] = "three_check",
    };
    return (unsigned)term < CHESS_TERM_COUNT ? names[term] : "unknown";
}

static const char *const variant_names[CHESS_VARIANT_COUNT] = {
    [CHESS_VARIANT_STANDARD] = "standard",
    [CHESS_VARIANT_KING_OF_THE_HILL] = "kingOfTheHill",
    [CHESS_VARIANT_THREE_CHECK] = "threeCheck",
};

const char *chess_variant_name(enum chess_variant variant) {
    return (unsigned)variant < CHESS_VARIANT_COUNT ? variant_names[variant] : "unknown";
}

int chess_variant_from_name(const char *name) {
    for (int v = 0; name && v < CHESS_VARIANT_COUNT; v++) {
        if (strcmp(variant_names[v], name) == 0) return v;
    }
    return -1;
}
