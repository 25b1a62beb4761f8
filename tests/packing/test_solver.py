"""The solver's answers: always valid, proven optimal, and equal to an independent brute force."""

import itertools
import pickle
import random
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from packing import (
    DEFAULT_STRATEGY,
    LENGTHS,
    PLAIN_STRATEGY,
    SAMPLE_DECK,
    Cargo,
    Engine,
    InternalError,
    LoadPlan,
    PackingError,
    Placement,
    Status,
    Strategy,
    Truck,
    penalty_floor,
    residue_bound,
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
        (Cargo({2: 3, 3: 3}), Truck.parse(".###/#.##/#.#.", height=2)),
        (Cargo({1: 1, 4: 3, 5: 3}), Truck.parse("####/###./#...", height=2)),
        (Cargo({2: 1, 3: 3, 4: 1}), Truck.parse("###/##.", height=2)),
    ]
    for cargo, truck in cases:
        for strategy in (DEFAULT_STRATEGY, PLAIN_STRATEGY, EVERY_LEVER, EMPTY_CUBES_MODEL):
            plan = verify(solve(cargo, truck, strategy=strategy))
            assert plan.loaded < upper_bound(cargo, truck)  # the search alone could not prove it
            # Every lever may settle it with the residue bound; the others need CP-SAT.
            assert plan.engine is Engine.CP_SAT or strategy is EVERY_LEVER
            assert plan.optimal and plan.bound == plan.loaded
            assert plan.loaded == brute_force_loaded(cargo, truck)


#: The default strategy with every lever on whatever the truck's size, so that small trucks
#: (which the brute force finishes) exercise the wider search and CP-SAT's support phase.
EVERY_LEVER = Strategy(large_capacity=1)
#: Every lever on small trucks but the residue bound and the layered loading, which settle many
#: cases before CP-SAT: so CP-SAT's model with empty cubes meets the brute force.
EMPTY_CUBES_MODEL = Strategy(large_capacity=1, residue_work=0.0, layered_work=0.0)


def test_what_no_sum_of_the_rods_reaches_the_search_settles_without_cp_sat() -> None:
    cases = [
        (Cargo({2: 5}), Truck.parse("###/###/###", height=1)),  # even rods, nine cubes: 8
        (Cargo({2: 1, 3: 3, 4: 2}), Truck.parse("####/.#.#", height=3)),  # no sum is 18: 17
    ]
    for cargo, truck in cases:
        plan = verify(solve(cargo, truck))
        assert plan.engine is Engine.BOUND and plan.optimal
        assert plan.loaded == upper_bound(cargo, truck) == brute_force_loaded(cargo, truck)
        plain = verify(solve(cargo, truck, strategy=PLAIN_STRATEGY))
        assert plain.engine is Engine.CP_SAT and plain.loaded == plan.loaded


def largest_sum_by_enumeration(cargo: Cargo, truck: Truck) -> int:
    """The largest total length of a sub-multiset of the fitting rods within the capacity, by
    listing every sub-multiset: the subset-sum bound, computed without the solver."""
    fitting = [(length, cargo.count(length)) for length in LENGTHS if truck.fits(length)]
    best = 0
    for taken in itertools.product(*(range(count + 1) for _, count in fitting)):
        total = sum(length * n for (length, _), n in zip(fitting, taken, strict=True))
        if total <= truck.capacity:
            best = max(best, total)
    return best


@given(
    st.tuples(*(st.integers(0, 6) for _ in LENGTHS)),
    st.integers(1, 3),
    st.integers(1, 5),
    st.integers(1, 6),
)
def test_the_bound_is_the_largest_sum_of_fitting_rods_within_the_capacity(
    counts: tuple[int, ...], rows: int, columns: int, height: int
) -> None:
    cargo, truck = Cargo(counts), Truck(((True,) * columns,) * rows, height)
    bound = upper_bound(cargo, truck)
    assert bound == largest_sum_by_enumeration(cargo, truck)
    assert bound <= min(truck.capacity, cargo.volume)


def test_the_bound_is_never_below_the_optimum_and_every_strategy_proves_it() -> None:
    rng = random.Random(20261205)
    for _ in range(120):
        truck = random_small_truck(rng)
        cargo = Cargo(tuple(rng.randint(0, 3) for _ in range(5)))
        optimum = brute_force_loaded(cargo, truck)
        assert optimum <= upper_bound(cargo, truck), (str(truck), truck.height, cargo)
        for strategy in (DEFAULT_STRATEGY, PLAIN_STRATEGY, EVERY_LEVER, EMPTY_CUBES_MODEL):
            plan = verify(solve(cargo, truck, strategy=strategy))
            assert plan.optimal and plan.loaded == optimum, (str(truck), cargo, strategy)


def test_on_variant_trucks_the_default_strategy_proves_what_the_plain_model_proves() -> None:
    # Larger than the cards (so every lever runs), with cargos of two lengths about the
    # capacity, many of which the search alone cannot prove; the plain model alone (no
    # subset-sum bound, no search) is the independent optimum. Without the residue bound and
    # the layered loading, most of them reach CP-SAT's model with empty cubes.
    rng = random.Random(5)
    stages = {"residue bound": 0, "cp-sat": 0}
    without_residues = Strategy(residue_work=0.0, layered_work=0.0)
    for _ in range(40):
        truck = Truck(tuple(tuple(rng.random() < 0.9 for _ in range(6)) for _ in range(4)), 4)
        lengths = rng.sample(LENGTHS, 2)
        counts = [0] * len(LENGTHS)
        while sum(n * length for n, length in zip(counts, LENGTHS, strict=True)) < (
            truck.capacity * rng.uniform(0.9, 1.2)
        ):
            counts[rng.choice(lengths) - 1] += 1
        cargo = Cargo(tuple(counts))
        plain = verify(solve(cargo, truck, strategy=PLAIN_STRATEGY, fast_path=False))
        assert plain.optimal, (str(truck), cargo)
        for strategy in (DEFAULT_STRATEGY, without_residues):
            plan = verify(solve(cargo, truck, strategy=strategy))
            assert plan.optimal and plan.loaded == plain.loaded, (str(truck), cargo, strategy)
            # Every stage stops on work, not on the clock: the same question, the same loading.
            assert solve(cargo, truck, strategy=strategy).placements == plan.placements
        stages["cp-sat"] += plan.engine is Engine.CP_SAT
        stages["residue bound"] += plan.loaded < upper_bound(cargo, truck) and (
            verify(solve(cargo, truck)).engine is Engine.BOUND
        )
    assert stages["cp-sat"] >= 10 and stages["residue bound"] >= 5, stages


def test_a_gap_the_default_lp_does_not_prove_is_proven_by_residues_and_by_empty_cubes() -> None:
    # Sixty-three 3-rods on a holed 5x8 truck of height 5: the bound 183 is 6 cubes above the
    # optimum, which CP-SAT at its default LP does not prove in seconds. The residue bound
    # proves it before any model; without it, CP-SAT's model with empty cubes does.
    truck = Truck.parse("###.####/#.######/##.#####/########/########", height=5)
    cargo = Cargo({3: 63})
    plan = verify(solve(cargo, truck, time_limit=60))
    assert plan.optimal and plan.engine is Engine.BOUND and plan.loaded < upper_bound(cargo, truck)
    assert residue_bound(cargo, truck, upper_bound(cargo, truck)) == plan.loaded
    cp_sat = verify(solve(cargo, truck, strategy=Strategy(residue_work=0.0), time_limit=60))
    assert cp_sat.optimal and cp_sat.engine is Engine.CP_SAT and cp_sat.loaded == plan.loaded
    plain = verify(solve(cargo, truck, strategy=PLAIN_STRATEGY, time_limit=1))
    assert plain.bound is not None and plain.loaded <= plan.loaded <= plain.bound


def test_a_strategy_is_a_value() -> None:
    assert Strategy() == DEFAULT_STRATEGY and hash(Strategy()) == hash(DEFAULT_STRATEGY)
    assert pickle.loads(pickle.dumps(PLAIN_STRATEGY)) == PLAIN_STRATEGY
    with pytest.raises(TypeError, match="strategy must be a packing.Strategy, not 'fast'"):
        solve(Cargo({1: 1}), Truck.parse("#", height=1), strategy="fast")  # type: ignore[arg-type]


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

# Rods adding up to 9 of the truck's 10 cubes (2 + 3 + 4), which no loading can place: the
# bound is out of reach, so CP-SAT must prove 8.
HARD_CARGO = Cargo({2: 1, 3: 3, 4: 1})
HARD_TRUCK = Truck.parse("###/##.", height=2)


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
        "penalty 34 (feasible, not proven optimal: any loading loads at most 9, penalty at least 13)"
        in str(plan)
    )
    assert "(optimal)" in str(verify(solve(HARD_CARGO, HARD_TRUCK)))
