"""
Accounts and ratings against the real server and its SQLite file (docs/protocol.md, "Ratings"
and "Accounts"): a rating's deviation grows with the time its player has not played (the profile,
the provisional mark, the leaderboard and the next rated game all use the grown one); password
changes, sessions listed and revoked, account deletion, and the operator's password reset from
the command line beside a running server, with every error code of these messages.
"""
import asyncio
import re
import subprocess
import time

from harness import TIMEOUT, bot_account, play, start_game
from persist_harness import run_data_dir_tests

PASSWORD = "correct horse battery"
DAY_MS = 86400000


async def register(client, username, password=PASSWORD):
    return await client.ok({"type": "register", "username": username, "password": password})


def set_rating(data, player_id, category, rating, deviation, updated_at, games=40):
    data.execute("INSERT INTO ratings (player_id, category, rating, deviation, volatility, games, "
                 "updated_at) VALUES (?, ?, ?, ?, 0.06, ?, ?) ON CONFLICT (player_id, category) "
                 "DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, "
                 "games = excluded.games, updated_at = excluded.updated_at",
                 (player_id, category, rating, deviation, games, updated_at))


async def test_deviation_grows_while_away(data):
    """Two settled blitz ratings (deviation 60) written into the database: one last played 400
    days ago, one 10 days ago. After a restart (the ratings are read from the store), the long-
    absent player is provisional with a deviation of about 113.6 and off the leaderboard; their
    next rated game starts from that deviation, so their rating moves about three times as much
    as the recent player's."""
    srv = data.start()
    a, b = await srv.player("Ann"), await srv.player("Ben")
    await register(a, "absent")
    await register(b, "recent")
    await srv.close_clients()
    assert srv.stop() == 0
    now = int(time.time() * 1000)
    set_rating(data, a.player["id"], "blitz", 1800, 60, now - 400 * DAY_MS)
    set_rating(data, b.player["id"], "blitz", 1700, 60, now - 10 * DAY_MS)

    srv = data.start()
    a, b = await srv.player(token=a.token), await srv.player(token=b.token)
    absent = (await b.ok({"type": "player_get", "username": "absent"}))["player"]["ratings"]
    recent = (await a.ok({"type": "player_get", "username": "recent"}))["player"]["ratings"]
    # 60 after 400 days: sqrt((60/173.7178)^2 + 0.06^2 * 400 * 0.21436) * 173.7178 = 113.65
    assert absent["blitz"] == {"rating": 1800, "deviation": 114, "games": 40,
                               "provisional": True}, absent
    # after 10 days: 61.91
    assert recent["blitz"] == {"rating": 1700, "deviation": 62, "games": 40,
                               "provisional": False}, recent
    assert absent["bullet"]["provisional"] is True  # never played: 350
    board = await a.ok({"type": "leaderboard", "category": "blitz"})
    assert [(p["name"], p["deviation"]) for p in board["players"]] == [("recent", 62)], board

    gid = await start_game(a, b, {"minutes": 3, "increment": 2})
    await b.ok({"type": "resign", "game": gid})
    end = await a.recv_type("game_end", game=gid)
    change = end["ratings"]
    assert change["white"]["before"] == 1800 and change["black"]["before"] == 1700, change
    gained, lost = change["white"]["diff"], -change["black"]["diff"]
    assert gained > 2.5 * lost > 0, change
    [(dev, updated)] = data.query("SELECT deviation, updated_at FROM ratings WHERE player_id = ? "
                                  "AND category = 'blitz'", (a.player["id"],))
    assert 100 < dev < 110 and updated >= now, (dev, updated)
    await srv.close_clients()
    assert srv.stop() == 0


async def login(srv, username, password=PASSWORD):
    """A connection that logged in and said hello with its new session token."""
    c = await srv.connect()
    r = await c.ok({"type": "login", "username": username, "password": password})
    await c.hello(token=r["token"])
    return c


async def ended(client):
    """The server told the connection its session ended (BAD_TOKEN without id) and closed it with
    1008."""
    m = await client.recv_type("error", code="BAD_TOKEN")
    assert "id" not in m, m
    await asyncio.wait_for(client.ws.wait_closed(), TIMEOUT)
    assert client.ws.close_code == 1008, (client.ws.close_code, client.ws.close_reason)


async def refused(srv, token):
    c = await srv.connect()
    await c.error({"type": "hello", "protocol": 1, "token": token}, "BAD_TOKEN")


async def still_open(client):
    assert (await client.request({"type": "ping"}))["type"] == "pong"


async def test_password_change(data):
    srv = data.start()
    a = await srv.player("Ann")
    await register(a, "paula")
    other = await login(srv, "paula")  # a second session
    guest = await srv.player("Gus")
    anonymous = await srv.connect()
    change = {"type": "password_change", "current": PASSWORD, "new": "battery staple horse"}
    await guest.error(change, "ACCOUNT_REQUIRED")
    await anonymous.error(change, "HELLO_REQUIRED")
    await a.error(dict(change, current="not my password"), "PASSWORD_MISMATCH")
    await a.error(dict(change, new="short"), "PASSWORD_INVALID")
    await a.error(dict(change, new="x" * 129), "PASSWORD_INVALID")
    await a.error({"type": "password_change", "current": PASSWORD}, "BAD_FIELD")
    r = await a.ok(change)
    assert r["type"] == "password_changed", r
    # The other session ends at once; this one stays.
    await ended(other)
    await refused(srv, other.token)
    await still_open(a)
    again = await srv.player(token=a.token)
    assert again.player["id"] == a.player["id"]
    c = await srv.connect()
    await c.error({"type": "login", "username": "paula", "password": PASSWORD}, "LOGIN_FAILED")
    await login(srv, "paula", "battery staple horse")
    [(revoked,)] = data.query("SELECT count(*) FROM tokens WHERE revoked_at IS NOT NULL")
    assert revoked == 1, revoked
    await srv.close_clients()
    assert srv.stop() == 0


async def test_password_attempts_are_limited(data):
    """Wrong current passwords count against the login limit of the account's username."""
    srv = data.start()
    a = await srv.player("Ann")
    await register(a, "quinn")
    codes = []
    for _ in range(6):
        r = await a.request({"type": "password_change", "current": "guess guess",
                             "new": "battery staple horse"})
        codes.append(r.get("code"))
    assert codes == ["PASSWORD_MISMATCH"] * 5 + ["LOGIN_RATE_LIMITED"], codes
    c = await srv.connect()
    await c.error({"type": "login", "username": "quinn", "password": PASSWORD},
                  "LOGIN_RATE_LIMITED")
    await srv.close_clients()
    assert srv.stop() == 0


async def test_sessions(data):
    srv = data.start()
    a = await srv.player("Ann")
    await register(a, "sara")
    b, c = await login(srv, "sara"), await login(srv, "sara")
    listed = (await a.ok({"type": "sessions_list"}))["sessions"]
    assert len(listed) == 3, listed
    assert all(re.fullmatch("[0-9a-f]{16}", s["id"]) for s in listed), listed
    assert [s["current"] for s in listed].count(True) == 1, listed
    mine = next(s for s in listed if s["current"])
    assert mine["last_seen_at"] is None  # said hello as a guest, before it was an account
    from_b = (await b.ok({"type": "sessions_list"}))["sessions"]
    b_id = next(s["id"] for s in from_b if s["current"])
    c_id = next(s["id"] for s in (await c.ok({"type": "sessions_list"}))["sessions"]
                if s["current"])
    assert {b_id, c_id, mine["id"]} == {s["id"] for s in listed}
    seen = next(s for s in listed if s["id"] == b_id)
    assert seen["last_seen_at"] >= seen["created_at"], seen  # its hello was recorded
    # Someone else's session, a made-up one, a malformed one; a guest.
    t = await srv.player("Tom")
    await register(t, "tina")
    await t.error({"type": "session_revoke", "session": b_id}, "SESSION_NOT_FOUND")
    await a.error({"type": "session_revoke", "session": "0000000000000000"}, "SESSION_NOT_FOUND")
    await a.error({"type": "session_revoke", "session": "zzzzzzzzzzzzzzzz"}, "SESSION_NOT_FOUND")
    await a.error({"type": "session_revoke", "session": b_id[:15]}, "BAD_FIELD")
    guest = await srv.player("Gus")
    for msg in ({"type": "sessions_list"}, {"type": "session_revoke", "session": b_id},
                {"type": "sessions_revoke_all"}):
        await guest.error(msg, "ACCOUNT_REQUIRED")
    anonymous = await srv.connect()
    await anonymous.error({"type": "sessions_list"}, "HELLO_REQUIRED")
    await still_open(b)  # nothing happened to it
    # One session, by its id (upper case works too).
    r = await a.ok({"type": "session_revoke", "session": b_id.upper()})
    assert r == {"type": "session_revoked", "session": b_id, "id": r["id"]}, r
    await ended(b)
    await refused(srv, b.token)
    await a.error({"type": "session_revoke", "session": b_id}, "SESSION_NOT_FOUND")  # gone
    await still_open(c)
    # Every other one.
    assert (await a.ok({"type": "sessions_revoke_all"}))["type"] == "sessions_revoked"
    await ended(c)
    await refused(srv, c.token)
    await still_open(a)
    assert [s["id"] for s in (await a.ok({"type": "sessions_list"}))["sessions"]] == [mine["id"]]
    # Its own: the reply, then the connection closes like the others.
    r = await a.request({"type": "session_revoke", "session": mine["id"]})
    assert r["type"] == "session_revoked", r
    await asyncio.wait_for(a.ws.wait_closed(), TIMEOUT)
    assert a.ws.close_code == 1008
    await refused(srv, a.token)
    await still_open(t)  # another account is not touched
    await srv.close_clients()
    assert srv.stop() == 0


async def test_account_delete(data):
    srv = data.start("--rate-limit", "1000", "--rate-burst", "1000")
    owner, bot_token, bot_id = await bot_account(srv, "Vera", "VeraBot")
    vera_id = owner.player["id"]
    other_session = await login(srv, "vera", "password Vera")
    bot = await srv.player(token=bot_token)
    w = await srv.player("Will")
    await register(w, "will")
    # A rated game with chat, ended; Vera's rating settled (as if after many games).
    gid = await start_game(owner, w, {"minutes": 3, "increment": 2})
    await play(gid, owner, w, ["e4", "e5"])
    await owner.ok({"type": "chat", "game": gid, "text": "good game"})
    await w.ok({"type": "resign", "game": gid})
    data.execute("UPDATE ratings SET deviation = 60 WHERE player_id = ?", (vera_id,))
    # While playing (Vera, or her bot): refused.
    live = await start_game(w, owner, {"minutes": 5, "increment": 0})
    delete = {"type": "account_delete", "password": "password Vera"}
    await owner.error(delete, "ACCOUNT_IN_GAME")
    await owner.ok({"type": "abort", "game": live})
    cid = (await w.ok({"type": "challenge_create", "player": bot_id,
                       "time": {"minutes": 5, "increment": 0}}))["challenge"]["id"]
    bot_game = (await bot.ok({"type": "challenge_accept", "challenge": cid}))["game"]["id"]
    await owner.error(delete, "ACCOUNT_IN_GAME")
    await bot.ok({"type": "abort", "game": bot_game})
    # Errors: a wrong password, a guest, someone who has not said hello.
    await owner.error(dict(delete, password="not my password"), "PASSWORD_MISMATCH")
    await owner.error({"type": "account_delete"}, "BAD_FIELD")
    guest = await srv.player("Gus")
    await guest.error(delete, "ACCOUNT_REQUIRED")
    await bot.error(delete, "ACCOUNT_REQUIRED")
    anonymous = await srv.connect()
    await anonymous.error(delete, "HELLO_REQUIRED")
    # Her open seek goes with her.
    await w.ok({"type": "lobby_subscribe"})
    seek = (await owner.ok({"type": "seek_create", "time": {"minutes": 3, "increment": 0}}))
    board = await w.ok({"type": "leaderboard", "category": "blitz"})
    assert vera_id in [p["id"] for p in board["players"]], board
    r = await owner.ok(delete)
    assert r["type"] == "account_deleted", r
    await w.recv_type("seek_removed", seek=seek["seek"]["id"])
    await asyncio.wait_for(owner.ws.wait_closed(), TIMEOUT)
    assert owner.ws.close_code == 1008
    await ended(other_session)
    await ended(bot)
    for token in (owner.token, other_session.token, bot_token):
        await refused(srv, token)
    # The archive keeps the games, anonymised; the profile and the ratings are gone.
    games = (await w.ok({"type": "games_list", "player": w.player["id"]}))["games"]
    assert {g["id"] for g in games} == {gid, live, bot_game}, games
    for g in games:
        side = g["white"] if g["black"]["id"] == w.player["id"] else g["black"]
        assert side["id"] is None and side["name"] == "[deleted]", g
    record = (await w.ok({"type": "game_record", "game": gid}))["game"]
    assert record["white"] == {"id": None, "name": "[deleted]", "rating": 1500,
                               "rating_diff": record["white"]["rating_diff"]}, record
    assert record["san"] == ["e4", "e5"] and record["result"] == "1-0"
    status, _, pgn = srv.http("/api/games/%s.pgn" % gid)
    assert status == 200 and b'[White "[deleted]"]' in pgn, pgn[:300]
    for who in ({"player": vera_id}, {"username": "vera"}, {"player": bot_id},
                {"username": "VeraBot"}):
        await w.error(dict({"type": "player_get"}, **who), "PLAYER_NOT_FOUND")
    await w.error({"type": "games_list", "player": vera_id}, "PLAYER_NOT_FOUND")
    board = await w.ok({"type": "leaderboard", "category": "blitz"})
    assert vera_id not in [p["id"] for p in board["players"]], board
    # The usernames stay reserved.
    c = await srv.connect()
    await c.error({"type": "login", "username": "vera", "password": "password Vera"},
                  "LOGIN_FAILED")
    newcomer = await srv.player("Newcomer")
    await newcomer.error({"type": "register", "username": "Vera", "password": PASSWORD},
                         "USERNAME_TAKEN")
    await w.error({"type": "bot_create", "username": "VeraBot"}, "USERNAME_TAKEN")
    # In the database: tombstones, revoked tokens, no ratings, anonymous chat.
    rows = data.query("SELECT id, name, username, password_hash, deleted_at IS NOT NULL "
                      "FROM players WHERE id IN (?, ?) ORDER BY is_bot", (vera_id, bot_id))
    assert rows == [(vera_id, "[deleted]", "vera", None, 1),
                    (bot_id, "[deleted]", "verabot", None, 1)], rows
    assert data.query("SELECT count(*) FROM tokens WHERE player_id IN (?, ?) AND revoked_at "
                      "IS NULL", (vera_id, bot_id)) == [(0,)]
    assert data.query("SELECT count(*) FROM ratings WHERE player_id IN (?, ?)",
                      (vera_id, bot_id)) == [(0,)]
    assert data.query("SELECT player_id, name, text FROM chat WHERE game_id = ?",
                      (gid,)) == [("", "[deleted]", "good game")]
    assert data.query("SELECT count(*) FROM games WHERE ? IN (white_id, black_id)",
                      (vera_id,)) == [(0,)]
    await still_open(w)
    await srv.close_clients()
    assert srv.stop() == 0


def reset(data, username, line):
    """chess_server --reset-password on the data directory, the line on its standard input:
    (exit status, standard output, standard error)."""
    p = subprocess.run([data.binary, "--reset-password", username] + data.store_args(),
                       input=line.encode(), capture_output=True, timeout=30)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


async def test_reset_password_from_the_command_line(data):
    """The operator resets a password beside the running server: the old password and every
    session stop working (an open connection stays until it closes; its token's next hello is
    refused); a generated password is printed and works."""
    srv = data.start()
    a = await srv.player("Ann")
    await register(a, "xena")
    b = await login(srv, "xena")
    status, out, err = reset(data, "Xena", "a brand new password\n")
    assert status == 0, (status, out, err)
    assert "xena" in out and "2 session(s) revoked" in out, out
    assert "brand new" not in out + err
    for token in (a.token, b.token):
        await refused(srv, token)
    c = await srv.connect()
    await c.error({"type": "login", "username": "xena", "password": PASSWORD}, "LOGIN_FAILED")
    await login(srv, "xena", "a brand new password")
    # An empty line: a generated password, printed.
    status, out, err = reset(data, "xena", "\n")
    assert status == 0, (status, out, err)
    generated = re.search(r"New password: ([A-Za-z0-9]{20})\n", out).group(1)
    await login(srv, "xena", generated)
    # Refusals change nothing: a password outside the rules, an unknown account, a guest, a
    # name that cannot be one, a directory without a database.
    assert reset(data, "xena", "short\n")[0] == 2
    assert reset(data, "xena", "y" * 200 + "\n")[0] == 2
    status, _, err = reset(data, "nobody", "a brand new password\n")
    assert status == 1 and "no account named nobody" in err, err
    assert reset(data, "Guest123", "a brand new password\n")[0] == 2
    assert reset(data, "not valid!", "a brand new password\n")[0] == 2
    p = subprocess.run([data.binary, "--reset-password", "xena", "--data-dir",
                        data.path + "/nothing-here"], input=b"a brand new password\n",
                       capture_output=True, timeout=30)
    assert p.returncode == 1 and b"no database" in p.stderr, p.stderr
    await login(srv, "xena", generated)
    await srv.close_clients()
    assert srv.stop() == 0


if __name__ == "__main__":
    run_data_dir_tests(globals())
