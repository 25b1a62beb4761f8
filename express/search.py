"""Exhaustive search for optimal trains: branch and bound over equivalent states.

:func:`best_train` finds, among all trains of exactly ``length`` cards drawn from a multiset of
cards (identical cards interchangeable), in any order, each laid face up (when legal) or face
down, one with the highest **solo score**:

    train value + its longest run (when ``bonus``) + the caboose's points (when the caboose is
    absolute and the train meets it).

A relative caboose ("most", "fewest", "lowest") needs rival trains, which a solo search does not
have, so it adds nothing (**decision**; the result reports 0 caboose points).

How it is exact and fast
------------------------
*State.* What the rest of a train can still earn depends only on: the cards left (a vector of
counts per distinct card), the train's last car (colour and value: it decides which cards may
follow face up and whether a run continues; wild after a face-down card), the length ``cur`` of
the run ending at that car, the longest run so far ``L`` (only through ``max(L, later runs)``,
so every ``L >= cur + 2k`` is the same state, ``k`` cards to go), and for an absolute caboose
its ``memo_key``. Without the run bonus ``cur`` and ``L`` are dropped. The search memoises the
value-to-go of these states, so different orders of the same cards that end alike are searched
once.

*Bound.* The value-to-go of a state is ``V + max(L, R) - L``: ``V`` the value the ``k`` remaining
plays add, ``R`` the longest run of the finished train. It is at most
``max(T, max over colours c of B_c - L)`` (plus the caboose's points unless the caboose is
monotone and already failed), where

* ``T`` is the sum of the ``k`` largest card values left. Admissible: a face-up card adds its
  value, a face-down one 4, and every card is worth at least 4 (two cars of at least 2).
* ``B_c`` is the largest sum, over ``k`` cards left, of value plus 2 for a card with both cars
  of colour ``c``, plus ``s_c`` and ``e_c``. A run of colour ``c`` that ends after the current
  point consists of: a start — the current run if the last car is ``c`` (``cur`` cars) or the
  right car of one new card whose left car is another colour (1 car); cards with both cars
  ``c`` (2 cars each); and an end — the left car of one card whose right car is another colour
  (1 car). So ``s_c = max(cur if the last car is c, 1 if such a start card is left)`` and
  ``e_c = 1 if such an end card is left``, and value plus run together never exceed ``B_c``.
  This is what a remaining card can add to value and run *together*: a bound that adds the best
  values to the best possible run separately is several points looser and needs far more nodes.

*Caboose.* With an absolute caboose the score of a train is its plain score plus the caboose's
points when it meets it, so the optimum is the larger of the best plain score over all trains
and the best plain score over the trains meeting the caboose, plus its points (a best train
that happens to meet the caboose is also found by the second). :func:`best_train` runs the
two as separate searches: the first is the plain search; the second (the *met case*) counts
only trains meeting the caboose and needs to beat the first minus the points, which is its
threshold from the start. Its bound knows what meeting the caboose still asks
(:mod:`express.caboose_bounds`): whether it can still be met at all (else the state is cut),
and, as *ways*, which cards of given car values the rest must contain — a Sequence's window,
End of Line's last card. It is the plain bound with the k cards split into a way's slots
(each weighing at most the best card left that fits, m alike slots the m best) and the others
(the largest weights left), never more than the plain bound itself, maximised over the ways.
On top of that: a caboose with ``face_up_ok`` (Lightweight, Efficient, Inefficient) lays the
cards it rules out face down, so they weigh 4 and lengthen no run; where runs are capped
(Inefficient: none longer than 1) the run adds at most the cap minus ``L``; where a face-up
card after a coloured car must join it by value (Inefficient, whose colour joins would make a
run of 2) the values are also bounded by the best walk over the cards' (left, right) values,
solved exactly on the relaxation that drops colours. And per colour ``c`` a second run bound
weighs +1 on every card with one car ``c`` instead of adding the run's start and end (a run
has at most one of each, and they are among those cards); the smaller of the two is used.
Where a way's slots are consecutive cards (``MetRules.ordered``: the Sequences, End of Line)
and the way must start at the next card (as many slots as cards to play, or a Sequence window
already begun), the way is bounded by the exact best plays of its slots, then the plain bound
over the cards after them: the slots' plays decide how the current run ends and what follows,
which the weights cannot see. Where the caboose asks for exact colour counts (Two-Timer,
Specialized) the values are bounded by the best cards adding exactly those cars, and value
and run together per split of the colour's cards into cards with one or two of its cars. A
card the caboose rules out face up is, in a train meeting it, only ever a face-down filler,
whichever it is: the met case keys its memo on how many such cards are left, not which.
Each bound's admissibility is argued where it is computed.
Counting optimal trains adds the two searches' counts where each reaches the optimum (no
train of the first at the optimum meets the caboose, or the second would beat it).

An absolute caboose the library does not know (a user's own card) is searched as one: the
plain bound plus the caboose's points while it is open (a monotone caboose can fail for good),
the smaller with the restricted weights above for ``face_up_ok``.

*Order.* Children are tried best first by their own bound plus what the play gains, so the first
dive finds a good train, and a node stops as soon as the next child's bound cannot beat (or,
counting, tie) the best found. Where the met-case bound is costly, a child gets it only when
the cheap plain bound (admissible for a met train too) leaves it the best candidate.

Memoised results that were cut off by the bound are stored as upper bounds, not as values, and a
state is searched again when a later visit needs more than its stored bound. ``count_optimal``
counts distinct optimal trains (sequences of plays; identical cards are interchangeable, and a
card face up and the same card face down are different plays); it explores ties, so it is slower.

>>> from express.cards import DECK
>>> result = best_train(DECK, 7)
>>> result.score, result.value, result.longest_run, result.optimal
(56, 51, 5, True)
"""

from __future__ import annotations

import heapq
import math
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import accumulate

from express.caboose_bounds import MetRules, Slot, Way, met_rules
from express.cabooses import Caboose, caboose_named
from express.cards import WILD, Car, Card, Color, parse_deck
from express.errors import LimitError, PoolError, type_error
from express.rules import CAR_VALUES, FACE_DOWN_VALUE
from express.scoring import solo_score
from express.train import Play, Train, connects

__all__ = ["TrainSearch", "best_train"]

_COLORS = tuple(Color)
_WILD_ID = 0
_FACE_DOWN_VALUE = FACE_DOWN_VALUE
# The value-to-go of a state from which no train meets the caboose, in the met-case search: far
# below any real value-to-go (the sums of a few dozen card values), so never reaching a threshold.
_NEG = -(1 << 30)


def _car_id(car: Car) -> int:
    # 0 for any wild car; 1..15 for the coloured cars (5 colours x values 2..4).
    if car.color is None:
        return _WILD_ID
    return 1 + _COLORS.index(car.color) * _CARS_PER_COLOR + CAR_VALUES.index(car.value)


_CARS_PER_COLOR = len(CAR_VALUES)
_CARS_BY_ID = (WILD, *(Car(color, value) for color in _COLORS for value in CAR_VALUES))


def _car_color(car_id: int) -> int:
    return -1 if car_id == _WILD_ID else (car_id - 1) // _CARS_PER_COLOR


@dataclass(frozen=True)
class TrainSearch:
    """The result of :func:`best_train`: the plays added to ``start`` and the proof statistics.

    ``score``, ``value`` and ``longest_run`` describe the whole train (``start`` plus ``plays``);
    ``optimal`` is True unless a node or time limit stopped the search, in which case the train
    is the best one found. ``nodes`` counts the states searched; ``count`` is the number of
    distinct optimal trains when ``count_optimal`` was asked (else None). ``seconds`` (the wall
    time) is left out of equality: two identical searches are equal results.
    """

    start: Train
    plays: tuple[Play, ...]
    score: int
    value: int
    longest_run: int
    run_bonus: int
    caboose: Caboose | None
    caboose_points: int
    optimal: bool
    nodes: int
    count: int | None
    seconds: float = field(compare=False)

    @property
    def train(self) -> Train:
        """The whole train: ``start`` followed by ``plays``."""
        return self.start.extend(self.plays)

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON: the train as text, the score breakdown and the statistics."""
        return {
            "start": str(self.start),
            "plays": [str(play) for play in self.plays],
            "train": str(self.train),
            "score": self.score,
            "value": self.value,
            "longest_run": self.longest_run,
            "run_bonus": self.run_bonus,
            "caboose": None if self.caboose is None else self.caboose.name,
            "caboose_points": self.caboose_points,
            "optimal": self.optimal,
            "nodes": self.nodes,
            "count": self.count,
            "seconds": round(self.seconds, 6),
        }


class _Interrupted(Exception):
    """Raised inside the search when a caller's node or time limit is reached."""


# One alternative of a caboose on exact colour counts: (colour index, cars to add exactly) each.
_Needs = tuple[tuple[int, int], ...]

# A move: (gain, type index, face up, next last-car id, next cur, next longest run).
_Move = tuple[int, int, bool, int, int, int]


def _best_alternative(needs: tuple[_Needs, ...], bound: Callable[[int, int], int]) -> int:
    """The largest over the alternatives of the smallest ``bound(colour, cars)`` over their
    requirements (``_NEG`` for none), each requirement's bound taken once, and an alternative
    left as soon as one of its requirements cannot beat the best so far."""
    known: dict[tuple[int, int], int] = {}
    best = _NEG
    for alternative in needs:
        worst = -_NEG
        for need in alternative:
            value = known.get(need)
            if value is None:
                value = known[need] = bound(*need)
            if value < worst:
                worst = value
                if worst <= best:
                    break
        if worst > best:
            best = worst
    return best


class _Search:
    """One search: the card types, their counts, the memo and the bound's precomputations."""

    def __init__(
        self,
        pool: Counter[Card],
        start: Train,
        length: int,
        bonus: bool,
        caboose: Caboose | None,
        count_optimal: bool,
        node_limit: int | None,
        deadline: float | None,
        met: MetRules | None = None,
    ) -> None:
        # Most valuable first: the natural order for the bound's top-k sums and for move ordering.
        self.types = sorted(pool, key=lambda card: (-card.value, str(card)))
        types = self.types
        self.count = [pool[card] for card in types]
        self.value = [card.value for card in types]
        self.left_color = [_car_color(_car_id(card.left)) for card in types]
        self.right_id = [_car_id(card.right) for card in types]
        self.mono = [card.is_mono for card in types]
        n_types = len(types)
        # legal[last car id] = the types that may follow that car face up.
        self.legal = [
            [t for t in range(n_types) if connects(last_car, types[t].left)]
            for last_car in _CARS_BY_ID
        ]
        # Mixed-radix code of the count vector: one integer, updated in O(1) per play.
        self.radix: list[int] = []
        weight = 1
        for n in self.count:
            self.radix.append(weight)
            weight *= n + 1
        self.code = sum(n * r for n, r in zip(self.count, self.radix))
        self.length = length
        self.bonus = bonus
        self.caboose = caboose if caboose is not None and not caboose.is_relative else None
        # In a train meeting a caboose with ``face_up_ok``, a card it rules out adds 4 at most
        # (face down) and never lengthens a run: the same bound over these restricted weights.
        face_up_ok = None if self.caboose is None else self.caboose.face_up_ok
        allowed = [True if face_up_ok is None else face_up_ok(card) for card in types]
        # The met-case search (see the module docstring): only trains meeting the caboose count.
        self.met = met if self.caboose is not None else None
        restricted = self.met is not None and self.met.restricted and face_up_ok is not None
        self.met_face_up = allowed if restricted else [True] * n_types
        # The memo's code of the cards left. In a restricted met case a card the caboose rules
        # out face up is only ever laid face down (face up, the train fails for good): 4 and a
        # wild car, whichever card it is. So which of those cards are left never changes the
        # value-to-go, only how many: they share one digit (``merged``), and the search lays
        # one of them face down, not each in turn. Not when counting the optimal trains, where
        # each card is a different train.
        self.merged = restricted and not count_optimal
        self.state_radix = list(self.radix)
        if self.merged:
            weight = 1
            for t in range(n_types):
                if allowed[t]:
                    self.state_radix[t] = weight
                    weight *= self.count[t] + 1
            for t in range(n_types):
                if not allowed[t]:
                    self.state_radix[t] = weight
        self.state_code = sum(n * r for n, r in zip(self.count, self.state_radix))
        # Cards left per colour that can start (right car c, left car not) or end (left car c,
        # right car not) a run of c, or sit inside it (both cars c); in the met case only the
        # cards it lets lie face up start or end a run.
        n_colors = len(_COLORS)
        self.starts = [0] * n_colors
        self.ends = [0] * n_colors
        self.monos = [0] * n_colors
        self.met_starts = [0] * n_colors
        self.met_ends = [0] * n_colors
        # role[t] = (colour t can start, colour t can end, colour t can sit inside), -1 for none.
        self.role: list[tuple[int, int, int]] = []
        self.met_role: list[tuple[int, int]] = []
        for t in range(n_types):
            right, left = _car_color(self.right_id[t]), self.left_color[t]
            self.role.append((-1, -1, left) if self.mono[t] else (right, left, -1))
            self.met_role.append(
                (-1, -1) if self.mono[t] or not self.met_face_up[t] else (right, left)
            )
            self._adjust(t, self.count[t])
        self.lists = [self._weight_lists([True] * n_types)]
        if face_up_ok is not None:
            self.lists.append(self._weight_lists(allowed))
        # The met case's weight lists: the values; with the run bonus, unless max_run caps the
        # runs, per colour the plain bound's list (value + 2 for a card with both cars c), then
        # the same with +1 for a card with one car c (see _met_bound).
        face_up = allowed if restricted else [True] * n_types
        plain_lists = self.lists[1] if restricted else self.lists[0]
        if not bonus or (self.met is not None and self.met.max_run is not None):
            self.met_lists = plain_lists[:1]
        else:
            one_car = [
                [face_up[t] and not self.mono[t] and c in self._colors(t) for t in range(n_types)]
                for c in range(n_colors)
            ]
            self.met_lists = plain_lists + [
                self._ordered([plain_lists[1 + c][1][t] + one_car[c][t] for t in range(n_types)])
                for c in range(n_colors)
            ]
        self.slot_values = [(card.left.value, card.right.value) for card in types]
        # Per count vector (code): the largest k met-case weights left per list, and their prefix sums.
        self.selection_cache: dict[int, tuple[list[list[int]], list[list[int]]]] = {}
        # For value_joints: the card types laid face up, grouped by their (left, right) values.
        self.chain_classes = sorted(
            {self.slot_values[t] for t in range(n_types) if self.met_face_up[t]}
        )
        self.chain_class = [
            self.chain_classes.index(self.slot_values[t]) if self.met_face_up[t] else -1
            for t in range(n_types)
        ]
        self.chain_memo: dict[tuple[tuple[int, ...], int, int], int] = {}
        # For _fill_value: per last car, whether each type may follow it face up; per slot, the
        # types that fit it face up; the exact fills, per counts, slots, last car, run, longest.
        self.follows = [
            [t in self.legal[last] for t in range(n_types)] for last in range(len(_CARS_BY_ID))
        ]
        self.fill_types: dict[Slot, list[int]] = {}
        self.fill_cache: dict[
            tuple[int, tuple[Slot, ...], int, int, int, int], tuple[int, bool]
        ] = {}
        self.slot_candidates: dict[tuple[Slot, ...], tuple[list[list[tuple[int, int]]], bool]] = {}
        # Per way: its groups of alike slots (slots, m), then, with more than one, all slots.
        self.way_groups: dict[Way, tuple[tuple[tuple[Slot, ...], int], ...]] = {}
        # Per (counts, slots, m): [] when the cards left cannot fill the slots, else per weight list
        # the slots' weight (-1: not computed yet).
        self.slot_cache: dict[tuple[int, tuple[Slot, ...], int], list[int]] = {}
        self.bound_cache: dict[
            tuple[int, int, int, int, int, tuple[Way, ...], tuple[_Needs, ...]], int
        ] = {}
        self.colour_cache: dict[tuple[int, int, int, int], int] = {}
        self.split_cache: dict[tuple[int, int, int, int], list[tuple[int, int, int]]] = {}
        # colour_cars[t][c]: how many cars of colour c card type t shows face up.
        self.colour_cars = [
            [self._colors(t).count(c) for c in range(n_colors)] for t in range(n_types)
        ]
        # Per colour, the types with 0, 1 and 2 cars of it, each in the types' order (by value).
        self.colour_classes = [
            tuple(
                [t for t in range(n_types) if self.colour_cars[t][c] == cars] for cars in range(3)
            )
            for c in range(n_colors)
        ]
        # Whether the met bound costs enough (exact colour counts, or ways whose slots start at
        # the next card) that children first get the cheap plain bound (see _met_children).
        self.lazy = self.met is not None and (
            self.met.exact_colors is not None or self.met.next_below > 0
        )
        self.count_optimal = count_optimal
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self.memo: dict[Hashable, tuple[bool, int, int, _Move | None]] = {}
        self.topk_cache: dict[tuple[int, int], list[list[int]]] = {}
        self.row: list[Car] = list(start.cars)
        self.path: list[_Move] = []
        self.gained = 0
        self.incumbent = -1
        self.incumbent_path: list[_Move] = []

    def _adjust(self, t: int, delta: int) -> None:
        start, end, inside = self.role[t]
        if start >= 0:
            self.starts[start] += delta
        if end >= 0:
            self.ends[end] += delta
        if inside >= 0:
            self.monos[inside] += delta
        start, end = self.met_role[t]
        if start >= 0:
            self.met_starts[start] += delta
        if end >= 0:
            self.met_ends[end] += delta

    def _take(self, t: int) -> None:
        self.count[t] -= 1
        self.code -= self.radix[t]
        self.state_code -= self.state_radix[t]
        self._adjust(t, -1)

    def _put_back(self, t: int) -> None:
        self.count[t] += 1
        self.code += self.radix[t]
        self.state_code += self.state_radix[t]
        self._adjust(t, 1)

    def _weight_lists(self, face_up: list[bool]) -> list[tuple[list[int], list[int]]]:
        """(order, weights) for the bound's top-k sums: first the cards' values, then per colour
        c the value plus 2 for a card with both cars c; a card not allowed face up weighs 4."""
        n_types = len(self.types)
        value = [self.value[t] if face_up[t] else _FACE_DOWN_VALUE for t in range(n_types)]
        weights = [value] + [
            [
                value[t] + (2 if face_up[t] and self.mono[t] and self.left_color[t] == c else 0)
                for t in range(n_types)
            ]
            for c in range(len(_COLORS))
        ]
        return [self._ordered(w) for w in weights]

    def _ordered(self, weights: list[int]) -> tuple[list[int], list[int]]:
        """A weight list with the card types in decreasing order of weight."""
        return sorted(range(len(weights)), key=weights.__getitem__, reverse=True), weights

    def _colors(self, t: int) -> tuple[int, int]:
        """The colour indices of card type t's left and right cars."""
        return self.left_color[t], _car_color(self.right_id[t])

    def _top_sums(self, k: int) -> list[list[int]]:
        """Per weight list (see :meth:`_weight_lists`), the sums of the k largest weights left.
        Cached per count vector and k (the met case also asks for fewer than the cards to play)."""
        cached = self.topk_cache.get((self.code, k))
        if cached is not None:
            return cached
        count = self.count
        result: list[list[int]] = []
        for lists in self.lists:
            sums: list[int] = []
            for order, weight in lists:
                total, need = 0, k
                for t in order:
                    n = count[t]
                    if n:
                        if n >= need:
                            total += need * weight[t]
                            break
                        total += n * weight[t]
                        need -= n
                sums.append(total)
            result.append(sums)
        self.topk_cache[self.code, k] = result
        return result

    def _bound(self, k: int, last: int, cur: int, longest: int, caboose_open: bool) -> int:
        """An upper bound on the value-to-go (see the module docstring for why it is admissible)."""
        if self.met is not None:
            return self._met_bound(k, last, cur, longest)
        return self._plain_bound(k, last, cur, longest, caboose_open)

    def _plain_bound(
        self, k: int, last: int, cur: int, longest: int, caboose_open: bool = False
    ) -> int:
        """The plain bound of the module docstring. In the single search, plus the caboose's
        points while it is open. In the met case (where ``caboose_open`` is False: the points
        are not counted there) the smallest over the weight lists: the restricted ones of a
        caboose with ``face_up_ok`` bound every train meeting it, the unrestricted one every
        train."""
        sums = self._top_sums(k)
        bounds = [top[0] for top in sums]
        if self.bonus:
            last_color = _car_color(last)
            for c in range(len(_COLORS)):
                start = 1 if self.starts[c] else 0
                if c == last_color and cur > start:
                    start = cur
                run_ends = start + (1 if self.ends[c] else 0) - longest
                for i, top in enumerate(sums):
                    candidate = top[c + 1] + run_ends
                    if candidate > bounds[i]:
                        bounds[i] = candidate
        caboose = self.caboose
        if caboose is None:
            return bounds[0]
        if not caboose_open:
            # For a train meeting the caboose (the met case) the restricted lists bound it too;
            # in the single search a caboose failed for good (only a monotone one) adds nothing.
            return min(bounds) if self.met is not None else bounds[0]
        # Either the caboose fails (the plain bound) or it is met: its points on top of the
        # plain bound, or of the restricted one when the caboose rules cards out face up.
        return max(bounds[0], min(bounds) + caboose.points)

    def _selection(self, k: int) -> tuple[list[list[int]], list[list[int]]]:
        """Per met-case weight list, the k largest weights left (largest first) and their
        prefix sums (the sums of the i largest, i = 0..k). Cached per count vector."""
        cached = self.selection_cache.get(self.code)
        # A selection of more weights serves too (the shared face-down bound asks k - 1 of the
        # parent's counts).
        if cached is not None and len(cached[1][0]) > k:
            return cached
        count = self.count
        chosen: list[list[int]] = []
        for order, weight in self.met_lists:
            top: list[int] = []
            for t in order:
                n = count[t]
                if n:
                    top.extend([weight[t]] * min(n, k - len(top)))
                    if len(top) == k:
                        break
            chosen.append(top)
        result = (chosen, [list(accumulate(top, initial=0)) for top in chosen])
        self.selection_cache[self.code] = result
        return result

    def _select_child(self, parent: list[list[int]], t: int) -> None:
        """Cache the selection of the current counts, which are the parent's (whose k largest
        weights are ``parent``) less one card of type t: the parent's less that card when it is
        among them (any card of equal weight will do), else the parent's less its smallest."""
        if self.code in self.selection_cache:
            return
        chosen: list[list[int]] = []
        for top, (_, weight) in zip(parent, self.met_lists):
            w = weight[t]
            if top and w >= top[-1]:
                i = top.index(w)
                chosen.append(top[:i] + top[i + 1 :])
            else:
                chosen.append(top[:-1])
        self.selection_cache[self.code] = (
            chosen,
            [list(accumulate(top, initial=0)) for top in chosen],
        )

    def _slot_weight(self, slots: tuple[Slot, ...], m: int, index: int) -> int | None:
        """On met-case weight list ``index``, the most m distinct cards left that each fit one of
        ``slots`` can weigh (None: fewer fit). A card fits a slot face up when its car values
        match and the caboose allows it face up; any card fits face down, as two wild cars
        worth 2, when the slot asks for 2s or anything (face-down fillers are not counted off:
        that only raises the sum). Cached per count vector, one list at a time (a bound often
        needs only a few of the lists)."""
        key = (self.code, slots, m)
        entry = self.slot_cache.get(key)
        if entry is not None and entry and entry[index] >= 0:
            return entry[index]
        known = self.slot_candidates.get(slots)
        if known is None:
            fits = [
                t
                for t, (lv, rv) in enumerate(self.slot_values)
                if self.met_face_up[t]
                and any(
                    (not left or lv == left) and (not right or rv == right) for left, right in slots
                )
            ]
            ranked = [
                sorted(((weight[t], t) for t in fits), reverse=True) for _, weight in self.met_lists
            ]
            face_down = any(left in (0, 2) and right in (0, 2) for left, right in slots)
            known = self.slot_candidates[slots] = (ranked, face_down)
        candidates, face_down = known
        count = self.count
        if entry is None:
            # Whether m cards fit does not depend on the list: [] when they do not.
            if not face_down and sum(count[t] for _, t in candidates[0]) < m:
                entry = []
            else:
                entry = [-1] * len(candidates)
            self.slot_cache[key] = entry
        if not entry:
            return None
        total, need = 0, m
        for w, t in candidates[index]:
            if need == 0 or (face_down and w <= _FACE_DOWN_VALUE):
                break
            n = count[t]
            if n:
                used = n if n < need else need
                total += used * w
                need -= used
        # Only with face-down fillers (else the m fits were counted above).
        total += need * _FACE_DOWN_VALUE
        entry[index] = total
        return total

    def _chain_bound(self, k: int, last: int) -> int:
        """For a caboose with ``value_joints``: the most value k plays can add when every face-up
        card after a coloured car must match its value.

        A relaxation of the met case, solved exactly by memoised search: cards are reduced to
        their (left, right) values and colours are dropped (a met train's plays are such a
        walk), and a face-down play (4, then a wild that anything may follow) takes no card
        from the classes (taking one only narrows the choices). So it is never below the value
        the plays of a met train add."""
        counts = [0] * len(self.chain_classes)
        for t, n in enumerate(self.count):
            if n and self.chain_class[t] >= 0:
                counts[self.chain_class[t]] += n
        value = 0 if last == _WILD_ID else _CARS_BY_ID[last].value
        return self._chain(tuple(counts), value, k)

    def _chain(self, counts: tuple[int, ...], value: int, k: int) -> int:
        if k == 0:
            return 0
        # More than k cards of a class are as good as k: one memo entry for all of them.
        counts = tuple(n if n < k else k for n in counts)
        key = (counts, value, k)
        cached = self.chain_memo.get(key)
        if cached is not None:
            return cached
        best = _FACE_DOWN_VALUE + self._chain(counts, 0, k - 1)
        for i, (left, right) in enumerate(self.chain_classes):
            if counts[i] and (value == 0 or left == value):
                rest = counts[:i] + (counts[i] - 1,) + counts[i + 1 :]
                best = max(best, left + right + self._chain(rest, right, k - 1))
        self.chain_memo[key] = best
        return best

    def _exact_colour_bound(self, k: int, colour: int, need: int) -> int:
        """The most value k plays can add when their face-up cards add exactly ``need`` cars of
        ``colour`` (``_NEG``: impossible).

        Such plays lay some a cards with one car of the colour and b with two, a + 2b = need,
        and the other k - a - b cards either face up without the colour (their value) or face
        down (4, which no card is below). So the values are at most the a best of the first
        kind, the b best of the second and the k - a - b best of the cards without the colour,
        made up with 4s; the best split over b bounds them. Cached per count vector and k."""
        key = (self.code, k, colour, need)
        cached = self.colour_cache.get(key)
        if cached is not None:
            return cached
        best = max((value for _, _, value in self._colour_splits(k, colour, need)), default=_NEG)
        self.colour_cache[key] = best
        return best

    def _colour_splits(self, k: int, colour: int, need: int) -> list[tuple[int, int, int]]:
        """For :meth:`_exact_colour_bound`: per split (a cards with one car of ``colour``, b with
        two, a + 2b = need, a + b <= k) that the cards left allow, the most value of those k
        plays: ``(a, b, value)``. Cached per count vector and k."""
        key = (self.code, k, colour, need)
        cached = self.split_cache.get(key)
        if cached is not None:
            return cached
        # The types are sorted by value, largest first: each class's largest values left come
        # first, and no more than the most a split can use of each is read.
        others, ones, twos = self.colour_classes[colour]
        ones_sums = list(accumulate(self._largest(ones, min(need, k)), initial=0))
        twos_sums = list(accumulate(self._largest(twos, min(need // 2, k)), initial=0))
        others_sums = list(accumulate(self._largest(others, k), initial=0))
        splits: list[tuple[int, int, int]] = []
        for b in range(min(need // 2, len(twos_sums) - 1) + 1):
            a = need - 2 * b
            if a >= len(ones_sums) or a + b > k:
                continue
            rest = k - a - b
            filled = min(rest, len(others_sums) - 1)
            total = (
                ones_sums[a]
                + twos_sums[b]
                + others_sums[filled]
                + _FACE_DOWN_VALUE * (rest - filled)
            )
            splits.append((a, b, total))
        self.split_cache[key] = splits
        return splits

    def _colour_run_bound(
        self, k: int, colour: int, need: int, last: int, cur: int, longest: int
    ) -> int:
        """The most k plays can add, value and run bonus together, when their face-up cards add
        exactly ``need`` cars of ``colour`` (``_NEG``: impossible): per split of
        :meth:`_colour_splits`, its value plus the most the longest run can grow with it.

        With a cards of one car of the colour and b of two, a run of the colour is at most its
        start (``cur`` when the last car has the colour, else a start card among the a), the
        b cards of two cars, and an end card among the a; a run of another colour x is at most
        its start (``cur``, or a start card), its cards of two cars x (none of them has a car
        of the colour, so at most the k - a - b other cards), and an end card. The longest run
        grows by at most the longest of these less ``longest``: admissible."""
        last_color = _car_color(last)
        best = _NEG
        for a, b, value in self._colour_splits(k, colour, need):
            if last_color == colour:
                start = cur
            else:
                start = 1 if a and self.met_starts[colour] else 0
            run = start + 2 * b + (1 if a and self.met_ends[colour] else 0)
            others = k - a - b
            for x in range(len(_COLORS)):
                if x != colour:
                    start = 1 if self.met_starts[x] else 0
                    if x == last_color and cur > start:
                        start = cur
                    grown = start + 2 * min(self.monos[x], others) + (1 if self.met_ends[x] else 0)
                    if grown > run:
                        run = grown
            total = value + (run - longest if run > longest else 0)
            if total > best:
                best = total
        return best

    def _largest(self, types: list[int], most: int) -> list[int]:
        """The values of the up to ``most`` most valuable cards left among ``types`` (which are
        in decreasing order of value), largest first."""
        values: list[int] = []
        count = self.count
        for t in types:
            n = count[t]
            if n:
                values.extend([self.value[t]] * min(n, most - len(values)))
                if len(values) >= most:
                    break
        return values

    def _cars_left(self) -> list[int]:
        # A start card adds one car of its colour, an end card one, a card of one colour two.
        return [s + e + 2 * m for s, e, m in zip(self.starts, self.ends, self.monos)]

    def _met_bound(self, k: int, last: int, cur: int, longest: int) -> int:
        """An upper bound on the value-to-go over the continuations that meet the caboose
        (``_NEG`` when none can): the plain bound over the cards of the best way."""
        met, caboose = self.met, self.caboose
        assert met is not None and caboose is not None
        row = tuple(self.row)
        if k == 0:
            return 0 if caboose.test(row) else _NEG
        if caboose.monotone and not caboose.test(row):
            return _NEG
        ways: tuple[Way, ...] = met.ways(row, k, self._cars_left() if met.counts_colors else ())
        if not ways:
            return _NEG
        if self.bonus:
            # Beyond cur + 2k the longest run cannot grow: all those states bound alike.
            longest = min(longest, cur + 2 * k)
        needs = () if met.exact_colors is None else met.exact_colors(row)
        key = (self.code, k, last, cur, longest, ways, needs)
        cached = self.bound_cache.get(key)
        if cached is not None:
            return cached
        bound = self._met_ways_bound(k, last, cur, longest, ways, needs)
        self.bound_cache[key] = bound
        return bound

    def _met_ways_bound(
        self,
        k: int,
        last: int,
        cur: int,
        longest: int,
        ways: tuple[Way, ...],
        needs: tuple[_Needs, ...],
    ) -> int:
        """:meth:`_met_bound` once the ways to meet the caboose and its exact colour needs are
        known (they, the counts, k and the last car, run and longest run decide it: it is
        cached on them)."""
        met = self.met
        assert met is not None
        colour_bound: int | None = None
        if met.exact_colors is not None:
            # The values alone, given the exact colour counts the caboose asks (the best
            # alternative; within one, every requirement holds, so the smallest bound does).
            colour_bound = _best_alternative(needs, lambda c, d: self._exact_colour_bound(k, c, d))
            if colour_bound < 0:
                return _NEG
        prefix = self._selection(k)[1]
        # What the run adds on top of each weight list's sum: nothing on the values (list 0);
        # on colour c's list the start and end of a run of c, as in the plain bound; or, when no
        # run of a met train exceeds max_run, at most max_run - L on the values alone.
        n_colors = (len(prefix) - 1) // 2
        if not self.bonus:
            extra = [0]
        elif met.max_run is not None:
            extra = [max(0, met.max_run - longest)]
        else:
            # On colour c's lists: a run of c that ends after this point is the current run (cur
            # cars, when the last car is c) or a start card's right car, then cards with both
            # cars c (2 each), then an end card's left car. The plain bound adds the start and
            # the end to the sum of value + 2 per card of both cars c (B_c of the module
            # docstring); the second list instead weighs +1 on every card with one car c, which
            # covers the start and end cards among them, and adds only cur. Both are admissible,
            # so the smaller is.
            extra = [0]
            last_color = _car_color(last)
            for c in range(n_colors):
                start = 1 if self.met_starts[c] else 0
                if c == last_color and cur > start:
                    start = cur
                extra.append(start + (1 if self.met_ends[c] else 0) - longest)
            extra += [(cur if c == last_color else 0) - longest for c in range(n_colors)]
        if met.value_joints:
            # The values alone are bounded by the walk over card values (_chain_bound) as well.
            chain = self._chain_bound(k, last)
            prefix = [[min(total, chain) for total in prefix[0]], *prefix[1:]]
        best = _NEG
        for way in ways:
            n = len(way)
            immediate = met.ordered and (n == k or n < met.next_below)
            if n == k and immediate:
                # The way is the next k cards, slot by slot: the exact best of their plays.
                best = max(best, self._fill_value(way, 0, last, cur, longest))
                continue
            # The k cards: the way's slots, each weighing at most its best fit (m slots alike: the
            # m best distinct fits), and k - len(way) others, weighing at most the largest weights
            # left (a card counted twice only raises the sum); and, like any k cards, at most the
            # k largest weights left. Either sum bounds the weights of a met train's cards, so the
            # smaller does (per weight list, as in the plain bound).
            # The slots' cards are distinct: alike slots take the m best fits, and all of them
            # together weigh at most the len(way) best cards fitting any of them.
            groups = self.way_groups.get(way)
            if groups is None:
                alike: list[tuple[tuple[Slot, ...], int]] = [
                    ((slot,), m) for slot, m in Counter(way).items()
                ]
                if len(alike) > 1:
                    alike.append((tuple(slot for (slot,), _ in alike), len(way)))
                groups = self.way_groups[way] = tuple(alike)
            fit = self._way_weight(groups, 0)
            if fit is None:
                continue
            top = prefix[0]
            bound = min(top[k], top[k - n] + fit) + extra[0]
            # The colours' run bounds, skipping a colour whose bound over all k cards cannot beat
            # the way's so far (its bound on a list is at most that). Whether the cards left
            # fill the way is the same on every list: the fits below are not None.
            for c in range(1, n_colors + 1):
                first, second = prefix[c], prefix[c + n_colors]
                extra_first, extra_second = extra[c], extra[c + n_colors]
                if min(first[k] + extra_first, second[k] + extra_second) <= max(bound, best):
                    continue
                fit_first = self._way_weight(groups, c)
                assert fit_first is not None
                run = min(first[k], first[k - n] + fit_first) + extra_first
                if run <= bound:
                    continue
                fit_second = self._way_weight(groups, c + n_colors)
                assert fit_second is not None
                run = min(run, min(second[k], second[k - n] + fit_second) + extra_second)
                if run > bound:
                    bound = run
            if bound > best and immediate:
                # The way starts at the next card: its slots' plays exactly, then the plain
                # bound over the cards after them (_fill_value); both bound it, so the smaller.
                bound = min(bound, self._fill_value(way, k - n, last, cur, longest, bound))
            if bound > best:
                best = bound
        if colour_bound is not None and best > colour_bound:
            # The run adds at most its longest possible growth: a run of c is at most its start
            # (cur, or a start card's car), every card with both cars c left (at most k), and
            # an end card's car.
            gain = 0
            if self.bonus:
                last_color = _car_color(last)
                for c in range(len(_COLORS)):
                    start = 1 if self.met_starts[c] else 0
                    if c == last_color and cur > start:
                        start = cur
                    gain = max(
                        gain,
                        start
                        + 2 * min(self.monos[c], k)
                        + (1 if self.met_ends[c] else 0)
                        - longest,
                    )
            best = min(best, colour_bound + gain)
            if self.bonus and best > colour_bound:
                # Value and run together per alternative (each of its requirements holds in a
                # met train of it, so the smallest bound does), the best alternative.
                coupled = _best_alternative(
                    needs, lambda c, d: self._colour_run_bound(k, c, d, last, cur, longest)
                )
                best = min(best, coupled)
        return best

    def _way_weight(
        self, groups: tuple[tuple[tuple[Slot, ...], int], ...], index: int
    ) -> int | None:
        """On weight list ``index``, the most a way's slot cards can weigh (None: the cards left
        cannot fill it): the sum over its groups of alike slots, but at most the best cards
        fitting any slot (the last group, when there are several)."""
        total = 0
        last = len(groups) - 1
        for i, group in enumerate(groups):
            fit = self._slot_weight(group[0], group[1], index)
            if fit is None:
                return None
            if i < last or last == 0:
                total += fit
            elif fit < total:
                total = fit
        return total

    def _fill_value(
        self,
        slots: tuple[Slot, ...],
        rest: int,
        last: int,
        cur: int,
        longest: int,
        enough: int = -_NEG,
    ) -> int:
        """At most what the next ``len(slots) + rest`` plays can add when the first fill
        ``slots`` in order (``_NEG``: no plays can): for a way of an ``ordered`` caboose that
        starts at the next card, a bound on the value-to-go of the met trains that follow it.

        Each slot's play is a card left that fits it face up (its car values match, the caboose
        allows it face up, and it may follow the car before), with its value and run gain as in
        :meth:`_moves`; or a face-down card (4, two wild 2s) where the slot asks for 2s or
        anything, which here takes no card from those left (any card will do, and keeping it
        only widens the later choices). The ``rest`` plays after them add at most the plain
        bound (:meth:`_plain_bound`) from there. So it is the exact best of the slots' plays
        (but for the kept face-down card) plus an admissible bound: never below the value-to-go
        of a met train filling the way. With ``rest`` 0 (as many slots as cards to play) it is
        the exact value-to-go of those trains.

        The caller takes the smaller of this and another bound, ``enough``: once some plays
        reach ``enough`` the rest are skipped and that value (at least ``enough``, at most the
        best) is returned, since the smaller is then ``enough`` either way."""
        if not slots:
            return self._plain_bound(rest, last, cur, longest) if rest else 0
        key = (self.code, slots, rest, last, cur, longest)
        cached = self.fill_cache.get(key)
        # A value cut short at some ``enough`` serves any caller it is still enough for.
        if cached is not None and (cached[1] or cached[0] >= enough):
            return cached[0]
        slot, later = slots[0], slots[1:]
        left, right = slot
        best = _NEG
        if left in (0, 2) and right in (0, 2):
            best = _FACE_DOWN_VALUE + self._fill_value(
                later, rest, _WILD_ID, 0, longest, enough - _FACE_DOWN_VALUE
            )
        fits = self.fill_types.get(slot)
        if fits is None:
            fits = self.fill_types[slot] = [
                t
                for t, (lv, rv) in enumerate(self.slot_values)
                if self.met_face_up[t] and (not left or lv == left) and (not right or rv == right)
            ]
        follows = self.follows[last]
        last_color = _car_color(last)
        for t in fits:
            if best >= enough:
                break
            if not self.count[t] or not follows[t]:
                continue
            run = cur + 1 if self.left_color[t] == last_color else 1
            if self.mono[t]:
                run += 1
                new_cur = run
            else:
                new_cur = 1
            new_longest = run if run > longest else longest
            gain = self.value[t] + (new_longest - longest if self.bonus else 0)
            if later or rest:
                self._take(t)
                value = gain + self._fill_value(
                    later, rest, self.right_id[t], new_cur, new_longest, enough - gain
                )
                self._put_back(t)
            else:
                value = gain
            if value > best:
                best = value
        # Complete (the best) unless it reached enough: then possibly cut short.
        self.fill_cache[key] = (best, best < enough)
        return best

    def _met_children(
        self, k: int, last: int, cur: int, longest: int
    ) -> Iterator[tuple[int, _Move]]:
        """The met case's children, best first, each with gain plus an upper bound of its value.

        A face-up child's bound is its own. Every face-down child shares one: the bound of the
        row with two wild cars added but the parent's cards left, which is at least each
        child's own (more cards left never lower a bound); it spares a bound per card, and the
        child's own is still taken when it is searched. Among them the cheapest card goes first.

        Where the met-case bound is costly (``lazy``) it is taken lazily: every child first
        gets the plain bound (:meth:`_plain_bound`, cheap; admissible for a met train too,
        since a met train is a train), and a child's met-case bound is taken only when it is
        the best left by the bounds known so far. A child is yielded when its met-case bound (or the plain one,
        if smaller: both are admissible) is at least every other child's known bound, so the
        children come in the same order as if every bound were taken first, and the caller
        stops (as soon as one is below its threshold) without the bounds of the others.
        """
        # Heap items: (-estimate, refined, tie-break, position, move); move None stands for the
        # face-down children as one group. At equal estimates an unrefined child is refined
        # first, so the order is that of the refined estimates.
        heap: list[tuple[int, int, int, int, _Move | None]] = []
        face_down: list[_Move] = []
        merged_down = False
        moves = self._moves(last, cur, longest)
        for position, move in enumerate(moves):
            gain, t, face_up, new_last, new_cur, new_longest = move
            if not self.met_face_up[t]:
                # Face up it fails the caboose for good; face down, one such card stands for
                # all (see ``merged``).
                if face_up or (self.merged and merged_down):
                    continue
                merged_down = self.merged
            if face_up:
                if self.lazy:
                    self._take(t)
                    cheap = gain + self._plain_bound(k - 1, new_last, new_cur, new_longest)
                    self._put_back(t)
                else:
                    # Every estimate unknown (above all): all are refined before the first yield.
                    cheap = -_NEG
                heap.append((-cheap, 0, 0, position, move))
            else:
                face_down.append(move)
        if face_down:
            # With the parent's cards and k plays: at least 4 plus each face-down child's own
            # plain bound (its k - 1 plays weigh no more than the parent's k largest weights
            # less one, and no weight is below 4). The k keeps the per-counts cache of top
            # sums (:meth:`_top_sums`) to the one k those counts have.
            cheap = self._plain_bound(k, _WILD_ID, 0, longest) if self.lazy else -_NEG
            heap.append((-cheap, 0, 0, len(moves), None))
        heapq.heapify(heap)
        parent: list[list[int]] | None = None
        while heap:
            negative, refined, tie, position, child = heapq.heappop(heap)
            if refined:
                assert child is not None
                yield -negative, child
                continue
            if child is None:
                self.row.extend((WILD, WILD))
                shared = self._met_bound(k - 1, _WILD_ID, 0, longest)
                del self.row[-2:]
                for move in face_down:
                    estimate = min(-negative, _FACE_DOWN_VALUE + shared)
                    heapq.heappush(heap, (-estimate, 1, self.value[move[1]], position, move))
                continue
            gain, t, _, new_last, new_cur, new_longest = child
            if parent is None:
                parent = self._selection(k)[0]
            self._take(t)
            self._select_child(parent, t)
            self.row.extend((self.types[t].left, self.types[t].right))
            estimate = min(-negative, gain + self._met_bound(k - 1, new_last, new_cur, new_longest))
            del self.row[-2:]
            self._put_back(t)
            heapq.heappush(heap, (-estimate, 1, tie, position, child))

    def _caboose_state(self) -> tuple[Hashable, bool]:
        """The caboose's memo key of the row so far, and whether its points are still reachable."""
        caboose = self.caboose
        if caboose is None:
            return None, False
        row = tuple(self.row)
        key = caboose.memo_key(row) if caboose.memo_key is not None else row
        open_ = not caboose.monotone or caboose.test(row)
        return key, open_

    def _moves(self, last: int, cur: int, longest: int) -> list[_Move]:
        """Every play from the current state: each card left face up when legal, and face down."""
        moves: list[_Move] = []
        bonus = self.bonus
        last_color = _car_color(last)
        count = self.count
        for t in self.legal[last]:
            if not count[t]:
                continue
            left = self.left_color[t]
            run = cur + 1 if left == last_color else 1
            if self.mono[t]:
                run += 1
                new_cur = run
            else:
                new_cur = 1
            new_longest = run if run > longest else longest
            gain = self.value[t] + (new_longest - longest if bonus else 0)
            moves.append((gain, t, True, self.right_id[t], new_cur, new_longest))
        for t in range(len(count)):
            if count[t]:
                moves.append((_FACE_DOWN_VALUE, t, False, _WILD_ID, 0, longest))
        return moves

    def _apply(self, move: _Move) -> None:
        gain, t, face_up, *_ = move
        self._take(t)
        self.path.append(move)
        self.gained += gain
        if self.caboose is not None:
            card = self.types[t]
            self.row.extend(Play(card, face_up).cars)

    def _undo(self, move: _Move) -> None:
        gain, t, *_ = move
        self._put_back(t)
        self.path.pop()
        self.gained -= gain
        if self.caboose is not None:
            del self.row[-2:]

    def state_key(self, k: int, last: int, cur: int, longest: int) -> Hashable:
        """The memo key of the current state (the counts and row are the search's own)."""
        return self._key(k, last, cur, longest, self._caboose_state()[0])

    def _key(self, k: int, last: int, cur: int, longest: int, caboose_key: Hashable) -> Hashable:
        if self.bonus:
            # Beyond cur + 2k no later run can overtake the longest run: those states are equal.
            longest = min(longest, cur + 2 * k)
            return (self.state_code, last, cur, longest, caboose_key)
        return (self.state_code, last, caboose_key)

    def greedy(self, k: int, last: int, cur: int, longest: int) -> None:
        """Seed the incumbent with a greedy train (best immediate gain), so that a search stopped
        by a limit before reaching its first complete train still returns a legal one."""
        moves: list[_Move] = []
        for _ in range(k):
            move = max(
                self._moves(last, cur, longest), key=lambda m: (m[0], m[2], -self.value[m[1]])
            )
            self._apply(move)
            moves.append(move)
            _, _, _, last, cur, longest = move
        self._record(self._leaf_value())
        for move in reversed(moves):
            self._undo(move)

    def _leaf_value(self) -> int:
        """What a complete train adds at the end: the caboose's points when it meets it."""
        if self.caboose is None:
            return 0
        met = self.caboose.test(tuple(self.row))
        if self.met is not None:
            return 0 if met else _NEG
        return self.caboose.points if met else 0

    def solve(self, k: int, last: int, cur: int, longest: int, alpha: int) -> tuple[int, bool, int]:
        """The value-to-go ``h`` of the current state: ``(h, True, count)`` when ``h >= alpha``,
        else ``(u, False, 0)`` with ``h <= u < alpha``."""
        if k == 0:
            value = self._leaf_value()
            self._record(value)
            return value, True, 1
        caboose_key, caboose_open = self._caboose_state()
        key = self._key(k, last, cur, longest, caboose_key)
        entry = self.memo.get(key)
        if entry is not None:
            exact, value, count, _ = entry
            if exact:
                if value >= alpha:
                    self._record_from(key, value)
                return value, True, count
            if value < alpha:
                return value, False, 0
        bound = self._bound(k, last, cur, longest, caboose_open)
        if bound < alpha:
            self.memo[key] = (False, bound, 0, None)
            return bound, False, 0
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _Interrupted
        # The clock is read every 256 states: cheap, and fine-grained enough for a limit in seconds.
        if (
            self.deadline is not None
            and self.nodes % 256 == 0
            and time.perf_counter() > self.deadline
        ):
            raise _Interrupted
        self.nodes += 1

        # Order children by gain plus their own bound, computed on the spot (cached per multiset).
        scored: list[tuple[int, _Move]] = []
        for move in self._moves(last, cur, longest) if self.met is None else ():
            gain, t, face_up, new_last, new_cur, new_longest = move
            self._take(t)
            child_open = caboose_open
            if caboose_open and self.caboose is not None and self.caboose.monotone:
                # Only a monotone condition can close for good; the others stay open to the end.
                self.row.extend(Play(self.types[t], face_up).cars)
                child_open = self.caboose.test(tuple(self.row))
                del self.row[-2:]
            estimate = gain + self._bound(k - 1, new_last, new_cur, new_longest, child_open)
            self._put_back(t)
            scored.append((estimate, move))
        scored.sort(key=lambda item: -item[0])
        children: Iterable[tuple[int, _Move]] = scored
        if self.met is not None:
            children = self._met_children(k, last, cur, longest)

        strict = 0 if self.count_optimal else 1
        # Below every value-to-go, including the met case's _NEG of a train that fails.
        best, best_count, best_move = 2 * _NEG, 0, None
        upper = 2 * _NEG
        for estimate, move in children:
            need = max(alpha, best + strict)
            if estimate < need:
                # Sorted: no later child can reach the threshold either.
                upper = max(upper, estimate)
                break
            gain = move[0]
            self._apply(move)
            value, exact, count = self.solve(k - 1, move[3], move[4], move[5], need - gain)
            self._undo(move)
            total = gain + value
            if exact and total > best:
                best, best_count, best_move = total, count, move
            elif exact and total == best:
                best_count += count
            elif not exact and total > upper:
                upper = total
        if best >= alpha:
            self.memo[key] = (True, best, best_count, best_move)
            return best, True, best_count
        value = max(best, upper)
        self.memo[key] = (False, value, 0, None)
        return value, False, 0

    def _record(self, value_to_go: int) -> None:
        """Keep the best complete train met so far (for a search stopped by a limit)."""
        total = self.gained + value_to_go
        if total > self.incumbent:
            self.incumbent = total
            self.incumbent_path = list(self.path)

    def _record_from(self, key: Hashable, value_to_go: int) -> None:
        """Like :meth:`_record` for a memoised state: complete the path from the memo's best moves."""
        if self.gained + value_to_go > self.incumbent:
            path = list(self.path) + self.follow(key)
            if len(path) == self.length:
                self.incumbent, self.incumbent_path = self.gained + value_to_go, path

    def follow(self, key: Hashable) -> list[_Move]:
        """The best moves stored in the memo from state ``key`` (the current state) to the end."""
        moves: list[_Move] = []
        taken: list[int] = []
        entry = self.memo.get(key)
        while entry is not None and entry[0] and entry[3] is not None:
            move = entry[3]
            if self.merged and not self.count[move[1]]:
                # A merged state's best move may lay a ruled-out card this train no longer
                # holds: any other of them left is the same play (see ``merged``).
                t = next(
                    t for t in range(len(self.count)) if self.count[t] and not self.met_face_up[t]
                )
                move = (move[0], t, *move[2:])
            moves.append(move)
            self._take(move[1])
            taken.append(move[1])
            if self.caboose is not None:
                self.row.extend(Play(self.types[move[1]], move[2]).cars)
            k = self.length - len(self.path) - len(moves)
            if k == 0:
                break
            caboose_key = self._caboose_state()[0]
            entry = self.memo.get(self._key(k, move[3], move[4], move[5], caboose_key))
        for t in reversed(taken):
            self._put_back(t)
            if self.caboose is not None:
                del self.row[-2:]
        return moves


def best_train(
    cards: Iterable[Card] | str,
    length: int,
    *,
    start: Train | None = None,
    bonus: bool = True,
    caboose: Caboose | str | None = None,
    count_optimal: bool = False,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> TrainSearch:
    """The train of exactly ``length`` cards from the pool ``cards`` with the highest solo score.

    ``cards`` is a multiset of :class:`Card` (each physical card used at most once; a deck text
    is accepted too); ``caboose`` a :class:`Caboose` or its name. ``node_limit`` (states) and
    ``time_limit`` (seconds) must be positive and finite; they stop the search early, returning
    the best train found with ``optimal=False``. See the module docstring for the search, its
    bound and why the bound is admissible.

    >>> result = best_train("R4|B4,B4|G4,G4|Y4,Y4|R4,R3|G3,B2|B2", 4, count_optimal=True)
    >>> str(result.train), result.value, result.longest_run, result.score, result.count
    ('B4|G4,G4|Y4,R4|B4,Y4|R4', 32, 2, 34, 16)

    ``start`` is a train to extend, and the pool is always **the cards still available**: the
    start train's cards are not taken out of ``cards``. To extend a train drawn from a deck, take
    its cards out with :func:`express.without` (which names any card the deck does not hold):

    >>> from express import DECK, Train, without
    >>> start = Train.parse("R3|G3,G3|R3")
    >>> result = best_train(without(DECK, start), 5, caboose="Two-Timer", start=start)
    >>> str(result.train), result.score, result.caboose_points
    ('R3|G3,G3|R3,R4|B4,B4|G4,G4|Y4,P4|P4,P3|B3', 58, 5)

    A start card that is also in ``cards`` is not an error: the pool may hold another copy
    (two B2|B2 in the deck, or a printed edition), which only the caller knows.
    """
    if isinstance(cards, str):
        pool = Counter(parse_deck(cards))
    else:
        try:
            items = list(cards)
        except TypeError:
            raise type_error(
                "best_train: cards", "an iterable of Card or deck text (str)", cards
            ) from None
        for card in items:
            if not isinstance(card, Card):
                raise type_error(
                    "best_train: each card", "a Card (parse_deck(text) reads deck text)", card
                )
        pool = Counter(items)
    if not isinstance(length, int) or isinstance(length, bool):
        raise type_error("best_train: length", "an int (the number of cards to add)", length)
    if start is not None and not isinstance(start, Train):
        raise type_error(
            "best_train: start", "a Train or None (Train.parse(text) reads text)", start
        )
    if caboose is not None and not isinstance(caboose, (Caboose, str)):
        raise type_error("best_train: caboose", "a Caboose, its name or None", caboose)
    for name, flag in (("bonus", bonus), ("count_optimal", count_optimal)):
        if not isinstance(flag, bool):
            raise type_error(f"best_train: {name}", "a bool", flag)
    if node_limit is not None:
        if not isinstance(node_limit, int) or isinstance(node_limit, bool):
            raise type_error("best_train: node_limit", "an int or None", node_limit)
        if node_limit <= 0:
            raise LimitError(f"invalid node limit: {node_limit!r} (a positive number of states)")
    if time_limit is not None:
        if not isinstance(time_limit, (int, float)) or isinstance(time_limit, bool):
            raise type_error(
                "best_train: time_limit", "a number of seconds (float) or None", time_limit
            )
        if not (math.isfinite(time_limit) and time_limit > 0):
            raise LimitError(
                f"invalid time limit: {time_limit!r} (a positive, finite number of seconds)"
            )
    return _best_train(
        tuple(pool.elements()),
        length,
        start=start,
        bonus=bonus,
        caboose=caboose,
        count_optimal=count_optimal,
        node_limit=node_limit,
        time_limit=time_limit,
        split=True,
    )


@dataclass(frozen=True)
class _Outcome:
    """What one search of :func:`_best_train` found.

    ``proven`` is False when a limit stopped the search (``moves`` is then its best complete
    train, or empty). When proven, ``value`` is the value-to-go and ``moves`` reach it if
    ``exact``; else no train reaches the search's threshold and ``moves`` is empty.
    """

    moves: list[_Move]
    proven: bool
    exact: bool
    value: int
    count: int


def _run(search: _Search, length: int, last: int, cur: int, longest: int, alpha: int) -> _Outcome:
    """Solve from the root with threshold ``alpha``; on a limit, keep the search's incumbent."""
    try:
        value, exact, count = search.solve(length, last, cur, longest, alpha)
    except _Interrupted:
        return _Outcome(search.incumbent_path, False, False, 0, 0)
    if not exact or value < 0:
        # Below the threshold, or (met case, length 0) the start train fails the caboose.
        return _Outcome([], True, False, value, 0)
    return _Outcome(
        search.follow(search.state_key(length, last, cur, longest)), True, True, value, count
    )


def _best_train(
    cards: Iterable[Card] | str,
    length: int,
    *,
    start: Train | None,
    bonus: bool,
    caboose: Caboose | str | None,
    count_optimal: bool,
    node_limit: int | None,
    time_limit: float | None,
    split: bool,
) -> TrainSearch:
    """:func:`best_train`; ``split=False`` runs the single search whose bound only adds the
    caboose's points while the caboose is open (the tests cross-check the two)."""
    pool = Counter(parse_deck(cards) if isinstance(cards, str) else cards)
    size = sum(pool.values())
    if length < 0:
        raise PoolError(f"invalid length: {length!r} (a train gets 0 or more cards)")
    if length > size:
        raise PoolError(f"invalid length: {length!r} (larger than the pool of {size} cards)")
    if isinstance(caboose, str):
        caboose = caboose_named(caboose)
    start = Train() if start is None else start
    began = time.perf_counter()
    deadline = None if time_limit is None else began + time_limit
    last = _car_id(start.last_car)
    # The run ending at the last car is the train's last run, unless the last car is wild.
    cur = 0 if start.last_car.is_wild or not bonus else start.runs[-1].length
    longest = start.longest_run if bonus else 0
    rules = (
        met_rules(caboose) if split and caboose is not None and not caboose.is_relative else None
    )

    # Without met-case rules: one search, the caboose's points added while it is open.
    search = _Search(
        pool, start, length, bonus, None if rules else caboose, count_optimal, node_limit, deadline
    )
    search.greedy(length, last, cur, longest)
    found = _run(search, length, last, cur, longest, 0)
    nodes = search.nodes
    outcomes = [found]
    count = found.count
    if rules is not None and caboose is not None:
        # The optimum is the better of the best train (found above) and the best train meeting
        # the caboose plus its points; the second only matters if it can beat (or, counting,
        # tie) the first, which sets its threshold.
        points = caboose.points
        alpha = max(0, found.value - points + (0 if count_optimal else 1)) if found.proven else 0
        remaining = None if node_limit is None else max(0, node_limit - nodes)
        met = _Search(
            pool, start, length, bonus, caboose, count_optimal, remaining, deadline, met=rules
        )
        met_found = _run(met, length, last, cur, longest, alpha)
        nodes += met.nodes
        outcomes.append(met_found)
        if met_found.exact:
            # The optimal trains: those of the first search if its optimum is reached (none of
            # them meets the caboose, or the second search would beat it), plus those of the
            # second if it reaches the optimum with the points.
            best = max(found.value, met_found.value + points)
            count = (found.count if found.value == best else 0) + (
                met_found.count if met_found.value + points == best else 0
            )

    optimal = all(outcome.proven for outcome in outcomes)
    trains = [
        start.extend(Play(search.types[m[1]], m[2]) for m in o.moves)
        for o in outcomes
        if len(o.moves) == length
    ]
    # Both searches list the pool's card types in the same order, so a move means the same card.
    train = max(trains, key=lambda t: solo_score(t, bonus=bonus, caboose=caboose))
    plays = train.plays[len(start.plays) :]
    active = caboose is not None and not caboose.is_relative and caboose.met_by(train)
    return TrainSearch(
        start=start,
        plays=plays,
        score=solo_score(train, bonus=bonus, caboose=caboose),
        value=train.value,
        longest_run=train.longest_run,
        run_bonus=train.longest_run if bonus else 0,
        caboose=caboose,
        caboose_points=caboose.points if active and caboose is not None else 0,
        optimal=optimal,
        nodes=nodes,
        count=count if optimal and count_optimal else None,
        seconds=time.perf_counter() - began,
    )
