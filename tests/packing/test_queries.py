"""Best-truck queries and the blind draw, checked against solving every truck directly."""

from fractions import Fraction

from hypothesis import given, settings

from packing import (
    SAMPLE_DECK,
    Cargo,
    Truck,
    best_truck,
    expected_penalty,
    rank_trucks,
    solve,
    verify,
)
from tests.packing.strategies import rolls


@settings(max_examples=30)
@given(rolls())
def test_ranking_matches_solving_every_truck(cargo: Cargo) -> None:
    direct = [verify(solve(cargo, t)).penalty for t in SAMPLE_DECK]
    expected = sorted(range(len(SAMPLE_DECK)), key=lambda i: (direct[i], i))
    ranking = rank_trucks(cargo, SAMPLE_DECK)
    assert [t for t, _ in ranking] == [SAMPLE_DECK[i] for i in expected]
    assert [p for _, p in ranking] == [direct[i] for i in expected]
    assert expected_penalty(cargo, SAMPLE_DECK) == Fraction(sum(direct), len(direct))


@settings(max_examples=30)
@given(rolls())
def test_top_k_is_the_head_of_the_full_ranking(cargo: Cargo) -> None:
    full = best_truck(cargo, SAMPLE_DECK)
    for plan in full:
        verify(plan)
        assert plan.optimal
    for k in (1, 3):
        top = best_truck(cargo, SAMPLE_DECK, top=k)
        assert [(p.truck, p.penalty) for p in top] == [(p.truck, p.penalty) for p in full[:k]]


def test_ties_keep_input_order() -> None:
    a = Truck.parse("###", height=1, name="a")
    b = Truck.parse("#/#/#", height=1, name="b")
    c = Truck.parse("##", height=1, name="c")
    cargo = Cargo({3: 1})
    assert [t.name for t, _ in rank_trucks(cargo, [c, a, b])] == ["a", "b", "c"]
    assert [t.name for t, _ in rank_trucks(cargo, [b, c, a])] == ["b", "a", "c"]
    assert [p.truck.name for p in best_truck(cargo, [b, c, a], top=1)] == ["b"]


def test_blind_draw_is_exact() -> None:
    cargo = Cargo({1: 1})
    trucks = [Truck.parse("#", height=1), Truck.parse("##", height=1), Truck.parse("###", height=1)]
    assert expected_penalty(cargo, trucks) == Fraction(0 + 1 + 2, 3)
