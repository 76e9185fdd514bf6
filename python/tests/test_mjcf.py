"""load_mjcf: a MuJoCo MJCF file to a Model with MuJoCo's joint order and names, the joint metadata and the
load report, in float64 and float32; the same robot from the MJCF fixture and built in C++ (arm7) has the same H;
a refused file raises ValueError naming the file, the line and the element."""
import pathlib

import numpy as np
import pytest

import treedyn

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "mjcf" / "fixtures"
pytestmark = pytest.mark.skipif(not getattr(treedyn, "has_mjcf", False), reason="the mjcf component is not built")


def test_quadruped_joints_in_mujoco_order():
    model, report, joints = treedyn.load_mjcf(FIXTURES / "quadruped.xml")
    names = [j["name"] for j in joints]
    assert names[0] == "root" and joints[0]["type"] == "free"
    assert names[1:4] == ["FL_abduct", "FL_flex", "FL_knee"]
    assert model.nq == 7 + 12 and model.nv == 6 + 12
    assert [j["q_index"] for j in joints] == [0] + list(range(7, 19))
    assert joints[1]["limited"] and joints[1]["range"] == pytest.approx((-np.pi / 6, np.pi / 6), rel=1e-15)
    assert any("inertia computed from" in line for line in report)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_arm7_from_mjcf_has_the_builtin_h(dtype):
    model, _, _ = treedyn.load_mjcf(str(FIXTURES / "arm7.xml"), dtype=dtype)
    builtin = treedyn.robots.arm7(dtype)
    q = np.linspace(-1.0, 1.0, 7).astype(dtype)
    H = treedyn.crba(model, q)
    H_builtin = treedyn.crba(builtin, q)
    assert H.dtype == dtype and H.shape == (7, 7)
    tol = 64 * np.finfo(dtype).eps * np.abs(H_builtin).max()
    np.testing.assert_allclose(H, H_builtin, rtol=0, atol=tol)


def test_refused_file_names_line_and_element():
    with pytest.raises(ValueError, match=r"<string>:1: <joint> 'j'.*screw"):
        treedyn.load_mjcf('<mujoco><worldbody><body name="b"><joint name="j" type="screw"/></body></worldbody></mujoco>')
