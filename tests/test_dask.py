"""The long computations on a Dask cluster: a table build, the deck designer and a tournament
give exactly the serial results, and a worker killed mid-build loses nothing.

One two-worker ``LocalCluster`` (processes, one thread each) serves the whole module.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from concurrent.futures import Executor
from typing import Any

import numpy as np
import pytest
from distributed import Client, LocalCluster

from arena import RandomPolicy, tournament
from packing import Truck
from packing.design import ColumnCache, compare, deck_report
from packing.table import OptimalTable, build_table
from tests.arena.toy import AlwaysBank, AlwaysKeep, DiceRace

# A cluster of two worker processes takes seconds to start and its builds run beside the rest.
pytestmark = pytest.mark.slow

DECK = (
    Truck.parse("###/###", height=1, name="a"),
    Truck.parse("##/##", height=3, name="b"),
    Truck.parse("###/#..", height=2, name="c"),
    Truck.parse("####/####", height=2, name="d"),
    Truck.parse("##/#.", height=4, name="e"),
    Truck.parse("#####", height=1, name="f"),
)


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=40,
        ) as cluster,
        Client(cluster) as dask,  # type: ignore[no-untyped-call]
    ):
        dask.wait_for_workers(2, timeout=60)
        yield dask


@pytest.fixture(scope="module")
def serial() -> np.ndarray:
    return build_table(DECK).table.loaded


def executor(client: Client) -> Executor:
    return client.get_executor(pure=False)  # type: ignore[no-untyped-call, no-any-return]


def test_a_table_built_on_dask_equals_the_serial_build(client: Client, serial: np.ndarray) -> None:
    report = build_table(DECK, executor=executor(client))
    assert report.all_optimal and report.solved == report.entries == 900 * len(DECK)
    assert (
        report.table.loaded.dtype == serial.dtype
        and report.table.loaded.tobytes() == serial.tobytes()
    )
    # Dask's default executor keys tasks by their arguments ("pure"); build_table's tasks are
    # all distinct, so it gives the same table.
    pure = build_table(DECK, executor=client.get_executor())  # type: ignore[no-untyped-call]
    assert pure.solved == pure.entries and pure.table.loaded.tobytes() == serial.tobytes()


def test_the_designer_on_dask_equals_the_serial_run(client: Client, serial: np.ndarray) -> None:
    cache = ColumnCache()
    on_dask = compare(
        [DECK, DECK[1:]], labels=["all", "rest"], executor=executor(client), cache=cache
    )
    assert cache.solved == len(DECK)
    here = [
        deck_report(OptimalTable(DECK, serial), label="all"),
        deck_report(OptimalTable(DECK[1:], serial[:, 1:]), label="rest"),
    ]
    assert on_dask == here
    assert cache.table(DECK).loaded.tobytes() == serial.tobytes()


def test_a_tournament_on_dask_equals_the_serial_run(client: Client) -> None:
    policies: dict[str, Any] = {
        "keep": AlwaysKeep(),
        "bank": AlwaysBank(),
        "random": RandomPolicy(),
    }

    def run(**options: Any) -> Any:
        return tournament(
            three_players, policies, games=30, seed=4, progress=False, records=True, **options
        )

    serial = run()
    assert run(executor=executor(client), chunk=7) == serial
    assert run(executor=executor(client)) == serial
    assert serial.deals == 30 and len(serial.records) == 90


def three_players() -> DiceRace:
    """The toy game for three (module level, so the workers can call it)."""
    return DiceRace(players=3)


def test_a_worker_killed_mid_build_loses_nothing(client: Client, serial: np.ndarray) -> None:
    killed: list[str] = []

    def kill_a_busy_worker(done: int, total: int) -> None:
        if done and not killed:
            processing = client.processing()  # type: ignore[no-untyped-call]
            busy = [worker for worker, keys in processing.items() if keys]
            if busy:
                killed.append(busy[0])
                pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
                os.kill(pid, signal.SIGKILL)  # no goodbye: the scheduler finds it gone

    report = build_table(DECK, executor=executor(client), progress=kill_a_busy_worker)
    assert killed, "no worker was busy after the first result: nothing was tested"
    assert report.all_optimal and report.solved == report.entries
    assert report.table.loaded.tobytes() == serial.tobytes()
