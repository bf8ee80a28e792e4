/*
 * A chess position: bitboards plus a square-indexed board, side to move, castling rights (with
 * the rook square of each right, so Chess960 needs nothing special), en passant square, clocks,
 * the incremental Zobrist key and the pieces giving check, and the variant played with what it
 * needs to know (in three-check, the checks each side has given, which are part of the key).
 *
 * Positions are plain values: copy one to keep it (copy-make). chess_position_make_move() changes
 * a position in place; callers that need to go back keep the copy they made before. Every
 * function here is reentrant and touches nothing but its arguments.
 */
#ifndef CHESS_POSITION_H
#define CHESS_POSITION_H

#include "chess/types.h"

struct chess_position {
    chess_bitboard by_type[7]; /* [0]: all pieces; [CHESS_PAWN..CHESS_KING]: both colours */
    chess_bitboard by_color[2];
    chess_bitboard checkers; /* pieces of the side not to move that attack the mover's king */
    uint64_t key;      /* Zobrist key of placement, side, castling, en passant, variant, checks */
    uint8_t board[64]; /* piece on each square, CHESS_NO_PIECE when empty */
    uint8_t side;      /* enum chess_color to move */
    uint8_t castling;  /* enum chess_castling bits */
    uint8_t castle_rook[4]; /* rook square per right, indexed by bit number of the right */
    uint8_t ep_square;      /* set only when an en passant capture is legal, else CHESS_NO_SQUARE */
    bool chess960;          /* castling moves are written king-takes-rook in UCI */
    uint8_t variant;        /* enum chess_variant */
    uint8_t checks[2];      /* three-check: checks given by each colour, 0..3; else 0 */
    uint16_t halfmove_clock;
    uint16_t fullmove_number;
};

/* The standard starting position. */
void chess_position_startpos(struct chess_position *pos);

/*
 * Sets up Chess960 start position number 0..959 (Scharnagl numbering; 518 is the standard
 * array). Returns 0 or -CHESS_ERR_FEN_FIELDS when the number is out of range.
 */
int chess_position_chess960(struct chess_position *pos, int number);

/*
 * Puts the position under a variant's rules, with no checks given yet (the key follows).
 * Returns 0, or -CHESS_ERR_FEN_FIELDS for a value that is no enum chess_variant.
 */
int chess_position_set_variant(struct chess_position *pos, int variant);

/*
 * The colour that has won by the variant's own rule (a king on the centre in King of the Hill,
 * three checks given in Three-check), or -1 when that rule has not ended the game (always in
 * standard chess). Once it has, the position has no legal moves, as in python-chess and lichess.
 */
static inline int chess_position_variant_winner(const struct chess_position *pos) {
    if (pos->variant == CHESS_VARIANT_KING_OF_THE_HILL) {
        const chess_bitboard centre = 0x0000001818000000ull; /* d4, e4, d5, e5 */
        chess_bitboard kings = pos->by_type[CHESS_KING] & centre;
        if (kings) return (pos->by_color[CHESS_WHITE] & kings) ? CHESS_WHITE : CHESS_BLACK;
    } else if (pos->variant == CHESS_VARIANT_THREE_CHECK) {
        if (pos->checks[CHESS_WHITE] >= 3) return CHESS_WHITE;
        if (pos->checks[CHESS_BLACK] >= 3) return CHESS_BLACK;
    }
    return -1;
}

/* Plays a legal move (as produced by the move generator). Behaviour is undefined otherwise. */
void chess_position_make_move(struct chess_position *pos, chess_move move);

/* Passes the turn (search's null move). The side to move must not be in check. */
void chess_position_make_null_move(struct chess_position *pos);

/* True when the move is legal in the position; safe for any 16-bit value. */
bool chess_position_is_legal(const struct chess_position *pos, chess_move move);

/* True when the move would give check. The move must be legal. */
bool chess_position_gives_check(const struct chess_position *pos, chess_move move);

static inline bool chess_position_in_check(const struct chess_position *pos) {
    return pos->checkers != 0;
}

static inline chess_bitboard chess_position_pieces(const struct chess_position *pos, int color,
                                                   int type) {
    return pos->by_color[color] & pos->by_type[type];
}

/* Square of the king of the given colour. */
int chess_position_king_square(const struct chess_position *pos, int color);

/* All pieces of either colour attacking the square, with the given occupancy. */
chess_bitboard chess_position_attackers(const struct chess_position *pos, int square,
                                        chess_bitboard occupied);

static inline bool chess_position_is_capture(const struct chess_position *pos, chess_move move) {
    return chess_move_kind(move) != CHESS_MOVE_CASTLING &&
           (pos->board[chess_move_to(move)] != CHESS_NO_PIECE ||
            chess_move_kind(move) == CHESS_MOVE_EN_PASSANT);
}

/*
 * True when neither side can ever mate: K v K, K+minor v K, and bishops all on one colour. In
 * King of the Hill never (a king can walk to the centre), in Three-check bare kings only.
 */
bool chess_position_insufficient_material(const struct chess_position *pos);

/* True when the given side has no mating material at all (for a timeout against it). */
bool chess_position_side_cannot_mate(const struct chess_position *pos, int color);

/*
 * The colour that wins by theory against a bare king, having a queen, a rook, bishop and knight
 * or bishops on both square colours (besides anything else); -1 when neither does.
 */
int chess_position_bare_king_winner(const struct chess_position *pos);

/* Recomputes the Zobrist key from scratch; equal to pos->key in any consistent position. */
uint64_t chess_position_compute_key(const struct chess_position *pos);

#endif
