#!/usr/bin/env bash
# Cluster benchmark (not a test: it prints figures and never fails on time; docs/scaling.md).
#
#   tests/bench/cluster_bench.sh [BUILD_DIR] [CONNECTIONS] [RATE] [DURATION]
#
# Builds nothing: BUILD_DIR (default build/release) must hold server/chess_server and
# tests/load/loadgen. With a real redis-server on a free loopback port it runs the load generator
# (pairs of connections playing games, paced at RATE moves/s for the delay, then closed-loop for
# the most moves/s) against
#   1. one node without Redis (the single-node reference),
#   2. two nodes of one site where the two players of every game are on different nodes: every
#      move crosses Redis (forwarded to the owner, or published by it),
#   3. two nodes of one site with whole games on either node (the scale-out case),
# and prints the delay p50/p99 and the closed-loop moves/s of each, with the ratios against 1.
# All processes share this machine's cores: on a 2-core machine two nodes, Redis and the
# generator compete for the same CPUs, so the ratio shows the cost of the bus, not the gain of
# a second machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
conns=${2:-2000}
rate=${3:-2000}
duration=${4:-10}
server=$build/server/chess_server
loadgen=$build/tests/load/loadgen
[ -x "$server" ] && [ -x "$loadgen" ] || { echo "build $build first (chess_server, loadgen)"; exit 1; }
command -v redis-server >/dev/null || { echo "redis-server is missing (scripts/setup.sh)"; exit 1; }

ulimit -n "$(ulimit -Hn)"
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_http() { for _ in $(seq 100); do curl -sf "http://127.0.0.1:$1/healthz" >/dev/null && return; sleep 0.1; done; echo "node on $1 did not start"; exit 1; }

common=(--listen 127.0.0.1 --log-level warn --engine-workers 0 --max-connections $((conns + 100))
        --rate-limit 100000 --rate-burst 100000)

echo "== $(date -u +%FT%TZ) $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
     "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "== $conns connections ($((conns / 2)) games), paced at $rate moves/s, ${duration}s per phase"

rport=$(port)
redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" \
    >"$tmp/redis.log" 2>&1 &
pids+=($!)
sleep 0.3

run_single() {
    local p; p=$(port)
    "$server" "${common[@]}" --port "$p" --data-dir "$tmp/single" 2>"$tmp/single.log" &
    local pid=$!; pids+=("$pid"); wait_http "$p"
    "$loadgen" run --port "$p" --target chess --connections "$conns" --rate "$rate" \
        --duration "$duration" --server-pid "$pid" | tee "$tmp/single.txt"
    kill -TERM "$pid"; wait "$pid" || true
}

run_pair() { # $1: cross or games
    local pa pb; pa=$(port); pb=$(port)
    local data="$tmp/site-$1"
    "$server" "${common[@]}" --port "$pa" --data-dir "$data" --redis "127.0.0.1:$rport" \
        --node-id "a-$1" 2>"$tmp/$1-a.log" &
    local pid_a=$!; pids+=("$pid_a")
    "$server" "${common[@]}" --port "$pb" --data-dir "$data" --redis "127.0.0.1:$rport" \
        --node-id "b-$1" 2>"$tmp/$1-b.log" &
    local pid_b=$!; pids+=("$pid_b")
    wait_http "$pa"; wait_http "$pb"; sleep 1.5 # both announced on the bus
    "$loadgen" run --port "$pa" --port2 "$pb" --split "$1" --target chess \
        --connections "$conns" --rate "$rate" --duration "$duration" \
        --server-pid "$pid_a" --server-pid2 "$pid_b" | tee "$tmp/$1.txt"
    kill -TERM "$pid_a" "$pid_b"; wait "$pid_a" || true; wait "$pid_b" || true
}

echo "== 1. one node, no Redis"
run_single
echo "== 2. two nodes, the players of every game on different nodes"
run_pair cross
echo "== 3. two nodes, whole games on either node"
run_pair games

field() { grep "phase=$2" "$1" | tr ' ' '\n' | grep "^$3=" | cut -d= -f2; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
s_max=$(field "$tmp/single.txt" closed moves_per_s)
echo "== summary (delay: a move's send to its arrival at the opponent)"
for run in single cross games; do
    f="$tmp/$run.txt"
    max=$(field "$f" closed moves_per_s)
    printf '%-7s paced %6s moves/s, delay p50 %6s ms, p99 %7s ms | closed loop %6s moves/s (x%s of one node)\n' \
        "$run" "$(field "$f" paced moves_per_s)" "$(field "$f" paced p50_ms)" \
        "$(field "$f" paced p99_ms)" "$max" "$(ratio "$max" "$s_max")"
done
for f in "$tmp"/single.log "$tmp"/cross-*.log "$tmp"/games-*.log; do
    grep -E "ERROR|WARN" "$f" | grep -v -e "static directory" -e "fd limit" | head -3 || true
done
