"""Bad arguments to the Python API: a wrong type raises TypeError saying what was expected,
a value out of range raises a PackingError quoting it; never a bare ValueError or an
AttributeError from deep inside."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from arena.executors import MAX_WORKERS
from packing import (
    SAMPLE_DECK,
    Cargo,
    LoadPlan,
    PackingError,
    ParseError,
    Placement,
    Truck,
    best_truck,
    expected_penalty,
    problems,
    rank_trucks,
    solve,
    upper_bound,
    verify,
)

CARGO = Cargo.from_roll([3, 2, 3, 0, 1])
TRUCK = Truck.parse("#####/###../#####", height=3)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: solve([3, 2, 3, 0, 1], TRUCK), "the cargo must be a Cargo"),  # type: ignore[arg-type]
        (lambda: solve(CARGO, "#####/###../#####"), "the truck must be a Truck"),  # type: ignore[arg-type]
        (lambda: solve(TRUCK, CARGO), "the cargo must be a Cargo"),  # type: ignore[arg-type]
        (lambda: upper_bound((3, 2, 3, 0, 1), TRUCK), "the cargo must be a Cargo"),  # type: ignore[arg-type]
        (lambda: best_truck([3, 2, 3, 0, 1], SAMPLE_DECK), "the cargo must be a Cargo"),  # type: ignore[arg-type]
        (lambda: best_truck(CARGO, TRUCK), "not a single Truck"),  # type: ignore[arg-type]
        (lambda: best_truck(CARGO, "#####/###../#####"), "expected a sequence of trucks"),  # type: ignore[arg-type]
        (lambda: best_truck(CARGO, ["#####"]), "every truck must be a Truck"),  # type: ignore[list-item]
        (lambda: best_truck(CARGO, SAMPLE_DECK, top="3"), "best_truck: top must be a whole number"),  # type: ignore[arg-type]
        (lambda: rank_trucks("3,2,3,0,1", SAMPLE_DECK), "the cargo must be a Cargo"),  # type: ignore[arg-type]
        (lambda: rank_trucks(CARGO, 5), "expected a sequence of trucks"),  # type: ignore[arg-type]
        (lambda: expected_penalty(CARGO, TRUCK), "not a single Truck"),  # type: ignore[arg-type]
        (lambda: solve(CARGO, TRUCK, time_limit="1"), "time_limit must be a number"),  # type: ignore[arg-type]
        (lambda: solve(CARGO, TRUCK, time_limit=True), "time_limit must be a number"),
        (lambda: solve(CARGO, TRUCK, workers=1.5), "solve: workers must be a whole number"),  # type: ignore[arg-type]
        (lambda: solve(CARGO, TRUCK, seed="0"), "solve: seed must be a whole number"),  # type: ignore[arg-type]
        (lambda: solve(CARGO, TRUCK, fast_path="no"), "fast_path must be True or False"),  # type: ignore[arg-type]
        (lambda: verify("plan"), "expected a LoadPlan to check"),  # type: ignore[arg-type]
        (lambda: problems(None), "expected a LoadPlan to check"),  # type: ignore[arg-type]
        (lambda: Cargo("3,2,3,0,1"), r"use Cargo\.parse"),  # type: ignore[arg-type]
        (lambda: Cargo(5), "Cargo takes counts per length"),  # type: ignore[arg-type]
        (lambda: Cargo.parse([3, 2]), "Cargo.parse takes text"),  # type: ignore[arg-type]
        (lambda: Truck("#####/###../#####", 3), r"use Truck\.parse"),  # type: ignore[arg-type]
        (lambda: Truck(("##", "#."), 1), r"use Truck\.parse"),  # type: ignore[arg-type]
        (lambda: Truck(((True,),), "3"), "height must be a whole number"),  # type: ignore[arg-type]
        (lambda: Truck(((True,),), 1, 7), "name must be a str"),  # type: ignore[arg-type]
        (lambda: Truck.parse(["##"], height=1), "Truck.parse takes mask text"),  # type: ignore[arg-type]
        (lambda: Placement("3x@0,0,0", 0, 0, 0, "x"), r"use Placement\.parse"),  # type: ignore[arg-type]
        (lambda: LoadPlan.from_placements("##", CARGO, []), "truck must be a Truck"),  # type: ignore[arg-type]
        (lambda: LoadPlan(TRUCK, CARGO, ("1z@0,0,0",)), "must be Placements"),  # type: ignore[arg-type]
    ],
)
def test_wrong_types_say_what_was_expected(call: Callable[[], object], expected: str) -> None:
    with pytest.raises(TypeError, match=expected):
        call()


@pytest.mark.parametrize("limit", [-1, 0, 0.0, -0.5, math.nan, math.inf, -math.inf])
def test_time_limit_must_be_positive_and_finite(limit: float) -> None:
    for call in (
        lambda: solve(CARGO, TRUCK, time_limit=limit),
        lambda: best_truck(CARGO, SAMPLE_DECK, time_limit=limit),
    ):
        with pytest.raises(PackingError, match=f"invalid time_limit {limit!r}"):
            call()


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: best_truck(CARGO, SAMPLE_DECK, top=0), "invalid top 0"),
        (lambda: best_truck(CARGO, SAMPLE_DECK, top=-2), "invalid top -2"),
        (lambda: expected_penalty(CARGO, []), "needs at least one truck"),
        (lambda: solve(CARGO, TRUCK, workers=0), "invalid workers 0"),
        (
            lambda: solve(CARGO, TRUCK, workers=100_000),
            f"invalid workers 100000: at most {MAX_WORKERS}",
        ),
        (lambda: solve(CARGO, TRUCK, seed=-1), "invalid seed -1"),
        (lambda: LoadPlan(TRUCK, CARGO, (), status="done"), "invalid plan status 'done'"),  # type: ignore[arg-type]
    ],
)
def test_values_out_of_range_raise_packing_errors(
    call: Callable[[], object], expected: str
) -> None:
    with pytest.raises(PackingError, match=expected):
        call()


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(),
    st.text(max_size=6),
    st.lists(st.integers(-1, 5), max_size=6),
    st.just(CARGO),
    st.just(TRUCK),
    st.just(SAMPLE_DECK[:3]),
)


@settings(max_examples=200)
@given(st.sampled_from([best_truck, rank_trucks, expected_penalty]), JUNK, JUNK, JUNK)
@example(best_truck, CARGO, SAMPLE_DECK[:3], None)
@example(best_truck, CARGO, SAMPLE_DECK[:3], 2)
@example(best_truck, CARGO, [], None)
@example(rank_trucks, CARGO, SAMPLE_DECK[:3], None)
@example(rank_trucks, CARGO, [], None)
@example(expected_penalty, CARGO, SAMPLE_DECK[:3], None)
def test_queries_fail_only_with_type_or_packing_errors(
    query: Callable[..., object], cargo: object, trucks: object, top: object
) -> None:
    # Whatever they are given, the queries answer or raise TypeError / PackingError: never a
    # bare ValueError, AttributeError, KeyError or IndexError from inside.
    options = {"top": top} if query is best_truck else {}
    try:
        answer = query(cargo, trucks, use_table=False, **options)
    except (TypeError, PackingError) as error:
        assert str(error), f"{type(error).__name__} without a message"
        return
    # An answer comes only from valid input (a Cargo, a sequence of Trucks), and it is a real
    # answer about those trucks.
    assert isinstance(cargo, Cargo) and isinstance(trucks, list | tuple)
    assert all(isinstance(t, Truck) for t in trucks)
    if query is expected_penalty:
        assert isinstance(answer, Fraction) and answer >= 0
    elif query is rank_trucks:
        assert isinstance(answer, list)
        assert sorted(t.name for t, _ in answer) == sorted(t.name for t in trucks)
        penalties = [p for _, p in answer]
        assert penalties == sorted(penalties) and all(p >= 0 for p in penalties)
    else:
        assert isinstance(answer, list) and answer
        assert all(isinstance(p, LoadPlan) and not problems(p) for p in answer)
        assert all(p.truck in trucks for p in answer)


def test_a_text_cargo_names_the_parser() -> None:
    with pytest.raises(TypeError) as caught:
        Cargo("3,2,3,0,1")  # type: ignore[arg-type]
    assert "'3,2,3,0,1'" in str(caught.value) and "Cargo.parse" in str(caught.value)
    assert Cargo.parse("3,2,3,0,1") == CARGO


def test_numpy_style_integers_are_counts() -> None:
    class Index:
        def __init__(self, value: int) -> None:
            self.value = value

        def __index__(self) -> int:
            return self.value

    assert Cargo([Index(3), Index(2)]) == Cargo((3, 2))  # type: ignore[list-item]
    with pytest.raises(ParseError, match="non-negative integers"):
        Cargo([True])
