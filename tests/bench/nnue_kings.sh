#!/usr/bin/env bash
# Makes a build whose network has four king buckets, with the built-in network copied into
# every bucket (nnue_shape.sh, which checks that it searches alike). That build's nnue_train
# --init and EvalFile also take any network without king buckets this way.
#
#   tests/bench/nnue_kings.sh
#
# Environment: BUILD (build/release, for the comparison), DIR (build/nnuekings).
DIR=${DIR:-build/nnuekings} exec "$(dirname "$0")/nnue_shape.sh" 256 4
