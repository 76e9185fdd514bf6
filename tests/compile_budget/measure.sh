#!/usr/bin/env bash
# The compile-time budget's report: CPU time and peak memory of compiling tests/compile_budget/core_tu.cpp
# (the umbrella header plus rnea, crba, forward_dynamics_crba, aba, modified_aba, minverse_ltdl,
# minverse_aba, frame_jacobian and oscm, each for float and double, on a model passed in) at -O2, as
# docs/cmake.md#compile-cost states, then each scalar's half alone (core_tu.cpp built with TREEDYN_BUDGET_SCALAR), and
# beside them core_model.cpp (building the humanoid and casting it to float).
# A measurement, not a test: it prints figures and never fails on them. Usage:
#   bash tests/compile_budget/measure.sh [c++-compiler] [extra flags…]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cxx="${1:-g++}"
shift || true
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
eigen="$(pkg-config --cflags eigen3 2>/dev/null || echo -I/usr/include/eigen3)"
measure() {
  /usr/bin/time -f '%U %S %M' -o "$out/time" \
    "$cxx" -std=c++17 -O2 $eigen -I "$root/include" "${@:3}" -c "$here/$1.cpp" -o "$out/$1.o"
  read -r user sys rss < "$out/time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
  mem=$(awk -v k="$rss" 'BEGIN { printf "%.2f", k / 1048576 }')
  echo "$2 ($cxx -O2 ${*:3}): ${cpu} s CPU, ${mem} GB peak"
}
measure core_tu "core TU, budget 30 s and 1.5 GB" "$@"
measure core_tu "  with treedyn/compiled.hpp (its algorithms linked from treedyn::compiled)" -DTREEDYN_BUDGET_COMPILED "$@"
measure core_tu "  its double half alone (not in the budget)" -DTREEDYN_BUDGET_SCALAR=double "$@"
measure core_tu "  its float half alone (not in the budget)" -DTREEDYN_BUDGET_SCALAR=float "$@"
measure core_model "model building (not in the budget)" "$@"
