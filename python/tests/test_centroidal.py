"""Centre of mass, its Jacobian, ccrba and the energies from Python, in float64 and float32, against NumPy
computations on the float64 copy of the same model (the mass-weighted body coms, central differences, H)."""
import numpy as np

import treedyn


def eps(dtype):
    return float(np.finfo(dtype).eps)


def as64(x):
    return np.asarray(x, dtype=np.float64)


def body_coms(model64, q64):
    R, p = treedyn.forward_kinematics(model64, q64)
    return p + np.einsum("bij,bj->bi", R, np.asarray(model64.coms))


def test_center_of_mass_is_the_mass_weighted_sum(robot):
    model, model64, q, v, _ = robot
    dt = model.dtype
    out = treedyn.center_of_mass(model, q, v, v)
    assert out["com"].dtype == dt and out["com_subtree"].shape == (model.nbodies, 3)
    m = np.asarray(model64.masses)
    pc = body_coms(model64, as64(q))
    com = (m[:, None] * pc).sum(0) / m.sum()
    scale = 1 + np.abs(pc).max()
    tol = 16 * model.nbodies * eps(dt) * scale
    assert np.abs(as64(out["com"]) - com).max() <= tol
    assert abs(float(out["mass"]) - m.sum()) <= 8 * model.nbodies * eps(dt) * m.sum()
    J = treedyn.jacobian_center_of_mass(model, q)
    assert J.dtype == dt and J.shape == (3, model.nv)
    assert np.abs(as64(out["vcom"]) - as64(J) @ as64(v)).max() <= tol * (1 + np.abs(as64(v)).sum())


def test_jacobian_center_of_mass_is_the_derivative_of_com(robot):
    model, model64, q, _, _ = robot
    q64 = as64(q)
    J = treedyn.jacobian_center_of_mass(model, q)
    h = 1e-6
    fd = np.empty((3, model.nv))
    for k in range(model.nv):
        e = np.zeros(model.nv)
        e[k] = 1.0
        cp = treedyn.center_of_mass(model64, treedyn.integrate(model64, q64, e, h))["com"]
        cm = treedyn.center_of_mass(model64, treedyn.integrate(model64, q64, e, -h))["com"]
        fd[:, k] = (cp - cm) / (2 * h)
    scale = 1 + np.abs(body_coms(model64, q64)).max()
    assert np.abs(as64(J) - fd).max() <= 16 * model.nbodies * eps(model.dtype) * scale + 1e-7 * scale


def test_ccrba_linear_rows_are_m_jcom_and_hg_is_ag_v(robot):
    model, model64, q, v, _ = robot
    dt = model.dtype
    out = treedyn.ccrba(model, q, v)
    Ag, hg = out["Ag"], out["hg"]
    assert Ag.dtype == dt and Ag.shape == (6, model.nv) and out["Ig"].shape == (6, 6)
    M = float(np.sum(model64.masses))
    J = as64(treedyn.jacobian_center_of_mass(model, q))
    scale = M * (1 + np.abs(body_coms(model64, as64(q))).max())
    assert np.abs(as64(Ag)[3:] - M * J).max() <= 32 * model.nbodies * eps(dt) * scale
    assert np.abs(as64(hg) - as64(Ag) @ as64(v)).max() <= 8 * model.nv * eps(dt) * np.abs(as64(Ag)).max() * (1 + np.abs(as64(v)).sum())
    assert abs(as64(out["Ig"])[3, 3] - M) <= 8 * model.nbodies * eps(dt) * M


def test_energies(robot):
    model, model64, q, v, _ = robot
    dt = model.dtype
    H = treedyn.crba(model64, as64(q))
    T = treedyn.kinetic_energy(model, q, v)
    T_ref = 0.5 * as64(v) @ H @ as64(v)
    assert abs(T - T_ref) <= 16 * model.nv * eps(dt) * (np.abs(H).max() * (as64(v) @ as64(v)) + 1)
    m = np.asarray(model64.masses)
    pc = body_coms(model64, as64(q))
    g = np.asarray(model64.gravity)
    V_ref = -np.sum(m * (pc @ g))
    V = treedyn.potential_energy(model, q)
    assert abs(V - V_ref) <= 16 * model.nbodies * eps(dt) * m.sum() * np.linalg.norm(g) * (1 + np.abs(pc).max())


def test_coriolis_matrix_times_v_is_the_velocity_terms_and_dH_minus_2C_is_skew(robot):
    """C @ v = bias - gravity_torques (float64 NumPy reference); C + C' = dH/dt by central differences of crba's
    H along v on the float64 model (q(t) = integrate(q, t v))."""
    model, model64, q, v, _ = robot
    dt = model.dtype
    C = treedyn.coriolis_matrix(model, q, v)
    assert C.dtype == dt and C.shape == (model.nv, model.nv) and model.last_status.ok
    q64, v64 = as64(q), as64(v)
    velocity_terms = treedyn.bias(model64, q64, v64) - treedyn.gravity_torques(model64, q64)
    H = treedyn.crba(model64, q64)
    scale = np.abs(H).max() * (1 + np.abs(v64).sum()) * (1 + np.abs(treedyn.forward_kinematics(model64, q64)[1]).max())
    tol = 16 * model.nbodies * eps(dt) * scale
    assert np.abs(as64(C) @ v64 - velocity_terms).max() <= tol * (1 + np.abs(v64).sum())
    h = 1e-6
    dH = (treedyn.crba(model64, treedyn.integrate(model64, q64, v64, h)) -
          treedyn.crba(model64, treedyn.integrate(model64, q64, v64, -h))) / (2 * h)
    assert np.abs(as64(C) + as64(C).T - dH).max() <= tol + 1e-8 * scale


def test_coriolis_matrix_nan_velocity_sets_the_status(dtype):
    model = treedyn.robots.arm7(dtype)
    q = treedyn.random_configuration(model, 2)
    v = np.ones(model.nv, dtype)
    v[1] = np.nan
    assert np.isnan(treedyn.coriolis_matrix(model, q, v)).all()
    assert not model.last_status.ok


def test_centroidal_rate_is_the_derivative_of_hg(robot):
    """centroidal_drift = d(hg)/dt along integrate(q, t v) at constant v (central differences of ccrba's hg on
    the float64 model); centroidal_momentum_rate = drift + Ag @ a."""
    model, model64, q, v, tau = robot
    dt = model.dtype
    a = (tau / 5).astype(dt)
    q64, v64, a64 = as64(q), as64(v), as64(a)
    drift = treedyn.centroidal_drift(model, q, v)
    rate = treedyn.centroidal_momentum_rate(model, q, v, a)
    assert drift.dtype == dt and drift.shape == (6,) and rate.shape == (6,) and model.last_status.ok
    h = 1e-6
    hp = treedyn.ccrba(model64, treedyn.integrate(model64, q64, v64, h), v64)["hg"]
    hm = treedyn.ccrba(model64, treedyn.integrate(model64, q64, v64, -h), v64)["hg"]
    fd = (hp - hm) / (2 * h)
    Ag = treedyn.ccrba(model64, q64, v64)["Ag"]
    M = float(np.sum(model64.masses))
    size = 1 + np.abs(body_coms(model64, q64) - treedyn.center_of_mass(model64, q64)["com"]).max()
    s1 = 1 + np.abs(v64).sum() + np.abs(a64).sum()
    scale = M * s1**2 * size**2
    tol = 16 * model.nbodies * eps(dt) * scale + 1e-8 * scale
    assert np.abs(as64(drift) - fd).max() <= tol
    assert np.abs(as64(rate) - (fd + Ag @ a64)).max() <= tol


def test_centroidal_map_time_variation_is_the_derivative_of_Ag(robot):
    """dAg = d(Ag)/dt along integrate(q, t v) (central differences of ccrba's Ag on the float64 model), and
    dAg @ v = centroidal_drift."""
    model, model64, q, v, _ = robot
    dt = model.dtype
    q64, v64 = as64(q), as64(v)
    out = treedyn.centroidal_map_time_variation(model, q, v)
    dAg = out["dAg"]
    assert dAg.dtype == dt and dAg.shape == (6, model.nv) and model.last_status.ok
    ref = treedyn.ccrba(model, q, v)
    assert np.array_equal(out["Ag"], ref["Ag"]) and np.array_equal(out["hg"], ref["hg"])
    h = 1e-6
    Ap = treedyn.ccrba(model64, treedyn.integrate(model64, q64, v64, h), v64)["Ag"]
    Am = treedyn.ccrba(model64, treedyn.integrate(model64, q64, v64, -h), v64)["Ag"]
    fd = (Ap - Am) / (2 * h)
    M = float(np.sum(model64.masses))
    size = 1 + np.abs(body_coms(model64, q64) - treedyn.center_of_mass(model64, q64)["com"]).max()
    scale = M * (1 + np.abs(v64).sum()) * size**2
    tol = 16 * model.nbodies * eps(dt) * scale + 1e-8 * scale
    assert np.abs(as64(dAg) - fd).max() <= tol
    drift = as64(treedyn.centroidal_drift(model, q, v))
    assert np.abs(as64(dAg) @ v64 - drift).max() <= tol * (1 + np.abs(v64).sum())
