"""The solver's answers: always valid, proven optimal, and equal to an independent brute force."""

import random
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from packing import (
    SAMPLE_DECK,
    Cargo,
    Engine,
    InternalError,
    LoadPlan,
    PackingError,
    Placement,
    Status,
    Truck,
    penalty_floor,
    solve,
    upper_bound,
    verify,
)
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


@pytest.mark.slow
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
            cargo = Cargo.from_roll(
                [
                    rng.choice(f)
                    for f in (
                        (1, 1, 2, 3, 4, 5),
                        (0, 1, 2, 2, 3, 4),
                        (0, 1, 1, 2, 2, 3),
                        (0, 0, 1, 1, 2, 2),
                        (0, 0, 1, 1, 2, 2),
                    )
                ]
            )
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
def test_adding_a_rod_never_lowers_the_loaded_volume(
    cargo: Cargo, truck: Truck, length: int
) -> None:
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
    assert model_only.engine is Engine.CP_SAT and model_only.optimal
    assert fast.loaded == model_only.loaded


# --- what the solver proved, and time limits ---------------------------------------------------

HARD_CARGO = Cargo({2: 5})  # ten cubes of even rods on an odd floor of nine: the bound 9 is
HARD_TRUCK = Truck.parse("###/###/###", height=1)  # out of reach, so CP-SAT must prove 8


class _Status(cp_model.CpSolver):
    """A CP-SAT solver that reports ``status`` whatever it found."""

    status = cp_model.UNKNOWN

    def solve(self, model: cp_model.CpModel, *args: object, **kwargs: object) -> Any:
        super().solve(model)
        return self.status


def _force_status(monkeypatch: pytest.MonkeyPatch, status: Any) -> None:
    solver = type("Forced", (_Status,), {"status": status})
    monkeypatch.setattr(cp_model, "CpSolver", solver)


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (cp_model.INFEASIBLE, "infeasible, but loading nothing is always a solution"),
        (cp_model.MODEL_INVALID, "rejects the loading model as invalid"),
        (cp_model.UNKNOWN, "stopped without a result and without a time limit"),
        (17, "unknown CP-SAT status 17"),
    ],
)
def test_impossible_cp_sat_statuses_raise_internal_errors(
    monkeypatch: pytest.MonkeyPatch, status: Any, message: str
) -> None:
    _force_status(monkeypatch, status)
    with pytest.raises(InternalError, match=message):
        solve(HARD_CARGO, HARD_TRUCK)
    assert not issubclass(InternalError, PackingError)  # a bug is never reported as bad input


def test_a_feasible_answer_that_meets_its_proven_bound_is_optimal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # CP-SAT proves 8 but says only FEASIBLE (as when a time limit stops it after the proof).
    _force_status(monkeypatch, cp_model.FEASIBLE)
    plan = verify(solve(HARD_CARGO, HARD_TRUCK, time_limit=30))
    assert plan.loaded == plan.bound == 8 and plan.status is Status.OPTIMAL


def test_no_result_within_the_limit_gives_the_best_loading_known(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _force_status(monkeypatch, cp_model.UNKNOWN)
    plan = verify(solve(HARD_CARGO, HARD_TRUCK, time_limit=30))
    assert plan.loaded == 8  # the search's loading, kept
    assert plan.status is Status.FEASIBLE and plan.bound == upper_bound(HARD_CARGO, HARD_TRUCK) == 9
    model_only = verify(solve(HARD_CARGO, HARD_TRUCK, time_limit=30, fast_path=False))
    assert model_only.loaded == 0 and model_only.status is Status.FEASIBLE and model_only.bound == 9


class _Clock:
    """A ``time.perf_counter`` that jumps ``step`` seconds at each reading."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_time_limit_stops_the_search_and_skips_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    # A big truck and a cargo whose bound the search cannot reach in its first few nodes.
    truck = Truck(tuple(tuple(True for _ in range(10)) for _ in range(6)), 6)
    cargo = Cargo((0, 0, 40, 40, 40))
    monkeypatch.setattr(time, "perf_counter", _Clock(step=1.0))
    built: list[object] = []
    monkeypatch.setattr(cp_model, "CpModel", lambda: built.append(1))  # must never be called
    plan = verify(solve(cargo, truck, time_limit=0.5))
    assert built == [] and plan.engine is Engine.BOUND
    assert plan.status is Status.FEASIBLE and plan.bound == upper_bound(cargo, truck)
    assert plan.loaded < plan.bound


def test_cp_sat_gets_only_the_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    limits: list[float] = []

    class Recording(cp_model.CpSolver):
        def solve(self, model: cp_model.CpModel, *args: object, **kwargs: object) -> Any:
            limits.append(self.parameters.max_time_in_seconds)
            return super().solve(model)

    monkeypatch.setattr(cp_model, "CpSolver", Recording)
    monkeypatch.setattr(time, "perf_counter", _Clock(step=0.25))
    plan = verify(solve(HARD_CARGO, HARD_TRUCK, time_limit=10))
    assert plan.optimal and len(limits) == 1
    assert 0 < limits[0] <= 10 - 0.25 * 2  # the clock was read at the start and since


def _count_hints(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, object]]:
    hints: list[tuple[object, object]] = []
    original = cp_model.CpModel.add_hint

    def add_hint(self: cp_model.CpModel, var: Any, value: Any) -> None:
        hints.append((var, value))
        original(self, var, value)

    monkeypatch.setattr(cp_model.CpModel, "add_hint", add_hint)
    return hints


def test_the_model_alone_gets_no_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    hints = _count_hints(monkeypatch)
    plan = verify(solve(HARD_CARGO, HARD_TRUCK, fast_path=False))
    assert plan.optimal and plan.engine is Engine.CP_SAT and hints == []


def test_the_normal_path_gives_no_hint_either(monkeypatch: pytest.MonkeyPatch) -> None:
    # Measured: hinting the search's loading made CP-SAT slower (benchmarks/README.md).
    hints = _count_hints(monkeypatch)
    plan = verify(solve(HARD_CARGO, HARD_TRUCK))
    assert plan.optimal and plan.engine is Engine.CP_SAT and hints == []


def test_a_time_limited_plan_shows_its_bound() -> None:
    plan = LoadPlan(HARD_TRUCK, HARD_CARGO, (Placement.parse("2x@0,0,0"),), Status.FEASIBLE, 9)
    assert (
        "penalty 23 (feasible, not proven optimal: any loading loads at most 9, penalty at least 2)"
        in str(plan)
    )
    assert "(optimal)" in str(verify(solve(HARD_CARGO, HARD_TRUCK)))
