"""
Arena tournaments on a site of two nodes (docs/tournaments.md, "Several nodes"): an arena lives
on the node that created it. There it is listed, joined and played; on the other node it is not
known (ARENA_NOT_FOUND: arena commands are not forwarded), while its games, like any of that
node's, are watched and played from the other node, berserk included.
"""
from arena_harness import BULLET
from cluster_harness import run_site_tests


async def registered(node, name):
    c = await node.player()
    await c.ok({"type": "register", "username": name, "password": "password " + name})
    return c


async def test_arena_lives_on_its_node(site):
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    ann = await registered(a, "ann")
    bob_b = await registered(b, "bob")
    aid = (await ann.ok({"type": "arena_create", "name": "Site Arena", "time": BULLET,
                         "minutes": 10, "starts_in": 0}))["arena"]["id"]
    # Node b does not know it.
    await bob_b.error({"type": "arena_join", "arena": aid}, "ARENA_NOT_FOUND")
    await bob_b.error({"type": "arena_watch", "arena": aid}, "ARENA_NOT_FOUND")
    assert (await bob_b.ok({"type": "arena_list"}))["arenas"] == []
    # Bob joins on node a, where they are paired.
    bob_a = await a.player(token=bob_b.token)
    await ann.ok({"type": "arena_join", "arena": aid})
    await bob_a.ok({"type": "arena_join", "arena": aid})
    g = (await ann.recv_type("game_started", timeout=5))["game"]
    assert g["arena"] == {"id": aid, "name": "Site Arena"} and g["rated"] is True, g
    # From node b: watching the game, and Bob's berserk (a game command, forwarded to node a).
    watcher = await b.player("Watcher")
    full = await watcher.ok({"type": "watch", "game": g["id"]})
    assert full["game"]["arena"]["id"] == aid, full
    color = "white" if g["white"]["id"] == bob_b.player["id"] else "black"
    berserk = await bob_b.ok({"type": "arena_berserk", "game": g["id"]})
    assert berserk["type"] == "berserk" and berserk["color"] == color, berserk
    assert berserk["clock"][color] == 30000, berserk
    seen = await watcher.recv_type("berserk", game=g["id"])
    assert seen["color"] == color, seen
    state = await ann.ok({"type": "arena_watch", "arena": aid})
    assert state["arena"]["players"] == 2 and state["arena"]["status"] == "started", state


if __name__ == "__main__":
    run_site_tests(globals())
