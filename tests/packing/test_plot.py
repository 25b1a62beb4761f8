"""The pictures: each function writes a PNG matplotlib can read back, and the numbers the deck
pictures are built from match hand computations."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest

from packing import Cargo, LoadPlan, Truck, roll_counts, solve, verify
from packing.plot import (
    PenaltySummary,
    expected_penalty_by_volume,
    penalty_summaries,
    plot_deck,
    plot_deck_heatmap,
    plot_penalty_distributions,
    plot_plan,
    roll_weights,
)
from packing.table import OptimalTable, build_table

# "#.#" height 1 takes no length-2 rod (no run of 2, too low to stand one up): it makes the
# volume-3 cargos differ, which the hand computation below relies on.
SPLIT = Truck.parse("#.#", height=1, name="A")
DECK = (
    SPLIT,
    Truck.parse("#####/###../#####", height=3, name="B"),
    Truck.parse("###/###", height=2, name="C"),
)


@pytest.fixture(scope="module")
def table() -> OptimalTable:
    report = build_table(DECK, workers=1)
    assert report.all_optimal
    return report.table


@pytest.fixture(scope="module")
def plan() -> LoadPlan:
    truck = Truck.parse("#####/###../#####", height=3, name="T07")
    return verify(solve(Cargo.from_roll([3, 2, 3, 0, 1]), truck))


def read_png(path: Path) -> np.ndarray:
    """The picture as pixels; fails unless it is a real, non-blank PNG of a sensible size."""
    assert path.exists() and path.stat().st_size > 10_000
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = np.asarray(matplotlib.image.imread(path))
    height, width, channels = pixels.shape
    assert 500 <= height <= 4000 and 500 <= width <= 4000
    assert channels in (3, 4)
    assert float(pixels[..., :3].std()) > 0.05  # something is drawn, not a blank canvas
    return pixels


# --- the numbers ------------------------------------------------------------------------------


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
    table = OptimalTable((SPLIT,), np.zeros((900, 1), dtype=np.uint8))
    odds = {c: (0 if c.volume == 7 else n) for c, n in roll_counts().items()}
    monkeypatch.setattr("packing.plot.roll_counts", lambda: odds)
    grid = expected_penalty_by_volume(table)
    assert np.isnan(grid[0, 6])
    assert not np.isnan(np.delete(grid[0], 6)).any()


def test_roll_weights_follow_table_rows(table: OptimalTable) -> None:
    weights = roll_weights(table)
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
        0, 0, 2, 2, 2, 5, 5
    ]
    assert summary.perfect == 0.25
    with pytest.raises(ValueError, match="quantile"):
        summary.quantile(1.5)


# --- the pictures -----------------------------------------------------------------------------


def test_plot_plan_writes_png(plan: LoadPlan, tmp_path: Path) -> None:
    path = plot_plan(plan, tmp_path / "new" / "folder" / "plan.png")
    assert path == tmp_path / "new" / "folder" / "plan.png"
    height, width, _ = read_png(path).shape
    assert width > height  # landscape: the truck beside its legend and floor plan


def test_plot_plan_accepts_str_path_and_title(plan: LoadPlan, tmp_path: Path) -> None:
    path = plot_plan(plan, str(tmp_path / "titled.png"), title="my truck")
    assert isinstance(path, Path)
    read_png(path)


@pytest.mark.parametrize(
    ("cargo", "mask", "height"),
    [
        (Cargo({5: 1}), "####/####/####", 4),  # nothing fits: an empty truck, all left over
        (Cargo({4: 1}), "#", 4),  # one cell, one rod standing upright to the cap
        (Cargo((5, 4, 3, 2, 2)), ".###./.#.#./.###.", 4),  # a ring around a pre-filled hole
    ],
)
def test_plot_plan_odd_trucks(cargo: Cargo, mask: str, height: int, tmp_path: Path) -> None:
    plan = verify(solve(cargo, Truck.parse(mask, height=height)))
    read_png(plot_plan(plan, tmp_path / "odd.png"))


def test_plot_deck_heatmap(table: OptimalTable, tmp_path: Path) -> None:
    path = plot_deck_heatmap(table, tmp_path / "deck" / "heat.png")
    assert path == tmp_path / "deck" / "heat.png"
    read_png(path)


def test_plot_penalty_distributions(table: OptimalTable, tmp_path: Path) -> None:
    path = plot_penalty_distributions(table, tmp_path / "dist.png")
    read_png(path)


def test_plot_deck_writes_both(table: OptimalTable, tmp_path: Path) -> None:
    paths = plot_deck(table, tmp_path / "pictures")
    assert [p.name for p in paths] == ["penalty-by-volume.png", "penalty-distributions.png"]
    assert all(p.parent == tmp_path / "pictures" for p in paths)
    for path in paths:
        read_png(path)
