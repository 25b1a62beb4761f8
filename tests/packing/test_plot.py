"""The pictures: each function writes the picture its suffix names, and what it shows is checked.

A plan's PNG or PDF is :mod:`packing.svg`'s drawing made by matplotlib, element for element the
SVG (whose geometry test_svg.py checks); the deck pictures show the table's own numbers (which
test_distributions.py checks against the rolls)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import matplotlib.image
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from packing import Cargo, LoadPlan, Truck, solve, verify
from packing.plot import (
    LENGTH_COLORS,
    PlotError,
    deck_heatmap_figure,
    penalty_distributions_figure,
    plan_figure,
    plot_deck,
    plot_deck_heatmap,
    plot_penalty_distributions,
    plot_plan,
)
from packing.stats import expected_penalty_by_volume, penalty_summaries, volume_odds
from packing.svg import plan_svg
from packing.table import OptimalTable
from tests.decks import SPLIT_DECK

DECK = SPLIT_DECK
SVG = "{http://www.w3.org/2000/svg}"
CAP_RED = "#c0392b"


@pytest.fixture(scope="module")
def table(split_deck_table: OptimalTable) -> OptimalTable:
    return split_deck_table


@pytest.fixture(scope="module")
def plan() -> LoadPlan:
    truck = Truck.parse("#####/###../#####", height=3, name="T07")
    return verify(solve(Cargo.from_roll([3, 2, 3, 0, 1]), truck))


def read_png(path: Path) -> np.ndarray:
    """The picture as RGB pixels in 0..1; fails unless it is a real PNG of a sensible size."""
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = np.asarray(matplotlib.image.imread(path))
    height, width, channels = pixels.shape
    assert 300 <= height <= 4000 and 300 <= width <= 4000
    assert channels in (3, 4)
    return pixels[..., :3]


def share_of(pixels: np.ndarray, color: str) -> float:
    """The share of the pixels within a small distance of ``color`` (``#rrggbb``)."""
    rgb = np.array([int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return float((np.abs(pixels - rgb).max(axis=-1) < 0.02).mean())


def texts(figure: Figure) -> list[str]:
    return [text.get_text() for axes in figure.axes for text in axes.texts]


def drawn(figure: Figure) -> list[Any]:
    """Everything on the figure's axes with its place in the drawing order."""
    axes = figure.axes[0]
    return sorted([*axes.patches, *axes.texts], key=lambda artist: artist.get_zorder())


# --- a plan: the SVG's drawing, made by matplotlib ---------------------------------------------


def test_a_plan_png_shows_each_loaded_length_in_its_colour_and_the_cap(
    plan: LoadPlan, tmp_path: Path
) -> None:
    path = plot_plan(plan, tmp_path / "new" / "folder" / "plan.png")
    assert path == tmp_path / "new" / "folder" / "plan.png"
    pixels = read_png(path)
    assert pixels.shape[1] > pixels.shape[0]  # landscape: the truck beside its level maps
    loaded = {placement.length for placement in plan.placements}
    assert loaded == {1, 2, 3, 5}
    for length, color in LENGTH_COLORS.items():
        if length in loaded:
            assert share_of(pixels, color) > 0.002, length
        else:
            assert share_of(pixels, color) == 0.0, length  # no blue: no rod of 4 was loaded
    assert share_of(pixels, CAP_RED) > 0.0005


def test_the_figure_is_the_svg_element_for_element(plan: LoadPlan) -> None:
    root = ET.fromstring(plan_svg(plan, title="my truck"))
    figure = plan_figure(plan, title="my truck")
    svg_texts = ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]
    assert texts(figure) == svg_texts and svg_texts[0] == "my truck"
    shapes = sum(
        1
        for node in root.iter()
        if node.tag in {f"{SVG}{tag}" for tag in ("rect", "polygon", "polyline", "line", "circle")}
    )
    assert len(figure.axes[0].patches) == shapes
    # Later elements on top, as in SVG: the drawing order is the document's.
    order = [artist.get_zorder() for artist in drawn(figure)]
    assert order == sorted(set(order))
    # A page unit is a pixel at 100 dpi: the figure has the SVG's size.
    width, height = (float(root.get(side) or 0) for side in ("width", "height"))
    assert tuple(figure.get_size_inches() * 100) == pytest.approx((width, height))


def test_attributes_mean_what_they_mean_in_svg(plan: LoadPlan) -> None:
    figure = plan_figure(plan)
    patches = figure.axes[0].patches
    background = patches[0]
    assert isinstance(background, Rectangle) and background.get_facecolor()[:3] == (1, 1, 1)
    # The cap's group: red, dashed, 1.5 units wide, inherited by each of its lines.
    caps = [
        p
        for p in patches
        if p.get_edgecolor()[:3] == pytest.approx((0.753, 0.224, 0.169), abs=0.01)
    ]
    assert len(caps) >= 4  # the rim and three posts (and the legend's sample)
    # 1.5 units are 1.08 points; dashes of 5 and 3 units, in line widths (matplotlib's scale).
    dashed = (0, (5 / 1.5, 3 / 1.5))
    assert all(
        p.get_linestyle() == dashed and p.get_linewidth() == pytest.approx(1.08) for p in caps
    )
    assert all(tuple(p.get_facecolor())[3] == 0 for p in caps)  # a polyline is not filled
    heading = figure.axes[0].texts[0]
    assert heading.get_fontweight() == "bold" and heading.get_horizontalalignment() == "left"


@pytest.mark.parametrize(
    ("cargo", "mask", "height"),
    [
        (Cargo({5: 1}), "####/####/####", 4),  # nothing fits: an empty truck, all left over
        (Cargo({4: 1}), "#", 4),  # one cell, one rod standing upright to the cap
        (Cargo((5, 4, 3, 2, 2)), ".###./.#.#./.###.", 4),  # a ring around a pre-filled hole
    ],
)
def test_odd_trucks_draw_as_their_svg(cargo: Cargo, mask: str, height: int) -> None:
    plan = verify(solve(cargo, Truck.parse(mask, height=height)))
    root = ET.fromstring(plan_svg(plan))
    assert texts(plan_figure(plan)) == ["".join(n.itertext()) for n in root.iter(f"{SVG}text")]


def test_a_large_truck_keeps_every_text_inside_the_picture() -> None:
    truck = Truck.parse("/".join(["#" * 10] * 6), height=6, name="BIG")
    figure = plan_figure(verify(solve(Cargo((6, 4, 5, 3, 5)), truck)))
    canvas: Any = FigureCanvasAgg(figure)  # matplotlib leaves these untyped
    canvas.draw()
    renderer = canvas.get_renderer()
    box = figure.bbox
    for text in figure.axes[0].texts:
        extent = text.get_window_extent(renderer)
        assert box.x0 <= extent.x0 and extent.x1 <= box.x1 + 1, text.get_text()
        assert box.y0 <= extent.y0 and extent.y1 <= box.y1 + 1, text.get_text()
    assert sum(t.get_text().startswith("level ") for t in figure.axes[0].texts) == 6


@pytest.mark.parametrize(
    ("suffix", "magic"),
    [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF"), (".PNG", b"\x89PNG")],
)
def test_the_suffix_sets_the_format(
    plan: LoadPlan, tmp_path: Path, suffix: str, magic: bytes
) -> None:
    path = plot_plan(plan, str(tmp_path / f"plan{suffix}"))
    assert isinstance(path, Path) and path.read_bytes().startswith(magic)


@pytest.mark.parametrize("name", ["plan.jpg", "plan", "plan.png.txt"])
def test_an_unknown_suffix_is_refused(plan: LoadPlan, tmp_path: Path, name: str) -> None:
    with pytest.raises(PlotError, match=repr(str(tmp_path / name))):
        plot_plan(plan, tmp_path / name)
    assert not (tmp_path / name).exists()


def test_a_path_under_a_file_is_a_plot_error(plan: LoadPlan, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(PlotError, match="cannot write"):
        plot_plan(plan, tmp_path / "file" / "plan.png")


# --- the deck pictures ------------------------------------------------------------------------


def test_the_heat_map_shows_the_trucks_by_capacity_and_each_volumes_best(
    table: OptimalTable,
) -> None:
    figure = deck_heatmap_figure(table)
    grid_axes, top = figure.axes[0], figure.axes[1]
    order = sorted(
        range(len(table.deck)), key=lambda j: (table.deck[j].capacity, table.deck[j].height, j)
    )
    labels = [label.get_text() for label in grid_axes.get_yticklabels()]
    assert [label.split()[0] for label in labels] == [table.deck[j].name for j in order]
    grid = expected_penalty_by_volume(table)[order]
    # Each volume's best truck is written in its cell: the column's least expected penalty.
    written = {round(text.get_position()[0]): float(text.get_text()) for text in grid_axes.texts}
    for column in range(grid.shape[1]):
        values = grid[:, column]
        if np.isfinite(values).any():
            best = float(np.nanmin(values))
            assert written[column + 1] == pytest.approx(best, abs=0.05 if best < 9.95 else 0.5)
        else:
            assert column + 1 not in written
    # The bars above: each volume's odds, in per cent.
    heights = [bar.get_height() for bar in top.patches if isinstance(bar, Rectangle)]
    assert heights == pytest.approx(list(volume_odds(table) * 100))


def test_the_distributions_list_the_trucks_best_mean_first_with_their_numbers(
    table: OptimalTable,
) -> None:
    figure = penalty_distributions_figure(table)
    axes = figure.axes[0]
    summaries = sorted(penalty_summaries(table), key=lambda s: s.mean)
    labels = [label.get_text().split()[0] for label in axes.get_yticklabels()]
    assert labels == [s.truck.name for s in summaries]
    column = [t.get_text() for t in axes.texts]
    assert column[0].split() == ["mean", "P(0)"]
    for line, summary in zip(column[1:], summaries, strict=True):
        mean, perfect = line.split(maxsplit=1)
        assert float(mean) == pytest.approx(summary.mean, abs=0.05)
        # One format for every share: a possible perfect fit never reads 0.0 %.
        assert re.fullmatch(r"( <0\.1|\s*\d{1,3}\.\d)%", perfect), perfect
        if perfect.strip() != "<0.1%":
            assert float(perfect.strip(" %")) == pytest.approx(summary.perfect * 100, abs=0.05)
        else:
            assert 0 < summary.perfect < 0.0005


def test_the_deck_pictures_are_written_where_asked(table: OptimalTable, tmp_path: Path) -> None:
    assert (
        plot_deck_heatmap(table, tmp_path / "deck" / "heat.png") == tmp_path / "deck" / "heat.png"
    )
    assert plot_penalty_distributions(table, tmp_path / "dist.pdf").read_bytes()[:4] == b"%PDF"
    paths = plot_deck(table, tmp_path / "pictures")
    assert [p.name for p in paths] == ["penalty-by-volume.png", "penalty-distributions.png"]
    for path in paths:
        assert path.parent == tmp_path / "pictures"
        assert share_of(read_png(path), "#ffffff") > 0.3  # a white page with something on it
        assert share_of(read_png(path), "#ffffff") < 0.99
