"""Where the server computes an answer, so that the event loop never waits for one.

A cheap answer (a best-truck query from the shipped table, a score) runs in a thread of a small
pool. An expensive one (a large variant truck, an advisor's sampling, a deck's table) runs in a
process of its own, forked from a server that already imported the library, with a hard wall
time: past it the process is killed and the request is told so in one line. At most
``heavy_at_once`` expensive answers run at a time; one more is refused at once as busy rather
than queued, so a burst of them never makes the server hang, and cheap requests (and
``/api/health``) keep answering while they run.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from functools import partial
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from webapp.errors import Busy, OverTime, Stopped, Stopping

__all__ = ["Runner"]

R = TypeVar("R")

#: What the process that starts the workers imports once, so that each worker forked from it
#: starts with the library loaded (milliseconds instead of a second).
PRELOAD = ["webapp.contract", "packing.cli", "express.cli", "webapp.practice"]


def _context() -> Any:
    if sys.platform == "win32":  # pragma: no cover - the tests run on Linux
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


#: The environment variables a worker takes from the server as they are when it starts (the
#: process that forks workers was started once, with the environment of that moment).
FOLLOWED = ("PACKING_TABLE_DIR", "TABLETOP_WEB_DATA")


def _child(
    connection: Connection,
    function: Callable[..., Any],
    args: tuple[Any, ...],
    environment: dict[str, str | None],
) -> None:
    for name, value in environment.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    if hasattr(os, "setsid"):
        # A group of its own: stopping the answer stops the processes it started too (a deck's
        # table is built by a pool of workers).
        os.setsid()
    try:
        result = function(*args)
    except BaseException as error:  # noqa: BLE001 - everything goes back to the server, as data
        connection.send(("raised", f"{type(error).__name__}: {error}"))
    else:
        connection.send(("returned", result))
    finally:
        connection.close()


class Runner:
    """Runs answers off the event loop: :meth:`cheap` in threads, :meth:`heavy` in processes."""

    def __init__(self, *, threads: int = 4, heavy_at_once: int = 2) -> None:
        if heavy_at_once < 1 or threads < 1:
            raise ValueError("a runner needs at least one thread and one process slot")
        self.heavy_at_once = heavy_at_once
        self._threads = threads
        self._slots = threading.BoundedSemaphore(heavy_at_once)
        self._context = _context()
        self._cheap_limiter: Any = None
        self._heavy_limiter: Any = None
        self._guard = threading.Lock()
        self._cheap_running = 0
        self._heavy_running: dict[int, tuple[str, Any]] = {}  # the process of each long answer
        self._stopping = False

    def _limiters(self) -> tuple[Any, Any]:
        # anyio's limiters belong to the running event loop: made on first use inside it.
        import anyio

        if self._cheap_limiter is None:
            self._cheap_limiter = anyio.CapacityLimiter(self._threads)
            self._heavy_limiter = anyio.CapacityLimiter(self.heavy_at_once)
        return self._cheap_limiter, self._heavy_limiter

    async def cheap(self, function: Callable[..., R], *args: Any) -> R:
        """``function(*args)`` in a thread of the pool."""
        import anyio

        cheap, _ = self._limiters()
        with self._guard:
            self._cheap_running += 1
        try:
            return await anyio.to_thread.run_sync(partial(function, *args), limiter=cheap)
        finally:
            with self._guard:
                self._cheap_running -= 1

    async def heavy(
        self, function: Callable[..., R], *args: Any, seconds: float, label: str = ""
    ) -> R:
        """``function(*args)`` (a module-level function: it crosses to another process) in a
        process of its own, killed after ``seconds``. :class:`Busy` when ``heavy_at_once``
        answers are running already; :class:`OverTime` when it took too long. ``label`` names
        the answer when the server stops while it runs (default: the function's name)."""
        import anyio

        if not self._slots.acquire(blocking=False):
            raise Busy(self.heavy_at_once)
        try:
            _, heavy = self._limiters()
            task = partial(self._in_process, function, args, seconds, label or function.__name__)
            return await anyio.to_thread.run_sync(task, limiter=heavy)
        finally:
            self._slots.release()

    def stop(self) -> str:
        """Stop every long answer now (its process and the processes it started) and start no
        other: the server is stopping. What was in progress, in words ("" for nothing)."""
        with self._guard:
            self._stopping = True
            running = list(self._heavy_running.values())
            quick = self._cheap_running
        for _, process in running:
            _kill(process)
        said = []
        if running:
            names = ", ".join(label for label, _ in running)
            said.append(f"{_count(len(running), 'long answer')} in progress ({names}) stopped")
        if quick:
            said.append(f"waiting a moment for {_count(quick, 'quick answer')} in progress")
        return "; ".join(said)

    def _in_process(
        self, function: Callable[..., R], args: tuple[Any, ...], seconds: float, label: str
    ) -> R:
        receiver, sender = self._context.Pipe(duplex=False)
        # Not a daemon: a daemon may start no processes, and a table build starts a pool.
        environment = {name: os.environ.get(name) for name in FOLLOWED}
        process = self._context.Process(target=_child, args=(sender, function, args, environment))
        with self._guard:
            if self._stopping:
                raise Stopping()
            process.start()
            self._heavy_running[id(process)] = (label, process)
        sender.close()
        try:
            if not receiver.poll(seconds):
                raise OverTime(seconds)
            try:
                kind, value = receiver.recv()
            except EOFError:  # the process ended without an answer (killed, out of memory)
                raise Stopping() if self._stopping else Stopped() from None
        finally:
            with self._guard:
                self._heavy_running.pop(id(process), None)
            _stop(process)
            receiver.close()
        if kind == "raised":
            raise RuntimeError(value)
        result: R = value
        return result

    def warm_up(self) -> None:
        """Start the process that forks the workers now, not on the first expensive request."""
        process = self._context.Process(target=_nothing, daemon=True)
        process.start()
        process.join()


def _stop(process: Any) -> None:
    """End ``process`` and every process it started (its group), and reap it."""
    _kill(process)
    process.join()


def _kill(process: Any) -> None:
    """Kill ``process`` and every process it started (its group), without waiting."""
    if process.pid is not None and hasattr(os, "killpg"):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ValueError):  # already reaped: nothing to kill
        if process.is_alive():
            process.kill()


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _nothing() -> None:
    """A worker with nothing to do (:meth:`Runner.warm_up`)."""
