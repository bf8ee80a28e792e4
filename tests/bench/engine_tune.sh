#!/usr/bin/env bash
# Regenerates the evaluation weights from scratch: self-play games with the current engine
# (tools/datagen.c), then Texel tuning (tools/tune.c) into engine/src/eval_weights.c. The data
# (hundreds of MB) stays in DATA (default /tmp/engine-tune), out of git.
#
#   tests/bench/engine_tune.sh [GAMES=20000] [NODES=5000] [EPOCHS=2000]
#
# Check the result with a match against the previous build before committing the weights.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-20000}
nodes=${2:-5000}
epochs=${3:-2000}
build=${BUILD:-build/release}
data=${DATA:-/tmp/engine-tune}
mkdir -p "$data"
[ -x "$build/engine/datagen" ] && [ -x "$build/engine/tune" ] || scripts/build.sh release
"$build/engine/datagen" --games "$games" --threads "$(nproc)" --nodes "$nodes" \
    --seed "${SEED:-1}" --out "$data/selfplay.txt"
"$build/engine/tune" --data "$data/selfplay.txt" --epochs "$epochs" --threads "$(nproc)" \
    --out engine/src/eval_weights.c
