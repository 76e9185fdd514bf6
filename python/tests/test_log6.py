"""exp6, log6 and jlog6 on placements (R, p) from Python (docs/derivatives.md#placement-error-and-its-jacobian):
round trips against NumPy-built rotations (also at |w| = pi), jlog6 against central differences of
log6(M exp6(d)) composed in NumPy, and the placement error of a frame on humanoid30 (free-flyer base):
d/dq log6(M_des^-1 M_F(q)) = jlog6 @ frame_jacobian(local) against central differences along integrate."""
import numpy as np
import pytest

import treedyn


def eps(dtype):
    return float(np.finfo(dtype).eps)


def rodrigues(w):
    """exp(w x) written out in float64, independent of the module."""
    t = np.linalg.norm(w)
    W = np.array([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])
    if t == 0:
        return np.eye(3)
    return np.eye(3) + np.sin(t) / t * W + (1 - np.cos(t)) / t**2 * W @ W


def compose(R1, p1, R2, p2):
    return R1 @ R2, p1 + R1 @ p2


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("theta", [0.0, 1e-8, 0.4, 2.0, np.pi - 1e-6, np.pi])
def test_exp6_and_log6_are_inverse(dtype, theta):
    rng = np.random.default_rng(3)
    axis = rng.normal(size=3)
    w = theta * axis / np.linalg.norm(axis)
    xi = np.concatenate([w, rng.uniform(-1, 1, 3)])
    R, p = treedyn.exp6(xi.astype(dtype))
    assert R.dtype == dtype and p.dtype == dtype
    tol = 32 * eps(dtype) * (1 + xi @ xi)
    np.testing.assert_allclose(R, rodrigues(w), rtol=0, atol=tol)
    back = treedyn.log6(R, p)
    assert back.dtype == dtype
    R2, p2 = treedyn.exp6(back)
    np.testing.assert_allclose(R2, R, rtol=0, atol=tol)
    np.testing.assert_allclose(p2, p, rtol=0, atol=tol)
    if theta < np.pi - 1e-7:
        np.testing.assert_allclose(back, xi, rtol=0, atol=tol)
    else:  # at pi, w or -w
        assert np.allclose(back[:3], w, atol=tol) or np.allclose(back[:3], -w, atol=tol)


def test_jlog6_is_the_local_derivative_of_log6():
    rng = np.random.default_rng(5)
    R, p = treedyn.exp6(np.concatenate([[0.3, -1.7, 0.9], rng.uniform(-1, 1, 3)]))
    h = 1e-6
    J = np.empty((6, 6))
    for k in range(6):
        d = np.zeros(6)
        d[k] = h
        plus = treedyn.log6(*compose(R, p, *treedyn.exp6(d)))
        minus = treedyn.log6(*compose(R, p, *treedyn.exp6(-d)))
        J[:, k] = (plus - minus) / (2 * h)
    # central differences: truncation ~h^2 |f'''| and rounding ~eps/h, both below 1e-9 here
    np.testing.assert_allclose(treedyn.jlog6(R, p), J, rtol=0, atol=1e-8)


def test_placement_error_of_a_frame_and_its_jacobian():
    model = treedyn.robots.humanoid30(np.float64)
    q = treedyn.random_configuration(model, 11)
    frame = model.nbodies - 1
    R_F, p_F = treedyn.frame_placement(model, q, frame)
    R_des, p_des = compose(R_F, p_F, *treedyn.exp6(np.array([0.5, -0.8, 1.1, 0.2, 0.3, -0.4])))

    def error(qq):
        R, p = treedyn.frame_placement(model, qq, frame)
        return treedyn.log6(R_des.T @ R, R_des.T @ (p - p_des))

    R, p = treedyn.frame_placement(model, q, frame)
    J = treedyn.jlog6(R_des.T @ R, R_des.T @ (p - p_des)) @ treedyn.frame_jacobian(model, q, frame, "local")
    h = 1e-6
    reference = np.empty_like(J)
    for k in range(model.nv):
        v = np.zeros(model.nv)
        v[k] = 1.0
        reference[:, k] = (error(treedyn.integrate(model, q, v, h)) - error(treedyn.integrate(model, q, v, -h))) / (2 * h)
    np.testing.assert_allclose(J, reference, rtol=0, atol=1e-7 * max(1.0, np.abs(reference).max()))
    # and the error itself: M_des = M_F exp6(xi0) gives log6(M_des^-1 M_F) = -xi0
    np.testing.assert_allclose(error(q), -np.array([0.5, -0.8, 1.1, 0.2, 0.3, -0.4]), rtol=0, atol=1e-14)


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="log6: argument 'p'"):
        treedyn.log6(np.eye(3), np.zeros(4))
    with pytest.raises(ValueError, match="exp6: argument 'xi'"):
        treedyn.exp6(np.zeros(5))
