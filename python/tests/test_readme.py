"""The README's Python controller tick, run as written from README.md in a folder laid out like an install
prefix (share/treedyn/robots/arm7.urdf), then its numbers checked: the CRBA + LTDL route equals the ABA, the
gravity torques equal rnea(q, 0, 0), the frame placement is a rotation and equals frame_placement."""
import pathlib
import re
import shutil

import numpy as np

import treedyn

ROOT = pathlib.Path(__file__).resolve().parents[2]


def readme_block(heading, language):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    at = text.index(heading)
    match = re.search(r"```" + language + r"\n(.*?)```", text[at:], re.S)
    assert match, f"README.md: no ```{language} block after {heading!r}"
    return match.group(1)


def test_readme_python_tick(tmp_path, monkeypatch):
    robots = tmp_path / "share" / "treedyn" / "robots"
    robots.mkdir(parents=True)
    for urdf in (ROOT / "examples" / "robots").glob("*.urdf"):
        shutil.copy(urdf, robots)
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(compile(readme_block("## The same in Python", "python"), "README.md", "exec"), scope)  # noqa: S102

    m, q, tau = scope["m"], scope["q"], scope["tau"]
    assert m.last_status
    np.testing.assert_allclose(scope["qdd_crba"], scope["qdd"], rtol=1e-10, atol=1e-10)
    zero = np.zeros(m.nv)
    np.testing.assert_allclose(scope["g"], treedyn.rnea(m, q, zero, zero), rtol=1e-12, atol=1e-12)
    R = scope["R"]
    np.testing.assert_allclose(R @ R.T, np.eye(3), atol=1e-12)
    R1, p1 = treedyn.frame_placement(m, q, "flange")
    assert np.array_equal(R, R1) and np.array_equal(scope["p"], p1)
    assert scope["J"].shape == (6, m.nv) and scope["H"].shape == (m.nv, m.nv)
    assert tau.shape == (m.nv,)
