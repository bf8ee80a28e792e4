"""
Accounts, ratings and the archive (docs/persistence.md, docs/protocol.md): register (a guest
keeps its games), login and logout, the login rate limit, every error code of these messages,
rated games with Glicko-2 updates and the provisional flag, leaderboards, a player's games page
by page, stored games with their moves and clocks, PGN with %clk comments and ratings, the FEN
at any ply, a player's games as one PGN file, PGN import, over WebSocket and HTTP, before and
after a restart; a bot's tokens and its game in progress across a restart.
"""
import json

from harness import bot_account, play, start_game
from persist_harness import run_data_dir_tests

PASSWORD = "correct horse battery"


async def register(client, username, password=PASSWORD):
    return await client.ok({"type": "register", "username": username, "password": password})


async def login(srv, username, password=PASSWORD):
    c = await srv.connect()
    r = await c.ok({"type": "login", "username": username, "password": password})
    assert r["type"] == "session" and len(r["token"]) == 32, r
    await c.hello(token=r["token"])
    return c


def http_json(srv, path):
    status, _, body = srv.http(path)
    return status, json.loads(body)


async def test_register_keeps_games_and_survives_restart(data):
    srv = data.start()
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await play(gid, a, b, ["e4", "e5"])
    await a.ok({"type": "resign", "game": gid})
    r = await register(a, "Annabel")
    assert r["type"] == "registered"
    assert r["player"] == {"id": a.player["id"], "name": "Annabel", "registered": True,
                           "bot": False}
    [(username, pw)] = data.query("SELECT username, password_hash FROM players WHERE id = ?",
                                  (a.player["id"],))
    assert username == "annabel" and pw.startswith("$argon2id$")
    games = await a.ok({"type": "games_list", "player": a.player["id"]})
    assert [g["id"] for g in games["games"]] == [gid]
    await srv.close_clients()
    assert srv.stop() == 0
    srv2 = data.start()
    back = await srv2.player(token=a.token)  # the guest token still works
    assert back.player == {"id": a.player["id"], "name": "Annabel"}
    again = await login(srv2, "ANNABEL")  # usernames are not case-sensitive
    assert again.player["id"] == a.player["id"]
    await srv2.close_clients()
    assert srv2.stop() == 0


async def test_bot_survives_restart(data):
    """A bot's token is stored as a hash with its owner; after a restart the bot comes back with
    it to its game in progress, and a token revoked before the restart stays refused."""
    srv = data.start()
    owner, token, bot_id = await bot_account(srv, "Owner", "RestBot")
    spare = (await owner.ok({"type": "bot_token_create", "username": "RestBot"}))["token"]
    [(is_bot, owner_id, pw)] = data.query(
        "SELECT is_bot, owner_id, password_hash FROM players WHERE id = ?", (bot_id,))
    assert is_bot == 1 and owner_id == owner.player["id"] and pw is None
    kinds = data.query("SELECT kind, revoked_at FROM tokens WHERE player_id = ?", (bot_id,))
    assert kinds == [("bot", None), ("bot", None)], kinds
    bot = await srv.player(token=token)
    cid = (await owner.ok({"type": "challenge_create", "player": bot_id, "color": "white",
                           "time": {"minutes": 10, "increment": 0}}))["challenge"]["id"]
    gid = (await bot.ok({"type": "challenge_accept", "challenge": cid}))["game"]["id"]
    await owner.move(gid, "e4")
    await owner.ok({"type": "bot_token_revoke", "username": "RestBot"})
    spare = (await owner.ok({"type": "bot_token_create", "username": "RestBot"}))["token"]
    await srv.close_clients()
    assert srv.stop() == 0
    srv2 = data.start()
    c = await srv2.connect()
    await c.error({"type": "hello", "protocol": 1, "token": token}, "BAD_TOKEN")
    back = await srv2.player(token=spare)
    assert back.player == {"id": bot_id, "name": "RestBot", "bot": True}, back.player
    [game] = back.welcome["games"]
    assert game["id"] == gid and game["moves"] == ["e2e4"], game
    assert game["black"]["bot"] is True and "e7e5" in game["legal_moves"], game
    await back.move(gid, "e7e5")
    await srv2.close_clients()
    assert srv2.stop() == 0


async def test_account_errors(data):
    srv = data.start()
    a, b = await srv.player("Ann"), await srv.player("Ben")
    for bad in ["ab", "1abc", "abc_", "a__b", "Guestly", "x" * 21, "with space"]:
        await a.error({"type": "register", "username": bad, "password": PASSWORD},
                      "USERNAME_INVALID")
    await a.error({"type": "register", "username": "anna", "password": "short"},
                  "PASSWORD_INVALID")
    await register(a, "anna")
    await a.error({"type": "register", "username": "anna2", "password": PASSWORD},
                  "ALREADY_REGISTERED")
    await b.error({"type": "register", "username": "Anna", "password": PASSWORD},
                  "USERNAME_TAKEN")
    await b.error({"type": "register", "username": "anna"}, "BAD_FIELD")
    c = await srv.connect()
    await c.error({"type": "register", "username": "x", "password": PASSWORD},
                  "HELLO_REQUIRED")
    await c.error({"type": "login", "username": "anna", "password": "wrong password"},
                  "LOGIN_FAILED")
    await c.error({"type": "login", "username": "nobody", "password": PASSWORD},
                  "LOGIN_FAILED")
    await c.error({"type": "login", "username": "not valid!", "password": PASSWORD},
                  "LOGIN_FAILED")
    await c.error({"type": "player_get", "player": "nope"}, "HELLO_REQUIRED")
    await a.error({"type": "player_get", "player": "NoSuchPlayer"}, "PLAYER_NOT_FOUND")
    await a.error({"type": "player_get"}, "BAD_FIELD")
    await a.error({"type": "games_list", "player": "NoSuchPlayer"}, "PLAYER_NOT_FOUND")
    await a.error({"type": "game_record", "game": "NoSuchGm"}, "GAME_NOT_FOUND")
    await a.error({"type": "leaderboard", "category": "hyperbullet"}, "BAD_FIELD")
    await a.error({"type": "pgn_import", "pgn": "1. e4 e5 2. Ke3 *"}, "PGN_INVALID")
    await srv.close_clients()
    assert srv.stop() == 0


async def test_login_rate_limit(data):
    srv = data.start()
    a = await srv.player("Ann")
    await register(a, "carla")
    c = await srv.connect()
    codes = []
    for _ in range(7):
        r = await c.request({"type": "login", "username": "carla", "password": "guess guess"})
        codes.append(r.get("code"))
    assert codes[:5] == ["LOGIN_FAILED"] * 5, codes
    assert codes[5:] == ["LOGIN_RATE_LIMITED"] * 2, codes
    # Even the right password waits until the limit allows another attempt.
    await c.error({"type": "login", "username": "carla", "password": PASSWORD},
                  "LOGIN_RATE_LIMITED")
    # Another username from the same address is not blocked by this one.
    await c.error({"type": "login", "username": "dora", "password": PASSWORD}, "LOGIN_FAILED")
    await srv.close_clients()
    assert srv.stop() == 0


async def exhaust_logins(srv, forwarded_for):
    """Login attempts (each for another unknown user) from a connection that claims to come
    through a proxy for forwarded_for, until the per-address limit refuses one. Returns how many
    the limit allowed (its burst, plus what refilled while the passwords were checked)."""
    c = await srv.connect({"X-Forwarded-For": forwarded_for})
    for n in range(40):
        r = await c.request({"type": "login", "username": "nobody%d" % n, "password": PASSWORD})
        if r.get("code") == "LOGIN_RATE_LIMITED":
            return n
        assert r.get("code") == "LOGIN_FAILED", r
    raise AssertionError("no login limit per address after 40 attempts")


async def test_login_limit_per_client_behind_proxy(data):
    # Trusted (the test connects from 127.0.0.1): each forwarded client has its own limit.
    srv = data.start("--trusted-proxy", "10.0.0.0/8, 127.0.0.1")
    allowed = await exhaust_logins(srv, "203.0.113.1")
    assert allowed >= 5, allowed
    # A client cannot escape its limit by writing its own X-Forwarded-For entry to the left
    # (asked at once: the limit lets one more attempt through every few seconds).
    c = await srv.connect({"X-Forwarded-For": "192.0.2.9, 203.0.113.1"})
    await c.error({"type": "login", "username": "someone", "password": PASSWORD},
                  "LOGIN_RATE_LIMITED")
    # Nor by making the header long (more than any fixed buffer) and naming itself in X-Real-IP,
    # which a proxy that does not set it passes on: the rightmost entry still decides.
    padding = ", ".join("192.0.2.%d" % (i % 250) for i in range(100))
    c = await srv.connect({"X-Forwarded-For": padding + ", 203.0.113.1",
                           "X-Real-IP": "192.0.2.250"})
    await c.error({"type": "login", "username": "someone", "password": PASSWORD},
                  "LOGIN_RATE_LIMITED")
    # Two header lines read as one list (the client's line first, the proxy's appended).
    c = await srv.connect([("X-Forwarded-For", "192.0.2.9"), ("X-Forwarded-For", "203.0.113.1")])
    await c.error({"type": "login", "username": "someone", "password": PASSWORD},
                  "LOGIN_RATE_LIMITED")
    # Another client through the same proxy starts with its own full allowance (the counts
    # differ by the attempts refilled meanwhile).
    assert await exhaust_logins(srv, "198.51.100.1") >= 5
    await srv.close_clients()
    assert srv.stop() == 0
    # Not trusted: the header is ignored, every connection from 127.0.0.1 shares one limit.
    srv = data.start()
    assert await exhaust_logins(srv, "203.0.113.1") >= 5
    c = await srv.connect({"X-Forwarded-For": "198.51.100.1"})
    await c.error({"type": "login", "username": "someone", "password": PASSWORD},
                  "LOGIN_RATE_LIMITED")
    await srv.close_clients()
    assert srv.stop() == 0


async def test_logout(data):
    srv = data.start()
    a = await srv.player("Ann")
    await register(a, "emma")
    session = await login(srv, "emma")
    r = await session.ok({"type": "logout"})
    assert r["type"] == "logged_out"
    c = await srv.connect()
    await c.error({"type": "hello", "protocol": 1, "token": session.token}, "BAD_TOKEN")
    assert data.query("SELECT count(*) FROM tokens WHERE revoked_at IS NOT NULL") == [(1,)]
    # The other session (the first connection's token) still works.
    other = await srv.player(token=a.token)
    assert other.player["name"] == "emma"
    await srv.close_clients()
    assert srv.stop() == 0


async def rated_game(white, black, moves, finish):
    gid = await start_game(white, black, {"minutes": 3, "increment": 2})
    await play(gid, white, black, moves)
    return gid, await finish(gid)


async def test_rated_games_ratings_and_leaderboard(data):
    srv = data.start("--rate-limit", "1000", "--rate-burst", "1000")  # many games in a row
    a, b, g = await srv.player("Ann"), await srv.player("Ben"), await srv.player("Gus")
    await register(a, "fiona")
    await register(b, "greta")
    gid, end = await rated_game(a, b, ["f3", "e5", "g4", "Qh4#"],
                                lambda gid: b.recv_type("game_end"))
    assert end["result"] == "0-1" and end["reason"] == "checkmate"
    change = end["ratings"]
    assert change["white"]["before"] == 1500 and change["white"]["diff"] < 0, change
    assert change["black"]["after"] == 1500 + change["black"]["diff"] > 1500, change
    record = (await a.ok({"type": "game_record", "game": gid}))["game"]
    assert record["rated"] is True and record["category"] == "blitz"
    assert record["white"]["rating"] == 1500 and record["black"]["rating"] == 1500
    assert record["white"]["rating_diff"] < 0 < record["black"]["rating_diff"]
    assert record["san"] == ["f3", "e5", "g4", "Qh4#"] and record["ply"] == 4
    assert record["reason"] == "checkmate" and record["winner"] == "black"
    prof = (await a.ok({"type": "player_get", "player": b.player["id"]}))["player"]
    assert prof["username"] == "greta" and prof["registered"] is True
    blitz = prof["ratings"]["blitz"]
    assert blitz["games"] == 1 and blitz["rating"] > 1500 and blitz["provisional"] is True
    assert prof["ratings"]["bullet"] == {"rating": 1500, "deviation": 350, "games": 0,
                                         "provisional": True}
    # The rating after each rated game, for the profile's chart.
    [[ended_at, after]] = prof["rating_history"]["blitz"]
    assert after == change["black"]["after"] == blitz["rating"], prof
    assert list(prof["rating_history"]) == ["blitz"]
    # A guest's games are never rated.
    gid2, end2 = await rated_game(a, g, [], lambda gid: a.ok({"type": "resign", "game": gid}))
    assert "ratings" not in end2
    assert (await a.ok({"type": "game_record", "game": gid2}))["game"]["rated"] is False
    # Only settled ratings are on the board: play until Greta's is no longer provisional.
    board = await a.ok({"type": "leaderboard", "category": "blitz"})
    assert board["players"] == []
    for n in range(40):
        # Alternating results between equals say the most about both ratings.
        loser = a if n % 2 == 0 else b
        await rated_game(a, b, [], lambda gid: loser.ok({"type": "resign", "game": gid}))
        prof = (await a.ok({"type": "player_get", "username": "Greta"}))["player"]
        if not prof["ratings"]["blitz"]["provisional"]:
            break
    assert prof["ratings"]["blitz"]["provisional"] is False, prof
    history = prof["rating_history"]["blitz"]
    assert len(history) == prof["ratings"]["blitz"]["games"], prof
    assert history[-1][1] == prof["ratings"]["blitz"]["rating"], prof
    assert [t for t, _ in history] == sorted(t for t, _ in history) and history[0][0] == ended_at
    board = await a.ok({"type": "leaderboard", "category": "blitz", "limit": 5})
    assert board["players"][0]["id"] == b.player["id"], board
    assert board["players"][0]["rank"] == 1 and board["players"][0]["name"] == "greta"
    # lichess's rating history: a point a day per category, [year, month from 0, day, rating].
    status, body = http_json(srv, "/api/user/Greta/rating-history")
    assert status == 200 and [c["name"] for c in body] == [
        "Bullet", "Blitz", "Rapid", "Classical", "Correspondence", "Chess960", "King of the Hill",
        "Three-check"]
    days = body[1]["points"]  # all played today (or across one midnight): a point a day
    assert 1 <= len(days) <= 2 and days[-1][3] == history[-1][1], body
    assert body[0]["points"] == [], body
    assert http_json(srv, "/api/user/nobody/rating-history")[0] == 404
    status, body = http_json(srv, "/api/leaderboard/blitz")
    assert status == 200 and body["players"][0]["name"] == "greta"
    assert http_json(srv, "/api/leaderboard/hyper")[0] == 404
    # Ratings are in the database: a restart shows the same.
    await srv.close_clients()
    assert srv.stop() == 0
    srv2 = data.start()
    c = await srv2.player("Zed")
    again = (await c.ok({"type": "player_get", "username": "greta"}))["player"]
    assert again["ratings"] == prof["ratings"]
    assert again["rating_history"] == prof["rating_history"]
    await srv2.close_clients()
    assert srv2.stop() == 0


async def test_rated_or_casual(data):
    srv = data.start()
    a, b, g = await srv.player("Ann"), await srv.player("Ben"), await srv.player("Gus")
    await register(a, "hilda")
    await register(b, "irene")
    blitz = {"minutes": 3, "increment": 2}
    # "rated": false between two accounts: a casual game, ratings untouched.
    seek = (await a.ok({"type": "seek_create", "time": blitz, "rated": False}))["seek"]
    assert seek["casual"] is True
    started = await b.ok({"type": "seek_accept", "seek": seek["id"]})
    gid = started["game"]["id"]
    assert started["game"]["rated"] is False
    await a.ok({"type": "resign", "game": gid})
    end = await b.recv_type("game_end")
    assert "ratings" not in end, end
    record = (await a.ok({"type": "game_record", "game": gid}))["game"]
    assert record["rated"] is False and "rating" not in record["white"]
    prof = (await a.ok({"type": "player_get", "player": a.player["id"]}))["player"]
    assert prof["ratings"]["blitz"]["games"] == 0
    status, _, pgn = srv.http("/api/games/%s.pgn" % gid)
    assert status == 200 and b'[Event "Casual ' in pgn, pgn[:200]
    # "rated": true: a guest may neither create nor accept it; an account gets a rated game.
    await g.error({"type": "seek_create", "time": blitz, "rated": True}, "RATED_UNAVAILABLE")
    await a.error({"type": "seek_create", "time": "unlimited", "rated": True},
                  "RATED_UNAVAILABLE")
    await a.error({"type": "challenge_create", "time": blitz, "rated": True,
                   "player": g.player["id"]}, "RATED_UNAVAILABLE")
    seek = (await a.ok({"type": "seek_create", "time": blitz, "rated": True}))["seek"]
    assert seek["rated"] is True
    await g.error({"type": "seek_accept", "seek": seek["id"]}, "RATED_UNAVAILABLE")
    started = await b.ok({"type": "seek_accept", "seek": seek["id"]})
    assert started["game"]["rated"] is True
    await b.ok({"type": "resign", "game": started["game"]["id"]})
    end = await a.recv_type("game_end", game=started["game"]["id"])
    assert end["ratings"]["white"]["diff"] != 0 or end["ratings"]["black"]["diff"] != 0, end
    # Without "rated": rated between accounts, casual with a guest (as on lichess).
    gid = await start_game(a, g, blitz)
    assert (await a.ok({"type": "game_record", "game": gid}))["game"]["rated"] is False
    await srv.close_clients()
    assert srv.stop() == 0


async def test_archive_over_websocket_and_http(data):
    srv = data.start()
    a, b = await srv.player("Ann"), await srv.player("Ben")
    ids = []
    for n in range(3):
        gid = await start_game(a, b, {"minutes": 5, "increment": 3})
        await play(gid, a, b, ["d4", "d5", "c4"][: n + 1])
        await b.ok({"type": "resign", "game": gid})
        ids.append(gid)
    page1 = await a.ok({"type": "games_list", "player": a.player["id"], "limit": 2})
    assert [g["id"] for g in page1["games"]] == [ids[2], ids[1]] and page1["more"] is True
    page2 = await a.ok({"type": "games_list", "player": a.player["id"], "limit": 2, "page": 2})
    assert [g["id"] for g in page2["games"]] == [ids[0]] and page2["more"] is False
    summary = page2["games"][0]
    assert summary["status"] == "ended" and summary["result"] == "1-0"
    assert summary["white"]["name"] == "Ann" and summary["ply"] == 1
    assert summary["time"] == {"minutes": 5, "increment": 3}
    record = (await b.ok({"type": "game_record", "game": ids[2]}))["game"]
    assert record["moves"] == ["d2d4", "d7d5", "c2c4"] and len(record["clocks"]) == 3
    assert all(isinstance(ms, int) and ms > 290000 for ms in record["clocks"])
    assert record["fen"].startswith("rnbqkbnr/ppp1pppp/8/3p4/2PP4/")
    await srv.close_clients()
    assert srv.stop() == 0

    # After a restart the games are only in the database.
    srv2 = data.start()
    status, body = http_json(srv2, "/api/games/%s" % ids[2])
    assert status == 200 and body["san"] == ["d4", "d5", "c4"] and body["result"] == "1-0"
    status, _, pgn = srv2.http("/api/games/%s.pgn" % ids[2])
    pgn = pgn.decode()
    assert status == 200, pgn
    for tag in ['[White "Ann"]', '[Black "Ben"]', '[Result "1-0"]', '[TimeControl "300+3"]',
                '[Event "Casual Blitz game"]', '[GameId "%s"]' % ids[2]]:
        assert tag in pgn, (tag, pgn)
    assert "1. d4 { [%clk 0:05:00] } 1... d5 { [%clk 0:05:00] } 2. c4 { [%clk 0:05:0" in pgn, pgn
    status, body = http_json(srv2, "/api/games/%s/fen/2" % ids[2])
    assert status == 200 and body["fen"] == \
        "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2"
    assert http_json(srv2, "/api/games/%s/fen/9" % ids[2])[0] == 404
    assert http_json(srv2, "/api/games/NoSuchGm/fen/0")[0] == 404
    assert http_json(srv2, "/api/games/NoSuchGm")[0] == 404
    status, body = http_json(srv2, "/api/players/%s/games?limit=1&page=3" % a.player["id"])
    assert status == 200 and [g["id"] for g in body["games"]] == [ids[0]]
    status, _, all_pgn = srv2.http("/api/players/%s/games.pgn" % a.player["id"])
    all_pgn = all_pgn.decode()
    assert status == 200 and all_pgn.count("[Event ") == 3
    assert all_pgn.index(ids[0]) < all_pgn.index(ids[2])  # oldest first
    status, body = http_json(srv2, "/api/players/%s" % b.player["id"])
    assert status == 200 and body["name"] == "Ben" and body["registered"] is False
    status, body = http_json(srv2, "/api/players/NoSuchPlayer")
    assert status == 404 and body["code"] == "PLAYER_NOT_FOUND"
    assert http_json(srv2, "/api/users/nobody")[0] == 404
    await srv2.close_clients()
    assert srv2.stop() == 0


async def test_pgn_import(data):
    srv = data.start()
    a = await srv.player("Ann")
    text = ('[Event "Paris"]\n[White "Morphy"]\n[Black "Duke Karl"]\n[Result "1-0"]\n\n'
            '1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 '
            '8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 '
            '14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n')
    r = await a.ok({"type": "pgn_import", "pgn": text})
    assert r["type"] == "imported"
    record = (await a.ok({"type": "game_record", "game": r["game"]}))["game"]
    assert record["status"] == "imported" and record["ply"] == 33
    assert record["white"] == {"id": None, "name": "Morphy"} and record["result"] == "1-0"
    assert record["san"][-1] == "Rd8#"
    status, _, pgn = srv.http("/api/games/%s.pgn" % r["game"])
    assert status == 200 and "17. Rd8# 1-0" in pgn.decode() and "Imported game" in pgn.decode()
    await srv.close_clients()
    assert srv.stop() == 0


if __name__ == "__main__":
    run_data_dir_tests(globals())
