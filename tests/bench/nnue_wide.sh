#!/usr/bin/env bash
# Makes a build whose network has WIDTH hidden neurons per perspective (default 512), with the
# built-in network grown to that width (nnue_shape.sh, which checks that it searches alike).
#
#   tests/bench/nnue_wide.sh [WIDTH=512]
#
# Environment: BUILD (build/release, for the comparison), DIR (build/nnueWIDTH).
width=${1:-512}
DIR=${DIR:-build/nnue$width} exec "$(dirname "$0")/nnue_shape.sh" "$width" 1
