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
The command-line options that choose an executor are :func:`arena.cli.add_executor_options`.

>>> with executor_from(workers=1) as pool:
...     pool.submit(pow, 2, 10).result()
1024
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import ExitStack, contextmanager

from arena.errors import ArenaError
from arena.extras import import_extra

#: Seconds to wait for a Dask scheduler before giving up.
CONNECT_TIMEOUT = 3.0

_LOCAL = re.compile(r"^local:(\d+)$")


class ExecutorError(ArenaError):
    """An executor that cannot be made: bad options, an unreachable cluster."""


def parse_cluster(text: str) -> int:
    """The worker count of a ``local:N`` cluster specification.

    >>> parse_cluster("local:4")
    4
    """
    match = _LOCAL.match(text.strip())
    if not match or int(match.group(1)) < 1:
        raise ExecutorError(f"invalid cluster {text!r} (expected local:N with N ≥ 1)")
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
    if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool)):
        raise TypeError(f"workers must be an int, not {type(workers).__name__}")
    if workers is not None and workers < 1:
        raise ExecutorError(f"invalid worker count {workers} (at least 1)")
    if scheduler is None and cluster is None:
        with ProcessPoolExecutor(max_workers=workers or 1) as pool:
            yield pool
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
