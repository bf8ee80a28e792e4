#!/usr/bin/env bash
# Makes a build whose network has another shape than the built-in one: WIDTH hidden neurons per
# perspective, or KINGS king buckets (docs/engine.md, "NNUE"), with the built-in network
# converted to that shape as its own built-in network: grown (nnue_train --grow: the new
# neurons' output weights are zero) or copied into every king bucket (nnue_train --init). The
# converted network evaluates every position as the built-in one does, which the script checks
# by comparing the two builds' bench signatures. Train it on with that build's nnue_train
# (--init DIR/grown.nnue or DIR/kings.nnue) and play it with nnue_sprt.sh's NEW_BUILD and NEW_NODESTIME.
# nnue_wide.sh and nnue_kings.sh call it. A benchmark tool, not a test.
#
#   tests/bench/nnue_shape.sh WIDTH KINGS      (one of them the built-in 256 or 1)
#
# Environment: BUILD (build/release, for the comparison), DIR (build/nnue-WIDTH-KINGS).
set -euo pipefail
cd "$(dirname "$0")/../.."
width=${1:?usage: nnue_shape.sh WIDTH KINGS}
kings=${2:?usage: nnue_shape.sh WIDTH KINGS}
if [ "$width" != 256 ] && [ "$kings" != 1 ]; then
    echo "nnue_shape.sh: change the width or the king buckets, not both" >&2
    exit 2
fi
build=${BUILD:-build/release}
dir=${DIR:-build/nnue-$width-$kings}
mkdir -p "$dir"
[ -x "$build/engine/bench" ] || scripts/build.sh release
# The engine library needs a built-in network of its shape before anything links, so the first
# configure uses a zero-filled file of that size; only nnue_train is built from it (it never
# evaluates the built-in network), and it converts the real network the second configure uses.
size=$((16 + 2 * (kings * 768 * width + width + 8 * 2 * width + 8)))
placeholder="$dir/placeholder.nnue"
[ -f "$placeholder" ] || head -c "$size" /dev/zero > "$placeholder"
configure() {
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCHESS_NNUE_HIDDEN="$width" \
        -DCHESS_NNUE_KING_BUCKETS="$kings" -DCHESS_NNUE_FILE="$(realpath "$1")" > /dev/null
}
configure "$placeholder"
cmake --build "$dir" -j "$(nproc)" --target nnue_train > /dev/null
how=--init converted=$dir/kings.nnue
[ "$width" = 256 ] || how=--grow converted=$dir/grown.nnue
"$dir/engine/nnue_train" "$how" engine/nets/default.nnue --epochs 0 --out "$converted"
configure "$converted"
cmake --build "$dir" -j "$(nproc)" --target uci bench nnue_train match > /dev/null
builtin_nodes=$("$build/engine/bench" 2>&1 | grep '^nodes')
converted_nodes=$("$dir/engine/bench" 2>&1 | grep '^nodes')
echo "bench: $build $builtin_nodes, $dir $converted_nodes"
[ "$builtin_nodes" = "$converted_nodes" ] || { echo "nnue_shape.sh: the converted network searches differently" >&2; exit 1; }
echo "nnue_shape.sh: $dir holds the build of $width neurons and $kings king buckets; its network is $converted"
