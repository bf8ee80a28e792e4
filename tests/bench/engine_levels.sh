#!/usr/bin/env bash
# Measures the lobby levels: each level against Stockfish with UCI_LimitStrength at the Elo
# given for it (Stockfish 15.1 limits from 1350 to 2850), and neighbouring levels against each
# other, so that levels below the range are placed by the chain. Prints one summary per match.
#
#   tests/bench/engine_levels.sh [GAMES=100] [TC=10+0.1]
#
# A benchmark, not a test. Low levels are quick; level 8 plays at full strength on the clock.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-100}
tc=${2:-10+0.1}
build=${BUILD:-build/release}
out=${OUT:-/tmp/engine-levels}
stockfish=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
mkdir -p "$out"
[ -x "$build/engine/match" ] && [ -x "$build/engine/uci" ] || scripts/build.sh release
# match NAME1 NAME2 ARGS2...: the engine at the options in LEVEL_ARGS against ARGS2.
match() {
    local name1=$1 name2=$2
    shift 2
    "$build/engine/match" --engine cmd="$build/engine/uci" name="$name1" "${LEVEL_ARGS[@]}" \
        --engine name="$name2" "$@" --each tc="$tc" option.Hash=16 option.Threads=1 \
        --games "$games" --concurrency "${CONCURRENCY:-2}" --quiet \
        --pgnout "$out/$name1-$name2.pgn" | tee "$out/$name1-$name2.log" | grep -E "^(Score|Elo)"
}
for level in 1 2 3 4 5 6 7; do
    next=$((level + 1))
    LEVEL_ARGS=("option.Level=$level")
    match "level$level" "level$next" cmd="$build/engine/uci" "option.Level=$next"
done
# Anchors: ELO_FOR_LEVEL_<n> overrides the Stockfish rating each level plays.
for level in 3 4 5 6 7 8; do
    var="ELO_FOR_LEVEL_$level"
    elo=${!var:-$((1000 + 250 * level))}
    [ "$elo" -lt 1350 ] && continue
    LEVEL_ARGS=("option.Level=$level")
    match "level$level" "sf$elo" cmd="$stockfish" option.UCI_LimitStrength=true \
        "option.UCI_Elo=$elo" "option.Move Overhead=100"
done
