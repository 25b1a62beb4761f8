"""Scale-out: the same workload serially, on a 2-process pool and on a 2-worker Dask cluster.

The workload: the optimal tables of ``--decks`` random decks (default 20; every truck column is
one task, built through :class:`packing.design.ColumnCache`), and a ``--deals``-deal tournament
(default 2,000) of the arena's toy dice game (``tests/arena/toy.py``: three policies, every
seating) through :func:`arena.tournament`. Each run's result must equal the serial one. It
prints wall time, tasks, seconds per task and Dask's overhead against the pool, then projects
the time of 1,000 decks on 10 and 100 workers (the formula is printed with the figures). See
benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from concurrent.futures import Executor
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from arena import Policy, RandomPolicy, tournament
from arena.executors import executor_from
from packing.design import ColumnCache, random_deck
from tests.arena.toy import AlwaysBank, AlwaysKeep, DiceRace

COLUMNS_PER_DECK = 30


def three_players() -> DiceRace:
    """The toy game for three players (module level, so worker processes can call it)."""
    return DiceRace(players=3)


@dataclass(frozen=True)
class Run:
    where: str
    seconds: float
    tasks: int
    result: Any


def tables(decks: list[tuple[Any, ...]], executor: Executor | None) -> tuple[int, list[bytes]]:
    """Every column of every deck (one task each); the tables' bytes, to compare runs."""
    cache = ColumnCache()
    tasks = cache.fill(decks, executor=executor)
    return tasks, [cache.table(d).loaded.tobytes() for d in decks]


class CountingExecutor(Executor):
    """Counts the tasks a tournament submits (it chooses its own chunking)."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self.submitted = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        return self.inner.submit(fn, *args, **kwargs)


def deals(count: int, executor: Executor | None) -> tuple[int, Any]:
    policies: dict[str, Policy] = {
        "keep": AlwaysKeep(),
        "bank": AlwaysBank(),
        "random": RandomPolicy(),
    }
    if executor is None:
        return 0, tournament(three_players, policies, games=count, seed=7, progress=False)
    counting = CountingExecutor(executor)
    result = tournament(
        three_players, policies, games=count, seed=7, progress=False, executor=counting, workers=2
    )
    return counting.submitted, result


def timed(
    where: str, work: Callable[[Executor | None], tuple[int, Any]], executor: Executor | None
) -> Run:
    start = time.perf_counter()
    tasks, result = work(executor)
    return Run(where, time.perf_counter() - start, tasks, result)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks scale")
    parser.add_argument(
        "--decks", type=int, default=20, help="random decks to tabulate (default 20)"
    )
    parser.add_argument("--deals", type=int, default=2000, help="tournament deals (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random decks")
    parser.add_argument(
        "--skip-serial",
        action="store_true",
        help="no serial run (tasks' cost then comes from the pool run × 2)",
    )
    args = parser.parse_args(argv)

    decks = [random_deck(seed=f"{args.seed}.{i}") for i in range(args.decks)]
    deals(1, None)  # warm up: the first tournament imports what it needs once
    print(
        f"workload: tables of {args.decks} random decks ({args.decks * COLUMNS_PER_DECK} truck "
        f"columns of 900 solves), a {args.deals}-deal toy tournament (3 players, 3 seatings)"
    )
    runs: dict[str, list[Run]] = {"tables": [], "tournament": []}
    setups: list[tuple[str, Callable[[], AbstractContextManager[Executor | None]]]] = []
    if not args.skip_serial:
        setups.append(("serial", lambda: nullcontext(None)))
    setups.append(("2-process pool", lambda: executor_from(workers=2)))
    setups.append(("Dask, 2 workers", lambda: executor_from(cluster="local:2")))
    startup: dict[str, float] = {}
    for where, make in setups:
        began = time.perf_counter()
        with make() as executor:
            startup[where] = time.perf_counter() - began
            runs["tables"].append(timed(where, lambda e: tables(decks, e), executor))
            runs["tournament"].append(timed(where, lambda e: deals(args.deals, e), executor))
        print(f"  {where}: done (start-up {startup[where]:.1f} s)", flush=True)

    ok = True
    for name, done in runs.items():
        reference = done[0]
        print()
        print(f"{name}:")
        print(f"  {'where':<16} {'wall s':>8} {'tasks':>6} {'s/task':>8}  same result")
        for run in done:
            tasks = run.tasks or (done[1].tasks if len(done) > 1 else 0)
            same = run.result == reference.result
            ok &= same
            per = run.seconds / tasks if tasks else float("nan")
            print(f"  {run.where:<16} {run.seconds:>8.2f} {tasks:>6} {per:>8.4f}  {same}")
        pool, dask = done[-2], done[-1]
        print(
            f"  Dask against the pool: {dask.seconds - pool.seconds:+.2f} s "
            f"({dask.seconds / pool.seconds - 1:+.1%}), "
            f"{(dask.seconds - pool.seconds) / max(dask.tasks, 1) * 2 * 1000:+.1f} ms of worker "
            f"time per task"
        )

    dask_run = runs["tables"][-1]
    per_task = 2 * dask_run.seconds / dask_run.tasks  # worker-seconds per column on Dask
    dask_start = startup["Dask, 2 workers"]
    print()
    print("projection, tables of 1,000 random decks (30,000 columns, all distinct):")
    print(
        f"  T(W) = 30,000 tasks × {per_task:.3f} worker-s per task (2 workers × Dask wall / tasks "
        f"above, Dask's per-task cost included) / W + cluster start-up {dask_start:.1f} s; "
        f"assumes linear scaling, workers as fast as these cores"
    )
    for workers in (10, 100):
        seconds = 30_000 * per_task / workers + dask_start
        print(
            f"  {workers:>3} workers: {seconds:8.0f} s = {seconds / 60:6.1f} min "
            f"({30_000 / workers:.0f} tasks per worker; the scheduler sees "
            f"{workers / per_task:.0f} tasks/s)"
        )
    if not ok:
        print("MISMATCH: a run's result differs from the serial one")
    return 0 if ok else 1


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
