"""The met-case bounds of the absolute cabooses (express.caboose_bounds) and the split search.

Three layers: each bound against the true value-to-go of random states, worked out by the
brute force (it must never be below it); every absolute caboose's search against the brute
force on small pools, with and without a start train; and against the single search without
the new bounds (``split=False``) on larger pools, optimal counts included.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable

import pytest

from express import (
    CABOOSES,
    DECK,
    Caboose,
    Card,
    Play,
    Train,
    best_train,
    caboose_named,
    deck_for,
)
from express.caboose_bounds import met_rules
from express.search import single_search
from express.search.core import Search, root_state
from express.search.met import MetBound
from tests.express import brute
from tests.express.library_rows import library_test

ABSOLUTE = [c for c in CABOOSES if not c.is_relative]
COLORS = "BRGYP"
# Far above any train's score: the brute force's best exceeds it exactly when some train meets.
MET_MARK = 1000


def plain(plays: tuple[Play, ...]) -> list[brute.PlainPlay]:
    return [(str(play.card), play.face_up) for play in plays]


def random_pool(rng: random.Random, size: int) -> list[str]:
    if rng.random() < 0.4:
        return [str(card) for card in rng.sample(DECK, size)]
    # Few colours and the values 2 and 3: many joints, runs, and the sequences' values.
    colors = rng.sample(COLORS, rng.randint(1, 3))
    values = rng.choice(["23", "23", "234", "2", "3"])
    return [
        f"{rng.choice(colors)}{rng.choice(values)}|{rng.choice(colors)}{rng.choice(values)}"
        for _ in range(size)
    ]


def random_start(rng: random.Random, most: int) -> Train:
    """A legal train of up to ``most`` random cards, each face up when it may be (mostly)."""
    train = Train()
    for text in random_pool(rng, rng.randint(0, most)):
        card = Card.parse(text)
        train = train.add(card, face_up=train.can_add(card) and rng.random() < 0.85)
    return train


def met_value_to_go(
    pool: list[str], k: int, start: Train, caboose: Caboose, *, bonus: bool
) -> int | None:
    """The true value-to-go of the met case by brute force: the most the k plays add to the
    start train's plain score among trains meeting the caboose (None: no train meets it)."""
    start_plays = plain(start.plays)
    best, _, _ = brute.brute_best(
        pool,
        k,
        start=start_plays,
        bonus=bonus,
        caboose=library_test(caboose),
        caboose_points=MET_MARK,
    )
    if best < MET_MARK:
        return None
    return best - MET_MARK - brute.solo_score(start_plays, bonus=bonus)


def root_bound(pool: list[str], k: int, start: Train, caboose: Caboose, *, bonus: bool) -> int:
    """The met-case search's bound at the root state of (pool, k, start)."""
    search = met_search(pool, k, start, caboose, bonus=bonus)
    return search.bound(k, *root_state(start, bonus), True)


def met_search(pool: list[str], k: int, start: Train, caboose: Caboose, *, bonus: bool) -> Search:
    """The met-case search rooted at (pool, k, start) (the search's documented test hook)."""
    rules = met_rules(caboose)
    assert rules is not None
    cards = Counter(Card.parse(t) for t in pool)
    return Search(cards, start, k, bonus, caboose, False, None, None, met=rules)


def met_bound(pool: list[str], k: int, start: Train, caboose: Caboose, *, bonus: bool) -> MetBound:
    """The met-case bounds of :func:`met_search`."""
    bounds = met_search(pool, k, start, caboose, bonus=bonus).met_bound
    assert bounds is not None
    return bounds


def test_every_absolute_caboose_has_met_rules() -> None:
    assert all(met_rules(caboose) is not None for caboose in ABSOLUTE)
    assert all(met_rules(caboose) is None for caboose in CABOOSES if caboose.is_relative)
    # A user's own card under a library name gets no rules: the search falls back to one search.
    own = Caboose("Sequence 1", 9, "my own reading", caboose_named("Sequence 1").kind)
    assert met_rules(own) is None


def test_a_caboose_carries_its_own_facts() -> None:
    # Every fact of a caboose is on its value: a renamed copy keeps its met-case rules (no table
    # keyed by the name) and is searched exactly like the original.
    sequence = caboose_named("Sequence 4")
    mine = dataclasses.replace(sequence, name="My Sequence")
    assert met_rules(mine) is sequence.met is not None
    pool = deck_for(2)
    theirs, ours = best_train(pool, 5, caboose=sequence), best_train(pool, 5, caboose=mine)
    assert (ours.score, ours.train, ours.nodes) == (theirs.score, theirs.train, theirs.nodes)


@pytest.mark.parametrize("caboose", ABSOLUTE, ids=lambda c: c.name)
def test_bound_is_never_below_the_true_value_to_go(caboose: Caboose) -> None:
    """On random states (a random start train, a random pool, k cards to play) the met-case
    bound is at least the best the k plays add among trains meeting the caboose; and when no
    such train exists the bound may say so, but when one does it must not."""
    rng = random.Random(f"bound {caboose.name}")
    checked = tight = 0
    for _ in range(600):
        if checked == 24:
            break
        pool = random_pool(rng, rng.randint(1, 5))
        k = rng.randint(1, min(4, len(pool)))
        start = random_start(rng, 5)
        bonus = rng.random() < 0.7
        truth = met_value_to_go(pool, k, start, caboose, bonus=bonus)
        bound = root_bound(pool, k, start, caboose, bonus=bonus)
        if truth is not None:
            assert bound >= truth, (pool, k, str(start), bonus, bound, truth)
            checked += 1
            tight += bound == truth
    # The states are varied enough to test something, and the bound is not vacuous.
    assert checked == 24 and tight >= 1


@pytest.mark.parametrize("caboose", ABSOLUTE, ids=lambda c: c.name)
def test_split_search_agrees_with_brute_force(caboose: Caboose) -> None:
    """Score and optimal count against the brute force: pools up to 6 cards, lengths up to 6
    (the length-6 pools of three cards twice each, which keeps the enumeration short), half of
    them from a start train."""
    rng = random.Random(f"brute {caboose.name}")
    for i in range(10):
        if i < 2:
            length = 6
            pool = random_pool(rng, 3) * 2
        else:
            length = rng.randint(1, 5)
            pool = random_pool(rng, min(length + rng.randint(0, 1), 5))
        start = random_start(rng, 3) if i % 2 else Train()
        bonus = rng.random() < 0.75
        expected, count, _ = brute.brute_best(
            pool,
            length,
            start=plain(start.plays),
            bonus=bonus,
            caboose=library_test(caboose),
            caboose_points=caboose.points,
        )
        cards = [Card.parse(t) for t in pool]
        result = best_train(
            cards, length, start=start, bonus=bonus, caboose=caboose, count_optimal=True
        )
        fast = best_train(cards, length, start=start, bonus=bonus, caboose=caboose)
        assert (result.score, result.count, fast.score) == (expected, count, expected), (
            pool,
            length,
            str(start),
        )
        assert result.optimal and fast.optimal
        for found in (result, fast):
            plays = plain(found.start.plays) + plain(found.plays)
            assert brute.legal(plays) and len(found.plays) == length
            assert not Counter(card for card, _ in plain(found.plays)) - Counter(
                t.upper() for t in pool
            )
            met = library_test(caboose)(brute.cars(plays))
            assert found.caboose_points == (caboose.points if met else 0)
            assert found.score == brute.solo_score(plays, bonus=bonus) + found.caboose_points


def old_search(
    cards: list[Card], length: int, caboose: Caboose, *, start: Train, count: bool
) -> tuple[int, int | None]:
    result = single_search(cards, length, start=start, caboose=caboose, count_optimal=count)
    assert result.optimal
    return result.score, result.count


@pytest.mark.parametrize("caboose", ABSOLUTE, ids=lambda c: c.name)
def test_split_search_agrees_with_the_single_search(caboose: Caboose) -> None:
    """Larger pools (9-12 cards from the deck, lengths 4-5): the same optimum as the search
    without the met-case bounds, and the same number of optimal trains at length 4."""
    rng = random.Random(f"single {caboose.name}")
    for i in range(4):
        size = rng.randint(9, 12)
        cards = rng.sample(deck_for(rng.choice([2, 4])), size)
        length = rng.randint(4, 5)
        start = random_start(rng, 2) if i % 2 else Train()
        count = length <= 4
        new = best_train(cards, length, start=start, caboose=caboose, count_optimal=count)
        assert new.optimal
        assert (new.score, new.count) == old_search(
            cards, length, caboose, start=start, count=count
        ), (
            ",".join(map(str, cards)),
            length,
            str(start),
        )
        assert new.caboose_points == (caboose.points if caboose.met_by(new.train) else 0)


def test_the_issue_cases() -> None:
    # The cases that took tens of seconds with the single search (issue 10); the answers were
    # proven by it, and these runs (milliseconds now) must agree.
    assert best_train(deck_for(2), 9, caboose="Inefficient").score == 66
    pool = (
        "B2|B2,P2|P2,P3|B3,R2|R2,B3|Y3,G2|G3,Y3|G3,G3|B3,P2|P2,P3|R3,G2|G2,B2|B3,P3|G3,G4|Y4,"
        "G3|R3,B3|R3,G2|G2,Y2|Y3,B4|G4,Y2|Y2,R3|Y3,R2|R2,Y3|B3,P3|Y3"
    )
    result = best_train(pool, 7, caboose="Inefficient")
    assert (
        result.score == 50 and result.optimal and caboose_named("Inefficient").met_by(result.train)
    )


def test_limits_still_return_a_legal_train() -> None:
    result = best_train(DECK, 8, caboose="Sequence 1", node_limit=2)
    assert not result.optimal and len(result.plays) == 8
    assert brute.legal(plain(result.plays))
    timed = best_train(DECK, 8, caboose="Two-Timer", time_limit=1e-9)
    assert len(timed.plays) == 8 and brute.legal(plain(timed.plays))


def test_length_zero_with_a_caboose() -> None:
    start = Train.parse("B2|B2,~R3|G3,G2|Y3")
    result = best_train([], 0, start=start, caboose="Sequence 1", count_optimal=True)
    assert (result.score, result.caboose_points, result.count) == (start.value + 2 + 6, 6, 1)
    result = best_train([], 0, start=start, caboose="Two-Timer", count_optimal=True)
    assert (result.score, result.caboose_points, result.count) == (start.value + 2, 0, 1)


@pytest.mark.parametrize("name", ["Inefficient", "Two-Timer", "Specialized"])
def test_value_bounds_alone_are_never_below_the_true_values(name: str) -> None:
    """The value-only parts, each on its own (inside the met bound a smaller part could hide a
    wrong one): the walk over card values (Inefficient) and the exact colour counts (Two-Timer,
    Specialized), against the brute force without the run bonus (value-to-go = value added)."""
    caboose = caboose_named(name)
    rules = met_rules(caboose)
    assert rules is not None
    rng = random.Random(f"values {name}")
    checked = tight = 0
    for _ in range(800):
        if checked == 30:
            break
        pool = random_pool(rng, rng.randint(1, 5))
        k = rng.randint(1, min(4, len(pool)))
        start = random_start(rng, 5)
        if caboose.monotone and not caboose.met_by(start):
            continue
        truth = met_value_to_go(pool, k, start, caboose, bonus=False)
        if truth is None:
            continue
        bounds = met_bound(pool, k, start, caboose, bonus=False)
        last = root_state(start, False)[0]
        if rules.value_joints:
            bound = bounds.chain_bound(k, last)
        else:
            assert rules.exact_colors is not None
            alternatives = rules.exact_colors(start.cars)
            bound = max(
                min(bounds.exact_color_bound(k, c, d) for c, d in needs) for needs in alternatives
            )
        assert bound >= truth, (pool, k, str(start), bound, truth)
        checked += 1
        tight += bound == truth
    assert checked == 30 and tight >= 1


@pytest.mark.parametrize(
    "name", ["Sequence 1", "Sequence 3", "Sequence 4", "Sequence 5", "End of Line"]
)
def test_next_card_fills_are_never_below_the_true_values(name: str) -> None:
    """The bound of a way that starts at the next card (``ordered`` rules: a way of k slots, or
    of fewer than ``next_below``), on its own: the slots' plays exactly, then the plain bound.
    Against the brute force over the trains that meet the caboose *and* whose next cards fill
    that way's slots in order (a face-down card shows 2s)."""
    caboose = caboose_named(name)
    rules = met_rules(caboose)
    assert rules is not None and rules.ordered
    rng = random.Random(f"fills {name}")
    checked = tight = 0
    for _ in range(600):
        if checked == 24:
            break
        pool = random_pool(rng, rng.randint(1, 5))
        k = rng.randint(1, min(4, len(pool)))
        start = random_start(rng, 5)
        bonus = rng.random() < 0.7
        ways = [
            w for w in rules.ways(start.cars, k, ()) if len(w) == k or len(w) < rules.next_below
        ]
        if not ways:
            continue
        way = rng.choice(ways)
        offset = len(start.cars)
        met = library_test(caboose)

        def fills(
            row: list[brute.PlainCar],
            way: tuple[tuple[int, int], ...] = way,
            offset: int = offset,
            met: Callable[[list[brute.PlainCar]], bool] = met,
        ) -> bool:
            slots = [(row[offset + 2 * i][1], row[offset + 2 * i + 1][1]) for i in range(len(way))]
            matched = all(
                (not a or a == x) and (not b or b == y) for (a, b), (x, y) in zip(way, slots)
            )
            return matched and met(row)

        start_plays = plain(start.plays)
        best, _, _ = brute.brute_best(
            pool, k, start=start_plays, bonus=bonus, caboose=fills, caboose_points=MET_MARK
        )
        if best < MET_MARK:
            continue
        truth = best - MET_MARK - brute.solo_score(start_plays, bonus=bonus)
        bounds = met_bound(pool, k, start, caboose, bonus=bonus)
        bound = bounds.fill_value(way, k - len(way), *root_state(start, bonus))
        assert bound >= truth, (pool, k, str(start), bonus, way, bound, truth)
        checked += 1
        tight += bound == truth
    assert checked == 24 and tight >= 1


@pytest.mark.parametrize("name", ["Two-Timer", "Specialized"])
def test_color_and_run_bounds_alone_are_never_below_the_true_values(name: str) -> None:
    """The exact colour counts with the run bonus (value and run together per split of the
    colour's cards), on its own, against the brute force's met value-to-go with the bonus."""
    caboose = caboose_named(name)
    rules = met_rules(caboose)
    assert rules is not None and rules.exact_colors is not None
    rng = random.Random(f"colour runs {name}")
    checked = tight = 0
    for _ in range(800):
        if checked == 30:
            break
        pool = random_pool(rng, rng.randint(1, 5))
        k = rng.randint(1, min(4, len(pool)))
        start = random_start(rng, 5)
        truth = met_value_to_go(pool, k, start, caboose, bonus=True)
        if truth is None:
            continue
        bounds = met_bound(pool, k, start, caboose, bonus=True)
        last, cur, longest = root_state(start, True)
        alternatives = rules.exact_colors(start.cars)
        bound = max(
            min(bounds.color_run_bound(k, c, d, last, cur, longest) for c, d in needs)
            for needs in alternatives
        )
        assert bound >= truth, (pool, k, str(start), bound, truth)
        checked += 1
        tight += bound == truth
    assert checked == 30 and tight >= 1
