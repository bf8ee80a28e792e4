"""
The lichess-compatible HTTP API (docs/http-api.md) against the real server: a bot on HTTP plays
a person on the WebSocket protocol through the event and game streams; two HTTP bots play each
other; challenges are accepted, declined and cancelled; a game stream cut mid-game is reopened
with nothing lost; and every refusal gets lichess's status and a JSON error.
"""
import asyncio
import json
import time

from harness import *
from lichess_api import Api, ApiError, Stream


def run(fn, *args, **kw):
    """A blocking HTTP call off the event loop (the WebSocket clients keep reading)."""
    return asyncio.to_thread(fn, *args, **kw)


async def bot_api(srv, owner, bot):
    """A bot account (created over the WebSocket protocol) and its API client."""
    _, token, bot_id = await bot_account(srv, owner, bot)
    return Api(srv.port, token), bot_id


async def test_bot_plays_a_person(srv):
    api, bot_id = await bot_api(srv, "Owner", "ApiBot")
    me = await run(api.get, "/api/account")
    assert me["username"] == "ApiBot" and me["id"] == "apibot" and me["title"] == "BOT", me
    assert set(me["perfs"]) >= {"bullet", "blitz", "rapid", "classical"}, me
    test = await run(api.post, "/api/token/test", body=api.token + ",nosuchtoken")
    assert test[api.token]["userId"] == "apibot" and test[api.token]["scopes"] == "bot:play", test
    assert test["nosuchtoken"] is None, test
    events = await run(api.stream, "/api/stream/event")
    person = await srv.player("Person")
    await wait_online(person, bot_id)
    created = await person.ok({"type": "challenge_create", "player": bot_id,
                               "time": {"minutes": 5, "increment": 3}, "color": "white"})
    cid = created["challenge"]["id"]
    ev = await run(events.next_type, "challenge")
    c = ev["challenge"]
    assert c["id"] == cid and c["status"] == "created" and c["challenger"]["name"] == "Person", c
    assert c["destUser"]["id"] == "apibot" and c["destUser"]["title"] == "BOT", c
    assert c["timeControl"] == {"type": "clock", "limit": 300, "increment": 3, "show": "5+3"}, c
    assert c["speed"] == "blitz" and c["color"] == "white" and c["finalColor"] == "white", c
    assert c["variant"]["key"] == "standard" and c["rated"] is False, c
    assert (await run(api.post, "/api/challenge/%s/accept" % cid)) == {"ok": True}
    start = await run(events.next_type, "gameStart")
    g = start["game"]
    gid = g["gameId"]
    assert g["color"] == "black" and g["isMyTurn"] is False and g["opponent"]["username"] == "Person", g
    assert g["compat"] == {"bot": True, "board": True} and g["secondsLeft"] == 300, g
    started = await person.recv_type("game_started")
    assert started["game"]["id"] == gid
    # The game stream: gameFull, then a gameState per move.
    game = await run(api.stream, "/api/bot/game/stream/" + gid)
    full = await run(game.next)
    assert full["type"] == "gameFull" and full["id"] == gid, full
    assert full["white"]["name"] == "Person" and full["black"]["title"] == "BOT", full
    assert full["clock"] == {"initial": 300000, "increment": 3000}, full
    assert full["initialFen"] == "startpos" and full["state"]["moves"] == "", full
    assert full["state"]["status"] == "started" and full["speed"] == "blitz", full
    # Fool's mate, the bot mating: the person's moves over the WebSocket, the bot's over HTTP.
    for i, mv in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
        if i % 2 == 0:
            await person.move(gid, mv)
        else:
            assert (await run(api.post, "/api/bot/game/%s/move/%s" % (gid, mv))) == {"ok": True}
            ev = await person.recv_type("move")
            assert ev["uci"] == mv, ev
        state = await run(game.next_type, "gameState")
        played = ["f2f3", "e7e5", "g2g4", "d8h4"][: i + 1]
        assert state["moves"] == " ".join(played), (state, played)
        assert state["winc"] == 3000 and state["binc"] == 3000, state
    assert state["status"] == "mate" and state["winner"] == "black", state
    assert await run(game.ended), "the game stream ends with the game"
    finish = await run(events.next_type, "gameFinish")
    assert finish["game"]["gameId"] == gid and finish["game"]["status"]["name"] == "mate", finish
    assert finish["game"]["winner"] == "black", finish
    end = await person.recv_type("game_end")
    assert end["reason"] == "checkmate" and end["winner"] == "black", end
    # The game's PGN, as lichess exports it.
    status, headers, pgn = await run(api.request, "GET", "/game/export/" + gid)
    assert status == 200 and headers["content-type"] == "application/x-chess-pgn", (status, headers)
    assert b'[Result "0-1"]' in pgn and b"Qh4#" in pgn, pgn
    # An ended game's stream: its gameFull, and the end.
    again = await run(api.stream, "/api/bot/game/stream/" + gid)
    full = await run(again.next)
    assert full["type"] == "gameFull" and full["state"]["status"] == "mate", full
    assert await run(again.ended)
    events.close()


async def test_two_http_bots(srv):
    a, a_id = await bot_api(srv, "OwnerA", "AlphaBot")
    b, b_id = await bot_api(srv, "OwnerB", "BetaBot")
    events_a = await run(a.stream, "/api/stream/event")
    events_b = await run(b.stream, "/api/stream/event")
    watcher = await srv.player("Watcher")
    await wait_online(watcher, b_id)
    # A challenges B by username with a form body, as lichess's clients do.
    c = await run(a.post, "/api/challenge/BetaBot",
                  form={"clock.limit": "180", "clock.increment": "2", "color": "black",
                        "rated": "false"})
    assert c["destUser"]["name"] == "BetaBot" and c["timeControl"]["show"] == "3+2", c
    assert c["finalColor"] == "black", c
    assert (await run(events_a.next_type, "challenge"))["challenge"]["id"] == c["id"]
    assert (await run(events_b.next_type, "challenge"))["challenge"]["id"] == c["id"]
    await run(b.post, "/api/challenge/%s/accept" % c["id"])
    gid = (await run(events_a.next_type, "gameStart"))["game"]["gameId"]
    assert (await run(events_b.next_type, "gameStart"))["game"]["color"] == "white"
    stream_a = await run(a.stream, "/api/bot/game/stream/" + gid)
    stream_b = await run(b.stream, "/api/bot/game/stream/" + gid)
    await run(stream_a.next_type, "gameFull")
    await run(stream_b.next_type, "gameFull")
    # Each sees the other's moves; a spectator on the WebSocket sees them too.
    await watcher.ok({"type": "watch", "game": gid})
    moves = ["e2e4", "c7c5", "g1f3", "d7d6"]
    for i, mv in enumerate(moves):
        mover = b if i % 2 == 0 else a  # B is white
        await run(mover.post, "/api/bot/game/%s/move/%s" % (gid, mv))
        for s in (stream_a, stream_b):
            state = await run(s.next_type, "gameState")
            assert state["moves"] == " ".join(moves[: i + 1]), state
        seen = await watcher.recv_type("move")
        assert seen["uci"] == mv
    # Chat in the players' room reaches the other bot's stream.
    await run(a.post, "/api/bot/game/%s/chat" % gid, form={"room": "player", "text": "good game"})
    line = await run(stream_b.next_type, "chatLine")
    assert line == {"type": "chatLine", "room": "player", "username": "AlphaBot",
                    "text": "good game"}, line
    # A resigns: both streams end with its status, both event streams get gameFinish.
    await run(a.post, "/api/bot/game/%s/resign" % gid)
    for s in (stream_a, stream_b):
        state = await run(s.next_type, "gameState")
        assert state["status"] == "resign" and state["winner"] == "white", state
    for e in (events_a, events_b):
        fin = await run(e.next_type, "gameFinish")
        assert fin["game"]["status"]["name"] == "resign", fin
    for s in (events_a, events_b):
        s.close()


async def test_decline_and_cancel(srv):
    a, a_id = await bot_api(srv, "OwnerC", "GammaBot")
    b, b_id = await bot_api(srv, "OwnerD", "DeltaBot")
    events_a = await run(a.stream, "/api/stream/event")
    events_b = await run(b.stream, "/api/stream/event")
    other = await srv.player("Other")
    await wait_online(other, b_id)
    c = await run(a.post, "/api/challenge/deltabot", form={"clock.limit": "60"})
    await run(events_b.next_type, "challenge")
    await run(b.post, "/api/challenge/%s/decline" % c["id"], form={"reason": "tooFast"})
    for e in (events_a, events_b):
        d = await run(e.next_type, "challengeDeclined")
        assert d["challenge"]["id"] == c["id"] and d["challenge"]["status"] == "declined", d
        assert d["challenge"]["declineReasonKey"] == "timeControl", d
    c = await run(a.post, "/api/challenge/deltabot", form={"clock.limit": "600"})
    await run(events_b.next_type, "challenge")
    # Only its creator may cancel it, only the invited player accept it.
    await run(b.post, "/api/challenge/%s/cancel" % c["id"], expect=400)
    await run(a.post, "/api/challenge/%s/accept" % c["id"], expect=400)
    await run(a.post, "/api/challenge/%s/cancel" % c["id"])
    for e in (events_a, events_b):
        d = await run(e.next_type, "challengeCanceled")
        assert d["challenge"]["id"] == c["id"] and d["challenge"]["status"] == "canceled", d
    await run(b.post, "/api/challenge/%s/accept" % c["id"], expect=404)
    await run(a.post, "/api/challenge/nosuchuser1", form={"clock.limit": "60"}, expect=404)
    # The computer: a game at once; only its player streams it.
    ai = await run(a.post, "/api/challenge/ai", form={"level": "1", "clock.limit": "300",
                                                       "clock.increment": "0", "color": "white"})
    assert ai["color"] == "white" and ai["opponent"]["ai"] == 1 and ai["source"] == "ai", ai
    stream = await run(a.stream, "/api/bot/game/stream/" + ai["gameId"])
    full = await run(stream.next_type, "gameFull")
    assert full["black"] == {"aiLevel": 1}, full
    await run(b.stream, "/api/bot/game/stream/" + ai["gameId"], expect=404)
    await run(a.post, "/api/bot/game/%s/move/e2e4" % ai["gameId"])
    state = await run(stream.next_type, "gameState")
    while len(state["moves"].split()) < 2:  # the computer answers
        state = await run(stream.next_type, "gameState")
    await run(a.post, "/api/bot/game/%s/resign" % ai["gameId"])
    stream.close()
    await run(a.post, "/api/challenge/ai", form={"level": "9"}, expect=400)
    body = await run(a.post, "/api/challenge/open", expect=400)
    assert "not offered" in body["error"], body
    for e in (events_a, events_b):
        e.close()


async def test_stream_cut_and_reopened(srv):
    api, bot_id = await bot_api(srv, "OwnerE", "EpsilonBot")
    events = await run(api.stream, "/api/stream/event")
    person = await srv.player("Human")
    await wait_online(person, bot_id)
    created = await person.ok({"type": "challenge_create", "player": bot_id,
                               "time": {"minutes": 10, "increment": 0}, "color": "white"})
    await run(api.post, "/api/challenge/%s/accept" % created["challenge"]["id"])
    gid = (await run(events.next_type, "gameStart"))["game"]["gameId"]
    await person.recv_type("game_started")
    game = await run(api.stream, "/api/bot/game/stream/" + gid)
    await run(game.next_type, "gameFull")
    # One stream per game per token.
    with_second = await run(lambda: Stream(api, "/api/bot/game/stream/" + gid, expect=429))
    assert with_second.status == 429
    await person.move(gid, "e2e4")
    await run(game.next_type, "gameState")
    game.close()  # cut
    await run(api.post, "/api/bot/game/%s/move/e7e5" % gid)
    await person.recv_type("move")
    await person.move(gid, "g1f3")
    # Reopened: gameFull again, with every move.
    reopened = await run(lambda: _reopen(api, gid))
    full = await run(reopened.next_type, "gameFull")
    assert full["state"]["moves"] == "e2e4 e7e5 g1f3", full
    # The account's games in progress.
    playing = await run(api.get, "/api/account/playing")
    assert [g["gameId"] for g in playing["nowPlaying"]] == [gid], playing
    assert playing["nowPlaying"][0]["isMyTurn"] is True, playing
    reopened.close()
    events.close()


def _reopen(api, gid):
    """The game stream again once the cut one's key is free (the server notices the cut)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            return Stream(api, "/api/bot/game/stream/" + gid)
        except ApiError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


async def account_api(srv, name, scopes):
    """A registered account (connected) and an API client with a personal token of these scopes."""
    ws = await srv.player(name)
    await ws.ok({"type": "register", "username": name, "password": "password " + name})
    created = await ws.ok({"type": "api_token_create", "description": "test", "scopes": scopes})
    return ws, Api(srv.port, created["token"]), created["info"]["id"]


async def test_board_api_with_personal_tokens(srv):
    alice_ws, alice, token_id = await account_api(srv, "Alice", "board:play,challenge:read")
    _, reader, _ = await account_api(srv, "Reader", "preference:read")
    test = await run(alice.post, "/api/token/test", body=alice.token)
    assert test[alice.token]["scopes"] == "challenge:read,board:play", test
    # Scopes: a token without board:play may not play or stream games, nor read events.
    body = await run(reader.stream, "/api/stream/event", expect=403)
    await run(reader.post, "/api/board/game/abcdefgh/move/e2e4", expect=403)
    assert (await run(reader.get, "/api/account"))["username"] == "Reader"
    # A person in the browser (a WebSocket) challenges the board program's account.
    events = await run(alice.stream, "/api/stream/event")
    alice_id = alice_ws.player["id"]
    bob = await srv.player("Bob")
    await wait_online(bob, alice_id)
    created = await bob.ok({"type": "challenge_create", "player": alice_id,
                            "time": {"minutes": 10, "increment": 5}, "color": "white"})
    cid = created["challenge"]["id"]
    await run(events.next_type, "challenge")
    await run(alice.post, "/api/challenge/%s/accept" % cid)
    gid = (await run(events.next_type, "gameStart"))["game"]["gameId"]
    assert gid == cid, "a direct challenge's game has its id, as on lichess"
    await run(alice.stream, "/api/bot/game/stream/" + gid, expect=403)
    game = await run(alice.stream, "/api/board/game/stream/" + gid)
    full = await run(game.next_type, "gameFull")
    assert full["black"]["name"] == "Alice" and "title" not in full["black"], full
    await bob.move(gid, "e2e4")
    await run(game.next_type, "gameState")
    await run(alice.post, "/api/board/game/%s/move/e7e5" % gid)
    await run(game.next_type, "gameState")
    # Bob proposes a takeback: the stream shows it; Alice accepts: both moves are undone.
    await bob.ok({"type": "takeback_propose", "game": gid})
    state = await run(game.next_type, "gameState")
    assert state.get("wtakeback") is True and "btakeback" not in state, state
    await run(alice.post, "/api/board/game/%s/takeback/yes" % gid)
    state = await run(game.next_type, "gameState")
    assert state["moves"] == "" and "wtakeback" not in state, state
    await bob.recv_type("takeback")
    # A move offering a draw, declined; then a draw offered and accepted.
    await bob.move(gid, "d2d4")
    await run(game.next_type, "gameState")
    await run(alice.post, "/api/board/game/%s/move/d7d5?offeringDraw=true" % gid)
    state = await run(game.next_type, "gameState")
    while not state.get("bdraw"):
        state = await run(game.next_type, "gameState")
    assert state["moves"] == "d2d4 d7d5", state
    await bob.recv_type("offer", kind="draw")
    await bob.ok({"type": "draw_decline", "game": gid})
    state = await run(game.next_type, "gameState")
    assert "bdraw" not in state, state
    await bob.ok({"type": "draw_offer", "game": gid})
    state = await run(game.next_type, "gameState")
    assert state.get("wdraw") is True, state
    await run(alice.post, "/api/board/game/%s/draw/yes" % gid)
    state = await run(game.next_type, "gameState")
    assert state["status"] == "draw" and "winner" not in state, state
    end = await bob.recv_type("game_end")
    assert end["reason"] == "agreement", end
    # Revoked: refused at once on this node.
    await alice_ws.ok({"type": "api_token_revoke", "token_id": token_id})
    body = await run(alice.get, "/api/account", expect=401)
    assert body == {"error": "No such token"}, body
    events.close()


async def test_board_seek_and_exports(srv):
    alice_ws, alice, _ = await account_api(srv, "Carol", "board:play")
    bob = await srv.player("Dave")
    await bob.ok({"type": "lobby_subscribe"})
    # A seek held while the request is open: closed, it goes.
    seek = await run(alice.stream, "/api/board/seek", method="POST",
                     form={"time": "3", "increment": "2", "color": "white"})
    added = await bob.recv_type("seek_added")
    assert added["seek"]["player"]["name"] == "Carol" and added["seek"]["color"] == "white", added
    seek.close()
    removed = await bob.recv_type("seek_removed")
    assert removed["seek"] == added["seek"]["id"], removed
    # Held again, and accepted: the request ends, and the game is the account's.
    events = await run(alice.stream, "/api/stream/event")
    seek = await run(alice.stream, "/api/board/seek", method="POST",
                     form={"time": "3", "increment": "2"})
    added = await bob.recv_type("seek_added")
    started = await bob.ok({"type": "seek_accept", "seek": added["seek"]["id"]})
    gid = started["game"]["id"]
    assert await run(seek.ended), "the seek's request ends when its game starts"
    assert (await run(events.next_type, "gameStart"))["game"]["gameId"] == gid
    await run(alice.post, "/api/board/seek", form={"time": "0"}, expect=400)
    await run(alice.post, "/api/board/seek", form={"time": "3", "days": "2"}, expect=400)
    await run(alice.post, "/api/board/seek", form={"days": "4"}, expect=400)
    # The game played out (Carol resigns over HTTP), then exported as lichess exports games.
    white = started["game"]["white"]["name"]
    first = "e2e4" if white == "Dave" else None
    if first:
        await bob.move(gid, first)
    await run(alice.post, "/api/board/game/%s/resign" % gid)
    await bob.recv_type("game_end")
    status, headers, pgn = await run(alice.request, "GET", "/api/games/user/carol")
    assert status == 200 and headers["content-type"] == "application/x-chess-pgn", headers
    assert pgn.count(b"[Event ") == 1 and b'[Site "http://' in pgn, pgn
    status, headers, body = await run(alice.request, "GET", "/api/games/user/Carol",
                                      headers={"Accept": "application/x-ndjson"})
    assert status == 200 and headers["content-type"] == "application/x-ndjson", headers
    games = [json.loads(line) for line in body.splitlines()]
    assert len(games) == 1 and games[0]["id"] == gid and games[0]["status"] == "resign", games
    assert games[0]["players"]["white"]["user"]["name"] == white, games
    assert games[0]["clock"] == {"initial": 180, "increment": 2, "totalTime": 260}, games
    assert games[0]["speed"] == "blitz" and games[0]["moves"] == ("e4" if first else ""), games
    status, _, _ = await run(alice.request, "GET", "/api/games/user/nosuchname")
    assert status == 404, status
    events.close()
    # Upgrading to a bot account: refused for an account that has played, and for a token
    # without bot:play; done, for good, for one that has not.
    played = await alice_ws.ok({"type": "api_token_create", "description": "b", "scopes": "bot:play"})
    body = await run(Api(srv.port, played["token"]).post, "/api/bot/account/upgrade", expect=400)
    assert "played" in body["error"], body
    await run(alice.post, "/api/bot/account/upgrade", expect=403)
    fresh_ws, fresh, _ = await account_api(srv, "Newbot", "bot:play")
    assert "title" not in await run(fresh.get, "/api/account")
    assert await run(fresh.post, "/api/bot/account/upgrade") == {"ok": True}
    assert (await run(fresh.get, "/api/account"))["title"] == "BOT"
    await run(fresh.post, "/api/bot/account/upgrade", expect=400)
    stream = await run(fresh.stream, "/api/stream/event")  # a bot's, now
    await wait_online(bob, fresh_ws.player["id"])
    challenge = await bob.ok({"type": "challenge_create", "player": fresh_ws.player["id"],
                              "time": {"minutes": 5, "increment": 0}})
    assert challenge["challenge"]["to"]["bot"] is True, challenge
    assert (await run(stream.next_type, "challenge"))["challenge"]["destUser"]["title"] == "BOT"
    stream.close()


async def test_open_challenges_and_rate_limits(srv):
    api, bot_id = await bot_api(srv, "OwnerG", "EtaBot")
    person = await srv.player("Person")
    first = await run(api.stream, "/api/stream/event")
    await wait_online(person, bot_id)
    created = await person.ok({"type": "challenge_create", "player": bot_id,
                               "time": {"minutes": 5, "increment": 0}})
    await run(first.next_type, "challenge")
    first.close()
    # A stream opened later is told of the challenge still open.
    again = await run(api.stream, "/api/stream/event")
    ev = await run(again.next_type, "challenge")
    assert ev["challenge"]["id"] == created["challenge"]["id"], ev
    again.close()
    # Per token: a bot's burst (--bot-rate-burst) and then 429 with Retry-After.
    limited = Server(srv.binary, args=["--bot-rate-burst", "5", "--bot-rate-limit", "1"])
    try:
        api2, _ = await bot_api(limited, "OwnerH", "ThetaBot")
        statuses = []
        for _ in range(8):
            status, headers, body = await run(api2.request, "GET", "/api/account")
            statuses.append(status)
        assert statuses[:5] == [200] * 5 and statuses[-1] == 429, statuses
        assert headers["retry-after"] == "1" and json.loads(body)["error"], (headers, body)
        assert "chess_api_rate_limited_total" in limited.http("/metrics")[2].decode()
    finally:
        for c in limited.clients:
            await c.close()
        limited.close()


async def test_opponent_gone_and_claim_victory(srv):
    quick = Server(srv.binary, args=["--abandon-seconds", "2"])
    try:
        api, bot_id = await bot_api(quick, "OwnerI", "IotaBot")
        events = await run(api.stream, "/api/stream/event")
        person = await quick.player("Leaver")
        await wait_online(person, bot_id)
        created = await person.ok({"type": "challenge_create", "player": bot_id,
                                   "time": {"minutes": 5, "increment": 0}, "color": "white"})
        await run(api.post, "/api/challenge/%s/accept" % created["challenge"]["id"])
        gid = (await run(events.next_type, "gameStart"))["game"]["gameId"]
        game = await run(api.stream, "/api/bot/game/stream/" + gid)
        await run(game.next_type, "gameFull")
        await person.move(gid, "e2e4")
        await run(api.post, "/api/bot/game/%s/move/e7e5" % gid)
        await run(game.next_type, "gameState")
        # Too early to claim while the opponent is there.
        await run(api.post, "/api/bot/game/%s/claim-victory" % gid, expect=400)
        await person.close()
        gone = await run(game.next_type, "opponentGone")
        assert gone["gone"] is True and gone["claimWinInSeconds"] == 2, gone
        await run(api.post, "/api/bot/game/%s/claim-victory" % gid, expect=400)
        await asyncio.sleep(2.2)
        assert (await run(api.post, "/api/bot/game/%s/claim-victory" % gid)) == {"ok": True}
        state = await run(game.next_type, "gameState")
        assert state["status"] == "timeout" and state["winner"] == "black", state
        events.close()
    finally:
        for c in quick.clients:
            await c.close()
        quick.close()


async def test_refusals(srv):
    api, bot_id = await bot_api(srv, "OwnerF", "ZetaBot")
    anonymous = Api(srv.port)
    wrong = Api(srv.port, "X" * 32)
    for who, status, error in ((anonymous, 401, "Missing token"), (wrong, 401, "No such token")):
        body = await run(who.get, "/api/account", expect=status)
        assert body == {"error": error}, body
        await run(who.stream, "/api/stream/event", expect=status)
    # A bot token on the board API, and a move in a game that does not exist.
    await run(api.post, "/api/board/game/abcdefgh/move/e2e4", expect=403)
    body = await run(api.post, "/api/bot/game/abcdefgh/move/e2e4", expect=404)
    assert body == {"error": "No such game"}, body
    await run(api.stream, "/api/bot/game/stream/abcdefgh", expect=404)
    # Wrong methods and unknown paths: JSON, never the web client.
    status, headers, body = await run(api.request, "GET", "/api/bot/game/abcdefgh/resign")
    assert status == 405 and "POST" in headers["allow"] and json.loads(body), (status, body)
    status, _, body = await run(api.request, "GET", "/api/no/such/endpoint")
    assert status == 404 and json.loads(body), (status, body)
    # Bad forms.
    await run(api.post, "/api/challenge/someone", form={"variant": "crazyhouse"}, expect=400)
    await run(api.post, "/api/challenge/someone", form={"clock.limit": "x"}, expect=400)
    await run(api.post, "/api/challenge/someone", form={"color": "green"}, expect=400)
    await run(api.post, "/api/bot/game/abcdefgh/draw/maybe", expect=400)
    # A body too large, and no Content-Length.
    status, _, _ = await run(api.request, "POST", "/api/token/test", body="x" * 70000)
    assert status == 413, status
    # Users.
    user = await run(anonymous.get, "/api/user/zetabot")
    assert user["username"] == "ZetaBot" and user["title"] == "BOT", user
    await run(anonymous.get, "/api/user/nobodyhere", expect=404)
    status = await run(anonymous.get, "/api/users/status?ids=zetabot,ownerf,nobodyhere")
    assert [s["id"] for s in status] == ["zetabot", "ownerf"], status


DAY_MS = 24 * 3600 * 1000


async def test_daily_games_for_bots(srv):
    """Daily (correspondence) games as lichess-bot sees them: the challenge's timeControl and
    speed, gameFull without a clock but with daysPerTurn, gameState's times in milliseconds,
    /api/account/playing with the games where it is the bot's turn first; daily board seeks
    and the days field's refusals."""
    api, bot_id = await bot_api(srv, "OwnerD", "DailyBot")
    person, board, _ = await account_api(srv, "Corra", "board:play,challenge:write")
    events = await run(api.stream, "/api/stream/event")
    await wait_online(person, bot_id)
    games = []
    for days in (2, 7):
        created = await person.ok({"type": "challenge_create", "player": bot_id,
                                   "time": {"days": days}, "color": "white"})
        c = (await run(events.next_type, "challenge"))["challenge"]
        assert c["id"] == created["challenge"]["id"], c
        assert c["timeControl"] == {"type": "correspondence", "daysPerTurn": days}, c
        assert c["speed"] == "correspondence" and c["perf"]["name"] == "Correspondence", c
        await run(api.post, "/api/challenge/%s/accept" % c["id"])
        g = (await run(events.next_type, "gameStart"))["game"]
        assert g["speed"] == "correspondence" and g["color"] == "black", g
        assert g["secondsLeft"] == days * 86400 and g["isMyTurn"] is False, g
        games.append(g["gameId"])
        await person.recv_type("game_started")
    # The 2-day game's stream: no clock, daysPerTurn, times as lichess sends them.
    gid = games[0]
    stream = await run(api.stream, "/api/bot/game/stream/" + gid)
    full = await run(stream.next_type, "gameFull")
    assert full["clock"] is None and full["daysPerTurn"] == 2, full
    assert full["speed"] == "correspondence" and full["perf"]["name"] == "Correspondence", full
    await person.move(gid, "e2e4")
    state = await run(stream.next_type, "gameState")
    assert state["moves"] == "e2e4" and state["winc"] == 0 and state["binc"] == 0, state
    assert state["wtime"] == 2 * DAY_MS and state["btime"] == 2 * DAY_MS, state
    await run(api.post, "/api/bot/game/%s/move/e7e5" % gid)
    state = await run(stream.next_type, "gameState")
    assert state["btime"] == 2 * DAY_MS and 2 * DAY_MS - 5000 < state["wtime"] <= 2 * DAY_MS, state
    await person.move(gid, "g1f3")
    await run(stream.next_type, "gameState")
    # Now the bot is to move in the 2-day game, not in the 7-day one: that one comes first.
    playing = (await run(api.get, "/api/account/playing"))["nowPlaying"]
    assert [p["gameId"] for p in playing] == games, playing
    assert playing[0]["isMyTurn"] is True and playing[1]["isMyTurn"] is False, playing
    assert 2 * 86400 - 5 <= playing[0]["secondsLeft"] <= 2 * 86400, playing
    assert playing[0]["speed"] == "correspondence" and playing[0]["lastMove"] == "g1f3", playing
    mine = (await run(board.get, "/api/account/playing"))["nowPlaying"]
    assert [p["gameId"] for p in mine] == [games[1], games[0]], mine
    stream.close()
    # A daily board seek, held while its request is open and accepted by another account.
    other = await srv.player("Watcher2")
    await other.ok({"type": "register", "username": "Watcher2", "password": "password w2"})
    await other.ok({"type": "lobby_subscribe"})
    seek = await run(board.stream, "/api/board/seek", method="POST", form={"days": "3"})
    added = await other.recv_type("seek_added")
    assert added["seek"]["time"] == {"days": 3}, added
    started = await other.ok({"type": "seek_accept", "seek": added["seek"]["id"]})
    assert started["game"]["time"] == {"days": 3}, started
    assert await run(seek.ended)
    # Refusals: days not allowed, days with a clock.
    for form in ({"days": "4"}, {"days": "0"}, {"days": "x"}, {"days": "3", "clock.limit": "60"}):
        await run(board.post, "/api/challenge/DailyBot", form=form, expect=400)
        await run(board.post, "/api/challenge/ai", form=dict(form, level="1"), expect=400)
    await run(board.post, "/api/board/seek", form={"days": "15"}, expect=400)
    events.close()


if __name__ == "__main__":
    run_tests(globals())
