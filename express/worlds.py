"""Hidden worlds: complete games a player cannot tell from the one it is in.

A player of Yardmaster Express sees its own hand while it holds it, every train with the other
players' face-down cards hidden (its own in full) and the cards that have passed through its
hands; it does not see the deck's order, the others' face-down cards, nor the cards the others
drew that never reached it. A *world* is a complete :class:`express.Game` — every card dealt and
drawn, every face-down card — consistent with all the player saw. Search bots that see only an
observation play in such worlds (determinisation), and OpenSpiel's information-set MCTS
samples one per simulation.

>>> import numpy as np
>>> from arena import sample_outcome
>>> from express import Game
>>> game, rng = Game(3, rounds=2), np.random.default_rng(4)
>>> while game.turn < 4:  # four turns, each playing its last legal action
...     if game.is_chance_node():
...         game.apply_action(sample_outcome(game.chance_outcomes(), rng))
...     else:
...         game.apply_action(game.legal_actions()[-1])
>>> view = game.observation(1)
>>> world = sample_world(view, np.random.default_rng(1))
>>> world.observation(1) == view
True
>>> same = resample(game, 1, np.random.default_rng(2))
>>> same.observation(1) == view, seen_history(same, 1) == seen_history(game, 1)
(True, True)

What a world is, and the law it is drawn from
---------------------------------------------
An :class:`express.Observation` tells what one player may know: its hand while it holds it,
every train with the others' face-down cards hidden (its own in full), the cards that passed
through its hands (``seen``, a multiset: not when), the deck's composition and how many cards
have been drawn. A *world* is a complete game consistent with it, at the level a game tells
cards apart: **the order of the whole deck as a sequence of card kinds** (identical cards are
one kind) **and the kind of every face-down card of another player**. Replayed through
:class:`express.Game` (a play takes the first card of its kind in the hand), a world fixes
everything, and it is consistent when the observation it gives the player is the one given.

The target law is **uniform over the consistent worlds**. Why:

- The shuffle is the rules' only chance: every order of the physical cards is equally likely,
  and each kind sequence stands for the same number (∏ copies!) of them, so every kind
  sequence of the whole deck is equally likely a priori. The observation is a function of the
  world, so conditioning on it keeps the consistent sequences, each as likely as the others.
- The others' face-down cards are choices, not chance: their probability is the other
  players' policies, which nothing here knows. The convention taken counts each hidden choice
  once — each distinct card the hand could have hidden, as the game lists its actions — which
  treats the likelihood of the observed plays as the same in every world. Weighting by a
  uniformly random opponent instead (1 / its legal actions at each turn) would model a player
  nobody faces; this convention assumes the least, and a bot can reweight the worlds by an
  opponent model (what a player would choose to hide) on top of exact draws.

What it does not model, then: the other players' policies (a face-down card is as likely to
be a card they would never hide as the one they would), and nothing about them enters.

Drawing from it
---------------
:func:`count_worlds` counts the consistent worlds exactly (Python integers) and
:func:`sample_worlds` draws them uniformly, by a memoised forward search over the steps of the
history as the player knows them (deal and draws, its sight of the hand at each of its turns,
the plays). A state holds the hand split into the cards the player has seen (they are the
oldest: the hand is all seen when it leaves the player) and those it has not, the cards it saw
that it has not seen yet, and the deck's copies left. Its count is the number of worlds
completing it; each world is drawn by taking every choice with probability proportional to the
count it leads to (exact integers, one ``randrange`` per step), which is uniform over worlds.

Kinds are tracked one by one where the observation names them: every kind with two copies or
more (their copies interact through "a play takes the first card of its kind": a face-down
card of a kind the player has seen in the hand is that seen card) and the single cards it sees
played. The other single cards are symmetric and only counted: *unmarked* ones (seen, then never
in sight but for the hand held now: a draw of one stands for each of those not drawn yet, a
face-down play of one for each in the hand; those left in the hand at the end are named as the
hand's cards, the same share of the namings on every path) and *anonymous* ones (never seen, never face up: a draw of one
stands for each not drawn yet, and no play can mistake it for another card). Every world
follows one path of the search (its draws and plays decide each choice), and a path with its
multiplicities stands for exactly the worlds that follow it, so the counts are exact; the
symmetric cards are then named uniformly at random, and the undrawn rest of the deck shuffled
uniformly (each of its orders is one world). The tests check the counts and the law against a
brute-force enumeration on small decks (chi-square, fixed seeds, a power shown on a sampler
5 % off).

The worlds :func:`sample_worlds` returns are complete games with :attr:`express.Game.order`
set (the drawn cards, then the undrawn rest), played to the observation's point, so a solver
can read the future. At a point where a card is still to be drawn the world is that chance
node (order set: the next draw is ``order[len(drawn)]``).

:func:`resample` ``(game, player, rng)`` does the same for the worlds that also keep what the
player saw *when* it saw it (its :func:`seen_history`: the hand it held and the cards new to it
at each of its turns, its own draws, its deal): uniform over the worlds with the same
observation and the same seen history. Its worlds are shuffled-deck games (no ``order``), like
the games OpenSpiel's information-set MCTS resamples.

**The budget, and what holds beyond it.** The search's states grow with the game: a few
thousand on most two-player decisions (a median of some 5 ms of counting), far more on three to
five players late in a game. Beyond ``_BUDGET`` states :func:`sample_worlds` and
:func:`resample` fall back on a randomized depth-first search, which returns consistent worlds
(each checked) but **not** uniformly: hidden draws are tried in an order drawn with the chance
probabilities and the first consistent completion is kept, so worlds reached through choices
with few consistent alternatives are over-represented, and the player's own history (for
:func:`sample_worlds`: the hands it held, when) is invented by ad-hoc random choices — one for
all the worlds of a call while it keeps leading to complete histories, as inventing it is most
of the cost. :func:`count_worlds` never falls back: it is exact, and may be slow on those games.

Every sampler consumes ``rng`` (a NumPy :class:`numpy.random.Generator`) deterministically: the
same generator state gives the same worlds, so seeded games replay. An observation no game leads
to raises :class:`express.InconsistentObservation` (one line saying why).

For the codec
-------------
:func:`deck_kinds` (a deck's distinct cards, each kind's copies, card → kind) and :func:`game_view`
(an observation of either kind → the current game's :class:`express.Observation`) are shared
with :mod:`express.openspiel`, which renders :func:`seen_history` as its information-state
string.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from arena.memo import IdentityMemo
from arena.text import plural
from express.cards import Card
from express.errors import ExpressError, InconsistentObservation
from express.game import CabooseShown, Dealt, Game, Observation, Turn
from express.match import MatchObservation
from express.train import Play

__all__ = [
    "CabooseSeen",
    "DealSeen",
    "Kinds",
    "OtherTurnSeen",
    "OwnTurnSeen",
    "SeenEvent",
    "game_view",
    "count_worlds",
    "deck_kinds",
    "resample",
    "sample_world",
    "sample_worlds",
    "seen_history",
]


# -- card kinds -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Kinds:
    """A deck's distinct cards in the order they first appear (the *kinds*: identical cards are
    one kind, as they are one chance outcome), each kind's copies, and card → kind.

    ``by_id`` maps the deck's own card objects (which the game hands out) to their kind by
    identity, the fast path of :meth:`of`; ``deck`` holds those objects, so their ids stay
    theirs while this value lives.
    """

    deck: tuple[Card, ...]
    cards: tuple[Card, ...]
    copies: tuple[int, ...]
    index: dict[Card, int]
    by_id: dict[int, int]

    def of(self, card: Card) -> int:
        """The kind of ``card`` (raises :class:`ValueError` for a card not in the deck)."""
        kind = self.by_id.get(id(card))
        if kind is None:
            kind = self.index.get(card)
            if kind is None:
                raise ValueError(f"card not in the deck: {str(card)!r}")
        return kind

    def counts(self, cards: Iterable[Card]) -> Counter[int]:
        """How many of each kind ``cards`` hold."""
        return Counter(self.of(card) for card in cards)

    def sorted(self, cards: Iterable[Card]) -> tuple[Card, ...]:
        """``cards`` as their kinds' cards in kind order (the order a player can tell apart)."""
        return tuple(self.cards[kind] for kind in sorted(self.of(card) for card in cards))


def _new_kinds(deck: tuple[Card, ...]) -> Kinds:
    counts = Counter(deck)  # insertion order: the order cards first appear
    cards = tuple(counts)
    index = {card: kind for kind, card in enumerate(cards)}
    return Kinds(
        deck,
        cards,
        tuple(counts[card] for card in cards),
        index,
        {id(card): index[card] for card in deck},
    )


# A game and its clones share one deck tuple, and every id and tensor asks for its kinds.
_KINDS = IdentityMemo[tuple[Card, ...], Kinds](limit=1024)


def deck_kinds(deck: tuple[Card, ...]) -> Kinds:
    """The kinds of ``deck`` (computed once per deck tuple).

    >>> from express import deck_for
    >>> k = deck_kinds(deck_for(2))
    >>> len(k.cards), str(k.cards[0]), k.copies[0], k.of(k.cards[0])
    (20, 'B2|B2', 2, 0)
    """
    return _KINDS.lookup(deck, _new_kinds)


def game_view(observation: Observation | MatchObservation) -> Observation:
    """The :class:`express.Observation` of the game being played: a
    :class:`express.MatchObservation` is read through its current game (a search in the
    strategic variant plays each game for that game's score)."""
    if isinstance(observation, MatchObservation):
        return observation.current
    if isinstance(observation, Observation):
        return observation
    raise TypeError(f"an express observation is expected, not {type(observation).__name__}")


# -- what a player has seen -----------------------------------------------------------------


@dataclass(frozen=True)
class CabooseSeen:
    """The caboose shown at the start (a game with a random caboose)."""

    caboose: str


@dataclass(frozen=True)
class DealSeen:
    """The deal: ``cards`` (in kind order) when the observing player was dealt them, else None;
    ``size`` cards to ``player``."""

    player: int
    cards: tuple[Card, ...] | None
    size: int


@dataclass(frozen=True)
class OwnTurnSeen:
    """One of the observing player's turns: the card it drew, the hand it chose from and which of
    those cards were new to it (both in kind order: the order the cards joined the hand is not
    something it sees), and its play (None for the turn in progress)."""

    turn: int
    drew: Card
    held: tuple[Card, ...]
    new: tuple[Card, ...]
    play: Play | None


@dataclass(frozen=True)
class OtherTurnSeen:
    """Another player's turn as the observing player saw it: the play face up, or None for a
    card played face down."""

    turn: int
    player: int
    play: Play | None


SeenEvent = CabooseSeen | DealSeen | OwnTurnSeen | OtherTurnSeen
"""One entry of :func:`seen_history`."""


def seen_history(game: Game, player: int) -> tuple[SeenEvent, ...]:
    """The whole history of ``game`` as ``player`` saw it (perfect recall), in order: the caboose
    shown; the deal (the cards when the player was dealt them, else only how many); every turn
    of its own in full; the others' turns with their face-down cards hidden; and the turn in
    progress when it is the player's. Nothing in it depends on what the player cannot see: two
    games the player cannot tell apart have equal seen histories and equal observations.
    """
    game.observation(player)  # checks the player
    by_kind = deck_kinds(game.deck)
    new = _new_by_turn(game, player)

    def cards(indices: Iterable[int]) -> tuple[Card, ...]:
        return by_kind.sorted(game.drawn[i] for i in indices)

    history: list[SeenEvent] = []
    turn = 0
    for event in game.events:
        if isinstance(event, Dealt):
            mine = event.player == player
            history.append(
                DealSeen(
                    event.player, by_kind.sorted(event.cards) if mine else None, len(event.cards)
                )
            )
        elif isinstance(event, Turn):
            if event.player == player:
                history.append(
                    OwnTurnSeen(
                        turn,
                        event.drew,
                        by_kind.sorted(event.hand),
                        cards(new.get(turn, ())),
                        event.play,
                    )
                )
            else:
                history.append(
                    OtherTurnSeen(turn, event.player, event.play if event.play.face_up else None)
                )
            turn += 1
        else:
            assert isinstance(event, CabooseShown)
            history.append(CabooseSeen(event.caboose))
    if game.current_player() == player:
        history.append(
            OwnTurnSeen(
                turn,
                game.drawn[-1],
                by_kind.sorted(game.hand_cards()),
                cards(new.get(turn, ())),
                None,
            )
        )
    return tuple(history)


def _own_turn_at_or_after(game: Game, player: int, turn: int) -> int:
    """The first turn ≥ ``turn`` that is ``player``'s."""
    offset = game.seat_order().index(player)
    return turn + (offset - turn) % game.players


def _new_by_turn(game: Game, player: int) -> dict[int, list[int]]:
    """For each of ``player``'s turns, the cards (indices into ``game.drawn``) that were new to
    it then. A card stays in the travelling hand from its draw until it is played, and the hand
    passes every seat each round, so a card the player has seen was first seen at the player's
    first turn at or after the card's draw (the deal counts as drawn at turn 0)."""
    firsts: dict[int, list[int]] = {}
    for index in game.seen[player]:
        drawn_at = max(0, index - game.hand_size)
        firsts.setdefault(_own_turn_at_or_after(game, player, drawn_at), []).append(index)
    return firsts


# -- the samplers -----------------------------------------------------------------------------


def count_worlds(observation: Observation | MatchObservation) -> int:
    """How many worlds are consistent with ``observation`` (a :class:`express.MatchObservation`
    is read through its current game): the distinct kind sequences of the whole deck, each with
    the kind of every face-down card its player could have hidden, that lead to exactly what the
    observing player sees (see the module docstring). 0 when no game leads to it.

    >>> from express import Game
    >>> game = Game(2, deck="B2|B2,B2|B2,R2|R2,Y2|Y2,G2|G2,R3|R3", rounds=1)
    >>> count_worlds(game.observation(1))  # nothing drawn: every deck order, 6! / 2!
    360
    """
    view = game_view(observation)
    try:
        census = _Census(view)
        if not census.total:
            return 0
        census.world(random.Random(0), with_order=True)  # the rules the counting leaves aside
    except InconsistentObservation:
        return 0
    return census.total


def sample_worlds(
    observation: Observation | MatchObservation, count: int, rng: np.random.Generator
) -> list[Game]:
    """``count`` worlds drawn independently, each with its probability given ``observation``
    (uniform over the consistent worlds, see the module docstring), sharing one counting of
    them. Each is a complete :class:`express.Game` with :attr:`~express.Game.order` set (the
    whole deck, the undrawn rest in a uniformly random order) played to the observation's point:
    its observation for the observing player is ``observation``'s game view. Raises
    :class:`express.InconsistentObservation` when no game leads to the observation."""
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(f"count must be an int, not {type(count).__name__}")
    if count < 0:
        raise ValueError(f"count must be at least 0, not {count!r}")
    view = game_view(observation)
    census = _census(view, ())
    if census is None:
        return _approximate_worlds(view, count, rng)
    if not census.total:
        raise InconsistentObservation(census.failure())
    chooser = random.Random(int(rng.integers(2**63)))
    return [census.world(chooser, with_order=True) for _ in range(count)]


def sample_world(observation: Observation | MatchObservation, rng: np.random.Generator) -> Game:
    """One world drawn with its probability given ``observation``: ``sample_worlds(observation,
    1, rng)[0]`` (see :func:`sample_worlds`)."""
    return sample_worlds(observation, 1, rng)[0]


def resample(game: Game, player: int, rng: np.random.Generator) -> Game:
    """A complete game ``player`` cannot tell from ``game`` — the same observation and the same
    :func:`seen_history` (which also fixes the hand it held and the cards new to it at each of
    its turns, and its own draws) — drawn uniformly over all such worlds, as :func:`sample_world`
    draws over the worlds of an observation. The world is a shuffled-deck game like ``game``
    (no :attr:`~express.Game.order`: its later draws are chance). A game in which nothing has
    been drawn yet, or whose caboose is still to be drawn, hides nothing: its copy."""
    view = game.observation(player)  # also checks the player
    if game.caboose_pending or not game.drawn:
        return game.clone()
    census = _census(view, seen_history(game, player))
    if census is None:
        return _approximate_resample(game, player, rng)
    if not census.total:
        raise ExpressError(
            "no history of the game matches what the player saw (a bug: please report it)"
        )
    return census.world(random.Random(int(rng.integers(2**63))), with_order=False)


@functools.lru_cache(maxsize=8)
def _census(view: Observation, history: tuple[SeenEvent, ...]) -> _Census | None:
    """The count of the worlds with ``view`` (and the seen ``history``, when given), None past
    the budget. Kept for the few information states in play: OpenSpiel's IS-MCTS resamples the
    same one at every simulation of a decision, and counting is the cost, not drawing."""
    try:
        return _Census(view, history, budget=_BUDGET) if history else _Census(view, budget=_BUDGET)
    except _OutOfBudget:
        return None


# -- counting the worlds ----------------------------------------------------------------------

_BUDGET = 50_000
"""States the exact count of :func:`sample_worlds` and :func:`resample` may reach before they
fall back on the approximate search (about 0.5 s of counting on this machine: the approximate
search costs some 80 ms a world late in a two-player game, so for the 16 worlds of a ``pimc``
decision counting more is still the cheaper way, and the exact one)."""

# The steps of a history as the observing player knows them: a draw (its argument: the kind
# drawn when the player knows it, else -1), the player's own sight of the hand at its turn (the
# cards new to it and the hand, when they are known), its own play (the kind), another player's
# face-up play (the kind) or face-down play (the turn), and the deal (its kinds, when known).
_DRAW, _REVEAL, _OWN, _UP, _DOWN, _DEAL = range(6)

# Labels of the choices: a draw of an anonymous card, of an unmarked card the player will see;
# a face-down play of an unmarked seen card, of an anonymous card (else: the kind, explicit).
_ANONYMOUS, _UNMARKED, _HELD_UNMARKED, _ANONYMOUS_PLAYED = -1, -2, -3, -4

_State = tuple[
    int,  # the next step
    tuple[int, ...],  # the hand's cards the player has seen: explicit kinds, sorted
    int,  # the hand's unmarked cards the player has seen
    tuple[int, ...],  # the hand's cards the player has not seen: explicit kinds, sorted
    int,  # the hand's unmarked cards the player has not seen yet (it will)
    int,  # the hand's anonymous cards
    int,  # anonymous cards drawn so far
    int,  # unmarked cards not drawn yet
    tuple[int, ...],  # explicit cards the player saw, not seen yet at this step: sorted kinds
    int,  # explicit copies left in the deck, by kind: one bit field per kind (see _Census.copies)
]

_FACTORIALS = [1]


def _factorial(n: int) -> int:
    while len(_FACTORIALS) <= n:
        _FACTORIALS.append(_FACTORIALS[-1] * len(_FACTORIALS))
    return _FACTORIALS[n]


def _without(cards: tuple[int, ...], kind: int) -> tuple[int, ...]:
    at = cards.index(kind)
    return cards[:at] + cards[at + 1 :]


def _merged(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(a + b)) if b else a


def _less_loose(big: tuple[int, ...], small: tuple[int, ...]) -> list[int]:
    """``big − small`` as multisets, the kinds of ``small`` missing from ``big`` ignored."""
    rest = list(big)
    for kind in small:
        if kind in rest:
            rest.remove(kind)
    return rest


def _less(big: tuple[int, ...], small: tuple[int, ...]) -> tuple[int, ...] | None:
    """``big − small`` as sorted multisets, or None when ``small`` is not inside ``big``."""
    rest = list(big)
    for kind in small:
        try:
            rest.remove(kind)
        except ValueError:
            return None
    return tuple(rest)


class _Census:
    """The consistent worlds of one observation, counted exactly, and drawn uniformly.

    A forward search over the steps of the history (:data:`_State`), memoised: the count of a
    state is the number of ways to complete it into a world. Kinds the player's observation
    names individually — every kind with two copies or more, and the single cards it sees played
    or holds — are *explicit*; the other single cards are symmetric and counted, not named:
    *unmarked* cards (seen, but never in sight since) and *anonymous* ones (never seen nor in
    sight). See the module docstring for why this counts every world once.
    """

    def __init__(
        self,
        view: Observation,
        history: Sequence[SeenEvent] | None = None,
        budget: int | None = None,
    ) -> None:
        self.view = view
        self.budget = budget
        kinds = self.kinds = deck_kinds(view.deck)
        self.memo: dict[_State, int] = {}
        self.problem = ""
        players, turn, drawn = view.players, view.turn, view.drawn
        hand_size = players
        self.seat = [
            (view.start_player + (1 if view.pass_left else -1) * t) % players
            for t in range(players * view.rounds + 1)
        ]
        self.steps: list[tuple[int, object]] = []
        self.total = 0
        self.pending = drawn <= hand_size + turn and turn < players * view.rounds
        self.holding = (
            drawn == hand_size + turn + 1
            and turn < players * view.rounds
            and self.seat[turn] == view.player
        )
        if not self._well_formed():
            return
        try:
            seen = Counter(kinds.of(card) for card in view.seen)
            own = [kinds.of(play.card) for play in view.train.plays]
            shown = _shown(view, kinds)
            self.hand = tuple(sorted(kinds.of(card) for card in view.hand))
        except ValueError as error:
            self.problem = str(error)
            return
        copies = kinds.copies
        if any(count > copies[kind] for kind, count in seen.items()):
            self.problem = "a card seen more often than the deck holds it"
            return
        marked = {kind for kind in range(len(copies)) if copies[kind] > 1}
        marked.update(shown, own)
        if not self.holding:
            marked.update(self.hand)
        if history is not None:
            marked.update(seen)  # the turns it saw name every card it saw
        self.explicit = tuple(sorted(marked))
        # The single cards of the hand held now are unmarked too: they are the unmarked cards
        # still in the hand at the end (see _final and world).
        self.kept = [kind for kind in self.hand if kind not in marked]
        self.hand = tuple(kind for kind in self.hand if kind in marked)
        self.unmarked = [kind for kind in sorted(seen) if kind not in marked]
        self.anonymous = [
            kind
            for kind in range(len(copies))
            if kind not in marked and kind not in seen and kind not in shown
        ]
        self.undrawn = len(view.deck) - drawn
        # The deck's copies left are one int, a bit field per kind: a state is hashed at every
        # lookup, and an int hashes and changes faster than a tuple as long as the deck's kinds.
        self.width = max(copies).bit_length()
        self.units = [1 << (self.width * kind) for kind in range(len(copies))]
        self._plan(history)
        self._bounds(seen)
        start: _State = (
            0,
            (),
            0,
            (),
            0,
            0,
            0,
            len(self.unmarked),
            tuple(sorted(k for k in self.explicit for _ in range(seen[k]))),
            sum(copies[k] * self.units[k] for k in marked),
        )
        self.start = start
        # Each path counts every naming of the unmarked cards; those in the hand at the end must
        # be the kept ones: the same share of the namings on every path.
        unmarked, kept = len(self.unmarked), len(self.kept)
        self.total = (
            self.count(start)
            * _factorial(kept)
            * _factorial(unmarked - kept)
            // _factorial(unmarked)
        )

    def failure(self) -> str:
        """The one-line reason no game leads to the observation."""
        view = self.view
        reason = self.problem or (
            "the cards seen, played and held cannot all come from the deck in that order"
        )
        return (
            f"no history of the game matches the observation of player {view.player} "
            f"(turn {view.turn}, {plural(view.drawn, 'card')} drawn): {reason}"
        )

    def _well_formed(self) -> bool:
        """The counts an observation states match each other (how many cards drawn, trains and
        hand); the rest is left to the counting."""
        view = self.view
        players, turn, drawn = view.players, view.turn, view.drawn
        turns = players * view.rounds
        if not 0 <= turn <= turns:
            self.problem = f"turn {turn!r} out of 0..{turns}"
        elif not (
            (
                0 <= drawn <= players + 1
                if turn == 0
                else drawn in (players + turn, players + turn + 1)
            )
            and (turn < turns or drawn == players + turn)
            and drawn <= len(view.deck)
        ):
            self.problem = f"{drawn!r} cards drawn by turn {turn}"
        elif len(view.hand) != (players + 1 if self.holding else 0):
            self.problem = f"a hand of {plural(len(view.hand), 'card')}"
        elif any(
            len(plays) != sum(1 for t in range(turn) if self.seat[t] == seat)
            for seat, plays in enumerate(view.trains)
        ):
            self.problem = "a train with more or fewer cards than the turns played"
        elif tuple(view.trains[view.player]) != tuple(view.train.plays):
            self.problem = "the player's own train differs from its train in the table"
        elif any(
            play is not None and not play.face_up
            for seat, plays in enumerate(view.trains)
            if seat != view.player
            for play in plays
        ):
            self.problem = "another player's face-down card shown"
        else:
            return True
        return False

    def _plan(self, history: Sequence[SeenEvent] | None) -> None:
        """The steps of the history up to the observation."""
        view, kinds, steps = self.view, self.kinds, self.steps
        players, hand_size = view.players, view.players
        own_turns: dict[int, OwnTurnSeen] = {}
        deal: tuple[int, ...] | None = None
        for event in history or ():
            if isinstance(event, OwnTurnSeen):
                own_turns[event.turn] = event
            elif isinstance(event, DealSeen) and event.cards is not None:
                deal = tuple(sorted(kinds.of(card) for card in event.cards))
        steps.extend((_DRAW, -1) for _ in range(min(view.drawn, hand_size)))
        if deal is not None and view.drawn >= hand_size:
            steps.append((_DEAL, deal))
        for turn in range(view.turn + 1):
            if hand_size + turn >= view.drawn:
                break  # this turn's draw is still to come
            seat = self.seat[turn]
            if seat == view.player:
                seen = own_turns.get(turn)
                if seen is None:
                    steps.append((_DRAW, -1))
                    steps.append((_REVEAL, None))
                else:
                    new = tuple(sorted(kinds.of(card) for card in seen.new))
                    held = tuple(sorted(kinds.of(card) for card in seen.held))
                    steps.append((_DRAW, kinds.of(seen.drew)))
                    steps.append((_REVEAL, (new, held)))
            else:
                steps.append((_DRAW, -1))
            if turn < view.turn:
                if seat == view.player:
                    steps.append((_OWN, kinds.of(view.train.plays[turn // players].card)))
                else:
                    play = view.trains[seat][turn // players]
                    if play is None:
                        steps.append((_DOWN, turn))
                    else:
                        steps.append((_UP, kinds.of(play.card)))

    def _bounds(self, seen: Counter[int]) -> None:
        """What the search checks ahead, to cut a branch as soon as it cannot reach a world
        (every cut is a necessary condition). For each step: the next sight of the hand, the
        plays (and face-down plays) before it, the sights after it. For each single card the
        observation shows played or held: the step where it leaves the hand (or the end, for
        the hand held now) and, for a card the player saw, the last sight before that."""
        steps = self.steps
        end = len(steps)
        self.next_sight = [end] * (end + 1)
        self.plays_before = [0] * (end + 1)  # up to the next sight
        self.downs_before = [0] * (end + 1)
        self.sights_after = [0] * (end + 1)  # strictly after the step
        for i in range(end - 1, -1, -1):
            op = steps[i][0]
            following = steps[i + 1][0] if i + 1 < end else None
            self.sights_after[i] = self.sights_after[i + 1] + (following == _REVEAL)
            if op == _REVEAL:
                self.next_sight[i] = i
            else:
                self.next_sight[i] = self.next_sight[i + 1]
                self.plays_before[i] = self.plays_before[i + 1] + (op in (_UP, _DOWN))
                self.downs_before[i] = self.downs_before[i + 1] + (op == _DOWN)
        copies = self.kinds.copies
        self.leaves: dict[int, int] = {}
        for i, (op, arg) in enumerate(steps):
            if op in (_OWN, _UP):
                assert isinstance(arg, int)
                if copies[arg] == 1:
                    self.leaves.setdefault(arg, i)
        if self.holding:
            for kind in self.hand:
                if copies[kind] == 1:
                    self.leaves.setdefault(kind, end)
        self.last_sight: dict[int, int] = {}
        for kind, leaves in self.leaves.items():
            if seen[kind]:
                sights = [i for i in range(leaves) if steps[i][0] == _REVEAL]
                self.last_sight[kind] = sights[-1] if sights else -1
        self.seen_kinds = seen
        # The kinds each draw may bring, as far as the step alone decides (the hot loop of the
        # count then checks only what the state decides).
        self.drawable = [
            tuple(kind for kind in self.explicit if self._may_draw(kind, self.next_sight[i]))
            for i in range(end)
        ]

    def _may_draw(self, kind: int, sight: int) -> bool:
        """Whether a card of ``kind`` may be drawn before the player's next sight of the hand at
        step ``sight``: not a single card it saw if it would leave the hand before that sight,
        nor one it never saw if it would leave the hand after it."""
        leaves, last_sight = self.leaves, self.last_sight
        if kind not in leaves:
            return True
        if kind in last_sight:
            return sight <= last_sight[kind]
        return leaves[kind] <= sight

    # -- the search ----------------------------------------------------------------------------

    def count(self, state: _State) -> int:
        """The number of worlds that complete ``state``."""
        memo = self.memo
        value = memo.get(state)
        if value is None:
            if state[0] == len(self.steps):
                value = self._final(state)
            else:
                value = 0
                for weight, child, _ in self._children(state):
                    known = memo.get(child)  # looked up here: half the children are known
                    value += weight * (self.count(child) if known is None else known)
            memo[state] = value
            if self.budget is not None and len(memo) > self.budget:
                raise _OutOfBudget
        return value

    def _final(self, state: _State) -> int:
        """The worlds at the observation's point: the player saw every card it saw, holds its
        hand; the undrawn cards lie in any order."""
        _, seen, held, unseen, waiting, blanks, anonymous, unmarked, to_see, pool = state
        if to_see or unmarked or waiting:
            return 0
        if self.holding and (seen != self.hand or held != len(self.kept) or unseen or blanks):
            return 0
        left = [self.copies(pool, kind) for kind in self.explicit]
        rest = len(self.anonymous) - anonymous + sum(left)
        assert rest == self.undrawn, (rest, self.undrawn)
        value = _factorial(rest)
        for copies in left:
            if copies > 1:
                value //= _factorial(copies)
        return value

    def copies(self, pool: int, kind: int) -> int:
        """The copies of ``kind`` left in a state's ``pool`` (its bit field)."""
        return (pool >> (self.width * kind)) & ((1 << self.width) - 1)

    def _children(self, state: _State) -> list[tuple[int, _State, int]]:
        """The next step's choices: (how many worlds each stands for, the state after, label)."""
        i, seen, held, unseen, waiting, blanks, anonymous, unmarked, to_see, pool = state
        op, arg = self.steps[i]
        j = i + 1
        end = len(self.steps)
        out: list[tuple[int, _State, int]] = []
        if op == _DRAW:
            assert isinstance(arg, int)
            if arg >= 0:
                draws: Sequence[int] = (arg,) if self._may_draw(arg, self.next_sight[i]) else ()
            else:
                draws = self.drawable[i]
                left = len(self.anonymous) - anonymous
                if left and (blanks < self.downs_before[j] or self.next_sight[j] == end):
                    out.append(
                        (
                            left,
                            (j, seen, held, unseen, waiting, blanks + 1, anonymous + 1)
                            + (unmarked, to_see, pool),
                            _ANONYMOUS,
                        )
                    )
                if unmarked:
                    out.append(
                        (
                            unmarked,
                            (j, seen, held, unseen, waiting + 1, blanks, anonymous)
                            + (unmarked - 1, to_see, pool),
                            _UNMARKED,
                        )
                    )
            # Cards the player must not see (anonymous ones and those beyond what it saw) may not
            # outnumber the plays that take them out of the hand before it looks: at the limit,
            # only a card it is still to see may come.
            room = self.plays_before[j] if self.next_sight[j] < end else end
            excess = blanks + len(_less_loose(unseen, to_see))
            if excess > room:
                draws = ()
            elif excess == room:
                short = _less_loose(to_see, unseen)
                draws = [kind for kind in draws if kind in short]
            width, mask, units = self.width, (1 << self.width) - 1, self.units
            for kind in draws:
                if (pool >> (width * kind)) & mask:
                    out.append(
                        (
                            1,
                            (
                                j,
                                seen,
                                held,
                                tuple(sorted((*unseen, kind))),
                                waiting,
                                blanks,
                                anonymous,
                                unmarked,
                                to_see,
                                pool - units[kind],
                            ),
                            kind,
                        )
                    )
        elif op == _REVEAL:
            if blanks:
                return out  # a card it never saw would be in its hand
            rest = _less(to_see, unseen)
            if rest is None:
                return out
            last_sight = self.last_sight
            if any(last_sight.get(kind, end) <= i for kind in rest):
                return out  # a card the player saw must have been seen by now
            if len(rest) + unmarked > self.view.players * self.sights_after[i]:
                return out  # more cards to see than the later sights show
            hand = _merged(seen, unseen)
            if arg is not None:
                new, holds = cast(tuple[tuple[int, ...], tuple[int, ...]], arg)
                if unseen != new or waiting or hand != holds:
                    return out
            out.append((1, (j, hand, held + waiting, (), 0, 0, anonymous, unmarked, rest, pool), 0))
        elif op == _OWN:
            assert isinstance(arg, int)
            if arg in seen:
                out.append((1, (j, _without(seen, arg), *state[2:]), arg))
        elif op == _UP:
            assert isinstance(arg, int)
            if arg in seen:
                out.append((1, (j, _without(seen, arg), *state[2:]), arg))
            elif arg in unseen:
                after = self._played_unseen(state, arg)
                if after is not None:
                    out.append((1, after, arg))
        elif op == _DOWN:
            leaves = self.leaves
            for kind in sorted(set(seen)):
                if leaves.get(kind, -1) > i:
                    continue  # a card the observation shows leaving later
                out.append((1, (j, _without(seen, kind), *state[2:]), kind))
            if held:
                out.append((held, (j, seen, held - 1, *state[3:]), _HELD_UNMARKED))
            for kind in sorted(set(unseen)):
                if kind not in seen and leaves.get(kind, -1) <= i:
                    # (a play takes the first card of its kind: the seen one when there is one)
                    after = self._played_unseen(state, kind)
                    if after is not None:
                        out.append((1, after, kind))
            if blanks:
                out.append(
                    (
                        blanks,
                        (j, seen, held, unseen, waiting, blanks - 1, anonymous)
                        + (unmarked, to_see, pool),
                        _ANONYMOUS_PLAYED,
                    )
                )
        else:
            assert op == _DEAL
            if unseen == arg and not waiting and not blanks:
                out.append((1, (j, *state[1:]), 0))
        return out

    def _played_unseen(self, state: _State, kind: int) -> _State | None:
        """``state`` after another player plays a card of ``kind`` the player has not seen, or
        None when the copies left can no longer give the player every card it saw."""
        i, seen, held, unseen, waiting, blanks, anonymous, unmarked, to_see, pool = state
        after = _without(unseen, kind)
        if to_see.count(kind) > after.count(kind) + self.copies(pool, kind):
            return None
        return (i + 1, seen, held, after, waiting, blanks, anonymous, unmarked, to_see, pool)

    # -- drawing one -----------------------------------------------------------------------------

    def world(self, chooser: random.Random, *, with_order: bool) -> Game:
        """One world, uniformly: each choice with probability proportional to the worlds it
        leads to, then the symmetric cards named at random and the undrawn rest shuffled."""
        state = self.start
        anonymous, unmarked = list(self.anonymous), list(self.unmarked)
        blanks: list[int] = []  # anonymous cards in the hand
        waiting: list[int] = []  # unmarked cards in the hand, not seen yet
        held: list[int] = []  # unmarked cards in the hand, seen
        slots: list[int] = []  # the unmarked cards drawn, by slot (-1, -2, …) till named
        order: list[int] = []
        hidden: dict[int, int] = {}
        while state[0] < len(self.steps):
            options = self._children(state)
            pick = chooser.randrange(self.count(state))
            chosen = options[-1]
            for option in options:
                share = option[0] * self.count(option[1])
                if pick < share:
                    chosen = option
                    break
                pick -= share
            _, child, label = chosen
            op, arg = self.steps[state[0]]
            if op == _DRAW:
                if label == _ANONYMOUS:
                    kind = anonymous.pop(chooser.randrange(len(anonymous)))
                    blanks.append(kind)
                elif label == _UNMARKED:
                    kind = -1 - len(slots)  # named at the end
                    slots.append(kind)
                    waiting.append(kind)
                else:
                    kind = label
                order.append(kind)
            elif op == _REVEAL:
                held.extend(waiting)
                waiting.clear()
            elif op == _DOWN:
                assert isinstance(arg, int)
                if label == _HELD_UNMARKED:
                    hidden[arg] = held.pop(chooser.randrange(len(held)))
                elif label == _ANONYMOUS_PLAYED:
                    hidden[arg] = blanks.pop(chooser.randrange(len(blanks)))
                else:
                    hidden[arg] = label
            state = child
        # The unmarked cards named: those still in the hand held now are the kept ones, the
        # others the rest, each in a uniformly random order.
        kept = [kind for kind in unmarked if kind in self.kept]
        others = [kind for kind in unmarked if kind not in self.kept]
        chooser.shuffle(kept)
        chooser.shuffle(others)
        names: dict[int, int] = {}
        for slot in slots:
            names[slot] = (kept if self.holding and slot in held else others).pop()
        order = [names.get(kind, kind) for kind in order]
        hidden = {turn: names.get(kind, kind) for turn, kind in hidden.items()}
        pool = state[-1]
        rest = anonymous + [kind for kind in self.explicit for _ in range(self.copies(pool, kind))]
        chooser.shuffle(rest)
        return self._replay(order + rest, hidden, with_order)

    def _replay(self, order: list[int], hidden: dict[int, int], with_order: bool) -> Game:
        """The game of ``order`` (kinds, the whole deck) and the hidden face-down kinds, played
        to the observation's point through :class:`express.Game`, which checks every rule."""
        view, cards = self.view, self.kinds.cards
        deck = tuple(cards[kind] for kind in order)
        ordered = with_order and not self.pending
        try:
            game = Game(
                view.players,
                caboose=view.caboose,
                deck=view.deck,
                order=deck if ordered else None,
                rounds=view.rounds,
                start_player=view.start_player,
                pass_left=view.pass_left,
            )
            while True:
                if game.is_chance_node():
                    if len(game.drawn) >= view.drawn:
                        break
                    game.apply_action(deck[len(game.drawn)])
                elif game.turn < view.turn:
                    turn = game.turn
                    seat = self.seat[turn]
                    play = view.trains[seat][turn // view.players]
                    game.apply_action(
                        Play(cards[hidden[turn]], face_up=False) if play is None else play
                    )
                else:
                    break
        except ExpressError as error:
            # What the counting leaves to the game (a face-up card that cannot connect, an
            # unknown caboose) holds in every world alike.
            raise InconsistentObservation(
                f"no history of the game matches the observation of player {view.player}: {error}"
            ) from None
        if with_order and self.pending:
            game.order = deck  # the shuffle done: the next draws read it (the state stays chance)
        if game.observation(view.player) != view:
            raise ExpressError(
                "a drawn world does not match the observation (a bug: please report it)"
            )
        return game


# -- beyond the budget: the approximate search ------------------------------------------------
# An exact count whose search outgrows _BUDGET states would cost a bot its time: beyond it,
# worlds come from the randomized search below, consistent but not drawn uniformly (the module
# docstring says what holds).


def _approximate_worlds(view: Observation, count: int, rng: np.random.Generator) -> list[Game]:
    """``count`` consistent worlds found by randomized search (not uniform: see the module
    docstring). The player's own side of the history (the hands it held, when) is most of the
    search's cost, so the worlds share one while it keeps leading to complete histories; a
    history that leads to none is dropped for a new one."""
    start = _table(view)
    if not view.drawn:
        return [start.clone() for _ in range(count)]
    own = _OwnHistory(view, random.Random(int(rng.integers(2**63))))
    worlds: list[Game] = []
    turns: list[_OwnTurn] | None = None
    failures = 0
    while len(worlds) < count:
        if turns is None:
            turns = own.draw()
        world = (
            None
            if turns is None
            else _Plan.from_observation(view, turns).search(
                start, rng, keep=lambda world: world.observation(view.player) == view, attempts=1
            )
        )
        if world is None:
            turns = None
            failures += 1
            if failures >= _ATTEMPTS:
                raise InconsistentObservation(
                    f"no history of the game matches the observation of player {view.player} "
                    f"(turn {view.turn}, {plural(view.drawn, 'card')} drawn): none found"
                )
            continue
        rest = list((Counter(view.deck) - Counter(world.drawn)).elements())
        rest = [rest[int(i)] for i in rng.permutation(len(rest))]
        world.order = (*world.drawn, *rest)  # the undrawn rest in a uniformly random order
        worlds.append(world)
        failures = 0  # _ATTEMPTS in a row for each world, as for one alone
    return worlds


def _approximate_resample(game: Game, player: int, rng: np.random.Generator) -> Game:
    """A world with ``game``'s observation and seen history found by randomized search."""
    view = game.observation(player)
    plan = _Plan.from_state(game, player, rng)
    known = seen_history(game, player)

    def same(world: Game) -> bool:
        return world.observation(player) == view and seen_history(world, player) == known

    world = plan.search(_table(view), rng, keep=same)
    if world is None:
        raise ExpressError(
            "no history of the game matches what the player saw (a bug: please report it)"
        )
    return world


def _table(view: Observation) -> Game:
    """A new game at ``view``'s table: players, caboose, deck, rounds, start player, direction."""
    return Game(
        view.players,
        caboose=view.caboose,
        deck=view.deck,
        rounds=view.rounds,
        start_player=view.start_player,
        pass_left=view.pass_left,
    )


# -- drawing a hidden world -----------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    """One step of a history: a draw (``play`` False) or a play; ``card`` None when the step is
    hidden from the player (a draw, or a face-down card of another player)."""

    play: bool
    card: Card | None
    face_up: bool = True


_Counts = dict[int, int]
"""Cards by kind → how many (kinds with none left out)."""


def _counted(kinds: Iterable[int]) -> _Counts:
    return dict(Counter(kinds))


def _minus(a: _Counts, b: _Counts) -> _Counts:
    """``a − b``, the kinds that stay positive."""
    out = {kind: count - b.get(kind, 0) for kind, count in a.items()}
    return {kind: count for kind, count in out.items() if count > 0}


@dataclass(frozen=True)
class _Ahead:
    """What lies ahead of one step up to the player's next decision (``decision``): the
    player's own draws and the hidden draws up to it (its own included), the plays whose card
    it knows and the others' face-down plays before it; and every play it knows of to the end."""

    decision: int | None
    draws: _Counts
    hidden_draws: int
    known_plays: _Counts
    face_down: int
    shown: _Counts


class _OutOfBudget(Exception):
    pass


_NODE_BUDGET = 2_000
"""Steps a search of a history may try before it starts afresh."""
_ATTEMPTS = 100
"""Fresh starts before a search gives up (a bug: a consistent history always exists)."""
_OWN_BUDGET = 200
"""Decisions the search of a player's own history may try before it starts afresh."""
_SAMPLES = 12
"""Random hands tried at one decision of the player's own history."""


class _Plan:
    """The steps of a history as one player saw them, and what it saw at each of its decisions:
    ``hands[step]`` the hand it held (by kind) at the decision reached by that step (its own
    draw) and ``news[step]`` which of those cards were new to it.

    :meth:`search` walks the steps through the game itself, trying the hidden choices in a
    random order; :meth:`_counts_ok` cuts a branch as soon as a necessary condition fails: the
    deck must still hold every card a later decision needs, the hand must still be able to
    become the next known hand, and so on (each test says why it is necessary).
    """

    def __init__(
        self,
        player: int,
        kinds: Kinds,
        steps: list[_Step],
        decisions: list[int],
        hands: dict[int, _Counts],
        news: dict[int, _Counts],
        required: _Counts,
    ) -> None:
        self.player = player
        self.kinds = kinds
        self.copies = kinds.copies
        self.steps = steps
        self.decisions = decisions  # the indices of the steps after which the player decides
        self.decision_set = frozenset(decisions)
        self.hands = hands
        self.news = news
        self.required = required  # the fewest cards of each kind the whole history draws
        self.draws = sum(1 for step in steps if not step.play)
        self.ahead = self._aheads()
        # Each stretch between two decisions (from the start for the first) draws from the deck
        # at least the cards its end hand and its plays in sight need beyond the hand at its
        # start, its own draws, and the cards new at its end.
        demands: dict[int, _Counts] = {}
        for previous, decision in zip(decisions, decisions[1:]):
            demands[decision] = self._demand(
                hands[decision], hands[previous], {}, self.ahead[previous + 1], news[decision]
            )
        self.later: dict[int, _Counts] = {}
        for decision in decisions:
            total: Counter[int] = Counter()
            for other in decisions:
                if other > decision:
                    total.update(demands[other])
            self.later[decision] = dict(total)
        self.last_hand = hands[decisions[-1]] if decisions else {}
        self.tail_shown = self.ahead[decisions[-1] + 1].shown if decisions else {}

    def _aheads(self) -> list[_Ahead]:
        """What lies ahead of each step up to the player's next decision, gathered backwards
        from the end in one pass."""
        kinds, steps = self.kinds, self.steps

        def plus(counts: _Counts, kind: int | None) -> _Counts:
            return counts if kind is None else {**counts, kind: counts.get(kind, 0) + 1}

        following = _Ahead(None, {}, 0, {}, 0, {})
        aheads = [following]
        for index in range(len(steps) - 1, -1, -1):
            step = steps[index]
            kind = None if step.card is None else kinds.of(step.card)
            draw = (
                kind if not step.play else None
            )  # the player's own draws (the others' are hidden)
            known = kind if step.play else None  # plays whose card the player knows
            hidden_draw = int(not step.play and step.card is None)
            face_down = int(step.play and step.card is None)
            shown = plus(following.shown, known)
            if index in self.decision_set:  # the decision reached by this draw
                following = _Ahead(index, plus({}, draw), hidden_draw, {}, 0, shown)
            elif following.decision is None:
                following = _Ahead(None, {}, 0, {}, 0, shown)
            else:
                following = _Ahead(
                    following.decision,
                    plus(following.draws, draw),
                    following.hidden_draws + hidden_draw,
                    plus(following.known_plays, known),
                    following.face_down + face_down,
                    shown,
                )
            aheads.append(following)
        aheads.reverse()
        return aheads

    @staticmethod
    def _demand(
        target: _Counts, hand: _Counts, fresh: _Counts, ahead: _Ahead, news: _Counts
    ) -> _Counts:
        """The fewest cards of each kind drawn between now (``hand``, of which ``fresh`` unseen by
        the player) and the decision with hand ``target``: the player's own draws; the cards of
        the target and of the plays in sight before it that the hand lacks; and the cards new at
        the decision, less those in the hand that are still unseen."""
        demand = {}
        for kind in set(target) | set(ahead.known_plays) | set(ahead.draws) | set(news):
            own = ahead.draws.get(kind, 0)
            need = own + max(
                0, target.get(kind, 0) + ahead.known_plays.get(kind, 0) - own - hand.get(kind, 0)
            )
            need = max(need, news.get(kind, 0) - fresh.get(kind, 0))
            if need:
                demand[kind] = need
        return demand

    # -- building ----------------------------------------------------------------------------

    @classmethod
    def from_state(cls, game: Game, player: int, rng: np.random.Generator) -> _Plan:
        """The history of ``game`` as ``player`` saw it: its deal (in an order drawn by ``rng``),
        draws and plays, the others' face-up cards; its hand and new cards at each decision."""
        kinds = deck_kinds(game.deck)
        new = _new_by_turn(game, player)
        steps: list[_Step] = []
        decisions: list[int] = []
        hands: dict[int, _Counts] = {}
        news: dict[int, _Counts] = {}
        dealt = min(len(game.drawn), game.hand_size)
        if player == game.start_player and dealt == game.hand_size:
            # Its own deal, in an order of its own: the order is not something it saw.
            steps.extend(_Step(False, game.drawn[int(i)]) for i in rng.permutation(dealt))
        else:
            steps.extend(_Step(False, None) for _ in range(dealt))

        def decide(turn: int, drew: Card, hand: Iterable[Card]) -> None:
            steps.append(_Step(False, drew))
            decisions.append(len(steps) - 1)
            hands[len(steps) - 1] = _counted(kinds.of(card) for card in hand)
            news[len(steps) - 1] = _counted(kinds.of(game.drawn[i]) for i in new.get(turn, ()))

        turns = [event for event in game.events if isinstance(event, Turn)]
        for turn, event in enumerate(turns):
            if event.player == player:
                decide(turn, event.drew, event.hand)
                steps.append(_Step(True, event.play.card, event.play.face_up))
            else:
                steps.append(_Step(False, None))
                steps.append(
                    _Step(True, event.play.card if event.play.face_up else None, event.play.face_up)
                )
        if len(game.drawn) > game.hand_size + game.turn:  # the draw of the turn in progress
            if game.current_player() == player:
                decide(game.turn, game.drawn[-1], game.hand_cards())
            else:
                steps.append(_Step(False, None))
        return cls(
            player, kinds, steps, decisions, hands, news, _required(game.observation(player), kinds)
        )

    @classmethod
    def from_observation(cls, view: Observation, own: list[_OwnTurn]) -> _Plan:
        """The history skeleton of ``view`` — the others' face-up plays and the player's own
        plays in place, the others' draws and face-down cards hidden — with the player's own
        draws, hands and new cards at its decisions taken from ``own``."""
        kinds = deck_kinds(view.deck)
        players = hand_size = view.players
        step = 1 if view.pass_left else -1
        steps = [_Step(False, None) for _ in range(min(view.drawn, hand_size))]
        decisions: list[int] = []
        hands: dict[int, _Counts] = {}
        news: dict[int, _Counts] = {}
        turns = view.turn + (1 if view.drawn > hand_size + view.turn else 0)
        mine = iter(own)
        for turn in range(turns):
            seat = (view.start_player + step * turn) % players
            if seat == view.player:
                decision = next(mine)
                steps.append(_Step(False, kinds.cards[decision.draw]))
                decisions.append(len(steps) - 1)
                hands[len(steps) - 1] = decision.hand
                news[len(steps) - 1] = decision.new
            else:
                steps.append(_Step(False, None))
            if turn < view.turn:
                play = view.trains[seat][turn // players]
                steps.append(
                    _Step(True, None, face_up=False)
                    if play is None
                    else _Step(True, play.card, play.face_up)
                )
        return cls(view.player, kinds, steps, decisions, hands, news, _required(view, kinds))

    # -- searching ---------------------------------------------------------------------------

    def search(
        self,
        start: Game,
        rng: np.random.Generator,
        keep: Callable[[Game], bool],
        attempts: int = _ATTEMPTS,
    ) -> Game | None:
        """A history from ``start`` that follows the plan and that ``keep`` accepts (the final,
        complete comparison), found by a randomized depth-first search; restarts with fresh
        random choices when a search grows past its budget (a rare unlucky early choice can
        leave a large tree without a consistent world). None when there is none, or none was
        found in ``attempts`` searches."""
        for _ in range(attempts):
            chooser = random.Random(int(rng.integers(2**63)))
            self._nodes = 0
            try:
                return self._visit(start, 0, [0] * len(self.copies), chooser, keep)
            except _OutOfBudget:
                continue
        return None

    def _visit(
        self,
        game: Game,
        index: int,
        drawn: list[int],
        chooser: random.Random,
        keep: Callable[[Game], bool],
    ) -> Game | None:
        self._nodes += 1
        if self._nodes > _NODE_BUDGET:
            raise _OutOfBudget
        if index == len(self.steps):
            return game if keep(game) else None
        step, kinds = self.steps[index], self.kinds
        if step.play:
            for play in self._plays(game, step, chooser):
                child = game.clone()
                child.apply_action(play)
                hand, fresh = self._hand(child)
                if self._counts_ok(index + 1, hand, fresh, drawn):
                    world = self._visit(child, index + 1, drawn, chooser, keep)
                    if world is not None:
                        return world
            return None
        deciding = index in self.decision_set
        hand, fresh = self._hand(game)
        for card in self._draws(game, step, chooser):
            kind = kinds.of(card)
            after = drawn.copy()
            after[kind] += 1
            if not deciding:
                # A card drawn by another player joins the hand unseen by this one: test the
                # counts before paying for a copy of the game.
                if not self._counts_ok(
                    index + 1,
                    {**hand, kind: hand.get(kind, 0) + 1},
                    {**fresh, kind: fresh.get(kind, 0) + 1},
                    after,
                ):
                    continue
            child = game.clone()
            child.apply_action(card)
            if deciding:
                child_hand, child_fresh = self._hand(child)
                if not (
                    self._decision_ok(child, index)
                    and self._counts_ok(index + 1, child_hand, child_fresh, after)
                ):
                    continue
            world = self._visit(child, index + 1, after, chooser, keep)
            if world is not None:
                return world
        return None

    def _hand(self, game: Game) -> tuple[_Counts, _Counts]:
        """The hand by kind, and its cards the player has not seen."""
        kinds, seen = self.kinds, game.seen[self.player]
        hand: _Counts = {}
        fresh: _Counts = {}
        for index in game.hand:
            kind = kinds.of(game.drawn[index])
            hand[kind] = hand.get(kind, 0) + 1
            if index not in seen:
                fresh[kind] = fresh.get(kind, 0) + 1
        return hand, fresh

    def _draws(self, game: Game, step: _Step, chooser: random.Random) -> list[Card]:
        outcomes = [(card, p) for card, p in game.chance_outcomes() if isinstance(card, Card)]
        if step.card is not None:
            return [card for card, _ in outcomes if card == step.card]
        # An order drawn with the chance probabilities (weighted sampling without replacement).
        keyed = sorted(
            ((chooser.random() ** (1.0 / float(p)), card) for card, p in outcomes),
            key=lambda pair: -pair[0],
        )
        return [card for _, card in keyed]

    def _plays(self, game: Game, step: _Step, chooser: random.Random) -> list[Play]:
        hand = list(dict.fromkeys(game.hand_cards()))
        if step.card is not None:
            return [Play(step.card, step.face_up)] if step.card in hand else []
        chooser.shuffle(hand)
        return [Play(card, face_up=False) for card in hand]

    def _counts_ok(self, index: int, hand: _Counts, fresh: _Counts, drawn: list[int]) -> bool:
        """False when no continuation from step ``index`` — with ``hand`` (``fresh``: its cards
        unseen by the player) and ``drawn`` cards of each kind so far — can follow the plan.
        Every test is a necessary condition: only branches that cannot succeed are cut."""
        copies, ahead = self.copies, self.ahead[index]
        if index < len(self.steps):
            step = self.steps[index]
            if step.play and step.card is not None and not hand.get(self.kinds.of(step.card)):
                return False  # the next play is of a card the hand must hold now
        # Every card the history must still draw needs a draw of its own.
        short = sum(
            need - drawn[kind] for kind, need in self.required.items() if need > drawn[kind]
        )
        if short > self.draws - sum(drawn):
            return False
        # The cards played in sight from here on come from the hand or the deck.
        for kind, count in ahead.shown.items():
            if count > hand.get(kind, 0) + copies[kind] - drawn[kind]:
                return False
        decision = ahead.decision
        if decision is None:
            return True  # nothing the player sees lies ahead
        if not self._deck_suffices(decision, ahead, hand, fresh, drawn):
            return False
        # hand + draws − plays = the next hand: the missing cards must be drawn, the extra ones
        # played face down.
        target, news = self.hands[decision], self.news[decision]
        over = dict(hand)
        for kind, count in ahead.draws.items():
            over[kind] = over.get(kind, 0) + count
        for kind, count in ahead.known_plays.items():
            over[kind] = over.get(kind, 0) - count
        missing = sum(max(0, count - over.get(kind, 0)) for kind, count in target.items())
        extra = sum(max(0, count - target.get(kind, 0)) for kind, count in over.items())
        if missing > ahead.hidden_draws or extra > ahead.face_down:
            return False
        # The unseen cards in the hand become new to the player at its decision unless played
        # first; its own draws are new to it. Those not new there must leave the hand first: by
        # a play of their kind, or face down.
        allowed = dict(news)
        for kind, count in ahead.draws.items():
            allowed[kind] = allowed.get(kind, 0) - count
            if allowed[kind] < 0:
                return False
        surplus = sum(
            max(0, count - allowed.get(kind, 0) - ahead.known_plays.get(kind, 0))
            for kind, count in fresh.items()
        )
        if surplus > ahead.face_down:
            return False
        # The new cards not in the hand yet are drawn; the cards of the next hand that are not
        # new are in the hand now, seen (cards only leave the hand).
        lacking = _minus(allowed, fresh)
        if sum(lacking.values()) > ahead.hidden_draws:
            return False
        for kind, count in _minus(target, news).items():
            if count > hand.get(kind, 0) - fresh.get(kind, 0):
                return False
        return True

    def _deck_suffices(
        self, decision: int, ahead: _Ahead, hand: _Counts, fresh: _Counts, drawn: list[int]
    ) -> bool:
        """The deck can supply every later decision, one stretch after the other (see
        :meth:`_demand`), and then the plays in sight after the last of them."""
        copies = self.copies
        first = self._demand(self.hands[decision], hand, fresh, ahead, self.news[decision])
        later = self.later[decision]
        for kind in set(first) | set(later) | set(self.tail_shown):
            left = copies[kind] - drawn[kind] - first.get(kind, 0) - later.get(kind, 0)
            if left < 0 or self.tail_shown.get(kind, 0) > self.last_hand.get(kind, 0) + left:
                return False
        return True

    def _decision_ok(self, game: Game, step: int) -> bool:
        """At the player's decision reached by ``step``: the hand it holds and the cards new to it."""
        kinds = self.kinds
        if _counted(kinds.of(card) for card in game.hand_cards()) != self.hands[step]:
            return False
        new = _new_by_turn(game, self.player).get(game.turn, ())
        return _counted(kinds.of(game.drawn[i]) for i in new) == self.news[step]


@dataclass(frozen=True)
class _OwnTurn:
    """One decision of the player in an invented history: its own draw (a kind), the hand it
    held and which of those cards were new to it."""

    draw: int
    hand: _Counts
    new: _Counts


class _OwnHistory:
    """:func:`sample_world`'s first stage: the player's own side of a history — the hand
    held and the cards new at each of its decisions — consistent with its observation.

    An observation tells the cards the player has seen (``seen``), its plays, the others' plays
    in sight and its hand now, not when it saw what. Between two of its decisions the hand it
    passed (N cards) loses one card to each of the other P − 1 players and gains their draws:
    some cards come back (old), the others' draws that survive are new, and so is its own draw.
    A play in sight of a kind still in the hand takes the oldest copy (the game's rule), so it
    takes a card the player has seen when there is one. Every seen card is new exactly once;
    the deck must hold every card seen and every card played in sight that was not seen.

    The hands are chosen decision by decision in a random order, backtracking from dead ends;
    the second stage (:class:`_Plan`) then looks for the rest of a history with those hands,
    and a failure there makes this stage draw again.
    """

    def __init__(self, view: Observation, rng: random.Random) -> None:
        kinds = deck_kinds(view.deck)
        self.kinds, self.copies, self.rng = kinds, kinds.copies, rng
        self.players = self.hand_size = view.players
        step = 1 if view.pass_left else -1
        holding = bool(view.hand)
        turns = view.turn + (1 if holding else 0)
        own_turns = [
            turn
            for turn in range(turns)
            if (view.start_player + step * turn) % view.players == view.player
        ]
        self.plays = [kinds.of(play.card) for play in view.train.plays] + (
            [] if not holding else [-1]
        )
        self.final = _counted(kinds.of(card) for card in view.hand) if holding else None
        # The plays in sight of the others before each decision (since the previous one), and
        # after the last.
        self.between: list[_Counts] = []
        self.face_down: list[int] = []
        previous = -1
        for turn in [*own_turns, view.turn]:
            known = []
            hidden = 0
            for other in range(previous + 1, min(turn, view.turn)):
                seat = (view.start_player + step * other) % view.players
                play = view.trains[seat][other // view.players]
                if play is None:
                    hidden += 1
                else:
                    known.append(kinds.of(play.card))
            self.between.append(_counted(known))
            self.face_down.append(hidden)
            previous = turn
        self.decisions = len(own_turns)
        self.seen = _counted(kinds.of(card) for card in view.seen)
        self._nodes = 0

    def draw(self) -> list[_OwnTurn] | None:
        """One own history, or None when the search gave up."""
        self._nodes = 0
        try:
            return self._choose(0, None, dict(self.seen), {})
        except _OutOfBudget:
            return None

    def _fits_deck(self, unseen_plays: _Counts) -> bool:
        return all(
            self.seen.get(kind, 0) + count <= self.copies[kind]
            for kind, count in unseen_plays.items()
        )

    def _choose(
        self, index: int, passed: _Counts | None, unseen: _Counts, unseen_plays: _Counts
    ) -> list[_OwnTurn] | None:
        """Decisions ``index`` on, given the hand the player passed last (None before its first)
        and the seen cards not yet new (``unseen``); ``unseen_plays``: the cards played in sight
        that it never saw."""
        self._nodes += 1
        if self._nodes > _OWN_BUDGET:
            raise _OutOfBudget
        known = self.between[index]
        # The plays in sight before this decision take seen cards where the passed hand has them.
        taken = (
            {}
            if passed is None
            else {kind: min(count, passed.get(kind, 0)) for kind, count in known.items()}
        )
        never = dict(Counter(unseen_plays) + Counter(_minus(known, taken)))
        if not self._fits_deck(never):
            return None
        if index == self.decisions:
            return [] if not unseen else None  # every seen card was new at some decision
        for hand, new in self._hands(index, passed, taken, unseen, never):
            left = _minus(unseen, new)
            if not self._can_finish(index, hand, left):
                continue
            play = self.plays[index]
            rest = self._choose(
                index + 1, _minus(hand, {play: 1}) if play >= 0 else hand, left, never
            )
            if rest is not None:
                draws = [kind for kind, count in new.items() for _ in range(count)]
                return [_OwnTurn(self.rng.choice(draws), hand, new), *rest]
        return None

    def _can_finish(self, index: int, hand: _Counts, unseen: _Counts) -> bool:
        """Later decisions can still make the unseen cards new: at least one (its own draw) and
        at most P a decision, and with the last hand known, the cards it lacks before it; and
        the cards of the last hand already seen stay in the hand the player passes."""
        later = self.decisions - index - 1
        if self.final is not None and later:
            play = self.plays[index]
            if _minus(_minus(self.final, unseen), _minus(hand, {play: 1})):
                return False
        if not later <= sum(unseen.values()) <= self.players * later:  # its own draw is new
            return False
        if self.final is not None and later:
            lacking = sum(max(0, count - self.final.get(kind, 0)) for kind, count in unseen.items())
            return lacking <= self.players * (later - 1)
        return True

    def _must_hold(self, index: int, unseen: _Counts, never: _Counts) -> _Counts:
        """The cards the hand at decision ``index`` must hold: the card played from it, the
        cards of the known last hand already seen, and the cards the plays in sight before the
        next decision take that the deck cannot supply unseen (they must be cards the player
        passed on, seen)."""
        play = self.plays[index]
        need: _Counts = {play: 1} if play >= 0 else {}
        if self.final is not None and index < self.decisions - 1:
            # The cards of the last hand that are not new there are held from before.
            for kind, count in _minus(self.final, unseen).items():
                need[kind] = need.get(kind, 0) + count
        if index + 1 < len(self.between):
            for kind, count in self.between[index + 1].items():
                old = self.seen.get(kind, 0) + never.get(kind, 0) + count - self.copies[kind]
                if old > 0:
                    need[kind] = need.get(kind, 0) + old
        return need

    def _hands(
        self, index: int, passed: _Counts | None, taken: _Counts, unseen: _Counts, never: _Counts
    ) -> Iterable[tuple[_Counts, _Counts]]:
        """Hands for decision ``index`` and their new cards, in a random order (a bounded number
        of random draws for the free ones)."""
        pool = [kind for kind, count in unseen.items() for _ in range(count)]
        need = self._must_hold(index, unseen, never)
        final = self.final if index == self.decisions - 1 else None  # the last hand, when known
        if passed is None:
            return self._first_hands(index, pool, unseen, need, final)
        return self._later_hands(index, passed, taken, pool, unseen, need, final)

    def _first_hands(
        self, index: int, pool: list[int], unseen: _Counts, need: _Counts, final: _Counts | None
    ) -> Iterable[tuple[_Counts, _Counts]]:
        """The first hand: all its cards new."""
        if final is not None:
            if not (_minus(final, unseen) or _minus(unseen, final)):
                yield final, final
            return
        tried: set[object] = set()
        for _ in range(_SAMPLES):
            chosen = self._sample(pool, self.hand_size + 1, self._with_urgent(index, unseen, need))
            if chosen is None:
                return
            key = tuple(sorted(chosen.items()))
            if key not in tried:
                tried.add(key)
                yield chosen, chosen

    def _later_hands(
        self,
        index: int,
        passed: _Counts,
        taken: _Counts,
        pool: list[int],
        unseen: _Counts,
        need: _Counts,
        final: _Counts | None,
    ) -> Iterable[tuple[_Counts, _Counts]]:
        """A later hand: the passed hand loses the cards the plays in sight took and some more
        face down, r in all, and gains r + 1 new cards."""
        removable = _minus(passed, taken)
        forced = sum(taken.values())
        most = forced + self.face_down[index]
        if final is not None:
            old = _minus(final, unseen)
            if _minus(unseen, final) or _minus(old, removable):
                return
            removed = self.hand_size - sum(old.values())
            if forced <= removed <= most and sum(final.values()) - sum(old.values()) == removed + 1:
                yield final, _minus(final, old)
            return
        seen_hands: set[object] = set()
        for _ in range(_SAMPLES):
            if len(pool) - 1 < forced:
                return
            # The cards that must be new bound r from below (drawn before the old cards are known).
            must_new = self._with_urgent(index, unseen, need)
            lowest = max(forced, sum(must_new.values()) - sum(need.values()) - 1)
            if lowest > min(most, len(pool) - 1):
                return
            removed = self.rng.randint(lowest, min(most, len(pool) - 1))
            # Face down go cards in a random order, those the hand must hold last.
            spare = _minus(removable, need)
            kept = _minus(removable, spare)
            order = [kind for kind, count in spare.items() for _ in range(count)]
            self.rng.shuffle(order)
            tail = [kind for kind, count in kept.items() for _ in range(count)]
            self.rng.shuffle(tail)
            old = _minus(removable, _counted((order + tail)[: removed - forced]))
            new = self._sample(
                pool, removed + 1, self._with_urgent(index, unseen, _minus(need, old))
            )
            if new is None:
                continue
            hand = dict(Counter(old) + Counter(new))
            pair = (tuple(sorted(hand.items())), tuple(sorted(new.items())))
            if pair not in seen_hands:
                seen_hands.add(pair)
                yield hand, new

    def _with_urgent(self, index: int, unseen: _Counts, must: _Counts) -> _Counts:
        """``must`` and, drawn at random, the unseen cards that must be new at decision ``index``
        because the later decisions cannot show them all (at most P new cards each; with the
        last hand known, the unseen cards it lacks must come before it)."""
        if self.final is not None:
            waiting = _minus(unseen, self.final)
            room = self.players * max(0, self.decisions - index - 2)
        else:
            waiting = dict(unseen)
            room = self.players * (self.decisions - index - 1)
        urgent = (
            sum(waiting.values())
            - room
            - sum(min(count, waiting.get(kind, 0)) for kind, count in must.items())
        )
        if urgent <= 0:
            return must
        pool = [kind for kind, count in _minus(waiting, must).items() for _ in range(count)]
        picked = self.rng.sample(pool, min(urgent, len(pool)))
        return dict(Counter(must) + Counter(picked))

    def _sample(self, pool: list[int], size: int, must: _Counts) -> _Counts | None:
        """``size`` cards drawn from ``pool`` at random, holding ``must`` (None when impossible)."""
        cards = list(pool)
        chosen: list[int] = []
        for kind, count in must.items():
            for _ in range(count):
                if kind not in cards:
                    return None
                cards.remove(kind)
                chosen.append(kind)
        if len(cards) < size - len(chosen) or size < len(chosen):
            return None
        chosen.extend(self.rng.sample(cards, size - len(chosen)))
        return _counted(chosen)


def _shown(view: Observation, kinds: Kinds) -> Counter[int]:
    """The kinds of the face-up cards in the other players' trains, with their counts."""
    return Counter(
        kinds.of(play.card)
        for seat, plays in enumerate(view.trains)
        if seat != view.player
        for play in plays
        if play is not None
    )


def _required(view: Observation, kinds: Kinds) -> _Counts:
    """The fewest cards of each kind a history leading to ``view`` draws: every card the player
    has seen, and every card in sight in a train (the player's own were all seen)."""
    seen = Counter(kinds.of(card) for card in view.seen)
    shown = _shown(view, kinds)
    shown.update(kinds.of(card) for card in view.train.cards)
    return {kind: max(seen[kind], shown[kind]) for kind in set(seen) | set(shown)}
