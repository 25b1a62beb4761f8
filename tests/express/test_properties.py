"""Hypothesis properties of the search and the text forms."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from express import Card, Train, best_train
from tests.express import brute


def card_strategy(colors: str, left_values: str, right_values: str) -> st.SearchStrategy[str]:
    """Card texts with the given colour letters and values."""
    return st.builds(
        lambda lc, lv, rc, rv: f"{lc}{lv}|{rc}{rv}",
        st.sampled_from(colors),
        st.sampled_from(left_values),
        st.sampled_from(colors),
        st.sampled_from(right_values),
    )


card_texts = card_strategy("BRGYP", "234", "234")
# Few colours make runs, mono cards and colour joints common.
narrow_texts = card_strategy("BR", "234", "34")
pools = st.lists(st.one_of(card_texts, narrow_texts), min_size=1, max_size=10)


@st.composite
def requests(draw: st.DrawFn) -> tuple[list[str], int]:
    pool = draw(pools)
    return pool, draw(st.integers(0, min(6, len(pool))))


def cards(pool: list[str]) -> list[Card]:
    return [Card.parse(text) for text in pool]


@settings(max_examples=200, deadline=None)
@given(requests(), st.booleans())
def test_returned_train_is_legal_from_the_pool_and_scored_right(
    request: tuple[list[str], int], bonus: bool
) -> None:
    pool, length = request
    result = best_train(cards(pool), length, bonus=bonus)
    plays = [(str(play.card), play.face_up) for play in result.plays]
    assert len(plays) == length and result.optimal
    assert brute.legal(plays)
    assert not Counter(card for card, _ in plays) - Counter(pool)
    assert result.score == brute.solo_score(plays, bonus=bonus)
    assert result.longest_run == brute.longest_run(brute.cars(plays))


@settings(max_examples=120, deadline=None)
@given(requests(), st.one_of(card_texts, narrow_texts), st.booleans())
def test_adding_a_card_never_lowers_the_optimum(
    request: tuple[list[str], int], extra: str, bonus: bool
) -> None:
    pool, length = request
    before = best_train(cards(pool), length, bonus=bonus).score
    assert best_train(cards(pool + [extra]), length, bonus=bonus).score >= before


@settings(max_examples=120, deadline=None)
@given(requests())
def test_run_bonus_never_lowers_the_optimum(request: tuple[list[str], int]) -> None:
    pool, length = request
    assert (
        best_train(cards(pool), length, bonus=False).score <= best_train(cards(pool), length).score
    )


@settings(max_examples=120, deadline=None)
@given(requests(), st.booleans())
def test_one_more_card_adds_at_least_a_face_down_four(
    request: tuple[list[str], int], bonus: bool
) -> None:
    pool, length = request
    if length < len(pool):
        shorter = best_train(cards(pool), length, bonus=bonus).score
        assert best_train(cards(pool), length + 1, bonus=bonus).score >= shorter + 4


@settings(max_examples=120, deadline=None)
@given(requests(), st.booleans())
def test_counting_mode_agrees_and_counts_at_least_one(
    request: tuple[list[str], int], bonus: bool
) -> None:
    pool, length = request
    counted = best_train(cards(pool), length, bonus=bonus, count_optimal=True)
    assert counted.score == best_train(cards(pool), length, bonus=bonus).score
    assert counted.count is not None and counted.count >= 1


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.one_of(card_texts, narrow_texts), st.booleans()), max_size=8))
def test_text_forms_round_trip(plays: list[tuple[str, bool]]) -> None:
    train = Train()
    for text, face_up in plays:
        card = Card.parse(text)
        assert str(card) == text and Card.parse(str(card)) == card
        train = train.add(card, face_up=face_up and train.can_add(card))
    assert Train.parse(str(train)) == train
    assert train.value == sum(
        value for _, value in brute.cars([(str(p.card), p.face_up) for p in train.plays])
    )
