"""The kernels on a matrix and a parent array (ltdl, ltl, products and solves, expand_parent_array) against
dense NumPy, in float64 and float32."""
import numpy as np
import pytest

import treedyn

PARENTS = [-1, 0, 1, 1, 3, 0, 5, 6, 2, -1, 9]  # a forest of 11 nodes: branches and two roots


def eps(dtype):
    return float(np.finfo(dtype).eps)


def tree_spd(parents, rng):
    """A = L^T D L with L unit lower triangular with nonzeros in ancestor columns only, D > 0; (A, L, D)."""
    n = len(parents)
    L = np.eye(n)
    for k in range(n):
        j = parents[k]
        while j != -1:
            L[k, j] = rng.uniform(-1, 1)
            j = parents[j]
    D = rng.uniform(0.5, 2.0, n)
    return L.T @ np.diag(D) @ L, L, D


def test_expand_parent_array():
    assert treedyn.expand_parent_array([-1, 0, 0, 2], [6, 1, 0, 2]) == [-1, 0, 1, 2, 3, 4, 5, 5, 7]  # body 2 has no row: body 3 hangs from row 5
    with pytest.raises(ValueError):
        treedyn.expand_parent_array([0], [1])


def test_ltdl_recovers_the_factors_and_solves(dtype):
    rng = np.random.default_rng(7)
    A, L, D = tree_spd(PARENTS, rng)
    n = len(PARENTS)
    F, status = treedyn.ltdl(A.astype(dtype), PARENTS)
    assert status.ok and F.dtype == dtype and F.shape == (n, n)
    kappa = np.linalg.cond(A)
    tol = 64 * n * eps(dtype) * kappa
    assert np.abs(np.diag(F) - D).max() <= tol * D.max()
    assert np.abs(np.tril(F, -1) - np.tril(L, -1)).max() <= tol
    x = rng.uniform(-1, 1, n)
    xd = x.astype(dtype)
    Lf = np.tril(F.astype(np.float64), -1) + np.eye(n)
    for op, ref in ((treedyn.mul_l, Lf @ x), (treedyn.mul_lt, Lf.T @ x),
                    (treedyn.solve_l, np.linalg.solve(Lf, x)), (treedyn.solve_lt, np.linalg.solve(Lf.T, x))):
        y = op(F, PARENTS, xd, unit=True)
        assert y.dtype == dtype
        assert np.abs(y - ref).max() <= 64 * n * eps(dtype) * np.linalg.cond(Lf) * (np.abs(ref).max() + 1), op.__name__
    z = treedyn.solve_l(F, PARENTS, treedyn.solve_lt(F, PARENTS, xd, unit=True) / np.diag(F), unit=True)
    ref = np.linalg.solve(A, x)
    assert np.abs(z - ref).max() <= tol * np.abs(ref).max()


def test_ltl_matches_a_reversed_cholesky(dtype):
    rng = np.random.default_rng(11)
    A, _, _ = tree_spd(PARENTS, rng)
    n = len(PARENTS)
    F, status = treedyn.ltl(A.astype(dtype), PARENTS)
    assert status.ok
    Lf = np.tril(F.astype(np.float64))
    # A = L^T L with L lower triangular: the Cholesky factor of A with rows and columns reversed.
    P = np.eye(n)[::-1]
    C = np.linalg.cholesky(P @ A @ P)
    assert np.abs(Lf - (P @ C @ P).T).max() <= 64 * n * eps(dtype) * np.linalg.cond(A) * np.abs(C).max()
    x = rng.uniform(-1, 1, n).astype(dtype)
    assert np.abs(treedyn.mul_l(F, PARENTS, x) - Lf @ x).max() <= 64 * n * eps(dtype) * np.abs(Lf).max()
    assert np.abs(treedyn.mul_lt(F, PARENTS, x) - Lf.T @ x).max() <= 64 * n * eps(dtype) * np.abs(Lf).max()


def test_factor_status_names_the_failing_row(dtype):
    A, _, _ = tree_spd(PARENTS, np.random.default_rng(3))
    A[4, 4] = -1.0  # row 4 (a leaf's parent: rows 10..5 factor first, from the bottom) is indefinite
    for factor in (treedyn.ltdl, treedyn.ltl):
        _, status = factor(A.astype(dtype), PARENTS)
        assert status.code == treedyn.StatusCode.non_positive_pivot and status.row == 4, factor.__name__
    _, status = treedyn.ltdl(A.astype(dtype), [-1, 0, 2] + PARENTS[3:])
    assert status.code == treedyn.StatusCode.invalid_parent_array and status.row == 2


def test_kernel_arguments_are_checked():
    A, _, _ = tree_spd(PARENTS, np.random.default_rng(5))
    with pytest.raises(ValueError):
        treedyn.ltdl(A.astype(np.int64), PARENTS)
    with pytest.raises(ValueError):
        treedyn.ltdl(A[:-1, :-1], PARENTS)
    F, _ = treedyn.ltdl(A, PARENTS)
    with pytest.raises(ValueError):
        treedyn.mul_l(F, PARENTS, np.ones(len(PARENTS), np.float32))
    with pytest.raises(ValueError):
        treedyn.solve_l(F, [-1, 5] + PARENTS[2:], np.ones(len(PARENTS)))


def depths(parents):
    d = []
    for p in parents:
        d.append(1 + (d[p] if p >= 0 else 0))
    return d


def test_topology_generators_and_costs():
    topo = treedyn.topology
    for parents in (topo.chain(9), topo.star(5), topo.short_side_branches(4), topo.binary_tree(4),
                    topo.grid_spanning_tree(4), topo.humanoid(), topo.random_tree(40, 17)):
        assert all(-1 <= p < i for i, p in enumerate(parents))
        d = depths(parents)
        c = topo.cost_metrics(parents)
        assert c.n == len(parents)
        assert c.D0 == sum(1 for p in parents if p != -1)
        assert c.D1 == sum(x - 1 for x in d)
        assert c.D2 == sum(x * (x - 1) // 2 for x in d)
        assert c.nonzeros == c.n + 2 * c.D1 and c.ltdl_ops == c.D1 + 2 * c.D2
    assert topo.cost_metrics(topo.chain(9)).D2 == (9**3 - 9) // 6
    assert topo.dense_cost_metrics(9).D1 == topo.cost_metrics(topo.chain(9)).D1
    # Featherstone (2005) section 4.2: 7.8 for a binary tree of 15 nodes, 5.3 for a grid tree of 16 nodes.
    assert round(topo.dense_to_sparse_ratio(topo.binary_tree(4)), 1) == 7.8
    assert round(topo.dense_to_sparse_ratio(topo.grid_spanning_tree(4)), 1) == 5.3
    # Section 6: the humanoid expanded over its DoFs has n = 30, D1 = 219, D2 = 1039.
    c = topo.cost_metrics(treedyn.expand_parent_array(topo.humanoid(), topo.humanoid_dofs()))
    assert (c.n, c.D1, c.D2) == (30, 219, 1039)
    assert topo.random_tree(40, 17) == topo.random_tree(40, 17)
    with pytest.raises(ValueError):
        topo.cost_metrics([-1, 1])


def test_ltdl_solve_and_ltl_solve_match_numpy_solve(dtype):
    rng = np.random.default_rng(17)
    A, _, _ = tree_spd(PARENTS, rng)
    n = len(PARENTS)
    b = rng.uniform(-1, 1, n)
    ref = np.linalg.solve(A, b)
    tol = 64 * n * eps(dtype) * np.linalg.cond(A) * np.abs(ref).max()
    for factor, solve in ((treedyn.ltdl, treedyn.ltdl_solve), (treedyn.ltl, treedyn.ltl_solve)):
        F, status = factor(A.astype(dtype), PARENTS)
        assert status.ok
        x = solve(F, PARENTS, b.astype(dtype))
        assert x.dtype == dtype and x.shape == (n,)
        assert np.abs(x - ref).max() <= tol, solve.__name__
        xb = b.astype(dtype)
        assert solve(F, PARENTS, xb, out=xb) is xb and np.array_equal(xb, x)  # in place
    F, _ = treedyn.ltdl(A.astype(dtype), PARENTS)
    composed = treedyn.solve_l(F, PARENTS, treedyn.solve_lt(F, PARENTS, b.astype(dtype), unit=True) / np.diag(F), unit=True)
    assert np.array_equal(treedyn.ltdl_solve(F, PARENTS, b.astype(dtype)), composed)


def test_kernel_out_is_written_and_checked(dtype):
    rng = np.random.default_rng(19)
    A, _, _ = tree_spd(PARENTS, rng)
    n = len(PARENTS)
    Ad = A.astype(dtype)
    for factor in (treedyn.ltdl, treedyn.ltl):
        F, _ = factor(Ad, PARENTS)
        out = np.empty((n, n), dtype)
        G, status = factor(Ad, PARENTS, out=out)
        assert status.ok and G is out and np.array_equal(out, F)
        inplace = Ad.copy()
        factor(inplace, PARENTS, out=inplace)
        assert np.array_equal(inplace, F)
        with pytest.raises(ValueError, match="argument 'out'"):
            factor(Ad, PARENTS, out=np.empty((n, n), np.float32 if dtype == np.float64 else np.float64))
        with pytest.raises(ValueError, match="argument 'out'"):
            factor(Ad, PARENTS, out=np.empty((n, n + 1), dtype))
        with pytest.raises(ValueError, match="argument 'out' must be C-contiguous"):
            factor(Ad, PARENTS, out=np.empty((n, n), dtype, order="F"))
    F, _ = treedyn.ltdl(Ad, PARENTS)
    x = rng.uniform(-1, 1, n).astype(dtype)
    for op in (treedyn.mul_l, treedyn.mul_lt, treedyn.solve_l, treedyn.solve_lt):
        for unit in (False, True):
            expected = op(F, PARENTS, x, unit=unit)
            out = np.full(n, np.nan, dtype)
            assert op(F, PARENTS, x, unit=unit, out=out) is out and np.array_equal(out, expected), op.__name__
            y = x.copy()
            assert op(F, PARENTS, y, unit=unit, out=y) is y and np.array_equal(y, expected), op.__name__  # out=x
        with pytest.raises(ValueError, match="argument 'out'"):
            op(F, PARENTS, x, out=np.empty(n, np.float32 if dtype == np.float64 else np.float64))
        with pytest.raises(ValueError, match="argument 'out'"):
            op(F, PARENTS, x, out=np.empty(n + 1, dtype))
        with pytest.raises(ValueError, match="overlaps x"):
            buf = np.zeros(n + 1, dtype)
            op(F, PARENTS, buf[:n], out=buf[1:])
