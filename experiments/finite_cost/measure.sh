#!/usr/bin/env bash
# Instructions per call of rnea, bias, crba, aba and forward_dynamics_crba on humanoid30 (float and double), built
# against two include trees: the one before the finite-input checks and this tree. Needs g++, Eigen and
# valgrind. Usage: [KERNELS="rnea aba"] experiments/finite_cost/measure.sh <include dir before> [iterations]
# (e.g. a `git archive` of the parent commit unpacked in /tmp).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
before="$1"; n="${2:-2000}"
out="$(mktemp -d)"
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : //p'; }
kernels="${KERNELS:-rnea bias crba aba fd_crba}"
for side in before after; do
  inc="$here/../../include"; [ "$side" = before ] && inc="$before"
  for kernel in $kernels; do
    g++ -std=c++17 -O3 -march=x86-64-v3 -DNDEBUG -DKERNEL_$kernel -I"$inc" -I/usr/include/eigen3 "$here/loop.cpp" \
      -o "$out/$side-$kernel"
  done
done
for scalar in double float; do
  for kernel in $kernels; do
    line="$kernel/$scalar:"
    for side in before after; do
      base=$(count "$out/$side-$kernel" "$scalar" 0)
      total=$(count "$out/$side-$kernel" "$scalar" "$n")
      line="$line $side $(( (total - base) / n ))"
    done
    echo "$line"
  done
done
rm -rf "$out"
