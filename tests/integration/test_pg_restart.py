"""
PostgreSQL restarted under a running server (docs/persistence.md, "PostgreSQL"): the writer and
the readers reconnect on their own. A game is played while the database restarts; every move the
players were told of is in the database afterwards, moves made just after the restart are
committed and announced once it is back, reads (a login, a profile) work again, and the server
never exits; a database stopped for longer than the writer's retries is waited for (/healthz
degraded, the move's reply held until it is committed).

Needs PostgreSQL's binaries (tests/harness/pg_cluster.sh; skipped with 77 without them): the
test starts and restarts its own cluster.
"""
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile

from harness import Server, run_test_functions, start_game

HERE = os.path.dirname(os.path.abspath(__file__))
CLUSTER = os.path.join(HERE, "..", "harness", "pg_cluster.sh")


class Cluster:
    def __init__(self):
        self.parent = tempfile.mkdtemp(prefix="chess-pg-restart-")
        os.chmod(self.parent, 0o755)
        self.dir = os.path.join(self.parent, "pg")
        p = subprocess.run(["bash", CLUSTER, "start", self.dir], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120)
        if p.returncode == 77:
            print(p.stderr.decode().strip())
            sys.exit(77)
        if p.returncode != 0:
            raise RuntimeError("pg_cluster start: %s" % p.stderr.decode())
        self.url = p.stdout.decode().strip().splitlines()[-1]

    def restart(self):
        subprocess.run(["bash", CLUSTER, "restart", self.dir], check=True, timeout=120)

    def halt(self):
        subprocess.run(["bash", CLUSTER, "halt", self.dir], check=True, timeout=120)

    def resume(self):
        subprocess.run(["bash", CLUSTER, "resume", self.dir], check=True, timeout=120)

    def query(self, sql):
        p = subprocess.run(["psql", self.url, "-X", "-q", "-A", "-t", "-c", sql],
                           stdout=subprocess.PIPE, check=True, timeout=30)
        return p.stdout.decode().split()

    def close(self):
        subprocess.run(["bash", CLUSTER, "stop", self.dir], timeout=120)
        shutil.rmtree(self.parent, ignore_errors=True)


MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7"]


async def test_writer_and_readers_reconnect(srv_and_cluster):
    srv, cluster = srv_and_cluster
    alice = await srv.player("Alice")
    await alice.ok({"type": "register", "username": "Alice", "password": "password alice"})
    bob = await srv.player("Bob")
    game = await start_game(alice, bob, {"minutes": 30, "increment": 0})
    acked = []
    for i, mv in enumerate(MOVES[:4]):
        await (alice if i % 2 == 0 else bob).move(game, mv)
        acked.append(mv)
    await asyncio.to_thread(cluster.restart)
    # Right after the restart: moves go on; each reply comes once its write is committed.
    for i, mv in enumerate(MOVES[4:], start=4):
        reply = await (alice if i % 2 == 0 else bob).request(
            {"type": "move", "game": game, "move": mv}, timeout=20)
        assert reply.get("type") == "move", reply
        acked.append(mv)
    rows = await asyncio.to_thread(
        cluster.query, "SELECT uci FROM live_moves WHERE game_id = '%s' ORDER BY ply" % game)
    assert rows == acked, (rows, acked)
    # Reads work again: the profile over HTTP, a login (its account read from the database).
    status, _, _ = await asyncio.to_thread(srv.http, "/api/users/alice")
    assert status == 200, status
    again = await srv.connect()
    reply = await again.request({"type": "login", "username": "Alice", "password": "password alice"},
                                timeout=20)
    assert reply.get("type") == "session", reply
    assert srv.proc.poll() is None, "the server is still running"
    assert "reconnected to PostgreSQL" in srv.read_log()
    # A second restart while idle: the next move is committed too.
    await asyncio.to_thread(cluster.restart)
    reply = await alice.request({"type": "resign", "game": game}, timeout=20)
    assert reply.get("type") == "game_end", reply
    rows = await asyncio.to_thread(cluster.query,
                                   "SELECT status FROM games WHERE id = '%s'" % game)
    assert rows == ["ended"], rows


async def test_database_away_longer_than_the_retries(srv_and_cluster):
    """PostgreSQL stopped for 10 s (longer than the writer's 8 attempts): the server waits for
    it, says so in /healthz, holds the move's reply, and commits and answers it once the
    database is back; it never exits."""
    srv, cluster = srv_and_cluster
    alice = await srv.player("Alice")
    bob = await srv.player("Bob")
    game = await start_game(alice, bob, {"minutes": 30, "increment": 0})
    await alice.move(game, "e2e4")
    await asyncio.to_thread(cluster.halt)
    try:
        rid_reply = asyncio.ensure_future(
            bob.request({"type": "move", "game": game, "move": "e7e5"}, timeout=60))
        health = None
        for _ in range(100):
            status, health = await asyncio.to_thread(srv.health)
            if health.get("database") == "down":
                break
            await asyncio.sleep(0.1)
        assert status == 200 and health["status"] == "degraded", (status, health)
        assert health["database"] == "down", health
        await asyncio.sleep(10)
        assert not rid_reply.done(), "a move was answered before it was committed"
        assert srv.proc.poll() is None, "the server waits for the database"
    finally:
        await asyncio.to_thread(cluster.resume)
    reply = await rid_reply
    assert reply.get("type") == "move" and reply["ply"] == 2, reply
    rows = await asyncio.to_thread(
        cluster.query, "SELECT uci FROM live_moves WHERE game_id = '%s' ORDER BY ply" % game)
    assert rows == ["e2e4", "e7e5"], rows
    status, health = await asyncio.to_thread(srv.health)
    assert health["database"] == "up" and health["status"] == "ok", health
    await alice.move(game, "g1f3")


def main():
    cluster = Cluster()
    try:
        def run_one(binary, fn, logs, cleanups):
            srv = Server(binary, ["--database", cluster.url])
            cleanups.append(srv.close)
            logs.append(lambda: "---- server log ----\n%s\n" % srv.read_log()[-6000:])
            asyncio.run(asyncio.wait_for(fn((srv, cluster)), 120))
        run_test_functions(globals(), run_one)
    finally:
        cluster.close()


if __name__ == "__main__":
    main()
