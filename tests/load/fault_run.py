#!/usr/bin/python3
"""
Fault run: the real server on a SQLite data directory, pairs of guests playing random legal games
back to back, and the server killed with SIGKILL at random moments and started again on the
same data directory, KILLS times. Every move acknowledged to a client (the mover's reply or the
opponent's move event arrived) must survive each kill (docs/persistence.md: nothing is announced
before it is committed).

    /usr/bin/python3 tests/load/fault_run.py --server build/release/server/chess_server \\
        --perft build/release/engine/perft [--kills 20] [--pairs 50] [--play 0.5:4] [--seed S]

After each kill the clients reconnect with their tokens, and every game that had a move
acknowledged since the previous kill is read back: the pair's game in progress from its welcome
(the resumed game), every game from GET /api/games/<id>. An acknowledged move missing at its ply,
or another move there, is lost. Then the pairs play on from the resumed games. One line per kill
(acknowledged moves so far, lost, the restart's time: SIGKILL until /healthz answers, and until
every client has its welcome), a total at the end, and exit status 1 if any acknowledged move was
lost (or the run could not go on), else 0.

Moves are chosen at random among the legal ones, which the engine's perft tool lists
(`perft --divide --fen FEN 1`) for the position in the last acknowledged move event. Each pair
ends its game after a random number of plies (resigning), unless the rules end it first.

WebSocket and the server's process come from tests/integration/harness.py and persist_harness.py
(Python's standard library and python3-websockets, as for every integration test).
"""
import argparse
import asyncio
import json
import os
import random
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from harness import load_declarations, start_game  # noqa: E402
from persist_harness import DataDir  # noqa: E402

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# Clients move as fast as they can: lift the per-connection message limit.
SERVER_ARGS = ["--log-level", "warn", "--rate-limit", "100000", "--rate-burst", "100000"]


class Run:
    """What every pair shares: the legal-move lister, the acknowledged moves, randomness."""

    def __init__(self, perft, rng):
        self.perft = perft
        self.rng = rng
        self.acked = {}     # game id -> {ply: uci}
        self.dirty = set()  # games with a move acknowledged since the last check
        self.games_started = 0
        self.stopping = False  # the pairs stop at their next step

    def note(self, msg):
        """Records a move event or reply as acknowledged."""
        if msg.get("type") == "move" and "ply" in msg:
            self.acked.setdefault(msg["game"], {})[msg["ply"]] = msg["uci"]
            self.dirty.add(msg["game"])

    def acked_total(self):
        return sum(len(m) for m in self.acked.values())

    async def legal_moves(self, fen):
        proc = await asyncio.create_subprocess_exec(
            self.perft, "--divide", "--fen", fen, "1",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        out, _ = await proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError("perft failed on %s" % fen)
        return [line.split(":")[0] for line in out.decode().splitlines() if ":" in line]


class Pair:
    """Two guests playing game after game; the tokens outlive the connections."""

    def __init__(self, run, index):
        self.run = run
        self.index = index
        self.tokens = [None, None]
        self.ids = [None, None]
        self.clients = [None, None]
        self.game = None  # the game in progress, its position and the ply it ends at
        self.fen = START_FEN
        self.ply = 0
        self.white = 0
        self.target = 0

    async def connect(self, srv):
        """Says hello (with the tokens after the first time); adopts the game in progress that
        the welcome holds. Returns that game's state, or None."""
        state = None
        for i in range(2):
            c = await srv.player(token=self.tokens[i])
            self.clients[i] = c
            self.tokens[i] = c.token
            self.ids[i] = c.player["id"]
            for g in c.welcome["games"]:
                state = g
        if state is None:
            self.game = None
        else:
            self.adopt(state)
        return state

    def adopt(self, state):
        if state["id"] != self.game:
            self.target = self.run.rng.randint(10, 120)
        self.game = state["id"]
        self.fen = state["fen"]
        self.ply = state["ply"]
        self.white = 0 if state["white"]["id"] == self.ids[0] else 1

    def drain(self):
        """Notes the events received; True when the game in progress has ended."""
        ended = False
        for c in self.clients:
            for m in c.inbox:
                self.run.note(m)
                ended = ended or (m.get("type") == "game_end" and m.get("game") == self.game)
            c.inbox = []
        return ended

    async def act(self, mover, msg):
        """Sends a game action; its reply, or None when the game had ended by the rules (a
        draw by repetition, material or 75 moves whose game_end had not arrived yet)."""
        reply = await mover.request(msg)
        if reply.get("type") != "error":
            return reply
        if reply.get("code") != "GAME_OVER":
            raise AssertionError("%s failed: %s" % (msg, reply))
        self.drain()
        self.game = None
        return None

    async def play(self):
        rng = self.run.rng
        while not self.run.stopping:
            if self.game is None:
                creator = rng.randint(0, 1)
                gid = await start_game(self.clients[creator], self.clients[1 - creator],
                                       {"minutes": 10, "increment": 0})
                self.run.games_started += 1
                self.game, self.fen, self.ply, self.white = gid, START_FEN, 0, creator
                self.target = rng.randint(10, 120)
                self.drain()
            mover = self.clients[self.white if self.fen.split()[1] == "w" else 1 - self.white]
            if self.ply >= self.target:
                await self.act(mover, {"type": "resign", "game": self.game})
                self.drain()
                self.game = None
                continue
            moves = await self.run.legal_moves(self.fen)
            if not moves:  # mate or stalemate: game_end came with the last move
                self.drain()
                self.game = None
                continue
            reply = await self.act(mover, {"type": "move", "game": self.game,
                                           "move": rng.choice(moves), "ply": self.ply})
            if reply is None:
                continue
            self.run.note(reply)
            self.fen, self.ply = reply["fen"], reply["ply"]
            if self.drain():  # the rules ended it (repetition, material, 75 moves)
                self.game = None


async def stop_pairs(run, tasks):
    """Stops the pairs' tasks: at their next step, else cancelled (a cancellation that arrives as
    a reply does can be lost inside wait_for, and the task would play on)."""
    run.stopping = True
    await asyncio.wait(tasks, timeout=10)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    run.stopping = False


async def drain_after_kill(pairs):
    """Every message the clients received before their connections died counts as
    acknowledged, including those still in the WebSocket's buffer."""
    for p in pairs:
        for c in p.clients:
            if c is None:
                continue
            for m in c.inbox:
                p.run.note(m)
            c.inbox = []
            while True:
                try:
                    raw = await asyncio.wait_for(c.ws.recv(), 0.2)
                except Exception:
                    break
                p.run.note(json.loads(raw))


def stored_moves(srv, game):
    status, _, body = srv.http("/api/games/%s" % game)
    if status != 200:
        return None
    data = json.loads(body)
    data = data.get("game", data) if isinstance(data.get("game"), dict) else data
    return data.get("moves")


def check(run, srv, resumed):
    """Lost acknowledged moves among the games acknowledged since the last check: each checked
    against GET /api/games/<id>, and the resumed games against their welcome too. Returns
    (games checked, moves lost, details)."""
    lost, details = 0, []
    for game in sorted(run.dirty):
        sources = [("GET /api/games", stored_moves(srv, game))]
        if game in resumed:
            sources.append(("welcome", resumed[game]["moves"]))
        for where, moves in sources:
            for ply, uci in sorted(run.acked[game].items()):
                have = None if moves is None or ply > len(moves) else moves[ply - 1]
                if have != uci:
                    lost += 1
                    if len(details) < 10:
                        details.append("game %s ply %d: acknowledged %s, %s has %s"
                                       % (game, ply, uci, where, have))
    checked = len(run.dirty)
    run.dirty = set()
    return checked, lost, details


async def fault_run(opts, data):
    rng = random.Random(opts.seed)
    run = Run(opts.perft, rng)
    lo, hi = (float(x) for x in opts.play.split(":"))
    srv = data.start(*SERVER_ARGS)
    pairs = [Pair(run, i) for i in range(opts.pairs)]
    for p in pairs:
        await p.connect(srv)
    total_lost = 0
    t_begin = time.time()
    for kill in range(1, opts.kills + 1):
        tasks = [asyncio.ensure_future(p.play()) for p in pairs]
        play_s = rng.uniform(lo, hi)
        await asyncio.sleep(play_s)
        for t in tasks:
            if t.done():
                raise RuntimeError("a pair stopped playing: %r" % t.exception())
        t_kill = time.time()
        os.kill(srv.proc.pid, signal.SIGKILL)
        srv.proc.wait()
        await stop_pairs(run, tasks)
        await drain_after_kill(pairs)
        srv = data.start(*SERVER_ARGS)
        t_up = time.time()
        resumed = {}
        for p in pairs:
            state = await p.connect(srv)
            if state:
                resumed[state["id"]] = state
        t_back = time.time()
        checked, lost, details = check(run, srv, resumed)
        total_lost += lost
        print("kill %2d/%d after %.2f s of play: %d moves acknowledged so far in %d games, "
              "%d games checked, lost %d; restart %.0f ms (clients back after %.0f ms), "
              "%d games resumed" % (kill, opts.kills, play_s, run.acked_total(), len(run.acked),
                                    checked, lost, (t_up - t_kill) * 1000,
                                    (t_back - t_kill) * 1000, len(resumed)), flush=True)
        for d in details:
            print("    LOST " + d, flush=True)
    # The clients play on once more after the last restart, and finish cleanly.
    tasks = [asyncio.ensure_future(p.play()) for p in pairs]
    await asyncio.sleep(lo)
    for t in tasks:
        if t.done():
            raise RuntimeError("a pair stopped playing after the last restart: %r" % t.exception())
    await stop_pairs(run, tasks)
    for p in pairs:
        p.drain()
    run.dirty = set(run.acked)  # a last look at every game ever acknowledged
    checked, lost, details = check(run, srv, {})
    total_lost += lost
    for d in details:
        print("    LOST " + d, flush=True)
    # The check must see a loss: plant two (a move changed, a move past the end) and look.
    acked = run.acked_total()
    game = max(run.acked, key=lambda g: len(run.acked[g]))
    last = max(run.acked[game])
    run.acked[game][last] = "a1a1"
    run.acked[game][last + 1] = "a1a1"
    run.dirty = {game}
    planted = check(run, srv, {})[1]
    print("control: the check finds %d of 2 planted losses" % planted, flush=True)
    await srv.close_clients()
    rc = srv.stop()
    print("TOTAL kills=%d acknowledged_moves=%d games=%d games_started=%d lost=%d "
          "(final check of all %d games: lost %d) seconds=%.0f server_exit=%s"
          % (opts.kills, acked, len(run.acked), run.games_started, total_lost,
             checked, lost, time.time() - t_begin, rc), flush=True)
    if acked < opts.kills * 10:
        print("too few acknowledged moves to mean anything", flush=True)
        return 1
    return 1 if total_lost or planted != 2 or rc != 0 else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the chess_server binary")
    parser.add_argument("--perft", required=True, help="the engine's perft tool")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--pairs", type=int, default=50, help="games played at once")
    parser.add_argument("--play", default="0.5:4",
                        help="seconds of play before each kill, drawn from MIN:MAX")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    opts = parser.parse_args()
    print("fault run: %d kills, %d pairs, %s s of play before each, seed %d"
          % (opts.kills, opts.pairs, opts.play, opts.seed), flush=True)
    load_declarations(opts.server)
    data = DataDir()
    data.binary = opts.server
    try:
        rc = asyncio.run(fault_run(opts, data))
    except Exception as e:
        print("FAIL: %s: %s" % (type(e).__name__, e), flush=True)
        for srv in data.servers[-1:]:
            print("---- last server log ----\n" + srv.read_log()[-4000:])
        rc = 1
    finally:
        data.cleanup()
    sys.exit(rc)


if __name__ == "__main__":
    main()
