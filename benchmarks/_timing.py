"""The timing helpers the suites share (not a suite: the dispatcher skips ``_`` modules)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from arena import Action, Policy


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` by rank (the value at ``int(q * n)``, the last at most).

    >>> percentile([3.0, 1.0, 2.0, 4.0], 0.95)
    4.0
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Timed:
    """A policy that times every decision of the policy it wraps (the benchmarks' own probe)."""

    policy: Policy
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def act(
        self, observation: Any, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        began, began_cpu = time.perf_counter(), time.process_time()
        action = self.policy.act(observation, legal_actions, rng)
        self.seconds.append(time.perf_counter() - began)
        self.cpu.append(time.process_time() - began_cpu)
        return action
