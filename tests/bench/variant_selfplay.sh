#!/usr/bin/env bash
# The engine against itself in each variant (Chess960, King of the Hill, Three-check, and
# standard chess from tests/bench/openings.fen) at a lobby level, through engine/tools/selfplay:
# every move checked legal by the library before it is played, every game to an end by its
# variant's rules. Prints each game as it ends (the progress), then per variant the results,
# the endings and the average length; exits non-zero on any illegal move, game at the ply cap or
# error. At level 8 (1 s a move, the level's own time) 20 games a variant take about an hour
# and a quarter with 2 at once.
#
#   tests/bench/variant_selfplay.sh [GAMES=20] [LEVEL=8] [selfplay options ...]
#
# CONCURRENCY (default 2) games at once, one search thread each; SEED (default 1) picks the
# Chess960 arrays and the random plies before King of the Hill and Three-check games. Builds
# nothing: run scripts/build.sh release first (BUILD names another build directory).
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-20}
level=${2:-8}
shift $(($# < 2 ? $# : 2))
build=${BUILD:-build/release}
selfplay="$build/engine/selfplay"
if [ ! -x "$selfplay" ]; then
    echo "variant_selfplay.sh: no $selfplay (run scripts/build.sh release)" >&2
    exit 2
fi
set -x
exec "$selfplay" --games "$games" --level "$level" --concurrency "${CONCURRENCY:-2}" \
    --seed "${SEED:-1}" --openings tests/bench/openings.fen "$@"
