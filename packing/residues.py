"""The residue bound: de Bruijn's colouring argument, sharpened by the support rule.

Number each cube's coordinates modulo a rod length ``L`` and give the cube the weight
``e(x) ⊗ e(y) ⊗ e(z)``, where ``e(r)`` is the ``r``-th unit vector of ``Z^(L-1)`` for
``r < L - 1`` and ``e(L - 1) = (-1, …, -1)``. Any ``L`` consecutive residues weigh
``e(0) + … + e(L-1) = 0``, so a rod of length ``L`` (or a multiple of it) weighs nothing along
any axis (de Bruijn's proof that a box packs with ``1 × 1 × L`` bricks only when ``L`` divides
a side). In any loading, the truck's weight is therefore the weight of its empty cubes plus the
weight of its rods of the other lengths.

The support rule adds the shape of the empty cubes: every column is filled from the floor up,
so its empty cubes are its top ``d`` cubes, whose weight depends on ``d`` and on the column's
residues only. What is left is a small integer programme: how many columns of each residue
class are empty to each depth, how many rods of the other lengths lie at each residue and
axis, how many of the multiples of ``L`` are loaded; the weights must add up to the truck's and
the cubes to its capacity. It has every loading as a solution, so its largest loaded volume is
a bound. It is far smaller than the loading's own model (a variable per class, not per
position) and its proof takes CP-SAT milliseconds where the full model needs seconds: a full
6 × 10 floor of height 6 takes at most 352 cubes of 4-rods and 354 with three 3-rods, where
counting and subset sums both say 360.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from numbers import Real

from arena.values import seconds, whole_number
from packing.checks import cargo_arg, truck_arg
from packing.cp_solver import cp_solver
from packing.errors import InternalError, PackingError
from packing.model import Cargo, Truck
from packing.rules import LENGTHS

__all__ = ["residue_bound"]

_Weight = tuple[int, ...]


def residue_bound(
    cargo: Cargo,
    truck: Truck,
    below: int,
    *,
    work: float | None = None,
    deadline: float | None = None,
    seed: int = 0,
) -> int:
    """A volume no loading of ``cargo`` onto ``truck`` exceeds: the least of ``below`` (a bound
    already proven, such as :func:`packing.upper_bound`) and the residue bound for each length
    2..5 of a rod the cargo holds.

    ``work`` (CP-SAT's deterministic time for each length's programme, a unit roughly a
    second of one core) and ``deadline`` (a :func:`time.perf_counter` time) cut the proof
    short; the bound proven by then is returned, at worst ``below``. Raises
    :class:`PackingError` for a negative ``below`` or a ``work`` that is not positive.

    >>> residue_bound(Cargo({4: 100}), Truck.parse("######/" * 9 + "######", height=6), 360)
    352
    """
    cargo = cargo_arg(cargo, "residue_bound")
    truck = truck_arg(truck, "residue_bound")
    below = whole_number(below, "below", low=0, error=PackingError, where="residue_bound")
    if work is not None:
        work = seconds(work, "work", error=PackingError, where="residue_bound")
    if deadline is not None and (isinstance(deadline, bool) or not isinstance(deadline, Real)):
        raise TypeError(
            f"residue_bound: deadline must be a time.perf_counter() time or None, not {deadline!r}"
        )
    bound = below
    for length in LENGTHS[1:]:
        if any(
            cargo.count(multiple) and truck.fits(multiple)
            for multiple in LENGTHS
            if multiple % length == 0
        ):
            found = _bound_for(cargo, truck, length, bound, work=work, deadline=deadline, seed=seed)
            bound = min(bound, found)
    return bound


def _bound_for(
    cargo: Cargo,
    truck: Truck,
    modulus: int,
    below: int,
    *,
    work: float | None,
    deadline: float | None,
    seed: int,
) -> int:
    """The residue bound for rods whose lengths ``modulus`` divides, at most ``below``."""
    from ortools.sat.python import cp_model  # imported on first use, as the solver does

    height = truck.height
    size = (modulus - 1) ** 3
    model = cp_model.CpModel()
    terms: list[list[cp_model.LinearExprT]] = [[] for _ in range(size)]

    def weigh(variable: cp_model.IntVar, weight: _Weight) -> None:
        for i, value in enumerate(weight):
            if value:
                terms[i].append(value * variable)

    # Empty cubes: in each column its top `depth` cubes.
    empty_cubes: list[cp_model.LinearExprT] = []
    classes = Counter((x % modulus, y % modulus) for x, y in truck.cells)
    for (rx, ry), columns in sorted(classes.items()):
        depths = []
        for depth in range(1, height + 1):
            variable = model.new_int_var(0, columns, f"empty {rx},{ry} depth {depth}")
            depths.append(variable)
            empty_cubes.append(depth * variable)
            top = _run(height - depth, depth, modulus)
            weigh(variable, _tensor(_unit(rx, modulus), _unit(ry, modulus), top))
        model.add(sum(depths) <= columns)

    # Rods: the multiples of `modulus` weigh nothing; the others by residue and axis.
    loaded: list[cp_model.LinearExprT] = []
    for length in LENGTHS:
        count = cargo.count(length) if truck.fits(length) else 0
        if not count:
            continue
        if length % modulus == 0:
            loaded.append(length * model.new_int_var(0, count, f"rods of {length}"))
            continue
        rods = []
        for weight in sorted(_rod_weights(truck, length, modulus)):
            variable = model.new_int_var(0, count, f"rods of {length} weighing {weight}")
            rods.append(variable)
            weigh(variable, weight)
        model.add(sum(rods) <= count)
        loaded.append(length * sum(rods))

    truck_weight = _sum(
        (
            _tensor(_unit(x, modulus), _unit(y, modulus), _run(0, height, modulus))
            for x, y in truck.cells
        ),
        size,
    )
    for i in range(size):
        model.add(sum(terms[i]) == truck_weight[i])
    volume = cp_model.LinearExpr.sum(loaded)
    model.add(volume + cp_model.LinearExpr.sum(empty_cubes) == truck.capacity)
    model.add(volume <= below)
    model.maximize(volume)

    solver = cp_solver(workers=1, seed=seed, work=work, deadline=deadline)
    if solver is None:
        return below
    result = solver.solve(model)
    if result in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # The objective is integral: the float bound rounds down to a proven integer bound.
        return min(below, int(solver.best_objective_bound + 1e-6))
    if result == cp_model.UNKNOWN:
        return below  # cut short before any loading: nothing proven beyond `below`
    # Loading nothing (every column empty to the top) always solves the programme.
    raise InternalError(
        f"CP-SAT gives {solver.status_name(result)} for the residue bound modulo {modulus} "
        f"(cargo {cargo}, truck {truck} height {height}): a bug in the programme, please report it"
    )


def _unit(residue: int, modulus: int) -> _Weight:
    """e(residue): a unit vector, or all -1 for the last residue, so that a full cycle sums to 0."""
    residue %= modulus
    if residue == modulus - 1:
        return (-1,) * (modulus - 1)
    return tuple(int(i == residue) for i in range(modulus - 1))


def _run(start: int, length: int, modulus: int) -> _Weight:
    """The weight of ``length`` consecutive coordinates from ``start``, along one axis."""
    return _sum((_unit(start + i, modulus) for i in range(length)), modulus - 1)


def _tensor(a: _Weight, b: _Weight, c: _Weight) -> _Weight:
    return tuple(p * q * r for p in a for q in b for r in c)


def _sum(weights: Iterable[_Weight], size: int) -> _Weight:
    total = [0] * size
    for weight in weights:
        for i, value in enumerate(weight):
            total[i] += value
    return tuple(total)


def _rod_weights(truck: Truck, length: int, modulus: int) -> set[_Weight]:
    """The weights a rod of ``length`` takes somewhere in the empty truck (support aside)."""
    height = truck.height
    # Where rods fit, as the residues of their first cube and their axis: the weight depends on
    # nothing else, and the truck has far more positions than residues.
    starts: set[tuple[str, int, int, int]] = set()
    for x, y in truck.cells:
        rx, ry = x % modulus, y % modulus
        # Upright: its lowest cube at any level it fits under the cap.
        starts.update(("z", rx, ry, z % modulus) for z in range(height - length + 1))
        if length == 1:
            continue
        # Lying along a row (x) or a column (y), at any level.
        for axis, dx, dy in (("x", 1, 0), ("y", 0, 1)):
            if all(truck.usable(x + i * dx, y + i * dy) for i in range(length)):
                starts.update((axis, rx, ry, z % modulus) for z in range(height))
    return {
        _tensor(
            _run(rx, length if axis == "x" else 1, modulus),
            _run(ry, length if axis == "y" else 1, modulus),
            _run(rz, length if axis == "z" else 1, modulus),
        )
        for axis, rx, ry, rz in starts
    }
