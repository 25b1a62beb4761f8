"""The option values of the ``express`` command: numbers written in the digits 0-9 only.

Python's ``int()`` and ``float()`` read any Unicode digit (``int("٣")`` is 3) and ``int()``
reads ``"1_000"``; a command line that takes those as numbers accepts nonsense it cannot echo
back the way it was typed. Each value here refuses them in one line that quotes the input, and
then applies the shared rule of :mod:`arena.cli` (a count is at least 1, a seed 0 or more, a
time positive and finite).

>>> integer("-3"), count("12"), seed("0")
(-3, 12, 0)
>>> integer("٣")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: invalid value '٣': a whole number is needed (the digits 0-9)
"""

from __future__ import annotations

import argparse
import re

from arena import cli
from arena.search_bots import MIN_SIMULATIONS

__all__ = ["count", "integer", "seconds", "seed", "simulations"]

_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def integer(text: str) -> int:
    """A whole number in ASCII digits, of any sign: the library checks its range and quotes it
    (``--length``, ``--players``, ``--rounds``, ``--start-player``)."""
    if _INTEGER.fullmatch(text.strip()) is None:
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r}: a whole number is needed (the digits 0-9)"
        )
    return int(text)


def count(text: str) -> int:
    """A whole number of at least 1 (``--games``, ``--node-limit``)."""
    integer(text)
    return cli.whole_number(text)


def seed(text: str) -> int:
    """A seed: a whole number, 0 or more (:func:`arena.cli.seed`)."""
    integer(text)
    return cli.seed(text)


def seconds(text: str) -> float:
    """A positive, finite number of seconds, in ASCII digits (``--time-limit``)."""
    if _DECIMAL.fullmatch(text.strip()) is None:
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r}: a positive, finite number of seconds is needed"
        )
    return cli.seconds(text)


def simulations(text: str) -> int:
    """Simulations per decision of OpenSpiel's search bots: at least
    :data:`arena.search_bots.MIN_SIMULATIONS` (with one, the search has explored no move)."""
    value = count(text)
    if value < MIN_SIMULATIONS:
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r}: the search bots need at least {MIN_SIMULATIONS} "
            "simulations per decision (the first only visits the position)"
        )
    return value
