"""The met case's bounds: the value-to-go over the trains that meet an absolute caboose.

The met-case search (see :mod:`express.search`) counts only trains meeting the caboose; its
bound knows what meeting it still asks (:class:`express.caboose_bounds.MetRules`, which each
caboose carries): whether it can still be met at all, the *ways* (cards of given car values the
rest must contain), exact colour counts, capped runs and value joints. Each bound's
admissibility is argued where it is computed; the tests check each against the brute force.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import accumulate

from express.caboose_bounds import MetRules, Slot, Way
from express.cabooses import Caboose
from express.cards import WILD, Car
from express.rules import FACE_DOWN_VALUE
from express.search.plain import PlainBound, WeightList, ordered
from express.search.pool import CARS_BY_ID, COLORS, NEG, WILD_ID, CardPool, Move, car_color

__all__ = ["Needs", "MetBound", "best_alternative"]

Needs = tuple[tuple[int, int], ...]
"""One alternative of a caboose on exact colour counts: (colour index, cars to add exactly) each."""


def best_alternative(needs: tuple[Needs, ...], bound: Callable[[int, int], int]) -> int:
    """The largest over the alternatives of the smallest ``bound(color, cars)`` over their
    requirements (``NEG`` for none), each requirement's bound taken once, and an alternative
    left as soon as one of its requirements cannot beat the best so far."""
    known: dict[tuple[int, int], int] = {}
    best = NEG
    for alternative in needs:
        worst = -NEG
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


class MetBound:
    """The met-case bound of one search over ``pool``, for ``caboose`` and its ``rules``.

    ``row`` is the search's own list of the cars so far (start train included), read as it
    changes; ``plain`` the search's plain bound (admissible for a met train too);
    ``restricted`` whether a met train lays face up only the cards the caboose's
    ``face_up_ok`` allows (then ``pool.face_up_ok`` says which, and the plain bound's second
    weight lists are those); ``merged`` as in :class:`express.search.core.Search`.
    """

    def __init__(
        self,
        pool: CardPool,
        plain: PlainBound,
        *,
        caboose: Caboose,
        rules: MetRules,
        bonus: bool,
        row: list[Car],
        restricted: bool,
        merged: bool,
    ) -> None:
        self.pool = pool
        self.plain = plain
        self.caboose = caboose
        self.rules = rules
        self.bonus = bonus
        self.row = row
        self.merged = merged
        n_types = len(pool.types)
        face_up = pool.face_up_ok
        # The met case's weight lists: the values; with the run bonus, unless max_run caps the
        # runs, per colour the plain bound's list (value + 2 for a card with both cars c), then
        # the same with +1 for a card with one car c (see ways_bound).
        plain_lists = plain.lists[1] if restricted else plain.lists[0]
        self.met_lists: list[WeightList]
        if not bonus or rules.max_run is not None:
            self.met_lists = plain_lists[:1]
        else:
            one_car = [
                [face_up[t] and not pool.mono[t] and c in pool.colors(t) for t in range(n_types)]
                for c in range(len(COLORS))
            ]
            self.met_lists = plain_lists + [
                ordered([plain_lists[1 + c][1][t] + one_car[c][t] for t in range(n_types)])
                for c in range(len(COLORS))
            ]
        # Per count vector (code): the largest k met-case weights left per list, and their prefix sums.
        self.selection_cache: dict[int, tuple[list[list[int]], list[list[int]]]] = {}
        # For value_joints: the card types laid face up, grouped by their (left, right) values.
        self.chain_classes = sorted({pool.slot_values[t] for t in range(n_types) if face_up[t]})
        self.chain_class = [
            self.chain_classes.index(pool.slot_values[t]) if face_up[t] else -1
            for t in range(n_types)
        ]
        self.chain_memo: dict[tuple[tuple[int, ...], int, int], int] = {}
        # For fill_value: per slot, the types that fit it face up; the exact fills, per counts,
        # slots, last car, run, longest.
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
            tuple[int, int, int, int, int, tuple[Way, ...], tuple[Needs, ...]], int
        ] = {}
        self.color_cache: dict[tuple[int, int, int, int], int] = {}
        self.split_cache: dict[tuple[int, int, int, int], list[tuple[int, int, int]]] = {}
        # Whether the met bound costs enough (exact colour counts, or ways whose slots start at
        # the next card) that children first get the cheap plain bound (see children).
        self.lazy = rules.exact_colors is not None or rules.next_below > 0

    def selection(self, k: int) -> tuple[list[list[int]], list[list[int]]]:
        """Per met-case weight list, the k largest weights left (largest first) and their
        prefix sums (the sums of the i largest, i = 0..k). Cached per count vector."""
        pool = self.pool
        cached = self.selection_cache.get(pool.code)
        # A selection of more weights serves too (the shared face-down bound asks k - 1 of the
        # parent's counts).
        if cached is not None and len(cached[1][0]) > k:
            return cached
        count = pool.count
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
        self.selection_cache[pool.code] = result
        return result

    def select_child(self, parent: list[list[int]], t: int) -> None:
        """Cache the selection of the current counts, which are the parent's (whose k largest
        weights are ``parent``) less one card of type t: the parent's less that card when it is
        among them (any card of equal weight will do), else the parent's less its smallest."""
        pool = self.pool
        if pool.code in self.selection_cache:
            return
        chosen: list[list[int]] = []
        for top, (_, weight) in zip(parent, self.met_lists):
            w = weight[t]
            if top and w >= top[-1]:
                i = top.index(w)
                chosen.append(top[:i] + top[i + 1 :])
            else:
                chosen.append(top[:-1])
        self.selection_cache[pool.code] = (
            chosen,
            [list(accumulate(top, initial=0)) for top in chosen],
        )

    def slot_weight(self, slots: tuple[Slot, ...], m: int, index: int) -> int | None:
        """On met-case weight list ``index``, the most m distinct cards left that each fit one of
        ``slots`` can weigh (None: fewer fit). A card fits a slot face up when its car values
        match and the caboose allows it face up; any card fits face down, as two wild cars
        worth 2, when the slot asks for 2s or anything (face-down fillers are not counted off:
        that only raises the sum). Cached per count vector, one list at a time (a bound often
        needs only a few of the lists)."""
        pool = self.pool
        key = (pool.code, slots, m)
        entry = self.slot_cache.get(key)
        if entry is not None and entry and entry[index] >= 0:
            return entry[index]
        known = self.slot_candidates.get(slots)
        if known is None:
            fits = [
                t
                for t, (lv, rv) in enumerate(pool.slot_values)
                if pool.face_up_ok[t]
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
        count = pool.count
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
            if need == 0 or (face_down and w <= FACE_DOWN_VALUE):
                break
            n = count[t]
            if n:
                used = n if n < need else need
                total += used * w
                need -= used
        # Only with face-down fillers (else the m fits were counted above).
        total += need * FACE_DOWN_VALUE
        entry[index] = total
        return total

    def chain_bound(self, k: int, last: int) -> int:
        """For a caboose with ``value_joints``: the most value k plays can add when every face-up
        card after a coloured car must match its value.

        A relaxation of the met case, solved exactly by memoised search: cards are reduced to
        their (left, right) values and colours are dropped (a met train's plays are such a
        walk), and a face-down play (4, then a wild that anything may follow) takes no card
        from the classes (taking one only narrows the choices). So it is never below the value
        the plays of a met train add."""
        pool = self.pool
        counts = [0] * len(self.chain_classes)
        for t, n in enumerate(pool.count):
            if n and self.chain_class[t] >= 0:
                counts[self.chain_class[t]] += n
        value = 0 if last == WILD_ID else CARS_BY_ID[last].value
        return self.chain(tuple(counts), value, k)

    def chain(self, counts: tuple[int, ...], value: int, k: int) -> int:
        if k == 0:
            return 0
        # More than k cards of a class are as good as k: one memo entry for all of them.
        counts = tuple(n if n < k else k for n in counts)
        key = (counts, value, k)
        cached = self.chain_memo.get(key)
        if cached is not None:
            return cached
        best = FACE_DOWN_VALUE + self.chain(counts, 0, k - 1)
        for i, (left, right) in enumerate(self.chain_classes):
            if counts[i] and (value == 0 or left == value):
                rest = counts[:i] + (counts[i] - 1,) + counts[i + 1 :]
                best = max(best, left + right + self.chain(rest, right, k - 1))
        self.chain_memo[key] = best
        return best

    def exact_color_bound(self, k: int, color: int, need: int) -> int:
        """The most value k plays can add when their face-up cards add exactly ``need`` cars of
        ``color`` (``NEG``: impossible).

        Such plays lay some a cards with one car of the colour and b with two, a + 2b = need,
        and the other k - a - b cards either face up without the colour (their value) or face
        down (4, which no card is below). So the values are at most the a best of the first
        kind, the b best of the second and the k - a - b best of the cards without the colour,
        made up with 4s; the best split over b bounds them. Cached per count vector and k."""
        pool = self.pool
        key = (pool.code, k, color, need)
        cached = self.color_cache.get(key)
        if cached is not None:
            return cached
        best = max((value for _, _, value in self.color_splits(k, color, need)), default=NEG)
        self.color_cache[key] = best
        return best

    def color_splits(self, k: int, color: int, need: int) -> list[tuple[int, int, int]]:
        """For :meth:`exact_color_bound`: per split (a cards with one car of ``color``, b with
        two, a + 2b = need, a + b <= k) that the cards left allow, the most value of those k
        plays: ``(a, b, value)``. Cached per count vector and k."""
        pool = self.pool
        key = (pool.code, k, color, need)
        cached = self.split_cache.get(key)
        if cached is not None:
            return cached
        # The types are sorted by value, largest first: each class's largest values left come
        # first, and no more than the most a split can use of each is read.
        others, ones, twos = pool.color_classes[color]
        ones_sums = list(accumulate(pool.largest(ones, min(need, k)), initial=0))
        twos_sums = list(accumulate(pool.largest(twos, min(need // 2, k)), initial=0))
        others_sums = list(accumulate(pool.largest(others, k), initial=0))
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
                + FACE_DOWN_VALUE * (rest - filled)
            )
            splits.append((a, b, total))
        self.split_cache[key] = splits
        return splits

    def color_run_bound(
        self, k: int, color: int, need: int, last: int, cur: int, longest: int
    ) -> int:
        """The most k plays can add, value and run bonus together, when their face-up cards add
        exactly ``need`` cars of ``color`` (``NEG``: impossible): per split of
        :meth:`color_splits`, its value plus the most the longest run can grow with it.

        With a cards of one car of the colour and b of two, a run of the colour is at most its
        start (``cur`` when the last car has the colour, else a start card among the a), the
        b cards of two cars, and an end card among the a; a run of another colour x is at most
        its start (``cur``, or a start card), its cards of two cars x (none of them has a car
        of the colour, so at most the k - a - b other cards), and an end card. The longest run
        grows by at most the longest of these less ``longest``: admissible."""
        pool = self.pool
        last_color = car_color(last)
        best = NEG
        for a, b, value in self.color_splits(k, color, need):
            if last_color == color:
                start = cur
            else:
                start = 1 if a and pool.met_starts[color] else 0
            run = start + 2 * b + (1 if a and pool.met_ends[color] else 0)
            others = k - a - b
            for x in range(len(COLORS)):
                if x != color:
                    start = 1 if pool.met_starts[x] else 0
                    if x == last_color and cur > start:
                        start = cur
                    grown = start + 2 * min(pool.monos[x], others) + (1 if pool.met_ends[x] else 0)
                    if grown > run:
                        run = grown
            total = value + (run - longest if run > longest else 0)
            if total > best:
                best = total
        return best

    def bound(self, k: int, last: int, cur: int, longest: int) -> int:
        """An upper bound on the value-to-go over the continuations that meet the caboose
        (``NEG`` when none can): the plain bound over the cards of the best way."""
        pool = self.pool
        met, caboose = self.rules, self.caboose
        row = tuple(self.row)
        if k == 0:
            return 0 if caboose.test(row) else NEG
        if caboose.monotone and not caboose.test(row):
            return NEG
        ways: tuple[Way, ...] = met.ways(row, k, pool.cars_left() if met.counts_colors else ())
        if not ways:
            return NEG
        if self.bonus:
            # Beyond cur + 2k the longest run cannot grow: all those states bound alike.
            longest = min(longest, cur + 2 * k)
        needs = () if met.exact_colors is None else met.exact_colors(row)
        key = (pool.code, k, last, cur, longest, ways, needs)
        cached = self.bound_cache.get(key)
        if cached is not None:
            return cached
        bound = self.ways_bound(k, last, cur, longest, ways, needs)
        self.bound_cache[key] = bound
        return bound

    def ways_bound(
        self,
        k: int,
        last: int,
        cur: int,
        longest: int,
        ways: tuple[Way, ...],
        needs: tuple[Needs, ...],
    ) -> int:
        """:meth:`bound` once the ways to meet the caboose and its exact colour needs are
        known (they, the counts, k and the last car, run and longest run decide it: it is
        cached on them): the best way's bound, then at most the exact colour bounds."""
        rules = self.rules
        color_bound: int | None = None
        if rules.exact_colors is not None:
            # The values alone, given the exact colour counts the caboose asks (the best
            # alternative; within one, every requirement holds, so the smallest bound does).
            color_bound = best_alternative(needs, lambda c, d: self.exact_color_bound(k, c, d))
            if color_bound < 0:
                return NEG
        prefix = self.selection(k)[1]
        extra = self.run_extras(last, cur, longest, (len(prefix) - 1) // 2)
        if rules.value_joints:
            # The values alone are bounded by the walk over card values (chain_bound) as well.
            chain = self.chain_bound(k, last)
            prefix = [[min(total, chain) for total in prefix[0]], *prefix[1:]]
        best = NEG
        for way in ways:
            bound = self.way_bound(way, k, last, cur, longest, prefix, extra, best)
            if bound > best:
                best = bound
        if color_bound is not None and best > color_bound:
            best = self.color_capped(k, last, cur, longest, needs, color_bound, best)
        return best

    def run_extras(self, last: int, cur: int, longest: int, n_colors: int) -> list[int]:
        """What the run adds on top of each met-case weight list's sum: nothing on the values
        (list 0); on colour c's lists the start and end of a run of c, as in the plain bound;
        or, when no run of a met train exceeds max_run, at most max_run - L on the values
        alone."""
        if not self.bonus:
            return [0]
        max_run = self.rules.max_run
        if max_run is not None:
            return [max(0, max_run - longest)]
        # On colour c's lists: a run of c that ends after this point is the current run (cur
        # cars, when the last car is c) or a start card's right car, then cards with both
        # cars c (2 each), then an end card's left car. The plain bound adds the start and
        # the end to the sum of value + 2 per card of both cars c (B_c of the package
        # docstring); the second list instead weighs +1 on every card with one car c, which
        # covers the start and end cards among them, and adds only cur. Both are admissible,
        # so the smaller is.
        pool = self.pool
        extra = [0]
        last_color = car_color(last)
        for c in range(n_colors):
            start = 1 if pool.met_starts[c] else 0
            if c == last_color and cur > start:
                start = cur
            extra.append(start + (1 if pool.met_ends[c] else 0) - longest)
        extra += [(cur if c == last_color else 0) - longest for c in range(n_colors)]
        return extra

    def way_bound(
        self,
        way: Way,
        k: int,
        last: int,
        cur: int,
        longest: int,
        prefix: list[list[int]],
        extra: list[int],
        best: int,
    ) -> int:
        """The bound of the met trains filling ``way`` (``NEG``: the cards left cannot), on the
        met-case weight lists' prefix sums ``prefix`` and the run's ``extra`` per list
        (:meth:`run_extras`); ``best`` is the best other way's so far, which a colour's run
        bound is skipped for when it cannot beat it."""
        rules = self.rules
        n = len(way)
        immediate = rules.ordered and (n == k or n < rules.next_below)
        if n == k and immediate:
            # The way is the next k cards, slot by slot: the exact best of their plays.
            return self.fill_value(way, 0, last, cur, longest)
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
        fit = self.way_weight(groups, 0)
        if fit is None:
            return NEG
        top = prefix[0]
        bound = min(top[k], top[k - n] + fit) + extra[0]
        # The colours' run bounds, skipping a colour whose bound over all k cards cannot beat
        # the way's so far (its bound on a list is at most that). Whether the cards left
        # fill the way is the same on every list: the fits below are not None.
        n_colors = (len(prefix) - 1) // 2
        for c in range(1, n_colors + 1):
            first, second = prefix[c], prefix[c + n_colors]
            extra_first, extra_second = extra[c], extra[c + n_colors]
            if min(first[k] + extra_first, second[k] + extra_second) <= max(bound, best):
                continue
            fit_first = self.way_weight(groups, c)
            assert fit_first is not None
            run = min(first[k], first[k - n] + fit_first) + extra_first
            if run <= bound:
                continue
            fit_second = self.way_weight(groups, c + n_colors)
            assert fit_second is not None
            run = min(run, min(second[k], second[k - n] + fit_second) + extra_second)
            if run > bound:
                bound = run
        if bound > best and immediate:
            # The way starts at the next card: its slots' plays exactly, then the plain
            # bound over the cards after them (fill_value); both bound it, so the smaller.
            bound = min(bound, self.fill_value(way, k - n, last, cur, longest, bound))
        return bound

    def color_capped(
        self,
        k: int,
        last: int,
        cur: int,
        longest: int,
        needs: tuple[Needs, ...],
        color_bound: int,
        best: int,
    ) -> int:
        """``best`` (the ways' bound) capped by the exact colour counts' value bound
        ``color_bound`` plus the most the run can grow, and by value and run together."""
        # The run adds at most its longest possible growth: a run of c is at most its start
        # (cur, or a start card's car), every card with both cars c left (at most k), and
        # an end card's car.
        pool = self.pool
        gain = 0
        if self.bonus:
            last_color = car_color(last)
            for c in range(len(COLORS)):
                start = 1 if pool.met_starts[c] else 0
                if c == last_color and cur > start:
                    start = cur
                gain = max(
                    gain,
                    start + 2 * min(pool.monos[c], k) + (1 if pool.met_ends[c] else 0) - longest,
                )
        best = min(best, color_bound + gain)
        if self.bonus and best > color_bound:
            # Value and run together per alternative (each of its requirements holds in a
            # met train of it, so the smallest bound does), the best alternative.
            coupled = best_alternative(
                needs, lambda c, d: self.color_run_bound(k, c, d, last, cur, longest)
            )
            best = min(best, coupled)
        return best

    def way_weight(
        self, groups: tuple[tuple[tuple[Slot, ...], int], ...], index: int
    ) -> int | None:
        """On weight list ``index``, the most a way's slot cards can weigh (None: the cards left
        cannot fill it): the sum over its groups of alike slots, but at most the best cards
        fitting any slot (the last group, when there are several)."""
        total = 0
        last = len(groups) - 1
        for i, group in enumerate(groups):
            fit = self.slot_weight(group[0], group[1], index)
            if fit is None:
                return None
            if i < last or last == 0:
                total += fit
            elif fit < total:
                total = fit
        return total

    def fill_value(
        self,
        slots: tuple[Slot, ...],
        rest: int,
        last: int,
        cur: int,
        longest: int,
        enough: int = -NEG,
    ) -> int:
        """At most what the next ``len(slots) + rest`` plays can add when the first fill
        ``slots`` in order (``NEG``: no plays can): for a way of an ``ordered`` caboose that
        starts at the next card, a bound on the value-to-go of the met trains that follow it.

        Each slot's play is a card left that fits it face up (its car values match, the caboose
        allows it face up, and it may follow the car before), with its value and run gain as in
        :meth:`CardPool.moves`; or a face-down card (4, two wild 2s) where the slot asks for 2s or
        anything, which here takes no card from those left (any card will do, and keeping it
        only widens the later choices). The ``rest`` plays after them add at most the plain
        bound (:meth:`PlainBound.bound`) from there. So it is the exact best of the slots' plays
        (but for the kept face-down card) plus an admissible bound: never below the value-to-go
        of a met train filling the way. With ``rest`` 0 (as many slots as cards to play) it is
        the exact value-to-go of those trains.

        The caller takes the smaller of this and another bound, ``enough``: once some plays
        reach ``enough`` the rest are skipped and that value (at least ``enough``, at most the
        best) is returned, since the smaller is then ``enough`` either way."""
        pool = self.pool
        if not slots:
            return self.plain.bound(rest, last, cur, longest) if rest else 0
        key = (pool.code, slots, rest, last, cur, longest)
        cached = self.fill_cache.get(key)
        # A value cut short at some ``enough`` serves any caller it is still enough for.
        if cached is not None and (cached[1] or cached[0] >= enough):
            return cached[0]
        slot, later = slots[0], slots[1:]
        left, right = slot
        best = NEG
        if left in (0, 2) and right in (0, 2):
            best = FACE_DOWN_VALUE + self.fill_value(
                later, rest, WILD_ID, 0, longest, enough - FACE_DOWN_VALUE
            )
        fits = self.fill_types.get(slot)
        if fits is None:
            fits = self.fill_types[slot] = [
                t
                for t, (lv, rv) in enumerate(pool.slot_values)
                if pool.face_up_ok[t] and (not left or lv == left) and (not right or rv == right)
            ]
        follows = pool.follows[last]
        last_color = car_color(last)
        for t in fits:
            if best >= enough:
                break
            if not pool.count[t] or not follows[t]:
                continue
            run = cur + 1 if pool.left_color[t] == last_color else 1
            if pool.mono[t]:
                run += 1
                new_cur = run
            else:
                new_cur = 1
            new_longest = run if run > longest else longest
            gain = pool.value[t] + (new_longest - longest if self.bonus else 0)
            if later or rest:
                pool.take(t)
                value = gain + self.fill_value(
                    later, rest, pool.right_id[t], new_cur, new_longest, enough - gain
                )
                pool.put_back(t)
            else:
                value = gain
            if value > best:
                best = value
        # Complete (the best) unless it reached enough: then possibly cut short.
        self.fill_cache[key] = (best, best < enough)
        return best

    def children(self, k: int, last: int, cur: int, longest: int) -> Iterator[tuple[int, Move]]:
        """The met case's children, best first, each with gain plus an upper bound of its value.

        A face-up child's bound is its own. Every face-down child shares one: the bound of the
        row with two wild cars added but the parent's cards left, which is at least each
        child's own (more cards left never lower a bound); it spares a bound per card, and the
        child's own is still taken when it is searched. Among them the cheapest card goes first.

        Where the met-case bound is costly (``lazy``) it is taken lazily: every child first
        gets the plain bound (:meth:`PlainBound.bound`, cheap; admissible for a met train too,
        since a met train is a train), and a child's met-case bound is taken only when it is
        the best left by the bounds known so far. A child is yielded when its met-case bound (or the plain one,
        if smaller: both are admissible) is at least every other child's known bound, so the
        children come in the same order as if every bound were taken first, and the caller
        stops (as soon as one is below its threshold) without the bounds of the others.
        """
        pool = self.pool
        # Heap items: (-estimate, refined, tie-break, position, move); move None stands for the
        # face-down children as one group. At equal estimates an unrefined child is refined
        # first, so the order is that of the refined estimates.
        heap: list[tuple[int, int, int, int, Move | None]] = []
        face_down: list[Move] = []
        merged_down = False
        moves = pool.moves(last, cur, longest, self.bonus)
        for position, move in enumerate(moves):
            gain, t, face_up, new_last, new_cur, new_longest = move
            if not pool.face_up_ok[t]:
                # Face up it fails the caboose for good; face down, one such card stands for
                # all (see ``merged``).
                if face_up or (self.merged and merged_down):
                    continue
                merged_down = self.merged
            if face_up:
                if self.lazy:
                    pool.take(t)
                    cheap = gain + self.plain.bound(k - 1, new_last, new_cur, new_longest)
                    pool.put_back(t)
                else:
                    # Every estimate unknown (above all): all are refined before the first yield.
                    cheap = -NEG
                heap.append((-cheap, 0, 0, position, move))
            else:
                face_down.append(move)
        if face_down:
            # With the parent's cards and k plays: at least 4 plus each face-down child's own
            # plain bound (its k - 1 plays weigh no more than the parent's k largest weights
            # less one, and no weight is below 4). The k keeps the per-counts cache of top
            # sums (:meth:`PlainBound.top_sums`) to the one k those counts have.
            cheap = self.plain.bound(k, WILD_ID, 0, longest) if self.lazy else -NEG
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
                shared = self.bound(k - 1, WILD_ID, 0, longest)
                del self.row[-2:]
                for move in face_down:
                    estimate = min(-negative, FACE_DOWN_VALUE + shared)
                    heapq.heappush(heap, (-estimate, 1, pool.value[move[1]], position, move))
                continue
            gain, t, _, new_last, new_cur, new_longest = child
            if parent is None:
                parent = self.selection(k)[0]
            pool.take(t)
            self.select_child(parent, t)
            self.row.extend((pool.types[t].left, pool.types[t].right))
            estimate = min(-negative, gain + self.bound(k - 1, new_last, new_cur, new_longest))
            del self.row[-2:]
            pool.put_back(t)
            heapq.heappush(heap, (-estimate, 1, tie, position, child))
