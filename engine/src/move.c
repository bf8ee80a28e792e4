/*
 * UCI move text: writing, and reading by matching against the legal moves.
 */
#include "chess/move.h"
#include "chess/movegen.h"
#include "internal.h"
#include "notation.h"

#include <string.h>

void chess_square_name(int square, char buf[3]) {
    buf[0] = (char)('a' + CHESS_FILE_OF(square));
    buf[1] = (char)('1' + CHESS_RANK_OF(square));
    buf[2] = '\0';
}

void chess_move_to_uci(const struct chess_position *pos, chess_move move, char buf[CHESS_UCI_MAX]) {
    if (move == CHESS_MOVE_NONE || move == CHESS_MOVE_NULL) {
        memcpy(buf, "0000", 5);
        return;
    }
    int from = chess_move_from(move), to = chess_move_to(move);
    if (chess_move_kind(move) == CHESS_MOVE_CASTLING && !pos->chess960) {
        int rook_to;
        position_castling_squares(pos->side, from, to, &to, &rook_to);
    }
    chess_square_name(from, buf);
    chess_square_name(to, buf + 2);
    if (chess_move_kind(move) == CHESS_MOVE_PROMOTION) {
        buf[4] = " pnbrqk"[chess_move_promotion(move)];
        buf[5] = '\0';
    }
}

static int parse_square(const char *s) {
    if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return -1;
    return CHESS_SQUARE(s[0] - 'a', s[1] - '1');
}

/* Reads the squares and promotion piece of UCI text. Returns 0 or -CHESS_ERR_MOVE_SYNTAX. */
static int parse_uci(const char *text, int *from, int *to, int *promo) {
    size_t len = text ? strlen(text) : 0;
    if (len < 4 || len > 5) return -CHESS_ERR_MOVE_SYNTAX;
    *from = parse_square(text);
    *to = parse_square(text + 2);
    if (*from < 0 || *to < 0) return -CHESS_ERR_MOVE_SYNTAX;
    *promo = CHESS_NO_PIECE_TYPE;
    if (len == 5) {
        const char *p = strchr("nbrq", text[4] | 0x20);
        if (!p || !text[4]) return -CHESS_ERR_MOVE_SYNTAX;
        *promo = CHESS_KNIGHT + (int)(p - "nbrq");
    }
    return 0;
}

int notation_find_uci(const struct chess_position *pos, const struct chess_move_list *legal,
                      const char *text, chess_move *move) {
    int from, to, promo;
    int rc = parse_uci(text, &from, &to, &promo);
    if (rc < 0) return rc;
    /* Most moves: an ordinary move (or en passant) is the one legal move between its squares,
     * found by those alone (the server reads a move from every client message). No castling
     * reads the same: its squares are the king's and its own rook's, where no ordinary move
     * lands, and standard chess's e1g1 is two squares of a king, which no ordinary move is. The
     * others (castling, promotions) are left to the search below. */
    if (promo == CHESS_NO_PIECE_TYPE) {
        chess_move squares = chess_move_make(from, to);
        for (int i = 0; i < legal->count; i++) {
            chess_move m = legal->moves[i];
            if ((m & 0xfff) != squares) continue;
            enum chess_move_kind kind = chess_move_kind(m);
            if (kind == CHESS_MOVE_PROMOTION || kind == CHESS_MOVE_CASTLING) break;
            *move = m;
            return 0;
        }
    }
    /* Chess960's castling written as the king's own move (e1g1): taken unless an ordinary move
     * has that text. */
    chess_move king_move_castling = CHESS_MOVE_NONE;
    for (int i = 0; i < legal->count; i++) {
        chess_move m = legal->moves[i];
        if (chess_move_from(m) != from) continue;
        bool promotes = chess_move_kind(m) == CHESS_MOVE_PROMOTION;
        if (promotes != (promo != CHESS_NO_PIECE_TYPE)) continue;
        if (promotes && (int)chess_move_promotion(m) != promo) continue;
        int target = chess_move_to(m);
        if (chess_move_kind(m) == CHESS_MOVE_CASTLING) {
            /* King takes rook always; king to its castling square in standard chess, and in
             * Chess960 when no other move reads the same. */
            int king_to, rook_to;
            position_castling_squares(pos->side, from, target, &king_to, &rook_to);
            if (to == target || (!pos->chess960 && to == king_to)) {
                *move = m;
                return 0;
            }
            if (to == king_to && king_to != from) king_move_castling = m;
            continue;
        }
        if (target == to) {
            *move = m;
            return 0;
        }
    }
    if (king_move_castling == CHESS_MOVE_NONE) return -CHESS_ERR_MOVE_ILLEGAL;
    *move = king_move_castling;
    return 0;
}

int chess_move_from_uci(const struct chess_position *pos, const char *text, chess_move *move) {
    /* The syntax first, so malformed text costs no move generation. */
    int from, to, promo;
    int rc = parse_uci(text, &from, &to, &promo);
    if (rc < 0) return rc;
    struct chess_move_list list;
    chess_generate_moves(pos, CHESS_GEN_ALL, &list);
    return notation_find_uci(pos, &list, text, move);
}
