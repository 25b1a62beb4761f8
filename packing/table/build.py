"""Building a table: every distinct roll solved on every truck, one truck's column (or part
of it) per task, over any :class:`concurrent.futures.Executor`, with a checkpoint to resume."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import (
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    as_completed,
)
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from arena.executors import check_workers, process_pool, stop_pool
from packing.deck import format_deck
from packing.errors import PackingError
from packing.model import Truck
from packing.odds import roll_counts
from packing.solver import solve
from packing.table.files import TABLE_FORMAT, cargo_matrix, read_checkpoint, save_npz
from packing.table.optimal import OptimalTable
from packing.verify import verify

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class BuildReport:
    """What a build did: every entry must be proven optimal."""

    table: OptimalTable
    entries: int
    solved: int  # solved in this run (the rest came from a checkpoint)
    optimal: int
    wall_time: float

    @property
    def all_optimal(self) -> bool:
        return self.optimal == self.entries

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready summary (the table itself is saved, not printed)."""
        return {
            "deck_key": self.table.key,
            "entries": self.entries,
            "solved": self.solved,
            "optimal": self.optimal,
            "all_optimal": self.all_optimal,
            "wall_time": self.wall_time,
        }


class SolvedColumn(NamedTuple):
    """A task's answer: per cargo asked, the optimal loaded volume and whether it was proven."""

    loaded: list[int]
    optimal: list[bool]


def solve_column(truck: Truck, rows: Sequence[int] | None = None) -> SolvedColumn:
    """Worker task: solve and validate ``truck`` for the cargos of the table rows ``rows``
    (:func:`packing.roll_counts` order; every row, the whole column, by default). The one
    way a table entry is solved, by a build and by the deck designer alike.

    >>> from packing import Truck
    >>> solve_column(Truck.parse("###", height=1), [0, 1])
    SolvedColumn(loaded=[1, 1], optimal=[True, True])
    """
    cargos = tuple(roll_counts())
    asked = cargos if rows is None else [cargos[i] for i in rows]
    plans = [verify(solve(cargo, truck)) for cargo in asked]
    return SolvedColumn([p.loaded for p in plans], [p.optimal for p in plans])


class _Build:
    """A build in progress: what is solved so far (resumed from ``checkpoint`` when it
    exists) and how to save it there."""

    def __init__(self, deck: tuple[Truck, ...], checkpoint: str | os.PathLike[str] | None) -> None:
        shape = (len(roll_counts()), len(deck))
        self.deck = deck
        self.loaded = np.zeros(shape, dtype=np.uint8)
        self.proven = np.zeros(shape, dtype=bool)
        self.done = np.zeros(shape, dtype=bool)
        self.checkpoint = Path(checkpoint) if checkpoint is not None else None
        if self.checkpoint is not None and self.checkpoint.exists():
            self.loaded[:], self.proven[:], self.done[:] = read_checkpoint(self.checkpoint, deck)

    def tasks(self, chunk_size: int) -> list[tuple[int, list[int]]]:
        """(truck, rows) of the work left, at most ``chunk_size`` rows a task."""
        out = []
        for j in range(len(self.deck)):
            todo = [int(i) for i in np.flatnonzero(~self.done[:, j])]
            for start in range(0, len(todo), chunk_size):
                out.append((j, todo[start : start + chunk_size]))
        return out

    def record(self, j: int, rows: list[int], solved: SolvedColumn) -> None:
        self.loaded[rows, j] = solved.loaded
        self.proven[rows, j] = solved.optimal
        self.done[rows, j] = True

    def save(self) -> None:
        if self.checkpoint is not None:
            save_npz(
                self.checkpoint,
                format=np.array(TABLE_FORMAT),
                deck=np.array(format_deck(self.deck)),
                cargos=cargo_matrix(),
                loaded=self.loaded,
                proven=self.proven,
                done=self.done,
            )


def _pool(executor: Executor | None, workers: int) -> tuple[Executor, bool]:
    """The executor to run on, and whether it is made here (and so shut down here)."""
    if executor is not None:
        return executor, False
    if workers <= 1:
        return ThreadPoolExecutor(max_workers=1), True
    # Its workers leave Ctrl-C to this process, which checkpoints and stops them.
    return process_pool(workers), True


def build_table(
    deck: Sequence[Truck],
    *,
    executor: Executor | None = None,
    workers: int = 1,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    chunk_size: int = 900,
    save_every: float = 2.0,
) -> BuildReport:
    """Solve every distinct roll on every truck of ``deck``.

    Tasks (one truck × ``chunk_size`` cargos) go to ``executor`` — any
    :class:`concurrent.futures.Executor`, e.g. a process pool or a cluster's — or to a pool of
    ``workers`` processes created here (one worker runs in a thread, without process start-up).
    The default task is one truck's whole column (900 solves, 0.1–1.5 s of work): far above a
    cluster's per-task overhead. Tasks are all distinct (each its own truck and cargos) and
    deterministic, so the table is the same, bit for bit, whichever executor ran them, and a
    task a dying worker loses can simply run again.
    With ``checkpoint``, finished work is saved there every ``save_every`` seconds and on
    interruption (Ctrl-C), and a later build with the same checkpoint resumes from it; the
    checkpoint is removed when the build completes. A checkpoint that cannot be resumed
    (damaged, another deck's) raises :class:`arena.checkpoint.CheckpointError` before any work
    starts.
    """
    deck = tuple(deck)
    if not deck:
        raise PackingError("cannot build a table for an empty deck")
    check_workers(workers)
    build = _Build(deck, checkpoint)
    tasks = build.tasks(chunk_size)
    pool, own = _pool(executor, workers)
    started = last_save = time.perf_counter()
    solved, total, finished = 0, build.done.size, int(build.done.sum())
    if progress:
        progress(finished, total)
    futures: dict[Future[SolvedColumn], tuple[int, list[int]]] = {}
    try:
        for j, rows in tasks:
            futures[pool.submit(solve_column, deck[j], rows)] = (j, rows)
        for future in as_completed(futures):
            j, rows = futures[future]
            build.record(j, rows, future.result())
            solved += len(rows)
            finished += len(rows)
            if progress:
                progress(finished, total)
            if build.checkpoint is not None and time.perf_counter() - last_save > save_every:
                build.save()
                last_save = time.perf_counter()
    except BaseException:
        try:  # stop the workers first: a second Ctrl-C must not find them still running
            for future in futures:  # on a caller's executor too: it is not left busy
                future.cancel()
            if own and isinstance(pool, ProcessPoolExecutor):
                stop_pool(pool)
            elif own:
                pool.shutdown(wait=False, cancel_futures=True)
        finally:
            build.save()
        raise
    if own:
        pool.shutdown()
    table = OptimalTable(deck, build.loaded)
    if build.checkpoint is not None:
        build.checkpoint.unlink(missing_ok=True)
    return BuildReport(table, total, solved, int(build.proven.sum()), time.perf_counter() - started)
