/*
 * Game tests: checkmate, stalemate, threefold (claimable) and fivefold (automatic) repetition,
 * fifty (claimable) and seventy-five (automatic) move rules with mate taking precedence,
 * insufficient material, takebacks, and bad moves leaving the game as it was; the legal moves a
 * game keeps, and chess_game_play_record() against the one-generation-each functions.
 */
#include <chess/fen.h>
#include <chess/game.h>
#include <chess/movegen.h>
#include <string.h>

#include "check.h"
#include "test_random.h"

static void start_from(struct chess_game *game, const char *fen) {
    struct chess_position pos;
    CHECK_EQ_INT(chess_fen_parse(&pos, fen), 0);
    CHECK_EQ_INT(chess_game_init(game, &pos), 0);
}

static void play_all(struct chess_game *game, const char *const *moves, int count) {
    for (int i = 0; i < count; i++) {
        int rc = chess_game_play_text(game, moves[i], NULL);
        if (rc < 0) printf("     move %s: %s\n", moves[i], chess_error_name(rc));
        CHECK_EQ_INT(rc, 0);
    }
}

static void test_checkmate(void) {
    struct chess_game game;
    CHECK_EQ_INT(chess_game_init(&game, NULL), 0);
    const char *moves[] = {"f3", "e5", "g4", "Qh4#"};
    play_all(&game, moves, 4);
    CHECK_EQ_INT(game.result, CHESS_RESULT_BLACK_WINS);
    CHECK_EQ_INT(game.termination, CHESS_TERM_CHECKMATE);
    CHECK_EQ_STR(chess_termination_name(game.termination), "checkmate");
    CHECK_EQ_STR(chess_result_name(game.result), "0-1");
    CHECK_EQ_INT(chess_game_play_text(&game, "a3", NULL), -CHESS_ERR_GAME_OVER);
    CHECK_EQ_INT(game.ply_count, 4);
    /* Taking the mate back reopens the game. */
    CHECK_EQ_INT(chess_game_undo(&game), 0);
    CHECK_EQ_INT(game.result, CHESS_RESULT_NONE);
    CHECK_EQ_INT(game.ply_count, 3);
    struct chess_position pos;
    CHECK_EQ_INT(chess_game_position_at(&game, 3, &pos), 0);
    CHECK_EQ_INT(pos.key, game.current.key);
    CHECK_EQ_INT(chess_game_position_at(&game, 4, &pos), -CHESS_ERR_MOVE_ILLEGAL);
    CHECK_EQ_INT(chess_game_position_at(&game, -1, &pos), -CHESS_ERR_MOVE_ILLEGAL);
    chess_game_free(&game);
}

static void test_stalemate(void) {
    struct chess_game game;
    start_from(&game, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    CHECK_EQ_INT(chess_game_play_text(&game, "Qf7", NULL), 0);
    CHECK_EQ_INT(game.result, CHESS_RESULT_DRAW);
    CHECK_EQ_INT(game.termination, CHESS_TERM_STALEMATE);
    chess_game_free(&game);
}

static void test_repetitions(void) {
    struct chess_game game;
    CHECK_EQ_INT(chess_game_init(&game, NULL), 0);
    const char *cycle[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    play_all(&game, cycle, 4);
    CHECK_EQ_INT(chess_game_repetitions(&game), 2);
    CHECK_EQ_INT(chess_game_claimable_draw(&game), CHESS_TERM_NONE);
    play_all(&game, cycle, 4);
    CHECK_EQ_INT(chess_game_repetitions(&game), 3);
    CHECK_EQ_INT(chess_game_claimable_draw(&game), CHESS_TERM_THREEFOLD_REPETITION);
    CHECK_EQ_INT(game.result, CHESS_RESULT_NONE); /* claimable, not automatic */
    play_all(&game, cycle, 4);
    CHECK_EQ_INT(game.result, CHESS_RESULT_NONE);
    play_all(&game, cycle, 4);
    CHECK_EQ_INT(game.result, CHESS_RESULT_DRAW);
    CHECK_EQ_INT(game.termination, CHESS_TERM_FIVEFOLD_REPETITION);
    CHECK_EQ_INT(chess_game_claimable_draw(&game), CHESS_TERM_NONE);
    chess_game_free(&game);

    /* A lost castling right makes the position different: no repetition. */
    start_from(&game, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    const char *rook_moves[] = {"Rb1", "Rb8", "Ra1", "Ra8"};
    play_all(&game, rook_moves, 4);
    CHECK_EQ_INT(chess_game_repetitions(&game), 1);
    play_all(&game, rook_moves, 4);
    CHECK_EQ_INT(chess_game_repetitions(&game), 2);
    chess_game_free(&game);
}

static void test_move_count_rules(void) {
    struct chess_game game;
    start_from(&game, "7k/8/6K1/8/8/8/8/R7 w - - 98 80");
    CHECK_EQ_INT(chess_game_play_text(&game, "Ra2", NULL), 0);
    CHECK_EQ_INT(chess_game_claimable_draw(&game), CHESS_TERM_NONE);
    CHECK_EQ_INT(chess_game_play_text(&game, "Kg8", NULL), 0);
    CHECK_EQ_INT(chess_game_claimable_draw(&game), CHESS_TERM_FIFTY_MOVES);
    CHECK_EQ_INT(game.result, CHESS_RESULT_NONE);
    chess_game_free(&game);

    start_from(&game, "7k/8/6K1/8/8/8/8/R7 w - - 149 100");
    CHECK_EQ_INT(chess_game_play_text(&game, "Ra2", NULL), 0);
    CHECK_EQ_INT(game.result, CHESS_RESULT_DRAW);
    CHECK_EQ_INT(game.termination, CHESS_TERM_SEVENTY_FIVE_MOVES);
    chess_game_free(&game);

    /* Mate on the move that reaches 75 moves counts as mate. */
    start_from(&game, "7k/8/6K1/8/8/8/8/R7 w - - 149 100");
    CHECK_EQ_INT(chess_game_play_text(&game, "Ra8#", NULL), 0);
    CHECK_EQ_INT(game.result, CHESS_RESULT_WHITE_WINS);
    CHECK_EQ_INT(game.termination, CHESS_TERM_CHECKMATE);
    chess_game_free(&game);
}

static void test_insufficient_material(void) {
    struct chess_game game;
    start_from(&game, "4k3/8/8/8/8/8/r7/1B2K3 w - - 0 1");
    CHECK_EQ_INT(chess_game_play_text(&game, "Bxa2", NULL), 0);
    CHECK_EQ_INT(game.result, CHESS_RESULT_DRAW);
    CHECK_EQ_INT(game.termination, CHESS_TERM_INSUFFICIENT_MATERIAL);
    chess_game_free(&game);

    static const struct {
        const char *fen;
        bool dead;
    } cases[] = {
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
        {"4k3/8/8/8/8/8/8/3NK3 w - - 0 1", true},
        {"4k3/8/8/8/8/8/8/3BK3 w - - 0 1", true},
        {"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},   /* bishops on dark squares both */
        {"4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false}, /* opposite colours */
        {"4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", false},
        {"4kn2/8/8/8/8/8/8/3NK3 w - - 0 1", false},
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
        {"4k3/8/8/8/8/8/8/3RK3 w - - 0 1", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct chess_position pos;
        CHECK_EQ_INT(chess_fen_parse(&pos, cases[i].fen), 0);
        if (chess_position_insufficient_material(&pos) != cases[i].dead)
            printf("     %s\n", cases[i].fen);
        CHECK_EQ_INT(chess_position_insufficient_material(&pos), cases[i].dead);
    }
}

static void test_side_cannot_mate(void) {
    static const struct {
        const char *fen;
        bool white_cannot;
    } cases[] = {
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
        {"4k3/pppp4/8/8/8/8/8/4K3 w - - 0 1", true}, /* a lone king never mates */
        {"4k3/8/8/8/8/8/8/3NK3 w - - 0 1", true},
        {"4k3/p7/8/8/8/8/8/3NK3 w - - 0 1", false}, /* the pawn can box its king in */
        {"4k3/8/8/8/8/8/8/3BK3 w - - 0 1", true},
        {"4kr2/8/8/8/8/8/8/3BK3 w - - 0 1", false},
        {"4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", false},
        {"4k3/8/8/8/8/8/8/3RK3 w - - 0 1", false},
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct chess_position pos;
        CHECK_EQ_INT(chess_fen_parse(&pos, cases[i].fen), 0);
        bool got = chess_position_side_cannot_mate(&pos, CHESS_WHITE);
        if (got != cases[i].white_cannot) printf("     %s\n", cases[i].fen);
        CHECK_EQ_INT(got, cases[i].white_cannot);
    }
}

static void test_bad_moves_leave_game_intact(void) {
    struct chess_game game;
    CHECK_EQ_INT(chess_game_init(&game, NULL), 0);
    uint64_t key = game.current.key;
    CHECK_EQ_INT(chess_game_play_text(&game, "e5", NULL), -CHESS_ERR_MOVE_ILLEGAL);
    CHECK_EQ_INT(chess_game_play_text(&game, "hello", NULL), -CHESS_ERR_MOVE_SYNTAX);
    CHECK_EQ_INT(chess_game_play_text(&game, "e2e5", NULL), -CHESS_ERR_MOVE_ILLEGAL);
    CHECK_EQ_INT(chess_game_play(&game, CHESS_MOVE_NONE), -CHESS_ERR_MOVE_ILLEGAL);
    CHECK_EQ_INT(chess_game_play(&game, 0xFFFF), -CHESS_ERR_MOVE_ILLEGAL);
    CHECK_EQ_INT(chess_game_undo(&game), -CHESS_ERR_MOVE_ILLEGAL);
    CHECK_EQ_INT(game.ply_count, 0);
    CHECK_EQ_INT(game.current.key, key);
    chess_move m;
    CHECK_EQ_INT(chess_game_play_text(&game, "e2e4", &m), 0);
    CHECK_EQ_INT(game.moves[0], m);
    chess_game_end(&game, CHESS_RESULT_WHITE_WINS, CHESS_TERM_RESIGNATION);
    CHECK_EQ_INT(chess_game_play_text(&game, "e5", NULL), -CHESS_ERR_GAME_OVER);
    CHECK_EQ_STR(chess_termination_name(game.termination), "resignation");
    chess_game_free(&game);
}

static void test_long_game_grows(void) {
    /* Knights shuffle, three times between pawn moves, so no position occurs five times. */
    struct chess_game game;
    CHECK_EQ_INT(chess_game_init(&game, NULL), 0);
    const char *pawns[] = {"a3", "a6", "a4", "a5", "b3", "b6", "b4", "b5", "c3", "c6", "c4", "c5"};
    const char *cycle[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    for (int p = 0; p < 12; p += 2) {
        play_all(&game, &pawns[p], 2);
        for (int c = 0; c < 3; c++) play_all(&game, cycle, 4);
    }
    CHECK_EQ_INT(game.result, CHESS_RESULT_NONE);
    CHECK_EQ_INT(game.ply_count, 12 + 6 * 12);
    CHECK(game.capacity >= game.ply_count);
    chess_game_free(&game);
}

/* The list a game keeps is what the generator gives for its position. */
static void check_legal_list(const struct chess_game *game) {
    struct chess_move_list list;
    chess_generate_moves(&game->current, CHESS_GEN_ALL, &list);
    CHECK_EQ_INT(game->legal.count, list.count);
    CHECK(memcmp(game->legal.moves, list.moves, sizeof list.moves[0] * (size_t)list.count) == 0);
}

/*
 * SAN that names the move, and no shorter spelling would: a piece move's origin hint (file,
 * rank or both) is there only when leaving out any of it is ambiguous.
 */
static void check_san_exact(const struct chess_position *pos, chess_move m, const char *san) {
    chess_move back = CHESS_MOVE_NONE;
    CHECK_EQ_INT(chess_san_parse(pos, san, &back), 0);
    CHECK_EQ_INT(back, m);
    if (!strchr("NBRQK", san[0])) return; /* pawns and castling have no hint */
    size_t len = strcspn(san, "+#");
    size_t dest = len - 2; /* a piece move ends with its destination square */
    size_t hint_end = san[dest - 1] == 'x' ? dest - 1 : dest;
    for (size_t i = 1; i < hint_end; i++) {
        char shorter[CHESS_SAN_MAX];
        memcpy(shorter, san, i);
        strcpy(shorter + i, san + i + 1);
        CHECK_EQ_INT(chess_san_parse(pos, shorter, &back), -CHESS_ERR_MOVE_AMBIGUOUS);
    }
}

/*
 * Random games from several starts (castling both ways, Chess960 castling in UCI, en passant,
 * promotions, mates): every move played by its UCI or SAN through chess_game_play_record()
 * gives the text chess_move_to_uci() and chess_san_write() give for the position before it, and
 * the same game as chess_game_play() of the move, and the SAN names the move with no more of
 * an origin hint than it needs; chess_game_play() accepts exactly the moves
 * chess_position_is_legal() does.
 */
static void test_play_record_matches(void) {
    static const char *const starts[] = {
        CHESS_FEN_STARTPOS,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "8/2P3k1/8/8/8/8/5p2/K7 w - - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    };
    uint64_t rng = 0x51a7e5eedULL;
    int plies = 0, mates = 0, checks = 0, hints = 0;
    for (int round = 0; round < 60; round++) {
        struct chess_position start;
        CHECK_EQ_INT(chess_fen_parse(&start, starts[round % 5]), 0);
        struct chess_game a, b;
        CHECK_EQ_INT(chess_game_init(&a, &start), 0);
        CHECK_EQ_INT(chess_game_init(&b, &start), 0);
        check_legal_list(&a);
        while (a.result == CHESS_RESULT_NONE && a.ply_count < 300) {
            const struct chess_position before = a.current;
            if (round < 10 && a.ply_count % 20 == 0) {
                struct chess_game probe;
                CHECK_EQ_INT(chess_game_init(&probe, &before), 0);
                /* A spread of all 16-bit values, and each legal move with its kind or
                 * promotion piece changed (the near misses). */
                chess_move tries[65536 / 7 + 1 + 6 * CHESS_MAX_MOVES];
                int n = 0;
                for (unsigned v = 0; v < 65536; v += 7) tries[n++] = (chess_move)v;
                for (int i = 0; i < a.legal.count; i++) {
                    static const unsigned flips[] = {0,        1u << 12, 2u << 12,
                                                     1u << 14, 2u << 14, 3u << 14};
                    for (int f = 0; f < 6; f++)
                        tries[n++] = (chess_move)(a.legal.moves[i] ^ flips[f]);
                }
                for (int i = 0; i < n; i++) {
                    bool legal = chess_position_is_legal(&before, tries[i]);
                    int rc = chess_game_play(&probe, tries[i]);
                    CHECK_EQ_INT(rc == 0, legal);
                    if (rc == 0) CHECK_EQ_INT(chess_game_undo(&probe), 0);
                }
                chess_game_free(&probe);
            }
            chess_move m = a.legal.moves[rng_next(&rng) % (uint64_t)a.legal.count];
            char uci[CHESS_UCI_MAX], san[CHESS_SAN_MAX];
            chess_move_to_uci(&before, m, uci);
            chess_san_write(&before, m, san);
            struct chess_move_record record;
            CHECK_EQ_INT(chess_game_play_record(&a, rng_next(&rng) % 2 ? uci : san, &record), 0);
            CHECK_EQ_INT(record.move, m);
            CHECK_EQ_STR(record.uci, uci);
            CHECK_EQ_STR(record.san, san);
            check_san_exact(&before, m, record.san);
            CHECK_EQ_INT(chess_game_play(&b, m), 0);
            CHECK_EQ_INT(a.current.key, b.current.key);
            CHECK_EQ_INT(a.result, b.result);
            CHECK_EQ_INT(a.termination, b.termination);
            check_legal_list(&a);
            mates += strchr(san, '#') != NULL;
            hints += strchr("NBRQ", san[0]) && strcspn(san, "+#") > (strchr(san, 'x') ? 4u : 3u);
            checks += strchr(san, '+') != NULL;
            plies++;
        }
        /* A takeback brings the list back with the position. */
        CHECK_EQ_INT(chess_game_undo(&a), 0);
        check_legal_list(&a);
        chess_game_free(&a);
        chess_game_free(&b);
    }
    /* The games did go through what they are here for. */
    CHECK(plies > 5000);
    CHECK(checks > 100);
    CHECK(mates > 0);
    CHECK(hints > 20); /* moves that needed an origin hint */
}

/* Errors from chess_game_play_record(): the game and the record stay as they were. */
static void test_play_record_errors(void) {
    struct chess_game game;
    start_from(&game, "k7/8/8/8/8/8/8/1R3R1K w - - 0 1");
    struct chess_move_record record, untouched;
    memset(&record, 0x5a, sizeof record);
    untouched = record;
    uint64_t key = game.current.key;
    CHECK_EQ_INT(chess_game_play_record(&game, "Rd1", &record), -CHESS_ERR_MOVE_AMBIGUOUS);
    CHECK_EQ_INT(chess_game_play_record(&game, "Rd9", &record), -CHESS_ERR_MOVE_SYNTAX);
    CHECK_EQ_INT(chess_game_play_record(&game, NULL, &record), -CHESS_ERR_MOVE_SYNTAX);
    CHECK_EQ_INT(chess_game_play_record(&game, "", &record), -CHESS_ERR_MOVE_SYNTAX);
    CHECK_EQ_INT(chess_game_play_record(&game, "e2e4", &record), -CHESS_ERR_MOVE_ILLEGAL);
    CHECK_EQ_INT(chess_game_play_record(&game, "b1b9", &record), -CHESS_ERR_MOVE_SYNTAX);
    CHECK_EQ_INT(chess_game_play_record(&game, "Qd1", &record), -CHESS_ERR_MOVE_ILLEGAL);
    CHECK(memcmp(&record, &untouched, sizeof record) == 0);
    CHECK_EQ_INT(game.ply_count, 0);
    CHECK_EQ_INT(game.current.key, key);
    /* Disambiguated by file, then a mate in SAN and UCI spelling. */
    CHECK_EQ_INT(chess_game_play_record(&game, "Rbd1", &record), 0);
    CHECK_EQ_STR(record.san, "Rbd1");
    CHECK_EQ_STR(record.uci, "b1d1");
    CHECK_EQ_INT(chess_game_play_record(&game, "a8b7", &record), 0);
    CHECK_EQ_STR(record.san, "Kb7");
    CHECK_EQ_INT(chess_game_play_record(&game, "Rf7+", &record), 0);
    CHECK_EQ_STR(record.san, "Rf7+");
    CHECK_EQ_INT(chess_game_play_record(&game, "Kb8", &record), 0);
    CHECK_EQ_INT(chess_game_play_record(&game, "d1d8", &record), 0);
    CHECK_EQ_STR(record.san, "Rd8#");
    CHECK_EQ_INT(game.termination, CHESS_TERM_CHECKMATE);
    CHECK_EQ_INT(game.legal.count, 0);
    untouched = record;
    CHECK_EQ_INT(chess_game_play_record(&game, "Ka7", &record), -CHESS_ERR_GAME_OVER);
    CHECK(memcmp(&record, &untouched, sizeof record) == 0);
    chess_game_free(&game);
}

int main(void) {
    RUN(test_checkmate);
    RUN(test_stalemate);
    RUN(test_repetitions);
    RUN(test_move_count_rules);
    RUN(test_insufficient_material);
    RUN(test_side_cannot_mate);
    RUN(test_bad_moves_leave_game_intact);
    RUN(test_long_game_grows);
    RUN(test_play_record_matches);
    RUN(test_play_record_errors);
    return check_finish();
}
