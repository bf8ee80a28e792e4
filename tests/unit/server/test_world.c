/*
 * Tests of the world: seeks and challenges into games, events and their targets, timers through
 * world_tick, presence and abandonment, chat rooms, rematch, ended-game retention.
 */
#include <string.h>

#include "check.h"
#include "core/pool.h"
#include "core/world.h"
#include "splitmix.h"

static uint64_t seed = 42;
static struct core_events ev = {.reply = -1};

static struct world *make_world(void) {
    struct world_config cfg;
    world_config_defaults(&cfg);
    cfg.random = splitmix_random;
    cfg.random_ctx = &seed;
    cfg.max_finished_games = 3;
    return world_create(&cfg);
}

static const struct core_event *find_event(enum core_event_type type) {
    for (int i = 0; i < ev.count; i++) {
        if (ev.items[i].type == type) return &ev.items[i];
    }
    return NULL;
}

static int apply(struct world *w, struct player *p, enum core_cmd_type type, const char *target,
                 const char *text, int64_t now) {
    struct core_cmd cmd = {.type = type, .target = target, .text = text, .expected_ply = -1};
    return world_apply(w, p, &cmd, now, &ev);
}

/* Starts a game between a and b through a seek by a for white. */
static struct game *start(struct world *w, struct player *a, struct player *b,
                          struct time_control tc, int64_t now) {
    struct core_cmd seek = {.type = CORE_CMD_SEEK_CREATE, .tc = tc, .color = COLOR_CHOICE_WHITE};
    CHECK_EQ_INT(world_apply(w, a, &seek, now, &ev), 0);
    const struct core_event *added = find_event(CORE_EV_SEEK_ADDED);
    CHECK(added && added->target == CORE_TO_LOBBY && ev.reply == 0);
    char id[CHALLENGE_ID_LEN + 1];
    strcpy(id, added->seek.id);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_SEEK_ACCEPT, id, NULL, now), 0);
    CHECK(find_event(CORE_EV_SEEK_REMOVED) != NULL);
    const struct core_event *started = find_event(CORE_EV_GAME_STARTED);
    CHECK(started && started->target == CORE_TO_GAME_PLAYERS);
    CHECK(ev.reply >= 0 && ev.items[ev.reply].type == CORE_EV_GAME_STARTED);
    struct game *g = started ? started->game : NULL;
    if (g) {
        CHECK(g->players[CHESS_WHITE] == a);
        CHECK(g->players[CHESS_BLACK] == b);
    }
    return g;
}

/* A one-minute game with 1. e4 e5 played at `at`: White's clock runs from there. */
static struct game *start_bullet(struct world *w, struct player *a, struct player *b, int64_t at) {
    struct time_control bullet = {.initial_ms = 60000};
    struct game *g = start(w, a, b, bullet, 0);
    if (!g) return NULL;
    CHECK_EQ_INT(apply(w, a, CORE_CMD_MOVE, g->id, "e4", at), 0);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_MOVE, g->id, "e5", at), 0);
    return g;
}

static const struct time_control blitz = {.initial_ms = 180000, .increment_ms = 2000};

static void test_players(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, NULL, 0);
    struct player *b = world_player_create(w, "Bob", 0);
    CHECK(a && b);
    CHECK(strncmp(a->name, "Guest", 5) == 0);
    CHECK_EQ_STR(b->name, "Bob");
    CHECK_EQ_INT((int)strlen(a->token), PLAYER_TOKEN_LEN);
    CHECK(world_player_by_token(w, a->token) == a);
    CHECK(world_player_by_id(w, b->id) == b);
    CHECK(world_player_by_token(w, "nope") == NULL);
    world_destroy(w);
}

static void test_seek_to_mate(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0);
    struct player *b = world_player_create(w, "B", 0);
    struct game *g = start(w, a, b, blitz, 0);
    CHECK(g != NULL);
    if (!g) goto out;
    CHECK(world_live_first(w) == g);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_MOVE, g->id, "e5", 10), -CORE_ERR_NOT_YOUR_TURN);
    struct player *c = world_player_create(w, "C", 0);
    CHECK_EQ_INT(apply(w, c, CORE_CMD_MOVE, g->id, "e4", 10), -CORE_ERR_NOT_A_PLAYER);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_MOVE, "zzzzzzzz", "e4", 10), -CORE_ERR_GAME_NOT_FOUND);
    const char *moves[] = {"f3", "e5", "g4", "Qh4#"};
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_INT(apply(w, i % 2 ? b : a, CORE_CMD_MOVE, g->id, moves[i], 100 + i), 0);
        const struct core_event *mv = find_event(CORE_EV_MOVE);
        CHECK(mv && mv->target == CORE_TO_GAME && ev.reply == 0);
        if (mv) CHECK_EQ_INT(mv->move.ply, i + 1);
    }
    const struct core_event *end = find_event(CORE_EV_GAME_ENDED);
    CHECK(end && end->game == g);
    CHECK(g->ended);
    CHECK_EQ_INT(g->chess.termination, CHESS_TERM_CHECKMATE);
    CHECK(world_live_first(w) == NULL);
    CHECK_EQ_INT(a->game_count, 0);
    CHECK(world_game(w, g->id) == g); /* kept after the end */
    struct world_stats st;
    world_stats(w, &st);
    CHECK_EQ_INT(st.moves_total, 4);
    CHECK_EQ_INT(st.games_live, 0);
    CHECK_EQ_INT(st.games_ended_kept, 1);
out:
    world_destroy(w);
}

static void test_seek_rules(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0);
    struct player *b = world_player_create(w, "B", 0);
    struct core_cmd seek = {
        .type = CORE_CMD_SEEK_CREATE, .tc = blitz, .color = COLOR_CHOICE_RANDOM};
    CHECK_EQ_INT(world_apply(w, a, &seek, 0, &ev), 0);
    char id[CHALLENGE_ID_LEN + 1];
    strcpy(id, ev.items[0].seek.id);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_SEEK_ACCEPT, id, NULL, 0), -CORE_ERR_OWN_SEEK);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_SEEK_CANCEL, id, NULL, 0), -CORE_ERR_NOT_OWNER);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_CHALLENGE_ACCEPT, id, NULL, 0),
                 -CORE_ERR_CHALLENGE_NOT_FOUND);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_SEEK_CANCEL, id, NULL, 0), 0);
    CHECK(find_event(CORE_EV_SEEK_REMOVED) != NULL);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_SEEK_ACCEPT, id, NULL, 0), -CORE_ERR_SEEK_NOT_FOUND);
    CHECK_EQ_INT(a->open_seeks, 0);
    for (int i = 0; i < 10; i++) CHECK_EQ_INT(world_apply(w, a, &seek, 0, &ev), 0);
    CHECK_EQ_INT(world_apply(w, a, &seek, 0, &ev), -CORE_ERR_TOO_MANY_SEEKS);
    struct core_cmd computer = {.type = CORE_CMD_COMPUTER_PLAY, .level = 9};
    CHECK_EQ_INT(world_apply(w, a, &computer, 0, &ev), -CORE_ERR_COMPUTER_UNAVAILABLE);
    world_destroy(w);
}

/* Games against the computer: its seat, its turn, stale results, and its answers to offers. */
static void test_computer_games(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0);
    world_player_attach(w, a, 0, &ev);
    struct player *cpu = world_computer(w, 3);
    CHECK(cpu && cpu->computer_level == 3 && cpu->online == 1);
    CHECK(world_computer(w, 0) == NULL && world_computer(w, 9) == NULL);
    struct core_cmd play = {
        .type = CORE_CMD_COMPUTER_PLAY, .level = 3, .tc = blitz, .color = COLOR_CHOICE_WHITE};
    CHECK_EQ_INT(world_apply(w, a, &play, 0, &ev), 0);
    const struct core_event *started = find_event(CORE_EV_GAME_STARTED);
    struct game *g = started ? started->game : NULL;
    CHECK(g && g->players[CHESS_WHITE] == a && g->players[CHESS_BLACK] == cpu);
    if (!g) return;
    CHECK_EQ_INT(world_computer_to_move(g), 0);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_MOVE, g->id, "e4", 10), 0);
    CHECK_EQ_INT(world_computer_to_move(g), 3);
    struct chess_position pos = g->chess.current;
    chess_move reply;
    CHECK_EQ_INT(chess_move_parse(&pos, "e5", &reply), 0);
    /* A result for another ply or position is refused; the right one is played. */
    CHECK_EQ_INT(world_computer_move(w, g->id, 0, pos.key, reply, 20, &ev), -CORE_ERR_STALE_PLY);
    CHECK_EQ_INT(world_computer_move(w, g->id, 1, pos.key ^ 1, reply, 20, &ev),
                 -CORE_ERR_STALE_PLY);
    CHECK_EQ_INT(world_computer_move(w, "nosuch", 1, pos.key, reply, 20, &ev),
                 -CORE_ERR_GAME_NOT_FOUND);
    CHECK_EQ_INT(world_computer_move(w, g->id, 1, pos.key, reply, 20, &ev), 0);
    CHECK(find_event(CORE_EV_MOVE) != NULL);
    CHECK_EQ_INT(world_computer_move(w, g->id, 2, g->chess.current.key, reply, 30, &ev),
                 -CORE_ERR_NOT_YOUR_TURN);
    /* Draws are declined at once; the offer stays the reply. */
    CHECK_EQ_INT(apply(w, a, CORE_CMD_DRAW_OFFER, g->id, NULL, 40), 0);
    const struct core_event *declined = find_event(CORE_EV_OFFER_DECLINED);
    CHECK(declined && declined->color == CHESS_BLACK && declined->offer == GAME_OFFER_DRAW);
    CHECK(ev.reply >= 0 && ev.items[ev.reply].type == CORE_EV_OFFER);
    /* Takebacks are granted: White's e4 (and the reply) go. */
    CHECK_EQ_INT(apply(w, a, CORE_CMD_TAKEBACK_OFFER, g->id, NULL, 50), 0);
    const struct core_event *tb = find_event(CORE_EV_TAKEBACK);
    CHECK(tb && tb->undone == 2 && game_ply(g) == 0);
    /* The computer plays any number of games: no per-player limit for it. */
    for (int i = 0; i < 12; i++) {
        struct player *p = world_player_create(w, NULL, 0);
        CHECK_EQ_INT(world_apply(w, p, &play, 0, &ev), 0);
    }
    CHECK(cpu->game_count >= 12);
    world_destroy(w);
}

static const char *created_id(void);

/* Games from another start: a Chess960 array asked for or drawn (and a new one for a rematch),
 * Three-check and King of the Hill with their rules, a fromPosition game from a FEN checked
 * first; variants are casual; every refusal with its code. */
static void test_variant_starts(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0), *b = world_player_create(w, "B", 0);
    a->registered = b->registered = true;
    struct core_events ignored = {.reply = -1};
    world_player_attach(w, b, 0, &ignored);
    /* Chess960 against the computer, array 0: its pieces, its castling written king-takes-rook. */
    struct core_cmd play = {.type = CORE_CMD_COMPUTER_PLAY,
                            .level = 1,
                            .tc = blitz,
                            .color = COLOR_CHOICE_WHITE,
                            .variant = GAME_VARIANT_CHESS960,
                            .has_chess960 = true,
                            .chess960 = 0};
    CHECK_EQ_INT(world_apply(w, a, &play, 0, &ev), 0);
    const struct core_event *started = find_event(CORE_EV_GAME_STARTED);
    struct game *g = started ? started->game : NULL;
    CHECK(g && g->start.variant == GAME_VARIANT_CHESS960 && g->start.chess960 == 0);
    CHECK(g && g->chess.start.chess960 &&
          g->chess.start.board[0] == CHESS_PIECE(CHESS_WHITE, CHESS_BISHOP));
    /* Three-check: the checks are counted; King of the Hill: the rules are the engine's. */
    play.variant = GAME_VARIANT_THREE_CHECK;
    play.has_chess960 = false;
    CHECK_EQ_INT(world_apply(w, a, &play, 0, &ev), 0);
    started = find_event(CORE_EV_GAME_STARTED);
    CHECK(started && started->game->chess.current.variant == CHESS_VARIANT_THREE_CHECK);
    play.variant = GAME_VARIANT_KING_OF_THE_HILL;
    CHECK_EQ_INT(world_apply(w, a, &play, 0, &ev), 0);
    started = find_event(CORE_EV_GAME_STARTED);
    CHECK(started && started->game->chess.current.variant == CHESS_VARIANT_KING_OF_THE_HILL);
    /* fromPosition: a FEN alone makes one; a bad or finished position is refused. */
    play.variant = GAME_VARIANT_STANDARD;
    play.fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    CHECK_EQ_INT(world_apply(w, a, &play, 0, &ev), 0);
    started = find_event(CORE_EV_GAME_STARTED);
    g = started ? started->game : NULL;
    CHECK(g && g->start.variant == GAME_VARIANT_FROM_POSITION && game_turn(g) == CHESS_WHITE);
    CHECK(g && g->chess.start.by_type[CHESS_PAWN] == (1ull << 12)); /* e2 */
    play.fen = "not a fen";
    CHECK_EQ_INT(world_apply(w, a, &play, 0, &ev), -CORE_ERR_BAD_POSITION);
    play.fen = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
    CHECK_EQ_INT(world_apply(w, a, &play, 0, &ev), -CORE_ERR_POSITION_OVER);
    play.variant = GAME_VARIANT_THREE_CHECK; /* a position is for fromPosition only */
    play.fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    CHECK_EQ_INT(world_apply(w, a, &play, 0, &ev), -CORE_ERR_BAD_POSITION);
    play.variant = GAME_VARIANT_FROM_POSITION;
    play.fen = NULL;
    CHECK_EQ_INT(world_apply(w, a, &play, 0, &ev), -CORE_ERR_BAD_POSITION);
    /* A game from a position is never rated (as on lichess): a rated seek is refused. */
    struct core_cmd seek = {.type = CORE_CMD_SEEK_CREATE,
                            .tc = blitz,
                            .color = COLOR_CHOICE_WHITE,
                            .variant = GAME_VARIANT_FROM_POSITION,
                            .fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
                            .rated_required = true};
    CHECK_EQ_INT(world_apply(w, a, &seek, 0, &ev), -CORE_ERR_RATED_UNAVAILABLE);
    /* A rated Chess960 seek between accounts: an array drawn when it is accepted, and a new one
     * for the rematch. */
    seek.variant = GAME_VARIANT_CHESS960;
    seek.fen = NULL;
    CHECK_EQ_INT(world_apply(w, a, &seek, 0, &ev), 0);
    char id[CHALLENGE_ID_LEN + 1];
    strcpy(id, created_id());
    CHECK_EQ_INT(ev.items[ev.reply].seek.start.chess960, -1);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_SEEK_ACCEPT, id, NULL, 0), 0);
    started = find_event(CORE_EV_GAME_STARTED);
    g = started ? started->game : NULL;
    CHECK(g && g->rated && g->start.variant == GAME_VARIANT_CHESS960);
    CHECK(g && game_rating_category(g) == RATING_CHESS960);
    CHECK(g && g->start.chess960 >= 0 && g->start.chess960 < 960);
    if (g) {
        int first = g->start.chess960;
        CHECK_EQ_INT(apply(w, a, CORE_CMD_RESIGN, g->id, NULL, 0), 0);
        CHECK_EQ_INT(apply(w, a, CORE_CMD_REMATCH_OFFER, g->id, NULL, 0), 0);
        CHECK_EQ_INT(apply(w, b, CORE_CMD_REMATCH_ACCEPT, g->id, NULL, 0), 0);
        started = find_event(CORE_EV_GAME_STARTED);
        CHECK(started && started->game->start.variant == GAME_VARIANT_CHESS960);
        /* Drawn again: another array (1 chance in 960 of the same; this seed gives another). */
        CHECK(started && started->game->start.chess960 != first);
    }
    core_events_free(&ignored);
    world_destroy(w);
}

static void test_challenge_and_seek_expiry(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0);
    struct player *b = world_player_create(w, "B", 0);
    world_player_attach(w, a, 0, &ev);
    struct core_cmd ch = {
        .type = CORE_CMD_CHALLENGE_CREATE, .tc = {.unlimited = true}, .color = COLOR_CHOICE_BLACK};
    CHECK_EQ_INT(world_apply(w, a, &ch, 0, &ev), 0);
    const struct core_event *created = find_event(CORE_EV_CHALLENGE_CREATED);
    CHECK(created && created->target == CORE_TO_PLAYER && created->player == a);
    char id[CHALLENGE_ID_LEN + 1];
    strcpy(id, created->seek.id);
    CHECK_EQ_INT((int)strlen(id), CHALLENGE_ID_LEN);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_SEEK_ACCEPT, id, NULL, 0), -CORE_ERR_SEEK_NOT_FOUND);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_CHALLENGE_ACCEPT, id, NULL, 0), -CORE_ERR_OWN_CHALLENGE);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_CHALLENGE_ACCEPT, id, NULL, 0), 0);
    const struct core_event *started = find_event(CORE_EV_GAME_STARTED);
    CHECK(started && started->game->players[CHESS_BLACK] == a);
    CHECK(started && started->game->tc.unlimited);

    /* A seek goes seek_grace_ms after its owner leaves, unless the owner comes back. */
    struct core_cmd seek = {.type = CORE_CMD_SEEK_CREATE, .tc = blitz};
    CHECK_EQ_INT(world_apply(w, a, &seek, 1000, &ev), 0);
    world_player_detach(w, a, 2000, &ev);
    CHECK_EQ_INT(world_next_deadline(w) <= 12000, 1);
    world_player_attach(w, a, 5000, &ev);
    world_tick(w, 20000, &ev);
    CHECK(find_event(CORE_EV_SEEK_REMOVED) == NULL);
    world_player_detach(w, a, 30000, &ev);
    world_tick(w, 39999, &ev);
    CHECK(find_event(CORE_EV_SEEK_REMOVED) == NULL);
    world_tick(w, 40000, &ev);
    CHECK(find_event(CORE_EV_SEEK_REMOVED) != NULL);
    struct world_stats st;
    world_stats(w, &st);
    CHECK_EQ_INT(st.seeks, 0);
    world_destroy(w);
}

static void test_flag_by_timer(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0);
    struct player *b = world_player_create(w, "B", 0);
    struct game *g = start_bullet(w, a, b, 2000);
    if (!g) goto out;
    int64_t deadline = world_next_deadline(w);
    CHECK_EQ_INT(deadline, 2000 + 60000 + 340); /* 1+0: what the quota forgives, the cap */
    world_tick(w, deadline - 1, &ev);
    CHECK_EQ_INT(ev.count, 0);
    world_tick(w, deadline, &ev);
    const struct core_event *end = find_event(CORE_EV_GAME_ENDED);
    CHECK(end && end->game == g);
    CHECK_EQ_INT(g->chess.result, CHESS_RESULT_BLACK_WINS);
    CHECK_EQ_INT(g->chess.termination, CHESS_TERM_TIMEOUT);
    CHECK_EQ_INT(world_next_deadline(w), GCLOCK_NEVER);
out:
    world_destroy(w);
}

/* Giving 15 seconds: to the opponent, whose flag moves with it; refused where no clock runs,
 * to the computer, to spectators and after the end. */
static void test_give_time(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0);
    struct player *b = world_player_create(w, "B", 0);
    struct player *c = world_player_create(w, "C", 0);
    struct time_control bullet = {.initial_ms = 60000};
    struct game *g = start(w, a, b, bullet, 0);
    if (!g) goto out;
    CHECK_EQ_INT(apply(w, a, CORE_CMD_GIVE_TIME, g->id, NULL, 0), -CORE_ERR_CANNOT_GIVE_TIME);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_MOVE, g->id, "e4", 1000), 0);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_MOVE, g->id, "e5", 2000), 0);
    CHECK_EQ_INT(apply(w, c, CORE_CMD_GIVE_TIME, g->id, NULL, 2000), -CORE_ERR_NOT_A_PLAYER);
    /* White runs; Black gives it time: White's deadline moves by 15 s. */
    int64_t deadline = world_next_deadline(w);
    uint32_t version = g->version;
    CHECK_EQ_INT(apply(w, b, CORE_CMD_GIVE_TIME, g->id, NULL, 3000), 0);
    const struct core_event *given = find_event(CORE_EV_TIME_GIVEN);
    CHECK(given && given->color == CHESS_WHITE && given->target == CORE_TO_GAME);
    CHECK(ev.reply >= 0 && ev.items[ev.reply].type == CORE_EV_TIME_GIVEN);
    CHECK_EQ_INT(g->version, version + 1);
    CHECK_EQ_INT(world_next_deadline(w), deadline + GAME_GIVE_TIME_MS);
    CHECK_EQ_INT(gclock_remaining(&g->clock, CHESS_WHITE, 3000), 60000 - 1000 + GAME_GIVE_TIME_MS);
    /* White gives Black time while its own clock runs: Black's stopped clock grows. */
    CHECK_EQ_INT(apply(w, a, CORE_CMD_GIVE_TIME, g->id, NULL, 4000), 0);
    CHECK_EQ_INT(gclock_remaining(&g->clock, CHESS_BLACK, 4000), 60000 + GAME_GIVE_TIME_MS);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_RESIGN, g->id, NULL, 5000), 0);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_GIVE_TIME, g->id, NULL, 5000), -CORE_ERR_GAME_OVER);

    /* No clock, or the computer as the opponent. */
    struct game *u = start(w, a, b, (struct time_control){.unlimited = true}, 6000);
    if (!u) goto out;
    CHECK_EQ_INT(apply(w, a, CORE_CMD_MOVE, u->id, "e4", 6000), 0);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_MOVE, u->id, "e5", 6000), 0);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_GIVE_TIME, u->id, NULL, 6000), -CORE_ERR_CANNOT_GIVE_TIME);
    struct core_cmd play = {
        .type = CORE_CMD_COMPUTER_PLAY, .level = 1, .tc = blitz, .color = COLOR_CHOICE_WHITE};
    CHECK_EQ_INT(world_apply(w, c, &play, 7000, &ev), 0);
    const struct core_event *started = find_event(CORE_EV_GAME_STARTED);
    struct game *cg = started ? started->game : NULL;
    if (!cg) goto out;
    CHECK_EQ_INT(apply(w, c, CORE_CMD_GIVE_TIME, cg->id, NULL, 7000), -CORE_ERR_CANNOT_GIVE_TIME);
out:
    world_destroy(w);
}

static void test_late_move_sees_flag_first(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0);
    struct player *b = world_player_create(w, "B", 0);
    struct game *g = start_bullet(w, a, b, 0);
    if (!g) goto out;
    /* The timer has not run yet, but the move comes after the deadline. */
    CHECK_EQ_INT(apply(w, a, CORE_CMD_MOVE, g->id, "Nf3", 70000), -CORE_ERR_GAME_OVER);
    CHECK(find_event(CORE_EV_GAME_ENDED) != NULL);
    CHECK_EQ_INT(g->chess.termination, CHESS_TERM_TIMEOUT);
out:
    world_destroy(w);
}

static void test_offers_takeback_rematch(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0);
    struct player *b = world_player_create(w, "B", 0);
    struct game *g = start(w, a, b, blitz, 0);
    if (!g) goto out;
    CHECK_EQ_INT(apply(w, a, CORE_CMD_MOVE, g->id, "e4", 0), 0);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_TAKEBACK_OFFER, g->id, NULL, 0), 0);
    const struct core_event *offer = find_event(CORE_EV_OFFER);
    CHECK(offer && offer->offer == GAME_OFFER_TAKEBACK && offer->color == CHESS_WHITE);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_TAKEBACK_ACCEPT, g->id, NULL, 0), -CORE_ERR_NO_OFFER);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_TAKEBACK_ACCEPT, g->id, NULL, 0), 0);
    const struct core_event *tb = find_event(CORE_EV_TAKEBACK);
    CHECK(tb && tb->undone == 1);
    CHECK_EQ_INT(game_ply(g), 0);

    CHECK_EQ_INT(apply(w, b, CORE_CMD_DRAW_OFFER, g->id, NULL, 0), 0);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_DRAW_DECLINE, g->id, NULL, 0), 0);
    CHECK(find_event(CORE_EV_OFFER_DECLINED) != NULL);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_DRAW_OFFER, g->id, NULL, 0), 0);
    /* Offering back accepts. */
    CHECK_EQ_INT(apply(w, b, CORE_CMD_DRAW_OFFER, g->id, NULL, 0), 0);
    CHECK(find_event(CORE_EV_GAME_ENDED) != NULL);
    CHECK_EQ_INT(g->chess.termination, CHESS_TERM_AGREEMENT);

    CHECK_EQ_INT(apply(w, b, CORE_CMD_REMATCH_OFFER, g->id, NULL, 0), 0);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_REMATCH_OFFER, g->id, NULL, 0), -CORE_ERR_OFFER_PENDING);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_REMATCH_OFFER, g->id, NULL, 0), 0);
    CHECK(find_event(CORE_EV_REMATCH) != NULL);
    const struct core_event *started = find_event(CORE_EV_GAME_STARTED);
    CHECK(started && started->game->players[CHESS_WHITE] == b);
    CHECK(started && strcmp(g->rematch_id, started->game->id) == 0);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_REMATCH_OFFER, g->id, NULL, 0), -CORE_ERR_REMATCH_DONE);
out:
    world_destroy(w);
}

static void test_presence_and_abandon(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0);
    struct player *b = world_player_create(w, "B", 0);
    world_player_attach(w, a, 0, &ev);
    world_player_attach(w, b, 0, &ev);
    struct game *g = start(w, a, b, blitz, 0);
    if (!g) goto out;
    CHECK_EQ_INT(apply(w, a, CORE_CMD_MOVE, g->id, "e4", 0), 0);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_MOVE, g->id, "e5", 0), 0);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_ABANDON_CLAIM, g->id, NULL, 0), -CORE_ERR_OPPONENT_CONNECTED);
    world_player_detach(w, b, 1000, &ev);
    const struct core_event *pr = find_event(CORE_EV_PRESENCE);
    CHECK(pr && !pr->connected && pr->color == CHESS_BLACK && pr->game == g);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_ABANDON_CLAIM, g->id, NULL, 30000),
                 -CORE_ERR_CLAIM_TOO_EARLY);
    world_player_attach(w, b, 40000, &ev);
    pr = find_event(CORE_EV_PRESENCE);
    CHECK(pr && pr->connected);
    world_player_detach(w, b, 50000, &ev);
    struct core_cmd claim = {.type = CORE_CMD_ABANDON_CLAIM, .target = g->id, .claim_win = true};
    CHECK_EQ_INT(world_apply(w, a, &claim, 110000, &ev), 0);
    CHECK_EQ_INT(g->chess.result, CHESS_RESULT_WHITE_WINS);
    CHECK_EQ_INT(g->chess.termination, CHESS_TERM_ABANDONED);
out:
    world_destroy(w);
}

/* A game without a clock waits for its players: no claim, however long one is away. */
static void test_unlimited_game_is_never_abandoned(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0);
    struct player *b = world_player_create(w, "B", 0);
    world_player_attach(w, a, 0, &ev);
    world_player_attach(w, b, 0, &ev);
    struct game *g = start(w, a, b, (struct time_control){.unlimited = true}, 0);
    if (!g) goto out;
    CHECK_EQ_INT(apply(w, a, CORE_CMD_MOVE, g->id, "e4", 0), 0);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_MOVE, g->id, "e5", 0), 0);
    world_player_detach(w, b, 1000, &ev);
    const struct core_event *pr = find_event(CORE_EV_PRESENCE);
    CHECK(pr && !pr->connected && pr->claim_after_ms == -1);
    struct core_cmd claim = {.type = CORE_CMD_ABANDON_CLAIM, .target = g->id, .claim_win = true};
    CHECK_EQ_INT(world_apply(w, a, &claim, 1000 + 24 * 3600 * 1000LL, &ev),
                 -CORE_ERR_CLAIM_NO_CLOCK);
    CHECK(!g->ended);
out:
    world_destroy(w);
}

static void test_chat(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0);
    struct player *b = world_player_create(w, "B", 0);
    struct player *c = world_player_create(w, "C", 0);
    struct game *g = start(w, a, b, blitz, 0);
    if (!g) goto out;
    struct core_cmd chat = {
        .type = CORE_CMD_CHAT, .target = g->id, .text = "hi", .room = CHAT_ROOM_PLAYERS};
    CHECK_EQ_INT(world_apply(w, a, &chat, 0, &ev), 0);
    const struct core_event *line = find_event(CORE_EV_CHAT);
    CHECK(line && line->target == CORE_TO_GAME_PLAYERS && strcmp(line->chat->text, "hi") == 0);
    CHECK_EQ_INT(world_apply(w, c, &chat, 0, &ev), -CORE_ERR_CHAT_NOT_ALLOWED);
    chat.room = CHAT_ROOM_SPECTATORS;
    CHECK_EQ_INT(world_apply(w, c, &chat, 0, &ev), 0);
    line = find_event(CORE_EV_CHAT);
    CHECK(line && line->target == CORE_TO_GAME_SPECTATORS);
    /* A player may greet the spectators: the line goes to them, not to the players. */
    CHECK_EQ_INT(world_apply(w, a, &chat, 0, &ev), 0);
    line = find_event(CORE_EV_CHAT);
    CHECK(line && line->target == CORE_TO_GAME_SPECTATORS && line->room == CHAT_ROOM_SPECTATORS);
    chat.text = "";
    CHECK_EQ_INT(world_apply(w, c, &chat, 0, &ev), -CORE_ERR_CHAT_INVALID);
    chat.text = "spam";
    int limited = 0;
    for (int i = 0; i < 10; i++) {
        if (world_apply(w, c, &chat, 0, &ev) == -CORE_ERR_CHAT_RATE_LIMITED) limited++;
    }
    CHECK_EQ_INT(limited, 6);                             /* burst of 5, one used above */
    CHECK_EQ_INT(g->chat[CHAT_ROOM_SPECTATORS].count, 6); /* and the player's greeting */
out:
    world_destroy(w);
}

static void test_first_move_abort_and_retention(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "A", 0);
    struct player *b = world_player_create(w, "B", 0);
    char first_id[GAME_ID_LEN + 1] = "";
    for (int i = 0; i < 5; i++) {
        struct game *g = start(w, a, b, blitz, i * 100000);
        if (!g) break;
        if (i == 0) strcpy(first_id, g->id);
        world_tick(w, i * 100000 + 30000, &ev);
        const struct core_event *end = find_event(CORE_EV_GAME_ENDED);
        CHECK(end && end->game->chess.termination == CHESS_TERM_ABORTED);
    }
    /* Over the limit of kept games: due at once, whatever else is (nothing here). */
    CHECK_EQ_INT(world_next_deadline(w), 0);
    world_tick(w, 1000000, &ev);
    CHECK_EQ_INT(world_next_deadline(w), GCLOCK_NEVER);
    struct world_stats st;
    world_stats(w, &st);
    CHECK_EQ_INT(st.games_ended_kept, 3);
    CHECK(world_game(w, first_id) == NULL);
    CHECK_EQ_INT(a->refs, 3);
    world_destroy(w);
}

/* Counts events of a type sent to one player. */
static int events_to(enum core_event_type type, const struct player *p) {
    int n = 0;
    for (int i = 0; i < ev.count; i++) n += ev.items[i].type == type && ev.items[i].player == p;
    return n;
}

/* A challenge to a named player: only they may accept or decline, both hear of its end, and a
 * bot's game against a person is rated only when the operator allows it. */
static void test_direct_challenge(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "Ann", 0), *bot = world_player_create(w, "Bot", 0);
    struct player *c = world_player_create(w, "Cid", 0);
    a->registered = bot->registered = bot->bot = true;
    struct core_events ignored = {.reply = -1};
    world_player_attach(w, a, 0, &ignored);
    struct core_cmd cmd = {.type = CORE_CMD_CHALLENGE_CREATE, .tc = blitz, .opponent = bot->id};
    /* Offline, unknown, oneself, the computer: refused. */
    CHECK_EQ_INT(world_apply(w, a, &cmd, 0, &ev), -CORE_ERR_PLAYER_OFFLINE);
    world_player_attach(w, bot, 0, &ignored);
    world_player_attach(w, c, 0, &ignored);
    cmd.opponent = "nobody";
    CHECK_EQ_INT(world_apply(w, a, &cmd, 0, &ev), -CORE_ERR_PLAYER_OFFLINE);
    cmd.opponent = "computer-1";
    CHECK_EQ_INT(world_apply(w, a, &cmd, 0, &ev), -CORE_ERR_PLAYER_OFFLINE);
    cmd.opponent = a->id;
    CHECK_EQ_INT(world_apply(w, a, &cmd, 0, &ev), -CORE_ERR_OWN_CHALLENGE);
    cmd.opponent = bot->id;
    CHECK_EQ_INT(world_apply(w, a, &cmd, 0, &ev), 0);
    const struct core_event *got = find_event(CORE_EV_CHALLENGE_RECEIVED);
    CHECK(got && got->player == bot && got->seek.target == bot && !got->seek.rated);
    CHECK(ev.reply >= 0 && ev.items[ev.reply].type == CORE_EV_CHALLENGE_CREATED);
    char id[CHALLENGE_ID_LEN + 1];
    strcpy(id, got ? got->seek.id : "");
    /* Someone else: not invited, to accept or to decline. */
    CHECK_EQ_INT(apply(w, c, CORE_CMD_CHALLENGE_ACCEPT, id, NULL, 0), -CORE_ERR_NOT_INVITED);
    CHECK_EQ_INT(apply(w, c, CORE_CMD_CHALLENGE_DECLINE, id, NULL, 0), -CORE_ERR_NOT_INVITED);
    struct core_cmd decline = {.type = CORE_CMD_CHALLENGE_DECLINE,
                               .target = id,
                               .decline_reason = CHALLENGE_DECLINE_LATER};
    CHECK_EQ_INT(world_apply(w, bot, &decline, 0, &ev), 0);
    CHECK_EQ_INT(events_to(CORE_EV_CHALLENGE_REMOVED, a), 1);
    CHECK_EQ_INT(events_to(CORE_EV_CHALLENGE_REMOVED, bot), 1);
    CHECK(ev.reply >= 0 && ev.items[ev.reply].player == bot);
    CHECK(ev.items[0].removal == CHALLENGE_REMOVED_DECLINED &&
          ev.items[0].decline_reason == CHALLENGE_DECLINE_LATER);
    CHECK(!world_seek(w, id));
    /* Cancelled: both told, the creator's event is the reply. */
    CHECK_EQ_INT(world_apply(w, a, &cmd, 0, &ev), 0);
    strcpy(id, ev.items[ev.reply].seek.id);
    CHECK_EQ_INT(apply(w, a, CORE_CMD_CHALLENGE_CANCEL, id, NULL, 0), 0);
    CHECK_EQ_INT(events_to(CORE_EV_CHALLENGE_REMOVED, bot), 1);
    CHECK(ev.reply >= 0 && ev.items[ev.reply].player == a &&
          ev.items[ev.reply].removal == CHALLENGE_REMOVED_CANCELLED);
    /* Accepted: a casual game (bot against a person), unless the operator allows it. */
    CHECK_EQ_INT(world_apply(w, a, &cmd, 0, &ev), 0);
    strcpy(id, ev.items[ev.reply].seek.id);
    CHECK_EQ_INT(apply(w, bot, CORE_CMD_CHALLENGE_ACCEPT, id, NULL, 0), 0);
    const struct core_event *started = find_event(CORE_EV_GAME_STARTED);
    CHECK(started && !started->game->rated);
    CHECK_EQ_INT(events_to(CORE_EV_CHALLENGE_REMOVED, a), 1);
    CHECK(world_rated_pairing(a, bot, &blitz, true));
    CHECK(!world_rated_pairing(a, bot, &blitz, false));
    c->registered = c->bot = true;
    CHECK(world_rated_pairing(c, bot, &blitz, false));
    core_events_free(&ignored);
    world_destroy(w);
}

/* The id of the seek or challenge just created (the reply event). */
static const char *created_id(void) {
    return ev.reply >= 0 ? ev.items[ev.reply].seek.id : "";
}

/* "rated": false makes a game casual between accounts; "rated": true asks for a rated game or
 * none: refused to guests, without a clock, and to a pairing that cannot be rated. */
static void test_rated_or_casual(void) {
    struct world *w = make_world();
    struct player *a = world_player_create(w, "Ann", 0), *b = world_player_create(w, "Ben", 0);
    struct player *guest = world_player_create(w, "Gus", 0);
    a->registered = b->registered = true;
    struct core_events ignored = {.reply = -1};
    world_player_attach(w, b, 0, &ignored);
    world_player_attach(w, guest, 0, &ignored);
    char id[CHALLENGE_ID_LEN + 1];
    /* By default: rated between accounts with a clock. */
    struct game *g = start(w, a, b, blitz, 0);
    CHECK(g && g->rated);
    /* Casual on request. */
    struct core_cmd seek = {.type = CORE_CMD_SEEK_CREATE, .tc = blitz, .casual = true};
    CHECK_EQ_INT(world_apply(w, a, &seek, 0, &ev), 0);
    strcpy(id, created_id());
    CHECK(ev.items[ev.reply].seek.casual && !ev.items[ev.reply].seek.rated_required);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_SEEK_ACCEPT, id, NULL, 0), 0);
    const struct core_event *started = find_event(CORE_EV_GAME_STARTED);
    CHECK(started && !started->game->rated);
    /* Rated or nothing: not from a guest, not without a clock. */
    struct core_cmd rated = {.type = CORE_CMD_SEEK_CREATE, .tc = blitz, .rated_required = true};
    CHECK_EQ_INT(world_apply(w, guest, &rated, 0, &ev), -CORE_ERR_RATED_UNAVAILABLE);
    struct core_cmd untimed = rated;
    untimed.tc = (struct time_control){.unlimited = true};
    CHECK_EQ_INT(world_apply(w, a, &untimed, 0, &ev), -CORE_ERR_RATED_UNAVAILABLE);
    /* An account's rated seek: a guest may not accept it (it stays open), an account may. */
    CHECK_EQ_INT(world_apply(w, a, &rated, 0, &ev), 0);
    strcpy(id, created_id());
    CHECK(ev.items[ev.reply].seek.rated_required);
    CHECK_EQ_INT(apply(w, guest, CORE_CMD_SEEK_ACCEPT, id, NULL, 0), -CORE_ERR_RATED_UNAVAILABLE);
    CHECK(world_seek(w, id) != NULL);
    CHECK_EQ_INT(apply(w, b, CORE_CMD_SEEK_ACCEPT, id, NULL, 0), 0);
    started = find_event(CORE_EV_GAME_STARTED);
    CHECK(started && started->game->rated);
    /* A direct challenge that must be rated, to a guest: refused at once. */
    struct core_cmd challenge = {.type = CORE_CMD_CHALLENGE_CREATE,
                                 .tc = blitz,
                                 .opponent = guest->id,
                                 .rated_required = true};
    CHECK_EQ_INT(world_apply(w, a, &challenge, 0, &ev), -CORE_ERR_RATED_UNAVAILABLE);
    challenge.opponent = b->id;
    CHECK_EQ_INT(world_apply(w, a, &challenge, 0, &ev), 0);
    CHECK(ev.items[ev.reply].seek.rated);
    core_events_free(&ignored);
    world_destroy(w);
}

/* Guests away with nothing left in memory are forgotten after guest_purge_ms; a game (live or
 * kept), a challenge addressed to them or an account keeps them. */
/* Quick pairing: joining (the reply), one pool at a time, refusals, a wave pairs by rating and
 * starts the games, leaving and disconnecting take a player out, no immediate rematch. */
static void test_pools(void) {
    struct world *w = make_world();
    struct player *p[5];
    for (int i = 0; i < 5; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", i);
        p[i] = world_player_create(w, name, 0);
        CHECK(p[i] != NULL);
        if (!p[i]) return;
        p[i]->registered = i < 4; /* P4 is a guest */
        world_player_attach(w, p[i], 0, &ev);
    }
    /* Ratings: P0 1500, P1 1520, P2 1900, P3 1910 (blitz). */
    int ratings[4] = {1500, 1520, 1900, 1910};
    for (int i = 0; i < 4; i++) p[i]->ratings[RATING_BLITZ].rating = ratings[i];
    struct time_control three_two = {.initial_ms = 180000, .increment_ms = 2000};
    struct core_cmd join = {.type = CORE_CMD_POOL_JOIN, .tc = three_two, .rated_required = true};
    CHECK_EQ_INT(world_apply(w, p[0], &join, 0, &ev), 0);
    const struct core_event *joined = find_event(CORE_EV_POOL_JOINED);
    CHECK(joined && joined->player == p[0] && joined->waiting == 1 && ev.reply == 0);
    CHECK(joined && joined->pool->rated);
    CHECK_EQ_INT(world_next_deadline(w), GCLOCK_NEVER); /* alone: no wave */
    /* Refusals: a guest in a rated pool, a time control that is no preset. */
    CHECK_EQ_INT(world_apply(w, p[4], &join, 0, &ev), -CORE_ERR_RATED_UNAVAILABLE);
    struct core_cmd odd = join;
    odd.tc.initial_ms = 240000;
    CHECK_EQ_INT(world_apply(w, p[1], &odd, 0, &ev), -CORE_ERR_NO_SUCH_POOL);
    /* P1 first waits in the casual pool, then moves to the rated one. */
    struct core_cmd casual = join;
    casual.rated_required = false;
    CHECK_EQ_INT(world_apply(w, p[1], &casual, 100, &ev), 0);
    CHECK_EQ_INT(world_apply(w, p[1], &join, 200, &ev), 0);
    joined = find_event(CORE_EV_POOL_JOINED);
    CHECK(joined && joined->waiting == 2);
    CHECK_EQ_INT(world_apply(w, p[2], &join, 300, &ev), 0);
    CHECK_EQ_INT(world_apply(w, p[3], &join, 400, &ev), 0);
    int64_t wave = world_next_deadline(w);
    CHECK_EQ_INT(wave, 200 + POOL_WAVE_MS);
    /* The wave: P0-P1 and P2-P3, rated games. */
    world_tick(w, wave, &ev);
    int started = 0;
    for (int i = 0; i < ev.count; i++) started += ev.items[i].type == CORE_EV_GAME_STARTED;
    CHECK_EQ_INT(started, 2);
    for (int i = 0; i < ev.count; i++) {
        const struct core_event *e = &ev.items[i];
        if (e->type != CORE_EV_GAME_STARTED) continue;
        struct player *wh = e->game->players[CHESS_WHITE], *bl = e->game->players[CHESS_BLACK];
        CHECK(e->game->rated);
        CHECK(((wh == p[0] || wh == p[1]) && (bl == p[0] || bl == p[1])) ||
              ((wh == p[2] || wh == p[3]) && (bl == p[2] || bl == p[3])));
        CHECK(!wh->pooled && !bl->pooled && wh->color_bias == 1 && bl->color_bias == -1);
    }
    CHECK_EQ_INT(world_next_deadline(w) >= wave + 1000, 1);
    /* Leaving, and disconnecting, take a player out. */
    CHECK_EQ_INT(world_apply(w, p[4], &casual, 5000, &ev), 0);
    CHECK(p[4]->pooled);
    CHECK_EQ_INT(apply(w, p[4], CORE_CMD_POOL_LEAVE, NULL, NULL, 5000), 0);
    CHECK(!p[4]->pooled && find_event(CORE_EV_POOL_LEFT) != NULL);
    CHECK_EQ_INT(world_apply(w, p[4], &casual, 5000, &ev), 0);
    world_player_detach(w, p[4], 5100, &ev);
    CHECK(!p[4]->pooled);
    world_destroy(w);
}

static void test_guest_purge(void) {
    struct world_config cfg;
    world_config_defaults(&cfg);
    cfg.random = splitmix_random;
    cfg.random_ctx = &seed;
    cfg.max_finished_games = 1;
    cfg.guest_purge_ms = 1000;
    struct world *w = world_create(&cfg);
    struct core_events ignored = {.reply = -1};
    struct player *a = world_player_create(w, "Ann", 0), *b = world_player_create(w, "Ben", 0);
    struct player *c = world_player_create(w, "Cid", 0), *d = world_player_create(w, "Dee", 0);
    struct player *e = world_player_create(w, "Eve", 0);
    struct player *p[] = {a, b, c, d, e};
    for (int i = 0; i < 5; i++) world_player_attach(w, p[i], 0, &ignored);
    d->registered = true;
    char a_id[PLAYER_ID_LEN + 1], a_token[PLAYER_TOKEN_LEN + 1], b_id[PLAYER_ID_LEN + 1];
    strcpy(a_id, a->id);
    strcpy(a_token, a->token);
    strcpy(b_id, b->id);

    /* Nothing left: forgotten at the deadline, not before; back online cancels it. */
    world_player_detach(w, a, 100, &ignored);
    CHECK_EQ_INT((int)world_next_deadline(w), 1100);
    world_tick(w, 1099, &ignored);
    CHECK(world_player_by_id(w, a_id) == a);
    world_tick(w, 1100, &ignored);
    CHECK(world_player_by_id(w, a_id) == NULL);
    CHECK(world_player_by_token(w, a_token) == NULL);
    world_player_detach(w, e, 1100, &ignored);
    world_player_attach(w, e, 1500, &ignored);
    world_tick(w, 5000, &ignored);
    CHECK(world_player_by_id(w, e->id) == e);

    /* In a game: kept while it is live and while the ended game is kept in memory. */
    struct game *g = start(w, b, c, blitz, 2000);
    world_player_detach(w, b, 3000, &ignored);
    world_tick(w, 4000, &ignored);
    CHECK(world_player_by_id(w, b_id) == b);
    CHECK_EQ_INT(apply(w, c, CORE_CMD_RESIGN, g ? g->id : "", NULL, 4500), 0);
    world_tick(w, 5000, &ignored);
    CHECK(world_player_by_id(w, b_id) == b);
    /* Another game's end pushes b's game out of memory: b goes at its next check. */
    struct game *g2 = start(w, c, d, blitz, 5000);
    CHECK_EQ_INT(apply(w, c, CORE_CMD_RESIGN, g2 ? g2->id : "", NULL, 5100), 0);
    world_tick(w, 6000, &ignored);
    CHECK(world_player_by_id(w, b_id) == NULL);

    /* A challenge addressed to an away guest keeps it; an account is never forgotten. */
    struct core_cmd challenge = {.type = CORE_CMD_CHALLENGE_CREATE, .tc = blitz, .opponent = e->id};
    CHECK_EQ_INT(world_apply(w, c, &challenge, 7000, &ev), 0);
    world_player_detach(w, e, 7000, &ignored);
    world_player_detach(w, d, 7000, &ignored);
    world_tick(w, 100000, &ignored);
    CHECK(world_player_by_id(w, e->id) == e);
    CHECK(world_player_by_id(w, d->id) == d);
    struct world_stats st;
    world_stats(w, &st);
    CHECK_EQ_INT((int)st.guests_forgotten_total, 2);
    core_events_free(&ignored);
    world_destroy(w);
}

int main(void) {
    RUN(test_players);
    RUN(test_rated_or_casual);
    RUN(test_direct_challenge);
    RUN(test_seek_to_mate);
    RUN(test_seek_rules);
    RUN(test_computer_games);
    RUN(test_variant_starts);
    RUN(test_challenge_and_seek_expiry);
    RUN(test_flag_by_timer);
    RUN(test_late_move_sees_flag_first);
    RUN(test_give_time);
    RUN(test_offers_takeback_rematch);
    RUN(test_presence_and_abandon);
    RUN(test_unlimited_game_is_never_abandoned);
    RUN(test_chat);
    RUN(test_first_move_abort_and_retention);
    RUN(test_guest_purge);
    RUN(test_pools);
    core_events_free(&ev);
    return check_finish();
}
