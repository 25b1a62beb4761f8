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


def labels(count: int) -> list[str]:
    """``count`` different labels, one per rod: single letters and digits for up to 62 rods,
    else strings of two (or more) of them, all of one width.

    >>> labels(3), len(set(labels(100))), labels(100)[62]
    (['A', 'B', 'C'], 100, 'BA')
    """
    width = 1
    while len(LABELS) ** width < count:
        width += 1
    out = []
    for i in range(count):
        digits = []
        for _ in range(width):
            i, digit = divmod(i, len(LABELS))
            digits.append(LABELS[digit])
        out.append("".join(reversed(digits)))
    return out


#: Empty levels above the load shown in full; more are summarised in one line, so a tall
#: variant truck's picture grows with its load, not with its height.
EMPTY_LEVELS_SHOWN = 3


def layers(
    mask: Sequence[Sequence[bool]],
    height: int,
    rods: Sequence[tuple[int, Sequence[tuple[int, int, int]]]],
) -> str:
    """The levels side by side (level 0 = floor, leftmost), one label per rod, and a legend.

    ``.`` is an empty usable cell, ``-`` a cell outside the loading area. With more than 62
    rods each label is two characters, and cells are separated by a space. More than
    :data:`EMPTY_LEVELS_SHOWN` empty levels above the load are summarised in one line.

    >>> print(layers([[True, True], [True, False]], 2, [(2, [(0, 0, 0), (1, 0, 0)])]))
    level 0  level 1
    AA       ..
    .-       .-
    A=2
    >>> print(layers([[True]], 9, [(1, [(0, 0, 0)])]))
    level 0
    A
    levels 1-8: empty
    A=1
    """
    names = labels(len(rods))
    size = len(names[0]) if names else 1
    top = max((z for _, cubes in rods for _, _, z in cubes), default=-1)
    shown = height if height - (top + 1) <= EMPTY_LEVELS_SHOWN else top + 1
    shown = max(shown, 1)
    grid = [
        [[(EMPTY if ok else UNUSABLE) * size for ok in row] for row in mask] for _ in range(shown)
    ]
    legend = []
    for label, (length, cubes) in zip(names, rods):
        legend.append(f"{label}={length}")
        for x, y, z in cubes:
            grid[z][y][x] = label
    gap = " " if size > 1 else ""
    rows = [[gap.join(grid[z][y]) for y in range(len(mask))] for z in range(shown)]
    width = max(len(rows[0][0]), len("level 0"))
    lines = ["  ".join(f"level {z}".ljust(width) for z in range(shown)).rstrip()]
    for y in range(len(mask)):
        lines.append("  ".join(rows[z][y].ljust(width) for z in range(shown)).rstrip())
    if shown < height:
        lines.append(f"levels {shown}-{height - 1}: empty")
    lines.append(" ".join(legend) if legend else "(nothing loaded)")
    return "\n".join(lines)
