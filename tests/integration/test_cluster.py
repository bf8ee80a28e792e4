"""
Several nodes, one site (docs/scaling.md): a real redis-server and two chess_server nodes on
one shared data directory. Players on different nodes play a full game through the shared
lobby while a spectator on a third connection sees every move; errors from the owner reach the
player on the other node; Redis stopped and started again mid-game (the owner keeps its game,
the other node's move is refused with OWNER_UNREACHABLE, both resynchronise); the site's counts.
"""
import os
import re
import signal
import subprocess

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


async def test_three_nodes_a_spectator_on_the_third(site):
    # Events go to the nodes that follow a game (its players' nodes, its spectators' nodes),
    # not to every node: a spectator on a third node still sees every move.
    a, b, c = site.node("a"), site.node("b"), site.node("c")
    await site.wait_joined(3)
    alice, bob, watcher = await a.player("Alice"), await b.player("Bob"), await c.player("Watcher")
    sid = (await alice.ok({"type": "seek_create", "time": {"minutes": 5, "increment": 0},
                           "color": "white"}))["seek"]["id"]
    gid = (await bob.ok({"type": "seek_accept", "seek": sid}))["game"]["id"]
    await watcher.ok({"type": "watch", "game": gid})
    await play_moves(gid, alice, bob, watcher, SCHOLARS_MATE)
    for cl in (alice, bob, watcher):
        assert (await cl.recv_type("game_end", game=gid))["result"] == "1-0"


async def test_spectators_counted_over_the_site(site):
    # The game's owner adds up the spectators every node reports: one on each of three nodes
    # (two pages of one person on c count once), the players never; a node that goes counts no
    # more. Every page, on every node, hears the site's number.
    a, b, c = site.node("a"), site.node("b"), site.node("c")
    await site.wait_joined(3)
    alice, bob = await a.player("Alice"), await b.player("Bob")
    sid = (await alice.ok({"type": "seek_create", "time": {"minutes": 5, "increment": 0},
                           "color": "white"}))["seek"]["id"]
    gid = (await bob.ok({"type": "seek_accept", "seek": sid}))["game"]["id"]
    await bob.ok({"type": "watch", "game": gid})  # a player's page on another node
    sue, sam = await a.player("Sue"), await b.player("Sam")
    tom = await c.player("Tom")
    tom_tab = await c.player(token=tom.token)
    for cl in (sue, sam, tom, tom_tab):
        await cl.ok({"type": "watch", "game": gid})
    for cl in (alice, bob, sue, sam, tom, tom_tab):
        await cl.recv_type("spectators", game=gid, count=3, timeout=10)
    # A page opened now on node b hears the number with the game.
    late = await b.player("Late")
    await late.ok({"type": "watch", "game": gid})
    await late.recv_type("spectators", game=gid, timeout=5)
    await late.close()
    # Node c stops: Tom counts no more.
    c.stop()
    for cl in (alice, bob, sue, sam):
        await cl.recv_type("spectators", game=gid, count=2, timeout=15)


async def test_quick_pairing_over_the_site(site):
    # One node (the lowest id: a) runs the pools: players pressing the same preset on b and c
    # are paired into one game there, and play it from their nodes. When the pool's node goes,
    # whoever waits in it waits in the next host's pool (b) instead, and is paired there.
    a, b, c = site.node("a"), site.node("b"), site.node("c")
    await site.wait_joined(3)
    bea, cal = await b.player("Bea"), await c.player("Cal")
    three_two = {"minutes": 3, "increment": 2}
    joined = await bea.ok({"type": "pool_join", "time": three_two})
    assert joined["type"] == "pool_joined" and joined["time"] == three_two, joined
    await cal.ok({"type": "pool_join", "time": three_two})
    starts = [await p.recv_type("game_started", timeout=10) for p in (bea, cal)]
    game = starts[0]["game"]
    assert game["id"] == starts[1]["game"]["id"] and game["time"] == three_two, starts
    assert {game["white"]["name"], game["black"]["name"]} == {"Bea", "Cal"}
    white, black = (bea, cal) if game["white"]["name"] == "Bea" else (cal, bea)
    await white.move(game["id"], "e4")
    await black.move(game["id"], "e5")
    # Leaving works from another node too; a later join waits on a.
    await bea.ok({"type": "pool_join", "time": {"minutes": 5, "increment": 0}})
    left = await bea.ok({"type": "pool_leave"})
    assert left["type"] == "pool_left", left
    await bea.ok({"type": "pool_join", "time": {"minutes": 5, "increment": 0}})
    bea.inbox.clear()
    a.stop()
    await site.wait_joined(2, timeout=15)  # a is lost for b and c: b hosts the pools now
    moved = await bea.recv_type("pool_joined", timeout=15)
    assert moved["time"] == {"minutes": 5, "increment": 0} and "id" not in moved, moved
    assert "pool_left" not in [m.get("type") for m in bea.inbox], bea.inbox
    await cal.ok({"type": "pool_join", "time": {"minutes": 5, "increment": 0}})
    starts = [await p.recv_type("game_started", timeout=10) for p in (bea, cal)]
    assert starts[0]["game"]["id"] == starts[1]["game"]["id"], starts


async def test_settings_reach_an_accounts_pages_on_other_nodes(site):
    # An account's settings saved on node a reach its page on node b at once (and not again on
    # a: the saving page has its reply, the other page on a its push).
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    first = await a.player("Ula")
    await first.ok({"type": "register", "username": "ula", "password": "password-u"})
    session = (await (await a.connect()).ok(
        {"type": "login", "username": "ula", "password": "password-u"}))["token"]
    there = await b.player(token=session)
    here = await a.player(token=session)
    for page in (there, here):
        await page.recv_type("settings")  # the welcome's copy
    saved = await first.ok({"type": "settings_set", "settings": {"board": "green", "zen": True}})
    assert saved["settings"] == {"board": "green", "zen": True}, saved
    for page in (there, here):
        pushed = await page.recv_type("settings", settings={"board": "green", "zen": True})
        assert "id" not in pushed, pushed
    await here.expect_none("settings", wait=0.5)  # once, not again over the bus
    await first.expect_none("settings", wait=0.1)


async def test_live_games_and_a_player_back_through_the_other_node(site):
    a, b, alice, bob, watcher, gid = await cross_node_game(site)
    await play_moves(gid, alice, bob, watcher, ["d4", "d5"])
    # Node b lists node a's game (from a's announcements, within a second or so).
    async def listed():
        live = await watcher.ok({"type": "live_games"})
        return [g["id"] for g in live["games"]]
    deadline = time.time() + 5
    while gid not in await listed():
        assert time.time() < deadline, "node b never listed node a's game"
        await asyncio.sleep(0.2)
    # Alice (her game is on node a) comes back through node b: after the welcome, node a sends
    # her game's state, and she plays on through node b.
    again = await b.player(token=alice.token)
    assert again.welcome["player"]["id"] == alice.player["id"]
    state = await again.recv(lambda m: m.get("type") == "game" and m["game"]["id"] == gid,
                             what="the game from node a")
    assert state["game"]["san"] == ["d4", "d5"] and state["game"]["ply"] == 2, state
    reply = await again.move(gid, "c4")
    assert reply["san"] == "c4"
    assert (await bob.recv_type("move"))["san"] == "c4"
    assert (await alice.recv_type("move"))["san"] == "c4"
    assert (await watcher.recv_type("move"))["san"] == "c4"


async def test_challenge_link_computer_game_and_metrics_across_nodes(site):
    a = site.node("a", "--engine-workers", "1")
    b = site.node("b")
    await site.wait_joined(2)
    alice = await a.player("Alice")
    bob = await b.player("Bob")
    # A challenge link made on node a, opened on node b.
    made = await alice.ok({"type": "challenge_create", "time": {"minutes": 5, "increment": 0}})
    cid = made["challenge"]["id"]
    seen = await bob.ok({"type": "challenge_get", "challenge": cid})
    assert seen["type"] == "challenge" and seen["challenge"]["id"] == cid, seen
    await bob.error({"type": "challenge_get", "challenge": "zzzzzzzzzzzz"}, "CHALLENGE_NOT_FOUND")
    # A computer game on node a: a spectator on node b sees the moves and the computer thinking.
    started = await alice.ok({"type": "computer_play", "level": 1, "color": "white",
                              "time": {"minutes": 5, "increment": 0}})
    gid = started["game"]["id"]
    watcher = await b.player("Watcher")
    await watcher.ok({"type": "watch", "game": gid})
    await alice.move(gid, "e4")
    await watcher.recv_type("computer_thinking", timeout=10)
    computer_move = await watcher.recv(lambda m: m.get("type") == "move" and m["ply"] == 2,
                                       timeout=15, what="the computer's move")
    assert computer_move["game"] == gid
    # Node b counts node a's game in the site's figures (from a's announcements: within a
    # second); /metrics has them on node a alone (the lowest id, see the next test).
    await wait_for(lambda: b.health()[1]["site"]["games"] == 1, what="the site's game count")
    await wait_for(lambda: samples(a).get("chess_site_games_live") == 1, what="a reporting it")
    assert samples(a)["chess_redis_up"] == 1 and samples(a)["chess_site_nodes"] == 2


def samples(node):
    """One node's /metrics as {sample: value}."""
    status, _, body = node.http("/metrics")
    assert status == 200
    return {k: float(v) for k, v in re.findall(r"^(\S+) (\S+)$", body.decode(), re.M)}


async def test_metrics_add_up_over_nodes_and_the_site_comes_from_one(site):
    # Alone, node b reports the site; node a (the lower id) takes over when it joins, and the
    # two never report at once.
    b = site.node("b")
    await site.wait_joined(1)
    await wait_for(lambda: samples(b).get("chess_site_reporter") == 1, what="b reporting alone")
    a = site.node("a")
    both, deadline = 0, time.time() + 4
    while time.time() < deadline:
        both += samples(a).get("chess_site_reporter") == samples(b).get("chess_site_reporter") == 1
        await asyncio.sleep(0.05)
    assert both == 0, "both nodes reported the site %d times" % both
    await site.wait_joined(2)
    # Alice on node a, Bob and Carol on node b; Bob plays Alice's game, which node a holds (and
    # where Bob is attached as a remote player: he must not count there too).
    alice, bob, carol = await a.player("Alice"), await b.player("Bob"), await b.player("Carol")
    sid = (await alice.ok({"type": "seek_create", "time": {"minutes": 5, "increment": 0},
                           "color": "white"}))["seek"]["id"]
    gid = (await bob.ok({"type": "seek_accept", "seek": sid}))["game"]["id"]
    await alice.move(gid, "e4")
    await bob.move(gid, "e5")
    truth = {"connections": 3, "players_online": 3, "games": 1}

    def reported():
        ma, mb = samples(a), samples(b)
        return (ma.get("chess_site_reporter"), mb.get("chess_site_reporter"),
                ma.get("chess_site_players_online"), ma.get("chess_site_games_live"))
    await wait_for(lambda: reported() == (1, 0, 3, 1), timeout=10, what="a reporting the site")
    ma, mb = samples(a), samples(b)

    def total(name):
        return ma.get(name, 0) + mb.get(name, 0)
    # Each node's own figures: summed over the nodes, the site's.
    assert total("chess_connections") == truth["connections"]
    assert total("chess_players_online") == truth["players_online"], \
        (ma["chess_players_online"], mb["chess_players_online"])
    assert total('chess_games{state="playing"}') == truth["games"]
    assert total("chess_games_started_total") == 1 and total("chess_moves_total") == 2
    assert total('chess_messages_in_total{type="move"}') == 2
    # The site's figures: on node a only.
    assert (ma["chess_site_nodes"], ma["chess_site_connections"],
            ma["chess_site_players_online"], ma["chess_site_games_live"]) == (2, 3, 3, 1), ma
    assert [k for k in mb if k.startswith("chess_site_")] == ["chess_site_reporter"], mb
    assert ma["chess_redis_up"] == mb["chess_redis_up"] == 1
    # /healthz keeps the site's figures on every node (node b's from node a's announcements,
    # which may be a second behind).
    for node in (a, b):
        await wait_for(lambda: node.health()[1]["site"] == {"nodes": 2, **truth},
                       what="the site's figures in %s's /healthz" % node.node_id)
    # Node a stops: node b reports the site once a is lost (5 s without an announcement).
    assert a.stop() == 0
    await wait_for(lambda: samples(b).get("chess_site_reporter") == 1, timeout=15,
                   what="b taking over")
    mb = samples(b)
    assert (mb["chess_site_nodes"], mb["chess_site_connections"],
            mb["chess_site_players_online"]) == (1, 2, 2), mb


async def test_ratings_follow_players_across_nodes(site):
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    alice = await a.player("Alice")
    bob = await b.player("Bob")
    # Accounts made on either node are the site's (one database).
    await alice.ok({"type": "register", "username": "alicea", "password": "password-a"})
    await bob.ok({"type": "register", "username": "bobbyb", "password": "password-b"})
    # A rated game owned by node a: Bob (node b) loses.
    sid = (await alice.ok({"type": "seek_create", "time": {"minutes": 5, "increment": 0},
                           "color": "white", "rated": True}))["seek"]["id"]
    game = (await bob.ok({"type": "seek_accept", "seek": sid}))["game"]
    assert game["rated"] is True, game
    gid = game["id"]
    for i, mv in enumerate(SCHOLARS_MATE):
        await (alice if i % 2 == 0 else bob).move(gid, mv)
    first = (await bob.recv_type("game_end"))["ratings"]
    assert first["black"]["after"] < first["black"]["before"], first
    # A rated game owned by node b: both start from the ratings the first game gave them,
    # though node b only heard of that game over the bus.
    sid = (await bob.ok({"type": "seek_create", "time": {"minutes": 5, "increment": 0},
                         "color": "white", "rated": True}))["seek"]["id"]
    gid = (await alice.ok({"type": "seek_accept", "seek": sid}))["game"]["id"]
    await bob.move(gid, "e4")
    await alice.move(gid, "e5")
    await bob.ok({"type": "resign", "game": gid})
    second = (await alice.recv_type("game_end", game=gid))["ratings"]
    assert second["white"]["before"] == first["black"]["after"], (first, second)
    assert second["black"]["before"] == first["white"]["after"], (first, second)


async def test_direct_challenge_to_a_player_on_the_other_node(site):
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    alice, bob = await a.player("Alice"), await b.player("Bob")
    # Bob is connected to node b only: node a finds him there, the challenge stays on node a.
    made = await alice.ok({"type": "challenge_create", "player": bob.player["id"],
                           "time": {"minutes": 5, "increment": 0}, "color": "white"})
    cid = made["challenge"]["id"]
    received = await bob.recv_type("challenge_received")
    assert received["challenge"]["id"] == cid, received
    started = await bob.ok({"type": "challenge_accept", "challenge": cid})
    gid = started["game"]["id"]
    await alice.recv_type("game_started")
    await alice.move(gid, "e4")
    assert (await bob.recv_type("move"))["san"] == "e4"
    await bob.move(gid, "c5")
    assert (await alice.recv_type("move"))["san"] == "c5"
    # Nobody has this player: refused as on one node (after the nodes had a second to answer).
    await alice.error({"type": "challenge_create", "player": "zzzzzzzzzzzz",
                       "time": {"minutes": 5, "increment": 0}}, "PLAYER_OFFLINE")


async def test_a_player_leaving_the_other_node_can_be_claimed_against(site):
    a = site.node("a", "--abandon-seconds", "1")
    b = site.node("b", "--abandon-seconds", "1")
    await site.wait_joined(2)
    alice, bob = await a.player("Alice"), await b.player("Bob")
    sid = (await alice.ok({"type": "seek_create", "time": {"minutes": 5, "increment": 0},
                           "color": "white"}))["seek"]["id"]
    gid = (await bob.ok({"type": "seek_accept", "seek": sid}))["game"]["id"]
    await alice.move(gid, "e4")
    await bob.move(gid, "e5")
    await alice.error({"type": "abandon_claim", "game": gid, "result": "win"},
                      "OPPONENT_CONNECTED")
    # Bob's last connection (on node b) goes: node b tells the owner, who shows him away.
    await bob.close()
    away = await alice.recv(lambda m: m.get("type") == "presence" and m["color"] == "black"
                            and not m["connected"], what="Bob away")
    assert away["game"] == gid
    await asyncio.sleep(1.2)
    end = await alice.ok({"type": "abandon_claim", "game": gid, "result": "win"})
    assert end["type"] == "game_end" and end["result"] == "1-0", end


async def test_bad_site_flags_and_a_node_id_twice(site):
    a = site.node("a")
    base = [site.binary, "--listen", "127.0.0.1", "--port", str(free_port()),
            "--engine-workers", "0"] + site.store_args("a")
    # The same node id on the same database is refused before the port is taken (its lock).
    rc = subprocess.run(base + ["--redis", site.redis.address, "--node-id", "a"],
                        capture_output=True, timeout=20).returncode
    assert rc == 4, rc
    for bad in (["--redis", "127.0.0.1:notaport"], ["--redis", site.redis.address,
                "--node-id", "no spaces"]):
        run = subprocess.run(base + bad, capture_output=True, timeout=20, text=True)
        said = run.stderr + run.stdout
        assert run.returncode == 2 and ("redis" in said or "node-id" in said), \
            (bad, run.returncode, said)
    assert a.health()[1]["redis"] == "up"


async def test_nodes_starting_together_on_a_new_database(site):
    # Compose starts both nodes at once on an empty volume: both create or migrate the same new
    # file, and one's switch to WAL mode met the other's lock (SQLITE_BUSY without the busy
    # handler) and stopped its start. Several rounds, as the race is not won every time.
    # On PostgreSQL both migrate the same emptied database at once.
    for round_no in range(6):
        data_dir = os.path.join(site.tmp, "fresh-%d" % round_no)
        site.reset_database()
        ports = [free_port(), free_port()]
        procs = [subprocess.Popen(
            [site.binary, "--listen", "127.0.0.1", "--port", str(port),
             "--redis", site.redis.address, "--node-id", "fresh-%d-%d" % (round_no, i),
             "--engine-workers", "0", "--log-level", "warn"]
            + site.store_args("fresh-%d-%d" % (round_no, i), data_dir),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for i, port in enumerate(ports)]
        try:
            for port, proc in zip(ports, procs):
                deadline = time.time() + 15
                while True:
                    assert proc.poll() is None, (round_no, proc.returncode,
                                                 proc.stderr.read())
                    try:
                        with urllib.request.urlopen("http://127.0.0.1:%d/healthz" % port,
                                                    timeout=2) as r:
                            assert r.status == 200
                            break
                    except OSError:
                        assert time.time() < deadline, "node did not start"
                        time.sleep(0.05)
        finally:
            for proc in procs:
                proc.send_signal(signal.SIGTERM)
            for proc in procs:
                proc.wait(10)
                proc.stderr.close()


async def test_a_node_without_its_redis_serves_alone_until_it_comes(site):
    # Redis is not there when the node starts (refused), or its name does not resolve: the
    # node starts anyway, degraded, serves games of its own, and joins once Redis is there.
    site.redis.stop()
    a = site.node("a")
    lost = Node(site, "lost", ["--redis", "no-such-host.invalid:6379"])
    site.nodes["lost"] = lost
    for node in (a, lost):
        status, body = node.health()
        assert status == 200 and body["status"] == "degraded" and body["redis"] == "down", body
    alice, bob = await a.player("Alice"), await a.player("Bob")
    sid = (await alice.ok({"type": "seek_create", "time": "unlimited", "color": "white"}))
    gid = (await bob.ok({"type": "seek_accept", "seek": sid["seek"]["id"]}))["game"]["id"]
    await alice.move(gid, "e4")
    await bob.move(gid, "e5")
    site.redis.start()
    await wait_for(lambda: a.health()[1]["redis"] == "up", timeout=10, what="node a joining")
    assert lost.health()[1]["redis"] == "down"
    await alice.move(gid, "Nf3")
    assert (await bob.recv_type("move", san="Nf3"))["game"] == gid


async def test_lobby_of_a_joining_node_and_of_a_lost_one(site):
    a = site.node("a")
    alice = await a.player("Alice")
    sid = (await alice.ok({"type": "seek_create", "time": "unlimited"}))["seek"]["id"]
    # Node b starts after the seek was opened: it asks the others for their seeks.
    b = site.node("b")
    await site.wait_joined(2)
    bob = await b.player("Bob")
    async def listed():
        return [s["id"] for s in (await bob.ok({"type": "lobby_subscribe"}))["seeks"]]
    await wait_for_async(lambda: listed(), [sid], what="node a's seek on node b")
    # Node a dies: after 5 s without its announcements its seeks leave node b's lobby.
    a.proc.send_signal(signal.SIGKILL)
    a.proc.wait(10)
    a.log.close()
    gone = await bob.recv_type("seek_removed", timeout=10, seek=sid)
    assert gone["seek"] == sid
    assert await listed() == []


async def wait_for_async(fn, expected, timeout=TIMEOUT, what="a value"):
    deadline = time.time() + timeout
    while True:
        got = await fn()
        if got == expected:
            return
        assert time.time() < deadline, "timed out waiting for %s: %s" % (what, got)
        await asyncio.sleep(0.1)


async def test_redis_with_a_password(site):
    site.redis.stop()
    site.redis.extra = ["--requirepass", "s3cret-pass"]
    site.redis.start()
    def secret(name, text):
        path = os.path.join(site.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path
    a = site.node("a", "--redis-password-file", secret("good", "s3cret-pass\n"))
    wrong = site.node("wrong", "--redis-password-file", secret("bad", "guess\n"))
    none = site.node("none")
    await wait_for(lambda: a.health()[1]["redis"] == "up", timeout=10, what="node a joining")
    await wait_for(lambda: "refused the password" in wrong.read_log(), timeout=10,
                   what="Redis refusing the wrong password in its node's log")
    for node in (wrong, none):
        assert node.health()[1]["status"] == "degraded", node.node_id
    empty = subprocess.run([site.binary, "--port", str(free_port())] + site.store_args("e") + [
                            "--redis", site.redis.address, "--redis-password-file",
                            secret("empty", "")], capture_output=True, text=True, timeout=20)
    assert empty.returncode == 2 and "empty" in empty.stderr, empty.stderr


async def test_redis_frozen_is_noticed_by_the_deadlines(site):
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    # A Redis that stops answering (not closing) is caught by the command and heartbeat
    # deadlines, not waited on forever.
    site.redis.proc.send_signal(signal.SIGSTOP)
    try:
        for node in (a, b):
            await wait_for(lambda: node.health()[1]["redis"] == "down", timeout=10,
                           what="a frozen Redis noticed")
            assert node.health()[1]["status"] == "degraded"
    finally:
        site.redis.proc.send_signal(signal.SIGCONT)
    await site.wait_joined(2, timeout=15)


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


async def test_owner_cut_off_alone_is_resynchronised_when_back(site):
    a, b, alice, bob, watcher, gid = await cross_node_game(site)
    await play_moves(gid, alice, bob, watcher, ["c4", "e5"])
    # Only node a loses Redis (its two connections closed by Redis): node b never saw an
    # outage, and the move node a plays meanwhile never reaches it.
    assert site.redis.kill_clients("chess-a-") == 2
    reply = await alice.move(gid, "Nc3")
    assert reply["san"] == "Nc3"
    # Node a reconnects; node b sees it came back in its next announcement and resyncs.
    for c in (bob, watcher):
        state = await c.recv(lambda m: m.get("type") == "game" and m["game"]["ply"] == 3,
                             timeout=10, what="the resynchronised game")
        assert state["game"]["san"] == ["c4", "e5", "Nc3"], state
        # Nc3's event is published after its commit: when that came after node a was back (a
        # busy machine), node b also passed the event on, before the state (one connection
        # from node a, in order). It says nothing the state does not.
        c.inbox = [m for m in c.inbox if not (m.get("type") == "move" and m["ply"] <= 3)]
    await play_moves(gid, bob, alice, watcher, ["Nf6"])


async def play_moves(gid, first, second, watcher, moves):
    for i, mv in enumerate(moves):
        mover, other = (first, second) if i % 2 == 0 else (second, first)
        await mover.move(gid, mv)
        for c in (other, watcher):
            seen = await c.recv_type("move")
            assert seen["san"] == mv, (mv, seen, c.inbox)
            # Only the mover's reply carries its request's id (another client may be waiting
            # for a reply with the same id).
            assert "id" not in seen, seen


async def test_moderation_reaches_the_other_node(site):
    # A moderator on node a bans a player who is only on node b: node b ends its game and
    # closes its connection; a block made on node a holds on the blocker's tab on node b.
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    boss = await a.player()
    await boss.ok({"type": "register", "username": "Boss", "password": "correct horse battery"})
    await boss.recv_type("mod_done", action="grant")
    ann, cheat = await b.player("Ann"), await b.player("Cheat")
    created = await ann.ok({"type": "challenge_create", "time": {"minutes": 5, "increment": 0},
                            "color": "white"})
    started = await cheat.ok({"type": "challenge_accept",
                              "challenge": created["challenge"]["id"]})
    gid = started["game"]["id"]
    await ann.move(gid, "e4")
    await cheat.move(gid, "e5")
    await boss.ok({"type": "mod_action", "player": cheat.player["id"], "action": "ban",
                   "text": "engine use"})
    await cheat.recv_type("error", code="BANNED")
    end = await ann.recv_type("game_end", game=gid)
    assert end["result"] == "1-0" and end["reason"] == "resignation", end
    again = await b.connect()
    await again.error({"type": "hello", "protocol": 1, "token": cheat.token}, "BANNED")
    # Blocks: Cat blocks Dog on node a; Cat's other tab is on node b, where Dog is.
    cat = await a.player("Cat")
    cat_b = await b.player(token=cat.token)
    dog = await b.player("Dog")
    await cat.ok({"type": "block", "player": dog.player["id"]})
    deadline = time.time() + TIMEOUT
    while True:
        r = await dog.request({"type": "challenge_create", "player": cat.player["id"],
                               "time": {"minutes": 5, "increment": 0}})
        if r.get("code") == "BLOCKED":
            break
        assert r["type"] == "challenge_created" and time.time() < deadline, r
        await dog.ok({"type": "challenge_cancel", "challenge": r["challenge"]["id"]})
        await asyncio.sleep(0.1)
    assert cat_b.player["id"] == cat.player["id"]


if __name__ == "__main__":
    run_site_tests(globals())
