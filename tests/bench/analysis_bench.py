#!/usr/bin/python3
"""Computer analysis of finished games against live play, in the real server (docs/analysis.md).
A benchmark, not a test: it prints figures and fails only when something breaks.

    tests/bench/analysis_bench.py [--server build/release/server/chess_server] [--workers 2]
        [--nodes 1000000] [--games 2] [--level 7] [--seconds 30]

1. The time to analyse a 40-move game (Fischer-Spassky 1972, game 6: 82 positions) at --nodes
   nodes a position on --workers workers, from the request to the last position committed,
   against the reference measured in the same run: the engine's own UCI program (engine/uci,
   beside the server in the build) searching the same positions to the same nodes in --workers
   processes at once, each with a fresh table (ucinewgame), as the server does. The ratio is
   the server's overhead: queueing, the store and the loop.
2. The delay of the computer's live moves: --games bots play the computer at --level (a fixed
   node budget, unlimited time) move after move; the delay of each computer move is the time
   from the bot's move leaving to the computer's reply arriving. Three phases of --seconds each,
   in one run: without analyses, with analyses of finished games (two per worker) queued behind
   the moves, without again (after the queue drained with the bots waiting). Prints p50, p99 and max of each phase and the p99 ratio (with / without, the two
   phases without pooled); the target is at most 1.10.
"""
import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
import harness  # noqa: E402

GAME = ('[Event "World Championship"]\n[White "Fischer"]\n[Black "Spassky"]\n'
        '[Result "1-0"]\n\n'
        '1. c4 e6 2. Nf3 d5 3. d4 Nf6 4. Nc3 Be7 5. Bg5 O-O 6. e3 h6 7. Bh4 b6 8. cxd5 Nxd5 '
        '9. Bxe7 Qxe7 10. Nxd5 exd5 11. Rc1 Be6 12. Qa4 c5 13. Qa3 Rc8 14. Bb5 a6 15. dxc5 bxc5 '
        '16. O-O Ra7 17. Be2 Nd7 18. Nd4 Qf8 19. Nxe6 fxe6 20. e4 d4 21. f4 Qe7 22. e5 Rb8 '
        '23. Bc4 Kh8 24. Qh3 Nf8 25. b3 a5 26. f5 exf5 27. Rxf5 Nh7 28. Rcf1 Qd8 29. Qg3 Re7 '
        '30. h4 Rbb7 31. e6 Rbc7 32. Qe5 Qe8 33. a4 Qd8 34. R1f2 Qe8 35. R2f3 Qd8 36. Bd3 Qe8 '
        '37. Qe4 Nf6 38. Rxf6 gxf6 39. Rxf6 Kg8 40. Bc4 Kh8 41. Qf4 1-0\n')


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100.0 * len(s)))] if s else float("nan")


async def import_game(client):
    r = await client.ok({"type": "pgn_import", "pgn": GAME})
    return r["game"]


async def analyse(client, game, timeout=1800):
    """Requests the game's analysis; returns (seconds to done, the analysis)."""
    start = time.monotonic()
    r = await client.request({"type": "game_analysis_request", "game": game}, timeout=30)
    assert r["type"] == "game_analysis", r
    done = r["analysis"]
    if done["state"] != "done":
        msg = await client.recv(lambda m: m.get("type") == "game_analysis" and
                                m.get("game") == game and m["analysis"]["state"] == "done",
                                timeout=timeout, what="the analysis done")
        done = msg["analysis"]
    return time.monotonic() - start, done


def uci_share(uci_path, share, nodes):
    """One UCI process searching its positions one after the other (a command is sent only
    once the last search answered: UCI engines stop a search on a new command)."""
    proc = subprocess.Popen([uci_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def say(text, until):
        proc.stdin.write(text)
        proc.stdin.flush()
        for line in proc.stdout:
            if line.startswith(until):
                return
        raise RuntimeError("the engine stopped answering")

    say("uci\n", "uciok")
    # The table the server gives a position (--engine-table-mb's default).
    say("setoption name Hash value 16\nisready\n", "readyok")
    for moves in share:
        say("ucinewgame\nposition startpos%s\nisready\n" % (
            (" moves " + " ".join(moves)) if moves else ""), "readyok")
        say("go nodes %d\n" % nodes, "bestmove")
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait()


def reference_seconds(uci_path, game_moves, nodes, workers):
    """The engine alone: every position to `nodes` in `workers` UCI processes at once."""
    positions = [game_moves[:i] for i in range(len(game_moves) + 1)]
    threads = [threading.Thread(target=uci_share, args=(uci_path, positions[i::workers], nodes))
               for i in range(workers)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.monotonic() - start


class Player:
    """A bot that plays the computer with random legal moves, timing each computer reply."""

    def __init__(self, client, level, seed):
        self.client, self.level = client, level
        self.rng = random.Random(seed)
        self.delays = []
        self.recording = False
        self.active = asyncio.Event()
        self.active.set()

    async def play(self, stop):
        while not stop.is_set():
            await self.active.wait()
            r = await self.client.ok({"type": "computer_play", "level": self.level,
                                      "color": "white", "time": "unlimited"})
            game = r["game"]
            legal = game.get("legal_moves")
            ply = game["ply"]
            while legal and not stop.is_set():
                await self.active.wait()
                sent = time.monotonic()
                await self.client.send({"type": "move", "game": game["id"],
                                        "move": self.rng.choice(legal), "ply": ply})
                reply = await self.client.recv(
                    lambda m: m.get("game") == game["id"] and (
                        m.get("type") == "game_end" or
                        (m.get("type") == "move" and m.get("ply") == ply + 2)),
                    timeout=60, what="the computer's reply")
                if reply["type"] == "game_end":
                    break
                if self.recording:
                    self.delays.append((time.monotonic() - sent) * 1000.0)
                legal, ply = reply.get("legal_moves"), reply["ply"]
            self.client.inbox.clear()
            if not stop.is_set() and legal:
                await self.client.request({"type": "resign", "game": game["id"]})


async def phase(players, seconds):
    for p in players:
        p.delays, p.recording = [], True
    await asyncio.sleep(seconds)
    for p in players:
        p.recording = False
    return [d for p in players for d in p.delays]


def show(name, delays):
    print("  %-22s %6d moves   p50 %7.1f ms   p99 %7.1f ms   max %7.1f ms" % (
        name, len(delays), percentile(delays, 50), percentile(delays, 99), max(delays)))


async def main(args):
    harness.TIMEOUT = 30.0
    data = tempfile.mkdtemp(prefix="chess-analysis-bench-")
    srv = harness.Server(args.server, ["--data-dir", data, "--engine-workers", str(args.workers),
                                       "--game-analysis-nodes", str(args.nodes),
                                       "--rate-limit", "1000", "--rate-burst", "2000"])
    try:
        owner = await srv.player("Owner")
        await owner.ok({"type": "register", "username": "owner", "password": "owner password"})
        game = await import_game(owner)
        status, _, body = srv.http("/api/games/%s" % game)
        moves = __import__("json").loads(body)["moves"]

        # 1. One game's analysis against the engine alone.
        uci = os.path.join(os.path.dirname(os.path.abspath(args.server)), "..", "engine", "uci")
        ref = reference_seconds(uci, moves, args.nodes, args.workers)
        took, done = await analyse(owner, game)
        depths = sorted(p["depth"] for p in done["plies"] if "depth" in p)
        print("analysis of a %d-move game (%d positions, %d nodes each, %d workers):" % (
            (len(moves) + 1) // 2, len(moves) + 1, args.nodes, args.workers))
        print("  server %.1f s, engine alone %.1f s: ratio %.2f (median depth %d)" % (
            took, ref, took / ref, depths[len(depths) // 2]))

        # 2. Live computer moves with and without analyses filling the workers.
        players = []
        for i in range(args.games):
            bot = await owner.ok({"type": "bot_create", "username": "benchbot%d" % i})
            players.append(Player(await srv.player(token=bot["token"]), args.level, i))
        stop = asyncio.Event()
        tasks = [asyncio.create_task(p.play(stop)) for p in players]
        await asyncio.sleep(2)  # warm-up
        before = await phase(players, args.seconds)
        requesters = []
        for i in range(2 * args.workers):
            r = await srv.player("Req%d" % i)
            gid = await import_game(r)
            await r.ok({"type": "game_analysis_request", "game": gid})
            requesters.append(r)
        await asyncio.sleep(1)
        during = await phase(players, args.seconds)
        queued = srv.http("/metrics")[2].decode()
        for r in requesters:
            r.inbox.clear()
            await r.close()
        # The analyses go on until done: the players wait for the queue to drain (live play
        # would starve it), then the last phase.
        for p in players:
            p.active.clear()
        deadline = time.monotonic() + 1800
        while time.monotonic() < deadline and harness_query(data) > 0:
            await asyncio.sleep(1)
        for p in players:
            p.active.set()
        await asyncio.sleep(2)
        after = await phase(players, args.seconds)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        print("computer moves at level %d in %d games (%d workers):" % (
            args.level, args.games, args.workers))
        show("without analyses", before)
        show("with analyses running", during)
        show("without analyses again", after)
        base = percentile(before + after, 99)
        print("  p99 with / without: %.2f (target <= 1.10)" % (percentile(during, 99) / base))
        jobs = [l for l in queued.splitlines() if l.startswith("chess_engine_preemptions")]
        print("  %s" % (jobs[0] if jobs else ""))
    finally:
        await srv.close_clients()
        srv.stop()


def harness_query(data):
    """Analyses under way, from the database (read-only beside the server)."""
    import sqlite3
    con = sqlite3.connect("file:%s?mode=ro" % os.path.join(data, "chess.db"), uri=True,
                          timeout=10)
    try:
        return con.execute("SELECT count(*) FROM game_analyses WHERE done_at IS NULL").fetchone()[0]
    finally:
        con.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--server", default="build/release/server/chess_server")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--nodes", type=int, default=1000000)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--level", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=30)
    sys.stdout.reconfigure(line_buffering=True)
    asyncio.run(main(parser.parse_args()))
