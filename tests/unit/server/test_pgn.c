/* Tests of PGN export: tags, %clk comments, results of live and ended games. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/openings.h"
#include "core/pgn.h"
#include "core/player.h"

static void play(struct game *g, const char *const *moves, int n, int64_t *now) {
    struct game_move_info info;
    for (int i = 0; i < n; i++) {
        CHECK_EQ_INT(game_move(g, game_turn(g), moves[i], -1, NULL, *now, 0, &info), 0);
        *now += 2100;
    }
}

static void test_event_name(void) {
    char event[64];
    pgn_event_name(true, RATING_BLITZ, event, sizeof event);
    CHECK_EQ_STR(event, "Rated Blitz game");
    pgn_event_name(false, RATING_CLASSICAL, event, sizeof event);
    CHECK_EQ_STR(event, "Casual Classical game");
    pgn_event_name(false, RATING_NONE, event, sizeof event);
    CHECK_EQ_STR(event, "Casual Correspondence game");
}

static void test_pgn(void) {
    struct player white = {.name = "Alice"}, black = {.name = "Bob"};
    struct time_control tc = {.initial_ms = 180000, .increment_ms = 2000};
    struct game g;
    /* 2023-11-14T22:13:20Z */
    CHECK_EQ_INT(game_init(&g, "abcd1234", &white, &black, &tc, NULL, 100, 0, 0, 1700000000000), 0);
    int64_t now = 0;
    const char *const moves[] = {"e4", "e5", "Nf3", "Nc6"};
    play(&g, moves, 4, &now);
    char *text = NULL;
    long n = game_write_pgn(&g, "http://localhost:8080", &text);
    CHECK(n > 0 && text);
    if (text) {
        CHECK(strstr(text, "[Event \"Casual Blitz game\"]") != NULL);
        CHECK(strstr(text, "[Site \"http://localhost:8080\"]") != NULL);
        CHECK(strstr(text, "[Date \"2023.11.14\"]") != NULL);
        CHECK(strstr(text, "[White \"Alice\"]") != NULL);
        CHECK(strstr(text, "[Black \"Bob\"]") != NULL);
        CHECK(strstr(text, "[Result \"*\"]") != NULL);
        CHECK(strstr(text, "[TimeControl \"180+2\"]") != NULL);
        CHECK(strstr(text, "[UTCTime \"22:13:20\"]") != NULL);
        CHECK(strstr(text, "[GameId \"abcd1234\"]") != NULL);
        /* White's second move: 2100 ms after Black's first, minus 100 allowance, plus 2 s. */
        CHECK(strstr(text, "2. Nf3 { [%clk 0:03:00] }") != NULL ||
              strstr(text, "2. Nf3 {[%clk 0:03:00]}") != NULL);
        free(text);
    }
    /* With opening names: the deepest named position's code and name. */
    static const char table_text[] = "C40a \"King's Knight Opening\" 1.e4 e5 2.Nf3 *\n"
                                     "C44a \"Open Game: 2...Nc6\" 1.e4 e5 2.Nf3 Nc6 *\n";
    struct openings_stats st;
    struct openings *table = openings_parse(table_text, sizeof table_text - 1, &st);
    CHECK(table != NULL);
    g.openings = table; /* as the world sets it */
    text = NULL;
    n = game_write_pgn(&g, "x", &text);
    CHECK(n > 0 && text);
    if (text) {
        CHECK(strstr(text, "[ECO \"C44\"]") != NULL);
        CHECK(strstr(text, "[Opening \"Open Game: 2...Nc6\"]") != NULL);
        free(text);
    }
    g.openings = NULL;
    openings_free(table);
    game_resign(&g, CHESS_BLACK, now, 0);
    text = NULL;
    n = game_write_pgn(&g, "x", &text);
    CHECK(n > 0 && text);
    if (text) {
        CHECK(strstr(text, "[Result \"1-0\"]") != NULL);
        CHECK(strstr(text, "[Termination \"normal\"]") != NULL);
        CHECK(strstr(text, "[Reason \"resignation\"]") != NULL);
        size_t len = strlen(text);
        while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ')) len--;
        CHECK(len >= 3 && strncmp(text + len - 3, "1-0", 3) == 0);
        free(text);
    }
    game_free(&g);
}

int main(void) {
    RUN(test_event_name);
    RUN(test_pgn);
    return check_finish();
}
