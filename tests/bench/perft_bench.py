#!/usr/bin/python3
"""Perft speed against Stockfish, measured in one run (a benchmark, not a test).

Runs each position through the project's perft tool and through Stockfish's "go perft",
alternating for several rounds, checks that the node counts agree, and prints nodes per second
(best round) and the ratio to Stockfish. Single-threaded on both sides; both timed from outside
the same way (wall clock around the request), Stockfish as one long-lived process so that its
start-up is not counted.

Variants of the project's perft, each against the same Stockfish figures:
  portable     build/release (default build, any x86-64 CPU; magic bitboards); the last ply is
               counted without writing moves out (bulk counting)
  leaf-lists   the same binary with --leaf-lists: every leaf's move list is generated, which is
               how Stockfish's perft counts
  native       build/native (-march=native, PEXT), when that build exists

    tests/bench/perft_bench.py [--build-dir build] [--stockfish /usr/games/stockfish] [--rounds 3]

Exit status is 1 only when a node count disagrees; speed never fails the run.
"""
import argparse
import os
import subprocess
import sys
import time

from uci_engine import UciEngine

POSITIONS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
    ("position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5),
    ("position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5),
]


def stockfish_perft(sf, fen, depth):
    sf.send("position fen " + fen)
    sf.send("isready")
    sf.wait_for("readyok")
    start = time.perf_counter()
    sf.send("go perft %d" % depth)
    line = sf.wait_for("Nodes searched")
    elapsed = time.perf_counter() - start
    return int(line.split(":")[1]), elapsed


def own_perft(command, fen, depth):
    start = time.perf_counter()
    out = subprocess.run(command + ["--fen", fen, str(depth)], capture_output=True, text=True,
                         check=True)
    elapsed = time.perf_counter() - start
    return int(out.stdout.strip().splitlines()[-1]), elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    portable = os.path.join(args.build_dir, "release", "engine", "perft")
    native = os.path.join(args.build_dir, "native", "engine", "perft")
    variants = [("portable", [portable]), ("leaf-lists", [portable, "--leaf-lists"])]
    if os.path.exists(native):
        variants.append(("native", [native]))

    sf = UciEngine(args.stockfish, [("Threads", 1)])
    failures = 0
    best = {}  # (position, variant) -> seconds
    nodes_of = {}
    for name, fen, depth in POSITIONS:
        for _ in range(args.rounds):
            for label, command in variants + [("stockfish", None)]:
                if command is None:
                    nodes, seconds = stockfish_perft(sf, fen, depth)
                else:
                    nodes, seconds = own_perft(command, fen, depth)
                if nodes_of.setdefault(name, nodes) != nodes:
                    print("MISMATCH %s depth %d: %s counted %d, expected %d" %
                          (name, depth, label, nodes, nodes_of[name]))
                    failures += 1
                key = (name, label)
                best[key] = min(best.get(key, float("inf")), seconds)
    sf.close()

    labels = [label for label, _ in variants]
    header = "%-11s %5s %11s %13s" % ("position", "depth", "nodes", "stockfish n/s")
    for label in labels:
        header += " %13s %6s" % (label + " n/s", "ratio")
    print(header)
    rows = [(name, depth) for name, _, depth in POSITIONS] + [("all", None)]
    for name, depth in rows:
        names = [p[0] for p in POSITIONS] if name == "all" else [name]
        nodes = sum(nodes_of[n] for n in names)
        sf_time = sum(best[(n, "stockfish")] for n in names)
        line = "%-11s %5s %11d %13.0f" % (name, depth or "", nodes, nodes / sf_time)
        for label in labels:
            t = sum(best[(n, label)] for n in names)
            line += " %13.0f %5.2fx" % (nodes / t, sf_time / t)
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
