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


def test_equalities_are_returned_on_request_with_the_fixture_numbers():
    """equality.xml's six records (the numbers written in the fixture, MuJoCo's defaults where it gives none),
    the constraint bodies as model frames; without equalities=True the result stays (model, report, joints)."""
    assert len(treedyn.load_mjcf(FIXTURES / "equality.xml")) == 3
    model, _, joints, eqs = treedyn.load_mjcf(FIXTURES / "equality.xml", equalities=True)
    assert [e["type"] for e in eqs] == ["connect", "connect", "weld", "weld", "joint", "joint"]
    c1, c2, w1, w2, j1, j2 = eqs
    assert c1["name"] == "c1" and c1["active"]
    assert c1["solref"] == (0.05, 0.8) and c1["solimp"] == (0.9, 0.95, 0.001, 0.5, 2.0)
    assert c1["body1"]["name"] == "arm2" and c1["body1"]["body"] == model.body_index("arm2")
    assert c1["body2"]["body"] == model.body_index("arm3")
    np.testing.assert_array_equal(c1["anchor"], [0.01, 0.02, 0.03])
    assert c2["name"] == "" and not c2["active"] and c2["solref"] == (-1000.0, -10.0)
    assert c2["body2"]["name"] == "world" and c2["body2"]["body"] == -1
    # "tip" is jointless: merged into arm3, its placement that of the model's frame "tip" on arm3
    assert w1["body1"]["name"] == "tip" and w1["body1"]["body"] == model.body_index("arm3")
    q = treedyn.random_configuration(model, 3)  # any q: tip is fixed on arm3
    R_tip, p_tip = treedyn.frame_placement(model, q, "tip")
    R_arm3, p_arm3 = treedyn.frame_placement(model, q, "arm3")
    R_rel, p_rel = R_arm3.T @ R_tip, R_arm3.T @ (p_tip - p_arm3)  # tip's pose in arm3's coordinates
    np.testing.assert_allclose(w1["body1"]["rotation"], R_rel.T, rtol=0, atol=1e-15)  # ^tip R_arm3
    np.testing.assert_allclose(w1["body1"]["translation"], p_rel, rtol=0, atol=1e-15)
    assert np.abs(p_rel).max() > 0.1  # a real offset (0.3 m out)
    assert w1["relpose_given"] and w1["torquescale"] == 2.5
    np.testing.assert_array_equal(w1["relpose_position"], [0.1, 0.2, 0.3])
    xyzw = np.array([0.2, 0.3, 0.4, 1.0]) / np.linalg.norm([0.2, 0.3, 0.4, 1.0])
    np.testing.assert_allclose(w1["relpose_quaternion"], xyzw, rtol=0, atol=1e-15)
    assert not w2["relpose_given"] and w2["solimp"] == (0.7, 0.8, 0.01, 0.6, 4.0)
    assert joints[j1["joint1"]]["name"] == "a2" and joints[j1["joint2"]]["name"] == "a1"
    assert j1["polycoef"] == (0.01, 0.5, 0.2, 0.0, 0.0)
    assert joints[j2["joint1"]]["name"] == "a3" and j2["joint2"] == -1 and not j2["active"]
    assert "body1" not in j1 and "joint1" not in c1


def test_sites_are_returned_on_request_in_mujoco_order_with_their_frames():
    """sites.xml's ten sites in MuJoCo's site order (world first, then body by body; checked against MuJoCo
    2.2.2's site ids in tests/mjcf/test_mjcf.cpp), each with its MJCF body and its model frame: the five named
    like bodies are 'site:<name>'; placed where the file puts them."""
    assert len(treedyn.load_mjcf(FIXTURES / "sites.xml", equalities=True)) == 4
    model, _, _, sites = treedyn.load_mjcf(FIXTURES / "sites.xml", sites=True)
    assert [(s["name"], s["body"]) for s in sites] == [
        ("side", "world"), ("world_mark", "world"), ("base", "base"), ("lower", "base"), ("tip", "upper"),
        ("elbow_mark", "upper"), ("tip_end", "tip"), ("tip_point", "tip"), ("side_mark", "side"), ("upper", "side")]
    renamed = {"side", "base", "lower", "tip", "upper"}
    names = model.frame_names
    for s in sites:
        assert s["frame"] == ("site:" + s["name"] if s["name"] in renamed else s["name"])
        assert names[s["frame_index"]] == s["frame"]
    by_name = {s["name"]: s for s in sites}
    q = treedyn.random_configuration(model, 5)
    _, p = treedyn.frame_placement(model, q, by_name["world_mark"]["frame"])
    np.testing.assert_array_equal(p, [-0.2, 0.0, 0.05])
    # tip_end is 0.01 m along the x axis of body "tip" (no rotation of its own)
    R_tip, p_tip = treedyn.frame_placement(model, q, "tip")
    R_end, p_end = treedyn.frame_placement(model, q, by_name["tip_end"]["frame"])
    np.testing.assert_allclose(p_end, p_tip + R_tip @ [0.01, 0.0, 0.0], rtol=0, atol=1e-15)
    np.testing.assert_allclose(R_end, R_tip, rtol=0, atol=1e-15)
    # with equalities too: (model, report, joints, equalities, sites)
    model, _, _, eqs, sites2 = treedyn.load_mjcf(FIXTURES / "sites.xml", equalities=True, sites=True)
    assert eqs == [] and [s["name"] for s in sites2] == [s["name"] for s in sites]


@pytest.mark.parametrize("name", ["humanoid30", "chain30", "puma560"])
def test_builtin_robot_from_generated_mjcf_has_the_builtin_h(name):
    """examples/robots/<name>.xml, generated from the C++ robot, gives its H (tests/mjcf/test_mjcf.cpp: bias, q̈,
    the URDF and MuJoCo too)."""
    model, _, _ = treedyn.load_mjcf(ROOT / "examples" / "robots" / (name + ".xml"))
    builtin = getattr(treedyn.robots, name)(np.float64)
    q = treedyn.random_configuration(builtin, 7)
    H, H_builtin = treedyn.crba(model, q), treedyn.crba(builtin, q)
    np.testing.assert_allclose(H, H_builtin, rtol=0, atol=1e-14 * np.abs(H_builtin).max())
