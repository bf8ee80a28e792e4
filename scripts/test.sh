#!/usr/bin/env bash
# Sets up everything and runs every test: unit tests under ASan+UBSan, the fuzzers for a bounded
# time (scripts/fuzz.sh), then all tests (unit, perft suites, integration) on the optimised
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

echo "== all tests, release build"
scripts/build.sh release
ctest --test-dir build/release --output-on-failure -j "$(nproc)"
