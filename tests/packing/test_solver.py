"""The solver's answers: always valid, proven optimal, and equal to an independent brute force."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from packing import SAMPLE_DECK, Cargo, Status, Truck, penalty_floor, solve, upper_bound, verify
from tests.packing.brute import brute_force_loaded
from tests.packing.strategies import cargos, rolls, trucks


def random_small_truck(rng: random.Random) -> Truck:
    """≤ 8 cells at height ≤ 2, ≤ 6 cells at height 3: what the brute force finishes quickly."""
    height = rng.randint(1, 3)
    max_cells = 8 if height < 3 else 6
    rows, columns = rng.randint(1, 3), rng.randint(1, 4)
    flat = [rng.random() < 0.7 for _ in range(rows * columns)]
    kept = [i for i, ok in enumerate(flat) if ok][:max_cells] or [0]
    mask = tuple(tuple(y * columns + x in kept for x in range(columns)) for y in range(rows))
    return Truck(mask, height)


def test_solver_agrees_with_brute_force_on_300_small_cases() -> None:
    rng = random.Random(20261129)
    for _ in range(300):
        truck = random_small_truck(rng)
        cargo = Cargo(tuple(rng.randint(0, 3) for _ in range(5)))
        plan = verify(solve(cargo, truck))
        assert plan.optimal, (truck, cargo)
        assert plan.loaded == brute_force_loaded(cargo, truck), (str(truck), truck.height, cargo)


def test_cp_sat_stage_agrees_with_brute_force() -> None:
    # Cargos whose bound is out of reach, so the fast path cannot prove them and CP-SAT must.
    cases = [
        (Cargo({2: 5}), Truck.parse("###/###/###", height=1)),  # odd floor, even rods
        (Cargo({2: 3, 3: 3}), Truck.parse(".###/#.##/#.#.", height=2)),
        (Cargo({2: 1, 3: 3, 4: 2}), Truck.parse("####/.#.#", height=3)),
        (Cargo({1: 1, 4: 3, 5: 3}), Truck.parse("####/###./#...", height=2)),
        (Cargo({2: 1, 3: 3, 4: 1}), Truck.parse("###/##.", height=2)),
    ]
    for cargo, truck in cases:
        plan = verify(solve(cargo, truck))
        assert plan.loaded < upper_bound(cargo, truck)  # CP-SAT really was needed
        assert plan.optimal and plan.bound == plan.loaded
        assert plan.loaded == brute_force_loaded(cargo, truck)


def test_sample_deck_solves_are_valid_and_optimal() -> None:
    rng = random.Random(7)
    for truck in SAMPLE_DECK:
        for _ in range(6):
            cargo = Cargo.from_roll([rng.choice(f) for f in ((1, 1, 2, 3, 4, 5), (0, 1, 2, 2, 3, 4),
                                                             (0, 1, 1, 2, 2, 3), (0, 0, 1, 1, 2, 2),
                                                             (0, 0, 1, 1, 2, 2))])
            plan = verify(solve(cargo, truck))
            assert plan.optimal


def test_time_limit_gives_a_valid_plan_with_a_proven_bound() -> None:
    truck = Truck.parse("#####/#####/#####", height=4)
    cargo = Cargo((5, 4, 3, 2, 2))
    plan = verify(solve(cargo, truck, time_limit=0.001))
    assert plan.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert plan.bound is not None and plan.loaded <= plan.bound <= min(truck.capacity, cargo.volume)


@settings(max_examples=150)
@given(cargos(), trucks())
def test_every_plan_is_valid_and_never_beats_the_floor(cargo: Cargo, truck: Truck) -> None:
    plan = verify(solve(cargo, truck))
    assert plan.optimal
    floor = truck.capacity + 2 * cargo.volume - 3 * min(truck.capacity, cargo.volume)
    assert floor == penalty_floor(capacity=truck.capacity, volume=cargo.volume)
    assert plan.penalty >= floor


@settings(max_examples=100)
@given(rolls(), trucks(), st.integers(1, 5))
def test_adding_a_rod_never_lowers_the_loaded_volume(cargo: Cargo, truck: Truck, length: int) -> None:
    more = Cargo(tuple(n + (i + 1 == length) for i, n in enumerate(cargo.counts)))
    assert verify(solve(more, truck)).loaded >= verify(solve(cargo, truck)).loaded


@settings(max_examples=100)
@given(rolls(), trucks(max_height=3))
def test_raising_the_height_never_lowers_the_loaded_volume(cargo: Cargo, truck: Truck) -> None:
    taller = truck.with_height(truck.height + 1)
    assert verify(solve(cargo, taller)).loaded >= verify(solve(cargo, truck)).loaded


@settings(max_examples=100)
@given(rolls(), trucks())
def test_mirroring_the_mask_leaves_the_penalty_unchanged(cargo: Cargo, truck: Truck) -> None:
    penalty = verify(solve(cargo, truck)).penalty
    assert verify(solve(cargo, truck.mirrored())).penalty == penalty
    assert verify(solve(cargo, truck.flipped())).penalty == penalty


@settings(max_examples=60)
@given(rolls(), trucks())
def test_fast_path_and_cp_sat_alone_agree(cargo: Cargo, truck: Truck) -> None:
    fast = verify(solve(cargo, truck))
    model_only = verify(solve(cargo, truck, fast_path=False))
    assert model_only.engine == "cp-sat" and model_only.optimal
    assert fast.loaded == model_only.loaded
