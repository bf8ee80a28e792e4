/*
 * Opening names: the ECO text is read entry by entry with a cursor that skips white space and
 * "#" comments; each entry's moves are replayed from the standard start and the position
 * reached goes into an open-addressing hash table keyed by its Zobrist key (linear probing,
 * at most half full). The names live in one character buffer, referenced by offset, so a
 * table is three allocations whatever its size.
 */
#include "core/openings.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "chess/san.h"
#include "core/errors.h"

/* A table slot: entry is the index of the kept entry plus one (0: the slot is free). */
struct slot {
    uint64_t key;
    uint32_t entry;
};

struct entry {
    char eco[OPENINGS_ECO_LEN + 1];
    uint32_t name; /* offset into names */
};

struct openings {
    struct slot *slots;
    size_t capacity; /* a power of two */
    struct entry *entries;
    int count;
    char *names;
    size_t names_len, names_cap;
};

/* ---- the table ---- */

/* The index of key's slot, or of the free slot where it would go. */
static size_t slot_of(const struct openings *t, uint64_t key) {
    size_t mask = t->capacity - 1;
    for (size_t i = (size_t)(key ^ (key >> 32)) & mask;; i = (i + 1) & mask) {
        if (!t->slots[i].entry || t->slots[i].key == key) return i;
    }
}

/* Doubles the slots (and the entries' room). Returns 0 or -1 when memory runs out. */
static int grow(struct openings *t) {
    size_t capacity = t->capacity ? t->capacity * 2 : 1024;
    struct slot *slots = calloc(capacity, sizeof *slots);
    struct entry *entries = realloc(t->entries, capacity / 2 * sizeof *entries);
    if (!slots || !entries) {
        free(slots);
        if (entries) t->entries = entries;
        return -1;
    }
    t->entries = entries;
    struct slot *old = t->slots;
    size_t old_capacity = t->capacity;
    t->slots = slots;
    t->capacity = capacity;
    for (size_t i = 0; i < old_capacity; i++) {
        if (old[i].entry) t->slots[slot_of(t, old[i].key)] = old[i];
    }
    free(old);
    return 0;
}

static int add_name(struct openings *t, const char *name, size_t len, uint32_t *offset) {
    if (t->names_len + len + 1 > t->names_cap) {
        size_t cap = t->names_cap ? t->names_cap * 2 : 64 * 1024;
        while (cap < t->names_len + len + 1) cap *= 2;
        char *names = realloc(t->names, cap);
        if (!names) return -1;
        t->names = names;
        t->names_cap = cap;
    }
    *offset = (uint32_t)t->names_len;
    memcpy(t->names + t->names_len, name, len);
    t->names[t->names_len + len] = '\0';
    t->names_len += len + 1;
    return 0;
}

/* Keeps the entry for key unless the key has one. Returns 1 (kept), 0 (an earlier entry has
 * it) or -1 (out of memory). */
static int table_put(struct openings *t, uint64_t key, const char *eco, const char *name,
                     size_t name_len) {
    if ((size_t)(t->count + 1) * 2 > t->capacity && grow(t) < 0) return -1;
    struct slot *s = &t->slots[slot_of(t, key)];
    if (s->entry) return 0;
    struct entry *e = &t->entries[t->count];
    if (add_name(t, name, name_len, &e->name) < 0) return -1;
    memcpy(e->eco, eco, OPENINGS_ECO_LEN);
    e->eco[OPENINGS_ECO_LEN] = '\0';
    s->key = key;
    s->entry = (uint32_t)++t->count;
    return 1;
}

/* ---- reading the text ---- */

struct cursor {
    const char *p, *end;
    int line;
};

static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static void skip_blank(struct cursor *c) {
    while (c->p < c->end) {
        if (*c->p == '#') {
            while (c->p < c->end && *c->p != '\n') c->p++;
        } else if (is_space(*c->p)) {
            if (*c->p == '\n') c->line++;
            c->p++;
        } else {
            return;
        }
    }
}

/* The next token: up to white space, a comment, a quote or "*". */
static size_t token(const struct cursor *c) {
    size_t n = 0;
    while (c->p + n < c->end && !is_space(c->p[n]) && c->p[n] != '#' && c->p[n] != '"' &&
           c->p[n] != '*')
        n++;
    return n;
}

/* "B90", "B90a", "A00a1": Scid's ECO code with its optional extension. */
static bool is_code(const char *s, size_t n) {
    if (n < 3 || n > 5 || s[0] < 'A' || s[0] > 'E' || s[1] < '0' || s[1] > '9' || s[2] < '0' ||
        s[2] > '9')
        return false;
    if (n >= 4 && (s[3] < 'a' || s[3] > 'z')) return false;
    return n < 5 || (s[4] >= '1' && s[4] <= '4');
}

/* True when the bytes are UTF-8 without control characters (a name goes into JSON as is). */
static bool is_text(const char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t more = c < 0x80             ? 0
                      : (c & 0xE0) == 0xC0 ? 1
                      : (c & 0xF0) == 0xE0 ? 2
                      : (c & 0xF8) == 0xF0 ? 3
                                           : 4;
        if (c < 0x20 || c == 0x7F || more == 4 || (more == 1 && c < 0xC2) ||
            (more > 0 && i + more >= n))
            return false;
        for (size_t k = 1; k <= more; k++)
            if (((unsigned char)s[i + k] & 0xC0) != 0x80) return false;
        i += more + 1;
    }
    return true;
}

/* The length of name cut to OPENINGS_NAME_MAX bytes, between UTF-8 characters. */
static size_t cut_name(const char *name, size_t n) {
    if (n <= OPENINGS_NAME_MAX) return n;
    n = OPENINGS_NAME_MAX;
    while (n > 0 && ((unsigned char)name[n] & 0xC0) == 0x80) n--;
    return n;
}

/* Plays one move token ("1.e4", "2...Nf6", "e4", "3."): returns 0, or -1 when it is no legal
 * move. */
static int play_token(struct chess_position *pos, const char *s, size_t n) {
    size_t i = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    if (i > 0) {
        if (i == n || s[i] != '.') return -1; /* a bare number is no move */
        while (i < n && s[i] == '.') i++;
    }
    if (i == n) return 0; /* a move number alone: the move follows */
    char san[16];
    if (n - i >= sizeof san) return -1;
    memcpy(san, s + i, n - i);
    san[n - i] = '\0';
    chess_move move;
    if (chess_san_parse(pos, san, &move) < 0) return -1;
    chess_position_make_move(pos, move);
    return 0;
}

/*
 * Reads the entry at the cursor into the table. Returns 1 (read), 0 (skipped: the cursor is
 * past it, at its "*" or at the code of the next entry when its own "*" is missing) or -1 (out
 * of memory).
 */
static int read_entry(struct openings *t, struct cursor *c, struct openings_stats *stats) {
    size_t n = token(c);
    bool ok = is_code(c->p, n);
    char eco[OPENINGS_ECO_LEN];
    memcpy(eco, c->p, ok ? OPENINGS_ECO_LEN : 0);
    c->p += n ? n : 1; /* a stray quote or "*" is skipped with its entry */
    const char *name = NULL;
    size_t name_len = 0;
    skip_blank(c);
    if (ok && c->p < c->end && *c->p == '"') {
        const char *close = memchr(c->p + 1, '"', (size_t)(c->end - c->p - 1));
        const char *newline = memchr(c->p + 1, '\n', (size_t)(c->end - c->p - 1));
        if (close && (!newline || close < newline) && close > c->p + 1 &&
            is_text(c->p + 1, (size_t)(close - c->p - 1))) {
            name = c->p + 1;
            name_len = cut_name(name, (size_t)(close - name));
            c->p = close + 1;
        }
    }
    ok = ok && name;
    struct chess_position pos;
    chess_position_startpos(&pos);
    int plies = 0;
    for (;;) {
        skip_blank(c);
        if (c->p >= c->end) return 0; /* no "*": the entry is incomplete */
        if (*c->p == '*') {
            c->p++;
            break;
        }
        n = token(c);
        if (is_code(c->p, n)) return 0; /* the next entry: this one lacked its "*" */
        if (n == 0) {                   /* a quote among the moves */
            ok = false;
            c->p++;
            continue;
        }
        if (ok && play_token(&pos, c->p, n) < 0) ok = false;
        plies += ok && !(c->p[0] >= '0' && c->p[0] <= '9' && c->p[n - 1] == '.');
        c->p += n;
    }
    if (!ok) return 0;
    stats->entries++;
    if (plies == 0) return 1; /* the start position names no opening */
    int rc = table_put(t, pos.key, eco, name, name_len);
    if (rc < 0) return -1;
    if (rc == 0) stats->duplicates++;
    return 1;
}

struct openings *openings_parse(const char *text, size_t len, struct openings_stats *stats) {
    memset(stats, 0, sizeof *stats);
    struct openings *t = calloc(1, sizeof *t);
    if (!t || grow(t) < 0) goto fail;
    struct cursor c = {text, text + len, 1};
    for (;;) {
        skip_blank(&c);
        if (c.p >= c.end) break;
        int line = c.line;
        int rc = read_entry(t, &c, stats);
        if (rc < 0) goto fail;
        if (rc == 0) {
            stats->skipped++;
            if (!stats->first_bad_line) stats->first_bad_line = line;
        }
    }
    stats->positions = t->count;
    return t;
fail:
    openings_free(t);
    return NULL;
}

void openings_free(struct openings *table) {
    if (!table) return;
    free(table->slots);
    free(table->entries);
    free(table->names);
    free(table);
}

int openings_count(const struct openings *table) {
    return table ? table->count : 0;
}

int openings_find(const struct openings *table, uint64_t key, struct opening *out) {
    if (!table || !table->count) return 0;
    const struct slot *s = &table->slots[slot_of(table, key)];
    if (!s->entry) return 0;
    const struct entry *e = &table->entries[s->entry - 1];
    memcpy(out->eco, e->eco, sizeof out->eco);
    out->name = table->names + e->name;
    out->ply = 0;
    return 1;
}

int openings_classify(const struct openings *table, const struct chess_position *start,
                      const chess_move *moves, int count, struct opening *out) {
    struct chess_position pos = *start;
    struct opening found, best;
    bool have = false;
    if (openings_find(table, pos.key, &found)) {
        best = found;
        have = true;
    }
    for (int i = 0; i < count; i++) {
        if (!chess_position_is_legal(&pos, moves[i])) return -CORE_ERR_ILLEGAL_MOVE;
        chess_position_make_move(&pos, moves[i]);
        if (openings_find(table, pos.key, &found)) {
            best = found;
            best.ply = i + 1;
            have = true;
        }
    }
    if (have) *out = best;
    return have;
}

int openings_classify_game(const struct openings *table, const struct chess_position *start,
                           const chess_move *moves, int count, struct opening *out) {
    struct chess_position standard;
    chess_position_startpos(&standard);
    if (start->key != standard.key || start->variant != CHESS_VARIANT_STANDARD) return 0;
    return openings_classify(table, start, moves, count, out);
}

int openings_set_pgn_tags(struct chess_pgn *pgn, const struct opening *opening) {
    if (chess_pgn_set_tag(pgn, "ECO", opening->eco) < 0 ||
        chess_pgn_set_tag(pgn, "Opening", opening->name) < 0)
        return -CORE_ERR_NO_MEMORY;
    return 0;
}
