"""Times ``packing.solve`` over every distinct dice cargo on sample-deck trucks.

Also times the tests' independent exhaustive search against ``solve`` on small trucks, in the
same run, so the ratio does not depend on the machine. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from packing import SAMPLE_DECK, Truck, roll_counts, solve, verify
from tests.packing.brute import brute_force_loaded


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.3f} ms"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks solve")
    parser.add_argument("--trucks", type=int, default=6, help="sample-deck trucks to time (default 6)")
    parser.add_argument("--full", action="store_true", help="all 30 trucks of the sample deck")
    parser.add_argument("--seed", type=int, default=1, help="which trucks are sampled")
    parser.add_argument("--model-sample", type=int, default=500,
                        help="solves repeated with the CP-SAT model alone (default 500)")
    parser.add_argument("--brute-cases", type=int, default=60, help="small cases for the brute-force ratio")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    trucks = list(SAMPLE_DECK) if args.full else rng.sample(list(SAMPLE_DECK), args.trucks)
    cargos = list(roll_counts())
    times: list[float] = []
    engines = {"bound": 0, "cp-sat": 0}
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
    print(f"solve: {len(cargos)} cargos x {len(trucks)} trucks = {n} solves "
          f"({', '.join(t.name for t in trucks)})")
    print(f"  proven optimal : {optimal}/{n} ({100 * optimal / n:.1f} %)")
    print(f"  fast path      : {engines['bound']} ({100 * engines['bound'] / n:.1f} %), "
          f"CP-SAT: {engines['cp-sat']}")
    print(f"  median {_ms(statistics.median(times))}   p99 {_ms(_percentile(times, 0.99))}   "
          f"max {_ms(max(times))}   mean {_ms(statistics.fmean(times))}")
    print(f"  total {total:.2f} s (including verify)")

    # The same solves with the CP-SAT model alone (no fast path), on a sample, for the ratio.
    sample = rng.sample([(c, t) for t in trucks for c in cargos], min(args.model_sample, n))
    model_times = []
    for cargo, truck in sample:
        t0 = time.perf_counter()
        plan = solve(cargo, truck, fast_path=False)
        model_times.append(time.perf_counter() - t0)
        assert plan.optimal and plan.loaded == solve(cargo, truck).loaded
    print(f"CP-SAT model alone on {len(sample)} of these solves: median "
          f"{_ms(statistics.median(model_times))}   p99 {_ms(_percentile(model_times, 0.99))}   "
          f"(same answers; the fast path makes the median "
          f"{statistics.median(model_times) / statistics.median(times):.0f}x faster)")

    # Exhaustive search vs solve on small trucks (≤ 8 cells × height ≤ 2, ≤ 6 cells × 3).
    brute_times, solve_times = [], []
    for _ in range(args.brute_cases):
        height = rng.randint(1, 3)
        cells = rng.randint(3, 8 if height < 3 else 6)
        flat = [True] * cells + [False] * (12 - cells)
        rng.shuffle(flat)
        truck = Truck(tuple(tuple(flat[y * 4:(y + 1) * 4]) for y in range(3)), height)
        cargo = rng.choice(cargos)
        t0 = time.perf_counter()
        plan = solve(cargo, truck)
        solve_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        assert brute_force_loaded(cargo, truck) == plan.loaded
        brute_times.append(time.perf_counter() - t0)
    print(f"exhaustive search (tests/packing/brute.py) on {args.brute_cases} small trucks: "
          f"median {_ms(statistics.median(brute_times))}, solve median "
          f"{_ms(statistics.median(solve_times))}: ratio "
          f"{statistics.median(brute_times) / statistics.median(solve_times):.0f}x "
          f"(mean ratio {statistics.fmean(brute_times) / statistics.fmean(solve_times):.0f}x)")
    return 0
