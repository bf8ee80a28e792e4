#!/usr/bin/env bash
# Sets up everything, builds the server and the web client, and starts the server on
# http://localhost:8080 with its SQLite database in ./data. Arguments go to the server
# (see build/release/server/chess_server --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh run
scripts/build.sh release
cmake --build build/release --target client
exec build/release/server/chess_server "$@"
