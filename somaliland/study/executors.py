"""The executors a study runs on: local worker processes by default, a Dask cluster when asked.

Both are `concurrent.futures.Executor`s, so the runner is the same for either.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import sys
from collections.abc import Callable

from somaliland.study.errors import StudyError
from somaliland.study.worker import init_worker

SCHEDULER_ENV = "DASK_SCHEDULER_ADDRESS"


def local_executors(workers: int) -> Callable[[], cf.Executor]:
    """Return a factory of process pools of `workers` processes (a broken pool is replaced by a new one)."""
    if workers < 1:
        raise StudyError("--workers", "workers", "a positive number of worker processes", workers)

    def make() -> cf.Executor:
        return cf.ProcessPoolExecutor(max_workers=workers, initializer=init_worker, initargs=(list(sys.path),))

    return make


def default_workers() -> int:
    """Return the local worker count: one per CPU this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def cluster_address(option: str | None) -> str | None:
    """Return the Dask scheduler to use: the --cluster option, else $DASK_SCHEDULER_ADDRESS, else None."""
    return option or os.environ.get(SCHEDULER_ENV) or None


def connect(address: str, timeout_s: float = 30.0):
    """Return a Dask client connected to the scheduler at `address`.

    Raises:
        StudyError: no scheduler answered there in time.
    """
    from distributed import Client

    try:
        return Client(address, timeout=f"{timeout_s}s")
    except (OSError, TimeoutError) as error:
        raise StudyError("--cluster", "address", "a reachable Dask scheduler (e.g. tcp://host:8786)",
                         f"{address} ({error})") from None


def dask_executors(client) -> tuple[Callable[[], cf.Executor], int]:
    """Return a factory of the client's executor and the cluster's worker threads (games run at once)."""
    threads = sum(client.nthreads().values()) or 1
    return (lambda: client.get_executor(pure=False)), threads


def executors_for(cluster: str | None, workers: int | None) -> tuple[Callable[[], cf.Executor], int, str, object]:
    """Return what --cluster and --workers ask for: an executor factory, the games it runs at once, where
    they run (for messages) and the Dask client to close afterwards (None for local processes).

    Raises:
        StudyError: a cluster was asked for and no scheduler answered, or --workers is not positive.
    """
    address = cluster_address(cluster)
    if address:
        client = connect(address)
        make, threads = dask_executors(client)
        return make, threads, f"Dask cluster {address} ({threads} worker threads)", client
    workers = workers or default_workers()
    return local_executors(workers), workers, f"{workers} local worker processes", None
