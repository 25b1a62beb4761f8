"""The exact loading solver: the most volume a cargo can load onto a truck.

Two stages, and every answer is proven:

1. **Bound-proven fast path.** ``upper_bound`` is a volume no loading can exceed: the largest
   sum of lengths of rods that fit the truck at all within its capacity. A short depth-first
   search looks for a loading that reaches it; if it finds one, that loading is optimal by
   the bound and no model is built. Most cargos end here. On a truck larger than the cards,
   a miss is tried again in other orders of rods (:class:`Strategy`).
2. **CP-SAT.** Otherwise a CP-SAT model with one Boolean per rod placement (length × position
   × axis) maximises the loaded volume, with the objective capped at the bound. It gets no
   hint (measured faster than hinting the search's loading); the search's loading is kept only
   when a time limit stops CP-SAT before it does as well. On a truck larger than the cards a
   sharper bound (:mod:`packing.residues`) and a loading built level by level
   (:mod:`packing.layered`) come first, and the model states which cubes are empty
   (:class:`Strategy`).

The search's key fact: since every cube above the floor rests on the cube below it, each
column of the truck is filled from the floor up without gaps, so a loading is a height map.
Visiting cells level by level in reading order, the first open cell is either the start
(lowest-coordinate cube) of a rod or stays empty for good, which enumerates each loading once.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from arena.executors import MAX_WORKERS
from arena.values import whole_number
from packing.checks import cargo_arg, positive_int_arg, time_limit_arg, truck_arg
from packing.cp_solver import cp_solver
from packing.errors import InternalError, PackingError
from packing.layered import layered_loading
from packing.model import AXES, Axis, Cargo, Engine, LoadPlan, Placement, Status, Truck
from packing.residues import residue_bound
from packing.rules import GRID_COLUMNS, GRID_ROWS, LENGTHS, MAX_HEIGHT

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

#: Nodes the fast path may visit, beyond one per rod it may load, before handing over to
#: CP-SAT. Searches that reach the bound almost always do so within a few dozen nodes more than
#: they place rods; the rest rarely succeed later. (So a large cargo that plainly fits a large
#: variant truck costs in proportion to its rods, and never reaches CP-SAT.)
FAST_PATH_NODES = 400
#: The most rod placements (Booleans) the CP-SAT model may have: about a gigabyte of memory.
#: A larger model (a variant truck far beyond the cards, with a cargo the fast path cannot
#: load to the bound) is refused with a :class:`PackingError`, or, under a time limit, the
#: fast path's loading is returned as feasible, with its proven bound.
LARGEST_MODEL = 200_000
#: Under a time limit the search reads the clock every this many nodes (a node costs ~1 µs).
_CLOCK_EVERY = 16
#: The largest capacity of a printed card (3 × 5 cells, height 4): larger trucks are variants.
_CARD_CAPACITY = GRID_ROWS * GRID_COLUMNS * MAX_HEIGHT


@dataclass(frozen=True)
class Strategy:
    """How :func:`solve` looks for its proof. Every strategy proves the same optimum (a plan's
    ``loaded`` when it is ``optimal``): they differ in time only. :data:`DEFAULT_STRATEGY` is
    what :func:`solve` uses; :data:`PLAIN_STRATEGY` turns the levers below off, so that
    ``python -m benchmarks hard`` measures what each brings.

    - ``subset_sum_bound``: the bound the search aims at and CP-SAT's objective is capped at is
      the largest sum of the fitting rods' lengths within the capacity (off: the smaller of
      the capacity and their volume). A cargo no sum of whose rods reaches the capacity is
      then settled by the quick search instead of CP-SAT.
    - ``large_capacity``: trucks of at least this capacity (beyond every printed card) count
      as large; the levers below work on large trucks only, where they pay.
    - ``wide_orders``, ``wide_nodes``: when the quick search's first order of rods misses the
      bound, this many more orders (the lengths the other way round, the axes in other
      orders) get this many nodes each: a fill one order misses another often finds at once.
    - ``residue_work``: when the search misses, up to this much work (for each rod length)
      goes to a sharper bound (:func:`packing.residue_bound`: de Bruijn's colouring argument
      with the support rule), and the search tries again when it is lower. It proves in
      milliseconds that a full truck cannot be filled where the full model needs seconds.
    - ``layered_work``: when the search still misses, up to this much work goes to a loading
      of the bound built level by level (:mod:`packing.layered`: slabs of upright rods, full
      levels of rods along the rows or the columns, a last level partly filled), a small
      integer programme where the search would need luck and the full model seconds.
    - ``empty_cubes``: CP-SAT's model has a Boolean per cube that is empty, each cube holds
      exactly one rod or is empty, and an empty cube has only empty cubes above it; CP-SAT
      keeps every constraint in its LP (``linearization_level=2``). Off: at most one rod per
      cube and a support row per cube, at CP-SAT's default level, whose presolve turns the
      support into clauses the LP never sees; its LP then lets rods float and cannot prove a
      loading below the bound. With the empty cubes the LP proves such loadings at the root,
      and fills are found about as fast.

    Work is CP-SAT's deterministic time (``max_deterministic_time``; a unit is roughly a
    second of one core), not the clock: a busy machine does the same work and gives the same
    loading, only later. A ``time_limit`` of :func:`solve` still stops everything on the clock.
    """

    subset_sum_bound: bool = True
    large_capacity: int = _CARD_CAPACITY + 1
    residue_work: float = 0.5
    layered_work: float = 0.2
    wide_orders: int = 5
    wide_nodes: int = 3000
    empty_cubes: bool = True


DEFAULT_STRATEGY = Strategy()
"""The strategy :func:`solve` uses unless told otherwise."""

PLAIN_STRATEGY = Strategy(
    subset_sum_bound=False,
    residue_work=0.0,
    layered_work=0.0,
    wide_orders=0,
    wide_nodes=0,
    empty_cubes=False,
)
"""No subset-sum or residue bound, one order of the quick search, CP-SAT's support rows at its
default LP: the yardstick the benchmark measures :data:`DEFAULT_STRATEGY` against."""


_FIRST_ORDER: tuple[tuple[int, tuple[Axis, ...]], ...] = tuple(
    (length, ("x", "y", "z") if length > 1 else ("z",)) for length in (5, 4, 3, 2, 1)
)


def _other_orders(cargo: Cargo) -> list[tuple[tuple[int, tuple[Axis, ...]], ...]]:
    """The quick search's orders besides the first, most different first: the cargo's lengths
    the other way round (short rods first), then the axes in other orders."""
    present = [length for length in (5, 4, 3, 2, 1) if cargo.count(length)]
    out: list[tuple[tuple[int, tuple[Axis, ...]], ...]] = []
    for axes in _AXIS_ORDERS:
        for lengths in (present, present[::-1]):
            order = tuple((length, axes if length > 1 else ("z",)) for length in lengths)
            if order not in out and order != _present(_FIRST_ORDER, present):
                out.append(order)
    return out


def _present(
    order: tuple[tuple[int, tuple[Axis, ...]], ...], lengths: list[int]
) -> tuple[tuple[int, tuple[Axis, ...]], ...]:
    return tuple((length, axes) for length, axes in order if length in lengths)


_AXIS_ORDERS: tuple[tuple[Axis, ...], ...] = (
    ("x", "y", "z"),
    ("y", "x", "z"),
    ("z", "x", "y"),
    ("x", "z", "y"),
    ("y", "z", "x"),
    ("z", "y", "x"),
)


@dataclass(frozen=True)
class _Geometry:
    """What the search needs of a truck, indexed by cell number (reading order)."""

    cells: tuple[tuple[int, int], ...]
    height: int
    # right[c]: c and the usable cells after it in its row, at most 5 in all (the longest rod)
    right: tuple[tuple[int, ...], ...]
    down: tuple[tuple[int, ...], ...]  # down[c]: the same below c in its column


@lru_cache(maxsize=256)
def _geometry(truck: Truck) -> _Geometry:
    index = {cell: i for i, cell in enumerate(truck.cells)}

    longest = max(LENGTHS)

    def run(x: int, y: int, dx: int, dy: int) -> tuple[int, ...]:
        # No rod is longer than 5 cells: more of the run would make set-up quadratic in a
        # long row's length.
        out: list[int] = []
        while (x, y) in index and len(out) < longest:
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
    """A volume no loading of ``cargo`` onto ``truck`` can exceed: the largest sum of lengths
    of rods that fit the truck at all that is at most the truck's capacity.

    >>> upper_bound(Cargo({5: 1, 1: 2}), Truck.parse("####/####/####", height=4))
    2
    >>> upper_bound(Cargo({2: 5}), Truck.parse("###/###/###", height=1))  # even rods, 9 cubes
    8
    """
    cargo = cargo_arg(cargo, "upper_bound")
    truck = truck_arg(truck, "upper_bound")
    return _upper_bound(cargo, truck)


def _counting_bound(cargo: Cargo, truck: Truck) -> int:
    """min(capacity, volume of the rods that fit the truck at all): a weaker bound."""
    fitting = sum(length * cargo.count(length) for length in LENGTHS if truck.fits(length))
    return min(truck.capacity, fitting)


def _upper_bound(cargo: Cargo, truck: Truck, subset_sum: bool = True) -> int:
    counting = _counting_bound(cargo, truck)
    capacity = truck.capacity
    if counting < capacity or not subset_sum:
        return counting  # every fitting rod can count: no subset does better
    # The rods' lengths that can add up to each volume up to the capacity, as the bits of one
    # integer (bit v: volume v is some sub-multiset's sum): a bounded subset sum, each length's
    # count split into powers of two so a length costs log2(count) shifts.
    sums = 1
    within = (1 << (capacity + 1)) - 1
    for length in LENGTHS:
        count = cargo.count(length) if truck.fits(length) else 0
        part = 1
        while count > 0:
            take = min(part, count)
            sums = (sums | sums << (length * take)) & within
            count -= take
            part *= 2
    return sums.bit_length() - 1


def solve(
    cargo: Cargo,
    truck: Truck,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    workers: int = 1,
    fast_path: bool = True,
    strategy: Strategy = DEFAULT_STRATEGY,
) -> LoadPlan:
    """The loading of ``cargo`` onto ``truck`` that loads the most volume (least penalty).

    Deterministic by default (one worker, fixed seed). ``time_limit`` (seconds, a positive
    finite number) bounds the whole call: the search, building the model and solving it. A
    plan cut short is the best loading found, with status ``feasible`` and the proven
    ``bound`` (``optimal`` when that loading already meets the bound). ``fast_path=False``
    always builds and solves the CP-SAT model, with no search and no hint: slower, and an
    independent check of the fast path. ``strategy``: how the proof is looked for (see
    :class:`Strategy`; every strategy proves the same optimum).

    >>> plan = solve(Cargo({4: 3}), Truck.parse("#####/#####/#####", height=1))
    >>> plan.loaded, plan.penalty, plan.optimal
    (12, 3, True)
    """
    start = time.perf_counter()
    cargo = cargo_arg(cargo, "solve")
    truck = truck_arg(truck, "solve")
    limit = time_limit_arg(time_limit, "solve")
    seed = whole_number(seed, "seed", where="solve")
    if not 0 <= seed < 2**31:
        raise PackingError(f"invalid seed {seed!r}: it must be in 0..2**31-1 (CP-SAT's range)")
    workers = positive_int_arg(workers, "workers", "solve")
    if workers > MAX_WORKERS:  # CP-SAT's threads: the cap every worker count has
        raise PackingError(f"invalid workers {workers!r}: at most {MAX_WORKERS}")
    if not isinstance(fast_path, bool):
        raise TypeError(f"solve: fast_path must be True or False, not {fast_path!r}")
    if not isinstance(strategy, Strategy):
        raise TypeError(f"solve: strategy must be a packing.Strategy, not {strategy!r}")
    deadline = None if limit is None else start + limit
    large = truck.capacity >= strategy.large_capacity

    bound = _upper_bound(cargo, truck, strategy.subset_sum_bound)
    best: tuple[Placement, ...] = ()
    if fast_path:
        nodes = FAST_PATH_NODES + min(sum(cargo.counts), truck.capacity)
        searches = [(_FIRST_ORDER, nodes)]
        if large:
            searches += [(order, strategy.wide_nodes) for order in _other_orders(cargo)]
            del searches[1 + strategy.wide_orders :]
        best = _quick_search(cargo, truck, searches, bound, deadline)
        if _volume(best) >= bound or _expired(deadline):
            return _plan(truck, cargo, best, bound, start, Engine.BOUND)
        if large and strategy.residue_work > 0:
            tighter = residue_bound(
                cargo, truck, bound, work=strategy.residue_work, deadline=deadline, seed=seed
            )
            if tighter < bound:
                # A loading the search passed over on its way to the old bound may meet this one.
                bound = tighter
                found = _quick_search(cargo, truck, searches, bound, deadline)
                best = max(best, found, key=_volume)
                if _volume(best) >= bound or _expired(deadline):
                    return _plan(truck, cargo, best, bound, start, Engine.BOUND)
        if large and strategy.layered_work > 0:
            layered = layered_loading(
                cargo, truck, bound, deadline=deadline, work=strategy.layered_work, seed=seed
            )
            best = max(best, layered, key=_volume)
            if _volume(best) >= bound or _expired(deadline):
                return _plan(truck, cargo, best, bound, start, Engine.BOUND)
    size = model_size(cargo, truck)
    if size > LARGEST_MODEL:
        if limit is not None:
            return _plan(truck, cargo, best, bound, start, Engine.BOUND)
        raise PackingError(
            f"cargo {cargo} on truck {truck.name or str(truck)[:40]!r} (height {truck.height}, "
            f"capacity {truck.capacity:,}) needs an exact model of {size:,} rod placements, "
            f"more than the {LARGEST_MODEL:,} this solver builds: give a time limit for the "
            f"best loading the search finds, with its proven bound"
        )
    placements, bound = _cp_sat(
        cargo,
        truck,
        bound=bound,
        deadline=deadline,
        seed=seed,
        workers=workers,
        empty_cubes=strategy.empty_cubes and large,
    )
    if _volume(placements) >= _volume(best):  # else a time limit stopped CP-SAT early
        best = placements
    return _plan(truck, cargo, best, bound, start, Engine.CP_SAT)


def _quick_search(
    cargo: Cargo,
    truck: Truck,
    searches: list[tuple[tuple[tuple[int, tuple[Axis, ...]], ...], int]],
    target: int,
    deadline: float | None,
) -> tuple[Placement, ...]:
    """The best loading of the quick searches (each an order of rods and a node limit), run in
    turn until one reaches ``target`` or ``deadline`` passes."""
    best: tuple[Placement, ...] = ()
    for order, node_limit in searches:
        found = _search(
            cargo, truck, target=target, node_limit=node_limit, deadline=deadline, order=order
        )
        if _volume(found) > _volume(best):
            best = found
        if _volume(best) >= target or _expired(deadline):
            break
    return best


def _plan(
    truck: Truck,
    cargo: Cargo,
    placements: tuple[Placement, ...],
    bound: int,
    start: float,
    engine: Engine,
) -> LoadPlan:
    # Whatever stopped the call, a loading that meets the proven bound is optimal.
    status = Status.OPTIMAL if _volume(placements) >= bound else Status.FEASIBLE
    return LoadPlan(truck, cargo, placements, status, bound, time.perf_counter() - start, engine)


def _volume(placements: tuple[Placement, ...]) -> int:
    return sum(p.length for p in placements)


def _expired(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() >= deadline


def _search(
    cargo: Cargo,
    truck: Truck,
    *,
    target: int,
    node_limit: int,
    deadline: float | None = None,
    order: tuple[tuple[int, tuple[Axis, ...]], ...] = _FIRST_ORDER,
) -> tuple[Placement, ...]:
    """Depth-first search for a loading of volume ``target``; the best loading seen.

    Stops at the first loading that reaches ``target``, after ``node_limit`` nodes, or at
    ``deadline`` (a ``time.perf_counter()`` value, looked at every few nodes). ``order``: the
    rods tried at each open cell, first to last, each length with its axes in turn.
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
    stop_at = math.inf if deadline is None else deadline

    def keep(loaded: int) -> None:
        # Called where a path ends, not at every node: copying the stack at each new best
        # would cost the square of the rods on a long path.
        if loaded > state["best"]:
            state["best"] = loaded
            best[:] = stack

    def visit(pos: int, loaded: int, lost: int, rods_left: int) -> bool:
        if loaded >= target:
            keep(loaded)
            return True
        state["nodes"] += 1
        if state["nodes"] > node_limit:
            keep(loaded)
            return False
        if not state["nodes"] % _CLOCK_EVERY and time.perf_counter() >= stop_at:
            state["nodes"] = node_limit  # out of time: every later node stops at once
            keep(loaded)
            return False
        if loaded + min(rods_left, capacity - lost - loaded) < target:
            keep(loaded)
            return False
        # The next open cell: the first (level, cell) whose column is exactly that high.
        while pos < n * h and heights[pos % n] != pos // n:
            pos += 1
        if pos == n * h:
            keep(loaded)
            return False
        c, z = pos % n, pos // n
        for length, axes in order:
            if not counts[length - 1]:
                continue
            counts[length - 1] -= 1
            for axis in axes:
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

    # One frame per node: allow the deepest search the node limit lets through.
    depth = node_limit + 100
    previous = sys.getrecursionlimit()
    if depth > previous:
        sys.setrecursionlimit(depth)
    try:
        visit(0, 0, 0, volume)
    finally:
        if depth > previous:
            sys.setrecursionlimit(previous)
    return tuple(
        Placement(length, geo.cells[c][0], geo.cells[c][1], z, axis) for length, c, z, axis in best
    )


def model_size(cargo: Cargo, truck: Truck) -> int:
    """How many rod placements (Booleans) the CP-SAT model of ``cargo`` on ``truck`` has at
    most: every position of each length the cargo holds and the truck fits (support aside).

    >>> model_size(Cargo({1: 2}), Truck.parse("##", height=1))
    2
    """
    cells = len(truck.cells)
    total = 0
    for length in LENGTHS:
        if cargo.count(length) and truck.fits(length):
            upright = cells * max(truck.height - length + 1, 0)
            total += upright if length == 1 else upright + 2 * cells * truck.height
    return total


def placements_of(truck: Truck, length: int) -> list[Placement]:
    """Every position a rod of ``length`` can take in an empty truck (support aside)."""
    return list(_placements(truck, length))


@lru_cache(maxsize=1024)
def _placements(truck: Truck, length: int) -> tuple[Placement, ...]:
    out = []
    for x, y in truck.cells:
        for z in range(truck.height):
            for axis in AXES if length > 1 else ("z",):
                p = Placement(length, x, y, z, axis)
                if all(truck.usable(cx, cy) and cz < truck.height for cx, cy, cz in p.cubes()):
                    out.append(p)
    return tuple(out)


def _cp_sat(
    cargo: Cargo,
    truck: Truck,
    *,
    bound: int,
    deadline: float | None,
    seed: int,
    workers: int,
    empty_cubes: bool = False,
) -> tuple[tuple[Placement, ...], int]:
    """The CP-SAT model's best loading and the proven bound on any loading's volume.

    ``empty_cubes``: the model of :class:`Strategy`'s lever of that name, solved with every
    constraint in CP-SAT's LP; otherwise support rows and CP-SAT's default LP.

    No hint: hinting the fast path's loading (its rods True, with or without every other
    placement False) made CP-SAT slower on larger grids (see benchmarks/README.md). With
    ``deadline`` the model is built only while time is left and CP-SAT gets the rest. A model
    left unsolved gives back no loading and the bound it was given.
    """
    # Long on purpose: the model (one Boolean per placement, at most one per cube, support
    # and the capped objective) and the translation of every CP-SAT status read as one piece,
    # as the OR-Tools examples are written; split, each part would need all the variables.
    # Imported on first use: ortools (with pandas) takes about a second to import, and most
    # answers — the fast path, the table — never need it.
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    chosen: dict[Placement, cp_model.IntVar] = {}
    covering: dict[tuple[int, int, int], list[cp_model.IntVar]] = {}
    for length in LENGTHS:
        if not cargo.count(length) or not truck.fits(length):
            continue
        if _expired(deadline):
            return (), bound
        rods = []
        for p in _placements(truck, length):
            var = model.new_bool_var(str(p))
            chosen[p] = var
            rods.append(var)
            for cube in p.cubes():
                covering.setdefault(cube, []).append(var)
        model.add(sum(rods) <= cargo.count(length))
    volume = sum(p.length * var for p, var in chosen.items())
    if empty_cubes:
        # Each cube holds exactly one rod or is empty, and a column's empty cubes are its top
        # ones: the support as implications between Booleans, which the LP keeps.
        empty = {cube: model.new_bool_var(f"empty {cube}") for cube in covering}
        for cube, rods in covering.items():
            model.add_exactly_one([*rods, empty[cube]])
        for (x, y, z), is_empty in empty.items():
            if z > 0:
                model.add_implication(empty[(x, y, z - 1)], is_empty)
        # The cap counted in empty cubes too: a row the LP reads without the rods.
        model.add(sum(empty.values()) >= truck.capacity - bound)
    else:
        # At most one rod per cube; a cube above the floor needs the cube below it filled.
        for (x, y, z), rods in covering.items():
            model.add_at_most_one(rods)
            if z > 0:
                model.add(sum(rods) <= sum(covering.get((x, y, z - 1), [])))
    model.add(volume <= bound)
    model.maximize(volume)

    cp = cp_solver(workers=workers, seed=seed, work=None, deadline=deadline)
    if cp is None:
        return (), bound
    if empty_cubes:
        cp.parameters.linearization_level = 2
    result = cp.solve(model)
    # Every status CP-SAT can give, spelled out: none falls through to a default.
    if result == cp_model.OPTIMAL:
        placements = _chosen(cp, chosen)
        return placements, _volume(placements)
    if result == cp_model.FEASIBLE:
        placements = _chosen(cp, chosen)
        # The objective is integral: the float bound rounds down to a proven integer bound.
        return placements, max(min(bound, int(cp.best_objective_bound + 1e-6)), _volume(placements))
    if result == cp_model.UNKNOWN:
        if deadline is None:
            raise InternalError(
                f"CP-SAT stopped without a result and without a time limit "
                f"(cargo {cargo}, truck {truck} height {truck.height}): please report it"
            )
        return (), bound  # the time limit came before any loading
    if result == cp_model.INFEASIBLE:
        raise InternalError(
            f"CP-SAT calls the loading model infeasible, but loading nothing is always a "
            f"solution: a bug in the model (cargo {cargo}, truck {truck} height {truck.height})"
        )
    if result == cp_model.MODEL_INVALID:
        raise InternalError(
            f"CP-SAT rejects the loading model as invalid ({model.validate()!r}): a bug in the "
            f"model (cargo {cargo}, truck {truck} height {truck.height})"
        )
    raise InternalError(f"unknown CP-SAT status {result!r}: this solver does not know it")


def _chosen(
    cp: cp_model.CpSolver, chosen: dict[Placement, cp_model.IntVar]
) -> tuple[Placement, ...]:
    return tuple(p for p, var in chosen.items() if cp.boolean_value(var))
