"""
Arena tournaments against the real server (docs/tournaments.md, docs/protocol.md "Arena
tournaments"): 40 accounts play a 5-minute arena at 1+0 with random legal moves (a quarter of
their games berserk) to its end, and the server's final standings and podium are what the
archive's games give when scored independently; the error paths with their stable codes.

CHESS_ARENA_MINUTES shortens the tournament for a quick local run (the registered test plays the
issue's 5 minutes).
"""
import asyncio
import os
import time

from arena_harness import (BULLET, Bot, account, archive_rows, arena_players, compare,
                           recompute, watch_until)
from harness import start_game
from persist_harness import run_data_dir_tests

MINUTES = int(os.environ.get("CHESS_ARENA_MINUTES", "5"))
PLAYERS = 40


async def test_forty_players_to_the_end(data):
    srv = data.start()
    creator = await account(srv, "director")
    created = await creator.ok({"type": "arena_create", "name": "Hourly Bullet Arena",
                                "time": BULLET, "minutes": MINUTES, "starts_in": 8})
    arena = created["arena"]
    assert arena["status"] == "created" and arena["creator"] == creator.player["id"], arena
    assert arena["ends"] - arena["starts"] == MINUTES * 60000, arena
    aid = arena["id"]
    t0 = time.monotonic()
    bots = []
    for i in range(PLAYERS):
        c = await account(srv, "arena%02d" % i)
        joined = await c.ok({"type": "arena_join", "arena": aid})
        assert joined["arena"]["me"]["player"]["id"] == c.player["id"], joined
        bots.append(Bot(c, seed=i))
    print("%d accounts registered and joined in %.1f s" % (PLAYERS, time.monotonic() - t0))
    listed = await creator.ok({"type": "arena_list"})
    assert [a["id"] for a in listed["arenas"]] == [aid] and listed["arenas"][0]["players"] == 40
    watcher = await srv.player("Watcher")
    for b in bots:
        b.start()
    final = await watch_until(watcher, aid, "finished", MINUTES * 60 + 90)
    elapsed = time.monotonic() - t0
    for b in bots:
        await b.stop()
    # The archive, scored independently, gives the same standings.
    rows = archive_rows(data, aid)
    expected = recompute(rows, arena_players(data, aid))
    state = await watcher.ok({"type": "arena_watch", "arena": aid})
    compare(expected, state["arena"]["standings"])
    compare(expected, final["standings"])
    assert [p["player"]["id"] for p in final["podium"]] == [e["id"] for e in expected[:3]]
    # Every game of the arena was rated and recorded, none is left in progress.
    assert not data.query("SELECT id FROM games WHERE arena_id = ? AND status = 'live'", (aid,))
    assert data.query("SELECT count(*) FROM games WHERE arena_id = ? AND rated = 0", (aid,)) \
        == [(0,)]
    games = len(rows)
    berserks = sum(r[4] + r[5] for r in rows)
    fire = sum(1 for e in expected for k in range(2, len(e["sheet"]))
               if e["sheet"][k] >= 4)
    assert games >= PLAYERS, games
    print("%d games (%d berserk sides, %d games on fire), %.0f s from creation to the podium; "
          "winner %s with %d points" % (games, berserks, fire, elapsed, expected[0]["id"],
                                        expected[0]["score"]))
    # The PGN names the tournament, as lichess does.
    gid = rows[0][0]
    status, _, body = srv.http("/game/export/%s" % gid)
    assert status == 200 and b'[Event "Hourly Bullet Arena"]' in body, body[:300]
    await srv.close_clients()
    assert srv.stop() == 0


async def test_errors(data):
    srv = data.start()
    guest = await srv.player("Guest")
    ann = await account(srv, "ann")
    bob = await account(srv, "bob")
    create = {"type": "arena_create", "name": "Test Arena", "time": BULLET, "minutes": 30,
              "starts_in": 3600}
    await guest.error(create, "ARENA_NEEDS_ACCOUNT")
    for bad in ({"name": "A"}, {"name": "Tab\tin name"}, {"name": "x" * 31},
                {"time": "unlimited"}, {"time": {"days": 1}}):
        await ann.error(dict(create, **bad), "ARENA_BAD_SETTINGS")
    for bad in ({"minutes": 0}, {"minutes": 721}, {"starts_in": -1}, {"starts_in": 604801},
                {"name": ""}):
        await ann.error(dict(create, **bad), "BAD_FIELD")
    ids = [(await ann.ok(create))["arena"]["id"] for _ in range(3)]
    await ann.error(create, "TOO_MANY_ARENAS")
    for kind in ("arena_join", "arena_withdraw", "arena_watch"):
        await ann.error({"type": kind, "arena": "nosuchid"}, "ARENA_NOT_FOUND")
    await guest.error({"type": "arena_join", "arena": ids[0]}, "ARENA_NEEDS_ACCOUNT")
    await bob.error({"type": "arena_withdraw", "arena": ids[0]}, "ARENA_NOT_JOINED")
    joined = await bob.ok({"type": "arena_join", "arena": ids[0]})
    assert joined["arena"]["players"] == 1 and joined["arena"]["status"] == "created", joined
    left = await bob.ok({"type": "arena_withdraw", "arena": ids[0]})
    assert left["arena"]["me"].get("withdrawn") is True, left
    # The guest may list and watch.
    listed = await guest.ok({"type": "arena_list"})
    assert [a["id"] for a in listed["arenas"]] == ids
    watched = await guest.ok({"type": "arena_watch", "arena": ids[0]})
    assert watched["arena"]["players"] == 1 and "me" not in watched["arena"], watched
    assert (await guest.ok({"type": "arena_unwatch", "arena": ids[0]}))["type"] == "ok"
    # Berserk: not outside an arena game, not by a spectator, not after one's first move.
    gid = await start_game(ann, bob, BULLET)
    await ann.error({"type": "arena_berserk", "game": gid}, "BERSERK_NOT_ALLOWED")
    await guest.error({"type": "arena_berserk", "game": gid}, "NOT_A_PLAYER")
    await guest.error({"type": "arena_berserk", "game": "nosuchgm"}, "GAME_NOT_FOUND")
    await ann.ok({"type": "resign", "game": gid})
    # An arena starting now: ann and bob are paired at once; bob berserks before his first move,
    # not twice, and not after it.
    quick = (await bob.ok(dict(create, name="Quick Arena", starts_in=0)))["arena"]["id"]
    await ann.ok({"type": "arena_join", "arena": quick})
    await bob.ok({"type": "arena_join", "arena": quick})
    started = await ann.recv_type("game_started", timeout=5)
    g = started["game"]
    assert g["rated"] is True and g["time"] == BULLET, g
    white, black = (ann, bob) if g["white"]["id"] == ann.player["id"] else (bob, ann)
    berserk = await black.ok({"type": "arena_berserk", "game": g["id"]})
    assert berserk["type"] == "berserk" and berserk["color"] == "black", berserk
    assert berserk["clock"]["black"] == 30000 and berserk["clock"]["white"] == 60000, berserk
    await black.error({"type": "arena_berserk", "game": g["id"]}, "BERSERK_NOT_ALLOWED")
    await white.move(g["id"], "e4")
    await black.move(g["id"], "e5")
    await white.error({"type": "arena_berserk", "game": g["id"]}, "BERSERK_NOT_ALLOWED")
    assert data.query("SELECT arena_id, berserk_white, berserk_black FROM games WHERE id = ?",
                      (g["id"],)) == [(quick, 0, 1)]
    state = await white.ok({"type": "arena_watch", "arena": quick})
    assert state["arena"]["me"]["playing"] is True and state["arena"]["game"] == g["id"], state
    await srv.close_clients()
    assert srv.stop() == 0


async def test_schedule(data):
    # Bad schedules stop the start with exit status 2.
    for bad in ("weekly:1+0:57", "hourly:1+0:61", "hourly@60:1+0:30", "daily@2460:3+0:60",
                "hourly:0+0:30", "hourly:1+0", "hourly:1+0:57,x"):
        status, out = data.run_binary("--arena-schedule", bad)
        assert status == 2 and "arena-schedule" in out, (bad, status, out)
    # An hourly bullet arena a few minutes from now, and a daily blitz one too far ahead.
    now = time.gmtime()
    minute = (now.tm_min + 3) % 60
    later = (now.tm_hour + 2) % 24 * 100 + now.tm_min
    schedule = "hourly@%d:1+0:30,daily@%04d:3+2:120" % (minute, later)
    srv = data.start("--arena-schedule", schedule)
    guest = await srv.player("Guest")
    for _ in range(2):
        arenas = []
        for _ in range(40):
            arenas = (await guest.ok({"type": "arena_list"}))["arenas"]
            if arenas:
                break
            await asyncio.sleep(0.1)
        assert len(arenas) == 1, arenas
        a = arenas[0]
        assert a["name"] == "Hourly Bullet Arena" and a["creator"] is None, a
        assert a["time"] == BULLET and a["minutes"] == 30 and a["rated"] is True, a
        starts = time.gmtime(a["starts"] // 1000)
        assert starts.tm_min == minute and starts.tm_sec == 0 and a["starts"] % 1000 == 0, a
        assert 0 < a["starts"] / 1000 - time.time() <= 3600, a
        # Restarted: the same arena comes back, none is created twice.
        await srv.close_clients()
        assert srv.stop() == 0
        srv = data.start("--arena-schedule", schedule)
        guest = await srv.player("Guest")
        await asyncio.sleep(1.5)
    await srv.close_clients()
    assert srv.stop() == 0


if __name__ == "__main__":
    run_data_dir_tests(globals(), timeout=MINUTES * 60 + 200)
