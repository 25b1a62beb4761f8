"""Players for :class:`packing.Game`: policies by name (``bot("optimal")``) and loaders.

A bot grabs through the :class:`arena.Policy` protocol — ``act(observation, legal_actions,
rng)`` sees only the public :class:`~packing.game.Observation` — and loads with its
``loader`` (``None``: the optimal loading, which the game scores from the deck's table).

- ``optimal``: grabs the revealed truck or the pile with the lowest exact expected optimal
  penalty (the pile's expectation over the trucks it may hold); loads optimally.
- ``bonus-aware``: like ``optimal``, but maximises expected points *including* the +10: the
  chance its penalty is the round's lowest, given the other players' cargos, the trucks
  already taken, and what the players still to grab will take (each predicted to grab like
  ``optimal``; a pile draw counted as uniform over the pile).
- ``capacity``: the human rule — the revealed truck whose capacity is closest to the load
  volume (ties: the larger), the pile when none is left; loads optimally.
- ``greedy-loader``: grabs like ``capacity``, loads with :func:`greedy_load` (longest rods
  first, each at the lowest level it fits): what optimal loading is worth.
- ``random``: any legal grab, uniformly; loads optimally unless given a ``loader``.
- ``mcts`` (the ``openspiel`` extra): OpenSpiel's Monte-Carlo tree search with random rollouts
  (:class:`arena.openspiel.SearchPolicy` on ``python_pack_and_stack``), ``simulations`` per
  decision (default :data:`SEARCH_SIMULATIONS`), searching to the end of the current round and
  valuing its standings then (see :mod:`packing.openspiel`); loads optimally. ``ismcts`` is
  refused: Pack & Stack has perfect information (the pile's order is chance, drawn when a
  truck is revealed), so plain MCTS is the search for it.

>>> from packing import bot, play_game
>>> state = play_game([bot("optimal"), bot("greedy-loader")], seed=3)
>>> state.is_terminal(), state.round_records[0].plans[1].optimal  # P1's plans come from greedy_load
(True, False)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

import arena
from arena.play import RandomPolicy
from arena.protocol import Policy, build_bot
from arena.search_bots import openspiel_bot
from packing.deck import SAMPLE_DECK
from packing.errors import PackingError
from packing.game import PILE, Game, Grab, Loader, Observation
from packing.model import AXES, Axis, Cargo, LoadPlan, Placement, Truck
from packing.queries import penalties_for
from packing.rules import ROUND_WIN_BONUS, START_POINTS
from packing.stats import closest_capacity

if TYPE_CHECKING:  # the openspiel extra is imported only when an mcts bot is made
    from arena.openspiel import SearchPolicy

__all__ = [
    "BOT_NAMES",
    "OPENSPIEL_BOTS",
    "SEARCH_SIMULATIONS",
    "BonusAwareBot",
    "CapacityBot",
    "GreedyLoaderBot",
    "OptimalBot",
    "RandomBot",
    "bot",
    "greedy_load",
    "tournament",
]


# --- loaders ----------------------------------------------------------------------------------


def greedy_load(cargo: Cargo, truck: Truck) -> LoadPlan:
    """A simple human-like loading: rods longest first, each at the lowest level it fits
    (lying before standing, then reading order); a rod that fits nowhere stays behind.

    >>> plan = greedy_load(Cargo({4: 3}), Truck.parse("#####/#####/#####", height=1))
    >>> plan.loaded, plan.penalty
    (12, 3)
    """
    heights = {cell: 0 for cell in truck.cells}
    cap = truck.height
    placements: list[Placement] = []
    for length in cargo.rods:
        best: tuple[int, int, int, int, Axis] | None = None  # (z, axis rank, y, x, axis)
        for x, y in truck.cells:
            z = heights[(x, y)]
            if z >= cap:
                continue
            for rank, axis in enumerate(AXES):
                if axis == "z":
                    if z + length > cap:
                        continue
                elif length == 1:
                    continue  # a cube is placed standing ("z"), as the solver does
                else:
                    dx, dy = (1, 0) if axis == "x" else (0, 1)
                    run = [(x + i * dx, y + i * dy) for i in range(length)]
                    if any(heights.get(c) != z for c in run):
                        continue  # outside the area, or not resting flat at level z
                key = (z, rank, y, x, axis)
                if best is None or key < best:
                    best = key
        if best is None:
            continue
        z, _, y, x, axis = best
        placements.append(Placement(length, x, y, z, axis))
        if axis == "z":
            heights[(x, y)] = z + length
        else:
            dx, dy = (1, 0) if axis == "x" else (0, 1)
            for i in range(length):
                heights[(x + i * dx, y + i * dy)] = z + 1
    return LoadPlan.from_placements(truck, cargo, placements)


# --- grabbing ---------------------------------------------------------------------------------


def _own_cargo(observation: Observation) -> Cargo:
    cargo = observation.cargo
    if cargo is None:
        raise PackingError(f"P{observation.player} is asked to grab before rolling")
    return cargo


def _expected_all(
    observation: Observation, cargo: Cargo, legal: Sequence[Grab], use_table: bool
) -> list[float]:
    """The exact expected optimal penalty of each grab in ``legal`` for ``cargo``.

    A float is exact enough to compare: the values are ratios of small integers (sums of at
    most 30 penalties over at most 30 trucks), so equal ratios give equal floats and unequal
    ones differ far above rounding.
    """
    penalties = penalties_for(observation.deck, use_table=use_table)
    index = penalties.index
    row = penalties.row(cargo)
    if row is None:  # no table: solve (memoised) the trucks asked about
        asked = set(observation.draw_pool_at) | {
            index[a.truck] for a in legal if a.truck is not None
        }
        row = [penalties.of(cargo, j) if j in asked else 0 for j in range(len(observation.deck))]
    out: list[float] = []
    pile: float | None = None  # worked out once, when a pile grab is asked about
    for action in legal:
        truck = action.truck
        if truck is not None:
            out.append(row[index[truck]])
        else:
            if pile is None:
                pool = observation.pile_at or observation.discards_at
                pile = sum(map(row.__getitem__, pool)) / len(pool)
            out.append(pile)
    return out


def _lowest_expected(
    observation: Observation, cargo: Cargo, legal: Sequence[Grab], use_table: bool
) -> Grab:
    values = _expected_all(observation, cargo, legal, use_table)
    # The first lowest: ties keep the earlier option, revealed trucks before the pile.
    return legal[values.index(min(values))]


@dataclass(frozen=True, kw_only=True)
class OptimalBot:
    """Grabs the option with the lowest exact expected optimal penalty; loads optimally."""

    #: What :class:`packing.batch.Engine` plays this bot as (its own class's attribute only).
    batch_kind: ClassVar[str] = "optimal"

    name: str = "optimal"
    use_table: bool = True
    loader: Loader | None = None

    def act(
        self, observation: Observation, legal_actions: Sequence[Any], rng: np.random.Generator
    ) -> Grab:
        legal: Sequence[Grab] = legal_actions
        if len(legal) == 1:
            return legal[0]
        cargo = observation.cargos[observation.player]
        penalties = penalties_for(observation.deck, use_table=self.use_table)
        row = penalties.rolled_rows.get(id(cargo))  # penalties.row's usual case, written out
        if row is None:
            row = penalties.row(_own_cargo(observation))  # (_own_cargo refuses a missing roll)
        if row is None:  # no table: the trucks asked about are solved
            return _lowest_expected(observation, _own_cargo(observation), legal, self.use_table)
        # _lowest_expected in one pass over the options, as this runs at every decision of
        # every game: the first lowest wins (a later option must be strictly lower).
        index = penalties.index
        best, choice = None, legal[0]
        for action in legal:
            if action.truck is not None:
                value: float = row[index[action.truck]]
            else:
                pool = observation.pile_at or observation.discards_at
                value = (sum(itemgetter(*pool)(row)) if len(pool) > 1 else row[pool[0]]) / len(pool)
            if best is None or value < best:
                best, choice = value, action
        return choice


@dataclass(frozen=True, kw_only=True)
class BonusAwareBot:
    """Maximises expected points this round, the +10 for the lowest penalty included."""

    #: What :class:`packing.batch.Engine` plays this bot as (its own class's attribute only).
    batch_kind: ClassVar[str] = "bonus-aware"

    name: str = "bonus-aware"
    use_table: bool = True
    loader: Loader | None = None

    def act(
        self, observation: Observation, legal_actions: Sequence[Any], rng: np.random.Generator
    ) -> Grab:
        legal: Sequence[Grab] = legal_actions
        if len(legal) == 1:
            return legal[0]
        cargo = _own_cargo(observation)
        penalties = penalties_for(observation.deck, use_table=self.use_table)
        index = penalties.index
        pool = observation.draw_pool

        def pile(c: Cargo) -> dict[int, float]:
            out: dict[int, float] = {}
            for t in pool:
                x = penalties.of(c, index[t])
                out[x] = out.get(x, 0.0) + 1 / len(pool)
            return out

        # Players who have their truck: known penalties (they are assumed to load optimally).
        fixed = [
            penalties.of(c, index[t])
            for p, (c, t) in enumerate(zip(observation.cargos, observation.taken))
            if p != observation.player and c is not None and t is not None
        ]
        best, best_value = legal[0], float("-inf")
        for action in legal:
            if action.truck is None:
                mine = pile(cargo)
            else:
                mine = {penalties.of(cargo, index[action.truck]): 1.0}
            others = [{x: 1.0} for x in fixed]
            others += self._predicted(observation, action, pile)
            p_bonus = sum(p * _at_least_all(m, others) for m, p in mine.items())
            value = ROUND_WIN_BONUS * p_bonus - sum(m * p for m, p in mine.items())
            if value > best_value + 1e-12:
                best, best_value = action, value
        return best

    def _predicted(
        self, observation: Observation, mine: Grab, pile: Callable[[Cargo], dict[int, float]]
    ) -> list[dict[int, float]]:
        """The penalty distributions of the players still to grab after ``mine``, each taking
        the option of lowest expected penalty among those left (the last one the pile)."""
        revealed = [list(ts) for ts in observation.revealed]
        if mine.truck is not None and mine.owner is not None:
            revealed[mine.owner].remove(mine.truck)
        waiting = observation.waiting
        out: list[dict[int, float]] = []
        penalties = penalties_for(observation.deck, use_table=self.use_table)
        for k, q in enumerate(waiting):
            cargo = observation.cargos[q]
            if cargo is None:
                continue
            options = (
                []
                if k == len(waiting) - 1
                else [Grab(t, owner) for owner, ts in enumerate(revealed) if owner != q for t in ts]
            )
            options.append(PILE)
            choice = _lowest_expected(observation, cargo, options, self.use_table)
            if choice.truck is None or choice.owner is None:
                out.append(pile(cargo))
            else:
                revealed[choice.owner].remove(choice.truck)
                out.append({penalties.of(cargo, penalties.index[choice.truck]): 1.0})
        return out


def _at_least_all(m: int, others: Sequence[dict[int, float]]) -> float:
    """The probability that every other penalty is at least ``m`` (independent players)."""
    prob = 1.0
    for dist in others:
        prob *= sum(p for x, p in dist.items() if x >= m)
    return prob


def _closest_capacity(observation: Observation, legal: Sequence[Grab]) -> Grab:
    revealed = [a for a in legal if a.truck is not None]
    if not revealed:
        return PILE
    trucks = [a.truck for a in revealed if a.truck is not None]
    return revealed[trucks.index(closest_capacity(_own_cargo(observation), trucks))]


@dataclass(frozen=True, kw_only=True)
class CapacityBot:
    """The human rule: the revealed truck whose capacity is closest to the load volume."""

    #: What :class:`packing.batch.Engine` plays this bot as (its own class's attribute only).
    batch_kind: ClassVar[str] = "capacity"

    name: str = "capacity"
    loader: Loader | None = None

    def act(
        self, observation: Observation, legal_actions: Sequence[Any], rng: np.random.Generator
    ) -> Grab:
        return _closest_capacity(observation, legal_actions)


@dataclass(frozen=True, kw_only=True)
class GreedyLoaderBot(CapacityBot):
    """Grabs like ``capacity``; loads longest rods first, each at the lowest level."""

    name: str = "greedy-loader"
    loader: Loader | None = greedy_load


@dataclass(frozen=True, kw_only=True)
class RandomBot(RandomPolicy):
    """Any legal grab, uniformly (arena's baseline); loads optimally unless given a ``loader``."""

    #: What :class:`packing.batch.Engine` plays this bot as (its own class's attribute only).
    batch_kind: ClassVar[str] = "random"

    name: str = "random"
    loader: Loader | None = None


_BOTS: dict[str, type[OptimalBot | BonusAwareBot | CapacityBot | GreedyLoaderBot | RandomBot]] = {
    "optimal": OptimalBot,
    "bonus-aware": BonusAwareBot,
    "capacity": CapacityBot,
    "greedy-loader": GreedyLoaderBot,
    "random": RandomBot,
}

#: OpenSpiel's search bots :func:`bot` also builds, with the ``openspiel`` extra.
OPENSPIEL_BOTS: tuple[str, ...] = ("mcts",)

#: Every name :func:`bot` accepts: this package's bots (no extra needed), then ``OPENSPIEL_BOTS``.
BOT_NAMES: tuple[str, ...] = (*_BOTS, *OPENSPIEL_BOTS)

#: ``mcts``'s default simulations per decision: a fraction of a second a decision, and enough to
#: play on a par with ``optimal`` and ``bonus-aware`` (the measured tournament is in
#: ``benchmarks/README.md``, the ``openspiel`` suite).
SEARCH_SIMULATIONS = 300


def bot(
    name: str,
    **options: Any,
) -> Policy:
    """The bot called ``name`` (see the module docstring), with its options
    (``use_table`` for ``optimal``/``bonus-aware``, ``loader`` for every bot but ``mcts``,
    ``name``; for ``mcts``: ``simulations``, ``rollouts``, ``uct_c``).

    >>> bot("optimal")
    OptimalBot(name='optimal', use_table=True, loader=None)
    >>> bot("fastest")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    packing.errors.PackingError: unknown bot 'fastest' (choose from optimal, bonus-aware, capacity, ...)
    """
    if not isinstance(name, str):
        raise TypeError(f"bot name must be a str, not {type(name).__name__}")
    if name in OPENSPIEL_BOTS:
        return build_bot(partial(_search_bot, name), name, options)
    if name == "ismcts":
        raise PackingError(
            "bot 'ismcts' needs a game of imperfect information; Pack & Stack has perfect "
            "information (the pile's order is chance), so use mcts"
        )
    cls = _BOTS.get(name)
    if cls is None:
        raise PackingError(f"unknown bot {name!r} (choose from {', '.join(BOT_NAMES)})")
    make: Callable[..., Policy] = cls
    return build_bot(make, name, options)


def _search_policy(search: str, **options: Any) -> SearchPolicy:
    from arena.openspiel import SearchPolicy  # the openspiel extra, needed from here on
    from packing.openspiel import CODEC

    return SearchPolicy(CODEC, search, **options)


def _search_bot(
    name: str, *, simulations: int = SEARCH_SIMULATIONS, **options: Any
) -> SearchPolicy:
    """OpenSpiel's search bot ``name`` on ``python_pack_and_stack`` (imported only here: the
    package never needs OpenSpiel otherwise)."""
    return openspiel_bot(_search_policy, name, PackingError, simulations=simulations, **options)


def tournament(
    players: Sequence[str],
    *,
    games: int,
    seed: int,
    workers: int = 1,
    executor: Executor | None = None,
    deck: Sequence[Truck] = SAMPLE_DECK,
    start_points: int = START_POINTS,
    progress: bool = False,
    bot_options: Mapping[str, Mapping[str, Any]] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    engine: str = "auto",
    records: bool = False,
) -> arena.TournamentResult:
    """A duplicate-deal tournament (:func:`arena.bot_tournament`) between bots named in
    ``players``, one per seat; a name given twice plays as ``name``, ``name#2``, ...
    (:func:`arena.seat_labels`). ``bot_options`` gives options by bot name
    (``{"mcts": {"simulations": 100}}``), passed to :func:`bot`. ``engine``: ``"auto"``
    (the batched engine, :mod:`packing.batch`, when every bot is one it plays: ``random``,
    ``capacity``, ``optimal``, ``bonus-aware``), ``"scalar"`` or ``"batched"`` (see
    :func:`arena.tournament`).

    ``checkpoint`` is a file where completed deals are saved as they finish, so a rerun with
    the same arguments continues; ``records`` keeps every game (see :func:`arena.tournament`).

    >>> result = tournament(["optimal", "random"], games=20, seed=1)
    >>> result.stat("optimal").win_rate > result.stat("random").win_rate
    True
    """
    return arena.bot_tournament(
        bot,
        players,
        partial(Game, deck=tuple(deck), start_points=start_points),
        games=games,
        seed=seed,
        bot_options=bot_options,
        executor=executor,
        workers=workers,
        progress=progress,
        checkpoint=checkpoint,
        engine=engine,
        records=records,
    )
