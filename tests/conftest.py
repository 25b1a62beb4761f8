"""Settings and fixtures for the whole suite.

The session fixtures are built once per test process (each xdist worker builds its own) and
shared by every module that needs them. A table's arrays refuse writes, so no test can change
what another one reads.
"""

from __future__ import annotations

import functools
import itertools

import pytest
from hypothesis import settings

import arena.cli
from arena.executors import executor_from
from packing import DICE, LENGTHS, Cargo, solve, verify
from packing.table import OptimalTable, build_table
from tests.decks import SMALL_DECK, SPLIT_DECK

# Solve times vary with CP-SAT's work, so no per-example deadline; speed is the benchmarks' job.
settings.register_profile("default", deadline=None)
settings.load_profile("default")


@pytest.fixture(scope="session")
def small_deck_table() -> OptimalTable:
    """The optimal table of :data:`tests.decks.SMALL_DECK`, built by ``build_table``."""
    report = build_table(SMALL_DECK, workers=1)
    assert report.all_optimal
    return report.table


@pytest.fixture(scope="session")
def small_deck_solved() -> dict[Cargo, tuple[int, ...]]:
    """The optimal penalty of every distinct cargo in each truck of ``SMALL_DECK``, by solving
    (and validating) each directly: the independent count the table and the stats are checked
    against."""
    cargos = {
        Cargo.from_roll(list(faces)) for faces in itertools.product(*(DICE[n] for n in LENGTHS))
    }
    return {c: tuple(verify(solve(c, truck)).penalty for truck in SMALL_DECK) for c in cargos}


@pytest.fixture(scope="session")
def split_deck_table() -> OptimalTable:
    """The optimal table of :data:`tests.decks.SPLIT_DECK`."""
    report = build_table(SPLIT_DECK, workers=1)
    assert report.all_optimal
    return report.table


@pytest.fixture
def quick_unreachable_scheduler(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands' Dask scheduler connections give up after a fraction of a second.

    A test that names a scheduler nobody listens on checks the one-line error, not how long
    the library waits for an answer that never comes (tests/arena/test_executors.py checks
    ``connect_timeout`` itself), so there is no point waiting the default.
    """
    monkeypatch.setattr(
        arena.cli, "executor_from", functools.partial(executor_from, connect_timeout=0.25)
    )
