/*
 * Events to operations: one op per fact (game, move, end, chat...), built into a small array
 * and submitted as one group.
 */
#include "app/record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/auth.h"
#include "chess/fen.h"
#include "util/log.h"

_Static_assert(AUTH_TOKEN_HASH_LEN == STORE_HASH_LEN, "the store keeps the tokens' hashes");

/* The ops of one call: most calls record one or two (a move, a move and the game's end), so
 * they start in the buffer itself and only a longer list goes to the heap. */
#define OP_BUFFER_INLINE 4

struct op_buffer {
    struct store_op *items; /* inline or malloc'd */
    size_t count, cap;
    bool failed;
    struct store_op inline_items[OP_BUFFER_INLINE];
};

static struct store_op *add_op(struct op_buffer *b, enum store_op_type type) {
    if (b->failed) return NULL;
    if (!b->items) {
        b->items = b->inline_items;
        b->cap = OP_BUFFER_INLINE;
    }
    if (b->count == b->cap) {
        size_t cap = b->cap * 2;
        struct store_op *grown = malloc(sizeof *grown * cap);
        if (!grown) {
            b->failed = true;
            return NULL;
        }
        memcpy(grown, b->items, sizeof *grown * b->count);
        if (b->items != b->inline_items) free(b->items);
        b->items = grown;
        b->cap = cap;
    }
    struct store_op *op = &b->items[b->count++];
    memset(op, 0, sizeof *op);
    op->type = type;
    return op;
}

/* Copies a string into a field of `size` bytes, cut to fit (snprintf cost more than the
 * whole of a move's other work here). */
static void copy(char *dst, size_t size, const char *src) {
    size_t n = src ? strnlen(src, size - 1) : 0;
    memcpy(dst, src ? src : "", n);
    dst[n] = '\0';
}

static void record_player(struct op_buffer *b, struct player *p, int64_t wall_ms) {
    if (p->stored) return;
    struct store_op *op = add_op(b, STORE_OP_PLAYER);
    if (!op) return;
    copy(op->player_id, sizeof op->player_id, p->id);
    copy(op->u.player.name, sizeof op->u.player.name, p->name);
    op->u.player.created_at = wall_ms;
    if (p->token[0]) {
        op->u.player.has_token = true;
        auth_token_hash(p->token, op->u.player.token_hash);
    }
    p->stored = true;
}

static void record_start(struct op_buffer *b, struct game *g, int64_t wall_ms) {
    for (int c = 0; c < 2; c++) record_player(b, g->players[c], wall_ms);
    int category = game_rating_category(g);
    struct store_op *op = add_op(b, STORE_OP_GAME_START);
    if (!op) return;
    copy(op->game_id, sizeof op->game_id, g->id);
    for (int c = 0; c < 2; c++) {
        const struct player *p = g->players[c];
        copy(op->u.start.player_id[c], sizeof op->u.start.player_id[c], p->id);
        copy(op->u.start.name[c], sizeof op->u.start.name[c], p->name);
        if (g->rated) g->rating[c] = (int)lround(p->ratings[category].rating);
        op->u.start.rating[c] = g->rating[c];
    }
    op->u.start.unlimited = g->tc.unlimited;
    op->u.start.initial_ms = g->tc.initial_ms;
    op->u.start.increment_ms = g->tc.increment_ms;
    op->u.start.days = g->tc.days;
    op->u.start.rated = g->rated;
    copy(op->u.start.category, sizeof op->u.start.category, rating_category_name(category));
    struct chess_position standard;
    chess_position_startpos(&standard);
    if (g->chess.start.key != standard.key &&
        chess_fen_write(&g->chess.start, CHESS_FEN_XFEN, op->u.start.initial_fen,
                        sizeof op->u.start.initial_fen) < 0)
        op->u.start.initial_fen[0] = '\0';
    copy(op->u.start.variant, sizeof op->u.start.variant, game_variant_key(g->start.variant));
    op->u.start.created_at = g->created_wall_ms;
}

/* An arena game: its arena's id, beside its row. */
static void record_game_arena(struct op_buffer *b, const struct game *g) {
    if (!g->arena_id[0]) return;
    struct store_op *op = add_op(b, STORE_OP_GAME_ARENA);
    if (!op) return;
    copy(op->game_id, sizeof op->game_id, g->id);
    copy(op->u.game_arena.arena_id, sizeof op->u.game_arena.arena_id, g->arena_id);
}

static void record_arena(struct op_buffer *b, const struct world_arena *a, int64_t wall_ms) {
    static const char *const status[] = {"created", "started", "finished"};
    struct store_op *op = add_op(b, STORE_OP_ARENA);
    if (!op) return;
    copy(op->player_id, sizeof op->player_id, a->creator);
    copy(op->u.arena.id, sizeof op->u.arena.id, a->id);
    copy(op->u.arena.name, sizeof op->u.arena.name, a->name);
    op->u.arena.initial_ms = a->tc.initial_ms;
    op->u.arena.increment_ms = a->tc.increment_ms;
    op->u.arena.rated = a->rated;
    op->u.arena.starts_at = a->starts_wall_ms;
    op->u.arena.minutes = a->minutes;
    copy(op->u.arena.status, sizeof op->u.arena.status, status[a->status]);
    op->u.arena.created_at = wall_ms;
}

/* A player's entry in an arena: its joining order is its index among the arena's players. */
static void record_arena_player(struct op_buffer *b, const struct core_event *ev, int64_t wall_ms) {
    const struct arena *ar = &ev->arena->arena;
    const struct arena_player *p = NULL;
    int seq = 0;
    for (int i = 0; i < ar->count && !p; i++)
        if (strcmp(ar->players[i].id, ev->player->id) == 0) p = &ar->players[seq = i];
    if (!p) return;
    struct store_op *op = add_op(b, STORE_OP_ARENA_PLAYER);
    if (!op) return;
    copy(op->player_id, sizeof op->player_id, p->id);
    copy(op->u.arena_player.arena_id, sizeof op->u.arena_player.arena_id, ev->arena->id);
    copy(op->u.arena_player.name, sizeof op->u.arena_player.name, p->name);
    op->u.arena_player.rating = p->rating;
    op->u.arena_player.seq = seq + 1;
    op->u.arena_player.paused = p->paused;
    op->u.arena_player.at = wall_ms;
}

static void record_berserk(struct op_buffer *b, const struct core_event *ev) {
    struct store_op *op = add_op(b, STORE_OP_BERSERK);
    if (!op) return;
    copy(op->game_id, sizeof op->game_id, ev->game->id);
    op->u.berserk.color = ev->color;
}

static void record_move(struct op_buffer *b, const struct core_event *ev, int64_t wall_ms) {
    const struct game *g = ev->game;
    struct store_op *op = add_op(b, STORE_OP_MOVE);
    if (!op) return;
    copy(op->game_id, sizeof op->game_id, g->id);
    const struct game_move_info *m = &ev->move;
    struct store_move_row *row = &op->u.move;
    row->ply = m->ply;
    copy(row->uci, sizeof row->uci, m->uci);
    copy(row->san, sizeof row->san, m->san);
    row->played_at = wall_ms;
    row->timed = !g->tc.unlimited;
    if (g->tc.days > 0) {
        /* A daily game's moves keep the deadline they set (core/restore.h), and the time the
         * mover had used of its period. */
        row->clock_ms = m->deadline_wall_ms;
        row->spent_ms = g->clock_after ? g->clock.per_move_ms - g->clock_after[m->ply - 1] : 0;
    } else if (row->timed) {
        row->clock_ms = m->clock_ms[ev->color];
        /* Time charged: the mover's clock after its previous move, plus the increment this move
         * earned, minus what is left. Nothing runs before ply 3. */
        if (m->ply >= 3 && g->clock_after) {
            int64_t spent = g->clock_after[m->ply - 3] + g->tc.increment_ms - row->clock_ms;
            row->spent_ms = spent > 0 ? spent : 0;
        }
    }
}

static void record_takeback(struct op_buffer *b, const struct game *g) {
    struct store_op *op = add_op(b, STORE_OP_TAKEBACK);
    if (!op) return;
    copy(op->game_id, sizeof op->game_id, g->id);
    op->u.takeback.ply = game_ply(g);
    op->u.takeback.timed = !g->tc.unlimited;
    for (int c = 0; c < 2; c++)
        op->u.takeback.clock_ms[c] =
            g->tc.days > 0 ? g->deadline_wall_ms : g->clock.remaining_ms[c];
}

static void record_end(struct op_buffer *b, const struct game *g) {
    struct store_op *op = add_op(b, STORE_OP_GAME_END);
    if (!op) return;
    copy(op->game_id, sizeof op->game_id, g->id);
    copy(op->u.end.result, sizeof op->u.end.result, chess_result_name(g->chess.result));
    copy(op->u.end.termination, sizeof op->u.end.termination,
         chess_termination_name(g->chess.termination));
    op->u.end.ply_count = game_ply(g);
    op->u.end.ended_at = g->ended_wall_ms;
    enum chess_result r = g->chess.result;
    if (!g->rated || r == CHESS_RESULT_NONE) return; /* aborted games change no rating */
    int category = game_rating_category(g);
    struct player *white = g->players[CHESS_WHITE], *black = g->players[CHESS_BLACK];
    double score = r == CHESS_RESULT_WHITE_WINS ? 1.0 : r == CHESS_RESULT_BLACK_WINS ? 0.0 : 0.5;
    struct rating after[2];
    if (rating_after_game(&white->ratings[category], &black->ratings[category], score,
                          g->ended_wall_ms, &after[0], &after[1]) < 0) {
        LOGE("record", "game=%s: ratings not updated (bad input)", g->id);
        return;
    }
    op->u.end.rated = true;
    op->u.end.category = category;
    for (int c = 0; c < 2; c++) {
        struct player *p = g->players[c];
        copy(op->u.end.player_id[c], sizeof op->u.end.player_id[c], p->id);
        op->u.end.after[c] = after[c];
        op->u.end.diff[c] = (int)(lround(after[c].rating) - lround(p->ratings[category].rating));
        p->ratings[category] = after[c];
    }
}

static void record_chat(struct op_buffer *b, const struct core_event *ev) {
    const struct chat_line *line = ev->chat;
    if (!line) return;
    struct store_op *op = add_op(b, STORE_OP_CHAT);
    if (!op) return;
    copy(op->game_id, sizeof op->game_id, ev->game->id);
    copy(op->player_id, sizeof op->player_id, line->from_id);
    copy(op->u.chat.name, sizeof op->u.chat.name, line->from_name);
    op->u.chat.room = ev->room == CHAT_ROOM_PLAYERS ? 0 : 1;
    op->u.chat.sent_at = line->wall_ms;
    op->u.chat.text = strdup(line->text);
    if (!op->u.chat.text) {
        b->count--;
        b->failed = true;
    }
}

int store_record_events(struct store *store, const struct core_events *events, int64_t wall_ms,
                        uint64_t *seq) {
    /* Not cleared whole: the inline ops are 1.2 KiB, and add_op() clears each one it hands
     * out. */
    struct op_buffer b;
    b.items = NULL;
    b.count = b.cap = 0;
    b.failed = false;
    *seq = 0;
    for (int i = 0; i < events->count; i++) {
        const struct core_event *ev = &events->items[i];
        switch (ev->type) {
            case CORE_EV_GAME_STARTED:
                record_start(&b, ev->game, wall_ms);
                record_game_arena(&b, ev->game);
                break;
            case CORE_EV_MOVE: record_move(&b, ev, wall_ms); break;
            case CORE_EV_TAKEBACK: record_takeback(&b, ev->game); break;
            /* Given time is kept as a takeback keeps the clocks: a takeback of nothing. */
            case CORE_EV_TIME_GIVEN: record_takeback(&b, ev->game); break;
            case CORE_EV_GAME_ENDED: record_end(&b, ev->game); break;
            case CORE_EV_CHAT: record_chat(&b, ev); break;
            case CORE_EV_ARENA_CREATED:
            case CORE_EV_ARENA_STATUS: record_arena(&b, ev->arena, wall_ms); break;
            case CORE_EV_ARENA_PLAYER: record_arena_player(&b, ev, wall_ms); break;
            case CORE_EV_BERSERK: record_berserk(&b, ev); break;
            default: break;
        }
    }
    int rc = 0;
    if (b.failed) {
        for (size_t i = 0; i < b.count; i++) store_op_release(&b.items[i]);
        rc = -STORE_ERR_NO_MEMORY;
    } else if (b.count > 0) {
        *seq = store_submit_group(store, b.items, b.count);
        if (*seq == 0) rc = -STORE_ERR_FAILED;
    }
    if (b.items != b.inline_items) free(b.items);
    return rc;
}
