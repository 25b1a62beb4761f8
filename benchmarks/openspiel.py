"""Both games through OpenSpiel: the adapter's overhead, and OpenSpiel's search bots against ours.

``python -m benchmarks openspiel [--games N] [--deals N] [--simulations N] [--workers W]
[--seed S] [--only SECTION ...]`` (needs the ``openspiel`` extra)

Sections:

- ``overhead``: states per second of random playouts of each game, stepped through the
  ``arena`` state directly and through the registered pyspiel game (ids, float probabilities,
  sorted legal actions: what every OpenSpiel algorithm pays), over the same ``--games`` seeds.
  Both sample chance by its probabilities and players uniformly among the legal actions.
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
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

import arena
import express
import packing
from arena import GameState, Policy, sample_outcome
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


def _arena_playouts(new_state: Callable[[], GameState], games: int) -> tuple[int, float]:
    """(states visited, CPU seconds) of ``games`` random playouts on the arena state itself."""
    states = 0
    began = time.process_time()
    for seed in range(games):
        rng = np.random.default_rng(seed)
        state = new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
            states += 1
    return states, time.process_time() - began


def _pyspiel_playouts(spec: str, games: int) -> tuple[int, float]:
    """(states visited, CPU seconds) of ``games`` random playouts through pyspiel."""
    import pyspiel

    game = pyspiel.load_game(spec)
    states = 0
    began = time.process_time()
    for seed in range(games):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                ids, probabilities = zip(*state.chance_outcomes())
                state.apply_action(ids[rng.choice(len(ids), p=probabilities)])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
            states += 1
    return states, time.process_time() - began


def overhead(args: argparse.Namespace) -> list[str]:
    """States per second directly and through pyspiel."""
    lines = [f"random playouts, {args.games} games per game and path (CPU time)"]
    for subject in _subjects():
        direct, direct_cpu = _arena_playouts(subject.new_state, args.games)
        wrapped, wrapped_cpu = _pyspiel_playouts(subject.spec, args.games)
        direct_rate, wrapped_rate = direct / direct_cpu, wrapped / wrapped_cpu
        lines.append(
            f"  {subject.title:<30} arena {direct_rate:9,.0f} states/s   pyspiel {wrapped_rate:9,.0f} states/s"
            f"   ({direct_rate / wrapped_rate:.1f}x the cost per state through pyspiel; "
            f"{direct / args.games:.0f} / {wrapped / args.games:.0f} states a game)"
        )
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
