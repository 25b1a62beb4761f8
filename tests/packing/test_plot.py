"""The pictures: each function writes a PNG matplotlib can read back, and the numbers the deck
pictures are built from match hand computations."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest

from packing import Cargo, LoadPlan, Truck, roll_counts, solve, verify
from packing.plot import plot_deck, plot_deck_heatmap, plot_penalty_distributions, plot_plan
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
