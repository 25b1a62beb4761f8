"""What the suites share: timing helpers and running a suite's sections (not a suite itself:
the dispatcher skips ``_`` modules)."""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Mapping, Sequence
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


def at_least(minimum: int) -> Callable[[str], int]:
    """An option's type for argparse: a whole number of at least ``minimum`` (anything else is
    argparse's one-line usage error, exit status 2).

    >>> at_least(1)("3")
    3
    """

    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"not a whole number of at least {minimum}: {text!r}")
        return value

    return whole_number


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


def run_sections(
    parser: argparse.ArgumentParser,
    argv: list[str],
    sections: Mapping[str, Callable[[argparse.Namespace], list[str]]],
    title: str,
) -> int:
    """Parse ``argv`` (with ``--only SECTION ...`` added to ``parser``), print ``title`` with the
    machine's load, then the lines of each section asked for, in order."""
    parser.add_argument("--only", nargs="+", choices=list(sections), help="run only these sections")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{title} (load average {load:.1f} on {os.cpu_count()} cores)")
    for name, section in sections.items():
        if args.only is None or name in args.only:
            print()
            print("\n".join(section(args)))
    return 0
