"""Pictures of Pack & Stack as plain SVG and HTML strings (no extra needed).

:func:`plan_svg` draws a load plan: the truck in an isometric view with every rod outlined as
one piece and coloured by its length (the game's white, grey, orange, blue and black), the
levels counted on the walls and the height cap dashed in red; beside it every level seen from
above, where the empty loadable cells show (a cube that could still be loaded is a white cell
with a dot). :func:`truck_svg` draws an empty truck the same way. The values show these in
Jupyter (``LoadPlan._repr_svg_``, ``Truck._repr_svg_``), and ``packing plot plan --out plan.svg``
writes :func:`plan_svg`'s picture: there is one drawing of a plan.

That drawing has three layouts (:data:`PLAN_LAYOUTS`): ``wide``, the default, with the level
maps beside the isometric view; ``tall``, the level maps under it and the text wrapped to a
phone's width (:data:`TALL_WIDTH`), so a phone shows every text at 10 pixels or more instead of
shrinking the whole picture; and ``compact``, the isometric view alone without a word, for a
button small enough that its words are better written beside it.

A deck's optimal table and its statistics show in a notebook as :func:`trucks_html` tables.

>>> from packing import Cargo, Truck, solve
>>> plan = solve(Cargo.from_roll([3, 2, 3, 0, 1]), Truck.parse("#####/###../#####", height=3))
>>> picture = plan_svg(plan)
>>> picture.startswith("<svg") and picture.count('<g class="rod"') == len(plan.placements)
True
"""

from __future__ import annotations

import heapq
import math
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Final, TypeVar

from arena.files import write_text
from arena.svg import PHONE_WIDTH, Page, Point, Svg, escape, html_table, text_width, wrap_text
from packing.errors import PackingError
from packing.model import Cargo, Cube, LoadPlan, Placement, Truck
from packing.rules import COLORS, LENGTHS

__all__ = [
    "EDGE_COLORS",
    "LENGTH_COLORS",
    "MAP_CELLS",
    "MAP_LEVELS",
    "PLAN_LAYOUTS",
    "TALL_WIDTH",
    "draw_plan",
    "plan_svg",
    "truck_svg",
    "trucks_html",
    "write_plan_svg",
]

#: Face colour of each rod length, after the seed edition's pieces (``packing.rules.COLORS``):
#: white is drawn ivory and black a very dark grey so that shading and edges stay visible.
LENGTH_COLORS: Final[dict[int, str]] = {
    1: "#f7f2e2",  # white
    2: "#9a9a9a",  # grey
    3: "#f28e2b",  # orange
    4: "#2f6db5",  # blue
    5: "#2a2a2a",  # black
}
#: Outline colour per length: dark outlines on the light rods, a light one on the black rods.
EDGE_COLORS: Final[dict[int, str]] = {
    1: "#222222",
    2: "#222222",
    3: "#222222",
    4: "#111111",
    5: "#d0d0d0",
}
_FLOOR = "#e9e4d6"
_FLOOR_EDGE = "#9a9486"
_BLOCKED = "#6b6b6b"
_WALL = "#f4f4f4"
_WALL_LINE = "#d6d6d6"
_CAP = "#c0392b"
_TEXT = "#222222"
_MUTED = "#666666"
_EMPTY = "#ffffff"

# Shading by the way a face looks: tops take the full colour, fronts and right sides less light.
_TOP, _FRONT, _SIDE = 1.0, 0.82, 0.66
# The isometric axes on screen, per unit of the cube's edge: a column step goes right and down,
# a row step (towards the front) left and down, a level up. (1, 1, 1) projects onto a point, so
# of two cubes hiding each other the one with the larger x + y + z is in front.
_COS, _SIN = math.cos(math.pi / 6), 0.5

_FONT = 12.0  # body text, in user units (pixels at 100 %)
_SMALL = 10.0
_MARGIN = 12.0


# --- the isometric view -----------------------------------------------------------------------


class _Iso:
    """The projection of truck coordinates (column x, row y towards the front, level z) onto
    the page, with the truck's back-top-left corner ``(0, 0, height)`` at the top."""

    def __init__(self, truck: Truck, edge: float, left: float, top: float) -> None:
        self.edge = edge
        self.x0 = left + truck.rows * _COS * edge
        self.y0 = top + truck.height * edge

    def __call__(self, x: float, y: float, z: float) -> Point:
        e = self.edge
        return (self.x0 + (x - y) * _COS * e, self.y0 + (x + y) * _SIN * e - z * e)


def _iso_size(truck: Truck, edge: float) -> tuple[float, float]:
    """The width and height of the truck's bounding box in the isometric view."""
    width = (truck.columns + truck.rows) * _COS * edge
    height = (truck.columns + truck.rows) * _SIN * edge + truck.height * edge
    return width, height


def _edge_for(truck: Truck) -> float:
    """The cube's edge on the page: cubes as large as a picture of about 420 × 400 allows,
    between 9 and 40 units (a larger truck is a larger picture, never unreadably small cubes)."""
    width = (truck.columns + truck.rows) * _COS
    height = (truck.columns + truck.rows) * _SIN + truck.height
    return max(9.0, min(40.0, 420.0 / width, 400.0 / height))


def _shade(color: str, factor: float) -> str:
    red, green, blue = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{min(255, round(c * factor)):02x}" for c in (red, green, blue))


class _Rod:
    """One placement as a box: its lowest corner, its size along each axis, its cubes."""

    def __init__(self, index: int, placement: Placement) -> None:
        self.index = index
        self.placement = placement
        self.cubes = placement.cubes()
        self.axis = "xyz".index(placement.axis)

    def box(self, start: int, stop: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """The lowest and highest corners of the cubes ``start:stop`` of the rod."""
        low = list(self.cubes[start])
        high = [c + 1 for c in self.cubes[stop - 1]]
        return (low[0], low[1], low[2]), (high[0], high[1], high[2])


Piece = tuple[int, int, int]  # (rod index, first cube, last cube + 1)


def _paint_order(rods: Sequence[_Rod], depth: int) -> list[Piece]:
    """The rods as pieces in back-to-front order (a painter draws them in that order).

    Two unit cubes whose pictures overlap differ by ``t·(1, 1, 1) + e`` with ``e`` in {0, 1}³,
    and the one with the larger coordinate sum is in front; a piece goes before another when
    one of its cubes is behind one of the other's. Whole rods can hide each other in a cycle
    (three rods in a pinwheel): then the longest rod of the cycle is cut into its cubes, which
    are drawn as pieces of the one rod (the outline still runs round the whole rod) until no
    cycle is left. Unit cubes never form a cycle, so this ends.
    """
    pieces: list[Piece] = [(rod.index, 0, len(rod.cubes)) for rod in rods]
    offsets = [
        (t + a, t + b, t + c)
        for t in range(-depth, depth + 1)
        for a in (0, 1)
        for b in (0, 1)
        for c in (0, 1)
        if 3 * t + a + b + c > 0
    ]
    while True:
        owner: dict[Cube, int] = {}
        for number, (rod, start, stop) in enumerate(pieces):
            for cube in rods[rod].cubes[start:stop]:
                owner[cube] = number
        after: list[set[int]] = [set() for _ in pieces]  # pieces drawn after (in front of) each
        for (x, y, z), number in owner.items():
            for dx, dy, dz in offsets:
                other = owner.get((x + dx, y + dy, z + dz))
                if other is not None and other != number:
                    after[number].add(other)
        order = _topological(pieces, after, rods)
        if isinstance(order, list):
            return order
        rod, start, stop = max(order, key=lambda p: (p[2] - p[1], -p[0]))
        pieces.remove((rod, start, stop))
        pieces.extend((rod, i, i + 1) for i in range(start, stop))


def _topological(
    pieces: list[Piece], after: list[set[int]], rods: Sequence[_Rod]
) -> list[Piece] | set[Piece]:
    """The pieces in an order every ``after`` edge agrees with (ties: nearest the back-left
    first), or, when there is none, the pieces of one cycle."""
    before = [0] * len(pieces)
    for targets in after:
        for target in targets:
            before[target] += 1

    def key(number: int) -> tuple[int, int]:
        rod, start, _ = pieces[number]
        return (sum(rods[rod].cubes[start]), number)

    ready = [key(n) for n in range(len(pieces)) if before[n] == 0]
    heapq.heapify(ready)
    order: list[Piece] = []
    while ready:
        _, number = heapq.heappop(ready)
        order.append(pieces[number])
        for target in after[number]:
            before[target] -= 1
            if before[target] == 0:
                heapq.heappush(ready, key(target))
    if len(order) == len(pieces):
        return order
    # Walk backwards from a stuck piece along edges between stuck pieces: a cycle closes.
    stuck = {n for n in range(len(pieces)) if before[n] > 0}
    into: dict[int, int] = {}
    for source in stuck:
        for target in after[source]:
            if target in stuck:
                into.setdefault(target, source)
    seen: list[int] = []
    node = min(stuck)
    while node not in seen:
        seen.append(node)
        node = into[node]
    return {pieces[n] for n in seen[seen.index(node) :]}


def _draw_piece(page: Page, iso: _Iso, rod: _Rod, start: int, stop: int) -> None:
    """The visible faces of cubes ``start:stop`` of ``rod``, then their share of its outline.

    A cut between two pieces of one rod is neither a face nor an outline: the rod reads as
    one piece however it is drawn.
    """
    length = rod.placement.length
    color = LENGTH_COLORS[length]
    (x0, y0, z0), (x1, y1, z1) = rod.box(start, stop)
    cuts = {rod.box(0, len(rod.cubes))[0][rod.axis], rod.box(0, len(rod.cubes))[1][rod.axis]}
    faces: list[tuple[int, list[tuple[float, float, float]], float]] = [
        (0, [(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)], _SIDE),  # right (+x)
        (1, [(x0, y1, z0), (x1, y1, z0), (x1, y1, z1), (x0, y1, z1)], _FRONT),  # front (+y)
        (2, [(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)], _TOP),  # top (+z)
    ]
    outline = EDGE_COLORS[length]
    for normal, corners, light in faces:
        if normal == rod.axis and (x1, y1, z1)[normal] not in cuts:
            continue  # the face inside the rod, against its next piece
        fill = _shade(color, light)
        page.polygon([iso(*c) for c in corners], fill=fill, stroke=fill, stroke_width=0.6)
    for normal, corners, _ in faces:
        if normal == rod.axis and (x1, y1, z1)[normal] not in cuts:
            continue
        for a, b in zip(corners, corners[1:] + corners[:1]):
            inside = a[rod.axis] == b[rod.axis] and a[rod.axis] not in cuts
            if not inside:
                page.line(
                    iso(*a), iso(*b), stroke=outline, stroke_width=1.3, stroke_linecap="round"
                )


def _draw_truck(page: Page, iso: _Iso, truck: Truck, labels: float | None) -> None:
    """The back and left walls with a line per level, the floor, the cap and the labels in
    font size ``labels`` (None: no labels, for the compact layout)."""
    w, r, h = truck.columns, truck.rows, truck.height
    with page.group(class_="walls"):
        page.polygon([iso(0, 0, 0), iso(w, 0, 0), iso(w, 0, h), iso(0, 0, h)], fill=_WALL)
        page.polygon([iso(0, 0, 0), iso(0, r, 0), iso(0, r, h), iso(0, 0, h)], fill=_WALL)
        for z in range(1, h):
            page.polyline([iso(0, r, z), iso(0, 0, z), iso(w, 0, z)], stroke=_WALL_LINE)
    with page.group(class_="floor"):
        if r * w > MAP_CELLS:  # a large floor in runs of like cells: its size grows with rows
            _draw_floor_runs(page, iso, truck)
        else:
            for y in range(r):
                for x in range(w):
                    _floor_patch(page, iso, y, x, x + 1, truck.mask[y][x], "cell")
    _draw_cap_and_labels(page, iso, truck, labels)


def _floor_patch(
    page: Page, iso: _Iso, y: int, start: int, stop: int, usable: bool, kind: str
) -> None:
    """The floor of row ``y`` from column ``start`` to ``stop``, all usable or all blocked."""
    corners = [iso(start, y, 0), iso(stop, y, 0), iso(stop, y + 1, 0), iso(start, y + 1, 0)]
    page.polygon(
        corners,
        fill=_FLOOR if usable else _BLOCKED,
        stroke=_FLOOR_EDGE if usable else "#4a4a4a",
        stroke_width=0.8,
        class_=kind if usable else "blocked",
    )


def _draw_floor_runs(page: Page, iso: _Iso, truck: Truck) -> None:
    """The floor as one polygon per run of usable (or blocked) cells along a row."""
    for y in range(truck.rows):
        x = 0
        while x < truck.columns:
            usable = truck.mask[y][x]
            end = x
            while end < truck.columns and truck.mask[y][end] == usable:
                end += 1
            _floor_patch(page, iso, y, x, end, usable, "cells")
            x = end


def _draw_cap_and_labels(page: Page, iso: _Iso, truck: Truck, size: float | None) -> None:
    w, r, h = truck.columns, truck.rows, truck.height
    with page.group(class_="cap", stroke=_CAP, stroke_width=1.5, stroke_dasharray="5 3"):
        page.polyline([iso(0, r, h), iso(0, 0, h), iso(w, 0, h)])
        for x, y in ((0, 0), (w, 0), (0, r)):
            page.line(iso(x, y, 0), iso(x, y, h))
    if size is None:
        return
    # Labels: columns along the front edge, rows along the right edge, levels up the front-left
    # post, each just outside the truck.
    with page.group(class_="labels", font_size=size, fill=_MUTED):
        for x in range(w):
            px, py = iso(x + 0.5, r + 0.45, 0)
            page.text(px, py + size * 0.35, x, text_anchor="middle")
        for y in range(r):
            px, py = iso(w + 0.45, y + 0.5, 0)
            page.text(px, py + size * 0.35, y, text_anchor="middle")
        for z in range(h):
            px, py = iso(0, r, z + 0.5)
            page.text(px - size * 0.5, py + size * 0.35, z, text_anchor="end")
        px, py = iso(0, r, h)
        page.text(px - size * 0.5, py - size * 0.3, "level", text_anchor="end")
        px, py = iso(w * 0.5, r + 1.1, 0)
        page.text(px, py + size * 0.35, "column", text_anchor="middle")
        px, py = iso(w + 1.1, r * 0.5, 0)
        page.text(px, py + size * 0.35, "row", text_anchor="middle")


def _label_size(edge: float, layout: str) -> float:
    """The labels' font size: in the wide layout it shrinks with the cubes (down to 7), in the
    tall one it stays at the smallest size a phone shows readably."""
    return _SMALL if layout == "tall" else min(_SMALL, max(7.0, edge * 0.34))


def _label_room(edge: float, size: float) -> tuple[float, float, float]:
    """Room the labels around the isometric view take: left, right and below."""
    left = size * 0.5 + text_width("level", size) + 2
    below = (1.1 + 0.6) * _SIN * edge + size
    right = (1.1 + 0.6) * _COS * edge + text_width("row", size) / 2
    return left, right, below


# --- the levels from above --------------------------------------------------------------------


def _occupant(plan: LoadPlan) -> dict[Cube, int]:
    return {cube: i for i, p in enumerate(plan.placements) for cube in p.cubes()}


def _level_maps(
    page: Page,
    truck: Truck,
    occupant: dict[Cube, int],
    lengths: Sequence[int],
    left: float,
    top: float,
    grid: tuple[float, int, float],
) -> None:
    """Every level seen from above, floor first: each cell in the colour of its rod (with the
    rod's length), an empty loadable cell white with a dot, a cell outside the area dark.
    ``grid``: the cell size, the maps abreast and the width each takes (:func:`_map_layout`)."""
    cell, per_row, slot = grid
    height = truck.rows * cell
    levels = _map_levels(truck)
    note = _maps_note(truck)
    if note:
        rows = math.ceil(levels / per_row) if levels else 0
        y = top + rows * (height + _MAP_HEAD + _MAP_GAP) + _SMALL
        page.text(left, y, note, font_size=_SMALL, fill=_MUTED, class_="maps-note")
    for z in range(levels):
        mx = left + (z % per_row) * (slot + _MAP_GAP)
        my = top + (z // per_row) * (height + _MAP_HEAD + _MAP_GAP) + _MAP_HEAD
        name = "level 0 (floor)" if z == 0 else f"level {z}"
        empty = sum(
            1
            for y in range(truck.rows)
            for x in range(truck.columns)
            if truck.mask[y][x] and (x, y, z) not in occupant
        )
        with page.group(class_="level", data_level=z):
            page.text(mx, my - 4, f"{name}: {empty} empty", font_size=_SMALL, fill=_TEXT)
            for y in range(truck.rows):
                for x in range(truck.columns):
                    cx, cy = mx + x * cell, my + y * cell
                    rod = occupant.get((x, y, z))
                    if not truck.mask[y][x]:
                        page.rect(cx, cy, cell, cell, fill=_BLOCKED, class_="blocked")
                    elif rod is None:
                        page.rect(cx, cy, cell, cell, fill=_EMPTY, class_="empty")
                        page.circle(
                            cx + cell / 2, cy + cell / 2, max(1.2, cell * 0.08), fill="#999"
                        )
                    else:
                        length = lengths[rod]
                        page.rect(cx, cy, cell, cell, fill=LENGTH_COLORS[length], class_="filled")
                        if cell >= 12:
                            page.text(
                                cx + cell / 2,
                                cy + cell / 2 + cell * 0.17,
                                length,
                                font_size=min(_SMALL, cell * 0.5),
                                text_anchor="middle",
                                fill="#ffffff" if length >= 4 else _TEXT,
                            )
            # Lines between cells of different rods (and round the grid): the pieces show.
            for y in range(truck.rows + 1):
                for x in range(truck.columns):
                    above = occupant.get((x, y - 1, z), -1 - int(truck.usable(x, y - 1)))
                    below = occupant.get((x, y, z), -1 - int(truck.usable(x, y)))
                    strong = above != below or y in (0, truck.rows)
                    page.line(
                        (mx + x * cell, my + y * cell),
                        (mx + (x + 1) * cell, my + y * cell),
                        stroke=_map_line(strong, above, below, lengths),
                        stroke_width=1.2 if strong else 0.5,
                    )
            for x in range(truck.columns + 1):
                for y in range(truck.rows):
                    leftside = occupant.get((x - 1, y, z), -1 - int(truck.usable(x - 1, y)))
                    rightside = occupant.get((x, y, z), -1 - int(truck.usable(x, y)))
                    strong = leftside != rightside or x in (0, truck.columns)
                    page.line(
                        (mx + x * cell, my + y * cell),
                        (mx + x * cell, my + (y + 1) * cell),
                        stroke=_map_line(strong, leftside, rightside, lengths),
                        stroke_width=1.2 if strong else 0.5,
                    )


def _map_line(strong: bool, a: int, b: int, lengths: Sequence[int]) -> str:
    """The colour of the line between two cells of a level map (a rod's number, or negative
    for an empty or unusable cell): dark between pieces, light between two dark rods' cells
    (else it would not show), faint inside a piece."""
    if not strong:
        return "#bbbbbb"
    dark = all(c >= 0 and lengths[c] >= 4 for c in (a, b))
    return "#d8d8d8" if dark else "#333333"


_MAP_HEAD = 16.0  # room above each level's map for its name
_MAP_GAP = 10.0


MAP_LEVELS: Final = 8
"""At most this many levels are drawn from above (the lowest ones); a note names the rest."""
MAP_CELLS: Final = 400
"""Levels are drawn from above only for a loading area of at most this many cells: past it the
maps would hold a million cells (a 100 × 100 × 100 truck), so a note says they are left out and
the picture stays under 2 MB for every truck the library accepts."""


def _map_levels(truck: Truck) -> int:
    """How many levels are drawn from above."""
    if truck.rows * truck.columns > MAP_CELLS:
        return 0
    return min(truck.height, MAP_LEVELS)


def _maps_note(truck: Truck) -> str:
    """What the picture says of the levels it does not draw from above (empty: none left out)."""
    levels = _map_levels(truck)
    if levels == truck.height:
        return ""
    if levels == 0:
        return f"levels from above: drawn for areas up to {MAP_CELLS} cells"
    return f"levels {levels}–{truck.height - 1} not drawn from above"


def _map_layout(truck: Truck, width: float | None = None) -> tuple[float, int, float]:
    """The cell size of the level maps, how many maps stand side by side and the width each
    takes (its cells, or its name when that is wider).

    Beside the isometric view (``width`` None): one column of maps for a truck up to 4 levels
    high, two or more abreast for a taller one. Under it (the tall layout, ``width`` the room
    across): cells large enough for their rod's length to be written at the smallest font
    size, as many maps abreast as the width holds."""
    label = text_width(f"level 0 (floor): {len(truck.cells)} empty", _SMALL)
    levels = _map_levels(truck)
    if width is not None:
        cell = max(2 * _SMALL, min(22.0, width / truck.columns))
        slot = max(truck.columns * cell, label)
        abreast = int((width + _MAP_GAP) // (slot + _MAP_GAP))
        return cell, max(1, min(levels, abreast)), slot
    cell = max(6.0, min(22.0, 110.0 / truck.columns, 70.0 / truck.rows))
    slot = max(truck.columns * cell, label)
    per_row = 1
    if levels > 4:
        per_row = min(levels, max(2, int(300 // (slot + _MAP_GAP))))
    return cell, per_row, slot


def _maps_size(truck: Truck, grid: tuple[float, int, float]) -> tuple[float, float]:
    cell, per_row, slot = grid
    levels = _map_levels(truck)
    rows = math.ceil(levels / per_row)
    width = per_row * (slot + _MAP_GAP) - _MAP_GAP if levels else 0.0
    height = rows * (truck.rows * cell + _MAP_HEAD + _MAP_GAP) - _MAP_GAP if levels else 0.0
    note = _maps_note(truck)
    if note:
        width = max(width, text_width(note, _SMALL))
        height += _SMALL + 8
    return width, height


# --- the whole pictures -----------------------------------------------------------------------


def _heading(truck: Truck) -> str:
    name = f"Truck {truck.name}" if truck.name else "Truck"
    shape = str(truck) if len(str(truck)) <= 24 else f"{truck.rows}×{truck.columns} grid"
    variant = " · variant" if truck.is_variant else ""
    return f"{name} {shape} · height {truck.height} · capacity {truck.capacity}{variant}"


def _score_lines(plan: LoadPlan) -> list[str]:
    status = {"optimal": "proven optimal", "feasible": "feasible", "by-hand": "by hand"}[
        str(plan.status)
    ]
    behind = plan.left_behind
    left = ", ".join(f"{n}×{length}" for length, n in zip(LENGTHS, behind.counts) if n)
    return [
        f"cargo {plan.cargo} ({plan.cargo.volume} cubes): loaded {plan.loaded}, empty "
        f"{plan.empty}, left over {plan.left_over}" + (f" (left behind: {left})" if left else ""),
        f"penalty {plan.penalty} = {plan.empty} empty + 2 × {plan.left_over} left over  ({status})",
    ]


def _legend_lines(plan: LoadPlan) -> list[tuple[int, str]]:
    loaded = [sum(1 for p in plan.placements if p.length == n) for n in LENGTHS]
    lines = []
    for length, on_truck in zip(LENGTHS, loaded):
        rolled = plan.cargo.count(length)
        if not rolled and not on_truck:
            continue
        lines.append((length, f"{length} · {COLORS[length]}: {on_truck} of {rolled} loaded"))
    return lines


P = TypeVar("P", bound=Page)

PLAN_LAYOUTS: Final = ("wide", "tall", "compact")
"""How :func:`draw_plan` lays a picture out. ``wide``: the level maps beside the isometric
view (a page, a notebook, ``packing plot plan``). ``tall``: the level maps under it and every
line of text wrapped, :data:`TALL_WIDTH` wide, so that a phone shows the text at its size.
``compact``: the isometric view alone with no text, for a small button whose words are written
beside it (the heading is still the picture's ``<title>``)."""

TALL_WIDTH: Final = PHONE_WIDTH
"""The width of the ``tall`` layout in units (:data:`arena.svg.PHONE_WIDTH`): the picture
column of a page on a phone 390 CSS pixels wide, so that a text of 10 units shows 10 pixels
high. A truck whose isometric view does not fit it even with the smallest cubes (9 units) makes
the picture wider."""

_TALL_MARGIN = 8.0
_COMPACT_MARGIN = 4.0


def _check_layout(layout: str) -> None:
    if layout not in PLAN_LAYOUTS:
        raise PackingError(f"layout: {layout!r} is not one of {', '.join(PLAN_LAYOUTS)}")


def draw_plan(
    plan: LoadPlan,
    new_page: Callable[[float, float, str], P],
    *,
    title: str | None = None,
    score: bool = True,
    layout: str = "wide",
) -> P:
    """Draw the picture of ``plan`` on a page ``new_page(width, height, heading)`` makes, and
    return the page: :class:`arena.svg.Svg` for :func:`plan_svg`, matplotlib's page for
    :func:`packing.plot.plot_plan`'s PNG and PDF — one drawing of a plan, whatever the format.
    ``score``: the score lines and the legend (not for an empty truck). ``layout``: one of
    :data:`PLAN_LAYOUTS` (anything else raises :class:`PackingError`).

    >>> from packing import Truck
    >>> from arena.svg import Svg
    >>> page = draw_plan(LoadPlan(Truck.parse("###/###", height=2), Cargo(), ()),
    ...                  lambda w, h, heading: Svg(w, h, title=heading), score=False,
    ...                  layout="tall")
    >>> page.width
    340
    """
    _check_layout(layout)
    heading = title if title is not None else _heading(plan.truck)
    if layout == "compact":
        return _draw_compact(plan, new_page, heading)
    if layout == "tall":
        return _draw_tall(plan, new_page, heading, score)
    return _draw_wide(plan, new_page, heading, score)


def _draw_wide(
    plan: LoadPlan, new_page: Callable[[float, float, str], P], heading: str, score: bool
) -> P:
    """The wide layout: the text on top, the isometric view, the level maps and the legend
    beside it."""
    truck = plan.truck
    edge = _edge_for(truck)
    iso_width, iso_height = _iso_size(truck, edge)
    labels = _label_size(edge, "wide")
    room_left, room_right, room_below = _label_room(edge, labels)
    grid = _map_layout(truck)
    maps_width, maps_height = _maps_size(truck, grid)
    lines = _score_lines(plan) if score else []
    legend = _legend_lines(plan) if score else []
    legend_extra = _cap_line(truck)
    legend_height = (len(legend) + 1) * 16.0
    maps_width = max(
        maps_width, *(20 + text_width(text, _SMALL) for _, text in [*legend, (0, legend_extra)])
    )

    top = _MARGIN + 16 + len(lines) * 15 + 10
    body_height = max(iso_height + room_below, maps_height + 12 + legend_height)
    width = max(
        _MARGIN + room_left + iso_width + room_right + 24 + maps_width + _MARGIN,
        _MARGIN * 2 + text_width(heading, 13),
        *(_MARGIN * 2 + text_width(line, _FONT) for line in lines),
    )
    height = top + body_height + _MARGIN
    page = new_page(math.ceil(width), math.ceil(height), heading)
    page.rect(0, 0, math.ceil(width), math.ceil(height), fill="#ffffff")
    page.text(_MARGIN, _MARGIN + 13, heading, font_size=13, font_weight="bold", fill=_TEXT)
    for number, line in enumerate(lines):
        page.text(_MARGIN, _MARGIN + 31 + 15 * number, line, font_size=_FONT, fill=_TEXT)

    iso = _Iso(truck, edge, _MARGIN + room_left, top)
    _draw_truck(page, iso, truck, labels)
    _draw_rods(page, iso, plan)
    left = _MARGIN + room_left + iso_width + room_right + 24
    lengths = [p.length for p in plan.placements]
    _level_maps(page, truck, _occupant(plan), lengths, left, top, grid)
    _draw_legend(page, legend, legend_extra, left, top + maps_height + 12)
    return page


def _draw_tall(
    plan: LoadPlan, new_page: Callable[[float, float, str], P], heading: str, score: bool
) -> P:
    """The tall layout: the text wrapped to :data:`TALL_WIDTH`, the isometric view, then the
    level maps as many abreast as fit, then the legend; no text under 10 units."""
    truck = plan.truck
    room = TALL_WIDTH - 2 * _TALL_MARGIN
    heading_lines = wrap_text(heading, 13, room)
    lines = [part for line in _score_lines(plan) for part in wrap_text(line, _FONT, room)]
    lines = lines if score else []
    legend = _legend_lines(plan) if score else []
    legend_extra = _cap_line(truck)

    # The cubes as large as the width allows with the labels round them (between 9 and 40).
    room_left = _label_room(0.0, _SMALL)[0]
    across = (truck.columns + truck.rows + 1.7) * _COS
    fits = (room - room_left - text_width("row", _SMALL) / 2) / across
    edge = max(9.0, min(_edge_for(truck), fits))
    iso_width, iso_height = _iso_size(truck, edge)
    room_left, room_right, room_below = _label_room(edge, _SMALL)
    block = round(room_left + iso_width + room_right, 6)  # no float dust past the width
    grid = _map_layout(truck, room)
    maps_width, maps_height = _maps_size(truck, grid)
    texts_width = max(
        [text_width(line, 13) for line in heading_lines]
        + [text_width(line, _FONT) for line in lines]
        + [20 + text_width(text, _SMALL) for _, text in [*legend, (0, legend_extra)]]
    )
    width = max(TALL_WIDTH, 2 * _TALL_MARGIN + max(block, maps_width, texts_width))

    y = _TALL_MARGIN
    iso_top = y + 17 * len(heading_lines) + 15 * len(lines) + 10
    maps_top = iso_top + iso_height + room_below + 4
    legend_top = maps_top + maps_height + 12
    height = legend_top + (len(legend) + 1) * 16.0 + _TALL_MARGIN
    page = new_page(math.ceil(width), math.ceil(height), heading)
    page.rect(0, 0, math.ceil(width), math.ceil(height), fill="#ffffff")
    for line in heading_lines:
        y += 17
        page.text(_TALL_MARGIN, y - 4, line, font_size=13, font_weight="bold", fill=_TEXT)
    for line in lines:
        y += 15
        page.text(_TALL_MARGIN, y - 1, line, font_size=_FONT, fill=_TEXT)

    left = (width - block) / 2  # the view centred, its labels included
    iso = _Iso(truck, edge, left + room_left, iso_top)
    _draw_truck(page, iso, truck, _SMALL)
    _draw_rods(page, iso, plan)
    lengths = [p.length for p in plan.placements]
    _level_maps(page, truck, _occupant(plan), lengths, _TALL_MARGIN, maps_top, grid)
    _draw_legend(page, legend, legend_extra, _TALL_MARGIN, legend_top)
    return page


def _draw_compact(plan: LoadPlan, new_page: Callable[[float, float, str], P], heading: str) -> P:
    """The compact layout: the isometric view alone, about 160 units across, and no text."""
    truck = plan.truck
    across = (truck.columns + truck.rows) * _COS
    up = (truck.columns + truck.rows) * _SIN + truck.height
    edge = max(3.0, min(24.0, 160.0 / across, 160.0 / up))
    iso_width, iso_height = _iso_size(truck, edge)
    width = math.ceil(iso_width + 2 * _COMPACT_MARGIN)
    height = math.ceil(iso_height + 2 * _COMPACT_MARGIN)
    page = new_page(width, height, heading)  # no background: it takes its button's
    iso = _Iso(truck, edge, _COMPACT_MARGIN, _COMPACT_MARGIN)
    _draw_truck(page, iso, truck, None)
    _draw_rods(page, iso, plan)
    return page


def _draw_rods(page: Page, iso: _Iso, plan: LoadPlan) -> None:
    """Every rod in the isometric view, back to front."""
    rods = [_Rod(i, p) for i, p in enumerate(plan.placements)]
    truck = plan.truck
    depth = max(truck.columns, truck.rows, truck.height)
    drawn: set[int] = set()
    with page.group(class_="rods"):
        for rod, start, stop in _paint_order(rods, depth):
            placement = plan.placements[rod]
            kind = "rod" if rod not in drawn else "rod-piece"
            drawn.add(rod)
            with page.group(
                class_=kind,
                data_rod=rod,
                data_placement=str(placement),
                data_cubes=f"{start}:{stop}",
            ):
                if kind == "rod":
                    page.element("title", escape(f"rod {rod}: {placement}"))
                _draw_piece(page, iso, rods[rod], start, stop)


def _cap_line(truck: Truck) -> str:
    return f"height cap: {truck.height} level{'s' * (truck.height != 1)}"


def _draw_legend(
    page: Page, legend: Sequence[tuple[int, str]], cap: str, left: float, top: float
) -> None:
    """A swatch and a line per rod length, then the cap's dashes."""
    y = top
    with page.group(class_="legend", font_size=_SMALL, fill=_TEXT):
        for length, text in legend:
            page.rect(left, y, 14, 11, fill=LENGTH_COLORS[length], stroke="#222", stroke_width=0.8)
            page.text(left + 20, y + 9.5, text)
            y += 16
        page.line(
            (left, y + 5.5),
            (left + 14, y + 5.5),
            stroke=_CAP,
            stroke_width=1.5,
            stroke_dasharray="5 3",
        )
        page.text(left + 20, y + 9.5, cap)


def _svg_page(width: float, height: float, heading: str) -> Svg:
    return Svg(width, height, title=heading)


def plan_svg(plan: LoadPlan, *, title: str | None = None, layout: str = "wide") -> str:
    """The picture of ``plan`` as an SVG document (see the module docstring), laid out as
    ``layout`` says (:data:`PLAN_LAYOUTS`: ``wide``, the default, ``tall`` for a phone,
    ``compact`` with no text).

    The heading names the truck (``title`` replaces it), the lines below give the score. Every
    rod is one ``<g class="rod">`` (its placement in ``data-placement``): when rods hide one
    another in a cycle, a rod is drawn in pieces, the later ones ``<g class="rod-piece">``.

    >>> from packing import Cargo, Truck, solve
    >>> plan = solve(Cargo.from_roll([3, 2, 3, 0, 1]), Truck.parse("#####/#####", height=2))
    >>> 'width="340"' in plan_svg(plan, layout="tall")
    True
    """
    return str(draw_plan(plan, _svg_page, title=title, layout=layout))


def truck_svg(truck: Truck, *, layout: str = "wide") -> str:
    """The empty truck as an SVG document: its loading area, the cells outside it dark, the
    height cap, and each level from above; ``layout`` as for :func:`plan_svg` (``compact``:
    the truck alone, for a button that names it in words).

    >>> "<text" in truck_svg(Truck.parse("###/#..", height=2), layout="compact")
    False
    """
    return str(draw_plan(LoadPlan(truck, Cargo(), ()), _svg_page, score=False, layout=layout))


# A file of its own says what it is; a string shown inline in HTML (Jupyter) must not.
_XML = '<?xml version="1.0" encoding="UTF-8"?>\n'


def write_plan_svg(
    plan: LoadPlan, path: str | os.PathLike[str], *, title: str | None = None
) -> Path:
    """Write :func:`plan_svg` to ``path`` (its folders made as needed) and return the path.

    Raises :class:`PackingError` naming the path when it cannot be written.
    """
    text = _XML + plan_svg(plan, title=title) + "\n"
    write_text(
        path, text, what="picture", error=PackingError, caller="write_plan_svg", make_folders=True
    )
    return Path(path)


# --- tables -----------------------------------------------------------------------------------


def _truck_cells(truck: Truck, number: int) -> list[object]:
    return [truck.name or f"#{number + 1}", str(truck), truck.height, truck.capacity]


def trucks_html(
    trucks: Sequence[Truck], columns: Mapping[str, Sequence[object]], *, caption: str
) -> str:
    """An HTML table of ``trucks``, one row each: name, mask, height and capacity, then one
    column per entry of ``columns`` (its header and its value for each truck, in order)."""
    rows = [
        [*_truck_cells(t, j), *(values[j] for values in columns.values())]
        for j, t in enumerate(trucks)
    ]
    numbers = range(2, 4 + len(columns))
    return html_table(
        ["truck", "mask", "height", "capacity", *columns], rows, caption=caption, right=numbers
    )
