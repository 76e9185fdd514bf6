"""Shared fixtures of the treedyn Python tests: robots in both dtypes and float tolerances from eps and cond(H)."""
import numpy as np
import pytest

import treedyn

DTYPES = [np.float64, np.float32]

ROBOTS = {
    "arm7": lambda dtype: treedyn.robots.arm7(dtype),
    "humanoid30": lambda dtype: treedyn.robots.humanoid30(dtype),
    "random_tree12": lambda dtype: treedyn.robots.random_tree(12, 7, dtype),
}


def eps(dtype):
    return float(np.finfo(dtype).eps)


@pytest.fixture(params=DTYPES, ids=["float64", "float32"])
def dtype(request):
    return request.param


@pytest.fixture(params=sorted(ROBOTS))
def robot(request, dtype):
    """(model in `dtype`, the same robot in float64 rounded from it, a random state in `dtype`)."""
    model = ROBOTS[request.param](dtype)
    rng = np.random.default_rng(20051)
    q = treedyn.random_configuration(model, 3)
    v = rng.uniform(-1.0, 1.0, model.nv).astype(dtype)
    tau = rng.uniform(-5.0, 5.0, model.nv).astype(dtype)
    return model, model.cast(np.float64), q, v, tau
