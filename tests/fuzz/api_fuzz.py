"""
An HTTP API fuzzer against the live server (tests/fuzz/README.md): many raw connections send
requests to the lichess-compatible API's routes (docs/http-api.md) with the methods, paths,
tokens, headers and bodies mutated: a real game's and challenge's ids, valid, revoked and
garbage tokens, form and JSON bodies bent out of shape, lying Content-Lengths, streams opened and
cut at once or mid-line, requests cut mid-head or mid-body. Meanwhile /healthz must keep
answering, every answer must be a well-formed HTTP response with a status the API uses, and at
the end the server must stop cleanly on SIGTERM with exit status 0 (built with ASan: no leak and
no memory error) and no sanitizer report in its log.

    python3 tests/fuzz/api_fuzz.py --server build/asan/server/chess_server --requests 5000

Prints what it sent and the rate. Exit 0 when the server held, 1 otherwise.
"""
import argparse
import asyncio
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from harness import Server, bot_account, mutate  # noqa: E402
from live_fuzz import stop_clean, until_done  # noqa: E402

# Statuses the server answers with (anything else is a finding).
STATUSES = {200, 400, 401, 403, 404, 405, 408, 411, 413, 414, 429, 431, 500, 503, 505}

PATHS = [
    "/api/account", "/api/account/playing", "/api/user/{user}", "/api/users/status?ids={user},x",
    "/api/bot/online?nb={n}", "/game/export/{game}", "/api/games/user/{user}?max={n}",
    "/api/stream/event", "/api/bot/game/stream/{game}", "/api/board/game/stream/{game}",
    "/api/bot/game/{game}/move/{move}", "/api/board/game/{game}/move/{move}?offeringDraw=true",
    "/api/bot/game/{game}/resign", "/api/bot/game/{game}/abort", "/api/bot/game/{game}/chat",
    "/api/bot/game/{game}/draw/{yesno}", "/api/bot/game/{game}/takeback/{yesno}",
    "/api/bot/game/{game}/claim-victory", "/api/challenge/{user}", "/api/challenge/{cid}/accept",
    "/api/challenge/{cid}/decline", "/api/challenge/{cid}/cancel", "/api/board/seek",
    "/api/bot/account/upgrade", "/api/token/test",
]
GET_PATHS = 10  # the first ten are GET routes, the others POST

BODIES = [
    "", "room=player&text=hello", "room=spectator&text=%00%ff", "reason=tooFast",
    "clock.limit=180&clock.increment=2&color=white&rated=true",
    "clock.limit=-1&clock.increment=999", "time=3&increment=2", "time=0", "days=3",
    '{"clock.limit": 60, "color": "black", "rated": false}', '{"variant": "chess960"}',
    "{token}", "{token},x,{token}", "a=" + "b" * 5000,
]


def fill(rng, template, ctx):
    return (template.replace("{user}", rng.choice([ctx["user"], "nobody", "x" * 30, "%00", "..", ""]))
            .replace("{game}", rng.choice([ctx["game"], "zzzzzzzz", "", "%2e%2e", "a" * 70]))
            .replace("{cid}", rng.choice([ctx["cid"], "nochallenge", ctx["game"]]))
            .replace("{move}", rng.choice(["e2e4", "e7e5", "e1g1", "zz", "e7e8q", "%00"]))
            .replace("{yesno}", rng.choice(["yes", "no", "maybe", "true"]))
            .replace("{n}", str(rng.choice([-1, 0, 1, 50, 10 ** 12])))
            .replace("{token}", rng.choice([ctx["token"], ctx["revoked"], "lip_x"])))


def one_request(rng, ctx):
    """(kind, bytes, cut) of a request: cut says where to drop the connection (or None)."""
    template = rng.choice(PATHS)
    natural = "GET" if PATHS.index(template) < GET_PATHS else "POST"
    method = natural if rng.random() < 0.75 else rng.choice(["GET", "POST", "HEAD", "DELETE",
                                                             "PUT", "get"])
    path = fill(rng, template, ctx)
    if rng.random() < 0.3:
        path = mutate(rng, path).replace(" ", "%20").replace("\r", "").replace("\n", "")
    body = fill(rng, rng.choice(BODIES), ctx).encode("utf-8", "replace")
    if rng.random() < 0.3:
        body = mutate(rng, body.decode("utf-8", "replace")).encode("utf-8", "replace")
    auth = rng.choice([ctx["token"], ctx["token"], ctx["board"], ctx["revoked"], "", "garbage!",
                       "x" * 300])
    headers = ["Host: 127.0.0.1"]
    if auth:
        headers.append("Authorization: " + rng.choice(["Bearer ", "bearer ", "Basic "]) + auth)
    if rng.random() < 0.5:
        headers.append("Content-Type: " + rng.choice(["application/x-www-form-urlencoded",
                                                      "application/json", "text/plain"]))
    if rng.random() < 0.2:
        headers.append("Accept: application/x-ndjson")
    length = len(body)
    kind = "request"
    r = rng.random()
    if r < 0.05:
        length, kind = length + rng.randint(1, 100), "short_body"
    elif r < 0.08:
        headers.append("Transfer-Encoding: chunked")
        kind = "chunked"
    headers.append("Content-Length: %d" % length)
    data = ("%s %s HTTP/1.1\r\n%s\r\n\r\n" % (method, path, "\r\n".join(headers))).encode(
        "utf-8", "replace") + body
    cut = None
    if rng.random() < 0.07:
        cut, kind = rng.randint(1, max(1, len(data) - 1)), "cut_mid_request"
    return kind, data, cut


async def read_response(reader, stream_ms):
    """The status of the response, reading a stream for up to stream_ms. None: closed early."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 15)
    line = head.split(b"\r\n")[0].split(b" ")
    if len(line) < 2 or line[0] != b"HTTP/1.1" or not line[1].isdigit():
        raise AssertionError("not an HTTP response: %r" % head[:100])
    status = int(line[1])
    if status not in STATUSES:
        raise AssertionError("unexpected status %d: %r" % (status, head[:200]))
    headers = head.lower()
    if b"content-length:" in headers:
        n = int(headers.split(b"content-length:")[1].split(b"\r\n")[0])
        await asyncio.wait_for(reader.readexactly(n), 15)
    elif b"transfer-encoding: chunked" in headers:
        try:
            await asyncio.wait_for(reader.read(4096), stream_ms / 1000)
        except asyncio.TimeoutError:
            pass
        return status, False  # a stream: the connection is dropped
    return status, True


async def worker(port, rng, ctx, budget, counts):
    while budget[0] > 0:
        budget[0] -= 1
        kind, data, cut = one_request(rng, ctx)
        counts[kind] = counts.get(kind, 0) + 1
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(data[:cut] if cut else data)
            await writer.drain()
            if cut or kind == "short_body":
                continue  # dropped mid-request (the short body's connection simply goes)
            status, _ = await read_response(reader, rng.choice([0, 5, 50]))
            counts["status_%d" % status] = counts.get("status_%d" % status, 0) + 1
        except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            counts["closed_by_server"] = counts.get("closed_by_server", 0) + 1
        finally:
            if writer:
                writer.transport.abort()


async def setup(srv):
    """A bot with a token (and a revoked one), an account with a board token, a game between
    the bot and a person, and an open challenge."""
    owner, token, bot_id = await bot_account(srv, "Owner", "FuzzBot")
    person = await srv.player("Person")
    await person.ok({"type": "register", "username": "Person", "password": "password person"})
    board = (await person.ok({"type": "api_token_create", "description": "fuzz",
                              "scopes": "board:play,challenge:write,bot:play"}))["token"]
    gone = await person.ok({"type": "api_token_create", "description": "gone", "scopes": ""})
    await person.ok({"type": "api_token_revoke", "token_id": gone["info"]["id"]})
    revoked = gone["token"]
    bot_ws = await srv.player(token=token)  # the bot connected, so it can be challenged
    created = await person.ok({"type": "challenge_create", "player": bot_id,
                               "time": {"minutes": 60, "increment": 0}, "color": "white"})
    started = await bot_ws.ok({"type": "challenge_accept", "challenge": created["challenge"]["id"]})
    game = started["game"]["id"]
    pending = await person.ok({"type": "challenge_create", "player": bot_id,
                               "time": {"minutes": 5, "increment": 0}})
    return {"token": token, "revoked": revoked, "board": board, "game": game,
            "cid": pending["challenge"]["id"], "user": "FuzzBot", "keep": [owner, person, bot_ws]}


async def run(args):
    srv = Server(args.server, ["--log-level", "warn", "--bot-rate-limit", "100000",
                               "--bot-rate-burst", "100000", "--rate-limit", "100000",
                               "--rate-burst", "100000"])
    ok = False
    try:
        ctx = await setup(srv)
        rng = random.Random(args.seed)
        counts = {}
        budget = [args.requests]
        start = time.time()
        tasks = [asyncio.create_task(worker(srv.port, random.Random(rng.random()), ctx, budget,
                                            counts)) for _ in range(args.clients)]
        await until_done(srv, tasks)
        took = time.time() - start
        for c in ctx["keep"]:
            await c.close()
        print("api fuzz: %d requests in %.1f s (%.0f/s); seed %d" % (args.requests, took,
                                                                    args.requests / took, args.seed))
        print("  " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
        stop_clean(srv)
        ok = True
    finally:
        if not ok:
            print(srv.read_log()[-6000:])
        srv.close()
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--server", required=True)
    p.add_argument("--requests", type=int, default=5000)
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--seed", type=int, default=int(time.time()))
    args = p.parse_args()
    sys.exit(0 if asyncio.run(run(args)) else 1)


if __name__ == "__main__":
    main()
