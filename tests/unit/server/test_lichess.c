/* Tests of lichess's JSON shapes made from our protocol's messages (app/lichess.h). */
#include <string.h>

#include "app/lichess.h"
#include "check.h"
#include "store/read.h"

static json_t *parse(const char *text) {
    json_error_t err;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &err);
    if (!v) fprintf(stderr, "bad test JSON: %s\n", err.text);
    return v;
}

static const char *str(const json_t *obj, const char *key) {
    const char *s = json_string_value(json_object_get(obj, key));
    return s ? s : "(none)";
}

static void test_speeds(void) {
    /* initial + 40 increments, as the server's rating categories count them. */
    static const struct {
        const char *time;
        const char *speed, *perf;
    } cases[] = {
        {"{\"minutes\": 0.25, \"increment\": 0}", "ultraBullet", "UltraBullet"},
        {"{\"minutes\": 1, \"increment\": 0}", "bullet", "Bullet"},
        {"{\"minutes\": 2, \"increment\": 1}", "bullet", "Bullet"}, /* 120 + 40 s */
        {"{\"minutes\": 3, \"increment\": 0}", "blitz", "Blitz"},
        {"{\"minutes\": 5, \"increment\": 3}", "blitz", "Blitz"},
        {"{\"minutes\": 10, \"increment\": 0}", "rapid", "Rapid"},
        {"{\"minutes\": 15, \"increment\": 10}", "rapid", "Rapid"},
        {"{\"minutes\": 30, \"increment\": 0}", "classical", "Classical"},
        {"\"unlimited\"", "correspondence", "Correspondence"},
        {"{\"days\": 3}", "correspondence", "Correspondence"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *t = parse(cases[i].time);
        CHECK_EQ_STR(lichess_speed(t), cases[i].speed);
        CHECK_EQ_STR(lichess_perf_name(NULL, t), cases[i].perf);
        CHECK_EQ_STR(lichess_perf_name("standard", t), cases[i].perf);
        CHECK_EQ_STR(lichess_perf_name("fromPosition", t), cases[i].perf);
        CHECK_EQ_STR(lichess_perf_name("chess960", t), "Chess960");
        CHECK_EQ_STR(lichess_perf_name("threeCheck", t), "Three-check");
        CHECK_EQ_STR(lichess_perf_name("kingOfTheHill", t), "King of the Hill");
        json_decref(t);
    }
}

static void test_players_and_status(void) {
    json_t *bot = parse("{\"id\": \"x1\", \"name\": \"RandBot\", \"bot\": true, \"rating\": 1612}");
    json_t *p = lichess_player(bot);
    CHECK_EQ_STR(str(p, "id"), "randbot");
    CHECK_EQ_STR(str(p, "name"), "RandBot");
    CHECK_EQ_STR(str(p, "title"), "BOT");
    CHECK(json_integer_value(json_object_get(p, "rating")) == 1612);
    json_decref(p);
    json_decref(bot);
    json_t *computer = parse("{\"id\": \"computer-3\", \"name\": \"Computer\", \"computer\": 3}");
    p = lichess_player(computer);
    CHECK(json_integer_value(json_object_get(p, "aiLevel")) == 3);
    CHECK(json_object_get(p, "name") == NULL);
    json_decref(p);
    json_decref(computer);
    static const char *const reasons[][2] = {
        {"checkmate", "mate"},
        {"resignation", "resign"},
        {"stalemate", "stalemate"},
        {"timeout", "outoftime"},
        {"aborted", "aborted"},
        {"abandoned", "timeout"},
        {"agreement", "draw"},
        {"fifty_moves", "draw"},
        {"timeout_vs_insufficient", "outoftime"},
    };
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        json_t *g = json_pack("{s:s}", "reason", reasons[i][0]);
        CHECK_EQ_STR(lichess_status(g), reasons[i][1]);
        json_decref(g);
    }
    json_t *playing = parse("{\"status\": \"playing\"}");
    CHECK_EQ_STR(lichess_status(playing), "started");
    json_decref(playing);
    CHECK(lichess_status_id("started") == 20 && lichess_status_id("mate") == 30);
    CHECK(lichess_status_id("outoftime") == 35 && lichess_status_id("nonsense") == 38);
}

static json_t *sample_game(void) {
    return parse(
        "{\"id\": \"G1\", \"white\": {\"id\": \"w1\", \"name\": \"Ann\", \"rating\": 1500},"
        " \"black\": {\"id\": \"b1\", \"name\": \"Bot\", \"bot\": true},"
        " \"time\": {\"minutes\": 3, \"increment\": 2}, \"status\": \"playing\", \"rated\": false,"
        " \"created\": 1795261299184,"
        " \"initial_fen\": \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\","
        " \"moves\": [], \"san\": [], \"ply\": 0, \"fen\": \"start\", \"turn\": \"white\","
        " \"clock\": {\"white\": 180000, \"black\": 180000},"
        " \"offers\": {\"draw\": null, \"takeback\": null, \"rematch\": null}}");
}

static void test_game_stream(void) {
    json_t *g = sample_game();
    json_t *full = lichess_game_full(g);
    CHECK_EQ_STR(str(full, "type"), "gameFull");
    CHECK_EQ_STR(str(full, "initialFen"), "startpos");
    CHECK_EQ_STR(str(full, "speed"), "blitz");
    CHECK(json_integer_value(json_object_get(json_object_get(full, "clock"), "initial")) == 180000);
    CHECK(json_integer_value(json_object_get(json_object_get(full, "clock"), "increment")) == 2000);
    CHECK(json_integer_value(json_object_get(full, "createdAt")) == 1795261299184LL);
    CHECK_EQ_STR(str(json_object_get(full, "black"), "title"), "BOT");
    CHECK_EQ_STR(str(json_object_get(full, "state"), "moves"), "");
    json_decref(full);
    /* Moves, a draw offer that lapses with the opponent's move, a takeback, the end. */
    json_t *e1 = parse("{\"type\": \"move\", \"game\": \"G1\", \"uci\": \"e2e4\", \"san\": \"e4\","
                       " \"fen\": \"f1\", \"turn\": \"black\", \"ply\": 1,"
                       " \"clock\": {\"white\": 181000, \"black\": 180000}}");
    json_t *offer =
        parse("{\"type\": \"offer\", \"game\": \"G1\", \"kind\": \"draw\", \"by\": \"white\"}");
    json_t *e2 = parse("{\"type\": \"move\", \"game\": \"G1\", \"uci\": \"e7e5\", \"san\": \"e5\","
                       " \"fen\": \"f2\", \"turn\": \"white\", \"ply\": 2,"
                       " \"clock\": {\"white\": 181000, \"black\": 179000}}");
    json_t *other = parse("{\"type\": \"move\", \"game\": \"OTHER\", \"uci\": \"a2a3\"}");
    CHECK(lichess_apply(g, e1));
    CHECK(lichess_apply(g, offer));
    json_t *s = lichess_game_state(g);
    CHECK(json_is_true(json_object_get(s, "wdraw")) && !json_object_get(s, "bdraw"));
    json_decref(s);
    CHECK(lichess_apply(g, e2));
    CHECK(!lichess_apply(g, other));
    s = lichess_game_state(g);
    CHECK_EQ_STR(str(s, "moves"), "e2e4 e7e5");
    CHECK(json_integer_value(json_object_get(s, "wtime")) == 181000);
    CHECK(json_integer_value(json_object_get(s, "btime")) == 179000);
    CHECK(json_integer_value(json_object_get(s, "winc")) == 2000);
    CHECK(!json_object_get(s, "wdraw")); /* black moved instead of answering */
    CHECK_EQ_STR(str(s, "status"), "started");
    json_decref(s);
    /* Time given to White shows in the next gameState. */
    json_t *given = parse("{\"type\": \"time_given\", \"game\": \"G1\", \"to\": \"white\","
                          " \"ms\": 15000, \"clock\": {\"white\": 195000, \"black\": 179000}}");
    CHECK(lichess_apply(g, given));
    s = lichess_game_state(g);
    CHECK(json_integer_value(json_object_get(s, "wtime")) == 195000);
    json_decref(s);
    json_t *tb = parse("{\"type\": \"takeback\", \"game\": \"G1\", \"undone\": 2, \"ply\": 0,"
                       " \"fen\": \"f0\", \"turn\": \"white\", \"clock\": null}");
    CHECK(lichess_apply(g, tb));
    s = lichess_game_state(g);
    CHECK_EQ_STR(str(s, "moves"), "");
    CHECK(json_integer_value(json_object_get(s, "wtime")) == LICHESS_NO_CLOCK_MS);
    json_decref(s);
    json_t *end = parse("{\"type\": \"game_end\", \"game\": \"G1\", \"result\": \"0-1\","
                        " \"reason\": \"resignation\", \"winner\": \"black\", \"clock\": null}");
    CHECK(lichess_apply(g, end));
    s = lichess_game_state(g);
    CHECK_EQ_STR(str(s, "status"), "resign");
    CHECK_EQ_STR(str(s, "winner"), "black");
    json_decref(s);
    /* The rating history: a point a day (the day's last), months from 0. */
    struct store_rating_point points[] = {
        {RATING_BLITZ, 1796000000000LL, 1510}, /* 2026-11-30 */
        {RATING_BLITZ, 1796000000000LL + 60000, 1522},
        {RATING_BULLET, 1796100000000LL, 1480}, /* 2026-12-01 */
        {RATING_BLITZ, 1796100000000LL + 1000, 1531},
        {RATING_CHESS960, 1796100000000LL + 2000, 1466},
    };
    json_t *history = lichess_rating_history(points, 5);
    CHECK(json_array_size(history) == RATING_CATEGORY_COUNT);
    char *text = json_dumps(history, JSON_COMPACT);
    CHECK_EQ_STR(text ? text : "",
                 "[{\"name\":\"Bullet\",\"points\":[[2026,11,1,1480]]},{\"name\":\"Blitz\","
                 "\"points\":[[2026,10,30,1522],[2026,11,1,1531]]},{\"name\":\"Rapid\","
                 "\"points\":[]},{\"name\":\"Classical\",\"points\":[]},"
                 "{\"name\":\"Correspondence\",\"points\":[]},{\"name\":\"Chess960\","
                 "\"points\":[[2026,11,1,1466]]},{\"name\":\"King of the Hill\",\"points\":[]},"
                 "{\"name\":\"Three-check\",\"points\":[]}]");
    free(text);
    json_decref(history);
    /* The event stream's view for each player. */
    json_t *ev = lichess_game_event(g, "b1");
    CHECK_EQ_STR(str(ev, "color"), "black");
    CHECK_EQ_STR(str(json_object_get(ev, "status"), "name"), "resign");
    CHECK_EQ_STR(str(json_object_get(ev, "opponent"), "username"), "Ann");
    CHECK(json_integer_value(json_object_get(json_object_get(ev, "opponent"), "rating")) == 1500);
    CHECK(json_is_false(json_object_get(ev, "isMyTurn")));
    json_decref(ev);
    CHECK(lichess_game_event(g, "stranger") == NULL);
    json_t *chat = parse("{\"type\": \"chat\", \"game\": \"G1\", \"room\": \"spectators\","
                         " \"from\": {\"id\": \"x\", \"name\": \"Zed\"}, \"text\": \"hi\"}");
    json_t *line = lichess_chat_line(chat);
    CHECK_EQ_STR(str(line, "room"), "spectator");
    CHECK_EQ_STR(str(line, "username"), "Zed");
    json_decref(line);
    json_decref(chat);
    json_decref(end);
    json_decref(tb);
    json_decref(given);
    json_decref(other);
    json_decref(e2);
    json_decref(offer);
    json_decref(e1);
    json_decref(g);
}

/* An arena game: its tournament's id in gameFull and gameStart (source "arena"); a berserk
 * shows in the next gameState, with no increment for that side. */
static void test_arena_game(void) {
    json_t *g = sample_game();
    json_object_set_new(g, "arena", parse("{\"id\": \"Tz7kQ2pX\", \"name\": \"Friday\"}"));
    json_t *full = lichess_game_full(g);
    CHECK_EQ_STR(str(full, "tournamentId"), "Tz7kQ2pX");
    json_decref(full);
    json_t *ev = lichess_game_event(g, "b1");
    CHECK_EQ_STR(str(ev, "source"), "arena");
    CHECK_EQ_STR(str(ev, "tournamentId"), "Tz7kQ2pX");
    json_decref(ev);
    json_t *berserk = parse("{\"type\": \"berserk\", \"game\": \"G1\", \"v\": 1, \"color\":"
                            " \"black\", \"clock\": {\"white\": 180000, \"black\": 90000}}");
    CHECK(lichess_apply(g, berserk));
    json_t *s = lichess_game_state(g);
    CHECK(json_is_true(json_object_get(s, "bberserk")) && !json_object_get(s, "wberserk"));
    CHECK(json_integer_value(json_object_get(s, "btime")) == 90000);
    CHECK(json_integer_value(json_object_get(s, "binc")) == 0);
    CHECK(json_integer_value(json_object_get(s, "winc")) == 2000);
    json_decref(s);
    json_decref(berserk);
    json_object_del(g, "arena");
    ev = lichess_game_event(g, "b1");
    CHECK_EQ_STR(str(ev, "source"), "friend");
    CHECK(!json_object_get(ev, "tournamentId"));
    json_decref(ev);
    json_decref(g);
}

static void test_challenges(void) {
    json_t *c = parse("{\"id\": \"C1\", \"player\": {\"id\": \"a\", \"name\": \"Ann\"},"
                      " \"to\": {\"id\": \"b\", \"name\": \"Bot\", \"bot\": true},"
                      " \"time\": {\"minutes\": 0.5, \"increment\": 0}, \"color\": \"random\","
                      " \"final_color\": \"black\", \"rated\": true}");
    json_t *l = lichess_challenge(c, "http://example.org", NULL);
    CHECK_EQ_STR(str(l, "url"), "http://example.org/challenge/C1");
    CHECK_EQ_STR(str(l, "status"), "created");
    CHECK_EQ_STR(str(l, "finalColor"), "black");
    CHECK_EQ_STR(str(json_object_get(l, "timeControl"), "show"), "0.5+0");
    CHECK(json_integer_value(json_object_get(json_object_get(l, "timeControl"), "limit")) == 30);
    CHECK(json_is_true(json_object_get(l, "rated")));
    CHECK_EQ_STR(str(json_object_get(l, "destUser"), "title"), "BOT");
    json_decref(l);
    json_t *removed = parse("{\"type\": \"challenge_removed\", \"challenge\": \"C1\","
                            " \"reason\": \"declined\", \"decline_reason\": \"time_control\"}");
    l = lichess_challenge(c, "http://example.org", removed);
    CHECK_EQ_STR(str(l, "status"), "declined");
    CHECK_EQ_STR(str(l, "declineReasonKey"), "timeControl");
    CHECK(strstr(str(l, "declineReason"), "time control") != NULL);
    json_decref(l);
    json_decref(removed);
    json_t *nameless = parse("{\"player\": {\"id\": \"a\", \"name\": \"Ann\"}}");
    CHECK(lichess_challenge(nameless, "", NULL) == NULL);
    json_decref(nameless);
    json_decref(c);
}

static void test_stored_game(void) {
    struct store_move_row moves[3] = {
        {.ply = 1, .uci = "e2e4", .san = "e4", .played_at = 1000},
        {.ply = 2, .uci = "e7e5", .san = "e5", .played_at = 2000},
        {.ply = 3, .uci = "d1h5", .san = "Qh5", .played_at = 3000},
    };
    struct store_game g = {
        .id = "G2",
        .name = {"Ann", "Bot"},
        .bot = {false, true},
        .initial_ms = 60000,
        .increment_ms = 0,
        .rated = true,
        .has_ratings = true,
        .rating = {1500, 1600},
        .rating_diff = {-8, 8},
        .result = "0-1",
        .termination = "timeout",
        .created_at = 500,
        .ended_at = 9000,
        .ply_count = 3,
        .moves = moves,
    };
    json_t *j = lichess_stored_game(&g);
    CHECK_EQ_STR(str(j, "moves"), "e4 e5 Qh5");
    CHECK_EQ_STR(str(j, "status"), "outoftime");
    CHECK_EQ_STR(str(j, "winner"), "black");
    CHECK_EQ_STR(str(j, "speed"), "bullet");
    json_t *black = json_object_get(json_object_get(j, "players"), "black");
    CHECK(json_integer_value(json_object_get(black, "ratingDiff")) == 8);
    CHECK_EQ_STR(str(json_object_get(black, "user"), "title"), "BOT");
    CHECK(json_integer_value(json_object_get(j, "lastMoveAt")) == 9000);
    CHECK(json_integer_value(json_object_get(json_object_get(j, "clock"), "totalTime")) == 60);
    json_decref(j);
}

int main(void) {
    RUN(test_speeds);
    RUN(test_players_and_status);
    RUN(test_game_stream);
    RUN(test_arena_game);
    RUN(test_challenges);
    RUN(test_stored_game);
    return check_finish();
}
