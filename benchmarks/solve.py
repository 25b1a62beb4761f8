"""Times ``packing.solve``: on the sample deck, on larger grids against the model alone, and a
short correctness check for CI.

* default: every distinct dice cargo on sample-deck trucks; a sample repeated with the CP-SAT
  model alone (``fast_path=False``); the tests' exhaustive search against ``solve`` on small
  trucks, in the same run, so the ratio does not depend on the machine.
* ``--grid RxC --height H``: random cargos on a full R×C floor, each solved by ``solve`` and by
  the model alone in the same run: median, p90, max and proven share of both, and the target
  (solve's p90 not slower than the model alone's).
* ``--check``: sample-deck cases solved with and without the fast path, both validated by
  ``verify`` and compared with the shipped optimal table; exits 1 on any mismatch.

See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks._suite import percentile
from packing import (
    SAMPLE_DECK,
    Cargo,
    Engine,
    LoadPlan,
    Truck,
    roll_counts,
    solve,
    upper_bound,
    verify,
)
from packing.table import find_table
from tests.packing.brute import brute_force_loaded


def _ms(seconds: float, digits: int = 1) -> str:
    return f"{seconds * 1000:8.{digits}f} ms"


def _grid(text: str) -> tuple[int, int]:
    rows, sep, columns = text.lower().partition("x")
    if not sep or not rows.isdigit() or not columns.isdigit() or int(rows) < 1 or int(columns) < 1:
        raise argparse.ArgumentTypeError(
            f"invalid grid {text!r} (expected ROWSxCOLUMNS, e.g. 6x10)"
        )
    return int(rows), int(columns)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks solve")
    parser.add_argument(
        "--trucks", type=int, default=6, help="sample-deck trucks to time (default 6)"
    )
    parser.add_argument("--full", action="store_true", help="all 30 trucks of the sample deck")
    parser.add_argument(
        "--seed", type=int, default=1, help="which trucks, cargos and cases are drawn"
    )
    parser.add_argument(
        "--model-sample",
        type=int,
        default=500,
        help="solves repeated with the CP-SAT model alone (default 500)",
    )
    parser.add_argument(
        "--brute-cases", type=int, default=60, help="small cases for the brute-force ratio"
    )
    parser.add_argument(
        "--grid",
        type=_grid,
        metavar="RxC",
        help="random cargos on a full RxC floor, solve against the model alone",
    )
    parser.add_argument(
        "--height", type=int, default=6, help="the --grid truck's height (default 6)"
    )
    parser.add_argument(
        "--cases", type=int, default=100, help="--grid: random cargos (default 100)"
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="--grid: time limit of each solve (default 20)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="short correctness run for CI: the fast path against the model alone and the table",
    )
    parser.add_argument(
        "--check-cases", type=int, default=160, help="--check: sample-deck cases (default 160)"
    )
    args = parser.parse_args(argv)
    if args.check:
        return check(args.check_cases, args.seed)
    if args.grid:
        return grid(
            *args.grid,
            height=args.height,
            cases=args.cases,
            seed=args.seed,
            time_limit=args.time_limit,
        )
    return deck(args)


# --- the sample deck ---------------------------------------------------------------------------


def deck(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    trucks = list(SAMPLE_DECK) if args.full else rng.sample(list(SAMPLE_DECK), args.trucks)
    cargos = list(roll_counts())
    times: list[float] = []
    engines = dict.fromkeys(Engine, 0)
    optimal = 0
    start = time.perf_counter()
    for truck in trucks:
        for cargo in cargos:
            t0 = time.perf_counter()
            plan = solve(cargo, truck)
            times.append(time.perf_counter() - t0)
            verify(plan)
            optimal += plan.optimal
            engines[plan.engine] += 1
    total = time.perf_counter() - start
    n = len(times)
    print(
        f"solve: {len(cargos)} cargos x {len(trucks)} trucks = {n} solves "
        f"({', '.join(t.name for t in trucks)})"
    )
    print(f"  proven optimal : {optimal}/{n} ({100 * optimal / n:.1f} %)")
    print(
        f"  fast path      : {engines[Engine.BOUND]} ({100 * engines[Engine.BOUND] / n:.1f} %), "
        f"CP-SAT: {engines[Engine.CP_SAT]}"
    )
    print(
        f"  median {_ms(statistics.median(times), 3)}   p99 {_ms(percentile(times, 0.99), 3)}   "
        f"max {_ms(max(times), 3)}   mean {_ms(statistics.fmean(times), 3)}"
    )
    print(f"  total {total:.2f} s (including verify)")

    # The same solves with the CP-SAT model alone (no fast path), on a sample, for the ratio.
    sample = rng.sample([(c, t) for t in trucks for c in cargos], min(args.model_sample, n))
    model_times = []
    for cargo, truck in sample:
        t0 = time.perf_counter()
        plan = solve(cargo, truck, fast_path=False)
        model_times.append(time.perf_counter() - t0)
        verify(plan)
        if not plan.optimal or plan.loaded != solve(cargo, truck).loaded:
            print(f"MISMATCH: cargo {cargo} on {truck.name}: the model alone loads {plan.loaded}")
            return 1
    print(
        f"CP-SAT model alone on {len(sample)} of these solves: median "
        f"{_ms(statistics.median(model_times), 3)}   p99 {_ms(percentile(model_times, 0.99), 3)}   "
        f"(same answers; the fast path makes the median "
        f"{statistics.median(model_times) / statistics.median(times):.0f}x faster)"
    )

    # Exhaustive search vs solve on small trucks (≤ 8 cells × height ≤ 2, ≤ 6 cells × 3).
    brute_times, solve_times = [], []
    for _ in range(args.brute_cases):
        height = rng.randint(1, 3)
        cells = rng.randint(3, 8 if height < 3 else 6)
        flat = [True] * cells + [False] * (12 - cells)
        rng.shuffle(flat)
        truck = Truck(tuple(tuple(flat[y * 4 : (y + 1) * 4]) for y in range(3)), height)
        cargo = rng.choice(cargos)
        t0 = time.perf_counter()
        plan = verify(solve(cargo, truck))
        solve_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        brute = brute_force_loaded(cargo, truck)
        brute_times.append(time.perf_counter() - t0)
        if brute != plan.loaded:
            print(
                f"MISMATCH: cargo {cargo} on {truck}: solve loads {plan.loaded}, brute force {brute}"
            )
            return 1
    print(
        f"exhaustive search (tests/packing/brute.py) on {args.brute_cases} small trucks: "
        f"median {_ms(statistics.median(brute_times), 3)}, solve median "
        f"{_ms(statistics.median(solve_times), 3)}: ratio "
        f"{statistics.median(brute_times) / statistics.median(solve_times):.0f}x "
        f"(mean ratio {statistics.fmean(brute_times) / statistics.fmean(solve_times):.0f}x)"
    )
    return 0


# --- larger grids: solve against the model alone -----------------------------------------------


def grid_cargo(rng: random.Random, capacity: int) -> Cargo:
    """A random cargo for a big truck: rods of a random subset of the lengths, in random
    proportions, adding up to 70–130 % of the capacity. Dice rolls (at most 40 cubes) would
    never trouble a big truck, and cargos with every length tile it at once; missing lengths
    are what make the upper bound unreachable, so that some cases need CP-SAT."""
    lengths = [length for length in (1, 2, 3, 4, 5) if rng.random() < 0.5] or [rng.randint(2, 5)]
    weights = [rng.random() for _ in lengths]
    target = rng.uniform(0.7, 1.3) * capacity
    counts = [0] * 5
    volume = 0
    while volume < target:
        length = rng.choices(lengths, weights)[0]
        counts[length - 1] += 1
        volume += length
    return Cargo(tuple(counts))


@dataclass
class _Runs:
    times: list[float]
    plans: list[LoadPlan]

    def row(self, label: str, which: Sequence[int]) -> str:
        times = [self.times[i] for i in which]
        proven = sum(self.plans[i].optimal for i in which)
        return (
            f"  {label:<12} {_ms(statistics.median(times))} {_ms(percentile(times, 0.9))} "
            f"{_ms(max(times))}   {100 * proven / len(which):5.1f} %   {sum(times):7.2f} s"
        )


def grid(rows: int, columns: int, *, height: int, cases: int, seed: int, time_limit: float) -> int:
    truck = Truck(tuple(tuple(True for _ in range(columns)) for _ in range(rows)), height)
    rng = random.Random(seed)
    cargos = [grid_cargo(rng, truck.capacity) for _ in range(cases)]
    fast, model = _Runs([], []), _Runs([], [])
    mismatches = 0
    for i, cargo in enumerate(cargos):
        # Alternate the order, so neither side always runs on a warmer cache.
        runs = [(fast, True), (model, False)]
        for runs_of, fast_path in runs if i % 2 == 0 else runs[::-1]:
            t0 = time.perf_counter()
            plan = solve(cargo, truck, time_limit=time_limit, fast_path=fast_path)
            runs_of.times.append(time.perf_counter() - t0)
            runs_of.plans.append(verify(plan))
        a, b = fast.plans[-1], model.plans[-1]
        if (
            (a.optimal and b.optimal and a.loaded != b.loaded)
            or (a.optimal and b.loaded > a.loaded)
            or (b.optimal and a.loaded > b.loaded)
        ):
            print(
                f"MISMATCH: cargo {cargo}: solve loads {a.loaded} ({a.status}), "
                f"the model alone {b.loaded} ({b.status})"
            )
            mismatches += 1
    everything = range(cases)
    reached = [i for i in everything if fast.plans[i].engine is Engine.CP_SAT]
    print(
        f"solve vs the model alone (fast_path=False): {cases} random cargos on a full "
        f"{rows}x{columns} floor, height {height} (capacity {truck.capacity}), "
        f"time limit {time_limit:g} s, seed {seed}"
    )
    header = f"  {'':<12} {'median':>11} {'p90':>11} {'max':>11}   {'proven':>7}   {'total':>9}"
    print(header)
    print(fast.row("solve", everything))
    print(model.row("model alone", everything))
    if reached:
        print(f"  the {len(reached)} cases where the fast path hands over to CP-SAT:")
        print(fast.row("solve", reached))
        print(model.row("model alone", reached))
    p90_fast = percentile(fast.times, 0.9)
    p90_model = percentile(model.times, 0.9)
    met = p90_fast <= p90_model
    print(
        f"target: solve's p90 ({_ms(p90_fast).strip()}) not slower than the model alone's "
        f"({_ms(p90_model).strip()}): {'met' if met else 'NOT MET'}"
    )
    if mismatches:
        print(f"{mismatches} mismatches")
    return 0 if met and not mismatches else 1


# --- the CI check ------------------------------------------------------------------------------


def check(cases: int, seed: int) -> int:
    """Sample-deck cases solved with and without the fast path: both must pass ``verify``, be
    proven optimal and load what the shipped optimal table records."""
    table = find_table(SAMPLE_DECK)
    if table is None:
        print("the sample deck's optimal table is missing: run `make table`", file=sys.stderr)
        return 1
    rng = random.Random(seed)
    cargos = list(roll_counts())
    # Half the cases where the upper bound is out of reach (the table says so), so that CP-SAT
    # must prove them; half drawn at random, as players roll.
    hard = [
        (row, column)
        for row, cargo in enumerate(cargos)
        for column, truck in enumerate(SAMPLE_DECK)
        if table.loaded[row, column] < upper_bound(cargo, truck)
    ]
    pairs = rng.sample(hard, min(len(hard), cases // 2))
    while len(pairs) < cases:
        pairs.append((rng.randrange(len(cargos)), rng.randrange(len(SAMPLE_DECK))))
    start = time.perf_counter()
    mismatches = 0
    reached = 0
    for row, column in pairs:
        cargo, truck = cargos[row], SAMPLE_DECK[column]
        expected = int(table.loaded[row, column])
        fast = verify(solve(cargo, truck))
        model = verify(solve(cargo, truck, fast_path=False))
        reached += fast.engine is Engine.CP_SAT
        for label, plan in (("solve", fast), ("model alone", model)):
            if not plan.optimal or plan.loaded != expected:
                print(
                    f"MISMATCH: cargo {cargo} on {truck.name}: {label} loads {plan.loaded} "
                    f"({plan.status}), the table records {expected}"
                )
                mismatches += 1
    print(
        f"solve check: {cases} sample-deck cases ({reached} through CP-SAT), each solved with "
        f"and without the fast path, validated and compared with the table: "
        f"{'all agree' if not mismatches else f'{mismatches} MISMATCHES'} "
        f"({time.perf_counter() - start:.1f} s)"
    )
    return 1 if mismatches else 0
