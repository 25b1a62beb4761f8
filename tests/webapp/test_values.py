"""The web companion's public values travel: pickled into a spawned process with another hash
seed they equal and hash like the values built there; its errors pickle with their message."""

from __future__ import annotations

import multiprocessing
import os
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from tests.packing._roundtrip import disagreements
from tests.webapp._values import check_in_child, sample_errors, sample_values


def test_every_public_value_survives_a_spawned_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONHASHSEED", "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1")
    originals = sample_values()
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = {n: pool.submit(check_in_child, n, v).result() for n, v in originals.items()}
    for name, (back, problems) in results.items():
        assert problems == [], f"{name} in the child: {problems}"
        assert disagreements(back, originals[name]) == [], f"{name} back here"


def test_every_error_pickles_with_its_message_and_status() -> None:
    for name, error in sample_errors().items():
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error), name
        assert back.status == error.status  # type: ignore[attr-defined]
