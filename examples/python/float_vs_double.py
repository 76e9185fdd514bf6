"""float32 against float64 for each forward-dynamics route (CRBA + LTDL, ABA, modified ABA), plotted against
the condition number kappa(H).

Models: Ascher, Pai & Cloutier's (1996) Example 1 chain with Table 1's parameters (treedyn.robots.two_link:
two uniform planar links with l1 + l2 = 1 m, m1 + m2 = 1 kg, l_k = m_k, width 0.1 m; the base link's length
and mass r shrink from 0.1 to 1e-4, so kappa(H) grows from about 1e2 to 1e8), and the URDF robots of
examples/robots, each at two random states. The float32 model is the float64 one cast once; the reference is
float64 on the float64 copy of that rounded model, so only the arithmetic differs.

Error metric: the relative error of qdd in the energy norm, ||dqdd||_H / ||qdd||_H, the metric of the C++
accuracy suite (tests/accuracy): it weighs each DoF by its inertia, so the light link's error is not hidden
by the heavy one's (a max-norm relative error would be). On this family the CRBA + LTDL route's error grows
like eps32 * kappa(H); ABA and the modified ABA stay far below it (the paper's formulation stiffness).

Run from a build tree (matplotlib optional: without it the table is printed only):
    PYTHONPATH=build/ci/python /usr/bin/python3 examples/python/float_vs_double.py [out.png]
"""
import os
import sys

import numpy as np

import treedyn

ROUTES = {"CRBA+LTDL": treedyn.forward_dynamics_crba, "ABA": treedyn.aba, "modified ABA": treedyn.modified_aba}
HERE = os.path.dirname(os.path.abspath(__file__))


def models():
    for r in (0.1, 0.05, 0.01, 0.005, 0.002, 0.001, 5e-4, 2e-4, 1e-4):
        yield f"table1 r={r:g}", treedyn.robots.two_link(1.0 - r, 1.0 - r, r, r, 0.1, dtype=np.float32)
    for name in ("arm7", "puma560", "chain30", "humanoid30", "quadruped12"):
        path = os.path.join(HERE, "..", "robots", name + ".urdf")
        if treedyn.has_urdf and os.path.exists(path):
            floating = name in ("humanoid30", "quadruped12")
            yield name, treedyn.load_urdf(path, floating_base=floating, dtype=np.float32)[0]


def energy_norm(H, x):
    return np.sqrt(x @ H @ x)


def errors(m32, states=2):
    """kappa(H) and, per route, the worst energy-norm relative error of qdd over `states` random states."""
    m64 = m32.cast(np.float64)
    rng = np.random.default_rng(4)
    out = {route: 0.0 for route in ROUTES}
    kappa = 0.0
    for s in range(states):
        q32 = treedyn.random_configuration(m32, 4 + s)
        v32 = rng.uniform(-1, 1, m32.nv).astype(np.float32)
        t32 = rng.uniform(-1, 1, m32.nv).astype(np.float32)
        q, v, t = (x.astype(np.float64) for x in (q32, v32, t32))
        H = treedyn.crba(m64, q)
        ref = np.linalg.solve(H, t - treedyn.bias(m64, q, v))
        kappa = max(kappa, np.linalg.cond(H))
        for route, fd in ROUTES.items():
            qdd = fd(m32, q32, v32, t32).astype(np.float64)
            out[route] = max(out[route], energy_norm(H, qdd - ref) / energy_norm(H, ref))
    return kappa, out


def main():
    rows = [(name, *errors(m)) for name, m in models()]
    print(f"{'model':18s} {'kappa(H)':>10s} " + " ".join(f"{r:>13s}" for r in ROUTES))
    for name, kappa, err in rows:
        print(f"{name:18s} {kappa:10.3g} " + " ".join(f"{err[r]:13.3g}" for r in ROUTES))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no plot")
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    kappas = np.array([k for _, k, _ in rows])
    for marker, route in zip("os^", ROUTES):
        ax.loglog(kappas, [max(e[route], 1e-9) for _, _, e in rows], marker, label=route, alpha=0.7)
    grid = np.logspace(0, np.log10(kappas.max()) + 0.5, 50)
    ax.loglog(grid, np.finfo(np.float32).eps * grid, "k--", label="eps32 * kappa")
    ax.set_xlabel("kappa(H)")
    ax.set_ylabel("float32 error of qdd, energy norm")
    ax.legend()
    fig.tight_layout()
    path = sys.argv[1] if len(sys.argv) > 1 else "float_vs_double.png"
    fig.savefig(path, dpi=120)
    print("wrote", path)


if __name__ == "__main__":
    main()
