"""float32 against float64 for each forward-dynamics route (CRBA + LTDL, ABA, modified ABA), plotted against
the condition number kappa(H).

Models: seed 004's Example 1 style chain (treedyn.robots.collinear_masses: two point masses on collinear
prismatic joints, kappa(H) growing as m_base / m_tip) for m_tip from 1 to 1e-6, and the URDF robots of
examples/robots at a random state. The float32 model is the float64 one cast once; the reference is float64
on the float64 copy of that rounded model, so only the arithmetic differs.

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
    for k in range(0, 7):
        yield f"collinear 1e-{k}", treedyn.robots.collinear_masses(1.0, 10.0**-k, dtype=np.float32)
    for name in ("arm7", "puma560", "chain30", "humanoid30"):
        path = os.path.join(HERE, "..", "robots", name + ".urdf")
        if treedyn.has_urdf and os.path.exists(path):
            yield name, treedyn.load_urdf(path, floating_base=(name == "humanoid30"), dtype=np.float32)[0]


def errors(m32):
    m64 = m32.cast(np.float64)
    rng = np.random.default_rng(4)
    q32 = treedyn.random_configuration(m32, 4)
    v32 = rng.uniform(-1, 1, m32.nv).astype(np.float32)
    t32 = rng.uniform(-1, 1, m32.nv).astype(np.float32)
    q, v, t = (x.astype(np.float64) for x in (q32, v32, t32))
    H = treedyn.crba(m64, q)
    ref = np.linalg.solve(H, t - treedyn.bias(m64, q, v))
    out = {}
    for route, fd in ROUTES.items():
        qdd = fd(m32, q32, v32, t32).astype(np.float64)
        out[route] = np.linalg.norm(qdd - ref) / np.linalg.norm(ref)
    return np.linalg.cond(H), out


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
    ax.set_ylabel("relative error of qdd, float32 vs float64")
    ax.legend()
    fig.tight_layout()
    path = sys.argv[1] if len(sys.argv) > 1 else "float_vs_double.png"
    fig.savefig(path, dpi=120)
    print("wrote", path)


if __name__ == "__main__":
    main()
