"""
The crash test (docs/persistence.md): many games are played at once as fast as the clients can,
the server is killed with SIGKILL at a random moment, and after a restart on the same data
directory every move any client saw acknowledged (the mover's reply or the opponent's move
event) is in the database, and every game that was in progress goes on from where the
database has it.

The moment of the kill is printed (and can be fixed with CHESS_CRASH_AFTER=seconds).
"""
import asyncio
import os
import random
import signal
import time

from harness import start_game
from persist_harness import LONG_GAME, run_data_dir_tests

PAIRS = 12
# Clients here move as fast as they can: lift the per-connection message limit.
SERVER_ARGS = ["--log-level", "info", "--rate-limit", "100000", "--rate-burst", "100000"]


class Pair:
    """Two players replaying LONG_GAME game after game, noting every acknowledged move.

    Each pair resigns after its own number of plies, so the pairs drift apart: pairs in step
    would all be between two games at some moments, and a kill then leaves no game in progress
    to check."""

    def __init__(self, white, black, plies_per_game):
        self.players = [white, black]
        self.plies_per_game = plies_per_game
        self.acked = {}  # game id -> {ply: uci}
        self.game = None
        self.in_game = False  # self.game started and not resigned by this pair

    def note(self, msg):
        if msg.get("type") == "move":
            self.acked.setdefault(msg["game"], {})[msg["ply"]] = msg["uci"]

    async def run(self):
        while True:
            self.game = await start_game(self.players[0], self.players[1],
                                         {"minutes": 10, "increment": 0})
            self.acked[self.game] = {}
            self.in_game = True
            for ply in range(1, self.plies_per_game + 1):
                mover = self.players[(ply - 1) % 2]
                reply = await mover.ok({"type": "move", "game": self.game,
                                        "move": LONG_GAME[ply - 1]})
                self.note(reply)
                # The opponent's copy of the event is an acknowledgement too.
                for c in self.players:
                    for m in c.inbox:
                        self.note(m)
                    c.inbox = [m for m in c.inbox if m.get("type") not in ("move", "presence")]
            self.in_game = False
            await self.players[0].ok({"type": "resign", "game": self.game})


async def test_sigkill_under_load(data):
    srv = data.start(*SERVER_ARGS)
    pairs = []
    for i in range(PAIRS):
        w, b = await srv.player("W%02d" % i), await srv.player("B%02d" % i)
        pairs.append(Pair(w, b, 60 + 3 * i))
    tasks = [asyncio.ensure_future(p.run()) for p in pairs]
    delay = float(os.environ.get("CHESS_CRASH_AFTER", random.uniform(1.5, 4.0)))
    print("killing the server after %.2f s of play" % delay)
    await asyncio.sleep(delay)
    for t in tasks:  # every pair must still be playing when the server dies
        if t.done():
            raise AssertionError("a pair stopped before the kill: %r" % t.exception())
    os.kill(srv.proc.pid, signal.SIGKILL)
    srv.proc.wait()
    await asyncio.sleep(0.2)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for p in pairs:  # what was already received counts as acknowledged too
        for c in p.players:
            for m in c.inbox:
                p.note(m)

    # Every acknowledged move is in the database, at its ply, as the clients saw it.
    total = 0
    for p in pairs:
        for game, moves in p.acked.items():
            stored = data.moves(game)
            for ply, uci in moves.items():
                total += 1
                assert ply in stored, "game %s: acknowledged ply %d is lost" % (game, ply)
                assert stored[ply][0] == uci, (game, ply, uci, stored[ply])
    print("%d acknowledged moves in %d games, all in the database" %
          (total, sum(len(p.acked) for p in pairs)))
    assert total > 100, "too few moves before the kill to mean anything"

    # After a restart, each game in progress goes on from the database's last ply.
    srv2 = data.start(*SERVER_ARGS)
    continued = 0
    in_progress = [p for p in pairs if p.in_game]
    print("%d of %d pairs were in a game at the kill" % (len(in_progress), PAIRS))
    for p in pairs:
        white = await srv2.player(token=p.players[0].token)
        black = await srv2.player(token=p.players[1].token)
        live = {g["id"]: g for g in white.welcome["games"]}
        if p.game not in live:
            # The pair had resigned it, or was waiting for its next game to start.
            assert not p.in_game, "game %s was in progress at the kill and is gone" % p.game
            continue
        continued += 1
        game = live[p.game]
        stored = data.moves(p.game)
        assert game["ply"] == len(stored), (game["ply"], len(stored))
        assert game["ply"] >= max(p.acked.get(p.game) or {0: None})
        assert game["moves"] == [stored[i][0] for i in range(1, game["ply"] + 1)]
        mover = white if game["turn"] == "white" else black
        reply = await mover.ok({"type": "move", "game": p.game,
                                "move": LONG_GAME[game["ply"]]})
        assert reply["ply"] == game["ply"] + 1
    print("%d games in progress at the kill went on after the restart" % continued)
    assert continued >= len(in_progress) >= PAIRS // 2
    await srv2.close_clients()
    assert srv2.stop() == 0


if __name__ == "__main__":
    random.seed(int(os.environ.get("CHESS_CRASH_SEED", time.time())))
    run_data_dir_tests(globals())
