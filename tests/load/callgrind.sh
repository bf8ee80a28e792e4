#!/usr/bin/env bash
# Instructions per move, per server thread (not a test: it prints figures and never fails on them).
#
#   tests/load/callgrind.sh [BUILD_DIR] [CONNECTIONS] [RATE] [DURATION] [RUNS]
#
# Runs chess_server under `valgrind --tool=callgrind --separate-threads=yes` with
# tests/load/loadgen against it (default 200 connections, 300 moves/s, a 10 s window, 3 runs).
# Instruction counts are deterministic enough to compare builds on a busy machine, unlike
# wall-clock figures.
#
# The window: callgrind's counters are zeroed a second into the generator's paced phase and
# dumped DURATION seconds later, so set-up is not counted. The moves and commits of the window
# are counted by callgrind itself: calls of game_move() on the loop thread (the generator sends
# only legal moves) and of the SQLite WAL hook on_wal_commit() on the writer (once per commit).
#
# Prints per run the moves and commits in the window, moves per commit, and instructions per
# move for the loop thread (the main thread), the SQLite writer thread and all threads
# together. A thread's cost has a part per move and a part per commit (the transaction, the
# wake-up of the loop), and how many moves share a commit depends on timing (the disk, the
# machine's load), which varies from run to run: compare builds run one after the other. Over
# all runs it also fits instructions = per_move * moves + per_commit * commits for each thread
# (least squares) and prints both parts, when the runs' moves per commit differ enough for a
# fit; CALLGRIND_RATES="150 300 600" gives each run its own rate (in turn) to make them differ.
# CALLGRIND_KEEP=DIR keeps the callgrind files there (DIR/run-N/).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
conns=${2:-200}
rate=${3:-300}
duration=${4:-10}
runs=${5:-3}
server=$build/server/chess_server
loadgen=$build/tests/load/loadgen
[ -x "$server" ] && [ -x "$loadgen" ] || { echo "build $build first (chess_server, loadgen)"; exit 1; }

tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT
port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
listening() { /usr/bin/python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$1" 2>/dev/null; }

echo "== $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $build:" \
     "$conns connections, ${CALLGRIND_RATES:-$rate} moves/s, ${duration}s window, $runs runs"
read -r -a rates <<<"${CALLGRIND_RATES:-$rate}"
for run in $(seq "$runs"); do
    rate=${rates[$(((run - 1) % ${#rates[@]}))]}
    dir=$tmp/run-$run
    mkdir -p "$dir"
    p=$(port)
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$dir/callgrind.out" \
        "$server" --listen 127.0.0.1 --port "$p" --data-dir "$dir/data" --log-level warn \
        --max-connections $((conns + 100)) --rate-limit 100000 --rate-burst 100000 \
        2>"$dir/server.log" &
    server_pid=$!
    pids+=("$server_pid")
    for _ in $(seq 600); do listening "$p" && break; sleep 0.1; done
    # The paced phase outlasts the window, so no closed-loop burst falls into it.
    "$loadgen" run --port "$p" --target chess --connections "$conns" --rate "$rate" \
        --duration $((duration + 60)) --server-pid "$server_pid" >"$dir/loadgen.txt" 2>&1 &
    loadgen_pid=$!
    pids+=("$loadgen_pid")
    for _ in $(seq 1200); do grep -q "PHASE paced begins" "$dir/loadgen.txt" && break; sleep 0.1; done
    sleep 1
    callgrind_control -z "$server_pid" >/dev/null 2>&1
    sleep "$duration"
    callgrind_control -d "$server_pid" >/dev/null 2>&1
    kill "$loadgen_pid"
    kill -TERM "$server_pid"
    wait "$server_pid" || true
    if [ -n "${CALLGRIND_KEEP:-}" ]; then
        mkdir -p "$CALLGRIND_KEEP/run-$run" && cp "$dir"/callgrind.out.* "$CALLGRIND_KEEP/run-$run/"
    fi
done

# The dump made by callgrind_control -d is part 1 of each run: callgrind.out.1-NN per thread NN.
/usr/bin/python3 - "$tmp" "$runs" "$duration" <<'PY'
import glob, re, sys
tmp, runs, duration = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
def calls(text, name):
    """How many times the function was called in this profile (all callers)."""
    names, total, callee = {}, 0, None
    for line in text.splitlines():
        m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
        if m:
            if m.group(3) is not None:
                names[m.group(2)] = m.group(3)
            callee = names.get(m.group(2)) if m.group(1) == "cfn" else None
        elif line.startswith("calls=") and callee == name:
            total += int(line[6:].split()[0])
    return total

rows = []
for run in range(1, runs + 1):
    d = "%s/run-%d" % (tmp, run)
    ir = {"loop": None, "writer": None, "all": 0}
    moves = commits = 0
    for path in sorted(glob.glob(d + "/callgrind.out.1-*")):
        text = open(path).read()
        n = int(re.search(r"^(?:summary|totals): (\d+)", text, re.M).group(1))
        ir["all"] += n
        if path.endswith("-01"):
            ir["loop"] = n
            moves = calls(text, "game_move")
        if re.search(r"^c?fn=\(\d+\) (?:store_)?writer_main$", text, re.M):
            ir["writer"] = n
            commits = calls(text, "on_wal_commit")
    rows.append((moves, commits, ir))
    print("run %d: %.0f moves (%.0f/s), %.0f commits, %.2f moves per commit; instructions per "
          "move: loop %.0f, writer %.0f, all %.0f" %
          (run, moves, moves / duration, commits, moves / commits if commits else 0,
           ir["loop"] / moves, ir["writer"] / moves, ir["all"] / moves))

def fit(thread):
    # least squares without intercept: ir = a * moves + b * commits
    smm = sum(m * m for m, c, _ in rows)
    scc = sum(c * c for m, c, _ in rows)
    smc = sum(m * c for m, c, _ in rows)
    smy = sum(m * ir[thread] for m, c, ir in rows)
    scy = sum(c * ir[thread] for m, c, ir in rows)
    det = smm * scc - smc * smc
    ratios = [m / c for m, c, _ in rows if c]
    if len(ratios) < 2 or max(ratios) < 1.5 * min(ratios) or det <= 0:
        return None  # too alike: the two parts cannot be told apart
    return (smy * scc - scy * smc) / det, (scy * smm - smy * smc) / det

for thread in ("loop", "writer", "all"):
    per = sum(ir[thread] for m, c, ir in rows) / sum(m for m, c, ir in rows)
    f = fit(thread)
    print("%-6s %6.0f instructions per move over all runs; fitted: %s" %
          (thread, per, "%.0f per move + %.0f per commit" % f if f else "n/a (moves per commit too alike)"))
PY
