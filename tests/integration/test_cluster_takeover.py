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
- A computer game on the node that dies: its player comes back through another node before the
  adoption, gets the game's state when it is adopted, and the adopter's engine answers its move.
- A rolling restart: six games across the three nodes, each node stopped (SIGTERM) and started
  again in turn, its players connecting again; every game goes on (on its own node again, or on
  the node that adopted it) and ends with every move in the archive.

Runs on the shared SQLite file and (server_integration_cluster_takeover_pg) on PostgreSQL.
"""
import asyncio
import signal
import time

from cluster_harness import *
from test_cluster_hosts import game_owned_by_a_third_node, move_seen, play_alternately


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
    acknowledged = await play_alternately(gid, alice, bob, ["e4", "e5", "Nf3"])
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
    acknowledged = await play_alternately(gid, alice, bob, ["d4", "d5"])
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
    assert "lease was taken over by another node" in c.read_log(), c.read_log()[-3000:]
    await move_seen(gid, alice, bob, "Nc3")
    acknowledged.append("Nc3")
    state = (await bob.ok({"type": "watch", "game": gid}))["game"]
    assert state["san"] == acknowledged, (state["san"], acknowledged)
    status, _, body = a.http("/api/games/%s" % gid)
    assert status == 200 and json.loads(body)["san"] == acknowledged, body


async def test_computer_game_adopted_its_player_back_first(site):
    """A computer game on the node that dies, its player connected there: the player comes
    back through another node before the game is adopted (its hello finds no owner), gets the
    game's state once node a adopts it, plays on, and the computer (node a has an engine)
    answers."""
    a = site.node("a", "--engine-workers", "1")
    b = site.node("b")
    c = site.node("c", "--engine-workers", "1")
    await site.wait_joined(3)
    alice = await c.player("Alice")
    started = await alice.ok({"type": "computer_play", "level": 1, "color": "white",
                              "time": {"minutes": 10, "increment": 0}})
    gid = started["game"]["id"]
    await alice.move(gid, "e4")
    answer = await alice.recv_type("move", ply=2)
    token = alice.token
    c.proc.send_signal(signal.SIGKILL)
    c.proc.wait(10)
    c.log.close()
    back = await b.player(token=token)  # before the adoption: no game with the welcome
    state = await back.recv(lambda m: m.get("type") == "game" and m["game"]["id"] == gid,
                            timeout=20, what="the adopted game's state")
    assert state["game"]["san"] == ["e4", answer["san"]], state
    reply, _ = await move_when_adopted(gid, back, "d4")
    assert reply["ply"] == 3, reply
    computer = await back.recv_type("move", ply=4, timeout=20)
    assert computer["game"] == gid, computer


OPENING = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5",
           "Bb3", "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7"]


class Seat:
    """A player of a game, connected to a node; connected again (with its token) after that
    node restarted."""

    def __init__(self, node, client):
        self.node, self.client = node, client

    async def reconnect(self):
        self.client = await self.node.player(token=self.client.token)


async def play_on(game, count):
    """Plays the game's next `count` moves of OPENING, each sent until its owner applies it
    (OWNER_UNREACHABLE while a node is away or the game is being adopted)."""
    for _ in range(count):
        ply = len(game["played"])
        seat = game["seats"][ply % 2]
        deadline = time.time() + 30
        while True:
            assert time.time() < deadline, ("move %d of %s never applied" % (ply + 1, game))
            reply = await seat.client.request(
                {"type": "move", "game": game["id"], "move": OPENING[ply]}, timeout=15)
            if reply.get("type") == "move":
                assert reply["ply"] == ply + 1, reply
                game["played"].append(OPENING[ply])
                break
            assert reply.get("code") == "OWNER_UNREACHABLE", reply
            await asyncio.sleep(0.2)


async def test_rolling_restart_with_games_in_progress(site):
    nodes = [site.node(n) for n in ("a", "b", "c")]
    await site.wait_joined(3)
    games = []
    for i in range(6):
        white_node, black_node = nodes[i % 3], nodes[(i + 1) % 3]
        white = await white_node.player("W%d" % i)
        black = await black_node.player("B%d" % i)
        await black.ok({"type": "lobby_subscribe"})
        added = await white.ok({"type": "seek_create", "time": {"minutes": 10, "increment": 0},
                                "color": "white"})
        await black.recv(lambda m: m.get("type") == "seek_added" and
                         m["seek"]["id"] == added["seek"]["id"], timeout=10, what="the seek")
        started = await black.ok({"type": "seek_accept", "seek": added["seek"]["id"]})
        games.append({"id": started["game"]["id"], "played": [],
                      "seats": [Seat(white_node, white), Seat(black_node, black)]})
    for g in games:
        await play_on(g, 2)
    # Each node in turn: stopped (SIGTERM), started again; its players connect again; every
    # game goes on, whichever node owns it now (its own again, or an adopter).
    for n in nodes:
        assert n.stop() == 0, "node %s exit status after SIGTERM" % n.node_id
        n.start()
        await site.wait_joined(3, timeout=30)
        for g in games:
            for seat in g["seats"]:
                if seat.node is n:
                    await seat.reconnect()
        for g in games:
            await play_on(g, 2)
    watcher = await nodes[0].player("Watcher")
    for g in games:
        state = (await watcher.ok({"type": "watch", "game": g["id"]}))["game"]
        assert state["san"] == g["played"] and len(g["played"]) == 8, (state["san"], g)
        await g["seats"][0].client.ok({"type": "resign", "game": g["id"]})
    for g in games:
        status, _, body = nodes[1].http("/api/games/%s" % g["id"])
        record = json.loads(body)
        assert status == 200 and record["san"] == g["played"], record
        assert record["status"] != "started", record


if __name__ == "__main__":
    run_site_tests(globals())
