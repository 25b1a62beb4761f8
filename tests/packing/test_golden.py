"""The worked checks of docs/rules/pack-and-stack.md, solved and validated."""

import pytest

from packing import Cargo, Truck, solve, verify

FULL_FLOOR = "#####/#####/#####"


@pytest.mark.parametrize(
    ("mask", "height", "cargo", "loaded", "penalty"),
    [
        (FULL_FLOOR, 1, {3: 5}, 15, 0),
        (FULL_FLOOR, 1, {5: 1, 1: 10}, 15, 0),
        (FULL_FLOOR, 1, {4: 3}, 12, 3),
        ("####/####/####", 4, {5: 1}, 0, 58),
        ("#", 4, {4: 1}, 4, 0),
        ("####./...#.", 1, {5: 1, 4: 1, 1: 1}, 5, 10),
        ("#.#", 1, {3: 1, 1: 1}, 1, 7),
        ("#.#", 3, {3: 1, 1: 1}, 4, 2),
        ("#####/###../#####", 3, {1: 3, 2: 2, 3: 3, 5: 1}, 21, 18),
    ],
)
def test_worked_checks(
    mask: str, height: int, cargo: dict[int, int], loaded: int, penalty: int
) -> None:
    plan = verify(solve(Cargo(cargo), Truck.parse(mask, height=height)))
    assert (plan.loaded, plan.penalty, plan.optimal) == (loaded, penalty, True)


def test_three_fours_lie_one_per_row() -> None:
    plan = verify(solve(Cargo({4: 3}), Truck.parse(FULL_FLOOR, height=1)))
    assert sorted(p.y for p in plan.placements) == [0, 1, 2]
    assert (plan.empty, plan.left_over) == (3, 0)


def test_leaving_a_five_behind_lets_a_four_and_a_one_in() -> None:
    # A 2×... floor of 5 cells in an L: no run of 5, so only the 4 and the 1 can go in.
    truck = Truck.parse("####./...#.", height=1)
    plan = verify(solve(Cargo({5: 1, 4: 1, 1: 1}), truck))
    assert plan.loaded == 5
    assert plan.left_behind == Cargo({5: 1})


def test_a_rod_cannot_span_a_pre_filled_cell() -> None:
    # Height 1: the 3 can neither lie across the pre-filled middle cell nor stand.
    plan = verify(solve(Cargo({1: 1, 3: 1}), Truck.parse("#.#", height=1)))
    assert (plan.loaded, plan.left_behind) == (1, Cargo({3: 1}))
    # Height 3: it stands upright in one cell and the cube takes the other.
    plan = verify(solve(Cargo({1: 1, 3: 1}), Truck.parse("#.#", height=3)))
    assert plan.loaded == 4


def test_seed_example_roll() -> None:
    cargo = Cargo.from_roll([3, 2, 3, 0, 1])  # three 1s, two 2s, three 3s, one 5
    assert cargo.rods == (5, 3, 3, 3, 2, 2, 1, 1, 1)
    assert cargo.volume == 21
