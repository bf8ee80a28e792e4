"""
Integration test harness: starts the real chess_server binary on a free port with a temporary
data directory, and talks to it over real WebSocket connections (Debian's python3-websockets,
run with /usr/bin/python3) and real HTTP.

A test file defines async functions named test_*; run_tests() runs each against a fresh server
(started with the file's SERVER_ARGS plus any the test asks for) and exits non-zero on failure,
printing the server's log for failed tests.

    from harness import *
    async def test_something(srv):
        a = await srv.player("Alice")
        ...
    if __name__ == "__main__":
        run_tests(globals())
"""
import argparse
import asyncio
import inspect
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

try:
    import websockets
except ImportError:
    sys.stderr.write("python3-websockets is missing: run with /usr/bin/python3 "
                     "(Debian's interpreter) after apt-get install python3-websockets\n")
    sys.exit(1)

TIMEOUT = 5.0

# The server's messages as server/src/proto/messages.def declares them (`proto_schema --json`,
# built next to the server binary), by type; None when the program is not there. Every message a
# Client receives is checked against it: this covers the messages net/ builds itself too.
SERVER_MESSAGES = None


def load_declarations(server_binary):
    """Reads the declared server messages from the proto_schema program beside the binary."""
    global SERVER_MESSAGES
    path = os.path.join(os.path.dirname(os.path.abspath(server_binary)), "proto_schema")
    if os.path.exists(path):
        schema = json.loads(subprocess.check_output([path, "--json"]))
        SERVER_MESSAGES = {m["type"]: m for m in schema["server"]}


def check_declared(msg):
    """Fails when a message from the server is not what its declaration says: an undeclared
    type or key, or a missing key the type always has."""
    if SERVER_MESSAGES is None:
        return
    spec = SERVER_MESSAGES.get(msg.get("type")) if isinstance(msg, dict) else None
    if spec is None:
        raise AssertionError("the server sent a message of no declared type: %s" % msg)
    declared = {k["key"] for k in spec["keys"]} | {"type", "id"}
    extra = sorted(set(msg) - declared)
    missing = [k["key"] for k in spec["keys"] if k["required"] and k["key"] not in msg]
    if extra or missing:
        raise AssertionError("%s differs from server/src/proto/messages.def (undeclared keys %s, "
                             "missing keys %s): %s" % (msg["type"], extra, missing, msg))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """What every running chess_server offers a test: its URL, HTTP, client connections and its
    log. Subclasses set port, log_path and clients (and host, when not 127.0.0.1), and call
    launch()."""

    host = "127.0.0.1"

    def launch(self, cmd, what="server", preexec_fn=None):
        """Starts cmd with its output in the log, and returns once /healthz answers; preexec_fn
        runs in the child before the program (e.g. to lower a resource limit)."""
        self.log = open(self.log_path, "a")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT,
                                     preexec_fn=preexec_fn)
        deadline = time.time() + 10
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("%s exited at start: %s" % (what, self.read_log()))
            try:
                self.http("/healthz")
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("%s did not start" % what)

    @property
    def url(self):
        return "ws://%s:%d/ws" % (self.host, self.port)

    def http(self, path):
        """GET path; returns (status, headers, body bytes)."""
        try:
            with urllib.request.urlopen("http://%s:%d%s" % (self.host, self.port, path),
                                        timeout=TIMEOUT) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def post_json(self, path, token=None, form=None):
        """POST path (a form, or nothing) with a bearer token; returns (status, the JSON answer)."""
        data = urllib.parse.urlencode(form).encode() if form else b""
        req = urllib.request.Request("http://%s:%d%s" % (self.host, self.port, path), data=data,
                                     method="POST")
        if token:
            req.add_header("Authorization", "Bearer " + token)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def health(self):
        status, _, body = self.http("/healthz")
        return status, json.loads(body)

    async def connect(self, headers=None):
        """A new connection; headers: extra HTTP headers for its upgrade request."""
        c = Client(self)
        await c.open(headers)
        self.clients.append(c)
        return c

    async def player(self, name=None, token=None):
        """A connection that has said hello (as a new guest, or with a token)."""
        c = await self.connect()
        await c.hello(name=name, token=token)
        return c

    def read_log(self):
        if not self.log.closed:
            self.log.flush()
        with open(self.log_path) as f:
            return f.read()

    async def close_clients(self):
        for c in self.clients:
            try:
                await asyncio.wait_for(c.close(), 2)
            except Exception:
                pass
        self.clients = []


class Server(ServerProcess):
    """One chess_server process with a data directory of its own."""

    def __init__(self, binary, args=(), static_dir=None):
        self.binary = binary
        self.port = free_port()
        self.tmp = tempfile.mkdtemp(prefix="chess-it-")
        self.log_path = os.path.join(self.tmp, "server.log")
        self.clients = []
        cmd = [binary, "--listen", "127.0.0.1", "--port", str(self.port),
               "--data-dir", os.path.join(self.tmp, "data"), "--log-level", "debug",
               "--static-dir", static_dir or os.path.join(self.tmp, "no-client")]
        self.launch(cmd + list(args))

    def stop(self, sig=signal.SIGTERM, timeout=10):
        """Stops the server with a signal; returns its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise AssertionError("server did not stop within %ss" % timeout)
        return self.proc.returncode

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


class Client:
    """A WebSocket client that keeps every message it received, for waiting on a kind."""

    ids = itertools.count(1)

    def __init__(self, server):
        self.server = server
        self.ws = None
        self.inbox = []
        self.player = None
        self.token = None
        self.welcome = None

    async def open(self, headers=None):
        self.ws = await websockets.connect(self.server.url, max_size=2 ** 22,
                                           extra_headers=headers)

    async def close(self):
        if self.ws:
            await self.ws.close()

    async def send(self, msg):
        await self.ws.send(json.dumps(msg) if isinstance(msg, dict) else msg)

    async def _read(self, timeout):
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        msg = json.loads(raw)
        check_declared(msg)
        return msg

    async def recv(self, pred, timeout=TIMEOUT, what="a message"):
        """Returns (and removes) the first message, received or waiting, that pred accepts."""
        deadline = time.time() + timeout
        while True:
            for i, m in enumerate(self.inbox):
                if pred(m):
                    return self.inbox.pop(i)
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError("timed out waiting for %s; got %s" % (what, self.inbox))
            try:
                self.inbox.append(await self._read(left))
            except asyncio.TimeoutError:
                raise AssertionError("timed out waiting for %s; got %s" % (what, self.inbox))

    async def recv_type(self, type_, timeout=TIMEOUT, **fields):
        def pred(m):
            return m.get("type") == type_ and all(m.get(k) == v for k, v in fields.items())
        return await self.recv(pred, timeout, "%s %s" % (type_, fields or ""))

    async def expect_none(self, type_, wait=0.3):
        """Asserts no message of this type arrives within `wait` seconds."""
        try:
            m = await self.recv_type(type_, timeout=wait)
        except AssertionError:
            return
        raise AssertionError("unexpected %s" % m)

    async def request(self, msg, timeout=TIMEOUT):
        """Sends msg with a fresh id; returns the reply carrying that id (a result or error)."""
        rid = next(Client.ids)
        msg = dict(msg, id=rid)
        await self.send(msg)
        return await self.recv(lambda m: m.get("id") == rid, timeout, "the reply to %s" % msg)

    async def ok(self, msg):
        """request() that must succeed."""
        r = await self.request(msg)
        assert r.get("type") != "error", "%s failed: %s" % (msg, r)
        return r

    async def error(self, msg, code):
        """request() that must fail with this code; the reply echoes the id."""
        r = await self.request(msg)
        assert r.get("type") == "error", "%s should fail with %s: %s" % (msg, code, r)
        assert r.get("code") == code, "%s: expected %s, got %s" % (msg, code, r)
        assert r.get("message"), r
        return r

    async def hello(self, name=None, token=None):
        msg = {"type": "hello", "protocol": 1}
        if name:
            msg["name"] = name
        if token:
            msg["token"] = token
        self.welcome = await self.ok(msg)
        self.player = self.welcome["player"]
        self.token = self.welcome.get("token")  # none for bots
        return self.welcome

    async def move(self, game, move):
        return await self.ok({"type": "move", "game": game, "move": move})


async def start_game(white, black, time_control=None, color="white"):
    """White creates a challenge by link, Black accepts; returns the game id after both saw it."""
    tc = time_control or {"minutes": 5, "increment": 0}
    created = await white.ok({"type": "challenge_create", "time": tc, "color": color})
    cid = created["challenge"]["id"]
    started = await black.ok({"type": "challenge_accept", "challenge": cid})
    assert started["type"] == "game_started", started
    gid = started["game"]["id"]
    await white.recv_type("game_started")
    return gid


async def play(game, white, black, moves):
    """Plays moves alternately starting with white (UCI or SAN); returns the last move event."""
    last = None
    for i, mv in enumerate(moves):
        mover = white if i % 2 == 0 else black
        last = await mover.move(game, mv)
    return last


async def bot_account(srv, owner_name, bot_name):
    """A registered owner (connected) and a bot it created: (owner, bot token, bot id)."""
    owner = await srv.player(owner_name)
    await owner.ok({"type": "register", "username": owner_name, "password": "password " + owner_name})
    created = await owner.ok({"type": "bot_create", "username": bot_name})
    return owner, created["token"], created["bot"]["id"]


BOTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bots")


class BotProcess:
    """A bot program of bots/ run as a real process against the server, its output in a file."""

    def __init__(self, srv, program, args, url=None):
        self.log_path = os.path.join(srv.tmp, "%s-%d.log" % (program, len(srv.clients)))
        self.log = open(self.log_path, "w")
        srv.clients.append(self)  # closed with the server's clients
        cmd = ["/usr/bin/python3", os.path.join(BOTS_DIR, program), "--url", url or srv.url]
        self.proc = subprocess.Popen(cmd + list(args), stdout=self.log, stderr=subprocess.STDOUT)

    async def wait(self, timeout):
        """The exit status; fails (with the bot's output) when it runs longer than timeout."""
        deadline = time.time() + timeout
        while self.proc.poll() is None:
            if time.time() > deadline:
                self.proc.kill()
                self.proc.wait()
                raise AssertionError("%s still running after %ss:\n%s" % (
                    self.log_path, timeout, self.output()[-4000:]))
            await asyncio.sleep(0.1)
        return self.proc.returncode

    def output(self):
        self.log.flush()
        with open(self.log_path) as f:
            return f.read()

    async def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()
        self.log.close()


async def wait_online(client, player_id, timeout=TIMEOUT):
    """Waits until a player has a connection (a bot process has connected)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        r = await client.ok({"type": "player_get", "player": player_id})
        if r["player"]["online"]:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("player %s did not come online" % player_id)


async def wait_for(pred, timeout=TIMEOUT, what="a condition"):
    """Polls pred() until it is true; fails saying what it waited for. For state that another
    process or thread changes in its own time (a metric, a log line), instead of a fixed sleep."""
    deadline = time.time() + timeout
    while not pred():
        if time.time() > deadline:
            raise AssertionError("timed out waiting for " + what)
        await asyncio.sleep(0.05)


def run_with_timeout(fn, target, seconds):
    """Runs the async test fn(target) for at most seconds, then closes target's clients."""
    async def run():
        try:
            await asyncio.wait_for(fn(target), seconds)
        finally:
            await target.close_clients()
    asyncio.run(run())


def run_test_functions(namespace, run_one):
    """The test programs' main: parses --server BINARY and -k TEXT, calls run_one(binary, fn,
    logs, cleanups) for every async test_* function of namespace whose name contains TEXT, and
    prints PASS or FAIL per test and a summary. run_one appends to logs functions that return
    log text, printed after a failure's traceback, and to cleanups what undoes its set-up, run
    after that (last first). Exits 0 when every test passed, else 1."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("-k", default="", help="run only tests whose name contains this")
    opts = parser.parse_args()
    load_declarations(opts.server)
    tests = [(n, f) for n, f in namespace.items()
             if n.startswith("test_") and inspect.iscoroutinefunction(f) and opts.k in n]
    failed = []
    for name, fn in tests:
        t0 = time.time()
        logs, cleanups = [], []
        try:
            run_one(opts.server, fn, logs, cleanups)
            print("PASS %s (%.1fs)" % (name, time.time() - t0))
        except Exception:
            failed.append(name)
            print("FAIL %s (%.1fs)" % (name, time.time() - t0))
            traceback.print_exc()
            for log in logs:
                print(log())
        finally:
            for cleanup in reversed(cleanups):
                cleanup()
        sys.stdout.flush()
    print("%d tests, %d failed%s" % (len(tests), len(failed),
                                      (": " + ", ".join(failed)) if failed else ""))
    sys.exit(1 if failed else 0)


def run_tests(namespace):
    """Runs every async test_*(srv) against a server of its own (flags: SERVER_ARGS of the
    module, and @server_args of the test), for at most 60 s (or @time_limit's)."""
    base_args = namespace.get("SERVER_ARGS", [])

    def run_one(binary, fn, logs, cleanups):
        srv = Server(binary, base_args + getattr(fn, "server_args", []),
                     getattr(fn, "static_dir", None))
        cleanups.append(srv.close)
        logs.append(lambda: "---- server log ----\n" + srv.read_log()[-6000:])

        run_with_timeout(fn, srv, getattr(fn, "time_limit", 60))
        # Every test ends with a graceful stop: exit status 0 also means no sanitizer report
        # (leaks, memory errors) in sanitizer builds.
        rc = srv.stop()
        assert rc == 0, "server exit status %s after SIGTERM" % rc

    run_test_functions(namespace, run_one)


def server_args(*args):
    """Decorator: extra command-line flags for the server a test runs against."""
    def wrap(fn):
        fn.server_args = list(args)
        return fn
    return wrap


def time_limit(seconds):
    """Decorator: how long a test may run (60 s unless said), for tests that hold load."""
    def wrap(fn):
        fn.time_limit = seconds
        return fn
    return wrap


# Pieces that break JSON, numbers and strings: what mutate() inserts.
FUZZ_TOKENS = ['"', "\\", "{", "}", "[", "]", ",", ":", "-0", "1e999", "null", "true", '"id":',
               '"type":', "\\u0000", "\\ud800", "\u00e9", "99999999999999999999", " ", "\n"]


def mutate(rng, text):
    """text with one to four random changes: a character replaced, a few removed, a token
    inserted (test_errors.py and tests/fuzz/live_fuzz.py send such messages to the server)."""
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(text))
        kind = rng.randint(0, 3)
        if kind == 0 and at < len(text):
            text = text[:at] + chr(rng.randint(1, 0x7f)) + text[at + 1:]
        elif kind == 1:
            text = text[:at] + text[at + rng.randint(1, 8):]
        else:
            text = text[:at] + rng.choice(FUZZ_TOKENS) + text[at:]
    return text
