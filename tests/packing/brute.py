"""An exhaustive loading search written without the solver, for cross-checks on small trucks.

It works the other way round from ``packing.solver``: it enumerates every height map of the
truck (support makes each column a stack from the floor), largest volume first, and asks
whether the cubes of that map can be cut exactly into rods of the cargo. The first map that
can is optimal. Only practical for a handful of cells.
"""

from __future__ import annotations

import itertools
from functools import cache

from packing import Cargo, Truck


def brute_force_loaded(cargo: Cargo, truck: Truck) -> int:
    """The most volume any valid loading of ``cargo`` onto ``truck`` reaches."""
    cells = [(x, y) for y, row in enumerate(truck.mask) for x, ok in enumerate(row) if ok]
    h = truck.height
    volume = sum(length * n for length, n in enumerate(cargo.counts, start=1))
    maps_by_volume: dict[int, list[tuple[int, ...]]] = {}
    for heights in itertools.product(range(h + 1), repeat=len(cells)):
        maps_by_volume.setdefault(sum(heights), []).append(heights)
    for target in range(min(volume, len(cells) * h), 0, -1):
        for heights in maps_by_volume.get(target, []):
            cubes = frozenset((x, y, z) for (x, y), top in zip(cells, heights) for z in range(top))
            if _tileable(cubes, cargo.counts):
                return target
    return 0


@cache
def _tileable(cubes: frozenset[tuple[int, int, int]], counts: tuple[int, ...]) -> bool:
    """Can ``cubes`` be cut exactly into straight rods, at most ``counts[L-1]`` of length L?"""
    if not cubes:
        return True
    x, y, z = min(cubes)  # this cube must be the lowest-coordinate cube of some rod
    for length in range(1, 6):
        if not counts[length - 1]:
            continue
        for dx, dy, dz in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
            rod = frozenset((x + i * dx, y + i * dy, z + i * dz) for i in range(length))
            if rod <= cubes:
                rest = counts[: length - 1] + (counts[length - 1] - 1,) + counts[length:]
                if _tileable(cubes - rod, rest):
                    return True
            if length == 1:
                break
    return False
