"""
The compose site without Docker: deploy/nginx/compose.conf (with deploy/nginx/chess-proxy.conf)
run for real with Debian's nginx in front of real chess_server nodes set up as
docker-compose.yml sets them up (one real redis-server, one real PostgreSQL server from
tests/harness/pg_cluster.sh, CHESS_* from the compose file, a data directory of each node's own),
and the containers' health check script (deploy/healthcheck.sh) against a real server.

Through the front: the client's files and the fallback to index.html, /healthz and /api/
proxied, /metrics refused, WebSocket sessions spread over both nodes, and a game to checkmate
between two players on different nodes with a spectator; the HTTP API's event stream unbuffered
(its head at once, a challenge line within a second, the keep-alive newline), request bodies up
to 64 KiB, and the game's PGN from /game/export/.

The nginx config is used as shipped except for what only Docker provides: the node names
become the nodes' loopback ports, the listen port a free one, the client root a directory with
a stand-in client, /tmp a private directory.

    /usr/bin/python3 tests/deploy/test_front.py --server build/release/server/chess_server
Run under `tests/harness/pg_cluster.sh run`, which sets CHESS_TEST_DATABASE (ctest does). Exits
77 (ctest: skipped) when nginx, redis-server or PostgreSQL is missing (scripts/setup.sh test
installs them).
"""
import argparse
import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "integration"))
from cluster_harness import Redis  # noqa: E402
from harness import Client, Server, free_port, start_game  # noqa: E402
from lichess_api import Api  # noqa: E402

HEALTHCHECK = os.path.join(ROOT, "deploy", "healthcheck.sh")
INDEX = b"<!doctype html><title>stand-in client</title>\n"
ASSET = b"// a hashed asset, long enough to be gzipped\n" + b"export const x = 1;\n" * 200


def http(port, path, headers=None):
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def healthcheck(*args, env=None):
    r = subprocess.run(["bash", HEALTHCHECK] + list(args), capture_output=True, text=True,
                       timeout=10, env=dict(os.environ, **(env or {})))
    return r.returncode, r.stdout + r.stderr


class Front:
    """nginx running deploy/nginx/compose.conf in front of the given node ports."""

    def __init__(self, nginx, node_ports):
        self.tmp = tempfile.mkdtemp(prefix="chess-front-")
        os.chmod(self.tmp, 0o755)  # nginx's workers run as nobody when the master is root
        client = os.path.join(self.tmp, "client")
        os.makedirs(os.path.join(client, "assets"))
        with open(os.path.join(client, "index.html"), "wb") as fh:
            fh.write(INDEX)
        with open(os.path.join(client, "assets", "index-abc123.js"), "wb") as fh:
            fh.write(ASSET)
        self.port = free_port()
        conf = open(os.path.join(ROOT, "deploy", "nginx", "compose.conf")).read()
        conf = conf.replace("/tmp/", self.tmp + "/")
        upstream = re.search(r"upstream\s+chess_nodes\s*\{(.*?)\}", conf, re.S)
        servers = re.findall(r"^\s*server\s+\S+", upstream.group(1), re.M)
        assert len(servers) == len(node_ports), "compose.conf has %d nodes" % len(servers)
        ports = iter(node_ports)
        body = re.sub(r"(^\s*server\s+)[a-z0-9_-]+:\d+",
                      lambda m: "%s127.0.0.1:%d" % (m.group(1), next(ports)), upstream.group(1),
                      flags=re.M)
        conf = conf.replace(upstream.group(1), body)
        conf, n = re.subn(r"^(\s*listen\s+)8080;", r"\g<1>127.0.0.1:%d;" % self.port, conf,
                          flags=re.M)
        assert n == 1, "compose.conf does not listen on 8080"
        conf, n = re.subn(r"^(\s*root\s+)[^;]+;", r"\g<1>%s;" % client, conf, flags=re.M)
        assert n == 1, "compose.conf has no root"
        conf = conf.replace("/etc/nginx/chess/proxy.conf",
                            os.path.join(ROOT, "deploy", "nginx", "chess-proxy.conf"))
        conf = conf.replace("access_log /dev/stdout;", "access_log %s/access.log;" % self.tmp)
        path = os.path.join(self.tmp, "nginx.conf")
        with open(path, "w") as fh:
            fh.write(conf)
        self.log = open(os.path.join(self.tmp, "nginx.log"), "w")
        self.proc = subprocess.Popen([nginx, "-e", "stderr", "-p", self.tmp, "-c", path,
                                      "-g", "daemon off;"], stdout=self.log,
                                     stderr=subprocess.STDOUT)
        deadline = time.time() + 10
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("nginx exited: " + self.read_log())
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start: " + self.read_log())

    @property
    def url(self):
        return "ws://127.0.0.1:%d/ws" % self.port

    def read_log(self):
        self.log.flush()
        return open(os.path.join(self.tmp, "nginx.log")).read()

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


def connections(node):
    status, _, body = node.http("/healthz")
    assert status == 200, (status, body)
    return json.loads(body)["connections"]


async def check_front(front, nodes):
    status, headers, body = http(front.port, "/")
    assert status == 200 and body == INDEX, ("index", status, body)
    assert "no-cache" in headers.get("Cache-Control", ""), ("index caching", dict(headers))
    status, _, body = http(front.port, "/game/abc123")
    assert status == 200 and body == INDEX, ("client route fallback", status, body)
    status, headers, body = http(front.port, "/assets/index-abc123.js",
                                 {"Accept-Encoding": "gzip"})
    assert status == 200, ("asset", status)
    assert headers.get("Content-Encoding") == "gzip", ("asset gzip", dict(headers))
    assert "max-age=315360000" in headers.get("Cache-Control", ""), ("asset", dict(headers))
    status, _, _ = http(front.port, "/assets/missing.js")
    assert status == 404, ("missing asset must be 404, not the index", status)

    status, _, body = http(front.port, "/healthz")
    assert status == 200 and json.loads(body)["status"] == "ok", ("healthz", status, body)
    status, _, body = http(front.port, "/api/games/nosuchgame")
    assert status == 404 and json.loads(body)["code"] == "GAME_NOT_FOUND", ("api", status, body)
    status, _, _ = http(front.port, "/metrics")
    assert status == 403, ("/metrics must be refused at the front", status)
    # Nor does a node answer it on the port the front proxies to: only on its metrics port.
    for node in nodes:
        status, _, _ = node.http("/metrics")
        assert status == 404, ("/metrics on the players' port of a node", status)

    # WebSockets through the front: each says hello; least_conn puts them on both nodes.
    clients = []
    for i in range(4):
        c = Client(front)
        await c.open()
        clients.append(c)
        welcome = await c.hello(name="Front%d" % i)
        assert welcome["type"] == "welcome" and welcome["player"], welcome
    counts = [connections(n) for n in nodes]
    assert sum(counts) == 4 and min(counts) >= 1, ("connections per node", counts)
    for c in clients:
        await c.close()


def check_healthcheck(binary):
    srv = Server(binary)
    try:
        rc, out = healthcheck("/healthz", str(srv.port))
        assert rc == 0, ("healthcheck of a running server", rc, out)
        rc, out = healthcheck(env={"CHESS_PORT": str(srv.port), "CHESS_LISTEN": "127.0.0.1"})
        assert rc == 0, ("healthcheck with the port from CHESS_PORT", rc, out)
        rc, out = healthcheck("/no-such-endpoint-here", str(srv.port))
        assert rc == 1 and "404" in out, ("healthcheck of a 404", rc, out)
        port = srv.port
        assert srv.stop() == 0
        rc, out = healthcheck("/healthz", str(port))
        assert rc == 1 and "nothing listens" in out, ("healthcheck of a stopped server", rc, out)
    finally:
        srv.close()


def compose_nodes(binary, redis_port, database, tmp):
    """The flags of each node service of docker-compose.yml: its CHESS_* environment turned
    into the flags --help pairs them with, the redis and postgres services' addresses as the
    real servers', and a data directory of its own for each, as each container has."""
    from server_help import read_options
    env_to_flag = {o.env: o.flag for o in read_options(binary)}
    with open(os.path.join(ROOT, "docker-compose.yml")) as fh:
        services = yaml.safe_load(fh)["services"]
    nodes = []
    for name, svc in services.items():
        if (svc.get("build") or {}).get("target") != "server":
            continue
        args = []
        for k, v in (svc.get("environment") or {}).items():
            v = str(v)
            if k == "CHESS_REDIS":
                assert v.split(":")[0] in services, "CHESS_REDIS of %s: %s" % (name, v)
                v = "127.0.0.1:%d" % redis_port
            if k == "CHESS_DATABASE":
                host = re.search(r"@([^:/]+)", v)
                assert host and host.group(1) in services, "CHESS_DATABASE of %s: %s" % (name, v)
                v = database
            if k == "CHESS_METRICS_LISTEN":  # each node's own port, as each container has it
                v = "127.0.0.1:%d" % free_port()
            assert k in env_to_flag, "%s sets %s, which the server does not read" % (name, k)
            args += [env_to_flag[k], v]
        nodes.append(args + ["--data-dir", os.path.join(tmp, "data-%s" % name)])
    return nodes


async def check_game_across_nodes(front, nodes):
    """Two players through the front land on different nodes (least_conn) and play to
    checkmate; a spectator on a third connection sees every move."""
    deadline = time.time() + 5
    while any(connections(n) for n in nodes):  # the earlier sessions' closes arrive
        assert time.time() < deadline, [connections(n) for n in nodes]
        await asyncio.sleep(0.05)
    white = Client(front)
    await white.open()
    await white.hello(name="FrontWhite")
    black = Client(front)
    await black.open()
    await black.hello(name="FrontBlack")
    counts = [connections(n) for n in nodes]
    assert sorted(counts)[-2:] == [1, 1] and sum(counts) == 2, \
        ("the players must be on different nodes", counts)
    watcher = Client(front)
    await watcher.open()
    await watcher.hello(name="FrontWatcher")
    gid = await start_game(white, black)
    full = await watcher.ok({"type": "watch", "game": gid})
    assert full["type"] == "game" and full["game"]["id"] == gid, full
    moves = ["f3", "e5", "g4", "Qh4#"]
    for i, mv in enumerate(moves):
        mover, other = (white, black) if i % 2 == 0 else (black, white)
        ev = await mover.move(gid, mv)
        assert ev["type"] == "move" and ev["san"] == mv, ev
        seen = await other.recv_type("move", ply=i + 1)
        assert seen["uci"] == ev["uci"], seen
        spectated = await watcher.recv_type("move", ply=i + 1)
        assert spectated["fen"] == ev["fen"], spectated
    for c in (white, black, watcher):
        end = await c.recv_type("game_end", game=gid)
        assert end["reason"] == "checkmate" and end["winner"] == "black", end
    for c in (white, black, watcher):
        await c.close()
    return gid


async def check_api_through_front(front, nodes, gid):
    """The HTTP API through the front (docs/http-api.md): an event stream's lines and keep-alive
    newlines arrive as the node sends them, not when nginx's buffer fills; request bodies of up
    to 64 KiB pass, larger ones are refused; a game's PGN comes from the nodes."""
    owner = Client(front)
    await owner.open()
    await owner.hello(name="FrontOwner")
    await owner.ok({"type": "register", "username": "FrontOwner", "password": "front owner pw"})
    created = await owner.ok({"type": "bot_create", "username": "FrontBot"})
    token, bot_id = created["token"], created["bot"]["id"]
    await owner.close()
    deadline = time.time() + 5
    while any(connections(n) for n in nodes):
        assert time.time() < deadline, [connections(n) for n in nodes]
        await asyncio.sleep(0.05)
    api = Api(front.port, token)
    asked = time.time()
    events = await asyncio.to_thread(api.stream, "/api/stream/event")
    # The head at once: a buffering front holds it until the first newline, 6 s later.
    opened = time.time() - asked
    assert opened < 1, "the stream's head came %.1f s after the request" % opened
    # The challenger talks to the stream's node directly: what is measured is the front.
    node = [n for n in nodes if connections(n) == 1]
    assert len(node) == 1, [connections(n) for n in nodes]
    person = Client(node[0])
    await person.open()
    await person.hello(name="FrontPerson")
    sent = time.time()
    challenge = await person.ok({"type": "challenge_create", "player": bot_id,
                                 "time": {"minutes": 5, "increment": 0}})
    cid = challenge["challenge"]["id"]
    line = await asyncio.to_thread(events.next_type, "challenge", 1.0)
    assert line["challenge"]["id"] == cid, line
    arrived = time.time() - sent
    await person.ok({"type": "challenge_cancel", "challenge": cid})
    line = await asyncio.to_thread(events.next_type, "challengeCanceled", 1.0)
    assert line["challenge"]["id"] == cid, line
    # A keep-alive newline after 5 to 6 s without a line.
    quiet = time.time()
    assert events.keepalives == 0, "a keep-alive newline before 6 s without a line"
    while events.keepalives == 0:
        assert time.time() - quiet < 8, "no keep-alive newline through the front within 8 s"
        await asyncio.sleep(0.05)
    keepalive = time.time() - quiet
    assert not events.ended(0), "the front ended the stream"
    events.close()
    await person.close()

    # Bodies: 64 KiB (the token after blanks, which the server trims) pass, one byte more not.
    body = " " * (64 * 1024 - len(token)) + token
    answer = await asyncio.to_thread(api.post, "/api/token/test", body=body)
    assert answer[token]["userId"] == "frontbot", answer
    status, _, _ = await asyncio.to_thread(api.request, "POST", "/api/token/test", body=body + " ")
    assert status == 413, ("a body over 64 KiB through the front", status)
    status, headers, pgn = await asyncio.to_thread(api.request, "GET", "/game/export/" + gid)
    assert status == 200 and headers["content-type"] == "application/x-chess-pgn", (status, pgn)
    assert b"Qh4#" in pgn, pgn
    return opened, arrived, keepalive


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True, help="the chess_server binary")
    args = ap.parse_args()
    check_healthcheck(args.server)
    print("ok deploy/healthcheck.sh against a running, a 404 and a stopped server")

    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx")
                                      else None)
    database = os.environ.get("CHESS_TEST_DATABASE")
    if not nginx or not shutil.which("redis-server") or not database:
        print("SKIP: nginx, redis-server or PostgreSQL is missing (scripts/setup.sh test installs "
              "them; run under tests/harness/pg_cluster.sh run)")
        return 77
    tmp = tempfile.mkdtemp(prefix="chess-site-")
    redis = Redis(tmp)
    nodes, front = [], None
    try:
        for node_args in compose_nodes(args.server, redis.port, database, tmp):
            nodes.append(Server(args.server, node_args))
        front = Front(nginx, [n.port for n in nodes])
        asyncio.run(check_front(front, nodes))
        gid = asyncio.run(check_game_across_nodes(front, nodes))
        opened, arrived, keepalive = asyncio.run(check_api_through_front(front, nodes, gid))
        print("ok the HTTP API through the front: an event stream open in %.0f ms, a challenge "
              "line %.0f ms after it was made, a keep-alive %.1f s after the last line"
              % (1000 * opened, 1000 * arrived, keepalive))
        rc, out = healthcheck("/", str(front.port))
        assert rc == 0, ("the front's healthcheck", rc, out)
    except Exception:
        if front:
            print("nginx log:\n" + front.read_log())
        for i, n in enumerate(nodes):
            print("node %d log:\n%s" % (i + 1, n.read_log()[-4000:]))
        raise
    finally:
        if front:
            front.close()
        for n in nodes:
            n.close()
        redis.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print("ok the compose site: front, %d nodes on one PostgreSQL database and Redis" % len(nodes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
