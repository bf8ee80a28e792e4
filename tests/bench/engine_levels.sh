#!/usr/bin/env bash
# Measures the lobby levels as an Elo ladder: neighbouring levels against each other (the
# levels must be strictly ordered), and some levels against Stockfish 15.1 with
# UCI_LimitStrength at a UCI_Elo (its range is 1350 to 2850; a value outside it is silently
# ignored by Stockfish, so it is checked here), which anchors the chain. Prints one summary
# per match; logs and PGNs go to OUT (default /tmp/engine-levels).
#
#   tests/bench/engine_levels.sh [GAMES=40] [TC=10+0.1]
#
# PAIRS lists the lower level of each neighbouring pair to play (default "1 2 3 4 5 6 7");
# ANCHORS lists LEVEL:ELO pairs (default "5:1350 6:1850 7:2000 8:2200"), either may be
# empty. CONCURRENCY defaults to 1 (the build machine is shared). A benchmark, not a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-40}
tc=${2:-10+0.1}
build=${BUILD:-build/release}
out=${OUT:-/tmp/engine-levels}
pairs=${PAIRS-1 2 3 4 5 6 7}
anchors=${ANCHORS-5:1350 6:1850 7:2000 8:2200}
stockfish=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
mkdir -p "$out"
[ -x "$build/engine/match" ] && [ -x "$build/engine/uci" ] || scripts/build.sh release
# match LEVEL NAME2 ARGS2...: the engine at LEVEL against the engine given by ARGS2.
match() {
    local level=$1 name2=$2
    shift 2
    echo "== level$level vs $name2 ($games games, $tc)"
    "$build/engine/match" --engine cmd="$build/engine/uci" name="level$level" \
        "option.Level=$level" --engine name="$name2" "$@" \
        --each tc="$tc" option.Hash=16 option.Threads=1 \
        --games "$games" --concurrency "${CONCURRENCY:-1}" --quiet \
        --pgnout "$out/level$level-$name2.pgn" | tee "$out/level$level-$name2.log" |
        grep -E "^(Score|Elo)"
}
for level in $pairs; do
    next=$((level + 1))
    match "$level" "level$next" cmd="$build/engine/uci" "option.Level=$next"
done
for anchor in $anchors; do
    level=${anchor%%:*}
    elo=${anchor##*:}
    if [ "$elo" -lt 1350 ] || [ "$elo" -gt 2850 ]; then
        echo "UCI_Elo $elo is outside Stockfish's 1350..2850" >&2
        exit 2
    fi
    match "$level" "sf$elo" cmd="$stockfish" option.UCI_LimitStrength=true \
        "option.UCI_Elo=$elo" "option.Move Overhead=100"
done
