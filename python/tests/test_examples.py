"""The Python examples (examples/python), run as a user runs them, with their printed numbers checked.

bouncing_sphere.py: every bounce keeps eps = 0.8 of the approach speed, and no step raises the energy (the
spin and the horizontal speed it keeps included: free bodies are stepped as rigid motions, docs/contact.md).
float_vs_double.py: runs on every robot of examples/robots and prints one row per model. call_overhead.py
only times calls, so it is not run here (speed is measured in benchmarks, not tests)."""
import os
import pathlib
import re
import subprocess
import sys

import treedyn

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run_example(name):
    env = dict(os.environ)
    module_dir = str(pathlib.Path(treedyn.__file__).resolve().parent)  # the module these tests import
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [module_dir, env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / name)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bouncing_sphere_with_spin():
    out = run_example("bouncing_sphere.py")
    ratios = [float(r) for r in re.findall(r"\(ratio ([0-9.]+)\)", out)]
    assert len(ratios) >= 3, out
    for r in ratios:  # printed to 3 decimals; the approach speed is measured one step (g dt) before the bounce
        assert abs(r - 0.8) <= 0.002, out
    rise = float(re.search(r"largest energy rise of one step (\S+) J", out).group(1))
    assert rise <= 1e-9, out  # never more than round-off; contact and friction only take energy out
    spin = float(re.search(r"spin at the end (\S+) rad/s", out).group(1))
    assert spin > 0.1, out  # the spin is there to test: the ball still turns at the end


def test_float_vs_double_every_robot():
    out = run_example("float_vs_double.py")
    for urdf in (ROOT / "examples" / "robots").glob("*.urdf"):
        assert re.search(r"^" + re.escape(urdf.stem) + r"\s", out, re.M), (urdf.stem, out)
