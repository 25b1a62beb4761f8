"""The cards left in one search, as small integers: card types, counts and the legal plays.

Card types are the distinct cards of the pool, most valuable first (the natural order for the
bounds' top-k sums and for trying plays); a car is an id, 0 for any wild car and 1..15 for the
coloured cars; a colour is its index in ``tuple(Color)``. The counts of the cards left change
by one card at a time (:meth:`CardPool.take`, :meth:`CardPool.put_back`), and so do the
integer codes and the per-colour tallies the bounds read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from express.cards import WILD, Car, Card, Color
from express.rules import CAR_VALUES, FACE_DOWN_VALUE
from express.train import connects

__all__ = ["COLORS", "WILD_ID", "CARS_BY_ID", "NEG", "Move", "CardPool", "car_id", "car_color"]

COLORS = tuple(Color)
WILD_ID = 0
_CARS_PER_COLOR = len(CAR_VALUES)
CARS_BY_ID = (WILD, *(Car(color, value) for color in COLORS for value in CAR_VALUES))
"""The car of each car id."""

NEG = -(1 << 30)
"""The value-to-go of a state from which no train meets the caboose, in the met-case search: far
below any real value-to-go (the sums of a few dozen card values), so never reaching a threshold."""

# A move: (gain, type index, face up, next last-car id, next cur, next longest run).
Move = tuple[int, int, bool, int, int, int]


def car_id(car: Car) -> int:
    """0 for any wild car; 1..15 for the coloured cars (5 colours x values 2..4)."""
    if car.color is None:
        return WILD_ID
    return 1 + COLORS.index(car.color) * _CARS_PER_COLOR + CAR_VALUES.index(car.value)


def car_color(car_id: int) -> int:
    """The colour index of a car id, -1 for a wild car."""
    return -1 if car_id == WILD_ID else (car_id - 1) // _CARS_PER_COLOR


class CardPool:
    """The cards left: per type its count, cars and value, and what the bounds tally per colour.

    ``face_up_ok`` is the caboose's test of the cards a met train may lay face up, in a
    restricted met case (see :class:`express.caboose_bounds.MetRules`), else None (any card);
    ``self.face_up_ok[t]`` is its verdict on type ``t``. ``merged`` makes the types it rules
    out share one digit of ``state_code`` (see :class:`express.search.core.Search`).
    """

    def __init__(
        self, pool: Counter[Card], face_up_ok: Callable[[Card], bool] | None, merged: bool
    ) -> None:
        # Most valuable first: the natural order for the bound's top-k sums and for move ordering.
        self.types = types = sorted(pool, key=lambda card: (-card.value, str(card)))
        n_types = len(types)
        self.count = [pool[card] for card in types]
        self.value = [card.value for card in types]
        self.left_color = [car_color(car_id(card.left)) for card in types]
        self.right_id = [car_id(card.right) for card in types]
        self.mono = [card.is_mono for card in types]
        self.slot_values = [(card.left.value, card.right.value) for card in types]
        self.face_up_ok = [face_up_ok is None or face_up_ok(card) for card in types]
        allowed = self.face_up_ok
        # legal[last car id] = the types that may follow that car face up; follows, the same as
        # one flag per type.
        self.legal = [
            [t for t in range(n_types) if connects(last_car, types[t].left)]
            for last_car in CARS_BY_ID
        ]
        self.follows = [[t in legal for t in range(n_types)] for legal in self.legal]
        # Mixed-radix code of the count vector: one integer, updated in O(1) per play.
        self.radix: list[int] = []
        weight = 1
        for n in self.count:
            self.radix.append(weight)
            weight *= n + 1
        self.code = sum(n * r for n, r in zip(self.count, self.radix))
        # The memo's code of the cards left: with ``merged`` the types ruled out face up share
        # one digit (how many are left, not which).
        self.state_radix = list(self.radix)
        if merged:
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
        n_colors = len(COLORS)
        self.starts = [0] * n_colors
        self.ends = [0] * n_colors
        self.monos = [0] * n_colors
        self.met_starts = [0] * n_colors
        self.met_ends = [0] * n_colors
        # role[t] = (colour t can start, colour t can end, colour t can sit inside), -1 for none.
        self.role: list[tuple[int, int, int]] = []
        self.met_role: list[tuple[int, int]] = []
        for t in range(n_types):
            right, left = car_color(self.right_id[t]), self.left_color[t]
            self.role.append((-1, -1, left) if self.mono[t] else (right, left, -1))
            self.met_role.append((-1, -1) if self.mono[t] or not allowed[t] else (right, left))
            self._adjust(t, self.count[t])
        # color_cars[t][c]: how many cars of colour c card type t shows face up.
        self.color_cars = [
            [self.colors(t).count(c) for c in range(n_colors)] for t in range(n_types)
        ]
        # Per colour, the types with 0, 1 and 2 cars of it, each in the types' order (by value).
        self.color_classes = [
            tuple([t for t in range(n_types) if self.color_cars[t][c] == cars] for cars in range(3))
            for c in range(n_colors)
        ]

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

    def take(self, t: int) -> None:
        """One card of type ``t`` fewer."""
        self.count[t] -= 1
        self.code -= self.radix[t]
        self.state_code -= self.state_radix[t]
        self._adjust(t, -1)

    def put_back(self, t: int) -> None:
        """One card of type ``t`` more (undoes :meth:`take`)."""
        self.count[t] += 1
        self.code += self.radix[t]
        self.state_code += self.state_radix[t]
        self._adjust(t, 1)

    def colors(self, t: int) -> tuple[int, int]:
        """The colour indices of card type t's left and right cars."""
        return self.left_color[t], car_color(self.right_id[t])

    def cars_left(self) -> list[int]:
        """The cars of each colour on the cards left."""
        # A start card adds one car of its colour, an end card one, a card of one colour two.
        return [s + e + 2 * m for s, e, m in zip(self.starts, self.ends, self.monos)]

    def largest(self, types: list[int], most: int) -> list[int]:
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

    def moves(self, last: int, cur: int, longest: int, bonus: bool) -> list[Move]:
        """Every play from a state: each card left face up when legal, and face down."""
        moves: list[Move] = []
        last_color = car_color(last)
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
                moves.append((FACE_DOWN_VALUE, t, False, WILD_ID, 0, longest))
        return moves
