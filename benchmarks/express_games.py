"""Yardmaster Express games: bot speed, the search bot's time per decision, a bot tournament.

``python -m benchmarks express-games [--deals N] [--games N] [--players P] [--workers W]
[--seed S] [--only SECTION ...]``

Sections (each prints its figures; ``--only`` runs some of them):

- ``speed``: games per second per bot — ``--games`` whole games (default 200; a tenth of them
  for ``search``) with the same bot in every seat, played by ``arena.play`` from seeds 0, 1, …
- ``search``: the ``search`` bot's milliseconds per decision over those games (mean, median,
  95th percentile, max) against the target of 20 ms.
- ``exact``: :func:`express.solve_deal` over ``--solve-deals`` whole two-player deals (default
  100): milliseconds and states per deal against the target of a 30 ms median.
- ``play-values``: :func:`express.play_values` on two-, three- and four-player deals (both
  rules with three and four),
  over ``--pv-deals`` deals (default 6) at turn 0, mid-game and 1, 3, 5, 7, 9 turns before the
  end: median and max milliseconds per call (the whole-hand search that ``pimc`` runs per
  world). With three and four players, at turn 0 and mid-game the search stops at ``--pv-limit`` states (default 100,000)
  and the section counts how often it got there (an exact value there takes minutes or more).
- ``loss``: each bot's mean loss against perfect play over ``--loss-deals`` deals (default 20):
  the bot in one seat, the ``perfect`` player in the other, on the same known-order deals; the
  loss is how far the bot's side ends below the deal's exact value.
- ``tournament``: the ``arena`` duplicate-deal tournament of ``search``, ``greedy`` and
  ``random`` over ``--deals`` deals (default 2,000; each played once per seat rotation), and
  how often the longest-run award and a random caboose decided the winner.

Every figure depends on the machine's load; the closing notes quote runs on the project's
2-core machine with the load average printed at the top. Each section is a function of the
parsed options returning its lines, listed in :data:`SECTIONS`, so a suite can grow by one
function.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from arena import play
from benchmarks._suite import Timed, percentile, run_sections
from express import (
    BOT_NAMES,
    Card,
    Game,
    SearchLimitReached,
    bot,
    decided,
    decisive,
    deck_for,
    play_values,
    solve_deal,
)
from express.bots import OPENSPIEL_BOTS
from express.exact import PLAY_VALUE_RULES
from express.rules import rounds_for

# The bots that play any game with no extra and no deck order.
_CORE_BOTS = [name for name in BOT_NAMES if name not in OPENSPIEL_BOTS and name != "perfect"]

TARGET_MS = 20.0
"""The search bot's target: under 20 ms per decision."""

EXACT_TARGET_MS = 30.0
"""solve_deal's target: a median under 30 ms per whole two-player deal (issue 17)."""

PLAY_VALUES_TURNS_LEFT = (1, 3, 5, 7, 9)
"""The play-values section times play_values this many turns before the end, and at turn 0
and mid-game under a node limit (an exact search from there is far too long to wait for)."""


def _games(name: str, args: argparse.Namespace) -> tuple[int, float, list[float], list[float]]:
    """(games, wall seconds, wall and CPU seconds per decision) for ``name`` in every seat."""
    games = max(1, args.games // 10) if name == "search" else args.games
    timed = [Timed(bot(name)) for _ in range(args.players)]
    began = time.perf_counter()
    for seed in range(games):
        play(Game(args.players), timed, seed)
    wall = time.perf_counter() - began
    return games, wall, [s for t in timed for s in t.seconds], [s for t in timed for s in t.cpu]


_RESULTS: dict[str, tuple[int, float, list[float], list[float]]] = {}


def _cached_games(
    name: str, args: argparse.Namespace
) -> tuple[int, float, list[float], list[float]]:
    # The search section reads the speed section's games when both run.
    if name not in _RESULTS:
        _RESULTS[name] = _games(name, args)
    return _RESULTS[name]


def speed(args: argparse.Namespace) -> list[str]:
    """Games per second per bot."""
    lines = [f"games per second, {args.players} players, the same bot in every seat (arena.play)"]
    for name in _CORE_BOTS:
        games, wall, decisions, _ = _cached_games(name, args)
        lines.append(
            f"  {name:<7} {games / wall:8.1f} games/s   ({games} games in {wall:.1f} s, "
            f"{len(decisions)} decisions)"
        )
    return lines


def search(args: argparse.Namespace) -> list[str]:
    """The search bot's milliseconds per decision."""
    games, _, seconds, cpu = _cached_games("search", args)
    lines = [
        f"search bot ({bot('search')}), {args.players} players, {games} games, {len(seconds)} decisions:"
    ]
    for what, values in (("wall", seconds), ("CPU", cpu)):
        ms = sorted(1000 * s for s in values)
        p95 = percentile(ms, 0.95)
        verdict = "meets" if statistics.mean(ms) < TARGET_MS else "MISSES"
        lines.append(
            f"  {what:<4} ms per decision: mean {statistics.mean(ms):.1f}, median {statistics.median(ms):.1f}, "
            f"95th percentile {p95:.1f}, max {ms[-1]:.1f} -> {verdict} the {TARGET_MS:.0f} ms target (mean)"
        )
    lines.append(
        "  (CPU time is this process's own: on a shared machine the wall time also counts waiting)"
    )
    return lines


def tournament(args: argparse.Namespace) -> list[str]:
    """The tournament of search, greedy and random, and what decided the winners."""
    from arena.tournament import tournament as run

    policies = {name: bot(name) for name in ("search", "greedy", "random")}
    began = time.perf_counter()
    result = run(
        partial(Game, 3, caboose="random"),
        policies,
        games=args.deals,
        seed=args.seed,
        workers=args.workers,
        progress=False,
        summarise=decisive,
    )
    wall = time.perf_counter() - began
    found = decided(result)
    n, runs, cabooses = found.games, found.run_award, found.caboose
    return [
        f"tournament: 3 players, a random caboose, {args.deals} deals, {args.workers} worker(s), {wall:.0f} s",
        *str(result).splitlines(),
        f"the longest-run award decided the winner in {runs} of {n} games ({100 * runs / max(n, 1):.1f}%)",
        f"the caboose decided the winner in {cabooses} of {n} games ({100 * cabooses / max(n, 1):.1f}%)",
    ]


def _orders(count: int, seed: int, players: int = 2) -> list[tuple[Card, ...]]:
    """``count`` shuffles of the ``players``-player deck, reproducible from ``seed``."""
    deck = deck_for(players)
    rng = np.random.default_rng(seed)
    return [tuple(deck[i] for i in rng.permutation(len(deck))) for _ in range(count)]


def exact(args: argparse.Namespace) -> list[str]:
    """solve_deal over whole two-player deals: seconds and states per deal."""
    seconds: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    for order in _orders(args.solve_deals, args.seed):
        began, began_cpu = time.perf_counter(), time.process_time()
        solution = solve_deal(Game(2, order=order))
        seconds.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
        nodes.append(solution.nodes)
    lines = [
        f"solve_deal: {len(seconds)} whole two-player deals (7 rounds, no caboose, seed {args.seed})"
    ]
    for what, values in (("wall", seconds), ("CPU", cpu)):
        ms = sorted(1000 * s for s in values)
        verdict = "meets" if statistics.median(ms) < EXACT_TARGET_MS else "MISSES"
        lines.append(
            f"  {what:<4} ms per deal: median {statistics.median(ms):.0f}, 90th percentile "
            f"{ms[int(0.9 * (len(ms) - 1))]:.0f}, max {ms[-1]:.0f} -> {verdict} the "
            f"{EXACT_TARGET_MS:.0f} ms target (median)"
        )
    lines.append(f"  states searched: median {statistics.median(nodes):.0f}, max {max(nodes)}")
    return lines


def play_value_times(args: argparse.Namespace) -> list[str]:
    """play_values per call on two-, three- and four-player deals, by turn and rule."""
    lines = [
        f"play_values: {args.pv_deals} deals per row (no caboose, seed {args.seed}; the plays "
        f"before the timed turn are each deal's first legal ones), node limit {args.pv_limit:,} "
        "at turn 0 and mid-game"
    ]
    for players in (2, 3, 4):
        turns = players * rounds_for(players)
        # Two players: every turn is quick enough to wait for (and the rule does not apply).
        rows = [(0, players > 2), (turns // 2, players > 2)]
        rows += [
            (turns - left, False)
            for left in sorted(PLAY_VALUES_TURNS_LEFT, reverse=True)
            if turns - left != turns // 2
        ]
        rows.sort()
        for rule in PLAY_VALUE_RULES[: 1 if players == 2 else None]:
            for turn, limited in rows:
                ms: list[float] = []
                stopped = 0
                for order in _orders(args.pv_deals, args.seed, players):
                    game = Game(players, order=order)
                    while game.turn < turn:
                        game.apply_action(game.legal_actions()[0])
                    began = time.perf_counter()
                    try:
                        play_values(game, rule=rule, node_limit=args.pv_limit if limited else None)
                    except SearchLimitReached:
                        stopped += 1
                    ms.append(1000 * (time.perf_counter() - began))
                note = f", node limit reached in {stopped} of {len(ms)}" if limited else ""
                lines.append(
                    f"  {players} players {rule:<8} turn {turn:>2} of {turns} "
                    f"({turns - turn:>2} left): median {statistics.median(ms):8.1f} ms, "
                    f"max {max(ms):8.1f} ms{note}"
                )
    return lines


def loss(args: argparse.Namespace) -> list[str]:
    """Each bot's mean loss against perfect play: the bot in one seat, the perfect player in the
    other, on the same known-order deals; the loss is how far the bot's side ends below the
    deal's value (0 = perfect)."""
    orders = _orders(args.loss_deals, args.seed)
    values = [solve_deal(Game(2, order=order)).value for order in orders]
    lines = [
        f"mean loss against perfect play, {len(orders)} two-player deals (each bot in both seats):"
    ]
    for name in _CORE_BOTS:
        losses: list[int] = []
        for deal, (order, value) in enumerate(zip(orders, values)):
            perfect = bot("perfect", order=order)
            for seat in (0, 1):
                seats = [bot(name), perfect] if seat == 0 else [perfect, bot(name)]
                score = play(Game(2, order=order), seats, seed=deal).score()
                difference = score.players[0].total - score.players[1].total
                losses.append(value - difference if seat == 0 else difference - value)
        lines.append(
            f"  {name:<7} mean loss {statistics.mean(losses):5.2f} points, "
            f"worst {max(losses)}, perfect in {sum(1 for x in losses if x == 0)} of {len(losses)} games"
        )
    return lines


SECTIONS: dict[str, Callable[[argparse.Namespace], list[str]]] = {
    "speed": speed,
    "search": search,
    "tournament": tournament,
    "exact": exact,
    "play-values": play_value_times,
    "loss": loss,
}
"""The sections of the suite, in the order they run."""


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks express-games", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--deals", type=int, default=2000, help="tournament deals (default 2000)")
    parser.add_argument(
        "--games", type=int, default=200, help="games per bot for speed (a tenth for search)"
    )
    parser.add_argument(
        "--players", type=int, default=3, help="players in the speed games (default 3)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="processes for the tournament (default 1)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the tournament's seed (default 1)")
    parser.add_argument(
        "--solve-deals", type=int, default=100, help="deals solve_deal times (default 100)"
    )
    parser.add_argument(
        "--loss-deals", type=int, default=20, help="deals for the bots' loss (default 20)"
    )
    parser.add_argument(
        "--pv-deals", type=int, default=6, help="deals per play-values row (default 6)"
    )
    parser.add_argument(
        "--pv-limit",
        type=int,
        default=100_000,
        help="play-values node limit at turn 0 and mid-game (default 100000)",
    )
    return run_sections(parser, argv, SECTIONS, "Yardmaster Express games")
