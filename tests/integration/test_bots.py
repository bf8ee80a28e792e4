"""
Bot accounts (docs/bots.md): creating bots and their tokens, connecting with the Authorization
header or hello, refusals of wrong and revoked tokens with their codes, bots marked as bots
wherever players appear, direct challenges (received, declined with a reason, cancelled,
accepted), the rule on rated games between bots and people, and the random bot
(bots/random_bot.py) playing whole games as a real process.
"""
import json

from harness import *


async def connect_bearer(srv, token):
    """A WebSocket opened with "Authorization: Bearer <token>"; returns (ws, first message)."""
    ws = await websockets.connect(srv.url, extra_headers={"Authorization": "Bearer " + token})
    return ws, json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))


async def expect_closed(ws, code):
    try:
        while True:
            await asyncio.wait_for(ws.recv(), TIMEOUT)
    except websockets.ConnectionClosed:
        pass
    assert ws.close_code == code, (ws.close_code, ws.close_reason)


async def test_bot_tokens(srv):
    owner, token, bot_id = await bot_account(srv, "Owner", "RandBot")
    # The header identifies the bot: its welcome comes first, with no session token.
    ws, welcome = await connect_bearer(srv, token)
    assert welcome["type"] == "welcome", welcome
    assert welcome["player"] == {"id": bot_id, "name": "RandBot", "bot": True}, welcome
    assert "token" not in welcome and welcome["games"] == []
    # hello with the token works as well, and a second token names the same bot.
    second = (await owner.ok({"type": "bot_token_create", "username": "randbot"}))["token"]
    assert second != token
    via_hello = await srv.player(token=second)
    assert via_hello.player["id"] == bot_id
    # Wrong tokens: BAD_TOKEN; after a header the connection is closed (policy violation).
    bad, refused = await connect_bearer(srv, "X" * 32)
    assert refused["type"] == "error" and refused["code"] == "BAD_TOKEN", refused
    await expect_closed(bad, 1008)
    stranger = await srv.connect()
    await stranger.error({"type": "hello", "protocol": 1, "token": "Y" * 32}, "BAD_TOKEN")
    # A bot has no password.
    await stranger.error({"type": "login", "username": "RandBot", "password": "anything at all"},
                         "LOGIN_FAILED")
    # Who may manage bots, and which.
    guest = await srv.player("Guest1")
    await guest.error({"type": "bot_create", "username": "GuestBot"}, "ACCOUNT_REQUIRED")
    await via_hello.error({"type": "bot_create", "username": "BotsBot"}, "ACCOUNT_REQUIRED")
    await owner.error({"type": "bot_create", "username": "randBOT"}, "USERNAME_TAKEN")
    await owner.error({"type": "bot_create", "username": "x"}, "USERNAME_INVALID")
    other, _, _ = await bot_account(srv, "Other", "OtherBot")
    await other.error({"type": "bot_token_revoke", "username": "RandBot"}, "BOT_NOT_FOUND")
    await other.error({"type": "bot_token_create", "username": "RandBot"}, "BOT_NOT_FOUND")
    await owner.error({"type": "bot_token_revoke", "username": "NoSuchBot"}, "BOT_NOT_FOUND")
    listed = await owner.ok({"type": "bots_list"})
    assert [(b["id"], b["name"], b["tokens"]) for b in listed["bots"]] == [(bot_id, "RandBot", 2)]
    assert (await other.ok({"type": "bots_list"}))["bots"][0]["name"] == "OtherBot"
    await guest.error({"type": "bots_list"}, "ACCOUNT_REQUIRED")
    # Revoking: the connected bot is told and closed, and neither token works any more.
    await owner.ok({"type": "bot_token_revoke", "username": "RandBot"})
    listed = await owner.ok({"type": "bots_list"})
    assert listed["bots"][0]["tokens"] == 0, listed
    m = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    assert m["type"] == "error" and m["code"] == "BAD_TOKEN", m
    await expect_closed(ws, 1008)
    await via_hello.recv_type("error", code="BAD_TOKEN")
    for t in (token, second):
        again = await srv.connect()
        await again.error({"type": "hello", "protocol": 1, "token": t}, "BAD_TOKEN")
    # A new token lets it in again.
    third = (await owner.ok({"type": "bot_token_create", "username": "RandBot"}))["token"]
    back = await srv.player(token=third)
    assert back.player["id"] == bot_id


async def test_bots_marked_and_direct_challenges(srv):
    owner, token, bot_id = await bot_account(srv, "Owner", "RandBot")
    bot = await srv.player(token=token)
    # Offline players and the computer cannot be challenged directly.
    await owner.error({"type": "challenge_create", "player": "NoSuchPlayr1",
                       "time": {"minutes": 1, "increment": 0}}, "PLAYER_OFFLINE")
    # A seek by the bot shows it as a bot in the lobby.
    watcher = await srv.player("Watcher")
    seeks = await watcher.ok({"type": "lobby_subscribe"})
    assert seeks["seeks"] == []
    await bot.ok({"type": "seek_create", "time": {"minutes": 3, "increment": 0}})
    added = await watcher.recv_type("seek_added")
    assert added["seek"]["player"] == {"id": bot_id, "name": "RandBot", "bot": True}, added
    # Challenge, declined with a reason: both learn it.
    tc = {"minutes": 1, "increment": 0}
    created = await owner.ok({"type": "challenge_create", "player": bot_id, "time": tc})
    c = created["challenge"]
    assert c["to"]["bot"] is True and c["rated"] is False, c  # bot against a person
    got = await bot.recv_type("challenge_received")
    assert got["challenge"]["id"] == c["id"] and got["challenge"]["player"]["name"] == "Owner"
    await watcher.error({"type": "challenge_accept", "challenge": c["id"]}, "NOT_INVITED")
    await watcher.error({"type": "challenge_decline", "challenge": c["id"]}, "NOT_INVITED")
    await bot.error({"type": "challenge_decline", "challenge": c["id"], "reason": "bored"},
                    "BAD_FIELD")
    r = await bot.ok({"type": "challenge_decline", "challenge": c["id"], "reason": "later"})
    assert r == dict(r, type="challenge_removed", reason="declined", decline_reason="later"), r
    seen = await owner.recv_type("challenge_removed", challenge=c["id"])
    assert seen["reason"] == "declined" and seen["decline_reason"] == "later", seen
    # Cancelled: the bot hears of it.
    c2 = (await owner.ok({"type": "challenge_create", "player": bot_id, "time": tc}))["challenge"]
    await bot.recv_type("challenge_received")
    await owner.ok({"type": "challenge_cancel", "challenge": c2["id"]})
    gone = await bot.recv_type("challenge_removed", challenge=c2["id"])
    assert gone["reason"] == "cancelled", gone
    # Accepted: a casual game; the bot is marked in the game state and gets its legal moves
    # when it is to move.
    c3 = (await owner.ok({"type": "challenge_create", "player": bot_id, "time": tc,
                          "color": "white"}))["challenge"]
    started = await bot.ok({"type": "challenge_accept", "challenge": c3["id"]})
    game = started["game"]
    assert game["black"]["bot"] is True and "bot" not in game["white"] and not game["rated"]
    assert "legal_moves" not in game  # a person is to move
    gid = game["id"]
    assert (await owner.recv_type("challenge_removed", challenge=c3["id"]))["reason"] == "accepted"
    await owner.move(gid, "e4")
    mv = await bot.recv_type("move", game=gid)
    assert len(mv["legal_moves"]) == 20 and "e7e5" in mv["legal_moves"], mv
    reply = await bot.move(gid, "e7e5")
    assert "legal_moves" not in reply  # the person is to move again
    live = await watcher.ok({"type": "live_games"})
    entry = next(g for g in live["games"] if g["id"] == gid)
    assert entry["black"]["bot"] is True
    info = await watcher.ok({"type": "player_get", "username": "randbot"})  # no password: still found
    assert info["player"]["id"] == bot_id, info
    assert info["player"]["bot"] is True and info["player"]["online"] is True
    await owner.ok({"type": "resign", "game": gid})
    status, _, pgn = srv.http("/api/games/%s.pgn" % gid)
    assert status == 200 and '[BlackTitle "BOT"]' in pgn.decode() and "WhiteTitle" not in \
        pgn.decode(), pgn


@server_args("--bots-rated-vs-humans", "1")
async def test_operator_allows_rated_games_against_people(srv):
    owner, token, bot_id = await bot_account(srv, "Owner", "RandBot")
    bot = await srv.player(token=token)
    tc = {"minutes": 3, "increment": 0}
    c = (await owner.ok({"type": "challenge_create", "player": bot_id, "time": tc}))["challenge"]
    assert c["rated"] is True, c
    started = await bot.ok({"type": "challenge_accept", "challenge": c["id"]})
    assert started["game"]["rated"] is True
    # Asked to be casual, it is not rated.
    c = (await owner.ok({"type": "challenge_create", "player": bot_id, "time": tc,
                         "rated": False}))["challenge"]
    assert c["rated"] is False and c["casual"] is True, c
    started = await bot.ok({"type": "challenge_accept", "challenge": c["id"]})
    assert started["game"]["rated"] is False


async def test_random_bots_play_each_other(srv):
    owner, token_a, a_id = await bot_account(srv, "Owner", "RandA")
    token_b = (await owner.ok({"type": "bot_create", "username": "RandB"}))["token"]
    first = BotProcess(srv, "random_bot.py", ["--token", token_a, "--games", "1"])
    await wait_online(owner, a_id)
    second = BotProcess(srv, "random_bot.py", ["--token", token_b, "--challenge", a_id,
                                               "--games", "1", "--time", "5+0"])
    assert await second.wait(45) == 0, second.output()[-3000:]
    assert await first.wait(10) == 0, first.output()[-3000:]
    games = (await owner.ok({"type": "games_list", "player": a_id}))["games"]
    assert len(games) == 1 and games[0]["status"] == "ended", games
    assert games[0]["white"]["bot"] is True and games[0]["black"]["bot"] is True, games
    assert games[0]["reason"] not in ("aborted", "abandoned", "timeout"), games
    assert games[0]["rated"], games  # two bots: a rated game
    assert '"type": "challenge_accept"' in first.output()


if __name__ == "__main__":
    run_tests(globals())
