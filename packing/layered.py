"""Loadings built level by level: a quick way to a full (or nearly full) large truck.

A loading whose levels are all full, but for a last partly filled one at the top, needs no
thought about support: every cube rests on a full level. Such a loading is a stack of units:
slabs where every cell holds an upright rod of the same length, then single levels. Each level
is the truck's rows (or its columns) cut into runs of usable cells, and filling a run of ``b``
cells with rods lying along it is choosing a *pattern*: a multiset of lengths adding up to
``b`` (at most ``b`` in the top level, whose gaps nothing rests on). Which pattern goes in
which run does not matter, only how many runs of each length get each pattern, within the
rods the cargo has: a small integer programme (a cutting-stock problem) CP-SAT settles in
milliseconds, where the loading's own model has a Boolean per rod position.

Holes cut rows into runs whose lengths the rods may not add up to; such a run can instead be
a row of columns of upright rods as high as the full levels, when every full level lies in
its direction. Other fills (upright rods in some cells of a run, a slab under levels with
upright columns) are not found this way: :func:`layered_loading` then returns nothing, and
the caller goes on.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from packing.cp_solver import cp_solver
from packing.model import Axis, Cargo, Placement, Truck
from packing.rules import LENGTHS

#: The longest run the patterns are listed for: a run's patterns grow with its length to the
#: fourth power (30 for 10 cells, about 2,000 for 30).
LONGEST_RUN = 16

#: A run: (x, y) of its first cell, its length, and its direction ("x" along a row).
_Run = tuple[int, int, int, Axis]


def layered_loading(
    cargo: Cargo,
    truck: Truck,
    target: int,
    *,
    deadline: float | None,
    work: float | None = None,
    seed: int = 0,
) -> tuple[Placement, ...]:
    """A loading of volume ``target`` whose levels are full from the floor up but the last,
    with every rod lying along a row or a column of its level; ``()`` when there is none
    (or it is not found before ``deadline``, a ``time.perf_counter()`` value, or within
    ``work``, CP-SAT's deterministic time for each of its integer programmes)."""
    cells = len(truck.cells)
    full, rest = divmod(target, cells)
    if target <= 0 or full + (rest > 0) > truck.height:
        return ()
    runs: dict[Axis, list[_Run]] = {"x": _runs(truck, "x"), "y": _runs(truck, "y")}
    if any(run[2] > LONGEST_RUN for direction in runs.values() for run in direction):
        return ()
    # First slabs and levels in either direction; then, for runs no pattern fills (holes cut
    # rows into lengths the rods do not add up to), levels of one direction whose runs may
    # each be filled instead by columns of upright rods as high as the full levels.
    for upright in (None, *(("x", "y") if full else ())):
        layout = _choose(
            cargo, truck, runs, full, rest, upright, deadline=deadline, work=work, seed=seed
        )
        if layout is not None:
            return tuple(_build(truck, runs, layout, full, rest))
        if deadline is not None and time.perf_counter() >= deadline:
            break
    return ()


@dataclass(frozen=True)
class _Layout:
    """A solution of the integer programme: the units from the floor up, and the patterns."""

    slabs: dict[int, int]  # length: how many slabs of upright rods of that length
    along_x: int  # full levels of rods along the rows
    along_y: int  # full levels along the columns
    exact: dict[int, list[tuple[int, ...]]]  # run length: the full levels' patterns
    partial: dict[int, list[tuple[int, ...]]]  # run length: the top level's
    top_along_x: bool
    upright: Axis | None  # the direction whose runs may be columns of upright rods instead
    flat_runs: dict[int, int]  # with ``upright``: run length: how many runs lie flat
    columns: list[tuple[int, ...]]  # the upright columns' patterns, bottom first


def _choose(
    cargo: Cargo,
    truck: Truck,
    runs: dict[Axis, list[_Run]],
    full: int,
    rest: int,
    upright: Axis | None,
    *,
    deadline: float | None,
    work: float | None,
    seed: int,
) -> _Layout | None:
    """The integer programme: how many slabs of upright rods of each length, how many full
    levels along rows and along columns, which patterns fill the runs of each length in the
    full levels (exactly) and in the top level (at most), within the cargo; with ``upright``,
    every full level along that direction and each of its runs either flat in every level
    or a row of upright columns. ``None`` when it has no solution, or none is found in time."""
    from ortools.sat.python import cp_model  # the caller's CP-SAT: imported on first use

    lengths = tuple(length for length in LENGTHS if cargo.count(length))
    count = {direction: Counter(run[2] for run in runs[direction]) for direction in runs}
    sizes = sorted(set(count["x"]) | set(count["y"]))
    most = {size: max(count["x"][size], count["y"][size]) for size in sizes}
    cells = len(truck.cells)

    model = cp_model.CpModel()
    used: dict[int, list[cp_model.LinearExprT]] = {length: [] for length in lengths}
    along_x = model.new_int_var(0, full, "levels along rows")
    along_y = model.new_int_var(0, full, "levels along columns")
    slabs = {
        length: model.new_int_var(0, 0 if upright else full // length, f"slabs of {length}")
        for length in lengths
        if length > 1
    }
    for length, var in slabs.items():
        used[length].append(cells * var)
    model.add(along_x + along_y + sum(length * var for length, var in slabs.items()) == full)
    if upright:
        model.add((along_y if upright == "x" else along_x) == 0)
    flat: dict[int, cp_model.IntVar] = {}
    exact: dict[int, list[tuple[tuple[int, ...], cp_model.IntVar]]] = {}
    standing: list[cp_model.LinearExprT] = []
    for size in sizes:
        exact[size] = [
            (pattern, model.new_int_var(0, full * most[size], ""))
            for pattern in _patterns(size, lengths, exact=True)
        ]
        filled = sum(var for _, var in exact[size])
        if upright:
            flat[size] = model.new_int_var(0, count[upright][size], f"flat runs of {size}")
            model.add(filled == full * flat[size])
            standing.append(size * (count[upright][size] - flat[size]))
        else:
            model.add(filled == along_x * count["x"][size] + along_y * count["y"][size])
    columns: list[tuple[tuple[int, ...], cp_model.IntVar]] = []
    if upright:
        upright_lengths = tuple(length for length in lengths if length <= truck.height)
        columns = [
            (pattern, model.new_int_var(0, cells, ""))
            for pattern in _patterns(full, upright_lengths, exact=True)
        ]
        model.add(sum(var for _, var in columns) == sum(standing))
    top_along_x = model.new_bool_var("top along rows")
    partial: dict[int, list[tuple[tuple[int, ...], cp_model.IntVar]]] = {}
    if rest:
        for size in sizes:
            partial[size] = [
                (pattern, model.new_int_var(0, most[size], ""))
                for pattern in _patterns(size, lengths, exact=False)
            ]
            in_top = top_along_x * count["x"][size] + (1 - top_along_x) * count["y"][size]
            model.add(sum(var for _, var in partial[size]) == in_top)
        model.add(sum(sum(p) * var for size in sizes for p, var in partial[size]) == rest)
    else:
        model.add(top_along_x == 0)  # no top level: one answer, not two
    chosen = [*columns, *(pair for size in sizes for pair in exact[size] + partial.get(size, []))]
    for pattern, var in chosen:
        for length, times in Counter(pattern).items():
            used[length].append(times * var)
    for length, terms in used.items():
        model.add(sum(terms) <= cargo.count(length))

    solver = cp_solver(workers=1, seed=seed, work=work, deadline=deadline)
    if solver is None:
        return None
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None

    def pool(chosen: list[tuple[tuple[int, ...], cp_model.IntVar]]) -> list[tuple[int, ...]]:
        return [pattern for pattern, var in chosen for _ in range(solver.value(var))]

    return _Layout(
        {length: solver.value(var) for length, var in slabs.items()},
        solver.value(along_x),
        solver.value(along_y),
        {size: pool(exact[size]) for size in sizes},
        {size: pool(partial[size]) for size in partial},
        bool(solver.value(top_along_x)),
        upright,
        {size: solver.value(var) for size, var in flat.items()},
        pool(columns),
    )


def _build(
    truck: Truck, runs: dict[Axis, list[_Run]], layout: _Layout, full: int, rest: int
) -> Iterator[Placement]:
    """The layout's rods, from the floor up: every unit below the top is full, so each rests
    on the one below."""
    z = 0
    for length, count in layout.slabs.items():
        for _ in range(count):
            yield from (Placement(length, x, y, z, "z") for x, y in truck.cells)
            z += length
    if layout.upright:
        flat_left = dict(layout.flat_runs)
        for run in runs[layout.upright]:
            if flat_left[run[2]]:
                flat_left[run[2]] -= 1
                for level in range(full):
                    yield from _lay(layout.exact[run[2]].pop(), run, z + level)
            else:
                for x, y in _cells(run):
                    height = z
                    for length in layout.columns.pop():
                        yield Placement(length, x, y, height, "z")
                        height += length
        z += full
    else:
        levels: tuple[tuple[Axis, int], ...] = (("x", layout.along_x), ("y", layout.along_y))
        for direction, count in levels:
            for _ in range(count):
                for run in runs[direction]:
                    yield from _lay(layout.exact[run[2]].pop(), run, z)
                z += 1
    if rest:
        for run in runs["x" if layout.top_along_x else "y"]:
            yield from _lay(layout.partial[run[2]].pop(), run, z)


def _cells(run: _Run) -> Iterator[tuple[int, int]]:
    x, y, size, direction = run
    for offset in range(size):
        yield (x + offset, y) if direction == "x" else (x, y + offset)


def _runs(truck: Truck, direction: Axis) -> list[_Run]:
    """The maximal runs of usable cells along every row (``"x"``) or column (``"y"``)."""
    out: list[_Run] = []
    outer, inner = (truck.rows, truck.columns) if direction == "x" else (truck.columns, truck.rows)
    for a in range(outer):
        start = None
        for b in range(inner + 1):
            x, y = (b, a) if direction == "x" else (a, b)
            if b < inner and truck.usable(x, y):
                if start is None:
                    start = b
            elif start is not None:
                first = (start, a) if direction == "x" else (a, start)
                out.append((first[0], first[1], b - start, direction))
                start = None
    return out


@lru_cache(maxsize=4096)
def _patterns(size: int, lengths: tuple[int, ...], *, exact: bool) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ``lengths`` (largest first) adding up to ``size`` (``exact``) or to at
    most ``size``."""

    def grow(left: int, largest: int) -> Iterator[tuple[int, ...]]:
        if not exact or left == 0:
            yield ()
        for length in lengths:
            if length <= min(left, largest):
                for tail in grow(left - length, length):
                    yield (length, *tail)

    return tuple(sorted(set(grow(size, max(lengths, default=0))), reverse=True))


def _lay(pattern: tuple[int, ...], run: _Run, z: int) -> Iterator[Placement]:
    """The rods of ``pattern`` end to end along ``run`` at level ``z``, from its first cell."""
    x, y, _, direction = run
    offset = 0
    for length in pattern:
        if direction == "x":
            at = (x + offset, y)
        else:
            at = (x, y + offset)
        yield Placement(length, at[0], at[1], z, direction if length > 1 else "z")
        offset += length
