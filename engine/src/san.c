/*
 * SAN writing and reading.
 *
 * Writing disambiguates by file, then rank, then both, only against other legal moves of the
 * same piece type to the same square. Reading strips annotations, splits the text into piece,
 * origin hints, destination and promotion, and matches those against the legal moves, so any
 * spelling that names exactly one legal move is accepted.
 */
#include "chess/san.h"
#include "chess/move.h"
#include "chess/movegen.h"
#include "internal.h"
#include "notation.h"

#include <string.h>

static const char piece_letters[] = " PNBRQK";

int notation_san_body(const struct chess_position *pos, const struct chess_move_list *legal,
                      chess_move move, char *buf) {
    int from = chess_move_from(move), to = chess_move_to(move);
    int type = CHESS_PIECE_TYPE(pos->board[from]);
    int n = 0;
    char square[3];

    if (chess_move_kind(move) == CHESS_MOVE_CASTLING) {
        const char *text = to > from ? "O-O" : "O-O-O";
        n = (int)strlen(text);
        memcpy(buf, text, (size_t)n);
        return n;
    }
    if (type == CHESS_PAWN) {
        if (chess_position_is_capture(pos, move)) {
            buf[n++] = (char)('a' + CHESS_FILE_OF(from));
            buf[n++] = 'x';
        }
    } else {
        buf[n++] = piece_letters[type];
        /* Only another piece of the type that attacks the square may also move there; most
         * moves have none, and then the legal moves need not be looked at. */
        chess_bitboard rivals = position_attackers_by(pos, to, pos->side, pos->by_type[0]) &
                                pos->by_type[type] & ~bb_square(from);
        struct chess_move_list generated;
        if (rivals && !legal) {
            chess_generate_moves(pos, CHESS_GEN_ALL, &generated);
            legal = &generated;
        }
        bool others = false, same_file = false, same_rank = false;
        for (int i = 0; rivals && i < legal->count; i++) {
            chess_move m = legal->moves[i];
            int f = chess_move_from(m);
            if (m == move || chess_move_to(m) != to || f == from ||
                CHESS_PIECE_TYPE(pos->board[f]) != type ||
                chess_move_kind(m) == CHESS_MOVE_CASTLING)
                continue;
            others = true;
            if (CHESS_FILE_OF(f) == CHESS_FILE_OF(from)) same_file = true;
            if (CHESS_RANK_OF(f) == CHESS_RANK_OF(from)) same_rank = true;
        }
        if (others) {
            if (!same_file) {
                buf[n++] = (char)('a' + CHESS_FILE_OF(from));
            } else if (!same_rank) {
                buf[n++] = (char)('1' + CHESS_RANK_OF(from));
            } else {
                chess_square_name(from, square);
                buf[n++] = square[0];
                buf[n++] = square[1];
            }
        }
        if (chess_position_is_capture(pos, move)) buf[n++] = 'x';
    }
    chess_square_name(to, square);
    buf[n++] = square[0];
    buf[n++] = square[1];
    if (chess_move_kind(move) == CHESS_MOVE_PROMOTION) {
        buf[n++] = '=';
        buf[n++] = piece_letters[chess_move_promotion(move)];
    }
    return n;
}

int chess_san_write(const struct chess_position *pos, chess_move move, char buf[CHESS_SAN_MAX]) {
    int n = notation_san_body(pos, NULL, move, buf);
    struct chess_position next = *pos;
    chess_position_make_move(&next, move);
    if (next.checkers) {
        bool mate = chess_position_variant_winner(&next) < 0 && chess_count_legal_moves(&next) == 0;
        buf[n++] = mate ? '#' : '+';
    }
    buf[n] = '\0';
    return n;
}

/* What a SAN text says about the move it names. */
struct san_parts {
    int piece_type;  /* CHESS_PAWN for pawn moves */
    int from_file;   /* -1 when not given */
    int from_rank;   /* -1 when not given */
    int to;          /* destination square */
    int promotion;   /* CHESS_NO_PIECE_TYPE when not given */
    int castle_side; /* 0: not castling, 1: king side, 2: queen side */
};

static int piece_type_of(char c) {
    const char *p = strchr("PNBRQK", c);
    return (p && c) ? (int)(p - "PNBRQK") + CHESS_PAWN : CHESS_NO_PIECE_TYPE;
}

static int parse_castling_text(const char *s, size_t len) {
    if (len == 3 && (s[0] == 'O' || s[0] == '0' || s[0] == 'o') && s[1] == '-' && s[2] == s[0])
        return 1;
    if (len == 5 && (s[0] == 'O' || s[0] == '0' || s[0] == 'o') && s[1] == '-' && s[2] == s[0] &&
        s[3] == '-' && s[4] == s[0])
        return 2;
    return 0;
}

static int split_san(const char *text, struct san_parts *p) {
    char s[16];
    size_t len = strlen(text);
    while (len > 0 && strchr("+#!?", text[len - 1])) len--;
    if (len == 0 || len >= sizeof s) return -CHESS_ERR_MOVE_SYNTAX;
    memcpy(s, text, len);
    s[len] = '\0';

    memset(p, 0, sizeof *p);
    p->from_file = p->from_rank = -1;
    if ((p->castle_side = parse_castling_text(s, len)) != 0) return 0;

    /* Promotion at the end: "=Q", or a bare piece letter after the last-rank digit ("e8Q"). */
    if (len >= 3 && piece_type_of((char)(s[len - 1] & ~0x20)) > CHESS_PAWN &&
        (s[len - 2] == '=' || s[len - 2] == '8' || s[len - 2] == '1')) {
        p->promotion = piece_type_of((char)(s[len - 1] & ~0x20));
        if (p->promotion == CHESS_KING) return -CHESS_ERR_MOVE_SYNTAX;
        len -= s[len - 2] == '=' ? 2 : 1;
    }
    if (len < 2) return -CHESS_ERR_MOVE_SYNTAX;
    char file = s[len - 2], rank = s[len - 1];
    if (file < 'a' || file > 'h' || rank < '1' || rank > '8') return -CHESS_ERR_MOVE_SYNTAX;
    p->to = CHESS_SQUARE(file - 'a', rank - '1');
    len -= 2;

    size_t i = 0;
    p->piece_type = CHESS_PAWN;
    if (len > 0 && s[0] >= 'A' && s[0] <= 'Z') {
        p->piece_type = piece_type_of(s[0]);
        if (p->piece_type == CHESS_NO_PIECE_TYPE) return -CHESS_ERR_MOVE_SYNTAX;
        i = 1;
    }
    if (i < len && s[i] >= 'a' && s[i] <= 'h') p->from_file = s[i++] - 'a';
    if (i < len && s[i] >= '1' && s[i] <= '8') p->from_rank = s[i++] - '1';
    if (i < len && (s[i] == 'x' || s[i] == ':')) i++;
    if (i != len) return -CHESS_ERR_MOVE_SYNTAX;
    if (p->promotion && p->piece_type != CHESS_PAWN) return -CHESS_ERR_MOVE_SYNTAX;
    return 0;
}

static bool matches(const struct chess_position *pos, chess_move m, const struct san_parts *p) {
    int from = chess_move_from(m);
    if (chess_move_kind(m) == CHESS_MOVE_CASTLING) {
        int side = chess_move_to(m) > from ? 1 : 2;
        return p->castle_side == side;
    }
    if (p->castle_side) return false;
    if (chess_move_to(m) != p->to || CHESS_PIECE_TYPE(pos->board[from]) != p->piece_type)
        return false;
    if (p->from_file >= 0 && CHESS_FILE_OF(from) != p->from_file) return false;
    if (p->from_rank >= 0 && CHESS_RANK_OF(from) != p->from_rank) return false;
    if (chess_move_kind(m) == CHESS_MOVE_PROMOTION) {
        return (int)chess_move_promotion(m) == p->promotion;
    }
    return p->promotion == CHESS_NO_PIECE_TYPE;
}

int notation_find_san(const struct chess_position *pos, const struct chess_move_list *legal,
                      const char *text, chess_move *move) {
    struct san_parts parts;
    int rc = split_san(text, &parts);
    if (rc < 0) return rc;
    int found = 0;
    chess_move match = CHESS_MOVE_NONE;
    for (int i = 0; i < legal->count; i++) {
        if (matches(pos, legal->moves[i], &parts)) {
            found++;
            match = legal->moves[i];
        }
    }
    if (found == 0) return -CHESS_ERR_MOVE_ILLEGAL;
    if (found > 1) return -CHESS_ERR_MOVE_AMBIGUOUS;
    *move = match;
    return 0;
}

int chess_san_parse(const struct chess_position *pos, const char *text, chess_move *move) {
    struct san_parts parts;
    if (!text) return -CHESS_ERR_MOVE_SYNTAX;
    /* The syntax first, so malformed text costs no move generation. */
    int rc = split_san(text, &parts);
    if (rc < 0) return rc;
    struct chess_move_list list;
    chess_generate_moves(pos, CHESS_GEN_ALL, &list);
    return notation_find_san(pos, &list, text, move);
}

static bool looks_like_uci(const char *text) {
    size_t len = strlen(text);
    return (len == 4 || len == 5) && text[0] >= 'a' && text[0] <= 'h' && text[1] >= '1' &&
           text[1] <= '8' && text[2] >= 'a' && text[2] <= 'h' && text[3] >= '1' && text[3] <= '8';
}

int notation_find_move(const struct chess_position *pos, const struct chess_move_list *legal,
                       const char *text, chess_move *move) {
    if (!text) return -CHESS_ERR_MOVE_SYNTAX;
    if (looks_like_uci(text)) return notation_find_uci(pos, legal, text, move);
    return notation_find_san(pos, legal, text, move);
}

int chess_move_parse(const struct chess_position *pos, const char *text, chess_move *move) {
    if (!text) return -CHESS_ERR_MOVE_SYNTAX;
    if (looks_like_uci(text)) return chess_move_from_uci(pos, text, move);
    return chess_san_parse(pos, text, move);
}
