"""The validator catches every kind of broken plan (it is the specification in code)."""

import pytest

from packing import Cargo, InvalidPlan, LoadPlan, Placement, Status, Truck, problems, verify

TRUCK = Truck.parse("###/#.#", height=2)


MIXED = Cargo({1: 5, 2: 5, 3: 5})


def plan(*placements: str, cargo: Cargo = MIXED, **kw: object) -> LoadPlan:
    return LoadPlan(TRUCK, cargo, tuple(Placement.parse(p) for p in placements), **kw)  # type: ignore[arg-type]


def test_a_valid_plan_passes() -> None:
    good = plan("3x@0,0,0", "1z@0,1,0", "2y@0,0,1", "1z@2,1,0", "1z@2,0,1")
    assert problems(good) == []
    assert verify(good) is good


@pytest.mark.parametrize(
    ("placements", "message"),
    [
        (["2x@2,0,0"], "outside the loading area"),
        (["2y@1,0,0"], "outside the loading area"),  # (1,1) is pre-filled
        (["3z@0,0,0"], "above the height cap"),
        (["3x@0,0,0", "1z@1,0,0"], "also taken"),
        (["1z@0,0,1"], "hangs over empty space"),
        (["1z@0,1,0", "1z@2,1,0", "3x@0,0,1"], "hangs over empty space"),  # bridging a gap
    ],
)
def test_rule_breaks_are_named(placements: list[str], message: str) -> None:
    with pytest.raises(InvalidPlan, match=message):
        verify(plan(*placements))


def test_more_rods_than_the_cargo_has() -> None:
    with pytest.raises(InvalidPlan, match="2 rods of length 1 loaded but the cargo has 1"):
        verify(plan("1z@0,0,0", "1z@1,0,0", cargo=Cargo({1: 1})))


def test_false_optimality_claims_are_caught() -> None:
    with pytest.raises(InvalidPlan, match="claims optimal"):
        verify(plan("1z@0,0,0", status=Status.OPTIMAL, bound=5))
    with pytest.raises(InvalidPlan, match="below the loaded volume"):
        verify(plan("3x@0,0,0", status=Status.FEASIBLE, bound=2))
