"""
Quick pairing pools (docs/protocol.md, pool_join) against the real server: 200 players waiting in
one pool are all paired within 3 waves, each pair by its ratings' closeness and with balanced
colours; a rated pool is for accounts; leaving and disconnecting leave the pool; the same two
players are not paired twice in a row while someone else waits.
"""
import asyncio
import time

from harness import *

THREE_TWO = {"minutes": 3, "increment": 2}


async def test_two_hundred_in_three_waves(srv):
    players = []
    for i in range(200):
        players.append(await srv.player("P%d" % i))
    t0 = time.monotonic()
    for p in players:
        await p.ok({"type": "pool_join", "time": THREE_TWO})
    joined = time.monotonic()
    games = {}
    for p in players:
        left = await p.recv_type("pool_left", timeout=10)
        started = await p.recv_type("game_started", timeout=10)
        g = started["game"]
        assert g["time"] == THREE_TWO and g["rated"] is False, g
        games.setdefault(g["id"], set()).add(p.player["id"])
    took = time.monotonic() - joined
    assert len(games) == 100 and all(len(v) == 2 for v in games.values()), len(games)
    # Waves come every 2 s (every half second while 30 or more wait): 3 waves end within
    # about 6 s of the last join.
    assert took < 3 * 2.0 + 1.5, "paired in %.1f s" % took
    print("200 players paired into 100 games %.1f s after the last join (%.1f s in all)"
          % (took, time.monotonic() - t0))


async def test_rated_pool_leaving_and_rematches(srv):
    guest = await srv.player("Guest")
    await guest.error({"type": "pool_join", "time": THREE_TWO, "rated": True}, "RATED_UNAVAILABLE")
    await guest.error({"type": "pool_join", "time": {"minutes": 4, "increment": 0}}, "NO_SUCH_POOL")
    await guest.error({"type": "pool_join", "time": "unlimited"}, "NO_SUCH_POOL")
    a = await srv.player("Ann")
    await a.ok({"type": "register", "username": "Ann", "password": "password ann"})
    b = await srv.player("Bea")
    await b.ok({"type": "register", "username": "Bea", "password": "password bea"})
    # Ann waits, leaves; her pool is empty again (Bea alone waits, nobody is paired).
    joined = await a.ok({"type": "pool_join", "time": THREE_TWO, "rated": True})
    assert joined == {"type": "pool_joined", "time": THREE_TWO, "rated": True, "waiting": 1,
                      "id": joined["id"]}, joined
    await a.ok({"type": "pool_leave"})
    await b.ok({"type": "pool_join", "time": THREE_TWO, "rated": True})
    await b.expect_none("game_started", wait=2.5)
    # Ann back: a rated game, colours drawn by their history (both new: the longer wait, Bea,
    # is White).
    await a.ok({"type": "pool_join", "time": THREE_TWO, "rated": True})
    started = await a.recv_type("game_started", timeout=5)
    g = started["game"]
    assert g["rated"] is True and g["white"]["name"] == "Bea", g
    await b.recv_type("game_started")
    await a.ok({"type": "resign", "game": g["id"]})
    # With a third waiting, Ann and Bea are not paired again; Cid plays one of them.
    c = await srv.player("Cid")
    await c.ok({"type": "register", "username": "Cid", "password": "password cid"})
    for p in (a, b, c):
        await p.ok({"type": "pool_join", "time": THREE_TWO, "rated": True})
    started = await c.recv_type("game_started", timeout=6)
    names = {started["game"]["white"]["name"], started["game"]["black"]["name"]}
    assert "Cid" in names and len(names & {"Ann", "Bea"}) == 1, names
    # A player whose connection closes leaves the pool: the one left waits alone.
    waiting = a if "Ann" not in names else b
    other = await srv.player("Dan")
    await other.ok({"type": "register", "username": "Dan", "password": "password dan"})
    await other.ok({"type": "pool_join", "time": THREE_TWO, "rated": True})
    await other.close()
    await waiting.expect_none("game_started", wait=2.5)


if __name__ == "__main__":
    run_tests(globals())
