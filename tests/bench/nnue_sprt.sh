#!/usr/bin/env bash
# Plays a candidate network against another (default: the built-in one) with the project's
# match tool until an SPRT verdict: the same engine build on both sides, one thread, on the
# virtual clock (nodestime), so both networks get the same nodes for the same time and the
# machine's load cannot favour either. Prints the score, the Elo difference and the verdict;
# the log goes to OUT (default /tmp/engine-nnue-sprt). A benchmark, not a test.
#
#   tests/bench/nnue_sprt.sh NEW.nnue [OLD.nnue]
#
# Environment: BUILD (build/release), TC (2+0.05), NODESTIME (1050, about the network's speed
# in nodes a millisecond), ELO0/ELO1 (0/10), FIRST (2000) and COUNT (1200): the lines of
# tests/bench/sprt_openings.fen to play (each twice, colours reversed; use lines no earlier run
# of the same pair reached), CONCURRENCY (2). A network of another shape needs the build that
# reads it: NEW_BUILD runs the new network on that build, and NEW_NODESTIME (default NODESTIME)
# charges its virtual clock by that build's own speed (NODESTIME times its nodes a second over
# BUILD's, both from `bench` on an idle machine), so that a slower build pays for its speed.
# NEW_OPTIONS adds match settings to the new side only, EACH_OPTIONS to both, each a list
# separated by ';' (option names may hold spaces): NEW_OPTIONS="option.tm_plan_inc=20" with
# NEW.nnue engine/nets/default.nnue plays that constant against the default, same network.
# An increment no larger than the move overhead (50 ms by default) counts as none, so a fast
# TC with an increment wants EACH_OPTIONS="option.Move Overhead=20" or less.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "usage: $0 NEW.nnue [OLD.nnue]" >&2; exit 2; }
new=$(realpath "$1")
old=${2:-<builtin>}
[ "$old" = "<builtin>" ] || old=$(realpath "$old")
build=${BUILD:-build/release}
new_build=${NEW_BUILD:-$build}
IFS=';' read -r -a new_options <<< "${NEW_OPTIONS:-}"
IFS=';' read -r -a each_options <<< "${EACH_OPTIONS:-}"
nodestime=${NODESTIME:-1050}
out=${OUT:-/tmp/engine-nnue-sprt}
first=${FIRST:-2000}
count=${COUNT:-1200}
mkdir -p "$out"
[ -x "$build/engine/match" ] && [ -x "$build/engine/uci" ] || scripts/build.sh release
[ -x "$new_build/engine/uci" ] || { echo "$0: no $new_build/engine/uci" >&2; exit 2; }
openings="$out/openings-$first-$count.fen"
sed -n "${first},$((first + count - 1))p" tests/bench/sprt_openings.fen > "$openings"
log="$out/$(basename "$new" .nnue).log"
"$build/engine/match" \
    --engine cmd="$new_build/engine/uci" name=new "option.EvalFile=$new" \
    nodestime="${NEW_NODESTIME:-$nodestime}" ${new_options[@]+"${new_options[@]}"} \
    --engine cmd="$build/engine/uci" name=old "option.EvalFile=$old" nodestime="$nodestime" \
    --each tc="${TC:-2+0.05}" option.Hash=16 option.Threads=1 \
    "option.Use NNUE=true" ${each_options[@]+"${each_options[@]}"} \
    --games $((2 * count)) --concurrency "${CONCURRENCY:-2}" \
    --openings "$openings" --sprt elo0="${ELO0:-0}" elo1="${ELO1:-10}" \
    --draw movenumber=40 movecount=8 score=8 --resign movecount=4 score=600 --quiet |
    tee "$log" | grep -E "^(Score|Elo|SPRT|Finished)"
