"""Both games through OpenSpiel: the adapter's overhead, and OpenSpiel's search bots against ours.

``python -m benchmarks openspiel [--games N] [--deals N] [--simulations N] [--workers W]
[--seed S] [--only SECTION ...]`` (needs the ``openspiel`` extra)

Sections:

- ``overhead``: decisions (every action applied, chance's included) per CPU second of random
  playouts of each game, by ``arena.play`` with ``arena.RandomPolicy`` in every seat and
  through the registered pyspiel game in the loop OpenSpiel's users write (``zip`` the chance
  outcomes, ``rng.choice`` with their float probabilities, ``random.choice`` among the legal
  ids), and the ratio of the costs per decision and per game (a pyspiel game can have more
  decisions: Pack & Stack's roll is five dice there), over the same ``--games`` seeds.
- ``decisions``: the search bots' seconds per decision (wall and CPU) at ``--simulations``,
  timed in this process over ``--timing-games`` games with the bot in seat 0.
- ``tournament``: the ``arena`` duplicate-deal tournament, per game, of OpenSpiel's bot against
  our best bots: Yardmaster Express ``ismcts`` against ``search`` and ``greedy`` (3 players, a
  random caboose); Pack & Stack ``mcts`` against ``optimal``, ``bonus-aware`` and ``capacity``
  (4 players; Pack & Stack has perfect information, so OpenSpiel's information-set MCTS does not
  apply to it). ``--deals`` deals each, every deal in every seat rotation.

Figures depend on the machine's load; the load average is printed first.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

import arena
import express
import packing
from arena import GameState, Policy
from benchmarks._suite import Timed, run_sections


@dataclass(frozen=True)
class _Subject:
    """One game as both sides see it: a new ``arena`` state, and the pyspiel game's spec."""

    title: str
    new_state: Callable[[], GameState]
    spec: str


def _subjects() -> list[_Subject]:
    import express.openspiel  # noqa: F401  (registers python_yardmaster_express)
    import packing.openspiel  # noqa: F401  (registers python_pack_and_stack)

    return [
        _Subject(
            "Pack & Stack, 4 players", partial(packing.Game, 4), "python_pack_and_stack(players=4)"
        ),
        _Subject(
            "Yardmaster Express, 3 players",
            partial(express.Game, 3, caboose="random"),
            "python_yardmaster_express(players=3,caboose=random)",
        ),
    ]


def _arena_games(subject: _Subject, seeds: range) -> float:
    """CPU seconds of ``arena.play`` with ``RandomPolicy`` in every seat, one game a seed."""
    began = time.process_time()
    for seed in seeds:
        state = subject.new_state()
        arena.play(state, [arena.RandomPolicy()] * state.num_players, seed)
    return time.process_time() - began


def _arena_decisions(subject: _Subject, seeds: range) -> int:
    """How many actions (chance's included) ``_arena_games`` applies: counted on a run of its
    own, so that the counting costs the timed run nothing."""
    count = 0

    def counted(_: GameState) -> None:
        nonlocal count
        count += 1

    for seed in seeds:
        state = subject.new_state()
        arena.play(state, [arena.RandomPolicy()] * state.num_players, seed, on_action=counted)
    return count


def _pyspiel_games(game: Any, seeds: range) -> tuple[int, float]:
    """(decisions, CPU seconds) of random playouts through pyspiel, one game a seed, written as
    OpenSpiel's users write them: every ``apply_action`` is a decision, chance's included."""
    decisions = 0
    began = time.process_time()
    for seed in seeds:
        rng, py_rng = np.random.default_rng(seed), random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choice(outcomes, p=probs))
            else:
                state.apply_action(py_rng.choice(state.legal_actions()))
            decisions += 1
    return decisions, time.process_time() - began


def overhead(args: argparse.Namespace) -> list[str]:
    """Decisions per second of random playouts by ``arena.play`` and through pyspiel."""
    import pyspiel

    lines = [
        f"random playouts, {args.games} games per game and path (CPU time, the paths alternating "
        "in chunks of 10 games after 3 warm-up games each)"
    ]
    for subject in _subjects():
        game = pyspiel.load_game(subject.spec)
        _arena_games(subject, range(3))
        _pyspiel_games(game, range(3))
        arena_cpu = pyspiel_cpu = 0.0
        pyspiel_decisions = 0
        for start in range(0, args.games, 10):
            seeds = range(start, min(start + 10, args.games))
            arena_cpu += _arena_games(subject, seeds)
            decisions, cpu = _pyspiel_games(game, seeds)
            pyspiel_decisions += decisions
            pyspiel_cpu += cpu
        arena_decisions = _arena_decisions(subject, range(args.games))
        arena_rate = arena_decisions / arena_cpu
        pyspiel_rate = pyspiel_decisions / pyspiel_cpu
        lines += [
            f"  {subject.title}:",
            f"    arena.play {arena_rate:9,.0f} decisions/s ({arena_decisions / args.games:.0f} "
            f"a game)   pyspiel {pyspiel_rate:9,.0f} decisions/s "
            f"({pyspiel_decisions / args.games:.0f} a game)",
            f"    through pyspiel: {arena_rate / pyspiel_rate:.1f}x the cost per decision, "
            f"{pyspiel_cpu / arena_cpu:.1f}x the cost per game",
        ]
    return lines


def _search_bots(
    simulations: int,
) -> list[tuple[str, Callable[[], GameState], Policy, list[Policy]]]:
    """(title, new game, OpenSpiel's bot, our bots for the other seats) per game."""
    return [
        (
            "Yardmaster Express, 3 players, random caboose",
            partial(express.Game, 3, caboose="random"),
            express.bot("ismcts", simulations=simulations),
            [express.bot("search"), express.bot("greedy")],
        ),
        (
            "Pack & Stack, 4 players",
            partial(packing.Game, 4),
            packing.bot("mcts", simulations=simulations),
            [packing.bot("optimal"), packing.bot("bonus-aware"), packing.bot("capacity")],
        ),
    ]


def decisions(args: argparse.Namespace) -> list[str]:
    """Seconds per decision of OpenSpiel's bots, in seat 0 against ours."""
    lines = [
        f"OpenSpiel's bots, {args.simulations} simulations, {args.timing_games} games each, bot in seat 0"
    ]
    for title, new_game, searcher, others in _search_bots(args.simulations):
        timed = Timed(searcher)
        for seed in range(args.timing_games):
            arena.play(new_game(), [timed, *others], seed)
        for what, values in (("wall", timed.seconds), ("CPU", timed.cpu)):
            s = sorted(values)
            lines.append(
                f"  {title}: {getattr(searcher, 'name', searcher)} {what} s per decision: mean "
                f"{statistics.mean(s):.3f}, median {statistics.median(s):.3f}, max {s[-1]:.3f} "
                f"({len(s)} decisions)"
            )
    return lines


def tournament(args: argparse.Namespace) -> list[str]:
    """The tournament of OpenSpiel's bot against ours, per game."""
    lines: list[str] = []
    for title, new_game, searcher, others in _search_bots(args.simulations):
        policies = {getattr(p, "name", str(p)): p for p in (searcher, *others)}
        began = time.perf_counter()
        result = arena.tournament(
            new_game,
            policies,
            games=args.deals,
            seed=args.seed,
            workers=args.workers,
            progress=False,
        )
        wall = time.perf_counter() - began
        lines += [
            f"{title}: {args.deals} deals, {args.simulations} simulations, {args.workers} worker(s), "
            f"{wall:.0f} s",
            *str(result).splitlines(),
            "",
        ]
    return lines[:-1]


SECTIONS: dict[str, Callable[[argparse.Namespace], list[str]]] = {
    "overhead": overhead,
    "decisions": decisions,
    "tournament": tournament,
}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks openspiel", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--games", type=int, default=200, help="random playouts per game and path (default 200)"
    )
    parser.add_argument(
        "--simulations", type=int, default=100, help="search bots' simulations (default 100)"
    )
    parser.add_argument(
        "--timing-games", type=int, default=3, help="games timed per search bot (default 3)"
    )
    parser.add_argument(
        "--deals", type=int, default=50, help="tournament deals per game (default 50)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="processes for the tournaments (default 1)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the tournaments' seed (default 1)")
    return run_sections(parser, argv, SECTIONS, "Both games through OpenSpiel")
