"""Where long computations run: a local process pool, or a Dask cluster — one Executor either way.

Every long computation of the library (``packing``'s table builds and deck studies, tournaments)
takes a :class:`concurrent.futures.Executor`. :func:`executor_from` turns the command-line
choice into one:

- ``workers=N``: a :class:`~concurrent.futures.ProcessPoolExecutor` of N processes;
- ``cluster="local:N"``: a Dask ``LocalCluster`` of N worker processes (one thread each) on
  this machine, torn down afterwards;
- ``scheduler="tcp://host:8786"``: an existing Dask cluster.

Dask (the optional extra ``dask``: ``dask[distributed]``) is imported only here, and only when
asked for. Its executor is made with ``pure=False``: Dask would otherwise merge calls with equal
arguments into one task; the library's tasks are distinct anyway (each carries its own inputs
and seed), and results never depend on which executor ran them. With a remote scheduler the
workers must have this library installed (the tasks are its module-level functions).

A scheduler that cannot be reached or a bad ``local:N`` raise :class:`ExecutorError` with one
line saying what went wrong; a missing extra raises :class:`arena.extras.MissingExtraError`.

Worker counts: the default is :func:`usable_cores` (the cores this process may run on), and at
most :data:`MAX_WORKERS` processes are started (:func:`check_workers`): more would only fight
over the same cores, and a typo (``--workers 100000``) must not fork thousands of processes.
The pools made here leave Ctrl-C to the parent (:func:`ignore_sigint` in each worker) and,
when the parent is interrupted, stop their workers at once (:func:`stop_pool`) instead of
waiting for the queued work, so a second Ctrl-C never finds the parent waiting on workers.
The command-line options that choose an executor are ``arena.cli.add_executor_options`` (a command-line module).

>>> with executor_from(workers=1) as pool:
...     pool.submit(pow, 2, 10).result()
1024
"""

from __future__ import annotations

import logging
import os
import re
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from typing import Any

from arena.errors import ArenaError
from arena.extras import import_extra
from arena.values import whole_number

#: Seconds to wait for a Dask scheduler before giving up.
CONNECT_TIMEOUT = 3.0

_LOCAL = re.compile(r"local:([0-9]+)", re.ASCII)  # digits 0-9 only, as every count


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform has one, else
    every core of the machine): the default number of worker processes.

    >>> usable_cores() >= 1
    True
    """
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return max(1, len(affinity(0)))
    return max(1, os.cpu_count() or 1)


MAX_WORKERS = max(256, 4 * usable_cores())
"""The most local worker processes a pool may have: 4 per usable core, and never fewer than
256 allowed (more only fight over the same cores)."""


class ExecutorError(ArenaError):
    """An executor that cannot be made: bad options, an unreachable cluster."""


def check_workers(workers: object, what: str = "workers") -> int:
    """``workers`` if it is a worker count this library starts: a whole number from 1 to
    :data:`MAX_WORKERS`; else :class:`ExecutorError` (``TypeError`` for a non-int) quoting it.

    >>> check_workers(2)
    2
    >>> check_workers(0)
    Traceback (most recent call last):
    ...
    arena.executors.ExecutorError: invalid worker count 0 (at least 1)
    """
    workers = whole_number(workers, what)
    if workers < 1:
        raise ExecutorError(f"invalid worker count {workers} (at least 1)")
    if workers > MAX_WORKERS:
        raise ExecutorError(
            f"invalid worker count {workers} (at most {MAX_WORKERS}, the larger of 256 and "
            "4 per usable core)"
        )
    return workers


def ignore_sigint() -> None:
    """Worker initialiser: Ctrl-C reaches the whole process group, but only the parent handles
    it (it saves what is finished and stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes (checked by :func:`check_workers`) that leave Ctrl-C to
    this process."""
    return ProcessPoolExecutor(max_workers=check_workers(workers), initializer=ignore_sigint)


@contextmanager
def interrupts_ignored() -> Iterator[None]:
    """Ctrl-C ignored inside the block (in the main thread; elsewhere signals cannot be set).

    For the moments after a first Ctrl-C: stopping the workers and reporting the interruption.
    A second press there would leave a pool half shut down (Python 3.11's exit hook then fails
    on its closed pipe, a traceback) or turn the one-line report into one."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: queued work cancelled, running workers terminated, not awaited (what
    an interrupted parent does; the results of running tasks are lost). Ctrl-C is ignored until
    it is done."""
    with interrupts_ignored():
        _stop_pool(pool)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    if terminate is not None:
        terminate()
        return
    # Before 3.14 the pool offers no way to stop a running task: end its processes directly.
    processes = dict(getattr(pool, "_processes", None) or {})
    # The first shutdown forgets the pool's manager thread, so a later shutdown(wait=True) no
    # longer waits for it: it is joined here. Left running, it closes its wake-up pipe while
    # the interpreter's exit hook writes to it (Python 3.11–3.13: an EBADF traceback at exit).
    manager = getattr(pool, "_executor_manager_thread", None)
    # What the manager thread reads its results from, and the work it would fail if it found
    # the pool broken: shutdown drops the pool's references to both.
    results = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    work: dict[Any, Any] = getattr(pool, "_pending_work_items", None) or {}
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        if process.is_alive():
            process.terminate()
    for process in processes.values():
        process.join(timeout=5)
    if manager is not None:
        manager.join(timeout=1)  # it sees the workers gone and ends at once, unless:
    if manager is not None and manager.is_alive() and results is not None:
        # A worker ended while it wrote a result larger than one write (multiprocessing sends
        # the length, then the bytes) leaves the manager thread reading the rest for ever, and
        # the interpreter's exit waits for that thread. This process holds the pipe's last
        # write end: closing it ends that read (end of file), and the thread fails the pool's
        # work as broken. Blocked in that read, it has not yet dropped the cancelled work, which
        # it cannot fail (Python 3.11: InvalidStateError): dropped here.
        for work_id, item in list(work.items()):
            if item.future.done():
                del work[work_id]
        results.close()
        manager.join(timeout=5)
    pool.shutdown(wait=True)


def parse_cluster(text: str) -> int:
    """The worker count of a ``local:N`` cluster specification.

    >>> parse_cluster("local:4")
    4
    """
    match = _LOCAL.fullmatch(text)
    if not match or int(match.group(1)) < 1:
        raise ExecutorError(f"invalid cluster {text!r} (expected local:N with N ≥ 1)")
    if int(match.group(1)) > MAX_WORKERS:
        raise ExecutorError(f"invalid cluster {text!r} (at most local:{MAX_WORKERS})")
    return int(match.group(1))


@contextmanager
def executor_from(
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    cluster: str | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
) -> Iterator[Executor]:
    """An executor for the given choice (at most one of ``workers``, ``scheduler``,
    ``cluster``; none gives a single-process pool), shut down on leaving the block.

    The Dask client and any local cluster are closed on exit; an existing cluster given by
    ``scheduler`` is left running.
    """
    chosen = [
        name
        for name, value in (("workers", workers), ("scheduler", scheduler), ("cluster", cluster))
        if value is not None
    ]
    if len(chosen) > 1:
        raise ExecutorError(
            f"choose one of workers, scheduler and cluster, not {' and '.join(chosen)}"
        )
    if workers is not None:
        check_workers(workers)
    if scheduler is None and cluster is None:
        pool = process_pool(workers or 1)
        try:
            yield pool
        except BaseException:
            stop_pool(pool)
            raise
        pool.shutdown(wait=True)
        return
    n = parse_cluster(cluster) if cluster is not None else 0
    distributed = import_extra("distributed", "dask")
    with ExitStack() as stack:
        if cluster is not None:
            local = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            )
            client = stack.enter_context(distributed.Client(local))
        else:
            assert scheduler is not None
            try:
                client = distributed.Client(scheduler, timeout=connect_timeout)
            except (OSError, TimeoutError, ValueError, TypeError) as error:
                reason = str(error).splitlines()[0] if str(error) else type(error).__name__
                raise ExecutorError(
                    f"cannot reach the Dask scheduler {scheduler!r}: {reason}"
                ) from None
            stack.enter_context(client)
        yield client.get_executor(pure=False)
