"""The solver-free validator: the loading rules of ``docs/rules/pack-and-stack.md`` in code.

It reads only the truck's mask and height, the cargo's counts and each placement's fields;
it shares no code with the solver, so a plan that passes here is valid whatever produced it.
"""

from __future__ import annotations

from arena.text import plural
from packing.errors import InvalidPlan
from packing.model import LoadPlan, Status
from packing.rules import EMPTY_COST, LEFT_OVER_COST, LENGTHS

_STEP = {"x": (1, 0, 0), "y": (0, 1, 0), "z": (0, 0, 1)}


def problems(plan: LoadPlan) -> list[str]:
    """Every rule the plan breaks, in words (empty when the plan is valid).

    >>> from packing import Cargo, Truck, Placement, LoadPlan
    >>> truck = Truck.parse("##/##", height=1)
    >>> plan = LoadPlan.from_placements(truck, Cargo({2: 1}), [Placement(2, 1, 0, 0, "x")])
    >>> problems(plan)
    ['rod 2x@1,0,0: cube (2, 0, 0) is outside the loading area']
    """
    if not isinstance(plan, LoadPlan):
        raise TypeError(f"expected a LoadPlan to check, not {type(plan).__name__} {plan!r}")
    found: list[str] = []
    truck, cargo = plan.truck, plan.cargo
    occupied: dict[tuple[int, int, int], str] = {}
    used = dict.fromkeys(LENGTHS, 0)
    for p in plan.placements:
        name = f"rod {p.length}{p.axis}@{p.x},{p.y},{p.z}"
        if p.length not in LENGTHS or p.axis not in _STEP:
            found.append(f"{name}: not a rod of length 1..5 along x, y or z")
            continue
        used[p.length] += 1
        dx, dy, dz = _STEP[p.axis]
        for i in range(p.length):
            x, y, z = p.x + i * dx, p.y + i * dy, p.z + i * dz
            inside = 0 <= y < len(truck.mask) and 0 <= x < len(truck.mask[y]) and truck.mask[y][x]
            if not inside:
                found.append(f"{name}: cube {(x, y, z)} is outside the loading area")
            elif not 0 <= z < truck.height:
                found.append(f"{name}: cube {(x, y, z)} is above the height cap {truck.height}")
            if (x, y, z) in occupied:
                found.append(f"{name}: cube {(x, y, z)} is also taken by {occupied[(x, y, z)]}")
            occupied[(x, y, z)] = name
    for (x, y, z), name in sorted(occupied.items()):
        if z > 0 and (x, y, z - 1) not in occupied:
            found.append(f"{name}: cube {(x, y, z)} hangs over empty space")
    for length in LENGTHS:
        have = cargo.counts[length - 1]
        if used[length] > have:
            found.append(
                f"{plural(used[length], 'rod')} of length {length} loaded but the cargo has {have}"
            )

    loaded = len(occupied)
    capacity = len([c for row in truck.mask for c in row if c]) * truck.height
    volume = sum(length * cargo.counts[length - 1] for length in LENGTHS)
    expected = EMPTY_COST * (capacity - loaded) + LEFT_OVER_COST * (volume - loaded)
    if plan.loaded != loaded or plan.penalty != expected:
        found.append(
            f"plan reports loaded {plan.loaded}, penalty {plan.penalty}; "
            f"the cubes give loaded {loaded}, penalty {expected}"
        )
    if plan.bound is not None:
        if plan.bound < loaded:
            found.append(f"bound {plan.bound} is below the loaded volume {loaded}")
    if plan.status is Status.OPTIMAL and plan.bound != loaded:
        found.append(
            f"plan claims optimal but its bound {plan.bound} is not its loaded volume {loaded}"
        )
    return found


def verify(plan: LoadPlan) -> LoadPlan:
    """Check a plan against every loading rule; raise :class:`InvalidPlan` naming the first
    broken one. Returns the plan, so ``verify(solve(...))`` reads naturally."""
    found = problems(plan)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise InvalidPlan(found[0] + more)
    return plan
