"""
HTTP beside the WebSocket on the same port: /healthz, /metrics (Prometheus text), a game as
JSON and as PGN (live and finished), 404s, and the web client's files with the index.html
fallback for client routes.
"""
import json
import re
import subprocess
import tempfile
import time

from harness import *

SERVER_ARGS = []

CLIENT_DIR = tempfile.mkdtemp(prefix="chess-client-")
with open(os.path.join(CLIENT_DIR, "index.html"), "w") as f:
    f.write("<!doctype html><title>chess</title><div id=root></div>")
os.makedirs(os.path.join(CLIENT_DIR, "assets"))
with open(os.path.join(CLIENT_DIR, "assets", "app.js"), "w") as f:
    f.write("console.log('chess');\n")


def with_client(fn):
    fn.static_dir = CLIENT_DIR
    return fn


async def test_healthz(srv):
    a = await srv.player("Ann")
    status, headers, body = srv.http("/healthz")
    health = json.loads(body)
    assert status == 200 and health["status"] == "ok" and health["connections"] == 1
    assert headers["content-type"].startswith("application/json")
    # The version is the binary's own (--version).
    out = subprocess.run([srv.binary, "--version"], capture_output=True, text=True, timeout=10)
    assert out.returncode == 0 and out.stdout.startswith("chess_server "), out
    assert health["version"] == out.stdout.split()[1], (health, out.stdout)


async def test_metrics(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await play(gid, a, b, ["e4", "e5", "Nf3"])
    await a.error({"type": "move", "game": gid, "move": "e4"}, "NOT_YOUR_TURN")
    status, headers, body = srv.http("/metrics")
    text = body.decode()
    assert status == 200 and headers["content-type"].startswith("text/plain")
    values = dict(re.findall(r"^(\S+) (\S+)$", text, re.M))
    assert values["chess_connections"] == "2"
    assert values["chess_moves_total"] == "3"
    assert values['chess_games{state="playing"}'] == "1"
    assert values['chess_messages_in_total{type="move"}'] == "4"
    assert values['chess_errors_total{code="NOT_YOUR_TURN"}'] == "1"
    # Durations in seconds: bounds, sum (each message took well under a second).
    assert "# TYPE chess_message_handle_seconds histogram" in text
    handled = int(values['chess_message_handle_seconds_count'])
    assert handled >= 6 and int(values['chess_message_handle_seconds_bucket{le="+Inf"}']) == handled
    assert int(values['chess_message_handle_seconds_bucket{le="1"}']) == handled
    assert 0 < float(values["chess_message_handle_seconds_sum"]) < handled
    assert 'chess_message_handle_seconds_bucket{le="0.001"}' in values
    # Counters, not rates: every counter is named *_total, and only counters are; no rates.
    types = dict(re.findall(r"^# TYPE (\S+) (\S+)$", text, re.M))
    helps = set(re.findall(r"^# HELP (\S+) .+$", text, re.M))
    assert set(types) == helps and len(types) > 50, (set(types) ^ helps)
    for name, kind in types.items():
        assert (kind == "counter") == name.endswith("_total"), (name, kind)
        assert kind in ("counter", "gauge", "histogram"), (name, kind)
        assert not re.search(r"microseconds|milliseconds|per_second", name), name
    for sample in values:
        family = re.sub(r"(_bucket|_sum|_count)?(\{.*)?$", "", sample)
        assert family in types or re.sub(r"\{.*$", "", sample) in types, sample
    # Prometheus's conventions: the build as a label, the process's standard figures.
    version = json.loads(srv.http("/healthz")[2])["version"]
    assert values['chess_build_info{version="%s"}' % version] == "1"
    assert float(values["process_cpu_seconds_total"]) > 0
    assert float(values["process_resident_memory_bytes"]) > 1e6
    fds = int(float(values["process_open_fds"]))
    assert 5 < fds < int(float(values["process_max_fds"])), fds
    start = float(values["process_start_time_seconds"])
    assert time.time() - 600 < start <= time.time(), start


async def test_game_json_and_pgn(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b, {"minutes": 3, "increment": 2})
    await play(gid, a, b, ["e4", "e5", "Nf3", "Nc6"])
    status, _, body = srv.http("/api/games/" + gid)
    game = json.loads(body)
    assert status == 200 and game["status"] == "playing" and game["san"] == ["e4", "e5", "Nf3", "Nc6"]
    assert game["white"]["name"] == "Ann"
    status, headers, body = srv.http("/api/games/%s.pgn" % gid)
    pgn = body.decode()
    assert status == 200 and headers["content-type"].startswith("application/x-chess-pgn")
    assert '[White "Ann"]' in pgn and '[Black "Ben"]' in pgn and '[Result "*"]' in pgn
    assert '[TimeControl "180+2"]' in pgn
    assert re.search(r"1\. e4 \{ ?\[%clk 0:03:00\] ?\} 1\.\.\. e5", pgn), pgn
    await b.ok({"type": "resign", "game": gid})
    status, _, body = srv.http("/api/games/%s.pgn" % gid)
    pgn = body.decode()
    assert '[Result "1-0"]' in pgn and pgn.rstrip().endswith("1-0"), pgn
    assert '[Termination "normal"]' in pgn


async def test_not_found(srv):
    for path in ("/api/games/nope", "/api/games/nope.pgn", "/api/other"):
        status, _, body = srv.http(path)
        assert status == 404, path
        assert json.loads(body)["code"] in ("GAME_NOT_FOUND", "NOT_FOUND")
    status, _, body = srv.http("/some/client/route")
    assert status == 404  # no client built in this test


def raw_get(srv, path, method=b"GET", body=b""):
    """A request sent as raw bytes (no client-side checks or quoting); (status, body)."""
    with socket.create_connection(("127.0.0.1", srv.port), timeout=TIMEOUT) as s:
        length = b"Content-Length: %d\r\n" % len(body) if body else b""
        s.sendall(method + b" " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" +
                  length + b"\r\n" + body)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body


async def test_bad_paths(srv):
    # Ids too long, empty or odd, plies and query values out of range or not numbers, bytes that
    # are no text: each gets a 404 with a stable code (or the default), and the server serves on.
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    bad = [b"/api/games/", b"/api/games/.pgn", b"/api/games/abcdefghijklmnopq",
           b"/api/games/a%2Fb", b"/api/games/\xff\xfe", b"/api/games//fen/1",
           b"/api/games/%s/fen/" % gid.encode(), b"/api/games/%s/fen/-1" % gid.encode(),
           b"/api/games/%s/fen/1x" % gid.encode(),
           b"/api/games/%s/fen/99999999999999999999999" % gid.encode(),
           b"/api/players/", b"/api/players//games", b"/api/players/" + b"p" * 40,
           b"/api/players/abc/elsewhere", b"/api/users/", b"/api/users/%ff%fe",
           b"/api/users/" + b"u" * 300, b"/api/leaderboard/", b"/api/leaderboard/\xff",
           b"/api/other/" + b"x" * 300]
    for path in bad:
        status, body = raw_get(srv, path)
        assert status == 404, (path, status, body)
        assert json.loads(body)["code"] in ("GAME_NOT_FOUND", "PLAYER_NOT_FOUND", "NOT_FOUND",
                                            "STORE_UNAVAILABLE"), (path, body)
    # A NUL (encoded) or a control character in the target: 400 (test_http_refusals.py has more).
    for path in (b"/api/games/%00", b"/api/games/\x01\xff"):
        assert raw_get(srv, path)[0] == 400, path
    # Query values out of range or not numbers: the defaults.
    for query in (b"limit=0", b"limit=-5", b"limit=abc", b"limit=" + b"9" * 40, b"limit=1&limit=2"):
        status, body = raw_get(srv, b"/api/leaderboard/blitz?" + query)
        assert status in (200, 404), (query, status, body)
        json.loads(body)
    # A path longer than any endpoint's: 414, not "method not allowed".
    status, body = raw_get(srv, b"/api/games/" + b"x" * 600)
    assert status == 414, (status, body)
    status, body = raw_get(srv, b"/api/games/" + gid.encode() + b"?x=" + b"y" * 600)
    assert status == 200 and json.loads(body)["id"] == gid
    assert srv.http("/healthz")[0] == 200
    # The paths were logged (debug) as text without their control characters.
    log = srv.read_log()
    assert "GET /api/games/??" in log and not re.search("[\x00-\x08\x0b-\x1f]", log)


async def test_methods_other_than_get(srv):
    # Only GET is served. Other methods get 405 at once, with a body or without one (a reply
    # once waited for a body to be read, and without a Content-Length for seconds).
    for method, body in ((b"POST", b""), (b"POST", b'{"a": 1}'), (b"PUT", b"x" * 1000),
                         (b"DELETE", b""), (b"PATCH", b"abc")):
        for path in (b"/api/games/x", b"/healthz", b"/some/client/route"):
            status, reply = raw_get(srv, path, method, body)
            assert status == 405, (method, path, status, reply)
    # A GET with a body (nothing reads one) is still answered.
    status, reply = raw_get(srv, b"/healthz", b"GET", b"abc")
    assert status == 200, (status, reply)
    assert srv.http("/healthz")[0] == 200


@with_client
async def test_static_files_and_client_routes(srv):
    status, headers, body = srv.http("/")
    assert status == 200 and b"id=root" in body and headers["content-type"].startswith("text/html")
    status, headers, body = srv.http("/assets/app.js")
    assert status == 200 and b"console.log" in body
    status, headers, body = srv.http("/game/abcd1234")  # a client route: index.html
    assert status == 200 and b"id=root" in body
    status, _, body = srv.http("/api/games/nope")
    assert status == 404  # the API is not swallowed by the fallback
    status, _, body = srv.http("/healthz")
    assert status == 200


async def test_websocket_only_at_ws(srv):
    try:
        ws = await websockets.connect("ws://127.0.0.1:%d/elsewhere" % srv.port)
    except (websockets.InvalidHandshake, OSError):
        return
    await ws.close()
    raise AssertionError("a WebSocket upgrade outside /ws was accepted")


@server_args("--max-connections", "2")
async def test_connection_limit(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    try:
        c = await srv.connect()
    except (websockets.InvalidHandshake, OSError, asyncio.TimeoutError):
        c = None
    if c is not None:
        # Accepted at TCP level and closed at once: no message ever arrives.
        try:
            await c._read(2)
            raise AssertionError("a third connection was served")
        except (websockets.ConnectionClosed, asyncio.TimeoutError):
            pass
    await a.ok({"type": "ping"})  # the others are unaffected
    status, _, body = srv.http("/metrics")
    assert status == 200 and "chess_connections_rejected_total 1" in body.decode()


if __name__ == "__main__":
    run_tests(globals())
