"""SciPy, the independent reference the arena's statistics and ratings are compared with: the
test extra brings it, and the run on the core alone (make test-core) skips what needs it."""

from __future__ import annotations

from typing import Any

import pytest


def _scipy(module: str) -> Any:
    return pytest.importorskip(
        module, reason="SciPy comes with the test extra: pip install 'tabletop-solvers[test]'"
    )


@pytest.fixture
def scipy_stats() -> Any:
    return _scipy("scipy.stats")


@pytest.fixture
def scipy_optimize() -> Any:
    return _scipy("scipy.optimize")
