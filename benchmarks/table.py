"""Builds the sample deck's optimal table from scratch and times queries from it.

Reports the build's wall time with 1 and 2 workers (solves per second), checks it against the
shipped table, and times ``rank_trucks`` / ``expected_penalty`` / ``best_truck`` answered from
the table against the same queries answered by solving. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from packing import SAMPLE_DECK, best_truck, expected_penalty, rank_trucks, roll_counts
from packing.table import build_table, find_table


def _per_call(fn: Callable[[], object], *, repeat: int) -> float:
    """Median seconds per call over 5 rounds of ``repeat`` calls."""
    rounds = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(repeat):
            fn()
        rounds.append((time.perf_counter() - t0) / repeat)
    return statistics.median(rounds)


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:10.2f} µs"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks table")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--queries", type=int, default=50, help="rolls timed for the query latency")
    args = parser.parse_args(argv)

    shipped = find_table(SAMPLE_DECK)
    for workers in args.workers:
        report = build_table(SAMPLE_DECK, workers=workers)
        same = shipped is not None and np.array_equal(report.table.loaded, shipped.loaded)
        print(
            f"build, {workers} worker{'s' if workers > 1 else ' '}: {report.entries} entries in "
            f"{report.wall_time:6.2f} s = {report.entries / report.wall_time:7.0f} solves/s; "
            f"{report.optimal}/{report.entries} proven optimal; equals shipped table: {same}"
        )

    rng = random.Random(3)
    rolls = rng.sample(list(roll_counts()), args.queries)
    timings: dict[str, list[float]] = {
        k: []
        for k in (
            "rank_trucks (table)",
            "rank_trucks (solving)",
            "expected_penalty (table)",
            "best_truck top=1 (table + 1 solve)",
            "best_truck top=1 (bound-pruned solving)",
        )
    }
    for cargo in rolls:
        timings["rank_trucks (table)"].append(
            _per_call(partial(rank_trucks, cargo, SAMPLE_DECK), repeat=2000)
        )
        timings["expected_penalty (table)"].append(
            _per_call(partial(expected_penalty, cargo, SAMPLE_DECK), repeat=2000)
        )
        timings["rank_trucks (solving)"].append(
            _per_call(partial(rank_trucks, cargo, SAMPLE_DECK, use_table=False), repeat=1)
        )
        timings["best_truck top=1 (table + 1 solve)"].append(
            _per_call(partial(best_truck, cargo, SAMPLE_DECK, top=1), repeat=5)
        )
        timings["best_truck top=1 (bound-pruned solving)"].append(
            _per_call(partial(best_truck, cargo, SAMPLE_DECK, top=1, use_table=False), repeat=5)
        )
    print(
        f"queries over the 30-truck sample deck, {args.queries} random rolls "
        f"(median / max of per-roll medians):"
    )
    for name, values in timings.items():
        print(f"  {name:<42} {_us(statistics.median(values))} {_us(max(values))}")
    ratio = statistics.median(timings["rank_trucks (solving)"]) / statistics.median(
        timings["rank_trucks (table)"]
    )
    print(f"  rank_trucks: the table answers {ratio:,.0f}x faster than solving")
    return 0
