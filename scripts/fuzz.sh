#!/usr/bin/env bash
# Fuzzes for a bounded time: every libFuzzer target of tests/fuzz (built with clang, ASan and
# UBSan: the "fuzz" preset) for CHESS_FUZZ_SECONDS each (default 30), two at a time, starting
# from the corpus kept in the repo. Inputs that reach new coverage are merged into
# tests/fuzz/corpus/<target>/ (commit them: the corpus grows with the runs); a crash, leak or
# sanitizer report fails the run and leaves the input in build/fuzz/findings/<target>/.
# Then the live server, built with ASan, takes CHESS_FUZZ_LIVE_MESSAGES mutated messages and
# frames with random disconnects (tests/fuzz/live_fuzz.py, default 20000) and
# CHESS_FUZZ_API_REQUESTS mutated HTTP API requests (tests/fuzz/api_fuzz.py, default 5000), and
# must exit 0.
#   scripts/fuzz.sh [target...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${CHESS_FUZZ_SECONDS:-30}
live_messages=${CHESS_FUZZ_LIVE_MESSAGES:-20000}
api_requests=${CHESS_FUZZ_API_REQUESTS:-5000}
all_targets=(fen move pgn proto import netaddr http)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

cmake --preset fuzz >/dev/null
cmake --build build/fuzz -j "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
out=build/fuzz/findings
rm -rf "$out"
mkdir -p "$out"

# One target: fuzz into a scratch corpus, then merge what adds coverage into the repo's.
fuzz_one() {
    local t=$1 prog=build/fuzz/tests/fuzz/fuzz_$1 corpus=tests/fuzz/corpus/$1
    local scratch="$out/$t/new" dict=()
    mkdir -p "$scratch" "$out/$t"
    [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
    if ! "$prog" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$out/$t/" "$scratch" "$corpus" \
        >"$out/$t/log" 2>&1; then
        echo "fuzz: $t FAILED (input and log in $out/$t/):"
        tail -30 "$out/$t/log"
        return 1
    fi
    local before after
    before=$(find "$corpus" -type f | wc -l)
    "$prog" -merge=1 "$corpus" "$scratch" >>"$out/$t/log" 2>&1
    after=$(find "$corpus" -type f | wc -l)
    local runs
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/$t/log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz: $t ok: $runs runs in ${seconds}s, corpus $before -> $after files"
}

pids=()
names=()
failed=0
for t in "${targets[@]}"; do
    fuzz_one "$t" &
    pids+=($!)
    names+=("$t")
    # Two at a time (the machine's cores); wait for the oldest.
    if [ ${#pids[@]} -ge "$(nproc)" ]; then
        wait "${pids[0]}" || failed=1
        pids=("${pids[@]:1}")
        names=("${names[@]:1}")
    fi
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done
[ "$failed" -eq 0 ] || exit 1

if [ "$live_messages" -gt 0 ]; then
    scripts/build.sh asan >/dev/null
    /usr/bin/python3 tests/fuzz/live_fuzz.py --server build/asan/server/chess_server \
        --messages "$live_messages" --seed "${CHESS_FUZZ_SEED:-$RANDOM}"
fi
if [ "$api_requests" -gt 0 ]; then
    scripts/build.sh asan >/dev/null
    /usr/bin/python3 tests/fuzz/api_fuzz.py --server build/asan/server/chess_server \
        --requests "$api_requests" --seed "${CHESS_FUZZ_SEED:-$RANDOM}"
fi
