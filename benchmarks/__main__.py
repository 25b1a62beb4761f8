"""Dispatch ``python -m benchmarks <suite> [options]`` to ``benchmarks/<suite>.py``."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def suites() -> list[str]:
    """The suite names: every module of this package except the dispatcher (``express_games`` is
    the suite ``express-games``)."""
    here = Path(__file__).parent
    return sorted(
        m.name.replace("_", "-")
        for m in pkgutil.iter_modules([str(here)])
        if not m.name.startswith("_")
    )


def main(argv: list[str]) -> int:
    names = suites()
    if not argv or argv[0] in ("-h", "--help"):
        print(f"usage: python -m benchmarks {{{','.join(names)}}} [options]")
        return 0 if argv else 2
    suite, rest = argv[0], argv[1:]
    if suite not in names:
        print(
            f"benchmarks: unknown suite {suite!r} (choose from {', '.join(names)})", file=sys.stderr
        )
        return 2
    module = importlib.import_module(f"benchmarks.{suite.replace('-', '_')}")
    return int(module.main(rest))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
