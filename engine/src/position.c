/*
 * Position updates: placing pieces, making moves (with the incremental Zobrist key, castling
 * rights and the en passant square kept exact), attack queries, and material draws.
 *
 * The en passant square is stored only when a legal en passant capture exists, so positions
 * that are the same for the repetition rule also have the same key.
 */
#include "chess/position.h"
#include "chess/movegen.h"
#include "internal.h"

#include <string.h>

/* Three-check: key terms for the checks each colour has given (none for 0). */
static const uint64_t check_keys[2][4] = {
    {0, 0x5c3b1a6d8e9f2b47ull, 0x91e4d2c7a8b36f15ull, 0x2f6a8c1e7d4b9035ull},
    {0, 0xc8d17e3a5b26f940ull, 0x4a9b6e2d1c7f8053ull, 0xe7305f9c2a1d6b84ull},
};

/* The variant's key term (none for standard chess), so that a transposition table shared by games
 * of different variants never mixes their entries. */
static const uint64_t variant_keys[CHESS_VARIANT_COUNT] = {0, 0x3d7a91c56be20f48ull,
                                                           0xa61f2e8b947cd305ull};

void position_clear(struct chess_position *pos) {
    memset(pos, 0, sizeof *pos);
    pos->ep_square = CHESS_NO_SQUARE;
    pos->fullmove_number = 1;
    for (int i = 0; i < 4; i++) pos->castle_rook[i] = CHESS_NO_SQUARE;
}

void position_put_piece(struct chess_position *pos, int piece, int sq) {
    chess_bitboard b = bb_square(sq);
    pos->board[sq] = (uint8_t)piece;
    pos->by_type[0] |= b;
    pos->by_type[CHESS_PIECE_TYPE(piece)] |= b;
    pos->by_color[CHESS_PIECE_COLOR(piece)] |= b;
    pos->key ^= chess_zobrist_psq[piece][sq];
}

static void remove_piece(struct chess_position *pos, int sq) {
    int piece = pos->board[sq];
    chess_bitboard b = bb_square(sq);
    pos->board[sq] = CHESS_NO_PIECE;
    pos->by_type[0] ^= b;
    pos->by_type[CHESS_PIECE_TYPE(piece)] ^= b;
    pos->by_color[CHESS_PIECE_COLOR(piece)] ^= b;
    pos->key ^= chess_zobrist_psq[piece][sq];
}

static void move_piece(struct chess_position *pos, int from, int to) {
    int piece = pos->board[from];
    chess_bitboard b = bb_square(from) | bb_square(to);
    pos->board[to] = (uint8_t)piece;
    pos->board[from] = CHESS_NO_PIECE;
    pos->by_type[0] ^= b;
    pos->by_type[CHESS_PIECE_TYPE(piece)] ^= b;
    pos->by_color[CHESS_PIECE_COLOR(piece)] ^= b;
    pos->key ^= chess_zobrist_psq[piece][from] ^ chess_zobrist_psq[piece][to];
}

int chess_position_king_square(const struct chess_position *pos, int color) {
    return bb_first(pos->by_color[color] & pos->by_type[CHESS_KING]);
}

chess_bitboard chess_position_attackers(const struct chess_position *pos, int sq,
                                        chess_bitboard occ) {
    chess_bitboard rooks = pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_QUEEN];
    chess_bitboard bishops = pos->by_type[CHESS_BISHOP] | pos->by_type[CHESS_QUEEN];
    return (chess_pawn_attacks[CHESS_BLACK][sq] &
            chess_position_pieces(pos, CHESS_WHITE, CHESS_PAWN)) |
           (chess_pawn_attacks[CHESS_WHITE][sq] &
            chess_position_pieces(pos, CHESS_BLACK, CHESS_PAWN)) |
           (chess_knight_attacks[sq] & pos->by_type[CHESS_KNIGHT]) |
           (chess_king_attacks[sq] & pos->by_type[CHESS_KING]) |
           (chess_rook_attacks(sq, occ) & rooks) | (chess_bishop_attacks(sq, occ) & bishops);
}

chess_bitboard position_attackers_by(const struct chess_position *pos, int sq, int color,
                                     chess_bitboard occ) {
    chess_bitboard them = pos->by_color[color];
    chess_bitboard rooks = (pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_QUEEN]) & them;
    chess_bitboard bishops = (pos->by_type[CHESS_BISHOP] | pos->by_type[CHESS_QUEEN]) & them;
    return (chess_pawn_attacks[color ^ 1][sq] & pos->by_type[CHESS_PAWN] & them) |
           (chess_knight_attacks[sq] & pos->by_type[CHESS_KNIGHT] & them) |
           (chess_king_attacks[sq] & pos->by_type[CHESS_KING] & them) |
           (chess_rook_attacks(sq, occ) & rooks) | (chess_bishop_attacks(sq, occ) & bishops);
}

bool position_ep_capture_legal(const struct chess_position *pos, int ep_sq) {
    int us = pos->side, them = us ^ 1;
    int captured_sq = ep_sq ^ 8;
    int ksq = chess_position_king_square(pos, us);
    chess_bitboard candidates =
        chess_pawn_attacks[them][ep_sq] & chess_position_pieces(pos, us, CHESS_PAWN);
    while (candidates) {
        int from = bb_pop(&candidates);
        chess_bitboard occ =
            (pos->by_type[0] ^ bb_square(from) ^ bb_square(captured_sq)) | bb_square(ep_sq);
        chess_bitboard attackers =
            position_attackers_by(pos, ksq, them, occ) & ~bb_square(captured_sq);
        if (!attackers) return true;
    }
    return false;
}

void position_update_checkers(struct chess_position *pos) {
    int us = pos->side;
    pos->checkers =
        position_attackers_by(pos, chess_position_king_square(pos, us), us ^ 1, pos->by_type[0]);
}

/* Castling rights lost when a piece leaves or arrives on a square. */
static uint8_t rights_lost(const struct chess_position *pos, int from, int to) {
    uint8_t lost = 0;
    for (int i = 0; i < 4; i++) {
        if ((pos->castling & (1 << i)) &&
            (pos->castle_rook[i] == from || pos->castle_rook[i] == to))
            lost |= (uint8_t)(1 << i);
    }
    int piece = pos->board[from];
    if (CHESS_PIECE_TYPE(piece) == CHESS_KING)
        lost |= (uint8_t)(3 << (2 * CHESS_PIECE_COLOR(piece)));
    return lost;
}

void chess_position_make_move(struct chess_position *pos, chess_move move) {
    int us = pos->side, them = us ^ 1;
    int from = chess_move_from(move), to = chess_move_to(move);
    enum chess_move_kind kind = chess_move_kind(move);
    int piece = pos->board[from];

    if (pos->ep_square != CHESS_NO_SQUARE) {
        pos->key ^= chess_zobrist_ep_file[CHESS_FILE_OF(pos->ep_square)];
        pos->ep_square = CHESS_NO_SQUARE;
    }
    /* Only a king or rook move, or a capture on a rook's square, can cost a castling right. */
    if (pos->castling && ((pos->by_type[CHESS_KING] | pos->by_type[CHESS_ROOK]) &
                          (bb_square(from) | bb_square(to)))) {
        uint8_t lost = rights_lost(pos, from, to);
        if (lost) {
            pos->key ^= chess_zobrist_castling[pos->castling];
            pos->castling &= (uint8_t)~lost;
            pos->key ^= chess_zobrist_castling[pos->castling];
        }
    }
    pos->halfmove_clock++;

    if (kind == CHESS_MOVE_CASTLING) {
        int king_to, rook_to;
        position_castling_squares(us, from, to, &king_to, &rook_to);
        remove_piece(pos, from);
        remove_piece(pos, to);
        position_put_piece(pos, CHESS_PIECE(us, CHESS_KING), king_to);
        position_put_piece(pos, CHESS_PIECE(us, CHESS_ROOK), rook_to);
    } else {
        if (pos->board[to] != CHESS_NO_PIECE) {
            remove_piece(pos, to);
            pos->halfmove_clock = 0;
        }
        move_piece(pos, from, to);
        if (CHESS_PIECE_TYPE(piece) == CHESS_PAWN) {
            pos->halfmove_clock = 0;
            if (kind == CHESS_MOVE_EN_PASSANT) {
                remove_piece(pos, to ^ 8);
            } else if (kind == CHESS_MOVE_PROMOTION) {
                remove_piece(pos, to);
                position_put_piece(pos, CHESS_PIECE(us, chess_move_promotion(move)), to);
            }
        }
    }

    pos->side = (uint8_t)them;
    pos->key ^= chess_zobrist_side;
    if (us == CHESS_BLACK) pos->fullmove_number++;
    position_update_checkers(pos);
    if (pos->variant == CHESS_VARIANT_THREE_CHECK && pos->checkers && pos->checks[us] < 3) {
        pos->key ^= check_keys[us][pos->checks[us]] ^ check_keys[us][pos->checks[us] + 1];
        pos->checks[us]++;
    }

    if (CHESS_PIECE_TYPE(piece) == CHESS_PAWN && (from ^ to) == 16) {
        int ep = (from + to) / 2;
        if ((chess_pawn_attacks[us][ep] & chess_position_pieces(pos, them, CHESS_PAWN)) &&
            position_ep_capture_legal(pos, ep)) {
            pos->ep_square = (uint8_t)ep;
            pos->key ^= chess_zobrist_ep_file[CHESS_FILE_OF(ep)];
        }
    }
}

void chess_position_make_null_move(struct chess_position *pos) {
    if (pos->ep_square != CHESS_NO_SQUARE) {
        pos->key ^= chess_zobrist_ep_file[CHESS_FILE_OF(pos->ep_square)];
        pos->ep_square = CHESS_NO_SQUARE;
    }
    pos->halfmove_clock++;
    if (pos->side == CHESS_BLACK) pos->fullmove_number++;
    pos->side ^= 1;
    pos->key ^= chess_zobrist_side;
    position_update_checkers(pos);
}

bool chess_position_is_legal(const struct chess_position *pos, chess_move move) {
    if (move == CHESS_MOVE_NONE || move == CHESS_MOVE_NULL) return false;
    int from = chess_move_from(move);
    int piece = pos->board[from];
    if (piece == CHESS_NO_PIECE || CHESS_PIECE_COLOR(piece) != pos->side) return false;
    struct chess_move_list list;
    chess_generate_moves(pos, CHESS_GEN_ALL, &list);
    for (int i = 0; i < list.count; i++) {
        if (list.moves[i] == move) return true;
    }
    return false;
}

bool chess_position_gives_check(const struct chess_position *pos, chess_move move) {
    struct chess_position next = *pos;
    chess_position_make_move(&next, move);
    return next.checkers != 0;
}

static bool bishops_one_colour(chess_bitboard bishops) {
    return (bishops & BB_LIGHT_SQUARES) == 0 || (bishops & ~BB_LIGHT_SQUARES) == 0;
}

bool chess_position_insufficient_material(const struct chess_position *pos) {
    /* A king can always walk to the hill; in three-check any piece can give check. */
    if (pos->variant == CHESS_VARIANT_KING_OF_THE_HILL) return false;
    if (pos->variant == CHESS_VARIANT_THREE_CHECK)
        return pos->by_type[0] == pos->by_type[CHESS_KING];
    if (pos->by_type[CHESS_PAWN] | pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_QUEEN])
        return false;
    chess_bitboard minors = pos->by_type[CHESS_KNIGHT] | pos->by_type[CHESS_BISHOP];
    if (bb_count(minors) <= 1) return true;
    /* Only bishops, all on squares of one colour: no mate is possible whoever owns them. */
    return pos->by_type[CHESS_KNIGHT] == 0 && bishops_one_colour(pos->by_type[CHESS_BISHOP]);
}

int chess_position_bare_king_winner(const struct chess_position *pos) {
    for (int color = 0; color < 2; color++) {
        if (bb_count(pos->by_color[color ^ 1]) != 1) continue;
        chess_bitboard own = pos->by_color[color];
        chess_bitboard bishops = own & pos->by_type[CHESS_BISHOP];
        bool heavy = (own & (pos->by_type[CHESS_QUEEN] | pos->by_type[CHESS_ROOK])) != 0;
        bool bishop_knight = bishops && (own & pos->by_type[CHESS_KNIGHT]);
        if (heavy || bishop_knight || !bishops_one_colour(bishops)) return color;
    }
    return -1;
}

bool chess_position_side_cannot_mate(const struct chess_position *pos, int color) {
    chess_bitboard ours = pos->by_color[color], theirs = pos->by_color[color ^ 1];
    chess_bitboard heavy =
        pos->by_type[CHESS_PAWN] | pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_QUEEN];
    if (ours & heavy) return false;
    chess_bitboard knights = ours & pos->by_type[CHESS_KNIGHT];
    chess_bitboard bishops = ours & pos->by_type[CHESS_BISHOP];
    chess_bitboard their_extra = theirs & ~pos->by_type[CHESS_KING];
    if (!knights && !bishops) return true;
    /* A lone knight mates only with the help of an enemy piece boxing in the king. */
    if (!bishops) return bb_count(knights) == 1 && their_extra == 0;
    if (knights) return false;
    /* Bishops of one colour cannot mate unless an enemy piece can block on the other colour. */
    chess_bitboard all_bishops = bishops | (their_extra & pos->by_type[CHESS_BISHOP]);
    return (their_extra & ~pos->by_type[CHESS_BISHOP]) == 0 && bishops_one_colour(all_bishops);
}

uint64_t chess_position_compute_key(const struct chess_position *pos) {
    uint64_t key = 0;
    for (int sq = 0; sq < 64; sq++) {
        if (pos->board[sq] != CHESS_NO_PIECE) key ^= chess_zobrist_psq[pos->board[sq]][sq];
    }
    key ^= chess_zobrist_castling[pos->castling];
    if (pos->ep_square != CHESS_NO_SQUARE)
        key ^= chess_zobrist_ep_file[CHESS_FILE_OF(pos->ep_square)];
    if (pos->side == CHESS_BLACK) key ^= chess_zobrist_side;
    for (int c = 0; c < 2; c++) key ^= check_keys[c][pos->checks[c] & 3];
    if (pos->variant < CHESS_VARIANT_COUNT) key ^= variant_keys[pos->variant];
    return key;
}

int chess_position_set_variant(struct chess_position *pos, int variant) {
    if (variant < 0 || variant >= CHESS_VARIANT_COUNT) return -CHESS_ERR_FEN_FIELDS;
    for (int c = 0; c < 2; c++) {
        pos->key ^= check_keys[c][pos->checks[c] & 3];
        pos->checks[c] = 0;
    }
    if (pos->variant < CHESS_VARIANT_COUNT) pos->key ^= variant_keys[pos->variant];
    pos->variant = (uint8_t)variant;
    pos->key ^= variant_keys[variant];
    return 0;
}

void position_set_checks(struct chess_position *pos, int white, int black) {
    int given[2] = {white, black};
    for (int c = 0; c < 2; c++) {
        pos->key ^= check_keys[c][pos->checks[c] & 3] ^ check_keys[c][given[c] & 3];
        pos->checks[c] = (uint8_t)(given[c] & 3);
    }
}

void position_set_castling_right(struct chess_position *pos, int color, int rook_sq) {
    int ksq = chess_position_king_square(pos, color);
    int bit = 2 * color + (rook_sq > ksq ? 0 : 1);
    pos->castling |= (uint8_t)(1 << bit);
    pos->castle_rook[bit] = (uint8_t)rook_sq;
}

void chess_position_startpos(struct chess_position *pos) {
    int rc = chess_position_chess960(pos, 518);
    (void)rc; /* 518 is always in range */
    pos->chess960 = false;
}

int chess_position_chess960(struct chess_position *pos, int number) {
    if (number < 0 || number > 959) return -CHESS_ERR_FEN_FIELDS;
    static const uint8_t knight_pairs[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                                {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    uint8_t back[8] = {0};
    int n = number;
    back[(n % 4) * 2 + 1] = CHESS_BISHOP; /* light-squared bishop on b, d, f or h */
    n /= 4;
    back[(n % 4) * 2] = CHESS_BISHOP;
    n /= 4;
    int free_sq[8], nfree = 0;
    for (int f = 0; f < 8; f++) {
        if (!back[f]) free_sq[nfree++] = f;
    }
    int queen_slot = n % 6;
    n /= 6;
    back[free_sq[queen_slot]] = CHESS_QUEEN;
    nfree = 0;
    for (int f = 0; f < 8; f++) {
        if (!back[f]) free_sq[nfree++] = f;
    }
    back[free_sq[knight_pairs[n][0]]] = CHESS_KNIGHT;
    back[free_sq[knight_pairs[n][1]]] = CHESS_KNIGHT;
    static const uint8_t rest[3] = {CHESS_ROOK, CHESS_KING, CHESS_ROOK};
    for (int f = 0, i = 0; f < 8; f++) {
        if (!back[f]) back[f] = rest[i++];
    }

    position_clear(pos);
    for (int f = 0; f < 8; f++) {
        position_put_piece(pos, CHESS_PIECE(CHESS_WHITE, back[f]), CHESS_SQUARE(f, 0));
        position_put_piece(pos, CHESS_PIECE(CHESS_WHITE, CHESS_PAWN), CHESS_SQUARE(f, 1));
        position_put_piece(pos, CHESS_PIECE(CHESS_BLACK, CHESS_PAWN), CHESS_SQUARE(f, 6));
        position_put_piece(pos, CHESS_PIECE(CHESS_BLACK, back[f]), CHESS_SQUARE(f, 7));
    }
    for (int f = 0; f < 8; f++) {
        if (back[f] != CHESS_ROOK) continue;
        position_set_castling_right(pos, CHESS_WHITE, CHESS_SQUARE(f, 0));
        position_set_castling_right(pos, CHESS_BLACK, CHESS_SQUARE(f, 7));
    }
    pos->key ^= chess_zobrist_castling[pos->castling];
    pos->chess960 = true;
    return 0;
}
