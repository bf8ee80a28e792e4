#!/usr/bin/env bash
# Sets up everything and runs every test: unit tests under ASan+UBSan, the fuzzers for a bounded
# time (scripts/fuzz.sh), the integration tests of the HTTP API, pools, games and settings
# against the ASan server, then all tests (unit, perft suites, integration) on the optimised
# build. Prints ctest's summary for each.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test

echo "== format check"
git ls-files '*.c' '*.h' | xargs clang-format --dry-run -Werror

echo "== unit tests under AddressSanitizer + UndefinedBehaviorSanitizer"
scripts/build.sh asan
ctest --test-dir build/asan -L unit --output-on-failure -j "$(nproc)"

echo "== fuzzing: libFuzzer targets for a bounded time, then the live server under ASan"
scripts/fuzz.sh

echo "== the HTTP API's, the pools', the games', the settings', the variants' and the game analysis' integration tests against the server built with ASan"
# Each test stops its server with SIGTERM and requires exit status 0: no leak, no memory error
# on any path they take (refusals included).
for t in http_api api_tokens pools games settings variants; do
    /usr/bin/python3 "tests/integration/test_$t.py" --server build/asan/server/chess_server
done
# The game analysis's paths but its long restart test (the engine is slow under ASan).
for k in blunder refusals; do
    /usr/bin/python3 tests/integration/test_game_analysis.py -k "$k" \
        --server build/asan/server/chess_server
done

echo "== all tests, release build"
scripts/build.sh release
# Twice as many tests as cores: most integration tests wait on clocks and sockets (a whole run
# keeps the cores a third busy); those that keep a core busy count as two slots (PROCESSORS 2 in
# their CMakeLists.txt).
ctest --test-dir build/release --output-on-failure -j "$(($(nproc) * 2))"
