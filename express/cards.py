"""Colours, cars, cards and the deck of Yardmaster Express — the game's data, with provenance.

A railcar card is split into a left and a right car; each car has a colour (its cargo) and a
value 2, 3 or 4. The text notation is the rules page's: colour letter plus value per car,
``LEFT|RIGHT``:

>>> card = Card.parse("R3|G3")
>>> card.left, card.value
(Car.parse('R3'), 6)
>>> str(card)
'R3|G3'

A card played face down shows its back, two wild cars worth 2 each (:data:`WILD`); the engine
that starts every train is a single wild car worth 0 (:data:`ENGINE`). Wild cars print as
``*2`` and ``*0``.

Source of the deck: the project's rules page (``docs/rules/yardmaster-express.md``), which
transcribes the only complete public card list, a mid-2014 prototype of 31 cards, and infers
the 32nd (a second G2|G2: every other colour has two 2|2 cards).

Deck text and deck files (:func:`express.parse_deck`, :func:`express.load_deck`) are
:mod:`express.deck`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from arena.memo import HashedOnce
from arena.values import whole_number
from express.errors import ParseError, type_error
from express.rules import CAR_VALUES, ENGINE_VALUE, WILD_CAR_VALUE, check_players, left_out_colors

__all__ = [
    "Color",
    "Car",
    "Card",
    "WILD",
    "ENGINE",
    "Provenance",
    "DeckEntry",
    "DECK_ENTRIES",
    "DECK",
    "deck_for",
    "format_cards",
]

"""The comment character of deck files (shared with Pack & Stack's, whose masks use ``#``)."""


class Color(Enum):
    """The five cargo colours; the value is the colour's letter in the card notation.

    >>> Color.parse("g"), Color.GREEN.cargo
    (<Color.GREEN: 'G'>, 'timber')
    """

    BLUE = "B"
    RED = "R"
    GREEN = "G"
    YELLOW = "Y"
    PURPLE = "P"

    @classmethod
    def _missing_(cls, value: object) -> Color:
        # Color("X") is bad input like Color.parse("X"): the package's error, not a bare ValueError.
        raise ParseError(f"unknown colour: {value!r} (use B, R, G, Y or P)")

    @property
    def cargo(self) -> str:
        """What the cars of this colour carry (the rules page's names)."""
        return _CARGO[self]

    @classmethod
    def parse(cls, text: str) -> Color:
        """The colour of a letter B, R, G, Y or P (either case)."""
        if not isinstance(text, str):
            raise type_error("Color.parse: text", "a colour letter (str)", text)
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise ParseError(f"unknown colour: {text!r} (use B, R, G, Y or P)") from None


_CARGO = {
    Color.BLUE: "coal",
    Color.RED: "livestock",
    Color.GREEN: "timber",
    Color.YELLOW: "oil",
    Color.PURPLE: "automobiles",
}

_CAR_VALUES = CAR_VALUES
# A wild car is worth 2 when it is the back of a card and 0 when it is the engine.
_WILD_VALUES = (ENGINE_VALUE, WILD_CAR_VALUE)


@dataclass(frozen=True)
class Car(HashedOnce):
    """One half of a card: a colour and a value, or a wild car (``color is None``).

    >>> Car.parse("B4"), Car.parse("*2") == WILD
    (Car.parse('B4'), True)
    """

    color: Color | None
    value: int

    __hash__ = HashedOnce.__hash__  # cars and cards key the searches' hot tables

    def __post_init__(self) -> None:
        if self.color is not None and not isinstance(self.color, Color):
            raise type_error("Car: color", "a Color or None (wild)", self.color)
        if type(self.value) is not int:
            object.__setattr__(self, "value", whole_number(self.value, "value", where="Car"))
        if self.color is None and self.value not in _WILD_VALUES:
            raise ParseError(
                f"invalid car: {self._text()!r} (a wild car is '*2', or '*0' for the engine)"
            )
        if self.color is not None and self.value not in _CAR_VALUES:
            raise ParseError(f"invalid car: {self._text()!r} (a car's value is 2, 3 or 4)")
        # The colour's letter as an int: a str's hash differs from process to process.
        self._remember_hash((0 if self.color is None else ord(self.color.value), self.value))

    @property
    def is_wild(self) -> bool:
        """True for the back of a card and for the engine: no colour, connects to anything."""
        return self.color is None

    @classmethod
    def parse(cls, text: str) -> Car:
        """A car from its notation: colour letter and value (``R3``), or ``*2`` / ``*0`` for wilds."""
        if not isinstance(text, str):
            raise type_error("Car.parse: text", "a car's notation (str), like 'R3'", text)
        token = text.strip()
        match = re.fullmatch(r"([A-Za-z*])([0-9]+)", token)
        if match is None:
            raise ParseError(
                f"invalid car: {text!r} (expected a colour letter and a value, like 'R3')"
            )
        letter, digits = match.groups()
        value = int(digits)
        if letter == "*":
            if value not in _WILD_VALUES:
                raise ParseError(
                    f"invalid car: {text!r} (a wild car is '*2', or '*0' for the engine)"
                )
            return cls(None, value)
        try:
            color = Color(letter.upper())
        except ValueError:
            raise ParseError(
                f"invalid car: {text!r} (unknown colour {letter!r}; use B, R, G, Y or P)"
            ) from None
        if value not in _CAR_VALUES:
            raise ParseError(f"invalid car: {text!r} (a car's value is 2, 3 or 4)")
        return cls(color, value)

    def _text(self) -> str:
        letter = "*" if self.color is None else self.color.value
        return f"{letter}{self.value}"

    def __str__(self) -> str:
        return self._text()

    def __repr__(self) -> str:
        return f"Car.parse({self._text()!r})"


WILD = Car(None, WILD_CAR_VALUE)
"""Each half of a face-down card: no colour, worth 2."""

ENGINE = Car(None, ENGINE_VALUE)
"""The engine that starts every train: one wild car worth 0."""


@dataclass(frozen=True)
class Card(HashedOnce):
    """A railcar card: a left and a right car, both coloured. Cards are never rotated.

    >>> Card.parse("b2|b3")
    Card.parse('B2|B3')
    >>> Card.parse("P4|P4").is_mono, Card.parse("R3|G3").is_mono
    (True, False)
    """

    left: Car
    right: Car

    __hash__ = HashedOnce.__hash__

    def __post_init__(self) -> None:
        for side, car in (("left", self.left), ("right", self.right)):
            if not isinstance(car, Car):
                raise type_error(
                    f"Card: {side}",
                    "a Car (e.g. Car.parse('R3')); Card.parse('R3|G3') reads a card",
                    car,
                )
        if self.left.is_wild or self.right.is_wild:
            raise ParseError(f"invalid card: {self._text()!r} (both cars of a card have a colour)")
        self._remember_hash((self.left._hash, self.right._hash))

    @property
    def value(self) -> int:
        """The card's worth face up: the sum of both cars."""
        return self.left.value + self.right.value

    @property
    def is_mono(self) -> bool:
        """True when both cars have the same colour (such a card can sit inside a run)."""
        return self.left.color is self.right.color

    @classmethod
    def parse(cls, text: str) -> Card:
        """A card from ``LEFT|RIGHT`` notation, e.g. ``"R3|G3"`` (letters in either case)."""
        if not isinstance(text, str):
            raise type_error("Card.parse: text", "a card's notation (str), like 'R3|G3'", text)
        parts = text.strip().split("|")
        if len(parts) != 2:
            raise ParseError(
                f"invalid card: {text!r} (expected two cars joined by '|', like 'R3|G3')"
            )
        left, right = (Car.parse(part) for part in parts)
        if left.is_wild or right.is_wild:
            raise ParseError(f"invalid card: {text!r} (both cars of a card have a colour)")
        return cls(left, right)

    def _text(self) -> str:
        return f"{self.left}|{self.right}"

    def __str__(self) -> str:
        return self._text()

    def __repr__(self) -> str:
        return f"Card.parse({self._text()!r})"

    def _repr_svg_(self) -> str:
        """The card as a picture, for Jupyter (:func:`express.svg.card_svg`)."""
        from express.svg import card_svg  # the pictures import the values: imported on use

        return card_svg(self)


class Provenance(Enum):
    """Where a card of :data:`DECK` comes from."""

    PROTOTYPE_2014 = "listed in the mid-2014 prototype card list"
    INFERRED = "inferred: the 2014 list has one G2|G2, every other colour has two 2|2 cards"

    @classmethod
    def _missing_(cls, value: object) -> Provenance:
        raise ParseError(f"unknown provenance: {value!r}")


@dataclass(frozen=True)
class DeckEntry:
    """``count`` copies of ``card`` in the standard deck, and where they come from."""

    card: Card
    count: int
    provenance: Provenance


def _entries(
    notation: str, count: int, provenance: Provenance = Provenance.PROTOTYPE_2014
) -> list[DeckEntry]:
    return [DeckEntry(Card.parse(text), count, provenance) for text in notation.split()]


DECK_ENTRIES: tuple[DeckEntry, ...] = tuple(
    _entries("B2|B2 R2|R2 Y2|Y2", 2)
    + _entries("G2|G2", 1)
    + _entries("G2|G2", 1, Provenance.INFERRED)
    + _entries("B2|B3 R2|R3 G2|G3 Y2|Y3", 1)
    + _entries("R3|G3 R3|Y3 B3|Y3 B3|R3 G3|B3 G3|R3 Y3|B3 Y3|G3", 1)
    + _entries("B4|G4 R4|B4 G4|Y4 Y4|R4", 1)
    + _entries("P2|P2", 2)
    + _entries("P2|P3 P3|G3 P3|B3 P3|Y3 P3|R3 P4|P4", 1)
)
"""The rules page's deck table, one entry per line of it (the inferred G2|G2 on its own)."""

DECK: tuple[Card, ...] = tuple(entry.card for entry in DECK_ENTRIES for _ in range(entry.count))
"""The 32 railcar cards, in the order of the rules page's table."""


def deck_for(players: int) -> tuple[Card, ...]:
    """The deck used by ``players`` players: with 2, the 8 cards showing purple are removed.

    >>> len(deck_for(2)), len(deck_for(4))
    (24, 32)
    """
    left_out = {
        Color(letter) for letter in left_out_colors(check_players(players, "deck_for: players"))
    }
    if left_out:
        return tuple(
            card
            for card in DECK
            if card.left.color not in left_out and card.right.color not in left_out
        )
    return DECK


def format_cards(cards: Iterable[Card]) -> str:
    """The one-line text of some cards that :func:`parse_deck` reads back (the form of
    ``--cards``): ``"R4|B4,B4|G4"``. For a deck file, see :func:`format_deck`.

    >>> format_cards(DECK[:2])
    'B2|B2,B2|B2'
    """
    refuse_text(cards, "format_cards")
    return ",".join(str(checked_card(card, "format_cards")) for card in cards)


def refuse_text(cards: object, where: str) -> None:
    """Refuse text where cards are expected: a str is an iterable too, and its letters would
    each be refused as a card, one by one."""
    if isinstance(cards, str):
        raise type_error(f"{where}: cards", "Card values (parse_deck(text) reads text)", cards)


def checked_card(card: object, where: str) -> Card:
    """``card``, refused unless it is a :class:`Card` (``where`` names the caller)."""
    if not isinstance(card, Card):
        raise type_error(f"{where}: each card", "a Card (e.g. Card.parse('R4|B4'))", card)
    return card
