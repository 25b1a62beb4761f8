"""Optional dependencies: one way to import them, one error when one is missing.

The core (``arena``, ``packing``, ``express``) needs only OR-Tools and NumPy. Plots, progress
bars, tournament statistics, Dask, OpenSpiel and PettingZoo/Gymnasium come with extras of the ``tabletop-solvers``
distribution; every module that needs one imports it through :func:`import_extra`, inside the
function that uses it or at the top of a module that exists only for that extra, so a missing
extra is always the same :class:`MissingExtraError` naming the extra and the command that
installs it.

>>> import_extra("math", "plot").pi > 3
True
>>> import_extra("no_such_module_anywhere", "plot")
Traceback (most recent call last):
...
arena.extras.MissingExtraError: no_such_module_anywhere is not installed: it comes with the plot extra (pip install 'tabletop-solvers[plot]')
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any

DISTRIBUTION = "tabletop-solvers"
"""The name the library is installed by (``pip install tabletop-solvers``)."""

EXTRAS = (
    "plot",
    "progress",
    "dask",
    "openspiel",
    "completion",
    "rl",
    "compiled",
    "web",
)
"""The optional runtime extras the distribution declares (``pyproject.toml``; ``all`` is every one)."""

EXTRA_MODULES: Mapping[str, tuple[str, ...]] = {
    "plot": ("matplotlib",),
    "progress": ("tqdm",),
    "dask": ("dask", "distributed"),
    "openspiel": ("pyspiel",),
    "completion": ("shtab",),
    "rl": ("pettingzoo", "gymnasium"),
    "compiled": ("numba",),
    "web": ("fastapi", "uvicorn", "segno"),
}
"""The top-level modules each extra installs: the extra is there when every one of them is."""


def has_extra(extra: str) -> bool:
    """Whether every module of ``extra`` is installed (found, not imported: this is cheap).

    >>> has_extra("no_such_extra")
    Traceback (most recent call last):
    ...
    ValueError: unknown extra 'no_such_extra' (expected one of plot, progress, dask, openspiel, completion, rl, compiled, web)
    """
    if extra not in EXTRA_MODULES:
        raise ValueError(f"unknown extra {extra!r} (expected one of {', '.join(EXTRAS)})")
    return all(importlib.util.find_spec(module) is not None for module in EXTRA_MODULES[extra])


def install_command(extra: str) -> str:
    """The command that installs ``extra``.

    >>> install_command("dask")
    "pip install 'tabletop-solvers[dask]'"
    """
    return f"pip install '{DISTRIBUTION}[{extra}]'"


class MissingExtraError(ImportError):
    """An optional dependency is not installed; the message names its extra and the install command.

    It is an :class:`ImportError`, so code that already catches that keeps working; both command
    lines turn it into one line and exit status 2.
    """

    def __init__(self, module: str, extra: str) -> None:
        if extra not in EXTRAS:
            raise ValueError(f"unknown extra {extra!r} (expected one of {', '.join(EXTRAS)})")
        super().__init__(
            f"{module} is not installed: it comes with the {extra} extra ({install_command(extra)})",
            name=module,
        )
        self.module = module
        self.extra = extra

    def __reduce__(self) -> tuple[type[MissingExtraError], tuple[str, str]]:
        return (MissingExtraError, (self.module, self.extra))


def import_extra(module: str, extra: str) -> ModuleType:
    """Import ``module``, which the ``extra`` extra installs, or raise :class:`MissingExtraError`.

    A module that is installed but fails on import for another reason raises that error itself.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        missing = error.name or module
        if missing == module or module.startswith(missing + "."):
            raise MissingExtraError(module, extra) from None
        raise


_COMPILING = threading.Lock()


def compile_loops(
    namespace: dict[str, Any],
    loops: Iterable[str],
    options: Callable[[str], Mapping[str, Any]] | None = None,
) -> None:
    """Compile the functions named ``loops`` of a module with numba (the ``compiled`` extra),
    in place: each is rebound in ``namespace`` (the module's ``globals()``) to its compiled
    form, which numba compiles on its first call — by then every loop's name is a compiled
    function, and numba resolves a function's globals when it compiles it, so compiled loops
    call each other's compiled forms. Once (a compiled name is left alone), under a lock;
    ``options(name)``: more of ``numba.njit``'s options for that loop (``cache=True`` unless
    they say otherwise). Raises :class:`MissingExtraError` without numba."""
    numba = import_extra("numba", "compiled")
    with _COMPILING:
        for name in loops:
            if not isinstance(namespace[name], numba.core.dispatcher.Dispatcher):
                more = {"cache": True, **({} if options is None else options(name))}
                namespace[name] = numba.njit(**more)(namespace[name])
