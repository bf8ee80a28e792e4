"""
Cluster benchmark on separate hosts (not a test: it prints figures and never fails on time;
docs/scaling.md, "Benchmark").

    /usr/bin/python3 tests/bench/cluster_hosts_bench.py [--build build/release]
        [--connections 2000] [--rate 2000] [--duration 10] [--nodes 3] [--loopback]
        [--database sqlite|own|env]

Makes hosts with tests/integration/hosts.py: each a network namespace of its own, joined by a
bridge, reached from here through the bridge's own leg (or, where namespaces cannot be made, or
with --loopback, a loopback address 127.0.0.x each; the script says which). Redis runs on a host
of its own and each chess_server node on its own host. The nodes share one SQLite file (the
namespaces share the filesystem), or with --database own a PostgreSQL server of the run's own
on a host of its own (tests/harness/pg_cluster.sh), or with --database env the one named by
CHESS_TEST_DATABASE (which the hosts must reach: not a Unix socket or 127.0.0.1 when the hosts
are namespaces); on PostgreSQL each run starts with an empty database.
tests/load/loadgen runs here and, in the same run, measures
  1. one node without Redis (the reference),
  2. NODES nodes of one site, the players of every game on different nodes (--split cross:
     White on node g%N, Black on node (g+1)%N; every move crosses Redis),
  3. NODES nodes of one site, whole games on node g%N (--split games),
each paced at RATE moves/s (the delay p50/p99 from a move's send to its arrival at the
opponent) and then closed loop (the most moves/s), and prints a table with the ratios against
one node. Every host, process and file it made is removed at the end, on failure too.
The hosts are namespaces of one kernel: every process still runs on this machine's cores.
"""
import argparse
import collections
import json
import os
import resource
import signal
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(HERE, "..", "integration"))

import cluster_harness  # noqa: E402
from cluster_harness import REDIS, Site  # noqa: E402
from harness import free_port  # noqa: E402
from hosts import Hosts  # noqa: E402


# A started node: its process, its address and its metrics port's address.
Node = collections.namedtuple("Node", "proc address metrics")


class Bench:
    """The processes of one run, on a site (Redis, the database, a directory); close() ends
    and removes them all."""

    def __init__(self, args, hosts):
        self.args, self.hosts = args, hosts
        self.server = os.path.join(args.build, "server", "chess_server")
        self.loadgen = os.path.join(args.build, "tests", "load", "loadgen")
        self.procs = []
        if args.database == "sqlite":
            cluster_harness.PG_URL = None  # not CHESS_TEST_DATABASE, even when it is set
        self.site = Site(self.server, hosts, own_database=args.database == "own")
        self.tmp = self.site.tmp
        self.redis = self.site.redis

    def start_node(self, host, name, data_dir, redis=None):
        """A chess_server on host; returns its Node once its /healthz answers."""
        port, metrics = free_port(), "%s:%d" % (host.addr, free_port())
        cmd = [self.server, "--listen", host.addr, "--port", str(port), "--metrics-listen",
               metrics, "--log-level", "warn",
               "--engine-workers", "0", "--max-connections", str(self.args.connections + 100),
               "--rate-limit", "100000", "--rate-burst", "100000",
               "--static-dir", os.path.join(self.tmp, "no-client")]
        cmd += self.site.store_args(name, data_dir)
        if redis:
            cmd += ["--redis", redis.address, "--node-id", name]
        log = open(os.path.join(self.tmp, "%s.log" % name), "w")
        proc = subprocess.Popen(host.wrap(cmd), stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.procs.append(proc)
        address = "%s:%d" % (host.addr, port)
        deadline = time.time() + 15
        while time.time() < deadline:
            if proc.poll() is not None:
                raise RuntimeError("node %s exited with status %s" % (name, proc.returncode))
            try:
                health(address)
                return Node(proc, address, metrics)
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("node %s did not answer /healthz on %s" % (name, address))

    def stop(self, procs):
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()

    def loadgen_run(self, label, nodes, split):
        """Runs the generator against nodes [Node]; returns its RESULT lines as
        {phase: {key: value}} and, as "store", the nodes' commit figures (store_figures)."""
        cmd = [self.loadgen, "run", "--target", "chess", "--split", split,
               "--connections", str(self.args.connections), "--rate", str(self.args.rate),
               "--duration", str(self.args.duration)]
        for n in nodes:
            cmd += ["--node", n.address, "--server-pid", str(n.proc.pid)]
        print("$ " + " ".join(os.path.relpath(c, ROOT) if c == self.loadgen else c
                              for c in cmd), flush=True)
        gen = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        self.procs.append(gen)
        results = {}
        for line in gen.stdout:
            print(line, end="", flush=True)
            if line.startswith("RESULT "):
                fields = dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)
                results[fields["phase"]] = fields
        if gen.wait() != 0 or "closed" not in results:
            raise RuntimeError("loadgen (%s) exited with status %s" % (label, gen.returncode))
        results["store"] = store_figures(nodes)
        return results

    def close(self):
        self.stop(self.procs)
        self.site.close()  # Redis, the database, the directory


def end_leftovers(hosts):
    """Ends every process still on the run's hosts (one whose start failed half-way), before
    their namespaces go."""
    for ns in hosts.namespaces:
        pids = subprocess.run(["ip", "netns", "pids", ns], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True).stdout.split()
        for pid in pids:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass


def health(address):
    with urllib.request.urlopen("http://%s/healthz" % address, timeout=2) as r:
        return json.loads(r.read())


def store_figures(nodes):
    """From the nodes' /metrics, over their whole run (set-up and both phases): the mean time
    of a transaction (BEGIN to the end of COMMIT) and the mean wait of a message for the commit
    of what it announces, in ms."""
    totals = collections.Counter()
    for n in nodes:
        with urllib.request.urlopen("http://%s/metrics" % n.metrics, timeout=5) as r:
            for line in r.read().decode().splitlines():
                name, _, value = line.partition(" ")
                if name.startswith(("chess_store_commit_seconds_", "chess_store_held_message_")):
                    totals[name] += float(value)

    def mean_ms(hist):
        count = totals[hist + "_count"]
        return "%.1f" % (1000 * totals[hist + "_sum"] / count) if count else "n/a"
    return {"commit_ms": mean_ms("chess_store_commit_seconds"),
            "held_ms": mean_ms("chess_store_held_message_seconds")}


def wait_site(addresses, count):
    """Until every node sees Redis up and count nodes in the site (at most 20 s)."""
    deadline = time.time() + 20
    while True:
        states = [health(a) for a in addresses]
        if all(s.get("redis") == "up" and s["site"]["nodes"] == count for s in states):
            return
        if time.time() > deadline:
            raise RuntimeError("the site did not form: %s" % states)
        time.sleep(0.1)


def check_pid(node):
    """The pid given to loadgen must be the server's own (ip netns exec execs it)."""
    with open("/proc/%d/comm" % node.proc.pid) as f:
        comm = f.read().strip()
    if comm != "chess_server":
        print("warning: pid %d of the node on %s is %s: its CPU figure is not the node's" %
              (node.proc.pid, node.address, comm))


def run_single(bench, data):
    bench.site.reset_database()
    host = bench.hosts.host("node-1")
    node = bench.start_node(host, "single", data)
    check_pid(node)
    try:
        return bench.loadgen_run("single", [node], "games")
    finally:
        bench.stop([node.proc])


def run_site(bench, redis, split, data):
    bench.site.reset_database()
    nodes = [bench.start_node(bench.hosts.host("node-%d" % (i + 1)), "%s-%d" % (split, i + 1),
                              data, redis) for i in range(bench.args.nodes)]
    try:
        for n in nodes:
            check_pid(n)
        wait_site([n.address for n in nodes], len(nodes))
        return bench.loadgen_run(split, nodes, split)
    finally:
        bench.stop([n.proc for n in nodes])


def ratio(a, b):
    return "%.2f" % (a / b) if b > 0 else "n/a"


def report(runs, nodes):
    """The table of the three runs (markdown, as in docs/scaling.md)."""
    single = float(runs["single"]["closed"]["moves_per_s"])
    names = {"single": "one node, no Redis",
             "cross": "%d nodes, players on different nodes" % nodes,
             "games": "%d nodes, whole games on node g%%%d" % (nodes, nodes)}
    print("\n== summary (delay: a move's send to its arrival at the opponent)")
    print("| setup | paced moves/s | delay p50 | delay p99 | most moves/s | vs one node |"
          " nodes' CPU (closed) | commit, held (mean) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for run in ("single", "cross", "games"):
        paced, closed = runs[run]["paced"], runs[run]["closed"]
        most = float(closed["moves_per_s"])
        print("| %s | %s | %s ms | %s ms | %s | %s | %s | %s ms, %s ms |" % (
            names[run], paced["moves_per_s"], paced["p50_ms"], paced["p99_ms"],
            "{:,}".format(int(most)), ratio(most, single),
            closed.get("node_cpu", closed["server_cpu"]), runs[run]["store"]["commit_ms"],
            runs[run]["store"]["held_ms"]))


def node_warnings(bench):
    for name in sorted(os.listdir(bench.tmp)):
        if not name.endswith(".log") or name == "redis.log":
            continue
        with open(os.path.join(bench.tmp, name), errors="replace") as f:
            lines = [l.rstrip() for l in f if ("ERROR" in l or "WARN" in l) and
                     "static directory" not in l and "fd limit" not in l]
        for line in lines[:3]:
            print("%s: %s" % (name, line))


def on_signal(sig, frame):
    raise KeyboardInterrupt  # through the finally blocks: everything made is removed


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default="build/release")
    p.add_argument("--connections", type=int, default=2000)
    p.add_argument("--rate", type=int, default=2000, help="paced moves/s")
    p.add_argument("--duration", type=int, default=10, help="seconds per measured phase")
    p.add_argument("--nodes", type=int, default=3, choices=range(2, 9))
    p.add_argument("--loopback", action="store_true",
                   help="hosts on loopback addresses even where namespaces can be made")
    p.add_argument("--database", choices=("sqlite", "own", "env"), default="sqlite",
                   help="one SQLite file (default), a PostgreSQL of the run's own on a host, "
                   "or CHESS_TEST_DATABASE's")
    args = p.parse_args()
    for binary in ("server/chess_server", "tests/load/loadgen"):
        if not os.access(os.path.join(args.build, binary), os.X_OK):
            sys.exit("build %s first (%s)" % (args.build, binary))
    if not os.path.exists(REDIS):
        sys.exit("redis-server is missing (scripts/setup.sh)")
    if args.database == "env" and not cluster_harness.PG_URL:
        sys.exit("--database env: CHESS_TEST_DATABASE is not set")
    signal.signal(signal.SIGTERM, on_signal)
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # for every child too

    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    print("== %s %d cores, load average %s before the run, commit %s" % (
        time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), os.cpu_count(), load,
        commit.stdout.strip() or "unknown"))
    print("== %d connections (%d games), paced at %d moves/s, %d s per phase, %d nodes" % (
        args.connections, args.connections // 2, args.rate, args.duration, args.nodes))
    hosts = Hosts(prefer_namespaces=not args.loopback)
    bench = None
    try:
        print("== hosts: %s" % hosts.describe(), flush=True)
        bench = Bench(args, hosts)
        redis = bench.redis
        print("== redis on %s, %s" % (redis.address, "PostgreSQL %s" % bench.site.pg
                                      if bench.site.pg else "SQLite"), flush=True)
        runs = {}
        print("== 1. one node, no Redis", flush=True)
        runs["single"] = run_single(bench, os.path.join(bench.tmp, "single"))
        print("== 2. %d nodes, the players of every game on different nodes" % args.nodes,
              flush=True)
        runs["cross"] = run_site(bench, redis, "cross", os.path.join(bench.tmp, "site-cross"))
        print("== 3. %d nodes, whole games on either node" % args.nodes, flush=True)
        runs["games"] = run_site(bench, redis, "games", os.path.join(bench.tmp, "site-games"))
        report(runs, args.nodes)
        with open("/proc/loadavg") as f:
            print("== load average %s after the run" % " ".join(f.read().split()[:3]))
        node_warnings(bench)
    finally:
        if bench:
            bench.close()
        end_leftovers(hosts)
        hosts.close()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("interrupted (every host and process it made is gone)")
