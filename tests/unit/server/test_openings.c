/* Tests of opening names (core/openings.h): a small table in Scid's format with transpositions,
 * comments, entries over several lines and bad entries; the deepest named position of games and
 * lines; and, when Debian's scid-data is installed, a few well-known names from its file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "chess/fen.h"
#include "chess/move.h"
#include "core/errors.h"
#include "core/openings.h"

static const char TABLE[] =
    "# A comment line, then entries as scid.eco writes them.\n"
    "A00a \"Start position\"  *\n"
    "B00a \"King's Pawn\"  1.e4 *\n"
    "B20a \"Sicilian Defence\"  1.e4 c5 *\n"
    "B50a \"Sicilian: 2.Nf3 d6\"  1.e4 c5 2.Nf3 d6 *\n"
    "B90a \"Sicilian: Najdorf\"  1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 *\n"
    "B90b \"Sicilian: Najdorf, 6.a4\"\n"
    "  1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6\n"
    "  6.a4 *\n"
    "# E10k \"Commented out\"  1.d4 Nf6 2.c4 e6 3.Nf3 c5 4.d5 *\n"
    "A50a \"Queen's Indian Accelerated\"  1.d4 Nf6 2.c4 *\n"
    "E00a \"Queen's Pawn: Neo-Indian\"  1.d4 Nf6 2.c4 e6 *\n"
    /* the same position by another move order: the first entry keeps it */
    "A13a \"English: 1...e6 2.d4 Nf6\"  1.c4 e6 2.d4 Nf6 *\n"
    /* bad entries: an illegal move, a code that is none, no name, a missing "*" */
    "C20x \"Illegal\"  1.e4 e5 2.Ke3 *\n"
    "Z99 \"No such code\"  1.e4 *\n"
    "C40a  1.e4 e5 2.Nf3 *\n"
    "C44a \"Missing star\"  1.e4 e5 2.Nf3 Nc6\n"
    "C50a \"Italian\"  1.e4 e5 2.Nf3 Nc6 3.Bc4 *\n"
    "C60a \"Spanish\"  1.e4 e5 2.Nf3 Nc6 3.Bb5 *\n"
    "C20a \"King's Pawn Game: caf\xc3\xa9\"  1.e4 e5 *\n";

static struct openings *table(struct openings_stats *stats) {
    struct openings *t = openings_parse(TABLE, strlen(TABLE), stats);
    CHECK(t != NULL);
    return t;
}

/* Moves as UCI from the standard start (or fen) into moves[]; returns the count. */
static int line(const char *fen, const char *uci, chess_move *moves, struct chess_position *start) {
    if (fen) {
        CHECK_EQ_INT(chess_fen_parse(start, fen), 0);
    } else {
        chess_position_startpos(start);
    }
    struct chess_position pos = *start;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", uci);
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        CHECK_EQ_INT(chess_move_from_uci(&pos, tok, &moves[n]), 0);
        chess_position_make_move(&pos, moves[n++]);
    }
    return n;
}

static void test_stats(void) {
    struct openings_stats st;
    struct openings *t = table(&st);
    /* read: A00a, B00a, B20a, B50a, B90a, B90b, A50a, E00a, A13a, C50a, C60a */
    CHECK_EQ_INT(st.entries, 12);
    CHECK_EQ_INT(st.positions, 10); /* no start position, A13a a duplicate of E00a */
    CHECK_EQ_INT(st.duplicates, 1);
    CHECK_EQ_INT(st.skipped, 4); /* the illegal move, Z99, the nameless, the missing star */
    CHECK_EQ_INT(st.first_bad_line, 14);
    CHECK_EQ_INT(openings_count(t), 10);
    openings_free(t);
}

static void test_deepest(void) {
    struct openings_stats st;
    struct openings *t = table(&st);
    chess_move moves[64];
    struct chess_position start;
    struct opening o;
    /* Past the Najdorf the game goes on: the deepest named position is the Najdorf's. */
    int n =
        line(NULL, "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5", moves, &start);
    CHECK_EQ_INT(openings_classify_game(t, &start, moves, n, &o), 1);
    CHECK_EQ_STR(o.eco, "B90");
    CHECK_EQ_STR(o.name, "Sicilian: Najdorf");
    CHECK_EQ_INT(o.ply, 10);
    /* An entry over two lines. */
    n = line(NULL, "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 a2a4", moves, &start);
    CHECK_EQ_INT(openings_classify_game(t, &start, moves, n, &o), 1);
    CHECK_EQ_STR(o.name, "Sicilian: Najdorf, 6.a4");
    CHECK_EQ_INT(o.ply, 11);
    /* Leaving the table early keeps the last name met. */
    n = line(NULL, "e2e4 c7c5 b1c3 b8c6", moves, &start);
    CHECK_EQ_INT(openings_classify_game(t, &start, moves, n, &o), 1);
    CHECK_EQ_STR(o.eco, "B20");
    CHECK_EQ_INT(o.ply, 2);
    /* No move, or none named: no opening (the start position names none). */
    CHECK_EQ_INT(openings_classify_game(t, &start, moves, 0, &o), 0);
    n = line(NULL, "g2g4 e7e5", moves, &start);
    CHECK_EQ_INT(openings_classify_game(t, &start, moves, n, &o), 0);
    /* The entry after one without its "*" is still read. */
    n = line(NULL, "e2e4 e7e5 g1f3 b8c6 f1c4", moves, &start);
    CHECK_EQ_INT(openings_classify_game(t, &start, moves, n, &o), 1);
    CHECK_EQ_STR(o.name, "Italian");
    n = line(NULL, "e2e4 e7e5 d2d4", moves, &start); /* UTF-8 names are kept */
    CHECK_EQ_INT(openings_classify_game(t, &start, moves, n, &o), 1);
    CHECK_EQ_STR(o.name, "King's Pawn Game: caf\xc3\xa9");
    openings_free(t);
}

static void test_transposition(void) {
    struct openings_stats st;
    struct openings *t = table(&st);
    chess_move moves[8];
    struct chess_position start;
    struct opening a, b;
    int n = line(NULL, "d2d4 g8f6 c2c4 e7e6", moves, &start);
    CHECK_EQ_INT(openings_classify_game(t, &start, moves, n, &a), 1);
    n = line(NULL, "c2c4 e7e6 d2d4 g8f6", moves, &start);
    CHECK_EQ_INT(openings_classify_game(t, &start, moves, n, &b), 1);
    CHECK_EQ_STR(a.eco, "E00");
    CHECK_EQ_STR(b.eco, "E00");
    CHECK_EQ_STR(b.name, "Queen's Pawn: Neo-Indian");
    CHECK_EQ_INT(b.ply, 4);
    openings_free(t);
}

static void test_custom_start(void) {
    struct openings_stats st;
    struct openings *t = table(&st);
    chess_move moves[8];
    struct chess_position start;
    struct opening o;
    /* A game from a FEN has no opening, even one that reaches a named position... */
    const char *after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    int n = line(after_e4, "c7c5", moves, &start);
    CHECK_EQ_INT(openings_classify_game(t, &start, moves, n, &o), 0);
    /* ...but a line from the same FEN (the analysis board) has, and its start counts. */
    CHECK_EQ_INT(openings_classify(t, &start, moves, n, &o), 1);
    CHECK_EQ_STR(o.eco, "B20");
    CHECK_EQ_INT(o.ply, 1);
    CHECK_EQ_INT(openings_classify(t, &start, moves, 0, &o), 1);
    CHECK_EQ_STR(o.eco, "B00");
    CHECK_EQ_INT(o.ply, 0);
    /* A move that is not legal where it is played. */
    n = line(NULL, "e2e4", moves, &start);
    moves[1] = moves[0]; /* e2e4 again, for Black */
    CHECK_EQ_INT(openings_classify(t, &start, moves, 2, &o), -CORE_ERR_ILLEGAL_MOVE);
    /* No table: no names. */
    CHECK_EQ_INT(openings_classify(NULL, &start, moves, 1, &o), 0);
    openings_free(t);
}

static void test_bad_texts(void) {
    struct openings_stats st;
    const char *texts[] = {
        "",
        "#only a comment",
        "B00a \"no end\" 1.e4",
        "\"\" * * ***",
        "B00a \"King's Pawn\" 1.e4 e5 \"stray\" *",
        "B00a \"unterminated name 1.e4 *\n",
        "B00a \"\" 1.e4 *",
        "B00a \"long move\" 1.e4xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx *",
        "B00a \"number only\" 1 e4 *",
        "B00a \"Latin-1 \xe9\" 1.e4 *",
        "B00a \"tab\tin name\" 1.e4 *",
    };
    /* how many entries each text has that cannot be read ("*" alone starts an entry) */
    const int skipped[] = {0, 0, 1, 3, 1, 1, 1, 1, 1, 1, 1};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        struct openings *t = openings_parse(texts[i], strlen(texts[i]), &st);
        CHECK(t != NULL);
        CHECK_EQ_INT(openings_count(t), 0);
        CHECK_EQ_INT(st.skipped, skipped[i]);
        openings_free(t);
    }
    /* A name longer than the table keeps is cut. */
    char text[600];
    memset(text, 0, sizeof text);
    strcpy(text, "B00a \"");
    memset(text + 6, 'x', 400);
    strcat(text, "\" 1.e4 *");
    struct openings *t = openings_parse(text, strlen(text), &st);
    chess_move moves[1];
    struct chess_position start;
    struct opening o;
    int n = line(NULL, "e2e4", moves, &start);
    CHECK_EQ_INT(openings_classify_game(t, &start, moves, n, &o), 1);
    CHECK_EQ_INT(strlen(o.name), OPENINGS_NAME_MAX);
    openings_free(t);
}

/* Debian's scid-data (scripts/setup.sh installs it): the whole file reads, with well-known
 * names where they belong. */
static void test_installed_file(void) {
    const char *path = getenv("CHESS_OPENINGS");
    if (!path || !*path) path = "/usr/share/scid/data/scid.eco";
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("SKIP test_installed_file: %s is absent (Debian package scid-data)\n", path);
        return;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 65536 > cap) {
            cap = cap ? cap * 2 : 1 << 20;
            char *grown = realloc(text, cap);
            CHECK(grown != NULL);
            if (!grown) break;
            text = grown;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    fclose(f);
    struct openings_stats st;
    struct openings *t = openings_parse(text, len, &st);
    free(text);
    CHECK(t != NULL);
    printf("%s: %d entries, %d positions, %d duplicates, %d skipped (first at line %d)\n", path,
           st.entries, st.positions, st.duplicates, st.skipped, st.first_bad_line);
    CHECK(st.entries > 10000);
    CHECK(st.positions > 9000);
    CHECK_EQ_INT(st.skipped, 0);
    static const struct {
        const char *uci, *eco, *name;
    } known[] = {
        {"e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6", "B90", "Najdorf"},
        {"e2e4 e7e5 g1f3 b8c6 f1b5", "C60", "Spanish"},
        {"d2d4 d7d5 c2c4", "D06", "Queen's Gambit"},
        {"e2e4 c7c6", "B10", "Caro-Kann"},
        {"e2e4 e7e6", "C00", "French"},
    };
    chess_move moves[32];
    struct chess_position start;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        struct opening o = {.name = ""};
        int n = line(NULL, known[i].uci, moves, &start);
        CHECK_EQ_INT(openings_classify_game(t, &start, moves, n, &o), 1);
        CHECK_EQ_STR(o.eco, known[i].eco);
        CHECK(o.name && strstr(o.name, known[i].name));
        CHECK_EQ_INT(o.ply, n);
        printf("  %s: %s %s\n", known[i].uci, o.eco, o.name);
    }
    openings_free(t);
}

int main(void) {
    RUN(test_stats);
    RUN(test_deepest);
    RUN(test_transposition);
    RUN(test_custom_start);
    RUN(test_bad_texts);
    RUN(test_installed_file);
    return check_finish();
}
