#!/usr/bin/env python3
"""Where does an engine lose its games? Reviews PGN games (from the match tool) with full-strength
Stockfish and prints, for the named engine and for its opponents, the average loss per move in
centipawns by move number, when each lost game was decided, and the engine's largest drops.

    tests/bench/review_games.py [--engine engine] [--nodes 150000] [--jobs 2] GAMES.pgn ...

Every position of every game is searched by Stockfish to --nodes nodes (1 thread, 64 MB); a
move's loss is how far Stockfish's score for the mover fell from the position before the move
to the position after it (counted up to 500, and only from positions within 4 pawns of
equality, where a move can still matter). A lost game was decided at the first of the engine's
positions from which Stockfish scores it below -1.5 pawns and never again above -0.5. Stockfish
judges its own kind of moves kindly, so compare the two sides' columns with that in mind: the
figures locate the weakness, they do not measure it. A benchmark tool, not a test. 100 games at
150,000 nodes take about 25 minutes on two cores.

Needs a release build (pgn_positions) and Stockfish (Debian package: /usr/games/stockfish, or
STOCKFISH=path).
"""
import argparse
import collections
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from uci_engine import UciEngine

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build", "release"))
CLIP, WINDOW, LOST, HOPELESS = 500, 400, -150, -50


def stockfish_path():
    path = os.environ.get("STOCKFISH") or shutil.which("stockfish") or "/usr/games/stockfish"
    if not os.access(path, os.X_OK):
        sys.exit("review_games: no Stockfish (install the stockfish package or set STOCKFISH)")
    return path


def read_moves(pgn_files):
    tool = os.path.join(BUILD, "engine", "pgn_positions")
    if not os.access(tool, os.X_OK):
        sys.exit("review_games: %s missing: build first (scripts/build.sh release)" % tool)
    out = subprocess.run([tool] + pgn_files, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(out.stderr.strip() or "review_games: pgn_positions failed")
    games = collections.defaultdict(list)
    for line in out.stdout.splitlines():
        number, ply, white, black, result, fen, move = line.split("\t")
        games[int(number)].append({"ply": int(ply), "white": white, "black": black,
                                   "result": result, "fen": fen, "move": move})
    return games


def stockfish_score(sf, fen, nodes):
    """Stockfish's score of the position for the side to move, in centipawns, and its move."""
    sf.send("position fen " + fen)
    sf.send("go nodes %d" % nodes)
    score = 0
    while True:
        words = sf.read_line().split()
        if words and words[0] == "info" and "score" in words:
            at = words.index("score")
            value = int(words[at + 2])
            if words[at + 1] == "mate":  # mate in n: 10000 - n, as one large score
                value = (10000 - abs(value)) * (1 if value > 0 else -1)
            score = value
        elif words and words[0] == "bestmove":
            return score, words[1]


def score_games(games, numbers, path, nodes):
    sf = UciEngine(path, [("Hash", 64), ("Threads", 1)])
    try:
        for number in numbers:
            for move in games[number]:
                move["score"], move["best"] = stockfish_score(sf, move["fen"], nodes)
    finally:
        sf.close()


def review(games, engine):
    loss = collections.defaultdict(lambda: {"engine": [0, 0], "opponent": [0, 0]})
    decided = collections.Counter()
    points, drops = [], []
    for moves in games.values():
        engine_white = moves[0]["white"] == engine
        if not engine_white and moves[0]["black"] != engine:
            continue
        result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(moves[0]["result"])
        if result is not None:
            points.append(result if engine_white else 1 - result)
        for before, after in zip(moves, moves[1:]):
            if after["ply"] != before["ply"] + 1 or abs(before["score"]) > WINDOW:
                continue
            # after["score"] is for the side to move next, the mover's opponent
            lost = max(0, min(before["score"] + after["score"], CLIP))
            white_moved = before["fen"].split()[1] == "w"
            side = "engine" if white_moved == engine_white else "opponent"
            bucket = loss[before["ply"] // 10 * 5][side]
            bucket[0] += lost
            bucket[1] += 1
            if side == "engine":
                drops.append((lost, before))
        own = [m for m in moves if (m["fen"].split()[1] == "w") == engine_white]
        for i, m in enumerate(own):
            if m["score"] < LOST and all(later["score"] < HOPELESS for later in own[i:]):
                decided[m["ply"] // 20 * 10] += 1
                break
    return points, loss, decided, drops


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--engine", default="engine", help="the engine's name in the PGN tags")
    parser.add_argument("--nodes", type=int, default=150000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--drops", type=int, default=20, help="how many of the largest to list")
    args = parser.parse_args()
    path = stockfish_path()
    games = read_moves(args.pgn)
    numbers = sorted(games)
    parts = [numbers[i::args.jobs] for i in range(args.jobs)]
    with ThreadPoolExecutor(args.jobs) as pool:
        for f in [pool.submit(score_games, games, part, path, args.nodes) for part in parts]:
            try:
                f.result()
            except RuntimeError as err:
                sys.exit("review_games: Stockfish: %s" % err)
    points, loss, decided, drops = review(games, args.engine)
    if not points:
        sys.exit("review_games: no finished game of %s" % args.engine)
    print("%d games of %s: %.1f points (%.1f%%), Stockfish at %d nodes a position"
          % (len(points), args.engine, sum(points), 100 * sum(points) / len(points), args.nodes))
    print("\naverage loss per move (centipawns), by moves since the game's first position:")
    print("  moves      %-20s opponents" % args.engine)
    for start in sorted(loss):
        e, o = loss[start]["engine"], loss[start]["opponent"]
        if e[1] and o[1]:
            print("  %3d-%-3d   %5.1f (%4d moves)   %5.1f (%4d moves)"
                  % (start, start + 4, e[0] / e[1], e[1], o[0] / o[1], o[1]))
    print("\nlost games decided (Stockfish below %+d and never again above %+d), by moves since "
          "the first position:" % (LOST, HOPELESS))
    for start in sorted(decided):
        print("  %3d-%-3d   %d" % (start, start + 9, decided[start]))
    print("\nlargest drops of %s (loss, moves since the first position, played, Stockfish's "
          "move, position):" % args.engine)
    for lost, m in sorted(drops, key=lambda d: -d[0])[:args.drops]:
        print("  %4d  %3d  %-6s %-6s %s"
              % (lost, m["ply"] // 2 + 1, m["move"], m["best"], m["fen"]))


if __name__ == "__main__":
    main()
