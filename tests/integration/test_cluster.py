"""
Several nodes, one site (docs/scaling.md): a real redis-server and two chess_server nodes on
one shared data directory. Players on different nodes play a full game through the shared
lobby while a spectator on a third connection sees every move; errors from the owner reach the
player on the other node; Redis stopped and started again mid-game (the owner keeps its game,
the other node's move is refused with OWNER_UNREACHABLE, both resynchronise); the site's counts.
"""
from cluster_harness import *

SCHOLARS_MATE = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]


async def cross_node_game(site):
    """Alice on node a seeks; Bob on node b sees the seek in his lobby and accepts it; a watcher
    on node b watches. Returns (a, b, alice, bob, watcher, game id)."""
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    alice = await a.player("Alice")
    bob = await b.player("Bob")
    watcher = await b.player("Watcher")
    assert (await bob.ok({"type": "lobby_subscribe"}))["seeks"] == []
    added = await alice.ok({"type": "seek_create", "time": {"minutes": 5, "increment": 0},
                            "color": "white"})
    sid = added["seek"]["id"]
    pushed = await bob.recv_type("seek_added")
    assert pushed["seek"]["id"] == sid and pushed["seek"]["player"]["name"] == "Alice"
    # A later subscriber on node b gets node a's seek in its list.
    late = await b.player("Late")
    listed = await late.ok({"type": "lobby_subscribe"})
    assert [s["id"] for s in listed["seeks"]] == [sid], listed
    started = await bob.ok({"type": "seek_accept", "seek": sid})
    assert started["type"] == "game_started", started
    game = started["game"]
    assert game["white"]["name"] == "Alice" and game["black"]["name"] == "Bob"
    await alice.recv_type("game_started")
    await bob.recv_type("seek_removed", seek=sid)
    gid = game["id"]
    full = await watcher.ok({"type": "watch", "game": gid})
    assert full["type"] == "game" and full["game"]["id"] == gid and full["game"]["ply"] == 0
    return a, b, alice, bob, watcher, gid


async def test_players_on_two_nodes_play_a_full_game_with_a_spectator(site):
    a, b, alice, bob, watcher, gid = await cross_node_game(site)
    # The owner's error reaches the player on the other node, with the request's id.
    await bob.error({"type": "move", "game": gid, "move": "e5"}, "NOT_YOUR_TURN")
    await alice.error({"type": "move", "game": gid, "move": "e5"}, "ILLEGAL_MOVE")
    versions = []
    for i, mv in enumerate(SCHOLARS_MATE):
        mover, other = (alice, bob) if i % 2 == 0 else (bob, alice)
        reply = await mover.move(gid, mv)
        assert reply["type"] == "move" and reply["san"] == mv, (mv, reply)
        seen = await other.recv_type("move")
        assert seen["san"] == mv
        spectated = await watcher.recv_type("move")
        assert spectated["san"] == mv and spectated["game"] == gid
        versions.append(spectated["v"])
    # Every event reached the spectator: versions grow by one per move (no game_end between).
    assert versions == list(range(versions[0], versions[0] + len(SCHOLARS_MATE))), versions
    for c in (alice, bob, watcher):
        end = await c.recv_type("game_end")
        assert end["result"] == "1-0" and end["reason"] == "checkmate", end
    # Both nodes' archives are the one database: the record is complete from either node.
    for node in (a, b):
        status, _, body = node.http("/api/games/%s" % gid)
        assert status == 200, body
        record = json.loads(body)
        assert record["result"] == "1-0" and len(record["moves"]) == len(SCHOLARS_MATE), record
    states = await site.wait_joined(2)
    assert all(s["status"] == "ok" for s in states)


async def test_unknown_ids_and_a_stopped_owner(site):
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    bob = await b.player("Bob")
    # Ids that no node has are refused as on a single server (after a directory lookup).
    await bob.error({"type": "move", "game": "zzzzzzzz", "move": "e4"}, "GAME_NOT_FOUND")
    await bob.error({"type": "seek_accept", "seek": "zzzzzzzz"}, "SEEK_NOT_FOUND")
    await bob.error({"type": "watch", "game": "zzzzzzzz"}, "GAME_NOT_FOUND")
    alice = await a.player("Alice")
    sid = (await alice.ok({"type": "seek_create", "time": "unlimited"}))["seek"]["id"]
    assert a.stop() == 0
    # The seek's owner is gone: refused at once with a clear error, never acknowledged.
    await bob.error({"type": "seek_accept", "seek": sid}, "OWNER_UNREACHABLE")


async def test_redis_stopped_and_restarted_mid_game(site):
    a, b, alice, bob, watcher, gid = await cross_node_game(site)
    await play_moves(gid, alice, bob, watcher, ["e4", "e5"])
    site.redis.stop()
    for node in (a, b):
        await wait_for(lambda: node.health()[1]["redis"] == "down", what="redis down")
        status, body = node.health()
        assert status == 200 and body["status"] == "degraded", body
    # The owner keeps serving its game; the other node cannot reach it and says so.
    reply = await alice.move(gid, "Nf3")
    assert reply["san"] == "Nf3"
    await bob.error({"type": "move", "game": gid, "move": "Nc6"}, "OWNER_UNREACHABLE")
    site.redis.start()
    await site.wait_joined(2, timeout=15)
    # Node b missed Nf3 while Redis was down: it resynchronises the game from its owner and
    # pushes the full state to its player and spectator.
    for c in (bob, watcher):
        state = await c.recv(lambda m: m.get("type") == "game" and m["game"]["ply"] == 3,
                             timeout=10, what="the resynchronised game")
        assert state["game"]["id"] == gid and state["game"]["san"][-1] == "Nf3", state
    await play_moves(gid, bob, alice, watcher, ["Nc6"])
    # And the game goes on to its end across the nodes.
    await alice.ok({"type": "resign", "game": gid})
    for c in (bob, watcher):
        end = await c.recv_type("game_end")
        assert end["result"] == "0-1" and end["reason"] == "resignation", end


async def play_moves(gid, first, second, watcher, moves):
    for i, mv in enumerate(moves):
        mover, other = (first, second) if i % 2 == 0 else (second, first)
        await mover.move(gid, mv)
        assert (await other.recv_type("move"))["san"] == mv
        assert (await watcher.recv_type("move"))["san"] == mv


if __name__ == "__main__":
    run_site_tests(globals())
