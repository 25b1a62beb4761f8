"""What meeting an absolute caboose still asks of the rest of a train: the search's met case.

The optimal-train search (:mod:`express.search`) splits a search with an absolute caboose in
two: the best train ignoring the caboose, and the best train *among those that meet it* (whose
score is its plain score plus the caboose's points); the better of the two is the optimum. This
module holds the vocabulary of what the second search needs to prune (each caboose of
:mod:`express.cabooses` carries its own :class:`MetRules`, :attr:`express.Caboose.met`): from a
row of cars so far and the ``k`` cards still to play, the **ways** the caboose can still be met. A way is a tuple of
*slots*, cards the rest of the train must contain with given car values; no way at all means the
caboose can no longer be met, and the way ``()`` means nothing more is asked.

A slot ``(left, right)`` asks for a card whose left car has value ``left`` and right car value
``right`` (0: any value). A face-down card shows two wild cars worth 2, so it fills a slot whose
values are 2 or any. The search bounds the met case by the best way: each slot weighs the most
any card left can weigh in it, the other ``k - len(way)`` cards the most of the rest (see
``express.search``). Every caboose's ways function (in :mod:`express.cabooses`) says why each
train meeting the caboose fills some way it returns: that is what makes the bound admissible
(never below the true value-to-go).

More facts per caboose: ``exact_colors`` (below); ``restricted`` — a train meeting it lays
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
from typing import TYPE_CHECKING

from express.train import Row

if TYPE_CHECKING:
    from express.cabooses import Caboose

__all__ = ["Slot", "Way", "OPEN", "CLOSED", "WaysFunction", "MetRules", "met_rules"]

Slot = tuple[int, int]
"""A card the rest of the train must contain: (left car value, right car value), 0 for any."""

Way = tuple[Slot, ...]
"""One way to still meet a caboose: the cards it asks for (``()``: nothing more)."""

OPEN: tuple[Way, ...] = ((),)
"""The ways of a caboose that asks nothing more of the cards to come."""
CLOSED: tuple[Way, ...] = ()
"""The ways of a caboose that can no longer be met."""

WaysFunction = Callable[[Row, int, Sequence[int]], tuple[Way, ...]]
"""``ways(row, k, cars_left)``: ``row`` the cars so far (start train included), ``k >= 1`` the
cards still to play, ``cars_left[i]`` the cars of colour ``tuple(Color)[i]`` on the cards left."""


@dataclass(frozen=True)
class MetRules:
    """The met case of one absolute caboose, for the optimal-train search (see the module doc)."""

    ways: WaysFunction
    restricted: bool = False
    max_run: int | None = None
    exact_colors: Callable[[Row], tuple[tuple[tuple[int, int], ...], ...]] | None = None
    """For a condition on exact colour counts: the alternatives, one of which a met train
    fulfils, each a tuple of (colour index, cars of it the rest must add exactly); the search
    then bounds the values by the best cards that add exactly that many (see
    ``express.search``)."""
    counts_colors: bool = False
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


def met_rules(caboose: Caboose) -> MetRules | None:
    """The met-case rules a caboose carries (:attr:`express.Caboose.met`), when the search can use them;
    None for a relative caboose, or an absolute one without them (a user's own card, which the
    search then handles as one search)."""
    rules = caboose.met
    if rules is None or caboose.is_relative:
        return None
    if rules.restricted and caboose.face_up_ok is None:
        return None
    return rules
