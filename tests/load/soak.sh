#!/usr/bin/env bash
# Soak benchmark (not a test: it prints figures and a verdict, and never fails on them).
#
#   SOAK_CONNECTIONS=20000 SOAK_GAMES=5000 SOAK_MINUTES=30 tests/load/soak.sh [BUILD_DIR]
#
# Starts the release server (BUILD_DIR, default build/release, must hold server/chess_server and
# tests/load/soak) on a fresh SQLite data directory and runs tests/load/soak.c against it:
# SOAK_CONNECTIONS connections (default 20,000), SOAK_GAMES games among them (default 5,000),
# for SOAK_MINUTES minutes (default 30) after the set-up, with churn. It prints first what an
# idle guest connection costs the server (RSS before and after the idle connections, divided by
# their number), then one line a minute (server RSS and descriptors, connections, games, moves/s,
# errors), then whether RSS and descriptors stayed flat after SOAK_WARMUP_MINUTES (default 3).
# More settings: SOAK_SPECTATORS (default half of the connections not playing), SOAK_RATE (moves/s
# in all, default 1000), SOAK_CHURN (percent of the connections dropped and resumed a minute,
# default 5), SOAK_SERVER_ARGS (more flags for the server). The server keeps its defaults, with
# the limits that a single address holding every connection needs (--max-connections) and
# --max-finished-games 2000 (SOAK_MAX_FINISHED_GAMES): ended games stay in memory up to that
# many, so memory grows until the first that many games have ended (at the default rate about
# two minutes; with the server's default of 10,000, about ten), which the warm-up must cover.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
conns=${SOAK_CONNECTIONS:-20000}
games=${SOAK_GAMES:-5000}
minutes=${SOAK_MINUTES:-30}
warmup=${SOAK_WARMUP_MINUTES:-3}
rate=${SOAK_RATE:-1000}
churn=${SOAK_CHURN:-5}
finished=${SOAK_MAX_FINISHED_GAMES:-2000}
spectators=${SOAK_SPECTATORS:--1}
server=$build/server/chess_server
soak=$build/tests/load/soak
[ -x "$server" ] && [ -x "$soak" ] || { echo "build $build first (chess_server, soak)"; exit 1; }

# Both processes hold every connection: a descriptor each, about 30 more (the server's database,
# listener, wake-ups; the generator's loop), and with churn the sockets of dropped connections
# the server has not closed yet when they come back: 500 to spare. At its limit the server stops
# accepting until a descriptor is freed, and the run measures that instead. Where the hard limit
# cannot be raised (a container without CAP_SYS_RESOURCE), the connections are lowered to fit,
# and the run says so.
need=$((conns + 500))
[ "$(ulimit -Hn)" -ge "$need" ] || ulimit -Hn "$need" 2>/dev/null || true
ulimit -n "$(ulimit -Hn)"
if [ "$(ulimit -n)" -lt "$need" ]; then
    echo "== fd limit $(ulimit -n) (hard) is below $need: $((conns = $(ulimit -n) - 500)) connections instead"
fi
tmp=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

echo "== $(date -u +%FT%TZ) $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
# shellcheck disable=SC2086
"$server" --listen 127.0.0.1 --port "$port" --data-dir "$tmp/data" --log-level warn \
    --max-connections $((conns + 100)) --max-finished-games "$finished" \
    ${SOAK_SERVER_ARGS:-} 2>"$tmp/server.log" &
server_pid=$!
for _ in $(seq 50); do
    /usr/bin/python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' \
        "http://127.0.0.1:$port/healthz" 2>/dev/null && break
    sleep 0.1
done
echo "== server pid $server_pid on port $port, --max-finished-games $finished ${SOAK_SERVER_ARGS:-}"
status=0
"$soak" --port "$port" --server-pid "$server_pid" --connections "$conns" --games "$games" \
    --spectators "$spectators" --rate "$rate" --minutes "$minutes" --warmup-minutes "$warmup" \
    --churn "$churn" || status=$?
kill -TERM "$server_pid"
wait "$server_pid" || echo "server exit status $?"
server_pid=
grep -E "WARN|ERROR" "$tmp/server.log" | grep -v "static directory" | sort | uniq -c | sort -rn | head -10 || true
exit "$status"
