"""Per-call cost of the Python bindings: aba on arm7 called from Python, against the same aba looped in C++
(aba_batch over n states, threads=1: the C++ cost per call without the binding). The difference is the
binding's per-call overhead (argument checks, GIL release, lock, result array).

Run from a build tree:  PYTHONPATH=build/ci/python /usr/bin/python3 examples/python/call_overhead.py
Timings on a shared machine are noisy: the script reports the median of several repetitions.
"""
import timeit

import numpy as np

import treedyn


def median_us(stmt, number, repeat=7):
    return float(np.median(timeit.repeat(stmt, number=number, repeat=repeat))) / number * 1e6


def main():
    n = 2000
    for dtype in (np.float64, np.float32):
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
        cpp_loop = median_us(lambda: treedyn.aba_batch(m, Q, V, T, out=QDD), 20) / n
        print(f"aba/arm7/{np.dtype(dtype).name}: Python call {python_call:.2f} us, with out= {python_out:.2f} us, "
              f"C++ loop {cpp_loop:.2f} us per state -> overhead {python_call - cpp_loop:.2f} us "
              f"({python_out - cpp_loop:.2f} us with out=)")


if __name__ == "__main__":
    main()
