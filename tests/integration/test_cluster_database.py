"""
The site's PostgreSQL stopped and started again mid-game (docs/scaling.md, "What happens when
each part dies"): a site of two nodes with a PostgreSQL server of its own, a game across the
nodes. While the database is away (10 s, longer than the writer's retries) every node says
`"database": "down"` in /healthz (200, degraded) and holds its writes and the replies that wait
for them; nobody takes anybody's games over (every node is still heard on Redis); when it is
back the held move is committed and answered, and the game goes on across the nodes with every
acknowledged move stored.

Needs PostgreSQL's binaries (skipped, 77, without them).
"""
import asyncio
import os
import subprocess
import sys

from cluster_harness import PG_CLUSTER, psql, run_site_tests
from test_cluster import cross_node_game, play_moves


def pg(site, action):
    subprocess.run(["bash", PG_CLUSTER, action, site.pg_dir], check=True, timeout=120)


async def test_database_stopped_and_started_mid_game(site):
    a, b, alice, bob, watcher, gid = await cross_node_game(site)
    await play_moves(gid, alice, bob, watcher, ["e4", "e5"])
    await asyncio.to_thread(pg, site, "halt")
    try:
        # Alice's move is applied on its owner (node a) but waits for its commit: no reply yet.
        held = asyncio.ensure_future(
            alice.request({"type": "move", "game": gid, "move": "Nf3"}, timeout=60))
        for node in (a, b):
            for _ in range(100):
                status, health = node.health()
                if health.get("database") == "down":
                    break
                await asyncio.sleep(0.1)
            assert status == 200 and health["status"] == "degraded", (node.node_id, health)
        await asyncio.sleep(10)
        assert not held.done(), "a move was answered before it was committed"
        for node in (a, b):
            assert node.proc.poll() is None, "node %s waits for the database" % node.node_id
    finally:
        await asyncio.to_thread(pg, site, "resume")
    reply = await held
    assert reply.get("type") == "move" and reply["ply"] == 3, reply
    for c in (bob, watcher):
        assert (await c.recv_type("move", ply=3))["san"] == "Nf3"
    await play_moves(gid, bob, alice, watcher, ["Nc6"])
    rows = psql(site.pg, "SELECT san FROM live_moves WHERE game_id = ? ORDER BY ply", (gid,))
    assert [r[0] for r in rows] == ["e4", "e5", "Nf3", "Nc6"], rows
    for node in (a, b):
        status, health = node.health()
        assert health["database"] == "up" and health["status"] == "ok", health
        assert "adopted" not in node.read_log(), "no node's games were taken over"
    assert psql(site.pg, "SELECT node FROM games WHERE id = ?", (gid,)) == [("a",)]


if __name__ == "__main__":
    if not os.path.exists("/usr/lib/postgresql/15/bin/initdb"):
        print("SKIP: PostgreSQL's binaries are missing (scripts/setup.sh test installs them)")
        sys.exit(77)
    run_site_tests(globals(), own_database=True)
