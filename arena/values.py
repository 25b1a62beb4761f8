"""One rule for the numbers every public function takes: whole numbers, seconds and seeds.

A notebook hands the library NumPy's numbers as often as Python's, so a whole number is anything
``operator.index`` takes — ``3``, ``np.int64(3)``, a 0-d integer array — and comes back as
a plain ``int``; ``True``, ``2.0`` and ``"2"`` are refused (a bool is an int to Python, a float
may have lost digits, text is for the parsers). Every refusal names the argument and quotes the
value, in the same words wherever it is raised: a wrong kind of value raises ``TypeError``, a
value out of range the caller's own error (a ``ValueError``).

>>> import numpy as np
>>> whole_number(np.int64(3), "players", low=2, high=6)
3
>>> whole_number(2.0, "players")
Traceback (most recent call last):
...
TypeError: players must be a whole number, not float 2.0
>>> whole_number(7, "players", low=2, high=6)
Traceback (most recent call last):
...
arena.errors.ArenaError: invalid players 7: from 2 to 6
"""

from __future__ import annotations

import math
import numbers
import operator

import numpy as np

from arena.errors import ArenaError

__all__ = ["generator", "seconds", "seed", "whole_number"]


def _what(value: object) -> str:
    shown = repr(value)
    if len(shown) > 60:  # a whole list or array passed by mistake: its start is enough
        shown = shown[:57] + "..."
    return f"{type(value).__name__} {shown}"


def _prefix(where: str) -> str:
    return f"{where}: " if where else ""


def whole_number(
    value: object,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    error: type[Exception] = ArenaError,
    where: str = "",
) -> int:
    """``value`` as an ``int`` when it is a whole number from ``low`` to ``high`` (each bound
    optional, both included).

    ``name`` names the argument in the message, ``where`` (if given) the function that takes
    it (``"solve"``). A value of the wrong kind raises ``TypeError``; one out of range raises
    ``error`` (the caller's root error).
    """
    number = value if type(value) is int else None  # the common case, first
    # NumPy's bool is refused by name: NumPy before 2.0 lets operator.index take it.
    if number is None and not isinstance(value, (bool, np.bool_)):
        try:
            number = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            number = None
    if number is None:
        raise TypeError(f"{_prefix(where)}{name} must be a whole number, not {_what(value)}")
    if (low is not None and number < low) or (high is not None and number > high):
        if high is None:
            bounds = f"at least {low}"
        elif low is None:
            bounds = f"at most {high}"
        else:
            bounds = f"from {low} to {high}"
        raise error(f"{_prefix(where)}invalid {name} {number!r}: {bounds}")
    return number


def seconds(
    value: object, name: str, *, error: type[Exception] = ArenaError, where: str = ""
) -> float:
    """``value`` as a ``float`` when it is a positive, finite number of seconds: any real
    number (NumPy's too, whole or not), not a bool, not NaN nor infinity.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{_prefix(where)}{name} must be a number of seconds, not {_what(value)}")
    number = float(value)
    if not (math.isfinite(number) and number > 0):
        raise error(
            f"{_prefix(where)}invalid {name} {value!r}: a positive, finite number of seconds"
        )
    return number


def seed(
    value: object, name: str = "seed", *, error: type[Exception] = ArenaError, where: str = ""
) -> int:
    """``value`` as an ``int`` when it is a seed: a whole number, 0 or more (the command line's
    rule, ``arena.cli.seed``, and NumPy's)."""
    number = whole_number(value, name, where=where)
    if number < 0:
        raise error(
            f"{_prefix(where)}invalid {name} {number!r}: a seed is a whole number, 0 or more"
        )
    return number


def generator(
    value: object, name: str = "rng", *, error: type[Exception] = ArenaError, where: str = ""
) -> np.random.Generator:
    """``value`` when it is a ``numpy.random.Generator``; a new one seeded by it when it is a
    seed (:func:`seed`) or ``None`` (fresh entropy). Anything else raises ``TypeError`` naming
    the argument, rather than NumPy's message about its own.
    """
    if isinstance(value, np.random.Generator):
        return value
    if value is None:
        return np.random.default_rng()
    try:
        return np.random.default_rng(seed(value, name, error=error, where=where))
    except TypeError:
        raise TypeError(
            f"{_prefix(where)}{name} must be a numpy.random.Generator, a seed (a whole number, 0 or more) or "
            f"None, not {_what(value)}"
        ) from None
