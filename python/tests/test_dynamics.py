"""treedyn's Python bindings against independent NumPy computations, in float64 and float32.

Tolerances: c * n * eps(dtype) for identities that hold to rounding, times cond(H) for solves and inverses.
Float32 results are compared with float64 computations on the float64 copy of the same (rounded) model.
"""
import numpy as np
import pytest

import treedyn


def eps(dtype):
    return float(np.finfo(dtype).eps)


def as64(x):
    return np.asarray(x, dtype=np.float64)


def test_crba_equals_rnea_columns(robot):
    model, _, q, _, _ = robot
    n, dt = model.nv, model.dtype
    H = treedyn.crba(model, q)
    assert H.dtype == dt and H.shape == (n, n)
    zero = np.zeros(n, dt)
    C0 = treedyn.bias(model, q, zero)
    cols = np.empty((n, n))
    for j in range(n):
        e = np.zeros(n, dt)
        e[j] = 1
        cols[:, j] = as64(treedyn.rnea(model, q, zero, e)) - as64(C0)
    scale = np.abs(H).max() + np.abs(C0).max()
    assert np.abs(as64(H) - cols).max() <= 64 * n * eps(dt) * scale
    assert np.array_equal(H, H.T)


def test_aba_equals_solve(robot):
    model, model64, q, v, tau = robot
    n = model.nv
    H = treedyn.crba(model64, as64(q))
    C = treedyn.bias(model64, as64(q), as64(v))
    ref = np.linalg.solve(H, as64(tau) - C)
    kappa = np.linalg.cond(H)
    tol = 64 * n * eps(model.dtype) * kappa * (np.abs(ref).max() + 1)
    for fd in (treedyn.aba, treedyn.modified_aba, treedyn.forward_dynamics_crba):
        qdd = fd(model, q, v, tau)
        assert qdd.dtype == model.dtype and qdd.shape == (n,)
        assert model.last_status.ok
        assert np.abs(as64(qdd) - ref).max() <= tol, fd.__name__


def test_minverse_equals_inverse(robot):
    model, model64, q, _, _ = robot
    n = model.nv
    H = treedyn.crba(model64, as64(q))
    Hinv = np.linalg.inv(H)
    tol = 64 * n * eps(model.dtype) * np.linalg.cond(H) * np.abs(Hinv).max()
    for inverse in (treedyn.minverse_ltdl, treedyn.minverse_aba):
        M = inverse(model, q)
        assert M.dtype == model.dtype and M.shape == (n, n)
        assert model.last_status.ok
        assert np.abs(as64(M) - Hinv).max() <= tol, inverse.__name__


def test_external_forces_enter_through_the_body_jacobian(robot):
    """rnea(f_ext) = rnea(0) - J_b^T f for a force f on body b (body coordinates, angular first)."""
    model, _, q, v, _ = robot
    n, dt = model.nv, model.dtype
    a = np.linspace(-1, 1, n).astype(dt)
    b = model.nbodies - 1
    f_ext = np.zeros((model.nbodies, 6), dt)
    f_ext[b] = [0.3, -0.2, 0.1, 2.0, -1.0, 0.5]
    J = treedyn.frame_jacobian(model, q, b)
    tau0 = treedyn.rnea(model, q, v, a)
    tau = treedyn.rnea(model, q, v, a, f_ext=f_ext)
    expected = as64(tau0) - as64(J).T @ as64(f_ext[b])
    assert np.abs(as64(tau) - expected).max() <= 256 * n * eps(dt) * (np.abs(tau0).max() + 1)


def test_frame_jacobian_is_the_derivative_of_the_placement():
    model = treedyn.robots.arm7(np.float64)
    q = treedyn.random_configuration(model, 5)
    v = np.linspace(-1, 1, model.nv)
    frame = model.frame_names[-1]
    J = treedyn.frame_jacobian(model, q, frame, "world_aligned")
    h = 1e-6
    _, p1 = treedyn.frame_placement(model, treedyn.integrate(model, q, v, h), frame)
    _, p0 = treedyn.frame_placement(model, treedyn.integrate(model, q, v, -h), frame)
    assert np.abs((p1 - p0) / (2 * h) - (J @ v)[3:]).max() < 1e-7
    R0, p = treedyn.frame_placement(model, q, 0)
    R, p_fk = treedyn.forward_kinematics(model, q)
    assert np.array_equal(R0, R[0]) and np.array_equal(p, p_fk[0])


def test_configuration_space(robot):
    model, _, q, v, _ = robot
    q1 = treedyn.integrate(model, q, v, 0.1)
    assert q1.dtype == model.dtype and q1.shape == (model.nq,)
    back = treedyn.difference(model, q, q1)
    assert np.abs(as64(back) - 0.1 * as64(v)).max() <= 1e3 * eps(model.dtype)
    q0 = treedyn.neutral(model)
    assert q0.dtype == model.dtype and np.array_equal(treedyn.integrate(model, q0, np.zeros(model.nv, model.dtype)), q0)


def test_forward_kinematics_returns_rotations_and_positions(robot):
    model, _, q, _, _ = robot
    R, p = treedyn.forward_kinematics(model, q)
    assert R.dtype == model.dtype and R.shape == (model.nbodies, 3, 3) and p.shape == (model.nbodies, 3)
    I = np.einsum("bij,bkj->bik", as64(R), as64(R))
    assert np.abs(I - np.eye(3)).max() <= 1e3 * eps(model.dtype)


def test_out_arrays_are_written_and_returned(robot):
    model, _, q, v, tau = robot
    out = np.empty(model.nv, model.dtype)
    r = treedyn.aba(model, q, v, tau, out=out)
    assert r is out and np.array_equal(out, treedyn.aba(model, q, v, tau))
    out2 = np.empty(model.nv, model.dtype)
    assert treedyn.rnea(model, q, v, out, out=out2) is out2


def test_aba_batch_equals_a_loop_bit_for_bit(robot):
    model, _, q, v, tau = robot
    k = 5
    Q = np.stack([treedyn.random_configuration(model, s) for s in range(k)])
    V = np.tile(v, (k, 1)) * np.arange(1, k + 1, dtype=model.dtype)[:, None]
    T = np.tile(tau, (k, 1))
    expected = np.stack([treedyn.aba(model, Q[i], V[i], T[i]) for i in range(k)])
    for threads in (1, 2):
        QDD = treedyn.aba_batch(model, Q, V, T, threads=threads)
        assert QDD.dtype == model.dtype and np.array_equal(QDD, expected)
        assert model.last_batch_status.ok and model.last_batch_status.failures == 0


def test_float32_model_returns_float32_arrays():
    m = treedyn.robots.arm7(np.float32)
    assert isinstance(m, treedyn.ModelF32) and m.dtype == np.float32
    q = treedyn.neutral(m)
    z = np.zeros(m.nv, np.float32)
    for r in (q, treedyn.rnea(m, q, z, z), treedyn.aba(m, q, z, z), treedyn.crba(m, q), treedyn.minverse_aba(m, q),
              treedyn.frame_jacobian(m, q, 0), treedyn.forward_kinematics(m, q)[0], m.gravity):
        assert r.dtype == np.float32
    m64 = m.cast(np.float64)
    assert isinstance(m64, treedyn.Model) and m64.id == m.id


def test_bad_dtype_and_shape_raise_value_error():
    m = treedyn.robots.arm7()
    q = treedyn.neutral(m)
    z = np.zeros(m.nv)
    with pytest.raises(ValueError, match=r"aba: argument 'q' must be a numpy.ndarray of dtype float64 and shape "
                                         r"\(7,\) \(model.nq\); given dtype float32 and shape \(7,\)"):
        treedyn.aba(m, q.astype(np.float32), z, z)
    with pytest.raises(ValueError, match=r"argument 'tau' .* shape \(7,\) \(model.nv\); given dtype float64 and shape \(6,\)"):
        treedyn.aba(m, q, z, z[:6])
    with pytest.raises(ValueError, match=r"argument 'v' .*; given list"):
        treedyn.rnea(m, q, list(z), z)
    with pytest.raises(ValueError, match=r"argument 'out' must be"):
        treedyn.aba(m, q, z, z, out=np.zeros(7, np.float32))
    with pytest.raises(ValueError, match=r"argument 'f_ext' .* shape \(7, 6\)"):
        treedyn.aba(m, q, z, z, f_ext=np.zeros((7, 3)))
    with pytest.raises(ValueError, match=r"crba: argument 'q' must be a numpy.ndarray of dtype float32"):
        treedyn.crba(m.cast(np.float32), q)
    with pytest.raises(ValueError, match=r"aba_batch: argument 'T' .* shape \(2, 7\)"):
        treedyn.aba_batch(m, np.stack([q, q]), np.zeros((2, 7)), np.zeros((3, 7)))
    with pytest.raises(ValueError, match="dtype must be numpy.float64 or numpy.float32"):
        treedyn.robots.arm7(np.int32)


def test_bad_model_raises_value_error():
    b = treedyn.ModelBuilder()
    with pytest.raises(ValueError, match=r"body 0 \('link'\): negative mass"):
        b.add_body(-1, treedyn.Joint.revolute([0, 0, 1]), mass=-1.0, name="link")
    with pytest.raises(ValueError, match=r"parent 3 is not yet defined"):
        b.add_body(3, treedyn.Joint.revolute([0, 0, 1]), mass=1.0)
    with pytest.raises(ValueError, match=r"joint axis is zero"):
        b.add_body(-1, treedyn.Joint.revolute([0, 0, 0]), mass=1.0)
    with pytest.raises(ValueError, match=r"not orthonormal"):
        b.add_body(-1, treedyn.Joint.revolute([0, 0, 1]), rotation=2 * np.eye(3), mass=1.0)
    with pytest.raises(ValueError, match=r"no body called 'nothing'"):
        treedyn.robots.arm7().body_index("nothing")


def test_statuses_name_the_failing_dof_or_body():
    b = treedyn.ModelBuilder()
    b.add_body(-1, treedyn.Joint.revolute([0, 0, 1]), mass=1.0, com=[1, 0, 0], inertia=np.eye(3))
    b.add_body(0, treedyn.Joint.revolute([0, 0, 1]), translation=[1, 0, 0])  # massless tip: H singular
    m = b.build()
    q = treedyn.neutral(m)
    z = np.zeros(m.nv)
    qdd = treedyn.forward_dynamics_crba(m, q, z, z)
    s = m.last_status
    assert not s and s.code == treedyn.StatusCode.non_positive_pivot and s.row == 1 and not s.names_body
    assert np.isnan(qdd).all()
    treedyn.aba(m, q, z, z)
    s = m.last_status
    assert s.code == treedyn.StatusCode.non_positive_pivot and s.row == 1 and s.names_body
    ff = treedyn.robots.random_tree(12, 7)
    qb = treedyn.random_configuration(ff, 1)
    body = next(i for i in range(ff.nbodies) if ff.joint(i).type == treedyn.JointType.free_flyer)
    qb[ff.q_offsets[body] + 3: ff.q_offsets[body] + 7] = 0.0
    treedyn.rnea(ff, qb, np.zeros(ff.nv), np.zeros(ff.nv))
    s = ff.last_status
    assert s.code == treedyn.StatusCode.invalid_configuration and s.row == body and s.names_body


@pytest.mark.skipif(not treedyn.has_urdf, reason="the urdf component is not built")
def test_urdf_robot_matches_the_built_in_one():
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "robots" / "arm7.urdf"
    m, report = treedyn.load_urdf(str(path), dtype=np.float32)
    assert isinstance(m, treedyn.ModelF32) and m.nv == 7 and isinstance(report, list)
    ref = treedyn.robots.arm7()
    q = treedyn.random_configuration(ref, 2)
    H = treedyn.crba(ref, q)
    H32 = treedyn.crba(m, q.astype(np.float32))
    assert np.abs(as64(H32) - H).max() <= 1e3 * eps(np.float32) * np.abs(H).max() * np.linalg.cond(H)
    with pytest.raises(ValueError, match="treedyn::urdf"):
        treedyn.load_urdf("<robot name='x'><link name='a'/><joint name='j' type='revolute'/></robot>")


def test_named_frames_on_merged_bodies():
    b = treedyn.ModelBuilder()
    b.add_body(-1, treedyn.Joint.fixed(), translation=[0, 0, 1], name="table")
    link = b.add_body(0, treedyn.Joint.revolute([0, 0, 1]), mass=1.0, com=[0.5, 0, 0], inertia=0.01 * np.eye(3),
                      name="link")
    b.add_body(link, treedyn.Joint.fixed(), translation=[1, 0, 0], name="tool")
    m = b.build()
    assert m.nbodies == 1 and set(m.frame_names) == {"table", "link", "tool"}
    q = np.array([np.pi / 2])
    R, p = treedyn.frame_placement(m, q, "table")
    assert np.allclose(R, np.eye(3)) and np.allclose(p, [0, 0, 1])
    assert not treedyn.frame_jacobian(m, q, "table").any()
    _, p_tool = treedyn.frame_placement(m, q, "tool")
    assert np.allclose(p_tool, [0, 1, 1], atol=1e-15)
    J = treedyn.frame_jacobian(m, q, "tool", "world_aligned")
    assert np.allclose(J[:, 0], [0, 0, 1, -1, 0, 0], atol=1e-15)


def test_model_structure_and_gravity(robot):
    model, _, q, _, _ = robot
    parents = model.parents
    assert len(parents) == model.nbodies and all(-1 <= p < i for i, p in enumerate(parents))
    nq = [model.joint(i).nq for i in range(model.nbodies)]
    nv = [model.joint(i).nv for i in range(model.nbodies)]
    assert model.q_offsets == list(np.cumsum([0] + nq[:-1])) and sum(nq) == model.nq
    assert model.v_offsets == list(np.cumsum([0] + nv[:-1])) and sum(nv) == model.nv
    assert [model.body_index(name) for name in model.body_names] == list(range(model.nbodies))
    zero = np.zeros(model.nv, model.dtype)
    g = as64(model.gravity)
    C1 = as64(treedyn.bias(model, q, zero))
    C2 = as64(treedyn.bias(model.with_gravity(2 * g), q, zero))
    assert np.abs(C2 - 2 * C1).max() <= 64 * model.nv * eps(model.dtype) * (np.abs(C1).max() + 1)
    assert not treedyn.bias(model.with_gravity([0, 0, 0]), q, zero).any()


def test_builder_metadata():
    b = treedyn.ModelBuilder()
    i = b.add_body(-1, treedyn.Joint.helical([0, 0, 2], 0.1), mass=1.0, inertia=np.eye(3), name="screw")
    b.set_joint_name(i, "j0")
    b.set_joint_limits(i, lower=-1.0, upper=1.0)
    b.set_gravity([0, -9.81, 0])
    with pytest.raises(ValueError, match="lower position limit above the upper one"):
        b.set_joint_limits(i, lower=2.0, upper=1.0)
    m = b.build(np.float32)
    assert isinstance(m, treedyn.ModelF32) and len(b) == 1
    assert m.joint_names == ["j0"] and m.joint_index("j0") == 0
    assert m.joint(0).type == treedyn.JointType.helical and np.allclose(m.joint(0).axis, [0, 0, 1])
    assert np.array_equal(m.gravity, np.array([0, -9.81, 0], np.float32))


def test_rnea_and_crba_batch_equal_a_loop_bit_for_bit(robot):
    model, _, q, v, tau = robot
    k = 5
    Q = np.stack([treedyn.random_configuration(model, s) for s in range(k)])
    V = np.tile(v, (k, 1)) * np.arange(1, k + 1, dtype=model.dtype)[:, None]
    A = np.tile(tau, (k, 1))[:, ::-1]  # a strided view: rows are read in place
    tau_loop = np.stack([treedyn.rnea(model, Q[i], V[i], A[i]) for i in range(k)])
    H_loop = np.stack([treedyn.crba(model, Q[i]) for i in range(k)])
    for threads in (1, 2):
        TAU = treedyn.rnea_batch(model, Q, V, A, threads=threads)
        assert TAU.dtype == model.dtype and TAU.shape == (k, model.nv) and np.array_equal(TAU, tau_loop)
        assert model.last_batch_status.ok
        H = treedyn.crba_batch(model, Q, threads=threads)
        assert H.dtype == model.dtype and H.shape == (k, model.nv, model.nv) and np.array_equal(H, H_loop)
        assert model.last_batch_status.ok
    out = np.empty((k, model.nv, model.nv), model.dtype)
    assert treedyn.crba_batch(model, Q, out=out) is out and np.array_equal(out, H_loop)
    out = np.empty((k, model.nv), model.dtype)
    assert treedyn.rnea_batch(model, Q, V, A, out=out) is out and np.array_equal(out, tau_loop)
    with pytest.raises(ValueError, match=r"crba_batch: argument 'out' .* shape \(5, "):
        treedyn.crba_batch(model, Q, out=np.empty((k, model.nv), model.dtype))
    with pytest.raises(ValueError, match=r"rnea_batch: argument 'A' .* shape \(5, "):
        treedyn.rnea_batch(model, Q, V, A[:2])


def test_batch_status_names_a_failed_row():
    m = treedyn.robots.humanoid30()
    Q = np.stack([treedyn.random_configuration(m, s) for s in range(4)])
    Q[2, :] = 0.0  # zero quaternion: invalid configuration
    H = treedyn.crba_batch(m, Q)
    s = m.last_batch_status
    assert not s.ok and s.failures == 1 and s.first_failed == 2
    assert s.first_status.code == treedyn.StatusCode.invalid_configuration
    assert np.isnan(H[2]).any() and np.isfinite(H[[0, 1, 3]]).all()
    treedyn.rnea_batch(m, Q, np.zeros((4, m.nv)), np.zeros((4, m.nv)))
    assert m.last_batch_status.failures == 1 and m.last_batch_status.first_failed == 2


def test_a_non_model_first_argument_raises_value_error():
    m = treedyn.robots.arm7()
    q = treedyn.neutral(m)
    z = np.zeros(m.nv)
    calls = [
        (treedyn.aba, (q, z, z)), (treedyn.rnea, (q, z, z)), (treedyn.crba, (q,)), (treedyn.neutral, ()),
        (treedyn.rnea_batch, (q[None], z[None], z[None])), (treedyn.crba_batch, (q[None],)),
        (treedyn.minverse_aba, (q,)), (treedyn.forward_kinematics, (q,)),
    ]
    for fn, args in calls:
        with pytest.raises(ValueError, match=fn.__name__ + r": argument 'model' must be a treedyn.Model \(float64\) or "
                                            r"treedyn.ModelF32 \(float32\); given ndarray"):
            fn(q, *args)
    with pytest.raises(ValueError, match=r"given NoneType"):
        treedyn.aba(None, q, z, z)
    frames = treedyn.OperationalFrames(m)
    frames.add(m.nbodies - 1)
    with pytest.raises(ValueError, match=r"oscm: argument 'frames' must be a treedyn.OperationalFramesF32"):
        treedyn.oscm(m.cast(np.float32), frames, q.astype(np.float32))
    assert "float32" in treedyn.aba.__doc__ and "float64" in treedyn.aba.__doc__


# The calls a controller tick reaches for first: frame_placements, gravity_torques, solve_H, compute_all_terms.

def test_frame_placements_equal_frame_placement_per_name(robot):
    model, _, q, _, _ = robot
    R, p = treedyn.frame_placements(model, q)
    names = model.frame_names
    assert R.shape == (len(names), 3, 3) and p.shape == (len(names), 3)
    assert R.dtype == model.dtype
    for f, name in enumerate(names):
        Rf, pf = treedyn.frame_placement(model, q, name)
        assert np.array_equal(R[f], Rf) and np.array_equal(p[f], pf)
    # rotations: orthonormal to rounding
    n = as64(R)
    assert np.abs(np.einsum("fij,fik->fjk", n, n) - np.eye(3)).max() <= 16 * eps(model.dtype)


def test_gravity_torques_equal_bias_at_rest(robot):
    model, _, q, _, _ = robot
    n, dt = model.nv, model.dtype
    g = treedyn.gravity_torques(model, q)
    C0 = treedyn.bias(model, q, np.zeros(n, dt))
    assert g.dtype == dt and g.shape == (n,)
    assert np.abs(C0).max() > 0
    assert np.abs(as64(g) - as64(C0)).max() <= 8 * n * eps(dt) * np.abs(C0).max()


def test_solve_H_equals_a_dense_solve(robot):
    model, model64, q, v, _ = robot
    n, dt = model.nv, model.dtype
    x = treedyn.solve_H(model, q, v)
    assert model.last_status.ok
    H64 = treedyn.crba(model64, as64(q))
    ref = np.linalg.solve(H64, as64(v))
    kappa = np.linalg.cond(H64)
    assert np.linalg.norm(as64(x) - ref) <= 64 * (n + 1) * eps(dt) * kappa * (np.linalg.norm(ref) + 1)


def test_compute_all_terms_equals_the_separate_calls(robot):
    model, _, q, v, _ = robot
    n = model.nv
    terms = treedyn.compute_all_terms(model, q, v)
    assert model.last_status.ok
    assert np.array_equal(terms["H"], treedyn.crba(model, q))
    assert np.array_equal(terms["C"], treedyn.bias(model, q, v))
    assert np.array_equal(terms["g"], treedyn.gravity_torques(model, q))
    R, p = treedyn.frame_placements(model, q)
    assert np.array_equal(terms["R"], R) and np.array_equal(terms["p"], p)
    assert terms["C"].shape == (n,)


def test_solve_H_reports_a_wrong_size():
    model = treedyn.robots.arm7()
    q = treedyn.neutral(model)
    with pytest.raises(ValueError, match="solve_H: argument 'b'"):
        treedyn.solve_H(model, q, np.zeros(model.nv + 1))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_inputs_are_named(robot, bad):
    """A NaN or an infinity in q, v, a or tau: last_status non_finite_input naming the argument (by its
    Python name) and the entry, the output NaN; the next finite call succeeds."""
    model, _, q, v, tau = robot
    k = model.nv // 2
    for call, args, name in [
        (treedyn.aba, (q, v, tau), "tau"),
        (treedyn.aba, (q, v, tau), "v"),
        (treedyn.rnea, (q, v, tau), "a"),
        (treedyn.bias, (q, v), "v"),
        (treedyn.forward_dynamics_crba, (q, v, tau), "tau"),
        (treedyn.aba, (q, v, tau), "q"),
    ]:
        position = {"q": 0, "v": 1, "a": 2, "tau": 2}[name]
        spoilt = [np.array(x) for x in args]
        spoilt[position][k] = bad
        out = call(model, *spoilt)
        s = model.last_status
        assert not s and s.code == treedyn.StatusCode.non_finite_input, (call.__name__, name, str(s))
        assert s.argument == name and s.row == k and not s.names_body
        assert f"non_finite_input in {name} at entry {k}" in str(s)
        assert np.isnan(out).all()
        call(model, *args)
        assert model.last_status.ok and model.last_status.argument is None
