"""How long games of Pack & Stack last: rounds per game for each bot and player count.

The rules' game has no fixed end (it ends after the round in which some player's points reach
0), so a program that needs a bounded game — OpenSpiel's ``max_game_length`` — plays with a
round cap (``Game(max_rounds=R)``). This suite measures the distribution the cap is chosen
from: for each bot (all seats the same bot, the sample deck) and each player count it plays
``--games`` uncapped games with seeds 0..games-1 and prints the mean, median, 99th percentile
and maximum number of rounds, and the share of games that ran past ``--cap``. Good players
make long games (they lose few points a round), so ``optimal`` and ``bonus-aware`` set the tail.

The tail is nearly geometric: past the median each extra round is survived with about the same
probability ``f``; ``P(> cap)`` extrapolates it from the last round still reached by at least
20 games (``S(k) · f^(cap − k)``), an estimate, not a bound.

    python -m benchmarks game-lengths [--games N] [--cap R] [--bots optimal,random,...]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from packing import bot, play_game
from packing.rules import DEFAULT_MAX_ROUNDS, MAX_PLAYERS, MIN_PLAYERS


def _survival(lengths: Counter[int], games: int, k: int) -> float:
    """The share of games that lasted more than ``k`` rounds."""
    return sum(c for r, c in lengths.items() if r > k) / games


def _percentile(lengths: Counter[int], games: int, q: float) -> int:
    seen = 0
    for rounds in sorted(lengths):
        seen += lengths[rounds]
        if seen >= q * games:
            return rounds
    return max(lengths)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks game-lengths")
    parser.add_argument(
        "--games", type=int, default=4000, help="games per bot and player count (default 4000)"
    )
    parser.add_argument(
        "--cap",
        type=int,
        default=DEFAULT_MAX_ROUNDS,
        help=f"the round cap to check (default {DEFAULT_MAX_ROUNDS}, python_pack_and_stack's)",
    )
    parser.add_argument(
        "--bots",
        default="random,capacity,optimal,bonus-aware",
        help="comma-separated bots (default random,capacity,optimal,bonus-aware)",
    )
    args = parser.parse_args(argv)

    print(
        f"rounds per game, {args.games} uncapped games each (seeds 0..{args.games - 1}), sample deck; "
        f"cap {args.cap}"
    )
    print(
        f"{'bot':<12} {'players':>7} {'mean':>6} {'p50':>4} {'p99':>4} {'max':>4} {'> cap':>6} "
        f"{'f':>5} {'P(> cap) est.':>14} {'s':>6}"
    )
    longest, worst = 0, 0.0
    for name in args.bots.split(","):
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            policies = [bot(name)] * players
            lengths: Counter[int] = Counter()
            started = time.perf_counter()
            for seed in range(args.games):
                lengths[len(play_game(policies, seed=seed).round_records)] += 1
            elapsed = time.perf_counter() - started
            median = _percentile(lengths, args.games, 0.5)
            last = max(
                k
                for k in range(median, max(lengths) + 1)
                if _survival(lengths, args.games, k) * args.games >= 20
            )
            f = (_survival(lengths, args.games, last) / _survival(lengths, args.games, median)) ** (
                1 / max(1, last - median)
            )
            estimate = _survival(lengths, args.games, last) * f ** (args.cap - last)
            mean = sum(r * c for r, c in lengths.items()) / args.games
            over = sum(c for r, c in lengths.items() if r > args.cap)
            print(
                f"{name:<12} {players:>7} {mean:>6.2f} {median:>4} {_percentile(lengths, args.games, 0.99):>4} "
                f"{max(lengths):>4} {over:>6} {f:>5.2f} {estimate:>14.1e} {elapsed:>6.1f}",
                flush=True,
            )
            longest, worst = max(longest, max(lengths)), max(worst, estimate)
    print(
        f"longest game seen: {longest} rounds; the largest estimated P(> {args.cap}): {worst:.1e}"
    )
    return 0
