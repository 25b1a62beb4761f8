"""Both games' engines side by side: the scalar loop, the batched engine, the vector environment
and OpenSpiel, in decisions per second, with the ratios.

``python -m benchmarks engines [--games N] [--batches 1000 10000 100000] [--envs N]
[--scalar-deals N] [--batched-deals N] [--only batched commands vector-env openspiel]``
(``vector-env`` needs the ``rl`` extra, ``openspiel`` the ``openspiel`` extra)

Sections, each for 4-player Pack & Stack and 3-player Yardmaster Express with a random caboose:

- ``batched``: per bot that both engines play (Pack & Stack ``random`` and ``optimal``, Express
  ``random`` and ``greedy``), every seat that bot: the scalar loop (:func:`arena.play` over
  ``--games`` seeds) and the batched engine (:mod:`packing.batch`, :mod:`express.batch`) at
  each of ``--batches`` games, in decisions (players' steps) per CPU second, the ratio, and the
  memory a game of the batch takes at its peak (NumPy's allocations, by ``tracemalloc``).
  Pack & Stack's batches are run both ways: ``numpy`` (``Batch.run(compiled=False)``) and
  ``compiled`` (:mod:`packing.batch_loops`, with the ``compiled`` extra), whose first use in
  the process (compiling, or loading numba's cache) is timed apart and printed.
  Targets on the 2-core machine: Pack & Stack ≥ 40×, Express ≥ 100× at 10,000 games.
- ``commands``: the whole ``tournament`` command as a user runs it (a process of its own, from
  start to exit, ``--workers 1``), Pack & Stack with ``optimal,capacity,bonus-aware,random`` and
  Express with ``greedy,greedy,random`` and a random caboose: ``--engine scalar`` over
  ``--scalar-deals`` deals and ``--engine batched`` over ``--batched-deals`` deals, in deals per
  second of wall time, and the ratio. Targets: Pack & Stack ≥ 40×, Express ≥ 60×.
- ``vector-env``: the Gymnasium vector environment (``gym_vector_env``, ``--envs``
  sub-environments, random opponents, the learner picking among its masks), with its chance
  ``seeded`` (the single environment's episodes) and ``shared`` (faster, the same
  distributions), against the single PettingZoo environment with random agents (``env``),
  both reading observations and masks; decisions of every seat per CPU second. Target ≥ 10×.
- ``openspiel``: the random playout loop OpenSpiel's users write on the registered pyspiel
  game (a chance node sampled from ``chance_outcomes()``, a uniform legal action otherwise)
  against :func:`arena.play`'s random playouts; target: OpenSpiel costs at most 3× as much
  per decision.

The load average is printed first; figures on a loaded machine are lower and noisier.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

import express
import packing
from arena import GameState, Policy, RandomPolicy, play
from arena.batch import BatchEngine, engine_for
from benchmarks._suite import at_least, run_sections
from packing import batch_loops


@dataclass(frozen=True)
class _Subject:
    title: str
    new_state: Callable[[], GameState]
    bots: Sequence[tuple[str, Callable[[], Policy]]]
    decisions: Callable[[Any], int]  # a finished batch's players' decisions
    # Ways to run a batch: a name and Batch.run's keyword arguments.
    runs: Sequence[tuple[str, dict[str, Any]]] = (("numpy", {}),)


def _packing_decisions(batch: Any) -> int:
    return int(batch.round.sum() * batch.n)  # one grab each a round, every round played


def _express_decisions(batch: Any) -> int:
    return int(batch.num_games * batch.engine.players * batch.engine.rounds)


def _subjects() -> list[_Subject]:
    return [
        _Subject(
            "Pack & Stack, 4 players",
            partial(packing.Game, 4),
            [("random", RandomPolicy), ("optimal", partial(packing.bot, "optimal"))],
            _packing_decisions,
            (("numpy", {"compiled": False}),)
            + ((("compiled", {"compiled": True}),) if batch_loops.available() else ()),
        ),
        _Subject(
            "Yardmaster Express, 3 players, random caboose",
            partial(express.Game, 3, caboose="random"),
            [("random", RandomPolicy), ("greedy", partial(express.bot, "greedy"))],
            _express_decisions,
        ),
    ]


def _scalar_decisions(state: Any) -> int:
    if isinstance(state, packing.Game):
        return len(state.round_records) * state.num_players
    return int(state.players * state.rounds)


def _scalar(subject: _Subject, make: Callable[[], Policy], games: int) -> float:
    """Decisions per CPU second of :func:`arena.play` over ``games`` seeds."""
    policy = make()
    play(subject.new_state(), [policy] * subject.new_state().num_players, 10**6)  # warm-up
    decisions, began = 0, time.process_time()
    for seed in range(games):
        state = subject.new_state()
        decisions += _scalar_decisions(play(state, [policy] * state.num_players, seed))
    return decisions / (time.process_time() - began)


def _engine(subject: _Subject) -> BatchEngine:
    engine = engine_for(subject.new_state())
    if engine is None:
        raise SystemExit(f"{subject.title}: no batched engine")
    return engine


def _batched(
    subject: _Subject, make: Callable[[], Policy], size: int, options: dict[str, Any]
) -> tuple[float, float]:
    """(decisions per CPU second, peak bytes per game) of one batch of ``size`` games, run with
    ``Batch.run``'s ``options``."""
    engine = _engine(subject)
    policy = engine.vector_policy(make())
    assert policy is not None
    seating = np.zeros((size, engine.num_players), np.intp)
    rng = np.random.default_rng(size)
    began = time.process_time()
    batch: Any = engine.new_batch(size, rng=rng)
    batch.run(seating, [policy], **options)
    seconds = time.process_time() - began
    rate = subject.decisions(batch) / seconds
    tracemalloc.start()
    again: Any = engine.new_batch(size, rng=np.random.default_rng(size))
    again.run(seating, [policy], **options)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return rate, peak / size


def _batched_section(args: argparse.Namespace) -> list[str]:
    lines = [
        f"decisions per CPU second: the scalar loop over {args.games} games, the batched engine "
        f"at {', '.join(f'{b:,}' for b in args.batches)} games (peak memory a game)"
    ]
    for subject in _subjects():
        for way, options in subject.runs:
            began = time.perf_counter()
            _batched(subject, subject.bots[0][1], 10, options)  # compiles, or loads, what it runs
            lines.append(f"  {subject.title}, {way}: first use {time.perf_counter() - began:.2f} s")
        for name, make in subject.bots:
            scalar = _scalar(subject, make, args.games)
            lines.append(f"  {subject.title:<46} {name:<8} scalar {scalar:9,.0f}/s")
            for way, options in subject.runs:
                for size in args.batches:
                    rate, per_game = _batched(subject, make, size, options)
                    lines.append(
                        f"      {way:<8} {size:>7,}: {rate:11,.0f}/s {rate / scalar:6.1f}x "
                        f"{per_game / 1024:5.1f} KiB"
                    )
    return lines


#: The tournaments of the ``commands`` section: the program and its players' options.
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("packing", ("--players", "optimal,capacity,bonus-aware,random")),
    ("express", ("--players", "greedy,greedy,random", "--caboose", "random")),
)


def _command_seconds(program: str, options: Sequence[str], engine: str, deals: int) -> float:
    """Wall seconds of ``python -m PROGRAM tournament ...`` from start to exit."""
    argv = [sys.executable, "-m", program, "tournament", *options, "--workers", "1"]
    argv += ["--engine", engine, "--games", str(deals), "--seed", "1", "--json"]
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[2:])} failed: {done.stderr.strip()}")
    return seconds


def _commands_section(args: argparse.Namespace) -> list[str]:
    lines = [
        f"the whole tournament command (a process, --workers 1): --engine scalar over "
        f"{args.scalar_deals:,} deals, --engine batched over {args.batched_deals:,}, deals per "
        "wall second"
    ]
    for program, options in COMMANDS:
        _command_seconds(program, options, "batched", 1)  # numba's cache and the OS's, warm
        scalar = _command_seconds(program, options, "scalar", args.scalar_deals)
        batched = _command_seconds(program, options, "batched", args.batched_deals)
        scalar_rate, batched_rate = args.scalar_deals / scalar, args.batched_deals / batched
        lines.append(
            f"  {program} tournament {' '.join(options)}: scalar {scalar:6.1f} s "
            f"{scalar_rate:8,.0f}/s   batched {batched:6.1f} s {batched_rate:9,.0f}/s "
            f"{batched_rate / scalar_rate:6.1f}x"
        )
    return lines


def _aec_rate(env: Any, games: int) -> float:
    """Decisions per CPU second of the ``envs`` suite's random agents in the AEC ``env``."""
    from benchmarks.envs import aec_playouts

    decisions, seconds = aec_playouts(env, range(games))
    return decisions / seconds


def _vector_rate(vector: Any, steps: int) -> float:
    """Decisions of every seat per CPU second: a learner's step is one round of the game, so
    ``players`` decisions in each sub-environment that plays it (one that ended last step is
    reset instead)."""
    players = vector.engine.num_players
    rng = np.random.default_rng(0)
    _, info = vector.reset(seed=0)
    ended = np.zeros(vector.num_envs, bool)
    decisions, began = 0, time.process_time()
    for _ in range(steps):
        masks = info["action_mask"].astype(bool)
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        _, _, terminated, truncated, info = vector.step(actions)
        decisions += int((~ended).sum()) * players
        ended = terminated | truncated
    return decisions / (time.process_time() - began)


def _vector_section(args: argparse.Namespace) -> list[str]:
    import express.pettingzoo
    import packing.pettingzoo

    lines = [
        f"decisions per CPU second: the single PettingZoo environment ({args.games} games) and "
        f"the vector environment ({args.envs:,} games), random play with observations and masks"
    ]
    subjects = [
        (
            "Pack & Stack, 4 players",
            partial(packing.pettingzoo.env, players=4),
            partial(packing.pettingzoo.gym_vector_env, ["random"] * 3, num_envs=args.envs),
        ),
        (
            "Yardmaster Express, 3 players, random caboose",
            partial(express.pettingzoo.env, players=3, caboose="random"),
            partial(
                express.pettingzoo.gym_vector_env,
                ["random"] * 2,
                num_envs=args.envs,
                caboose="random",
            ),
        ),
    ]
    for title, single, vector in subjects:
        base = _aec_rate(single(), args.games)
        seeded = _vector_rate(vector(), 40)
        shared = _vector_rate(vector(chance="shared"), 40)
        lines.append(
            f"  {title:<46} PettingZoo {base:9,.0f}/s   vector, seeded {seeded:9,.0f}/s "
            f"{seeded / base:5.1f}x   shared {shared:9,.0f}/s {shared / base:5.1f}x"
        )
    return lines


def _openspiel_section(args: argparse.Namespace) -> list[str]:
    from benchmarks.openspiel import overhead

    return overhead(args)


SECTIONS: dict[str, Callable[[argparse.Namespace], list[str]]] = {
    "batched": _batched_section,
    "commands": _commands_section,
    "vector-env": _vector_section,
    "openspiel": _openspiel_section,
}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks engines", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--games", type=at_least(1), default=300, help="games of each scalar path (default 300)"
    )
    parser.add_argument(
        "--batches",
        type=at_least(1),
        nargs="+",
        default=[1_000, 10_000, 100_000],
        help="batch sizes (default 1000 10000 100000)",
    )
    parser.add_argument(
        "--envs", type=at_least(1), default=1024, help="vector sub-environments (default 1024)"
    )
    parser.add_argument(
        "--scalar-deals",
        type=at_least(1),
        default=1_000,
        help="deals of each scalar tournament command (default 1000)",
    )
    parser.add_argument(
        "--batched-deals",
        type=at_least(1),
        default=40_000,
        help="deals of each batched tournament command (default 40000)",
    )
    return run_sections(parser, argv, SECTIONS, "Both games' engines")
