"""rnea_derivatives and aba_derivatives from Python, in float64 and float32: against central differences of
rnea / aba through integrate on the float64 copy of the same model, and the identity ddq_dtau @ H = 1."""
import numpy as np

import treedyn


def eps(dtype):
    return float(np.finfo(dtype).eps)


def as64(x):
    return np.asarray(x, dtype=np.float64)


def central_differences(f, model64, q64, n, h=1e-6):
    """Columns: (f(q + h e_c) - f(q - h e_c)) / 2h along the tangent increments of integrate, and the same in v."""
    dq = np.empty((n, n))
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
