"""packing.layered: every loading it builds passes the solver-free validator, loads exactly the
volume asked, and is found where a level-by-level loading plainly exists."""

from __future__ import annotations

import random

import pytest

from packing import Cargo, LoadPlan, Truck, upper_bound, verify
from packing.layered import layered_loading
from tests.packing.brute import brute_force_loaded


def loaded(cargo: Cargo, truck: Truck, target: int) -> int | None:
    """The volume of the layered loading, validated; ``None`` when none was built."""
    placements = layered_loading(cargo, truck, target, deadline=None)
    if not placements:
        return None
    verify(LoadPlan.from_placements(truck, cargo, placements))
    return sum(p.length for p in placements)


def random_truck(rng: random.Random, rows: int, columns: int, height: int) -> Truck:
    mask = tuple(tuple(rng.random() < 0.85 for _ in range(columns)) for _ in range(rows))
    return Truck(mask if any(map(any, mask)) else ((True,) * columns,) * rows, height)


def test_what_it_builds_is_valid_and_exactly_the_volume_asked() -> None:
    rng = random.Random(12)
    built = 0
    for _ in range(150):
        truck = random_truck(rng, rng.randint(1, 5), rng.randint(1, 8), rng.randint(1, 5))
        cargo = Cargo(tuple(rng.randint(0, 30) for _ in range(5)))
        target = rng.randint(1, upper_bound(cargo, truck) or 1)
        volume = loaded(cargo, truck, target)
        assert volume in (None, target), (str(truck), truck.height, cargo, target)
        built += volume is not None
    assert built >= 50  # it is not a search that never finds anything


def test_small_cases_never_load_more_than_the_brute_force_optimum() -> None:
    rng = random.Random(3)
    for _ in range(60):
        truck = random_truck(rng, rng.randint(1, 2), rng.randint(1, 4), rng.randint(1, 2))
        cargo = Cargo(tuple(rng.randint(0, 3) for _ in range(5)))
        best = brute_force_loaded(cargo, truck)
        for target in range(1, best + 3):
            volume = loaded(cargo, truck, target)
            assert volume is None or volume == target <= best, (str(truck), cargo, target)


@pytest.mark.parametrize(
    ("cargo", "mask", "height", "target"),
    [
        # Rows of 10 as 5 + 5 and 4 + 4 + 2: full levels along the rows.
        (Cargo({2: 40, 4: 80, 5: 30}), "##########/" * 5 + "##########", 6, 360),
        # No row or column of 4s and 5s alone makes 10 or 6: a slab of upright 4-rods first.
        (Cargo({1: 1, 4: 63, 5: 26}), "##########/" * 5 + "##########", 6, 360),
        # A last level filled in part: 100 = 4 full levels of 24 cells and 4 cubes more.
        (Cargo({2: 60}), "######/######/######/######", 5, 100),
        # Holes: runs of 3 and 4 along the rows.
        (Cargo({3: 20, 4: 20}), "###.####/####.###", 4, 56),
        # A run of 2 no rod lies in: two columns of upright 3-rods beside 5-rods lying flat.
        (Cargo({3: 2, 5: 3}), "#####.##", 3, 21),
    ],
)
def test_level_by_level_loadings_are_found(
    cargo: Cargo, mask: str, height: int, target: int
) -> None:
    assert loaded(cargo, Truck.parse(mask, height=height), target) == target


def test_nothing_when_no_level_can_be_filled_or_the_volume_does_not_fit() -> None:
    truck = Truck.parse("###/###/###", height=3)  # rows and columns of 3
    assert loaded(Cargo({4: 20}), truck, 8) is None  # 4-rods lie in no run of 3
    assert loaded(Cargo({1: 100}), truck, truck.capacity + 1) is None
    assert loaded(Cargo({1: 100}), truck, 0) is None
