"""Where the lab's work runs: this process, a local process pool, or a Ray cluster.

Every backend maps one top-level (picklable) function over a list of argument tuples and
yields ``(task number, result)`` pairs *as tasks finish*, in any order; callers that need an
order sort by the task number. Results therefore never depend on the backend or the worker
count as long as each task's result depends only on its arguments (the runner's tasks do: a
game's seed comes from its index).

* ``serial``: in this process, in order (``jobs == 1``).
* ``process``: :class:`concurrent.futures.ProcessPoolExecutor` with ``jobs`` workers; at most
  ``2 * jobs`` tasks in flight, so a long run does not queue every task at once. Workers
  ignore SIGINT, so Ctrl-C reaches only this process, which stops submitting and returns.
  Workers exit when this process dies, even by ``kill -9``: on Linux the kernel sends them
  SIGKILL (``prctl(PR_SET_PDEATHSIG)``); elsewhere a watchdog thread in each worker polls
  ``os.getppid()`` twice a second and exits when the parent has changed.
* ``ray``: Ray tasks (``pip install 'meeple[ray]'``) on the cluster at ``address``, or on a
  local one started for the run (``ray.init(num_cpus=jobs)``) and shut down after it; at
  most ``2 * jobs`` tasks in flight. The work must be importable on the cluster's nodes
  (the same ``meeple`` installed there).
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from meeple.engine.errors import ParameterError

__all__ = ["BACKENDS", "Backend", "ProcessBackend", "RayBackend", "SerialBackend",
           "check_backend", "make_backend", "resolve_jobs"]

BACKENDS = ("process", "ray")


def resolve_jobs(jobs: int) -> int:
    """``jobs``, or the machine's CPU count when ``jobs`` is 0.

    Raises:
        ParameterError: if ``jobs < 0``.
    """
    if jobs < 0:
        raise ParameterError(f"jobs = {jobs} must be 0 (all cores) or more")
    return jobs or os.cpu_count() or 1


class Backend:
    """Runs ``fn(*args)`` for each args tuple; a context manager (``close`` on exit)."""

    name = "serial"

    def __init__(self, jobs: int = 1):
        self.jobs = jobs

    def imap(self, fn: Callable[..., Any], tasks: Sequence[tuple]) -> Iterator[tuple[int, Any]]:
        """Yield ``(i, fn(*tasks[i]))`` for every task, in completion order.

        A task's exception is raised here (the remaining tasks are abandoned)."""
        for i, args in enumerate(tasks):
            yield i, fn(*args)

    def close(self) -> None:
        """Release workers (idempotent)."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SerialBackend(Backend):
    """Everything in this process, in order."""


#: ``prctl`` option: the signal the kernel sends this process when its parent dies.
PR_SET_PDEATHSIG = 1
#: How often the portable watchdog checks that the parent is alive, in seconds.
WATCHDOG_SECONDS = 0.5


def _init_worker(parent: int) -> None:
    """Process-pool worker initializer: ignore SIGINT (Ctrl-C is the parent's) and exit when
    the parent process ``parent`` dies (:func:`exit_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)


def exit_with_parent(parent: int) -> str:
    """Make this process exit when its parent ``parent`` (a pid) dies, however it dies.

    On Linux the kernel sends this process SIGKILL at the parent's death
    (``prctl(PR_SET_PDEATHSIG)`` through libc); elsewhere, or if that call fails, a daemon
    thread polls ``os.getppid()`` every :data:`WATCHDOG_SECONDS` and exits the process when it
    is no longer ``parent``. A parent already gone when this runs exits the process at once.

    Returns:
        ``"pdeathsig"`` or ``"watchdog"``: the mechanism in place.
    """
    if sys.platform.startswith("linux") and _set_pdeathsig(signal.SIGKILL):
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)
        return "pdeathsig"

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCHDOG_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="meeple-parent-watchdog", daemon=True).start()
    return "watchdog"


def _set_pdeathsig(signum: int) -> bool:
    """Ask the Linux kernel to send ``signum`` to this process when its parent dies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


class ProcessBackend(Backend):
    """A pool of ``jobs`` worker processes (the platform's default start method)."""

    name = "process"

    def __init__(self, jobs: int):
        super().__init__(jobs)
        self._pool: ProcessPoolExecutor | None = None

    def imap(self, fn: Callable[..., Any], tasks: Sequence[tuple]) -> Iterator[tuple[int, Any]]:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.jobs, initializer=_init_worker,
                                             initargs=(os.getpid(),))
        pool = self._pool

        def wait_some(handles: list[Future]) -> list[tuple[Future, Any]]:
            done, _ = wait(handles, return_when=FIRST_COMPLETED)
            return [(future, future.result()) for future in done]

        yield from _windowed(tasks, 2 * self.jobs, lambda args: pool.submit(fn, *args),
                             wait_some, Future.cancel)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class RayBackend(Backend):
    """Ray tasks on an existing cluster (``address``) or a local one started here."""

    name = "ray"

    def __init__(self, jobs: int, address: str | None = None):
        super().__init__(jobs)
        check_backend("ray", address)
        import ray

        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                      "configure_logging": False}
            if address is None:
                kwargs["num_cpus"] = jobs
            else:
                kwargs["address"] = address
            try:
                ray.init(**kwargs)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise ParameterError(f"cannot start or reach a Ray cluster"
                                     f"{f' at {address}' if address else ''}: {exc}") from None
            self._started = True
        if address is not None:
            self.jobs = max(1, int(ray.cluster_resources().get("CPU", jobs)))
        self._remote: dict[Callable[..., Any], Any] = {}

    def imap(self, fn: Callable[..., Any], tasks: Sequence[tuple]) -> Iterator[tuple[int, Any]]:
        ray = self._ray
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = ray.remote(fn)
        def wait_some(handles: list[Any]) -> list[tuple[Any, Any]]:
            done, _ = ray.wait(handles, num_returns=1)
            return [(ref, ray.get(ref)) for ref in done]

        yield from _windowed(tasks, 2 * self.jobs, lambda args: remote.remote(*args),
                             wait_some, ray.cancel)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False


def _windowed(tasks: Sequence[tuple], window: int, submit: Callable[[tuple], Any],
              wait_some: Callable[[list[Any]], list[tuple[Any, Any]]],
              cancel: Callable[[Any], Any]) -> Iterator[tuple[int, Any]]:
    """``(index, result)`` of every task in completion order, keeping at most ``window``
    submitted at once: ``submit(args) -> handle``, ``wait_some(handles) -> [(handle, result)]``
    for at least one finished handle; on exit (a consumer that stops early, an error) the
    handles still pending are cancelled with ``cancel(handle)``."""
    todo = iter(enumerate(tasks))
    pending: dict[Any, int] = {}
    try:
        while True:
            while len(pending) < window:
                nxt = next(todo, None)
                if nxt is None:
                    break
                pending[submit(nxt[1])] = nxt[0]
            if not pending:
                return
            for handle, result in wait_some(list(pending)):
                yield pending.pop(handle), result
    finally:
        for handle in pending:
            cancel(handle)


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a ``host:port`` (or ``ray://host:port``) that nothing listens on:
    ``ray.init`` itself retries such an address for minutes. ``auto`` is left to Ray."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ParameterError(f"cannot reach a Ray cluster at {address}: "
                             f"{exc.strerror or exc}") from None


def check_backend(backend: str, address: str | None = None) -> None:
    """Check, without starting anything, that ``backend`` can run: a known name, Ray
    importable for ``ray``, ``address`` only with ``ray`` and reachable.

    Raises:
        ParameterError: naming what is wrong.
    """
    if backend not in BACKENDS:
        raise ParameterError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if backend != "ray":
        if address is not None:
            raise ParameterError("--address is for --backend ray")
        return
    try:
        import ray  # noqa: F401
    except ImportError:
        raise ParameterError("--backend ray needs Ray: pip install 'meeple[ray]'") from None
    if address is not None:
        _check_reachable(address)


def make_backend(backend: str, jobs: int, address: str | None = None) -> Backend:
    """The backend called ``backend`` (``"process"`` or ``"ray"``) with ``jobs`` workers
    (0 = all cores). ``process`` with one job runs serially in this process.

    Raises:
        ParameterError: unknown backend, ``jobs < 0``, ``address`` without Ray, Ray missing
            or unreachable.
    """
    check_backend(backend, address)
    jobs = resolve_jobs(jobs)
    if backend == "ray":
        return RayBackend(jobs, address)
    return SerialBackend(1) if jobs == 1 else ProcessBackend(jobs)
