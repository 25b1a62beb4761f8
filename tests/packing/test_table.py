"""The optimal table: shipped entries match fresh solves, builds are parallel and resumable,
files are keyed by deck, and queries answer the same with and without it."""

import random
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings

from arena.checkpoint import CheckpointMismatch
from packing import (
    SAMPLE_DECK,
    Cargo,
    Truck,
    best_truck,
    expected_penalty,
    rank_trucks,
    roll_counts,
    solve,
    verify,
)
from packing.table import (
    SHIPPED_DIR,
    OptimalTable,
    TableError,
    build_table,
    deck_key,
    find_table,
    forget_tables,
    table_filename,
    table_holding,
)
from tests.decks import SMALL_DECK
from tests.packing.strategies import rolls


@pytest.fixture(scope="module")
def shipped() -> OptimalTable:
    table = OptimalTable.load(SHIPPED_DIR / table_filename(SAMPLE_DECK), deck=SAMPLE_DECK)
    assert find_table(SAMPLE_DECK) is not None
    return table


@pytest.fixture(scope="module")
def small(small_deck_table: OptimalTable) -> OptimalTable:
    return small_deck_table


def test_shipped_table_is_for_the_sample_deck(shipped: OptimalTable) -> None:
    assert shipped.deck == SAMPLE_DECK and shipped.shape == (900, 30)
    assert shipped.key == deck_key(SAMPLE_DECK)


def test_random_shipped_entries_match_fresh_solves(shipped: OptimalTable) -> None:
    rng = random.Random(11)
    cargos = shipped.cargos
    for _ in range(300):
        i, j = rng.randrange(900), rng.randrange(30)
        plan = verify(solve(cargos[i], SAMPLE_DECK[j]))
        assert plan.optimal
        assert (int(shipped.loaded[i, j]), int(shipped.penalties[i, j])) == (
            plan.loaded,
            plan.penalty,
        )


def test_every_shipped_entry_is_consistent(shipped: OptimalTable) -> None:
    """All 27,000 entries: within the trivial bound, and monotone — one more rod never loads
    less (a table-wide check that needs no solver)."""
    counts = np.array([c.counts for c in shipped.cargos])
    volumes = np.array([c.volume for c in shipped.cargos])
    capacities = np.array([t.capacity for t in SAMPLE_DECK])
    loaded = shipped.loaded.astype(int)
    assert (loaded <= np.minimum(volumes[:, None], capacities[None, :])).all()
    row = {tuple(c): i for i, c in enumerate(counts.tolist())}
    pairs = 0
    for i, c in enumerate(counts.tolist()):
        for n in range(5):
            bigger = tuple(c[:n] + [c[n] + 1] + c[n + 1 :])
            if bigger in row:
                assert (loaded[row[bigger]] >= loaded[i]).all()
                pairs += 1
    assert pairs > 2000


def test_small_build_matches_solving(
    small: OptimalTable, small_deck_solved: dict[Cargo, tuple[int, ...]]
) -> None:
    # small_deck_solved: every cargo solved (and validated) in every truck, directly.
    assert len(small_deck_solved) == len(small.cargos)
    for i, cargo in enumerate(small.cargos):
        for j in range(len(SMALL_DECK)):
            assert small.penalties[i, j] == small_deck_solved[cargo][j]


def test_build_reports_every_entry_optimal() -> None:
    report = build_table(SMALL_DECK[:1], workers=2)
    assert report.entries == report.optimal == report.solved == 900 and report.all_optimal


def test_save_load_round_trip_and_refusals(small: OptimalTable, tmp_path: Path) -> None:
    path = small.save(tmp_path / "t.npz")
    loaded = OptimalTable.load(path, deck=SMALL_DECK)
    assert loaded.deck == SMALL_DECK and np.array_equal(loaded.loaded, small.loaded)
    changed = (SMALL_DECK[0].with_height(2),) + SMALL_DECK[1:]
    assert deck_key(changed) != deck_key(SMALL_DECK)
    with pytest.raises(TableError, match="another deck"):
        OptimalTable.load(path, deck=changed)
    (tmp_path / "bad.npz").write_bytes(b"not a table")
    with pytest.raises(TableError, match="bad.npz"):
        OptimalTable.load(tmp_path / "bad.npz")


def test_user_folder_tables_are_found_by_deck(
    small: OptimalTable, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PACKING_TABLE_DIR", str(tmp_path))
    forget_tables()  # what earlier tests found is not this folder's
    try:
        assert find_table(SMALL_DECK) is None
        forget_tables()
        small.save(tmp_path / table_filename(SMALL_DECK))
        found = find_table(list(SMALL_DECK))
        assert found is not None and np.array_equal(found.loaded, small.loaded)
        assert find_table((SMALL_DECK[0].with_height(2),) + SMALL_DECK[1:]) is None
    finally:
        forget_tables()  # nothing found in this test's folder outlives it


class CountingExecutor(ThreadPoolExecutor):
    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.cargos_submitted = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.cargos_submitted += len(args[1])
        return super().submit(fn, *args, **kwargs)


def test_interrupted_build_resumes_without_losing_work(small: OptimalTable, tmp_path: Path) -> None:
    checkpoint = tmp_path / "build.partial.npz"
    calls = []

    def interrupt_after_three(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_table(
            SMALL_DECK, checkpoint=checkpoint, progress=interrupt_after_three, chunk_size=100
        )
    assert checkpoint.exists()
    saved = calls[-1]
    assert 0 < saved < 2700

    with CountingExecutor() as pool:
        report = build_table(SMALL_DECK, executor=pool, checkpoint=checkpoint)
        assert pool.cargos_submitted == 2700 - saved == report.solved
    assert np.array_equal(report.table.loaded, small.loaded)
    assert report.all_optimal and not checkpoint.exists()


def test_a_checkpoint_is_not_loaded_as_a_table(tmp_path: Path) -> None:
    checkpoint = tmp_path / "c.partial.npz"

    def stop(done: int, total: int) -> None:
        if done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_table(SMALL_DECK, checkpoint=checkpoint, progress=stop)
    with pytest.raises(TableError, match="unfinished"):
        OptimalTable.load(checkpoint)
    with pytest.raises(CheckpointMismatch, match="another deck"):
        build_table(SMALL_DECK[:2], checkpoint=checkpoint)


@settings(max_examples=25)
@given(rolls())
def test_queries_agree_with_and_without_the_table(cargo: Cargo) -> None:
    assert rank_trucks(cargo, SAMPLE_DECK) == rank_trucks(cargo, SAMPLE_DECK, use_table=False)
    assert expected_penalty(cargo, SAMPLE_DECK) == expected_penalty(
        cargo, SAMPLE_DECK, use_table=False
    )
    with_table = best_truck(cargo, SAMPLE_DECK, top=3)
    without = best_truck(cargo, SAMPLE_DECK, top=3, use_table=False)
    assert [(p.truck, p.penalty) for p in with_table] == [(p.truck, p.penalty) for p in without]
    for plan in with_table:
        verify(plan)


def test_cargo_that_no_roll_gives_is_solved_instead(shipped: OptimalTable) -> None:
    cargo = Cargo({5: 9})
    assert shipped.rank(cargo) is None
    with pytest.raises(TableError, match="not a roll"):
        shipped.penalty(cargo, 0)
    assert rank_trucks(cargo, SAMPLE_DECK) == rank_trucks(cargo, SAMPLE_DECK, use_table=False)
    assert len(roll_counts()) == 900


def test_a_part_of_a_deck_is_read_from_the_decks_table() -> None:
    """The trucks a grab asks about (some revealed, the pile) are part of the sample deck: their
    table is cut from the deck's, and every entry is what a fresh, verified solve gives."""
    part = (SAMPLE_DECK[17], SAMPLE_DECK[2], SAMPLE_DECK[29])
    table = table_holding(part)
    assert table is not None and table.deck == part
    for cargo in (Cargo.from_roll([3, 2, 3, 0, 1]), Cargo.from_roll([1, 0, 1, 0, 2])):
        for j, truck in enumerate(part):
            assert table.penalty(cargo, j) == verify(solve(cargo, truck)).penalty
    other = Truck.parse("#####/#####/#####/#####", height=4, name="V1")  # in no table
    assert table_holding((SAMPLE_DECK[0], other)) is None
    assert table_holding((SAMPLE_DECK[0], SAMPLE_DECK[0])) is None
