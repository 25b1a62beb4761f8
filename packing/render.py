"""Plain-text pictures of a loaded truck, level by level.

Knows nothing of the model types: it takes the mask, the height and each rod's cubes, so the
model can call it without an import cycle.
"""

from __future__ import annotations

import string
from collections.abc import Sequence

LABELS = string.ascii_uppercase + string.ascii_lowercase + string.digits
EMPTY = "."
UNUSABLE = "-"


def layers(
    mask: Sequence[Sequence[bool]],
    height: int,
    rods: Sequence[tuple[int, Sequence[tuple[int, int, int]]]],
) -> str:
    """The levels side by side (level 0 = floor, leftmost), one letter per rod, and a legend.

    ``.`` is an empty usable cell, ``-`` a cell outside the loading area.

    >>> print(layers([[True, True], [True, False]], 2, [(2, [(0, 0, 0), (1, 0, 0)])]))
    level 0  level 1
    AA       ..
    .-       .-
    A=2
    """
    columns = len(mask[0])
    grid = [[[EMPTY if ok else UNUSABLE for ok in row] for row in mask] for _ in range(height)]
    legend = []
    for i, (length, cubes) in enumerate(rods):
        label = LABELS[i % len(LABELS)]
        legend.append(f"{label}={length}")
        for x, y, z in cubes:
            grid[z][y][x] = label
    width = max(columns, len("level 0"))
    lines = ["  ".join(f"level {z}".ljust(width) for z in range(height)).rstrip()]
    for y in range(len(mask)):
        lines.append("  ".join("".join(grid[z][y]).ljust(width) for z in range(height)).rstrip())
    lines.append(" ".join(legend) if legend else "(nothing loaded)")
    return "\n".join(lines)
