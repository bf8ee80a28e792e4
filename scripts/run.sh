#!/usr/bin/env bash
# Sets up everything, builds the release binaries and starts the main program.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh run
scripts/build.sh release
exec build/release/engine/uci "$@"
