#!/usr/bin/env bash
# Load benchmark (not a test: it prints figures and never fails on time).
#
#   tests/load/run.sh [BUILD_DIR] [CONNECTIONS] [RATE] [DURATION]
#
# Builds nothing: BUILD_DIR (default build/release) must hold server/chess_server and
# tests/load/loadgen. In one run it measures
#   1. the ceiling: loadgen against its own bare lws echo server (same loop as the server),
#   2. the chess server: CONNECTIONS connections playing CONNECTIONS/2 games,
# each paced at RATE moves/s (delay figures) and then closed-loop (most moves/s), and prints
# the ratio of the chess server's closed-loop moves/s to the echo round trips/s, and the server's
# own view from /metrics (how long messages waited for their commit, how long commits took).
# Only loopback addresses are used. The fd limit is raised for 10,000 connections.
# The server reads its CHESS_* environment variables as usual, e.g. CHESS_EVENT_LOOP=poll or
# CHESS_DB_SYNC=normal; the echo server follows CHESS_EVENT_LOOP. Each server gets a fresh data
# directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
conns=${2:-10000}
rate=${3:-20000}
duration=${4:-10}
loop=${CHESS_EVENT_LOOP:-uv}
server=$build/server/chess_server
loadgen=$build/tests/load/loadgen
[ -x "$server" ] && [ -x "$loadgen" ] || { echo "build $build first (chess_server, loadgen)"; exit 1; }

ulimit -n "$(ulimit -Hn)"
need=$((conns + 1000))
if [ "$(ulimit -n)" -lt "$need" ]; then
    echo "fd limit $(ulimit -n) is below $need: lower CONNECTIONS or raise the hard limit"; exit 1
fi
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT

port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

echo "== $(date -u +%FT%TZ) $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the run," \
     "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "== $conns connections, paced at $rate moves/s, ${duration}s per phase, server loop: $loop"
echo "== ceiling: bare lws echo server"
p=$(port)
"$loadgen" echo-server --port "$p" --loop "$loop" 2>"$tmp/echo.log" &
echo_pid=$!; pids+=("$echo_pid"); sleep 0.5
"$loadgen" run --port "$p" --target echo --connections "$conns" --rate "$rate" \
    --duration "$duration" --server-pid "$echo_pid" | tee "$tmp/echo.txt"
kill "$echo_pid"; wait "$echo_pid" 2>/dev/null || true

echo "== chess server"
p=$(port)
"$server" --listen 127.0.0.1 --port "$p" --data-dir "$tmp/data" --log-level warn \
    --event-loop "$loop" --max-connections $((conns + 100)) \
    --rate-limit 100000 --rate-burst 100000 2>"$tmp/server.log" &
server_pid=$!; pids+=("$server_pid"); sleep 0.5
# The server's own view of the paced phase: /metrics as soon as that phase's result is out.
(
    for _ in $(seq 600); do grep -q "phase=paced" "$tmp/chess.txt" 2>/dev/null && break; sleep 0.1; done
    /usr/bin/python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
        "http://127.0.0.1:$p/metrics" >"$tmp/metrics_paced.txt" 2>/dev/null || true
) &
"$loadgen" run --port "$p" --target chess --connections "$conns" --rate "$rate" \
    --duration "$duration" --server-pid "$server_pid" | tee "$tmp/chess.txt"
kill -TERM "$server_pid"; wait "$server_pid" || echo "server exit status $?"

field() { grep "phase=$2" "$1" | tr ' ' '\n' | grep "^$3=" | cut -d= -f2; }
echo_max=$(field "$tmp/echo.txt" closed moves_per_s)
chess_max=$(field "$tmp/chess.txt" closed moves_per_s)
echo "== summary"
echo "connections held:        $(field "$tmp/chess.txt" paced connections_held) of $conns"
echo "paced at $rate/s:        $(field "$tmp/chess.txt" paced moves_per_s) moves/s relayed," \
     "delay p50 $(field "$tmp/chess.txt" paced p50_ms) ms, p99 $(field "$tmp/chess.txt" paced p99_ms) ms," \
     "max $(field "$tmp/chess.txt" paced max_ms) ms"
echo "closed loop (most):      $chess_max moves/s; echo ceiling $echo_max round trips/s;" \
     "ratio $(awk -v a="$chess_max" -v b="$echo_max" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
# Histogram bucket bounds (upper), from the server's start to the end of the paced phase.
/usr/bin/python3 - "$tmp/metrics_paced.txt" <<'PY' || true
import re, sys
try:
    text = open(sys.argv[1]).read()
except OSError:
    sys.exit(0)
def bound(name, q):
    b = [(m.group(1), int(m.group(2))) for m in re.finditer(name + r'_bucket\{le="([^"]+)"\} (\d+)', text)]
    if not b or b[-1][1] == 0: return "n/a"
    le = next(le for le, c in b if c >= q * b[-1][1])
    return "over 1000" if le == "+Inf" else "%g" % (float(le) / 1000)
held = "chess_store_held_message_microseconds"
commit = "chess_store_commit_microseconds"
print("server side (to the end of the paced phase; histogram bounds, ms): messages held for their"
      " commit p50 <= %s, p99 <= %s; commits p50 <= %s, p99 <= %s"
      % (bound(held, .5), bound(held, .99), bound(commit, .5), bound(commit, .99)))
PY
grep -E "WARN|ERROR" "$tmp/server.log" | grep -v "static directory" | head -5 || true
