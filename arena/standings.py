"""A tournament's running totals: everything its table reports, added up deal by deal.

A :class:`Tally` holds counts and sums, never the games: each policy's games, its wins (exactly,
a win shared by ``k`` players counting ``1/k``), the sum of its points, the sum of the squares of
its win share per deal (for the win-rate interval), the comparisons the ratings are fitted to
(:class:`arena.ratings.Comparisons`), and, when the tournament summarises its games, how often
each summary came. Its size depends on the number of policies alone, so a tournament of a
billion deals keeps what one of ten keeps.

Every total is an integer or an exact fraction: tallies added in any order, or in any grouping
(deal by deal, batch by batch, some from a checkpoint), are equal, so a tournament's result
does not depend on its workers, its batches or its interruptions.

:class:`DealSet` is the other half of what a resumable tournament keeps: which deals are done,
as ranges, so it too stays small however many deals there are.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from arena.ratings import Comparisons, game_comparisons

if TYPE_CHECKING:
    from arena.tournament import GameRecord

__all__ = ["Counts", "DealSet", "Tally"]

# Points that are whole numbers below this are summed as int64 (exactly); others as fractions.
_EXACT_FLOAT_INTEGERS = 2.0**53


def _exact_sum(values: npt.NDArray[np.float64]) -> Fraction:
    """The exact sum of ``values`` (floats are binary fractions: every one is exact)."""
    if not len(values):
        return Fraction(0)
    if np.all(np.abs(values) < _EXACT_FLOAT_INTEGERS) and np.all(values == np.floor(values)):
        return Fraction(int(values.astype(np.int64).sum()))
    return sum((Fraction(float(x)) for x in values), Fraction(0))


@dataclass(eq=False)
class Tally:
    """The totals of the deals added so far, between the policies ``names`` of an
    ``players``-player game (one policy a seat).

    - ``deals``: deals added; ``games[i]``: games policy ``i`` played;
    - ``wins[i]``: its wins in units of ``1 / unit`` (``unit`` is the least common multiple of
      1 … ``players``, so every shared win is a whole number of units);
    - ``deal_wins_squared[i]``: the sum over deals of the square of its wins in that deal
      (units again);
    - ``points[i]``: the exact sum of its points;
    - ``comparisons``: who finished above whom, deal by deal (the ratings' data);
    - ``summaries``: how many games each summary came in, or None when none were given.
    """

    names: tuple[str, ...]
    players: int
    deals: int = 0
    games: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    deal_wins_squared: list[int] = field(default_factory=list)
    points: list[Fraction] = field(default_factory=list)
    comparisons: Comparisons | None = None
    summaries: Counter[Hashable] | None = None

    def __post_init__(self) -> None:
        m = len(self.names)
        self.games = self.games or [0] * m
        self.wins = self.wins or [0] * m
        self.deal_wins_squared = self.deal_wins_squared or [0] * m
        self.points = self.points or [Fraction(0)] * m
        if self.comparisons is None:
            self.comparisons = Comparisons.empty(m)

    @property
    def unit(self) -> int:
        """The units a win is counted in: ``1 / unit`` of a win."""
        return math.lcm(*range(1, self.players + 1))

    def add_games(
        self,
        seating: npt.NDArray[np.intp],
        returns: npt.NDArray[np.float64],
        winners: npt.NDArray[np.bool_],
        summaries: Sequence[Hashable] | None = None,
    ) -> None:
        """Whole deals' games, deal after deal, each deal's ``players`` games together: game
        ``g``'s seat ``s`` held policy ``seating[g, s]``, scored ``returns[g, s]`` and won when
        ``winners[g, s]``; ``summaries[g]`` is its summary, if the tournament makes them."""
        m, n = len(self.names), self.players
        seating = np.asarray(seating, np.intp)
        returns = np.asarray(returns, np.float64)
        winners = np.asarray(winners, np.bool_)
        games = len(seating)
        if games % n:
            raise ValueError(f"{games} games are not whole deals of {n} games")
        deals = games // n
        rows = np.arange(games)[:, None]
        count = winners.sum(axis=1, keepdims=True)
        share = np.where(winners, self.unit // np.maximum(count, 1), 0)
        by_policy = np.zeros((games, m), np.int64)
        by_policy[rows, seating] = share
        per_deal = by_policy.reshape(deals, n, m).sum(axis=1)
        played = np.bincount(seating.reshape(-1), minlength=m)
        for i in range(m):
            self.games[i] += int(played[i])
            self.wins[i] += int(per_deal[:, i].sum())
            self.deal_wins_squared[i] += int((per_deal[:, i] * per_deal[:, i]).sum())
            self.points[i] += _exact_sum(returns[seating == i])
        comparisons = game_comparisons(seating, returns, winners, m)
        assert self.comparisons is not None
        self.comparisons.add_deals(comparisons.reshape(deals, n, m, m).sum(axis=1))
        self.deals += deals
        if summaries is not None:
            if self.summaries is None:
                self.summaries = Counter()
            self.summaries.update(summaries)

    def add_records(self, records: Iterable[GameRecord], summarised: bool = False) -> None:
        """Whole deals' :class:`~arena.tournament.GameRecord`, deal after deal (the games of a
        deal together); their summaries are counted when ``summarised``."""
        index = {name: i for i, name in enumerate(self.names)}
        records = list(records)
        if not records:
            return
        seating = np.array([[index[name] for name in r.seating] for r in records], np.intp)
        returns = np.array([r.returns for r in records], np.float64)
        winners = np.zeros(seating.shape, np.bool_)
        for g, record in enumerate(records):
            winners[g, list(record.winners)] = True
        summaries = [r.summary for r in records] if summarised else None
        self.add_games(seating, returns, winners, summaries)

    def merge(self, other: Tally) -> None:
        """Add ``other``'s deals (of the same policies) to these."""
        if other.names != self.names or other.players != self.players:
            raise ValueError("tallies of other policies or another game")
        for i in range(len(self.names)):
            self.games[i] += other.games[i]
            self.wins[i] += other.wins[i]
            self.deal_wins_squared[i] += other.deal_wins_squared[i]
            self.points[i] += other.points[i]
        assert self.comparisons is not None and other.comparisons is not None
        self.comparisons.merge(other.comparisons)
        self.deals += other.deals
        if other.summaries is not None:
            self.summaries = (self.summaries or Counter()) + other.summaries

    def _key(self) -> tuple[object, ...]:
        summaries = None if self.summaries is None else frozenset(self.summaries.items())
        return (
            self.names,
            self.players,
            self.deals,
            tuple(self.games),
            tuple(self.wins),
            tuple(self.deal_wins_squared),
            tuple(self.points),
            self.comparisons,
            summaries,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tally):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


class DealSet:
    """A set of deal numbers kept as sorted disjoint ranges ``[start, stop)``: deals finish
    nearly in order, so a few ranges hold them all.

    >>> done = DealSet()
    >>> for deal in (0, 1, 2, 5, 3):
    ...     done.add(deal)
    >>> done.ranges, len(done), 4 in done, list(done.missing(7))
    ([(0, 4), (5, 6)], 5, False, [4, 6])
    """

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._stops: list[int] = []

    @property
    def ranges(self) -> list[tuple[int, int]]:
        return list(zip(self._starts, self._stops))

    def add(self, deal: int) -> None:
        """Add ``deal`` (already there: nothing changes)."""
        k = bisect.bisect_right(self._starts, deal)
        if k and self._stops[k - 1] > deal:
            return
        joins_left = k > 0 and self._stops[k - 1] == deal
        joins_right = k < len(self._starts) and self._starts[k] == deal + 1
        if joins_left and joins_right:
            self._stops[k - 1] = self._stops.pop(k)
            del self._starts[k]
        elif joins_left:
            self._stops[k - 1] = deal + 1
        elif joins_right:
            self._starts[k] = deal
        else:
            self._starts.insert(k, deal)
            self._stops.insert(k, deal + 1)

    def __contains__(self, deal: object) -> bool:
        if not isinstance(deal, int):
            return False
        k = bisect.bisect_right(self._starts, deal)
        return k > 0 and self._stops[k - 1] > deal

    def __len__(self) -> int:
        return sum(stop - start for start, stop in zip(self._starts, self._stops))

    def last(self) -> int:
        """The largest deal held (-1 when empty)."""
        return self._stops[-1] - 1 if self._stops else -1

    def missing(self, games: int) -> Iterator[int]:
        """The deals below ``games`` not held now (deals added later do not change it), in
        order, made as they are asked for."""
        return self._missing(self.ranges, games)

    @staticmethod
    def _missing(ranges: list[tuple[int, int]], games: int) -> Iterator[int]:
        deal = 0
        for start, stop in ranges:
            if start >= games:
                break
            yield from range(deal, start)
            deal = stop
        yield from range(deal, games)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DealSet):
            return NotImplemented
        return self.ranges == other.ranges

    def __hash__(self) -> int:
        return hash(tuple(self.ranges))

    def __getstate__(self) -> list[tuple[int, int]]:
        return self.ranges

    def __setstate__(self, ranges: list[tuple[int, int]]) -> None:
        self._starts = [start for start, _ in ranges]
        self._stops = [stop for _, stop in ranges]


class Counts(Mapping[Hashable, int]):
    """How many games each summary came in: a read-only mapping that hashes and compares by
    its items, so a result holding it is a value like any other.

    >>> counts = Counts({"run award": 3, "caboose": 1})
    >>> counts["run award"], sum(counts.values()), counts == Counts({"caboose": 1, "run award": 3})
    (3, 4, True)
    """

    __slots__ = ("_counts",)

    def __init__(self, counts: Mapping[Hashable, int] = {}) -> None:  # noqa: B006 (never changed)
        self._counts = dict(counts)

    def __getitem__(self, key: Hashable) -> int:
        return self._counts[key]

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        return dict(self._counts) == dict(other)

    def __hash__(self) -> int:
        return hash(frozenset(self._counts.items()))

    def __repr__(self) -> str:
        return f"Counts({self._counts!r})"

    def __reduce__(self) -> tuple[type[Counts], tuple[dict[Hashable, int]]]:
        return (Counts, (self._counts,))
