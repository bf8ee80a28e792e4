"""
HTTP on the players' port as a hostile client sends it, in raw bytes over a socket (no client
library to tidy the requests up): every request gets a status at once, never a silent close or a
hang. Methods other than GET and HEAD (405 with Allow), HEAD, request bodies (POST and DELETE:
read whole however they arrive; 411, 413, 400), pipelined requests, %00 (400), long
paths and request lines (414) and headers (431), API paths that match no route (a JSON 404, never
the web client), /metrics kept off the players' port (--metrics-listen), the WebSocket upgrade's
path and Origin (--allowed-origins), and running out of file descriptors (no spinning: the
server's CPU time is measured while it is at the limit).
"""
import json
import re
import shutil
import socket
import resource
import subprocess
import tempfile
import time

from harness import *

CLIENT_DIR = tempfile.mkdtemp(prefix="chess-client-")
with open(os.path.join(CLIENT_DIR, "index.html"), "w") as f:
    f.write("<!doctype html><title>chess</title><div id=root></div>")
with open(os.path.join(CLIENT_DIR, "app.js"), "w") as f:
    f.write("console.log('chess');\n")

# An answer must come at once: well under any timeout of the server's (10 s for a request head).
PROMPT = 1.5
WS_KEY = b"dGhlIHNhbXBsZSBub25jZQ=="


def with_client(fn):
    fn.static_dir = CLIENT_DIR
    return fn


class Raw:
    """One TCP connection speaking raw HTTP/1.1; reads responses as they come."""

    def __init__(self, port, host="127.0.0.1"):
        self.sock = socket.create_connection((host, port), timeout=PROMPT)
        self.buf = b""

    def send(self, data):
        self.sock.sendall(data)

    def _fill(self, what):
        t0 = time.time()
        try:
            chunk = self.sock.recv(65536)
        except socket.timeout:
            raise AssertionError("no answer within %.1f s (%s); had %r" % (PROMPT, what, self.buf[:200]))
        if not chunk:
            raise AssertionError("connection closed without %s; had %r" % (what, self.buf[:200]))
        self.buf += chunk
        return time.time() - t0

    def response(self, head=False):
        """The next response: (status, headers with lower-case names, body)."""
        while b"\r\n\r\n" not in self.buf:
            self._fill("a response")
        raw, _, self.buf = self.buf.partition(b"\r\n\r\n")
        lines = raw.split(b"\r\n")
        version, status = lines[0].split(b" ")[:2]
        assert version == b"HTTP/1.1", lines[0]
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.decode().lower()] = value.strip().decode()
        length = 0 if head else int(headers.get("content-length", "0"))
        if not head and "content-length" not in headers:  # a body until the connection closes
            while True:
                try:
                    self._fill("the end of the body")
                except AssertionError:
                    break
            length = len(self.buf)
        while len(self.buf) < length:
            self._fill("a body")
        body, self.buf = self.buf[:length], self.buf[length:]
        return int(status), headers, body

    def closed(self):
        """Whether the server closes the connection at once (with nothing more to read)."""
        try:
            return self.sock.recv(1) == b"" and not self.buf
        except socket.timeout:
            return False
        except ConnectionResetError:
            return False  # a reset: not a clean close

    def close(self):
        self.sock.close()


def request(method, path, host=b"x", extra=b"", body=b""):
    length = b"Content-Length: %d\r\n" % len(body) if body else b""
    return (method + b" " + path + b" HTTP/1.1\r\nHost: " + host + b"\r\n" + extra + length +
            b"\r\n" + body)


def one(srv_port, data, head=False):
    """Sends data on a new connection; the first response, after at most PROMPT seconds."""
    c = Raw(srv_port)
    try:
        c.send(data)
        return c.response(head)
    finally:
        c.close()


def upgrade(path=b"/ws", host=b"127.0.0.1", origin=None):
    extra = (b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + WS_KEY +
             b"\r\nSec-WebSocket-Version: 13\r\n")
    if origin is not None:
        extra += b"Origin: " + origin + b"\r\n"
    return request(b"GET", path, host, extra)


def json_404(status, headers, body, what):
    assert status == 404, (what, status, body[:200])
    assert headers["content-type"].startswith("application/json"), (what, headers)
    assert json.loads(body)["code"] == "NOT_FOUND", (what, body)


@with_client
async def test_methods_other_than_get_and_head(srv):
    # 405 with Allow, at once, on a file, the API, a client route and /healthz; the connection
    # then serves a GET (no body was sent), or closes cleanly after a request with a body it
    # does not read (POST's and DELETE's are read, and the connection goes on).
    methods = [b"PUT", b"DELETE", b"PATCH", b"OPTIONS", b"get", b"TRACE", b"CONNECT", b"BREW",
               b"POST"]
    for method in methods:
        for path in (b"/index.html", b"/app.js", b"/api/games/abc", b"/some/route", b"/healthz"):
            target = b"127.0.0.1:443" if method == b"CONNECT" else path
            c = Raw(srv.port)
            c.send(request(method, target))
            status, headers, body = c.response()
            assert status == 405, (method, path, status, body)
            assert headers["allow"] == "GET, HEAD", headers
            assert b"chess" not in body  # not the file
            c.send(request(b"GET", b"/healthz"))
            status, _, body = c.response()
            assert status == 200 and json.loads(body)["status"] == "ok", (method, path, status)
            c.close()
        c = Raw(srv.port)
        c.send(request(method, b"/api/games/abc", body=b"x" * 5000))
        status, headers, _ = c.response()
        if method in (b"POST", b"DELETE"):
            # Their bodies are read (the HTTP API takes them): the connection goes on.
            assert status == 405 and "connection" not in headers, (method, headers)
            c.send(request(b"GET", b"/healthz"))
            assert c.response()[0] == 200, method
            c.close()
            continue
        assert status == 405 and headers["connection"] == "close", (method, headers)
        assert c.closed(), method


async def test_request_bodies(srv):
    # The HTTP API's POST bodies (Content-Length, at most 64 KiB): read whole however they
    # arrive, pipelined requests with bodies answered in order; what cannot be read is refused.
    def token_test(body):
        return request(b"POST", b"/api/token/test", body=body)
    c = Raw(srv.port)
    head, body = token_test(b"alpha,beta").split(b"\r\n\r\n", 1)
    c.send(head + b"\r\n\r\nal")
    time.sleep(0.2)
    c.send(body[2:])
    status, headers, got = c.response()
    assert status == 200 and json.loads(got) == {"alpha": None, "beta": None}, (status, got)
    c.send(token_test(b"one") + request(b"GET", b"/healthz") + token_test(b"two,three"))
    assert json.loads(c.response()[2]) == {"one": None}
    assert json.loads(c.response()[2])["status"] == "ok"
    assert json.loads(c.response()[2]) == {"two": None, "three": None}
    c.close()
    refusals = [
        (b"POST /api/token/test HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
         b"5\r\nalpha\r\n0\r\n\r\n", 411),
        (b"POST /api/token/test HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\n\r\n", 413),
        (b"POST /api/token/test HTTP/1.1\r\nHost: x\r\nContent-Length: 12x\r\n\r\n", 400),
        (b"POST /api/token/test HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n"
         b"Content-Length: 2\r\n\r\nab", 400),
        (request(b"POST", b"/api/bot/game/a%00b/resign", body=b"x"), 400),
    ]
    for data, want in refusals:
        c = Raw(srv.port)
        c.send(data)
        status, headers, _ = c.response()
        assert status == want and headers["connection"] == "close", (data[:60], status, headers)
        assert c.closed(), data[:60]
        c.close()
    # A body that never comes whole: the connection is dropped after the request timeout (10 s).
    c = Raw(srv.port)
    c.sock.settimeout(15)
    c.send(b"POST /api/token/test HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nshort")
    t0 = time.time()
    assert c.sock.recv(100) == b"", "dropped without an answer"
    assert 8 < time.time() - t0 < 14, time.time() - t0
    c.close()


@with_client
async def test_head(srv):
    for path, kind in ((b"/healthz", "application/json"), (b"/index.html", "text/html"),
                       (b"/some/route", "text/html"), (b"/app.js", "application/javascript")):
        c = Raw(srv.port)
        c.send(request(b"HEAD", path) + request(b"GET", path))
        status, headers, body = c.response(head=True)
        assert status == 200 and body == b"" and headers["content-type"].startswith(kind), path
        length = int(headers["content-length"])
        status, get_headers, body = c.response()  # right after the headers: no body came between
        assert status == 200 and len(body) == length > 0, (path, length, len(body))
        assert get_headers["content-type"] == headers["content-type"]
        # The security headers on everything; the API never cached, index.html revalidated.
        assert "default-src 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers.get("cache-control") == {"application/json": "no-store",
                                                "text/html": "no-cache"}.get(kind), headers
        c.close()
    status, headers, body = one(srv.port, request(b"HEAD", b"/api/games/nope"), head=True)
    assert status == 404 and body == b"" and int(headers["content-length"]) > 0


@with_client
async def test_pipelined_requests(srv):
    # Several requests in one packet: each answered, in order, on the one connection.
    paths = [b"/healthz", b"/api/games/nope", b"/index.html", b"/healthz", b"/api/other"]
    c = Raw(srv.port)
    c.send(b"".join(request(b"GET", p) for p in paths))
    statuses = []
    for p in paths:
        status, headers, body = c.response()
        statuses.append(status)
        if p == b"/index.html":
            assert b"id=root" in body
        elif p == b"/healthz":
            assert json.loads(body)["status"] == "ok"
    assert statuses == [200, 404, 200, 200, 404], statuses
    # A refused request in the middle: its status, then the connection closes cleanly.
    c.send(request(b"GET", b"/healthz") + request(b"GET", b"/a%00b") + request(b"GET", b"/healthz"))
    assert c.response()[0] == 200
    status, headers, _ = c.response()
    assert status == 400 and headers["connection"] == "close"
    assert c.closed()
    c.close()


@with_client
async def test_nul_and_bad_escapes(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = (await start_game(a, b)).encode()
    for path in (b"/index.html%00", b"/api/games/" + gid + b"%00", b"/api/users/alice%00admin",
                 b"/api/leaderboard/blitz?limit=%00", b"/%00", b"/?a=%00", b"/api/games/%zz",
                 b"/index.html%4", b"/x?y=%", b"/a\x01b", b"/a\x7fb"):
        status, headers, _ = one(srv.port, request(b"GET", path))
        assert status == 400, (path, status)
        assert headers["connection"] == "close"
    # Not HTTP/1.x, no target, a header that is no header: 400 (or 505 for another version).
    for data, expected in ((b"GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
                           (b"GET /\r\n\r\n", 400), (b"GET  HTTP/1.1\r\n\r\n", 400),
                           (b"GET / HTTP/1.1\r\nno colon here\r\n\r\n", 400),
                           (b"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),
                           (b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
                           (b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                            400),
                           (b"GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                           # TLS spoken to the plain port: refused at its first bytes.
                           (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(200), 400)):
        assert one(srv.port, data)[0] == expected, data
    # The game is still served, and so is an encoded id that decodes to it.
    status, _, body = one(srv.port, request(b"GET", b"/api/games/" + gid))
    assert status == 200 and json.loads(body)["id"] == gid.decode()
    status, _, body = one(srv.port, request(b"GET", b"/api/games/%" + b"%02x" % gid[0] + gid[1:]))
    assert status == 200 and json.loads(body)["id"] == gid.decode()


async def test_long_targets_and_headers(srv):
    # A path of 512 bytes or more: 414; a request line of 8 KiB or 100 KiB: 414 (the server
    # answers before it has read the whole line, and reads the rest before it closes).
    for target in (b"/" + b"a" * 511, b"/api/games/" + b"x" * 600, b"/" + b"a" * 8192,
                   b"/?q=" + b"a" * 8192, b"/" + b"a" * 102400):
        t0 = time.time()
        status, headers, _ = one(srv.port, request(b"GET", target))
        assert status == 414 and headers["connection"] == "close", (len(target), status)
        assert time.time() - t0 < PROMPT
    # A long query under the limits is fine.
    assert one(srv.port, request(b"GET", b"/healthz?q=" + b"a" * 2000))[0] == 200
    # Headers too large: one long header, or many short ones (16 KiB is the limit).
    for extra in (b"X-Big: " + b"b" * 20000 + b"\r\n",
                  b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 60) for i in range(400))):
        status, headers, _ = one(srv.port, request(b"GET", b"/healthz", extra=extra))
        assert status == 431 and headers["connection"] == "close", status
    # Headers just under it are fine.
    assert one(srv.port, request(b"GET", b"/healthz", extra=b"X-Big: " + b"b" * 12000 +
                                 b"\r\n"))[0] == 200


@with_client
async def test_api_paths_without_a_route(srv):
    # Encoded traversal and unknown API paths: a JSON 404, never the web client's index.html.
    for path in (b"/api/games/..%2f..%2fetc%2fpasswd", b"/api/leaderboard/..%2f..%2fetc",
                 b"/api/games/../../etc/passwd", b"/api/%2e%2e/%2e%2e/etc/passwd",
                 b"/api/users/.", b"/api/players/..", b"/api/nothing", b"/api", b"/api/",
                 b"/api/games/abc/def/ghi", b"/api/leaderboard/blitz/x"):
        status, headers, body = one(srv.port, request(b"GET", path))
        if status == 404 and b"GAME_NOT_FOUND" in body:  # /api/games/<no such id>
            continue
        json_404(status, headers, body, path)
    # Traversal outside the API: a 404, never a file outside the client or its index.html.
    for path in (b"/..%2f..%2fetc%2fpasswd", b"/../../etc/passwd", b"/%2e%2e/%2e%2e/etc/passwd",
                 b"/assets/../../../../etc/passwd"):
        status, _, body = one(srv.port, request(b"GET", path))
        assert status == 404 and b"root:" not in body and b"id=root" not in body, (path, status)
    # A client route still gets the web client.
    status, _, body = one(srv.port, request(b"GET", b"/game/abcd1234"))
    assert status == 200 and b"id=root" in body


async def test_metrics_only_from_this_machine(srv):
    # Without --metrics-listen: /metrics on this port, to loopback clients that are not behind a
    # proxy; a request relayed by a proxy (nginx on the same machine) gets the JSON 404.
    status, _, body = one(srv.port, request(b"GET", b"/metrics"))
    assert status == 200 and b"chess_accept_paused_total 0" in body
    for header in (b"X-Forwarded-For: 203.0.113.9\r\n", b"X-Real-IP: 203.0.113.9\r\n",
                   b"Forwarded: for=203.0.113.9\r\n"):
        json_404(*one(srv.port, request(b"GET", b"/metrics", extra=header)), header)
    assert one(srv.port, request(b"GET", b"/healthz", extra=b"X-Real-IP: 203.0.113.9\r\n"))[0] == 200


METRICS_PORT = free_port()


@server_args("--metrics-listen", "127.0.0.1:%d" % METRICS_PORT)
async def test_metrics_listen(srv):
    # /metrics and /healthz on the metrics port; nothing else there; no /metrics on the players'.
    json_404(*one(srv.port, request(b"GET", b"/metrics")), "players' port")
    status, headers, body = one(METRICS_PORT, request(b"GET", b"/metrics"))
    assert status == 200 and headers["content-type"].startswith("text/plain")
    assert b"# TYPE chess_accept_paused_total counter" in body
    assert one(METRICS_PORT, request(b"GET", b"/healthz"))[0] == 200
    for path in (b"/api/games/x", b"/index.html", b"/"):
        json_404(*one(METRICS_PORT, request(b"GET", path)), path)
    assert one(METRICS_PORT, upgrade())[0] == 404
    assert one(METRICS_PORT, request(b"PUT", b"/metrics"))[0] == 405
    # Bad values stop the start with exit status 2.
    for value in ("nonsense", "127.0.0.1:0", "127.0.0.1:99999", "127.0.0.1:", "[::1:80"):
        out = subprocess.run([srv.binary, "--metrics-listen", value, "--port", str(free_port()),
                              "--data-dir", os.path.join(srv.tmp, "other")],
                             capture_output=True, text=True, timeout=20)
        assert out.returncode == 2 and "metrics-listen" in out.stderr, (value, out)
    # The environment variable works as the flag does.
    env = dict(os.environ, CHESS_METRICS_LISTEN="nonsense")
    out = subprocess.run([srv.binary, "--port", str(free_port())], capture_output=True, text=True,
                         timeout=20, env=env)
    assert out.returncode == 2 and "metrics-listen" in out.stderr, out


async def test_websocket_path_and_origin(srv):
    host = b"127.0.0.1:%d" % srv.port
    # Same host (with its port, or without one as a proxy may send it), or no Origin (bots).
    for h, origin in ((host, None), (host, b"http://" + host), (b"chess.example", b"https://chess.example"),
                      (b"chess.example:443", b"https://chess.example"), (b"Chess.Example", b"http://chess.example")):
        c = Raw(srv.port)
        c.send(upgrade(host=h, origin=origin))
        status, headers, _ = c.response(head=True)
        assert status == 101 and headers["upgrade"].lower() == "websocket", (h, origin, status)
        c.close()
    # Another site, another port of this host, "null", a malformed Origin: 403.
    for origin in (b"http://evil.example", b"http://127.0.0.1:1", b"null", b"127.0.0.1",
                   b"http://127.0.0.1.evil.example:%d" % srv.port):
        status, _, _ = one(srv.port, upgrade(host=host, origin=origin))
        assert status == 403, (origin, status)
    # Only the exact path /ws.
    for path in (b"/ws/../ws", b"/ws/", b"/ws%2f", b"/WS", b"/elsewhere", b"//ws", b"/ws/x"):
        status, _, _ = one(srv.port, upgrade(path=path))
        assert status == 404, (path, status)
    # A real client still plays through it.
    a = await srv.player("Ann")
    await a.ok({"type": "ping"})
    status, _, body = srv.http("/metrics")
    assert "chess_upgrades_refused_origin_total 5" in body.decode()


@server_args("--allowed-origins", "https://play.example, http://localhost:5173/")
async def test_allowed_origins(srv):
    host = b"127.0.0.1:%d" % srv.port
    for origin, expected in ((b"https://play.example", 101), (b"http://localhost:5173", 101),
                             (b"HTTPS://PLAY.EXAMPLE", 101), (None, 101),
                             (b"http://" + host, 403), (b"https://play.example.evil", 403),
                             (b"http://play.example", 403)):
        status, _, _ = one(srv.port, upgrade(host=host, origin=origin), head=True)
        assert status == expected, (origin, status, expected)


@server_args("--allowed-origins", "*")
async def test_any_origin(srv):
    status, _, _ = one(srv.port, upgrade(origin=b"http://anywhere.example"), head=True)
    assert status == 101


# ---- file descriptors exhausted ----

FD_LIMIT = 64


class LimitedServer(ServerProcess):
    """A chess_server started with RLIMIT_NOFILE at FD_LIMIT (soft and hard, so the server
    cannot raise it)."""

    def __init__(self, binary):
        self.binary = binary
        self.port = free_port()
        self.tmp = tempfile.mkdtemp(prefix="chess-it-")
        self.log_path = os.path.join(self.tmp, "server.log")
        self.clients = []
        cmd = [binary, "--listen", "127.0.0.1", "--port", str(self.port),
               "--data-dir", os.path.join(self.tmp, "data"), "--engine-workers", "0",
               "--static-dir", os.path.join(self.tmp, "no-client")]
        self.launch(cmd, preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE,
                                                               (FD_LIMIT, FD_LIMIT)))

    def cpu_seconds(self):
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)
        return self.proc.returncode

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


async def fd_exhaustion(srv):
    # More idle connections than the server has descriptors: it takes what it can and pauses.
    held = []
    for _ in range(FD_LIMIT * 2):
        s = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
        held.append(s)
    time.sleep(1)
    cpu0, t0 = srv.cpu_seconds(), time.time()
    time.sleep(5)
    used = srv.cpu_seconds() - cpu0
    print("server CPU over %.1f s at the descriptor limit: %.3f s" % (time.time() - t0, used))
    assert used < 0.5, "the server spun at the descriptor limit: %.2f s of CPU in 5 s" % used
    for s in held:
        s.close()
    # Descriptors free again: it serves again.
    deadline = time.time() + 20
    while True:
        try:
            status, _, body = one(srv.port, request(b"GET", b"/metrics"))
            break
        except (OSError, AssertionError):
            if time.time() > deadline:
                raise
            time.sleep(0.2)
    assert status == 200
    paused = int(re.search(rb"^chess_accept_paused_total (\d+)$", body, re.M).group(1))
    assert paused >= 1, paused
    log = srv.read_log()
    assert log.count("out of file descriptors") == paused, log[-3000:]
    assert "accepting connections again" in log
    c = await srv.player("Ann")
    await c.ok({"type": "ping"})


def run_fd_test(binary, logs, cleanups):
    srv = LimitedServer(binary)
    cleanups.append(srv.close)
    logs.append(lambda: "---- server log ----\n" + srv.read_log()[-6000:])
    run_with_timeout(fd_exhaustion, srv, 60)
    assert srv.stop() == 0


if __name__ == "__main__":
    ns = dict(globals())

    async def test_descriptors_exhausted(srv):
        pass  # run by run_one below with a server of its own

    ns["test_descriptors_exhausted"] = test_descriptors_exhausted
    base_args = []

    def run_one(binary, fn, logs, cleanups):
        if fn is test_descriptors_exhausted:
            return run_fd_test(binary, logs, cleanups)
        srv = Server(binary, getattr(fn, "server_args", []), getattr(fn, "static_dir", None))
        cleanups.append(srv.close)
        logs.append(lambda: "---- server log ----\n" + srv.read_log()[-6000:])
        run_with_timeout(fn, srv, 90)
        assert srv.stop() == 0, "server exit status after SIGTERM"

    run_test_functions(ns, run_one)
