"""The contact bindings against independent NumPy computations, float64 and float32: a sphere at rest on a
plane, a bounce with restitution, analytic sphere-plane / sphere-sphere distances, Lemke's conditions and an
enumerated 2x2 solution, one contact step against a NumPy step built from crba / bias / frame_jacobian, and
the ValueError messages of bad inputs."""
import itertools

import numpy as np
import pytest

import treedyn
from conftest import eps

MASS, RADIUS, G = 2.0, 0.1, 9.81


def sphere_model(dtype, count=1):
    """`count` free solid spheres (MASS kg, RADIUS m) under gravity (0, 0, -9.81)."""
    b = treedyn.ModelBuilder()
    for _ in range(count):
        b.add_body(-1, treedyn.Joint.free_flyer(), mass=MASS, inertia=np.eye(3) * 0.4 * MASS * RADIUS**2)
    return b.build(dtype)


def ground(model):
    return treedyn.CollisionGeometry(model, [treedyn.Shape.sphere(0, (0, 0, 0), RADIUS, "ball"),
                                             treedyn.Shape.plane(treedyn.world, (0, 0, 0), (0, 0, 1), "floor")])


def state(dtype, position, quaternion=(0, 0, 0, 1)):
    return np.array([*position, *quaternion], dtype)


def test_sphere_at_rest_stays_at_rest(dtype):
    model = sphere_model(dtype)
    geometry = ground(model)
    ws = treedyn.ContactStep(model, geometry.max_contacts)
    q, v, tau, dt = state(dtype, (0.3, -0.2, RADIUS)), np.zeros(6, dtype), np.zeros(6, dtype), 1e-3
    for _ in range(20):
        contacts = treedyn.detect_contacts(model, geometry, q, 1e-3, mu=0.5)
        assert len(contacts) == 1
        q, v, status = treedyn.contact_step(model, ws, q, v, tau, contacts, dt)
        assert status.ok and status.contacts == 1 and status.collisions == 0
        assert ws.normal_impulses[0] == pytest.approx(MASS * G * dt, rel=64 * eps(dtype))
        assert np.abs(ws.friction_impulses).max() <= 64 * eps(dtype) * MASS * G * dt
    assert np.abs(v).max() <= 64 * eps(dtype) * G * dt  # no penetration velocity, no drift
    np.testing.assert_allclose(q, state(dtype, (0.3, -0.2, RADIUS)), atol=64 * eps(dtype))
    assert q.dtype == dtype and ws.dtype == dtype


@pytest.mark.parametrize("restitution", [0.0, 0.5, 1.0])
def test_bounce_reverses_normal_velocity_times_restitution(dtype, restitution):
    model = sphere_model(dtype)
    geometry = ground(model)
    ws = treedyn.ContactStep(model, 1)
    dt, v_pre = 1e-3, -2.0
    q, v = state(dtype, (0, 0, RADIUS)), np.array([0, 0, 0, 0, 0, v_pre], dtype)
    contacts = treedyn.detect_contacts(model, geometry, q, 0.0, mu=0.5, restitution=restitution)
    assert contacts[0].restitution == restitution
    q1, v1, status = treedyn.contact_step(model, ws, q, v, np.zeros(6, dtype), contacts, dt)
    assert status.ok and status.collisions == 1 and ws.phases == [treedyn.ContactPhase.collision]
    # compression stops the approach, decompression returns eps of its impulse, then a free step of gravity
    # (after a separating collision the time-step LCP has nothing to do)
    expected = -restitution * v_pre - G * dt if restitution > 0 else 0.0
    assert v1[5] == pytest.approx(expected, abs=64 * eps(dtype) * abs(v_pre))
    impulse = MASS * (-v_pre) * (1 + restitution) + (MASS * G * dt if restitution == 0 else 0.0)
    assert ws.normal_impulses[0] == pytest.approx(impulse, rel=64 * eps(dtype))
    np.testing.assert_allclose(v1[:5], 0, atol=64 * eps(dtype))


def random_quaternion(rng):
    x = rng.normal(size=4)
    return x / np.linalg.norm(x)


def world_point(R, p, body, point):
    return p[body] + R[body] @ point if body != treedyn.world else point


def test_detect_contacts_distances_are_analytic(dtype):
    rng = np.random.default_rng(7)
    model = sphere_model(dtype, 2)
    normal = np.array([0.3, -0.2, 1.0])
    n_hat = normal / np.linalg.norm(normal)
    plane_point = np.array([0.1, 0.2, -0.05])
    radii = (0.1, 0.25)
    geometry = treedyn.CollisionGeometry(model, [treedyn.Shape.sphere(0, (0.02, 0, 0), radii[0]),
                                                 treedyn.Shape.sphere(1, (0, 0, 0), radii[1]),
                                                 treedyn.Shape.plane(treedyn.world, plane_point, normal)])
    assert sorted(geometry.pairs) == [(0, 1), (0, 2), (1, 2)]
    tol = 64 * eps(dtype)
    for _ in range(5):
        q = np.concatenate([rng.uniform(-0.3, 0.3, 3), random_quaternion(rng),
                            rng.uniform(-0.3, 0.3, 3), random_quaternion(rng)]).astype(dtype)
        contacts = treedyn.detect_contacts(model, geometry, q, 10.0)
        R, p = (a.astype(np.float64) for a in treedyn.forward_kinematics(model, q))
        centres = [p[0] + R[0] @ np.array([0.02, 0, 0]), p[1]]
        found = {(c.body_a, c.body_b): c for c in contacts}
        assert len(found) == 3
        for body in (0, 1):  # sphere-plane: the plane is B, the normal its normal
            c = found[(body, treedyn.world)]
            assert c.distance == pytest.approx(n_hat @ (centres[body] - plane_point) - radii[body], abs=tol)
            np.testing.assert_allclose(c.normal, n_hat, atol=tol)
            np.testing.assert_allclose(world_point(R, p, body, c.point_a), centres[body] - radii[body] * n_hat, atol=tol)
            assert n_hat @ (c.point_b - plane_point) == pytest.approx(0, abs=tol)
        c = found[(0, 1)]  # sphere-sphere: normal from B's centre to A's
        gap = centres[0] - centres[1]
        assert c.distance == pytest.approx(np.linalg.norm(gap) - sum(radii), abs=tol)
        np.testing.assert_allclose(c.normal, gap / np.linalg.norm(gap), atol=tol)
        xa, xb = world_point(R, p, 0, c.point_a), world_point(R, p, 1, c.point_b)
        assert c.normal @ (xa - xb) == pytest.approx(c.distance, abs=tol)
    assert treedyn.detect_contacts(model, geometry, q, -10.0) == []


def lcp_check(M, q, z, w, tol):
    np.testing.assert_allclose(w, M @ z + q, atol=tol)
    assert z.min() >= -tol and w.min() >= -tol
    assert abs(z @ w) <= tol


def test_lemke_solves_a_random_positive_definite_lcp(dtype):
    rng = np.random.default_rng(3)
    n = 12
    A = rng.normal(size=(n, n))
    M = A @ A.T + n * np.eye(n)
    q = rng.normal(size=n) * 5
    z, w, status = treedyn.lemke(M.astype(dtype), q.astype(dtype))
    assert status.ok and status.code == treedyn.StatusCode.success and status.pivots > 0
    assert z.dtype == dtype and w.dtype == dtype
    scale = np.abs(M).max() * np.abs(np.linalg.solve(M, q)).max()
    lcp_check(M, q, z.astype(np.float64), w.astype(np.float64), 1e3 * eps(dtype) * np.linalg.cond(M) * scale)
    assert status.residual <= 1e3 * eps(dtype) * scale


@pytest.mark.parametrize("M, q", [
    ([[2.0, 1.0], [1.0, 2.0]], [-1.0, 0.5]),
    ([[1.0, -1.0], [1.0, 1.0]], [-1.0, -2.0]),    # not symmetric, a P-matrix
    ([[3.0, 1.0], [0.5, 2.0]], [-4.0, -1.0]),
])
def test_lemke_matches_the_enumerated_2x2_solution(dtype, M, q):
    M, q = np.array(M), np.array(q)
    solutions = []
    for basis in itertools.product([False, True], repeat=2):  # True: z_i basic (w_i = 0)
        idx = [i for i in range(2) if basis[i]]
        z = np.zeros(2)
        if idx:
            z[idx] = np.linalg.solve(M[np.ix_(idx, idx)], -q[idx])
        w = M @ z + q
        if z.min() >= -1e-12 and w.min() >= -1e-12:
            solutions.append(z)
    assert len(solutions) == 1  # a P-matrix: one solution
    z, w, status = treedyn.lemke(M.astype(dtype), q.astype(dtype))
    assert status.ok
    np.testing.assert_allclose(z, solutions[0], atol=64 * eps(dtype))


def skew(r):
    return np.array([[0, -r[2], r[1]], [r[2], 0, -r[0]], [-r[1], r[0], 0]])


@pytest.mark.parametrize("mu", [0.0, 5.0])
def test_contact_step_matches_a_numpy_step(dtype, mu):
    """One sphere touching the floor, moving along it and spinning: frictionless (mu = 0, one normal row) or
    sticking (large mu: the 3 rows of the contact point velocity go to 0 and the impulse lies inside the
    friction polyhedron), from H (crba), C (bias) and the point Jacobian (frame_jacobian). The free joint is
    stepped as a rigid motion (docs/contact.md#free-joints): its linear velocity changes by the classical
    acceleration in the body frame at q, the centre moves on the straight line R v dt, the body turns by
    exp(dt w), and v_O is then re-expressed in the new body frame."""
    model = sphere_model(dtype)
    quat = random_quaternion(np.random.default_rng(11))
    q = state(dtype, (0.1, 0.0, RADIUS), quat)
    v = np.array([0.3, -0.2, 0.5, 0.05, -0.04, 0.0], dtype)
    tau = np.array([0.01, 0.02, -0.01, 0.5, 0.3, 0.0], dtype)
    dt = 2e-3
    contacts = treedyn.detect_contacts(model, ground(model), q, 0.0, mu=mu)
    ws = treedyn.ContactStep(model, 1)
    ws.collision_speed = 1e9  # the time-step LCP only
    q1, v1, status = treedyn.contact_step(model, ws, q, v, tau, contacts, dt)
    assert status.ok and status.lcp.ok

    m64 = model.cast(np.float64)
    q64, v64, tau64 = (a.astype(np.float64) for a in (q, v, tau))
    H = treedyn.crba(m64, q64)
    C = treedyn.bias(m64, q64, v64)
    J6 = treedyn.frame_jacobian(m64, q64, 0, "world_aligned")  # angular rows first, the body origin
    R, p = treedyn.forward_kinematics(m64, q64)
    r = R[0] @ contacts[0].point_a  # origin -> contact point, world
    Jp = J6[3:] - skew(r) @ J6[:3]
    v_free = v64 + dt * np.linalg.solve(H, tau64 - C)
    v_free[3:] += dt * np.cross(v64[:3], v64[3:])  # qdd holds -w x v_O: the classical acceleration
    W = Jp @ np.linalg.solve(H, Jp.T)
    n = np.array([0.0, 0.0, 1.0])
    if mu == 0.0:
        P = n * max(0.0, -(n @ Jp @ v_free) / (n @ W @ n))
    else:
        P = -np.linalg.solve(W, Jp @ v_free)
        assert P[2] > 0 and np.abs(P[:2]).sum() <= mu * P[2]  # inside the 4-direction polyhedron
    v_at_q = v_free + np.linalg.solve(H, Jp.T @ P)  # in the body frame at q
    q_ref = treedyn.integrate(m64, q64, np.concatenate([v_at_q[:3], np.zeros(3)]), dt)  # the turn exp(dt w)
    q_ref[:3] = q64[:3] + dt * R[0] @ v_at_q[3:]  # the straight line
    R1, _ = treedyn.forward_kinematics(m64, q_ref)
    v_ref = np.concatenate([v_at_q[:3], R1[0].T @ R[0] @ v_at_q[3:]])  # v_O in the new body frame
    tol = 1e3 * eps(dtype) * np.linalg.cond(H)
    np.testing.assert_allclose(v1, v_ref, atol=tol * np.abs(v_ref).max())
    np.testing.assert_allclose(q1, q_ref, atol=tol)
    np.testing.assert_allclose(ws.impulses[0], P, atol=tol * np.abs(P).max())
    assert ws.normal_impulses[0] == pytest.approx(P[2], abs=tol * np.abs(P).max())
    if mu > 0:  # sticking: the contact point comes to rest
        v1_at_q = np.concatenate([v1[:3], R[0].T @ R1[0] @ v1[3:]]).astype(np.float64)
        assert np.abs(Jp @ v1_at_q).max() <= tol * np.abs(v64).max()


def test_contact_step_in_place_and_sphere_pendulum(dtype):
    model = sphere_model(dtype)
    ws = treedyn.ContactStep(model, 1)
    q, v = state(dtype, (0, 0, 1.0)), np.zeros(6, dtype)
    q_out, v_out, status = treedyn.contact_step(model, ws, q, v, np.zeros(6, dtype), [], 0.01, inplace=True)
    assert q_out is q and v_out is v and status.ok and status.contacts == 0
    assert v[5] == pytest.approx(-G * 0.01, rel=8 * eps(dtype))
    np.testing.assert_array_equal(ws.v_next, v)

    sp = treedyn.robots.sphere_pendulum(3, dtype)
    assert sp.links == 3 and sp.radius == pytest.approx(2.0)
    assert sp.os.dtype == dtype and sp.os_q.dtype == dtype and sp.nmc.nq == 21
    assert [s.type for s in sp.os_geometry.shapes] == ["sphere"] * 3 + ["plane"] * 2
    nmc_ws = treedyn.ContactStep(sp.nmc, sp.nmc_geometry.max_contacts, bilateral=sp.hinges)
    assert nmc_ws.bilateral_rows == 15
    contacts = treedyn.detect_contacts(sp.nmc, sp.nmc_geometry, sp.nmc_q, 0.0)
    assert contacts == []  # the initial pose touches nothing
    _, v1, status = treedyn.contact_step(sp.nmc, nmc_ws, sp.nmc_q, sp.nmc_v, np.zeros(18, dtype), contacts, 1e-3)
    assert status.ok
    _, v_os, _ = treedyn.contact_step(sp.os, treedyn.ContactStep(sp.os, 1), sp.os_q, sp.os_v, np.zeros(3, dtype), [], 1e-3)
    # the base sphere's angular velocity about z is its hinge rate in both formulations
    assert v1[2] == pytest.approx(v_os[0], abs=1e3 * eps(dtype))


def test_bad_inputs_raise_value_error():
    m64, m32 = sphere_model(np.float64), sphere_model(np.float32)
    ws32 = treedyn.ContactStep(m32, 1)
    q, v = state(np.float64, (0, 0, RADIUS)), np.zeros(6)
    with pytest.raises(ValueError, match=r"contact_step: argument 'workspace' was built for a float32 model; "
                                         r"given a Model \(float64\)"):
        treedyn.contact_step(m64, ws32, q, v, v, [], 1e-3)
    with pytest.raises(ValueError, match=r"argument 'workspace' was built for another model"):
        treedyn.contact_step(sphere_model(np.float32), ws32, q.astype(np.float32), v.astype(np.float32),
                             v.astype(np.float32), [], 1e-3)
    ws, ws2 = treedyn.ContactStep(m64, 1), treedyn.ContactStep(m64, 2)
    with pytest.raises(ValueError, match=r"contact_step: argument 'q' must be a numpy.ndarray of dtype float64 and "
                                         r"shape \(7,\) \(model.nq\); given dtype float32 and shape \(7,\)"):
        treedyn.contact_step(m64, ws, q.astype(np.float32), v, v, [], 1e-3)
    with pytest.raises(ValueError, match=r"argument 'tau' must be .* shape \(6,\) \(model.nv\); given dtype float64 "
                                         r"and shape \(5,\)"):
        treedyn.contact_step(m64, ws, q, v, np.zeros(5), [], 1e-3)
    with pytest.raises(ValueError, match=r"contact_step: argument 'dt' must be a finite step > 0"):
        treedyn.contact_step(m64, ws, q, v, v, [], 0.0)
    with pytest.raises(ValueError, match=r"contact_step: 2 contacts given; the workspace holds at most 1"):
        treedyn.contact_step(m64, ws, q, v, v, [treedyn.Contact(), treedyn.Contact()], 1e-3)
    with pytest.raises(ValueError, match=r"contact_step: contact 0: friction coefficient mu must be finite and >= 0 "
                                         r"\(given mu = -1\)"):
        treedyn.contact_step(m64, ws, q, v, v, [treedyn.Contact(mu=-1.0)], 1e-3)
    with pytest.raises(ValueError, match=r"contact_step: contact 1: restitution must lie in \[0, 1\] "
                                         r"\(given restitution = 1.5\)"):
        treedyn.contact_step(m64, ws2, q, v, v, [treedyn.Contact(), treedyn.Contact(restitution=1.5)], 1e-3)
    with pytest.raises(ValueError, match=r"contact_step: contact 0: the normal is zero or not finite "
                                         r"\(given a normal of length 0\)"):
        treedyn.contact_step(m64, ws, q, v, v, [treedyn.Contact(normal=(0, 0, 0))], 1e-3)
    with pytest.raises(ValueError, match=r"contact_step: contact 0: the distance is not finite \(given distance = nan\)"):
        treedyn.contact_step(m64, ws, q, v, v, [treedyn.Contact(distance=float("nan"))], 1e-3)
    with pytest.raises(ValueError, match=r"contact_step: contact 0: friction_directions = 8 exceeds the workspace's 4"):
        treedyn.contact_step(m64, ws, q, v, v, [treedyn.Contact(friction_directions=8)], 1e-3)
    with pytest.raises(ValueError, match=r"contact_step: contact 0: body_a = 3 is not a body of the model"):
        treedyn.contact_step(m64, ws, q, v, v, [treedyn.Contact(body_a=3)], 1e-3)
    strided = np.zeros((7, 2))[:, 0]
    strided[:] = q
    with pytest.raises(ValueError, match=r"argument 'q' must be C-contiguous and writeable for inplace=True"):
        treedyn.contact_step(m64, ws, strided, v, v, [], 1e-3, inplace=True)
    with pytest.raises(ValueError, match=r"contact_step: argument 'model' must be a treedyn.Model \(float64\) or "
                                         r"treedyn.ModelF32 \(float32\); given int"):
        treedyn.contact_step(3, ws, q, v, v, [], 1e-3)
    with pytest.raises(ValueError, match=r"CollisionGeometry: shape 0 'ball' \(sphere\): the radius must be finite "
                                         r"and > 0"):
        treedyn.CollisionGeometry(m64, [treedyn.Shape.sphere(0, (0, 0, 0), -1.0, "ball")])
    with pytest.raises(ValueError, match=r"detect_contacts: argument 'geometry' was built for a float64 model; "
                                         r"given a ModelF32 \(float32\)"):
        treedyn.detect_contacts(m32, ground(m64), q.astype(np.float32))
    with pytest.raises(ValueError, match=r"detect_contacts: need .* margin finite; given .* margin = nan"):
        treedyn.detect_contacts(m64, ground(m64), q, float("nan"))
    with pytest.raises(ValueError, match=r"detect_contacts: need mu finite and >= 0.*given mu = -1"):
        treedyn.detect_contacts(m64, ground(m64), q, 0.0, mu=-1.0)
    with pytest.raises(ValueError, match=r"ContactStep: bilateral constraint 0: body_a and body_b are the same body"):
        treedyn.ContactStep(m64, 1, bilateral=[treedyn.BilateralConstraint(0, 0)])
    with pytest.raises(ValueError, match=r"lemke: argument 'M' must be a numpy.ndarray of dtype float64 and shape "
                                         r"\(2, 2\) \(len\(q\), len\(q\)\); given dtype float64 and shape \(2, 3\)"):
        treedyn.lemke(np.zeros((2, 3)), np.zeros(2))
    with pytest.raises(ValueError, match=r"lemke: argument 'q' must be a numpy.ndarray of dtype float32"):
        treedyn.lemke(np.eye(2, dtype=np.float32), np.zeros(2))
    with pytest.raises(ValueError, match=r"lemke: argument 'M' must be a numpy.ndarray of dtype float64 or float32; "
                                         r"given dtype int64"):
        treedyn.lemke(np.eye(2, dtype=np.int64), np.zeros(2))


def test_threads_sharing_a_workspace_get_the_serial_result():
    """Two threads stepping one workspace through two handles of the same model (Model.cast keeps the id, so
    the model's lock alone would not serialise them): each thread's steps give the serial result."""
    import threading

    model = sphere_model(np.float64)
    models = [model, model.cast(np.float64)]
    geometry = ground(model)
    ws = treedyn.ContactStep(model, 1)
    q0, v0, tau = state(np.float64, (0, 0, RADIUS)), np.array([0, 0, 0, 0.1, 0, -0.5]), np.zeros(6)

    def run(m, out):
        q, v = q0.copy(), v0.copy()
        for _ in range(200):
            contacts = treedyn.detect_contacts(m, geometry, q, 1e-3, restitution=0.5)
            q, v, _ = treedyn.contact_step(m, ws, q, v, tau, contacts, 1e-3)
        out.append(np.concatenate([q, v]))

    serial = []
    run(model, serial)
    results = []
    threads = [threading.Thread(target=run, args=(m, results)) for m in models]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2
    for r in results:
        np.testing.assert_array_equal(r, serial[0])


def body_rotation(q):
    """R (world = R * body) of a free joint's quaternion (x, y, z, w) in q[3:7]."""
    x, y, z, w = (float(c) for c in q[3:7])
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


@pytest.mark.parametrize("directions", [4, 8])
def test_metrics_of_a_sphere_sliding_between_two_pyramid_directions(dtype, directions):
    """contact_metrics through ContactStep.metrics: sliding along a direction of the pyramid nothing is violated;
    on the bisector of two directions the friction falls short of Coulomb's maximum dissipation by exactly
    mu F_n |w_t| (1 - cos(pi/n_f)) (docs/contact.md#contact-metrics), w_t the contact point's slip after the step."""
    model = sphere_model(dtype)
    mu, dt, v0 = 0.2, 1e-3, 2.0
    ws = treedyn.ContactStep(model, 1, directions)
    q = state(dtype, (0, 0, RADIUS))
    contact = treedyn.Contact(body_a=0, point_a=(0, 0, -RADIUS), normal=(0, 0, 1), mu=mu,
                              friction_directions=directions, tangent=(1, 0, 0))
    for angle in (0.0, np.pi / directions):
        v = np.array([0, 0, 0, v0 * np.cos(angle), v0 * np.sin(angle), 0], dtype)
        q1, v1, status = treedyn.contact_step(model, ws, q, v, np.zeros(6, dtype), [contact], dt)
        assert status.ok
        R = body_rotation(q1)
        slip_vector = R @ v1[3:].astype(float) + np.cross(R @ v1[:3].astype(float), (0, 0, -RADIUS))
        slip, F_n = np.linalg.norm(slip_vector[:2]), float(ws.normal_impulses[0])
        metrics = ws.metrics
        assert metrics["contacts"] == 1
        tol = 256 * eps(dtype)
        assert metrics["approach"] <= tol * v0 and metrics["cone"] <= tol * MASS * G * dt
        expected = mu * F_n * slip * (1 - np.cos(np.pi / directions)) if angle > 0 else 0.0
        assert metrics["dissipation"] == pytest.approx(expected, abs=tol * v0 * F_n, rel=64 * eps(dtype))
        if angle > 0:
            assert metrics["dissipation_contact"] == 0


def test_drift_correction_moves_a_sunken_sphere_out_without_velocity(dtype):
    """ContactStep.stabilisation (docs/contact.md#drift-correction): a sphere 1 mm into the floor rises by the
    fraction beta of its depth per step, with its velocity left at rest; 0 switches the correction off."""
    model = sphere_model(dtype)
    geometry = ground(model)
    depth, dt = 1e-3, 1e-3
    for beta in (0.0, 0.5):
        ws = treedyn.ContactStep(model, geometry.max_contacts)
        assert ws.stabilisation == pytest.approx(0.2)
        ws.stabilisation = beta
        q, v = state(dtype, (0, 0, RADIUS - depth)), np.zeros(6, dtype)
        contacts = treedyn.detect_contacts(model, geometry, q, 1e-3, mu=0.5)
        q1, v1, status = treedyn.contact_step(model, ws, q, v, np.zeros(6, dtype), contacts, dt)
        assert status.ok
        assert RADIUS - float(q1[2]) == pytest.approx((1 - beta) * depth, rel=1e3 * eps(dtype))
        assert np.abs(v1).max() <= 64 * eps(dtype) * G * dt
    with pytest.raises(ValueError, match="stabilisation"):
        ws.stabilisation = 1.5


def test_exact_cone_slides_with_coulomb_friction_in_every_direction(dtype):
    """ContactStep.friction_cone = 'exact' (docs/contact.md#exact-friction-cone): a sphere sliding on the bisector
    of two pyramid directions, where the 4-sided pyramid falls short of Coulomb's friction, is slowed by exactly
    mu g dt along its sliding direction (the spin it gains: 5/2 mu g dt / r), and contact_metrics reports no
    violation; the pyramid falls short of it by about a fifth of mu g dt."""
    model = sphere_model(dtype)
    mu, dt, v0 = 0.2, 1e-3, 2.0
    contact = treedyn.Contact(body_a=0, point_a=(0, 0, -RADIUS), normal=(0, 0, 1), mu=mu, tangent=(1, 0, 0))
    heading = np.array([1.0, 1.0, 0.0]) / np.sqrt(2.0)
    q = state(dtype, (0, 0, RADIUS))
    v = np.concatenate([np.zeros(3), v0 * heading]).astype(dtype)
    speeds = {}
    for cone in ("pyramid", "exact"):
        ws = treedyn.ContactStep(model, 1)
        assert ws.friction_cone == "pyramid"
        ws.friction_cone = cone
        q1, v1, status = treedyn.contact_step(model, ws, q, v, np.zeros(6, dtype), [contact], dt)
        assert status.ok
        assert status.lcp_size == (3 if cone == "exact" else 6)
        speeds[cone] = body_rotation(q1) @ v1[3:].astype(float)  # world coordinates
        if cone == "exact":
            assert status.lcp.pivots >= 1
            assert status.lcp.residual <= 1e3 * eps(dtype) * v0
            metrics = ws.metrics
            assert metrics["cone"] <= 256 * eps(dtype) * MASS * G * dt
            assert metrics["dissipation"] <= 256 * eps(dtype) * v0 * MASS * G * dt
    expected = (v0 - mu * G * dt) * heading
    tol = 1e3 * eps(dtype) * v0
    assert np.abs(speeds["exact"] - expected).max() <= tol
    # the 4-sided pyramid's friction on its bisector falls short by mu g dt (1 - cos 45 deg) / sqrt 2 = 0.207 mu g dt
    # per horizontal component: a physical gap, far above either dtype's round-off
    assert np.abs(speeds["pyramid"] - expected).max() > 0.15 * mu * G * dt
    ws = treedyn.ContactStep(model, 1)
    with pytest.raises(ValueError, match="friction_cone"):
        ws.friction_cone = "elliptic"
