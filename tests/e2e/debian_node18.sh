#!/bin/sh
# Builds the web client and runs its Vitest tests on Debian 12's own Node.js 18, the one a plain
# Debian 12 installs, whatever Node.js this machine carries. Used by the ctest "client_node18".
#
# When the machine's node is not 18, Debian's packages (nodejs, libnode108 and the three
# JavaScript packages its node loads from /usr/share/nodejs) are downloaded with apt-get download
# into WORK, unpacked there, and run inside a private mount namespace (unshare -m) where WORK's
# usr/share/nodejs is bind-mounted on /usr/share/nodejs: nothing on the machine is replaced.
# The client's node_modules must already be installed (the ctest fixture "client_build" does it).
#   tests/e2e/debian_node18.sh [WORK]        default WORK: build/debian-node18
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
client=$root/client
script=$root/tests/e2e/debian_node18.sh

# --inside NODE OUT: type-checks, builds into OUT and runs the Vitest tests with NODE, which must
# be a Node.js 18 (this script calls itself so, directly or under unshare).
if [ "${1:-}" = "--inside" ]; then
    node=$2
    version=$("$node" --version)
    echo "node18: $version at $node"
    case "$version" in
    v18.*) ;;
    *) echo "node18: expected Node.js 18, got $version" >&2; exit 1 ;;
    esac
    cd "$client"
    "$node" node_modules/typescript/bin/tsc --noEmit
    "$node" node_modules/vite/bin/vite.js build --outDir "$3" --emptyOutDir
    "$node" node_modules/vitest/vitest.mjs run
    exit 0
fi
work=${1:-$root/build/debian-node18}
packages="nodejs libnode108 node-acorn node-cjs-module-lexer node-undici"

if [ ! -d "$client/node_modules/vite" ]; then
    echo "node18: $client/node_modules is not installed (run client/build.sh first)" >&2
    exit 1
fi

mkdir -p "$work"
work=$(cd "$work" && pwd)
out=$work/dist

case "$(node --version 2>/dev/null || true)" in
v18.*) exec sh "$script" --inside "$(command -v node)" "$out" ;;
esac

# The newest Debian 18.x of nodejs (a third-party package of another major may be installed).
debs=$work/debs
mkdir -p "$debs"
pick_version() { apt-cache madison nodejs | awk '$3 ~ /^18\./ { print $3; exit }'; }
version=$(pick_version)
if [ -z "$version" ]; then
    apt-get update -qq
    version=$(pick_version)
fi
if [ -z "$version" ]; then
    echo "node18: apt has no Debian nodejs 18.x (is this Debian 12?)" >&2
    exit 1
fi
if [ ! -f "$debs/.complete-$version" ]; then
    rm -f "$debs"/*.deb
    (
        cd "$debs"
        set -- "nodejs=$version"
        for p in $packages; do [ "$p" = nodejs ] || set -- "$@" "$p"; done
        apt-get download -qq "$@" 2>/dev/null || { apt-get update -qq && apt-get download -qq "$@"; }
    )
    rm -rf "$work/root"
    mkdir -p "$work/root"
    for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$work/root"; done
    touch "$debs/.complete-$version"
fi

libdir=$work/root/usr/lib/x86_64-linux-gnu
node=$work/root/usr/bin/node
missing=$(LD_LIBRARY_PATH=$libdir ldd "$node" | awk '/not found/ { print $1 }')
if [ -n "$missing" ]; then
    echo "node18: Debian's node needs libraries this machine lacks: $missing" >&2
    exit 1
fi

# /usr/share/nodejs must exist to be mounted over; Debian's nodejs package creates it.
[ -d /usr/share/nodejs ] || mkdir -p /usr/share/nodejs
exec unshare -m sh -c '
    mount --bind "$1/root/usr/share/nodejs" /usr/share/nodejs &&
    LD_LIBRARY_PATH="$2" exec sh "$3" --inside "$4" "$5"
' unshare-node18 "$work" "$libdir" "$script" "$node" "$out"
