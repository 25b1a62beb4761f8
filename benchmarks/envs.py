"""Both games as PettingZoo and Gymnasium environments: steps per second beside the game itself.

``python -m benchmarks envs [--games N] [--only pettingzoo gymnasium]`` (needs the ``rl``
extra)

Every path plays ``--games`` whole games of 4-player Pack & Stack and 3-player Yardmaster
Express with a random caboose, every decision uniform among the legal actions and chance
sampled exactly, over the same seeds:

- ``arena``: the baseline, the ``arena`` state's own random playouts: :func:`arena.play` with
  :class:`arena.RandomPolicy` in every seat (each decision asks the policy with the player's
  observation, as every policy is asked; chance drawn by :func:`arena.outcome_drawer`, as the
  AEC environment draws it);
- ``bare``: for reference, a plain loop on the state that builds no observation and draws
  chance by :func:`arena.sample_outcome` — the least a random playout can cost;
- ``pettingzoo``: the AEC environment (``packing.pettingzoo.env``, ``express.pettingzoo.env``)
  with random agents that pick among the ``action_mask``'s legal ids, reading every agent's
  ``last()`` observation (the codec's tensor) as a learner would;
- ``gymnasium``: one seat (``gym_env``) picking among ``action_masks()``, the other seats
  ``arena``'s random policy.

Figures are decisions (players' steps) per CPU second and the ratios to the ``arena`` path
(target ≥ 0.5) and to the bare loop. The load average is printed first.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

import packing
from arena import GameState, RandomPolicy, play, sample_outcome
from benchmarks._suite import run_sections


@dataclass(frozen=True)
class _Subject:
    title: str
    new_state: Callable[[], GameState]
    aec: Callable[[], Any]
    gym: Callable[[], Any]


def _subjects() -> list[_Subject]:
    import express.pettingzoo
    import packing.pettingzoo

    return [
        _Subject(
            "Pack & Stack, 4 players",
            partial(packing.Game, 4, max_rounds=40),
            partial(packing.pettingzoo.env, players=4),
            partial(packing.pettingzoo.gym_env, [RandomPolicy()] * 3),
        ),
        _Subject(
            "Yardmaster Express, 3 players, random caboose",
            partial(express.Game, 3, caboose="random"),
            partial(express.pettingzoo.env, players=3, caboose="random"),
            partial(express.pettingzoo.gym_env, [RandomPolicy()] * 2, caboose="random"),
        ),
    ]


def _arena(new_state: Callable[[], GameState], seeds: range) -> tuple[int, float]:
    """(decisions, CPU seconds) of :func:`arena.play`'s random playouts, one per seed."""
    decisions = 0
    began = time.process_time()
    for seed in seeds:
        state = new_state()
        decisions += _decisions(play(state, [RandomPolicy()] * state.num_players, seed))
    return decisions, time.process_time() - began


def _bare(new_state: Callable[[], GameState], seeds: range) -> tuple[int, float]:
    """(decisions, CPU seconds) of random playouts stepping the state alone, one per seed."""
    decisions = 0
    began = time.process_time()
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
                decisions += 1
    return decisions, time.process_time() - began


def aec_playouts(env: Any, seeds: range) -> tuple[int, float]:
    """(decisions, CPU seconds) of episodes of random agents in the AEC environment ``env``,
    each agent reading its ``last()`` observation and picking among its mask's legal ids."""
    decisions = 0
    began = time.process_time()
    for seed in seeds:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.integers(len(legal)))]))
            decisions += 1
    return decisions, time.process_time() - began


def _gym(env: Any, seeds: range) -> tuple[int, float]:
    """(decisions of every seat, CPU seconds) of episodes of the single-seat ``env``."""
    decisions = 0
    began = time.process_time()
    for seed in seeds:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, _, terminated, truncated, _ = env.step(int(legal[int(rng.integers(len(legal)))]))
            done = terminated or truncated
        decisions += _decisions(env.state)  # every seat's, as on the other paths
    return decisions, time.process_time() - began


def _decisions(state: Any) -> int:
    if isinstance(state, packing.Game):
        return len(state.round_records) * state.num_players  # one grab each a round
    return int(state.players * state.rounds)  # one card each a round


_CHUNK = 10
"""Games per turn of each path: the paths alternate, so a change in the machine's load falls
on all alike."""


def _section(args: argparse.Namespace, path: str) -> list[str]:
    lines = [f"random play, {args.games} games per game and path (decisions per CPU second)"]
    run = aec_playouts if path == "pettingzoo" else _gym
    for subject in _subjects():
        env = (subject.aec if path == "pettingzoo" else subject.gym)()
        paths: list[Callable[[range], tuple[int, float]]] = [
            partial(_arena, subject.new_state),
            partial(_bare, subject.new_state),
            partial(run, env),
        ]
        # Warm-up, not timed: the first games load the tables and build the samplers.
        for measure in paths:
            measure(range(10**6, 10**6 + 3))
        decisions, seconds = [0] * len(paths), [0.0] * len(paths)
        for start in range(0, args.games, _CHUNK):
            seeds = range(start, min(start + _CHUNK, args.games))
            for k, measure in enumerate(paths):
                count, cpu = measure(seeds)
                decisions[k] += count
                seconds[k] += cpu
        base, bare, rate = (count / cpu for count, cpu in zip(decisions, seconds, strict=True))
        lines.append(
            f"  {subject.title:<46} arena {base:9,.0f}/s   bare {bare:9,.0f}/s   "
            f"{path} {rate:9,.0f}/s   {rate / base:.2f}x arena, {rate / bare:.2f}x bare "
            f"({decisions[2] / args.games:.0f} decisions a game)"
        )
    return lines


SECTIONS: dict[str, Callable[[argparse.Namespace], list[str]]] = {
    "pettingzoo": partial(_section, path="pettingzoo"),
    "gymnasium": partial(_section, path="gymnasium"),
}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks envs", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--games", type=int, default=200, help="games per game and path (default 200)"
    )
    return run_sections(
        parser, argv, SECTIONS, "Both games as PettingZoo and Gymnasium environments"
    )
