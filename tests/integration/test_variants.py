"""
Variants and starts (docs/protocol.md, "Variants") in the real server: a Chess960 game with both
sides castling king-takes-rook, across a restart; Three-check and King of the Hill games to
their own ends; a game from a position against the computer; the variant in the game state, the
archive, PGN and the lichess exports; every refusal with its code.
"""
import json

from persist_harness import run_data_dir_tests

MINUTES_5 = {"minutes": 5, "increment": 0}


async def variant_game(white, black, **start):
    """White challenges by link with this start, Black accepts; returns the game state."""
    created = await white.ok(dict({"type": "challenge_create", "time": MINUTES_5,
                                   "color": "white"}, **start))
    assert created["challenge"].get("variant", "standard") == start.get("variant", "standard")
    started = await black.ok({"type": "challenge_accept", "challenge": created["challenge"]["id"]})
    assert started["type"] == "game_started", started
    await white.recv_type("game_started")
    return started["game"]


async def play(game, white, black, moves):
    last = None
    for i, mv in enumerate(moves):
        last = await (white if i % 2 == 0 else black).move(game, mv)
    return last


async def test_chess960_castling_across_a_restart(data):
    srv = data.start()
    a, b = await srv.player("Ann"), await srv.player("Ben")
    # Array 518 is the usual one: castling is written king-takes-rook all the same.
    game = await variant_game(a, b, variant="chess960", position=518)
    assert game["variant"] == "chess960" and game["position"] == 518, game
    assert game["rated"] is False, game
    gid = game["id"]
    await play(gid, a, b, ["e4", "e5", "Nf3", "Nf6", "Bc4", "Bc5"])
    castled = await a.move(gid, "e1h1")
    assert castled["uci"] == "e1h1" and castled["san"] == "O-O", castled
    await srv.close_clients()
    assert srv.stop() == 0
    # Restored as Chess960: Black castles the same way, the game goes on to its end.
    srv = data.start()
    a, b = await srv.player(token=a.token), await srv.player(token=b.token)
    state = (await a.ok({"type": "watch", "game": gid}))["game"]
    assert state["variant"] == "chess960" and state["position"] == 518, state
    # The king's own square is read as castling too, where nothing else reads the same.
    castled = await b.move(gid, "e8g8")
    assert castled["uci"] == "e8h8" and castled["san"] == "O-O", castled
    await a.ok({"type": "resign", "game": gid})
    # Stored: the variant in the archive, and Chess960's tags in PGN.
    record = (await a.ok({"type": "game_record", "game": gid}))["game"]
    assert record["variant"] == "chess960" and record["position"] == 518, record
    status, _, body = srv.http("/api/games/%s.pgn" % gid)
    pgn = body.decode()
    assert status == 200 and '[Variant "Chess960"]' in pgn and '[SetUp "1"]' in pgn, pgn
    assert "O-O" in pgn, pgn
    [(variant,)] = data.query("SELECT variant FROM games WHERE id = ?", (gid,))
    assert variant == "chess960", variant
    # A drawn array for a seek without a position, and a new one for the rematch.
    game = await variant_game(a, b, variant="chess960")
    assert 0 <= game["position"] < 960, game
    await a.ok({"type": "resign", "game": game["id"]})
    await a.ok({"type": "rematch_offer", "game": game["id"]})
    rematch = await b.ok({"type": "rematch_accept", "game": game["id"]})
    assert rematch["type"] == "game_started" and rematch["game"]["variant"] == "chess960", rematch
    await srv.close_clients()
    assert srv.stop() == 0


async def test_three_check_and_king_of_the_hill(data):
    srv = data.start()
    a, b = await srv.player("Ann"), await srv.player("Ben")
    game = await variant_game(a, b, variant="threeCheck")
    assert game["variant"] == "threeCheck" and game["checks"] == {"white": 0, "black": 0}, game
    gid = game["id"]
    checked = await play(gid, a, b, ["e4", "e5", "Qh5", "Nc6", "Qxf7+", "Kxf7", "Bc4+"])
    # Every move event's FEN ends with the checks given; the side to move's dests are its
    # evasions.
    assert checked["fen"].endswith(" +2+0"), checked
    assert checked["dests"] == {"d7": ["d5"], "f7": ["f6", "g6", "e7", "e8"]}, checked
    await b.move(gid, "d5")
    last = await a.move(gid, "Bxd5+")
    assert last["fen"].endswith(" +3+0") and "dests" not in last, last
    end = await a.recv_type("game_end", game=gid)
    assert end["reason"] == "three_check" and end["winner"] == "white", end
    state = (await a.ok({"type": "watch", "game": gid}))["game"]
    assert state["checks"] == {"white": 3, "black": 0} and state["fen"].endswith(" +3+0"), state

    game = await variant_game(a, b, variant="kingOfTheHill")
    gid = game["id"]
    # Listed to watch with its variant.
    listed = (await a.ok({"type": "live_games"}))["games"]
    assert [g["variant"] for g in listed if g["id"] == gid] == ["kingOfTheHill"], listed
    await play(gid, a, b, ["e4", "d5", "Ke2", "dxe4", "Ke3", "Kd7", "Kxe4"])
    end = await a.recv_type("game_end", game=gid)
    assert end["reason"] == "king_of_the_hill" and end["winner"] == "white", end
    status, _, body = srv.http("/api/games/%s.pgn" % gid)
    assert '[Variant "King of the Hill"]' in body.decode(), body
    await srv.close_clients()
    assert srv.stop() == 0


async def test_from_position_against_the_computer(data):
    srv = data.start("--engine-workers", "1")
    a = await srv.player("Ann")
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    r = await a.ok({"type": "computer_play", "level": 1, "time": "unlimited", "color": "white",
                    "fen": fen})
    game = r["game"]
    assert game["variant"] == "fromPosition" and game["initial_fen"] == fen, game
    assert game["rated"] is False
    gid = game["id"]
    await a.move(gid, "e4")
    reply = await a.recv(lambda m: m.get("type") == "move" and m.get("ply") == 2, timeout=30,
                         what="the computer's reply")
    assert reply["turn"] == "white", reply  # the computer, Black, answered
    await a.ok({"type": "resign", "game": gid})
    status, _, body = srv.http("/api/games/%s.pgn" % gid)
    pgn = body.decode()
    assert '[Variant "From Position"]' in pgn and '[FEN "%s"]' % fen in pgn, pgn
    await srv.close_clients()
    assert srv.stop() == 0


async def test_http_api_challenges(data):
    srv = data.start("--engine-workers", "1")
    a = await srv.player("Ann")
    await a.ok({"type": "register", "username": "ann", "password": "password ann"})
    token = (await a.ok({"type": "api_token_create", "description": "variants",
                         "scopes": "challenge:write,board:play"}))["token"]
    # A Chess960 start named by its FEN (array 0), as lichess takes it.
    fen0 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    status, game = srv.post_json("/api/challenge/ai", token,
                                  {"level": "1", "variant": "chess960", "fen": fen0})
    assert status == 200 and game["variant"]["key"] == "chess960", (status, game)
    assert game["variant"]["short"] == "960" and game["fen"] == fen0, game
    status, game = srv.post_json("/api/challenge/ai", token,
                                  {"level": "1", "variant": "kingOfTheHill"})
    assert status == 200 and game["variant"]["name"] == "King of the Hill", (status, game)
    status, game = srv.post_json("/api/challenge/ai", token,
                                  {"level": "1", "fen": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"})
    assert status == 200 and game["variant"]["key"] == "fromPosition", (status, game)
    for form, words in (({"variant": "crazyhouse"}, "variant:"),
                        ({"variant": "chess960", "fen": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"},
                         "Chess960"),
                        ({"fen": "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"}, "over")):
        status, body = srv.post_json("/api/challenge/ai", token, dict(form, level="1"))
        assert status == 400 and words in body["error"], (form, status, body)
    await srv.close_clients()
    assert srv.stop() == 0


async def test_rated_variants(data):
    """Rated games of a variant change that variant's rating only; fromPosition is casual."""
    srv = data.start()
    a, b = await srv.player("Ann"), await srv.player("Ben")
    await a.ok({"type": "register", "username": "ann", "password": "password ann"})
    await b.ok({"type": "register", "username": "ben", "password": "password ben"})
    await a.error({"type": "challenge_create", "time": MINUTES_5, "rated": True,
                   "fen": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"}, "RATED_UNAVAILABLE")
    for variant, category in (("chess960", "chess960"), ("threeCheck", "threeCheck")):
        game = await variant_game(a, b, variant=variant, rated=True)
        assert game["rated"] is True, game
        await a.ok({"type": "resign", "game": game["id"]})
        end = await b.recv_type("game_end")
        assert end["ratings"]["black"]["diff"] > 0, end
        player = (await a.ok({"type": "player_get", "username": "ben"}))["player"]
        assert player["ratings"][category]["games"] == 1, player["ratings"]
        assert player["ratings"][category]["rating"] == end["ratings"]["black"]["after"], player
        assert player["ratings"]["blitz"]["games"] == 0, player["ratings"]
        board = await a.ok({"type": "leaderboard", "category": category})
        assert board["category"] == category, board
        record = (await a.ok({"type": "game_record", "game": game["id"]}))["game"]
        assert record["category"] == category and record["rated"] is True, record
    # The lichess API: perfs per variant, the game's perf, and the rating history's names.
    status, _, body = srv.http("/api/user/ben")
    perfs = json.loads(body)["perfs"]
    assert status == 200 and perfs["chess960"]["games"] == 1, perfs
    assert perfs["threeCheck"]["games"] == 1 and perfs["kingOfTheHill"]["games"] == 0, perfs
    status, _, body = srv.http("/api/user/ben/rating-history")
    names = {h["name"]: len(h["points"]) for h in json.loads(body)}
    assert names["Chess960"] == 1 and names["Three-check"] == 1 and names["Blitz"] == 0, names
    status, _, body = srv.http("/api/games/%s.pgn" % game["id"])
    assert b'[Event "Rated Three-check game"]' in body, body[:300]
    await srv.close_clients()
    assert srv.stop() == 0
    # Restored from the store after a restart, per category.
    srv = data.start()
    b = await srv.player(token=b.token)
    player = (await b.ok({"type": "player_get", "username": "ben"}))["player"]
    assert player["ratings"]["chess960"]["games"] == 1, player["ratings"]
    await srv.close_clients()
    assert srv.stop() == 0


async def test_pgn_import_of_variants(data):
    """An imported PGN's Variant tag makes the game's variant: its rules replay the moves, the
    archive and the PGN export say it, and a FEN with checks given keeps them."""
    srv = data.start()
    a = await srv.player("Ann")
    cases = (
        ('[Variant "Three-check"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 4. Bc4+ d5 5. Bxd5+ 1-0',
         "threeCheck", '[Variant "Three-check"]'),
        ('[Variant "King of the Hill"]\n\n1. e4 d5 2. Ke2 dxe4 3. Ke3 Kd7 4. Kxe4 1-0',
         "kingOfTheHill", '[Variant "King of the Hill"]'),
        ('[Variant "Three-check"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 +2+0"]\n\n'
         '1. Ra8+ 1-0', "threeCheck", '[FEN "4k3/8/8/8/8/8/8/R3K3 w Q - 1+3 0 1"]'),
    )
    for text, variant, tag in cases:
        gid = (await a.ok({"type": "pgn_import", "pgn": text}))["game"]
        record = (await a.ok({"type": "game_record", "game": gid}))["game"]
        assert record["variant"] == variant and record["result"] == "1-0", record
        status, _, body = srv.http("/api/games/%s.pgn" % gid)
        assert status == 200 and tag in body.decode(), body
        assert body.decode().count("[Variant ") == 1, body
    # Without the tag the same King of the Hill moves are a standard game that goes on.
    gid = (await a.ok({"type": "pgn_import",
                       "pgn": "1. e4 d5 2. Ke2 dxe4 3. Ke3 Kd7 4. Kxe4 *"}))["game"]
    record = (await a.ok({"type": "game_record", "game": gid}))["game"]
    assert record["variant"] == "standard", record
    await srv.close_clients()
    assert srv.stop() == 0


async def test_refusals(data):
    srv = data.start("--engine-workers", "1")
    a = await srv.player("Ann")
    base = {"type": "computer_play", "level": 1, "time": "unlimited"}
    await a.error(dict(base, fen="not a position"), "BAD_POSITION")
    await a.error(dict(base, fen="7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), "POSITION_OVER")
    await a.error(dict(base, fen="7k/8/6K1/8/8/8/8/8 w - - 0 1"), "POSITION_OVER")
    await a.error(dict(base, variant="fromPosition"), "BAD_POSITION")
    await a.error(dict(base, variant="threeCheck", fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"),
                  "BAD_POSITION")
    await a.error(dict(base, variant="crazyhouse"), "BAD_FIELD")
    await a.error(dict(base, variant="chess960", position=960), "BAD_FIELD")
    await a.error(dict(base, variant="chess960", position=-1), "BAD_FIELD")
    await a.error({"type": "seek_create", "time": MINUTES_5, "variant": "chess960",
                   "rated": True}, "RATED_UNAVAILABLE")
    # A seek shows its variant in the lobby.
    await a.ok({"type": "lobby_subscribe"})
    r = await a.ok({"type": "seek_create", "time": MINUTES_5, "variant": "kingOfTheHill"})
    assert r["seek"]["variant"] == "kingOfTheHill", r
    await srv.close_clients()
    assert srv.stop() == 0


if __name__ == "__main__":
    run_data_dir_tests(globals())
