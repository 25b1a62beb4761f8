"""The exact loading solver: the most volume a cargo can load onto a truck.

Two stages, and every answer is proven:

1. **Bound-proven fast path.** ``upper_bound`` is a volume no loading can exceed:
   min(capacity, volume of the rods that fit the truck at all). A short depth-first search
   looks for a loading that reaches it; if it finds one, that loading is optimal by the bound
   and no model is built. Most cargos end here.
2. **CP-SAT.** Otherwise a CP-SAT model with one Boolean per rod placement (length × position
   × axis) maximises the loaded volume, warm-started with the search's best loading and with
   the objective capped at the bound.

The search's key fact: since every cube above the floor rests on the cube below it, each
column of the truck is filled from the floor up without gaps, so a loading is a height map.
Visiting cells level by level in reading order, the first open cell is either the start
(lowest-coordinate cube) of a rod or stays empty for good, which enumerates each loading once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from ortools.sat.python import cp_model

from packing.model import Axis, Cargo, LoadPlan, Placement, Status, Truck
from packing.rules import LENGTHS

#: Nodes the fast path may visit before handing over to CP-SAT. Searches that reach the bound
#: almost always do so within a few dozen nodes; the rest rarely succeed later.
FAST_PATH_NODES = 400


@dataclass(frozen=True)
class _Geometry:
    """What the search needs of a truck, indexed by cell number (reading order)."""

    cells: tuple[tuple[int, int], ...]
    height: int
    right: tuple[tuple[int, ...], ...]  # right[c]: c and the usable cells after it in its row
    down: tuple[tuple[int, ...], ...]  # down[c]: c and the usable cells below it in its column


@lru_cache(maxsize=256)
def _geometry(truck: Truck) -> _Geometry:
    index = {cell: i for i, cell in enumerate(truck.cells)}

    def run(x: int, y: int, dx: int, dy: int) -> tuple[int, ...]:
        out = []
        while (x, y) in index:
            out.append(index[(x, y)])
            x, y = x + dx, y + dy
        return tuple(out)

    return _Geometry(
        cells=truck.cells,
        height=truck.height,
        right=tuple(run(x, y, 1, 0) for x, y in truck.cells),
        down=tuple(run(x, y, 0, 1) for x, y in truck.cells),
    )


def upper_bound(cargo: Cargo, truck: Truck) -> int:
    """A volume no loading of ``cargo`` onto ``truck`` can exceed.

    >>> upper_bound(Cargo({5: 1, 1: 2}), Truck.parse("####/####/####", height=4))
    2
    """
    fitting = sum(length * cargo.count(length) for length in LENGTHS if truck.fits(length))
    return min(truck.capacity, fitting)


def solve(
    cargo: Cargo,
    truck: Truck,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    workers: int = 1,
    fast_path: bool = True,
) -> LoadPlan:
    """The loading of ``cargo`` onto ``truck`` that loads the most volume (least penalty).

    Deterministic by default (one worker, fixed seed). With ``time_limit`` (seconds) the
    CP-SAT stage may stop early: the plan is then the best found, with status ``feasible``
    and the proven ``bound``. ``fast_path=False`` always builds and solves the CP-SAT model
    (no search, no hint): slower, and an independent check of the fast path.

    >>> plan = solve(Cargo({4: 3}), Truck.parse("#####/#####/#####", height=1))
    >>> plan.loaded, plan.penalty, plan.optimal
    (12, 3, True)
    """
    start = time.perf_counter()
    bound = upper_bound(cargo, truck)
    best = _search(cargo, truck, target=bound, node_limit=FAST_PATH_NODES) if fast_path else ()
    loaded = sum(p.length for p in best)
    if fast_path and loaded >= bound:
        return LoadPlan(truck, cargo, best, Status.OPTIMAL, bound, time.perf_counter() - start, "bound")
    placements, status, bound = _cp_sat(
        cargo, truck, bound=bound, hint=best, time_limit=time_limit, seed=seed, workers=workers
    )
    if sum(p.length for p in placements) < loaded:  # CP-SAT stopped before matching its hint
        placements = best
    return LoadPlan(truck, cargo, placements, status, bound, time.perf_counter() - start, "cp-sat")


def _search(cargo: Cargo, truck: Truck, *, target: int, node_limit: int) -> tuple[Placement, ...]:
    """Depth-first search for a loading of volume ``target``; the best loading seen.

    Stops at the first loading that reaches ``target`` or after ``node_limit`` nodes.
    """
    geo = _geometry(truck)
    n, h = len(geo.cells), geo.height
    heights = [0] * n
    counts = list(cargo.counts)
    stack: list[tuple[int, int, int, Axis]] = []  # (length, cell, level, axis)
    best: list[tuple[int, int, int, Axis]] = []
    state = {"best": 0, "nodes": 0}
    volume = cargo.volume
    capacity = n * h

    def visit(pos: int, loaded: int, lost: int, rods_left: int) -> bool:
        if loaded > state["best"]:
            state["best"] = loaded
            best[:] = stack
        if loaded >= target:
            return True
        state["nodes"] += 1
        if state["nodes"] > node_limit:
            return False
        if loaded + min(rods_left, capacity - lost - loaded) < target:
            return False
        # The next open cell: the first (level, cell) whose column is exactly that high.
        while pos < n * h and heights[pos % n] != pos // n:
            pos += 1
        if pos == n * h:
            return False
        c, z = pos % n, pos // n
        for length in (5, 4, 3, 2, 1):
            if not counts[length - 1]:
                continue
            counts[length - 1] -= 1
            for axis in ("x", "y", "z") if length > 1 else ("z",):
                if axis == "z":
                    if z + length > h:
                        continue
                    heights[c] = z + length
                    stack.append((length, c, z, "z"))
                    found = visit(pos + 1, loaded + length, lost, rods_left - length)
                    stack.pop()
                    heights[c] = z
                else:
                    line = geo.right[c] if axis == "x" else geo.down[c]
                    if len(line) < length or any(heights[d] != z for d in line[1:length]):
                        continue
                    for d in line[:length]:
                        heights[d] = z + 1
                    stack.append((length, c, z, axis))
                    found = visit(pos + 1, loaded + length, lost, rods_left - length)
                    stack.pop()
                    for d in line[:length]:
                        heights[d] = z
                if found:
                    counts[length - 1] += 1
                    return True
            counts[length - 1] += 1
        # Leave this cell, and so the rest of its column, empty for good.
        return visit(pos + 1, loaded, lost + h - z, rods_left)

    visit(0, 0, 0, volume)
    return tuple(
        Placement(length, geo.cells[c][0], geo.cells[c][1], z, axis)
        for length, c, z, axis in best
    )


def placements_of(truck: Truck, length: int) -> list[Placement]:
    """Every position a rod of ``length`` can take in an empty truck (support aside)."""
    out = []
    for x, y in truck.cells:
        for z in range(truck.height):
            for axis in ("x", "y", "z") if length > 1 else ("z",):
                p = Placement(length, x, y, z, axis)
                if all(truck.usable(cx, cy) and cz < truck.height for cx, cy, cz in p.cubes()):
                    out.append(p)
    return out


def _cp_sat(
    cargo: Cargo,
    truck: Truck,
    *,
    bound: int,
    hint: tuple[Placement, ...],
    time_limit: float | None,
    seed: int,
    workers: int,
) -> tuple[tuple[Placement, ...], Status, int]:
    model = cp_model.CpModel()
    chosen: dict[Placement, cp_model.IntVar] = {}
    covering: dict[tuple[int, int, int], list[cp_model.IntVar]] = {}
    for length in LENGTHS:
        if not cargo.count(length):
            continue
        rods = []
        for p in placements_of(truck, length):
            var = model.new_bool_var(str(p))
            chosen[p] = var
            rods.append(var)
            for cube in p.cubes():
                covering.setdefault(cube, []).append(var)
        model.add(sum(rods) <= cargo.count(length))
    # At most one rod per cube; a cube above the floor needs the cube below it filled.
    for (x, y, z), rods in covering.items():
        model.add_at_most_one(rods)
        if z > 0:
            model.add(sum(rods) <= sum(covering.get((x, y, z - 1), [])))
    volume = sum(p.length * var for p, var in chosen.items())
    model.add(volume <= bound)
    model.maximize(volume)
    hinted = set(hint)
    for p, var in chosen.items():
        model.add_hint(var, p in hinted)

    cp = cp_model.CpSolver()
    cp.parameters.num_workers = workers
    cp.parameters.random_seed = seed
    # CP-SAT's own Ctrl-C handler outlives the solve and aborts the process on a later Ctrl-C
    # (std::bad_function_call): leave SIGINT to Python, which raises KeyboardInterrupt.
    cp.parameters.catch_sigint_signal = False
    if time_limit is not None:
        cp.parameters.max_time_in_seconds = time_limit
    result = cp.solve(model)
    if result not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # No solution within the limit: the hint (possibly empty) is the best loading known.
        return hint, Status.FEASIBLE, bound
    placements = tuple(p for p, var in chosen.items() if cp.boolean_value(var))
    loaded = sum(p.length for p in placements)
    if result == cp_model.OPTIMAL:
        return placements, Status.OPTIMAL, loaded
    # The objective is integral, so the float bound rounds down to a proven integer bound.
    proven = min(bound, int(cp.best_objective_bound + 1e-6))
    return placements, Status.OPTIMAL if proven <= loaded else Status.FEASIBLE, max(proven, loaded)
