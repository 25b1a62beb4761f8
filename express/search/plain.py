"""The plain bound on a state's value-to-go (the search's ``T`` and ``B_c``, see
:mod:`express.search`): the k largest card values left, or per colour the k largest of value
plus 2 for a card with both cars of it plus the run's start and end."""

from __future__ import annotations

from express.cabooses import Caboose
from express.rules import FACE_DOWN_VALUE
from express.search.pool import COLORS, CardPool, car_color

__all__ = ["WeightList", "PlainBound", "ordered"]

WeightList = tuple[list[int], list[int]]
"""(order, weights): the weight of each card type, and the types by decreasing weight."""


def ordered(weights: list[int]) -> WeightList:
    """A weight list with the card types in decreasing order of weight."""
    return sorted(range(len(weights)), key=weights.__getitem__, reverse=True), weights


class PlainBound:
    """The plain bound of one search over ``pool``.

    ``caboose`` is the search's absolute caboose (None without one); ``met_case`` is True in the
    met-case search (the caboose's points are not counted there). With a caboose that rules
    cards out face up (``face_up_ok``) a second set of weight lists weighs those cards 4 and
    lets them lengthen no run: it bounds every train meeting the caboose.
    """

    def __init__(
        self, pool: CardPool, *, bonus: bool, caboose: Caboose | None, met_case: bool
    ) -> None:
        self.pool = pool
        self.bonus = bonus
        self.caboose = caboose
        self.met_case = met_case
        n_types = len(pool.types)
        face_up_ok = None if caboose is None else caboose.face_up_ok
        self.lists = [self.weight_lists([True] * n_types)]
        if face_up_ok is not None:
            self.lists.append(self.weight_lists([face_up_ok(card) for card in pool.types]))
        self.topk_cache: dict[tuple[int, int], list[list[int]]] = {}

    def weight_lists(self, face_up: list[bool]) -> list[WeightList]:
        """The lists for the bound's top-k sums: first the cards' values, then per colour c the
        value plus 2 for a card with both cars c; a card not allowed face up weighs 4."""
        pool = self.pool
        n_types = len(pool.types)
        value = [pool.value[t] if face_up[t] else FACE_DOWN_VALUE for t in range(n_types)]
        weights = [value] + [
            [
                value[t] + (2 if face_up[t] and pool.mono[t] and pool.left_color[t] == c else 0)
                for t in range(n_types)
            ]
            for c in range(len(COLORS))
        ]
        return [ordered(w) for w in weights]

    def top_sums(self, k: int) -> list[list[int]]:
        """Per weight list (see :meth:`weight_lists`), the sums of the k largest weights left.
        Cached per count vector and k (the met case also asks for fewer than the cards to play)."""
        pool = self.pool
        cached = self.topk_cache.get((pool.code, k))
        if cached is not None:
            return cached
        count = pool.count
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
        self.topk_cache[pool.code, k] = result
        return result

    def bound(self, k: int, last: int, cur: int, longest: int, caboose_open: bool = False) -> int:
        """The plain bound of :mod:`express.search`. In the single search, plus the caboose's
        points while it is open. In the met case (where ``caboose_open`` is False: the points
        are not counted there) the smallest over the weight lists: the restricted ones of a
        caboose with ``face_up_ok`` bound every train meeting it, the unrestricted one every
        train."""
        sums = self.top_sums(k)
        bounds = [top[0] for top in sums]
        if self.bonus:
            pool = self.pool
            starts, ends = pool.starts, pool.ends
            last_color = car_color(last)
            for c in range(len(COLORS)):
                start = 1 if starts[c] else 0
                if c == last_color and cur > start:
                    start = cur
                run_ends = start + (1 if ends[c] else 0) - longest
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
            return min(bounds) if self.met_case else bounds[0]
        # Either the caboose fails (the plain bound) or it is met: its points on top of the
        # plain bound, or of the restricted one when the caboose rules cards out face up.
        return max(bounds[0], min(bounds) + caboose.points)
