/*
 * Self-play game records (game_record.h): the stream format and the move numbering.
 */
#include "game_record.h"

#include <chess/move.h>
#include <chess/movegen.h>

#include <stdlib.h>
#include <string.h>

struct uci_move {
    char text[CHESS_UCI_MAX];
    chess_move move;
};

static int compare_uci(const void *a, const void *b) {
    return strcmp(((const struct uci_move *)a)->text, ((const struct uci_move *)b)->text);
}

/* The legal moves in UCI order; returns how many. */
static int sorted_moves(const struct chess_position *pos, struct uci_move out[CHESS_MAX_MOVES]) {
    struct chess_move_list list;
    int n = chess_generate_moves(pos, CHESS_GEN_ALL, &list);
    for (int i = 0; i < n; i++) {
        out[i].move = list.moves[i];
        chess_move_to_uci(pos, list.moves[i], out[i].text);
    }
    qsort(out, (size_t)n, sizeof *out, compare_uci);
    return n;
}

int game_record_move_index(const struct chess_position *pos, chess_move move) {
    struct uci_move moves[CHESS_MAX_MOVES];
    int n = sorted_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        if (moves[i].move == move) return i;
    }
    return -1;
}

int game_record_move_at(const struct chess_position *pos, int index, chess_move *move) {
    struct uci_move moves[CHESS_MAX_MOVES];
    int n = sorted_moves(pos, moves);
    if (index < 0 || index >= n) return -1;
    *move = moves[index].move;
    return 0;
}

int game_record_write_magic(FILE *out) {
    return fwrite(GAME_RECORD_MAGIC, 4, 1, out) == 1 ? 0 : -1;
}

int game_record_read_magic(FILE *in) {
    char magic[4];
    return fread(magic, 4, 1, in) == 1 && memcmp(magic, GAME_RECORD_MAGIC, 4) == 0 ? 0 : -1;
}

int game_record_write(FILE *out, const struct game_record *game) {
    size_t start_len = strlen(game->start);
    if (game->plies < 0 || game->plies > GAME_RECORD_MAX_PLIES || game->result > 2 ||
        start_len > 255)
        return -1;
    uint8_t head[4] = {(uint8_t)(game->plies & 0xFF), (uint8_t)(game->plies >> 8), game->result,
                       (uint8_t)start_len};
    uint8_t scores[2 * GAME_RECORD_MAX_PLIES];
    for (int i = 0; i < game->plies; i++) {
        uint16_t s = (uint16_t)game->scores[i];
        scores[2 * i] = (uint8_t)(s & 0xFF);
        scores[2 * i + 1] = (uint8_t)(s >> 8);
    }
    size_t plies = (size_t)game->plies;
    if (fwrite(head, sizeof head, 1, out) != 1) return -1;
    if (start_len && fwrite(game->start, start_len, 1, out) != 1) return -1;
    if (plies &&
        (fwrite(game->moves, plies, 1, out) != 1 || fwrite(scores, 2 * plies, 1, out) != 1))
        return -1;
    return 0;
}

int game_record_read(FILE *in, struct game_record *game) {
    uint8_t head[4];
    size_t got = fread(head, 1, sizeof head, in);
    if (got == 0 && feof(in)) return 0;
    if (got != sizeof head) return -1;
    game->plies = head[0] | head[1] << 8;
    game->result = head[2];
    size_t start_len = head[3];
    if (game->plies > GAME_RECORD_MAX_PLIES || game->result > 2 || start_len >= CHESS_FEN_MAX)
        return -1;
    if (start_len && fread(game->start, start_len, 1, in) != 1) return -1;
    game->start[start_len] = '\0';
    size_t plies = (size_t)game->plies;
    uint8_t scores[2 * GAME_RECORD_MAX_PLIES];
    if (plies && (fread(game->moves, plies, 1, in) != 1 || fread(scores, 2 * plies, 1, in) != 1))
        return -1;
    for (int i = 0; i < game->plies; i++)
        game->scores[i] = (int16_t)(uint16_t)(scores[2 * i] | scores[2 * i + 1] << 8);
    return 1;
}
