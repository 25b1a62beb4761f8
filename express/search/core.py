"""One branch-and-bound search over equivalent states (see :mod:`express.search` for the method).

:class:`Search` holds the cards left (:class:`~express.search.pool.CardPool`), the memo of
value-to-go per state, and its bound: the plain one (:class:`~express.search.plain.PlainBound`)
or, in the met case, the met-case one (:class:`~express.search.met.MetBound`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Hashable, Iterable

from express.caboose_bounds import MetRules
from express.cabooses import Caboose
from express.cards import Car, Card
from express.search.met import MetBound
from express.search.plain import PlainBound
from express.search.pool import NEG, CardPool, Move, car_id
from express.train import Play, Train

__all__ = ["LimitReached", "Search", "root_state"]


class LimitReached(Exception):
    """Raised inside the search when a caller's node or time limit is reached: the search
    unwinds and the driver keeps the best train found so far (not Ctrl-C, which is
    ``arena.cli.Interrupted``'s)."""


def root_state(start: Train, bonus: bool) -> tuple[int, int, int]:
    """The search state of a start train: (last car id, run ending there, longest run)."""
    last = car_id(start.last_car)
    # The run ending at the last car is the train's last run, unless the last car is wild.
    cur = 0 if start.last_car.is_wild or not bonus else start.runs[-1].length
    longest = start.longest_run if bonus else 0
    return last, cur, longest


class Search:
    """One search: the cards left, the memo, the bound, and the path of the current train.

    ``caboose`` counts only when absolute. Without ``met`` its points are added while it is
    open (the single search); with ``met`` (its :class:`~express.caboose_bounds.MetRules`) only
    trains meeting it count, and its points are left to the caller (the met case).
    """

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
        self.length = length
        self.bonus = bonus
        self.caboose = caboose if caboose is not None and not caboose.is_relative else None
        self.met = met if self.caboose is not None else None
        face_up_ok = None if self.caboose is None else self.caboose.face_up_ok
        # In a train meeting a caboose with ``face_up_ok``, a card it rules out adds 4 at most
        # (face down) and never lengthens a run.
        restricted = self.met is not None and self.met.restricted and face_up_ok is not None
        # The memo's code of the cards left. In a restricted met case a card the caboose rules
        # out face up is only ever laid face down (face up, the train fails for good): 4 and a
        # wild car, whichever card it is. So which of those cards are left never changes the
        # value-to-go, only how many: they share one digit (``merged``), and the search lays
        # one of them face down, not each in turn. Not when counting the optimal trains, where
        # each card is a different train.
        self.merged = restricted and not count_optimal
        self.pool = cards = CardPool(pool, face_up_ok if restricted else None, self.merged)
        self.types = cards.types
        self.plain = PlainBound(
            cards, bonus=bonus, caboose=self.caboose, met_case=self.met is not None
        )
        self.row: list[Car] = list(start.cars)
        self.met_bound: MetBound | None = None
        if self.met is not None and self.caboose is not None:
            self.met_bound = MetBound(
                cards,
                self.plain,
                caboose=self.caboose,
                rules=self.met,
                bonus=bonus,
                row=self.row,
                restricted=restricted,
                merged=self.merged,
            )
        self.count_optimal = count_optimal
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self.memo: dict[Hashable, tuple[bool, int, int, Move | None]] = {}
        self.path: list[Move] = []
        self.gained = 0
        self.incumbent = -1
        self.incumbent_path: list[Move] = []

    def bound(self, k: int, last: int, cur: int, longest: int, caboose_open: bool) -> int:
        """An upper bound on the value-to-go (see :mod:`express.search` for why it is
        admissible)."""
        if self.met_bound is not None:
            return self.met_bound.bound(k, last, cur, longest)
        return self.plain.bound(k, last, cur, longest, caboose_open)

    def caboose_state(self) -> tuple[Hashable, bool]:
        """The caboose's memo key of the row so far, and whether its points are still reachable."""
        caboose = self.caboose
        if caboose is None:
            return None, False
        row = tuple(self.row)
        key = caboose.memo_key(row) if caboose.memo_key is not None else row
        open_ = not caboose.monotone or caboose.test(row)
        return key, open_

    def apply(self, move: Move) -> None:
        """Play ``move``: take its card, extend the path (and the row, with a caboose)."""
        gain, t, face_up, *_ = move
        self.pool.take(t)
        self.path.append(move)
        self.gained += gain
        if self.caboose is not None:
            self.row.extend(Play(self.types[t], face_up).cars)

    def undo(self, move: Move) -> None:
        """Take ``move`` back (undoes :meth:`apply`)."""
        gain, t, *_ = move
        self.pool.put_back(t)
        self.path.pop()
        self.gained -= gain
        if self.caboose is not None:
            del self.row[-2:]

    def state_key(self, k: int, last: int, cur: int, longest: int) -> Hashable:
        """The memo key of the current state (the counts and row are the search's own)."""
        return self._key(k, last, cur, longest, self.caboose_state()[0])

    def _key(self, k: int, last: int, cur: int, longest: int, caboose_key: Hashable) -> Hashable:
        if self.bonus:
            # Beyond cur + 2k no later run can overtake the longest run: those states are equal.
            longest = min(longest, cur + 2 * k)
            return (self.pool.state_code, last, cur, longest, caboose_key)
        return (self.pool.state_code, last, caboose_key)

    def greedy(self, k: int, last: int, cur: int, longest: int) -> None:
        """Seed the incumbent with a greedy train (best immediate gain), so that a search stopped
        by a limit before reaching its first complete train still returns a legal one."""
        moves: list[Move] = []
        value = self.pool.value
        for _ in range(k):
            move = max(
                self.pool.moves(last, cur, longest, self.bonus),
                key=lambda m: (m[0], m[2], -value[m[1]]),
            )
            self.apply(move)
            moves.append(move)
            _, _, _, last, cur, longest = move
        self._record(self._leaf_value())
        for move in reversed(moves):
            self.undo(move)

    def _leaf_value(self) -> int:
        """What a complete train adds at the end: the caboose's points when it meets it."""
        if self.caboose is None:
            return 0
        met = self.caboose.test(tuple(self.row))
        if self.met is not None:
            return 0 if met else NEG
        return self.caboose.points if met else 0

    def solve(self, k: int, last: int, cur: int, longest: int, alpha: int) -> tuple[int, bool, int]:
        """The value-to-go ``h`` of the current state: ``(h, True, count)`` when ``h >= alpha``,
        else ``(u, False, 0)`` with ``h <= u < alpha``."""
        if k == 0:
            value = self._leaf_value()
            self._record(value)
            return value, True, 1
        caboose_key, caboose_open = self.caboose_state()
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
        bound = self.bound(k, last, cur, longest, caboose_open)
        if bound < alpha:
            self.memo[key] = (False, bound, 0, None)
            return bound, False, 0
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise LimitReached
        # The clock is read every 256 states: cheap, and fine-grained enough for a limit in seconds.
        if (
            self.deadline is not None
            and self.nodes % 256 == 0
            and time.perf_counter() > self.deadline
        ):
            raise LimitReached
        self.nodes += 1
        children: Iterable[tuple[int, Move]]
        if self.met_bound is None:
            children = self._children(k, last, cur, longest, caboose_open)
        else:
            children = self.met_bound.children(k, last, cur, longest)
        strict = 0 if self.count_optimal else 1
        # Below every value-to-go, including the met case's NEG of a train that fails.
        best, best_count, best_move = 2 * NEG, 0, None
        upper = 2 * NEG
        for estimate, move in children:
            need = max(alpha, best + strict)
            if estimate < need:
                # Sorted: no later child can reach the threshold either.
                upper = max(upper, estimate)
                break
            gain = move[0]
            self.apply(move)
            value, exact, count = self.solve(k - 1, move[3], move[4], move[5], need - gain)
            self.undo(move)
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

    def _children(
        self, k: int, last: int, cur: int, longest: int, caboose_open: bool
    ) -> list[tuple[int, Move]]:
        """The children of a state outside the met case, best first: each move with its gain
        plus its own bound, computed on the spot (the bound's sums are cached per multiset)."""
        pool, caboose = self.pool, self.caboose
        scored: list[tuple[int, Move]] = []
        for move in pool.moves(last, cur, longest, self.bonus):
            gain, t, face_up, new_last, new_cur, new_longest = move
            pool.take(t)
            child_open = caboose_open
            if caboose_open and caboose is not None and caboose.monotone:
                # Only a monotone condition can close for good; the others stay open to the end.
                self.row.extend(Play(self.types[t], face_up).cars)
                child_open = caboose.test(tuple(self.row))
                del self.row[-2:]
            estimate = gain + self.plain.bound(k - 1, new_last, new_cur, new_longest, child_open)
            pool.put_back(t)
            scored.append((estimate, move))
        scored.sort(key=lambda item: -item[0])
        return scored

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

    def follow(self, key: Hashable) -> list[Move]:
        """The best moves stored in the memo from state ``key`` (the current state) to the end."""
        pool = self.pool
        moves: list[Move] = []
        taken: list[int] = []
        entry = self.memo.get(key)
        while entry is not None and entry[0] and entry[3] is not None:
            move = entry[3]
            if self.merged and not pool.count[move[1]]:
                # A merged state's best move may lay a ruled-out card this train no longer
                # holds: any other of them left is the same play (see ``merged``).
                t = next(
                    t for t in range(len(pool.count)) if pool.count[t] and not pool.face_up_ok[t]
                )
                move = (move[0], t, *move[2:])
            moves.append(move)
            pool.take(move[1])
            taken.append(move[1])
            if self.caboose is not None:
                self.row.extend(Play(self.types[move[1]], move[2]).cars)
            k = self.length - len(self.path) - len(moves)
            if k == 0:
                break
            caboose_key = self.caboose_state()[0]
            entry = self.memo.get(self._key(k, move[3], move[4], move[5], caboose_key))
        for t in reversed(taken):
            pool.put_back(t)
            if self.caboose is not None:
                del self.row[-2:]
        return moves
