#!/usr/bin/env bash
# Instructions per move, per server thread (not a test: it prints figures and never fails on them).
#
#   tests/load/callgrind.sh [BUILD_DIR] [CONNECTIONS] [RATE] [DURATION]
#
# Runs chess_server under `valgrind --tool=callgrind --separate-threads=yes` and tests/load/loadgen
# against it (default 200 connections, 300 moves/s, 10 s). The counters are zeroed when the
# generator's paced phase begins and dumped when it ends, so set-up is not counted; the moves of
# that window come from the server's chess_moves_total (/metrics at both ends). Prints
# instructions per move for the loop thread (the main thread), the SQLite writer thread, and all
# threads together, and the operations per commit (group commit batches, which the writer's cost
# per move depends on). Instruction counts are deterministic enough to compare builds on a busy
# machine, unlike wall-clock figures. CALLGRIND_KEEP=DIR keeps the callgrind files there.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
conns=${2:-200}
rate=${3:-300}
duration=${4:-10}
server=$build/server/chess_server
loadgen=$build/tests/load/loadgen
[ -x "$server" ] && [ -x "$loadgen" ] || { echo "build $build first (chess_server, loadgen)"; exit 1; }

tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
metric() { # metric NAME...: their values on /metrics now, in one request
    /usr/bin/python3 -c 'import sys, urllib.request
text = urllib.request.urlopen(sys.argv[1], timeout=60).read().decode()
values = dict(l.split(" ")[:2] for l in text.splitlines() if not l.startswith("#"))
print(" ".join(values[name] for name in sys.argv[2:]))' "http://127.0.0.1:$p/metrics" "$@"
}

p=$(port)
valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/callgrind.out" \
    "$server" --listen 127.0.0.1 --port "$p" --data-dir "$tmp/data" --log-level warn \
    --max-connections $((conns + 100)) --rate-limit 100000 --rate-burst 100000 \
    2>"$tmp/server.log" &
server_pid=$!
pids+=("$server_pid")
for _ in $(seq 600); do metric chess_moves_total >/dev/null 2>&1 && break; sleep 0.1; done
# The generator's paced phase outlasts the window, so no closed-loop burst falls into it.
"$loadgen" run --port "$p" --target chess --connections "$conns" --rate "$rate" \
    --duration $((duration + 30)) --server-pid "$server_pid" >"$tmp/loadgen.txt" 2>&1 &
pids+=("$!")
for _ in $(seq 1200); do grep -q "PHASE paced begins" "$tmp/loadgen.txt" && break; sleep 0.1; done
# Each end of the window is bracketed by two readings of the counters.
read_counters() { metric chess_moves_total chess_store_commits_total chess_store_commit_batch_ops_sum; }
before0=$(read_counters)
callgrind_control -z "$server_pid" >/dev/null 2>&1
before1=$(read_counters)
sleep "$duration"
after0=$(read_counters)
callgrind_control -d "$server_pid" >/dev/null 2>&1
after1=$(read_counters)
kill -TERM "$server_pid"
wait "$server_pid" || true

# The dump made by callgrind_control -d is part 1: callgrind.out.1-NN per thread NN.
/usr/bin/python3 - "$tmp" "$before0" "$before1" "$after0" "$after1" "$duration" <<'PY'
import glob, re, sys
tmp = sys.argv[1]
b0, b1, a0, a1 = ([float(x) for x in arg.split()] for arg in sys.argv[2:6])
moves, commits, ops = ((a0[i] + a1[i] - b0[i] - b1[i]) / 2 for i in range(3))
slack = (a1[0] - a0[0] + b1[0] - b0[0]) / 2
total, loop, writer = 0, None, None
for path in sorted(glob.glob(tmp + "/callgrind.out.1-*")):
    text = open(path).read()
    ir = int(re.search(r"^(?:summary|totals): (\d+)", text, re.M).group(1))
    total += ir
    if path.endswith("-01"):
        loop = ir
    if re.search(r"^c?fn=\(\d+\) writer_main$", text, re.M):
        writer = ir
print("moves in the window: %.0f (+- %.0f, %.0f/s); commits %.0f, %.1f operations per commit" %
      (moves, slack, moves / float(sys.argv[6]), commits, ops / commits if commits else 0))
for name, ir in (("loop thread", loop), ("writer thread", writer), ("all threads", total)):
    print("%-14s %12s instructions, %8.0f per move" %
          (name, ir if ir is not None else "n/a", ir / moves if ir is not None and moves else 0))
PY
if [ -n "${CALLGRIND_KEEP:-}" ]; then mkdir -p "$CALLGRIND_KEEP" && cp "$tmp"/callgrind.out.* "$CALLGRIND_KEEP"/; fi
