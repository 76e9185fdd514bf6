#!/usr/bin/env python3
"""Markdown tables from one sitting of Google Benchmark JSON files (benchmarks/tables/run.sh writes them).

For every kernel and model: the median CPU time in double and in float and the speed-up double ÷ float; beside
them the peers' figures as docs/performance.md quotes them (measured outside this repository, double), and the ratios
the performance targets are stated in (OSCM ÷ CRBA, the batch's 2-thread scaling, dense LLT ÷ packed LTDL).
Only the standard library: python3 tables.py bench_*.json
"""
import json
import sys
from collections import OrderedDict

# Quoted peer figures (double, ns), measured outside this repository on this machine: Pinocchio 3.7,
# RBDL 3.3.1, MuJoCo 2.2.2 (its factor rebuilt with -march=native), Eigen's dense LLT as the dense contender.
PEERS = {
    ("MinverseABA", "humanoid30"): ("Pinocchio computeMinverse", 7200),
    ("MinverseABA", "chain30"): ("Pinocchio computeMinverse", 9000),
    ("MinverseABA", "tree40"): ("Pinocchio computeMinverse", 11100),
    ("LTDLPacked", "humanoid30"): ("MuJoCo factor", 726),
    ("LTDLPacked", "chain30"): ("MuJoCo factor", 1492),
    ("ABA", "freeflyer"): ("Pinocchio ABA", 518),
    ("RNEA", "humanoid30"): ("RBDL", 1664),
    ("RNEA", "chain30"): ("RBDL", 1719),
    ("RNEA", "arm7"): ("Pinocchio", 1050),
    ("ABA", "humanoid30"): ("RBDL", 6214),
    ("ABA", "chain30"): ("RBDL", 6240),
    ("ABA", "arm7"): ("Pinocchio", 1951),
}

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def medians(paths):
    """{(kernel, model, scalar): median CPU ns} and the context of the first file."""
    out, context = OrderedDict(), None
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        context = context or doc.get("context", {})
        for b in doc["benchmarks"]:
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            parts = b["run_name"].split("/")
            if len(parts) < 3:
                continue
            key = (parts[0], parts[1], parts[2])
            time = b["real_time"] if "real_time" in parts[3:] else b["cpu_time"]
            out[key] = time * TO_NS[b.get("time_unit", "ns")]
    return out, context


def fmt(ns):
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


def table(rows, title):
    print(f"\n{title}\n")
    print("| kernel | model | double ns | float ns | double ÷ float | peer (quoted, double) | ours ÷ peer |")
    print("| --- | --- | ---: | ---: | ---: | --- | ---: |")
    for (kernel, model), (d, f) in rows.items():
        peer = PEERS.get((kernel, model))
        ratio = f"{d / f:.2f}" if d and f else ""
        peer_txt = f"{peer[0]} {fmt(peer[1])}" if peer else ""
        vs = f"{d / peer[1]:.2f}" if peer and d else ""
        print(f"| {kernel} | {model} | {fmt(d) if d else ''} | {fmt(f) if f else ''} | {ratio} | {peer_txt} | {vs} |")


def main(paths):
    m, context = medians(paths)
    print(f"<!-- {context.get('date', '')} · {context.get('compiler', '')} {context.get('cxx_flags', '')} · "
          f"load average {context.get('load_avg', '')} -->")
    by_program = OrderedDict()
    for path in paths:
        with open(path) as f:
            names = [b["run_name"] for b in json.load(f)["benchmarks"]]
        rows = OrderedDict()
        for name in names:
            parts = name.split("/")
            if len(parts) < 3 or parts[2] not in ("double", "float"):
                continue
            k = (parts[0], parts[1])
            if k not in rows:
                rows[k] = (m.get((k[0], k[1], "double")), m.get((k[0], k[1], "float")))
        by_program[path.rsplit("/", 1)[-1].replace(".json", "")] = rows
    for program, rows in by_program.items():
        if rows:
            table(rows, f"`{program}`: median CPU ns per call (batch rows: real time)")
    print("\nRatios the targets are stated in (double unless named):\n")
    for model in ("humanoid30",):
        for scalar in ("double", "float"):
            crba = m.get(("CRBA", model, scalar))
            for frames in ("4frames", "2frames"):
                oscm = m.get(("OSCM", f"{model}-{frames}", scalar))
                if crba and oscm:
                    print(f"- OSCM/{model}-{frames}/{scalar} ÷ CRBA/{model}/{scalar}: {oscm / crba:.2f}")
    one = m.get(("ABA", "humanoid30-batch1024-threads1", "double"))
    two = m.get(("ABA", "humanoid30-batch1024-threads2", "double"))
    if one and two:
        print(f"- ABA/humanoid30-batch1024: 2-thread throughput ÷ 1-thread: {one / two:.2f}")
    for model in ("humanoid30", "chain30"):
        llt, packed = m.get(("DenseLLT", model, "double")), m.get(("LTDLPacked", model, "double"))
        if llt and packed:
            print(f"- DenseLLT/{model} ÷ LTDLPacked/{model} (double): {llt / packed:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
