#!/usr/bin/env bash
# A throw-away PostgreSQL for tests: a cluster made with initdb in a temporary directory,
# started with pg_ctl on a free port, listening on 127.0.0.1 only (and a Unix socket in the
# directory), owned by an unprivileged user (PostgreSQL refuses to run as root: as root the
# cluster runs as the "postgres" system user when there is one, else as "nobody").
#
#   pg_cluster.sh run CMD ARGS...  starts a cluster, runs CMD with CHESS_TEST_DATABASE set to
#                                  its URL (a database "chess" owned by user "chess"), then
#                                  stops and removes it; exits with CMD's status
#   pg_cluster.sh start DIR        starts a cluster in the new directory DIR; prints its URL
#   pg_cluster.sh restart DIR      restarts it (a fast shutdown: every session ends; what is
#                                  committed stays), on the same port
#   pg_cluster.sh halt DIR         stops it (a fast shutdown), keeping DIR
#   pg_cluster.sh resume DIR       starts a halted cluster again, on the same port
#   pg_cluster.sh stop DIR         stops it and removes DIR
#
# CHESS_PG_OPTIONS adds server settings ("-c name=value ..."), e.g. for benchmarks.
# CHESS_PG_NETNS and CHESS_PG_LISTEN put the server on a test's host (tests/integration/hosts.py):
# started inside that network namespace, listening on that address (instead of 127.0.0.1), and
# accepting the chess role from CHESS_PG_CLIENTS (the test's own /24) too.
# Exits 77 (ctest's "skipped") with a message when PostgreSQL's binaries are missing.
set -euo pipefail

bindir=${CHESS_PG_BINDIR:-/usr/lib/postgresql/15/bin}
if [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ] || ! command -v psql >/dev/null; then
    echo "pg_cluster: PostgreSQL binaries missing ($bindir/initdb, pg_ctl, psql): skipped" \
        "(scripts/setup.sh test installs postgresql-15)" >&2
    exit 77
fi

listen=${CHESS_PG_LISTEN:-127.0.0.1}

# Runs a command as the cluster's owner (in the test host's namespace, if one was given).
as_owner() {
    local wrap=()
    if [ -n "${CHESS_PG_NETNS:-}" ]; then wrap=(ip netns exec "$CHESS_PG_NETNS"); fi
    if [ "$(id -u)" -eq 0 ]; then
        local user=nobody
        if id postgres >/dev/null 2>&1; then user=postgres; fi
        "${wrap[@]}" runuser -u "$user" -- "$@"
    else
        "${wrap[@]}" "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    local dir=$1
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then
        local user=nobody
        if id postgres >/dev/null 2>&1; then user=postgres; fi
        chown "$user" "$dir"
    fi
    chmod 0700 "$dir"
    as_owner "$bindir/initdb" -D "$dir/data" -A trust -U postgres --no-sync -E UTF8 \
        --locale=C >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; return 1; }
    if [ -n "${CHESS_PG_CLIENTS:-}" ]; then
        echo "host chess chess ${CHESS_PG_CLIENTS} trust" >>"$dir/data/pg_hba.conf"
    fi
    local port
    for attempt in 1 2 3 4 5; do
        port=$(free_port)
        if as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-c listen_addresses=$listen -c port=$port -c unix_socket_directories=$dir \
                -c max_connections=200 -c fsync=on -c synchronous_commit=on \
                ${CHESS_PG_OPTIONS:-}" \
            start >/dev/null 2>&1; then
            break
        fi
        port=""
    done
    if [ -z "$port" ]; then
        cat "$dir/server.log" >&2
        return 1
    fi
    echo "$port" >"$dir/port"
    as_owner psql -q -h "$dir" -p "$port" -U postgres -d postgres \
        -c "CREATE ROLE chess LOGIN" -c "CREATE DATABASE chess OWNER chess" >/dev/null
    echo "postgresql://chess@$listen:$port/chess"
}

restart() {
    local dir=$1
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart \
        >/dev/null 2>&1 || { tail -20 "$dir/server.log" >&2; return 1; }
}

halt() {
    as_owner "$bindir/pg_ctl" -D "$1/data" -m fast -w -t 60 stop >/dev/null 2>&1 ||
        { tail -20 "$1/server.log" >&2; return 1; }
}

resume() {
    local dir=$1
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=$listen -c port=$(cat "$dir/port") \
            -c unix_socket_directories=$dir -c max_connections=200 ${CHESS_PG_OPTIONS:-}" \
        start >/dev/null 2>&1 || { tail -20 "$dir/server.log" >&2; return 1; }
}

stop() {
    local dir=$1
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
}

case "${1:-}" in
    start) start "$2" ;;
    stop) stop "$2" ;;
    restart) restart "$2" ;;
    halt) halt "$2" ;;
    resume) resume "$2" ;;
    run)
        shift
        dir=$(mktemp -d /tmp/chess-pg-XXXXXX)
        # mktemp's directory is the owner's to enter: the cluster lives one level down.
        chmod 0755 "$dir"
        trap 'stop "$dir/pg"; rm -rf "$dir"' EXIT
        url=$(start "$dir/pg")
        rc=0
        CHESS_TEST_DATABASE=$url "$@" || rc=$?
        exit $rc
        ;;
    *)
        echo "usage: pg_cluster.sh run CMD... | start DIR | restart DIR | halt DIR |" \
            "resume DIR | stop DIR" >&2
        exit 2
        ;;
esac
