"""Operational frames, oscm (the compliance J H^-1 J^T) and osim (its inverse, the inertia Lambda) against NumPy built from the bound
frame_jacobian and crba, in float64 and float32 (float32 results against float64 on the rounded model)."""
import numpy as np
import pytest

import treedyn


def eps(dtype):
    return float(np.finfo(dtype).eps)


def as64(x):
    return np.asarray(x, dtype=np.float64)


def frames_class(model):
    return treedyn.OperationalFramesF32 if model.dtype == np.float32 else treedyn.OperationalFrames


def stacked_jacobian(model64, q64, frames, rows):
    """J of the frames (bodies, rows 'all' / 'angular' / 'linear') in their local axes, from frame_jacobian."""
    pick = {"all": slice(0, 6), "angular": slice(0, 3), "linear": slice(3, 6)}
    return np.vstack([treedyn.frame_jacobian(model64, q64, b)[pick[r]] for b, r in zip(frames, rows)])


def deepest_body(model):
    depth = []
    for p in model.parents:
        depth.append(1 + (depth[p] if p >= 0 else 0))
    return int(np.argmax(depth))


def test_oscm_equals_J_Hinv_JT(robot):
    model, model64, q, _, _ = robot
    bodies = [deepest_body(model), model.nbodies // 2, model.nbodies - 1]
    rows = ["all", "linear", "angular"]
    frames = frames_class(model)(model)
    for b, r in zip(bodies, rows):
        frames.add(b, r)
    assert len(frames) == 3 and frames.rows == 12
    assert [frames.row_offset(a) for a in range(3)] == [0, 6, 9]
    q64 = as64(q)
    H = treedyn.crba(model64, q64)
    J = stacked_jacobian(model64, q64, bodies, rows)
    ref = J @ np.linalg.solve(H, J.T)
    L = treedyn.oscm(model, frames, q)
    assert L.dtype == model.dtype and L.shape == (12, 12)
    assert frames.status.ok and model.last_status.ok
    tol = 64 * model.nv * eps(model.dtype) * np.linalg.cond(H) * np.abs(ref).max()
    assert np.abs(as64(L) - ref).max() <= tol
    assert np.abs(as64(L) - as64(L).T).max() <= 8 * eps(model.dtype) * np.abs(ref).max()


def test_osim_inverts_the_compliance(robot):
    model, model64, q, _, _ = robot
    b = deepest_body(model)
    frames = frames_class(model)(model)
    frames.add(b)
    q64 = as64(q)
    H = treedyn.crba(model64, q64)
    J = stacked_jacobian(model64, q64, [b], ["all"])
    compliance = J @ np.linalg.solve(H, J.T)
    ref = np.linalg.inv(compliance)
    Li = treedyn.osim(model, frames, q)
    assert Li.dtype == model.dtype and Li.shape == (6, 6)
    assert frames.status.ok
    tol = 64 * model.nv * eps(model.dtype) * np.linalg.cond(H) * np.linalg.cond(compliance) * np.abs(ref).max()
    assert np.abs(as64(Li) - ref).max() <= tol


def test_oscm_and_osim_after_compute_all_terms_reuse_its_transforms(robot):
    model, _, q, v, _ = robot
    frames = frames_class(model)(model)
    frames.add(deepest_body(model))
    with_q = treedyn.oscm(model, frames, q)
    inertia_with_q = treedyn.osim(model, frames, q)
    treedyn.compute_all_terms(model, q, v)
    assert np.array_equal(treedyn.oscm(model, frames), with_q)
    assert frames.status.ok
    treedyn.compute_all_terms(model, q, v)
    assert np.array_equal(treedyn.osim(model, frames), inertia_with_q, equal_nan=True)


def test_osim_reports_a_rank_deficient_jacobian(dtype):
    """Two 6-row frames on a 7-DoF arm: 12 rows of rank <= 7, so the compliance is singular."""
    model = treedyn.robots.arm7(dtype)
    frames = frames_class(model)(model)
    frames.add(model.nbodies - 1)
    frames.add(model.nbodies - 2)
    q = treedyn.random_configuration(model, 5)
    Li = treedyn.osim(model, frames, q)
    assert not frames.status.ok and not model.last_status.ok
    assert frames.status.code == treedyn.StatusCode.non_positive_pivot and 0 <= frames.status.row < 12
    assert np.isnan(Li).all()
    assert treedyn.oscm(model, frames, q).shape == (12, 12) and frames.status.ok


def test_operational_arguments_are_checked():
    model = treedyn.robots.arm7(np.float64)
    other = treedyn.robots.arm7(np.float64)
    frames = treedyn.OperationalFrames(model)
    frames.add("link7" if "link7" in model.frame_names else model.nbodies - 1, "linear")
    q = treedyn.random_configuration(model, 1)
    with pytest.raises(ValueError):
        treedyn.oscm(other, frames, q)
    with pytest.raises(ValueError):
        treedyn.oscm(model, frames, q.astype(np.float32))
    with pytest.raises(ValueError):
        frames.add(0, "diagonal")
    with pytest.raises(ValueError):
        frames.add(model.nbodies)
    with pytest.raises(ValueError):
        frames.row_offset(1)
    with pytest.raises(TypeError):
        treedyn.OperationalFramesF32(model)


def test_named_frame_with_a_placement(dtype):
    """A named frame off its body's origin (arm7's flange): the compliance from frame_jacobian of that frame."""
    model = treedyn.robots.arm7(dtype)
    model64 = model.cast(np.float64)
    frames = frames_class(model)(model)
    assert frames.add("flange", "linear") == 0 and frames.names == ["flange"]
    q = treedyn.random_configuration(model, 9)
    q64 = as64(q)
    H = treedyn.crba(model64, q64)
    J = treedyn.frame_jacobian(model64, q64, "flange")[3:]
    ref = J @ np.linalg.solve(H, J.T)
    tol = 64 * model.nv * eps(dtype) * np.linalg.cond(H) * np.abs(ref).max()
    assert np.abs(as64(treedyn.oscm(model, frames, q)) - ref).max() <= tol
    assert np.abs(as64(treedyn.osim(model, frames, q)) - np.linalg.inv(ref)).max() <= \
        tol * np.linalg.cond(ref) * np.abs(np.linalg.inv(ref)).max() / np.abs(ref).max()
