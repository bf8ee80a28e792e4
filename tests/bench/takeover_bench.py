"""
Take-over benchmark (not a test: it prints figures and never fails on time; docs/scaling.md,
"When a node dies"): the time from a node's SIGKILL to its games being playable again on another
node, over KILLS kills.

    /usr/bin/python3 tests/bench/takeover_bench.py [--server build/release/server/chess_server]
                                                   [--kills 20] [--games 5]

A site of three nodes (a real redis-server; the shared SQLite file, or PostgreSQL with
CHESS_TEST_DATABASE set, e.g. under tests/harness/pg_cluster.sh run). Each round starts GAMES
games owned by one node (its seeks, accepted by players on the other nodes), kills that node, and
sends a move in each game every 50 ms through the players' nodes until one is applied: a game's
figure is the time from the kill to its first applied move. The killed node is started again
before the next round, and the node killed goes round the three.
"""
import argparse
import asyncio
import os
import signal
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))

from cluster_harness import Site  # noqa: E402

FIVE_MINUTES = {"minutes": 5, "increment": 0}


async def game_on(owner, acceptor_node, n):
    """A game owned by `owner`: a seek there, accepted by a player on acceptor_node. Returns
    (the accepting player, who is Black and to move after White's e4, the game id)."""
    white = await owner.player("W%d" % n)
    black = await acceptor_node.player("B%d" % n)
    await black.ok({"type": "lobby_subscribe"})
    added = await white.ok({"type": "seek_create", "time": FIVE_MINUTES, "color": "white"})
    await black.recv(lambda m: m.get("type") == "seek_added" and
                     m["seek"]["id"] == added["seek"]["id"], timeout=10, what="the seek")
    started = await black.ok({"type": "seek_accept", "seek": added["seek"]["id"]})
    gid = started["game"]["id"]
    await white.ok({"type": "move", "game": gid, "move": "e4"})
    await black.recv_type("move", ply=1, game=gid)
    return black, gid


async def playable_after(black, gid, killed_at):
    while True:
        reply = await black.request({"type": "move", "game": gid, "move": "e5"}, timeout=15)
        if reply.get("type") == "move":
            return time.time() - killed_at
        if time.time() - killed_at > 60:
            return float("inf")
        await asyncio.sleep(0.05)


async def run(args):
    site = Site(args.server)
    try:
        nodes = [site.node(n) for n in ("a", "b", "c")]
        await site.wait_joined(3)
        figures = []
        for k in range(args.kills):
            victim = nodes[k % 3]
            others = [n for n in nodes if n is not victim]
            games = [await game_on(victim, others[i % 2], k * args.games + i)
                     for i in range(args.games)]
            victim.proc.send_signal(signal.SIGKILL)
            killed_at = time.time()
            victim.proc.wait(10)
            victim.log.close()
            took = await asyncio.gather(*(playable_after(b, g, killed_at) for b, g in games))
            figures.extend(took)
            print("kill %2d (node %s): playable again after %s s" % (
                k + 1, victim.node_id, " ".join("%.2f" % t for t in took)), flush=True)
            await site.close_clients()
            victim.start()
            await site.wait_joined(3, timeout=30)
        figures.sort()
        print("\n%d kills, %d games: from SIGKILL to playable elsewhere p50 %.2f s, "
              "p90 %.2f s, max %.2f s (%s)" % (
                  args.kills, len(figures), statistics.median(figures),
                  figures[int(0.9 * (len(figures) - 1))], figures[-1],
                  "PostgreSQL" if site.pg else "SQLite"))
    finally:
        site.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", default="build/release/server/chess_server")
    p.add_argument("--kills", type=int, default=20)
    p.add_argument("--games", type=int, default=5)
    asyncio.run(run(p.parse_args()))


if __name__ == "__main__":
    main()
