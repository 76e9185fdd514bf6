"""The Python examples (examples/python), run as a user runs them, with their printed numbers checked.

bouncing_sphere.py: every bounce keeps eps = 0.8 of the approach speed, and no step raises the energy (the
spin and the horizontal speed it keeps included: free bodies are stepped as rigid motions, docs/contact.md).
float_vs_double.py: runs on every robot of examples/robots and prints one row per model. dask_batch.py: on a
LocalCluster of 2 processes (python3-distributed), every chunk's q'' equals this process's evaluation bit for bit,
with and without lanes, with a tail chunk. call_overhead.py only times calls, so it is not run here (speed is
measured in benchmarks, not tests)."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

import treedyn

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run_example(name, *args):
    env = dict(os.environ)
    module_dir = str(pathlib.Path(treedyn.__file__).resolve().parent)  # the module these tests import
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [module_dir, env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / name), *args], env=env, cwd=ROOT,
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


@pytest.mark.parametrize("extra", [[], ["--lanes", "--float32"], ["--lanes", "--robot", "chain30"]])
def test_dask_batch_equals_the_evaluation_in_one_process(extra):
    pytest.importorskip("distributed")
    out = run_example("dask_batch.py", "--states", "4003", "--chunk", "1000", "--workers", "2", "--check", *extra)
    assert re.search(r": 4003 states in 5 chunks on 2 workers", out), out
    assert "failed states 0" in out, out
    assert "check: identical to the evaluation in this process (4003 states, bit for bit)" in out, out
