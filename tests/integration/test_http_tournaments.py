"""
lichess's arena tournament endpoints of the HTTP API (docs/http-api.md#arena-tournaments)
against the real server: an arena created over the API, a bot (bot:play) and a person
(tournament:write, board:play) join it over the API and play its games over the Bot and Board
APIs; one withdraws; the info, the list, the results (NDJSON) and the arenas a user created are
checked against the games played; and every refusal has lichess's status and a JSON error.
"""
import asyncio
import json
import time

from harness import *
from lichess_api import Api, ApiError
from persist_harness import run_data_dir_tests

GOOD = {"clockTime": "1", "clockIncrement": "0", "minutes": "1", "waitMinutes": "0"}


def run(fn, *args, **kw):
    """A blocking HTTP call off the event loop (the WebSocket clients keep reading)."""
    return asyncio.to_thread(fn, *args, **kw)


async def account_api(srv, name, scopes):
    """A registered account (connected) and an API client with a personal token of these scopes."""
    ws = await srv.player(name)
    await ws.ok({"type": "register", "username": name, "password": "password " + name})
    created = await ws.ok({"type": "api_token_create", "description": "test", "scopes": scopes})
    return ws, Api(srv.port, created["token"])


def ndjson(api, path, expect=200):
    status, headers, body = api.request("GET", path)
    assert status == expect, (path, status, body)
    if status != 200:
        return json.loads(body)
    assert headers["content-type"] == "application/x-ndjson", headers
    return [json.loads(line) for line in body.decode().splitlines() if line.strip()]


class Side:
    """A player of the arena over the API: its client, its route prefix, its event stream."""

    def __init__(self, api, prefix, name):
        self.api, self.prefix, self.name = api, prefix, name
        self.events = None

    async def move(self, gid, uci):
        r = await run(self.api.post, "/api/%s/game/%s/move/%s" % (self.prefix, gid, uci))
        assert r == {"ok": True}, r


async def next_game(a, b, tid):
    """The next game of a and b in arena tid (their gameStart lines): (id, white, black)."""
    ga = (await run(a.events.next_type, "gameStart", 15))["game"]
    gb = (await run(b.events.next_type, "gameStart", 15))["game"]
    assert ga["gameId"] == gb["gameId"] and ga["color"] != gb["color"], (ga, gb)
    for g in (ga, gb):
        assert g["source"] == "arena" and g["tournamentId"] == tid and g["rated"] is False, g
    assert ga["opponent"]["username"] == b.name, ga
    return (ga["gameId"],) + ((a, b) if ga["color"] == "white" else (b, a))


async def finished(side, gid):
    fin = await run(side.events.next_type, "gameFinish", 15)
    assert fin["game"]["gameId"] == gid, fin
    return fin["game"]


async def test_arena_over_the_api(data):
    """On SQLite, or on PostgreSQL under tests/harness/pg_cluster.sh (persist_harness.py)."""
    srv = data.start()
    try:
        await arena_over_the_api(srv)
    finally:
        await srv.close_clients()
    assert srv.stop() == 0, "the server's exit status after SIGTERM"


async def arena_over_the_api(srv):
    _, host = await account_api(srv, "Host", "tournament:write")
    anon = Api(srv.port)
    # The form's refusals: lichess's 400 with a JSON error, before anything is created.
    bad_forms = [
        {"clockIncrement": "0", "minutes": "1"},               # no clockTime
        dict(GOOD, clockTime="x"), dict(GOOD, clockTime="-1"), dict(GOOD, clockTime="181"),
        dict(GOOD, clockIncrement="1.5"), dict(GOOD, clockIncrement="181"),
        dict(GOOD, clockTime="0", clockIncrement="0"),          # no clock at all
        dict(GOOD, minutes="0"), dict(GOOD, minutes="721"), {"clockTime": "1", "clockIncrement": "0"},
        dict(GOOD, waitMinutes="-1"), dict(GOOD, variant="atomic"),
        dict(GOOD, name="x"),                                   # the world's bounds: 2 to 30 bytes
        dict(GOOD, name="N" * 31),
        dict(GOOD, startDate=str(int(time.time() * 1000) + 8 * 86400 * 1000)),
    ]
    for form in bad_forms:
        r = await run(host.post, "/api/tournament", form=form, expect=400)
        assert isinstance(r["error"], str) and r["error"], (form, r)
    assert (await run(anon.get, "/api/tournament"))["created"] == []
    # No token: 401; a token without tournament:write: 403.
    assert await run(anon.post, "/api/tournament", form=GOOD, expect=401) == {"error": "Missing token"}
    _, board_only = await account_api(srv, "Plain", "board:play")
    r = await run(board_only.post, "/api/tournament", form=GOOD, expect=403)
    assert r == {"error": "Missing scope: tournament:write"}, r

    # Created, to start at once (waitMinutes=0), for one minute (the shortest arena).
    t = await run(host.post, "/api/tournament",
                  form=dict(GOOD, name="Api Test", rated="false"))
    tid = t["id"]
    assert t["fullName"] == "Api Test Arena" and t["createdBy"] == "host", t
    assert t["system"] == "arena" and t["minutes"] == 1 and t["rated"] is False, t
    assert t["clock"] == {"limit": 60, "increment": 0} and t["variant"] == "standard", t
    assert t["perf"]["key"] == "bullet" and t["nbPlayers"] == 0 and t["isFinished"] is False, t
    assert t["status"] in (10, 20) and t["standing"] == {"page": 1, "players": []}, t
    assert t["startsAt"].endswith("Z") and t["berserkable"] is True, t
    created = await run(ndjson, anon, "/api/user/HOST/tournament/created")
    assert [c["id"] for c in created] == [tid], created
    assert created[0]["variant"]["key"] == "standard" and created[0]["finishesAt"] - created[0]["startsAt"] == 60000, created
    assert await run(ndjson, anon, "/api/user/nobody/tournament/created", 404) == {"error": "No such user"}
    assert await run(ndjson, anon, "/api/user/plain/tournament/created") == []

    # Unknown ids: 404 everywhere.
    assert await run(anon.get, "/api/tournament/NoSuchId", expect=404) == {"error": "No such tournament"}
    assert await run(ndjson, anon, "/api/tournament/NoSuchId/results", 404) == {"error": "No such tournament"}
    await run(host.post, "/api/tournament/NoSuchId/join", expect=404)
    await run(host.post, "/api/tournament/NoSuchId/withdraw", expect=404)
    # Joining needs tournament:write (or a bot's bot:play); withdrawing without having joined: 400.
    r = await run(board_only.post, "/api/tournament/%s/join" % tid, expect=403)
    assert r["error"].startswith("Missing scope: tournament:write"), r
    await run(anon.post, "/api/tournament/%s/join" % tid, expect=401)
    r = await run(host.post, "/api/tournament/%s/withdraw" % tid, expect=400)
    assert r == {"error": "You are not in this tournament"}, r

    # A bot (its bot:play token) and a person (tournament:write and board:play) join.
    _, bot_token, _ = await bot_account(srv, "Owner", "ArenaBot")
    bot = Side(Api(srv.port, bot_token), "bot", "ArenaBot")
    _, person_api = await account_api(srv, "Pat", "tournament:write,board:play")
    person = Side(person_api, "board", "Pat")
    for side in (bot, person):
        side.events = await run(side.api.stream, "/api/stream/event")
    for side in (bot, person):
        assert await run(side.api.post, "/api/tournament/%s/join" % tid) == {"ok": True}
    wins = {"ArenaBot": [], "Pat": []}  # each game's points, in order

    # Game 1: White is mated (fool's mate).
    gid1, white, black = await next_game(bot, person, tid)
    for i, mv in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
        await (white if i % 2 == 0 else black).move(gid1, mv)
    g = await finished(white, gid1)
    assert g["status"]["name"] == "mate" and g["winner"] == "black", g
    await finished(black, gid1)
    wins[white.name].append(0)
    wins[black.name].append(2)
    status, _, pgn = await run(anon.request, "GET", "/game/export/" + gid1)
    assert status == 200 and b"Api Test" in pgn, pgn

    # Game 2, paired at once: the person goes berserk (Board API) before its first move; the
    # info shows the game among its duels; the bot withdraws meanwhile (the game goes on and
    # counts); White resigns after a move each.
    gid2, white, black = await next_game(bot, person, tid)
    assert await run(person.api.post, "/api/board/game/%s/berserk" % gid2) == {"ok": True}
    r = await run(person.api.post, "/api/board/game/%s/berserk" % gid2, expect=400)
    assert r["error"], r
    stream = await run(person.api.stream, "/api/board/game/stream/" + gid2)
    full = await run(stream.next_type, "gameFull")
    me = "w" if white is person else "b"
    assert full["tournamentId"] == tid and full["state"][me + "berserk"] is True, full
    assert full["state"][me + "time"] == 30000 and full["state"][me + "inc"] == 0, full
    stream.close()
    info = await run(anon.get, "/api/tournament/" + tid)
    assert info["isStarted"] is True and info["status"] == 20 and "secondsToFinish" in info, info
    assert info["nbPlayers"] == 2 and [d["id"] for d in info["duels"]] == [gid2], info
    assert [p["n"] for p in info["duels"][0]["p"]] == [white.name, black.name], info
    assert await run(bot.api.post, "/api/tournament/%s/withdraw" % tid) == {"ok": True}
    await white.move(gid2, "e2e4")
    await black.move(gid2, "e7e5")
    await run(white.api.post, "/api/%s/game/%s/resign" % (white.prefix, gid2))
    g = await finished(white, gid2)
    assert g["status"]["name"] == "resign" and g["winner"] == "black", g
    wins[white.name].append(0)
    wins[black.name].append(2)

    # While it runs: the list, and the standing with the bot withdrawn.
    current = await run(anon.get, "/api/tournament")
    assert [a["id"] for a in current["started"]] == [tid], current
    info = await run(anon.get, "/api/tournament/" + tid)
    by_name = {p["name"]: p for p in info["standing"]["players"]}
    assert by_name["ArenaBot"].get("withdraw") is True and "withdraw" not in by_name["Pat"], info
    assert by_name["ArenaBot"]["title"] == "BOT", info

    # The arena ends after its minute, and finishes (no game was left running).
    deadline = time.time() + 90
    while True:
        info = await run(anon.get, "/api/tournament/" + tid)
        if info["isFinished"]:
            break
        assert time.time() < deadline, info
        await asyncio.sleep(0.5)
    assert info["status"] == 30 and info["duels"] == [], info
    # Its games from the archive, oldest first: NDJSON (Accept) or PGN.
    status, headers, body = await run(anon.request, "GET", "/api/tournament/%s/games" % tid,
                                      headers={"Accept": "application/x-ndjson"})
    assert status == 200 and headers["content-type"] == "application/x-ndjson", (status, headers)
    games = [json.loads(line) for line in body.decode().splitlines() if line.strip()]
    assert [g["id"] for g in games] == [gid1, gid2], games
    assert [g["status"] for g in games] == ["mate", "resign"], games
    status, headers, pgn = await run(anon.request, "GET", "/api/tournament/%s/games" % tid)
    assert status == 200 and headers["content-type"] == "application/x-chess-pgn", headers
    assert pgn.count(b'[Event "Api Test') == 2 and gid2.encode() in pgn, pgn
    await run(anon.get, "/api/tournament/NoSuchId/games", expect=404)
    # The results, checked against the games: 2 a win, 1 a draw, 0 a loss (no streak of three).
    from_games = {"ArenaBot": [], "Pat": []}
    for g in games:
        for color in ("white", "black"):
            name = g["players"][color]["user"]["name"]
            from_games[name].append(2 if g.get("winner") == color else 1 if "winner" not in g else 0)
    assert from_games == wins, (from_games, wins)
    scores = {name: sum(points) for name, points in wins.items()}
    results = await run(ndjson, anon, "/api/tournament/%s/results?sheet=true" % tid)
    assert [r["rank"] for r in results] == [1, 2], results
    assert sorted(r["username"] for r in results) == ["ArenaBot", "Pat"], results
    for r in results:
        assert r["score"] == scores[r["username"]], (r, scores)
        assert r["sheet"]["scores"] == "".join(str(p) for p in wins[r["username"]]), (r, wins)
        assert r["rating"] == 1500 and isinstance(r["performance"], int), r
    assert results[0]["score"] >= results[1]["score"], results
    assert ("title" in results[0]) == (results[0]["username"] == "ArenaBot"), results
    top = await run(ndjson, anon, "/api/tournament/%s/results?nb=1" % tid)
    assert top == [{k: v for k, v in results[0].items() if k != "sheet"}], (top, results)
    podium = info["podium"]
    assert [p["name"] for p in podium] == [r["username"] for r in results], podium
    assert podium[0]["nb"]["game"] == 2 and podium[0]["score"] == results[0]["score"], podium
    assert [p["score"] for p in info["standing"]["players"]] == [r["score"] for r in results], info
    person_place = next(p for p in podium if p["name"] == "Pat")
    assert person_place["nb"]["berserk"] == 1, podium
    current = await run(anon.get, "/api/tournament")
    assert [a["id"] for a in current["finished"]] == [tid] and current["started"] == [], current
    assert current["finished"][0]["winner"]["name"] == results[0]["username"], current
    # Joining after the end: 400.
    r = await run(person.api.post, "/api/tournament/%s/join" % tid, expect=400)
    assert r == {"error": "This tournament is finished"}, r
    # An account has at most 3 arenas not yet finished (--max-arenas): the 4th gets 429.
    _, busy = await account_api(srv, "Busy", "tournament:write")
    later = [await run(busy.post, "/api/tournament", form=dict(GOOD, waitMinutes="60", name="Later %d" % i))
             for i in range(3)]
    assert all(t["status"] == 10 and 3590 <= t["secondsToStart"] <= 3600 for t in later), later
    r = await run(busy.post, "/api/tournament", form=GOOD, expect=429)
    assert r == {"error": "You have created too many tournaments not yet finished"}, r
    created = await run(ndjson, anon, "/api/user/busy/tournament/created")
    assert [c["id"] for c in created] == [t["id"] for t in reversed(later)], created  # newest first
    current = await run(anon.get, "/api/tournament")
    assert [a["id"] for a in current["created"]] == [t["id"] for t in later], current
    for side in (bot, person):
        side.events.close()


if __name__ == "__main__":
    run_data_dir_tests(globals(), timeout=150)
