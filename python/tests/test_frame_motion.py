"""Frame velocity and acceleration, the Jacobian in three axes, its time variation dJ and the drift dJ @ v from
Python (docs/frame-motion.md), in float64 and float32, against NumPy computations on the float64 copy of the
same model: dJ by central differences of J along v (q(t) = integrate(q, t v)), the world_aligned Jacobian by
central differences of the frame's placement, the drift's linear rows by the second difference of the frame's
origin along q(t) (a = 0 on that path), the world_origin rows by moving the world_aligned ones to the origin."""
import numpy as np
import pytest

import treedyn

AXES = ("local", "world_aligned", "world_origin")


def eps(dtype):
    return float(np.finfo(dtype).eps)


def as64(x):
    return np.asarray(x, dtype=np.float64)


def frames_of(model):
    """The last body, a middle body (ints, identity placement) and the last named frame, if any."""
    out = [model.nbodies - 1, model.nbodies // 2]
    return out + list(model.frame_names[-1:])


def tolerance(model, dtype, scale):
    """The error bound of a path of at most nbodies products, each of relative error eps, on terms of `scale`."""
    return 32 * model.nbodies * eps(dtype) * scale


def test_dJ_is_the_derivative_of_J_along_v(robot):
    model, model64, q, v, _ = robot
    q64, v64 = as64(q), as64(v)
    h = 1e-6
    for frame in frames_of(model):
        for ref in AXES:
            J, dJ = treedyn.frame_jacobian_time_variation(model, q, v, frame, ref)
            assert J.dtype == model.dtype and J.shape == (6, model.nv) and dJ.shape == (6, model.nv)
            assert model.last_status.ok
            J64 = treedyn.frame_jacobian(model64, q64, frame, ref)
            Jp = treedyn.frame_jacobian(model64, treedyn.integrate(model64, q64, v64, h), frame, ref)
            Jm = treedyn.frame_jacobian(model64, treedyn.integrate(model64, q64, v64, -h), frame, ref)
            fd = (Jp - Jm) / (2 * h)
            scale = (1 + np.abs(J64).max()) * (1 + np.abs(v64).sum())
            # float64: the central difference's truncation (~h^2) and rounding (~eps/h) dominate
            tol = tolerance(model, model.dtype, scale) + 1e-8 * scale
            assert np.abs(as64(J) - J64).max() <= tolerance(model, model.dtype, 1 + np.abs(J64).max()), (frame, ref)
            assert np.abs(as64(dJ) - fd).max() <= tol, (frame, ref)
            drift = treedyn.frame_jacobian_drift(model, q, v, frame, ref)
            assert drift.dtype == model.dtype and drift.shape == (6,)
            assert np.abs(as64(drift) - fd @ v64).max() <= tol * (1 + np.abs(v64).sum()), (frame, ref)


def test_acceleration_is_J_a_plus_dJ_v_and_velocity_is_J_v(robot):
    model, model64, q, v, tau = robot
    a = (tau / 5).astype(model.dtype)
    q64, v64, a64 = as64(q), as64(v), as64(a)
    for frame in frames_of(model):
        for ref in AXES:
            J, dJ = treedyn.frame_jacobian_time_variation(model64, q64, v64, frame, ref)
            scale = (1 + np.abs(J).max()) * (1 + np.abs(v64).sum() + np.abs(a64).sum()) ** 2
            tol = tolerance(model, model.dtype, scale)
            vel = treedyn.frame_velocity(model, q, v, frame, ref)
            assert vel.dtype == model.dtype and np.abs(as64(vel) - J @ v64).max() <= tol, (frame, ref)
            expected = J @ a64 + dJ @ v64
            # J a + dJ v is the spatial acceleration in local and world_origin axes, the classical one in
            # world_aligned axes (docs/frame-motion.md#the-jacobians-time-variation)
            call = treedyn.frame_classical_acceleration if ref == "world_aligned" else treedyn.frame_acceleration
            acc = call(model, q, v, a, frame, ref)
            assert acc.dtype == model.dtype and acc.shape == (6,)
            assert np.abs(as64(acc) - expected).max() <= tol, (frame, ref)


def test_world_aligned_and_world_origin_jacobians_from_the_placement(robot):
    """Linear rows of world_aligned J: d/dt of the frame's origin; angular rows: vee(dR/dt R^T); world_origin
    rows: the velocity of the body point at the world origin, v_O + p x w."""
    model, model64, q, _, _ = robot
    q64 = as64(q)
    h = 1e-6
    for frame in frames_of(model):
        Jwa = treedyn.frame_jacobian(model, q, frame, "world_aligned")
        Jwo = treedyn.frame_jacobian(model, q, frame, "world_origin")
        R0, p0 = treedyn.frame_placement(model64, q64, frame)
        fd = np.empty((6, model.nv))
        for k in range(model.nv):
            e = np.zeros(model.nv)
            e[k] = 1.0
            Rp, pp = treedyn.frame_placement(model64, treedyn.integrate(model64, q64, e, h), frame)
            Rm, pm = treedyn.frame_placement(model64, treedyn.integrate(model64, q64, e, -h), frame)
            W = (Rp - Rm) / (2 * h) @ R0.T
            fd[:3, k] = [W[2, 1], W[0, 2], W[1, 0]]
            fd[3:, k] = (pp - pm) / (2 * h)
        scale = 1 + np.abs(p0).max() + np.abs(fd).max()
        tol = tolerance(model, model.dtype, scale) + 1e-7 * scale
        assert np.abs(as64(Jwa) - fd).max() <= tol, frame
        moved = fd.copy()
        moved[3:] += np.cross(p0, fd[:3].T).T
        assert np.abs(as64(Jwo) - moved).max() <= tol * (1 + np.abs(p0).max()), frame


def test_drift_is_the_second_derivative_of_the_origin(robot):
    """On q(t) = integrate(q, t v) the velocity is constant (a = 0): the world_aligned drift's linear rows are
    the frame origin's second derivative, by a second central difference."""
    model, model64, q, v, _ = robot
    q64, v64 = as64(q), as64(v)
    h = 1e-4
    for frame in frames_of(model):
        drift = treedyn.frame_jacobian_drift(model, q, v, frame, "world_aligned")
        p = [treedyn.frame_placement(model64, treedyn.integrate(model64, q64, v64, s * h), frame)[1] for s in (-1, 0, 1)]
        fd = (p[2] - 2 * p[1] + p[0]) / h**2
        scale = (1 + np.abs(p[1]).max()) * (1 + np.abs(v64).sum()) ** 2
        assert np.abs(as64(drift[3:]) - fd).max() <= tolerance(model, model.dtype, scale) + 1e-6 * scale, frame


def test_frame_motion_checks_its_arguments(dtype):
    model = treedyn.robots.humanoid30(dtype)
    q = treedyn.random_configuration(model, 1)
    v = np.zeros(model.nv, dtype)
    with pytest.raises(ValueError, match="reference must be"):
        treedyn.frame_velocity(model, q, v, 1, "world")
    with pytest.raises(ValueError, match="argument 'a'"):
        treedyn.frame_acceleration(model, q, v, np.zeros(model.nv + 1, dtype), 1)
    v[2] = np.nan
    assert np.isnan(treedyn.frame_jacobian_drift(model, q, v, model.nbodies - 1)).all()
    assert not model.last_status.ok
    J, dJ = treedyn.frame_jacobian_time_variation(model, q, np.zeros(model.nv, dtype), model.nbodies - 1)
    assert model.last_status.ok and np.isfinite(dJ).all()
