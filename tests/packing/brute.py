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
    if counts[0] and _tileable(cubes - {(x, y, z)}, _one_fewer(counts, 1)):
        return True
    for dx, dy, dz in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
        rod = [(x, y, z)]
        for length in range(2, 6):
            cube = (x + (length - 1) * dx, y + (length - 1) * dy, z + (length - 1) * dz)
            if cube not in cubes:
                break  # every longer rod this way holds this cube too, so none fits
            rod.append(cube)
            if counts[length - 1] and _tileable(cubes.difference(rod), _one_fewer(counts, length)):
                return True
    return False


def _one_fewer(counts: tuple[int, ...], length: int) -> tuple[int, ...]:
    return counts[: length - 1] + (counts[length - 1] - 1,) + counts[length:]
