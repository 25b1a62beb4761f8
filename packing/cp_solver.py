"""CP-SAT's solver set up as both of the solver's models run it (:mod:`packing.solver`'s full
model and :mod:`packing.layered`'s level patterns): seeded, on a given number of workers,
stopped on work (deterministic time) and on the clock's deadline, Ctrl-C left to Python."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["cp_solver"]


def cp_solver(
    *, workers: int, seed: int, work: float | None, deadline: float | None
) -> cp_model.CpSolver | None:
    """A CP-SAT solver with these settings, or None when ``deadline`` (a
    :func:`time.perf_counter` time) has passed. ``work`` is CP-SAT's deterministic time (a unit
    is roughly a second of one core; None: no limit)."""
    from ortools.sat.python import cp_model  # imported on first use, as the solver does

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    # CP-SAT's own Ctrl-C handler outlives the solve and aborts the process on a later
    # Ctrl-C (std::bad_function_call): leave SIGINT to Python (KeyboardInterrupt).
    solver.parameters.catch_sigint_signal = False
    if work is not None:
        # Deterministic time, not wall time: the same work however busy the machine is, so the
        # same question gets the same answer the same way.
        solver.parameters.max_deterministic_time = work
    if deadline is not None:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return None
        solver.parameters.max_time_in_seconds = remaining
    return solver
