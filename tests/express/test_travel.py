"""Every public value pickles, and compares and hashes equal in a process with another hash seed."""

from __future__ import annotations

import multiprocessing
import os
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from express import CABOOSES, DECK, Caboose, Train, TrainSolution, best_train, caboose_named
from tests.express.travel import check_in_child, public_values


def test_every_caboose_and_a_search_with_one_pickle() -> None:
    for caboose in CABOOSES:
        copy = pickle.loads(pickle.dumps(caboose))
        assert copy == caboose and copy.name == caboose.name
        # The condition travels too, not only the name: it judges trains the same way.
        assert (copy.test, copy.measure, copy.memo_key, copy.face_up_ok) == (
            caboose.test,
            caboose.measure,
            caboose.memo_key,
            caboose.face_up_ok,
        )
    search = next(
        value for value in public_values() if isinstance(value, TrainSolution) and value.caboose
    )
    assert pickle.loads(pickle.dumps(search)) == search


def test_values_survive_a_spawned_process_with_another_hash_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    values = public_values()
    kinds = {type(value).__name__ for value in values}
    assert {
        "Card",
        "Car",
        "Color",
        "Train",
        "Play",
        "Caboose",
        "TrainSolution",
        "GameScore",
    } <= kinds
    assert sum(isinstance(value, Caboose) for value in values) == 16
    assert any(isinstance(value, TrainSolution) and value.caboose is not None for value in values)
    # Children started from here hash strings with another seed than this process.
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    monkeypatch.setenv("PYTHONHASHSEED", seed)
    with ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn")
    ) as pool:
        results = list(pool.map(check_in_child, range(len(values)), values))
    for original, (back, equal_there, in_set_there, in_dict_there, child_hash) in zip(
        values, results
    ):
        assert child_hash != hash("yardmaster"), "the child did not get another hash seed"
        assert equal_there and in_set_there and in_dict_there, original
        assert back == original and back in {original} and {original: True}[back], original
        assert hash(back) == hash(original)


def test_a_travelled_caboose_still_scores() -> None:
    for name, train, met in [
        ("Sequence 5", "R2|R3,~Y2|Y2,G3|G3", True),
        ("Sequence 5", "R2|R3,~Y2|Y2,G2|G3", False),
        ("Lightweight", "R3|G3,G4|Y4", False),
        ("Two-Timer", "R3|R3,R2|G2,G3|G3", True),
    ]:
        caboose = pickle.loads(pickle.dumps(caboose_named(name)))
        assert caboose.met_by(Train.parse(train)) is met


def test_two_identical_searches_are_equal_results() -> None:
    # The wall time differs from run to run; it is not part of what a search found.
    first, second = (
        best_train(DECK, 6, caboose="Lightweight"),
        best_train(DECK, 6, caboose="Lightweight"),
    )
    assert first == second and hash(first) == hash(second) and len({first, second}) == 1
