#!/usr/bin/env bash
# Load benchmark (not a test: it prints figures and never fails on time).
#
#   tests/load/run.sh [BUILD_DIR] [CONNECTIONS] [RATE] [DURATION]
#
# Builds nothing: BUILD_DIR (default build/release) must hold server/chess_server and
# tests/load/loadgen. In one run it measures
#   1. the ceiling: loadgen against its own bare lws echo server (same loop as the server),
#   2. the chess server: CONNECTIONS connections playing CONNECTIONS/2 games,
#   3. the ceiling with a move's traffic: the same server relaying every message to its sender
#      and to a partner connection, as the chess server sends a move to both players (one
#      move-sized message in, two out, each padded to the mean size of the chess server's move
#      events as step 2 measured them: the smaller of its two phases' means, so the reference
#      never sends more than the chess server did), the delay measured at the partner,
# each paced at RATE moves/s (delay figures) and then closed-loop (most moves/s), and prints
# the ratios of the chess server's closed-loop moves/s to the echo round trips/s and to the
# relayed messages/s, and the server's own view from /metrics (how long messages waited for
# their commit, how long commits took).
# Only loopback addresses are used. The fd limit is raised for 10,000 connections.
# The server reads its CHESS_* environment variables as usual, e.g. CHESS_DB_SYNC=normal; the
# bare echo and relay servers run on libuv like the server (CHESS_EVENT_LOOP=poll puts them on
# lws's own poll loop instead, for comparison). Each server gets a fresh data
# directory. LOADGEN_TICK_US sets the generator's tick (loadgen --tick-us; default 500, 0 makes
# it block in epoll), the same for both targets. LOADGEN_TIMELINE=1 adds, after each paced phase,
# the 100 ms windows that had moves over 20 ms (loadgen --timeline).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
conns=${2:-10000}
rate=${3:-20000}
duration=${4:-10}
loop=${CHESS_EVENT_LOOP:-uv}
tick_us=${LOADGEN_TICK_US:-500}
timeline=${LOADGEN_TIMELINE:-0}
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
# The machine's network stack decides most of the figures; name it so runs can be compared.
echo "== kernel $(uname -r), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "== $conns connections, paced at $rate moves/s, ${duration}s per phase, bare servers' loop: $loop," \
     "generator tick ${tick_us} us"
# A bare lws server: plain echo, or relaying each message to a partner connection as well.
bare() { # bare echo|relay [EVENT_BYTES]
    p=$(port)
    "$loadgen" echo-server --port "$p" --loop "$loop" --relay "$([ "$1" = relay ] && echo 1 || echo 0)" \
        --event-bytes "${2:-0}" 2>"$tmp/$1.log" &
    echo_pid=$!; pids+=("$echo_pid"); sleep 0.5
    "$loadgen" run --port "$p" --target "$1" --connections "$conns" --rate "$rate" \
        --duration "$duration" --server-pid "$echo_pid" --tick-us "$tick_us" \
        --timeline "$timeline" | tee "$tmp/$1.txt"
    kill "$echo_pid"; wait "$echo_pid" 2>/dev/null || true
}
echo "== ceiling: bare lws echo server"
bare echo

echo "== chess server"
p=$(port)
"$server" --listen 127.0.0.1 --port "$p" --data-dir "$tmp/data" --log-level warn \
    --max-connections $((conns + 100)) \
    --rate-limit 100000 --rate-burst 100000 2>"$tmp/server.log" &
server_pid=$!; pids+=("$server_pid"); sleep 0.5
# The server's own view of the paced phase: /metrics as that phase's measurement begins and as
# its result is out; the summary uses the difference.
# Up to three tries; a failed try is reported under the summary.
metrics() {
    for _ in 1 2 3; do
        /usr/bin/python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
            "http://127.0.0.1:$p/metrics" >"$1" 2>"$1.err" && return
        tail -1 "$1.err" >>"$tmp/metrics_errors.txt"
    done
    : >"$1"
}
(
    for _ in $(seq 900); do grep -q "PHASE paced begins" "$tmp/chess.txt" 2>/dev/null && break; sleep 0.1; done
    metrics "$tmp/metrics_begin.txt"
    for _ in $(seq 900); do grep -q "phase=paced" "$tmp/chess.txt" 2>/dev/null && break; sleep 0.1; done
    metrics "$tmp/metrics_end.txt"
) &
"$loadgen" run --port "$p" --target chess --connections "$conns" --rate "$rate" \
    --duration "$duration" --server-pid "$server_pid" --tick-us "$tick_us" \
    --timeline "$timeline" | tee "$tmp/chess.txt"
kill -TERM "$server_pid"; wait "$server_pid" || echo "server exit status $?"

field() { grep "phase=$2" "$1" | tr ' ' '\n' | grep "^$3=" | cut -d= -f2; }
event_bytes=$(( $(field "$tmp/chess.txt" paced event_bytes) < $(field "$tmp/chess.txt" closed event_bytes) \
    ? $(field "$tmp/chess.txt" paced event_bytes) : $(field "$tmp/chess.txt" closed event_bytes) ))
echo "== ceiling with a move's traffic: bare lws server relaying each message to sender and partner," \
     "padded to the chess server's mean move event ($event_bytes bytes)"
bare relay "$event_bytes"
echo_max=$(field "$tmp/echo.txt" closed moves_per_s)
relay_max=$(field "$tmp/relay.txt" closed moves_per_s)
chess_max=$(field "$tmp/chess.txt" closed moves_per_s)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
echo "== summary"
echo "connections held:        $(field "$tmp/chess.txt" paced connections_held) of $conns"
echo "paced at $rate/s:        $(field "$tmp/chess.txt" paced moves_per_s) moves/s relayed," \
     "delay p50 $(field "$tmp/chess.txt" paced p50_ms) ms, p99 $(field "$tmp/chess.txt" paced p99_ms) ms," \
     "max $(field "$tmp/chess.txt" paced max_ms) ms; $(field "$tmp/chess.txt" paced over_20ms) over 20 ms"
echo "closed loop (most):      $chess_max moves/s; echo ceiling $echo_max round trips/s;" \
     "ratio $(ratio "$chess_max" "$echo_max")"
echo "relay ceiling:           paced at $rate/s: delay p50 $(field "$tmp/relay.txt" paced p50_ms) ms," \
     "p99 $(field "$tmp/relay.txt" paced p99_ms) ms ($(field "$tmp/relay.txt" paced over_20ms) over 20 ms);" \
     "closed loop $relay_max messages/s relayed;" \
     "ratio $(ratio "$chess_max" "$relay_max")"
# Histogram bucket bounds (upper) over the paced phase: the difference of the two snapshots.
/usr/bin/python3 - "$tmp/metrics_begin.txt" "$tmp/metrics_end.txt" <<'PY' || true
import re, sys
def buckets(path):
    try:
        text = open(path).read()
    except OSError:
        return {}
    out = {}
    for m in re.finditer(r'^(\w+)_bucket\{le="([^"]+)"\} (\d+)$', text, re.M):
        out.setdefault(m.group(1), []).append((m.group(2), int(m.group(3))))
    return out
begin, end = buckets(sys.argv[1]), buckets(sys.argv[2])
def bound(name, q):
    b = end.get(name, [])
    a = dict(begin.get(name, []))
    b = [(le, c - a.get(le, 0)) for le, c in b]
    if not b or b[-1][1] <= 0: return "n/a"
    le = next(le for le, c in b if c >= q * b[-1][1])
    return "over 1000" if le == "+Inf" else "%g" % (float(le) * 1000)
held = "chess_store_held_message_seconds"
commit = "chess_store_commit_seconds"
print("server side (paced phase; histogram bounds, ms): messages held for their commit"
      " p50 <= %s, p99 <= %s; commits p50 <= %s, p99 <= %s"
      % (bound(held, .5), bound(held, .99), bound(commit, .5), bound(commit, .99)))
PY
[ -s "$tmp/metrics_errors.txt" ] && sed 's/^/\/metrics failed: /' "$tmp/metrics_errors.txt"
grep -E "WARN|ERROR" "$tmp/server.log" | grep -v "static directory" | head -5 || true
