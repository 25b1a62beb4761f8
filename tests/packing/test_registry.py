"""The table registry remembers within bounds: a process answering grabs and trainer questions
for ever (the web companion) stays the same size, and a registered table stays registered."""

from __future__ import annotations

import itertools
import random
import tracemalloc
from collections.abc import Iterator

import pytest

from packing import SAMPLE_DECK, Cargo
from packing.stats import grab_decision
from packing.table import OptimalTable, find_table, forget_tables, register, registry, table_holding


@pytest.fixture(autouse=True)
def fresh_registry() -> Iterator[None]:
    forget_tables()
    yield
    forget_tables()


def _decisions(rng: random.Random, count: int) -> None:
    """``count`` grab decisions of the trainer's kind: four revealed trucks of the sample deck,
    the rest its pile (a set of trucks not asked about before, nearly always)."""
    cargo = Cargo.from_roll([3, 2, 3, 0, 1])
    for _ in range(count):
        chosen = set(rng.sample(range(len(SAMPLE_DECK)), 4))
        revealed = [t for j, t in enumerate(SAMPLE_DECK) if j in chosen]
        pile = [t for j, t in enumerate(SAMPLE_DECK) if j not in chosen]
        grab_decision(cargo, revealed, pile)


def test_a_thousand_grab_decisions_keep_memory_flat() -> None:
    rng = random.Random(2024)
    _decisions(rng, 20)  # the sample deck's table read and the code's own first-use costs paid
    tracemalloc.start()
    try:
        _decisions(rng, 300)
        after_first, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        _decisions(rng, 700)
        after_last, peak_last = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Unbounded, each decision kept two slices (about 0.28 MB): 700 more were about 190 MB.
    assert after_last - after_first < 1_000_000
    assert peak_last - after_first < 2_000_000
    assert len(registry._parts) <= registry.PARTS_KEPT


def test_slices_are_reused_and_the_least_recently_used_forgotten() -> None:
    trucks = list(itertools.islice(itertools.combinations(SAMPLE_DECK, 2), registry.PARTS_KEPT + 1))
    first = table_holding(trucks[0])
    assert first is not None and table_holding(trucks[0]) is first
    for key in trucks[1:-1]:
        table_holding(key)
    table_holding(trucks[0])  # used again: now the most recently used
    table_holding(trucks[-1])  # one past the bound: the least recently used goes
    assert trucks[0] in registry._parts and trucks[1] not in registry._parts
    assert len(registry._parts) == registry.PARTS_KEPT


def test_lookups_are_bounded_and_registered_tables_stay() -> None:
    loaded = find_table(SAMPLE_DECK)
    assert loaded is not None
    three = tuple(SAMPLE_DECK[:3])
    mine = OptimalTable(three, loaded.loaded[:, :3])
    register(mine)
    unknown = list(
        itertools.islice(itertools.combinations(SAMPLE_DECK[3:], 2), 2 * registry.FOUND_KEPT)
    )
    for deck in unknown:  # decks without a table: each lookup remembered, within the bound
        assert find_table(deck) is None
    assert find_table(three) is mine
    assert sum(1 for deck in registry._known if deck != three) <= registry.FOUND_KEPT
    assert unknown[0] not in registry._known and unknown[-1] in registry._known
