"""The caboose cards (optional expansion): data plus one predicate each.

Source: the 16 cabooses known from the 2014 prototype, as listed on the project's rules page
(``docs/rules/yardmaster-express.md``), whose conditions are the project's precise readings
of the cards. At the end of a game every player who meets the drawn caboose's condition gains
its points.

A condition reads the train's *row of cars*: the cars after the engine, two per card, a
face-down card showing two wild cars worth 2. The engine is left out: it is the same wild car
worth 0 at the front of every train, so it could only ever spoil "Sequence" windows and "End of
Line" on an engine-only train, and the rules page counts wild cars as 2 in sequences
(**decision**, see the rules page).

Every condition is a module-level function or a small frozen dataclass with ``__call__``, never a
lambda or a closure, so a caboose (and a search result holding one) pickles and travels to
another process.

Absolute cabooses judge one train; relative ones ("most", "fewest", "lowest") compare a
measure across all trains of the game, every tied player scoring.

>>> caboose_named("two-timer").met_by(Train.parse("R3|R3,R2|G2,G3|G3"))
True
>>> [c.name for c in CABOOSES if c.kind is not CabooseKind.ABSOLUTE]
['Executive', 'Diversified', 'Short Line', 'The Little Engine', 'Buried Alive']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from express.cards import Car, Card, Color
from express.errors import ExpressError, ParseError, RulesError, type_error
from express.train import Train, runs_of

__all__ = ["Row", "CabooseKind", "Caboose", "CABOOSES", "caboose_named"]

Row = tuple[Car, ...]
"""A train's cars after the engine, left to right (see :attr:`express.Train.cars`)."""


class CabooseKind(Enum):
    """How a caboose's condition is judged."""

    ABSOLUTE = "absolute"
    """A condition of one train alone."""
    MOST = "most"
    """The highest measure among the eligible trains of the game; ties all score."""
    FEWEST = "fewest"
    """The lowest measure among the eligible trains of the game; ties all score."""

    @classmethod
    def _missing_(cls, value: object) -> CabooseKind:
        raise ParseError(f"unknown caboose kind: {value!r} (absolute, most or fewest)")


def _always(row: Row) -> bool:
    return True


@dataclass(frozen=True)
class Caboose:
    """One caboose card: its name, points, the condition's text, and the condition as code.

    For an absolute caboose ``test`` is the condition. For a relative one ``test`` says which
    trains compete (only "Buried Alive" restricts it) and ``measure(row, run_bonus)`` is the
    number compared across trains.

    Two facts serve the optimal-train search (``express.best_train``), and the tests check
    them against the plain predicate: ``memo_key(row)`` keeps what later cars can still change
    of the verdict — two rows with equal keys and the same last car get the same verdict after
    any continuation — ``monotone`` says a failed row can never recover, and ``face_up_ok``
    (where given) is true of every card laid face up in any train that meets the condition,
    which lets the search bound such trains by the cards' face-down value.

    >>> end = caboose_named("End of Line")
    >>> end.points, end.met_by(Train.parse("G4|G3")), end.met_by(Train.parse("~G4|G3"))
    (4, True, False)
    """

    name: str
    points: int
    condition: str
    kind: CabooseKind
    test: Callable[[Row], bool] = field(default=_always, compare=False, repr=False)
    measure: Callable[[Row, int], int] | None = field(default=None, compare=False, repr=False)
    memo_key: Callable[[Row], Hashable] | None = field(default=None, compare=False, repr=False)
    monotone: bool = field(default=False, compare=False, repr=False)
    face_up_ok: Callable[[Card], bool] | None = field(default=None, compare=False, repr=False)

    @property
    def is_relative(self) -> bool:
        """True when the condition compares trains ("most", "fewest", "lowest")."""
        return self.kind is not CabooseKind.ABSOLUTE

    def met_by(self, train: Train) -> bool:
        """Whether ``train`` meets an absolute condition; relative cabooses need :meth:`winners`."""
        if self.is_relative:
            raise ExpressError(
                f"caboose {self.name!r} compares all trains of a game: use winners()"
            )
        if not isinstance(train, Train):
            raise type_error(
                "Caboose.met_by: train", "a Train (Train.parse(text) reads text)", train
            )
        return self.test(train.cars)

    def winners(self, trains: Sequence[Train], run_bonuses: Sequence[int]) -> tuple[bool, ...]:
        """Which of a game's trains gain the points; ``run_bonuses[i]`` is train ``i``'s longest-run award.

        >>> trains = [Train.parse("B2|B2,B2|B3"), Train.parse("R4|B4,B4|G4")]
        >>> caboose_named("Executive").winners(trains, [4, 0])
        (True, False)
        """
        for train in trains:
            if not isinstance(train, Train):
                raise type_error(
                    "Caboose.winners: each train", "a Train (Train.parse(text) reads text)", train
                )
        if len(trains) != len(run_bonuses):
            raise RulesError(
                f"caboose {self.name!r}: {len(trains)} trains but {len(run_bonuses)} run bonuses (one per train)"
            )
        rows = [train.cars for train in trains]
        if self.measure is None:
            return tuple(self.test(row) for row in rows)
        measure = self.measure
        eligible = [self.test(row) for row in rows]
        scores = [measure(row, bonus) for row, bonus in zip(rows, run_bonuses, strict=True)]
        contenders = [score for score, ok in zip(scores, eligible) if ok]
        if not contenders:
            return tuple(False for _ in rows)
        target = max(contenders) if self.kind is CabooseKind.MOST else min(contenders)
        return tuple(ok and score == target for score, ok in zip(scores, eligible))

    def __str__(self) -> str:
        return self.name

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: the name, points, kind and condition (``express cabooses --json``)."""
        return {
            "name": self.name,
            "points": self.points,
            "kind": self.kind.value,
            "condition": self.condition,
        }


def _color_counts(row: Row) -> Counter[Color]:
    return Counter(car.color for car in row if car.color is not None)


@dataclass(frozen=True)
class _CappedCounts:
    """Memo key: the cars per colour, each capped at ``cap``."""

    cap: int

    def __call__(self, row: Row) -> Hashable:
        # A count beyond ``cap`` can never come back to a value the condition asks for.
        counts = _color_counts(row)
        return tuple(min(counts[color], self.cap) for color in Color)


def _two_timer(row: Row) -> bool:
    return sum(1 for n in _color_counts(row).values() if n == 3) >= 2


def _specialized(row: Row) -> bool:
    return 5 in _color_counts(row).values()


def _lightweight(row: Row) -> bool:
    return all(car.value != 4 for car in row)


def _efficient(row: Row) -> bool:
    # Cars come in pairs, one pair per card; a face-down pair is two wild cars and passes.
    return all(row[i].color is row[i + 1].color for i in range(0, len(row) - 1, 2))


@dataclass(frozen=True)
class _Sequence:
    """Test: some window of consecutive cars has the values ``pattern``."""

    pattern: tuple[int, ...]

    def __call__(self, row: Row) -> bool:
        pattern = self.pattern
        values = tuple(car.value for car in row)  # a wild car of a card back is worth 2
        return any(
            values[i : i + len(pattern)] == pattern for i in range(len(values) - len(pattern) + 1)
        )


@dataclass(frozen=True)
class _SequenceKey:
    """Memo key of a sequence: met so far, and the values that can still start a window."""

    test: _Sequence

    def __call__(self, row: Row) -> Hashable:
        # Once met it stays met; otherwise only the last len-1 values can start a window.
        tail = row[len(row) - len(self.test.pattern) + 1 :]
        return (self.test(row), tuple(car.value for car in tail))


def _end_of_line(row: Row) -> bool:
    return bool(row) and row[-1].value == 3


def _inefficient(row: Row) -> bool:
    return all(run.length < 2 for run in runs_of(row))


@dataclass(frozen=True)
class _Verdict:
    """Memo key of a monotone condition: the verdict so far (plus the last car) is all that matters."""

    test: Callable[[Row], bool]

    def __call__(self, row: Row) -> Hashable:
        return self.test(row)


def _no_key(row: Row) -> Hashable:
    return ()


def _distinct_colours(row: Row, bonus: int) -> int:
    return len(_color_counts(row))


def _long_runs(row: Row, bonus: int) -> int:
    return sum(1 for run in runs_of(row) if run.length >= 2)


def _most_of_one_colour(row: Row, bonus: int) -> int:
    return max(_color_counts(row).values(), default=0)


def _value_and_bonus(row: Row, bonus: int) -> int:
    return sum(car.value for car in row) + bonus


def _has_wild(row: Row) -> bool:
    return any(car.is_wild for car in row)


def _wild_cars(row: Row, bonus: int) -> int:
    return sum(1 for car in row if car.is_wild)


def _no_four(card: Card) -> bool:
    return card.left.value != 4 and card.right.value != 4


def _is_mono(card: Card) -> bool:
    return card.is_mono


def _is_mixed(card: Card) -> bool:
    # A card with both cars of one colour is a run of 2 by itself.
    return not card.is_mono


def _sequence_caboose(number: int, text: str) -> Caboose:
    pattern = tuple(int(v) for v in text.split(","))
    return Caboose(
        f"Sequence {number}",
        6,
        f"five consecutive cars valued {text} (wild cars count as 2)",
        CabooseKind.ABSOLUTE,
        test=_Sequence(pattern),
        memo_key=_SequenceKey(_Sequence(pattern)),
    )


CABOOSES: tuple[Caboose, ...] = (
    Caboose(
        "Executive",
        5,
        "fewest distinct colours among your train's cars (ties all score)",
        CabooseKind.FEWEST,
        measure=_distinct_colours,
    ),
    Caboose(
        "Two-Timer",
        5,
        "at least two colours with exactly 3 cars each anywhere in the train",
        CabooseKind.ABSOLUTE,
        test=_two_timer,
        memo_key=_CappedCounts(4),
    ),
    Caboose(
        "Diversified",
        5,
        "most runs of length >= 2 (ties all score)",
        CabooseKind.MOST,
        measure=_long_runs,
    ),
    Caboose(
        "Short Line",
        5,
        "most cars of a single colour (ties all score)",
        CabooseKind.MOST,
        measure=_most_of_one_colour,
    ),
    Caboose(
        "Lightweight",
        6,
        "no car of value 4 in the train",
        CabooseKind.ABSOLUTE,
        test=_lightweight,
        memo_key=_Verdict(_lightweight),
        monotone=True,
        face_up_ok=_no_four,
    ),
    Caboose(
        "Specialized",
        3,
        "some colour with exactly 5 cars",
        CabooseKind.ABSOLUTE,
        test=_specialized,
        memo_key=_CappedCounts(6),
    ),
    Caboose(
        "The Little Engine",
        7,
        "lowest train value plus run bonus (ties all score)",
        CabooseKind.FEWEST,
        measure=_value_and_bonus,
    ),
    Caboose(
        "Efficient",
        8,
        "every face-up card has the same colour on both halves",
        CabooseKind.ABSOLUTE,
        test=_efficient,
        memo_key=_Verdict(_efficient),
        monotone=True,
        face_up_ok=_is_mono,
    ),
    _sequence_caboose(1, "2,2,2,2,2"),
    _sequence_caboose(2, "3,3,3,3,3"),
    _sequence_caboose(3, "2,2,2,3,3"),
    _sequence_caboose(4, "2,2,2,2,3"),
    _sequence_caboose(5, "3,2,2,3,3"),
    Caboose(
        "End of Line",
        4,
        "the last car of the train has value 3",
        CabooseKind.ABSOLUTE,
        test=_end_of_line,
        memo_key=_no_key,
    ),
    Caboose(
        "Buried Alive",
        7,
        "most wild cars, with at least one face-down card (ties all score)",
        CabooseKind.MOST,
        test=_has_wild,
        measure=_wild_cars,
    ),
    Caboose(
        "Inefficient",
        5,
        "no run of length >= 2",
        CabooseKind.ABSOLUTE,
        test=_inefficient,
        memo_key=_Verdict(_inefficient),
        monotone=True,
        face_up_ok=_is_mixed,
    ),
)
"""The 16 cabooses of the 2014 prototype, in the rules page's order."""


def _normal(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


_BY_NAME = {_normal(caboose.name): caboose for caboose in CABOOSES}


def caboose_named(name: str) -> Caboose:
    """The caboose called ``name``, ignoring case, spaces and punctuation (``"two timer"`` works).

    >>> caboose_named("the little engine").points
    7
    """
    if not isinstance(name, str):
        raise type_error("caboose_named: name", "a caboose's name (str), like 'Two-Timer'", name)
    try:
        return _BY_NAME[_normal(name)]
    except KeyError:
        choices = ", ".join(caboose.name for caboose in CABOOSES)
        raise ParseError(f"unknown caboose: {name!r} (choose from {choices})") from None
