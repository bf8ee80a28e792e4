#!/usr/bin/env python3
"""SPSA tuning of the search's constants (chess/search_params.h) by self-play.

Each iteration perturbs every tuned constant by +-c_k at random, plays one opening twice
(colours reversed) between the engine with theta + c_k * delta and with theta - c_k * delta,
using the project's match tool as arbiter, and moves theta by a_k / c_k * (wins - losses of
the first) * delta. The gains follow fishtest's schedule: c_k = c / (k + 1)^0.101,
a_k = a / (A + k + 1)^0.602, with c and a set from each constant's c_end (default a twentieth
of its range) and r_end (default 0.002) as fishtest does, and A a tenth of the iterations.

Node-limited games on one thread are deterministic, so the load of a shared machine does not
change the result, only the speed. Several workers (--workers) play iterations at once and
share theta. The state (theta and the iteration count) is saved to --state after every
iteration, so a stopped run resumes where it was; --log gets theta every --log-every
iterations as CSV. The values to try are printed as match/uci options at the end.

    tests/bench/spsa.py --iterations 20000 --nodes 10000 --workers 2 \
        --params rfp_margin,fut_base,lmr_div --state /tmp/spsa.json --log /tmp/spsa.csv

A benchmark tool, not a test: nothing here fails on the result.
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import threading

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
ALPHA, GAMMA = 0.602, 0.101
SCORE = re.compile(r"^Score of plus vs minus: (\d+) - (\d+) - (\d+)")


def engine_params(uci):
    """Every search constant the engine knows: name -> (value, min, max)."""
    out = subprocess.run([uci], input="params\nquit\n", capture_output=True, text=True,
                         check=True, timeout=60).stdout
    params = {}
    for line in out.splitlines():
        m = re.match(r"^param (\S+) value (-?\d+) default -?\d+ min (-?\d+) max (-?\d+)$", line)
        if m:
            params[m.group(1)] = tuple(int(x) for x in m.group(2, 3, 4))
    if not params:
        sys.exit(f"spsa: {uci} listed no search constants (is it the project's uci?)")
    return params


def load_openings(path):
    with open(path) as f:
        lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    if not lines:
        sys.exit(f"spsa: no openings in {path}")
    return lines


class Tuner:
    def __init__(self, args, params):
        self.args = args
        self.names = args.params.split(",") if args.params else sorted(params)
        for name in self.names:
            if name not in params:
                sys.exit(f"spsa: unknown constant {name}; the engine has {', '.join(params)}")
        self.bounds = {n: params[n][1:] for n in self.names}
        n_iter = args.iterations
        self.big_a = 0.1 * n_iter
        self.c, self.a = {}, {}
        for name in self.names:
            lo, hi = self.bounds[name]
            c_end = args.c_end_share * (hi - lo)
            a_end = args.r_end * c_end ** 2
            self.c[name] = c_end * n_iter ** GAMMA
            self.a[name] = a_end * (self.big_a + n_iter) ** ALPHA
        self.theta = {n: float(params[n][0]) for n in self.names}
        self.k = 0
        self.played = 0
        self.score = [0, 0, 0]  # plus wins, losses, draws
        self.lock = threading.Lock()
        self.failed = False  # a game pair could not be played: the workers stop
        if args.state and os.path.exists(args.state):
            with open(args.state) as f:
                saved = json.load(f)
            self.k = saved["k"]
            self.score = saved.get("score", self.score)
            for name in self.names:
                if name in saved["theta"]:
                    self.theta[name] = saved["theta"][name]
            print(f"spsa: resumed at iteration {self.k} from {args.state}", flush=True)

    def clip(self, name, value):
        lo, hi = self.bounds[name]
        return min(hi, max(lo, value))

    def take_iteration(self, rng):
        """The next iteration's number and its two engines' values, or None when done."""
        with self.lock:
            if self.k + self.played >= self.args.iterations:
                return None
            k = self.k + self.played
            self.played += 1
            delta = {n: rng.choice((-1, 1)) for n in self.names}
            c_k = {n: self.c[n] / (k + 1) ** GAMMA for n in self.names}
            # Stochastic rounding with one draw for both sides, so that a constant with a small
            # range (a few plies) still sees its perturbation on average.
            shift = {n: rng.random() for n in self.names}
            plus = {n: math.floor(self.clip(n, self.theta[n] + c_k[n] * delta[n]) + shift[n])
                    for n in self.names}
            minus = {n: math.floor(self.clip(n, self.theta[n] - c_k[n] * delta[n]) + shift[n])
                     for n in self.names}
            plus = {n: int(self.clip(n, v)) for n, v in plus.items()}
            minus = {n: int(self.clip(n, v)) for n, v in minus.items()}
            return k, delta, c_k, plus, minus

    def apply(self, k, delta, c_k, wins, losses, draws):
        with self.lock:
            result = wins - losses
            for n in self.names:
                a_k = self.a[n] / (self.big_a + k + 1) ** ALPHA
                self.theta[n] = self.clip(n, self.theta[n] + a_k / c_k[n] * result * delta[n])
            self.played -= 1
            self.k += 1
            self.score = [self.score[0] + wins, self.score[1] + losses, self.score[2] + draws]
            self.save()
            if self.args.log and self.k % self.args.log_every == 0:
                self.log_line()
            if self.k % self.args.print_every == 0:
                w, l, d = self.score
                values = " ".join(f"{n}={self.theta[n]:.1f}" for n in self.names)
                print(f"iteration {self.k}: plus {w}-{l}-{d}; {values}", flush=True)

    def save(self):
        if not self.args.state:
            return
        tmp = self.args.state + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"k": self.k, "theta": self.theta, "score": self.score}, f, indent=1)
        os.replace(tmp, self.args.state)

    def log_line(self):
        new = not os.path.exists(self.args.log)
        with open(self.args.log, "a") as f:
            if new:
                f.write("iteration," + ",".join(self.names) + "\n")
            f.write(f"{self.k}," + ",".join(f"{self.theta[n]:.2f}" for n in self.names) + "\n")


def play_pair(args, opening, plus, minus):
    """Plays one opening twice between the two settings: (plus wins, losses, draws)."""
    with tempfile.NamedTemporaryFile("w", suffix=".fen", delete=False) as f:
        f.write(opening + "\n")
        path = f.name
    try:
        cmd = [args.match,
               "--engine", f"cmd={args.uci}", "name=plus",
               *[f"option.{n}={v}" for n, v in plus.items()],
               "--engine", f"cmd={args.uci}", "name=minus",
               *[f"option.{n}={v}" for n, v in minus.items()],
               "--each", f"nodes={args.nodes}", "option.Hash=16", "option.Threads=1",
               "--games", "2", "--openings", path, "--quiet",
               "--draw", "movenumber=40", "movecount=8", "score=8",
               "--resign", "movecount=4", "score=600"]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    finally:
        os.unlink(path)
    for line in reversed(out.stdout.splitlines()):
        m = SCORE.match(line)
        if m:
            return tuple(int(x) for x in m.groups())
    raise RuntimeError(f"match gave no score (status {out.returncode}): {out.stderr[-500:]}")


def worker(tuner, args, openings, seed):
    rng = random.Random(seed)
    while not tuner.failed:
        it = tuner.take_iteration(rng)
        if it is None:
            return
        k, delta, c_k, plus, minus = it
        try:
            wins, losses, draws = play_pair(args, rng.choice(openings), plus, minus)
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            print(f"spsa: {e}", file=sys.stderr, flush=True)
            tuner.failed = True
            return
        tuner.apply(k, delta, c_k, wins, losses, draws)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--uci", default=os.path.join(ROOT, "build/release/engine/uci"))
    p.add_argument("--match", default=os.path.join(ROOT, "build/release/engine/match"))
    p.add_argument("--openings", default=os.path.join(ROOT, "tests/bench/sprt_openings.fen"))
    p.add_argument("--params", help="comma-separated constants to tune (default: all)")
    p.add_argument("--iterations", type=int, default=10000, help="game pairs in all")
    p.add_argument("--nodes", type=int, default=10000, help="nodes a move")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--c-end-share", type=float, default=0.05,
                   help="final perturbation as a share of each constant's range")
    p.add_argument("--r-end", type=float, default=0.002, help="final learning rate")
    p.add_argument("--state", help="JSON file to save to and resume from")
    p.add_argument("--log", help="CSV file of theta every --log-every iterations")
    p.add_argument("--log-every", type=int, default=50)
    p.add_argument("--print-every", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    tuner = Tuner(args, engine_params(args.uci))
    openings = load_openings(args.openings)
    threads = [threading.Thread(target=worker, args=(tuner, args, openings,
                                                     args.seed * 1000 + tuner.k * 10 + i))
               for i in range(args.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    w, l, d = tuner.score
    if tuner.failed:
        sys.exit(f"spsa: stopped after {tuner.k} iterations (state saved)")
    print(f"done: {tuner.k} iterations, plus {w}-{l}-{d}")
    for n in tuner.names:
        print(f"option.{n}={round(tuner.theta[n])}  # {tuner.theta[n]:.2f}")


if __name__ == "__main__":
    main()
