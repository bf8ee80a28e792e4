"""
Helpers for the persistence tests (test_persist*.py): servers that restart on the same data
directory, direct reads of the database file (Python's sqlite3, read-only), a long legal move
sequence for games under load, and a runner for tests that manage their own servers.

On PostgreSQL: when CHESS_TEST_DATABASE holds a URL (tests/harness/pg_cluster.sh run starts a
throw-away server and sets it; ctest's *_pg tests), servers start with --database URL, each
test gets an emptied database, and query()/execute() run their SQL through psql (Python has no
PostgreSQL driver here), with the same ?-parameters.

Built on harness.py (Server, Client, start_game, play).
"""
import asyncio
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

from harness import Server, free_port, run_test_functions  # noqa: F401  (re-exported)

# 160 legal plies from the start (UCI), played by the engine against itself; games under load
# replay a prefix of it.
LONG_GAME = (
    "e2e3 e7e6 d2d4 f8e7 b1d2 d7d5 f1e2 c8d7 c2c4 d5c4 e2f3 d7c6 d2c4 b7b5 c4e5 c6d5 d1d3 a7a6 "
    "e3e4 d5b7 f3h5 g7g6 h5e2 g8f6 f2f3 f6d7 c1e3 d7e5 d4e5 b8c6 d3c3 b5b4 c3c2 e8g8 a1d1 d8c8 "
    "f3f4 f8d8 g1f3 d8d1 e2d1 c8d7 e1g1 a8d8 d1e2 h7h6 f1d1 d7e8 h2h3 a6a5 e2b5 d8d1 c2d1 e8d8 "
    "d1c2 c6b8 f4f5 g6g5 f5f6 e7f8 c2d3 b8c6 d3c4 c6b8 f3d4 c7c5 d4b3 b8c6 b5c6 d8d1 g1h2 b7c6 "
    "b3a5 d1e1 a5c6 e1e3 c6e7 g8h7 e7f5 e3f4 h2h1 f4e5 a2a3 e5f6 a3b4 e6f5 b4c5 f5e4 c4e4 h7g7 "
    "b2b4 f6c3 h1h2 f8c5 b4c5 c3c5 g2g4 c5a3 e4d4 g7g8 h2g2 a3a2 g2h1 a2e2 d4f6 e2e1 h1h2 e1e6 "
    "f6e6 f7e6 h2g3 g8f7 g3f3 f7e7 f3e3 e7d6 e3d4 e6e5 d4e4 d6e6 e4e3 e6d5 e3d3 e5e4 d3e3 d5e5 "
    "e3d2 e5f4 d2e2 f4g3 e2e3 g3h3 e3e4 h3g4 e4e5 h6h5 e5f6 h5h4 f6g6 h4h3 g6f7 h3h2 f7e6 h2h1q "
    "e6e5 h1f3 e5d4 f3f4 d4c3 f4e5 c3c2 e5d4 c2c1 g4f4 c1b1 g5g4 b1c1 g4g3 c1b1 g3g2"
).split()


PG_URL = os.environ.get("CHESS_TEST_DATABASE") or None


def _pg_literal(value):
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, bytes):
        return "'\\x%s'::bytea" % value.hex()
    return "'%s'" % str(value).replace("'", "''")


def _pg_value(text):
    """A psql field as Python's sqlite3 would give the column: None, int, float or str."""
    if text == "\\N":
        return None
    if text in ("t", "f"):  # a boolean (an expression such as x IS NOT NULL): sqlite3's 1 or 0
        return int(text == "t")
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    if re.fullmatch(r"-?[0-9]+\.[0-9]+(e[-+]?[0-9]+)?", text):
        return float(text)
    return text


def psql(url, sql, params=()):
    """Runs one statement through psql: its rows as tuples (values typed as sqlite3's)."""
    parts = sql.split("?")
    if len(parts) - 1 != len(params):
        raise ValueError("%d parameters for %r" % (len(params), sql))
    text = parts[0] + "".join(_pg_literal(v) + part for v, part in zip(params, parts[1:]))
    p = subprocess.run(["psql", url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                        "-F", "\x1f", "-P", "null=\\N", "-c", text],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    if p.returncode != 0:
        raise RuntimeError("psql: %s: %s" % (text, p.stderr.decode(errors="replace")))
    out = p.stdout.decode()
    return [tuple(_pg_value(f) for f in line.split("\x1f")) for line in out.splitlines() if line]


class DataDir:
    """A data directory that outlives the servers started on it (and, on PostgreSQL, the
    database at PG_URL, emptied for each test)."""

    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="chess-persist-")
        self.servers = []
        self.pg = PG_URL
        if self.pg:
            psql(self.pg, "SET client_min_messages = warning; DROP SCHEMA public CASCADE; "
                 "CREATE SCHEMA public")

    def store_args(self):
        """The flags that name the store: --data-dir, and --database on PostgreSQL."""
        return ["--data-dir", self.path] + (["--database", self.pg] if self.pg else [])

    @property
    def db(self):
        return os.path.join(self.path, "chess.db")

    def start(self, *args):
        """A server on this data directory (a new port each time)."""
        srv = Server(self.binary, self.store_args() + list(args))
        self.servers.append(srv)
        return srv

    def query(self, sql, params=()):
        """Rows from the database, read-only (safe beside a running server: WAL)."""
        if self.pg:
            return psql(self.pg, sql, params)
        con = sqlite3.connect("file:%s?mode=ro" % self.db, uri=True, timeout=10)
        try:
            return con.execute(sql, params).fetchall()
        finally:
            con.close()

    def execute(self, sql, params=()):
        """Changes the database beside a running server (WAL: its readers and writer go on)."""
        self.execute_many(sql, [params])

    def execute_many(self, sql, rows):
        if self.pg:
            for params in rows:
                psql(self.pg, sql, params)
            return
        con = sqlite3.connect(self.db, timeout=10)
        try:
            with con:
                con.executemany(sql, rows)
        finally:
            con.close()

    def moves(self, game):
        """{ply: (uci, san)} of a game, live or archived."""
        rows = self.query("SELECT ply, uci, san FROM live_moves WHERE game_id = ? UNION ALL "
                          "SELECT ply, uci, san FROM moves WHERE game_id = ?", (game, game))
        return {ply: (uci, san) for ply, uci, san in rows}

    def run_binary(self, *args, timeout=20):
        """Runs the server binary to its exit (for start-up failures): (status, output)."""
        cmd = [self.binary, "--listen", "127.0.0.1", "--port", str(free_port()),
               ] + self.store_args() + list(args)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace")

    def cleanup(self):
        for srv in self.servers:
            srv.close()
        shutil.rmtree(self.path, ignore_errors=True)


def run_data_dir_tests(namespace, timeout=240):
    """Runs every async test_*(data: DataDir) with a fresh data directory, for at most timeout
    seconds each; exits 0 or 1."""
    def run_one(binary, fn, logs, cleanups):
        data = DataDir()
        data.binary = binary
        cleanups.append(data.cleanup)
        logs.append(lambda: "".join("---- server log (port %d) ----\n%s\n"
                                    % (srv.port, srv.read_log()[-5000:]) for srv in data.servers))
        asyncio.run(asyncio.wait_for(fn(data), timeout))

    run_test_functions(namespace, run_one)
