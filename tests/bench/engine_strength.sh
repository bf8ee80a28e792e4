#!/usr/bin/env bash
# Measures the engine against Stockfish with UCI_LimitStrength at a given UCI_Elo, one thread
# each, with the project's match tool. Prints the score and the Elo difference with its 95%
# error bar; the full log and PGN go to OUT (default /tmp/engine-strength).
#
#   tests/bench/engine_strength.sh [ELO=2200] [GAMES=200] [TC=10+0.1] [CONCURRENCY=2]
#
# Stockfish gets a Move Overhead of 100 ms: with its default of 10 ms, limited Stockfish plays
# most of a 10+0.1 game on the increment and loses on time to scheduling delays on a loaded
# machine, which measures nothing. A benchmark, not a test: it never fails on the result. 200 games at 10+0.1 take over an hour
# on two cores. Needs stockfish (Debian package, /usr/games/stockfish) and a release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
elo=${1:-2200}
games=${2:-200}
tc=${3:-10+0.1}
concurrency=${4:-2}
build=${BUILD:-build/release}
out=${OUT:-/tmp/engine-strength}
stockfish=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
mkdir -p "$out"
[ -x "$build/engine/match" ] && [ -x "$build/engine/uci" ] || scripts/build.sh release
log="$out/sf$elo-$tc.log"
"$build/engine/match" \
    --engine cmd="$build/engine/uci" name=engine \
    --engine cmd="$stockfish" name="stockfish-$elo" option.UCI_LimitStrength=true \
        option.UCI_Elo="$elo" "option.Move Overhead=100" \
    --each tc="$tc" option.Hash=16 option.Threads=1 \
    --games "$games" --concurrency "$concurrency" --quiet --openings tests/bench/openings.fen \
    --pgnout "$out/sf$elo-$tc.pgn" | tee "$log" | grep -E "^(Score|Elo|Finished)"
