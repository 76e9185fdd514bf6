#!/usr/bin/env bash
# Instructions per call of rnea, crba, aba and forward_dynamics_crba on humanoid30 (float and double), built
# against two include trees: the one before the finite-input checks and this tree. Needs g++, Eigen and
# valgrind. Usage: experiments/finite_cost/measure.sh <include dir before> [iterations]
# (e.g. a `git archive` of the parent commit unpacked in /tmp).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
before="$1"; n="${2:-2000}"
out="$(mktemp -d)"
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : //p'; }
for side in before after; do
  inc="$here/../../include"; [ "$side" = before ] && inc="$before"
  g++ -std=c++17 -O3 -march=x86-64-v3 -DNDEBUG -I"$inc" -I/usr/include/eigen3 "$here/loop.cpp" -o "$out/$side"
done
for scalar in double float; do
  for kernel in rnea crba aba fd_crba; do
    line="$kernel/$scalar:"
    for side in before after; do
      base=$(count "$out/$side" "$kernel" "$scalar" 0)
      total=$(count "$out/$side" "$kernel" "$scalar" "$n")
      line="$line $side $(( (total - base) / n ))"
    done
    echo "$line"
  done
done
rm -rf "$out"
