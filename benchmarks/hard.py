"""The loading solver's frontier: hard variant cases, the plain strategy and the default one side
by side in one run.

Four families of trucks larger than the cards (a full 5×8 floor of height 5, the same with 3–8
random holes, a full 6×10 floor of height 6, the same with holes), cargos drawn as
``python -m benchmarks solve --grid`` draws them (random lengths adding up to 70–130 % of the
capacity). A case is hard when the plain strategy's quick search cannot reach its bound, so
that it needs more than the search (today's CP-SAT share of variant cargos); the first
``--cases`` hard ones of each family are kept. Each is solved with ``packing.PLAIN_STRATEGY``
and ``packing.DEFAULT_STRATEGY``, alternating which goes first, every plan through ``verify``
and both answers compared. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from benchmarks._suite import percentile
from benchmarks.solve import grid_cargo
from packing import DEFAULT_STRATEGY, PLAIN_STRATEGY, Cargo, LoadPlan, Truck, solve, verify
from packing.solver import FAST_PATH_NODES, _search, _upper_bound, _volume

#: (rows, columns, height, holed) of each family.
FAMILIES: dict[str, tuple[int, int, int, bool]] = {
    "5x8 h5": (5, 8, 5, False),
    "5x8 h5 holed": (5, 8, 5, True),
    "6x10 h6": (6, 10, 6, False),
    "6x10 h6 holed": (6, 10, 6, True),
}


def variant_truck(rows: int, columns: int, height: int, holed: bool, rng: random.Random) -> Truck:
    """A full ``rows``×``columns`` floor, with 3–8 cells removed at random when ``holed``."""
    mask = [[True] * columns for _ in range(rows)]
    if holed:
        cells = [(r, c) for r in range(rows) for c in range(columns)]
        for r, c in rng.sample(cells, rng.randint(3, 8)):
            mask[r][c] = False
    return Truck(tuple(tuple(row) for row in mask), height)


def is_hard(cargo: Cargo, truck: Truck) -> bool:
    """Whether the plain strategy's quick search misses its bound (so it would go further)."""
    bound = _upper_bound(cargo, truck, subset_sum=PLAIN_STRATEGY.subset_sum_bound)
    nodes = FAST_PATH_NODES + min(sum(cargo.counts), truck.capacity)
    return _volume(_search(cargo, truck, target=bound, node_limit=nodes)) < bound


def hard_cases(family: str, count: int, seed: int) -> tuple[list[tuple[Cargo, Truck]], int]:
    """The first ``count`` hard cases of ``family`` drawn from ``seed``, and how many cases
    were drawn to find them."""
    rows, columns, height, holed = FAMILIES[family]
    rng = random.Random(f"{seed}:{family}")
    cases: list[tuple[Cargo, Truck]] = []
    drawn = 0
    while len(cases) < count:
        truck = variant_truck(rows, columns, height, holed, rng)
        cargo = grid_cargo(rng, truck.capacity)
        drawn += 1
        if is_hard(cargo, truck):
            cases.append((cargo, truck))
    return cases, drawn


@dataclass
class _Runs:
    times: list[float] = field(default_factory=list)
    plans: list[LoadPlan] = field(default_factory=list)

    def row(self, label: str) -> str:
        times = sorted(self.times)
        proven = sum(plan.optimal for plan in self.plans)
        return (
            f"    {label:<8} total {sum(times):8.2f} s   p50 {statistics.median(times):6.3f} s   "
            f"p90 {percentile(times, 0.9):6.3f} s   max {times[-1]:6.3f} s   "
            f"proven {proven}/{len(times)}"
        )


def _disagree(a: LoadPlan, b: LoadPlan) -> bool:
    return (
        (a.optimal and b.optimal and a.loaded != b.loaded)
        or (a.optimal and b.loaded > a.loaded)
        or (b.optimal and a.loaded > b.loaded)
    )


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks hard", description=__doc__)
    parser.add_argument("--cases", type=int, default=25, help="hard cases a family (default 25)")
    parser.add_argument("--seed", type=int, default=1, help="which cases are drawn (default 1)")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="time limit of each solve (default 30)",
    )
    parser.add_argument(
        "--only", nargs="+", choices=sorted(FAMILIES), help="run only these families"
    )
    args = parser.parse_args(argv)
    if args.cases < 1:
        parser.error(f"argument --cases: must be at least 1, not {args.cases!r}")
    if not args.time_limit > 0:
        parser.error(f"argument --time-limit: must be positive, not {args.time_limit!r}")
    families = args.only or list(FAMILIES)
    print(
        f"hard variant cases: {args.cases} a family (seed {args.seed}), each solved with "
        f"PLAIN_STRATEGY and DEFAULT_STRATEGY (time limit {args.time_limit:g} s), every plan "
        f"verified"
    )
    everything = {"plain": _Runs(), "default": _Runs()}
    medians_met = True
    mismatches = 0
    for family in families:
        cases, drawn = hard_cases(family, args.cases, args.seed)
        runs = {"plain": _Runs(), "default": _Runs()}
        for i, (cargo, truck) in enumerate(cases):
            order = [("plain", PLAIN_STRATEGY), ("default", DEFAULT_STRATEGY)]
            for label, strategy in order if i % 2 == 0 else order[::-1]:
                started = time.perf_counter()
                plan = solve(cargo, truck, time_limit=args.time_limit, strategy=strategy)
                elapsed = time.perf_counter() - started
                for into in (runs[label], everything[label]):
                    into.times.append(elapsed)
                    into.plans.append(verify(plan))
            if _disagree(runs["plain"].plans[-1], runs["default"].plans[-1]):
                print(
                    f"MISMATCH: cargo {cargo} on {truck}: plain loads "
                    f"{runs['plain'].plans[-1].loaded}, default {runs['default'].plans[-1].loaded}"
                )
                mismatches += 1
        print(f"  {family} ({args.cases} hard of {drawn} drawn):")
        print(runs["plain"].row("plain"))
        print(runs["default"].row("default"))
        medians_met &= statistics.median(runs["default"].times) <= statistics.median(
            runs["plain"].times
        )
    plain, new = everything["plain"], everything["default"]
    print("  all families:")
    print(plain.row("plain"))
    print(new.row("default"))
    speedup = sum(plain.times) / sum(new.times)
    targets = {
        "every case proven": all(plan.optimal for plan in new.plans),
        f"total 5x faster ({speedup:.1f}x)": speedup >= 5,
        f"p90 <= 0.5 s ({percentile(new.times, 0.9):.3f} s)": percentile(new.times, 0.9) <= 0.5,
        f"max <= 3 s ({max(new.times):.3f} s)": max(new.times) <= 3,
        "no family slower at the median": medians_met,
    }
    for target, met in targets.items():
        print(f"target: {target}: {'met' if met else 'NOT MET'}")
    if mismatches:
        print(f"{mismatches} mismatches")
    return 0 if all(targets.values()) and not mismatches else 1
