"""The driver of the optimal-train search: :func:`best_train` checks its arguments, runs the
plain search and, for an absolute caboose with met-case rules, the met-case search, and builds
the :class:`~express.search.result.TrainSolution` from the better of the two."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from arena.progress import Progress
from arena.progress import progress as show_progress
from arena.values import seconds, whole_number
from express.caboose_bounds import MetRules, met_rules
from express.cabooses import Caboose, caboose_named
from express.cards import Card
from express.deck import parse_deck
from express.errors import LimitError, PoolError, type_error
from express.scoring import solo_score
from express.search.core import LimitReached, Search, root_state
from express.search.pool import Move
from express.search.result import TrainSolution
from express.train import Play, Train

__all__ = ["best_train", "single_search"]


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
    progress: bool = False,
) -> TrainSolution:
    """The train of exactly ``length`` cards from the pool ``cards`` with the highest solo score.

    ``cards`` is a multiset of :class:`~express.Card` (each physical card used at most once; a deck text
    is accepted too); ``caboose`` a :class:`~express.Caboose` or its name. ``node_limit`` (states) and
    ``time_limit`` (seconds) must be positive and finite; they stop the search early, returning
    the best train found with ``optimal=False``. See :mod:`express.search` for the search, its
    bound and why the bound is admissible. ``progress`` shows the states searched on stderr
    once the search has run a while (:mod:`arena.progress`).

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
    pool = _pool(cards)
    length = whole_number(length, "length", where="best_train")
    if start is not None and not isinstance(start, Train):
        raise type_error(
            "best_train: start", "a Train or None (Train.parse(text) reads text)", start
        )
    if caboose is not None and not isinstance(caboose, (Caboose, str)):
        raise type_error("best_train: caboose", "a Caboose, its name or None", caboose)
    for name, flag in (
        ("bonus", bonus),
        ("count_optimal", count_optimal),
        ("progress", progress),
    ):
        if not isinstance(flag, bool):
            raise type_error(f"best_train: {name}", "a bool", flag)
    node_limit, time_limit = _check_limits(node_limit, time_limit)
    return _solve(
        tuple(pool.elements()),
        length,
        start=start,
        bonus=bonus,
        caboose=caboose,
        count_optimal=count_optimal,
        node_limit=node_limit,
        time_limit=time_limit,
        split=True,
        progress=progress,
    )


def _pool(cards: Iterable[Card] | str) -> Counter[Card]:
    """The multiset of ``cards`` (deck text or an iterable of :class:`~express.Card`), checked."""
    if isinstance(cards, str):
        return Counter(parse_deck(cards))
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
        return Counter(items)


def _check_limits(
    node_limit: int | None, time_limit: float | None
) -> tuple[int | None, float | None]:
    """Each search limit as an int or a float when it is a positive, finite number, or None."""
    if node_limit is not None:
        node_limit = whole_number(node_limit, "node_limit", where="best_train")
        if node_limit <= 0:
            raise LimitError(f"invalid node limit: {node_limit!r} (a positive number of states)")
    if time_limit is not None:
        time_limit = seconds(time_limit, "time_limit", error=LimitError, where="best_train")
    return node_limit, time_limit


def single_search(
    cards: Iterable[Card],
    length: int,
    *,
    start: Train | None = None,
    bonus: bool = True,
    caboose: Caboose | str | None = None,
    count_optimal: bool = False,
) -> TrainSolution:
    """:func:`best_train` as one search, whose bound adds an absolute caboose's points while
    the caboose is open (a monotone caboose can fail for good), without the met-case search.

    This is how :func:`best_train` handles a caboose that carries no met-case rules (a user's
    own card); it is public so that tests cross-check the split search against it. The answer
    (score, count) is the same; the work differs. Arguments as for :func:`best_train`, the
    cards a list of :class:`~express.Card`.

    >>> from express import DECK
    >>> single_search(DECK, 3, caboose="Sequence 2").score == best_train(DECK, 3, caboose="Sequence 2").score
    True
    """
    return _solve(
        tuple(cards),
        length,
        start=start,
        bonus=bonus,
        caboose=caboose,
        count_optimal=count_optimal,
        node_limit=None,
        time_limit=None,
        split=False,
    )


class _Shown(Search):
    """A search that shows its states searched on a :class:`~arena.progress.Progress` (plus
    ``before``, the states of the searches run before it) as it enters each state of its first
    two levels and every 4,096 states: often enough to see it move, too seldom to slow the
    search."""

    def __init__(self, *args: Any, bar: Progress, before: int, **options: Any) -> None:
        super().__init__(*args, **options)
        self.bar = bar
        self.before = before
        # The first two levels below the root, whose k is the length minus 1 or 2.
        self.shown_from = args[2] - 2

    def solve(self, k: int, last: int, cur: int, longest: int, alpha: int) -> tuple[int, bool, int]:
        # Every 4,096 states too: a long train's subtrees below the first levels take tens of
        # seconds each, and the first line is due after the library's usual delay.
        if k >= self.shown_from or not self.nodes & 0xFFF:
            self.bar.advance_to(self.before + self.nodes)
        return super().solve(k, last, cur, longest, alpha)


def _search(bar: Progress, before: int, *args: Any, **options: Any) -> Search:
    """A :class:`Search` of ``args`` and ``options``, shown on ``bar`` when that is enabled."""
    if bar.enabled:
        return _Shown(*args, bar=bar, before=before, **options)
    return Search(*args, **options)


@dataclass(frozen=True)
class _Outcome:
    """What one search of :func:`_solve` found.

    ``proven`` is False when a limit stopped the search (``moves`` is then its best complete
    train, or empty). When proven, ``value`` is the value-to-go and ``moves`` reach it if
    ``exact``; else no train reaches the search's threshold and ``moves`` is empty.
    """

    moves: list[Move]
    proven: bool
    exact: bool
    value: int
    count: int


def _run(search: Search, length: int, last: int, cur: int, longest: int, alpha: int) -> _Outcome:
    """Solve from the root with threshold ``alpha``; on a limit, keep the search's incumbent."""
    try:
        value, exact, count = search.solve(length, last, cur, longest, alpha)
    except LimitReached:
        return _Outcome(search.incumbent_path, False, False, 0, 0)
    if not exact or value < 0:
        # Below the threshold, or (met case, length 0) the start train fails the caboose.
        return _Outcome([], True, False, value, 0)
    return _Outcome(
        search.follow(search.state_key(length, last, cur, longest)), True, True, value, count
    )


def _solve(
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
    progress: bool = False,
) -> TrainSolution:
    """:func:`best_train` on checked arguments; ``split=False`` runs the single search whose
    bound only adds the caboose's points while the caboose is open (:func:`single_search`)."""
    pool = Counter(parse_deck(cards) if isinstance(cards, str) else cards)
    size = sum(pool.values())
    if length < 0:
        raise PoolError(f"invalid length: {length!r} (a train gets 0 or more cards)")
    if length > size:
        cards = f"{size} card" + ("" if size == 1 else "s")
        raise PoolError(f"invalid length: {length!r} (larger than the pool of {cards})")
    if isinstance(caboose, str):
        caboose = caboose_named(caboose)
    start = Train() if start is None else start
    began = time.perf_counter()
    deadline = None if time_limit is None else began + time_limit
    rules = (
        met_rules(caboose) if split and caboose is not None and not caboose.is_relative else None
    )

    with show_progress(None, desc="best train", unit="state", enabled=progress) as bar:
        return _searches(
            pool,
            length,
            start=start,
            bonus=bonus,
            caboose=caboose,
            rules=rules,
            count_optimal=count_optimal,
            node_limit=node_limit,
            deadline=deadline,
            began=began,
            bar=bar,
        )


def _searches(
    pool: Counter[Card],
    length: int,
    *,
    start: Train,
    bonus: bool,
    caboose: Caboose | None,
    rules: MetRules | None,
    count_optimal: bool,
    node_limit: int | None,
    deadline: float | None,
    began: float,
    bar: Progress,
) -> TrainSolution:
    """The plain search and, with met-case ``rules``, the met-case search, shown on ``bar``."""
    last, cur, longest = root_state(start, bonus)
    # Without met-case rules: one search, the caboose's points added while it is open.
    search = _search(
        bar,
        0,
        pool,
        start,
        length,
        bonus,
        None if rules else caboose,
        count_optimal,
        node_limit,
        deadline,
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
        met = _search(
            bar,
            nodes,
            pool,
            start,
            length,
            bonus,
            caboose,
            count_optimal,
            remaining,
            deadline,
            met=rules,
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

    bar.advance_to(nodes)
    return _solution(
        start,
        [o.moves for o in outcomes if len(o.moves) == length],
        search.types,
        bonus=bonus,
        caboose=caboose,
        optimal=all(outcome.proven for outcome in outcomes),
        nodes=nodes,
        count=count if count_optimal else None,
        began=began,
    )


def _solution(
    start: Train,
    paths: list[list[Move]],
    types: list[Card],
    *,
    bonus: bool,
    caboose: Caboose | None,
    optimal: bool,
    nodes: int,
    count: int | None,
    began: float,
) -> TrainSolution:
    """The answer from the searches' complete paths (moves over the card ``types``): the best
    train among them, scored again from the train itself."""
    # Both searches list the pool's card types in the same order, so a move means the same card.
    trains = [start.extend(Play(types[m[1]], m[2]) for m in path) for path in paths]
    train = max(trains, key=lambda t: solo_score(t, bonus=bonus, caboose=caboose))
    plays = train.plays[len(start.plays) :]
    active = caboose is not None and not caboose.is_relative and caboose.met_by(train)
    return TrainSolution(
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
        count=count if optimal else None,
        seconds=time.perf_counter() - began,
    )
