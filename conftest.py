"""The suite on any install: what needs a missing extra is skipped, with the command that adds it.

The core needs only OR-Tools and NumPy, so the suite runs on the core and the test runners alone
(the ``test-core`` extra; ``make test-core``). Two ways say what needs an extra:

* a whole file, in :data:`NEEDS_EXTRA` below: a module that exists for an extra (collected for its
  doctests) or a test module that imports one at the top. Without the extra the file is not
  imported at all; it shows as one skip, ``needs the 'plot' extra: pip install
  'tabletop-solvers[plot]'`` (``pytest -rs`` lists the reasons);
* a single test, ``@pytest.mark.extra("plot")`` (several names: every one is needed),
  or a doctest in :data:`DOCTESTS_NEED_EXTRA`.

Everything else must pass without any extra: ``make test-core`` proves it in CI.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from arena.extras import has_extra, install_command

ROOT = Path(__file__).resolve().parent

#: The files that need an extra as a whole, relative to the root, and the extras each needs.
NEEDS_EXTRA: Mapping[str, tuple[str, ...]] = {
    # The library's modules that exist for an extra (tests/test_layers.py's FOR_EXTRA).
    "arena/openspiel.py": ("openspiel",),
    "packing/openspiel.py": ("openspiel",),
    "express/openspiel.py": ("openspiel",),
    "packing/plot.py": ("plot",),
    "packing/designplot.py": ("plot",),
    "arena/pettingzoo.py": ("rl",),
    "arena/vector_env.py": ("rl",),
    "packing/pettingzoo.py": ("rl",),
    "express/pettingzoo.py": ("rl",),
    "webapp/app.py": ("web",),
    "webapp/api.py": ("web",),
    "webapp/practice_api.py": ("web",),
    "webapp/progress_api.py": ("web",),
    "webapp/designer.py": ("web",),
    "webapp/guard.py": ("web",),
    "webapp/pairing_api.py": ("web",),
    # Test modules that import an extra at the top.
    "tests/arena/toy_openspiel.py": ("openspiel",),
    "tests/arena/test_openspiel.py": ("openspiel",),
    "tests/packing/test_openspiel.py": ("openspiel",),
    "tests/express/test_openspiel.py": ("openspiel",),
    "tests/test_environments.py": ("rl",),
    "tests/packing/test_plot.py": ("plot",),
    "tests/test_dask.py": ("dask",),
    "tests/arena/test_search_bots.py": ("openspiel",),
    "tests/arena/test_pettingzoo.py": ("rl",),
    "tests/packing/test_pettingzoo.py": ("rl",),
    "tests/test_vector_env.py": ("rl",),
    "tests/express/test_pettingzoo.py": ("rl",),
    # The browser tests serve the app with uvicorn (and need Playwright and Chromium besides).
    "tests/webapp/browser.py": ("web",),
    "tests/webapp/test_api.py": ("web",),
    "tests/webapp/test_docs_web.py": ("web",),
    "tests/webapp/test_progress_api.py": ("web",),
    "tests/webapp/test_browser.py": ("web",),
    "tests/webapp/test_bodies.py": ("web",),
    "tests/webapp/test_pages.py": ("web",),
    "tests/webapp/test_picture_limits.py": ("web",),
    "tests/webapp/test_security.py": ("web",),
    "tests/webapp/test_pairing.py": ("web",),
    "tests/webapp/_endpoints.py": ("web",),
}

#: The doctests (by the name pytest gives them, the object's dotted name) that need an extra.
DOCTESTS_NEED_EXTRA: Mapping[str, tuple[str, ...]] = {}


def skip_reason(extras: Iterable[str]) -> str | None:
    """Why something that needs ``extras`` is skipped here, or None when every one is installed."""
    missing = [extra for extra in extras if not has_extra(extra)]
    if not missing:
        return None
    return "; ".join(f"needs the {extra!r} extra: {install_command(extra)}" for extra in missing)


class NeedsExtra(pytest.File):
    """A file that needs a missing extra: collecting it is one skip, and it is never imported."""

    def __init__(self, *, reason: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reason = reason

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        raise pytest.skip.Exception(self.reason, allow_module_level=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    try:
        relative = file_path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return
    extras = NEEDS_EXTRA.get(relative)
    reason = skip_reason(extras) if extras is not None else None
    if reason is not None and outcome.get_result():
        reason = f"{relative} {reason}"
        outcome.force_result([NeedsExtra.from_parent(parent, path=file_path, reason=reason)])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        needs = [mark.args for mark in item.iter_markers("extra")]
        # A doctest item carries its doctest as .dtest (pytest.DoctestItem is public only from 8).
        if hasattr(item, "dtest") and item.name in DOCTESTS_NEED_EXTRA:
            needs.append(DOCTESTS_NEED_EXTRA[item.name])
        for extras in needs:
            reason = skip_reason(extras)
            if reason is not None:
                item.add_marker(pytest.mark.skip(reason=reason))
