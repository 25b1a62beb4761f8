"""The optimal-train search: golden cases, limits, errors, and agreement with a brute force."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

import pytest

from express import (
    CABOOSES,
    DECK,
    Caboose,
    Card,
    Play,
    PoolError,
    Train,
    best_train,
    caboose_named,
    deck_for,
)
from tests.express import brute
from tests.express.library_rows import library_test

COLORS = "BRGYP"


def plain(train_plays: Iterable[Play]) -> list[brute.PlainPlay]:
    return [(str(play.card), play.face_up) for play in train_plays]


def random_pool(rng: random.Random, largest: int = 8) -> list[str]:
    size = rng.randint(1, largest)
    if rng.random() < 0.5:
        return [str(card) for card in rng.sample(DECK, size)]
    # Few colours and values: many connections, mono cards and long runs.
    colors = rng.sample(COLORS, rng.randint(1, 3))
    values = rng.sample("234", rng.randint(1, 3))
    return [
        f"{rng.choice(colors)}{rng.choice(values)}|{rng.choice(colors)}{rng.choice(values)}"
        for _ in range(size)
    ]


def check_result(pool: list[str], length: int, result: object, *, bonus: bool) -> None:
    """Independent checks of a returned train: legal, from the pool, the right length and score."""
    from express import TrainSolution

    assert isinstance(result, TrainSolution)
    plays = plain(result.plays)
    assert len(plays) == length
    assert brute.legal(plain(result.start.plays) + plays)
    used = Counter(card for card, _ in plays)
    assert not used - Counter(card.upper() for card in pool)
    assert (
        result.score
        == brute.solo_score(plain(result.start.plays) + plays, bonus=bonus) + result.caboose_points
    )
    assert result.value == sum(value for _, value in brute.cars(plain(result.train.plays)))


def test_golden_full_deck_optima() -> None:
    # The optimal-score table of the benchmark (python -m benchmarks chains), lengths 1..7.
    full = [best_train(DECK, n).score for n in range(1, 8)]
    assert full == [10, 18, 26, 34, 42, 49, 56]
    assert [best_train(DECK, n, bonus=False).score for n in range(1, 8)] == [
        8,
        16,
        24,
        32,
        40,
        46,
        52,
    ]
    two = deck_for(2)
    assert [best_train(two, n).score for n in range(1, 8)] == [9, 18, 26, 34, 41, 47, 53]
    assert [best_train(two, n, bonus=False).score for n in range(1, 8)] == [
        8,
        16,
        24,
        32,
        38,
        44,
        50,
    ]


def test_worked_check_1_is_optimal_for_its_own_cards() -> None:
    result = best_train("R4|B4,B4|G4,G4|Y4,Y4|R4", 4, count_optimal=True)
    assert result.score == 34 and result.value == 32 and result.longest_run == 2
    # Every order joins by value 4; the 16 orders with at least one joint of one colour score 34.
    assert result.count == 16


def test_worked_check_2_face_down_is_the_only_way() -> None:
    result = best_train("B2|B2", 1, start=Train.parse("R3|G3"))
    assert str(result.train) == "R3|G3,~B2|B2" and result.score == 10 + 1
    assert result.value == 10


def test_worked_check_3_extends_to_the_best_blue_run() -> None:
    result = best_train("Y3|B3,R4|R4", 2, start=Train.parse("B2|B2,B2|B3"))
    # Face up R4|R4 is illegal after B3; Y3|B3 face up then R4|R4 face down keeps the blue 4-run.
    assert (
        result.score
        == brute.brute_best(["Y3|B3", "R4|R4"], 2, start=[("B2|B2", True), ("B2|B3", True)])[0]
    )


def test_limits_return_a_legal_train_marked_not_optimal() -> None:
    result = best_train(deck_for(2), 7, count_optimal=True, node_limit=3)
    assert not result.optimal and result.nodes <= 3 and result.count is None
    check_result([str(c) for c in deck_for(2)], 7, result, bonus=True)
    proven = best_train(deck_for(2), 7)
    assert proven.optimal and proven.score >= result.score
    timed = best_train(DECK, 7, count_optimal=True, time_limit=1e-9)
    assert not timed.optimal or timed.score == 56


def test_bad_requests() -> None:
    with pytest.raises(PoolError, match="'?9'?"):
        best_train("R3|G3,B3|Y3", 9)
    with pytest.raises(PoolError):
        best_train(DECK, -1)
    empty = best_train([], 0, start=Train.parse("R3|G3"))
    assert (
        empty.plays == ()
        and empty.score == 7
        and empty.optimal
        and empty.train == Train.parse("R3|G3")
    )


def test_relative_cabooses_add_nothing_in_solo_search() -> None:
    plain_result = best_train(deck_for(2), 5)
    for name in ("Executive", "Buried Alive", "The Little Engine"):
        result = best_train(deck_for(2), 5, caboose=name)
        assert result.score == plain_result.score and result.caboose_points == 0


def test_caboose_search_finds_the_condition() -> None:
    result = best_train("B2|B2,B2|B3,R2|R2,B4|G4,G3|G3", 3, caboose="Sequence 1")
    assert result.caboose_points == 6
    assert caboose_named("Sequence 1").met_by(result.train)


def _chunks() -> list[int]:
    return list(range(12))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", _chunks())
def test_agrees_with_brute_force_on_random_pools(chunk: int) -> None:
    """A few hundred random pools (<= 8 cards, length <= 5): score, optimal count and train."""
    rng = random.Random(1000 + chunk)
    for _ in range(25):
        pool = random_pool(rng)
        length = rng.randint(0, min(5, len(pool)))
        bonus = rng.random() < 0.7
        expected, count, _ = brute.brute_best(pool, length, bonus=bonus)
        cards = [Card.parse(text) for text in pool]
        fast = best_train(cards, length, bonus=bonus)
        counted = best_train(cards, length, bonus=bonus, count_optimal=True)
        assert (fast.score, counted.score, counted.count) == (expected, expected, count), (
            pool,
            length,
            bonus,
        )
        assert fast.optimal and counted.optimal
        check_result(pool, length, fast, bonus=bonus)
        check_result(pool, length, counted, bonus=bonus)


@pytest.mark.slow
@pytest.mark.parametrize(
    "caboose", [c for c in CABOOSES if not c.is_relative], ids=lambda c: c.name
)
def test_agrees_with_brute_force_with_a_caboose(caboose: Caboose) -> None:
    """The caboose's memo key and bound are exact: same optimum and count as the brute force."""
    rng = random.Random(caboose.name)
    for _ in range(12):
        pool = random_pool(rng, largest=7)
        length = rng.randint(min(3, len(pool)), min(5, len(pool)))
        bonus = rng.random() < 0.7
        expected, count, _ = brute.brute_best(
            pool,
            length,
            bonus=bonus,
            caboose=library_test(caboose),
            caboose_points=caboose.points,
        )
        result = best_train(
            [Card.parse(t) for t in pool], length, bonus=bonus, caboose=caboose, count_optimal=True
        )
        assert (result.score, result.count) == (expected, count), (pool, length, bonus)
        assert result.caboose_points == (caboose.points if caboose.met_by(result.train) else 0)
        check_result(pool, length, result, bonus=bonus)


@pytest.mark.parametrize("seed", range(4))
def test_agrees_with_brute_force_from_a_start_train(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(10):
        pool = random_pool(rng)
        start_cards = random_pool(rng)[:2]
        start = Train()
        for text in start_cards:
            card = Card.parse(text)
            start = start.add(card, face_up=start.can_add(card))
        length = rng.randint(0, min(4, len(pool)))
        bonus = rng.random() < 0.7
        expected, count, _ = brute.brute_best(pool, length, start=plain(start.plays), bonus=bonus)
        result = best_train(
            [Card.parse(t) for t in pool], length, start=start, bonus=bonus, count_optimal=True
        )
        assert (result.score, result.count) == (expected, count), (pool, str(start), length, bonus)
        check_result(pool, length, result, bonus=bonus)
