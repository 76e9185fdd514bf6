"""Per-call cost of the Python bindings: aba on arm7 called from Python (float64 and float32) against the
C++ cost of the same aba. The difference is the binding's per-call overhead (argument checks, dispatch on
the model's type, GIL release, lock, result array).

The C++ figure comes from, in order of preference:
  --cpp-json FILE   a Google Benchmark JSON file of benchmarks/bench_dynamics with ABA/arm7/double and
                    ABA/arm7/float (their median when run with repetitions, else the single run), e.g.
                    build/bench/benchmarks/bench_dynamics --benchmark_filter='^ABA/arm7/' \\
                        --benchmark_repetitions=5 --benchmark_out=aba.json --benchmark_out_format=json
  --cpp-ns D F      the per-call times in ns of ABA/arm7/double (D) and ABA/arm7/float (F)
  (neither)         aba_batch over n states on one thread: the same aba looped in C++ from Python.

Run from a build tree:  PYTHONPATH=build/ci/python /usr/bin/python3 examples/python/call_overhead.py [...]
Timings on a shared machine are noisy: the script reports the median of several repetitions, and the
Python module and the benchmark should be built with the same optimisation (the ci preset's -O2 against the
bench preset's flags is a difference to keep in mind).
"""
import argparse
import json
import timeit

import numpy as np

import treedyn

SCALARS = {"float64": "double", "float32": "float"}


def median_us(stmt, number, repeat=7):
    return float(np.median(timeit.repeat(stmt, number=number, repeat=repeat))) / number * 1e6


def cpp_from_json(path):
    """{"double": us, "float": us} from a Google Benchmark JSON file: ABA/arm7/<scalar>, median preferred."""
    with open(path) as f:
        runs = json.load(f)["benchmarks"]
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
    found = {}
    for r in runs:
        name = r.get("run_name", r["name"])
        for scalar in SCALARS.values():
            if name != f"ABA/arm7/{scalar}":
                continue
            aggregate = r.get("aggregate_name")
            if aggregate == "median" or (aggregate is None and scalar not in found):
                found[scalar] = r["real_time"] * scale[r.get("time_unit", "ns")]
    missing = [s for s in SCALARS.values() if s not in found]
    if missing:
        raise SystemExit(f"{path}: no ABA/arm7/{missing[0]} run in the file")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--cpp-json", metavar="FILE", help="Google Benchmark JSON output with ABA/arm7/{double,float}")
    source.add_argument("--cpp-ns", metavar=("DOUBLE", "FLOAT"), nargs=2, type=float,
                        help="C++ ns per call of ABA/arm7/double and ABA/arm7/float")
    args = parser.parse_args()
    cpp = None
    if args.cpp_json:
        cpp = cpp_from_json(args.cpp_json)
    elif args.cpp_ns:
        cpp = {"double": args.cpp_ns[0] * 1e-3, "float": args.cpp_ns[1] * 1e-3}

    n = 2000
    for dtype in (np.float64, np.float32):
        name = np.dtype(dtype).name
        m = treedyn.robots.arm7(dtype)
        rng = np.random.default_rng(1)
        Q = np.stack([treedyn.random_configuration(m, s) for s in range(n)])
        V = rng.uniform(-1, 1, (n, m.nv)).astype(dtype)
        T = rng.uniform(-5, 5, (n, m.nv)).astype(dtype)
        q, v, tau = Q[0], V[0], T[0]
        out = np.empty(m.nv, dtype)
        QDD = np.empty((n, m.nv), dtype)
        python_call = median_us(lambda: treedyn.aba(m, q, v, tau), 20000)
        python_out = median_us(lambda: treedyn.aba(m, q, v, tau, out=out), 20000)
        if cpp is None:
            reference = median_us(lambda: treedyn.aba_batch(m, Q, V, T, out=QDD), 20) / n
            what = "C++ loop (aba_batch)"
        else:
            reference = cpp[SCALARS[name]]
            what = f"C++ ABA/arm7/{SCALARS[name]}"
        print(f"aba/arm7/{name}: Python call {python_call:.2f} us, with out= {python_out:.2f} us, "
              f"{what} {reference:.2f} us per call -> overhead {python_call - reference:.2f} us "
              f"({python_out - reference:.2f} us with out=)")


if __name__ == "__main__":
    main()
