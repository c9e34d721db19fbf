"""The executors a study runs on: local worker processes by default, a Dask cluster when asked.

Both are `concurrent.futures.Executor`s, so the runner is the same for either.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

from somaliland.study.errors import StudyError
from somaliland.study.worker import init_local_worker

SCHEDULER_ENV = "DASK_SCHEDULER_ADDRESS"
PROBE_S = 5.0  # a scheduler's port answers a TCP connection at once; a wrong address should fail as fast
HANDSHAKE_S = 10.0


def local_executors(workers: int) -> Callable[[], cf.Executor]:
    """Return a factory of process pools of `workers` processes (a broken pool is replaced by a new one).

    Each worker process ends with the process that made it, so a killed run leaves no worker behind.
    """
    if workers < 1:
        raise StudyError("--workers", "workers", "a positive number of worker processes", workers)

    def make() -> cf.Executor:
        return cf.ProcessPoolExecutor(max_workers=workers, initializer=init_local_worker,
                                      initargs=(list(sys.path), os.getpid()))

    return make


def default_workers() -> int:
    """Return the local worker count: one per CPU this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def cluster_address(option: str | None) -> str | None:
    """Return the Dask scheduler to use: the --cluster option, else $DASK_SCHEDULER_ADDRESS, else None."""
    return option or os.environ.get(SCHEDULER_ENV) or None


def connect(address: str, origin: str = "--cluster", probe_s: float = PROBE_S, handshake_s: float = HANDSHAKE_S):
    """Return a Dask client connected to the scheduler at `address`, failing fast with what was tried.

    Args:
        address: the scheduler's address, e.g. tcp://10.0.0.5:8786.
        origin: where the address came from (named in messages).
        probe_s: how long a TCP connection to the scheduler's host and port may take to open.
        handshake_s: how long the scheduler may then take to answer as a Dask scheduler.

    Raises:
        StudyError: the address is malformed, its host unknown, nothing listens there, or what listens
            there does not answer as a Dask scheduler.
    """
    from distributed import Client

    scheme, host, port = _parse_address(address, origin)
    if port is not None:
        _probe(address, origin, scheme, host, port, probe_s, handshake_s)
    try:
        return Client(address, timeout=f"{handshake_s}s")
    except Exception as error:  # distributed raises OSError, TimeoutError or worse; any of them means no client
        raise StudyError(origin, address, "a Dask scheduler", f"{type(error).__name__}: {str(error)[:120]}",
                         f"the connection opened, but the Dask client could not start there within "
                         f"{handshake_s:g} s") from None


def _parse_address(address: str, origin: str) -> tuple[str, str, int | None]:
    """Return (scheme, host, port) of a Dask address (port None for schemes without one).

    Raises:
        StudyError: the address is malformed; the hint says what is wrong with it (no host, no port, a port
            that is not a number or out of range, an IPv6 bracket left open, an unknown scheme).
    """
    from distributed.comm.addressing import parse_address
    from distributed.comm.registry import backends

    try:
        scheme, location = parse_address(address)
        if scheme not in backends:
            raise ValueError(f"unknown scheme {scheme!r} (known: {', '.join(sorted(backends))})")
        if scheme not in ("tcp", "tls", "ws", "wss"):
            return scheme, location, None
        host, port = _host_port(location)
    except ValueError as error:
        raise StudyError(origin, "address", "a Dask scheduler address such as tcp://10.0.0.5:8786", address,
                         str(error)) from None
    return scheme, host, port


def _host_port(location: str) -> tuple[str, int]:
    """Return the host and port of HOST:PORT or [IPV6]:PORT.

    Raises:
        ValueError: saying what is missing or wrong (distributed's own parser says "invalid literal for int()"
            of a missing port, and asks for brackets around an IPv6 address that has them, one unclosed).
    """
    if location.startswith("["):
        host, closed, tail = location[1:].partition("]")
        if not closed:
            raise ValueError(f"the IPv6 address {location!r} opens a bracket it does not close (expected "
                             f"[ADDRESS]:PORT, e.g. [::1]:8786)")
        if not host:
            raise ValueError("no host between the brackets [] (expected [ADDRESS]:PORT, e.g. [::1]:8786)")
        if not tail:
            raise ValueError(f"no port after [{host}] (expected [{host}]:PORT, e.g. [{host}]:8786)")
        if not tail.startswith(":"):
            raise ValueError(f"{tail!r} after [{host}] (expected :PORT, e.g. [{host}]:8786)")
        port = tail[1:]
    else:
        if location.count(":") > 1:
            raise ValueError(f"more than one ':' in {location!r} (HOST:PORT has one; an IPv6 address goes in "
                             f"brackets, e.g. [::1]:8786)")
        host, colon, port = location.partition(":")
        if not host and not port:
            raise ValueError("no host and no port (expected HOST:PORT, e.g. 10.0.0.5:8786)")
        if not colon:
            raise ValueError(f"no port after {host!r} (expected HOST:PORT, e.g. {host}:8786)")
        if not host:
            raise ValueError(f"no host before ':{port}' (expected HOST:PORT, e.g. 10.0.0.5:{port})")
        if any(c.isspace() for c in host):
            raise ValueError(f"a space in the host {host!r}")
    if not port:
        raise ValueError(f"no port after {location!r} (expected a port number from 1 to 65535, e.g. 8786)")
    if not (port.isascii() and port.isdigit()):
        raise ValueError(f"the port {port!r} is not a number")
    if not 0 < int(port) < 65536:
        raise ValueError(f"port {int(port)} is not from 1 to 65535")
    return host, int(port)


def _probe(address: str, origin: str, scheme: str, host: str, port: int, connect_s: float,
           handshake_s: float) -> None:
    """Open a TCP connection to a scheduler's port, so that a wrong address fails at once with what was tried.

    Over plain tcp:// a Dask server speaks first (its handshake, one frame whose 8-byte little-endian
    length leads it); anything else there would leave the Dask client waiting forever, so it is refused.

    Raises:
        StudyError: the host is unknown, nothing listens on the port, nothing answers in time, or what
            answers is not a Dask server.
    """
    import socket
    import struct

    tried = f"tried a TCP connection to {host} port {port}"
    try:
        with socket.create_connection((host, port), timeout=connect_s) as sock:
            if scheme != "tcp":
                return
            sock.settimeout(handshake_s)
            head = sock.recv(8, socket.MSG_WAITALL)
    except socket.gaierror as error:
        found, hint = "an unknown host", f"the name {host!r} does not resolve ({error.strerror})"
    except ConnectionRefusedError:
        found, hint = "connection refused", f"{tried}: nothing listens there; start a scheduler (`dask scheduler`) " \
                                            f"or check the port"
    except TimeoutError:
        found, hint = "no answer", (f"{tried}: it did not open within {connect_s:g} s, or said nothing within "
                                    f"{handshake_s:g} s (a wrong address or port, or a firewall)")
    except OSError as error:
        found, hint = error.strerror or str(error), tried
    else:
        if len(head) == 8 and 0 < struct.unpack("<Q", head)[0] < 1 << 20:
            return
        found, hint = "something else", f"{tried}: it answered {head[:8]!r}, not a Dask handshake; check the port"
    raise StudyError(origin, address, "a running Dask scheduler", found, hint)


def dask_executors(client) -> tuple[Callable[[], cf.Executor], int, Callable[[], int | None]]:
    """Return a factory of the client's executor, the cluster's worker threads (games run at once) and a
    function that counts them again (None when the scheduler no longer answers)."""

    def threads() -> int | None:
        try:
            return sum(client.nthreads().values())
        except Exception:  # the client gives up on a lost scheduler with OSError, TimeoutError or ClosedClientError
            return None

    return (lambda: client.get_executor(pure=False)), threads() or 1, threads


@dataclass(frozen=True)
class Executors:
    """Where a run's games are played: what --cluster and --workers ask for."""

    make: Callable[[], cf.Executor]  # returns a fresh executor (called again if a local pool breaks)
    workers: int  # games run at once
    where: str  # for messages
    client: object = None  # the Dask client to close afterwards (None for local processes)
    watch: Callable[[], int | None] | None = None  # a cluster's worker threads now (None: local)

    def close(self) -> None:
        """Close the Dask client, if any."""
        if self.client is not None:
            self.client.close()


def executors_for(cluster: str | None, workers: int | None) -> Executors:
    """Return what --cluster (else $DASK_SCHEDULER_ADDRESS) and --workers ask for.

    On a cluster, Dask's own logging is quieted: the run says what matters (a lost worker, a wait), in one line.

    Raises:
        StudyError: a cluster was asked for and no scheduler answered, or --workers is not positive.
    """
    import logging

    address = cluster_address(cluster)
    if address:
        client = connect(address, "--cluster" if cluster else f"${SCHEDULER_ENV}")
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        make, threads, watch = dask_executors(client)
        return Executors(make, threads, f"Dask cluster {address} ({threads} worker threads)", client, watch)
    workers = workers or default_workers()
    return Executors(local_executors(workers), workers, f"{workers} local worker process{'es' * (workers != 1)}")
