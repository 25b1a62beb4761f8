"""Old public names kept working: a module's ``__getattr__`` that warns and hands over the new
object, so code written against an earlier release keeps running while it moves."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import Any


def aliases(
    module: str, renamed: Mapping[str, str], *, served: Mapping[str, str] | None = None
) -> Callable[[str], Any]:
    """A module ``__getattr__`` serving each old name of ``renamed`` (old -> new) as the
    module's new object, with a :class:`DeprecationWarning` naming the new one. ``served``
    names, for an old name, another object of the module to hand over instead (a wrapper that
    also accepts the old keyword names).

    >>> import sys, types
    >>> mod = types.ModuleType("demo")
    >>> mod.new = 42
    >>> mod.__getattr__ = aliases("demo", {"old": "new"})
    >>> sys.modules["demo"] = mod
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = mod.old
    >>> value, caught[0].category.__name__, str(caught[0].message)
    (42, 'DeprecationWarning', 'demo.old is deprecated; use demo.new')
    """

    def __getattr__(name: str) -> Any:
        new = renamed.get(name)
        if new is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(
            f"{module}.{name} is deprecated; use {module}.{new}", DeprecationWarning, stacklevel=2
        )
        import sys

        return getattr(sys.modules[module], (served or {}).get(name, new))

    return __getattr__
