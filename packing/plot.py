"""Pictures of Pack & Stack as PNG or PDF files: a load plan, and a deck's optimal table as charts.

A plan has one drawing, :func:`packing.svg.draw_plan`'s: an ``.svg`` is written by
:mod:`packing.svg` itself, and a PNG or a PDF is the same drawing made by matplotlib, element
for element (a page drawing SVG's calls with SVG's meaning), so the two never disagree and a
plan's picture has one place to change.

Needs matplotlib, the ``plot`` extra (``pip install 'tabletop-solvers[plot]'``). Nothing else in
:mod:`packing` imports this module, so the solver itself never needs matplotlib.

Figures are built from :class:`matplotlib.figure.Figure` directly, never through ``pyplot``:
there is then no global figure registry to leak into or close, no GUI backend is ever chosen,
and drawing is safe from scripts, servers, threads and tests alike. Every function creates the
parent folders of its path, writes the picture in the format its suffix names (``.png``,
``.svg`` or ``.pdf``; :class:`PlotError` otherwise, or when the path cannot be written) and
returns the path.

The numbers the deck pictures show are computed in :mod:`packing.stats` (importable without
matplotlib), never here: :func:`~packing.stats.expected_penalty_by_volume`,
:func:`~packing.stats.volume_odds` and :func:`~packing.stats.penalty_summaries`.

Usage (the CLI's ``packing plot plan`` and ``packing plot deck`` call the same functions)::

    from packing import Cargo, Truck, SAMPLE_DECK, solve
    from packing.table import find_table
    from packing.plot import plot_deck, plot_plan

    truck = Truck.parse("#####/###../#####", height=3, name="T07")
    plot_plan(solve(Cargo.from_roll([3, 2, 3, 0, 1]), truck), "plan.png")
    plot_deck(find_table(SAMPLE_DECK), "pictures/")
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, cast

from arena.extras import MissingExtraError

try:
    from matplotlib.colors import PowerNorm
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Patch, Polygon, Rectangle
except ImportError as error:  # pragma: no cover - depends on the environment
    raise MissingExtraError("matplotlib", "plot") from error

import numpy as np

from arena.svg import Point
from packing.errors import PackingError
from packing.model import LoadPlan, Truck
from packing.odds import ROLLS
from packing.stats import PenaltySummary, expected_penalty_by_volume, penalty_summaries, volume_odds
from packing.svg import LENGTH_COLORS, draw_plan, write_plan_svg
from packing.table import OptimalTable

__all__ = [
    "FORMATS",
    "LENGTH_COLORS",
    "PlotError",
    "deck_heatmap_figure",
    "penalty_distributions_figure",
    "plot_deck",
    "plot_deck_heatmap",
    "plot_penalty_distributions",
    "plan_figure",
    "plot_plan",
]

_CAP = "#c0392b"
_BEST = "#1b4f9c"
_DPI = 150


# --- the load plan: packing.svg's drawing, on a matplotlib figure ------------------------------


def plot_plan(plan: LoadPlan, path: str | os.PathLike[str], *, title: str | None = None) -> Path:
    """Draw ``plan`` and save the picture at ``path``.

    The suffix of ``path`` sets the format: ``.png``, ``.svg`` or ``.pdf`` (any other raises
    :class:`PlotError`). Every format is the one drawing of a plan, :func:`packing.svg.plan_svg`'s
    (what a plan shows in Jupyter): the truck in an isometric view, each rod outlined as one
    piece in its length's colour, the height cap dashed in red, every level seen from above, the
    score and a legend. An ``.svg`` is that SVG itself; a PNG or a PDF is the same drawing made
    by matplotlib (:func:`plan_figure`).
    """
    if Path(path).suffix.lower() == ".svg":
        try:
            return write_plan_svg(plan, path, title=title)
        except PackingError as error:
            raise PlotError(str(error)) from None
    return _save(plan_figure(plan, title=title), path)


def plan_figure(plan: LoadPlan, *, title: str | None = None) -> Figure:
    """The figure :func:`plot_plan` saves as a PNG or a PDF, to draw on or save in another way:
    :func:`packing.svg.draw_plan` on a matplotlib page, element for element the SVG picture."""
    return draw_plan(plan, _FigurePage, title=title).figure


#: One user unit of a page is one pixel at this resolution (a figure's size in inches is its
#: size in units over this); line widths and font sizes are converted to points with it.
_PAGE_DPI = 100.0
_POINTS_PER_UNIT = 72.0 / _PAGE_DPI
_ANCHORS = {"start": "left", "middle": "center", "end": "right"}


class _FigurePage:
    """An :class:`arena.svg.Page` drawing on a matplotlib figure, with SVG's meaning of each
    call and attribute (a fill of black and no stroke unless said, a group's attributes
    inherited, later elements on top), so the figure is the SVG picture."""

    def __init__(self, width: float, height: float, heading: str) -> None:
        self.width = width
        self.height = height
        self.figure = Figure(figsize=(width / _PAGE_DPI, height / _PAGE_DPI), dpi=_PAGE_DPI)
        self.axes = self.figure.add_axes((0.0, 0.0, 1.0, 1.0))
        self.axes.set_xlim(0.0, width)
        self.axes.set_ylim(height, 0.0)  # y grows downwards, as in SVG
        self.axes.set_axis_off()
        self._inherited: list[dict[str, object]] = [{}]
        self._order = 0

    def _style(self, attributes: dict[str, object]) -> dict[str, object]:
        self._order += 1
        given = {name: value for name, value in attributes.items() if value is not None}
        return {**self._inherited[-1], **given}

    @contextmanager
    def group(self, **attributes: object) -> Iterator[None]:
        self._inherited.append(self._style(attributes))
        try:
            yield
        finally:
            self._inherited.pop()

    def element(self, tag: str, content: str | None = None, /, **attributes: object) -> None:
        """A title or other element that draws nothing."""

    def _lines(self, style: dict[str, object]) -> dict[str, Any]:
        stroke = str(style.get("stroke", "none"))
        width = float(cast(float, style.get("stroke_width", 1.0)))
        lines: dict[str, Any] = {
            "edgecolor": stroke if stroke != "none" else "none",
            "linewidth": width * _POINTS_PER_UNIT if stroke != "none" else 0.0,
            "zorder": self._order,
            "capstyle": "round" if style.get("stroke_linecap") == "round" else "butt",
        }
        dashes = style.get("stroke_dasharray")
        if dashes:  # matplotlib scales a dash pattern by the line width
            lines["linestyle"] = (0, tuple(float(d) / width for d in str(dashes).split()))
        return lines

    def _shape(self, patch: Any, attributes: dict[str, object]) -> None:
        style = self._style(attributes)
        fill = str(style.get("fill", "#000000"))
        patch.set(facecolor="none" if fill == "none" else fill, **self._lines(style))
        self.axes.add_patch(patch)

    def rect(self, x: float, y: float, width: float, height: float, **attributes: object) -> None:
        self._shape(Rectangle((x, y), width, height), attributes)

    def polygon(self, points: Iterable[Point], **attributes: object) -> None:
        self._shape(Polygon(list(points), closed=True), attributes)

    def polyline(self, points: Iterable[Point], **attributes: object) -> None:
        attributes.setdefault("fill", "none")
        self._shape(Polygon(list(points), closed=False), attributes)

    def line(self, a: Point, b: Point, **attributes: object) -> None:
        self._shape(Polygon([a, b], closed=False), {**attributes, "fill": "none"})

    def circle(self, x: float, y: float, r: float, **attributes: object) -> None:
        self._shape(Circle((x, y), r), attributes)

    def text(self, x: float, y: float, text: object, **attributes: object) -> None:
        style = self._style(attributes)
        self.axes.text(
            x,
            y,
            str(text),
            fontsize=float(cast(float, style.get("font_size", 16.0))) * _POINTS_PER_UNIT,
            fontweight=str(style.get("font_weight", "normal")),
            color=str(style.get("fill", "#000000")),
            ha=_ANCHORS[str(style.get("text_anchor", "start"))],
            va="baseline",
            zorder=self._order,
        )


# --- the deck's table -------------------------------------------------------------------------


def _truck_label(truck: Truck, number: int) -> str:
    name = truck.name or f"#{number + 1}"
    variant = "  variant" if truck.is_variant else ""
    return f"{name}  {truck}  h{truck.height}  cap {truck.capacity:2d}{variant}"


def plot_deck_heatmap(table: OptimalTable, path: str | os.PathLike[str]) -> Path:
    """Save :func:`deck_heatmap_figure` at ``path`` (its suffix sets the format)."""
    return _save(deck_heatmap_figure(table), path)


def deck_heatmap_figure(table: OptimalTable) -> Figure:
    """A heat map of expected optimal penalty: trucks (rows, by capacity) × load volume.

    Each cell is :func:`expected_penalty_by_volume`: what a truck costs on average, loaded as
    well as possible, for a load of that many cubes. The lowest cell of each column (the best
    truck for that volume) is outlined and labelled, and a bar chart above gives the odds of
    each volume, so the columns that matter in play stand out.
    """
    # One long function on purpose: a figure's layout is a straight sequence of matplotlib
    # calls on shared axes, and cutting it into pieces would only pass those axes around.
    grid = expected_penalty_by_volume(table)
    order = sorted(
        range(len(table.deck)), key=lambda j: (table.deck[j].capacity, table.deck[j].height, j)
    )
    grid = grid[order]
    trucks = [table.deck[j] for j in order]
    odds = volume_odds(table)

    fig = Figure(figsize=(15.0, max(5.0, 2.6 + 0.3 * len(trucks))), dpi=_DPI, layout="constrained")
    spec = fig.add_gridspec(
        2, 2, height_ratios=(1.0, max(3.0, 0.3 * len(trucks) / 1.1)), width_ratios=(1.0, 0.018)
    )
    ax = fig.add_subplot(spec[1, 0])
    top = fig.add_subplot(spec[0, 0], sharex=ax)
    bar_ax = fig.add_subplot(spec[1, 1])
    fig.add_subplot(spec[0, 1]).set_axis_off()

    finite = grid[np.isfinite(grid)]
    vmax = float(finite.max()) if finite.size else 1.0
    # A square-root scale: most decisions are about small penalties, which a linear scale
    # would squeeze into one colour next to the hopeless cells.
    norm = PowerNorm(gamma=0.5, vmin=0.0, vmax=max(vmax, 1.0))
    columns = np.arange(1, grid.shape[1] + 1)
    image = ax.imshow(
        np.ma.masked_invalid(grid),
        cmap="YlOrRd",
        norm=norm,
        aspect="auto",
        interpolation="nearest",
        extent=(0.5, grid.shape[1] + 0.5, len(trucks) - 0.5, -0.5),
    )
    color_bar = fig.colorbar(image, cax=bar_ax)
    color_bar.set_label("expected penalty of the best loading (points lost)")

    for column in range(grid.shape[1]):
        values = grid[:, column]
        if not np.isfinite(values).any():
            continue
        best = float(np.nanmin(values))
        for row in np.flatnonzero(np.isclose(values, best)):
            ax.add_patch(
                Rectangle(
                    (column + 0.5, row - 0.5),
                    1.0,
                    1.0,
                    fill=False,
                    edgecolor=_BEST,
                    linewidth=1.8,
                    zorder=3,
                )
            )
            ax.text(
                column + 1,
                float(row),
                _short(best),
                ha="center",
                va="center",
                fontsize=6.2,
                color=_BEST,
                fontweight="bold",
                zorder=4,
            )

    ax.set_yticks(
        range(len(trucks)),
        [_truck_label(t, order[i]) for i, t in enumerate(trucks)],
        family="monospace",
        fontsize=8,
    )
    ax.set_xticks(columns)
    ax.tick_params(axis="x", labelsize=8)
    ax.set_xlabel("load volume: cubes of cargo rolled")
    ax.set_ylabel("truck  (mask  height  capacity), by capacity")
    ax.set_xlim(0.5, grid.shape[1] + 0.5)
    top.legend(
        handles=[
            Patch(
                facecolor="none",
                edgecolor=_BEST,
                linewidth=1.8,
                label="outlined: best truck for that volume\n(with its expected penalty)",
            )
        ],
        loc="upper right",
        fontsize=8.5,
        frameon=False,
    )

    top.bar(columns, odds * 100, width=0.8, color="#7f8c9d")
    top.set_ylabel("odds of\nthis volume (%)", fontsize=8.5)
    top.tick_params(axis="x", labelbottom=False)
    top.tick_params(axis="y", labelsize=8)
    top.spines[["top", "right"]].set_visible(False)
    top.set_title(
        "Expected penalty by truck and load volume, loading as well as possible\n"
        f"each cell: mean over the rolls of that volume, weighted by their odds "
        f"(all {ROLLS:,} rolls of the five dice; {len(trucks)} trucks)",
        fontsize=11,
    )
    return fig


def plot_penalty_distributions(table: OptimalTable, path: str | os.PathLike[str]) -> Path:
    """Save :func:`penalty_distributions_figure` at ``path`` (its suffix sets the format)."""
    return _save(penalty_distributions_figure(table), path)


def penalty_distributions_figure(table: OptimalTable) -> Figure:
    """Each truck's penalty over all 7,776 rolls: one horizontal box per truck, best first.

    Boxes are weighted by the rolls' odds (:func:`penalty_summaries`): the box holds the
    middle half of the rolls, the whiskers 5 % to 95 %, small bars the extremes; a diamond
    marks the mean, written at the right with the chance of a perfect fit (penalty 0).
    """
    # One long function on purpose, as deck_heatmap_figure: a straight sequence of drawing calls.
    summaries = sorted(
        zip(range(len(table.deck)), penalty_summaries(table)), key=lambda item: item[1].mean
    )
    count = len(summaries)
    fig = Figure(figsize=(12.0, max(4.5, 1.9 + 0.34 * count)), dpi=_DPI, layout="constrained")
    ax = fig.add_subplot()
    stats = [_box_stats(s) for _, s in summaries]
    positions = list(range(count))
    ax.bxp(
        stats,
        positions,
        orientation="horizontal",
        widths=0.62,
        patch_artist=True,
        showfliers=False,
        showmeans=False,
        manage_ticks=False,
        boxprops={"facecolor": "#a9c7e8", "edgecolor": "#2d4f73", "linewidth": 1.0},
        medianprops={"color": "#2d4f73", "linewidth": 2.0},
        whiskerprops={"color": "#2d4f73", "linewidth": 1.0},
        capprops={"color": "#2d4f73", "linewidth": 1.0},
    )
    lows = [s.minimum for _, s in summaries]
    highs = [s.maximum for _, s in summaries]
    ax.scatter(lows + highs, positions + positions, marker="|", s=45, color="#7a7a7a", zorder=3)
    means = [s.mean for _, s in summaries]
    ax.scatter(means, positions, marker="D", s=30, color=_CAP, zorder=4)

    right = max(highs) if highs else 1
    column = ax.get_yaxis_transform()  # x in axes fraction, y in data: a column at the right
    ax.text(
        1.01,
        1.003,
        f"{'mean':>6}  {'P(0)':>6}",
        transform=ax.transAxes,
        va="bottom",
        fontsize=8,
        family="monospace",
        fontweight="bold",
    )
    for position, (_, summary) in zip(positions, summaries):
        ax.text(
            1.01,
            position,
            f"{summary.mean:6.1f}  {_percent(summary.perfect)}",
            transform=column,
            va="center",
            fontsize=8,
            family="monospace",
        )
    ax.set_yticks(
        positions,
        [_truck_label(table.deck[j], j) for j, _ in summaries],
        family="monospace",
        fontsize=8,
    )
    ax.set_ylim(count - 0.5, -0.5)
    ax.set_xlim(-0.5, right + 1)
    ax.set_xlabel(
        "penalty of the best loading (points lost: 1 per empty cube, 2 per cube left over)"
    )
    ax.set_ylabel("truck  (mask  height  capacity), lowest mean first")
    ax.grid(axis="x", color="#e3e3e3", linewidth=0.8)
    ax.set_axisbelow(True)
    fig.suptitle(
        f"Penalty of each truck over all {ROLLS:,} rolls of the dice, "
        "each roll loaded as well as possible\n"
        "P(0): chance of a perfect fit (penalty 0)",
        fontsize=11,
    )
    fig.legend(
        handles=[
            Patch(facecolor="#a9c7e8", edgecolor="#2d4f73", label="middle half of rolls (25–75 %)"),
            Line2D([], [], color="#2d4f73", linewidth=2.0, label="median"),
            Line2D([], [], color="#2d4f73", linewidth=1.0, label="whiskers: 5 % – 95 %"),
            Line2D(
                [],
                [],
                color="#7a7a7a",
                marker="|",
                linestyle="none",
                markersize=8,
                label="best and worst roll",
            ),
            Line2D([], [], color=_CAP, marker="D", linestyle="none", markersize=5, label="mean"),
        ],
        loc="outside lower center",
        ncol=5,
        fontsize=8,
        frameon=False,
    )
    return fig


def _short(value: float) -> str:
    """A cell label of at most three characters: ``0``, ``0.2``, ``5``, ``12``."""
    text = f"{value:.0f}" if value >= 9.95 else f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _percent(share: float) -> str:
    """A probability as a six-character percentage, the same format for every truck; a
    possible event never shows as 0.0 %."""
    if 0 < share < 0.0005:
        return " <0.1%"
    return f"{share:6.1%}"


def _box_stats(summary: PenaltySummary) -> dict[str, Any]:
    """The statistics ``Axes.bxp`` draws, computed from the weighted distribution."""
    return {
        "med": summary.quantile(0.5),
        "q1": summary.quantile(0.25),
        "q3": summary.quantile(0.75),
        "whislo": summary.quantile(0.05),
        "whishi": summary.quantile(0.95),
        "mean": summary.mean,
        "fliers": [],
    }


def plot_deck(table: OptimalTable, folder: str | os.PathLike[str]) -> list[Path]:
    """Write both deck pictures into ``folder``: the heat map, then the distributions.

    The files are ``penalty-by-volume.png`` (:func:`plot_deck_heatmap`) and
    ``penalty-distributions.png`` (:func:`plot_penalty_distributions`).
    """
    base = Path(folder)
    return [
        plot_deck_heatmap(table, base / "penalty-by-volume.png"),
        plot_penalty_distributions(table, base / "penalty-distributions.png"),
    ]


class PlotError(PackingError):
    """A picture that cannot be written: an unknown format, a path that is not writable."""


#: The formats a picture can be saved in, by file suffix.
FORMATS: Final[dict[str, str]] = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def _save(fig: Figure, path: str | os.PathLike[str]) -> Path:
    out = Path(path)
    fmt = FORMATS.get(out.suffix.lower())
    if fmt is None:
        raise PlotError(
            f"cannot tell the picture format of {os.fspath(path)!r}: end the name in "
            f"{', '.join(FORMATS)}"
        )
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(out, format=fmt, dpi=_DPI, facecolor="white")
    except OSError as error:
        raise PlotError(f"cannot write {os.fspath(path)!r}: {error.strerror or error}") from None
    return out
