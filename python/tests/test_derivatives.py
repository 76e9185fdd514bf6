"""rnea_derivatives, aba_derivatives, frame_velocity_derivatives and frame_acceleration_derivatives from Python,
in float64 and float32: against central differences of rnea / aba / frame_velocity / frame_acceleration through
integrate on the float64 copy of the same model, and the identities ddq_dtau @ H = 1, dv_dv = da_da = J and, in
local axes, da_dv = dv_dq + dJ."""
import numpy as np

import treedyn


def eps(dtype):
    return float(np.finfo(dtype).eps)


def as64(x):
    return np.asarray(x, dtype=np.float64)


def central_differences(f, model64, q64, n, h=1e-6):
    """Columns: (f(q + h e_c) - f(q - h e_c)) / 2h along the tangent increments of integrate, and the same in v."""
    dq = np.empty((np.asarray(f(q64)).shape[0], n))
    for c in range(n):
        e = np.zeros(n)
        e[c] = 1.0
        dq[:, c] = (f(treedyn.integrate(model64, q64, e, h)) - f(treedyn.integrate(model64, q64, e, -h))) / (2 * h)
    return dq


def test_rnea_derivatives_are_the_derivatives_of_rnea(robot):
    model, model64, q, v, a = robot
    dt = model.dtype
    dtau_dq, dtau_dv = treedyn.rnea_derivatives(model, q, v, a)
    assert dtau_dq.dtype == dt and dtau_dq.shape == (model.nv, model.nv) and dtau_dv.shape == (model.nv, model.nv)
    q64, v64, a64 = as64(q), as64(v), as64(a)
    fq = central_differences(lambda qq: treedyn.rnea(model64, qq, v64, a64), model64, q64, model.nv)
    fv = np.empty_like(fq)
    for c in range(model.nv):
        e = np.zeros(model.nv)
        e[c] = 1e-6
        fv[:, c] = (treedyn.rnea(model64, q64, v64 + e, a64) - treedyn.rnea(model64, q64, v64 - e, a64)) / 2e-6
    scale = 1 + max(np.abs(fq).max(), np.abs(fv).max())
    tol = max(1e-6, 64 * model.nv * eps(dt)) * scale  # central differences in float64: ~1e-9 relative
    assert np.abs(as64(dtau_dq) - fq).max() <= tol
    assert np.abs(as64(dtau_dv) - fv).max() <= tol


def test_aba_derivatives_are_the_derivatives_of_aba(robot):
    model, model64, q, v, tau = robot
    dt = model.dtype
    ddq_dq, ddq_dv, ddq_dtau = treedyn.aba_derivatives(model, q, v, tau)
    assert ddq_dq.dtype == dt and ddq_dtau.shape == (model.nv, model.nv)
    q64, v64, t64 = as64(q), as64(v), as64(tau)
    H = as64(treedyn.crba(model64, q64))
    cond = np.linalg.cond(H)
    fq = central_differences(lambda qq: treedyn.aba(model64, qq, v64, t64), model64, q64, model.nv)
    scale = 1 + np.abs(fq).max()
    tol = max(1e-6, 64 * model.nv * eps(dt)) * cond * scale
    assert np.abs(as64(ddq_dq) - fq).max() <= tol
    assert np.abs(as64(ddq_dtau) @ H - np.eye(model.nv)).max() <= 64 * model.nv * eps(dt) * cond


AXES = ("local", "world_aligned", "world_origin")


def v_differences(f, v64, n, h=1e-6):
    """Columns: (f(v + h e_c) - f(v - h e_c)) / 2h."""
    cols = []
    for c in range(n):
        e = np.zeros(n)
        e[c] = h
        cols.append((f(v64 + e) - f(v64 - e)) / (2 * h))
    return np.stack(cols, axis=1)


def test_frame_motion_derivatives_are_the_derivatives_of_the_frame_motion(robot):
    model, model64, q, v, a = robot
    dt = model.dtype
    n = model.nv
    q64, v64, a64 = as64(q), as64(v), as64(a)
    tol = max(1e-6, 64 * n * eps(dt))
    for frame in (model.nbodies - 1, model.nbodies // 2):
        for ref in AXES:
            dv_dq, dv_dv = treedyn.frame_velocity_derivatives(model, q, v, frame, ref)
            assert dv_dq.dtype == dt and dv_dq.shape == (6, n) and dv_dv.shape == (6, n)
            out = treedyn.frame_acceleration_derivatives(model, q, v, a, frame, ref)
            assert len(out) == 4 and all(m.dtype == dt and m.shape == (6, n) for m in out)
            dv_dq_a, da_dq, da_dv, da_da = out
            assert np.array_equal(dv_dq_a, dv_dq)
            fvq = central_differences(lambda qq: treedyn.frame_velocity(model64, qq, v64, frame, ref), model64, q64, n)
            faq = central_differences(lambda qq: treedyn.frame_acceleration(model64, qq, v64, a64, frame, ref),
                                      model64, q64, n)
            fav = v_differences(lambda vv: treedyn.frame_acceleration(model64, q64, vv, a64, frame, ref), v64, n)
            for actual, expected in ((dv_dq, fvq), (da_dq, faq), (da_dv, fav)):
                assert np.abs(as64(actual) - expected).max() <= tol * (1 + np.abs(expected).max())
            J, dJ = treedyn.frame_jacobian_time_variation(model, q, v, frame, ref)
            assert np.abs(as64(dv_dv) - as64(J)).max() <= 4 * eps(dt) * (1 + np.abs(as64(J)).max())
            assert np.array_equal(da_da, dv_dv)
            if ref == "local":  # a = J a + dJ v, dJ linear in v: d(dJ v)/dv = dJ + dv/dq
                expected = as64(dv_dq) + as64(dJ)
                assert np.abs(as64(da_dv) - expected).max() <= 16 * n * eps(dt) * (1 + np.abs(expected).max())


def test_frame_motion_derivatives_of_several_frames_are_those_of_one_frame_each(robot):
    model, _, q, v, a = robot
    frames = [model.nbodies - 1, 0, model.nbodies // 2]
    for ref in AXES:
        several_v = treedyn.frame_velocity_derivatives(model, q, v, frames, ref)
        several_a = treedyn.frame_acceleration_derivatives(model, q, v, a, tuple(frames), ref)
        assert isinstance(several_v, list) and len(several_v) == len(frames) and len(several_a) == len(frames)
        for frame, got_v, got_a in zip(frames, several_v, several_a):
            one_v = treedyn.frame_velocity_derivatives(model, q, v, frame, ref)
            one_a = treedyn.frame_acceleration_derivatives(model, q, v, a, frame, ref)
            assert len(got_v) == 2 and len(got_a) == 4
            assert all(np.array_equal(g, o) for g, o in zip(got_v, one_v))
            assert all(np.array_equal(g, o) for g, o in zip(got_a, one_a))
    assert treedyn.frame_velocity_derivatives(model, q, v, [], "local") == []
    bad = np.array(v)
    bad[0] = np.nan
    for dv_dq, dv_dv in treedyn.frame_velocity_derivatives(model, q, bad, frames, "world_origin"):
        assert np.isnan(dv_dq).all() and np.isnan(dv_dv).all()
    assert not model.last_status.ok


def test_frame_motion_derivatives_report_a_bad_state(robot):
    model, _, q, v, a = robot
    bad = np.array(v)
    bad[0] = np.nan
    dv_dq, dv_dv = treedyn.frame_velocity_derivatives(model, q, bad, 0, "world_origin")
    assert np.isnan(dv_dq).all() and np.isnan(dv_dv).all()
    assert not model.last_status.ok
