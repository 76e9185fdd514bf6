"""The batched calls on SIMD lanes (aba_batch, rnea_batch, crba_batch with lanes=True; docs/python.md#batches) and
the derivative batches (rnea_derivatives_batch, aba_derivatives_batch, against the single-row calls bit for bit).

References: the single-row calls in a Python loop (lanes=False is checked bit for bit against them in
test_dynamics.py). A lane result may differ from the single-row call by a few ulps of its sin and cos, carried
through the kernel: c * nbodies * eps * (1 + max|x|) for rnea and crba, times cond(H) for aba (a solve with H).
Each row's lane result must not depend on the other rows, the packing or the thread count (bit for bit).
"""
import numpy as np
import pytest

import treedyn


def eps(dtype):
    return float(np.finfo(dtype).eps)


def states(model, k, seed):
    rng = np.random.default_rng(seed)
    Q = np.stack([treedyn.random_configuration(model, seed + s) for s in range(k)])
    V = rng.uniform(-1.0, 1.0, (k, model.nv)).astype(model.dtype)
    X = rng.uniform(-5.0, 5.0, (k, model.nv)).astype(model.dtype)
    return Q, V, X


def failing_states(model, k, seed, quaternion_row, bad):
    """states() with the free flyer's quaternion (x, y, z, w) zeroed in row quaternion_row on a floating-base
    model (invalid_configuration) and bad = (name 'V' or 'X', row, column, value) a NaN or an infinity
    (non_finite_input); returns Q, V, X and the failing rows."""
    Q, V, X = states(model, k, seed)
    floating = model.joint(0).type == treedyn.JointType.free_flyer
    if floating:
        Q[quaternion_row, 3:7] = 0.0
    name, row, column, value = bad
    {"V": V, "X": X}[name][row, column] = value
    return Q, V, X, sorted({row} | ({quaternion_row} if floating else set()))


def within(got, ref, bound):
    """|got - ref| <= bound row by row; bound[i] for row i."""
    err = np.abs(got.astype(np.float64) - ref.astype(np.float64)).reshape(len(got), -1).max(axis=1)
    return bool((err <= bound).all()), err / bound


def test_lanes_equal_the_single_row_calls_within_the_lane_bound(robot):
    model, model64, _, _, _ = robot
    k = 11  # packs of 2 or 4 and a masked tail
    Q, V, X = states(model, k, 40)
    n, e = model.nbodies, eps(model.dtype)
    qdd_loop = np.stack([treedyn.aba(model, Q[i], V[i], X[i]) for i in range(k)])
    tau_loop = np.stack([treedyn.rnea(model, Q[i], V[i], X[i]) for i in range(k)])
    H_loop = np.stack([treedyn.crba(model, Q[i]) for i in range(k)])
    kappa = np.array([np.linalg.cond(treedyn.crba(model64, Q[i].astype(np.float64))) for i in range(k)])
    scale = lambda ref: 1.0 + np.abs(ref.astype(np.float64)).reshape(k, -1).max(axis=1)
    first = None
    for threads in (1, 2):
        QDD = treedyn.aba_batch(model, Q, V, X, threads=threads, lanes=True)
        assert model.last_batch_status.ok and QDD.dtype == model.dtype and QDD.shape == (k, model.nv)
        TAU = treedyn.rnea_batch(model, Q, V, X, threads=threads, lanes=True)
        assert model.last_batch_status.ok
        H = treedyn.crba_batch(model, Q, threads=threads, lanes=True)
        assert model.last_batch_status.ok and H.shape == (k, model.nv, model.nv)
        ok, ratio = within(QDD, qdd_loop, 4 * n * e * scale(qdd_loop) * kappa)
        assert ok, ratio
        ok, ratio = within(TAU, tau_loop, 4 * n * e * scale(tau_loop))
        assert ok, ratio
        ok, ratio = within(H, H_loop, 4 * n * e * scale(H_loop))
        assert ok, ratio
        assert np.array_equal(H, np.transpose(H, (0, 2, 1)))
        if first is None:
            first = (QDD, TAU, H)
        else:  # the thread count changes nothing
            assert all(np.array_equal(a, b) for a, b in zip(first, (QDD, TAU, H)))
    # A row alone (one state, the other lanes a copy of it) gives the bits it got among the others.
    for i in (0, 5, k - 1):
        assert np.array_equal(treedyn.aba_batch(model, Q[i:i + 1], V[i:i + 1], X[i:i + 1], lanes=True)[0], first[0][i])
        assert np.array_equal(treedyn.rnea_batch(model, Q[i:i + 1], V[i:i + 1], X[i:i + 1], lanes=True)[0], first[1][i])
        assert np.array_equal(treedyn.crba_batch(model, Q[i:i + 1], lanes=True)[0], first[2][i])


def test_lanes_report_the_failed_rows_as_the_single_row_calls():
    for dtype in (np.float64, np.float32):
        m = treedyn.robots.humanoid30(dtype)
        k = 9
        Q, V, X = states(m, k, 7)
        Q[2, :] = 0.0               # zero quaternion: invalid_configuration
        V[4, 3] = np.nan            # a sensor's NaN: non_finite_input in V
        Q[7, m.nq - 1] = np.inf     # non_finite_input in Q
        for call, args in ((treedyn.aba_batch, (Q, V, X)), (treedyn.rnea_batch, (Q, V, X)), (treedyn.crba_batch, (Q,))):
            ref = call(m, *args)
            r = m.last_batch_status
            got = call(m, *args, lanes=True, threads=2)
            s = m.last_batch_status
            assert (s.failures, s.first_failed) == (r.failures, r.first_failed)
            assert s.first_status.code == r.first_status.code and str(s.first_status) == str(r.first_status)
            failed = [2, 4, 7] if call is not treedyn.crba_batch else [2, 7]
            assert s.failures == len(failed) and s.first_failed == 2
            assert s.first_status.code == treedyn.StatusCode.invalid_configuration
            for i in range(k):
                if i in failed:  # the single-row call's output (NaN)
                    assert np.isnan(got[i]).any() and np.array_equal(got[i], ref[i], equal_nan=True)
                else:
                    assert np.isfinite(got[i]).all()


def test_lanes_check_their_arguments():
    m = treedyn.robots.arm7()
    Q, V, X = states(m, 3, 1)
    with pytest.raises(ValueError, match=r"aba_batch: argument 'T' .* shape \(3, 7\)"):
        treedyn.aba_batch(m, Q, V, X[:2], lanes=True)
    with pytest.raises(ValueError, match=r"crba_batch: argument 'out' .* shape \(3, 7, 7\)"):
        treedyn.crba_batch(m, Q, out=np.empty((3, 7)), lanes=True)
    with pytest.raises(ValueError, match=r"threads must be >= 1"):
        treedyn.rnea_batch(m, Q, V, X, threads=0, lanes=True)
    out = np.empty((3, m.nv))
    assert treedyn.aba_batch(m, Q, V, X, out=out, lanes=True) is out
    assert treedyn.aba_batch(m, Q[:0], V[:0], X[:0], lanes=True).shape == (0, m.nv)


def test_derivative_batches_equal_the_single_row_calls_bit_for_bit(robot):
    model, _, _, _, _ = robot
    k = 7
    Q, V, X, failed = failing_states(model, k, 90, 3, ("V", 5, 0, np.nan))  # a sensor's NaN in V
    rnea_loop = [treedyn.rnea_derivatives(model, Q[i], V[i], X[i]) for i in range(k)]
    aba_loop = [treedyn.aba_derivatives(model, Q[i], V[i], X[i]) for i in range(k)]
    for threads in (1, 2, 3):
        got = treedyn.rnea_derivatives_batch(model, Q, V, X, threads=threads)
        s = model.last_batch_status
        assert (s.failures, s.first_failed) == (len(failed), failed[0])
        assert len(got) == 2 and all(g.shape == (k, model.nv, model.nv) and g.dtype == model.dtype for g in got)
        for c in range(2):
            assert np.array_equal(got[c], np.stack([r[c] for r in rnea_loop]), equal_nan=True)
        got = treedyn.aba_derivatives_batch(model, Q, V, X, threads=threads)
        s = model.last_batch_status
        assert (s.failures, s.first_failed) == (len(failed), failed[0])
        assert len(got) == 3
        for c in range(3):
            assert np.array_equal(got[c], np.stack([r[c] for r in aba_loop]), equal_nan=True)
        for i in failed:
            assert np.isnan(got[0][i]).all()
        assert np.isfinite(got[0][[i for i in range(k) if i not in failed]]).all()


def test_derivative_batches_check_their_arguments():
    m = treedyn.robots.arm7()
    Q, V, X = states(m, 3, 2)
    with pytest.raises(ValueError, match=r"aba_derivatives_batch: argument 'T' .* shape \(3, 7\)"):
        treedyn.aba_derivatives_batch(m, Q, V, X[:1])
    with pytest.raises(ValueError, match=r"rnea_derivatives_batch: threads must be >= 1"):
        treedyn.rnea_derivatives_batch(m, Q, V, X, threads=0)
    with pytest.raises(ValueError, match=r"rnea_derivatives_batch: argument 'Q'"):
        treedyn.rnea_derivatives_batch(m, Q[0], V, X)


def test_derivative_batches_on_lanes_within_the_lane_bound_and_row_independent(robot):
    model, model64, _, _, _ = robot
    k = 9
    Q, V, X, failed = failing_states(model, k, 95, 2, ("X", 6, 1, np.inf))
    n, e = model.nbodies, eps(model.dtype)
    kappa = np.array([np.linalg.cond(treedyn.crba(model64, Q[i].astype(np.float64))) if i not in failed else 1.0
                      for i in range(k)])
    for call, single, conditioned in ((treedyn.rnea_derivatives_batch, treedyn.rnea_derivatives, False),
                                      (treedyn.aba_derivatives_batch, treedyn.aba_derivatives, True)):
        loop = [single(model, Q[i], V[i], X[i]) for i in range(k)]
        ref_status = None
        first = None
        for threads in (1, 2):
            got = call(model, Q, V, X, threads=threads, lanes=True)
            s = model.last_batch_status
            if ref_status is None:
                call(model, Q, V, X)
                ref_status = model.last_batch_status
            assert (s.failures, s.first_failed) == (ref_status.failures, ref_status.first_failed) == (len(failed), failed[0])
            assert str(s.first_status) == str(ref_status.first_status)
            for c, g in enumerate(got):
                ref = np.stack([r[c] for r in loop])
                for i in range(k):
                    if i in failed:  # the single-row call's output, NaN
                        assert np.array_equal(g[i], ref[i], equal_nan=True) and np.isnan(g[i]).all()
                        continue
                    scale = (1.0 + np.abs(ref[i].astype(np.float64)).max()) * (kappa[i] if conditioned else 1.0)
                    err = np.abs(g[i].astype(np.float64) - ref[i]).max()
                    assert err <= 4 * n * e * scale, (c, i, err / (n * e * scale))
            if first is None:
                first = got
            else:
                assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(first, got))
        for i in (0, k - 1):  # a row alone gives the bits it got among the others
            alone = call(model, Q[i:i + 1], V[i:i + 1], X[i:i + 1], lanes=True)
            assert all(np.array_equal(a[0], b[i], equal_nan=True) for a, b in zip(alone, first))
