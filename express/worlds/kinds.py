"""A deck's card kinds (identical cards are one kind, as they are one chance outcome) and the
game view of an observation.

:func:`deck_kinds` (a deck's distinct cards, each kind's copies, card → kind) and :func:`game_view`
(an observation of either kind → the current game's :class:`express.Observation`) are shared
with :mod:`express.openspiel`, which renders :func:`~express.worlds.seen_history` as its information-state
string.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from arena.memo import IdentityMemo
from express.cards import Card
from express.game import Observation
from express.match import MatchObservation

__all__ = ["Kinds", "deck_kinds", "game_view", "shown_kinds"]


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


def shown_kinds(view: Observation, kinds: Kinds) -> Counter[int]:
    """The kinds of the face-up cards in the other players' trains, with their counts."""
    return Counter(
        kinds.of(play.card)
        for seat, plays in enumerate(view.trains)
        if seat != view.player
        for play in plays
        if play is not None
    )
