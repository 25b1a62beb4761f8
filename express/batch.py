"""Yardmaster Express as a batched engine (:mod:`arena.batch`): many drafts of one setup held
as NumPy arrays and stepped together, with the ``random`` and ``greedy`` bots as vector
policies.

>>> import numpy as np
>>> from express import Game, bot
>>> engine = Game(3, caboose="random").batch_engine()
>>> policies = [engine.vector_policy(bot("random")), engine.vector_policy(bot("greedy"))]
>>> seating = np.array([[0, 1, 1], [1, 0, 0], [1, 1, 0]])
>>> result = engine.play(seating, policies, np.arange(3), np.random.default_rng(1))
>>> result.returns.shape, result.winners.sum(axis=1).tolist()
((3, 3), [1, 1, 1])

Every rule is the rules modules': the deck and its kinds (the distinct cards in the order they
first appear, as the game and the codec's action ids number them), the hand size and rounds
(:mod:`express.rules`, whose checks the options pass as :class:`express.Game`'s), the car values, the connection rule, the
run rule, each caboose's points and kind (:data:`express.CABOOSES`) and the tie-break
(:func:`express.score_game`, following the direction of play as :meth:`express.Game.score`
does). Each caboose's condition is written again here over arrays (a caboose condition is
Python code on one train); the tests compare every one with the scalar game, game by game.

Chance
------
Express's chance never depends on a decision: the caboose, then the cards in the order the
deck gives them. A batch therefore draws each game's whole deck order when the game starts,
from one of two sources:

- **A generator** (``new_batch(games=..., rng=..., deals=...)``): one uniformly shuffled deck
  (and one caboose, for ``"random"``) per deal, shared by the games of equal ``deals[g]`` and
  hashed from the deal (:class:`arena.batch.SharedChance`), so a deal is the same in any batch.
  A uniform shuffle is the distribution of the scalar game's successive draws (each distinct
  card left with probability copies / cards left).
- **Per-game streams** (``new_batch(streams=...)``, :func:`arena.batch.seeded`): each game's draws are the
  very draws :func:`arena.play` makes for the same seed — :func:`arena.sampling.sampler_for`
  over the outcome lists :meth:`express.Game.chance_outcomes` gives, reading the same raw words
  — and its random policy draws from the game's own policy generator as
  :class:`arena.RandomPolicy` does. A seeded batch game is the scalar game of that seed.

A batch's actions are the codec's ids (:class:`express.codec.ExpressCodec`: ``2 × kind``
face up, ``2 × kind + 1`` face down), and :meth:`Batch.observations` is the codec's tensor, so
a batch agrees with the PettingZoo and Gymnasium environments.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from arena import TERMINAL
from arena.batch import BatchResult, SharedChance, Streams
from arena.batch import VectorPolicy as AnyVectorPolicy
from arena.play import RandomPolicy
from arena.protocol import Policy
from arena.sampling import sampler_for
from arena.values import whole_number
from express.cabooses import CABOOSES, Caboose, CabooseKind, caboose_named
from express.cards import Card, Color, checked_card, deck_for
from express.deck import parse_deck
from express.errors import ExpressError, IllegalPlayError, RulesError, type_error
from express.rules import (
    FACE_DOWN_VALUE,
    WILD_CAR_VALUE,
    check_players,
    hand_size_for,
    rounds_for,
)
from express.scoring import PlayerScore
from express.train import Play, Train

__all__ = [
    "Batch",
    "Engine",
    "Position",
    "VectorGreedy",
    "VectorRandom",
]

IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

_COLORS = tuple(Color)
_WILD = -1  # the colour code of a wild car (a card back, the engine)
# The columns of a batch's train facts.
_COLOR, _VALUE, _TRAIL, _LONGEST, _POINTS = range(5)
_FACTS = 5


@dataclass(frozen=True)
class VectorRandom:
    """Express's ``random`` bot (and :class:`arena.RandomPolicy`) over a batch: a uniformly
    drawn legal action in every game asked."""

    name: str = "random"

    def act(self, batch: Batch, where: BoolArray) -> IntArray:
        """The action id of each game with ``where``, in order."""
        return batch.random_actions(where)[where]


@dataclass(frozen=True)
class VectorGreedy:
    """Express's ``greedy`` bot over a batch: the play with the highest immediate gain in train
    value plus longest run; ties face up first, then the first in the legal order."""

    name: str = "greedy"

    def act(self, batch: Batch, where: BoolArray) -> IntArray:
        """The action id of each game with ``where``, in order."""
        return batch.greedy_actions(where)[where]


VectorPolicy = VectorRandom | VectorGreedy
"""The vector policies of an :class:`Engine`."""


class Position(Protocol):
    """What :meth:`Engine.positions` reads of a position: the fields of an
    :class:`express.Game` of the same names."""

    players: int
    deck: tuple[Card, ...]
    rounds: int
    start_player: int
    pass_left: bool
    order: tuple[Card, ...] | None
    caboose: Caboose | None
    caboose_pending: bool
    turn: int
    hand: list[int]
    trains: list[Train]
    seen: list[set[int]]

    def is_terminal(self) -> bool:
        """True once the game is over."""
        ...


# -- the cabooses over arrays -----------------------------------------------------------------


class _Rows:
    """The rows of cars of finished trains, ``(games, players, cars)`` arrays: colour codes
    (:data:`_WILD` for a wild car) and values, with the measures the conditions share."""

    def __init__(self, colors: npt.NDArray[np.int8], values: npt.NDArray[np.int8]) -> None:
        self.colors = colors
        self.values = values
        self.counts = np.stack(
            [(colors == c).sum(axis=2) for c in range(len(_COLORS))], axis=2
        )  # cars per colour
        coloured = colors[:, :, :-1] != _WILD
        # same[i]: cars i and i + 1 are of one colour: a run of at least 2 passes there.
        self.same = coloured & (colors[:, :, :-1] == colors[:, :, 1:])
        self.wild = colors == _WILD


def _window(pattern: tuple[int, ...]) -> Callable[[_Rows], BoolArray]:
    def test(rows: _Rows) -> BoolArray:
        values = rows.values
        length = values.shape[2] - len(pattern) + 1
        if length <= 0:
            return np.zeros(values.shape[:2], np.bool_)
        found = np.ones((*values.shape[:2], length), np.bool_)
        for offset, value in enumerate(pattern):
            found &= values[:, :, offset : offset + length] == value
        met: BoolArray = np.asarray(found.any(axis=2), np.bool_)
        return met

    return test


def _long_runs(rows: _Rows) -> IntArray:
    same = rows.same
    starts = same.copy()
    starts[:, :, 1:] &= ~same[:, :, :-1]
    runs: IntArray = starts.sum(axis=2).astype(np.intp)
    return runs


# Each caboose's condition over arrays. An absolute one gives its verdict per train; a
# relative one gives (eligible, measure) per train, compared by the caboose's own kind. The
# numbers are the conditions' (express.cabooses), the Sequence patterns read from the caboose.
_ABSOLUTE: dict[str, Callable[[_Rows], BoolArray]] = {
    "Two-Timer": lambda r: (r.counts == 3).sum(axis=2) >= 2,
    "Lightweight": lambda r: ~(r.values == 4).any(axis=2),
    "Specialized": lambda r: (r.counts == 5).any(axis=2),
    "Efficient": lambda r: (r.colors[:, :, 0::2] == r.colors[:, :, 1::2]).all(axis=2),
    "End of Line": lambda r: r.values[:, :, -1] == 3,
    "Inefficient": lambda r: ~r.same.any(axis=2),
}
_RELATIVE: dict[str, Callable[[_Rows, IntArray, IntArray], tuple[BoolArray, IntArray]]] = {
    "Executive": lambda r, value, bonus: (
        np.ones(value.shape, np.bool_),
        (r.counts > 0).sum(axis=2),
    ),
    "Diversified": lambda r, value, bonus: (np.ones(value.shape, np.bool_), _long_runs(r)),
    "Short Line": lambda r, value, bonus: (np.ones(value.shape, np.bool_), r.counts.max(axis=2)),
    "The Little Engine": lambda r, value, bonus: (np.ones(value.shape, np.bool_), value + bonus),
    "Buried Alive": lambda r, value, bonus: (r.wild.any(axis=2), r.wild.sum(axis=2)),
}


def _caboose_test(caboose: Caboose) -> Callable[[_Rows, IntArray, IntArray], BoolArray] | None:
    """The winners of ``caboose`` over rows (None: a caboose this module does not model)."""
    relative = _RELATIVE.get(caboose.name)
    if relative is not None and caboose.is_relative:
        most = caboose.kind is CabooseKind.MOST

        def judge(rows: _Rows, value: IntArray, bonus: IntArray) -> BoolArray:
            eligible, measure = relative(rows, value, bonus)
            if most:
                target = np.where(eligible, measure, np.iinfo(np.intp).min).max(axis=1)
            else:
                target = np.where(eligible, measure, np.iinfo(np.intp).max).min(axis=1)
            won: BoolArray = eligible & (measure == target[:, None])
            return won

        return judge
    pattern = getattr(caboose.test, "pattern", None)
    absolute = _ABSOLUTE.get(caboose.name)
    if absolute is None and pattern is not None and caboose.name.startswith("Sequence"):
        absolute = _window(tuple(pattern))
    if absolute is None or caboose.is_relative:
        return None
    test = absolute
    return lambda rows, value, bonus: test(rows)


_CABOOSE_TESTS = tuple(_caboose_test(caboose) for caboose in CABOOSES)
_CABOOSE_POINTS = np.array([caboose.points for caboose in CABOOSES], np.int16)
_CABOOSE_INDEX = {caboose.name: index for index, caboose in enumerate(CABOOSES)}
# The caboose draw's outcome list: Game.chance_outcomes' (1 / 16 each, in CABOOSES' order).
_CABOOSE_SAMPLER = sampler_for(
    tuple((index, Fraction(1, len(CABOOSES))) for index in range(len(CABOOSES)))
)


# -- the engine -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Engine:
    """The batched engine of one game setup: the options of :class:`express.Game` but a fixed
    deck ``order`` (``caboose`` is None, a caboose's name or ``"random"``). A value: it
    compares, hashes and pickles by its options.

    >>> Engine(2).num_players, Engine(2).num_actions  # 20 kinds in the 2-player deck
    (2, 40)
    """

    players: int = 3
    caboose: str | None = None
    deck: tuple[Card, ...] = ()
    rounds: int = 0
    start_player: int = 0
    pass_left: bool = True
    _tables: _Tables = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # The scalar game's checks, with the rules' own functions.
        players = check_players(self.players)
        caboose = self.caboose
        if isinstance(caboose, Caboose):
            caboose = caboose.name
        if caboose is not None:
            if not isinstance(caboose, str):
                raise type_error("Engine: caboose", "a caboose's name, 'random' or None", caboose)
            caboose = (
                "random" if caboose.strip().lower() == "random" else caboose_named(caboose).name
            )
            if caboose != "random" and _CABOOSE_TESTS[_CABOOSE_INDEX[caboose]] is None:
                raise ExpressError(f"the batched engine does not model the caboose {caboose!r}")
        given: Iterable[Card] | str = self.deck
        if isinstance(given, str):
            given = parse_deck(given)
        deck = tuple(given) or deck_for(players)
        for card in deck:
            checked_card(card, "Engine: deck")
        rounds = whole_number(self.rounds, "rounds", where="Engine") or rounds_for(players)
        if rounds < 1:
            raise RulesError(f"invalid rounds: {rounds!r} (a game has at least 1 round)")
        needed = hand_size_for(players) + players * rounds
        if len(deck) < needed:
            raise RulesError(
                f"deck too small: {len(deck)} cards, {players} players over {rounds} rounds "
                f"use {needed}"
            )
        start = whole_number(self.start_player, "start_player", where="Engine")
        if not 0 <= start < players:
            raise RulesError(
                f"invalid start player: {start!r} (players are numbered 0..{players - 1})"
            )
        if not isinstance(self.pass_left, bool):
            raise type_error("Engine: pass_left", "a bool", self.pass_left)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "caboose", caboose)
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "rounds", rounds)
        object.__setattr__(self, "start_player", start)
        object.__setattr__(self, "_tables", _Tables(self))

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (
            Engine,
            (self.players, self.caboose, self.deck, self.rounds, self.start_player, self.pass_left),
        )

    @property
    def num_players(self) -> int:
        """The players of every game."""
        return self.players

    @property
    def num_actions(self) -> int:
        """The codec's action ids: two per card kind of the deck."""
        return 2 * self._tables.kinds

    def vector_policy(self, policy: Policy) -> VectorPolicy | None:
        """:class:`VectorRandom` for express's ``random`` bot and :class:`arena.RandomPolicy`,
        :class:`VectorGreedy` for the ``greedy`` bot; None for any other bot (a search bot, a
        subclass that may play otherwise).

        >>> from express import bot
        >>> Engine(3).vector_policy(bot("search")) is None
        True
        """
        if type(policy) is RandomPolicy:
            return VectorRandom(policy.name)
        # Express's bots name their batched form (a subclass, which may play otherwise, none).
        batched = getattr(policy, "batched", None)
        form = batched() if callable(batched) else None
        return form if isinstance(form, (VectorRandom, VectorGreedy)) else None

    def new_batch(
        self,
        games: int | None = None,
        *,
        rng: np.random.Generator | None = None,
        deals: npt.ArrayLike | None = None,
        streams: Streams | None = None,
    ) -> Batch:
        """``games`` new games whose chance comes from ``rng`` (games of equal ``deals[g]``
        share it; None: every game its own deal), or one game per stream of ``streams``, each
        drawing exactly what :func:`arena.play` draws with those streams
        (:func:`arena.batch.seeded`)."""
        if streams is not None:
            if rng is not None or deals is not None:
                raise ExpressError("new_batch: give streams, or rng and deals, not both")
            count = len(streams.chance) if games is None else games
            if count != len(streams.chance):
                raise ExpressError(f"new_batch: {games} games but {len(streams.chance)} streams")
            batch = Batch(self, count, None, streams)
        else:
            if rng is None:
                raise ExpressError("new_batch: give rng (with games) or streams")
            if games is None:
                if deals is None:
                    raise ExpressError("new_batch: give games or deals")
                games = len(np.asarray(deals))
            numbers = np.arange(games) if deals is None else np.asarray(deals, np.int64)
            if numbers.shape != (games,):
                raise ExpressError(f"deals of shape {numbers.shape}, not ({games},)")
            batch = Batch(self, games, SharedChance(rng, numbers), None)
        batch._restart(np.arange(batch.num_games))  # noqa: SLF001  (the batch's own start)
        return batch

    def action_id(self, play: Play) -> int:
        """The codec's id of ``play`` (``2 × kind``, + 1 face down), a batch's action.

        >>> from express import Play
        >>> Engine(3).action_id(Play.parse("~B2|B2"))
        1
        """
        kind = self._tables.kind_of.get(play.card)
        if kind is None:
            raise ExpressError(f"card not in the deck: {str(play.card)!r}")
        return 2 * kind + (0 if play.face_up else 1)

    def positions(self, states: Sequence[Position], copies: int = 1) -> Batch:
        """A batch holding ``copies`` copies of each of ``states`` in turn (game ``g`` is
        ``states[g // copies]``): positions of this setup whose deck order is known (an
        :class:`express.Game` with ``order``, such as a sampled world of
        :mod:`express.worlds`), each waiting at a player's decision. Chance is then over:
        every draw is the order's. A search's playouts from many positions run as one batch.

        >>> from express import Game, deck_for
        >>> world = Game(2, order=deck_for(2))
        >>> Engine(2).positions([world], copies=3).legal_mask().sum(axis=1).tolist()
        [4, 4, 4]
        """
        t = self._tables
        copies = whole_number(copies, "copies", where="Engine.positions", low=1)
        batch = Batch(self, len(states) * copies, None, None)
        kind_of = t.kind_of
        for index, state in enumerate(states):
            self._check_position(state)
            assert state.order is not None
            rows = slice(index * copies, (index + 1) * copies)
            batch.order[rows] = [kind_of[card] for card in state.order[: t.draws]]
            name = None if state.caboose is None else state.caboose.name
            batch.caboose[rows] = -1 if name is None else _CABOOSE_INDEX[name]
            batch.turn[rows] = state.turn
            batch.hand[rows] = state.hand
            for seat, train in enumerate(state.trains):
                for place, play in enumerate(train.plays):
                    batch.train_kind[rows, seat, place] = kind_of[play.card]
                    batch.train_down[rows, seat, place] = not play.face_up
                last = train.last_car
                runs = train.runs
                trail = (
                    runs[-1].length
                    if runs and runs[-1].start + runs[-1].length == len(train.cars)
                    else 0
                )
                batch.facts[rows, seat] = (
                    _WILD if last.color is None else _COLORS.index(last.color),
                    last.value,
                    trail,
                    train.longest_run,
                    train.value,
                )
                batch.seen[rows, seat, sorted(state.seen[seat])] = True
        batch.hand_kind[:] = np.take_along_axis(batch.order, batch.hand, 1)
        return batch

    def _check_position(self, state: Position) -> None:
        setup = (
            state.players,
            state.deck,
            state.rounds,
            state.start_player,
            state.pass_left,
        )
        mine = (self.players, self.deck, self.rounds, self.start_player, self.pass_left)
        if setup != mine or state.order is None or state.caboose_pending:
            raise ExpressError(
                "Engine.positions: a position of this setup with a known deck order and its "
                "caboose drawn is expected"
            )
        caboose = None if state.caboose is None else state.caboose.name
        if self.caboose != "random" and caboose != self.caboose:
            raise ExpressError(
                f"Engine.positions: the position's caboose {caboose!r} is not the engine's "
                f"{self.caboose!r}"
            )
        if state.is_terminal():
            raise ExpressError("Engine.positions: the game is over (no decision to batch)")

    def summarises(self, summarise: Callable[[Any], Hashable]) -> bool:
        """Whether ``summarise`` works out its summaries from a batch too: a hook with a
        ``from_batch(batch)`` (:func:`express.decisive` has one)."""
        return callable(getattr(summarise, "from_batch", None))

    def play(
        self,
        seating: npt.NDArray[np.intp],
        policies: Sequence[AnyVectorPolicy],
        deals: npt.NDArray[np.intp],
        rng: np.random.Generator,
        summarise: Callable[[Any], Hashable] | None = None,
    ) -> BatchResult:
        """Play ``len(seating)`` games to the end (:meth:`arena.batch.BatchEngine.play`), with
        the summaries of ``summarise``'s ``from_batch`` when it is given."""
        if summarise is not None and not self.summarises(summarise):
            raise ExpressError(f"the batched engine cannot summarise with {summarise!r}")
        batch = self.new_batch(len(seating), rng=rng, deals=deals)
        result = batch.run(seating, policies)
        if summarise is None:
            return result
        summaries = tuple(summarise.from_batch(batch))  # type: ignore[attr-defined]
        return BatchResult(result.returns, result.winners, summaries)


class _Tables:
    """An engine's arrays, worked out once from its options."""

    def __init__(self, engine: Engine) -> None:
        # The kinds: the deck's distinct cards in the order they first appear, as the game and
        # its codec number them (identical cards are one kind, one chance outcome).
        counts = Counter(engine.deck)
        cards = tuple(counts)
        self.cards = cards
        self.kind_of = {card: kind for kind, card in enumerate(cards)}
        self.kinds = len(cards)
        self.copies = np.array([counts[card] for card in cards], np.int16)
        self.players = engine.players
        self.hand_size = hand_size_for(engine.players)
        self.rounds = engine.rounds
        self.turns = engine.players * engine.rounds
        self.draws = self.hand_size + self.turns  # cards a game takes from the deck
        self.start = engine.start_player
        self.step = 1 if engine.pass_left else -1
        self.pass_left = engine.pass_left
        self.caboose = (
            -2
            if engine.caboose == "random"
            else (-1 if engine.caboose is None else _CABOOSE_INDEX[engine.caboose])
        )
        self.left_color = np.array([_COLORS.index(c.left.color) for c in cards], np.int8)
        self.right_color = np.array([_COLORS.index(c.right.color) for c in cards], np.int8)
        self.left_value = np.array([c.left.value for c in cards], np.int8)
        self.right_value = np.array([c.right.value for c in cards], np.int8)
        self.value = np.array([c.value for c in cards], np.int16)
        self.mono = self.left_color == self.right_color
        # The physical cards of the deck as kinds, for a shuffle.
        self.physical = np.repeat(np.arange(self.kinds, dtype=np.int16), self.copies)
        seats = np.arange(self.players)
        # A seat's place in the order of play, from the start player: the tie-break's key.
        self.play_position = (self.step * (seats - self.start)) % self.players
        layout = [
            ("player", self.players),
            ("start", self.players),
            ("pass", 1),
            ("turn", self.turns + 1),
            ("drawn", self.hand_size + self.turns + 1),
            ("caboose", len(CABOOSES)),
            ("deck", self.kinds),
            ("hand", self.kinds),
            ("seen", self.kinds),
            ("trains", self.players * self.rounds * (2 * self.kinds + 1)),
        ]
        self.offset: dict[str, int] = {}
        at = 0
        for name, width in layout:
            self.offset[name] = at
            at += width
        self.size = at


def _draw_kind(left: list[int], raw: Callable[[], int]) -> int:
    """A card kind drawn from the deck's ``left`` counts exactly as :class:`arena.sampling.Sampler`
    draws from :meth:`express.Game.chance_outcomes`' list (each kind left, copies / cards left,
    in the deck's order), without building one: the sampler's common denominator is the cards
    left over the counts' greatest common divisor, an integer below it is drawn from the raw
    words by the same rejection, and the kind is the first whose running count passes it."""
    kinds = [kind for kind, count in enumerate(left) if count]
    counts = [left[kind] for kind in kinds]
    common = math.gcd(*counts)
    denominator = sum(counts) // common
    if denominator == 1:  # one kind left: the sampler draws no word
        return kinds[0]
    limit = _SPAN - _SPAN % denominator
    r = raw()
    while r >= limit:
        r = raw()
    r %= denominator
    cumulative = list(itertools.accumulate(count // common for count in counts))
    return kinds[bisect.bisect_right(cumulative, r)]


_SPAN = 1 << 64


class Batch:
    """Games of one :class:`Engine` in progress (:class:`arena.batch.Batch`); make one with
    :meth:`Engine.new_batch` or :meth:`Engine.positions`. Every game waits at a player's
    decision or is over.

    Besides the protocol's readers (and :meth:`trains`, :meth:`scores`), the state is in plain
    arrays, one row a game, cards as kinds (the deck's distinct cards in order): ``order`` (the
    cards the game draws, in order, the deal first), ``caboose`` (an index into
    :data:`express.CABOOSES`, -1 without), ``turn``, ``hand`` (the hand as indices into
    ``order``, in the order the cards joined it) and ``hand_kind``, ``seen[g, seat, i]`` (card
    ``i`` of ``order`` passed through the seat's hands), ``train_kind`` and ``train_down``
    (per seat and place; -1 for a place not played yet), ``facts`` (per seat: the last car's
    colour code, -1 when wild, and value, the run ending there, the longest run, the train
    value), and once a game is over ``run_bonus``, ``caboose_points`` and ``winner``. Read
    them; change a batch only through :meth:`apply` and :meth:`reset`.
    """

    def __init__(
        self,
        engine: Engine,
        games: int,
        chance: SharedChance | None,
        streams: Streams | None,
    ) -> None:
        if games < 0:
            raise ExpressError(f"invalid games: {games!r}")
        t = engine._tables
        self.engine = engine
        self._t = t
        self._shared = chance
        # Each game's (chance words, policy generator), with streams; None for a position's
        # batch, whose chance is over.
        self._streams: list[tuple[Callable[[], int], np.random.Generator]] | None = (
            None if streams is None else list(zip(streams.chance, streams.policy))
        )
        # With streams, each game's cards left in the deck, by kind (a draw's sampler's key).
        self._left: list[list[int]] = [[] for _ in range(games)]
        G, P, R, D = games, t.players, t.rounds, t.draws
        self._games = games
        self.order = np.zeros((G, D), np.int16)  # the kinds drawn, in order (the deal first)
        self.caboose = np.full(G, -1, np.int8)  # index into CABOOSES, -1 without
        self.turn = np.zeros(G, np.int16)
        self.hand = np.zeros((G, t.hand_size + 1), np.int16)  # drawn indices, in joining order
        self.seen = np.zeros((G, P, D), np.bool_)
        self.train_kind = np.full((G, P, R), -1, np.int16)
        self.train_down = np.zeros((G, P, R), np.bool_)
        # Each train's running facts, one array (one gather and one scatter a step): the last
        # car's colour code and value, the run ending there, the longest run, the train value.
        self.facts = np.zeros((G, P, _FACTS), np.int16)
        self.hand_kind = np.zeros((G, t.hand_size + 1), np.int16)  # the hand's kinds
        self._plays: tuple[IntArray, BoolArray] | None = None
        self.run_bonus = np.zeros((G, P), np.int16)
        self.caboose_points = np.zeros((G, P), np.int16)
        self.winner = np.full(G, -1, np.int8)

    # -- the protocol ------------------------------------------------------------------------

    @property
    def num_games(self) -> int:
        """The games of the batch."""
        return self._games

    def _seat(self, turn: npt.NDArray[np.int16]) -> IntArray:
        t = self._t
        seats: IntArray = (t.start + t.step * turn.astype(np.intp)) % t.players
        return seats

    def to_play(self) -> IntArray:
        """Each game's seat to act, or :data:`arena.TERMINAL` where the game is over."""
        over = self.turn >= self._t.turns
        return np.where(over, TERMINAL, self._seat(self.turn)).astype(np.intp)

    def is_over(self) -> BoolArray:
        """Which games are over."""
        over: BoolArray = self.turn >= self._t.turns
        return over

    def _rows(self, where: BoolArray) -> tuple[IntArray, slice | IntArray]:
        """The games of ``where``, as indices and as what selects them (a slice for every
        game: views instead of copies in the common case of a batch stepped in lockstep)."""
        rows = np.flatnonzero(np.asarray(where, np.bool_))
        return rows, (slice(None) if len(rows) == self._games else rows)

    def _candidates(self, rows: IntArray, select: slice | IntArray) -> tuple[IntArray, BoolArray]:
        """The plays of the games ``rows`` (each waiting at a decision) as ``(ids, valid)``,
        ``(games, 2 × hand)``: per card of the hand in kind order, its face-up and face-down
        ids, valid for the first card of each kind (face up when it connects). The valid ids
        of a row, in order, are the scalar game's legal actions in order. Worked out for every
        game once per step (the policies and ``apply`` both ask)."""
        if self._plays is None:
            self._plays = self._all_candidates()
        ids, valid = self._plays
        return ids[select], valid[select]

    def _all_candidates(self) -> tuple[IntArray, BoolArray]:
        t = self._t
        kinds = np.sort(self.hand_kind, axis=1).astype(np.intp)
        first = np.ones(kinds.shape, np.bool_)
        first[:, 1:] = kinds[:, 1:] != kinds[:, :-1]
        first &= (self.turn < t.turns)[:, None]
        seat = self._seat(self.turn)
        facts = self.facts[np.arange(self._games), seat]
        color = facts[:, _COLOR, None]
        connects = (
            (color == _WILD)
            | (t.left_color[kinds] == color)
            | (t.left_value[kinds] == facts[:, _VALUE, None])
        )
        ids = np.empty((self._games, 2 * kinds.shape[1]), np.intp)
        ids[:, 0::2] = 2 * kinds
        ids[:, 1::2] = 2 * kinds + 1
        valid = np.empty(ids.shape, np.bool_)
        valid[:, 0::2] = first & connects
        valid[:, 1::2] = first
        return ids, valid

    def legal_mask(self) -> BoolArray:
        """``(games, actions)``: the legal action ids of each game's player to act (all False
        once a game is over); ids in increasing order are the scalar game's legal order."""
        mask = np.zeros((self._games, 2 * self._t.kinds), np.bool_)
        rows, select = self._rows(~self.is_over())
        if len(rows):
            ids, valid = self._candidates(rows, select)
            mask[np.broadcast_to(rows[:, None], ids.shape)[valid], ids[valid]] = True
        return mask

    def apply(self, actions: IntArray, where: BoolArray) -> None:
        """The player to act in each game ``g`` with ``where[g]`` plays ``actions[g]``; an
        illegal id (or a game already over) raises, naming the game."""
        t = self._t
        rows, select = self._rows(where)
        if not len(rows):
            return
        chosen = np.asarray(actions, np.intp)[select]
        turn = self.turn[select].astype(np.intp)
        over = turn >= t.turns
        if over.any():
            raise IllegalPlayError(f"game {int(rows[over][0])} is over: no more actions")
        ids, valid = self._candidates(rows, select)
        legal = ((ids == chosen[:, None]) & valid).any(axis=1)
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise IllegalPlayError(
                f"game {int(rows[bad])}: action {int(chosen[bad])} is not legal "
                f"(legal: {ids[bad][valid[bad]].tolist()})"
            )
        kind = chosen >> 1
        up = (chosen & 1) == 0
        seat = (t.start + t.step * turn) % t.players
        place = turn // t.players
        self.train_kind[rows, seat, place] = kind
        self.train_down[rows, seat, place] = ~up
        # The train's running facts: its last car, the run ending there, its longest, value.
        facts = self.facts[rows, seat]
        color = facts[:, _COLOR]
        trail = facts[:, _TRAIL]
        joined = (color != _WILD) & (t.left_color[kind] == color)
        through_left = np.where(joined, trail + 1, 1)
        mono = t.mono[kind]
        run = np.where(mono, through_left + 1, through_left)
        facts[:, _LONGEST] = np.where(up, np.maximum(facts[:, _LONGEST], run), facts[:, _LONGEST])
        facts[:, _TRAIL] = np.where(up, np.where(mono, run, 1), 0)
        facts[:, _COLOR] = np.where(up, t.right_color[kind], _WILD)
        facts[:, _VALUE] = np.where(up, t.right_value[kind], WILD_CAR_VALUE)
        facts[:, _POINTS] += np.where(up, t.value[kind], FACE_DOWN_VALUE).astype(np.int16)
        self.facts[rows, seat] = facts
        # The hand: the first card of the kind played leaves it, the next draw joins at the end.
        hand = self.hand[select]
        hand_kind = self.hand_kind[select]
        position = np.argmax(hand_kind == kind[:, None], axis=1)
        columns = np.arange(t.hand_size + 1)
        source = np.minimum(columns + (columns >= position[:, None]), t.hand_size)
        hand = np.take_along_axis(hand, source, 1)
        hand_kind = np.take_along_axis(hand_kind, source, 1)
        drawn = np.minimum(t.hand_size + 1 + turn, t.draws - 1)
        ended = turn + 1 >= t.turns
        if self._streams is not None:  # the next turn's draw, where there is a next turn
            for row, index in zip(rows[~ended].tolist(), drawn[~ended].tolist()):
                self._draw_card(row, index)
        hand[:, t.hand_size] = drawn
        hand_kind[:, t.hand_size] = self.order[rows, drawn]
        self.hand[select] = hand
        self.hand_kind[select] = hand_kind
        self.turn[select] += 1
        self._plays = None
        if ended.any():
            self._see(rows[~ended])
            self._score(rows[ended])
        else:
            self._see(rows)

    def _see(self, rows: IntArray) -> None:
        """The player now holding the hand has seen its cards."""
        if len(rows):
            seat = self._seat(self.turn[rows])
            self.seen[rows[:, None], seat[:, None], self.hand[rows]] = True

    def observations(self, seat: int) -> npt.NDArray[np.float32]:
        """``(games, size)``: the codec's observation tensor of ``seat`` in every game (what
        :meth:`express.codec.ExpressCodec.fill_tensor` writes for that seat's observation)."""
        t = self._t
        if not 0 <= seat < t.players:
            raise ExpressError(f"invalid seat: {seat!r} (0..{t.players - 1})")
        G, K, o = self._games, t.kinds, t.offset
        out = np.zeros((G, t.size), np.float32)
        rows = np.arange(G)
        turn = self.turn.astype(np.intp)
        over = turn >= t.turns
        out[:, o["player"] + seat] = 1.0
        out[:, o["start"] + t.start] = 1.0
        if t.pass_left:
            out[:, o["pass"]] = 1.0
        out[rows, o["turn"] + turn] = 1.0
        out[rows, o["drawn"] + t.hand_size + turn + ~over] = 1.0
        has = self.caboose >= 0
        out[rows[has], o["caboose"] + self.caboose[has]] = 1.0
        out[:, o["deck"] : o["deck"] + K] = t.copies
        holding = np.flatnonzero(~over & (self._seat(self.turn) == seat))
        if len(holding):
            flat = (holding[:, None] * K + self.hand_kind[holding]).ravel()
            counts = np.bincount(flat, minlength=G * K).reshape(G, K)
            out[:, o["hand"] : o["hand"] + K] = counts
        seen = self.seen[:, seat, :]
        flat = (rows[:, None] * K + self.order)[seen]
        out[:, o["seen"] : o["seen"] + K] = np.bincount(flat, minlength=G * K).reshape(G, K)
        kind = self.train_kind.astype(np.intp)
        down = self.train_down
        own = (np.arange(t.players) == seat)[None, :, None]
        column = np.where(~down, kind, np.where(own, K + kind, 2 * K))
        places = np.arange(t.players * t.rounds).reshape(t.players, t.rounds)
        column = column + o["trains"] + places[None] * (2 * K + 1)
        filled = kind >= 0
        g = np.broadcast_to(rows[:, None, None], kind.shape)[filled]
        out[g, column[filled]] = 1.0
        return out

    def returns(self) -> npt.NDArray[np.float64]:
        """``(games, players)``: final totals (train value + run award + caboose), zeros where
        a game is not over."""
        total = self.facts[:, :, _POINTS] + self.run_bonus + self.caboose_points
        result: npt.NDArray[np.float64] = np.where(self.is_over()[:, None], total, 0).astype(
            np.float64
        )
        return result

    def run(self, seating: npt.ArrayLike, policies: Sequence[AnyVectorPolicy]) -> BatchResult:
        """Play every game to its end, seat ``s`` of game ``g`` played by
        ``policies[seating[g, s]]``; the result."""
        t = self._t
        seats = np.asarray(seating, np.intp)
        if seats.shape != (self.num_games, t.players):
            raise ExpressError(
                f"seating of shape {seats.shape} for {self.num_games} games of {t.players} players"
            )
        chosen_policies: list[VectorPolicy] = []
        for policy in policies:
            if not isinstance(policy, (VectorRandom, VectorGreedy)):
                raise ExpressError(f"not a vector policy of express: {policy!r}")
            chosen_policies.append(policy)
        rows = np.arange(self.num_games)
        actions = np.zeros(self.num_games, np.intp)
        while True:
            to_play = self.to_play()
            live = to_play != TERMINAL
            if not live.any():
                break
            chosen = seats[rows, np.where(live, to_play, 0)]
            for index, policy in enumerate(chosen_policies):
                where = live & (chosen == index)
                if where.any():
                    actions[where] = policy.act(self, where)
            self.apply(actions, live)
        return BatchResult(self.returns(), self.winners())

    def standing(self) -> npt.NDArray[np.float64]:
        """Everyone's score so far, as the codec's standing: a train is scored at the end."""
        return self.returns()

    def truncated(self) -> BoolArray:
        """No game is cut short: a draft has its rounds."""
        return np.zeros(self._games, np.bool_)

    def winners(self) -> BoolArray:
        """``(games, players)``: the winner after the tie-break, all False where a game is not
        over."""
        won: BoolArray = (self.winner[:, None] == np.arange(self._t.players)) & self.is_over()[
            :, None
        ]
        return won

    # -- starting games ----------------------------------------------------------------------

    def reset(self, where: npt.ArrayLike, streams: Streams | None = None) -> None:
        """Start new games in the slots ``where`` (a vector environment's autoreset): new
        deals from the batch's shared chance, or with streams the next game of each slot's
        streams (or of ``streams``, one per slot, in order)."""
        rows = np.flatnonzero(np.asarray(where, np.bool_))
        if self._shared is not None:
            if streams is not None:
                raise ExpressError("reset: this batch draws from a generator, not streams")
            self._shared.renew(rows)
        elif self._streams is None:
            raise ExpressError("reset: a batch of positions has no chance to deal new games")
        elif streams is not None:
            if len(streams.chance) != len(rows):
                raise ExpressError(f"reset: {len(streams.chance)} streams for {len(rows)} games")
            for row, pair in zip(rows.tolist(), zip(streams.chance, streams.policy)):
                self._streams[row] = pair
        self._restart(rows)

    def _restart(self, rows: IntArray) -> None:
        """The games ``rows`` from their start: their caboose and deck order drawn."""
        t = self._t
        if self._shared is not None:
            shuffled = self._shared.order(rows, len(t.physical), 0)
            self.order[rows] = t.physical[shuffled[:, : t.draws]]
            if t.caboose == -2:
                self.caboose[rows] = self._shared.below(rows, len(CABOOSES), 1)
            else:
                self.caboose[rows] = t.caboose
        else:
            assert self._streams is not None
            for row in rows.tolist():
                if t.caboose == -2:
                    drawn = _CABOOSE_SAMPLER.draw_from(self._streams[row][0])
                    assert isinstance(drawn, int)
                    self.caboose[row] = drawn
                else:
                    self.caboose[row] = t.caboose
                self._left[row] = t.copies.tolist()
                # The deal and the first turn's draw; each later draw comes with its turn.
                for index in range(t.hand_size + 1):
                    self._draw_card(row, index)
        self._plays = None
        self.turn[rows] = 0
        self.hand[rows] = np.arange(t.hand_size + 1)
        self.seen[rows] = False
        self.train_kind[rows] = -1
        self.train_down[rows] = False
        self.facts[rows] = 0
        self.facts[rows, :, _COLOR] = _WILD
        self.hand_kind[rows] = self.order[rows, : t.hand_size + 1]
        self.run_bonus[rows] = 0
        self.caboose_points[rows] = 0
        self.winner[rows] = -1
        self._see(rows)

    def _draw_card(self, row: int, index: int) -> None:
        """Game ``row``'s card ``index`` of the deck order, drawn from its stream as the scalar
        game draws it: at the moment it is needed, so that a game cut short (an illegal
        action in an environment) has drawn what the scalar game has, and no more."""
        assert self._streams is not None
        left = self._left[row]
        kind = _draw_kind(left, self._streams[row][0])
        left[kind] -= 1
        self.order[row, index] = kind

    # -- the policies' choices ---------------------------------------------------------------

    def random_actions(self, where: BoolArray) -> IntArray:
        """A uniformly drawn legal action per game ``where`` is True: from the batch's
        generator, or each game's policy generator as :class:`arena.RandomPolicy` draws it."""
        actions = np.zeros(self._games, np.intp)
        rows, select = self._rows(where)
        if not len(rows):
            return actions
        ids, valid = self._candidates(rows, select)
        counts = valid.sum(axis=1)
        if self._shared is not None:
            picks = self._shared.own_below(rows, np.maximum(counts, 1), self.turn[rows])
        elif self._streams is not None:
            streams = self._streams
            picks = np.array(
                [
                    int(streams[row][1].integers(count))
                    for row, count in zip(rows.tolist(), counts.tolist())
                ],
                np.intp,
            )
        else:
            raise ExpressError("a batch of positions plays no random bot (it has no chance)")
        # The pick-th valid id, the valid ids in order being the legal order.
        ranks = np.cumsum(valid, axis=1) - 1
        column = np.argmax(valid & (ranks == picks[:, None]), axis=1)
        actions[select] = ids[np.arange(len(rows)), column]
        return actions

    def greedy_actions(self, where: BoolArray) -> IntArray:
        """The greedy bot's play per game ``where`` is True: the most train value plus longest
        run gained, ties face up first, then the first in the legal order."""
        t = self._t
        actions = np.zeros(self._games, np.intp)
        rows, select = self._rows(where)
        if not len(rows):
            return actions
        ids, valid = self._candidates(rows, select)
        seat = self._seat(self.turn[select])
        facts = self.facts[rows, seat].astype(np.intp)
        color = facts[:, _COLOR, None]
        longest = facts[:, _LONGEST, None]
        kinds = ids[:, 0::2] >> 1
        joined = (color != _WILD) & (t.left_color[kinds] == color)
        through_left = np.where(joined, facts[:, _TRAIL, None] + 1, 1)
        run = np.where(t.mono[kinds], through_left + 1, through_left)
        # (gain, face up) as one key: argmax takes the first best, the legal order's first.
        key = np.empty(ids.shape, np.intp)
        key[:, 0::2] = 2 * (t.value[kinds] + np.maximum(longest, run) - longest) + 1
        key[:, 1::2] = 2 * FACE_DOWN_VALUE
        key[~valid] = np.iinfo(np.intp).min
        actions[select] = ids[np.arange(len(rows)), np.argmax(key, axis=1)]
        return actions

    # -- scoring -----------------------------------------------------------------------------

    def _rows_of_cars(self, rows: IntArray) -> _Rows:
        t = self._t
        kind = self.train_kind[rows].astype(np.intp)
        down = self.train_down[rows]
        shape = (*kind.shape[:2], 2 * t.rounds)
        colors = np.empty(shape, np.int8)
        values = np.empty(shape, np.int8)
        colors[:, :, 0::2] = np.where(down, _WILD, t.left_color[kind])
        colors[:, :, 1::2] = np.where(down, _WILD, t.right_color[kind])
        values[:, :, 0::2] = np.where(down, WILD_CAR_VALUE, t.left_value[kind])
        values[:, :, 1::2] = np.where(down, WILD_CAR_VALUE, t.right_value[kind])
        return _Rows(colors, values)

    def _score(self, rows: IntArray) -> None:
        """Score the games ``rows``, just over (as :meth:`express.Game.score`)."""
        longest = self.facts[rows, :, _LONGEST].astype(np.intp)
        best = longest.max(axis=1, keepdims=True)
        bonus = np.where(longest == best, longest, 0)
        self.run_bonus[rows] = bonus
        value = self.facts[rows, :, _POINTS].astype(np.intp)
        points = np.zeros(longest.shape, np.int16)
        caboose = self.caboose[rows]
        if (caboose >= 0).any():
            cars = self._rows_of_cars(rows)
            for index in np.unique(caboose[caboose >= 0]).tolist():
                judge = _CABOOSE_TESTS[index]
                assert judge is not None
                chosen = caboose == index
                sub = _Rows(cars.colors[chosen], cars.values[chosen])
                won = judge(sub, value[chosen], bonus[chosen])
                points[chosen] = np.where(won, _CABOOSE_POINTS[index], 0)
        self.caboose_points[rows] = points
        self.winner[rows] = self.tie_break(value + bonus + points)

    def tie_break(self, totals: npt.ArrayLike) -> IntArray:
        """``(games,)``: the seat that wins with ``totals`` (``(games, players)``): the highest,
        ties to the tied player who plays last in a round (:meth:`express.Game.score`)."""
        scores = np.asarray(totals)
        tied = scores == scores.max(axis=1, keepdims=True)
        winner: IntArray = np.argmax(np.where(tied, self._t.play_position, -1), axis=1)
        return winner

    # -- readers -----------------------------------------------------------------------------

    def trains(self, game: int) -> tuple[Train, ...]:
        """Game ``game``'s trains, one per seat, as :class:`express.Train` values."""
        t = self._t
        trains = []
        for seat in range(t.players):
            plays = [
                Play(t.cards[int(kind)], face_up=not bool(down))
                for kind, down in zip(self.train_kind[game, seat], self.train_down[game, seat])
                if kind >= 0
            ]
            trains.append(Train(tuple(plays)))
        return tuple(trains)

    def caboose_name(self, game: int) -> str | None:
        """The caboose in play in game ``game`` (None without one)."""
        index = int(self.caboose[game])
        return None if index < 0 else CABOOSES[index].name

    def scores(self, game: int) -> tuple[PlayerScore, ...]:
        """Game ``game``'s score breakdown per seat (as :attr:`express.GameScore.players`),
        once it is over."""
        if self.turn[game] < self._t.turns:
            raise ExpressError(f"game {game} is not over")
        return tuple(
            PlayerScore(
                seat,
                int(self.facts[game, seat, _POINTS]),
                int(self.facts[game, seat, _LONGEST]),
                int(self.run_bonus[game, seat]),
                int(self.caboose_points[game, seat]),
            )
            for seat in range(self._t.players)
        )

    @property
    def nbytes(self) -> int:
        """The bytes of the batch's arrays."""
        return sum(array.nbytes for array in vars(self).values() if isinstance(array, np.ndarray))
