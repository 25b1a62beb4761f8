"""Plays, trains and the connection rule.

A train is the engine followed by plays; a play is a card laid face up or face down at the
right end. A face-up card may be added only if its *left* car matches the *right* car of the
train's last card in colour or value; wild cars (the engine, face-down cards) connect to
anything on either side, and any card may be laid face down. Cards are never rotated.

The text form of a train lists its plays left to right, separated by commas (or spaces), a
face-down card marked with a leading ``~`` (its identity is kept: a player knows their own
hidden cards). The engine is implicit, so the engine-only train is the empty string.

>>> train = Train.parse("R4|B4,B4|G4,~R3|G3")
>>> train.value, train.longest_run, str(train)
(20, 2, 'R4|B4,B4|G4,~R3|G3')
>>> train.can_add(Card.parse("Y2|Y2")), Train.parse("R3|G3").can_add(Card.parse("B2|B2"))
(True, False)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arena.memo import HashedOnce
from express.cards import ENGINE, WILD, Car, Card, Color
from express.errors import IllegalPlayError, ParseError, PoolError, type_error

__all__ = ["Play", "Run", "Row", "Train", "connects", "runs_of", "check_plays", "without"]

Row = tuple[Car, ...]
"""A train's cars after the engine, left to right (see :attr:`Train.cars`): what every caboose's
condition reads."""


def _check_card(card: object, where: str) -> Card:
    if not isinstance(card, Card):
        raise type_error(where, "a Card (e.g. Card.parse('R4|B4'))", card)
    return card


def _check_face_up(face_up: object, where: str) -> bool:
    if not isinstance(face_up, bool):
        raise type_error(where, "a bool", face_up)
    return face_up


def connects(last: Car, new: Car) -> bool:
    """Whether a face-up card whose left car is ``new`` may follow a train ending in ``last``.

    >>> connects(Car.parse("G3"), Car.parse("B2")), connects(Car.parse("G3"), Car.parse("B3"))
    (False, True)
    """
    if last.is_wild or new.is_wild:
        return True
    return last.color is new.color or last.value == new.value


@dataclass(frozen=True)
class Play(HashedOnce):
    """A card added to a train, face up (its own cars) or face down (two wild cars worth 2).

    >>> Play.parse("~R3|G3").cars
    (Car.parse('*2'), Car.parse('*2'))
    """

    card: Card
    face_up: bool = True

    __hash__ = HashedOnce.__hash__  # plays key the searches' tables too

    def __post_init__(self) -> None:
        _check_card(self.card, "Play: card")
        _check_face_up(self.face_up, "Play: face_up")
        self._remember_hash((self.card._hash, self.face_up))

    @property
    def cars(self) -> tuple[Car, Car]:
        """The two cars this play adds to the train, left to right."""
        if self.face_up:
            return (self.card.left, self.card.right)
        return (WILD, WILD)

    @property
    def value(self) -> int:
        """What the play adds to the train's value: the card's value, or 4 face down."""
        return self.cars[0].value + self.cars[1].value

    @classmethod
    def parse(cls, text: str) -> Play:
        """``"R3|G3"`` face up, ``"~R3|G3"`` face down."""
        if not isinstance(text, str):
            raise type_error(
                "Play.parse: text", "a play's notation (str), like 'R3|G3' or '~R3|G3'", text
            )
        token = text.strip()
        if token.startswith("~"):
            if not token[1:].strip():  # else Card.parse would quote the empty rest, not this
                raise ParseError(
                    f"invalid play: {text!r} (a face-down play names its card after '~', "
                    "like '~R3|G3')"
                )
            return cls(Card.parse(token[1:]), face_up=False)
        return cls(Card.parse(token))

    def __str__(self) -> str:
        return str(self.card) if self.face_up else f"~{self.card}"

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"


@dataclass(frozen=True)
class Run:
    """A maximal sequence of consecutive cars of one colour: ``length`` cars from index ``start``.

    ``start`` indexes :attr:`Train.cars` (the cars after the engine, two per card).
    """

    color: Color
    start: int
    length: int


def runs_of(cars: Sequence[Car]) -> tuple[Run, ...]:
    """The runs of a row of cars, left to right; wild cars belong to no run and break runs.

    A single coloured car is a run of length 1 (the rules page's decision).

    >>> [(run.color.value, run.length) for run in runs_of(Train.parse("B2|B2,B2|B3,~Y2|Y2,Y3|B3").cars)]
    [('B', 4), ('Y', 1), ('B', 1)]
    """
    runs: list[Run] = []
    start = 0
    for index in range(1, len(cars) + 1):
        if index == len(cars) or cars[index].color is not cars[start].color or cars[index].is_wild:
            color = cars[start].color
            if color is not None:
                runs.append(Run(color, start, index - start))
            start = index
    return tuple(runs)


def check_plays(plays: Sequence[Play]) -> tuple[str, ...]:
    """Every broken joint of a sequence of plays after an engine, as messages (empty: legal).

    This reports the status of a whole train without raising; :class:`Train` raises the first.

    >>> check_plays([Play.parse("R3|G3"), Play.parse("B2|B2")])
    ("card 2 'B2|B2' cannot follow face up: its left car B2 matches neither the colour nor the value of the last car G3",)
    """
    problems: list[str] = []
    last = ENGINE
    for number, play in enumerate(plays, start=1):
        if play.face_up and not connects(last, play.card.left):
            problems.append(
                f"card {number} {str(play.card)!r} cannot follow face up: its left car {play.card.left} "
                f"matches neither the colour nor the value of the last car {last}"
            )
        last = play.cars[1]
    return tuple(problems)


@dataclass(frozen=True)
class Train:
    """The engine followed by ``plays``; construction checks the connection rule.

    >>> Train().add(Card.parse("R4|B4")).add(Card.parse("B4|G4"))
    Train.parse('R4|B4,B4|G4')
    """

    plays: tuple[Play, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.plays, tuple):
            raise type_error(
                "Train: plays",
                "a tuple of Play (Train.parse('R4|B4,~B4|G4') reads text)",
                self.plays,
            )
        for play in self.plays:
            if not isinstance(play, Play):
                raise type_error("Train: each play", "a Play (e.g. Play.parse('~R3|G3'))", play)
        problems = check_plays(self.plays)
        if problems:
            raise IllegalPlayError(problems[0])

    @classmethod
    def parse(cls, text: str) -> Train:
        """A train from its plays separated by commas or spaces; ``~`` marks a face-down card."""
        if not isinstance(text, str):
            raise type_error("Train.parse: text", "a train's text (str), like 'R4|B4,~B4|G4'", text)
        tokens = [token for token in re.split(r"[,\s]+", text.strip()) if token]
        return cls(tuple(Play.parse(token) for token in tokens))

    @property
    def cars(self) -> tuple[Car, ...]:
        """The cars after the engine, left to right, two per play (wild for a face-down card)."""
        return tuple(car for play in self.plays for car in play.cars)

    @property
    def last_car(self) -> Car:
        """The car a new card must connect to: the right car of the last play, or the engine."""
        return self.plays[-1].cars[1] if self.plays else ENGINE

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the train, face up or down, left to right."""
        return tuple(play.card for play in self.plays)

    def can_add(self, card: Card, face_up: bool = True) -> bool:
        """Whether ``card`` may be added: always face down; face up if its left car connects."""
        _check_card(card, "Train.can_add: card")
        _check_face_up(face_up, "Train.can_add: face_up")
        return not face_up or connects(self.last_car, card.left)

    def add(self, card: Card, face_up: bool = True) -> Train:
        """This train with ``card`` added at the right end; an illegal play raises an error naming both cars."""
        _check_card(card, "Train.add: card")
        _check_face_up(face_up, "Train.add: face_up")
        return self.add_play(Play(card, face_up))

    def add_play(self, play: Play) -> Train:
        """This train with ``play`` added at the right end (see :meth:`add`)."""
        if not isinstance(play, Play):
            raise type_error("Train.add_play: play", "a Play (e.g. Play.parse('~R3|G3'))", play)
        if not self.can_add(play.card, play.face_up):
            raise IllegalPlayError(
                f"cannot add {str(play.card)!r} face up: its left car {play.card.left} matches neither "
                f"the colour nor the value of the last car {self.last_car}"
            )
        return Train(self.plays + (play,))

    def extend(self, plays: Iterable[Play]) -> Train:
        """This train with ``plays`` added in order."""
        if isinstance(plays, (str, Train)):
            raise type_error(
                "Train.extend: plays",
                "an iterable of Play (use other.plays to append a train)",
                plays,
            )
        return Train(self.plays + tuple(plays))

    @property
    def value(self) -> int:
        """The train value: every car's value (face down 2 + 2, the engine 0)."""
        return sum(car.value for car in self.cars)

    @property
    def runs(self) -> tuple[Run, ...]:
        """The runs of the train's cars (see :func:`runs_of`)."""
        return runs_of(self.cars)

    @property
    def longest_run(self) -> int:
        """The length of the train's longest run, 0 when it has no coloured car."""
        return max((run.length for run in self.runs), default=0)

    def __len__(self) -> int:
        return len(self.plays)

    def __str__(self) -> str:
        return ",".join(str(play) for play in self.plays)

    def __repr__(self) -> str:
        return f"Train.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The train as a picture, for Jupyter (:func:`express.svg.train_svg`)."""
        from express.svg import train_svg  # the pictures import the values: imported on use

        return train_svg(self)


def without(deck: Iterable[Card], used: Train | Iterable[Card]) -> tuple[Card, ...]:
    """The cards of ``deck`` still available once the cards of ``used`` (a train, or cards) are
    taken out, one physical card each, in ``deck``'s order.

    This is how to get :func:`express.best_train`'s pool when extending a train that was drawn
    from a deck. A card that ``used`` holds more often than ``deck`` raises a
    :class:`~express.PoolError` naming it.

    >>> from express import DECK
    >>> start = Train.parse("R3|G3,G3|R3")
    >>> len(without(DECK, start))
    30
    >>> without(DECK, Train.parse("R3|R3"))
    Traceback (most recent call last):
    ...
    express.errors.PoolError: card not in the deck: 'R3|R3'
    """
    if isinstance(deck, str):
        raise type_error("without: deck", "an iterable of Card (parse_deck(text) reads text)", deck)
    if isinstance(used, str):
        raise type_error(
            "without: used", "a Train or an iterable of Card (Train.parse(text) reads text)", used
        )
    cards = [_check_card(card, "without: each deck card") for card in deck]
    taken = (
        used.cards
        if isinstance(used, Train)
        else tuple(_check_card(c, "without: each used card") for c in used)
    )
    have = Counter(cards)
    need = Counter(taken)
    for card, count in need.items():
        if have[card] == 0:
            raise PoolError(f"card not in the deck: {str(card)!r}")
        if count > have[card]:
            raise PoolError(
                f"card used more often than the deck holds: {str(card)!r} ({count} used, the deck holds {have[card]})"
            )
    left: list[Card] = []
    for card in cards:
        if need[card]:
            need[card] -= 1
        else:
            left.append(card)
    return tuple(left)
