"""
The examples of docs/http-api.md, from a real run: starts the real server with a fresh data
directory, makes accounts, a bot and tokens over the WebSocket protocol, calls every endpoint of
the HTTP API (and its refusals) and prints each request as a curl command with the answer the
server gave. Not a test (it asserts only what it needs to go on): run it when the API changes and
copy what changed into the document.

    /usr/bin/python3 tests/interop/http_api_examples.py \\
        --server build/release/server/chess_server [--out examples.md]

The tokens in the output are this run's; in the curl commands $BOT_TOKEN stands for ExampleBot's
bot token, $TOKEN for Owner's personal token with board:play, challenge:read and challenge:write,
$PLAIN_TOKEN for one without scopes, $BOTPLAY_TOKEN for one with bot:play (Owner is no bot) and
$FRESH_TOKEN for Fresh's bot:play token (an account that has played no game: it upgrades).
The server runs with --abandon-seconds 3, so that claim-victory can be shown.
"""
import argparse
import asyncio
import http.client
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))

from harness import Server, bot_account, load_declarations, wait_online  # noqa: E402
from lichess_api import Api, Stream  # noqa: E402

SHOWN_HEADERS = ("content-type", "transfer-encoding", "retry-after", "allow", "content-length")


class Recorder:
    def __init__(self, port, names):
        self.port = port
        self.names = names  # token text -> the name it has in curl ($BOT_TOKEN)
        self.out = []

    def section(self, title):
        self.out.append("\n## %s\n" % title)

    def note(self, text):
        self.out.append(text)

    def curl(self, method, path, token, body=None, form=None, headers=None):
        parts = ["curl"]
        if method == "POST":
            parts.append("-X POST")
        if token:
            parts.append('-H "Authorization: Bearer %s"' % self.names.get(token, token))
        for k, v in (headers or {}).items():
            parts.append('-H "%s: %s"' % (k, v))
        for k, v in (form or {}).items():
            parts.append("-d %s=%s" % (k, v))
        if body is not None:
            shown = body if len(body) < 80 else body[:20] + "..."
            parts.append("-d '%s'" % shown.replace("\r\n", "\\r\\n"))
        parts.append("http://localhost:8080" + path)
        return " ".join(parts)

    def call(self, label, method, path, token=None, body=None, form=None, headers=None):
        """One request; prints and returns (status, parsed body or text)."""
        status, hdrs, data = Api(self.port, token).request(method, path, body=body, form=form,
                                                           headers=headers)
        text = data.decode(errors="replace")
        self.out.append("### %s\n\n    %s\n" % (label, self.curl(method, path, token, body, form,
                                                                    headers)))
        shown = "".join("%s: %s\n" % (k, hdrs[k]) for k in SHOWN_HEADERS if k in hdrs)
        self.out.append("```\nHTTP/1.1 %d\n%s\n%s\n```\n" % (status, shown, text.rstrip()))
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def stream_lines(self, label, path, token, lines):
        self.out.append("### %s (stream)\n\n    %s\n" % (label, self.curl("GET", path, token)))
        self.out.append("```\n%s\n```\n" % "\n".join(json.dumps(l) for l in lines))

    def write(self, path):
        text = "\n".join(self.out).replace("127.0.0.1:%d" % self.port, "localhost:8080")
        if path:
            with open(path, "w") as f:
                f.write(text)
        else:
            print(text)


def run(fn, *args, **kw):
    return asyncio.to_thread(fn, *args, **kw)


def drain(stream, seconds=0.5):
    """The lines a stream has sent within seconds."""
    lines = []
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return lines
        try:
            lines.append(stream.next(left))
        except AssertionError:
            return lines


async def answer_offers(rec, person, stream, api, gid, token, move, answer):
    """The person (WebSocket) proposes a takeback and the program answers it (answer: "yes" or
    "no"); the person plays move and offers a draw, and the program answers that too. Returns
    the game stream's lines meanwhile."""
    lines = []
    await person.ok({"type": "takeback_propose", "game": gid})
    lines += drain(stream)
    await run(rec.call, "%s takeback %s" % (api, answer), "POST",
              "/api/%s/game/%s/takeback/%s" % (api, gid, answer), token)
    lines += drain(stream)
    await person.move(gid, move)
    await person.ok({"type": "draw_offer", "game": gid})
    lines += drain(stream)
    await run(rec.call, "%s draw %s" % (api, answer), "POST",
              "/api/%s/game/%s/draw/%s" % (api, gid, answer), token)
    return lines + drain(stream)


async def scenario(srv, rec_out):
    owner, bot_token, bot_id = await bot_account(srv, "Owner", "ExampleBot")
    created = await owner.ok({"type": "api_token_create", "description": "board program",
                              "scopes": "board:play challenge:read challenge:write"})
    token = created["token"]
    plain = (await owner.ok({"type": "api_token_create", "description": "stats script",
                             "scopes": ""}))["token"]
    botplay = (await owner.ok({"type": "api_token_create", "description": "bot:play on a person",
                               "scopes": "bot:play"}))["token"]
    owner_id = owner.player["id"]
    alice = await srv.player("Alice")
    await alice.ok({"type": "register", "username": "Alice", "password": "password Alice"})
    rec = Recorder(srv.port, {bot_token: "$BOT_TOKEN", token: "$TOKEN", plain: "$PLAIN_TOKEN",
                              botplay: "$BOTPLAY_TOKEN"})
    rec_out.append(rec)
    bot = Api(srv.port, bot_token)
    board = Api(srv.port, token)

    rec.section("Account")
    await run(rec.call, "token test", "POST", "/api/token/test", body="%s,%s,nosuchtoken" % (
        bot_token, token))
    await run(rec.call, "account (bot)", "GET", "/api/account", bot_token)
    await run(rec.call, "account (person)", "GET", "/api/account", token)

    rec.section("Users")
    events = await run(bot.stream, "/api/stream/event")
    await wait_online(alice, bot_id)
    await run(rec.call, "user", "GET", "/api/user/examplebot")
    await run(rec.call, "users status", "GET",
              "/api/users/status?ids=ExampleBot,owner,alice,nobody")
    await run(rec.call, "bot online", "GET", "/api/bot/online?nb=10")

    rec.section("Challenges")
    status, c = await run(rec.call, "challenge create", "POST", "/api/challenge/Alice", bot_token,
                          form={"clock.limit": "180", "clock.increment": "2", "color": "white",
                                "rated": "false"})
    ev = drain(events)
    await alice.recv_type("challenge_received")
    await alice.ok({"type": "challenge_decline", "challenge": c["id"], "reason": "time_control"})
    ev += drain(events)
    status, c = await run(rec.call, "challenge create (to cancel)", "POST", "/api/challenge/alice",
                          bot_token, form={"clock.limit": "300", "clock.increment": "0"})
    await run(rec.call, "challenge cancel", "POST", "/api/challenge/%s/cancel" % c["id"],
              bot_token)
    ev += drain(events)
    await run(rec.call, "challenge create: variant", "POST", "/api/challenge/alice", bot_token,
              form={"variant": "chess960"})
    await run(rec.call, "challenge create: days", "POST", "/api/challenge/alice", bot_token,
              form={"days": "3"})
    # Alice challenges the bot; it accepts.
    created = await alice.ok({"type": "challenge_create", "player": bot_id,
                              "time": {"minutes": 5, "increment": 3}, "color": "white"})
    cid = created["challenge"]["id"]
    ev += drain(events)
    # A second event stream opened now: what it announces (a pending challenge?).
    second = await run(Api(srv.port, bot_token).stream, "/api/stream/event")
    rec.note("Second event stream opened while challenge %s is pending: %s\n" % (
        cid, json.dumps(drain(second, 1.0))))
    await run(rec.call, "challenge accept", "POST", "/api/challenge/%s/accept" % cid, bot_token)
    ev += drain(events)
    gid = cid
    await alice.recv_type("game_started")

    rec.section("Bot")
    game = await run(bot.stream, "/api/bot/game/stream/" + gid)
    lines = drain(game)
    await run(rec.call, "game stream twice with one token", "GET", "/api/bot/game/stream/" + gid,
              bot_token)
    await alice.move(gid, "e2e4")
    lines += drain(game)
    await run(rec.call, "move: illegal", "POST", "/api/bot/game/%s/move/e7e4" % gid, bot_token)
    await run(rec.call, "move", "POST", "/api/bot/game/%s/move/e7e5" % gid, bot_token)
    lines += drain(game)
    third = await run(Api(srv.port, bot_token).stream, "/api/stream/event")
    rec.note("Event stream opened during game %s: %s\n" % (gid, json.dumps(drain(third, 1.0))))
    third.close()
    await run(rec.call, "move: not your turn", "POST", "/api/bot/game/%s/move/d7d5" % gid,
              bot_token)
    await run(rec.call, "chat", "POST", "/api/bot/game/%s/chat" % gid, bot_token,
              form={"room": "player", "text": "Good luck!"})
    await run(rec.call, "chat (spectators)", "POST", "/api/bot/game/%s/chat" % gid, bot_token,
              form={"room": "spectator", "text": "Hello watchers"})
    await alice.ok({"type": "chat", "game": gid, "text": "thanks"})
    lines += drain(game)
    lines += await answer_offers(rec, alice, game, "bot", gid, bot_token, "g1f3", "no")
    await run(rec.call, "move offering a draw", "POST",
              "/api/bot/game/%s/move/b8c6?offeringDraw=true" % gid, bot_token)
    lines += drain(game)
    await alice.ok({"type": "draw_decline", "game": gid})
    lines += drain(game)
    await run(rec.call, "account playing", "GET", "/api/account/playing", bot_token)
    await run(rec.call, "claim victory too early", "POST",
              "/api/bot/game/%s/claim-victory" % gid, bot_token)
    await alice.close()
    lines += drain(game, 1.0)
    await asyncio.sleep(3.2)  # --abandon-seconds 3
    await run(rec.call, "claim victory", "POST", "/api/bot/game/%s/claim-victory" % gid, bot_token)
    lines += drain(game)
    rec.note("game stream ended: %s\n" % game.ended(2))
    await run(rec.call, "chat after the end", "POST", "/api/bot/game/%s/chat" % gid, bot_token,
              form={"room": "player", "text": "Good game!"})
    rec.stream_lines("bot game stream", "/api/bot/game/stream/" + gid, bot_token, lines)
    ev += drain(events)

    rec.section("Games export")
    await run(rec.call, "export PGN", "GET", "/game/export/" + gid)
    await run(rec.call, "export JSON", "GET", "/game/export/" + gid,
              headers={"Accept": "application/json"})
    await run(rec.call, "user games PGN", "GET", "/api/games/user/examplebot?max=1")
    await run(rec.call, "user games NDJSON", "GET", "/api/games/user/examplebot?max=1",
              headers={"Accept": "application/x-ndjson"})

    # Resign and abort, against a new person.
    bob = await srv.player("Bob")
    for action in ("resign", "abort"):
        c = await bob.ok({"type": "challenge_create", "player": bot_id,
                          "time": {"minutes": 1, "increment": 0}, "color": "white"})
        await run(bot.post, "/api/challenge/%s/accept" % c["challenge"]["id"])
        g = c["challenge"]["id"]
        await bob.recv_type("game_started")
        s = await run(bot.stream, "/api/bot/game/stream/" + g)
        drain(s)
        if action == "resign":
            await bob.move(g, "e2e4")
        await run(rec.call, action, "POST", "/api/bot/game/%s/%s" % (g, action), bot_token)
        rec.note("%s: last line %s\n" % (action, json.dumps(drain(s)[-1:])))
        s.close()
    ev += drain(events)
    rec.stream_lines("bot event stream", "/api/stream/event", bot_token, ev)
    second.close()
    events.close()

    rec.section("Board")
    bevents = await run(board.stream, "/api/stream/event")
    await wait_online(bob, owner_id)
    c = await bob.ok({"type": "challenge_create", "player": owner_id,
                      "time": {"minutes": 10, "increment": 0}, "color": "white"})
    await run(rec.call, "challenge decline", "POST",
              "/api/challenge/%s/decline" % c["challenge"]["id"], token, form={"reason": "later"})
    c = await bob.ok({"type": "challenge_create", "player": owner_id,
                      "time": {"minutes": 10, "increment": 5}, "color": "white"})
    g = c["challenge"]["id"]
    await run(board.post, "/api/challenge/%s/accept" % g)
    await bob.recv_type("game_started")
    bgame = await run(board.stream, "/api/board/game/stream/" + g)
    blines = drain(bgame)
    await bob.move(g, "d2d4")
    blines += drain(bgame)
    await run(rec.call, "board move", "POST", "/api/board/game/%s/move/d7d5" % g, token)
    blines += drain(bgame)
    blines += await answer_offers(rec, bob, bgame, "board", g, token, "c2c4", "yes")
    rec.stream_lines("board game stream", "/api/board/game/stream/" + g, token, blines)
    rec.stream_lines("board event stream", "/api/stream/event", token, drain(bevents))
    bevents.close()

    rec.section("Board seek")
    # A seek held by its request; Bob (WebSocket) accepts it from the lobby.
    seek_conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
    form = "time=3&increment=2"
    seek_conn.request("POST", "/api/board/seek", body=form, headers={
        "Authorization": "Bearer " + token,
        "Content-Type": "application/x-www-form-urlencoded"})
    seek_resp = await run(seek_conn.getresponse)
    listed = (await bob.ok({"type": "lobby_subscribe"}))["seeks"]
    seek = listed[0] if listed else (await bob.recv_type("seek_added"))["seek"]
    t0 = time.monotonic()
    await asyncio.sleep(7)  # a keep-alive newline
    await bob.ok({"type": "seek_accept", "seek": seek["id"]})
    body = await run(seek_resp.read)
    rec.out.append("### board seek\n\n    curl -X POST -H \"Authorization: Bearer $TOKEN\" "
                   "-d time=3 -d increment=2 http://localhost:8080/api/board/seek\n")
    rec.out.append("```\nHTTP/1.1 %d\n%s\n%r (%.1f s, until Bob accepted the seek)\n```\n" % (
        seek_resp.status, "".join("%s: %s\n" % (k.lower(), v) for k, v in seek_resp.getheaders()
                                  if k.lower() in SHOWN_HEADERS), body, time.monotonic() - t0))
    seek_conn.close()
    await run(rec.call, "board seek: days", "POST", "/api/board/seek", token, form={"days": "3"})
    rec.section("Bot upgrade")
    fresh = await srv.player("Fresh")
    await fresh.ok({"type": "register", "username": "Fresh", "password": "password Fresh"})
    fresh_token = (await fresh.ok({"type": "api_token_create", "description": "upgrade",
                                   "scopes": "bot:play"}))["token"]
    rec.names[fresh_token] = "$FRESH_TOKEN"
    await run(rec.call, "upgrade (an account that played no game)", "POST",
              "/api/bot/account/upgrade", fresh_token)
    await run(rec.call, "account after the upgrade", "GET", "/api/account", fresh_token)

    rec.section("Refusals")
    await run(rec.call, "no token", "GET", "/api/account")
    await run(rec.call, "bad token", "GET", "/api/account", "X" * 32)
    await run(rec.call, "missing scope", "GET", "/api/stream/event", plain)
    await run(rec.call, "account with a token without scopes", "GET", "/api/account", plain)
    await run(rec.call, "bot token on the board API", "POST",
              "/api/board/game/%s/move/e2e4" % gid, bot_token)
    await run(rec.call, "bot endpoint, not a bot", "GET", "/api/bot/game/stream/%s" % gid,
              botplay)
    await run(rec.call, "upgrade (an account that played)", "POST", "/api/bot/account/upgrade",
              botplay)
    await run(rec.call, "upgrade (bot)", "POST", "/api/bot/account/upgrade", bot_token)
    await run(rec.call, "no such game", "POST", "/api/bot/game/abcdefgh/move/e2e4", bot_token)
    await run(rec.call, "no such game stream", "GET", "/api/bot/game/stream/abcdefgh", bot_token)
    await run(rec.call, "no such user", "POST", "/api/challenge/nobodyhere", bot_token,
              form={"clock.limit": "60"})
    await run(rec.call, "wrong method", "GET", "/api/bot/game/%s/resign" % gid, bot_token)
    await run(rec.call, "unknown endpoint", "GET", "/api/no/such/endpoint", bot_token)
    await run(rec.call, "unknown endpoint (POST)", "POST", "/api/no/such/endpoint", bot_token)
    await run(rec.call, "body too large", "POST", "/api/token/test", body="x" * 70000)
    await run(rec.call, "chunked body", "POST", "/api/token/test", body="3\r\nabc\r\n0\r\n\r\n",
              headers={"Transfer-Encoding": "chunked"})
    # A token's rate limit: a person's token allows 40 requests at once, then 20 a second.
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    statuses = []
    for _ in range(60):
        conn.request("GET", "/api/account", headers={"Authorization": "Bearer " + plain})
        r = conn.getresponse()
        r.read()
        statuses.append(r.status)
    conn.close()
    rec.note("60 requests in a row with one person's token: %s\n" % statuses)
    await run(rec.call, "rate limited", "GET", "/api/account", plain)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--out")
    opts = ap.parse_args()
    load_declarations(opts.server)
    srv = Server(os.path.abspath(opts.server), ["--abandon-seconds", "3"])
    recs = []
    try:
        asyncio.run(scenario(srv, recs))
    finally:
        if recs:
            recs[0].write(opts.out)
        srv.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
