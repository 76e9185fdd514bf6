#!/usr/bin/env bash
# treedyn beside its peers in one run (issue 40): configure and build bench_peers in its own build directory,
# run it pinned to one core with repetitions interleaved at random, and print the table of table.py (treedyn ÷
# the fastest peer per kernel, float ÷ double per library, the canary's spread, the load average).
# A measurement, not a test; never part of CI. Usage:
#   bash benchmarks/peers/run.sh [--docs] [--loaded]   # --docs: also rewrite the PEERS block of docs/performance.md;
#                                                      # --loaded: label the run as on a loaded machine
# Environment: TREEDYN_PEERS_DIR (default <repo>/../shared/peers), BUILD (default <repo>/build-peers),
# REPS (default 5), MIN_TIME (seconds per repetition, default 0.1), CPU (default 1), FILTER (default '.').
# The build runs with -j1: a Pinocchio unit takes ~10 CPU-minutes and ~5 GB at -O3 (one unit per scalar).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
peers="${TREEDYN_PEERS_DIR:-$root/../shared/peers}"
build="${BUILD:-$root/build-peers}"
launcher=()
if command -v ccache > /dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="-O3 -march=native -DNDEBUG" \
  "${launcher[@]}" -DTREEDYN_BENCH_PEERS=ON -DTREEDYN_PEERS_DIR="$peers" \
  -DTREEDYN_BUILD_TESTS=OFF -DTREEDYN_BUILD_EXAMPLES=OFF -DTREEDYN_BUILD_BENCHMARKS=OFF \
  -DTREEDYN_BUILD_PYTHON=OFF -DTREEDYN_BUILD_COMPILED=OFF > /dev/null
cmake --build "$build" --target bench_peers -j1
out="$build/bench_peers.json"
before="$(cut -d' ' -f1-3 /proc/loadavg)"
taskset -c "${CPU:-1}" "$build/benchmarks/peers/bench_peers" --benchmark_filter="${FILTER:-.}" \
  --benchmark_repetitions="${REPS:-5}" --benchmark_enable_random_interleaving=true \
  --benchmark_min_time="${MIN_TIME:-0.1}" --benchmark_out="$out" --benchmark_out_format=json > "$build/bench_peers.txt"
after="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "bench_peers: JSON in $out, console output in $build/bench_peers.txt"
python3 "$here/table.py" "$out" --load "$before before, $after after" "$@"
