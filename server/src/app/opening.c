/*
 * Opening names in the application: reading the ECO file at start, the openings of games, and
 * the answer to opening_lookup.
 */
#include "app/opening.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/internal.h"
#include "chess/fen.h"
#include "chess/move.h"
#include "chess/san.h"
#include "core/errors.h"
#include "proto/encode.h"
#include "util/log.h"

/* Reads the whole file into a new buffer. Returns 0, or -1 with errno set. */
static int read_file(const char *path, char **text, size_t *len) {
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 0;
    int rc = 0;
    for (;;) {
        if (*len + 65536 > cap) {
            cap = cap ? cap * 2 : 1 << 20;
            char *grown = realloc(*text, cap);
            if (!grown) {
                errno = ENOMEM;
                rc = -1;
                break;
            }
            *text = grown;
        }
        size_t got = fread(*text + *len, 1, cap - *len, f);
        *len += got;
        if (got == 0) {
            if (ferror(f)) rc = -1;
            break;
        }
    }
    fclose(f);
    if (rc < 0) {
        free(*text);
        *text = NULL;
    }
    return rc;
}

int opening_table_load(const char *path, struct openings **out) {
    *out = NULL;
    if (!path || !*path) {
        LOGI("openings", "no opening names (--openings is empty)");
        return 0;
    }
    char *text;
    size_t len;
    if (read_file(path, &text, &len) < 0) {
        if (strcmp(path, SERVER_OPENINGS_DEFAULT) == 0) {
            LOGW("openings",
                 "cannot read %s (%s): games get no opening names; install Debian's scid-data "
                 "(docs/openings.md)",
                 path, strerror(errno));
            return 0;
        }
        fprintf(stderr, "chess_server: cannot read openings file %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct openings_stats st;
    *out = openings_parse(text, len, &st);
    free(text);
    if (!*out) {
        fprintf(stderr, "chess_server: out of memory reading openings file %s\n", path);
        return -1;
    }
    if (st.skipped)
        LOGW("openings", "%s: %d entries skipped (the first at line %d)", path, st.skipped,
             st.first_bad_line);
    LOGI("openings", "%s: %d entries, %d positions named, %d repeated, %d skipped", path,
         st.entries, st.positions, st.duplicates, st.skipped);
    return 0;
}

int opening_of_stored(const struct openings *table, const struct store_game *g,
                      struct opening *out) {
    if (!table || !g->moves || g->initial_fen[0]) return 0;
    struct chess_position start, pos;
    chess_position_startpos(&start);
    pos = start;
    chess_move *moves = malloc(sizeof *moves * (size_t)(g->ply_count + 1));
    if (!moves) return 0;
    int n = 0;
    while (n < g->ply_count && chess_move_from_uci(&pos, g->moves[n].uci, &moves[n]) == 0)
        chess_position_make_move(&pos, moves[n++]);
    int rc = openings_classify_game(table, &start, moves, n, out);
    free(moves);
    return rc > 0;
}

int opening_handle_lookup(struct conn *c, const struct proto_request *req) {
    struct chess_position start, pos;
    if (req->fen) {
        if (chess_fen_parse(&start, req->fen) < 0) return -PROTO_ERR_FEN_INVALID;
    } else {
        chess_position_startpos(&start);
    }
    size_t count = req->moves ? json_array_size(req->moves) : 0;
    chess_move *moves = malloc(sizeof *moves * (count + 1));
    if (!moves) return -PROTO_ERR_INTERNAL;
    pos = start;
    for (size_t i = 0; i < count; i++) {
        if (chess_move_parse(&pos, json_string_value(json_array_get(req->moves, i)), &moves[i]) <
            0) {
            free(moves);
            return -CORE_ERR_ILLEGAL_MOVE;
        }
        chess_position_make_move(&pos, moves[i]);
    }
    struct opening o;
    int found = openings_classify(c->srv->cfg.world.openings, &start, moves, (int)count, &o);
    free(moves);
    json_t *msg = proto_encode_opening(found > 0 ? &o : NULL);
    if (!msg) return -PROTO_ERR_INTERNAL;
    proto_set_id(msg, req->id);
    conn_send_json(c, msg);
    return 0;
}
