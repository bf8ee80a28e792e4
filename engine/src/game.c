/*
 * Games: moves and keys in growing arrays, and the endings that depend on history.
 *
 * Repetitions are counted over the keys since the last irreversible move (the halfmove clock
 * bounds the search), every second ply, since only positions with the same side to move can be
 * equal. Takebacks replay the game from its start, which is cheap next to anything a server does
 * with a move.
 *
 * game->legal always holds the legal moves of game->current: every function that changes the
 * position generates them again. A move is legal when it is in that list, and "no legal move"
 * (mate or stalemate) is an empty list.
 */
#include "chess/game.h"
#include "chess/movegen.h"
#include "chess/san.h"
#include "notation.h"

#include <stdlib.h>
#include <string.h>

static int reserve(struct chess_game *game, int plies) {
    if (plies <= game->capacity) return 0;
    int capacity = game->capacity ? game->capacity : 64;
    while (capacity < plies) capacity *= 2;
    chess_move *moves = realloc(game->moves, sizeof *moves * (size_t)capacity);
    if (!moves) return -CHESS_ERR_NO_MEMORY;
    game->moves = moves;
    /* keys holds one more entry than moves: the start position's. */
    uint64_t *keys = realloc(game->keys, sizeof *keys * (size_t)(capacity + 1));
    if (!keys) return -CHESS_ERR_NO_MEMORY;
    game->keys = keys;
    game->capacity = capacity;
    return 0;
}

int chess_game_init(struct chess_game *game, const struct chess_position *start) {
    *game = (struct chess_game){0};
    if (start) {
        game->start = *start;
    } else {
        chess_position_startpos(&game->start);
    }
    game->current = game->start;
    chess_generate_moves(&game->current, CHESS_GEN_ALL, &game->legal);
    if (reserve(game, 64) < 0) {
        chess_game_free(game);
        return -CHESS_ERR_NO_MEMORY;
    }
    game->keys[0] = game->start.key;
    return 0;
}

void chess_game_free(struct chess_game *game) {
    free(game->moves);
    free(game->keys);
    game->moves = NULL;
    game->keys = NULL;
    game->capacity = 0;
    game->ply_count = 0;
}

int chess_game_repetitions(const struct chess_game *game) {
    int ply = game->ply_count;
    int oldest = ply - game->current.halfmove_clock;
    if (oldest < 0) oldest = 0;
    int count = 1;
    for (int i = ply - 2; i >= oldest; i -= 2) {
        if (game->keys[i] == game->keys[ply]) count++;
    }
    return count;
}

/* Endings the rules apply without anyone asking, in order of precedence. */
static void apply_automatic_endings(struct chess_game *game) {
    const struct chess_position *pos = &game->current;
    int variant_winner = chess_position_variant_winner(pos);
    if (variant_winner >= 0) {
        game->result =
            variant_winner == CHESS_WHITE ? CHESS_RESULT_WHITE_WINS : CHESS_RESULT_BLACK_WINS;
        game->termination = pos->variant == CHESS_VARIANT_KING_OF_THE_HILL
                                ? CHESS_TERM_KING_OF_THE_HILL
                                : CHESS_TERM_THREE_CHECK;
        return;
    }
    if (game->legal.count == 0) {
        if (pos->checkers) {
            game->result =
                pos->side == CHESS_WHITE ? CHESS_RESULT_BLACK_WINS : CHESS_RESULT_WHITE_WINS;
            game->termination = CHESS_TERM_CHECKMATE;
        } else {
            game->result = CHESS_RESULT_DRAW;
            game->termination = CHESS_TERM_STALEMATE;
        }
        return;
    }
    enum chess_termination draw = CHESS_TERM_NONE;
    if (chess_position_insufficient_material(pos)) {
        draw = CHESS_TERM_INSUFFICIENT_MATERIAL;
    } else if (chess_game_repetitions(game) >= 5) {
        draw = CHESS_TERM_FIVEFOLD_REPETITION;
    } else if (pos->halfmove_clock >= 150) {
        draw = CHESS_TERM_SEVENTY_FIVE_MOVES;
    }
    if (draw != CHESS_TERM_NONE) {
        game->result = CHESS_RESULT_DRAW;
        game->termination = draw;
    }
}

static bool is_legal(const struct chess_game *game, chess_move move) {
    for (int i = 0; i < game->legal.count; i++) {
        if (game->legal.moves[i] == move) return true;
    }
    return false;
}

/* Plays a move of game->legal. Returns 0, -CHESS_ERR_GAME_TOO_LONG or -CHESS_ERR_NO_MEMORY. */
static int play_legal(struct chess_game *game, chess_move move) {
    if (game->ply_count >= CHESS_GAME_MAX_PLIES) return -CHESS_ERR_GAME_TOO_LONG;
    int rc = reserve(game, game->ply_count + 1);
    if (rc < 0) return rc;
    chess_position_make_move(&game->current, move);
    chess_generate_moves(&game->current, CHESS_GEN_ALL, &game->legal);
    game->moves[game->ply_count++] = move;
    game->keys[game->ply_count] = game->current.key;
    apply_automatic_endings(game);
    return 0;
}

int chess_game_play(struct chess_game *game, chess_move move) {
    if (game->result != CHESS_RESULT_NONE) return -CHESS_ERR_GAME_OVER;
    if (game->ply_count >= CHESS_GAME_MAX_PLIES) return -CHESS_ERR_GAME_TOO_LONG;
    if (!is_legal(game, move)) return -CHESS_ERR_MOVE_ILLEGAL;
    return play_legal(game, move);
}

int chess_game_play_text(struct chess_game *game, const char *text, chess_move *move) {
    if (game->result != CHESS_RESULT_NONE) return -CHESS_ERR_GAME_OVER;
    chess_move m;
    int rc = notation_find_move(&game->current, &game->legal, text, &m);
    if (rc < 0) return rc;
    rc = play_legal(game, m);
    if (rc == 0 && move) *move = m;
    return rc;
}

int chess_game_play_record(struct chess_game *game, const char *text,
                           struct chess_move_record *record) {
    if (game->result != CHESS_RESULT_NONE) return -CHESS_ERR_GAME_OVER;
    chess_move m;
    int rc = notation_find_move(&game->current, &game->legal, text, &m);
    if (rc < 0) return rc;
    /* Written before the move, from the position and list it is read against. */
    char uci[CHESS_UCI_MAX], san[CHESS_SAN_MAX];
    chess_move_to_uci(&game->current, m, uci);
    int n = notation_san_body(&game->current, &game->legal, m, san);
    rc = play_legal(game, m);
    if (rc < 0) return rc;
    /* Mate is the one ending that comes with a check and no legal move (a third check is not). */
    bool mate = game->legal.count == 0 && game->termination == CHESS_TERM_CHECKMATE;
    if (game->current.checkers) san[n++] = mate ? '#' : '+';
    san[n] = '\0';
    record->move = m;
    memcpy(record->uci, uci, sizeof uci);
    memcpy(record->san, san, sizeof san);
    return 0;
}

int chess_game_position_at(const struct chess_game *game, int ply, struct chess_position *out) {
    if (ply < 0 || ply > game->ply_count) return -CHESS_ERR_MOVE_ILLEGAL;
    struct chess_position pos = game->start;
    for (int i = 0; i < ply; i++) chess_position_make_move(&pos, game->moves[i]);
    *out = pos;
    return 0;
}

int chess_game_undo(struct chess_game *game) {
    if (game->ply_count == 0) return -CHESS_ERR_MOVE_ILLEGAL;
    int rc = chess_game_position_at(game, game->ply_count - 1, &game->current);
    if (rc < 0) return rc;
    chess_generate_moves(&game->current, CHESS_GEN_ALL, &game->legal);
    game->ply_count--;
    game->result = CHESS_RESULT_NONE;
    game->termination = CHESS_TERM_NONE;
    return 0;
}

enum chess_termination chess_game_claimable_draw(const struct chess_game *game) {
    if (game->result != CHESS_RESULT_NONE) return CHESS_TERM_NONE;
    if (chess_game_repetitions(game) >= 3) return CHESS_TERM_THREEFOLD_REPETITION;
    if (game->current.halfmove_clock >= 100) return CHESS_TERM_FIFTY_MOVES;
    return CHESS_TERM_NONE;
}

void chess_game_end(struct chess_game *game, enum chess_result result,
                    enum chess_termination termination) {
    game->result = result;
    game->termination = termination;
}
