"""
A node of the site dies and another takes its games over (docs/scaling.md, "When a node
dies"): three nodes, a game whose players are on two of them and whose owner is the third.

- The owner killed (SIGKILL) mid-game: the node with the lowest id takes the owner's lease and
  its game within a few seconds; the players play on without reloading (the one on the adopter
  plays a local game from then on, the other's node asks the adopter for its state); every
  acknowledged move is in the game; the time the owner was gone is charged to nobody; the old
  node started again holds a new lease and no games; the archive has the whole game.
- The owner frozen (SIGSTOP) long enough to lose its lease: its game is taken over and played
  on; let run again (SIGCONT), the old owner's first write is refused by the database (fencing)
  and it stops with exit status 12, having written nothing more.

Runs on the shared SQLite file and (server_integration_cluster_takeover_pg) on PostgreSQL.
"""
import asyncio
import signal
import time

from cluster_harness import *
from test_cluster_hosts import game_owned_by_a_third_node, move_seen


async def move_when_adopted(gid, mover, san, deadline_s=20):
    """Sends the move until the game's new owner applies it (OWNER_UNREACHABLE meanwhile).
    Returns (the reply, the seconds it took)."""
    began = time.time()
    while time.time() - began < deadline_s:
        reply = await mover.request({"type": "move", "game": gid, "move": san}, timeout=15)
        if reply.get("type") == "move":
            return reply, time.time() - began
        assert reply.get("code") in ("OWNER_UNREACHABLE", "GAME_NOT_FOUND"), reply
        await asyncio.sleep(0.1)
    raise AssertionError("the game was not adopted within %d s" % deadline_s)


async def test_owner_killed_its_game_adopted(site):
    (a, b, c), alice, bob, gid = await game_owned_by_a_third_node(site)  # owner: c
    acknowledged = []
    for i, san in enumerate(["e4", "e5", "Nf3"]):
        await move_seen(gid, alice if i % 2 == 0 else bob, bob if i % 2 == 0 else alice, san)
        acknowledged.append(san)
    before = (await bob.ok({"type": "watch", "game": gid}))["game"]
    black_left = before["clock"]["black"]
    c.proc.send_signal(signal.SIGKILL)
    c.proc.wait(10)
    c.log.close()
    # Bob (node b) plays on once node a (the lowest id) took the game over.
    reply, took = await move_when_adopted(gid, bob, "Nc6")
    print("the move was applied %.1f s after the owner's SIGKILL" % took)
    assert reply["ply"] == 4, reply
    acknowledged.append("Nc6")
    # Not charged for the time the owner was gone (a few seconds): under a second of thinking.
    assert reply["clock"]["black"] > black_left - 1500, (reply["clock"], black_left)
    seen = await alice.recv_type("move", ply=4)
    assert seen["san"] == "Nc6", seen
    assert "adopted" in a.read_log(), "node a should have adopted the game"
    await move_seen(gid, alice, bob, "Bc4")
    acknowledged.append("Bc4")
    await move_seen(gid, bob, alice, "Nf6")
    acknowledged.append("Nf6")
    state = (await bob.ok({"type": "watch", "game": gid}))["game"]
    assert state["san"] == acknowledged, (state["san"], acknowledged)
    # Node c started again: a new lease, and no games of its own (node a has it).
    c.start()
    await site.wait_joined(3, timeout=20)
    assert "restored 0 game(s)" in c.read_log(), c.read_log()[-2000:]
    carol = await c.player("Carol")
    watched = (await carol.ok({"type": "watch", "game": gid}))["game"]
    assert watched["san"] == acknowledged, watched
    await alice.ok({"type": "resign", "game": gid})
    end = await bob.recv_type("game_end", game=gid)
    assert end["reason"] == "resignation" and end["winner"] == "black", end
    status, _, body = b.http("/api/games/%s" % gid)
    record = json.loads(body)
    assert status == 200 and record["san"] == acknowledged, record


async def test_owner_frozen_is_fenced_after_its_game_was_adopted(site):
    (a, b, c), alice, bob, gid = await game_owned_by_a_third_node(site)  # owner: c
    acknowledged = []
    for i, san in enumerate(["d4", "d5"]):
        await move_seen(gid, alice if i % 2 == 0 else bob, bob if i % 2 == 0 else alice, san)
        acknowledged.append(san)
    c.proc.send_signal(signal.SIGSTOP)
    try:
        reply, took = await move_when_adopted(gid, alice, "c4")
        print("adopted %.1f s after the owner froze" % took)
        acknowledged.append("c4")
        await bob.recv_type("move", ply=3)
        await move_seen(gid, bob, alice, "e6")
        acknowledged.append("e6")
    finally:
        c.proc.send_signal(signal.SIGCONT)
    # Running again, node c renews its lease with its next transaction: refused, and it stops.
    rc = c.proc.wait(30)
    c.log.close()
    assert rc == 12, "exit status %s, expected 12 (fenced)" % rc
    assert "took this node's games over" in c.read_log(), c.read_log()[-3000:]
    await move_seen(gid, alice, bob, "Nc3")
    acknowledged.append("Nc3")
    state = (await bob.ok({"type": "watch", "game": gid}))["game"]
    assert state["san"] == acknowledged, (state["san"], acknowledged)
    status, _, body = a.http("/api/games/%s" % gid)
    assert status == 200 and json.loads(body)["san"] == acknowledged, body


if __name__ == "__main__":
    run_site_tests(globals())
