"""The caboose cards (optional expansion): each one value with all its facts.

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

A caboose's condition, the searches' facts about it (its memo key, whether it is monotone,
which cards a met train lays face up, its met-case rules for the optimal-train search, its
summary for the exact two-player solver) are all fields of its :class:`Caboose` below: a new
caboose is one entry of :data:`CABOOSES`, with its functions beside it.

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

from express.caboose_bounds import CLOSED, OPEN, MetRules, Way
from express.cards import Card, Color
from express.errors import ExpressError, ParseError, RulesError, type_error
from express.train import Row, Train, runs_of

__all__ = ["Row", "CabooseKind", "Caboose", "CABOOSES", "caboose_named"]


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
    """One caboose card: its name, points, the condition's text, and every fact of the condition
    as code — a caboose's facts all live here, so adding one touches one place.

    For an absolute caboose ``test`` is the condition. For a relative one ``test`` says which
    trains compete (only "Buried Alive" restricts it) and ``measure(row, run_bonus)`` is the
    number compared across trains.

    The other facts serve the searches, and the tests check them against the plain predicate:
    ``memo_key(row)`` keeps what later cars can still change of an absolute verdict — two rows
    with equal keys and the same last car get the same verdict after any continuation —
    ``monotone`` says a failed row can never recover, and ``face_up_ok`` (where given) is true
    of every card laid face up in any train that meets the condition, which lets the search
    bound such trains by the cards' face-down value. ``met`` is what meeting it still asks of
    the rest of a train (:class:`express.caboose_bounds.MetRules`, the optimal-train search's
    met case). ``summary(row)`` is, for a relative caboose, what of a row decides its measure
    after any continuation, together with the last car, the run ending there and the train's
    value (the exact two-player solver keys its states on it; without it, the whole row).

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
    met: MetRules | None = field(default=None, compare=False, repr=False)
    summary: Callable[[Row], Hashable] | None = field(default=None, compare=False, repr=False)

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


_COLORS = tuple(Color)


def _color_count_list(row: Row) -> list[int]:
    """The cars of each colour, in the order of ``tuple(Color)`` (the met rules' colour index)."""
    counts = [0] * len(_COLORS)
    for car in row:
        if car.color is not None:
            counts[_COLORS.index(car.color)] += 1
    return counts


@dataclass(frozen=True)
class _CappedCounts:
    """Memo key: the cars per colour, each capped at ``cap``."""

    cap: int

    def __call__(self, row: Row) -> Hashable:
        # A count beyond ``cap`` can never come back to a value the condition asks for.
        counts = _color_counts(row)
        return tuple(min(counts[color], self.cap) for color in Color)


# -- Two-Timer and Specialized: exact colour counts -------------------------------------------


def _two_timer(row: Row) -> bool:
    return sum(1 for n in _color_counts(row).values() if n == 3) >= 2


def _two_timer_ways(row: Row, k: int, cars_left: Sequence[int]) -> tuple[Way, ...]:
    # Met when two colours end with exactly 3 cars. A colour with more than 3 already never comes
    # back; one with n <= 3 needs 3 - n more of its cars, which the cards left must hold, and
    # the k cards add at most 2k cars in all. Every met train passes this test for its pair.
    need = [
        3 - n if n <= 3 and cars_left[i] >= 3 - n else -1
        for i, n in enumerate(_color_count_list(row))
    ]
    ready = sorted(d for d in need if d >= 0)
    return OPEN if len(ready) >= 2 and ready[0] + ready[1] <= 2 * k else CLOSED


def _two_timer_colors(row: Row) -> tuple[tuple[tuple[int, int], ...], ...]:
    # Met exactly when some two colours end with exactly 3 cars each.
    counts = _color_count_list(row)
    open_ = [(i, 3 - n) for i, n in enumerate(counts) if n <= 3]
    return tuple((a, b) for j, a in enumerate(open_) for b in open_[j + 1 :])


def _specialized(row: Row) -> bool:
    return 5 in _color_counts(row).values()


def _specialized_ways(row: Row, k: int, cars_left: Sequence[int]) -> tuple[Way, ...]:
    # Met when some colour ends with exactly 5 cars: one with n <= 5 needs 5 - n more of its
    # cars, held by the cards left and at most 2 per card.
    for i, n in enumerate(_color_count_list(row)):
        if n <= 5 and cars_left[i] >= 5 - n and 5 - n <= 2 * k:
            return OPEN
    return CLOSED


def _specialized_colors(row: Row) -> tuple[tuple[tuple[int, int], ...], ...]:
    # Met exactly when some colour ends with exactly 5 cars.
    return tuple(((i, 5 - n),) for i, n in enumerate(_color_count_list(row)) if n <= 5)


# -- Lightweight, Efficient, Inefficient: monotone conditions ---------------------------------


def _lightweight(row: Row) -> bool:
    return all(car.value != 4 for car in row)


def _efficient(row: Row) -> bool:
    # Cars come in pairs, one pair per card; a face-down pair is two wild cars and passes.
    return all(row[i].color is row[i + 1].color for i in range(0, len(row) - 1, 2))


def _inefficient(row: Row) -> bool:
    return all(run.length < 2 for run in runs_of(row))


def _monotone_ways(row: Row, k: int, cars_left: Sequence[int]) -> tuple[Way, ...]:
    # Lightweight, Efficient, Inefficient fail for good once failed, and the search only keeps
    # rows that still meet them (it tests each row with the caboose itself): nothing more is
    # asked of the cards, beyond ``restricted`` / ``max_run``.
    return OPEN


@dataclass(frozen=True)
class _Verdict:
    """Memo key of a monotone condition: the verdict so far (plus the last car) is all that matters."""

    test: Callable[[Row], bool]

    def __call__(self, row: Row) -> Hashable:
        return self.test(row)


def _no_four(card: Card) -> bool:
    return card.left.value != 4 and card.right.value != 4


def _is_mono(card: Card) -> bool:
    return card.is_mono


def _is_mixed(card: Card) -> bool:
    # A card with both cars of one colour is a run of 2 by itself.
    return not card.is_mono


# -- The Sequences and End of Line: windows of values -----------------------------------------


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


@dataclass(frozen=True)
class _SequenceWays:
    """The ways to still lay five consecutive cars with the values of ``pattern``.

    A train not yet meeting it meets it at a window of five cars that ends among the new cars:
    either the last ``j`` cars of the row (0 <= j <= 4, their values equal to the pattern's
    first ``j``) followed by the next ``5 - j`` new cars, which pair up into the next cards
    (full slots, the last one asking only its left car when ``5 - j`` is odd); or a window
    wholly among the new cars, which covers either a card's left car onwards (the same slots
    as ``j = 0``) or a card's right car onwards (a right-only slot, then two full slots). Those
    are all the positions of a window, so every met train fills one of these ways. Each way's
    slots are consecutive cards in order (``MetRules.ordered``). The ways of ``j >= 1`` start
    at the next card, and they are the ones of fewer than 3 slots (``5 - j <= 4`` cars make at
    most 2 cards; the two others take 3): ``MetRules.next_below``. With exactly as many cards
    left as slots, any way starts at the next card.
    """

    pattern: tuple[int, ...]

    def __call__(self, row: Row, k: int, cars_left: Sequence[int]) -> tuple[Way, ...]:
        pattern = self.pattern
        size = len(pattern)
        # The values as bytes: C-speed search for the window and comparison of the row's end.
        values = bytes(car.value for car in row)
        if bytes(pattern) in values:
            return OPEN
        ways: list[Way] = []
        for j in range(min(size - 1, len(values)), -1, -1):
            if j and not values.endswith(bytes(pattern[:j])):
                continue
            rest = pattern[j:]
            slots = tuple(
                (rest[i], rest[i + 1] if i + 1 < len(rest) else 0) for i in range(0, len(rest), 2)
            )
            if len(slots) <= k:
                ways.append(slots)
        if size % 2 == 1 and (size + 1) // 2 <= k:
            ways.append(
                ((0, pattern[0]), *((pattern[i], pattern[i + 1]) for i in range(1, size, 2)))
            )
        return tuple(ways)


def _sequence_caboose(number: int, pattern: tuple[int, ...]) -> Caboose:
    """Sequence ``number``: five consecutive cars valued ``pattern``, with all its facts."""
    text = ",".join(str(value) for value in pattern)
    test = _Sequence(pattern)
    return Caboose(
        f"Sequence {number}",
        6,
        f"five consecutive cars valued {text} (wild cars count as 2)",
        CabooseKind.ABSOLUTE,
        test=test,
        memo_key=_SequenceKey(test),
        met=MetRules(_SequenceWays(pattern), ordered=True, next_below=3),
    )


def _end_of_line(row: Row) -> bool:
    return bool(row) and row[-1].value == 3


def _end_of_line_ways(row: Row, k: int, cars_left: Sequence[int]) -> tuple[Way, ...]:
    # With k >= 1 cards to play the last car is the right car of the last card, face up (a
    # face-down card ends in a wild 2): every met train contains a card whose right car is 3,
    # and with k = 1 it is the next card (ordered).
    return (((0, 3),),)


def _no_key(row: Row) -> Hashable:
    return ()


# -- The relative cabooses: a measure compared across trains, and its summary -----------------


def _distinct_colors(row: Row, bonus: int) -> int:
    return len(_color_counts(row))


def _colors_used(row: Row) -> Hashable:
    return frozenset(car.color for car in row if car.color is not None)


def _long_runs(row: Row, bonus: int) -> int:
    return sum(1 for run in runs_of(row) if run.length >= 2)


def _runs_of_two(row: Row) -> Hashable:
    # The runs of length >= 2 so far (a run reaching 2 counts once, whatever it grows to later;
    # the run ending at the last car, which may still reach 2, is known from the state).
    runs, length, last = 0, 0, None
    for car in row:
        length = (
            length + 1
            if car.color is not None and car.color is last
            else (0 if car.color is None else 1)
        )
        last = car.color
        if length == 2:
            runs += 1
    return runs


def _most_of_one_color(row: Row, bonus: int) -> int:
    return max(_color_counts(row).values(), default=0)


def _color_count_items(row: Row) -> Hashable:
    return tuple(sorted(Counter(car.color.value for car in row if car.color is not None).items()))


def _value_and_bonus(row: Row, bonus: int) -> int:
    return sum(car.value for car in row) + bonus


def _train_value(row: Row) -> Hashable:
    return sum(car.value for car in row)


def _has_wild(row: Row) -> bool:
    return any(car.is_wild for car in row)


def _wild_car_measure(row: Row, bonus: int) -> int:
    return sum(1 for car in row if car.is_wild)


def _wild_cars(row: Row) -> Hashable:
    return sum(1 for car in row if car.is_wild)


CABOOSES: tuple[Caboose, ...] = (
    Caboose(
        "Executive",
        5,
        "fewest distinct colours among your train's cars (ties all score)",
        CabooseKind.FEWEST,
        measure=_distinct_colors,
        summary=_colors_used,
    ),
    Caboose(
        "Two-Timer",
        5,
        "at least two colours with exactly 3 cars each anywhere in the train",
        CabooseKind.ABSOLUTE,
        test=_two_timer,
        memo_key=_CappedCounts(4),
        met=MetRules(_two_timer_ways, exact_colors=_two_timer_colors, counts_colors=True),
    ),
    Caboose(
        "Diversified",
        5,
        "most runs of length >= 2 (ties all score)",
        CabooseKind.MOST,
        measure=_long_runs,
        summary=_runs_of_two,
    ),
    Caboose(
        "Short Line",
        5,
        "most cars of a single colour (ties all score)",
        CabooseKind.MOST,
        measure=_most_of_one_color,
        summary=_color_count_items,
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
        met=MetRules(_monotone_ways, restricted=True),
    ),
    Caboose(
        "Specialized",
        3,
        "some colour with exactly 5 cars",
        CabooseKind.ABSOLUTE,
        test=_specialized,
        memo_key=_CappedCounts(6),
        met=MetRules(_specialized_ways, exact_colors=_specialized_colors, counts_colors=True),
    ),
    Caboose(
        "The Little Engine",
        7,
        "lowest train value plus run bonus (ties all score)",
        CabooseKind.FEWEST,
        measure=_value_and_bonus,
        summary=_train_value,
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
        met=MetRules(_monotone_ways, restricted=True),
    ),
    _sequence_caboose(1, (2, 2, 2, 2, 2)),
    _sequence_caboose(2, (3, 3, 3, 3, 3)),
    _sequence_caboose(3, (2, 2, 2, 3, 3)),
    _sequence_caboose(4, (2, 2, 2, 2, 3)),
    _sequence_caboose(5, (3, 2, 2, 3, 3)),
    Caboose(
        "End of Line",
        4,
        "the last car of the train has value 3",
        CabooseKind.ABSOLUTE,
        test=_end_of_line,
        memo_key=_no_key,
        met=MetRules(_end_of_line_ways, ordered=True),
    ),
    Caboose(
        "Buried Alive",
        7,
        "most wild cars, with at least one face-down card (ties all score)",
        CabooseKind.MOST,
        test=_has_wild,
        measure=_wild_car_measure,
        summary=_wild_cars,
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
        # No run of length >= 2: a met train's longest run is at most 1, and it lays no card with
        # both cars of one colour face up (its face_up_ok). A face-up card joins the car before
        # it by colour or value, and a colour join is a run of 2: so after a coloured car it
        # joins by value alone.
        met=MetRules(_monotone_ways, restricted=True, max_run=1, value_joints=True),
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
