#!/usr/bin/env python3
"""Where each engine of a match spends its clock, from the match tool's MATCH_DEBUG=1 lines.

    MATCH_DEBUG=1 build/release/engine/match ... 2> moves.txt
    tests/bench/time_use.py moves.txt

For each engine: the average time charged a move over moves 1-10, 11-20, 21-40 and 41 onwards
(counted from the opening position), and the average clock left after its 20th and 40th move
in the games that got that far. Games are told apart by the lines' game numbers, so matches at
any concurrency can be read.
"""
import collections
import re
import sys

LINE = re.compile(r"game (\d+) ply (\d+) (\S+) \S+ (-?\d+) ms, clock (-?\d+)")
RANGES = [(0, 10), (10, 20), (20, 40), (40, 10**6)]


def main(path):
    spent = collections.defaultdict(lambda: [[0, 0] for _ in RANGES])
    clocks = collections.defaultdict(lambda: {20: [], 40: []})
    games = set()
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            game, ply, name = int(m[1]), int(m[2]), m[3]
            charged, clock = int(m[4]), int(m[5])
            games.add(game)
            move = ply // 2  # moves by this engine before this one
            for i, (lo, hi) in enumerate(RANGES):
                if lo <= move < hi:
                    spent[name][i][0] += charged
                    spent[name][i][1] += 1
            if move + 1 in (20, 40):
                clocks[name][move + 1].append(clock)
    if not spent:
        sys.exit("time_use.py: no 'game G ply P ...' lines in %s (MATCH_DEBUG=1 output)" % path)
    print("%d games" % len(games))
    print("%-16s %9s %9s %9s %9s %12s %12s" % ("engine", "1-10", "11-20", "21-40", "41-",
                                               "clock@20", "clock@40"))
    for name in sorted(spent):
        avg = ["%7.0fms" % (s / n) if n else "%9s" % "-" for s, n in spent[name]]
        left = ["%10.0fms" % (sum(c) / len(c)) if c else "%12s" % "-"
                for c in (clocks[name][20], clocks[name][40])]
        print("%-16s %9s %9s %9s %9s %12s %12s" % (name, *avg, *left))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
