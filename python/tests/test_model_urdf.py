"""A Python Model's limits, inertias, names and parents; load_urdf with os.PathLike paths, mimic relations and
the load report (massless links repaired, mimics skipped, merged fixed links on one line)."""
import pathlib

import numpy as np
import pytest

import treedyn

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEST_ROBOTS = ROOT / "tests" / "urdf" / "robots"
needs_urdf = pytest.mark.skipif(not treedyn.has_urdf, reason="the urdf component is not built")


def built_arm(dtype=np.float64):
    b = treedyn.ModelBuilder()
    upper = b.add_body(-1, treedyn.Joint.revolute([0, 0, 1]), mass=2.0, com=[0.1, 0, 0],
                       inertia=np.diag([0.01, 0.02, 0.03]), name="upper")
    b.set_joint_name(upper, "shoulder")
    b.add_body(upper, treedyn.Joint.prismatic([1, 0, 0]), translation=[0.2, 0, 0], mass=0.5, com=[0, 0.05, 0],
               inertia=np.diag([0.001, 0.002, 0.002]), name="slider")
    return b.build(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_model_exposes_inertias_names_and_parents(dtype):
    m = built_arm(dtype)
    assert m.body_names == ["upper", "slider"] and m.joint_names == ["shoulder", "slider"] and m.parents == [-1, 0]
    assert m.masses.dtype == dtype and m.masses.tolist() == [2.0, 0.5]
    np.testing.assert_array_equal(m.coms, np.array([[0.1, 0, 0], [0, 0.05, 0]], dtype))
    tol = 8 * np.finfo(dtype).eps
    np.testing.assert_allclose(m.rotational_inertias[0], np.diag([0.01, 0.02, 0.03]), rtol=0, atol=tol * 0.03)
    np.testing.assert_allclose(m.rotational_inertias[1], np.diag([0.001, 0.002, 0.002]), rtol=0, atol=tol * 0.01)
    for name in ("masses", "coms", "rotational_inertias", "lower_limits"):
        with pytest.raises(ValueError):
            getattr(m, name)[0] = 1  # read-only arrays
    with pytest.raises(AttributeError):
        m.masses = np.zeros(2)


def test_model_limits_default_to_unbounded():
    m = built_arm()
    assert np.all(m.lower_limits == -np.inf) and np.all(m.upper_limits == np.inf)
    assert np.all(m.velocity_limits == np.inf) and np.all(m.effort_limits == np.inf)


@needs_urdf
@pytest.mark.parametrize("as_path", [str, pathlib.Path, lambda p: str(p).encode()])
def test_load_urdf_takes_a_path_like(as_path):
    m, report = treedyn.load_urdf(as_path(TEST_ROBOTS / "massless_gripper.urdf"))
    assert m.nv == 7
    jaw = m.joint_index("jaw_left_joint")
    assert m.lower_limits[jaw] == 0.0 and m.upper_limits[jaw] == 0.5
    assert m.velocity_limits[jaw] == 1.0 and m.effort_limits[jaw] == 5.0
    arm = m.body_index("arm")
    assert m.masses[arm] == 2.0
    np.testing.assert_array_equal(m.coms[arm], [0.1, 0, 0])
    np.testing.assert_allclose(m.rotational_inertias[arm], np.diag([0.01, 0.02, 0.02]), rtol=0, atol=1e-17)
    # the massless jaw got sqrt(eps) of the median link mass (2 kg), isotropic 0.01 m^2 per kg
    m_star = np.sqrt(np.finfo(np.float64).eps) * 2.0
    assert m.masses[m.body_index("jaw_left")] == m_star
    np.testing.assert_allclose(m.rotational_inertias[m.body_index("jaw_left")], m_star * 0.01 * np.eye(3),
                               rtol=1e-15, atol=0)
    assert report[0].endswith("massless_gripper.urdf: link 'jaw_left' (joint 'jaw_left_joint'): massless link on "
                              "a moving joint with nothing below it carrying inertia: the joint's pivot is zero and "
                              "the forward dynamics are undefined; given a point mass of 2.98e-08 kg at its origin "
                              "with rotational inertia 2.98e-10 kg m^2 about every axis (sqrt(eps) of the median "
                              "link mass)")
    assert report[-1].endswith("1 fixed link merged into its parent, kept as named frames (link 'jaw_left_tip')")
    q = np.zeros(m.nq)
    assert np.all(np.isfinite(treedyn.aba(m, q, np.zeros(m.nv), np.zeros(m.nv))))


@needs_urdf
def test_load_urdf_path_errors_say_what_is_wrong(tmp_path):
    with pytest.raises(TypeError, match="os.PathLike"):
        treedyn.load_urdf(42)
    with pytest.raises(ValueError, match="no file name given"):
        treedyn.load_urdf("")
    with pytest.raises(ValueError, match="no such file"):
        treedyn.load_urdf(tmp_path / "missing.urdf")
    with pytest.raises(ValueError, match="is a directory"):
        treedyn.load_urdf(tmp_path)
    with pytest.raises(ValueError, match="link 'jaw_left' \\(joint 'jaw_left_joint'\\): massless link"):
        treedyn.load_urdf(TEST_ROBOTS / "massless_gripper.urdf", inertia="strict")


@needs_urdf
def test_load_urdf_returns_the_mimic_relations_the_report_names():
    m, report, mimics = treedyn.load_urdf(TEST_ROBOTS / "mimic_faults.urdf", mimics=True)
    assert m.nv == 3 and len(mimics) == 1
    r = mimics[0]
    assert (r.joint, r.mimicked, r.multiplier, r.offset) == ("middle_joint", "index_joint", 0.9, 0.1)
    assert r.index == m.joint_index("middle_joint") and r.mimicked_index == m.joint_index("index_joint")
    assert "MimicJoint(joint='middle_joint'" in repr(r)
    assert len(report) == 5
    assert report[0].endswith("joint 'index_joint': <mimic> names joint 'index_motor_joint', which does not exist; "
                              "the <mimic> is skipped")
    assert "load_urdf(..., mimics=True) in Python" in report[3] and "Loaded::mimics" in report[3]
    m2, report2 = treedyn.load_urdf(TEST_ROBOTS / "mimic_faults.urdf")
    assert m2.nv == 3 and report2 == report
