"""The option values of the ``express`` command: numbers written in the digits 0-9 only.

Python's ``int()`` and ``float()`` read any Unicode digit (``int("٣")`` is 3) and ``"1_000"``;
a command line that takes those as numbers accepts nonsense it cannot echo back the way it was
typed. The counts, seeds and the search bots' simulations are :mod:`arena.cli`'s (the rules
both commands share); here are the values only ``express`` has: a number whose range the
library checks, and a time that refuses ``"1_0"`` too.

>>> integer("-3"), count("12"), seed("0")
(-3, 12, 0)
>>> integer("٣")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: invalid value '٣': a whole number is needed
"""

from __future__ import annotations

import argparse
import re

from arena import cli

__all__ = ["count", "integer", "seconds", "seed", "simulations"]

_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def integer(text: str) -> int:
    """A whole number in ASCII digits, of any sign: the library checks its range and quotes it
    (``--length``, ``--players``, ``--rounds``, ``--start-player``)."""
    if _INTEGER.fullmatch(text.strip()) is None:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: a whole number is needed")
    return int(text)


count = cli.whole_number
"""A whole number of at least 1 (``--games``, ``--node-limit``): :func:`arena.cli.whole_number`."""

seed = cli.seed
"""A seed, 0 or more: :func:`arena.cli.seed`, the rule every command shares."""


def seconds(text: str) -> float:
    """A positive, finite number of seconds, in ASCII digits (``--time-limit``)."""
    if _DECIMAL.fullmatch(text.strip()) is None:
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r}: a positive, finite number of seconds is needed"
        )
    return cli.seconds(text)


simulations = cli.simulations
"""Simulations per decision of OpenSpiel's search bots: :func:`arena.cli.simulations`."""
