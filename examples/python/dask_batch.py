"""Forward dynamics of many states (10^7 by default) on a Dask cluster, with treedyn's batched calls on each worker.

Where one machine is not enough (reinforcement learning rollouts, sampling-based MPC, system identification over
a dataset), the states are cut into chunks and each chunk is one Dask task that calls treedyn.aba_batch on its
rows (docs/batch.md#many-machines-dask). Dask does the scheduling; treedyn only evaluates. A chunk's states are
drawn on the worker from (seed, chunk index), so nothing large travels to the workers, and each task returns a
small summary (or, with --check, its q''); the numbers do not depend on how the states are chunked or on which
worker runs a chunk: each row of aba_batch is its own computation, with lanes=False bit for bit the single-row
treedyn.aba, with --lanes bit for bit the same row in any other aba_batch(lanes=True) call.

Run from a build tree (python3-distributed from Debian; a LocalCluster of --workers processes unless --scheduler
names a running one):
    PYTHONPATH=build/ci/python /usr/bin/python3 examples/python/dask_batch.py [--states 10000000] [--chunk 100000]
        [--workers 2] [--robot humanoid30] [--float32] [--lanes] [--scheduler tcp://host:8786] [--check]
--check gathers every q'' and compares it with the same states evaluated in this process (a loop of treedyn.aba,
or with --lanes one aba_batch(lanes=True) call per chunk, its rows shifted to other lanes): use it with a few
thousand states.
"""
import argparse
import os
import time

import numpy as np

import treedyn

ROBOTS = ("arm7", "chain30", "humanoid30")  # built-in robots, by name: the tasks are pickled by value


def make_model(robot, float32):
    return getattr(treedyn.robots, robot)(np.float32 if float32 else np.float64)


def draw_states(model, seed, chunk, size):
    """Chunk `chunk`'s states: q uniform over each joint's coordinates (a free flyer's position in [-1, 1)^3 and a
    uniformly random unit quaternion, joint angles in [-pi, pi)), q' in [-1, 1), tau in [-5, 5). Deterministic in
    (seed, chunk), vectorised over the rows."""
    rng = np.random.default_rng([seed, chunk])
    Q = np.empty((size, model.nq), model.dtype)
    for i in range(model.nbodies):
        joint, k = model.joint(i), model.q_offsets[i]
        if joint.type == treedyn.JointType.free_flyer:
            Q[:, k:k + 3] = rng.uniform(-1.0, 1.0, (size, 3))
            quaternion = rng.standard_normal((size, 4))
            Q[:, k + 3:k + 7] = quaternion / np.linalg.norm(quaternion, axis=1, keepdims=True)
        elif joint.type == treedyn.JointType.spherical:
            quaternion = rng.standard_normal((size, 4))
            Q[:, k:k + 4] = quaternion / np.linalg.norm(quaternion, axis=1, keepdims=True)
        elif joint.nq == 1:
            Q[:, k] = rng.uniform(-np.pi, np.pi, size)
        elif joint.nq > 0:
            raise ValueError(f"draw_states: joint {i} ({joint.type}) is not drawn by this example")
    V = rng.uniform(-1.0, 1.0, (size, model.nv)).astype(model.dtype)
    T = rng.uniform(-5.0, 5.0, (size, model.nv)).astype(model.dtype)
    return Q, V, T


def evaluate_chunk(robot, float32, seed, chunk, size, lanes, keep):
    """One Dask task: the model (built here: cheap beside a chunk), the chunk's states, aba_batch on them.
    Returns (rows, failures, max |q''|, sum of q''^2 over the finite rows) and, when `keep`, q'' itself."""
    model = make_model(robot, float32)
    Q, V, T = draw_states(model, seed, chunk, size)
    QDD = treedyn.aba_batch(model, Q, V, T, lanes=lanes)
    finite = QDD[np.isfinite(QDD).all(axis=1)].astype(np.float64)
    summary = (size, model.last_batch_status.failures, float(np.abs(finite).max(initial=0.0)),
               float(np.sum(finite * finite)))
    return summary, (QDD if keep else None)


def chunk_sizes(states, chunk):
    full, tail = divmod(states, chunk)
    return [chunk] * full + ([tail] if tail else [])


def check(args, results):
    """Every chunk's q'' against the same states evaluated here; True when identical bit for bit."""
    model = make_model(args.robot, args.float32)
    for c, ((_, _, _, _), QDD) in enumerate(results):
        Q, V, T = draw_states(model, args.seed, c, len(QDD))
        if args.lanes:  # rows are independent: shifted by one row, so every row has another lane and other
            # neighbours in its pack, one call here gives the same bits
            shift = lambda X: np.concatenate([X[-1:], X])
            here = treedyn.aba_batch(model, shift(Q), shift(V), shift(T), lanes=True)[1:]
        else:  # the single-row call, row by row
            here = np.stack([treedyn.aba(model, Q[k], V[k], T[k]) for k in range(len(Q))])
        if not np.array_equal(QDD, here, equal_nan=True):
            return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=10_000_000)
    parser.add_argument("--chunk", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="LocalCluster processes")
    parser.add_argument("--robot", choices=ROBOTS, default="humanoid30")
    parser.add_argument("--float32", action="store_true")
    parser.add_argument("--lanes", action="store_true", help="aba_batch(lanes=True): SIMD lanes on each worker")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: a LocalCluster)")
    parser.add_argument("--check", action="store_true", help="compare every q'' with this process's evaluation")
    args = parser.parse_args()
    if args.states < 1 or args.chunk < 1:
        parser.error("--states and --chunk must be >= 1")

    from dask.distributed import Client, LocalCluster  # Debian: python3-distributed

    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        sizes = chunk_sizes(args.states, args.chunk)
        start = time.perf_counter()
        futures = client.map(evaluate_chunk, [args.robot] * len(sizes), [args.float32] * len(sizes),
                             [args.seed] * len(sizes), range(len(sizes)), sizes, [args.lanes] * len(sizes),
                             [args.check] * len(sizes), pure=False)
        results = client.gather(futures)
        seconds = time.perf_counter() - start
        workers = len(client.scheduler_info()["workers"])
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    rows = sum(r[0][0] for r in results)
    failures = sum(r[0][1] for r in results)
    largest = max(r[0][2] for r in results)
    rms = np.sqrt(sum(r[0][3] for r in results) / max(1, (rows - failures) * make_model(args.robot, args.float32).nv))
    scalar = "float32" if args.float32 else "float64"
    print(f"{args.robot} {scalar}{' lanes' if args.lanes else ''}: {rows} states in {len(sizes)} chunks on "
          f"{workers} workers, {seconds:.2f} s, {rows / seconds:.3g} states/s")
    print(f"failed states {failures}, max |qdd| {largest:.6g}, rms qdd {rms:.6g}")
    if args.check:
        same = check(args, results)
        print(f"check: {'identical to' if same else 'DIFFERENT from'} the evaluation in this process "
              f"({rows} states, bit for bit)")
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
