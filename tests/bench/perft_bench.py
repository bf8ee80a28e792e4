#!/usr/bin/python3
"""Perft speed against Stockfish, measured in one run (a benchmark, not a test).

Runs each position through the project's perft tool and through Stockfish's "go perft",
alternating between the two for several rounds, checks that the node counts agree, and prints
nodes per second of each (best round) and the ratio. Both are single-threaded; both are timed
from outside the same way (wall clock around the request), Stockfish as one long-lived process so
its start-up is not counted.

    tests/bench/perft_bench.py [--perft build/release/engine/perft] [--stockfish /usr/games/stockfish]
                               [--rounds 3]

Exit status is 1 only when a node count disagrees; speed never fails the run.
"""
import argparse
import subprocess
import sys
import time

POSITIONS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
    ("position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5),
    ("position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5),
]


class Stockfish:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            if line.startswith(prefix):
                return line.strip()

    def perft(self, fen, depth):
        self.send("position fen " + fen)
        self.send("isready")
        self.wait_for("readyok")
        start = time.perf_counter()
        self.send("go perft %d" % depth)
        line = self.wait_for("Nodes searched")
        elapsed = time.perf_counter() - start
        return int(line.split(":")[1]), elapsed

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def own_perft(path, fen, depth):
    start = time.perf_counter()
    out = subprocess.run([path, "--fen", fen, str(depth)], capture_output=True, text=True,
                         check=True)
    elapsed = time.perf_counter() - start
    return int(out.stdout.strip().splitlines()[-1]), elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--perft", default="build/release/engine/perft")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    sf = Stockfish(args.stockfish)
    failures = 0
    print("%-12s %5s %12s %14s %14s %7s" % ("position", "depth", "nodes", "own nps", "stockfish nps",
                                            "ratio"))
    total_own = total_sf = 0.0
    total_nodes = 0
    for name, fen, depth in POSITIONS:
        best_own = best_sf = float("inf")
        nodes = None
        for _ in range(args.rounds):
            own_nodes, own_time = own_perft(args.perft, fen, depth)
            sf_nodes, sf_time = sf.perft(fen, depth)
            if own_nodes != sf_nodes:
                print("MISMATCH %s depth %d: own %d, stockfish %d" % (name, depth, own_nodes,
                                                                      sf_nodes))
                failures += 1
            nodes = sf_nodes
            best_own = min(best_own, own_time)
            best_sf = min(best_sf, sf_time)
        total_own += best_own
        total_sf += best_sf
        total_nodes += nodes
        print("%-12s %5d %12d %14.0f %14.0f %6.2fx" % (name, depth, nodes, nodes / best_own,
                                                       nodes / best_sf, best_sf / best_own))
    print("%-12s %5s %12d %14.0f %14.0f %6.2fx" % ("all", "", total_nodes, total_nodes / total_own,
                                                   total_nodes / total_sf, total_sf / total_own))
    sf.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
