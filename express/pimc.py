"""Perfect-information Monte Carlo: sample the hidden worlds, solve each exactly, play the best mean.

The method of the card-game programs that lead their fields (bridge's GIB, Skat's Kermit): a
player does not know the deck's order nor the others' face-down cards, but every world
consistent with what it saw can be solved exactly. :func:`estimate_plays` draws ``worlds`` such
worlds with :func:`express.worlds.sample_worlds` (each with its probability given the
observation), values every candidate play in each with :func:`express.exact.play_values` (one
exact search per world for all the plays), and reports each play's mean over the worlds with a
95 % interval. :class:`PimcBot` (``express.bot("pimc")``) plays the best mean; the advisor
(:func:`express.advise`) shows them all.

What a value measures, for the player to move (``measure``):

- two players: its final score minus the opponent's, both playing perfectly in that world;
- three to five players, ``rule="paranoid"`` (the default): its final score minus the best
  rival's, the rivals playing to minimise that; ``rule="maxn"``: its own final score when every
  player maximises its own (see :func:`express.exact.play_values` for ties).

The worlds are common to all plays (each play is valued in the same worlds, so the comparison
is fair). Everything random comes from the generator given, so with ``time_limit=None`` a seeded
game replays exactly; with a time limit, sampling stops when it runs out (at least one world is
always solved), and how many worlds fit depends on the machine.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena import Action
from arena.stats import mean_interval
from express.errors import ExpressError
from express.exact import solve_deal
from express.game import Game, Observation, Turn
from express.match import MatchObservation
from express.train import Play
from express.worlds import game_view, sample_world

__all__ = [
    "DEFAULT_RULE",
    "DEFAULT_TIME_LIMIT",
    "DEFAULT_WORLDS",
    "RULES",
    "PimcBot",
    "PlayEstimate",
    "estimate_plays",
    "measure_of",
]

DEFAULT_WORLDS = 24
"""Worlds sampled per decision by default."""

DEFAULT_TIME_LIMIT = 1.5
"""Seconds a decision may take by default before sampling stops (a cap for the slow early turns
of big games; most decisions finish their worlds long before)."""

RULES = ("paranoid", "maxn")
"""What a world's value is for three to five players (see the module docstring)."""

DEFAULT_RULE = "paranoid"
"""The rule of the default bot and advisor."""


@dataclass(frozen=True)
class PlayEstimate:
    """One candidate play's value over the sampled worlds: the mean and its 95 % interval."""

    play: Play
    mean: float
    low: float
    high: float
    worlds: int

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return {
            "play": str(self.play),
            "mean": self.mean,
            "low": self.low,
            "high": self.high,
            "worlds": self.worlds,
        }


def measure_of(players: int, rule: str = DEFAULT_RULE) -> str:
    """What the values mean for ``players`` players, in words.

    >>> measure_of(2)
    "your final score minus your opponent's"
    """
    if players == 2:
        return "your final score minus your opponent's"
    if rule == "paranoid":
        return "your final score minus the best rival's"
    return "your final score"


def _check(worlds: object, time_limit: object, rule: object) -> None:
    if isinstance(worlds, bool) or not isinstance(worlds, int):
        raise TypeError(f"worlds must be an int, not {type(worlds).__name__}")
    if worlds < 1:
        raise ExpressError(f"invalid number of worlds: {worlds!r} (at least 1)")
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
            raise TypeError(f"time_limit must be a number of seconds, not {time_limit!r}")
        if not time_limit > 0:
            raise ExpressError(f"invalid time limit: {time_limit!r} (seconds, more than 0)")
    if rule not in RULES:
        raise ExpressError(f"unknown rule: {rule!r} (choose from {', '.join(RULES)})")


def estimate_plays(
    observation: Observation | MatchObservation,
    *,
    worlds: int = DEFAULT_WORLDS,
    rng: np.random.Generator,
    time_limit: float | None = None,
    rule: str = DEFAULT_RULE,
) -> tuple[PlayEstimate, ...]:
    """Every legal play of the observing player, valued over up to ``worlds`` sampled worlds
    (fewer if ``time_limit`` seconds run out first; at least one), in the legal order."""
    _check(worlds, time_limit, rule)
    view = game_view(observation)
    if not view.hand:
        raise ExpressError("it is not this player's turn: it holds no hand to play from")
    began = time.perf_counter()
    sums: dict[Play, list[float]] = {}
    plays: tuple[Play, ...] = ()
    for world in sample_worlds(view, worlds, rng):
        values = play_values(world, rule=rule)
        if not plays:
            plays = tuple(action for action in world.legal_actions() if isinstance(action, Play))
            sums = {play: [] for play in plays}
        for play in plays:
            sums[play].append(float(values[play]))
        if time_limit is not None and time.perf_counter() - began > time_limit:
            break
    estimates = []
    for play in plays:
        mean, low, high = mean_interval(sums[play])
        estimates.append(PlayEstimate(play, mean, low, high, len(sums[play])))
    return tuple(estimates)


@dataclass(frozen=True)
class PimcBot:
    """Plays the legal play with the best mean value over sampled worlds, each solved exactly
    (see the module docstring); ties go to the first in the legal order.

    ``worlds`` per decision, ``time_limit`` seconds at most per decision (None: no limit; then
    a seeded game replays exactly), ``rule`` for three to five players (``paranoid`` or
    ``maxn``).
    """

    worlds: int = DEFAULT_WORLDS
    time_limit: float | None = DEFAULT_TIME_LIMIT
    rule: str = DEFAULT_RULE
    name: str = "pimc"

    def __post_init__(self) -> None:
        _check(self.worlds, self.time_limit, self.rule)

    def act(
        self, observation: Any, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        estimates = estimate_plays(
            observation, worlds=self.worlds, rng=rng, time_limit=self.time_limit, rule=self.rule
        )
        legal = set(legal_actions)
        best = max((e for e in estimates if e.play in legal), key=lambda e: e.mean, default=None)
        if best is None:
            raise ExpressError("the sampled worlds offer none of the legal plays (a bug)")
        return best.play


# -- interim: until the exact sampler and the multi-play solver land ---------------------------


def sample_worlds(view: Observation, count: int, rng: np.random.Generator) -> list[Game]:
    return [_ordered(sample_world(view, rng), rng) for _ in range(count)]


def _ordered(world: Game, rng: np.random.Generator) -> Game:
    from collections import Counter

    left = list((Counter(world.deck) - Counter(world.drawn)).elements())
    rest = [left[i] for i in rng.permutation(len(left))]
    game = Game(
        world.players,
        caboose=world.caboose,
        deck=world.deck,
        order=tuple(world.drawn) + tuple(rest),
        rounds=world.rounds,
        start_player=world.start_player,
        pass_left=world.pass_left,
    )
    for event in world.events:
        if isinstance(event, Turn):
            game.apply_action(event.play)
    return game


def play_values(world: Game, *, rule: str) -> dict[Play, int]:
    if world.players != 2:
        raise ExpressError("interim: pimc plays two-player games until play_values lands")
    mover = world.current_player()
    sign = 1 if mover == world.start_player else -1
    values: dict[Play, int] = {}
    for action in world.legal_actions():
        assert isinstance(action, Play)
        child = world.clone()
        child.apply_action(action)
        values[action] = sign * solve_deal(child).value
    return values
