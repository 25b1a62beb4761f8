"""The residue bound: never below a proven optimum, and de Bruijn's theorem where it applies."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from packing import (
    LENGTHS,
    PLAIN_STRATEGY,
    Cargo,
    PackingError,
    Truck,
    residue_bound,
    solve,
    upper_bound,
)
from tests.packing.brute import brute_force_loaded
from tests.packing.test_solver import random_small_truck


def box(columns: int, rows: int, height: int) -> Truck:
    return Truck(((True,) * columns,) * rows, height)


@given(st.integers(1, 7), st.integers(1, 7), st.integers(1, 6), st.sampled_from(LENGTHS[1:]))
def test_a_box_fills_with_one_length_exactly_when_the_length_divides_a_side(
    columns: int, rows: int, height: int, length: int
) -> None:
    # De Bruijn: a box packs with 1 × 1 × L bricks if and only if L divides one of its sides
    # (if: lay them all along that side). With a cargo of that length alone, the bound reaches
    # the capacity exactly then.
    truck = box(columns, rows, height)
    if not truck.fits(length):
        return
    cargo = Cargo({length: truck.capacity})
    divides = any(side % length == 0 for side in (columns, rows, height))
    assert (residue_bound(cargo, truck, truck.capacity) == truck.capacity) is divides


def test_the_bound_is_never_below_the_optimum_on_small_trucks() -> None:
    rng = random.Random(20261206)
    tighter = 0
    for _ in range(150):
        truck = random_small_truck(rng)
        # Mostly one length, so the colouring has something to say.
        counts = [0] * len(LENGTHS)
        counts[rng.randint(1, 4)] = rng.randint(2, 8)
        counts[rng.randrange(len(LENGTHS))] += rng.randint(0, 2)
        cargo = Cargo(tuple(counts))
        below = upper_bound(cargo, truck)
        bound = residue_bound(cargo, truck, below)
        optimum = brute_force_loaded(cargo, truck)
        assert optimum <= bound <= below, (str(truck), truck.height, cargo)
        tighter += bound < below
    assert tighter >= 5  # it does cut (6 of these 150), and never below an optimum


def test_the_bound_is_never_below_the_plain_models_optimum_on_larger_boxes() -> None:
    # Boxes and holed floors beyond the brute force's reach, cargos about the capacity of one
    # or two lengths; the plain model (no search, no bound but counting) is the optimum.
    rng = random.Random(7)
    tighter = 0
    for _ in range(30):
        columns, rows, height = rng.randint(3, 6), rng.randint(2, 4), rng.randint(2, 4)
        mask = tuple(tuple(rng.random() < 0.9 for _ in range(columns)) for _ in range(rows))
        if not any(any(row) for row in mask):
            continue
        truck = Truck(mask, height)
        counts = [0] * len(LENGTHS)
        for length in rng.sample(LENGTHS[1:], rng.randint(1, 2)):
            counts[length - 1] = truck.capacity // length // 2 + 2
        cargo = Cargo(tuple(counts))
        below = upper_bound(cargo, truck)
        bound = residue_bound(cargo, truck, below)
        plain = solve(cargo, truck, strategy=PLAIN_STRATEGY, fast_path=False)
        assert plain.optimal and plain.loaded <= bound <= below, (str(truck), height, cargo)
        tighter += bound < below
    assert tighter >= 3


def test_the_bound_proves_the_full_six_by_ten_truck_cannot_take_355() -> None:
    # Three 3-rods and many 4-rods on a full 6 × 10 floor of height 6: counting and subset
    # sums say 360; the full model needs seconds to rule out 355, the residues milliseconds.
    truck = box(6, 10, 6)
    cargo = Cargo({3: 3, 4: 113})
    assert upper_bound(cargo, truck) == 360
    assert residue_bound(cargo, truck, 360) == 354
    # Without the 3-rods, 4-rods alone reach 352 (a loading of that volume exists: solve).
    assert residue_bound(Cargo({4: 113}), truck, 360) == 352
    assert solve(Cargo({4: 113}), truck).loaded == 352


def test_work_and_a_past_deadline_cut_the_proof_short_but_never_below_the_given_bound() -> None:
    truck = box(6, 10, 6)
    cargo = Cargo({3: 3, 4: 113})
    assert residue_bound(cargo, truck, 360, deadline=0.0) == 360
    assert 354 <= residue_bound(cargo, truck, 360, work=1e-9) <= 360
    assert residue_bound(cargo, truck, 350) == 350


def test_bad_arguments_are_refused_in_one_line() -> None:
    truck = box(3, 3, 2)
    with pytest.raises(PackingError, match="residue_bound: invalid below -1"):
        residue_bound(Cargo({2: 3}), truck, -1)
    with pytest.raises(PackingError, match="residue_bound: invalid work 0"):
        residue_bound(Cargo({2: 3}), truck, 6, work=0)
    with pytest.raises(TypeError, match="residue_bound: the truck must be a Truck"):
        residue_bound(Cargo({2: 3}), "big", 6)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="deadline must be"):
        residue_bound(Cargo({2: 3}), truck, 6, deadline="soon")  # type: ignore[arg-type]
