"""Exact values of two-player positions over the real chance of the draws (expectiminimax).

:func:`play_values` of :mod:`express.exact` solves a deal whose deck order is known; a player
does not know it. :func:`expected_values` values every play of the player to move with each
card to come drawn as the rules draw it — each card left equally likely — and both players
choosing their plays knowing every draw so far and none to come: an expectiminimax, the
game's value over its real chance rather than a mean of hindsight over sampled orders.

Two objectives (``objective``):

- ``"margin"``: the mover's final score minus the other's, in expectation, both players
  playing to maximise their own side of it (zero-sum);
- ``"win"``: the probability that the mover wins (ties go by the rules' tie-break, so every
  game has one winner), both players playing to maximise their own chance of winning.

Every value is an exact :class:`fractions.Fraction`.

What the draws are drawn from:

- a :class:`express.Game` (the state's truth): the cards left in its deck, each copy as likely
  (``Game.chance_outcomes``), or the next cards of its ``order`` when it has one — then there
  is no chance and the margins are :func:`express.exact.play_values`' (the tests check it);
- an :class:`express.Observation` of the player to move: every card it has not seen
  (``Observation.unknown_cards``), each as likely. Under the uniform law of
  :mod:`express.worlds` the other player's hidden face-down cards are as likely any unseen
  card as the cards still in the deck, so this is exactly the chance the player faces at every
  draw. What it assumes is the other player's knowledge: it is valued as if it, too, knew no
  more of the draws than the cards it could not have seen from here — the face-down cards it
  hid itself are not taken out of its deck.

How it is exact and fast: positions of trains are :class:`express.exact_multi.World`'s
interned ints (the end-of-game terms come from :func:`express.score_game`), a state — the
turn, the hand, the cards left, both positions (and for ``"win"`` the lead so far) — is
valued once (a transposition table), and values are kept as integers: a value times the
product of the numbers of cards left at every draw to come, so a chance node is a plain sum.
The work grows about tenfold with each turn searched; ``node_limit`` stops it
(:class:`express.SearchLimitReached`) before it runs long. From five turns left the same
search runs compiled when numba is installed (:mod:`express.endgame_loops`, the ``compiled``
extra: the same values and the same states counted, 15–40 times faster once compiled, which
takes about 2.5 s once per process); this pure one is its reference.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from arena.values import whole_number
from express.cabooses import Caboose, caboose_named
from express.cards import Card
from express.endgame_loops import available, compiled_search
from express.errors import ExpressError, LimitError, RulesError
from express.exact import SearchLimitReached, require_decision
from express.exact_multi import World
from express.game import Game, Observation
from express.match import MatchObservation
from express.rules import FACE_DOWN_VALUE, hand_size_for
from express.scoring import winner_of
from express.train import Play, Train

__all__ = ["COMPILED_FROM_TURNS", "OBJECTIVES", "expected_values", "expected_values_with_states"]

_HAND_SIZE = hand_size_for(2)

_Move = tuple[int, bool, tuple[int, ...], int, int, int]
"""A play out of a state: card, face up, the hand passed on, seat 0's lead, both positions."""

COMPILED_FROM_TURNS = 5
"""From this many turns left :func:`expected_values` takes the compiled search when numba is
installed: below it the pure search takes well under a second and compiling's tables cost as
much as they save."""

OBJECTIVES = ("margin", "win")
"""What :func:`expected_values` values a play by (see the module docstring)."""


def expected_values(
    position: Game | Observation | MatchObservation,
    *,
    objective: str = "margin",
    node_limit: int | None = None,
    compiled: bool | None = None,
) -> dict[Play, Fraction]:
    """Every legal play of the player to move in a two-player ``position``, valued exactly over
    every draw to come (see the module docstring): its expected final margin, or with
    ``objective="win"`` its probability of winning; in ``legal_actions()`` order. Raises
    :class:`express.SearchLimitReached` once the search has taken ``node_limit`` states.
    ``compiled``: the same search compiled by numba (:mod:`express.endgame_loops`, the
    ``compiled`` extra; True raises :class:`arena.MissingExtraError` without it), or the pure
    one (False); None takes the compiled one from :data:`~express.endgame.COMPILED_FROM_TURNS` turns left
    when numba is installed, where it pays.

    >>> import numpy as np
    >>> from arena import sample_outcome
    >>> game, rng = Game(2, rounds=2), np.random.default_rng(3)
    >>> while game.is_chance_node():
    ...     game.apply_action(sample_outcome(game.chance_outcomes(), rng))
    >>> values = expected_values(game)
    >>> [(str(play), str(value)) for play, value in values.items()][4:]
    [('B4|G4', '233/140'), ('~B4|G4', '-791/285')]
    >>> str(expected_values(game, objective="win")[Play.parse("B4|G4")])
    '989/1330'
    """
    return expected_values_with_states(
        position, objective=objective, node_limit=node_limit, compiled=compiled
    )[0]


def expected_values_with_states(
    position: Game | Observation | MatchObservation,
    *,
    objective: str = "margin",
    node_limit: int | None = None,
    compiled: bool | None = None,
) -> tuple[dict[Play, Fraction], int]:
    """:func:`expected_values` and the number of states its search took (what a caller that
    budgets its searches, such as ``bot("pimc")``, counts; both searches count the same
    states)."""
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise ExpressError(
            f"unknown objective: {objective!r} (use {' or '.join(map(repr, OBJECTIVES))})"
        )
    if node_limit is not None:
        node_limit = whole_number(node_limit, "node_limit", where="expected_values")
        if node_limit < 1:
            raise LimitError(f"invalid node_limit: {node_limit!r} (a positive number of states)")
    if compiled is not None and not isinstance(compiled, bool):
        raise TypeError(f"compiled must be a bool or None, not {type(compiled).__name__}")
    root = _root(position)
    search = _Expectiminimax(root, objective == "win", node_limit)
    turns_left = search.turns - root.turn
    if compiled is None:
        compiled = root.order is None and turns_left >= COMPILED_FROM_TURNS and available()
    if compiled and root.order is None:
        return search.compiled_values(), search.nodes
    return search.root_values(), search.nodes


class _Root:
    """A two-player decision as the search needs it, read from a game or an observation."""

    def __init__(
        self,
        state: Game | Observation,
        caboose: Caboose | None,
        trains: list[Train],
        hand: tuple[Card, ...],
        pile: list[Card],
        order: tuple[Card, ...] | None,
    ) -> None:
        self.deck = state.deck
        self.rounds = state.rounds
        self.turn = state.turn
        self.caboose = caboose
        self.trains = trains  # in play order: index 0 is the start player
        self.hand = hand
        self.pile = pile  # the cards the draws come from, copies repeated
        self.order = order  # the deck order when it is known: then no draw is chance


def _root(position: object) -> _Root:
    if isinstance(position, MatchObservation):
        position = position.current
    if isinstance(position, Game):
        game = position
        if game.players != 2:
            raise RulesError(f"expected_values is for two players, not {game.players}")
        require_decision(game, "expected_values")
        trains = [game.trains[seat] for seat in game.seat_order()]
        pile = [card for card, copies in game.deck_left() for _ in range(copies)]
        return _Root(game, game.caboose, trains, game.hand_cards(), pile, game.order)
    if isinstance(position, Observation):
        view = position
        if view.players != 2:
            raise RulesError(f"expected_values is for two players, not {view.players}")
        if not view.hand:
            if view.turn >= view.rounds * view.players:
                raise RulesError("the game is over: no play left to value")
            raise RulesError("it is not this player's turn: it holds no hand to play from")
        seats = (view.start_player, 1 - view.start_player)
        # Another player's hidden face-down card may be any card: a face-down play is the
        # same train whatever it hides.
        trains = [
            Train(
                tuple(
                    Play(view.deck[0], face_up=False) if play is None else play
                    for play in view.trains[seat]
                )
            )
            for seat in seats
        ]
        caboose = None if view.caboose is None else caboose_named(view.caboose)
        return _Root(view, caboose, trains, view.hand, list(view.unknown_cards()), None)
    raise TypeError(
        f"expected_values takes an express.Game or Observation, not {type(position).__name__}"
    )


class _Expectiminimax:
    """The search of one root (see the module docstring): :meth:`root_values` and ``nodes``.

    A value is seat 0's (the start player's): its margin, or 1 when it wins and 0 when it
    loses, times the product of the numbers of cards left at every draw to come
    (:meth:`_scale`), so that a chance node is the sum of its children times their copies.
    """

    def __init__(self, root: _Root, win: bool, node_limit: int | None) -> None:
        self.root = root
        self.win = win
        self.node_limit = node_limit
        self.nodes = 0
        # Card ids follow the deck's order, the order legal_actions() lists plays in. The
        # world is read for its positions only: no hand of it is used, so any order will do.
        cards = list(dict.fromkeys(root.deck))
        self.world = World(cards, root.deck, root.caboose, root.rounds, 2)
        self.card_id = self.world.card_id
        self.turns = 2 * root.rounds
        self.table: dict[tuple[int, tuple[int, ...], tuple[int, ...], int, int, int], int] = {}
        self._last: dict[tuple[int, int, int], tuple[int, dict[int, int | None]]] = {}

    def _start(self) -> tuple[tuple[int, ...], list[int], list[int], int]:
        """The root as ints: the hand's card ids, the copies left of each card, both trains'
        positions and seat 0's lead."""
        root, world = self.root, self.world
        hand = tuple(sorted(self.card_id[card] for card in root.hand))
        pile = [0] * len(world.cards)
        for drawn in root.pile:
            pile[self.card_id[drawn]] += 1
        starts = [world.start(train) for train in root.trains]
        return hand, pile, starts, root.trains[0].value - root.trains[1].value

    def _for_mover(self, moves: list[_Move], scaled: list[int], left: int) -> dict[Play, Fraction]:
        """Each root move's value for the player to move, from seat 0's scaled values."""
        t = self.root.turn
        scale = self._scale(t, left)
        values: dict[Play, Fraction] = {}
        for (card, face_up, *_), found in zip(moves, scaled, strict=True):
            value = Fraction(found, scale)
            if t % 2 == 1:  # the mover is seat 1: its side of seat 0's value
                value = 1 - value if self.win else -value
            values[Play(self.world.cards[card], face_up)] = value
        return values

    def root_values(self) -> dict[Play, Fraction]:
        t = self.root.turn
        hand, pile, (p0, p1), lead = self._start()
        moves = self._moves(t, hand, p0, p1, lead)
        scaled = [
            self._after_play(t, rest, tuple(pile), q0, q1, after)
            for _, _, rest, after, q0, q1 in moves
        ]
        return self._for_mover(moves, scaled, sum(pile))

    def compiled_values(self) -> dict[Play, Fraction]:
        """:meth:`root_values` by the compiled search over the tables of this world."""
        world, t = self.world, self.root.turn
        hand, counts, starts, lead = self._start()
        kinds = len(world.cards)
        pile = np.array(counts, np.int64)
        base = max(int(pile.max()), 1) + 1
        plays = [sum(1 for turn in range(t, self.turns) if turn % 2 == seat) for seat in (0, 1)]
        seats = [_Reach(world, starts[seat], plays[seat]) for seat in (0, 1)]
        if kinds > 32 or base**kinds * 1024 >= 2**62 or max(len(s.ids) for s in seats) >= 2**20:
            return self.root_values()  # beyond the compiled tables' keys: the pure search
        groups = [seat.groups() for seat in seats]
        ends = np.zeros((len(groups[0][1]), len(groups[1][1])), np.int64)
        for i, first in enumerate(groups[0][1]):
            for j, second in enumerate(groups[1][1]):
                terms = world.ends((first, second))
                ends[i, j] = terms[0] - terms[1]
        values = np.array([*world.value, FACE_DOWN_VALUE], np.int64)  # face down last
        powers = np.array([base**k for k in range(kinds)], np.int64)
        tables = (
            seats[0].up, seats[0].down, seats[1].up, seats[1].down,
            groups[0][0], groups[1][0], ends, values, powers,
        )  # fmt: skip
        moves = self._moves(t, hand, starts[0], starts[1], lead)
        local = [
            (rest[0], rest[1], seats[0].ids[q0], seats[1].ids[q1], after, card)
            for card, _, rest, after, q0, q1 in moves
        ]
        tie0 = winner_of((0, 0), start_player=0) == 0
        found = compiled_search(local, t, pile, tables, self.turns, self.win, tie0, self.node_limit)
        if found is None:
            raise SearchLimitReached(
                f"expected_values: node_limit {self.node_limit} reached before the values "
                f"were exact",
                self.node_limit or 0,
            )
        scaled, self.nodes = found
        return self._for_mover(moves, scaled, sum(counts))

    def _scale(self, t: int, left: int) -> int:
        """The product of the numbers of cards left at each draw after turn ``t``'s play,
        ``left`` at the first (1 when the order is known: no draw is chance)."""
        scale = 1
        if self.root.order is None:
            for turn in range(t + 1, self.turns):
                scale *= left - (turn - t - 1)
        return scale

    def _moves(self, t: int, hand: tuple[int, ...], p0: int, p1: int, lead: int) -> list[_Move]:
        """(card, face up, the hand passed on, seat 0's lead, both positions) after every
        distinct play of turn ``t``, in the legal order (face up first)."""
        world = self.world
        seat1 = t % 2
        position = p1 if seat1 else p0
        fits = world.fits[world.last[position]]
        found = []
        for i, card in enumerate(hand):
            if i and hand[i - 1] == card:
                continue  # identical cards are one choice
            rest = hand[:i] + hand[i + 1 :]
            for face_up in (True, False):
                if face_up and not fits[card]:
                    continue
                gain = world.value[card] if face_up else FACE_DOWN_VALUE
                moved = world.child(position, card, face_up)
                if seat1:
                    found.append((card, face_up, rest, lead - gain, p0, moved))
                else:
                    found.append((card, face_up, rest, lead + gain, moved, p1))
        return found

    def _after_play(
        self, t: int, rest: tuple[int, ...], pile: tuple[int, ...], p0: int, p1: int, lead: int
    ) -> int:
        """Seat 0's scaled value once turn ``t``'s play is made: the end of the game, or the
        next draw's chance node."""
        if t + 1 == self.turns:
            return self._final(p0, p1, lead)
        order = self.root.order
        if order is not None:
            card = self.card_id[order[_HAND_SIZE + t + 1]]
            if t + 2 == self.turns:
                return self._last_turn(rest, ((card, 1),), p0, p1, lead)
            return self._decide(t + 1, tuple(sorted((*rest, card))), pile, p0, p1, lead)
        if t + 2 == self.turns:
            return self._last_turn(rest, tuple(enumerate(pile)), p0, p1, lead)
        total = 0
        for card, copies in enumerate(pile):
            if copies:
                left = list(pile)
                left[card] -= 1
                hand = tuple(sorted((*rest, card)))
                total += copies * self._decide(t + 1, hand, tuple(left), p0, p1, lead)
        return total

    def _last_turn(
        self,
        rest: tuple[int, ...],
        draws: tuple[tuple[int, int], ...],
        p0: int,
        p1: int,
        lead: int,
    ) -> int:
        """The chance node before the last turn, summed without a state per draw: the last
        mover's best play is its best among the cards passed to it face up, any card face down
        (the same train whatever the card) and the drawn card face up; only the last depends on
        the draw."""
        key = (p0, p1, lead)
        known = self._last.get(key)
        if known is None:
            down = self._last_play(p0, p1, lead, 0, False)
            assert down is not None  # a face-down card always connects
            known = self._last[key] = (down, {})
        anyway, up = known
        seat1 = self.turns % 2 == 0  # the last turn's mover
        best = min if seat1 else max
        for card in (*rest, *(card for card, copies in draws if copies)):
            if card not in up:
                up[card] = self._last_play(p0, p1, lead, card, True)
        for card in rest:
            value = up[card]
            if value is not None:
                anyway = best(anyway, value)
        total = 0
        for card, copies in draws:
            if copies:
                value = up[card]
                total += copies * (anyway if value is None else best(anyway, value))
        return total

    def _last_play(self, p0: int, p1: int, lead: int, card: int, face_up: bool) -> int | None:
        """The final value of the last turn's play of ``card`` (None when it does not connect
        face up; face down, every card is the same play)."""
        world = self.world
        seat1 = self.turns % 2 == 0
        position = p1 if seat1 else p0
        if face_up and not world.fits[world.last[position]][card]:
            return None
        gain = world.value[card] if face_up else FACE_DOWN_VALUE
        moved = world.child(position, card, face_up)
        if seat1:
            return self._final(p0, moved, lead - gain)
        return self._final(moved, p1, lead + gain)

    def _final(self, p0: int, p1: int, lead: int) -> int:
        ends = self.world.ends((p0, p1))
        margin = lead + ends[0] - ends[1]
        if not self.win:
            return margin
        return 1 if winner_of((margin, 0), start_player=0) == 0 else 0

    def _decide(
        self, t: int, hand: tuple[int, ...], pile: tuple[int, ...], p0: int, p1: int, lead: int
    ) -> int:
        # A margin is the lead so far plus what is still to come: states that differ in the
        # lead alone are one state, kept without it (win or lose depends on the lead).
        kept = lead if self.win else 0
        offset = 0 if self.win else lead * self._scale(t, sum(pile))
        key = (t, hand, pile, p0, p1, kept)
        known = self.table.get(key)
        if known is not None:
            return known + offset
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchLimitReached(
                f"expected_values: node_limit {self.node_limit} reached before the values "
                f"were exact",
                self.node_limit,
            )
        values = [
            self._after_play(t, rest, pile, q0, q1, lead_after)
            for _, _, rest, lead_after, q0, q1 in self._moves(t, hand, p0, p1, lead)
        ]
        best = min(values) if t % 2 else max(values)
        self.table[key] = best - offset
        return best


class _Reach:
    """Every position one train can reach in its ``plays`` plays to come, as local ids:
    ``ids`` (world position to local id), ``up`` (local id and card to the local id after the
    card face up, -1 where it does not connect) and ``down`` (after any card face down)."""

    def __init__(self, world: World, start: int, plays: int) -> None:
        self.world = world
        self.ids: dict[int, int] = {start: 0}
        edges: list[tuple[int, int, int]] = []  # (from, card or -1 face down, to), world ids
        frontier = [start]
        for _ in range(plays):
            reached: list[int] = []
            for position in frontier:
                fits = world.fits[world.last[position]]
                out = [
                    (card, world.child(position, card, True))
                    for card in range(len(fits))
                    if fits[card]
                ]
                out.append((-1, world.child(position, 0, False)))
                for card, child in out:
                    edges.append((position, card, child))
                    if child not in self.ids:
                        self.ids[child] = len(self.ids)
                        reached.append(child)
            frontier = reached
        self.finals = frontier if plays else [start]
        size = len(self.ids)
        self.up = np.full((size, len(world.cards)), -1, np.int64)
        self.down = np.full(size, -1, np.int64)
        for position, card, child in edges:
            if card < 0:
                self.down[self.ids[position]] = self.ids[child]
            else:
                self.up[self.ids[position], card] = self.ids[child]

    def groups(self) -> tuple[npt.NDArray[np.int64], list[int]]:
        """The end-term group of every local id (-1 for a position that is not final) and a
        representative final position of each group (:meth:`World.end_key`)."""
        group = np.full(len(self.ids), -1, np.int64)
        keys: dict[Hashable, int] = {}
        representatives: list[int] = []
        for position in self.finals:
            key = self.world.end_key(position)
            if key not in keys:
                keys[key] = len(representatives)
                representatives.append(position)
            group[self.ids[position]] = keys[key]
        return group, representatives
