"""The numbers behind the deck pictures (``packing.stats``, no matplotlib needed), checked
against hand computations and exact fractions over all rolls."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from packing import Cargo, Truck, roll_counts
from packing.errors import PackingError
from packing.stats import (
    PenaltySummary,
    expected_penalty_by_volume,
    penalty_summaries,
    truck_stats,
    volume_odds,
    weighted_distribution,
)
from packing.table import OptimalTable
from tests.decks import SPLIT_DECK

# SPLIT ("#.#", height 1) makes the volume-3 cargos differ, which the hand computation below
# relies on (see tests.decks).
DECK = SPLIT_DECK
SPLIT = DECK[0]


@pytest.fixture(scope="module")
def table(split_deck_table: OptimalTable) -> OptimalTable:
    return split_deck_table


def test_expected_penalty_by_volume_by_hand(table: OptimalTable) -> None:
    grid = expected_penalty_by_volume(table)
    assert grid.shape == (3, 40)
    # Volume 1: only the cargo of one cube (8 rolls); on "#.#" it leaves 1 empty cube.
    assert grid[0, 0] == 1.0
    # Volume 3: three cubes (4 rolls) load 2 of 3 → 0 empty + 2 × 1 left over = 2; a cube
    # and a length-2 rod (8 rolls) load only the cube → 1 empty + 2 × 2 left over = 5.
    # Weighted: (4 × 2 + 8 × 5) / 12 = 4.
    assert table.penalty(Cargo((3, 0, 0, 0, 0)), 0) == 2
    assert table.penalty(Cargo((1, 1, 0, 0, 0)), 0) == 5
    assert grid[0, 2] == pytest.approx(4.0)


def test_expected_penalty_by_volume_matches_fractions(table: OptimalTable) -> None:
    """Every cell against an independent exact computation from the odds."""
    grid = expected_penalty_by_volume(table)
    for truck in range(len(DECK)):
        totals: dict[int, Fraction] = {}
        weights: dict[int, int] = {}
        for cargo, rolls in roll_counts().items():
            totals[cargo.volume] = totals.get(cargo.volume, Fraction(0)) + rolls * table.penalty(
                cargo, truck
            )
            weights[cargo.volume] = weights.get(cargo.volume, 0) + rolls
        # Every load volume 1..40 occurs on some roll, so no cell is NaN.
        assert sorted(weights) == list(range(1, 41))
        for volume, total in totals.items():
            assert grid[truck, volume - 1] == pytest.approx(float(total / weights[volume]))


def test_expected_penalty_by_volume_loading_nothing() -> None:
    """A table that loads nothing costs 2 empty + 2 × volume in every column."""
    truck = Truck.parse("##", height=1)
    grid = expected_penalty_by_volume(OptimalTable((truck,), np.zeros((900, 1), dtype=np.uint8)))
    assert np.allclose(grid[0], [2 + 2 * v for v in range(1, 41)])


def test_expected_penalty_by_volume_is_nan_without_rolls(monkeypatch: pytest.MonkeyPatch) -> None:
    """A volume no roll gives is NaN (unknown), never 0 (which would read as a perfect fit)."""
    odds = {c: (0 if c.volume == 7 else n) for c, n in roll_counts().items()}
    monkeypatch.setattr("packing.table.optimal.roll_counts", lambda: odds)
    table = OptimalTable((SPLIT,), np.zeros((900, 1), dtype=np.uint8))
    grid = expected_penalty_by_volume(table)
    assert np.isnan(grid[0, 6])
    assert not np.isnan(np.delete(grid[0], 6)).any()


def test_roll_weights_follow_table_rows(table: OptimalTable) -> None:
    weights = table.roll_weights()
    counts = roll_counts()
    assert int(weights.sum()) == 7776
    assert [int(w) for w in weights] == [counts[c] for c in table.cargos]


def test_penalty_summaries(table: OptimalTable) -> None:
    summaries = penalty_summaries(table)
    assert [s.truck for s in summaries] == list(DECK)
    for j, summary in enumerate(summaries):
        assert summary.rolls == 7776
        exact = sum(
            (rolls * table.penalty(cargo, j) for cargo, rolls in roll_counts().items()), Fraction(0)
        )
        assert summary.mean == pytest.approx(float(exact / 7776))
        quartiles = [summary.quantile(q) for q in (0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0)]
        assert quartiles == sorted(quartiles)
        assert quartiles[0] == summary.minimum and quartiles[-1] == summary.maximum
    # "#.#": the cheapest rolls are the two-cube cargo (2,0,0,0,0), which fills it exactly.
    assert summaries[0].minimum == 0
    assert summaries[0].distribution[0] == roll_counts()[Cargo((2, 0, 0, 0, 0))]


def test_quantile_by_hand() -> None:
    summary = PenaltySummary(SPLIT, {0: 1, 2: 2, 5: 1}, mean=2.25)
    assert [summary.quantile(q) for q in (0.0, 0.25, 0.26, 0.5, 0.75, 0.76, 1.0)] == [
        0,
        0,
        2,
        2,
        2,
        5,
        5,
    ]
    assert summary.perfect == 0.25
    with pytest.raises(PackingError, match="quantile"):
        summary.quantile(1.5)


def test_weighted_distribution_by_hand() -> None:
    assert weighted_distribution([2, 1, 2, 7], [3, 1, 1, 0]) == {1: 1, 2: 4}
    assert weighted_distribution([], []) == {}
    with pytest.raises(PackingError, match="one weight per value"):
        weighted_distribution([1, 2], [1])


def test_pictures_and_stats_share_one_distribution(table: OptimalTable) -> None:
    """The picture's summaries and the CLI's truck stats are the same distribution."""
    for summary, stats in zip(penalty_summaries(table), truck_stats(table)):
        assert {
            p: Fraction(n, 7776) for p, n in summary.distribution.items()
        } == stats.penalty_distribution
        assert summary.mean == pytest.approx(float(stats.expected_penalty))
        assert summary.distribution.get(0, 0) == stats.perfect_rolls


def test_volume_odds_match_the_dice(table: OptimalTable) -> None:
    odds = volume_odds(table)
    exact: dict[int, int] = {}
    for cargo, rolls in roll_counts().items():
        exact[cargo.volume] = exact.get(cargo.volume, 0) + rolls
    assert [round(p * 7776) for p in odds] == [exact.get(v, 0) for v in range(1, 41)]


def test_the_tables_own_figures_agree_with_the_rolls_summed_here(table: OptimalTable) -> None:
    counts = roll_counts()
    for j in range(len(table.deck)):
        column = [(table.penalty(cargo, j), rolls) for cargo, rolls in counts.items()]
        distribution: dict[int, int] = {}
        for penalty, rolls in column:
            distribution[penalty] = distribution.get(penalty, 0) + rolls
        assert table.penalty_distributions()[j] == dict(sorted(distribution.items()))
        assert table.expected_penalties()[j] == Fraction(sum(p * n for p, n in column), 7776)
        best = sum(
            rolls
            for cargo, rolls in counts.items()
            if table.penalty(cargo, j) == min(table.penalty(cargo, k) for k in range(len(DECK)))
        )
        assert table.p_best()[j] == Fraction(best, 7776)
    # Built once per table: the second call hands back the same tuple.
    assert table.penalty_distributions() is table.penalty_distributions()
