/*
 * Basic chess types shared by every part of the engine's public API: squares, pieces, colours,
 * bitboards, the 16-bit move encoding, castling rights, error codes, and game results.
 *
 * Squares run a1 = 0, b1 = 1, ..., h8 = 63. A piece is (colour << 3) | type, 0 meaning empty.
 */
#ifndef CHESS_TYPES_H
#define CHESS_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t chess_bitboard;

enum chess_color { CHESS_WHITE = 0, CHESS_BLACK = 1 };

enum chess_piece_type {
    CHESS_NO_PIECE_TYPE = 0,
    CHESS_PAWN = 1,
    CHESS_KNIGHT = 2,
    CHESS_BISHOP = 3,
    CHESS_ROOK = 4,
    CHESS_QUEEN = 5,
    CHESS_KING = 6,
};

#define CHESS_NO_PIECE           0
#define CHESS_PIECE(color, type) ((uint8_t)(((color) << 3) | (type)))
#define CHESS_PIECE_TYPE(piece)  ((piece)&7)
#define CHESS_PIECE_COLOR(piece) ((piece) >> 3)
#define CHESS_SQUARE(file, rank) ((rank)*8 + (file))
#define CHESS_FILE_OF(square)    ((square)&7)
#define CHESS_RANK_OF(square)    ((square) >> 3)
#define CHESS_NO_SQUARE          64

/* Castling rights as bits; in Chess960 the rook of each right is stored in the position. */
enum chess_castling {
    CHESS_CASTLE_WHITE_KING = 1,
    CHESS_CASTLE_WHITE_QUEEN = 2,
    CHESS_CASTLE_BLACK_KING = 4,
    CHESS_CASTLE_BLACK_QUEEN = 8,
};

/*
 * A move in 16 bits: bits 0-5 destination, 6-11 origin, 12-13 promotion piece (knight..queen),
 * 14-15 kind. Castling is encoded as "king takes own rook" (origin = king, destination = rook),
 * which serves standard chess and Chess960 alike. CHESS_MOVE_NONE (a1a1) is never a legal move.
 */
typedef uint16_t chess_move;

#define CHESS_MOVE_NONE 0
/* The null move of search ("pass"): b1b1, never legal either. */
#define CHESS_MOVE_NULL 65

enum chess_move_kind {
    CHESS_MOVE_NORMAL = 0,
    CHESS_MOVE_PROMOTION = 1 << 14,
    CHESS_MOVE_EN_PASSANT = 2 << 14,
    CHESS_MOVE_CASTLING = 3 << 14,
};

static inline chess_move chess_move_make(int from, int to) {
    return (chess_move)((from << 6) | to);
}

static inline chess_move chess_move_make_kind(int from, int to, enum chess_move_kind kind) {
    return (chess_move)(kind | (from << 6) | to);
}

static inline chess_move chess_move_make_promotion(int from, int to, enum chess_piece_type type) {
    return (chess_move)(CHESS_MOVE_PROMOTION | ((type - CHESS_KNIGHT) << 12) | (from << 6) | to);
}

static inline int chess_move_from(chess_move m) {
    return (m >> 6) & 63;
}

static inline int chess_move_to(chess_move m) {
    return m & 63;
}

static inline enum chess_move_kind chess_move_kind(chess_move m) {
    return (enum chess_move_kind)(m & (3 << 14));
}

static inline enum chess_piece_type chess_move_promotion(chess_move m) {
    return (enum chess_piece_type)(((m >> 12) & 3) + CHESS_KNIGHT);
}

/* The largest number of legal moves in any chess position is 218. */
#define CHESS_MAX_MOVES 256

struct chess_move_list {
    int count;
    chess_move moves[CHESS_MAX_MOVES];
};

/*
 * Error codes returned (negated) by the parsers and game functions. They are stable: the server
 * passes their names to clients. chess_error_name() and chess_error_message() describe them.
 */
enum chess_error {
    CHESS_OK = 0,
    CHESS_ERR_FEN_FIELDS,         /* wrong number of fields */
    CHESS_ERR_FEN_PIECE,          /* unknown piece letter or character in the board field */
    CHESS_ERR_FEN_RANK,           /* a rank with more or fewer than 8 squares, or not 8 ranks */
    CHESS_ERR_FEN_KINGS,          /* not exactly one king of each colour */
    CHESS_ERR_FEN_PAWN_RANK,      /* a pawn on the first or last rank */
    CHESS_ERR_FEN_TOO_MANY,       /* more than 16 pieces or 8 pawns of one colour */
    CHESS_ERR_FEN_SIDE,           /* side to move is not w or b */
    CHESS_ERR_FEN_CASTLING,       /* castling field malformed or not matching king and rooks */
    CHESS_ERR_FEN_EN_PASSANT,     /* en passant square malformed or impossible */
    CHESS_ERR_FEN_CLOCKS,         /* halfmove clock or fullmove number malformed */
    CHESS_ERR_FEN_OPPONENT_CHECK, /* the side not to move is in check */
    CHESS_ERR_FEN_CHECKERS,       /* the side to move is in an impossible check */
    CHESS_ERR_MOVE_SYNTAX,        /* move text is not UCI or SAN */
    CHESS_ERR_MOVE_ILLEGAL,       /* well-formed move that is not legal here */
    CHESS_ERR_MOVE_AMBIGUOUS,     /* SAN that matches more than one legal move */
    CHESS_ERR_PGN_SYNTAX,         /* PGN text is malformed */
    CHESS_ERR_PGN_EMPTY,          /* no game in the PGN text */
    CHESS_ERR_GAME_OVER,          /* the game has ended; no more moves */
    CHESS_ERR_GAME_TOO_LONG,      /* the game has reached the engine's ply limit */
    CHESS_ERR_BUFFER,             /* the output buffer is too small */
    CHESS_ERR_NO_MEMORY,          /* an allocation failed */
    CHESS_ERR_FEN_CHECKS,         /* three-check's checks field is malformed */
    CHESS_ERR_COUNT
};

/* A stable upper-case identifier such as "FEN_KINGS"; "UNKNOWN" for codes out of range. */
const char *chess_error_name(int code);
/* A readable sentence for people; never NULL. Accepts code or -code. */
const char *chess_error_message(int code);

enum chess_result {
    CHESS_RESULT_NONE = 0, /* game in progress */
    CHESS_RESULT_WHITE_WINS,
    CHESS_RESULT_BLACK_WINS,
    CHESS_RESULT_DRAW,
};

/* Why a game ended (or why a draw may be claimed). Names from chess_termination_name(). */
enum chess_termination {
    CHESS_TERM_NONE = 0,
    CHESS_TERM_CHECKMATE,
    CHESS_TERM_STALEMATE,
    CHESS_TERM_THREEFOLD_REPETITION,
    CHESS_TERM_FIVEFOLD_REPETITION,
    CHESS_TERM_FIFTY_MOVES,
    CHESS_TERM_SEVENTY_FIVE_MOVES,
    CHESS_TERM_INSUFFICIENT_MATERIAL,
    CHESS_TERM_RESIGNATION,
    CHESS_TERM_AGREEMENT,
    CHESS_TERM_TIMEOUT,
    CHESS_TERM_TIMEOUT_VS_INSUFFICIENT,
    CHESS_TERM_ABORTED,
    CHESS_TERM_ABANDONED,
    CHESS_TERM_KING_OF_THE_HILL, /* a king reached the centre (lichess: status "variantEnd") */
    CHESS_TERM_THREE_CHECK,      /* a side gave its third check (lichess: status "variantEnd") */
    CHESS_TERM_COUNT
};

/* The rules a position is played under. Names from chess_variant_name(), as lichess spells them. */
enum chess_variant {
    CHESS_VARIANT_STANDARD = 0,     /* "standard" (Chess960 is standard rules from another start) */
    CHESS_VARIANT_KING_OF_THE_HILL, /* "kingOfTheHill": a king on d4, d5, e4 or e5 wins */
    CHESS_VARIANT_THREE_CHECK,      /* "threeCheck": the third check given wins */
    CHESS_VARIANT_COUNT
};

/* "standard", "kingOfTheHill" or "threeCheck"; "unknown" out of range. */
const char *chess_variant_name(enum chess_variant variant);
/* The variant of that name, or -1 when there is none. */
int chess_variant_from_name(const char *name);

/* "1-0", "0-1", "1/2-1/2" or "*". */
const char *chess_result_name(enum chess_result result);
/* Lower-case stable names: "checkmate", "stalemate", "threefold_repetition", ... */
const char *chess_termination_name(enum chess_termination term);

#endif
