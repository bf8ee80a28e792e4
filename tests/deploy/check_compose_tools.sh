#!/bin/sh
# docker-compose.yml as Debian 12's own compose tools read it (docs/self-hosting.md):
#   - docker-compose 1.29 (`docker-compose config`): the file must be valid for it (it refuses a
#     top-level `name:`, which Compose v2 accepts), and PostgreSQL's volume must be `chess-pg`;
#   - podman-compose 1.0.3, which has no `config` command: `--dry-run up` prints the podman
#     commands it would run; PostgreSQL must mount the volume `chess-pg`, the nodes must get the
#     database's URL with its password filled in, and all must carry their healthchecks on the
#     command line (podman drops a Dockerfile's HEALTHCHECK from images it
#     builds in its own format). Its dry run still inspects and creates the volume, so podman
#     runs here on a storage of its own in a temporary directory, never the machine's.
# A tool that is not installed is skipped with a message and the exit status 77 (ctest reports the
# test as skipped); scripts/setup.sh test installs both.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
file=$root/docker-compose.yml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
skipped=0
problem() { echo "compose: $*" >&2; fail=1; }

if command -v docker-compose >/dev/null 2>&1; then
    if docker-compose -f "$file" --project-directory "$root" config >"$tmp/dc.yml" 2>"$tmp/dc.err"; then
        grep -q "name: chess-pg" "$tmp/dc.yml" ||
            problem "docker-compose $(docker-compose version --short): the volume is not named chess-pg"
        echo "docker-compose $(docker-compose version --short): config ok"
    else
        problem "docker-compose refuses the file: $(cat "$tmp/dc.err")"
    fi
else
    echo "compose: docker-compose not installed, skipped"
    skipped=1
fi

if command -v podman-compose >/dev/null 2>&1 && command -v podman >/dev/null 2>&1; then
    cat >"$tmp/storage.conf" <<CONF
[storage]
driver = "vfs"
graphroot = "$tmp/graph"
runroot = "$tmp/run"
CONF
    if (cd "$root" && CONTAINERS_STORAGE_CONF=$tmp/storage.conf podman-compose --dry-run \
            -f "$file" up -d) >"$tmp/pc.out" 2>&1; then
        line=$(grep -- "--network-alias postgres " "$tmp/pc.out" || true)
        echo "$line" | grep -q -- "-v chess-pg:/var/lib/postgresql/data" ||
            problem "podman-compose: postgres does not mount the volume chess-pg"
        for node in node1 node2 node3; do
            line=$(grep -- "--network-alias $node " "$tmp/pc.out" || true)
            [ -n "$line" ] || { problem "podman-compose: no podman run for $node"; continue; }
            echo "$line" | grep -q -- "CHESS_DATABASE=postgresql://chess:chess@postgres:5432/chess" ||
                problem "podman-compose: $node does not get the database's URL"
            echo "$line" | grep -q -- "--healthcheck-command" ||
                problem "podman-compose: $node has no healthcheck"
        done
        grep -- "--network-alias front " "$tmp/pc.out" | grep -q -- "--healthcheck-command" ||
            problem "podman-compose: the front has no healthcheck"
        echo "podman-compose: dry run ok"
    else
        problem "podman-compose refuses the file: $(tail -5 "$tmp/pc.out")"
    fi
else
    echo "compose: podman-compose or podman not installed, skipped"
    skipped=1
fi
[ "$fail" = 0 ] || exit 1
[ "$skipped" = 0 ] || exit 77
exit 0
