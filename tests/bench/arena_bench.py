#!/usr/bin/python3
"""An arena tournament of many bot players on one node (docs/tournaments.md). A benchmark, not a
test: it prints figures and fails only when something breaks.

    /usr/bin/python3 tests/bench/arena_bench.py [--server build/release/server/chess_server]
        [--players 2000] [--minutes 3] [--clock 1+0] [--procs 2] [--resign-after 30]

Makes --players bot accounts (20 per account, docs/protocol.md bot_create), an arena of
--minutes at --clock starting once they are connected, and has every bot join it and play:
on its turn a random legal move from the server's `dests`, at once, and resign after its own
--resign-after moves (so that games end and players are paired again often, as in a bullet
arena). The bots run in --procs processes (asyncio each). Prints, over the arena's time:
- moves per second acknowledged to the bots, and the server's and the bots' CPU;
- the pairing delay: from a player's game end reaching it (or the arena's start) to its next
  game_started reaching it, p50, p99 and max (the arena pairs every second and at once at each
  game's end);
- games played, and the standings' totals against the bots' own count of results.
The bots' side is Python: when its processes are saturated (their CPU near 100% each), the
moves per second measure them rather than the server; the server's CPU share says which.
"""
import argparse
import asyncio
import json
import multiprocessing
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
import harness  # noqa: E402
import websockets  # noqa: E402


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100.0 * len(s)))] if s else float("nan")


async def make_bots(srv, count):
    """(an account, count bot tokens): accounts of 20 bots each, ten made at a time."""
    accounts = (count + 19) // 20
    gate = asyncio.Semaphore(10)

    async def account(a):
        async with gate:
            acc = await srv.player("Owner%d" % a)
            await acc.ok({"type": "register", "username": "owner%d" % a,
                          "password": "password %d" % a})
            made = []
            for i in range(min(20, count - 20 * a)):
                r = await acc.ok({"type": "bot_create", "username": "b%d_%d" % (a, i)})
                made.append(r["token"])
            return acc, made

    made = await asyncio.gather(*(account(a) for a in range(accounts)))
    for acc, _ in made[1:]:
        await acc.close()
    return made[0][0], [t for _, tokens in made for t in tokens]


async def bot(url, token, arena, resign_after, window, until, stats):
    async with websockets.connect(url, max_size=2 ** 22) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token, "id": 1}))
        me = None
        waiting_since = None
        games = {}  # id -> [my colour, my moves]
        rid = 10
        while time.time() < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, until - time.time()))
            except asyncio.TimeoutError:
                break
            m = json.loads(raw)
            t = m.get("type")
            if t == "welcome":
                me = m["player"]["id"]
                await ws.send(json.dumps({"type": "arena_join", "arena": arena, "id": 2}))
                continue
            if t == "arena" and m.get("id") == 2:
                # waiting for a first game from the arena's start
                waiting_since = time.monotonic() + max(0.0, window[0] - time.time())
                continue
            if t == "error":
                stats["errors"] += 1
                continue
            if t == "game_started":
                g = m["game"]
                if waiting_since is not None:
                    stats["pairing"].append(time.monotonic() - waiting_since)
                    waiting_since = None
                colour = "white" if g["white"]["id"] == me else "black"
                games[g["id"]] = [colour, 0]
                state = g
                gid = g["id"]
            elif t == "move" and m.get("game") in games:
                if m.get("id") and window[0] <= time.time() <= window[1]:
                    stats["moves"] += 1
                state = m
                gid = m["game"]
            elif t == "game_end" and m.get("game") in games:
                games.pop(m["game"], None)
                stats["results"][m.get("result", "?")] = stats["results"].get(
                    m.get("result", "?"), 0) + 1
                waiting_since = time.monotonic()
                continue
            else:
                continue
            colour, mine = games[gid]
            if state.get("turn") != colour or not state.get("dests"):
                continue
            rid += 1
            if mine >= resign_after:
                await ws.send(json.dumps({"type": "resign", "game": gid, "id": rid}))
                continue
            frm = random.choice(list(state["dests"]))
            to = random.choice(state["dests"][frm])
            uci = frm + to
            if (frm[1] == "7" and to[1] == "8" or frm[1] == "2" and to[1] == "1") and \
                    state.get("fen", "").split()[0]:
                # a pawn reaching the last rank promotes; other pieces ignore the letter
                board = state["fen"].split()[0].split("/")
                rank = board[8 - int(frm[1])]
                col, f = 0, ord(frm[0]) - ord("a")
                for ch in rank:
                    if ch.isdigit():
                        col += int(ch)
                        continue
                    if col == f and ch in "Pp":
                        uci += "q"
                    col += 1
            games[gid][1] += 1
            await ws.send(json.dumps({"type": "move", "game": gid, "move": uci, "id": rid}))


def run_bots(url, tokens, arena, resign_after, window, until, queue):
    stats = {"moves": 0, "pairing": [], "errors": 0, "results": {}}
    began = time.process_time()

    async def main():
        await asyncio.gather(*(bot(url, t, arena, resign_after, window, until, stats)
                               for t in tokens), return_exceptions=True)
    asyncio.run(main())
    stats["cpu"] = time.process_time() - began
    queue.put(stats)


def server_cpu(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def setup(args, srv):
    owner, tokens = await make_bots(srv, args.players)
    minutes, inc = (int(x) for x in args.clock.split("+"))
    created = await owner.ok({"type": "arena_create", "name": "Bench Arena",
                              "time": {"minutes": minutes, "increment": inc},
                              "minutes": args.minutes, "starts_in": args.start_in})
    return owner, tokens, created["arena"]


async def standings(srv, arena):
    c = await srv.player("Reader")
    r = await c.ok({"type": "arena_watch", "arena": arena})
    return r["arena"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", default="build/release/server/chess_server")
    p.add_argument("--players", type=int, default=2000)
    p.add_argument("--minutes", type=int, default=3)
    p.add_argument("--clock", default="1+0")
    p.add_argument("--procs", type=int, default=2)
    p.add_argument("--resign-after", type=int, default=30)
    p.add_argument("--start-in", type=int, default=20)
    args = p.parse_args()
    srv = harness.Server(args.server, ["--rate-limit", "100000", "--rate-burst", "100000",
                                       "--bot-rate-limit", "100000",
                                       "--max-connections", str(args.players + 500),
                                       "--engine-workers", "0", "--log-level", "warn"])
    try:
        t0 = time.time()
        owner, tokens, arena = asyncio.run(setup(args, srv))
        print("== %d bots made in %.1f s; arena %s of %d min at %s starts at %s" % (
            len(tokens), time.time() - t0, arena["id"], args.minutes, args.clock,
            time.strftime("%H:%M:%S", time.localtime(arena["starts"] / 1000))), flush=True)
        window = (arena["starts"] / 1000.0, arena["ends"] / 1000.0)
        until = window[1] + 30  # running games finish after the end
        queue = multiprocessing.Queue()
        procs = []
        for i in range(args.procs):
            part = tokens[i::args.procs]
            procs.append(multiprocessing.Process(
                target=run_bots, args=(srv.url, part, arena["id"], args.resign_after, window,
                                       until, queue)))
        cpu0 = server_cpu(srv.proc.pid)
        for pr in procs:
            pr.start()
        results = [queue.get() for _ in procs]
        for pr in procs:
            pr.join()
        wall = window[1] - window[0]
        cpu = server_cpu(srv.proc.pid) - cpu0
        busy = until - window[0]  # the CPU figures: from the start to the last game's end
        final = asyncio.run(standings(srv, arena["id"]))
        moves = sum(r["moves"] for r in results)
        pairing = [x for r in results for x in r["pairing"]]
        ends = {}
        for r in results:
            for k, v in r["results"].items():
                ends[k] = ends.get(k, 0) + v
        games = sum(ends.values()) // 2
        print("== %d players, %d games ended (%s), %d errors" % (
            len(tokens), games, ", ".join("%s %d" % (k, v // 2) for k, v in sorted(ends.items())),
            sum(r["errors"] for r in results)))
        print("moves acknowledged during the arena: %d, %.0f moves/s over its %.0f s" % (
            moves, moves / wall, wall))
        print("server CPU %.0f%% of one core; bots' processes %s (from the start to the last "
              "game's end)" % (100 * cpu / busy, ", ".join(
                  "%.0f%%" % (100 * r["cpu"] / busy) for r in results)))
        print("pairing delay (a game's end, or the start, to the next game_started): p50 %.0f ms,"
              " p99 %.0f ms, max %.0f ms over %d pairings" % (
                  1000 * percentile(pairing, 50), 1000 * percentile(pairing, 99),
                  1000 * max(pairing), len(pairing)))
        board = final["standings"]
        print("standings: status %s, %d players, leader %s with %d points" % (
            final["status"], final["players"], board[0]["player"]["name"] if board else "-",
            board[0]["score"] if board else 0))
    finally:
        srv.close()


if __name__ == "__main__":
    main()
