#!/usr/bin/env bash
# Installs what the project needs on Debian 12, skipping what is already there.
#   scripts/setup.sh run    packages to build and run the server
#   scripts/setup.sh test   also what the tests and benchmarks use
set -euo pipefail

mode=${1:-run}
run_packages=(build-essential cmake pkg-config git
    libwebsockets-dev libwebsockets-evlib-uv libjansson-dev libsqlite3-dev libhiredis-dev
    libuv1-dev libsodium-dev libpq-dev scid-data)
test_packages=(clang-format stockfish redis-server python3 python3-websockets chromium sqlite3
    python3-yaml nginx openssl xz-utils docker-compose podman-compose podman clang
    libclang-rt-14-dev postgresql-15 postgresql-client-15)

packages=("${run_packages[@]}")
if [ "$mode" = test ]; then packages+=("${test_packages[@]}"); fi
# Node.js builds the web client: Debian's own nodejs 18 and npm are enough. Some machines carry a
# newer Node.js package of their own that bundles npm (and conflicts with Debian's npm): use
# whatever node and npm are already there.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
    echo "setup: all Debian packages present"
fi
