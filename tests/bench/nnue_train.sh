#!/usr/bin/env bash
# Makes training data by self-play and trains the NNUE on it (docs/engine.md, "NNUE"):
# datagen (tools/datagen.c) on every core, nnue_data into binary records, nnue_train into
# OUT (default DATA/net.nnue), printing the held-out loss of each epoch beside the hand-written
# evaluation's. The data (about 70 bytes a position) stays in DATA (default /tmp/engine-nnue),
# out of git; positions already there are kept and trained on too, and so are the self-play
# games kept in the repository (engine/data/*.cgr.xz, engine/data/README.md) unless
# REPO_DATA=0. With FORMAT=games datagen writes game records (DATA/selfplay_sSEED.cgr) instead
# of text, to be compressed into engine/data/ and kept.
#
#   tests/bench/nnue_train.sh [GAMES=20000] [NODES=1000] [EPOCHS=10]
#
# Environment: BUILD (build/release), DATA, OUT, SEED (1; use a new one for new games),
# EVAL (hce: the searches that make the data use the hand-written evaluation; nnue: the built-in
# network), INIT (a network to continue from, e.g. engine/nets/default.nnue; default: random),
# LR (0.01), DECAY (the weight decay: 0.3 from random weights, as the first network was trained;
# 0 with INIT, which refines a network better than decay does), MAX_HALFMOVE (default: no
# limit; nnue_data leaves out positions whose halfmove clock is that or more). Copy OUT to
# engine/nets/default.nnue only after it has beaten the current network by SPRT at equal time
# (tests/bench/nnue_sprt.sh OUT).
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-20000}
nodes=${2:-1000}
epochs=${3:-10}
build=${BUILD:-build/release}
data=${DATA:-/tmp/engine-nnue}
out=${OUT:-$data/net.nnue}
seed=${SEED:-1}
mkdir -p "$data"
for tool in datagen nnue_data nnue_train; do
    [ -x "$build/engine/$tool" ] || scripts/build.sh release
done
format=${FORMAT:-text}
ext=$([ "$format" = games ] && echo cgr || echo txt)
if [ "$games" -gt 0 ]; then
    "$build/engine/datagen" --games "$games" --threads "$(nproc)" --nodes "$nodes" \
        --seed "$seed" --eval "${EVAL:-hce}" --format "$format" --out "$data/selfplay_s$seed.$ext"
fi
shopt -s nullglob
bins=()
limit=()
suffix=bin
if [ -n "${MAX_HALFMOVE:-}" ]; then
    limit=(--max-halfmove "$MAX_HALFMOVE")
    suffix=hm$MAX_HALFMOVE.bin
fi
# convert SOURCE BIN [--games]: SOURCE's records into BIN, unless BIN is newer.
convert() {
    local src=$1 bin=$2
    shift 2
    if [ ! "$bin" -nt "$src" ]; then
        case $src in
            *.xz) xz -dc "$src" | "$build/engine/nnue_data" "$@" "${limit[@]}" "$bin" ;;
            *) "$build/engine/nnue_data" "$@" "${limit[@]}" "$bin" < "$src" ;;
        esac
    fi
    bins+=("$bin")
}
for txt in "$data"/*.txt; do convert "$txt" "${txt%.txt}.$suffix"; done
for cgr in "$data"/*.cgr; do convert "$cgr" "${cgr%.cgr}.$suffix" --games; done
if [ "${REPO_DATA:-1}" != 0 ]; then
    for cgr in engine/data/*.cgr.xz; do
        name=$(basename "$cgr" .cgr.xz)
        convert "$cgr" "$data/repo_$name.$suffix" --games
    done
fi
[ ${#bins[@]} -gt 0 ] || { echo "nnue_train.sh: no data in $data" >&2; exit 1; }
init=()
decay=${DECAY:-0.3}
if [ -n "${INIT:-}" ]; then
    init=(--init "$INIT")
    decay=${DECAY:-0}
fi
"$build/engine/nnue_train" --out "$out" "${init[@]}" --epochs "$epochs" --lr "${LR:-0.01}" \
    --decay "$decay" \
    --threads "$(nproc)" "${bins[@]}"
echo "nnue_train.sh: network in $out"
