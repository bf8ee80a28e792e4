"""
Arena tournaments on a site of two nodes (docs/tournaments.md, "Several nodes"): an arena lives
on the node that created it, and a player connected to the other node lists it, joins it (even
a moment after it was created, before any announcement names it), watches it with its own place
in the pushed standings, is paired, plays, berserks, withdraws and comes back, all from there;
its connection closing and coming back makes it paired again. An unknown arena is refused on
both nodes. lichess's tournament endpoints work on either node: join and withdraw, and the reads
(answered by the arena's node, 504 when it does not answer).
"""
import asyncio
import json
import signal
import time

from arena_harness import BULLET
from cluster_harness import run_site_tests
from lichess_api import Api


async def registered(node, name):
    c = await node.player()
    await c.ok({"type": "register", "username": name, "password": "password " + name})
    return c


async def standings_where(client, aid, pred, timeout=10):
    """The first arena_standings of aid for which pred holds."""
    return await client.recv(
        lambda m: m.get("type") == "arena_standings" and m.get("arena") == aid and pred(m),
        timeout=timeout, what=f"arena_standings of {aid}")


def place_of(standings, player_id):
    for s in standings["standings"]:
        if s["player"]["id"] == player_id:
            return s
    raise AssertionError(f"{player_id} not in {standings}")


async def test_arena_across_nodes(site):
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    ann = await registered(a, "ann")
    bob = await registered(b, "bob")
    created = await ann.ok({"type": "arena_create", "name": "Site Arena", "time": BULLET,
                            "minutes": 10, "starts_in": 0})
    aid = created["arena"]["id"]
    # At once from node b: found through the directory (no announcement lists it yet).
    joined = await bob.ok({"type": "arena_join", "arena": aid})
    assert joined["arena"]["id"] == aid and joined["arena"]["me"]["player"]["id"] == \
        bob.player["id"], joined
    # Listed on node b once node a announced it.
    deadline = time.monotonic() + 5
    while True:
        listed = (await bob.ok({"type": "arena_list"}))["arenas"]
        if [x["id"] for x in listed] == [aid]:
            break
        assert time.monotonic() < deadline, listed
        await asyncio.sleep(0.2)
    assert listed[0]["players"] == 1 and listed[0]["status"] == "started", listed
    # Watching it from node b: a guest, and Bob (who gets his own place).
    watcher = await b.player("Watcher")
    full = await watcher.ok({"type": "arena_watch", "arena": aid})
    assert full["arena"]["id"] == aid and "me" not in full["arena"], full
    mine = await bob.ok({"type": "arena_watch", "arena": aid})
    assert mine["arena"]["me"]["player"]["id"] == bob.player["id"], mine

    # Ann joins on node a: they are paired; Bob hears of it on node b.
    await ann.ok({"type": "arena_join", "arena": aid})
    g = (await bob.recv_type("game_started", timeout=5))["game"]
    assert g["arena"] == {"id": aid, "name": "Site Arena"} and g["rated"] is True, g
    assert (await ann.recv_type("game_started"))["game"]["id"] == g["id"]
    bob_color = "white" if g["white"]["id"] == bob.player["id"] else "black"
    berserk = await bob.ok({"type": "arena_berserk", "game": g["id"]})
    assert berserk["color"] == bob_color and berserk["clock"][bob_color] == 30000, berserk
    await ann.ok({"type": "resign", "game": g["id"]})
    await bob.recv_type("game_end", game=g["id"])

    # The standings reach node b's watchers: Bob 2 points (a berserk win of fewer than 7 moves
    # earns no extra point), with his own place for him only.
    seen = await standings_where(watcher, aid,
                                 lambda m: place_of(m, bob.player["id"])["score"] == 2)
    assert "me" not in seen and place_of(seen, ann.player["id"])["score"] == 0, seen
    own = await standings_where(bob, aid, lambda m: m.get("me", {}).get("score") == 2)
    assert own["me"]["rank"] == 1 and own["me"]["berserks"] == 1, own

    # Back into pairing at once: the same two (nobody else waits), again on node a. Ann pauses
    # during it, so that nobody is paired after it.
    g2 = (await bob.recv_type("game_started", timeout=5))["game"]
    assert g2["id"] != g["id"] and g2["arena"]["id"] == aid, g2
    await ann.ok({"type": "arena_withdraw", "arena": aid})
    await bob.ok({"type": "resign", "game": g2["id"]})
    await ann.recv_type("game_end", game=g2["id"])
    # Bob withdraws and comes back from node b.
    await bob.ok({"type": "arena_withdraw", "arena": aid})
    await standings_where(watcher, aid,
                          lambda m: place_of(m, bob.player["id"]).get("withdrawn") is True)
    back = await bob.ok({"type": "arena_join", "arena": aid})
    assert "withdrawn" not in back["arena"]["me"], back

    # Bob's connection closes (node a no longer pairs him), and another one says hello on node
    # b: node a counts him as connected again, so Ann's return pairs them.
    token = bob.token
    await bob.close()
    await asyncio.sleep(0.5)
    bob2 = await b.player(token=token)
    await asyncio.sleep(0.5)
    await ann.ok({"type": "arena_join", "arena": aid})
    g3 = (await bob2.recv_type("game_started", timeout=5))["game"]
    assert g3["arena"]["id"] == aid and g3["id"] not in (g["id"], g2["id"]), g3
    state = await ann.ok({"type": "arena_watch", "arena": aid})
    assert place_of(state["arena"], ann.player["id"])["score"] == 2, state

    # Unwatching on node b: the pushes stop reaching that connection.
    await watcher.ok({"type": "arena_unwatch", "arena": aid})
    # (what it got before the answer was sent before the unwatch)
    watcher.inbox = [m for m in watcher.inbox if m.get("type") != "arena_standings"]
    await ann.ok({"type": "resign", "game": g3["id"]})
    await watcher.expect_none("arena_standings", wait=1.5)


async def test_watchers_follow_a_restarted_node(site):
    """The arena's node restarts: node b's watchers get its standings again (node b reminds
    the arenas' nodes of what it watches every 5 s)."""
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    ann = await registered(a, "ann")
    aid = (await ann.ok({"type": "arena_create", "name": "Site Arena", "time": BULLET,
                         "minutes": 10, "starts_in": 600}))["arena"]["id"]
    await ann.ok({"type": "arena_join", "arena": aid})
    watcher = await b.player("Watcher")
    full = await watcher.ok({"type": "arena_watch", "arena": aid})
    assert full["arena"]["players"] == 1, full
    await a.close_clients()
    a.stop()
    a.start()
    await site.wait_joined(2)
    cid = await registered(a, "cid")
    await cid.ok({"type": "arena_join", "arena": aid})
    seen = await standings_where(watcher, aid, lambda m: m["players"] == 2, timeout=15)
    assert [s["player"]["name"] for s in seen["standings"]] == ["ann", "cid"], seen


async def test_unknown_arena_refused_everywhere(site):
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    for node in (a, b):
        c = await registered(node, "carl" + node.node_id)
        await c.error({"type": "arena_join", "arena": "NoSuchAr"}, "ARENA_NOT_FOUND")
        await c.error({"type": "arena_watch", "arena": "NoSuchAr"}, "ARENA_NOT_FOUND")
        await c.error({"type": "arena_withdraw", "arena": "NoSuchAr"}, "ARENA_NOT_FOUND")


async def test_one_schedule_for_the_site(site):
    """Every node has the operator's schedule; one node (the pools' host) creates its arenas."""
    schedule = ("--arena-schedule", "hourly:1+0:30")
    a, b = site.node("a", *schedule), site.node("b", *schedule)
    await site.wait_joined(2)
    ann, bob = await registered(a, "ann"), await registered(b, "bob")
    deadline = time.monotonic() + 10
    while not (await bob.ok({"type": "arena_list"}))["arenas"]:
        assert time.monotonic() < deadline, "no scheduled arena"
        await asyncio.sleep(0.2)
    await asyncio.sleep(3)  # time for a second node to (wrongly) create its own
    on_a = (await ann.ok({"type": "arena_list"}))["arenas"]
    on_b = (await bob.ok({"type": "arena_list"}))["arenas"]
    assert len(on_a) == 1 and on_a == on_b, (on_a, on_b)
    assert on_a[0]["name"] == "Hourly Bullet Arena" and on_a[0]["creator"] is None, on_a
    # It lives on node a: node b's watch of it is answered from there.
    watched = await bob.ok({"type": "arena_watch", "arena": on_a[0]["id"]})
    assert watched["arena"]["id"] == on_a[0]["id"], watched


async def test_http_join_on_another_node(site):
    """lichess's join and withdraw endpoints asked of the node that does not hold the arena."""
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    ann = await registered(a, "ann")
    aid = (await ann.ok({"type": "arena_create", "name": "Site Arena", "time": BULLET,
                         "minutes": 10, "starts_in": 600}))["arena"]["id"]
    dan = await registered(b, "dan")
    token = (await dan.ok({"type": "api_token_create", "description": "test",
                           "scopes": "tournament:write"}))["token"]
    api = Api(b.port, token)
    assert await asyncio.to_thread(api.post, "/api/tournament/%s/join" % aid) == {"ok": True}
    state = await ann.ok({"type": "arena_watch", "arena": aid})
    assert [s["player"]["name"] for s in state["arena"]["standings"]] == ["dan"], state
    assert await asyncio.to_thread(api.post, "/api/tournament/%s/withdraw" % aid) == {"ok": True}
    await asyncio.to_thread(api.post, "/api/tournament/NoSuchAr/join", expect=404)


def without_clock(text):
    """A tournament's JSON without its countdown (it may tick between two reads)."""
    full = json.loads(text)
    full.pop("secondsToStart", None)
    return full


async def test_http_reads_on_another_node(site):
    """lichess's tournament reads asked of the node that does not hold the arena: that node
    asks the arena's node and answers what it would; an arena nobody holds is 404 there too, and
    one whose node does not answer in time is 504."""
    a, b = site.node("a"), site.node("b", "--adopt-games", "0")
    await site.wait_joined(2)
    ann, dan = await registered(a, "ann"), await registered(b, "dan")
    aid = (await ann.ok({"type": "arena_create", "name": "Site Arena", "time": BULLET,
                         "minutes": 10, "starts_in": 600}))["arena"]["id"]
    await ann.ok({"type": "arena_join", "arena": aid})
    await dan.ok({"type": "arena_join", "arena": aid})
    # Node b reads another node's arena once that node announced it (every second).
    deadline = time.monotonic() + 5
    while aid not in [x["id"] for x in (await dan.ok({"type": "arena_list"}))["arenas"]]:
        assert time.monotonic() < deadline, "node a's arena not announced"
        await asyncio.sleep(0.1)
    for path in ("/api/tournament/%s" % aid, "/api/tournament/%s?page=1" % aid,
                 "/api/tournament/%s/results" % aid, "/api/tournament/%s/results?nb=1&sheet=true" % aid,
                 "/api/tournament/%s/games" % aid):
        here = await asyncio.to_thread(a.http, path)
        there = await asyncio.to_thread(b.http, path)
        assert here[0] == there[0] == 200, (path, here, there)
        assert here[1]["content-type"] == there[1]["content-type"], (path, here[1], there[1])
        if "/results" in path or "/games" in path:
            assert here[2] == there[2], (path, here[2], there[2])
        else:
            assert without_clock(here[2]) == without_clock(there[2]), (path, here[2], there[2])
    full = json.loads((await asyncio.to_thread(b.http, "/api/tournament/%s" % aid))[2])
    assert full["id"] == aid and full["nbPlayers"] == 2, full
    assert {p["name"] for p in full["standing"]["players"]} == {"ann", "dan"}, full
    lines = (await asyncio.to_thread(b.http, "/api/tournament/%s/results?nb=1" % aid))[2]
    assert len(lines.decode().splitlines()) == 1, lines
    for path in ("/api/tournament/NoSuchAr", "/api/tournament/NoSuchAr/results",
                 "/api/tournament/NoSuchAr/games"):
        status, _, body = await asyncio.to_thread(b.http, path)
        assert status == 404 and json.loads(body) == {"error": "No such tournament"}, (path, body)
    # The list: every node's arenas, on either node.
    bid = (await dan.ok({"type": "arena_create", "name": "Other Arena", "time": BULLET,
                         "minutes": 10, "starts_in": 900}))["arena"]["id"]
    lists = []
    for node in (a, b):
        status, _, body = await asyncio.to_thread(node.http, "/api/tournament")
        assert status == 200, (status, body)
        lists.append({k: [without_clock(json.dumps(x)) for x in v]
                      for k, v in json.loads(body).items()})
    assert [x["id"] for x in lists[0]["created"]] == [aid, bid], lists[0]
    assert lists[0] == lists[1], lists
    # A user's arenas, whichever node holds them.
    for node in (a, b):
        for user, ids in (("ann", [aid]), ("dan", [bid])):
            status, _, body = await asyncio.to_thread(
                node.http, "/api/user/%s/tournament/created" % user)
            assert status == 200, (status, body)
            assert [json.loads(line)["id"] for line in body.decode().splitlines()] == ids, body
    # Node a stops answering (still announced for a few seconds): node b gives up on its arena
    # after 3 s, and lists its own after a second.
    a.proc.send_signal(signal.SIGSTOP)
    try:
        began = time.monotonic()
        status, _, body = await asyncio.to_thread(b.http, "/api/tournament/%s" % aid)
        took = time.monotonic() - began
        listed = await asyncio.to_thread(b.http, "/api/tournament")
    finally:
        a.proc.send_signal(signal.SIGCONT)
    assert status == 504 and "error" in json.loads(body), (status, body)
    assert 2.5 < took < 6, took
    assert listed[0] == 200, listed
    assert [x["id"] for x in json.loads(listed[2])["created"]] == [bid], listed


if __name__ == "__main__":
    run_site_tests(globals())
