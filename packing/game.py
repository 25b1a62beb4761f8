"""The whole game of Pack & Stack on the :mod:`arena` protocol (rules: ``docs/rules/pack-and-stack.md``).

``Game(players=4)`` is the initial state of a game; ``apply_action`` moves it forward. A round:

1. **Rolls** — one chance node per player, from the round's first roller on (the first roller
   rotates each round). The outcomes are the 900 distinct cargos with their exact
   probabilities (:func:`packing.roll_distribution`).
2. **Draws** — each player in turn draws 2 trucks (1 with 5–6 players) face down; each draw is
   a chance node uniform over the trucks in the pile. The outcome is a :class:`Draw`: the
   position of the drawn truck among the pile's trucks in deck order, so the outcome list
   depends only on the pile's size (and is one cached object per size).
3. **The grab** — a chance node gives the race's order (:class:`GrabOrder`; uniform over the
   orders, or by per-player ``speeds``: the Plackett–Luce odds, exact). In that order each
   player takes (:class:`Grab`) a revealed truck in front of *another* player or the top of
   the pile (then a chance node says which truck it is); the last grabber must take the pile.
4. **Load and score** — not an action: each player's loader (``loaders[p](cargo, truck)``,
   the optimal loading by default) gives a plan the game checks with :func:`packing.verify`
   and scores; the smallest loss gains 10 points (all tied players gain it). Every truck of
   the round (taken or not) goes to the discard pile. With the deck's table, an optimal
   loading is scored from the table and its plan solved, verified and checked against the
   table when the record's ``plans`` are read (scoring stays fast: see ``benchmarks/games.py``).

When a draw finds the pile empty, the discards are shuffled into a new pile (the draw then
comes from them). The game ends after the round in which some player has no points left
(≤ 0) — or, with the option ``max_rounds=R``, after round R at the latest, on the standings
then (a project decision for programs that need a bounded game, such as OpenSpiel's; the
rules' game has no cap, the default) — most points wins, tied players share the win. Each
round leaves a :class:`RoundRecord` in ``state.round_records``.

Decisions where the rules are silent: the trucks players took are discarded with the unclaimed
ones after scoring (else the deck would run out); the pile is reshuffled when a draw finds it
empty; with 2 players each draws 2 trucks.

>>> from packing import bot
>>> state = arena.play(Game(players=3), [bot("optimal")] * 3, seed=1)
>>> state.is_terminal(), min(state.returns()) <= 0, state.round_records[0].number
(True, True, 1)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, overload

import arena
from arena import CHANCE, TERMINAL
from arena.memo import IdentityMemo
from arena.text import plural
from arena.values import seed as check_seed
from arena.values import whole_number
from packing.checks import deck_size_check, players_arg, trucks_arg
from packing.deck import SAMPLE_DECK
from packing.errors import InvalidPlan, PackingError
from packing.model import Cargo, LoadPlan, Truck
from packing.odds import roll_outcomes
from packing.queries import optimal_plan, penalties_for
from packing.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUND_WIN_BONUS,
    START_POINTS,
    draws_per_player,
)
from packing.verify import verify

if TYPE_CHECKING:
    from packing.batch import Engine

__all__ = [
    "FROM_PILE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PILE",
    "Draw",
    "Game",
    "GameSetup",
    "Grab",
    "GrabOrder",
    "Loader",
    "Observation",
    "Plans",
    "RoundRecord",
    "Source",
    "game_from_observation",
    "loaders_of",
    "optimal_plan",
    "play_game",
    "roll_outcomes",
]

Loader = Callable[[Cargo, Truck], LoadPlan]
"""A player's way of loading: ``load(cargo, truck) -> LoadPlan`` (checked by the game)."""


class Source(NamedTuple):
    """Where a player's truck came from: revealed in front of ``owner``, or the pile (``owner``
    None). :data:`FROM_PILE` is the pile's; ``Source.revealed_by(owner)`` another player's."""

    kind: Literal["revealed", "pile"]
    owner: int | None = None

    @classmethod
    def revealed_by(cls, owner: int) -> Source:
        return cls("revealed", owner)

    @property
    def is_pile(self) -> bool:
        return self.owner is None

    def to_list(self) -> list[object]:
        """The JSON form: ``["revealed", owner]`` or ``["pile"]``."""
        return ["pile"] if self.owner is None else [self.kind, self.owner]


FROM_PILE = Source("pile")
"""The source of a truck taken from the top of the pile."""

# Phases of a round (the state's ``_phase``); the chance phases come first, below ``_GRAB``.
_ROLL, _DRAW, _ORDER, _TOP, _GRAB, _OVER = range(6)


# --- actions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """Chance outcome of a draw from the pile: the truck at ``position`` among the pile's
    trucks in deck order (each position is equally likely, so each truck is)."""

    position: int

    def __str__(self) -> str:
        return f"pile truck #{self.position}"


@dataclass(frozen=True)
class GrabOrder:
    """Chance outcome of the race: the players in the order they grab."""

    order: tuple[int, ...]

    def __str__(self) -> str:
        return "grab order " + ", ".join(f"P{p}" for p in self.order)


@dataclass(frozen=True)
class Grab:
    """A player's grab: the revealed ``truck`` in front of ``owner``, or the top of the pile
    (``truck`` and ``owner`` None)."""

    truck: Truck | None = None
    owner: int | None = None

    @property
    def is_pile(self) -> bool:
        return self.truck is None

    def __str__(self) -> str:
        if self.truck is None:
            return "the pile"
        return f"{self.truck.name or self.truck} from P{self.owner}"


PILE = Grab()
"""The grab of the top of the pile."""


@cache
def _draw_outcomes(size: int) -> tuple[tuple[Draw, Fraction], ...]:
    p = Fraction(1, size)
    return tuple((Draw(i), p) for i in range(size))


#: The outcomes of a draw from a pile of each size up to 64 (index 0 unused), looked up directly.
_DRAWS: tuple[tuple[tuple[Draw, Fraction], ...], ...] = ((),) + tuple(
    _draw_outcomes(size) for size in range(1, 65)
)


@cache
def _roll_set() -> frozenset[Cargo]:
    return frozenset(cargo for cargo, _ in roll_outcomes())


@cache
def _roll_ids() -> frozenset[int]:
    # The cargos of the cached outcome tuple live as long as it: their ids identify them (a
    # fast check for the usual case; other equal cargos are found by value). A fixed set of
    # those objects, not an IdentityMemo: nothing is added or evicted.
    return frozenset(id(cargo) for cargo, _ in roll_outcomes())


@cache
def _order_outcomes(
    players: int, speeds: tuple[Fraction, ...] | None
) -> tuple[tuple[GrabOrder, Fraction], ...]:
    """Every grab order with its exact probability: uniform, or Plackett–Luce on ``speeds``
    (the fastest grabs first with probability speed / total speed, and so on)."""
    orders = list(itertools.permutations(range(players)))
    if speeds is None:
        p = Fraction(1, len(orders))
        return tuple((GrabOrder(o), p) for o in orders)
    out = []
    for order in orders:
        prob, left = Fraction(1), sum(speeds)
        for player in order:
            prob *= speeds[player] / left
            left -= speeds[player]
        out.append((GrabOrder(order), prob))
    return tuple(out)


# --- records ----------------------------------------------------------------------------------


class Plans(Sequence[LoadPlan]):
    """A round's load plans, one per player. A plan a player's loader gave is stored as is
    (it was verified when scored); an optimal plan scored from the table is solved, verified
    and checked against the table's penalty the first time it is read."""

    __slots__ = ("_cargos", "_trucks", "_given", "_penalties", "_solved")

    def __init__(
        self,
        cargos: tuple[Cargo, ...],
        trucks: tuple[Truck, ...],
        given: tuple[LoadPlan | None, ...],
        penalties: tuple[int, ...],
    ) -> None:
        self._cargos, self._trucks, self._given, self._penalties = cargos, trucks, given, penalties
        self._solved: list[LoadPlan | None] = list(given)

    def __len__(self) -> int:
        return len(self._given)

    @overload
    def __getitem__(self, i: int) -> LoadPlan: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[LoadPlan]: ...
    def __getitem__(self, i: int | slice) -> LoadPlan | Sequence[LoadPlan]:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(len(self))[i])
        plan = self._solved[i]
        if plan is None:
            plan = optimal_plan(self._cargos[i], self._trucks[i])
            if plan.penalty != self._penalties[i]:
                raise PackingError(
                    f"the table's penalty for truck {self._trucks[i].name!r} "
                    f"disagrees with a fresh solve"
                )
            self._solved[i] = plan
        return plan

    def __iter__(self) -> Iterator[LoadPlan]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Plans):
            return NotImplemented
        return (self._cargos, self._trucks, self._given, self._penalties) == (
            other._cargos,
            other._trucks,
            other._given,
            other._penalties,
        )

    def __hash__(self) -> int:
        return hash((self._cargos, self._trucks, self._given, self._penalties))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Plans, (self._cargos, self._trucks, self._given, self._penalties))

    def __repr__(self) -> str:
        return f"Plans({len(self)} plans)"


@dataclass(frozen=True)
class RoundRecord:
    """What happened in one round (players are seat numbers 0..n-1).

    ``revealed[p]``: the trucks ``p`` drew and revealed; ``taken[p]``: the truck ``p`` loaded,
    from ``sources[p]`` (a :class:`~packing.game.Source`: revealed in front of its ``owner``, or the pile); ``bonus``: the players who
    gained the +10; ``points``: everyone's points after the round.
    """

    number: int
    first_roller: int
    cargos: tuple[Cargo, ...]
    revealed: tuple[tuple[Truck, ...], ...]
    grab_order: tuple[int, ...]
    taken: tuple[Truck, ...]
    sources: tuple[Source, ...]
    plans: Plans
    penalties: tuple[int, ...]
    bonus: tuple[int, ...]
    points: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready description (plans by placements)."""
        return {
            "number": self.number,
            "first_roller": self.first_roller,
            "cargos": [list(c.counts) for c in self.cargos],
            "revealed": [[t.name for t in ts] for ts in self.revealed],
            "grab_order": list(self.grab_order),
            "taken": [t.name for t in self.taken],
            "sources": [s.to_list() for s in self.sources],
            "plans": [
                {
                    "truck": p.truck.name,
                    "placements": [str(x) for x in p.placements],
                    "loaded": p.loaded,
                    "penalty": p.penalty,
                }
                for p in self.plans
            ],
            "penalties": list(self.penalties),
            "bonus": list(self.bonus),
            "points": list(self.points),
        }


@dataclass(frozen=True)
class Observation:
    """What ``player`` may know: everything public, never the pile's order.

    Trucks are given by their position in ``deck`` (the column of the deck's optimal table),
    and as :class:`Truck` values by the properties ``revealed``, ``taken``, ``pile`` and
    ``discards``. ``revealed_at[p]``: the trucks still in front of ``p`` (not yet taken);
    ``pile_at``: the pile's composition in deck order; ``grabbed``: how many players have
    grabbed this round.
    """

    player: int
    round: int
    first_roller: int
    start_points: int
    points: tuple[int, ...]
    cargos: tuple[Cargo | None, ...]
    revealed_at: tuple[tuple[int, ...], ...]
    taken_at: tuple[int | None, ...]
    grab_order: tuple[int, ...] | None
    grabbed: int
    pile_at: tuple[int, ...]
    discards_at: tuple[int, ...]
    deck: tuple[Truck, ...]

    @property
    def cargo(self) -> Cargo | None:
        """The observing player's own cargo (None before the roll)."""
        return self.cargos[self.player]

    @property
    def revealed(self) -> tuple[tuple[Truck, ...], ...]:
        """The trucks still in front of each player."""
        deck = self.deck
        return tuple(tuple(deck[j] for j in js) for js in self.revealed_at)

    @property
    def taken(self) -> tuple[Truck | None, ...]:
        """The truck each player has taken this round (None: not yet)."""
        return tuple(None if j is None else self.deck[j] for j in self.taken_at)

    @property
    def pile(self) -> tuple[Truck, ...]:
        """The pile's trucks, in deck order (its order is hidden)."""
        return tuple(map(self.deck.__getitem__, self.pile_at))

    @property
    def discards(self) -> tuple[Truck, ...]:
        """The discard pile's trucks, in deck order."""
        return tuple(map(self.deck.__getitem__, self.discards_at))

    @property
    def draw_pool_at(self) -> tuple[int, ...]:
        """The deck positions of the trucks the top of the pile may be: the pile, or the
        discards when a grab or draw would find the pile empty (they are then shuffled into a
        new pile)."""
        return self.pile_at if self.pile_at else self.discards_at

    @property
    def draw_pool(self) -> tuple[Truck, ...]:
        """The trucks the top of the pile may be (see ``draw_pool_at``)."""
        return tuple(map(self.deck.__getitem__, self.draw_pool_at))

    @property
    def waiting(self) -> tuple[int, ...]:
        """The players who grab after the one grabbing now, in order."""
        if self.grab_order is None:
            return ()
        return self.grab_order[self.grabbed + 1 :]


# --- the game ---------------------------------------------------------------------------------


class _TrucksAt(dict[tuple[int, ...], tuple[Truck, ...]]):
    """The trucks at some positions of a deck, by the positions (a round's record names the
    trucks each player revealed): each tuple of positions is worked out once, as at most a
    deck's pairs of positions come up."""

    __slots__ = ("deck",)

    def __init__(self, deck: tuple[Truck, ...]) -> None:
        super().__init__()
        self.deck = deck

    def __missing__(self, positions: tuple[int, ...]) -> tuple[Truck, ...]:
        trucks = self[positions] = tuple([self.deck[j] for j in positions])
        return trucks


@dataclass(frozen=True, slots=True)
class GameSetup:
    """The options a game was created with (:attr:`Game.setup`), the same for the whole game."""

    players: int
    deck: tuple[Truck, ...]
    start_points: int
    speeds: tuple[Fraction, ...] | None
    loaders: tuple[Loader | None, ...]
    use_table: bool
    max_rounds: int | None = None


class _Setup:
    """What does not change during a game, shared (not copied) by a state and its clones: the
    options, and what the rules and the deck derive from them."""

    __slots__ = (
        "options",
        "players",
        "deck",
        "start_points",
        "loaders",
        "draws_each",
        "draws",
        "index",
        "penalties",
        "orders",
        "grabs",
        "sources",
        "trucks_at",
        "max_rounds",
    )

    def __init__(self, options: GameSetup) -> None:
        self.options = options
        players, deck = options.players, options.deck
        # The options read at every action, as slots of their own.
        self.players, self.deck, self.start_points = players, deck, options.start_points
        self.loaders, self.max_rounds = options.loaders, options.max_rounds
        self.draws_each = draws_per_player(players)
        self.draws = players * self.draws_each  # draws a round
        self.index = {truck: j for j, truck in enumerate(deck)}
        self.penalties = penalties_for(deck, use_table=options.use_table)
        self.orders = _order_outcomes(players, options.speeds)
        # grabs[owner][j]: the action of taking truck j from owner (built once per game setup).
        self.grabs = tuple(tuple(Grab(truck, owner) for truck in deck) for owner in range(players))
        # sources[owner]: where a truck grabbed from owner came from (made once, not per grab).
        self.sources = [Source.revealed_by(owner) for owner in range(players)]
        self.trucks_at = _TrucksAt(deck)

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, _Setup) and self.options == other.options)

    def __hash__(self) -> int:
        return hash(self.options)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_setup_of, (self.options,))  # unpickles to the cached setup of equal options


@lru_cache(maxsize=64)
def _cached_setup(options: GameSetup) -> _Setup:
    return _Setup(options)


# Games are created by the thousand with the same deck object: find their setup by the deck's
# identity first (hashing 30 trucks per game would cost more than the lookup saves), then by
# the other options.
_setups_by_deck = IdentityMemo[tuple[Truck, ...], dict[tuple[object, ...], _Setup]]()


def _setup(
    players: int,
    deck: tuple[Truck, ...],
    start_points: int,
    speeds: tuple[Fraction, ...] | None,
    loaders: tuple[Loader | None, ...],
    use_table: bool,
    max_rounds: int | None,
) -> _Setup:
    """The setup of a game, shared by the games created with the same options (the options'
    value is made only when a setup is: a game is created for every deal of a tournament)."""
    rest = (players, start_points, speeds, loaders, use_table, max_rounds)
    try:
        by_options = _setups_by_deck.get(deck)
        if by_options is None:
            by_options = _setups_by_deck.put(deck, {})
        found = by_options.get(rest)
        if found is None:
            options = GameSetup(players, deck, start_points, speeds, loaders, use_table, max_rounds)
            found = by_options[rest] = _cached_setup(options)
    except TypeError:  # an unhashable loader: this game gets a setup of its own
        return _Setup(
            GameSetup(players, deck, start_points, speeds, loaders, use_table, max_rounds)
        )
    return found


def _setup_of(options: GameSetup) -> _Setup:
    o = options
    return _setup(o.players, o.deck, o.start_points, o.speeds, o.loaders, o.use_table, o.max_rounds)


_valid_decks = IdentityMemo[tuple[Truck, ...], bool]()


def _check_deck(deck: Sequence[Truck]) -> tuple[Truck, ...]:
    """``deck`` as a tuple of distinct trucks (checked once per deck object)."""
    if isinstance(deck, tuple) and _valid_decks.get(deck):
        return deck
    trucks = trucks_arg(deck, "Game: deck")
    if len(set(trucks)) != len(trucks):
        raise PackingError("the deck holds the same truck twice")
    _valid_decks.put(trucks, True)
    return trucks


def _check_options(
    players: int,
    deck: Sequence[Truck],
    start_points: int,
    speeds: Sequence[int | Fraction] | None,
    loaders: Sequence[Loader | None] | None,
) -> tuple[tuple[Truck, ...], tuple[Fraction, ...] | None, tuple[Loader | None, ...]]:
    players_arg(players)
    if start_points < 1:
        raise PackingError(f"start_points must be at least 1, not {start_points!r}")
    trucks = _check_deck(deck)
    deck_size_check(trucks, players)
    weights: tuple[Fraction, ...] | None = None
    if speeds is not None:
        if len(speeds) != players:
            raise PackingError(
                f"speeds {tuple(speeds)!r} must give one weight per player ({players})"
            )
        weights = tuple(
            s if isinstance(s, Fraction) else Fraction(whole_number(s, "each speed"))
            for s in speeds
        )
        if any(s <= 0 for s in weights):
            raise PackingError(f"speeds {tuple(speeds)!r} must all be positive")
    if loaders is None:
        chosen: tuple[Loader | None, ...] = (None,) * players
    else:
        chosen = tuple(loaders)
        if len(chosen) != players:
            raise PackingError(f"{len(chosen)} loaders for {players} players")
        if not all(load is None or callable(load) for load in chosen):
            raise TypeError("loaders must be callables load(cargo, truck) -> LoadPlan, or None")
    return trucks, weights, chosen


def _check_max_rounds(max_rounds: int | None) -> None:
    if max_rounds is None:
        return
    if max_rounds < 1:
        raise PackingError(f"max_rounds must be at least 1 (or None: no cap), not {max_rounds!r}")


def _load(
    setup: _Setup, cargos: tuple[Cargo, ...], taken: tuple[int, ...], trucks: tuple[Truck, ...]
) -> tuple[list[int], list[LoadPlan | None]]:
    """Each player's penalty this round, and the plan their loader gave (None where the
    optimal loading was scored from the table: its plan is solved when first read)."""
    given: list[LoadPlan | None] = []
    penalties: list[int] = []
    table = setup.penalties
    rolled_rows = table.rolled_rows  # table.row's first lookup, written out (4 a round)
    for p, load in enumerate(setup.loaders):
        if load is None:
            row = rolled_rows.get(id(cargos[p]))
            if row is None:
                row = table.row(cargos[p])
            if row is not None:
                penalties.append(row[taken[p]])
                given.append(None)
                continue
            plan = optimal_plan(cargos[p], trucks[p])
        else:
            plan = load(cargos[p], trucks[p])
            if not isinstance(plan, LoadPlan):
                raise TypeError(f"P{p}'s loader returned {type(plan).__name__}, not a LoadPlan")
            if plan.cargo != cargos[p] or plan.truck != trucks[p]:
                raise InvalidPlan(f"P{p}'s loader planned another cargo or truck")
            verify(plan)
        penalties.append(plan.penalty)
        given.append(plan)
    return penalties, given


class Game:
    """A state of a game of Pack & Stack (the :class:`arena.GameState` protocol).

    ``Game(players=4)`` is a new game. Options (keyword-only): ``deck`` (default the sample
    deck), ``start_points`` (75), ``speeds`` (per-player weights of the grab race, default
    equal), ``loaders`` (per-player ``load(cargo, truck) -> LoadPlan``, None for the optimal
    loading; :func:`arena.play` sets them from the policies' ``loader``), ``use_table`` (score
    optimal loadings from the deck's table when there is one; their plans are then solved,
    verified and checked against the table when first read), ``max_rounds`` (None, the rules'
    game: no cap; R ≥ 1: the game ends after round R at the latest, on the standings then —
    a project decision, see ``docs/rules/pack-and-stack.md``; checked only as a round ends).

    >>> state = Game(players=2)
    >>> state.current_player() == arena.CHANCE, len(state.chance_outcomes())
    (True, 900)
    """

    __slots__ = (
        "_setup",
        "_round",
        "_phase",
        "_step",
        "_points",
        "_cargos",
        "_revealed",
        "_front",
        "_taken",
        "_sources",
        "_order",
        "_pile",
        "_discards",
        "_rounds",
        "_events",
    )

    def __init__(
        self,
        players: int = 4,
        *,
        deck: Sequence[Truck] = SAMPLE_DECK,
        start_points: int = START_POINTS,
        speeds: Sequence[int | Fraction] | None = None,
        loaders: Sequence[Loader | None] | None = None,
        use_table: bool = True,
        max_rounds: int | None = None,
    ) -> None:
        players = whole_number(players, "players")
        start_points = whole_number(start_points, "start_points")
        if max_rounds is not None:
            max_rounds = whole_number(max_rounds, "max_rounds")
        trucks, weights, chosen = _check_options(players, deck, start_points, speeds, loaders)
        _check_max_rounds(max_rounds)
        self._setup = _setup(
            players, trucks, start_points, weights, chosen, bool(use_table), max_rounds
        )
        self._round = 1
        self._phase = _ROLL
        self._step = 0
        self._points = (start_points,) * players  # a tuple, shared with records and observations
        self._pile = list(range(len(trucks)))  # deck indices, kept in deck order
        # Kept sorted, as observations show it (and as a reshuffle makes it the new pile).
        self._discards: tuple[int, ...] = ()
        self._rounds: list[RoundRecord] = []
        # Compact event tuples (round, kind, data...), worded only when ``events`` is read.
        self._events: list[tuple[Any, ...]] = []
        self._new_round()

    def _new_round(self) -> None:
        n = self._setup.players
        self._cargos: list[Cargo | None] = [None] * n
        self._revealed: list[list[int]] = [[] for _ in range(n)]  # drawn this round
        # The trucks still in front of each player (drawn, not yet taken), as observations show
        # them: set when the draws end, updated by each grab (during the draws, ``_revealed``).
        self._front: tuple[tuple[int, ...], ...] = ((),) * n
        self._taken: list[int | None] = [None] * n
        self._sources: list[Source | None] = [None] * n
        self._order: tuple[int, ...] = ()
        self._phase, self._step = _ROLL, 0

    # --- the protocol -------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self._setup.players

    def seat_policies(self, policies: Sequence[Any]) -> None:
        """Each player loads with the ``loader`` of the policy in its seat (None, or no such
        attribute: the optimal loading). :func:`arena.play` calls this before the first action,
        so loaders follow the policies wherever a tournament seats them."""
        if len(policies) != self._setup.players:
            raise PackingError(f"{len(policies)} policies for {self._setup.players} players")
        loaders = loaders_of(policies)
        if not all(load is None or callable(load) for load in loaders):
            raise TypeError(
                "a policy's loader must be a callable load(cargo, truck) -> LoadPlan, or None"
            )
        s = self._setup
        if loaders != s.loaders:
            o = s.options
            self._setup = _setup(
                o.players, o.deck, o.start_points, o.speeds, loaders, o.use_table, o.max_rounds
            )

    @property
    def setup(self) -> GameSetup:
        """The options this game was created with."""
        return self._setup.options

    def batch_engine(self) -> Engine | None:
        """The batched engine of this game's options (:class:`packing.batch.Engine`), or None
        where it does not apply: grab speeds, loaders, ``use_table=False``, or a deck without
        an optimal table (the engine scores every loading from the table)."""
        from packing.batch import Engine  # the engine imports the bots, which import the game
        from packing.table import find_table

        o = self._setup.options
        if o.speeds is not None or any(o.loaders) or not o.use_table:
            return None
        if find_table(o.deck) is None:
            return None
        return Engine(o.players, deck=o.deck, start_points=o.start_points, max_rounds=o.max_rounds)

    def grab_actions(self) -> tuple[tuple[Grab, ...], ...]:
        """Every grab of a truck in front of a player that this game's ``legal_actions`` can
        hand out, by owner and deck position (``[owner][j]``): the very objects, made once and
        shared by every game of equal options, so they can be recognised by identity."""
        return self._setup.grabs

    @property
    def first_roller(self) -> int:
        """Who rolls first this round (rotates each round)."""
        return (self._round - 1) % self._setup.players

    def current_player(self) -> int:
        phase = self._phase
        if phase == _GRAB:
            return self._order[self._step]
        if phase == _OVER:
            return TERMINAL
        return CHANCE

    def is_chance_node(self) -> bool:
        return self._phase < _GRAB

    def is_terminal(self) -> bool:
        return self._phase == _OVER

    def chance_outcomes(self) -> Sequence[tuple[Any, Fraction]]:
        phase = self._phase
        if phase == _ROLL:
            return roll_outcomes()
        if phase == _DRAW or phase == _TOP:
            size = len(self._pile) or len(self._discards)
            return _DRAWS[size] if size < len(_DRAWS) else _draw_outcomes(size)
        if phase == _ORDER:
            return self._setup.orders
        return ()

    def legal_actions(self) -> Sequence[Any]:
        phase = self._phase
        if phase == _GRAB:
            player = self._order[self._step]
            if self._step == self._setup.players - 1:
                return [PILE]  # the last grabber must take the pile
            grabs = self._setup.grabs
            # A plain loop: a nested comprehension costs a frame more, at every decision.
            out = []
            for owner, trucks in enumerate(self._front):
                if owner != player:
                    of_owner = grabs[owner]
                    for j in trucks:
                        out.append(of_owner[j])
            out.append(PILE)
            return out
        if phase == _OVER:
            return []
        return [action for action, _ in self.chance_outcomes()]

    def apply_action(self, action: Any) -> None:
        phase = self._phase
        if phase == _DRAW:  # the phases in order of how often they come: 8 draws a round, ...
            setup = self._setup
            player = (self._round - 1 + self._step // setup.draws_each) % setup.players
            j = self._draw(action)
            self._revealed[player].append(j)
            self._events.append((self._round, "draw", player, j))
            self._step += 1
            if self._step == setup.draws:
                self._phase, self._step = _ORDER, 0
                self._front = tuple(map(tuple, self._revealed))
        elif phase == _ROLL:  # ... 4 rolls, ...
            if id(action) not in _roll_ids() and action not in _roll_set():
                raise PackingError(f"not a roll of the dice: {action!r}")
            n = self._setup.players
            player = (self._round - 1 + self._step) % n  # from the first roller on
            self._cargos[player] = action
            self._events.append((self._round, "roll", player, action))
            self._step += 1
            if self._step == n:
                self._phase, self._step = _DRAW, 0
        elif phase == _GRAB:  # ... 4 grabs, ...
            self._grab(action)
        elif phase == _TOP:  # ... one top of the pile per pile grab, one grab order
            player = self._order[self._step]
            j = self._draw(action)
            self._taken[player] = j
            self._sources[player] = FROM_PILE
            self._events.append((self._round, "top", player, j))
            self._step += 1
            if self._step < self._setup.players:
                self._phase = _GRAB
            else:
                self._score()
        elif phase == _ORDER:
            n = self._setup.players
            if not isinstance(action, GrabOrder) or action.order not in _orders_set(n):
                raise PackingError(f"not a grab order of {n} players: {action!r}")
            self._order = action.order
            self._events.append((self._round, "order", action.order))
            self._phase, self._step = _GRAB, 0
        else:
            raise PackingError(f"the game is over; no action applies: {action!r}")

    def _draw(self, action: Any) -> int:
        """Take the truck at the outcome's position from the pile (reshuffling when empty)."""
        pile = self._pile
        if not pile:
            pile = self._pile = list(self._discards)
            self._discards = ()
            self._events.append((self._round, "reshuffle", len(pile)))
        if not isinstance(action, Draw) or not 0 <= action.position < len(pile):
            raise PackingError(f"not a draw from a pile of {len(pile)}: {action!r}")
        return pile.pop(action.position)

    def _grab(self, action: Any) -> None:
        player = self._order[self._step]
        if not isinstance(action, Grab):
            raise PackingError(f"not a grab: {action!r}")
        if action.truck is None:
            self._events.append((self._round, "pile", player))
            self._phase = _TOP
            return
        setup = self._setup
        last = self._step == setup.players - 1
        owner = action.owner
        j = setup.index.get(action.truck)
        front = self._front
        if (
            last
            or owner is None
            or owner == player
            or not 0 <= owner < setup.players
            or j is None
            or j not in front[owner]
        ):
            raise PackingError(f"P{player} may not grab {action}")
        self._taken[player] = j
        fronts, mine = list(front), front[owner]
        at = mine.index(j)
        fronts[owner] = mine[:at] + mine[at + 1 :]
        self._front = tuple(fronts)
        self._sources[player] = setup.sources[owner]
        self._events.append((self._round, "take", player, j, owner))
        self._step += 1  # the next grabber's turn (the last one takes the pile, never this way)

    def _score(self) -> None:
        """Load, score, record the round, discard its trucks; end the game or start a round."""
        setup = self._setup
        n, deck = setup.players, setup.deck
        cargos: tuple[Cargo, ...] = tuple(self._cargos)  # type: ignore[arg-type]  # all rolled
        taken: tuple[int, ...] = tuple(self._taken)  # type: ignore[arg-type]  # all taken
        trucks = tuple([deck[j] for j in taken])
        penalties, given = _load(setup, cargos, taken, trucks)
        low = min(penalties)
        bonus = tuple([p for p in range(n) if penalties[p] == low])
        points = list(self._points)
        for p in range(n):
            points[p] -= penalties[p]
        for p in bonus:
            points[p] += ROUND_WIN_BONUS
        self._points = tuple(points)
        pens = tuple(penalties)
        revealed = tuple(map(tuple, self._revealed))
        # As in ``observation``: the frozen dataclass's fields set straight into its dict.
        record = object.__new__(RoundRecord)
        record.__dict__.update(
            number=self._round,
            first_roller=(self._round - 1) % n,
            cargos=cargos,
            revealed=tuple(map(setup.trucks_at.__getitem__, revealed)),
            grab_order=self._order,
            taken=trucks,
            sources=tuple(self._sources),
            plans=Plans(cargos, trucks, tuple(given), pens),
            penalties=pens,
            bonus=bonus,
            points=self._points,
        )
        self._rounds.append(record)
        self._events.append((self._round, "score"))
        discards = list(self._discards)
        for js in revealed:
            discards += js  # taken and unclaimed trucks alike
        for p, source in enumerate(self._sources):
            if source.owner is None:  # type: ignore[union-attr]  # every player has taken
                discards.append(taken[p])
        discards.sort()
        self._discards = tuple(discards)
        if min(points) <= 0 or self._round == setup.max_rounds:  # the cap: None never equals
            self._new_round()
            self._phase = _OVER
            self._events.append((self._round, "over"))
            return
        self._round += 1
        self._new_round()

    def returns(self) -> list[float]:
        """Everyone's final points; all zeros before the end (the arena protocol's meaning:
        the standings so far are :attr:`points`)."""
        if self._phase != _OVER:
            return [0.0] * self._setup.players
        return [float(x) for x in self._points]

    def winners(self) -> frozenset[int]:
        """The players with the most points at the end (tied players share the win); empty
        before the end."""
        if self._phase != _OVER:
            return frozenset()
        best = max(self._points)
        return frozenset(p for p, x in enumerate(self._points) if x == best)

    @property
    def points(self) -> tuple[int, ...]:
        """Everyone's points now: the standings, during the game and at its end."""
        return self._points

    @property
    def round_records(self) -> tuple[RoundRecord, ...]:
        """The record of every finished round, oldest first."""
        return tuple(self._rounds)

    @property
    def events(self) -> tuple[str, ...]:
        """The log of the game, one line per action (and per score and reshuffle), each player
        called ``P0``, ``P1``, … (:meth:`log` names them otherwise)."""
        return self.log()

    def log(self, names: Sequence[str] | None = None, *, you: int | None = None) -> tuple[str, ...]:
        """:attr:`events` with player ``p`` called ``names[p]`` (``None``: ``P0``, ``P1``, …), and
        the player ``you`` (if any) called "you", as a person playing against bots reads it.

        >>> game = Game(2)
        >>> game.apply_action(game.chance_outcomes()[0][0])
        >>> game.events[0]
        'round 1: P0 rolls 1,0,0,0,0 (1 cube)'
        >>> game.log(["Ann", "the bot"])[0], game.log(you=0)[0]
        ('round 1: Ann rolls 1,0,0,0,0 (1 cube)', 'round 1: you roll 1,0,0,0,0 (1 cube)')
        """
        players = self._setup.players
        called = [f"P{p}" for p in range(players)] if names is None else list(names)
        if len(called) != players:
            raise PackingError(f"{len(called)} names for {players} players")
        if you is not None:
            if not 0 <= you < players:
                raise PackingError(f"you={you!r} is not a player (0 to {players - 1})")
            called[you] = "you"
        return tuple(self._word(event, called, you) for event in self._events)

    def _word(self, event: tuple[Any, ...], names: Sequence[str], you: int | None) -> str:
        number, kind, *data = event
        deck = self._setup.deck
        head = f"round {number}: "

        def does(player: int, verb: str) -> str:
            return f"{names[player]} {verb if player == you else verb + 's'}"

        if kind == "roll":
            return head + f"{does(data[0], 'roll')} {data[1]} ({plural(data[1].volume, 'cube')})"
        if kind == "draw":
            return head + f"{does(data[0], 'draw')} {deck[data[1]].name}"
        if kind == "order":
            return head + "grab order " + ", ".join(names[p] for p in data[0])
        if kind == "pile":
            return head + f"{does(data[0], 'grab')} the pile"
        if kind == "top":
            return head + f"{does(data[0], 'take')} {deck[data[1]].name} from the pile"
        if kind == "take":
            return head + f"{does(data[0], 'take')} {deck[data[1]].name} from {names[data[2]]}"
        if kind == "reshuffle":
            return head + f"the discards ({plural(data[0], 'truck')}) are shuffled into a new pile"
        if kind == "score":
            record = self._rounds[number - 1]
            return head + (
                "penalties "
                + ", ".join(f"{names[p]} {x}" for p, x in enumerate(record.penalties))
                + "; +10 to "
                + ", ".join(names[p] for p in record.bonus)
                + "; points "
                + ", ".join(f"{names[p]} {x}" for p, x in enumerate(record.points))
            )
        winners = sorted(self.winners())
        if len(winners) > 1:
            return "game over: " + ", ".join(names[p] for p in winners) + " share the win"
        return "game over: " + does(winners[0], "win")

    @property
    def round(self) -> int:
        """The number of the round being played (the last one once the game is over)."""
        return self._round

    def trucks(self) -> dict[str, tuple[Truck, ...]]:
        """Where every truck of the deck is now: ``pile``, ``discards``, ``revealed`` (still in
        front of a player) and ``taken`` (by a player this round)."""
        deck = self._setup.deck
        taken = {j for j in self._taken if j is not None}
        return {
            "pile": tuple(deck[j] for j in self._pile),
            "discards": tuple(deck[j] for j in self._discards),
            "revealed": tuple(deck[j] for js in self._revealed for j in js if j not in taken),
            "taken": tuple(deck[j] for j in taken),
        }

    def observation(self, player: int) -> Observation:
        if type(player) is not int or not 0 <= player < self._setup.players:
            player = self._seat(player)
        taken = self._taken
        # Built field by field into the instance's dict: a frozen dataclass's __init__ sets each
        # of 13 fields through object.__setattr__, which costs more than the observation's
        # contents at the 4 decisions of every round. Same value, same equality and pickling.
        seen = object.__new__(Observation)
        seen.__dict__.update(
            player=player,
            round=self._round,
            first_roller=(self._round - 1) % self._setup.players,
            start_points=self._setup.start_points,
            points=self._points,
            cargos=tuple(self._cargos),
            revealed_at=self._front if self._phase != _DRAW else tuple(map(tuple, self._revealed)),
            taken_at=tuple(taken),
            grab_order=self._order or None,
            grabbed=self._step if self._phase in (_GRAB, _TOP) else 0,
            pile_at=tuple(self._pile),
            discards_at=self._discards,
            deck=self._setup.deck,
        )
        return seen

    def _seat(self, player: object) -> int:
        """``player`` as a seat of this game (a NumPy integer too); else an error quoting it."""
        seat = whole_number(player, "player")
        if not 0 <= seat < self._setup.players:
            raise PackingError(
                f"no player {seat!r}: this game's players are 0 to {self._setup.players - 1}"
            )
        return seat

    def action_to_string(self, action: Any) -> str:
        phase = self._phase
        if phase == _ROLL and isinstance(action, Cargo):
            return f"P{(self.first_roller + self._step) % self.num_players} rolls {action}"
        if phase in (_DRAW, _TOP) and isinstance(action, Draw):
            pool = self._pile or self._discards
            if 0 <= action.position < len(pool):
                return f"{self._setup.deck[pool[action.position]].name} ({action})"
        if phase == _GRAB and isinstance(action, Grab):
            return f"P{self._order[self._step]} grabs {action}"
        return str(action)

    def clone(self) -> Game:
        other = Game.__new__(Game)
        other._setup = self._setup
        other._round, other._phase, other._step = self._round, self._phase, self._step
        other._points = self._points
        other._cargos = list(self._cargos)
        other._revealed = [list(js) for js in self._revealed]
        other._front = self._front
        other._taken = list(self._taken)
        other._sources = list(self._sources)
        other._order = self._order
        other._pile = list(self._pile)
        other._discards = self._discards
        other._rounds = list(self._rounds)
        other._events = list(self._events)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        # ``clone`` copies what changes and shares the immutable rest (the setup, the round
        # records): a deep copy's meaning, without copying 30 trucks and every record. OpenSpiel
        # clones a Python game's state with ``copy.deepcopy`` (see packing.openspiel).
        other = memo[id(self)] = self.clone()
        return other

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in Game.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __getstate__(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in Game.__slots__}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def __str__(self) -> str:
        phase = ("roll", "draw", "grab order", "pile top", "grab", "over")[self._phase]
        points = ", ".join(f"P{p} {x}" for p, x in enumerate(self._points))
        return f"Pack & Stack, {self.num_players} players, round {self._round} ({phase}); points {points}"

    def __repr__(self) -> str:
        return f"<Game {self}>"

    def _repr_html_(self) -> str:
        """Every round as an HTML table, for Jupyter: per player the roll, the truck taken,
        the penalty, the +10 bonus and the points after it; the winners once it is over."""
        from arena.svg import html_table  # imported on use, like every picture

        players = self.num_players
        rows: list[list[object]] = []
        for record in self._rounds:
            cells: list[object] = [record.number]
            for p in range(players):
                truck = record.taken[p].name or str(record.taken[p])
                bonus = " +10" if p in record.bonus else ""
                cells.append(
                    f"{record.cargos[p]} → {truck}: −{record.penalties[p]}{bonus} "
                    f"= {_typeset(record.points[p])}"
                )
            rows.append(cells)
        winners = sorted(self.winners())
        played = len(self._rounds)
        caption = (
            f"Pack & Stack, {players} players, {played} round{'' if played == 1 else 's'} played"
        )
        if winners:
            names = ", ".join(f"P{p}" for p in winners)
            caption += f": {names} {'share the win' if len(winners) > 1 else 'wins'}"
        else:
            caption += "; points " + ", ".join(
                f"P{p} {_typeset(x)}" for p, x in enumerate(self._points)
            )
        return html_table(["round", *(f"P{p}" for p in range(players))], rows, caption=caption)

    def to_dict(self) -> dict[str, object]:
        """The game as JSON-ready data: start points, every round's record, the points and, once
        the game is over, the winners (``packing play --json`` adds the players and the seed)."""
        return {
            "start_points": self._setup.start_points,
            "rounds": [record.to_dict() for record in self._rounds],
            "points": list(self._points),
            "winners": sorted(self.winners()),
        }


def loaders_of(policies: Sequence[Any]) -> tuple[Loader | None, ...]:
    """Each policy's ``loader`` attribute (None — the optimal loading — when it has none)."""
    return tuple(getattr(policy, "loader", None) for policy in policies)


def play_game(
    policies: Sequence[Any],
    *,
    seed: int,
    deck: Sequence[Truck] = SAMPLE_DECK,
    start_points: int = START_POINTS,
    speeds: Sequence[int | Fraction] | None = None,
    use_table: bool = True,
    max_rounds: int | None = None,
) -> Game:
    """Play one game with ``policies`` in seats 0..n-1, each loading with its ``loader``
    (see :meth:`Game.seat_policies`); same seed, same game (:func:`arena.play`).

    >>> from packing import bot
    >>> state = play_game([bot("optimal"), bot("capacity"), bot("random")], seed=1)
    >>> len(state.round_records[-1].points), state.is_terminal()
    (3, True)
    """
    # The command line's rule for every seed (arena.cli.seed): a whole number, 0 or more.
    seed = check_seed(seed, error=PackingError, where="play_game")
    state = Game(
        len(policies),
        deck=deck,
        start_points=start_points,
        speeds=speeds,
        use_table=use_table,
        max_rounds=max_rounds,
    )
    return arena.play(state, policies, seed)


@cache
def _orders_set(players: int) -> frozenset[tuple[int, ...]]:
    return frozenset(itertools.permutations(range(players)))


def game_from_observation(
    observation: Observation, *, max_rounds: int | None = None, use_table: bool = True
) -> Game:
    """A game whose ``observation(p)`` equals ``observation`` for every player ``p`` with the
    observation's ``player`` put in (Pack & Stack hides only the pile's order, which the game
    draws as chance: there is nothing to guess). How a search bot, which sees only its
    observation, gets a state to search from.

    The game has no past: no round records and no events (``round_records`` and ``events``
    are empty), and a truck taken this round counts as taken from the pile (an observation does not
    say where it came from; only this round's record would). The round cap, not part of an
    observation, is ``max_rounds``. Two states have the same observation and are built alike:
    a pile grab waiting for its truck (a chance node) gives the grab's state; a game ended by
    its round cap gives the start of its last round.

    >>> state = Game(players=3)
    >>> for outcome in [Cargo((3, 2, 3, 0, 1))] * 3 + [Draw(0)] * 6 + [GrabOrder((2, 0, 1))]:
    ...     state.apply_action(outcome)
    >>> game_from_observation(state.observation(2)).observation(2) == state.observation(2)
    True
    """
    n = len(observation.points)
    deck = observation.deck
    state = Game(
        n,
        deck=deck,
        start_points=observation.start_points,
        use_table=use_table,
        max_rounds=max_rounds,
    )
    places = sorted(
        [
            *observation.pile_at,
            *observation.discards_at,
            *(j for js in observation.revealed_at for j in js),
            *(j for j in observation.taken_at if j is not None),
        ]
    )
    if places != list(range(len(deck))):
        raise PackingError(
            f"an observation must place every truck of its deck once (positions 0.."
            f"{len(deck) - 1}), not at {places}"
        )
    state._round = observation.round
    state._points = tuple(observation.points)
    state._cargos = list(observation.cargos)
    state._revealed = [list(js) for js in observation.revealed_at]
    state._front = tuple(tuple(js) for js in observation.revealed_at)
    state._taken = list(observation.taken_at)
    state._sources = [None if j is None else FROM_PILE for j in observation.taken_at]
    state._order = observation.grab_order or ()
    state._pile = list(observation.pile_at)
    state._discards = tuple(observation.discards_at)
    rolled = sum(cargo is not None for cargo in observation.cargos)
    drawn = sum(len(js) for js in observation.revealed_at)
    if observation.grab_order is not None:
        state._phase, state._step = _GRAB, observation.grabbed
    elif rolled == 0 and min(observation.points) <= 0:
        state._phase, state._step = _OVER, 0
    elif rolled < n:
        state._phase, state._step = _ROLL, rolled
    elif drawn < n * state._setup.draws_each:
        state._phase, state._step = _DRAW, drawn
    else:
        state._phase, state._step = _ORDER, 0
    return state


def _typeset(number: int) -> str:
    """``number`` with the minus sign the penalties are written with (U+2212), so a table
    never shows two different signs for negatives."""
    return f"−{-number}" if number < 0 else str(number)
