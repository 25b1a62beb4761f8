"""Yardmaster Express: optimal solo trains of every game length, checked and timed.

``python -m benchmarks chains [--repeat N] [--count]``

For the full 32-card deck and the 24-card 2-player deck, with and without the run bonus, and
every train length 1..7 (7 is the 2-player game), it finds the optimal solo score with
``express.best_train`` and prints the optimal-score table, the wall time and the states
searched of each search, against the number of sequences a plain enumeration would visit
(every order of distinct physical cards, each face up or face down). Like a perft suite, the
scores are checked against the recorded table below: a mismatch exits with status 1. The target
is each search under 0.25 s on the project's 2-core machine; ``--repeat`` takes the best of N
runs of each search (each run starts from scratch), ``--count`` also counts the distinct
optimal trains (a slower search that explores ties, outside the target).
"""

from __future__ import annotations

import argparse
import math
import time

from express import DECK, best_train, deck_for

TARGET_SECONDS = 0.25
LENGTHS = range(1, 8)

# The recorded optimal solo scores for lengths 1..7 (the table this suite checks).
EXPECTED: dict[tuple[str, bool], list[int]] = {
    ("full", True): [10, 18, 26, 34, 42, 49, 56],
    ("full", False): [8, 16, 24, 32, 40, 46, 52],
    ("2-player", True): [9, 18, 26, 34, 41, 47, 53],
    ("2-player", False): [8, 16, 24, 32, 38, 44, 50],
}

DECKS = {"full": DECK, "2-player": deck_for(2)}


def plain_enumeration(cards: int, length: int) -> int:
    """Sequences a plain enumeration visits: ordered choices of distinct cards, times 2 faces each."""
    return math.perm(cards, length) * (1 << length)  # 2**length, kept an int for the type checker


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks chains", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="best of N timed runs per search (default 3)")
    parser.add_argument("--count", action="store_true", help="also count the distinct optimal trains")
    args = parser.parse_args(argv)

    header = f"{'deck':<9}{'bonus':<6}{'len':>4}{'score':>6}{'nodes':>7}{'seconds':>9}{'plain enumeration':>19}"
    if args.count:
        header += f"{'optimal trains':>15}{'count s':>9}"
    print("Yardmaster Express optimal solo trains (express.best_train)")
    print(header + "  an optimal train")
    mismatches: list[str] = []
    slowest = 0.0
    total = 0.0
    table: dict[tuple[str, bool], list[int]] = {}
    for name, cards in DECKS.items():
        for bonus in (True, False):
            scores = table.setdefault((name, bonus), [])
            for length in LENGTHS:
                times = []
                for _ in range(max(1, args.repeat)):
                    began = time.perf_counter()
                    result = best_train(cards, length, bonus=bonus)
                    times.append(time.perf_counter() - began)
                seconds = min(times)
                slowest = max(slowest, seconds)
                total += seconds
                scores.append(result.score)
                line = (
                    f"{name:<9}{'yes' if bonus else 'no':<6}{length:>4}{result.score:>6}{result.nodes:>7}"
                    f"{seconds:>9.4f}{plain_enumeration(len(cards), length):>19,}"
                )
                if args.count:
                    began = time.perf_counter()
                    counted = best_train(cards, length, bonus=bonus, count_optimal=True)
                    line += f"{counted.count:>15,}{time.perf_counter() - began:>9.3f}"
                print(f"{line}  {result.train}")
                if not result.optimal:
                    mismatches.append(f"{name} bonus={bonus} length={length}: not proven optimal")
            if scores != EXPECTED[(name, bonus)]:
                mismatches.append(f"{name} bonus={bonus}: scores {scores} != recorded {EXPECTED[(name, bonus)]}")

    print()
    print("Optimal solo score by train length")
    print(f"{'deck':<20}" + "".join(f"{length:>5}" for length in LENGTHS))
    for (name, bonus), scores in table.items():
        label = f"{name}, {'bonus' if bonus else 'no bonus'}"
        print(f"{label:<20}" + "".join(f"{score:>5}" for score in scores))
    print()
    verdict = "met" if slowest < TARGET_SECONDS else "MISSED"
    print(
        f"{len(table) * len(LENGTHS)} searches, {total:.3f} s in all, slowest {slowest:.4f} s "
        f"(target: each under {TARGET_SECONDS} s: {verdict}; best of {max(1, args.repeat)} runs)"
    )
    for problem in mismatches:
        print(f"MISMATCH: {problem}")
    return 1 if mismatches else 0
