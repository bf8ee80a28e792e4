"""
The owner of a game cut off from the site (docs/scaling.md, "When a node dies"): Redis, the
site's own PostgreSQL and each node on a host of its own (tests/integration/hosts.py: network
namespaces joined by a bridge; the PostgreSQL server listens on its host's address only). The
owner's link goes down mid-game (a partition, seen by the owner as its cable pulled: the process
runs on). Its lease is not renewed (it cannot reach the database), so node a takes its game over
and the players play on; when the link comes back, the old owner's first transaction is refused
(fencing: its lease was taken) and it stops with exit status 12, having written nothing more.
Every acknowledged move is in the game and in the database, and no other.

Needs network namespaces (root, `ip`) and PostgreSQL's binaries; says so and skips (77)
otherwise.
"""
import asyncio
import os
import shutil
import sys
import time

from cluster_harness import run_site_tests, psql
from test_cluster_hosts import game_owned_by_a_third_node, move_seen, play_alternately
from test_cluster_takeover import move_when_adopted


async def test_owner_partitioned_its_game_adopted_and_fenced(site):
    (a, b, c), alice, bob, gid = await game_owned_by_a_third_node(site)  # owner: c
    acknowledged = await play_alternately(gid, alice, bob, ["e4", "c5", "Nf3"])
    site.hosts.cut("node-c")
    try:
        reply, took = await move_when_adopted(gid, bob, "d6", deadline_s=30)
        print("adopted %.1f s after the owner's link went down" % took)
        acknowledged.append("d6")
        seen = await alice.recv_type("move", ply=4)
        assert seen["san"] == "d6", seen
        await move_seen(gid, alice, bob, "d4")
        acknowledged.append("d4")
        assert c.proc.poll() is None, "the cut-off owner runs on, writing nothing"
    finally:
        site.hosts.restore("node-c")
    # The link is back: the old owner reaches the database, finds its lease taken and stops.
    rc = c.proc.wait(60)
    c.log.close()
    assert rc == 12, "exit status %s, expected 12 (fenced)" % rc
    log = c.read_log()
    assert "lease was taken over by another node" in log, log[-3000:]
    await move_seen(gid, bob, alice, "cxd4")
    acknowledged.append("cxd4")
    state = (await bob.ok({"type": "watch", "game": gid}))["game"]
    assert state["san"] == acknowledged, (state["san"], acknowledged)
    rows = psql(site.pg, "SELECT san FROM live_moves WHERE game_id = ? ORDER BY ply", (gid,))
    assert [r[0] for r in rows] == acknowledged, (rows, acknowledged)
    owner = psql(site.pg, "SELECT node FROM games WHERE id = ?", (gid,))
    assert owner == [("a",)], owner


if __name__ == "__main__":
    if os.environ.get("CHESS_TEST_HOSTS") == "loopback" or os.geteuid() != 0 or \
            not shutil.which("ip"):
        print("SKIP: the partition needs network namespaces (root and ip)")
        sys.exit(77)
    from hosts import Hosts
    probe = Hosts()
    kind, why = probe.kind, getattr(probe, "why", "")
    probe.close()
    if kind != "netns":
        print("SKIP: network namespaces cannot be made here (%s)" % why)
        sys.exit(77)
    if not os.path.exists("/usr/lib/postgresql/15/bin/initdb"):
        print("SKIP: PostgreSQL's binaries are missing (scripts/setup.sh test installs them)")
        sys.exit(77)
    run_site_tests(globals(), separate_hosts=True, own_database=True)
