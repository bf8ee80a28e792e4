"""
The HTTP API (docs/http-api.md) on a site of several nodes (docs/scaling.md): a real
redis-server and two chess_server nodes on one data directory. An HTTP bot whose event stream
is on node a is challenged by a person on node b (WebSocket), accepts over HTTP on node a, and
plays through its game stream on node a while the person moves on node b and a spectator on
node b watches; the bot resigns over HTTP and every side sees the end. The other way round, the
bot's challenge made over HTTP on node a is accepted on node b and the bot mates. And a bot's
requests spread over the nodes, as the nginx front (least_conn, no stickiness) spreads them.
"""
import asyncio

from cluster_harness import *
from harness import bot_account, start_game, wait_online
from lichess_api import Api

MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]


def run(fn, *args, **kw):
    """A blocking HTTP call off the event loop (the WebSocket clients keep reading)."""
    return asyncio.to_thread(fn, *args, **kw)


async def http_bot(node, owner_name, bot_name):
    """A bot made by an owner on node: the owner (connected), the bot's API client on that node
    and its id."""
    owner, token, bot_id = await bot_account(node, owner_name, bot_name)
    return owner, Api(node.port, token), bot_id


async def test_http_bot_on_one_node_plays_a_person_on_another(site):
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    owner, bot, bot_id = await http_bot(a, "BotOwner", "ClusterBot")
    events = await run(bot.stream, "/api/stream/event")
    person = await b.player("Person")
    watcher = await b.player("Watcher")
    # player_get's "online" is the node's own (docs/scaling.md): asked on node a.
    await wait_online(owner, bot_id)

    # The person on node b challenges the bot, whose event stream is on node a.
    created = await person.ok({"type": "challenge_create", "player": bot_id,
                               "time": {"minutes": 5, "increment": 2}, "color": "white"})
    cid = created["challenge"]["id"]
    line = await run(events.next_type, "challenge")
    c = line["challenge"]
    assert c["id"] == cid and c["challenger"]["name"] == "Person", c
    assert c["destUser"]["id"] == "clusterbot" and c["finalColor"] == "white", c

    # Accepted over HTTP on node a: both sides see the game start.
    assert (await run(bot.post, "/api/challenge/%s/accept" % cid)) == {"ok": True}
    start = (await run(events.next_type, "gameStart"))["game"]
    gid = start["gameId"]
    assert start["color"] == "black" and start["opponent"]["username"] == "Person", start
    started = await person.recv_type("game_started")
    assert started["game"]["id"] == gid, started
    game = await run(bot.stream, "/api/bot/game/stream/" + gid)
    full = await run(game.next_type, "gameFull")
    assert full["white"]["name"] == "Person" and full["black"]["title"] == "BOT", full
    assert full["state"]["moves"] == "" and full["state"]["status"] == "started", full
    watched = await watcher.ok({"type": "watch", "game": gid})
    assert watched["game"]["id"] == gid, watched

    # The person moves on node b, the bot over HTTP on node a; the spectator on b sees all.
    for i, mv in enumerate(MOVES):
        if i % 2 == 0:
            await person.move(gid, mv)
        else:
            assert (await run(bot.post, "/api/bot/game/%s/move/%s" % (gid, mv))) == {"ok": True}
            seen = await person.recv_type("move", ply=i + 1)
            assert seen["uci"] == mv, seen
        state = await run(game.next_type, "gameState")
        assert state["moves"] == " ".join(MOVES[: i + 1]), state
        spectated = await watcher.recv_type("move", ply=i + 1)
        assert spectated["uci"] == mv, spectated

    # The bot resigns over HTTP on node a: its streams end, node b's clients see the end.
    assert (await run(bot.post, "/api/bot/game/%s/resign" % gid)) == {"ok": True}
    state = await run(game.next_type, "gameState")
    assert state["status"] == "resign" and state["winner"] == "white", state
    assert await run(game.ended), "the game stream ends with the game"
    finish = (await run(events.next_type, "gameFinish"))["game"]
    assert finish["gameId"] == gid and finish["status"]["name"] == "resign", finish
    assert finish["winner"] == "white", finish
    for c in (person, watcher):
        end = await c.recv_type("game_end", game=gid)
        assert end["reason"] == "resignation" and end["winner"] == "white", end
    # The finished game's PGN from either node.
    for node in (a, b):
        status, headers, pgn = await run(Api(node.port).request, "GET", "/game/export/" + gid)
        assert status == 200 and b'[Result "1-0"]' in pgn, (node.node_id, status, pgn)
    events.close()


async def test_http_bot_challenges_a_person_on_another_node(site):
    """The other way round: the bot's challenge (HTTP, node a) to a registered person on node
    b, accepted there; the bot mates through its streams on node a."""
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    owner, bot, bot_id = await http_bot(a, "OtherOwner", "MatingBot")
    events = await run(bot.stream, "/api/stream/event")
    person = await b.player("Walter")
    await person.ok({"type": "register", "username": "Walter", "password": "password Walter"})
    watcher = await b.player("Onlooker")
    c = await run(bot.post, "/api/challenge/walter",
                  form={"clock.limit": "300", "clock.increment": "0", "color": "black"})
    assert c["destUser"]["name"] == "Walter" and c["finalColor"] == "black", c
    assert (await run(events.next_type, "challenge"))["challenge"]["id"] == c["id"]
    received = await person.recv_type("challenge_received")
    assert received["challenge"]["id"] == c["id"], received
    started = await person.ok({"type": "challenge_accept", "challenge": c["id"]})
    gid = started["game"]["id"]
    start = (await run(events.next_type, "gameStart"))["game"]
    assert start["gameId"] == gid and start["color"] == "black", start
    game = await run(bot.stream, "/api/bot/game/stream/" + gid)
    await run(game.next_type, "gameFull")
    await watcher.ok({"type": "watch", "game": gid})
    fools_mate = ["f2f3", "e7e5", "g2g4", "d8h4"]
    for i, mv in enumerate(fools_mate):
        if i % 2 == 0:
            await person.move(gid, mv)
        else:
            await run(bot.post, "/api/bot/game/%s/move/%s" % (gid, mv))
            assert (await person.recv_type("move", ply=i + 1))["uci"] == mv
        state = await run(game.next_type, "gameState")
        assert state["moves"] == " ".join(fools_mate[: i + 1]), state
        assert (await watcher.recv_type("move", ply=i + 1))["uci"] == mv
    assert state["status"] == "mate" and state["winner"] == "black", state
    assert await run(game.ended), "the game stream ends with the game"
    finish = (await run(events.next_type, "gameFinish"))["game"]
    assert finish["gameId"] == gid and finish["status"]["name"] == "mate", finish
    for cl in (person, watcher):
        end = await cl.recv_type("game_end", game=gid)
        assert end["reason"] == "checkmate" and end["winner"] == "black", end
    events.close()


async def test_a_bots_requests_spread_over_the_nodes(site):
    """Behind the nginx front (least_conn, no stickiness) a bot's requests land on any node: its
    event stream on node a, its game stream on node b, its answers and moves on either."""
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    owner, on_a, bot_id = await http_bot(a, "SpreadOwner", "SpreadBot")
    on_b = Api(b.port, on_a.token)
    events = await run(on_a.stream, "/api/stream/event")
    person = await a.player("Spreader")
    await wait_online(owner, bot_id)
    created = await person.ok({"type": "challenge_create", "player": bot_id,
                               "time": {"minutes": 3, "increment": 0}, "color": "white"})
    cid = created["challenge"]["id"]
    await run(events.next_type, "challenge")
    assert (await run(on_b.post, "/api/challenge/%s/accept" % cid)) == {"ok": True}
    gid = (await run(events.next_type, "gameStart"))["game"]["gameId"]
    await person.recv_type("game_started")
    game = await run(on_b.stream, "/api/bot/game/stream/" + gid)
    await run(game.next_type, "gameFull")
    for i, mv in enumerate(MOVES):
        if i % 2 == 0:
            await person.move(gid, mv)
        else:
            api = on_a if i % 4 == 1 else on_b
            assert (await run(api.post, "/api/bot/game/%s/move/%s" % (gid, mv))) == {"ok": True}
            assert (await person.recv_type("move", ply=i + 1))["uci"] == mv
        state = await run(game.next_type, "gameState")
        assert state["moves"] == " ".join(MOVES[: i + 1]), state
    await run(on_a.post, "/api/bot/game/%s/chat" % gid, form={"room": "player", "text": "gg"})
    chat = await person.recv_type("chat")
    assert chat["text"] == "gg", chat
    assert (await run(on_a.post, "/api/bot/game/%s/resign" % gid)) == {"ok": True}
    state = await run(game.next_type, "gameState")
    assert state["status"] == "resign" and state["winner"] == "white", state
    finish = (await run(events.next_type, "gameFinish"))["game"]
    assert finish["gameId"] == gid and finish["status"]["name"] == "resign", finish
    end = await person.recv_type("game_end", game=gid)
    assert end["reason"] == "resignation", end
    events.close()


async def test_account_playing_lists_the_games_other_nodes_hold(site):
    """/api/account/playing answers for the site: lichess-bot asks it at start to resume its
    games, through a front that may send the request to any node (the node gathers the games
    the other nodes hold, as a hello there does)."""
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    owner, bot, bot_id = await http_bot(a, "PlayingOwner", "PlayingBot")
    events = await run(bot.stream, "/api/stream/event")
    person = await b.player("Resumer")
    created = await person.ok({"type": "challenge_create", "player": bot_id,
                               "time": {"minutes": 5, "increment": 0}, "color": "white"})
    await run(events.next_type, "challenge")
    await run(bot.post, "/api/challenge/%s/accept" % created["challenge"]["id"])
    gid = (await run(events.next_type, "gameStart"))["game"]["gameId"]
    await person.recv_type("game_started")
    await person.move(gid, "e2e4")
    events.close()
    # The event stream opened again on node a knows the game (node b holds it) ...
    again = await run(bot.stream, "/api/stream/event")
    start = (await run(again.next_type, "gameStart"))["game"]
    assert start["gameId"] == gid and start["isMyTurn"] is True, start
    again.close()
    # ... and so must /api/account/playing, asked on either node.
    for node in (b, a):
        playing = await run(Api(node.port, bot.token).get, "/api/account/playing")
        assert [g["gameId"] for g in playing["nowPlaying"]] == [gid], (
            "/api/account/playing on node %s: %s; the game %s is held by node b"
            % (node.node_id, playing, gid))


async def test_my_games_lists_the_games_other_nodes_hold(site):
    """my_games (the lobby's "Your turn") asked on one node lists the player's games every node
    holds, in one order: the player's turn first, then by its time left."""
    a, b = site.node("a"), site.node("b")
    await site.wait_joined(2)
    players = {}
    for name, node in (("kim", a), ("lou", b), ("max", b)):
        c = await node.player(name)
        await c.ok({"type": "register", "username": name, "password": "password " + name})
        players[name] = c
    kim, lou, max_ = players["kim"], players["lou"], players["max"]
    on_a = await start_game(kim, lou, {"days": 1})  # held by node a; kim (White) to move
    on_b = await start_game(max_, kim, {"days": 7})  # held by node b; max (White) to move ...
    await max_.move(on_b, "c2c4")  # ... now kim
    waiting = await start_game(lou, kim, {"days": 3})  # held by node b; lou to move
    mine = (await kim.ok({"type": "my_games"}))["games"]
    assert [g["id"] for g in mine] == [on_a, on_b, waiting], mine
    assert [g["my_turn"] for g in mine] == [True, True, False], mine
    assert mine[1]["last_move"] == "c2c4" and mine[1]["color"] == "black", mine
    theirs = (await lou.ok({"type": "my_games"}))["games"]
    assert [g["id"] for g in theirs] == [waiting, on_a], theirs
    # Alone on its node now: node b's games are still listed.
    assert [g["id"] for g in (await max_.ok({"type": "my_games"}))["games"]] == [on_b]


if __name__ == "__main__":
    run_site_tests(globals())
