#!/usr/bin/env bash
# Instructions per `rnea(arm7)` call with the argument checks on and compiled out (-DTREEDYN_DISABLE_CHECKS).
# Needs g++, Eigen and valgrind (apt-get install valgrind). AVX2 code (-march=x86-64-v3): valgrind does
# not decode AVX-512. Usage: experiments/check_cost/measure.sh [iterations]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
n="${1:-20000}"
out="$(mktemp -d)"
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : //p'; }
for mode in on off; do
  flag=""; [ "$mode" = off ] && flag=-DTREEDYN_DISABLE_CHECKS
  g++ -std=c++17 -O3 -march=x86-64-v3 -DNDEBUG $flag -I"$root/include" -I/usr/include/eigen3 \
    "$here/rnea_loop.cpp" -o "$out/rnea_$mode"
  base=$(count "$out/rnea_$mode" 0)
  total=$(count "$out/rnea_$mode" "$n")
  echo "checks $mode: $(( (total - base) / n )) instructions per call"
done
rm -rf "$out"
