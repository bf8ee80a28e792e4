"""
A site for the cluster tests (docs/scaling.md), natively: a real redis-server on a free port and
chess_server nodes on their own ports sharing one data directory (one SQLite file), or, when
CHESS_TEST_DATABASE holds a PostgreSQL URL (tests/harness/pg_cluster.sh run; ctest's *_pg
tests), one PostgreSQL database (emptied for each test) with a data directory of each node's
own: nothing on one node's disk is needed by another. Redis can be stopped and started again on
the same port, a node killed and started again with the same id, port and data.

    from cluster_harness import *
    async def test_something(site):
        a, b = site.node("a"), site.node("b")
        ...
    if __name__ == "__main__":
        run_site_tests(globals())
"""
import argparse
import asyncio
import inspect
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback

import json
import urllib.error
import urllib.request

from harness import (Client, ServerProcess, free_port, run_test_functions,  # noqa: F401
                     run_with_timeout, TIMEOUT, wait_for)
from persist_harness import PG_URL, psql

REDIS = "/usr/bin/redis-server"


class Redis:
    def __init__(self, tmp, host=None):
        """host: a hosts.Host to run on (default: 127.0.0.1 here)."""
        self.port = free_port()
        self.tmp = tmp
        self.on = host
        self.addr = host.addr if host else "127.0.0.1"
        self.proc = None
        self.extra = []  # more redis-server arguments (e.g. --requirepass)
        self.start()

    def start(self):
        log = open(os.path.join(self.tmp, "redis.log"), "a")
        cmd = [REDIS, "--port", str(self.port), "--bind", self.addr, "--save", "",
               "--appendonly", "no", "--dir", self.tmp] + self.extra
        if self.on:  # reached from the other hosts: not loopback, on the test's own network
            cmd += ["--protected-mode", "no"]
        self.proc = subprocess.Popen(self.on.wrap(cmd) if self.on else cmd, stdout=log,
                                     stderr=subprocess.STDOUT)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                with socket.create_connection((self.addr, self.port), 0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith((b"+PONG", b"-NOAUTH")):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

    def command(self, *args):
        """Sends one command (RESP) and returns the raw reply bytes."""
        out = b"*%d\r\n" % len(args)
        for a in args:
            a = a.encode() if isinstance(a, str) else a
            out += b"$%d\r\n%s\r\n" % (len(a), a)
        with socket.create_connection((self.addr, self.port), 2) as s:
            s.sendall(out)
            time.sleep(0.05)
            return s.recv(1 << 20)

    def kill_clients(self, prefix):
        """Closes the connections whose CLIENT SETNAME starts with prefix; returns how many."""
        listing = self.command("CLIENT", "LIST").decode(errors="replace")
        killed = 0
        for line in listing.splitlines():
            fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
            if fields.get("name", "").startswith(prefix):
                self.command("CLIENT", "KILL", fields["addr"])
                killed += 1
        return killed

    @property
    def address(self):
        return "%s:%d" % (self.addr, self.port)


class Node(ServerProcess):
    """One chess_server of the site; start() again after stop() keeps its id, port and data."""

    def __init__(self, site, node_id, extra_args=()):
        self.site = site
        self.node_id = node_id
        # On a host of its own when the site has hosts (hosts.py), else 127.0.0.1.
        self.on = site.hosts.host("node-" + node_id) if site.hosts else None
        if self.on:
            self.host = self.on.addr
        self.port = free_port()
        self.extra = list(extra_args)
        self.log_path = os.path.join(site.tmp, "node-%s.log" % node_id)
        self.proc = None
        self.clients = []
        self.start()

    def start(self):
        cmd = [self.site.binary, "--listen", self.host, "--port", str(self.port),
               "--log-level", "debug"] + self.site.store_args(self.node_id) + [
               "--static-dir", os.path.join(self.site.tmp, "no-client"),
               "--redis", self.site.redis.address, "--node-id", self.node_id,
               "--engine-workers", "0"] + self.site.node_args + self.extra
        self.launch(self.on.wrap(cmd) if self.on else cmd, "node %s" % self.node_id)

    def stop(self, sig=signal.SIGTERM, timeout=10):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout)
        self.log.close()
        return self.proc.returncode


PG_CLUSTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness",
                          "pg_cluster.sh")


class Site:
    def __init__(self, binary, hosts=None, own_database=False):
        """hosts: a hosts.Hosts to put Redis and each node on a machine of its own.
        own_database: a PostgreSQL server of the site's own (tests/harness/pg_cluster.sh), on a
        host of its own when there are hosts."""
        self.binary = binary
        self.hosts = hosts
        self.tmp = tempfile.mkdtemp(prefix="chess-site-")
        os.chmod(self.tmp, 0o755)  # the database's owner enters it
        self.data_dir = os.path.join(self.tmp, "data")
        self.pg_dir = None
        self.pg = self.start_database() if own_database else PG_URL
        self.reset_database()
        self.redis = Redis(self.tmp, hosts.host("redis") if hosts else None)
        self.nodes = {}
        self.node_args = []  # more flags for every node started from now on

    def start_database(self):
        """Starts the site's own PostgreSQL (on host "db" when the hosts are namespaces);
        returns its URL."""
        env = dict(os.environ)
        if self.hosts and self.hosts.kind == "netns":
            db = self.hosts.host("db")
            env.update(CHESS_PG_NETNS=db.ns, CHESS_PG_LISTEN=db.addr,
                       CHESS_PG_CLIENTS=str(self.hosts.net))
        self.pg_dir = os.path.join(self.tmp, "pg")
        p = subprocess.run(["bash", PG_CLUSTER, "start", self.pg_dir], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=120)
        if p.returncode != 0:
            raise RuntimeError("pg_cluster start: %s" % p.stderr.decode())
        return p.stdout.decode().strip().splitlines()[-1]

    def reset_database(self):
        """On PostgreSQL, an empty database (no node may be running on it)."""
        if self.pg:
            psql(self.pg, "SET client_min_messages = warning; DROP SCHEMA public CASCADE; "
                 "CREATE SCHEMA public")

    def store_args(self, node_id, data_dir=None):
        """The flags naming a node's store: the shared data directory (or data_dir), or on
        PostgreSQL the shared database and a directory of the node's own."""
        if self.pg:
            return ["--data-dir", os.path.join(self.tmp, "data-%s" % node_id),
                    "--database", self.pg]
        return ["--data-dir", data_dir or self.data_dir]

    def query(self, sql, params=()):
        """Rows from the site's database (read-only, beside running nodes), as
        persist_harness.DataDir.query reads them."""
        if self.pg:
            return psql(self.pg, sql, params)
        con = sqlite3.connect("file:%s?mode=ro" % os.path.join(self.data_dir, "chess.db"),
                              uri=True, timeout=10)
        try:
            return con.execute(sql, params).fetchall()
        finally:
            con.close()

    def node(self, node_id, *extra_args):
        n = Node(self, node_id, extra_args)
        self.nodes[node_id] = n
        return n

    async def wait_joined(self, count, timeout=10):
        """Waits until every node's /healthz shows Redis up and `count` nodes in the site."""
        deadline = time.time() + timeout
        while True:
            states = [n.health()[1] for n in self.nodes.values() if n.proc.poll() is None]
            if all(s.get("redis") == "up" and s["site"]["nodes"] == count for s in states):
                return states
            if time.time() > deadline:
                raise AssertionError("site did not form: %s" % states)
            await asyncio.sleep(0.1)

    async def close_clients(self):
        for n in self.nodes.values():
            await n.close_clients()

    def logs(self):
        out = []
        for n in self.nodes.values():
            out.append("---- node %s ----\n%s" % (n.node_id, n.read_log()[-5000:]))
        return "\n".join(out)

    def close(self):
        for n in self.nodes.values():
            if n.proc.poll() is None:
                n.proc.kill()
                n.proc.wait()
        if self.redis.proc and self.redis.proc.poll() is None:
            self.redis.proc.kill()
            self.redis.proc.wait()
        if self.pg_dir:
            subprocess.run(["bash", PG_CLUSTER, "stop", self.pg_dir], timeout=120)
        shutil.rmtree(self.tmp, ignore_errors=True)


def run_site_tests(namespace, separate_hosts=False, own_database=False, timeout=90):
    """Runs every async test_*(site) with a site of its own (Redis, nodes on one data
    directory), each within timeout seconds; every node still running must then stop cleanly.
    separate_hosts: Redis and each node on a host of its own (hosts.py: network namespaces, or
    loopback addresses). own_database: the site's own PostgreSQL (Site)."""
    if not os.path.exists(REDIS):
        print("redis-server is missing (apt-get install redis-server; scripts/setup.sh)")
        sys.exit(1)

    def run_one(binary, fn, logs, cleanups):
        hosts = None
        if separate_hosts:
            from hosts import Hosts
            # CHESS_TEST_HOSTS=loopback: the fallback, even where namespaces can be made.
            hosts = Hosts(prefer_namespaces=os.environ.get("CHESS_TEST_HOSTS") != "loopback")
            cleanups.append(hosts.close)
            print("hosts: %s" % hosts.describe())
        site = Site(binary, hosts, own_database)
        cleanups.append(site.close)
        logs.append(site.logs)

        run_with_timeout(fn, site, timeout)
        for n in site.nodes.values():
            if n.proc.poll() is None:
                rc = n.stop()
                assert rc == 0, "node %s exit status %s after SIGTERM" % (n.node_id, rc)

    run_test_functions(namespace, run_one)
