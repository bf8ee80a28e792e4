#!/usr/bin/env bash
# Makes a build whose network has WIDTH hidden neurons per perspective (default 512), with the
# built-in network grown to that width as its own built-in network: the grown network evaluates
# every position as the built-in one does (its new neurons' output weights are zero), which the
# script checks by comparing the two builds' bench signatures. Train the wide network on with
# that build's nnue_train (--init DIR/grown.nnue) and play it with nnue_sprt.sh's NEW_BUILD and
# NEW_NODESTIME (docs/engine.md, "NNUE"). A benchmark tool, not a test.
#
#   tests/bench/nnue_wide.sh [WIDTH=512]
#
# Environment: BUILD (build/release, for the comparison), DIR (build/nnueWIDTH).
set -euo pipefail
cd "$(dirname "$0")/../.."
width=${1:-512}
build=${BUILD:-build/release}
dir=${DIR:-build/nnue$width}
mkdir -p "$dir"
[ -x "$build/engine/bench" ] || scripts/build.sh release
# The engine library needs a built-in network of its width before anything links, so the first
# configure uses a zero-filled file of that size; only nnue_train is built from it (it never
# evaluates the built-in network), and it grows the real network the second configure uses.
size=$((16 + 2 * (768 * width + width + 8 * 2 * width + 8)))
placeholder="$dir/placeholder.nnue"
[ -f "$placeholder" ] || head -c "$size" /dev/zero > "$placeholder"
configure() {
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCHESS_NNUE_HIDDEN="$width" \
        -DCHESS_NNUE_FILE="$(realpath "$1")" > /dev/null
}
configure "$placeholder"
cmake --build "$dir" -j "$(nproc)" --target nnue_train > /dev/null
"$dir/engine/nnue_train" --grow engine/nets/default.nnue --epochs 0 --out "$dir/grown.nnue"
configure "$dir/grown.nnue"
cmake --build "$dir" -j "$(nproc)" --target uci bench nnue_train match > /dev/null
narrow=$("$build/engine/bench" 2>&1 | grep '^nodes')
wide=$("$dir/engine/bench" 2>&1 | grep '^nodes')
echo "bench: $build $narrow, $dir $wide"
[ "$narrow" = "$wide" ] || { echo "nnue_wide.sh: the grown network searches differently" >&2; exit 1; }
echo "nnue_wide.sh: $dir holds the $width-wide build; its network is $dir/grown.nnue"
