#!/usr/bin/env bash
# One sitting of the benchmarks the tables of docs/performance.md#performance-at-a-glance quote: every program of the
# `bench` preset that those tables read, one after another (never two at once), each writing its JSON into
# OUT; then tables.py turns the JSON into the tables. A measurement, not a test. Usage:
#   bash benchmarks/tables/run.sh [build-dir (default build/bench)] [out-dir (default build/bench/tables)]
# Run it on an idle machine: docs/performance.md's figures come from one such run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:-$root/build/bench}"
out="${2:-$build/tables}"
mkdir -p "$out"
reps=(--benchmark_repetitions=5 --benchmark_report_aggregates_only=true --benchmark_min_time=0.1)
run() {  # program, filter
  "$build/benchmarks/$1" --benchmark_filter="$2" "${reps[@]}" \
    --benchmark_out="$out/$1.json" --benchmark_out_format=json > /dev/null
  echo "ran $1"
}
uptime
run bench_dynamics '.'
run bench_factorization '/(humanoid30|chain30)/'
run bench_minverse '/(humanoid30|chain30|tree7|tree40)/'
run bench_oscm '/humanoid30-'
run bench_batch '.'
uptime
python3 "$here/tables.py" "$out"/*.json
