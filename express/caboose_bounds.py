"""What meeting an absolute caboose still asks of the rest of a train: the search's met case.

The optimal-train search (:mod:`express.search`) splits a search with an absolute caboose in
two: the best train ignoring the caboose, and the best train *among those that meet it* (whose
score is its plain score plus the caboose's points); the better of the two is the optimum. This
module holds, per caboose, what the second search needs to prune: from a row of cars so far and
the ``k`` cards still to play, the **ways** the caboose can still be met. A way is a tuple of
*slots*, cards the rest of the train must contain with given car values; no way at all means the
caboose can no longer be met, and the way ``()`` means nothing more is asked.

A slot ``(left, right)`` asks for a card whose left car has value ``left`` and right car value
``right`` (0: any value). A face-down card shows two wild cars worth 2, so it fills a slot whose
values are 2 or any. The search bounds the met case by the best way: each slot weighs the most
any card left can weigh in it, the other ``k - len(way)`` cards the most of the rest (see
``express.search``). Every rule below says why each train meeting the caboose fills some way
it returns: that is what makes the bound admissible (never below the true value-to-go).

More facts per caboose: ``exact_colours`` (below); ``restricted`` — a train meeting it lays
face up only cards its ``face_up_ok`` allows (the other cards weigh their face-down 4 and
lengthen no run); ``max_run`` — no run of a train meeting it is longer (the run bonus then
gains at most ``max_run`` minus the longest run so far); ``value_joints`` (below); and
``ordered`` / ``next_below`` — a way's slots are consecutive cards in order, and which ways
start at the next card (the search then plays their slots out exactly).

>>> from express import Train, caboose_named
>>> rules = met_rules(caboose_named("Sequence 4"))
>>> rules is not None and rules.ways(Train.parse("B2|B2,B2|B2").cars, 2, (0, 0, 0, 0, 0))[0]
((3, 0),)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from express.cabooses import CABOOSES, Caboose, Row
from express.cards import Color

__all__ = ["Slot", "Way", "MetRules", "met_rules"]

Slot = tuple[int, int]
"""A card the rest of the train must contain: (left car value, right car value), 0 for any."""

Way = tuple[Slot, ...]
"""One way to still meet a caboose: the cards it asks for (``()``: nothing more)."""

_OPEN: tuple[Way, ...] = ((),)
_CLOSED: tuple[Way, ...] = ()

WaysFunction = Callable[[Row, int, Sequence[int]], tuple[Way, ...]]
"""``ways(row, k, cars_left)``: ``row`` the cars so far (start train included), ``k >= 1`` the
cards still to play, ``cars_left[i]`` the cars of colour ``tuple(Color)[i]`` on the cards left."""

_COLORS = tuple(Color)


@dataclass(frozen=True)
class MetRules:
    """The met case of one absolute caboose, for the optimal-train search (see the module doc)."""

    ways: WaysFunction
    restricted: bool = False
    max_run: int | None = None
    exact_colours: Callable[[Row], tuple[tuple[tuple[int, int], ...], ...]] | None = None
    """For a condition on exact colour counts: the alternatives, one of which a met train
    fulfils, each a tuple of (colour index, cars of it the rest must add exactly); the search
    then bounds the values by the best cards that add exactly that many (see
    ``express.search``)."""
    counts_colours: bool = False
    """True when ``ways`` reads ``cars_left`` (else the search passes an empty sequence)."""
    value_joints: bool = False
    """True when in a met train every face-up card that follows a coloured car joins it by
    value alone (a colour match would make a run of 2): the search then also bounds the values
    by the best walk over the cards' values (see ``express.search``)."""
    ordered: bool = False
    """True when a way's slots are consecutive cards in the way's order: a way of exactly ``k``
    slots is then the next ``k`` cards, slot by slot."""
    next_below: int = 0
    """With ``ordered``: a way of fewer slots than this starts at the next card too. For a way
    that starts at the next card the search takes the exact best of the slots' plays, then
    bounds the cards after them (see ``express.search``)."""


def _color_counts(row: Row) -> list[int]:
    counts = [0] * len(_COLORS)
    for car in row:
        if car.color is not None:
            counts[_COLORS.index(car.color)] += 1
    return counts


def _two_timer_ways(row: Row, k: int, cars_left: Sequence[int]) -> tuple[Way, ...]:
    # Met when two colours end with exactly 3 cars. A colour with more than 3 already never comes
    # back; one with n <= 3 needs 3 - n more of its cars, which the cards left must hold, and
    # the k cards add at most 2k cars in all. Every met train passes this test for its pair.
    need = [
        3 - n if n <= 3 and cars_left[i] >= 3 - n else -1 for i, n in enumerate(_color_counts(row))
    ]
    ready = sorted(d for d in need if d >= 0)
    return _OPEN if len(ready) >= 2 and ready[0] + ready[1] <= 2 * k else _CLOSED


def _specialized_ways(row: Row, k: int, cars_left: Sequence[int]) -> tuple[Way, ...]:
    # Met when some colour ends with exactly 5 cars: one with n <= 5 needs 5 - n more of its
    # cars, held by the cards left and at most 2 per card.
    for i, n in enumerate(_color_counts(row)):
        if n <= 5 and cars_left[i] >= 5 - n and 5 - n <= 2 * k:
            return _OPEN
    return _CLOSED


def _two_timer_colours(row: Row) -> tuple[tuple[tuple[int, int], ...], ...]:
    # Met exactly when some two colours end with exactly 3 cars each.
    counts = _color_counts(row)
    open_ = [(i, 3 - n) for i, n in enumerate(counts) if n <= 3]
    return tuple((a, b) for j, a in enumerate(open_) for b in open_[j + 1 :])


def _specialized_colours(row: Row) -> tuple[tuple[tuple[int, int], ...], ...]:
    # Met exactly when some colour ends with exactly 5 cars.
    return tuple(((i, 5 - n),) for i, n in enumerate(_color_counts(row)) if n <= 5)


def _end_of_line_ways(row: Row, k: int, cars_left: Sequence[int]) -> tuple[Way, ...]:
    # With k >= 1 cards to play the last car is the right car of the last card, face up (a
    # face-down card ends in a wild 2): every met train contains a card whose right car is 3,
    # and with k = 1 it is the next card (ordered).
    return (((0, 3),),)


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
            return _OPEN
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


def _monotone_ways(row: Row, k: int, cars_left: Sequence[int]) -> tuple[Way, ...]:
    # Lightweight, Efficient, Inefficient fail for good once failed, and the search only keeps
    # rows that still meet them (it tests each row with the caboose itself): nothing more is
    # asked of the cards, beyond ``restricted`` / ``max_run``.
    return _OPEN


_RULES: dict[str, MetRules] = {
    "Two-Timer": MetRules(_two_timer_ways, exact_colours=_two_timer_colours, counts_colours=True),
    "Lightweight": MetRules(_monotone_ways, restricted=True),
    "Specialized": MetRules(
        _specialized_ways, exact_colours=_specialized_colours, counts_colours=True
    ),
    "Efficient": MetRules(_monotone_ways, restricted=True),
    "Sequence 1": MetRules(_SequenceWays((2, 2, 2, 2, 2)), ordered=True, next_below=3),
    "Sequence 2": MetRules(_SequenceWays((3, 3, 3, 3, 3)), ordered=True, next_below=3),
    "Sequence 3": MetRules(_SequenceWays((2, 2, 2, 3, 3)), ordered=True, next_below=3),
    "Sequence 4": MetRules(_SequenceWays((2, 2, 2, 2, 3)), ordered=True, next_below=3),
    "Sequence 5": MetRules(_SequenceWays((3, 2, 2, 3, 3)), ordered=True, next_below=3),
    "End of Line": MetRules(_end_of_line_ways, ordered=True),
    # No run of length >= 2: a met train's longest run is at most 1, and it lays no card with
    # both cars of one colour face up (its face_up_ok).
    # A face-up card joins the car before it by colour or value, and a colour join is a run of
    # 2: so after a coloured car it joins by value alone.
    "Inefficient": MetRules(_monotone_ways, restricted=True, max_run=1, value_joints=True),
}

_LIBRARY = {caboose.name: caboose for caboose in CABOOSES}


def met_rules(caboose: Caboose) -> MetRules | None:
    """The met-case rules of one of the library's absolute cabooses; None for any other caboose
    (a relative one, or a user's own card, which the search then handles without them)."""
    rules = _RULES.get(caboose.name)
    if rules is None or _LIBRARY.get(caboose.name) != caboose:
        return None
    if rules.restricted and caboose.face_up_ok is None:
        return None
    return rules
