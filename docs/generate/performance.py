#!/usr/bin/env python3
"""Regenerate the "at a glance" table of docs/performance.md from one run of the Google Benchmark programs.

Usage (from the repository root, on an idle machine, after `cmake --preset bench && cmake --build --preset bench`):
    bash benchmarks/tables/run.sh                       # one run: JSON files in build/bench/tables/
    python3 docs/generate/performance.py build/bench/tables/*.json [--build "bench preset, g++ 12.2 -march=native -O3"]

A shorter run for a quick look (fewer kernels, shorter timing) works too; the table then lists what it measured:
    ./build/bench/benchmarks/bench_dynamics --benchmark_filter='/(humanoid30|arm7)/' --benchmark_min_time=0.05 \\
        --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \\
        --benchmark_out=build/bench/dynamics.json --benchmark_out_format=json

It rewrites what lies between GENERATED_BEGIN and GENERATED_END in docs/performance.md: a line saying which run
it came from (commit, machine, build, the run's date and load average), then per kernel and model the median CPU
ns in double and in float and their ratio. The peers' figures side by side (issue 40) go between the markers
PEERS_BEGIN and PEERS_END, which this script leaves alone. Measurement history lives in git
(`git log -p docs/performance.md`), not in prose. Standard library only; medians() is benchmarks/tables/tables.py's.
"""
import argparse
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1] / "benchmarks" / "tables"))
from common import provenance, replace_between  # noqa: E402
from tables import fmt, medians  # noqa: E402

PAGE = HERE.parent / "performance.md"
BEGIN = "<!-- GENERATED_BEGIN by docs/generate/performance.py: do not edit by hand -->"
END = "<!-- GENERATED_END -->"


def render(m, context, build):
    load = context.get("load_avg") or []
    run = f"{context.get('date', 'date unknown')}, load average {', '.join(f'{x:.2f}' for x in load) or 'unknown'}"
    where = None
    if context.get("num_cpus"):
        where = f"{context.get('host_name', 'a machine')}: {context['num_cpus']} CPUs at {context.get('mhz_per_cpu', '?')} MHz"
    lines = [f"Generated from one benchmark run: {provenance(build, run, where)}. CPU ns per call, median of the repetitions.",
             "", "| kernel | model | double ns | float ns | double ÷ float |", "| --- | --- | ---: | ---: | ---: |"]
    pairs = []
    for kernel, model, _scalar in m:
        if (kernel, model) not in pairs:
            pairs.append((kernel, model))
    for kernel, model in pairs:
        d, f = m.get((kernel, model, "double")), m.get((kernel, model, "float"))
        ratio = f"{d / f:.2f}" if d and f else ""
        lines.append(f"| {kernel} | {model} | {fmt(d) if d else ''} | {fmt(f) if f else ''} | {ratio} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", nargs="+", help="Google Benchmark JSON files of one run")
    parser.add_argument("--build", default="bench preset (-march=native -O3)", help="how the benchmarks were built")
    args = parser.parse_args()
    m, context = medians(args.json)
    if not m:
        sys.exit("performance.py: no kernel/model/scalar benchmarks in the JSON files")
    replace_between(PAGE, BEGIN, END, render(m, context, args.build))
    print(f"performance.py: {len(m)} measurements written to {PAGE}")


if __name__ == "__main__":
    main()
