"""Pictures of Pack & Stack: a load plan in 3D, and a deck's optimal table as charts.

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

import math
import os
from pathlib import Path
from typing import Any, Final

from arena.extras import MissingExtraError

try:
    from matplotlib.axes import Axes
    from matplotlib.colors import PowerNorm, to_rgb
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle
    from mpl_toolkits.mplot3d.art3d import (  # type: ignore[import-untyped]
        Line3DCollection,
        Poly3DCollection,
    )
except ImportError as error:  # pragma: no cover - depends on the environment
    raise MissingExtraError("matplotlib", "plot") from error

import numpy as np

from packing.errors import PackingError
from packing.model import LoadPlan, Placement, Truck
from packing.odds import ROLLS
from packing.rules import COLORS, LENGTHS
from packing.stats import PenaltySummary, expected_penalty_by_volume, penalty_summaries, volume_odds
from packing.svg import EDGE_COLORS, LENGTH_COLORS, write_plan_svg
from packing.table import OptimalTable

__all__ = [
    "FORMATS",
    "LENGTH_COLORS",
    "PlotError",
    "plot_deck",
    "plot_deck_heatmap",
    "plot_penalty_distributions",
    "plan_figure",
    "plot_plan",
]

# One palette for both drawings of a plan: the rods' colours are packing.svg's.
#: Edge colour per length: dark edges outline the light rods, light edges the black ones.
_EDGE_COLORS: Final[dict[int, str]] = EDGE_COLORS
_FLOOR = "#e9e4d6"
_BLOCKED = "#6b6b6b"
_CAP = "#c0392b"
_BEST = "#1b4f9c"
_DPI = 150

# Camera of the 3D picture: from the front right, above. Row 0 of the mask (the first text
# row) is at the back, so seen from above the floor reads like the mask text.
_ELEV = 34.0
_AZIM = -62.0
# Every rod is shrunk by this much on each outer side, leaving a thin seam between
# neighbouring rods: two rods of one length then never merge into one block.
_SEAM = 0.045

Quad = list[tuple[float, float, float]]


# --- the load plan in 3D ----------------------------------------------------------------------


def plot_plan(plan: LoadPlan, path: str | os.PathLike[str], *, title: str | None = None) -> Path:
    """Draw ``plan`` as a 3D picture of the loaded truck and save it at ``path``.

    The suffix of ``path`` sets the format: ``.png``, ``.svg`` or ``.pdf`` (any other raises
    :class:`PlotError`). One colour per rod length (the game's white, grey, orange, blue and
    black), each rod outlined as one piece with a thin seam around it, so neighbours of one
    length never merge; the floor grid with the cells outside the loading area dark and
    hatched; the height cap as dashed red lines along the back and left walls, behind every
    rod. Columns, rows and levels are counted from 0, as in the text picture. The title names
    the truck (``title`` replaces it) and the line below gives the score.

    An ``.svg`` is the library's own drawing (:func:`packing.svg.plan_svg`, what a plan shows
    in Jupyter), so a plan has one SVG picture, matplotlib or not.
    """
    if Path(path).suffix.lower() == ".svg":
        try:
            return write_plan_svg(plan, path, title=title)
        except PackingError as error:
            raise PlotError(str(error)) from None
    return _save(plan_figure(plan, title=title), path)


def plan_figure(plan: LoadPlan, *, title: str | None = None) -> Figure:
    """The figure :func:`plot_plan` saves, to draw on or save in another way."""
    truck = plan.truck
    fig = Figure(figsize=(9.0, 7.2), dpi=_DPI)
    ax: Any = fig.add_subplot(projection="3d", computed_zorder=False)
    fig.subplots_adjust(left=0.0, right=0.74, bottom=0.0, top=0.86)

    _draw_floor(ax, truck)
    _draw_cap_walls(ax, truck)
    _draw_rods(ax, plan)
    _frame_truck(ax, truck)

    heading = title if title is not None else _plan_heading(plan)
    fig.suptitle(
        heading, fontsize=13 if len(heading) <= 60 else 11, fontweight="bold", y=0.975, wrap=True
    )
    fig.text(0.5, 0.905, _plan_score(plan), ha="center", va="center", fontsize=10.5)
    fig.legend(
        handles=_plan_legend(plan),
        loc="upper left",
        bbox_to_anchor=(0.74, 0.8),
        frameon=False,
        fontsize=9,
        title="rods (length · colour)",
        title_fontsize=9.5,
        alignment="left",
    )
    _draw_floor_plan(fig.add_axes((0.765, 0.08, 0.21, 0.24)), plan)
    return fig


def _draw_floor_plan(ax: Axes, plan: LoadPlan) -> None:
    """The truck seen from above: each cell's top rod colour and how many levels are filled.

    The 3D view hides cells behind tall stacks; this map shows every cell, laid out like the
    mask text (row 0 at the top). The labels shrink with the cells, so they never overlap.
    """
    truck = plan.truck
    top: dict[tuple[int, int], tuple[int, int]] = {}  # cell -> (levels filled, top rod length)
    for placement in plan.placements:
        for x, y, z in placement.cubes():
            if z + 1 > top.get((x, y), (0, 0))[0]:
                top[(x, y)] = (z + 1, placement.length)
    # The inset is about 1.9 × 1.7 inches; a cell gets the smaller share of either side.
    cell_points = 72 * min(1.9 / truck.columns, 1.7 / truck.rows)
    size = min(8.0, cell_points * 0.55)
    for x, y in _grid(truck):
        if not truck.mask[y][x]:
            ax.add_patch(
                Rectangle(
                    (x, y),
                    1,
                    1,
                    facecolor=_BLOCKED,
                    edgecolor="#b5b5b5",
                    hatch="////",
                    linewidth=0.8,
                )
            )
            continue
        levels, length = top.get((x, y), (0, 0))
        color = LENGTH_COLORS[length] if levels else _FLOOR
        ax.add_patch(Rectangle((x, y), 1, 1, facecolor=color, edgecolor="#444444", linewidth=0.8))
        text_color = "white" if length in (4, 5) else "#222222"
        if size >= 4.0:
            ax.text(
                x + 0.5,
                y + 0.5,
                str(levels),
                ha="center",
                va="center",
                fontsize=size,
                color=text_color,
            )
    ax.set_xlim(0, truck.columns)
    ax.set_ylim(truck.rows, 0)
    ax.set_aspect("equal")
    ticks = min(7.0, max(4.0, cell_points * 0.6))
    ax.set_xticks([x + 0.5 for x in range(truck.columns)], [str(x) for x in range(truck.columns)])
    ax.set_yticks([y + 0.5 for y in range(truck.rows)], [str(y) for y in range(truck.rows)])
    ax.tick_params(labelsize=ticks, length=0)
    ax.set_title(f"from above: levels filled (of {truck.height})", fontsize=8.5)
    for spine in ax.spines.values():
        spine.set_visible(False)


def _plan_heading(plan: LoadPlan) -> str:
    truck = plan.truck
    name = f"Truck {truck.name}" if truck.name else "Truck"
    shape = str(truck) if len(str(truck)) <= 24 else f"{truck.rows}×{truck.columns} grid"
    variant = "  ·  variant" if truck.is_variant else ""
    return f"{name}  {shape}  ·  height {truck.height}  ·  capacity {truck.capacity}{variant}"


def _plan_score(plan: LoadPlan) -> str:
    status = "proven optimal" if plan.optimal else str(plan.status)
    behind = plan.left_behind
    left = ", ".join(f"{n}×{length}" for length, n in zip(LENGTHS, behind.counts) if n)
    behind_text = f" (left behind: {left})" if left else ""
    return (
        f"cargo {plan.cargo} ({plan.cargo.volume} cubes): loaded {plan.loaded}, "
        f"empty {plan.empty}, left over {plan.left_over}{behind_text}\n"
        f"penalty {plan.penalty} = {plan.empty} empty + 2 × {plan.left_over} left over"
        f"  ({status})"
    )


def _plan_legend(plan: LoadPlan) -> list[Patch | Line2D]:
    loaded = [sum(1 for p in plan.placements if p.length == n) for n in LENGTHS]
    handles: list[Patch | Line2D] = []
    for length, on_truck in zip(LENGTHS, loaded):
        rolled = plan.cargo.count(length)
        label = f"{length} · {COLORS[length]}: "
        label += f"{on_truck} of {rolled} loaded" if rolled else "none rolled"
        handles.append(Patch(facecolor=LENGTH_COLORS[length], edgecolor="#222222", label=label))
    handles.append(Patch(facecolor=_FLOOR, edgecolor="#8a8a8a", label="loading area (floor)"))
    if len(plan.truck.cells) < plan.truck.rows * plan.truck.columns:
        handles.append(
            Patch(
                facecolor=_BLOCKED,
                edgecolor="#b5b5b5",
                hatch="////",
                label="not loadable (pre-filled)",
            )
        )
    levels = "1 level" if plan.truck.height == 1 else f"{plan.truck.height} levels"
    handles.append(
        Line2D(
            [],
            [],
            color=_CAP,
            linestyle="--",
            linewidth=1.6,
            label=f"height cap: {levels}\n(on the back walls)",
        )
    )
    return handles


def _to_view(truck: Truck, x: float, y: float) -> tuple[float, float]:
    """Mask coordinates (column, row from the top) to drawing coordinates (row 0 at the back)."""
    return x, truck.rows - y


def _cell_quad(truck: Truck, x: int, y: int, z: float) -> Quad:
    x0, y0 = _to_view(truck, x, y + 1)
    return [(x0, y0, z), (x0 + 1, y0, z), (x0 + 1, y0 + 1, z), (x0, y0 + 1, z)]


def _draw_floor(ax: Any, truck: Truck) -> None:
    usable = [_cell_quad(truck, x, y, 0.0) for x, y in _grid(truck) if truck.mask[y][x]]
    blocked = [_cell_quad(truck, x, y, 0.0) for x, y in _grid(truck) if not truck.mask[y][x]]
    ax.add_collection3d(
        Poly3DCollection(usable, facecolors=_FLOOR, edgecolors="#8a8a8a", linewidths=0.8, zorder=1)
    )
    if blocked:
        ax.add_collection3d(
            Poly3DCollection(
                blocked,
                facecolors=_BLOCKED,
                edgecolors="#b5b5b5",
                linewidths=0.8,
                hatch="////",
                zorder=1,
            )
        )


def _grid(truck: Truck) -> list[tuple[int, int]]:
    return [(x, y) for y in range(truck.rows) for x in range(truck.columns)]


def _cap_walls(truck: Truck) -> list[list[tuple[float, float, float]]]:
    """The height cap as line segments on the truck's back and left walls (drawing coordinates).

    The camera looks from the front right, so these walls stand behind every rod: the lines
    are hidden where a rod stands in front of them and never cross a rod's front. The top
    edges run at the cap height; posts stand at the three corners of the two walls.
    """
    h = float(truck.height)
    back, left = float(truck.rows), 0.0  # row 0 is drawn at the back (y = rows), column 0 left
    right, front = float(truck.columns), 0.0
    return [
        [(left, back, h), (right, back, h)],  # along the back wall
        [(left, front, h), (left, back, h)],  # along the left wall
        [(left, back, 0.0), (left, back, h)],  # posts: the back-left corner,
        [(right, back, 0.0), (right, back, h)],  # the back-right one,
        [(left, front, 0.0), (left, front, h)],  # and the front-left one
    ]


def _draw_cap_walls(ax: Any, truck: Truck) -> None:
    # Drawn before the rods (zorder 2 < 3): rods standing in front hide the lines.
    ax.add_collection3d(
        Line3DCollection(
            _cap_walls(truck), colors=_CAP, linestyles=(0, (4, 3)), linewidths=1.4, zorder=2
        )
    )


def _draw_rods(ax: Any, plan: LoadPlan) -> None:
    """Every rod as its visible unit faces, shaded by the direction they face, and outlined.

    All faces go into one collection so that matplotlib depth-sorts them against each other;
    faces inside a rod or facing away from the camera are left out, which keeps that
    painter's-algorithm sort free of the usual mplot3d overlaps. Faces towards a neighbouring
    rod stay: they are what shows through the seam between the two.

    The faces have no edges of their own (a cube of a rod is not a piece); the rod's outline
    is drawn as segments in the same collection, each moved slightly towards the camera so
    that it sorts just in front of the face it borders. In the orthographic view a move along
    the line of sight changes the sort order only, never the picture.
    """
    truck = plan.truck
    eye = np.array(_eye_direction())
    polygons: list[Quad] = []
    faces: list[tuple[float, float, float, float]] = []
    edges: list[tuple[float, float, float, float]] = []
    widths: list[float] = []
    for placement in plan.placements:
        base = np.array(to_rgb(LENGTH_COLORS[placement.length]))
        outline = (*to_rgb(_EDGE_COLORS[placement.length]), 1.0)
        for quad, view_normal, segments in _rod_faces(truck, placement):
            red, green, blue = (float(c) for c in np.clip(base * _SHADES[view_normal], 0.0, 1.0))
            polygons.append(quad)
            faces.append((red, green, blue, 1.0))
            edges.append((red, green, blue, 1.0))  # hides the hairline between two faces
            widths.append(0.4)
            for a, b in segments:
                nudged = [tuple(float(c) for c in np.array(p) + _NUDGE * eye) for p in (a, b)]
                polygons.append([nudged[0], nudged[1]])  # type: ignore[list-item]
                faces.append((0.0, 0.0, 0.0, 0.0))
                edges.append(outline)
                widths.append(1.0)
    if polygons:
        # autolim=False: the limits are the truck's (set by _frame_truck); autoscaling over
        # polygons of mixed sizes (quads and outline segments) misreads their extent.
        ax.add_collection3d(
            Poly3DCollection(
                polygons, facecolors=faces, edgecolors=edges, linewidths=widths, zorder=3
            ),
            autolim=False,
        )


# How far an outline segment moves towards the camera: more than the depth between a unit
# face's edge and its centre (at most 0.5 · |eye|), less than the gap to any face before it.
_NUDGE = 0.45

Segment = tuple[tuple[float, float, float], tuple[float, float, float]]


def _rod_faces(
    truck: Truck, placement: Placement
) -> list[tuple[Quad, tuple[int, int, int], list[Segment]]]:
    """The camera-facing unit faces of one rod: each face's quad (drawing coordinates), the
    direction it faces, and those of its edges that lie on the rod's outline (an edge between
    two cubes of the rod is not outline)."""
    eye = _eye_direction()
    cubes = placement.cubes()
    own = set(cubes)
    lo = tuple(min(c[i] for c in cubes) for i in range(3))
    hi = tuple(max(c[i] for c in cubes) + 1 for i in range(3))
    out = []
    for cube in cubes:
        for normal in _NORMALS:
            neighbor = (cube[0] + normal[0], cube[1] + normal[1], cube[2] + normal[2])
            view_normal = (normal[0], -normal[1], normal[2])  # rows run front to back
            if neighbor in own or np.dot(view_normal, eye) <= 0:
                continue
            quad = _cube_face(truck, cube, normal, lo, hi)
            axis = next(i for i in range(3) if normal[i])
            segments: list[Segment] = []
            # quad corners run (u0,v0) (u1,v0) (u1,v1) (u0,v1); edge k joins corners k, k+1.
            u, v = (i for i in range(3) if i != axis)
            across = [(v, -1), (u, +1), (v, +1), (u, -1)]  # the cube beyond each edge
            for k, (direction, sign) in enumerate(across):
                step = [0, 0, 0]
                step[direction] = sign
                beyond = (cube[0] + step[0], cube[1] + step[1], cube[2] + step[2])
                if beyond not in own:
                    segments.append((quad[k], quad[(k + 1) % 4]))
            out.append((quad, view_normal, segments))
    return out


_NORMALS: Final = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))
# Light from above and the front left: tops brightest, the side faces darker, as on a shelf.
_SHADES: Final[dict[tuple[int, int, int], float]] = {
    (0, 0, 1): 1.0,
    (0, -1, 0): 0.86,
    (-1, 0, 0): 0.8,
    (1, 0, 0): 0.72,
    (0, 1, 0): 0.66,
    (0, 0, -1): 0.5,
}


def _eye_direction() -> tuple[float, float, float]:
    """Unit vector from the scene towards the camera (mplot3d's elevation/azimuth)."""
    elev, azim = math.radians(_ELEV), math.radians(_AZIM)
    return (math.cos(elev) * math.cos(azim), math.cos(elev) * math.sin(azim), math.sin(elev))


def _cube_face(
    truck: Truck,
    cube: tuple[int, int, int],
    normal: tuple[int, int, int],
    lo: tuple[int, ...],
    hi: tuple[int, ...],
) -> Quad:
    """The face of ``cube`` on side ``normal``, inset where it lies on its rod's outer side."""
    bounds = []
    for axis in range(3):
        a, b = float(cube[axis]), float(cube[axis] + 1)
        # Only the rod's own outer sides move inwards: faces between two cubes of one rod meet.
        a = a + _SEAM if cube[axis] == lo[axis] else a
        b = b - _SEAM if cube[axis] + 1 == hi[axis] else b
        bounds.append((a, b))
    axis = next(i for i in range(3) if normal[i])
    fixed = bounds[axis][1] if normal[axis] > 0 else bounds[axis][0]
    u, v = (i for i in range(3) if i != axis)
    corners = [
        (bounds[u][0], bounds[v][0]),
        (bounds[u][1], bounds[v][0]),
        (bounds[u][1], bounds[v][1]),
        (bounds[u][0], bounds[v][1]),
    ]
    quad: Quad = []
    for cu, cv in corners:
        point = [0.0, 0.0, 0.0]
        point[axis], point[u], point[v] = fixed, cu, cv
        vx, vy = _to_view(truck, point[0], point[1])
        quad.append((vx, vy, point[2]))
    return quad


def _frame_truck(ax: Any, truck: Truck) -> None:
    """Equal units on all three axes, ticks at cell centres counted from 0 (as in the text
    picture), an orthographic camera, no panes: cubes look like cubes."""
    ax.set_proj_type("ortho")
    ax.set_xlim(0, truck.columns)
    ax.set_ylim(0, truck.rows)
    ax.set_zlim(0, truck.height)
    ax.set_box_aspect((truck.columns, truck.rows, truck.height), zoom=0.92)
    ax.view_init(elev=_ELEV, azim=_AZIM)
    ax.set_xticks([x + 0.5 for x in range(truck.columns)], [str(x) for x in range(truck.columns)])
    ax.set_yticks(
        [truck.rows - y - 0.5 for y in range(truck.rows)], [str(y) for y in range(truck.rows)]
    )
    ax.set_zticks([z + 0.5 for z in range(truck.height)], [str(z) for z in range(truck.height)])
    ax.set_xlabel("column", labelpad=-4)
    ax.set_ylabel("row", labelpad=-4)
    ax.set_zlabel("level", labelpad=-4)
    ax.tick_params(labelsize=8, pad=-2)
    ax.grid(False)
    for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
        axis.set_pane_color((1.0, 1.0, 1.0, 0.0))
        axis.line.set_color("#9a9a9a")


# --- the deck's table -------------------------------------------------------------------------


def _truck_label(truck: Truck, number: int) -> str:
    name = truck.name or f"#{number + 1}"
    variant = "  variant" if truck.is_variant else ""
    return f"{name}  {truck}  h{truck.height}  cap {truck.capacity:2d}{variant}"


def plot_deck_heatmap(table: OptimalTable, path: str | os.PathLike[str]) -> Path:
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
    return _save(fig, path)


def plot_penalty_distributions(table: OptimalTable, path: str | os.PathLike[str]) -> Path:
    """Each truck's penalty over all 7,776 rolls: one horizontal box per truck, best first.

    Boxes are weighted by the rolls' odds (:func:`penalty_summaries`): the box holds the
    middle half of the rolls, the whiskers 5 % to 95 %, small bars the extremes; a diamond
    marks the mean, written at the right with the chance of a perfect fit (penalty 0).
    """
    # One long function on purpose, as plot_deck_heatmap: a straight sequence of drawing calls.
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
    return _save(fig, path)


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
