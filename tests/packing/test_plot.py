"""The pictures: each function writes a picture matplotlib can read back, in the format its
suffix names; the plan picture outlines rods, keeps the height cap behind them, counts from 0
and stays legible for large trucks. (The numbers behind the deck pictures: test_distributions.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.image
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from packing import Cargo, LoadPlan, Placement, Truck, solve, verify
from packing.plot import (
    _SEAM,
    PlotError,
    _cap_walls,
    _percent,
    _rod_faces,
    plan_figure,
    plot_deck,
    plot_deck_heatmap,
    plot_penalty_distributions,
    plot_plan,
)
from packing.table import OptimalTable
from tests.decks import SPLIT_DECK

DECK = SPLIT_DECK


@pytest.fixture(scope="module")
def table(split_deck_table: OptimalTable) -> OptimalTable:
    return split_deck_table


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


# --- what the plan picture shows --------------------------------------------------------------


@pytest.mark.parametrize(
    ("suffix", "magic"),
    [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF"), (".PNG", b"\x89PNG")],
)
def test_the_suffix_sets_the_format(
    plan: LoadPlan, tmp_path: Path, suffix: str, magic: bytes
) -> None:
    path = plot_plan(plan, tmp_path / f"plan{suffix}")
    assert path.read_bytes().startswith(magic)


@pytest.mark.parametrize("name", ["plan.jpg", "plan", "plan.png.txt"])
def test_an_unknown_suffix_is_refused(plan: LoadPlan, tmp_path: Path, name: str) -> None:
    with pytest.raises(PlotError, match=repr(str(tmp_path / name))):
        plot_plan(plan, tmp_path / name)
    assert not (tmp_path / name).exists()


def test_a_path_under_a_file_is_a_plot_error(plan: LoadPlan, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(PlotError, match="cannot write"):
        plot_plan(plan, tmp_path / "file" / "plan.png")


def _length(segment: tuple[tuple[float, ...], tuple[float, ...]]) -> float:
    return float(np.linalg.norm(np.subtract(segment[1], segment[0])))


@pytest.mark.parametrize("text", ["3x@0,0,0", "4y@1,0,0", "2z@2,1,0", "1x@4,2,2", "5x@0,2,1"])
def test_each_rod_is_outlined_as_one_piece(text: str) -> None:
    """The outline of a rod's top face is the rectangle around the whole rod: no edge between
    two of its cubes (which made neighbouring rods of one length look like one block)."""
    truck = Truck.parse("#####/#####/#####", height=4)
    placement = Placement.parse(text)
    faces = _rod_faces(truck, placement)
    tops = [segments for quad, normal, segments in faces if normal == (0, 0, 1)]
    assert len(tops) == (1 if placement.axis == "z" else placement.length)
    size = {"x": (placement.length, 1), "y": (1, placement.length), "z": (1, 1)}[placement.axis]
    perimeter = 2 * sum(side - 2 * _SEAM for side in size)
    assert sum(_length(s) for segments in tops for s in segments) == pytest.approx(perimeter)
    # Every visible face of a rod touches its outline (a rod is at most one cube thick).
    assert all(segments for _, _, segments in faces)


def test_the_height_cap_stands_on_the_back_walls_only() -> None:
    """Back (row 0, drawn at y = rows) and left (column 0) walls lie behind every rod from the
    camera at the front right, so the cap's lines never cross the front of a rod."""
    truck = Truck.parse("#####/###../#####", height=3)
    for a, b in _cap_walls(truck):
        on_back = a[1] == b[1] == truck.rows
        on_left = a[0] == b[0] == 0
        assert on_back or on_left
        assert max(a[2], b[2]) == truck.height and min(a[2], b[2]) in (0, truck.height)


def test_coordinates_count_from_zero_as_in_the_text(plan: LoadPlan) -> None:
    fig = plan_figure(plan)
    ax3d: Any = fig.axes[0]
    inset = fig.axes[1]
    truck = plan.truck
    assert [t.get_text() for t in ax3d.get_xticklabels()] == [str(x) for x in range(truck.columns)]
    assert [t.get_text() for t in ax3d.get_yticklabels()] == [str(y) for y in range(truck.rows)]
    assert [t.get_text() for t in ax3d.get_zticklabels()] == [str(z) for z in range(truck.height)]
    assert [t.get_text() for t in inset.get_xticklabels()] == [str(x) for x in range(truck.columns)]
    assert "level 0" in plan.render()  # the text picture counts from 0 too


def test_a_large_truck_keeps_its_title_and_labels_apart() -> None:
    """6 × 10 at height 6: the title fits in the figure and no two inset labels overlap."""
    truck = Truck.parse("/".join(["#" * 10] * 6), height=6, name="BIG")
    big = verify(solve(Cargo((6, 4, 5, 3, 5)), truck))
    fig = plan_figure(big)
    canvas: Any = FigureCanvasAgg(fig)  # matplotlib leaves these two untyped
    canvas.draw()
    renderer = canvas.get_renderer()
    width = fig.bbox.width
    title = fig.texts[0].get_window_extent(renderer) if fig.texts else None
    suptitle = fig._suptitle  # type: ignore[attr-defined]
    assert suptitle is not None and "variant" in suptitle.get_text()
    extent = suptitle.get_window_extent(renderer)
    assert 0 <= extent.x0 and extent.x1 <= width
    assert title is not None and 0 <= title.x0 and title.x1 <= width
    inset = fig.axes[1]
    boxes = [t.get_window_extent(renderer) for t in inset.texts]
    assert len(boxes) == 60
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not a.overlaps(b)


def test_percentages_share_one_format() -> None:
    shown = [_percent(p) for p in (0.0, 0.0001, 0.046, 0.5, 1.0)]
    assert shown == ["  0.0%", " <0.1%", "  4.6%", " 50.0%", "100.0%"]
