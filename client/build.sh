#!/bin/sh
# Installs the web client's packages when needed (npm ci, when package-lock.json is newer than
# the last install) and builds it into client/dist, which the server serves.
# Used by the CMake target "client" and the ctest fixture "client_build".
set -eu
cd "$(dirname "$0")"
if ! command -v npm >/dev/null 2>&1; then
    echo "client: npm is missing (scripts/setup.sh installs Node.js and npm)" >&2
    exit 1
fi
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
fi
npm run build
