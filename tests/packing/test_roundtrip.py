"""Every public value travels between processes: pickled into a ``spawn`` worker that runs
with another hash seed, it still equals, hashes like and is found in dicts and sets by the
value built there; sent back, the same holds against the original."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packing import Cargo, Engine, LoadPlan, Placement, Truck, solve, verify
from packing.table import find_table
from tests.packing._roundtrip import check_in_child, disagreements, sample_values
from tests.packing.strategies import cargos, trucks


def test_every_public_value_survives_a_spawned_process_with_another_hash_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Spawned children inherit the environment: give them a hash seed unlike this process's.
    child_seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    monkeypatch.setenv("PYTHONHASHSEED", child_seed)
    originals = sample_values()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        futures = {
            name: pool.submit(check_in_child, name, value) for name, value in originals.items()
        }
        results = {name: future.result() for name, future in futures.items()}
    for name, (back, child_problems, child_string_hash) in results.items():
        assert child_string_hash != hash("packing"), "the child must hash strings differently"
        assert child_problems == [], f"{name} in the child: {child_problems}"
        assert disagreements(back, originals[name]) == [], f"{name} back in the parent"
    back_deck = results["deck (tuple)"][0]
    assert isinstance(back_deck, tuple)
    assert find_table(back_deck) is find_table(originals["deck (tuple)"])  # type: ignore[arg-type]


def test_a_trucks_hash_does_not_depend_on_its_name() -> None:
    # The cached hash travels with a pickled truck, so it must hash no string (the name).
    a = Truck.parse("##/#.", height=2, name="a")
    b = Truck.parse("##/#.", height=2, name="b")
    assert hash(a) == hash(b) and a != b


@settings(max_examples=50)
@given(cargos(), trucks(), st.booleans())
def test_values_pickle_to_equal_values(cargo: Cargo, truck: Truck, by_hand: bool) -> None:
    plan = verify(solve(cargo, truck))
    if by_hand:
        plan = LoadPlan.from_placements(truck, cargo, plan.placements)
    for value in (cargo, truck, plan, *plan.placements):
        assert disagreements(pickle.loads(pickle.dumps(value)), value) == []


def test_plans_differing_only_in_how_they_were_found_are_equal() -> None:
    truck = Truck.parse("###/###/###", height=1)
    first, second = verify(solve(Cargo({2: 5}), truck)), verify(solve(Cargo({2: 5}), truck))
    assert first == second and hash(first) == hash(second) and {first: 1}[second] == 1
    slower = dataclasses.replace(first, wall_time=first.wall_time + 1.0)
    assert slower == first and hash(slower) == hash(first)
    model_only = verify(solve(Cargo({2: 5}), truck, fast_path=False))
    assert model_only.loaded == first.loaded
    # Same loading, status and bound but another engine: still the same plan.
    relabelled = LoadPlan(
        first.truck, first.cargo, first.placements, first.status, first.bound, engine=Engine.BOUND
    )
    assert relabelled == first
    moved = LoadPlan(
        first.truck, first.cargo, (Placement.parse("1z@0,0,0"),), first.status, first.bound
    )
    assert moved != first
