/*
 * PGN writing and reading.
 *
 * Writing builds the text in a growing buffer: roster tags, the other tags, then movetext
 * wrapped at 79 columns. Reading is a small hand-written lexer over a byte range (no NUL needed),
 * feeding SAN tokens to a chess_game so every move is checked by the rules.
 */
#include "chess/pgn.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/san.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const roster[7] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};

static char *copy_string(const char *s, size_t len) {
    char *out = malloc(len + 1);
    if (!out) return NULL;
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

int chess_pgn_init(struct chess_pgn *pgn, const struct chess_position *start) {
    *pgn = (struct chess_pgn){0};
    return chess_game_init(&pgn->game, start);
}

void chess_pgn_free(struct chess_pgn *pgn) {
    for (int i = 0; i < pgn->tag_count; i++) {
        free(pgn->tags[i].name);
        free(pgn->tags[i].value);
    }
    free(pgn->tags);
    for (int i = 0; i < pgn->comment_capacity; i++) free(pgn->comments[i]);
    free(pgn->comments);
    for (int i = 0; i < pgn->annotation_capacity; i++) free(pgn->annotations[i].line);
    free(pgn->annotations);
    chess_game_free(&pgn->game);
    *pgn = (struct chess_pgn){0};
}

static int set_tag_len(struct chess_pgn *pgn, const char *name, size_t name_len, const char *value,
                       size_t value_len) {
    char *v = copy_string(value, value_len);
    if (!v) return -CHESS_ERR_NO_MEMORY;
    for (int i = 0; i < pgn->tag_count; i++) {
        if (strlen(pgn->tags[i].name) == name_len &&
            memcmp(pgn->tags[i].name, name, name_len) == 0) {
            free(pgn->tags[i].value);
            pgn->tags[i].value = v;
            return 0;
        }
    }
    if (pgn->tag_count == pgn->tag_capacity) {
        int capacity = pgn->tag_capacity ? pgn->tag_capacity * 2 : 16;
        struct chess_pgn_tag *tags = realloc(pgn->tags, sizeof *tags * (size_t)capacity);
        if (!tags) {
            free(v);
            return -CHESS_ERR_NO_MEMORY;
        }
        pgn->tags = tags;
        pgn->tag_capacity = capacity;
    }
    char *n = copy_string(name, name_len);
    if (!n) {
        free(v);
        return -CHESS_ERR_NO_MEMORY;
    }
    pgn->tags[pgn->tag_count++] = (struct chess_pgn_tag){n, v};
    return 0;
}

int chess_pgn_set_tag(struct chess_pgn *pgn, const char *name, const char *value) {
    return set_tag_len(pgn, name, strlen(name), value, strlen(value));
}

const char *chess_pgn_tag(const struct chess_pgn *pgn, const char *name) {
    for (int i = 0; i < pgn->tag_count; i++) {
        if (strcmp(pgn->tags[i].name, name) == 0) return pgn->tags[i].value;
    }
    return NULL;
}

/* Sets or, with append, extends the comment after a ply. */
static int put_comment(struct chess_pgn *pgn, int ply, const char *text, size_t len, bool append) {
    if (ply < 0 || ply > pgn->game.ply_count) return -CHESS_ERR_MOVE_ILLEGAL;
    if (ply >= pgn->comment_capacity) {
        int capacity = pgn->comment_capacity ? pgn->comment_capacity : 16;
        while (capacity <= ply) capacity *= 2;
        char **comments = realloc(pgn->comments, sizeof *comments * (size_t)capacity);
        if (!comments) return -CHESS_ERR_NO_MEMORY;
        for (int i = pgn->comment_capacity; i < capacity; i++) comments[i] = NULL;
        pgn->comments = comments;
        pgn->comment_capacity = capacity;
    }
    char *old = pgn->comments[ply];
    if (!text) {
        free(old);
        pgn->comments[ply] = NULL;
        return 0;
    }
    size_t old_len = (append && old) ? strlen(old) : 0;
    char *joined = malloc(old_len + len + 2);
    if (!joined) return -CHESS_ERR_NO_MEMORY;
    if (old_len) {
        memcpy(joined, old, old_len);
        joined[old_len++] = ' ';
    }
    memcpy(joined + old_len, text, len);
    joined[old_len + len] = '\0';
    free(old);
    pgn->comments[ply] = joined;
    return 0;
}

int chess_pgn_set_comment(struct chess_pgn *pgn, int ply, const char *comment) {
    return put_comment(pgn, ply, comment, comment ? strlen(comment) : 0, false);
}

/* Whether every move of the line is legal in turn from pos. */
static bool line_is_legal(struct chess_position pos, const chess_move *line, int n) {
    for (int i = 0; i < n; i++) {
        struct chess_move_list legal;
        int count = chess_generate_moves(&pos, CHESS_GEN_ALL, &legal);
        bool found = false;
        for (int j = 0; j < count && !found; j++) found = legal.moves[j] == line[i];
        if (!found) return false;
        chess_position_make_move(&pos, line[i]);
    }
    return true;
}

int chess_pgn_annotate(struct chess_pgn *pgn, int ply, int nag, const chess_move *line,
                       int line_length) {
    struct chess_position before;
    if (ply < 1 || ply > pgn->game.ply_count || nag < 0 || nag > 255 || line_length < 0 ||
        chess_game_position_at(&pgn->game, ply - 1, &before) < 0 ||
        !line_is_legal(before, line, line_length))
        return -CHESS_ERR_MOVE_ILLEGAL;
    if (ply >= pgn->annotation_capacity) {
        int capacity = pgn->annotation_capacity ? pgn->annotation_capacity : 16;
        while (capacity <= ply) capacity *= 2;
        struct chess_pgn_annotation *a = realloc(pgn->annotations, sizeof *a * (size_t)capacity);
        if (!a) return -CHESS_ERR_NO_MEMORY;
        memset(a + pgn->annotation_capacity, 0,
               sizeof *a * (size_t)(capacity - pgn->annotation_capacity));
        pgn->annotations = a;
        pgn->annotation_capacity = capacity;
    }
    chess_move *copy = NULL;
    if (line_length > 0) {
        copy = malloc(sizeof *copy * (size_t)line_length);
        if (!copy) return -CHESS_ERR_NO_MEMORY;
        memcpy(copy, line, sizeof *copy * (size_t)line_length);
    }
    struct chess_pgn_annotation *a = &pgn->annotations[ply];
    free(a->line);
    *a = (struct chess_pgn_annotation){nag, copy, line_length};
    return 0;
}

/* ---- writing ---- */

struct text_buf {
    char *data;
    size_t len, cap;
    size_t line_len; /* length of the current movetext line, for wrapping */
    bool failed;
};

static void buf_add(struct text_buf *b, const char *s, size_t n) {
    if (b->failed) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (b->len + n + 1 > cap) cap *= 2;
        char *data = realloc(b->data, cap);
        if (!data) {
            b->failed = true;
            return;
        }
        b->data = data;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void buf_str(struct text_buf *b, const char *s) {
    buf_add(b, s, strlen(s));
}

static void write_tag(struct text_buf *b, const char *name, const char *value) {
    buf_str(b, "[");
    buf_str(b, name);
    buf_str(b, " \"");
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\') buf_add(b, "\\", 1);
        /* A tag is one line: control characters become spaces. */
        buf_add(b, (unsigned char)*p < 0x20 ? " " : p, 1);
    }
    buf_str(b, "\"]\n");
}

/* Adds a movetext token, breaking the line before it when it would pass 79 columns. */
static void write_token(struct text_buf *b, const char *token, size_t n) {
    if (b->line_len > 0 && b->line_len + 1 + n > 79) {
        buf_add(b, "\n", 1);
        b->line_len = 0;
    } else if (b->line_len > 0) {
        buf_add(b, " ", 1);
        b->line_len++;
    }
    buf_add(b, token, n);
    b->line_len += n;
}

static bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Comments are written word by word so they wrap too; '}' cannot appear inside one. */
static void write_comment(struct text_buf *b, const char *comment) {
    write_token(b, "{", 1);
    const char *p = comment;
    for (;;) {
        while (*p && is_blank(*p)) p++;
        if (!*p) break;
        char word[80];
        size_t n = 0;
        while (*p && !is_blank(*p) && n < sizeof word) {
            word[n++] = *p == '}' ? ')' : *p;
            p++;
        }
        write_token(b, word, n);
    }
    write_token(b, "}", 1);
}

static const char *comment_at(const struct chess_pgn *pgn, int ply) {
    return ply < pgn->comment_capacity ? pgn->comments[ply] : NULL;
}

static const struct chess_pgn_annotation *annotation_at(const struct chess_pgn *pgn, int ply) {
    return ply < pgn->annotation_capacity ? &pgn->annotations[ply] : NULL;
}

/* One move with its number when White moves or when asked (after a comment or a variation);
 * a move number and its move stay on one line. open: "(" before it, close: ")" after it. */
static void write_move(struct text_buf *b, const struct chess_position *pos, chess_move move,
                       bool number, bool open, bool close) {
    char token[48], san[CHESS_SAN_MAX];
    chess_san_write(pos, move, san);
    int n;
    if (pos->side == CHESS_WHITE || number) {
        n = snprintf(token, sizeof token, "%s%u.%s %s%s", open ? "(" : "",
                     (unsigned)pos->fullmove_number, pos->side == CHESS_WHITE ? "" : "..", san,
                     close ? ")" : "");
    } else {
        n = snprintf(token, sizeof token, "%s%s%s", open ? "(" : "", san, close ? ")" : "");
    }
    write_token(b, token, (size_t)n);
}

static void write_variation(struct text_buf *b, struct chess_position pos,
                            const struct chess_pgn_annotation *a) {
    for (int i = 0; i < a->line_length; i++) {
        write_move(b, &pos, a->line[i], i == 0, i == 0, i == a->line_length - 1);
        chess_position_make_move(&pos, a->line[i]);
    }
}

static void write_movetext(struct text_buf *b, const struct chess_pgn *pgn, const char *result) {
    struct chess_position pos = pgn->game.start;
    bool need_number = true;
    if (comment_at(pgn, 0)) write_comment(b, comment_at(pgn, 0));
    for (int i = 0; i < pgn->game.ply_count; i++) {
        const struct chess_pgn_annotation *a = annotation_at(pgn, i + 1);
        struct chess_position before = pos;
        write_move(b, &pos, pgn->game.moves[i], need_number, false, false);
        if (a && a->nag > 0) {
            char nag[8];
            int n = snprintf(nag, sizeof nag, "$%d", a->nag);
            write_token(b, nag, (size_t)n);
        }
        chess_position_make_move(&pos, pgn->game.moves[i]);
        const char *comment = comment_at(pgn, i + 1);
        if (comment) write_comment(b, comment);
        bool variation = a && a->line_length > 0;
        if (variation) write_variation(b, before, a);
        need_number = comment != NULL || variation;
    }
    write_token(b, result, strlen(result));
    buf_str(b, "\n");
}

/* Whether a game starts from the usual array under its own variant's rules, with no check given
 * yet: its PGN needs no SetUp and FEN. */
static bool is_standard_start(const struct chess_position *pos) {
    struct chess_position start;
    chess_position_startpos(&start);
    if (chess_position_set_variant(&start, pos->variant) < 0) return false;
    return !pos->chess960 && pos->key == start.key && pos->halfmove_clock == 0 &&
           pos->fullmove_number == 1;
}

/* The Variant tag of a game's start, as lichess writes it; NULL for standard chess. */
static const char *variant_tag(const struct chess_position *start) {
    if (start->chess960) return "Chess960";
    if (start->variant == CHESS_VARIANT_THREE_CHECK) return "Three-check";
    if (start->variant == CHESS_VARIANT_KING_OF_THE_HILL) return "King of the Hill";
    return NULL;
}

long chess_pgn_write(const struct chess_pgn *pgn, char **out) {
    struct text_buf b = {0};
    const char *result =
        chess_result_name(pgn->result != CHESS_RESULT_NONE ? pgn->result : pgn->game.result);
    for (int i = 0; i < 7; i++) {
        const char *value = chess_pgn_tag(pgn, roster[i]);
        if (i == 6) value = result;
        if (!value) value = i == 2 ? "????.??.??" : "?";
        write_tag(&b, roster[i], value);
    }
    /* Variant, SetUp and FEN always describe the game's real start, whatever tags were set. */
    const struct chess_position *start = &pgn->game.start;
    const char *variant = variant_tag(start);
    if (variant) write_tag(&b, "Variant", variant);
    if (!is_standard_start(start)) {
        char fen[CHESS_FEN_MAX];
        write_tag(&b, "SetUp", "1");
        if (chess_fen_write(start, CHESS_FEN_XFEN, fen, sizeof fen) > 0) write_tag(&b, "FEN", fen);
    }
    for (int i = 0; i < pgn->tag_count; i++) {
        const char *name = pgn->tags[i].name;
        bool written = strcmp(name, "SetUp") == 0 || strcmp(name, "FEN") == 0 ||
                       (variant && strcmp(name, "Variant") == 0);
        for (int r = 0; r < 7; r++) written |= strcmp(name, roster[r]) == 0;
        if (!written) write_tag(&b, name, pgn->tags[i].value);
    }
    buf_str(&b, "\n");
    write_movetext(&b, pgn, result);
    if (b.failed) {
        free(b.data);
        return -CHESS_ERR_NO_MEMORY;
    }
    *out = b.data;
    return (long)b.len;
}

/* ---- reading ---- */

struct lexer {
    const char *text;
    size_t len, pos;
};

static bool lex_space(char c) {
    return is_blank(c) || c == '\f' || c == '\v';
}

static bool at_line_start(const struct lexer *lx) {
    return lx->pos == 0 || lx->text[lx->pos - 1] == '\n';
}

/* Skips white space and '%' escape lines. */
static void skip_space(struct lexer *lx) {
    while (lx->pos < lx->len) {
        char c = lx->text[lx->pos];
        if (c == '%' && at_line_start(lx)) {
            while (lx->pos < lx->len && lx->text[lx->pos] != '\n') lx->pos++;
        } else if (lex_space(c) || c == '\0') {
            lx->pos++;
        } else {
            break;
        }
    }
}

static int read_tag(struct lexer *lx, struct chess_pgn *pgn) {
    lx->pos++; /* '[' */
    skip_space(lx);
    size_t name_start = lx->pos;
    while (lx->pos < lx->len) {
        char c = lx->text[lx->pos];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_'))
            break;
        lx->pos++;
    }
    size_t name_len = lx->pos - name_start;
    skip_space(lx);
    if (name_len == 0 || lx->pos >= lx->len || lx->text[lx->pos] != '"')
        return -CHESS_ERR_PGN_SYNTAX;
    lx->pos++;
    char value[1024];
    size_t n = 0;
    for (;;) {
        if (lx->pos >= lx->len || lx->text[lx->pos] == '\n') return -CHESS_ERR_PGN_SYNTAX;
        char c = lx->text[lx->pos++];
        if (c == '"') break;
        if (c == '\\' && lx->pos < lx->len) c = lx->text[lx->pos++];
        if (n >= sizeof value - 1) return -CHESS_ERR_PGN_SYNTAX;
        value[n++] = c;
    }
    skip_space(lx);
    if (lx->pos >= lx->len || lx->text[lx->pos] != ']') return -CHESS_ERR_PGN_SYNTAX;
    lx->pos++;
    return set_tag_len(pgn, lx->text + name_start, name_len, value, n);
}

/* Skips a parenthesised variation, nested ones and comments inside included. */
static int skip_variation(struct lexer *lx) {
    int depth = 0;
    while (lx->pos < lx->len) {
        char c = lx->text[lx->pos++];
        if (c == '(') {
            depth++;
        } else if (c == ')') {
            if (--depth == 0) return 0;
        } else if (c == '{') {
            while (lx->pos < lx->len && lx->text[lx->pos] != '}') lx->pos++;
            if (lx->pos >= lx->len) return -CHESS_ERR_PGN_SYNTAX;
            lx->pos++;
        } else if (c == ';') {
            while (lx->pos < lx->len && lx->text[lx->pos] != '\n') lx->pos++;
        }
    }
    return -CHESS_ERR_PGN_SYNTAX;
}

static bool is_delimiter(char c) {
    return lex_space(c) || c == '\0' || strchr("{}()[];$", c) != NULL;
}

static int result_of(const char *token, size_t n, enum chess_result *result) {
    static const struct {
        const char *text;
        enum chess_result result;
    } results[] = {{"1-0", CHESS_RESULT_WHITE_WINS},
                   {"0-1", CHESS_RESULT_BLACK_WINS},
                   {"1/2-1/2", CHESS_RESULT_DRAW},
                   {"*", CHESS_RESULT_NONE}};
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++) {
        if (strlen(results[i].text) == n && memcmp(results[i].text, token, n) == 0) {
            *result = results[i].result;
            return 1;
        }
    }
    return 0;
}

/* Reads one movetext token: a move number, a result (ends the game: returns 1) or a move. */
static int read_token(struct lexer *lx, struct chess_pgn *pgn) {
    size_t start = lx->pos;
    while (lx->pos < lx->len && !is_delimiter(lx->text[lx->pos])) lx->pos++;
    const char *token = lx->text + start;
    size_t n = lx->pos - start;
    if (result_of(token, n, &pgn->result)) return 1;
    /* A move number ("12." or "12...") may run straight into its move ("12.e4"). */
    size_t digits = 0;
    while (digits < n && token[digits] >= '0' && token[digits] <= '9') digits++;
    if (digits > 0 && digits < n && token[digits] == '.') {
        size_t dots = digits;
        while (dots < n && token[dots] == '.') dots++;
        lx->pos = start + dots;
        return 0;
    }
    if (digits == n) return -CHESS_ERR_PGN_SYNTAX;
    size_t marks = 0;
    while (marks < n && (token[marks] == '!' || token[marks] == '?')) marks++;
    if (marks == n) return 0; /* a lone annotation like "!?" */
    char move[16];
    if (n >= sizeof move) return -CHESS_ERR_MOVE_SYNTAX;
    memcpy(move, token, n);
    move[n] = '\0';
    return chess_game_play_text(&pgn->game, move, NULL);
}

static int read_movetext(struct lexer *lx, struct chess_pgn *pgn, size_t *error_at) {
    for (;;) {
        skip_space(lx);
        *error_at = lx->pos;
        if (lx->pos >= lx->len || lx->text[lx->pos] == '[') return 0;
        char c = lx->text[lx->pos];
        int rc = 0;
        if (c == '{') {
            size_t start = ++lx->pos;
            while (lx->pos < lx->len && lx->text[lx->pos] != '}') lx->pos++;
            if (lx->pos >= lx->len) return -CHESS_ERR_PGN_SYNTAX;
            size_t end = lx->pos++;
            while (start < end && lex_space(lx->text[start])) start++;
            while (end > start && lex_space(lx->text[end - 1])) end--;
            rc = put_comment(pgn, pgn->game.ply_count, lx->text + start, end - start, true);
        } else if (c == ';') {
            while (lx->pos < lx->len && lx->text[lx->pos] != '\n') lx->pos++;
        } else if (c == '(') {
            rc = skip_variation(lx);
        } else if (c == '$') {
            lx->pos++;
            while (lx->pos < lx->len && lx->text[lx->pos] >= '0' && lx->text[lx->pos] <= '9')
                lx->pos++;
        } else if (c == ')' || c == '}' || c == ']') {
            return -CHESS_ERR_PGN_SYNTAX;
        } else {
            rc = read_token(lx, pgn);
            if (rc == 1) return 0;
        }
        if (rc < 0) return rc;
    }
}

/* The rules a Variant tag names, as lichess and other programs write it: an enum chess_variant,
 * with *chess960 set for Chess960's names. Unknown names read as standard. */
static int tag_variant(const char *tag, bool *chess960) {
    static const struct {
        const char *name;
        int variant;
        bool chess960;
    } names[] = {
        {"Chess960", CHESS_VARIANT_STANDARD, true},
        {"chess960", CHESS_VARIANT_STANDARD, true},
        {"Fischerandom", CHESS_VARIANT_STANDARD, true},
        {"Three-check", CHESS_VARIANT_THREE_CHECK, false},
        {"Three-Check", CHESS_VARIANT_THREE_CHECK, false},
        {"threeCheck", CHESS_VARIANT_THREE_CHECK, false},
        {"3check", CHESS_VARIANT_THREE_CHECK, false},
        {"King of the Hill", CHESS_VARIANT_KING_OF_THE_HILL, false},
        {"King Of The Hill", CHESS_VARIANT_KING_OF_THE_HILL, false},
        {"kingOfTheHill", CHESS_VARIANT_KING_OF_THE_HILL, false},
        {"KOTH", CHESS_VARIANT_KING_OF_THE_HILL, false},
    };
    *chess960 = false;
    for (size_t i = 0; tag && i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(tag, names[i].name) != 0) continue;
        *chess960 = names[i].chess960;
        return names[i].variant;
    }
    return CHESS_VARIANT_STANDARD;
}

static int start_position(const struct chess_pgn *tags, struct chess_position *start) {
    const char *fen = chess_pgn_tag(tags, "FEN");
    bool chess960;
    int variant = tag_variant(chess_pgn_tag(tags, "Variant"), &chess960);
    if (fen) {
        int rc = chess_fen_parse_variant(start, fen, variant);
        if (rc < 0) return rc;
    } else {
        chess_position_startpos(start);
        if (chess_position_set_variant(start, variant) < 0) return -CHESS_ERR_FEN_FIELDS;
    }
    if (chess960) start->chess960 = true;
    return 0;
}

int chess_pgn_read(const char *text, size_t len, size_t *consumed, struct chess_pgn *out) {
    struct lexer lx = {text, len, 0};
    struct chess_pgn pgn = {0};
    size_t error_at = 0;
    int rc;

    skip_space(&lx);
    if (lx.pos >= lx.len) {
        *consumed = lx.pos;
        return -CHESS_ERR_PGN_EMPTY;
    }
    while (lx.pos < lx.len && lx.text[lx.pos] == '[') {
        error_at = lx.pos;
        if ((rc = read_tag(&lx, &pgn)) < 0) goto fail;
        skip_space(&lx);
    }
    struct chess_position start;
    error_at = lx.pos;
    if ((rc = start_position(&pgn, &start)) < 0) goto fail;
    if ((rc = chess_game_init(&pgn.game, &start)) < 0) goto fail;
    if ((rc = read_movetext(&lx, &pgn, &error_at)) < 0) goto fail;
    skip_space(&lx);
    *consumed = lx.pos;
    *out = pgn;
    return 0;
fail:
    chess_pgn_free(&pgn);
    *consumed = error_at;
    return rc;
}
