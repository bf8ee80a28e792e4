/*
 * FEN parsing with full validation, and FEN writing.
 *
 * Parsing fills a scratch position field by field and checks it as a whole before copying it
 * out, so a caller never sees a half-set board.
 */
#include "chess/fen.h"
#include "internal.h"

#include <string.h>

#define FEN_MAX_FIELDS 7 /* six, and three-check's checks */

struct fen_fields {
    int count;
    const char *start[FEN_MAX_FIELDS];
    size_t len[FEN_MAX_FIELDS];
};

static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int split_fields(const char *fen, struct fen_fields *f) {
    f->count = 0;
    const char *p = fen;
    for (;;) {
        while (is_space(*p)) p++;
        if (!*p) break;
        if (f->count == FEN_MAX_FIELDS) return -CHESS_ERR_FEN_FIELDS;
        f->start[f->count] = p;
        while (*p && !is_space(*p)) p++;
        f->len[f->count] = (size_t)(p - f->start[f->count]);
        f->count++;
    }
    return f->count >= 4 ? 0 : -CHESS_ERR_FEN_FIELDS;
}

static void drop_field(struct fen_fields *f, int i) {
    for (int j = i; j + 1 < f->count; j++) {
        f->start[j] = f->start[j + 1];
        f->len[j] = f->len[j + 1];
    }
    f->count--;
}

/* "N+N" into two digits 0..3; returns 0 or -1. */
static int parse_check_pair(const char *s, size_t len, int *a, int *b) {
    if (len != 3 || s[1] != '+' || s[0] < '0' || s[0] > '3' || s[2] < '0' || s[2] > '3') return -1;
    *a = s[0] - '0';
    *b = s[2] - '0';
    return 0;
}

/*
 * Three-check's field, removed from the fields, into the checks given by each side: python-chess's
 * "W+B" (checks remaining) after the en passant square, or lichess's "+W+B" (checks given) after
 * the clocks; 3+3 when absent. Other variants have no such field.
 */
static int take_checks(struct fen_fields *f, int variant, int given[2]) {
    given[0] = given[1] = 0;
    if (variant != CHESS_VARIANT_THREE_CHECK) {
        return f->count <= 6 ? 0 : -CHESS_ERR_FEN_FIELDS;
    }
    int w, b;
    if (f->count == 7 && f->start[6][0] == '+') {
        if (parse_check_pair(f->start[6] + 1, f->len[6] - 1, &w, &b) < 0)
            return -CHESS_ERR_FEN_CHECKS;
        given[0] = w;
        given[1] = b;
        drop_field(f, 6);
    } else if (f->count >= 5 && memchr(f->start[4], '+', f->len[4])) {
        if (parse_check_pair(f->start[4], f->len[4], &w, &b) < 0) return -CHESS_ERR_FEN_CHECKS;
        given[0] = 3 - w;
        given[1] = 3 - b;
        drop_field(f, 4);
    }
    return f->count <= 6 ? 0 : -CHESS_ERR_FEN_FIELDS;
}

static int piece_from_char(char c) {
    static const char letters[] = "PNBRQK";
    for (int t = 0; t < 6; t++) {
        if (c == letters[t]) return CHESS_PIECE(CHESS_WHITE, t + 1);
        if (c == letters[t] + ('a' - 'A')) return CHESS_PIECE(CHESS_BLACK, t + 1);
    }
    return CHESS_NO_PIECE;
}

static int parse_board(struct chess_position *pos, const char *s, size_t len) {
    int rank = 7, file = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '/') {
            if (file != 8 || rank == 0) return -CHESS_ERR_FEN_RANK;
            rank--;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) return -CHESS_ERR_FEN_RANK;
        } else if (c == '0' || c == '9') {
            return -CHESS_ERR_FEN_RANK;
        } else {
            int piece = piece_from_char(c);
            if (piece == CHESS_NO_PIECE) return -CHESS_ERR_FEN_PIECE;
            if (file >= 8) return -CHESS_ERR_FEN_RANK;
            position_put_piece(pos, piece, CHESS_SQUARE(file, rank));
            file++;
        }
    }
    return (rank == 0 && file == 8) ? 0 : -CHESS_ERR_FEN_RANK;
}

static int check_material(const struct chess_position *pos) {
    for (int c = 0; c < 2; c++) {
        if (bb_count(chess_position_pieces(pos, c, CHESS_KING)) != 1) return -CHESS_ERR_FEN_KINGS;
    }
    if (pos->by_type[CHESS_PAWN] & (BB_RANK_1 | BB_RANK_8)) return -CHESS_ERR_FEN_PAWN_RANK;
    for (int c = 0; c < 2; c++) {
        if (bb_count(pos->by_color[c]) > 16 ||
            bb_count(chess_position_pieces(pos, c, CHESS_PAWN)) > 8)
            return -CHESS_ERR_FEN_TOO_MANY;
    }
    return 0;
}

/* The outermost rook of the colour on its back rank on one side of the king, or -1. */
static int outermost_rook(const struct chess_position *pos, int color, bool king_side) {
    int ksq = chess_position_king_square(pos, color);
    chess_bitboard back_rank = bb_relative_rank(color, 0);
    chess_bitboard beyond_king = king_side ? ~0ull << ksq << 1 : bb_square(ksq) - 1;
    chess_bitboard rooks = chess_position_pieces(pos, color, CHESS_ROOK) & back_rank & beyond_king;
    if (!rooks) return -1;
    return king_side ? bb_last(rooks) : bb_first(rooks);
}

static int parse_castling(struct chess_position *pos, const char *s, size_t len) {
    if (len == 1 && s[0] == '-') return 0;
    bool nonstandard = false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        int color = (c >= 'a' && c <= 'z') ? CHESS_BLACK : CHESS_WHITE;
        char upper = color == CHESS_BLACK ? (char)(c - ('a' - 'A')) : c;
        int rank = color == CHESS_WHITE ? 0 : 7;
        int ksq = chess_position_king_square(pos, color);
        if (CHESS_RANK_OF(ksq) != rank) return -CHESS_ERR_FEN_CASTLING;
        int rook_sq;
        if (upper == 'K' || upper == 'Q') {
            rook_sq = outermost_rook(pos, color, upper == 'K');
        } else if (upper >= 'A' && upper <= 'H') {
            rook_sq = CHESS_SQUARE(upper - 'A', rank);
            nonstandard = true;
        } else {
            return -CHESS_ERR_FEN_CASTLING;
        }
        if (rook_sq < 0 || rook_sq == ksq || pos->board[rook_sq] != CHESS_PIECE(color, CHESS_ROOK))
            return -CHESS_ERR_FEN_CASTLING;
        int bit = 2 * color + (rook_sq > ksq ? 0 : 1);
        if (pos->castling & (1 << bit)) return -CHESS_ERR_FEN_CASTLING; /* a right given twice */
        position_set_castling_right(pos, color, rook_sq);
    }
    for (int bit = 0; bit < 4; bit++) {
        if (!(pos->castling & (1 << bit))) continue;
        int color = bit / 2, rank = color == CHESS_WHITE ? 0 : 7;
        int expected_rook = CHESS_SQUARE(bit % 2 == 0 ? 7 : 0, rank);
        if (chess_position_king_square(pos, color) != CHESS_SQUARE(4, rank) ||
            pos->castle_rook[bit] != expected_rook)
            nonstandard = true;
    }
    if (nonstandard) pos->chess960 = true;
    return 0;
}

static int parse_ep(struct chess_position *pos, const char *s, size_t len) {
    if (len == 1 && s[0] == '-') return 0;
    if (len != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return -CHESS_ERR_FEN_EN_PASSANT;
    int ep = CHESS_SQUARE(s[0] - 'a', s[1] - '1');
    int us = pos->side, them = us ^ 1;
    int expected_rank = us == CHESS_WHITE ? 5 : 2;
    int forward = us == CHESS_WHITE ? 8 : -8; /* from the mover's view; the pawn came from beyond */
    if (CHESS_RANK_OF(ep) != expected_rank) return -CHESS_ERR_FEN_EN_PASSANT;
    int pawn_sq = ep - forward, origin = ep + forward;
    if (pos->board[pawn_sq] != CHESS_PIECE(them, CHESS_PAWN) || pos->board[ep] != CHESS_NO_PIECE ||
        pos->board[origin] != CHESS_NO_PIECE)
        return -CHESS_ERR_FEN_EN_PASSANT;
    if (position_ep_capture_legal(pos, ep)) {
        pos->ep_square = (uint8_t)ep;
        pos->key ^= chess_zobrist_ep_file[CHESS_FILE_OF(ep)];
    }
    return 0;
}

static int parse_number(const char *s, size_t len, unsigned max, unsigned *out) {
    if (len == 0 || len > 6) return -CHESS_ERR_FEN_CLOCKS;
    unsigned v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -CHESS_ERR_FEN_CLOCKS;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    if (v > max) return -CHESS_ERR_FEN_CLOCKS;
    *out = v;
    return 0;
}

/* Checks that cannot arise in a game: too many checkers, or two that no single move uncovers. */
static int check_checkers(const struct chess_position *pos) {
    chess_bitboard checkers = pos->checkers;
    if (bb_count(checkers) > 2) return -CHESS_ERR_FEN_CHECKERS;
    if (bb_count(checkers) == 2) {
        chess_bitboard leapers = pos->by_type[CHESS_PAWN] | pos->by_type[CHESS_KNIGHT];
        if (bb_count(checkers & leapers) == 2) return -CHESS_ERR_FEN_CHECKERS;
    }
    return 0;
}

int chess_fen_parse(struct chess_position *out, const char *fen) {
    return chess_fen_parse_variant(out, fen, CHESS_VARIANT_STANDARD);
}

int chess_fen_parse_variant(struct chess_position *out, const char *fen, int variant) {
    struct fen_fields f;
    struct chess_position pos;
    int rc, given[2];
    if (!fen || variant < 0 || variant >= CHESS_VARIANT_COUNT) return -CHESS_ERR_FEN_FIELDS;
    if ((rc = split_fields(fen, &f)) < 0) return rc;
    if ((rc = take_checks(&f, variant, given)) < 0) return rc;
    position_clear(&pos);
    if ((rc = parse_board(&pos, f.start[0], f.len[0])) < 0) return rc;
    if ((rc = check_material(&pos)) < 0) return rc;

    if (f.len[1] != 1 || (f.start[1][0] != 'w' && f.start[1][0] != 'b')) return -CHESS_ERR_FEN_SIDE;
    pos.side = f.start[1][0] == 'w' ? CHESS_WHITE : CHESS_BLACK;
    if (pos.side == CHESS_BLACK) pos.key ^= chess_zobrist_side;

    int them = pos.side ^ 1;
    if (position_attackers_by(&pos, chess_position_king_square(&pos, them), pos.side,
                              pos.by_type[0]))
        return -CHESS_ERR_FEN_OPPONENT_CHECK;
    position_update_checkers(&pos);
    if ((rc = check_checkers(&pos)) < 0) return rc;

    if ((rc = parse_castling(&pos, f.start[2], f.len[2])) < 0) return rc;
    pos.key ^= chess_zobrist_castling[pos.castling];
    if ((rc = parse_ep(&pos, f.start[3], f.len[3])) < 0) return rc;

    unsigned halfmove = 0, fullmove = 1;
    if (f.count >= 5 && (rc = parse_number(f.start[4], f.len[4], 9999, &halfmove)) < 0) return rc;
    if (f.count >= 6 && (rc = parse_number(f.start[5], f.len[5], 99999, &fullmove)) < 0) return rc;
    if (fullmove > 65535) return -CHESS_ERR_FEN_CLOCKS;
    pos.halfmove_clock = (uint16_t)halfmove;
    pos.fullmove_number = (uint16_t)(fullmove == 0 ? 1 : fullmove);
    if ((rc = chess_position_set_variant(&pos, variant)) < 0) return rc;
    position_set_checks(&pos, given[0], given[1]);
    *out = pos;
    return 0;
}

static char castling_char(const struct chess_position *pos, int bit, int flags) {
    int color = bit / 2;
    int rook_sq = pos->castle_rook[bit];
    char c;
    if (!(flags & CHESS_FEN_SHREDDER) && outermost_rook(pos, color, bit % 2 == 0) == rook_sq) {
        c = bit % 2 == 0 ? 'K' : 'Q';
    } else {
        c = (char)('A' + CHESS_FILE_OF(rook_sq));
    }
    return color == CHESS_BLACK ? (char)(c + ('a' - 'A')) : c;
}

/* Writes a number in decimal at buf + n; returns the new length. */
static size_t put_number(char *buf, size_t n, unsigned value) {
    char digits[10];
    int count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    while (count) buf[n++] = digits[--count];
    return n;
}

int chess_fen_write(const struct chess_position *pos, int flags, char *buf, size_t size) {
    static const char letters[] = " PNBRQK  pnbrqk";
    char tmp[CHESS_FEN_MAX];
    size_t n = 0;
    /* Square by square along each rank, runs of empty squares counted: the server writes a
     * FEN with every move, and a load and a test a square cost less than taking the occupied
     * squares from the bitboard one by one. */
    for (int rank = 7; rank >= 0; rank--) {
        const uint8_t *row = pos->board + 8 * rank;
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            int piece = row[file];
            if (piece == CHESS_NO_PIECE) {
                empty++;
                continue;
            }
            if (empty) tmp[n++] = (char)('0' + empty);
            empty = 0;
            tmp[n++] = letters[piece];
        }
        if (empty) tmp[n++] = (char)('0' + empty);
        if (rank) tmp[n++] = '/';
    }
    tmp[n++] = ' ';
    tmp[n++] = pos->side == CHESS_WHITE ? 'w' : 'b';
    tmp[n++] = ' ';
    if (!pos->castling) tmp[n++] = '-';
    for (int bit = 0; bit < 4; bit++) {
        if (pos->castling & (1 << bit)) tmp[n++] = castling_char(pos, bit, flags);
    }
    tmp[n++] = ' ';
    if (pos->ep_square == CHESS_NO_SQUARE) {
        tmp[n++] = '-';
    } else {
        tmp[n++] = (char)('a' + CHESS_FILE_OF(pos->ep_square));
        tmp[n++] = (char)('1' + CHESS_RANK_OF(pos->ep_square));
    }
    if (pos->variant == CHESS_VARIANT_THREE_CHECK) { /* checks remaining, as python-chess */
        tmp[n++] = ' ';
        tmp[n++] = (char)('0' + 3 - pos->checks[CHESS_WHITE]);
        tmp[n++] = '+';
        tmp[n++] = (char)('0' + 3 - pos->checks[CHESS_BLACK]);
    }
    /* The clocks by hand: snprintf cost as much as the rest of the FEN. */
    tmp[n++] = ' ';
    n = put_number(tmp, n, pos->halfmove_clock);
    tmp[n++] = ' ';
    n = put_number(tmp, n, pos->fullmove_number);
    tmp[n] = '\0';
    if (n + 1 > size) return -CHESS_ERR_BUFFER;
    memcpy(buf, tmp, n + 1);
    return (int)n;
}
