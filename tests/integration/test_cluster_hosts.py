"""
A site whose nodes and Redis are on separate hosts (tests/integration/hosts.py: a network
namespace each, joined by a bridge the test makes, or loopback addresses of their own where
namespaces cannot be made): a game whose players are on two nodes and whose owner is a third,
played to its end; the owner's link cut mid-game (a partition, not a stopped process) and
restored, the game going on with no acknowledged move lost.
"""
import asyncio

from cluster_harness import run_site_tests

FIVE_MINUTES = {"minutes": 5, "increment": 0}


async def game_owned_by_a_third_node(site):
    """Alice on node c seeks and Bob on node b accepts (node c owns the game); Alice then comes
    back through node a. Returns (nodes, alice on a, bob on b, game id)."""
    a, b, c = site.node("a"), site.node("b"), site.node("c")
    await site.wait_joined(3)
    alice_on_c = await c.player("Alice")
    bob = await b.player("Bob")
    await bob.ok({"type": "lobby_subscribe"})
    added = await alice_on_c.ok({"type": "seek_create", "time": FIVE_MINUTES, "color": "white"})
    await bob.recv_type("seek_added")
    started = await bob.ok({"type": "seek_accept", "seek": added["seek"]["id"]})
    gid = started["game"]["id"]
    await alice_on_c.close()
    alice = await a.player(token=alice_on_c.token)
    state = await alice.recv(lambda m: m.get("type") == "game" and m["game"]["id"] == gid,
                             timeout=10, what="the game's state after the welcome")
    assert state["game"]["white"]["name"] == "Alice", state
    return (a, b, c), alice, bob, gid


async def move_seen(gid, mover, other, san):
    reply = await mover.move(gid, san)
    assert reply["san"] == san, reply
    seen = await other.recv_type("move", ply=reply["ply"])
    assert seen["san"] == san, seen
    return reply


async def play_alternately(gid, first, second, sans):
    """Plays sans in turn from first and second, each move seen by the other; returns the
    acknowledged moves (a list of them, to go on with)."""
    for i, san in enumerate(sans):
        await move_seen(gid, first if i % 2 == 0 else second, second if i % 2 == 0 else first,
                        san)
    return list(sans)


async def test_players_on_two_hosts_the_owner_on_a_third(site):
    (a, b, c), alice, bob, gid = await game_owned_by_a_third_node(site)
    for i, san in enumerate(["f3", "e5", "g4", "Qh4#"]):
        await move_seen(gid, alice if i % 2 == 0 else bob, bob if i % 2 == 0 else alice, san)
    for p in (alice, bob):
        end = await p.recv_type("game_end", game=gid)
        assert end["reason"] == "checkmate" and end["winner"] == "black", end
    # The archive, read through the node that had neither player, has every move.
    record = (await (await c.player()).ok({"type": "game_record", "game": gid}))["game"]
    assert record["san"] == ["f3", "e5", "g4", "Qh4#"], record


async def test_owner_cut_off_and_back(site):
    (a, b, c), alice, bob, gid = await game_owned_by_a_third_node(site)
    acknowledged = []
    for i, san in enumerate(["e4", "e5"]):
        await move_seen(gid, alice if i % 2 == 0 else bob, bob if i % 2 == 0 else alice, san)
        acknowledged.append(san)
    if site.hosts.kind != "netns":
        print("SKIP the partition: loopback hosts cannot be cut off")
        return
    site.hosts.cut("node-c")
    # Node a notices the owner is gone (its announcements stop) and refuses the move rather
    # than hold it: nothing is acknowledged that the owner did not commit.
    refused = None
    for _ in range(40):
        reply = await alice.request({"type": "move", "game": gid, "move": "Nf3"}, timeout=15)
        if reply.get("type") == "error":
            refused = reply
            break
        assert reply.get("type") != "move", ("a move acknowledged while its owner was cut off",
                                             reply)
        await asyncio.sleep(0.25)
    assert refused and refused["code"] == "OWNER_UNREACHABLE", refused
    site.hosts.restore("node-c")
    await site.wait_joined(3, timeout=30)
    # Back: the game goes on from where the owner left it, through both players' nodes.
    reply = None
    for _ in range(50):
        reply = await alice.request({"type": "move", "game": gid, "move": "Nf3"}, timeout=15)
        if reply.get("type") == "move":
            break
        assert reply.get("code") == "OWNER_UNREACHABLE", reply
        await asyncio.sleep(0.25)
    assert reply and reply["type"] == "move" and reply["ply"] == 3, reply
    acknowledged.append("Nf3")
    seen = await bob.recv_type("move", ply=3)
    assert seen["san"] == "Nf3", seen
    await move_seen(gid, bob, alice, "Nc6")
    acknowledged.append("Nc6")
    state = (await bob.ok({"type": "watch", "game": gid}))["game"]
    assert state["san"] == acknowledged, (state["san"], acknowledged)


if __name__ == "__main__":
    run_site_tests(globals(), separate_hosts=True)
